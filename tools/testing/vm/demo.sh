#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM: load our mlx5_core and show what it found, then use the
# two ports as two hosts (port B's netdev in a network namespace) and ping
# between them; then what the driver does with a burst of packets:
# pktgen bursts with the skb_tx_mpwqe private flag on and off (the
# driver's MPWQE counters and the model's count of WQEBBs fetched and
# doorbells rung, per packet; the raw reports go to $VM_RESULTS/raw for
# the host's burst table, as tools/testing/bench/pktgen-burst writes
# them), and the devlink parameter num_doorbells changed by a reload
# (the model's count of SQ doorbells per register).

set -eu

KO=$1
# Packets per pktgen run and the bursts of the table.
DEMO_N=${DEMO_N:-2000}
DEMO_BURSTS=${DEMO_BURSTS:-1 8 32 64}
# The selftests' helpers: the model's report (cxsim), pktgen, the
# two-host pair in netns "peer" at 198.18.0.1 and .2.
# shellcheck source-path=SCRIPTDIR source=../selftests/drivers/net/mlx5cx/lib.sh
source "$(dirname "$(readlink -f "$0")")/../selftests/drivers/net/mlx5cx/lib.sh"
RAW=$VM_RESULTS/raw
mkdir -p "$RAW"

echo "### emulated ConnectX functions (vendor 0x15b3)"
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x15b3 ] || continue
	printf '%s  %s:%s  class %s  BAR0 %s\n' "$(basename "$d")" \
		"$(cat "$d/vendor")" "$(cat "$d/device")" "$(cat "$d/class")" \
		"$(head -n 1 "$d/resource" | awk '{printf "%s-%s", $1, $2}')"
done

echo
echo "### insmod $KO"
dmesg -C
insmod "$KO"
dmesg | grep mlx5_core || true

echo
echo "### bound to"
for d in /sys/bus/pci/drivers/mlx5_core/0000:*; do
	echo "$(basename "$d") -> mlx5_core"
done

echo
echo "### devlink dev info"
devlink dev info

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)
a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
echo
echo "### the netdevs: $a (port A, 198.18.0.1) and $b (port B, in netns peer, 198.18.0.2)"
ethtool -i "$a" | grep -E '^(driver|firmware-version|bus-info)'
ip netns add peer
ip link set "$b" netns peer
ip addr add 198.18.0.1/24 dev "$a"
ip -n peer addr add 198.18.0.2/24 dev "$b"
ip link set "$a" up
ip -n peer link set "$b" up
for _ in $(seq 30); do
	[ "$(cat "/sys/class/net/$a/carrier" 2>/dev/null)" = 1 ] &&
		[ "$(ip netns exec peer cat "/sys/class/net/$b/carrier" 2>/dev/null)" = 1 ] && break
	sleep 0.5
done
ip -br addr show "$a"
ip -n peer -br addr show "$b"
ethtool "$a" | grep -E 'Speed|Link detected'
ethtool -l "$a" | sed -n '/Current/,$p' | grep -i combined

echo
echo "### ping A -> B and B -> A"
ping -c 3 -W 5 198.18.0.2
ip netns exec peer ping -c 3 -W 5 198.18.0.1
echo
echo "### ethtool -S $a (packets)"
ethtool -S "$a" | grep -E '^ *(rx|tx)_(packets|bytes):'

