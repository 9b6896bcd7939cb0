#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Multi-buffer XDP (native mode) at MTU 9000, where a frame no longer fits
# one receive buffer (4K pages: single-buffer XDP stops at MTU 3498), on
# both RQ types (private flag rx_striding_rq on and off), port B in a
# network namespace receiving what port A sends:
#  (a) a program that is not frags-aware is refused with the extack that
#      says why and what works; nothing changes;
#  (b) a frags-aware XDP_DROP program counts every 8000-byte frame B's
#      port delivered in rx_xdp_drop, none reaches the stack, the pages
#      taken are what the sizing says, and every page comes back: once
#      the program is gone, no page pool of B's is left waiting for pages
#      (netlink page-pool-get);
#  (c) a frags-aware XDP_PASS program leaves TCP at MTU 9000 byte-exact;
#  (d) XDP_TX of 8000-byte frames (MACs swapped): every frame B's port
#      delivered is sent back to A as one SEND WQE of several data
#      segments (no MPWQE session), and A receives every one; UDP
#      datagrams of 7000 random bytes come back to their socket on A
#      byte-exact (addresses and ports swapped too);
#  XDP_REDIRECT of 8000-byte frames out of a veth: every one arrives,
#      every page comes back;
#  bpf_xdp_adjust_tail() shrinking frames by fragments: the pages it
#      frees and the rest balance;
#  MTU 1500 -> 9000 taken under a frags-aware program, refused under one
#      that is not;
#  (e) replacing the frags-aware program by one that is not is refused,
#      the old program stays and acts.
# ndo_xdp_xmit of 8000-byte multi-buffer frames (a veth redirecting into
# B): one multi-segment SEND WQE each, every frame out of B's port.
# xdp_features says rx-sg, ndo-xmit and ndo-xmit-sg, with a program or
# without (every channel has its XDP SQ).
# vm-args: --timeout 1200

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

FRAMES=${FRAMES:-$(sized 2000 400)}
MTU=9000
SIZE=8000
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
KN=${KSFT_NET_SRC:-${CXSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mlx5cx}/kselftest-net}
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

ktap_header 31

ours_bound
a_mac=$(cat "/sys/class/net/$a/address")

nsx() { ip netns exec "$NS" "$@"; }
bstat() { ethtool_stat "$b" "$1" "$NS"; }
xdp_attached() { ip -n "$NS" -d link show "$b" | grep -q 'prog/xdp'; }
xdp_prog_id() { ip -n "$NS" -d link show "$b" | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p'; }
b_mtu() { nsx cat "/sys/class/net/$b/mtu"; }

# prog NAME CFLAGS...: xdp_prog.c built into $TMP/xdp_NAME.bpf.o, for a
# program that names an ifindex known only here.
prog() {
	local name=$1

	shift
	clang -O2 -target bpf -I/usr/include/"$(uname -m)"-linux-gnu "$@" \
		-c "$LIB_DIR/xdp_prog.c" -o "$TMP/xdp_$name.bpf.o"
}
setup() {
	command -v clang >/dev/null || { needs "clang (tools/testing/install-deps)"; return 1; }
	gen_files "$TMP" xdp_pass.bpf.o xdp_pass_frags.bpf.o xdp_drop_frags.bpf.o \
		xdp_tx_frags.bpf.o xdp_shrink_frags.bpf.o xdp_reflect_frags.bpf.o || return 1
	pair_up "$a" "$b" || return 1
	ip link set "$a" mtu "$MTU" && ip -n "$NS" link set "$b" mtu "$MTU" || return 1
	wait_for 15 ns_carrier "$b" 1 && wait_for 15 carrier "$a" 1
}
ktap_check "links up at MTU $MTU, $b in netns $NS; XDP programs built" setup
ifx=$(nsx cat "/sys/class/net/$b/ifindex")

attach() { ip -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_$1.bpf.o" sec "$2"; }
detach() { ip -n "$NS" link set dev "$b" xdpdrv off; }

# ynl: the netdev netlink family, with the kernel's YNL library (the
# kselftest copy tools/testing/install-deps extracts).
have_ynl() { [ -f "$KN/tools/net/ynl/lib/ynl.py" ] && $PY -c 'import yaml' 2>/dev/null; }
ynl_py() {
	nsx "$PY" - "$KN" "$ifx" "$@" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1] + "/tools/net/ynl")
from lib import YnlFamily
y = YnlFamily(sys.argv[1] + "/Documentation/netlink/specs/netdev.yaml", schema="")
ifx = int(sys.argv[2])
if sys.argv[3] == "features":
    d = y.do("dev-get", {"ifindex": ifx})
    print(" ".join(sorted(d.get("xdp-features", []))))
else:
    pools = [p for p in y.dump("page-pool-get", {}) if p.get("ifindex") == ifx]
    det = [p for p in pools if "detach-time" in p]
    print(len(pools), len(det), sum(p.get("inflight", 0) for p in det))
EOF
}
# Every page of the pools destroyed with the program came back: no pool
# of B's is detached and waiting.
POOLS=
pools_settled() {
	POOLS=$(ynl_py pools) || return 1
	[ "$(awk '{ print $2 }' <<<"$POOLS")" = 0 ]
}


