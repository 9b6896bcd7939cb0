#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# GRE and IP-in-IP offloads of our netdev (tunnel_stateless_gre,
# tunnel_stateless_ip_over_ip), port B in a netns as the peer, tunnels
# between A and B over the pair:
# - ethtool -k shows tx-gre-segmentation, tx-gre-csum-segmentation,
#   tx-ipxip4-segmentation and tx-ipxip6-segmentation on;
# - TCP through gretap (an Ethernet frame inside, key 1), through GRE with
#   checksums (IPv4 inside, key 2: GSO_GRE_CSUM through GSO_PARTIAL, the
#   GRE checksum the stack's, good for every segment) and through IPIP
#   arrives byte for byte; the device did the work: A's
#   tx_tso_inner_packets and tx_csum_partial_inner, the model's LSO WQEs;
#   B (an XDP program attached, so that the driver uses the CQE's verdict,
#   not CHECKSUM_COMPLETE) counts rx_csum_unnecessary_inner, its stack
#   finds no bad inner TCP checksum, and B's device finds no bad outer
#   (GRE) checksum: rx_csum_none stays within a few frames (the tunnels'
#   own ARP or IPv6 neighbour traffic), where segments of a bad GRE
#   checksum, which B's stack drops silently and TCP sends again, would
#   count;
# - a GRE frame (key 2, a good GRE checksum) whose inner TCP checksum is
#   corrupted, written on the wire from A with a packet socket: B does not
#   count it as rx_csum_unnecessary_inner, its stack drops it (Tcp
#   InCsumErrors);
# - with tx-gre-segmentation off at A the stack segments gretap's TCP
#   (no inner TSO, no LSO WQE), which still arrives intact.
#
# distro_gre.sh runs it on the distribution's mlx5_core (DRIVER=distro),
# which takes the model's GRE and IP-in-IP capabilities as a ConnectX-5's.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
if ! command -v socat >/dev/null; then
	echo "1..0 # SKIP socat not installed"
	exit 4
fi

DRIVER=${DRIVER:-ours}

ktap_header 10

driver_pair_up

work=$(mktemp -d)
head -c "$(sized $((1 << 20)) $((256 << 10)))" /dev/urandom > "$work/src"
nsb() { ip netns exec "$NS" "$@"; }

# tunnel NAME TYPE NET ARGS...: NAME of TYPE (gretap, gre, ipip) between
# A (NET.1) and B (NET.2, in the netns).
tunnel() {
	local name=$1 type=$2 net=$3

	shift 3
	ip link add "$name" type "$type" local "$A_IP" remote "$B_IP" "$@" &&
		ip -n "$NS" link add "$name" type "$type" local "$B_IP" \
			remote "$A_IP" "$@" || return 1
	tnl_addrs "$name" "$net"
}

tunnels() {
	local ip

	modprobe ip_gre && modprobe ipip || return 1
	tunnel gt0 gretap 10.50.0 key 1 &&
		tunnel gr1 gre 10.51.0 key 2 csum &&
		tunnel ip0 ipip 10.52.0 || return 1
	for ip in 10.50.0.2 10.51.0.2 10.52.0.2; do
		ping -c 1 -W 5 "$ip" >/dev/null || { diag "no ping to $ip"; return 1; }
	done
}

offloads_on() {
	local k f

	k=$(ethtool -k "$a")
	for f in tx-gre-segmentation tx-gre-csum-segmentation \
		 tx-ipxip4-segmentation tx-ipxip6-segmentation; do
		grep -q "^$f: on" <<<"$k" || { diag "$f: not on"; return 1; }
	done
}
t="ethtool -k: tx-gre-segmentation, tx-gre-csum-segmentation,"
t+=" tx-ipxip4-segmentation, tx-ipxip6-segmentation on"
ktap_check "$t" offloads_on

setup() { tunnels && tnl_xdp_at_b "$work"; }
ktap_check "tunnels gretap (key 1), GRE with checksums (key 2) and IPIP up; XDP at B" setup


