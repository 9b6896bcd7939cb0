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

ktap_header 15

if [ "$DRIVER" = distro ]; then
	bdf_a=$(cx_functions | sed -n 1p)
	bdf_b=$(cx_functions | sed -n 2p)
	dmesg -C
	modprobe mlx5_core
	ktap_check "distribution mlx5_core binds both functions" all_bound mlx5_core
	a=$(netdev_of "$bdf_a")
	b=$(netdev_of "$bdf_b")
	ktap_check "both links up with carrier ($b in netns $NS)" pair_up "$a" "$b"
	# Its refusals, warnings by design (upstream says them so).
	XDP_REFUSED="can't set XDP while HW-GRO/LRO is on"
	LRO_DROPPED="LRO is incompatible with XDP"
else
	ours_pair_up
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
	local ip=$1 port=$2 dst=$work/dst tcp=TCP addr=$1 re0

	[[ $ip == *:* ]] && tcp=TCP6 addr="[$ip]"
	rm -f "$dst"
	counters C0 || return 1
	re0=$(snmp_get "$NS" Tcp RetransSegs)
	socat -u "$tcp-LISTEN:$port,bind=$addr,reuseaddr" "CREATE:$dst" &
	wait_for 10 bash -c "ss -Hltn | grep -q ':$port '" || return 1
	within 60 nsb socat -u "FILE:$work/src" "$tcp:$addr:$port" || return 1
	wait || return 1
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
ktap_check "LRO, IPv4: a TCP stream from B arrives byte-exact" stream "$A_IP" 6001
ktap_check "LRO, IPv4: fewer CQEs than wire frames, rx_lro_packets and rx_lro_bytes count, nothing dropped" \
	aggregated
ktap_check "XDP refused while LRO is on, with a message" xdp_refused
ktap_check "IPv6 on both ports (static neighbours)" ipv6_up
ktap_check "LRO, IPv6: a TCP stream from B arrives byte-exact" stream "$A_IP6" 6002
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