YNL_NEEDED="the kernel's YNL library ($KN/tools/net/ynl, tools/testing/install-deps) and python3-yaml"

# pages_back: every page of the pools the last program's RQs used came
# back once it was gone (netlink page-pool-get: no pool of B's detached
# and waiting); skipped, saying why, without YNL.
pages_back() {
	have_ynl || { needs "$YNL_NEEDED"; return 1; }
	wait_for 30 pools_settled
	local rc=$?

	diag "page pools of $b after the program went (pools, detached, pages in flight there): $POOLS"
	return $rc
}

xdp_features() {
	local none with f rc=0

	have_ynl || { needs "$YNL_NEEDED"; return 1; }
	none=$(ynl_py features) || return 1
	attach drop_frags xdp.frags || return 1
	with=$(ynl_py features)
	detach
	diag "xdp_features: no program: $none; frags program attached: $with"
	# (each flag a word of its own: grep -w would take ndo-xmit-sg for
	# ndo-xmit)
	for f in rx-sg ndo-xmit ndo-xmit-sg; do
		[[ " $none " == *" $f "* && " $with " == *" $f "* ]] || rc=1
	done
	return $rc
}
ktap_check "xdp_features: rx-sg, ndo-xmit and ndo-xmit-sg, with a program and without" xdp_features

# (a) Not frags-aware at a non-linear MTU: refused, the extack names the
# single-buffer limit and what works; no program, MTU as it was.
refused_nonfrags() {
	local err rc=0

	err=$(attach pass xdp 2>&1) && rc=1
	diag "non-frags program at MTU $MTU: $(grep -o 'MTU.*' <<<"$err" | head -n 1)"
	grep -q "MTU $MTU too large for single-buffer XDP, max [0-9]*; xdp.frags works" <<<"$err" || rc=1
	xdp_attached && rc=1
	[ "$(b_mtu)" = "$MTU" ] || rc=1
	ping -c 2 -W 5 "$B_IP" >/dev/null || rc=1
	return $rc
}

# pages_as_sized on|off FRAMES PAGES WRITTEN: the pages FRAMES dropped
# 8000-byte frames took from the page pool and the pages the device wrote
# them into, as the sizing (en/params_rx.c) says on 4K pages and x86-64
# (64-byte cache lines, a 320-byte skb_shared_info). Legacy RQ: every WQE
# three whole pages (3518 bytes after the XDP headroom and
# skb_shared_info, then 4096 a fragment), all three written, exact but
# for the page open at either end; none taken, since a dropped frame's
# buffers stay in the WQE, posted again. Striding RQ: the 256-byte
# strides a frame fills, and the 896-byte buffer its headers are copied
# into; 64 pages per WQE taken, refilled once 2 WQEs are free: exact to
# within that batch and a WQE.
pages_as_sized() {
	local want tol

	if [ "$(getconf PAGESIZE)" != 4096 ] || [ "$(uname -m)" != x86_64 ]; then
		diag "pages per frame worked out for 4K pages on x86-64 only: not checked"
		return 0
	fi
	if [ "$1" = off ]; then
		diag "pages taken: $3 (none expected), written: $4, as sized: $(($2 * 3)) (within 3)"
		[ "$3" -le 3 ] && [ "$4" -ge $(($2 * 3 - 3)) ] && [ "$4" -le $(($2 * 3 + 3)) ]
		return
	else
		want=$(( ($2 * ((SIZE + 255) / 256 * 256 + 896) + 4095) / 4096 ))
		tol=$((64 * (2 + 1) + 2))
	fi
	diag "pages taken: $3, as sized: $want (within $tol)"
	[ "$3" -ge $((want - tol)) ] && [ "$3" -le $((want + tol)) ]
}

