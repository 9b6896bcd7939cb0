#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO on the striding RQ (ethtool -K lro), port B in a netns sending a TCP
# stream to port A:
# - large-receive-offload is offered and off by default;
# - on: the stream (IPv4, then IPv6) arrives at A byte-exact, in fewer
#   SKBs than frames on the wire: A counts rx_lro_packets, and the model
#   (where its test port is) wrote fewer RX CQEs than frames it received (a session's segments
#   share one CQE); A's stack takes each LRO SKB, its headers rewritten
#   right, so B retransmits next to nothing (an SKB dropped for a wrong
#   length or address costs B retransmissions, though TCP repairs the
#   stream);
# - each stream's SKBs captured on A as the stack sees them (GRO off, so
#   that the SKBs are the driver's, an AF_PACKET socket with the vnet
#   header): at least $MIN_AGG of them larger than the MTU, and in every
#   one the IPv4 header checksum, the IP length (IPv6: payload length)
#   of the captured length, the TCP checksum right, and gso_type and a
#   gso_size whose segments fit the MTU (the stack resegments with it to
#   forward);
# - XDP cannot be attached while LRO is on: refused with the extack;
# - off again: one CQE per frame, no rx_lro_packets, still byte-exact;
# - with XDP attached, lro on is dropped (the feature stays off).
# distro_lro.sh runs it on the distribution's mlx5_core (DRIVER=distro),
# which sees the model's LRO caps: the same points, XDP's refusal said in
# the kernel log instead of the extack.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

if ! command -v socat >/dev/null; then
	echo "1..0 # SKIP socat not installed"
	exit 0
fi

DRIVER=${DRIVER:-ours}
SIZE_KB=${SIZE_KB:-$(sized 4096 1024)}
A_IP6=fd00:27::1
B_IP6=fd00:27::2

MIN_AGG=${MIN_AGG:-16}

ktap_header 17

driver_pair_up
if [ "$DRIVER" = distro ]; then
	# Its refusals, warnings by design (upstream says them so).
	XDP_REFUSED="can't set XDP while HW-GRO/LRO is on"
	LRO_DROPPED="LRO is incompatible with XDP"
else
	XDP_REFUSED="LRO is on: turn it off to attach XDP"
	LRO_DROPPED="Disabling LRO"
fi

work=$(mktemp -d)
nsb() { ip netns exec "$NS" "$@"; }
head -c $((SIZE_KB * 1024)) /dev/urandom >"$work/src"

# lro_is on|off: the feature's state (a request refused shows after it).
lro_is() {
	ethtool -k "$a" | grep -Eq "^large-receive-offload: $1( |\$)"
}

lro_set() {
	ethtool -K "$a" lro "$1" && lro_is "$1"
}

# counters ARRAY: A's rx_lro_packets (lro), rx_lro_bytes (lrob), and where
# the model's test port is, its RX CQEs (cqes) and frames received and not
# dropped (frames) of port A (B's IPv6 multicast chatter, once IPv6 is
# on, is dropped by A's steering).
declare -A C0 C1
counters() {
	local -n _c=$1
	local st rep

	st=$(ethtool_stats "$a")
	_c[lro]=$(report_get rx_lro_packets <<<"$st")
	_c[lrob]=$(report_get rx_lro_bytes <<<"$st")
	_c[cqes]=0 _c[frames]=0
	[ "$MLX5CX_TESTPORT" = yes ] || return 0
	rep=$(cxsim report "$bdf_a") || return 1
	_c[cqes]=$(report_get cqe.rx <<<"$rep")
	_c[frames]=$(($(report_get rx.frames <<<"$rep") -
		$(report_get rx.drops <<<"$rep")))
}

# stream IP PORT: B sends $work/src to A at IP over TCP; A's copy must be
# byte-exact. The counters' deltas into D_lro, D_lrob, D_cqes, D_frames.
stream() {
	local ip=$1 port=$2 dst=$work/dst tcp=TCP addr=$1 re0 lpid

	[[ $ip == *:* ]] && tcp=TCP6 addr="[$ip]"
	rm -f "$dst"
	counters C0 || return 1
	re0=$(snmp_get "$NS" Tcp RetransSegs)
	socat -u "$tcp-LISTEN:$port,bind=$addr,reuseaddr" "CREATE:$dst" &
	lpid=$!
	servers_up - "tcp:$port" || return 1
	within 60 nsb socat -u "FILE:$work/src" "$tcp:$addr:$port" || return 1
	wait "$lpid" || return 1
	counters C1 || return 1
	D_retrans=$(($(snmp_get "$NS" Tcp RetransSegs) - re0))
	D_lro=$((C1[lro] - C0[lro]))
	D_lrob=$((C1[lrob] - C0[lrob]))
	D_cqes=$((C1[cqes] - C0[cqes]))
	D_frames=$((C1[frames] - C0[frames]))
	diag "$SIZE_KB KiB to $ip: A rx_lro_packets +$D_lro rx_lro_bytes +$D_lrob; model of A: frames +$D_frames, RX CQEs +$D_cqes; B retransmitted $D_retrans"
	cmp -s "$work/src" "$dst"
}

