#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./tcp-stream): for each driver, an iperf3 TCP
# stream of DURATION seconds from port A to port B (in its namespace),
# REPEAT times (2); the model's reports of both ports before and after,
# iperf3's JSON and, under the insn-count plugin, instruction snapshots go
# to $VM_RESULTS/raw/<driver>-r<run>.*.

# shellcheck source-path=SCRIPTDIR source=vm-lib.sh
source "$(dirname "$0")/vm-lib.sh"

DURATION=${DURATION:-10}
DRIVERS=${DRIVERS:-ours distro}
REPEAT=${REPEAT:-2}

for drv in $DRIVERS; do
	bench_load "$drv" || exit 1
	pair_up "$a" "$b" || { echo "$drv: links did not come up" >&2; exit 1; }
	ping -c 2 -W 2 "$B_IP" >/dev/null
	for ((rep = 1; rep <= REPEAT; rep++)); do
		run=$drv-r$rep
		iperf3_server || echo "$run: no iperf3 server" >&2
		cxsim report "$bdf_a" >"$RAW/$run.a-before"
		cxsim report "$bdf_b" >"$RAW/$run.b-before"
		insn_snapshot "$run-0" || true
		iperf3 -c "$B_IP" -t "$DURATION" -J >"$RAW/$run.json" ||
			echo "$run: iperf3 failed" >&2
		insn_snapshot "$run-1" || true
		sleep 0.5
		cxsim report "$bdf_a" >"$RAW/$run.a-after"
		cxsim report "$bdf_b" >"$RAW/$run.b-after"
		for i in 0 1; do
			f=$VM_RESULTS/insn-$run-$i.txt
			[ ! -f "$f" ] || mv "$f" "$RAW/$run.insn$i"
		done
		echo "$drv run $rep: $(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["end"]; print("%.0f Mbit/s, %d retransmits" % (e["sum_received"]["bits_per_second"] / 1e6, e["sum_sent"].get("retransmits", 0)))' "$RAW/$run.json")"
	done
	bench_unload
done
