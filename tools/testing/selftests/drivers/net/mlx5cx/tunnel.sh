#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# UDP tunnel offloads (VXLAN, GENEVE) of our netdev, port B in a netns as the
# peer, tunnels between A and B over the pair:
# - ethtool -k shows tx-udp_tnl-segmentation and
#   tx-udp_tnl-csum-segmentation on;
# - TCP through VXLAN on IANA's port 4789 (outer UDP checksum 0) and on
#   8472 with outer UDP checksums (GSO_PARTIAL) arrives byte for byte; the
#   device did the work: A's tx_tso_inner_packets and
#   tx_csum_partial_inner, the model's LSO WQEs; B (an XDP program
#   attached, so that the driver uses the CQE's verdict, not
#   CHECKSUM_COMPLETE) counts rx_csum_unnecessary_inner, and its stack
#   finds no bad inner TCP or outer UDP checksum;
# - a VXLAN frame whose inner TCP checksum is corrupted, written on the
#   wire from A with a packet socket: B does not count it as
#   rx_csum_unnecessary_inner, its stack drops it (Tcp InCsumErrors);
# - with rx-udp_tunnel-port-offload off at A and B, 8472 leaves the
#   devices' tables: the stack checksums and segments (A's inner counters
#   and the model's LSO WQEs stand still, B's device does not parse the
#   tunnel), and TCP still arrives intact;
# - TCP through GENEVE on IANA's 6081, sent through the device's software
#   parser (the eseg's swp offsets): intact, with the same inner counters
#   and LSO WQEs at A, rx_csum_unnecessary_inner at B
#   (tunnel_stateless_geneve_rx);
# - GENEVE on another port (6082), which neither device parses: intact, no
#   inner offload;
# - after a devlink reload of A (its device reset, its VXLAN table back to
#   4789 alone) the stack gives its port again (udp_tunnel_nic_reset_ntf(),
#   or to the distribution driver's new netdev): 8472 offloaded as before.
#
# distro_tunnel.sh runs it on the distribution's mlx5_core (DRIVER=distro),
# which takes the model's VXLAN, GENEVE RX and swp capabilities as it would
# a ConnectX-5's.
#
# Debian's 6.12 takes udp_tunnel_nic's mutex in
# udp_tunnel_notify_add_rx_port() and _del_rx_port() while vxlan_open()
# and vxlan_stop() hold the vxlan socket's spinlock, for every netdev with
# a udp_tunnel_nic table: the debug kernel reports "sleeping function
# called from invalid context" with that function right above
# __mutex_lock, before any driver is called.  Later kernels drop the
# spinlock (vxlan: drop sock_lock).  Those reports are the kernel's and
# are let through; the first turns lockdep off for the rest of the run.
# vm-args: --allow-report-via udp_tunnel_notify_(add|del)_rx_port

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
if ! command -v socat >/dev/null; then
	echo "1..0 # SKIP socat not installed"
	exit 4
fi

DRIVER=${DRIVER:-ours}

ktap_header 12

driver_pair_up

work=$(mktemp -d)
head -c "$(sized $((1 << 20)) $((256 << 10)))" /dev/urandom > "$work/src"
nsb() { ip netns exec "$NS" "$@"; }

# tunnel NAME TYPE ID NET ARGS...: NAME of TYPE (vxlan, geneve) with ID
# between A (NET.1) and B (NET.2, in the netns).
tunnel() {
	local name=$1 type=$2 id=$3 net=$4

	shift 4
	ip link add "$name" type "$type" id "$id" remote "$B_IP" "$@" &&
		ip -n "$NS" link add "$name" type "$type" id "$id" \
			remote "$A_IP" "$@" || return 1
	tnl_addrs "$name" "$net"
}

tunnels() {
	modprobe vxlan && modprobe geneve || return 1
	tunnel vx0 vxlan 42 10.42.0 dstport 4789 noudpcsum &&
		tunnel vx1 vxlan 43 10.43.0 dstport 8472 udpcsum &&
		tunnel gnv0 geneve 44 10.44.0 &&
		tunnel gnv1 geneve 45 10.45.0 dstport 6082 || return 1
	ping -c 1 -W 5 10.42.0.2 >/dev/null && ping -c 1 -W 5 10.43.0.2 >/dev/null &&
		ping -c 1 -W 5 10.44.0.2 >/dev/null &&
		ping -c 1 -W 5 10.45.0.2 >/dev/null
}

offloads_on() {
	local k

	k=$(ethtool -k "$a")
	grep -q '^tx-udp_tnl-segmentation: on' <<<"$k" &&
		grep -q '^tx-udp_tnl-csum-segmentation: on' <<<"$k" &&
		grep -q '^rx-udp_tunnel-port-offload: on' <<<"$k"
}
ktap_check "ethtool -k: tx-udp_tnl-segmentation and tx-udp_tnl-csum-segmentation on" offloads_on

setup() { tunnels && tnl_xdp_at_b "$work"; }
ktap_check "tunnels VXLAN 4789, VXLAN 8472 (udpcsum), GENEVE 6081 and 6082 up; XDP at B" setup


offloaded() {
	tnl_tcp_copy "$work" "$1" "$2" || return 1
	[ "$(tnl_d tso)" -gt 0 ] && [ "$(tnl_d csum)" -gt 0 ] &&
		{ [ "$MLX5CX_TESTPORT" != yes ] || [ "$(tnl_d lso)" -gt 0 ]; } &&
		[ "$(tnl_d rxin)" -gt 0 ] && [ "$(tnl_d tcperr)" = 0 ] &&
		[ "$(tnl_d udperr)" = 0 ]
}
ktap_check "VXLAN 4789: TCP intact, inner TSO and checksums by the device (A, model), rx_csum_unnecessary_inner at B" \
	offloaded 10.42.0.2 5001
