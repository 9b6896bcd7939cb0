#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./pcie-mpwqe): pktgen bursts of 64-byte packets on
# port A through the distribution mlx5_core, skb_tx_mpwqe on, then off;
# the model's report before and after each run goes to the results folder
# and pcie-estimate turns it into bytes per packet and link utilisation.

# shellcheck source-path=SCRIPTDIR source=../selftests/drivers/net/mlx5cx/lib.sh
source "$(dirname "$0")/../selftests/drivers/net/mlx5cx/lib.sh"

BENCH=$(dirname "$(readlink -f "$0")")
N=${N:-20000}
PPS=${PPS:-20M}

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)
modprobe mlx5_core
a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
pair_up "$a" "$b" || { echo "links did not come up" >&2; exit 1; }
ping -c 2 -W 2 "$B_IP" >/dev/null
PEER_DEV=$b

pktgen_run() {
	pktgen_setup "$a" "$N" 32 && pktgen_start
}

for mode in on off; do
	ethtool --set-priv-flags "$a" skb_tx_mpwqe "$mode"
	wait_for 10 carrier "$a" 1
	sleep 1
	cxsim report "$bdf_a" >"$VM_RESULTS/before-$mode.txt"
	pktgen_run
	sleep 0.5
	cxsim report "$bdf_a" >"$VM_RESULTS/after-$mode.txt"
	for gen in 3 2; do
		echo "== skb_tx_mpwqe $mode, $PPS pps, Gen$gen x8"
		python3 "$BENCH/pcie-estimate" --before "$VM_RESULTS/before-$mode.txt" \
			--pps "$PPS" --gen "$gen" "$VM_RESULTS/after-$mode.txt"
	done
done
pair_down
modprobe -r mlx5_core
all_clean