# traffic_mb: $FRAMES frames of $SIZE bytes from A, 8 a burst, between
# two snapshots of the counters at rest (pair_rest S0, S1): the program
# just attached has its RQs filled first, and what was sent is counted
# before the reads.
traffic_mb() {
	pair_rest S0 || return 1
	pktgen_setup "$a" "$FRAMES" 8 "$SIZE" && pktgen_start || return 1
	pair_rest S1
}

# (b) XDP_DROP of 8000-byte frames, then the pages back.
drop_mb() {
	local d r p w mr md ma rc=0

	attach drop_frags xdp.frags || return 1
	traffic_mb S0 S1 || { detach; return 1; }
	delta d e.rx_xdp_drop
	delta r e.rx_packets
	delta p e.rx_pages
	delta w b.pcie.rx.wr_pages
	delta mr b.rx.packets
	delta md b.rx.drops
	delta ma a.tx.packets
	detach
	diag "XDP_DROP $SIZE-byte frames, rx_striding_rq $1: A sent $ma, B port delivered $mr, dropped $md; rx_xdp_drop +$d, rx_packets +$r, rx_pages +$p"
	[ "$mr" -gt 0 ] && [ "$d" -eq "$mr" ] && [ "$r" -eq 0 ] &&
		[ "$ma" -eq $((mr + md)) ] || rc=1
	pages_as_sized "$1" "$mr" "$p" "$w" || rc=1
	return $rc
}

# (c) XDP_PASS: TCP at MTU 9000 through a frags-aware program, compared.
tcp_exact() {
	local sent got d0 r0

	head -c $((8 << 20)) /dev/urandom >"$TMP/blob"
	sent=$(sha256sum <"$TMP/blob" | cut -d' ' -f1)
	tcp_sink_start "$TMP/tcp.out"
	d0=$(bstat rx_xdp_drop) r0=$(bstat rx_bytes)
	tcp_send "$TMP/blob" || return 1
	got=$(cut -d' ' -f1 <"$TMP/tcp.out")
	diag "XDP_PASS TCP at MTU $MTU: sent 8 MiB sha256 ${sent:0:16}, received $(cut -d' ' -f2 <"$TMP/tcp.out") bytes sha256 ${got:0:16}; rx_bytes +$(( $(bstat rx_bytes) - r0 )), rx_xdp_drop +$(( $(bstat rx_xdp_drop) - d0 ))"
	[ "$got" = "$sent" ] && [ "$(bstat rx_xdp_drop)" = "$d0" ] &&
		[ $(( $(bstat rx_bytes) - r0 )) -ge $((8 << 20)) ]
}
pass_mb() {
	local rc

	attach pass_frags xdp.frags || return 1
	tcp_exact
	rc=$?
	detach
	return $rc
}

# (d) XDP_TX of multi-buffer frames, back to A (counted at A's door).
udp_back() { echo "udp $(udp_tap_get "" "$a" ingress)"; }
tx_mb() {
	local x f e mr u t w wb m rc=0

	attach tx_frags xdp.frags || return 1
	udp_tap_add "" "$a" ingress || { detach; return 1; }
	PAIR_SNAP_MORE=udp_back traffic_mb S0 S1 ||
		{ udp_tap_del "" "$a" ingress; detach; return 1; }
	delta x e.rx_xdp_tx_xmit
	delta f e.rx_xdp_tx_full
	delta e e.rx_xdp_tx_err
	delta mr b.rx.packets
	delta t b.tx.packets
	delta u x.udp
	delta w b.sq_wqes
	delta wb b.sq_wqebbs
	delta m b.sq_mpwqes
	udp_tap_del "" "$a" ingress
	detach
	diag "XDP_TX $SIZE-byte frames, rx_striding_rq $1: B delivered $mr; rx_xdp_tx_xmit +$x, tx_full +$f, tx_err +$e; B port sent $t in $w WQEs ($m MPWQEs), $wb WQEBBs; A received $u back"
	# Each frame one SEND WQE of several segments: 2 WQEBBs or more.
	[ "$x" -gt 0 ] && [ "$e" -eq 0 ] && [ $((x + f)) -eq "$mr" ] &&
		[ "$t" -ge "$x" ] && [ "$u" -eq "$x" ] && [ "$m" -eq 0 ] &&
		[ "$w" -ge "$x" ] && [ "$wb" -ge $((2 * x)) ] || rc=1
	return $rc
}