ktap_check "VXLAN 8472 with outer UDP checksums (GSO_PARTIAL): the same, no checksum error at B" \
	offloaded 10.43.0.2 5002

# A VXLAN frame (4789, VNI 42) to B's 10.42.0.2:7000, a TCP SYN with a
# corrupted checksum, N times from A's packet socket.
inject_bad() {
	local amac bmac avx bvx

	amac=$(cat "/sys/class/net/$a/address")
	bmac=$(nsb cat "/sys/class/net/$b/address")
	avx=$(cat /sys/class/net/vx0/address)
	bvx=$(nsb cat /sys/class/net/vx0/address)
	$PY - "$a" "$amac" "$bmac" "$avx" "$bvx" "$A_IP" "$B_IP" "$1" <<'EOF'
import socket, struct, sys
dev, smac, dmac, ismac, idmac, sip, dip, n = sys.argv[1:9]
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
def ipv4(sa, da, proto, l4):
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64, proto,
                     0, sa, da)
    return ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + l4
mac = lambda m: bytes.fromhex(m.replace(":", ""))
isa, ida = socket.inet_aton("10.42.0.1"), socket.inet_aton("10.42.0.2")
tcp = struct.pack("!HHIIBBHHH", 40000, 7000, 1, 0, 5 << 4, 0x02, 65535, 0, 0)
good = csum(isa + ida + struct.pack("!BBH", 0, 6, len(tcp)) + tcp)
tcp = tcp[:16] + struct.pack("!H", (good ^ 0x5a5a) or 1) + tcp[18:]
inner = mac(idmac) + mac(ismac) + b"\x08\x00" + ipv4(isa, ida, 6, tcp)
vxlan = struct.pack("!II", 0x08000000, 42 << 8) + inner
udp = struct.pack("!HHHH", 50000, 4789, 8 + len(vxlan), 0) + vxlan
frame = mac(dmac) + mac(smac) + b"\x08\x00" + \
    ipv4(socket.inet_aton(sip), socket.inet_aton(dip), 17, udp)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
for _ in range(int(n)):
    s.send(frame)
EOF
}

bad_inner() {
	tnl_snap 0
	nsb socat -u "TCP-LISTEN:7000,bind=10.42.0.2,reuseaddr" /dev/null &
	sleep 1
	inject_bad 10 || return 1
	sleep 1
	kill %% 2>/dev/null
	wait
	tnl_snap 1
	diag "10 VXLAN frames with a bad inner TCP checksum: B rx_csum_unnecessary_inner +$(tnl_d rxin), Tcp InCsumErrors +$(tnl_d tcperr)"
	[ "$(tnl_d rxin)" = 0 ] && [ "$(tnl_d tcperr)" -ge 10 ]
}
ktap_check "VXLAN frame with a corrupted inner TCP checksum: not rx_csum_unnecessary_inner at B, dropped by its stack" \
	bad_inner

# Nothing offloaded: the stack did it all, and B's device parsed nothing.
not_offloaded() {
	tnl_tcp_copy "$work" "$1" "$2" || return 1
	[ "$(tnl_d tso)" = 0 ] && [ "$(tnl_d csum)" = 0 ] && [ "$(tnl_d lso)" = 0 ] &&
		[ "$(tnl_d rxin)" = 0 ] && [ "$(tnl_d tcperr)" = 0 ] &&
		[ "$(tnl_d udperr)" = 0 ]
}
port_off() {
	local rc=0

	ethtool -K "$a" rx-udp_tunnel-port-offload off &&
		nsb ethtool -K "$b" rx-udp_tunnel-port-offload off || return 1
	not_offloaded 10.43.0.2 5003 || rc=1
	ethtool -K "$a" rx-udp_tunnel-port-offload on
	nsb ethtool -K "$b" rx-udp_tunnel-port-offload on
	return $rc
}
ktap_check "VXLAN 8472 not in the devices' tables (rx-udp_tunnel-port-offload off): intact, no inner offload" \
	port_off
ktap_check "GENEVE 6081 (software parser): TCP intact, inner TSO and checksums by the device (A, model), rx_csum_unnecessary_inner at B" \
	offloaded 10.44.0.2 5004
ktap_check "GENEVE 6082 (parsed by neither device): TCP intact, no inner offload" \
	not_offloaded 10.45.0.2 5006

# The distribution's driver makes a new netdev at a reload (ours keeps it):
# it gets A's address and B's neighbour entry again.
after_reload() {
	local mac_b

	devlink dev reload "pci/$bdf_a" || return 1
	if [ "$DRIVER" = distro ]; then
		a=$(netdev_of "$bdf_a")
		mac_b=$(nsb cat "/sys/class/net/$b/address")
		sysctl -qw "net.ipv6.conf.$a.disable_ipv6=1"
		ip addr add "$A_IP/24" dev "$a"
		ip neigh replace "$B_IP" lladdr "$mac_b" dev "$a" nud permanent
		ip link set "$a" up
	fi
	wait_for 30 carrier "$a" 1 || return 1
	ping -c 1 -W 5 10.43.0.2 >/dev/null
	offloaded 10.43.0.2 5005
}
ktap_check "after a devlink reload of A: VXLAN 8472 programmed again, offloaded as before" \
	after_reload

rm -rf "$work"
ip -n "$NS" link set dev "$b" xdpdrv off
ip link del vx0
ip link del vx1
ip link del gnv0
ip link del gnv1
pair_down
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
