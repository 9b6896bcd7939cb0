#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The port MTU (PMTU, as the driver sets it from the netdev's: MTU + 22
# bytes of Ethernet header, VLAN tag and FCS) bounds the frames a port
# takes and sends. A at MTU 9000, B at 1500: A's 3000-byte pings reach
# the wire and B's port drops them (rx.drops.mtu, PPCNT
# a_frame_too_long_errors: rx_oversize_pkts_phy), smaller ones cross. A
# at 1500 sending 2000-byte frames with pktgen (which ignores the MTU):
# A's port drops them (tx.drops.mtu, PPCNT if_out_errors: tx_errors_phy),
# nothing reaches B.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the model's report counts the drops"

N=$(sized 10 5)

ktap_header 7

ours_pair_up

rx_oversize() {
	local d0 t0 d t

	ip link set "$a" mtu 9000 || return 1
	d0=$(model_get "$bdf_b" rx.drops.mtu)
	t0=$(model_get "$bdf_a" tx.packets)
	ping -c "$N" -i 0.1 -W 1 -s 3000 "$B_IP" >/dev/null 2>&1 && return 1
	d=$(( $(model_get "$bdf_b" rx.drops.mtu) - d0 ))
	t=$(( $(model_get "$bdf_a" tx.packets) - t0 ))
	diag "A at 9000, B at 1500: $N pings of 3028-byte IP packets: A sent $t frames, B's port dropped $d (port.mtu A $(model_get "$bdf_a" port.mtu), B $(model_get "$bdf_b" port.mtu))"
	[ "$d" -ge "$N" ] && [ "$t" -ge "$N" ]
}
ktap_check "a frame over B's port MTU: dropped by B's port, counted (rx.drops.mtu)" rx_oversize

ktap_check "a frame within it crosses (ping -s 1400)" \
	bash -c "ping -c 3 -W 2 -s 1400 $B_IP >/dev/null"

tx_oversize() {
	local d0 r0 x0 d r x dev=$a

	ip link set "$a" mtu 1500 || return 1
	d0=$(model_get "$bdf_a" tx.drops.mtu)
	r0=$(model_get "$bdf_b" rx.packets)
	x0=$(model_get "$bdf_b" rx.drops.mtu)
	pktgen_setup "$dev" "$N" 1
	echo "pkt_size 2000" >"/proc/net/pktgen/$dev"
	pktgen_start
	echo "rem_device_all" >/proc/net/pktgen/kpktgend_0
	d=$(( $(model_get "$bdf_a" tx.drops.mtu) - d0 ))
	r=$(( $(model_get "$bdf_b" rx.packets) - r0 ))
	x=$(( $(model_get "$bdf_b" rx.drops.mtu) - x0 ))
	diag "A at 1500: pktgen $N frames of 2000 bytes: A's port dropped $d; B received $r, dropped $x over its MTU"
	[ "$d" -eq "$N" ] && [ "$x" -eq 0 ] && [ "$r" -lt "$N" ]
}
ktap_check "a frame over A's own port MTU: not sent, counted (tx.drops.mtu)" tx_oversize

ktap_check "traffic still crosses both ways" \
	bash -c "ping -c 3 -W 2 $B_IP >/dev/null && ip netns exec $NS ping -c 3 -W 2 $A_IP >/dev/null"

pair_down
ktap_check "rmmod" unload_mlx5
ktap_finish
