#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# VLAN tag insertion on transmit, our netdev on both ports (port B in its
# network namespace), an 802.1Q subinterface on each. On a device that
# announces wqe_vlan_insert (the model's default) the Ethernet segment
# asks the device to insert the tag: the model counts the WQEs that did
# (wqe.vlan_insert) and the tagged frames it sent (tx.vlan). Run with
# VLAN_INSERT=off (vlan_noinsert.sh, the model's vlan_insert=off), the
# driver inlines the tagged header itself: tagged frames on the wire, no
# WQE asking for insertion. Either way ping crosses both ways.
# distro_vlan.sh runs it on the distribution's mlx5_core (DRIVER=distro),
# which uses the capability the same way.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the model's report tells how the tag was inserted"

VLAN_INSERT=${VLAN_INSERT:-on}
DRIVER=${DRIVER:-ours}
VID=42
PINGS=$(sized 50 10)

ktap_header 6

driver_pair_up

vlan_up() {
	modprobe 8021q || return 1
	ip link add link "$a" name "$a.$VID" type vlan id "$VID" &&
		ip -n "$NS" link add link "$b" name "$b.$VID" type vlan id "$VID" &&
		ip addr add 198.19.0.1/24 dev "$a.$VID" &&
		ip -n "$NS" addr add 198.19.0.2/24 dev "$b.$VID" &&
		ip link set "$a.$VID" up && ip -n "$NS" link set "$b.$VID" up
}
ktap_check "802.1Q subinterfaces $a.$VID and $b.$VID (netns $NS)" vlan_up

# The device inserts the tag (cap on) or the driver inlines it (off); the
# frames on the wire are tagged either way, and the peer's stack takes
# them on its VLAN device.
vlan_ping() {
	local i0 t0 i t rx0 rx

	i0=$(model_get "$bdf_a" wqe.vlan_insert)
	t0=$(model_get "$bdf_a" tx.vlan)
	rx0=$(ip netns exec "$NS" cat "/sys/class/net/$b.$VID/statistics/rx_packets")
	ping -c "$PINGS" -i 0.05 -W 2 198.19.0.2 >/dev/null || return 1
	i=$(( $(model_get "$bdf_a" wqe.vlan_insert) - i0 ))
	t=$(( $(model_get "$bdf_a" tx.vlan) - t0 ))
	rx=$(( $(ip netns exec "$NS" cat "/sys/class/net/$b.$VID/statistics/rx_packets") - rx0 ))
	diag "$PINGS pings over VLAN $VID: model wqe.vlan_insert +$i, tx.vlan +$t; $b.$VID rx_packets +$rx"
	[ "$t" -ge "$PINGS" ] && [ "$rx" -ge "$PINGS" ] || return 1
	if [ "$VLAN_INSERT" = on ]; then
		[ "$i" -ge "$PINGS" ]
	else
		[ "$i" -eq 0 ]
	fi
}
if [ "$VLAN_INSERT" = on ]; then
	ktap_check "ping over VLAN $VID: the device inserts the tag (wqe.vlan_insert)" vlan_ping
else
	ktap_check "ping over VLAN $VID: the tag inlined by the driver, no WQE asks for insertion" vlan_ping
fi

# And the other way, B's tagged frames into A's VLAN device.
vlan_ping_back() {
	local t0 t

	t0=$(model_get "$bdf_b" tx.vlan)
	ip netns exec "$NS" ping -c "$PINGS" -i 0.05 -W 2 198.19.0.1 >/dev/null || return 1
	t=$(( $(model_get "$bdf_b" tx.vlan) - t0 ))
	diag "B -> A: model tx.vlan +$t, errors: A $(model_get "$bdf_a" wqe.errors), B $(model_get "$bdf_b" wqe.errors)"
	[ "$t" -ge "$PINGS" ] && [ "$(model_get "$bdf_a" wqe.errors)" = 0 ] &&
		[ "$(model_get "$bdf_b" wqe.errors)" = 0 ]
}
ktap_check "ping back over VLAN $VID, no WQE error on either port" vlan_ping_back

ip link del "$a.$VID"
pair_down
unload_mlx5
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