# aggregated: the last stream came in LRO SKBs, fewer CQEs than frames,
# and A's stack took them (a header rewritten wrong drops each: B then
# retransmits what they held, more segments than there were LRO SKBs;
# a tail loss probe may retransmit one now and then, delayed ACKs of
# large SKBs under TCG, hence a tenth).
aggregated() {
	[ "$D_lro" -gt 0 ] && [ "$D_lrob" -gt 0 ] &&
		[ $((D_retrans * 10)) -lt "$D_lro" ] || return 1
	[ "$MLX5CX_TESTPORT" != yes ] || [ "$D_cqes" -lt "$D_frames" ]
}

# per_frame: no LRO SKB, and (with the test port) a CQE per frame.
per_frame() {
	[ "$D_lro" = 0 ] && [ "$D_cqes" = "$D_frames" ]
}

# capture_start PORT: A's SKBs of B's stream to PORT captured (GRO off on
# A: GRO would merge the LRO SKBs and rewrite their headers itself) into
# $work/cap.out by $work/cap.py until capture_check; 1 once it listens.
capture_start() {
	rm -f "$work/cap.stop" "$work/cap.ready" "$work/cap.out"
	ethtool -K "$a" gro off || return 1
	python3 "$work/cap.py" "$a" "$1" "$(cat "/sys/class/net/$a/mtu")" \
		"$work/cap.stop" "$work/cap.ready" >"$work/cap.out" 2>&1 &
	CAP_PID=$!
	wait_for 10 test -e "$work/cap.ready"
}

# capture_check: the capture stopped; every SKB's headers right, and at
# least MIN_AGG aggregated.
capture_check() {
	local rc

	touch "$work/cap.stop"
	wait "$CAP_PID"
	rc=$?
	ethtool -K "$a" gro on
	sed 's/^/# /' "$work/cap.out"
	[ "$rc" = 0 ] && grep -Eq "^aggregated [0-9]+ bad 0\$" "$work/cap.out" &&
		[ "$(awk '/^aggregated/ { print $2 }' "$work/cap.out")" -ge "$MIN_AGG" ]
}

cat >"$work/cap.py" <<'PY'
import os, socket, struct, sys

ifname, port, mtu, stop, ready = sys.argv[1], int(sys.argv[2]), \
	int(sys.argv[3]), sys.argv[4], sys.argv[5]
PACKET_VNET_HDR, PACKET_OUTGOING, SO_RCVBUFFORCE = 15, 4, 33


def csum_ok(b):
	# the 16-bit ones' complement sum is 0xffff: b as a big number is
	# a multiple of 0xffff (2^16 = 1 modulo 0xffff)
	if len(b) % 2:
		b += b'\0'
	return int.from_bytes(b, 'big') % 0xffff == 0


s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 64 << 20)
s.setsockopt(263, PACKET_VNET_HDR, 1)
s.bind((ifname, 3))
s.settimeout(0.2)
open(ready, 'w').close()
seen = agg = bad = 0
while True:
	try:
		pkt, addr = s.recvfrom(1 << 18)
	except socket.timeout:
		if os.path.exists(stop):
			break
		continue
	if addr[2] == PACKET_OUTGOING or len(pkt) < 10 + 14:
		continue
	flags, gso_type, _, gso_size = struct.unpack('<BBHH', pkt[:6])
	f = pkt[10:]
	et = struct.unpack('!H', f[12:14])[0]
	ip = f[14:]
	errs = []
	if et == 0x0800 and len(ip) >= 20 and ip[9] == 6:
		ihl = (ip[0] & 15) * 4
		tcp = ip[ihl:]
		iplen = struct.unpack('!H', ip[2:4])[0]
		if not csum_ok(ip[:ihl]):
			errs.append('IPv4 header checksum')
		if iplen != len(ip):
			errs.append('IPv4 total length %d of %d' % (iplen, len(ip)))
		pseudo = ip[12:20] + struct.pack('!BBH', 0, 6, len(tcp))
		gso_want, hdrs = 1, ihl
	elif et == 0x86dd and len(ip) >= 40 and ip[6] == 6:
		tcp = ip[40:]
		plen = struct.unpack('!H', ip[4:6])[0]
		if plen != len(tcp):
			errs.append('IPv6 payload length %d of %d' % (plen, len(tcp)))
		pseudo = ip[8:40] + struct.pack('!IxxxB', len(tcp), 6)
		gso_want, hdrs = 4, 40
	else:
		continue
	if len(tcp) < 20 or struct.unpack('!H', tcp[2:4])[0] != port:
		continue
	seen += 1
	if not csum_ok(pseudo + tcp):
		errs.append('TCP checksum 0x%04x' % struct.unpack('!H', tcp[16:18]))
	if len(f) > mtu + 14:
		agg += 1
		doff = (tcp[12] >> 4) * 4
		# resegmented: more than one segment, each within the MTU
		if gso_type != gso_want or \
		   not 0 < gso_size < len(tcp) - doff or \
		   gso_size > mtu - hdrs - doff:
			errs.append('gso_type %d gso_size %d' % (gso_type, gso_size))
	if errs:
		bad += 1
		if bad <= 5:
			print('%d bytes: %s' % (len(f), ', '.join(errs)))