# XDP_TX byte-exact: UDP datagrams of 7000 random bytes from a socket on
# A, which B's program sends back with addresses and ports swapped, to
# the same socket: each compared with what was sent.
tx_exact() {
	local n=200 x0 x got rc=0

	attach reflect_frags xdp.frags || return 1
	sleep 1
	x0=$(bstat rx_xdp_tx_xmit)
	got=$("$PY" - "$A_IP" "$B_IP" "$n" <<'PYEOF'
import os, socket, sys
a, b, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((a, 6000))
s.settimeout(5)
same = 0
for _ in range(n):
    data = os.urandom(7000)
    s.sendto(data, (b, 6001))
    try:
        got, peer = s.recvfrom(9000)
    except socket.timeout:
        continue
    same += got == data and peer == (b, 6001)
print(same)
PYEOF
)
	x=$(( $(bstat rx_xdp_tx_xmit) - x0 ))
	detach
	diag "XDP_TX byte-exact, rx_striding_rq $1: $n UDP datagrams of 7000 random bytes from A, $got came back identical; rx_xdp_tx_xmit +$x"
	[ "$got" = "$n" ] && [ "$x" -ge "$n" ] || rc=1
	return $rc
}

# bpf_xdp_adjust_tail() drops the last 5000 bytes of each 8000-byte
# frame, freeing the fragments it empties, and passes the rest (which the
# stack drops: shorter than its IP header says): every frame reaches the
# stack, none is counted dropped by XDP, and every page comes back.
truncated() {
	nsx awk '$1 == "IpExt:" && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == "IpExt:" && h { print $c["InTruncatedPkts"]; exit }' /proc/net/netstat
}
truncated_kv() { echo "truncated $(truncated)"; }
shrink_mb() {
	local r d mr ab rc=0

	attach shrink_frags xdp.frags || return 1
	PAIR_SNAP_MORE=truncated_kv traffic_mb S0 S1 || { detach; return 1; }
	delta r e.rx_packets
	delta d e.rx_xdp_drop
	delta mr b.rx.packets
	delta ab x.truncated
	detach
	diag "XDP_PASS after bpf_xdp_adjust_tail(-5000), rx_striding_rq $1: B delivered $mr; rx_packets +$r, rx_xdp_drop +$d; IP truncated +$ab"
	[ "$mr" -gt 0 ] && [ "$r" -eq "$mr" ] && [ "$d" -eq 0 ] && [ "$ab" -eq "$mr" ] || rc=1
	return $rc
}

# XDP_REDIRECT of multi-buffer frames out of B: a frags-aware program
# redirects every 8000-byte frame B's port delivers out of a veth (v0,
# whose ndo_xdp_xmit takes frames with fragments), its peer v1 receives
# every one, and the pages come back (xdp_return_frame of a page_pool
# frame with fragments) once the program is gone.
v1_received() { echo "v1_rx $(nsx cat /sys/class/net/v1/statistics/rx_packets)"; }
redirect_mb() {
	local r mr v rc=0 vifx

	modprobe veth || return 1
	ip -n "$NS" link add v0 mtu "$MTU" type veth peer name v1 mtu "$MTU" || return 1
	nsx sysctl -qw net.ipv6.conf.v0.disable_ipv6=1 net.ipv6.conf.v1.disable_ipv6=1
	ip -n "$NS" link set v0 up && ip -n "$NS" link set v1 up &&
		nsx ethtool -K v0 gro on >/dev/null && nsx ethtool -K v1 gro on >/dev/null ||
		{ ip -n "$NS" link del v0; return 1; }
	vifx=$(nsx cat /sys/class/net/v0/ifindex)
	prog redirect_v0 -DACTION=XDP_PASS -DFRAGS -DREDIRECT_IFINDEX="$vifx" &&
		attach redirect_v0 xdp.frags || { ip -n "$NS" link del v0; return 1; }
	PAIR_SNAP_MORE=v1_received traffic_mb S0 S1 ||
		{ detach; ip -n "$NS" link del v0; return 1; }
	delta r e.rx_xdp_redirect
	delta mr b.rx.packets
	delta v x.v1_rx
	detach
	ip -n "$NS" link del v0
	diag "XDP_REDIRECT $SIZE-byte frames $b -> v0, rx_striding_rq $1: B delivered $mr, rx_xdp_redirect +$r, v1 received $v"
	[ "$mr" -gt 0 ] && [ "$r" -eq "$mr" ] && [ "$v" -eq "$r" ] || rc=1
	return $rc
}