# rdelta KEY BEFORE AFTER: a counter's growth between two model reports.
rdelta() {
	echo $(($(report_get "$1" <"$3") - $(report_get "$1" <"$2")))
}
# ethtool_stat_in NAME FILE: a counter of an ethtool -S dump.
ethtool_stat_in() { awk -v k="$1:" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$2"; }
# per N X: X / N, three decimals.
per() { awk -v n="$1" -v x="$2" 'BEGIN { printf "%.3f", n ? x / n : 0 }'; }

echo
echo "### MPWQE: pktgen bursts of $DEMO_N 64-byte packets on one queue, skb_tx_mpwqe on, then off"
echo "# An MPWQE (enhanced multi-packet WQE) carries a burst's packets as data"
echo "# segments of one WQE: ceil((2 + n) / 4) WQEBBs for n packets, against"
echo "# one WQEBB a packet for a SEND WQE each. WQEBBs and doorbells: as the"
echo "# model counted them."
export PEER_DEV=$b
ethtool -L "$a" combined 1
bql_floor "$a" 4194304
wait_for 10 carrier "$a" 1
ping -c 1 -W 2 198.18.0.2 >/dev/null
echo 64 >"$RAW/size"
for mode in on off; do
	ethtool --set-priv-flags "$a" skb_tx_mpwqe "$mode"
	wait_for 10 carrier "$a" 1
	echo "$ ethtool --set-priv-flags $a skb_tx_mpwqe $mode"
	ethtool --show-priv-flags "$a" | grep skb_tx_mpwqe
	for burst in $DEMO_BURSTS; do
		tag=$RAW/ours-$mode-b$burst
		pktgen_setup "$a" "$DEMO_N" "$burst" 64
		# To B's MAC but an address B does not own: nothing comes back.
		echo "dst 198.18.0.99" >"/proc/net/pktgen/$a"
		ethtool -S "$a" >"$tag.ethtool-before"
		cxsim report "$bdf_a" >"$tag.before"
		pktgen_start 0
		sleep 0.5
		cxsim report "$bdf_a" >"$tag.after"
		ethtool -S "$a" >"$tag.ethtool-after"
		grep -A2 '^Result' "/proc/net/pktgen/$a" >"$tag.pktgen"
		pkts=$(rdelta tx.packets "$tag.before" "$tag.after")
		blks=$(($(ethtool_stat_in tx_mpwqe_blks "$tag.ethtool-after") - $(ethtool_stat_in tx_mpwqe_blks "$tag.ethtool-before")))
		mpkts=$(($(ethtool_stat_in tx_mpwqe_pkts "$tag.ethtool-after") - $(ethtool_stat_in tx_mpwqe_pkts "$tag.ethtool-before")))
		printf 'skb_tx_mpwqe %-3s burst %2d: %d packets, tx_mpwqe_blks +%d tx_mpwqe_pkts +%d; WQEBBs %s a packet, doorbells %s a packet\n' \
			"$mode" "$burst" "$pkts" "$blks" "$mpkts" \
			"$(per "$pkts" "$(rdelta dp.wqebbs "$tag.before" "$tag.after")")" \
			"$(per "$pkts" "$(rdelta sq.doorbells "$tag.before" "$tag.after")")"
	done
done
ethtool --set-priv-flags "$a" skb_tx_mpwqe on

# doorbells_rung: pktgen spreads DEMO_N packets over both channels' queues;
# prints the SQ doorbells the model counted per register (UAR page.offset).
doorbells_rung() {
	local r=$RAW/doorbells

	pktgen_setup "$a" "$DEMO_N" 1 64
	printf '%s\n' "dst 198.18.0.99" "queue_map_min 0" "queue_map_max 1" "flag QUEUE_MAP_RND" |
		while read -r l; do echo "$l" >"/proc/net/pktgen/$a"; done
	cxsim report "$bdf_a" >"$r.before"
	pktgen_start 0
	sleep 0.5
	cxsim report "$bdf_a" >"$r.after"
	awk 'FNR == NR { if ($1 ~ /^doorbell\.sq\./) b[$1] = $2; next }
	     $1 ~ /^doorbell\.sq\./ && $2 - b[$1] > 0 {
		printf "  register %s: %d doorbells\n", substr($1, 13), $2 - b[$1] }' \
		"$r.before" "$r.after"
}

echo
echo "### num_doorbells: the send doorbells (UAR registers) the channels spread over"
ethtool -L "$a" combined 2
wait_for 10 carrier "$a" 1
dl=pci/$bdf_a
echo "$ devlink dev param show $dl name num_doorbells"
devlink dev param show "$dl" name num_doorbells
dmesg | grep "$bdf_a" | grep -o 'doorbells [0-9]* in [0-9]* UAR pages' | tail -n 1
echo "2 channels, pktgen on both queues:"
doorbells_rung
for n in 1 0; do
	echo "$ devlink dev param set $dl name num_doorbells value $n cmode driverinit"
	devlink dev param set "$dl" name num_doorbells value "$n" cmode driverinit
	echo "$ devlink dev reload $dl"
	devlink dev reload "$dl"
	wait_for 15 carrier "$a" 1
	dmesg | grep "$bdf_a" | grep -o 'doorbells [0-9]* in [0-9]* UAR pages' | tail -n 1
	echo "2 channels, pktgen on both queues:"
	doorbells_rung
done
echo "(num_doorbells 0: every queue on the global doorbell, the event queues' UAR page)"
ip netns del peer

echo
echo "### rmmod mlx5_core"
rmmod mlx5_core
if dmesg | grep -iE 'mlx5_core [0-9a-f]{4}:.*(error|fail)'; then
	exit 1
fi
echo "done"
