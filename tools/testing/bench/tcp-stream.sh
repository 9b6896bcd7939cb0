#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./tcp-stream): for each driver, an iperf3 TCP
# stream of DURATION seconds from port A to port B (in its namespace); the model's
# reports of both ports before and after, iperf3's JSON and, under the
# insn-count plugin, instruction snapshots go to
# $VM_RESULTS/raw/<driver>.*.

# shellcheck source-path=SCRIPTDIR source=../selftests/drivers/net/mlx5cx/lib.sh
source "$(dirname "$0")/../selftests/drivers/net/mlx5cx/lib.sh"

DURATION=${DURATION:-10}
DRIVERS=${DRIVERS:-ours distro}
RAW=$VM_RESULTS/raw
mkdir -p "$RAW"

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

for drv in $DRIVERS; do
	case $drv in
	ours) load_ours ;;
	distro) modprobe mlx5_core ;;
	*) echo "unknown driver $drv" >&2; exit 1 ;;
	esac
	a=$(netdev_of "$bdf_a")
	b=$(netdev_of "$bdf_b")
	if [ -n "${VM_INSN_COUNT:-}" ]; then
		case $drv in
		ours) ko=$OUR_KO ;;
		*) ko=$(modinfo -n mlx5_core) ;;
		esac
		"$(dirname "$0")/insn-report" --ranges mlx5_core "$ko" >"$RAW/$drv.text"
	fi
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
	pair_down
	modprobe -r mlx5_core 2>/dev/null || rmmod mlx5_core
done
