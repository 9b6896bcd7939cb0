#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./tcp-stream): for each driver, an iperf3 TCP
# stream of DURATION seconds from port A to port B (in its namespace); the model's
# reports of both ports before and after, iperf3's JSON and, under the
# insn-count plugin, instruction snapshots go to
# $VM_RESULTS/raw/<driver>.*.

# shellcheck source-path=SCRIPTDIR source=vm-lib.sh
source "$(dirname "$0")/vm-lib.sh"

DURATION=${DURATION:-10}
DRIVERS=${DRIVERS:-ours distro}

for drv in $DRIVERS; do
	bench_load "$drv" || exit 1
	pair_up "$a" "$b" || { echo "$drv: links did not come up" >&2; exit 1; }
	ping -c 2 -W 2 "$B_IP" >/dev/null
	ip netns exec "$NS" iperf3 -s -1 -D -I "$VM_RESULTS/iperf3.pid"
	sleep 1
	cxsim report "$bdf_a" >"$RAW/$drv.a-before"
	cxsim report "$bdf_b" >"$RAW/$drv.b-before"
	insn_snapshot "$drv-0" || true
	iperf3 -c "$B_IP" -t "$DURATION" -J >"$RAW/$drv.json" ||
		echo "$drv: iperf3 failed" >&2
	insn_snapshot "$drv-1" || true
	sleep 0.5
	cxsim report "$bdf_a" >"$RAW/$drv.a-after"
	cxsim report "$bdf_b" >"$RAW/$drv.b-after"
	for i in 0 1; do
		f=$VM_RESULTS/insn-$drv-$i.txt
		[ ! -f "$f" ] || mv "$f" "$RAW/$drv.insn$i"
	done
	echo "$drv: $(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["end"]; print("%.0f Mbit/s, %d retransmits" % (e["sum_received"]["bits_per_second"] / 1e6, e["sum_sent"].get("retransmits", 0)))' "$RAW/$drv.json")"
	bench_unload
done
