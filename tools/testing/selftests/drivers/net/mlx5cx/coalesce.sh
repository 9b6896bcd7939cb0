#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Interrupt moderation of our netdev: ethtool -c/-C (rx/tx usecs and
# frames, adaptive) programmed with MODIFY_CQ, bad values refused with the
# state unchanged, and what it does: a pktgen stream from A into B, B's
# interrupts (the model's MSI-X count of B's function) per packet B
# received. With rx-frames 32 (adaptive off, a period long enough that the
# count decides) at most 1/16; with rx-frames 1 about one (at least 1/2:
# NAPI polling while frames come in takes some without an interrupt).
# MLX5CX_QUICK=1 sends fewer packets.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

PKTS=20000
[ -n "${MLX5CX_QUICK:-}" ] && PKTS=4000

ktap_header 9

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

dmesg -C
load_ours
ktap_check "our mlx5_core binds both functions" all_bound mlx5_core
a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
PEER_DEV=$b
ktap_check "both links up with carrier ($b in netns $NS)" pair_up "$a" "$b"

nsb() { ip netns exec "$NS" "$@"; }
coal_get() { nsb ethtool -c "$b" | awk -v k="$1:" '$1 == k { print $2; exit }'; }

set_coal() {
	nsb ethtool -C "$b" adaptive-rx off adaptive-tx off rx-usecs 4000 rx-frames 32 || return 1
	diag "$(nsb ethtool -c "$b" | grep -E '^(Adaptive RX|rx-usecs|rx-frames|tx-usecs|tx-frames):' | tr '\n' ' ')"
	[ "$(coal_get rx-usecs)" = 4000 ] && [ "$(coal_get rx-frames)" = 32 ] &&
		nsb ethtool -c "$b" | grep -q '^Adaptive RX: off'
}
ktap_check "ethtool -C rx-usecs 4000 rx-frames 32 adaptive off: ethtool -c reads it back" set_coal

bad_coal() {
	local msg

	msg=$(nsb ethtool -C "$b" rx-usecs 5000 2>&1) && return 1
	diag "rx-usecs 5000: $msg"
	msg=$(nsb ethtool -C "$b" rx-frames 70000 2>&1) && return 1
	diag "rx-frames 70000: $msg"
	[ "$(coal_get rx-usecs)" = 4000 ] && [ "$(coal_get rx-frames)" = 32 ]
}
ktap_check "rx-usecs above 4095 and rx-frames above 65535 refused, state unchanged" bad_coal

# irq_per_pkt: interrupts of B per packet B received for a pktgen stream
# of $PKTS from A, as "interrupts packets".
irq_per_pkt() {
	local i0 i1 p0 p1

	pktgen_setup "$a" "$PKTS" 1
	i0=$(model_get "$bdf_b" msix.sent)
	p0=$(nsb cat "/sys/class/net/$b/statistics/rx_packets")
	pktgen_start
	wait_for 30 bash -c "[ \$(ip netns exec $NS cat /sys/class/net/$b/statistics/rx_packets) -ge $((p0 + PKTS)) ]"
	sleep 1
	i1=$(model_get "$bdf_b" msix.sent)
	p1=$(nsb cat "/sys/class/net/$b/statistics/rx_packets")
	echo "$((i1 - i0)) $((p1 - p0))"
}

moderated() {
	local r irq pkts

	r=$(irq_per_pkt)
	read -r irq pkts <<< "$r"
	diag "rx-frames 32: $irq interrupts for $pkts packets ($(awk -v i="$irq" -v p="$pkts" 'BEGIN { printf "%.4f", p ? i / p : 0 }') per packet)"
	[ "$pkts" -ge "$PKTS" ] && [ $((irq * 16)) -le "$pkts" ]
}
ktap_check "rx-frames 32: at most 1/16 interrupt per packet (model MSI-X count)" moderated

per_packet() {
	local r irq pkts

	nsb ethtool -C "$b" rx-frames 1 || return 1
	r=$(irq_per_pkt)
	read -r irq pkts <<< "$r"
	diag "rx-frames 1: $irq interrupts for $pkts packets ($(awk -v i="$irq" -v p="$pkts" 'BEGIN { printf "%.4f", p ? i / p : 0 }') per packet)"
	[ "$pkts" -ge "$PKTS" ] && [ $((irq * 2)) -ge "$pkts" ] && [ "$irq" -le $((pkts + pkts / 10)) ]
}
ktap_check "rx-frames 1: about one interrupt per packet (1/2 .. 1.1)" per_packet

adaptive() {
	nsb ethtool -C "$b" adaptive-rx on adaptive-tx on || return 1
	nsb ethtool -c "$b" | grep -q '^Adaptive RX: on  TX: on' || return 1
	# DIM reprograms the CQs as it measures: traffic flows throughout.
	nsb ping -c 3 -W 5 "$A_IP" >/dev/null && ping -c 3 -W 5 "$B_IP" >/dev/null &&
		nsb ethtool -C "$b" adaptive-rx off adaptive-tx off
}
ktap_check "adaptive (net_dim) on and off, traffic both ways" adaptive

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
complaints=$(mlx5_complaints)
[ -z "$complaints" ] || echo "$complaints" | sed 's/^/# /'
ktap_check "no mlx5 error or warning in the kernel log" test -z "$complaints"

ktap_finish