offloaded() {
	tnl_tcp_copy "$work" "$1" "$2" || return 1
	[ "$(tnl_d tso)" -gt 0 ] && [ "$(tnl_d csum)" -gt 0 ] &&
		{ [ "$MLX5CX_TESTPORT" != yes ] || [ "$(tnl_d lso)" -gt 0 ]; } &&
		[ "$(tnl_d rxin)" -gt 0 ] && [ "$(tnl_d tcperr)" = 0 ] &&
		[ "$(tnl_d rxnone)" -le 4 ]
}
t="TCP intact, inner TSO and checksums by the device (A, model),"
t+=" rx_csum_unnecessary_inner at B"
ktap_check "gretap: $t" offloaded 10.50.0.2 5101
ktap_check "GRE with checksums (GSO_PARTIAL): TCP intact, the same, no checksum error at B" \
	offloaded 10.51.0.2 5102
ktap_check "IPIP: $t" offloaded 10.52.0.2 5103

# A GRE frame (key 2, checksum) to B's 10.51.0.2:7000, a TCP SYN with a
# corrupted checksum, N times from A's packet socket.
inject_bad() {
	local amac bmac

	amac=$(cat "/sys/class/net/$a/address")
	bmac=$(nsb cat "/sys/class/net/$b/address")
	$PY - "$a" "$amac" "$bmac" "$A_IP" "$B_IP" "$1" <<'EOF'
import socket, struct, sys
dev, smac, dmac, sip, dip, n = sys.argv[1:7]
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
isa, ida = socket.inet_aton("10.51.0.1"), socket.inet_aton("10.51.0.2")
tcp = struct.pack("!HHIIBBHHH", 40000, 7000, 1, 0, 5 << 4, 0x02, 65535, 0, 0)
good = csum(isa + ida + struct.pack("!BBH", 0, 6, len(tcp)) + tcp)
tcp = tcp[:16] + struct.pack("!H", (good ^ 0x5a5a) or 1) + tcp[18:]
inner = ipv4(isa, ida, 6, tcp)
# C and K: checksum over the GRE header and the inner packet, key 2
gre = struct.pack("!HHHHI", 0xa000, 0x0800, 0, 0, 2) + inner
gre = gre[:4] + struct.pack("!H", csum(gre)) + gre[6:]
frame = mac(dmac) + mac(smac) + b"\x08\x00" + \
    ipv4(socket.inet_aton(sip), socket.inet_aton(dip), 47, gre)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
for _ in range(int(n)):
    s.send(frame)
EOF
}

bad_inner() {
	tnl_snap 0
	nsb socat -u "TCP-LISTEN:7000,bind=10.51.0.2,reuseaddr" /dev/null &
	sleep 1
	inject_bad 10 || return 1
	sleep 1
	kill %% 2>/dev/null
	wait
	tnl_snap 1
	diag "10 GRE frames with a bad inner TCP checksum: B" \
		"rx_csum_unnecessary_inner +$(tnl_d rxin), Tcp InCsumErrors +$(tnl_d tcperr)"
	[ "$(tnl_d rxin)" = 0 ] && [ "$(tnl_d tcperr)" -ge 10 ]
}
t="GRE frame with a corrupted inner TCP checksum:"
t+=" not rx_csum_unnecessary_inner at B, dropped by its stack"
ktap_check "$t" bad_inner

# tx-gre-segmentation off: the stack segments, the device fills the inner
# checksums of each segment still.
gso_off() {
	local rc=0

	ethtool -K "$a" tx-gre-segmentation off || return 1
	tnl_tcp_copy "$work" 10.50.0.2 5104 || rc=1
	ethtool -K "$a" tx-gre-segmentation on
	[ $rc = 0 ] && [ "$(tnl_d tso)" = 0 ] && [ "$(tnl_d lso)" = 0 ] &&
		[ "$(tnl_d csum)" -gt 0 ] && [ "$(tnl_d tcperr)" = 0 ]
}
t="gretap with tx-gre-segmentation off at A: TCP intact,"
t+=" segmented by the stack (no inner TSO, no LSO WQE)"
ktap_check "$t" gso_off

rm -rf "$work"
ip -n "$NS" link set dev "$b" xdpdrv off
ip link del gt0
ip link del gr1
ip link del ip0
pair_down
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