print('seen', seen)
print('aggregated', agg, 'bad', bad)
PY

ipv6_up() {
	sysctl -qw "net.ipv6.conf.$a.disable_ipv6=0" &&
		nsb sysctl -qw "net.ipv6.conf.$b.disable_ipv6=0" &&
		ip -6 addr add "$A_IP6/64" dev "$a" nodad &&
		ip -n "$NS" -6 addr add "$B_IP6/64" dev "$b" nodad &&
		ip -6 neigh replace "$B_IP6" dev "$a" nud permanent \
			lladdr "$(nsb cat "/sys/class/net/$b/address")" &&
		ip -n "$NS" -6 neigh replace "$A_IP6" dev "$b" nud permanent \
			lladdr "$(cat "/sys/class/net/$a/address")"
}

# xdp_refused: attaching XDP while LRO is on fails with a message (ours:
# the extack's; the distribution's: the kernel log's); nothing attached,
# LRO still on.
xdp_refused() {
	local err

	gen_files "$work" xdp_pass.bpf.o || return 1
	err=$(ip link set dev "$a" xdpdrv obj "$work/xdp_pass.bpf.o" sec xdp 2>&1) &&
		return 1
	diag "ip link: $err"
	{ grep -qF "$XDP_REFUSED" <<<"$err" || dmesg | grep -qF "$XDP_REFUSED"; } &&
		! ip -d link show "$a" | grep -q 'prog/xdp' && lro_is on
}

# lro_dropped_with_xdp: with XDP attached, lro on does not take.
lro_dropped_with_xdp() {
	ip link set dev "$a" xdpdrv obj "$work/xdp_pass.bpf.o" sec xdp || return 1
	ethtool -K "$a" lro on >/dev/null 2>&1
	lro_is off
	local rc=$?

	ethtool -K "$a" lro off >/dev/null 2>&1
	ip link set dev "$a" xdpdrv off
	return $rc
}

ethtool -k "$a" | grep '^large-receive-offload' | sed 's/^/# /'
ktap_check "ethtool -k: large-receive-offload offered, off by default" \
	bash -c "ethtool -k $a | grep -q '^large-receive-offload: off\$'"
ktap_check "ethtool -K lro on" lro_set on
capture_start 6001 || diag "capture did not start"
ktap_check "LRO, IPv4: a TCP stream from B arrives byte-exact" stream "$A_IP" 6001
ktap_check "LRO, IPv4: each SKB A's stack sees has right lengths, checksums and gso_size" \
	capture_check
ktap_check "LRO, IPv4: fewer CQEs than wire frames, rx_lro_packets and rx_lro_bytes count, nothing dropped" \
	aggregated
ktap_check "XDP refused while LRO is on, with a message" xdp_refused
ktap_check "IPv6 on both ports (static neighbours)" ipv6_up
capture_start 6002 || diag "capture did not start"
ktap_check "LRO, IPv6: a TCP stream from B arrives byte-exact" stream "$A_IP6" 6002
ktap_check "LRO, IPv6: each SKB A's stack sees has right lengths, checksums and gso_size" \
	capture_check
ktap_check "LRO, IPv6: fewer CQEs than wire frames, rx_lro_packets counts, nothing dropped" \
	aggregated
ktap_check "ethtool -K lro off" lro_set off
ktap_check "LRO off, IPv4: the stream arrives byte-exact" stream "$A_IP" 6003
ktap_check "LRO off: one CQE per frame, rx_lro_packets still" per_frame
ktap_check "XDP attached: lro on does not take" lro_dropped_with_xdp
no_complaints "the driver logs no error or warning but the refusals" \
	"$XDP_REFUSED" "$LRO_DROPPED"

pair_down
unload_mlx5
rm -rf "$work"
ktap_finish