# ndo_xdp_xmit of multi-buffer frames: 8000-byte frames pktgen sends from
# v1 reach its veth peer v0 as multi-buffer xdp_buffs (a frags-aware
# program), which redirects them into B (bpf_redirect: B's ndo_xdp_xmit,
# which takes frames with fragments only as ndo-xmit-sg says); B sends
# each as one SEND WQE of several segments, A's port receives every one.
xmit_mb_cleanup() {
	ip -n "$NS" link set dev v0 xdp off 2>/dev/null
	ip -n "$NS" link del v0 2>/dev/null
	detach
}
xmit_mb() {
	local n=200 x f e t ar ad w wb m rc=0

	modprobe veth || return 1
	ip -n "$NS" link add v0 mtu "$MTU" type veth peer name v1 mtu "$MTU" || return 1
	nsx sysctl -qw net.ipv6.conf.v0.disable_ipv6=1 net.ipv6.conf.v1.disable_ipv6=1
	ip -n "$NS" link set v0 up && ip -n "$NS" link set v1 up || { xmit_mb_cleanup; return 1; }
	prog redirect_frags -DACTION=XDP_PASS -DFRAGS -DREDIRECT_IFINDEX="$ifx" &&
		attach drop_frags xdp.frags &&
		ip -n "$NS" link set dev v0 xdpdrv obj "$TMP/xdp_redirect_frags.bpf.o" sec xdp.frags ||
		{ xmit_mb_cleanup; return 1; }
	pair_rest S0 || { xmit_mb_cleanup; return 1; }
	modprobe pktgen
	# One shell in the netns for the whole set-up (each costs its start).
	nsx bash -c "source '$LIB_DIR/lib.sh'; pktgen_attach v1 || exit 1
		for l in 'count $n' 'pkt_size $SIZE' 'burst 1' 'delay 0' \
			'dst $A_IP' 'dst_mac $a_mac'; do
			echo \"\$l\" >/proc/net/pktgen/v1 || exit 1
		done" || { xmit_mb_cleanup; return 1; }
	traffic 0 nsx bash -c "echo start > /proc/net/pktgen/pgctrl"
	pair_rest S1 || { xmit_mb_cleanup; return 1; }
	delta x e.tx_xdp_xmit
	delta f e.tx_xdp_full
	delta e e.tx_xdp_err
	delta t b.tx.packets
	delta ar a.rx.packets
	delta ad a.rx.drops
	ar=$((ar + ad))
	delta w b.sq_wqes
	delta wb b.sq_wqebbs
	delta m b.sq_mpwqes
	xmit_mb_cleanup
	diag "ndo_xdp_xmit of $SIZE-byte frames v0 -> $b: pktgen $n from v1; tx_xdp_xmit +$x, tx_xdp_full +$f, tx_xdp_err +$e; B port sent $t in $w WQEs ($m MPWQEs), $wb WQEBBs; A's port received $ar"
	[ "$x" -eq "$n" ] && [ "$t" -eq "$x" ] && [ "$ar" -eq "$x" ] &&
		[ "$m" -eq 0 ] && [ "$wb" -ge $((2 * x)) ] || rc=1
	return $rc
}

# drops_from D0 N: rx_xdp_drop of B is N past D0, or more.
drops_from() { [ "$(bstat rx_xdp_drop)" -ge $(($1 + $2)) ]; }

# MTU changes under XDP: a frags-aware program attached at MTU 1500
# (linear buffers) stays through MTU 9000 (the channels rebuilt scattered)
# and acts there; one that is not frags-aware, attached at 1500, refuses
# MTU 9000 (-EINVAL: ndo_change_mtu has no extack to say why), MTU and
# program unchanged.
mtu_change() {
	local d0 err id rc=0

	ip -n "$NS" link set "$b" mtu 1500 && wait_for 15 ns_carrier "$b" 1 || return 1
	attach drop_frags xdp.frags || return 1
	ip -n "$NS" link set "$b" mtu "$MTU" || rc=1
	wait_for 15 ns_carrier "$b" 1
	d0=$(bstat rx_xdp_drop)
	pktgen_setup "$a" 50 1 "$SIZE"
	pktgen_start
	wait_for 30 drops_from "$d0" 50
	diag "frags-aware program through MTU 1500 -> $MTU, rx_striding_rq $1: MTU $(b_mtu), rx_xdp_drop +$(( $(bstat rx_xdp_drop) - d0 )) of 50 $SIZE-byte frames"
	[ "$(b_mtu)" = "$MTU" ] && [ "$(bstat rx_xdp_drop)" -ge $((d0 + 50)) ] || rc=1
	detach
	ip -n "$NS" link set "$b" mtu 1500 && attach pass xdp || { ip -n "$NS" link set "$b" mtu "$MTU"; return 1; }
	id=$(xdp_prog_id)
	err=$(ip -n "$NS" link set "$b" mtu "$MTU" 2>&1) && rc=1
	# ndo_change_mtu takes no extack: ip says only what errno it got.
	diag "MTU $MTU under a non-frags program: $(head -n 1 <<<"$err")"
	grep -q "Invalid argument" <<<"$err" || rc=1
	[ "$(b_mtu)" = 1500 ] && [ "$(xdp_prog_id)" = "$id" ] || rc=1
	detach
	ip -n "$NS" link set "$b" mtu "$MTU" || rc=1
	wait_for 15 ns_carrier "$b" 1
	return $rc
}

# (e) frags-aware -> not frags-aware: refused in place, the old acts on.
swap_refused() {
	local id err d0 rc=0

	attach drop_frags xdp.frags || return 1
	id=$(xdp_prog_id)
	err=$(ip -force -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_pass.bpf.o" sec xdp 2>&1) && rc=1
	diag "replacing the frags-aware program (id $id) by a non-frags one: $(grep -o 'MTU.*' <<<"$err" | head -n 1); attached now: id $(xdp_prog_id)"
	grep -q "too large for single-buffer XDP" <<<"$err" || rc=1
	[ -n "$id" ] && [ "$(xdp_prog_id)" = "$id" ] || rc=1
	d0=$(bstat rx_xdp_drop)
	pktgen_setup "$a" 50 1 "$SIZE"
	pktgen_start
	wait_for 30 drops_from "$d0" 50
	[ "$(bstat rx_xdp_drop)" -ge $((d0 + 50)) ] || rc=1
	detach
	return $rc
}

for mode in on off; do
	nsx ethtool --set-priv-flags "$b" rx_striding_rq "$mode"
	wait_for 15 ns_carrier "$b" 1
	ktap_check "rx_striding_rq $mode: non-frags program refused at MTU $MTU with the extack, state unchanged" refused_nonfrags
	ktap_check "rx_striding_rq $mode: frags-aware XDP_DROP counts every $SIZE-byte frame delivered, pages as sized" drop_mb "$mode"
	ktap_check "rx_striding_rq $mode: XDP_DROP: every page back once the program is gone" pages_back
	ktap_check "rx_striding_rq $mode: frags-aware XDP_PASS, TCP 8 MiB byte-exact at MTU $MTU" pass_mb
	ktap_check "rx_striding_rq $mode: XDP_TX of $SIZE-byte frames, one multi-segment SEND WQE each, every one back at A" tx_mb "$mode"
	ktap_check "rx_striding_rq $mode: XDP_TX of 7000-byte UDP datagrams back to their socket on A, byte-exact" tx_exact "$mode"
	ktap_check "rx_striding_rq $mode: XDP_REDIRECT of $SIZE-byte frames out of a veth, every one" redirect_mb "$mode"
	ktap_check "rx_striding_rq $mode: XDP_REDIRECT: every page back once the program is gone" pages_back
	ktap_check "rx_striding_rq $mode: bpf_xdp_adjust_tail() frees fragments, XDP_PASS of the rest" shrink_mb "$mode"
	ktap_check "rx_striding_rq $mode: adjust_tail: every page back once the program is gone" pages_back
	ktap_check "rx_striding_rq $mode: MTU 1500 -> $MTU kept under a frags-aware program, refused under one that is not" mtu_change "$mode"
	ktap_check "rx_striding_rq $mode: frags-aware program not replaced by a non-frags one, the old one acts" swap_refused
done
ktap_check "ndo_xdp_xmit: $SIZE-byte multi-buffer frames a veth redirects into $b leave as one multi-segment SEND WQE each, every one" xmit_mb

teardown() {
	pair_down
	rmmod mlx5_core
}
ktap_check "rmmod after the multi-buffer XDP tests" teardown
ktap_check "after rmmod: nothing left on the device" all_clean
NO_COMPLAINTS_STRICT=1 no_complaints \
	"no mlx5 error or warning, no page_pool complaint in the kernel log"

ktap_finish
