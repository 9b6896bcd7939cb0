#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XDP (native mode) on our RQ (striding by default), port B in a network namespace
# receiving what pktgen on port A sends: xdp-bench drop at several MTUs
# (every frame the port delivers counted in rx_xdp_drop, delivered + the
# port's drops = sent, pages taken from the page pool per 1000 frames as
# the buffer sizing says), XDP_TX reflecting frames to A with one doorbell
# per NAPI poll and one send CQE per doorbell at most, in MPWQE sessions
# of several frames
# (xdp_tx_mpwqe, fewer WQEBBs than frames) or one SEND WQE a frame with
# the flag off, the flag toggled under traffic without recreating an SQ,
# small frames inlined into the sessions while the XDP_TX SQ is behind
# (B's port held off: fewer payload reads per frame, byte-exact) and
# not in ping-pong,
# an error CQE on the XDP SQ recovered and reported to the tx health reporter, XDP_PASS leaving TCP byte-exact, XDP_REDIRECT to
# a veth and ndo_xdp_xmit from one (bursts in sessions too), programs attached, detached and
# swapped under traffic (swaps without rebuilding the RQs), what
# cannot work refused with the extack, state unchanged, and xdp-bench
# redirect from A into B with no program on B (ndo_xdp_xmit without XDP),
# then from A's NAPI on the CPU other than the one polling B's XDP SQ, B's
# rings of 64, without a CQ overrun, and an error CQE on the ndo_xdp_xmit
# SQ those frames take, armed once the redirect runs (counted in
# tx_xdp_err, recovered: tx_xdp_recover; the SQ sends every frame after).
# vm-args: --timeout 1500

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-$(sized 50 5)}
FRAMES=${FRAMES:-$(sized 5000 1000)}
MTUS=${MTUS:-$(sized "1000 1500 3000" "1000 1500")}
PAGE=$(getconf PAGESIZE)
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ktap_header $((22 + 2 * $(wc -w <<<"$MTUS")))

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

dmesg -C
dmesg_mark xdp
load_ours
ktap_check "our mlx5_core binds both functions" ours_all_bound
a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
PEER_DEV=$b

# The programs, built on the host (gen_files).
build_progs() {
	gen_files "$TMP" xdp_pass.bpf.o xdp_drop.bpf.o xdp_pass_frags.bpf.o \
		xdp_reflect_frags.bpf.o
}
needs_tools() {
	command -v xdp-bench >/dev/null && command -v clang >/dev/null && return 0
	needs "xdp-tools and clang (tools/testing/install-deps)"
	return 1
}
setup() {
	needs_tools && build_progs && pair_up "$a" "$b"
}
ktap_check "links up, $b in netns $NS; XDP programs built" setup

nsx() { ip netns exec "$NS" "$@"; }
bstat() { ethtool_stat "$b" "$1" "$NS"; }
xdp_attached() { xdp_attached_ns "$b"; }
# xdp_bench ARGS...: xdp-bench on B until xdp_bench_stop (lib.sh).
xdp_bench() { xdp_bench_start "$b" "$@"; }

# pktgen_ns NETNS DEV DST_MAC COUNT [BURST]: COUNT 64-byte frames from
# DEV, BURST (32) at a time.
pktgen_ns() {
	local ns=${1:+ip netns exec $1} dev=$2 mac=$3 count=$4 burst=${5:-32}

	modprobe pktgen
	# One shell in NETNS for the whole set-up (each costs its start).
	$ns bash -c "source '$LIB_DIR/lib.sh'; pktgen_attach '$dev' || exit 1
		for l in 'count $count' 'pkt_size 64' 'burst $burst' 'delay 0' \
			'dst $B_IP' 'dst_mac $mac'; do
			echo \"\$l\" >/proc/net/pktgen/$dev || exit 1
		done" || return 1
	traffic 0 $ns bash -c "echo start > /proc/net/pktgen/pgctrl"
}
b_mac=$(ip -n "$NS" -br link show "$b" | awk '{print $3}')
a_mac=$(ip -br link show "$a" | awk '{print $3}')

# The stride the sizing (en/params_rx.c) gives the legacy RQ on x86-64
# (64-byte cache lines, a 320-byte skb_shared_info): headroom + MTU + 22
# aligned to 64, + 320, rounded up to a power of two.
stride_of() {
	local mtu=$1 headroom=$2 lin s=1

	lin=$(( ((headroom + mtu + 22 + 63) / 64) * 64 + 320 ))
	while [ $s -lt "$lin" ]; do s=$((s * 2)); done
	echo $s
}

# The counters a step compares: B's and the model's of both functions
# (pair_snapshot); with XDP_TX, what came back to A: A's port's drops for
# want of RX buffers, the UDP frames A's driver got (a tc tap, udp_tap_add).
declare -A S2
attach_b() { ip -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_$1.bpf.o" sec "$2"; }
detach_b() { ip -n "$NS" link set dev "$b" xdpdrv off; }
tx_back() {
	echo "rx_out_of_buffer $(ethtool_stat "$a" rx_out_of_buffer)"
	echo "udp $(udp_tap_get "" "$a" ingress)"
}

# Quiet, then one pktgen run from A into B; the counters' deltas.
RESULTS_TABLE=()
measure() {
	local what=$1 mtu=$2 headroom=$3 d p w r mr md ma stride want

	M_D='' M_P='' M_W='' M_R='' M_MR='' M_MD='' M_MA='' M_WANT='' M_WHAT=$what
	pair_rest S0 || return 1
	pktgen_ns "" "$a" "$b_mac" "$FRAMES"
	pair_rest S1 || return 1
	delta d e.rx_xdp_drop
	delta p e.rx_pages
	delta w b.pcie.rx.wr_pages
	delta r e.rx_packets
	delta mr b.rx.packets
	delta md b.rx.drops
	delta ma a.tx.packets
	stride=$(stride_of "$mtu" "$headroom")
	[ "$stride" -le "$PAGE" ] || stride=$PAGE
	want=$(( mr * stride / PAGE ))
	diag "$what MTU $mtu: A sent $ma, B port delivered $mr, dropped $md; rx_xdp_drop +$d, rx_packets +$r; pages taken +$p, written +$w (sizing: stride $stride, $((PAGE / stride)) per page, $want pages)"
	RESULTS_TABLE+=("$(printf '%-8s %5u %6u %4u %9u %11u' "$what" "$mtu" "$stride" $((PAGE / stride)) $((mr ? w * 1000 / mr : 0)) $((1000 * stride / PAGE)))")
	M_D=$d M_P=$p M_W=$w M_R=$r M_MR=$mr M_MD=$md M_MA=$ma M_WANT=$want
}
pages_match() {
	local tol=2 striding=''

	nsx ethtool --show-priv-flags "$b" | grep -Eq 'rx_striding_rq *: on' &&
		striding=1
	# The device writes PAGE/stride frames into a page (the model counts
	# the pages its frame writes entered): exact but for the page open at
	# either end.
	[ "$M_MR" -gt 0 ] && [ "$M_W" -ge $((M_WANT - 2)) ] &&
		[ "$M_W" -le $((M_WANT + 2)) ] || return 1
	# The pages taken from the pool. The legacy RQ takes a page every
	# PAGE/stride buffers an SKB keeps, and none for a frame XDP dropped:
	# its buffer stays in the WQE, posted again. The striding RQ
	# (rx_striding_rq, the default) takes 64 pages per WQE, refilling
	# once 2 WQEs are free: exact to within that batch and a WQE.
	if [ -z "$striding" ] && [ "$M_WHAT" = xdp-drop ]; then
		[ "$M_P" -le $tol ]
		return
	fi
	[ -z "$striding" ] || tol=$((64 * (2 + 1) + 2))
	[ "$M_P" -ge $((M_WANT - tol)) ] && [ "$M_P" -le $((M_WANT + tol)) ]
}

for mtu in $MTUS; do
	ip -n "$NS" link set "$b" mtu "$mtu"
	wait_for 15 ns_carrier "$b" 1
	drop_counts() {
		xdp_bench drop -m native "$b" || return 1
		measure xdp-drop "$mtu" 256
		xdp_bench_stop
		# Every frame B's port delivered reached XDP and was dropped;
		# none reached the stack; none was lost unaccounted.
		[ "$M_MR" -gt 0 ] && [ "$M_D" -eq "$M_MR" ] && [ "$M_R" -eq 0 ] &&
			[ "$M_MA" -eq $((M_MR + M_MD)) ]
	}
	ktap_check "MTU $mtu xdp-bench drop: rx_xdp_drop == frames delivered, delivered + port drops == sent" drop_counts
	ktap_check "MTU $mtu xdp-bench drop: pages written per frame as the sizing says; the legacy RQ reuses the dropped frames' buffers" pages_match
done

# The same without XDP at MTU 1000, for the table: the stack's headroom.
ip -n "$NS" link set "$b" mtu 1000
wait_for 15 ns_carrier "$b" 1
no_xdp_pages() {
	measure no-xdp 1000 64
	[ "$M_R" -eq "$M_MR" ] && pages_match
}
ktap_check "MTU 1000 without XDP: frames to the stack, pages as the sizing says" no_xdp_pages
diag "pages written per 1000 frames, $PAGE-byte pages (measured vs sizing):"
diag "mode       MTU stride /page  measured      sizing"
for l in "${RESULTS_TABLE[@]}"; do diag "$l"; done

ip -n "$NS" link set "$b" mtu 1500
ip link set "$a" mtu 1500
wait_for 15 ns_carrier "$b" 1

# sq_field LINE NAME: the value of NAME=VALUE in an sq.N line of the
# model's report (0 without it).
sq_field() {
	local f

	for f in $1; do
		[ "${f%%=*}" != "$2" ] || { echo "${f#*=}"; return 0; }
	done
	echo 0
}

# grown_sq: the SQ of B, but the control SQs (umr=1), whose WQEs grew the
# most from snapshot S0 to S1 (none if none grew).
grown_sq() {
	local k n g best=0 sqn=''

	for k in "${!S1[@]}"; do
		[[ $k =~ ^b\.sq\.[0-9]+$ ]] && [ -n "${S0[$k]+set}" ] || continue
		[ "$(sq_field "${S1[$k]}" umr)" != 1 ] || continue
		n=${k#b.sq.}
		g=$(($(sq_field "${S1[$k]}" wqes) - $(sq_field "${S0[$k]}" wqes)))
		[ $g -gt $best ] && best=$g sqn=$n
	done
	echo "$sqn"
}
xdp_tx_mpwqe() { nsx ethtool --set-priv-flags "$b" xdp_tx_mpwqe "$1"; }
xdp_tx_mpwqe_is() {
	nsx ethtool --show-priv-flags "$b" | grep -Eq "xdp_tx_mpwqe *: $1"
}

# XDP_TX: B swaps the MACs and sends each frame back to A, whose driver
# hands the UDP frames to its stack (counted by a tc filter there).
# tx_measure [COUNT]: one pktgen burst from A with xdp-bench tx on B; the
# deltas in T_* (frames posted, sessions, full, errors, what B's port
# sent, its WQEs, WQEBBs and MPWQEs, doorbells, send CQEs, NAPI polls,
# what B's port delivered, what A's driver got back, what A's port
# dropped for want of RX buffers).
tx_measure() {
	local count=${1:-$FRAMES} db udb sqn cqn rc=0

	T_X='' T_F='' T_E='' T_S='' T_TX='' T_DB='' T_W='' T_WB='' T_M='' T_CQ='' T_POLL='' T_MR='' T_U='' T_OOB='' T_ARM=''
	udp_tap_add "" "$a" ingress || return 1
	# The counters before and after, from the snapshots they settled at.
	PAIR_SNAP_MORE=tx_back
	if pair_rest S0; then
		pktgen_ns "" "$a" "$b_mac" "$count"
		pair_rest S1 || rc=1
	else
		rc=1
	fi
	PAIR_SNAP_MORE=
	[ $rc -eq 0 ] || { udp_tap_del "" "$a" ingress; return 1; }
	delta T_X e.rx_xdp_tx_xmit
	delta T_F e.rx_xdp_tx_full
	delta T_E e.rx_xdp_tx_err
	delta T_S e.rx_xdp_tx_mpwqe
	delta T_TX b.tx.packets
	delta db b.sq.doorbells
	delta udb b.umr_doorbells
	T_DB=$((db - udb))
	delta T_W b.sq_wqes
	delta T_WB b.sq_wqebbs
	delta T_M b.sq_mpwqes
	delta T_CQ b.sq_cqes
	delta T_POLL e.ch_poll
	delta T_MR b.rx.packets
	delta T_U x.udp
	delta T_OOB x.rx_out_of_buffer
	# The XDP_TX SQ (the one whose WQEs grew the most): its CQ's arms.
	sqn=$(grown_sq)
	cqn=$(sq_field "${S1[b.sq.$sqn]:-}" cqn)
	T_ARM=-1
	[ -z "$sqn" ] ||
		T_ARM=$(( $(sq_field "${S1[b.cq.$cqn]:-}" arms) - $(sq_field "${S0[b.cq.$cqn]:-}" arms) ))
	udp_tap_del "" "$a" ingress
	diag "XDP_TX (xdp_tx_mpwqe $2): B delivered $T_MR; rx_xdp_tx_xmit +$T_X, tx_full +$T_F, tx_err +$T_E, rx_xdp_tx_mpwqe +$T_S$( [ "$T_S" -gt 0 ] && printf ' (%d.%02d frames a session)' $((T_X * 100 / T_S / 100)) $((T_X * 100 / T_S % 100))); B port sent $T_TX in $T_W WQEs ($T_M MPWQEs), $T_WB WQEBBs, $T_DB doorbells, $T_CQ send CQEs over $T_POLL NAPI polls (SQ $sqn, CQ $cqn armed $T_ARM times); A's driver received $T_U of the UDP frames back, A's port dropped $T_OOB (rx_out_of_buffer)"
}
# Every frame delivered was posted back (or counted full), every one
# posted came back to A's driver or was counted by A's port as dropped
# for want of RX buffers (B's port sends each MPWQE's frames back to back
# at the wire's speed, faster than A's TCG guest refills its RQ: as on
# hardware), most of them reached A, one doorbell per NAPI poll at most,
# and one completion per doorbell at most (only the last WQE before it
# asks for one; B's stack sends nothing meanwhile), its CQ never armed:
# the next RX poll reaps it, with no interrupt of its own (as upstream).
tx_delivers() {
	[ "$T_X" -gt 0 ] && [ "$T_E" -eq 0 ] && [ $((T_X + T_F)) -eq "$T_MR" ] &&
		[ "$T_TX" -ge "$T_X" ] && [ $((T_U + T_OOB)) -eq "$T_X" ] &&
		[ $((2 * T_U)) -gt "$T_X" ] && [ "$T_DB" -le "$T_POLL" ] &&
		[ "$T_CQ" -gt 0 ] && [ "$T_CQ" -le "$T_DB" ] && [ "$T_ARM" -eq 0 ]
}
xdp_tx() {
	local rc

	xdp_tx_mpwqe_is on || { diag "xdp_tx_mpwqe is not on by default"; return 1; }
	xdp_bench tx -p swap-macs -m native "$b" || return 1
	tx_measure "$FRAMES" on
	tx_delivers
	rc=$?
	xdp_bench_stop
	# Sessions of several frames: fewer WQEBBs than frames sent.
	[ $rc -eq 0 ] && [ "$T_S" -gt 0 ] && [ "$T_X" -gt "$T_S" ] &&
		[ "$T_M" -ge "$T_S" ] && [ "$T_WB" -lt "$T_X" ]
}
ktap_check "XDP_TX, xdp_tx_mpwqe on (default): every frame posted reaches A in MPWQE sessions of several frames, fewer WQEBBs than frames, one doorbell per NAPI poll and one CQE per doorbell at most, its CQ never armed" xdp_tx

xdp_tx_send() {
	local rc c0 c

	xdp_bench tx -p swap-macs -m native "$b" || return 1
	c0=$(model_get "$bdf_b" cmd.CREATE_SQ)
	xdp_tx_mpwqe off || { xdp_bench_stop; return 1; }
	c=$(model_get "$bdf_b" cmd.CREATE_SQ)
	diag "xdp_tx_mpwqe off with XDP attached: CREATE_SQ $c0 -> $c"
	[ "$c" = "$c0" ] || { xdp_bench_stop; return 1; }
	tx_measure "$FRAMES" off
	tx_delivers
	rc=$?
	xdp_bench_stop
	xdp_tx_mpwqe on
	# One SEND WQE of one WQEBB per frame, no session.  (B's stack sends
	# nothing meanwhile: pair_up's neighbour entries are permanent.)
	[ $rc -eq 0 ] && [ "$T_S" -eq 0 ] && [ "$T_M" -eq 0 ] &&
		[ "$T_W" -ge "$T_X" ] && [ "$T_WB" -ge "$T_X" ]
}
ktap_check "XDP_TX, xdp_tx_mpwqe off (switched in place, no SQ recreated): one WQE and one WQEBB per frame, one CQE per doorbell at most, its CQ never armed, every frame reaches A" xdp_tx_send

# Inline frames in XDP_TX's MPWQE sessions (struct mlx5e_xdpsq
# @mpwqe_inline): UDP datagrams of 18 to 120 random bytes (frames of 60 to
# 162) from a socket on A, which B's program sends back with addresses
# and ports swapped (XDP_TX), to the same socket, each compared with what
# was sent. inline_run pingpong N: one at a time, each back before the
# next (the XDP_TX SQ never behind); inline_run burst N: B's port held
# off (XOFF) while all N are sent, so that the XDP_TX SQ falls behind
# (frames posted, none completed), then let go. The deltas: I_GOT
# datagrams back, I_SAME of them identical, I_LEN their frames' bytes
# sent, I_X rx_xdp_tx_xmit, I_F rx_xdp_tx_full, I_IN rx_xdp_tx_inlnw,
# what B's port sent (I_TX frames, I_TB bytes), the payload B's device
# read through data segments (I_RQ read requests, I_RB bytes), the
# WQEBBs of B's SQs (I_WB).
inline_posted() {
	[ $(( $(bstat rx_xdp_tx_xmit) + $(bstat rx_xdp_tx_full) )) -ge "$1" ]
}
inline_run() {
	local mode=$1 n=$2 x0 pid rc=0

	I_GOT=0 I_SAME=0 I_LEN=0 I_X='' I_F='' I_IN='' I_TX='' I_TB='' I_RQ=''
	I_RB='' I_WB=''
	rm -f "$TMP/inl.sent"
	pair_rest S0 || return 1
	x0=$(( ${S0[e.rx_xdp_tx_xmit]} + ${S0[e.rx_xdp_tx_full]} ))
	if [ "$mode" = burst ]; then
		cxsim xoff "$bdf_b" on || return 1
	fi
	"$PY" - "$A_IP" "$B_IP" "$n" "$mode" "$TMP/inl.sent" >"$TMP/inl.out" <<'PYEOF' &
import os, random, socket, sys
a, b, n, mode, mark = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
rnd = random.Random(26)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)	# SO_RCVBUFFORCE
s.bind((a, 6000))
pending, got, same, nbytes = {}, 0, 0, 0
def back(data, timeout):
    global got, same
    s.settimeout(timeout)
    try:
        r, peer = s.recvfrom(2048)
    except socket.timeout:
        return False
    got += 1
    if peer == (b, 6001) and pending.pop(r, None) is not None:
        same += 1
    return True
for i in range(n):
    data = bytes([i & 0xff]) + os.urandom(rnd.randint(17, 119))
    pending[data] = 1
    nbytes += 42 + len(data)
    s.sendto(data, (b, 6001))
    if mode == "pingpong":
        back(data, 5)
if mode == "burst":
    open(mark, "w").close()
    while got < n and back(None, 30):
        pass
print(got, same, nbytes)
PYEOF
	pid=$!
	if [ "$mode" = burst ]; then
		# Every datagram sent, and posted on B's XDP_TX SQ (or refused).
		wait_for 120 test -f "$TMP/inl.sent" &&
			wait_for 60 inline_posted $((x0 + n)) || rc=1
		diag "held off: rx_xdp_tx_xmit + _full +$(( $(bstat rx_xdp_tx_xmit) + $(bstat rx_xdp_tx_full) - x0 )) of $n, rx_xdp_tx_inlnw $(bstat rx_xdp_tx_inlnw)"
		cxsim xoff "$bdf_b" off || rc=1
	fi
	wait "$pid" || rc=1
	read -r I_GOT I_SAME I_LEN <"$TMP/inl.out" || rc=1
	pair_rest S1 || return 1
	delta I_X e.rx_xdp_tx_xmit
	delta I_F e.rx_xdp_tx_full
	delta I_IN e.rx_xdp_tx_inlnw
	delta I_TX b.tx.packets
	delta I_TB b.tx.bytes
	delta I_RQ b.pcie.payload.rd_req
	delta I_RB b.pcie.payload.rd_bytes
	delta I_WB b.sq_wqebbs
	diag "XDP_TX $mode of $n: $I_GOT came back, $I_SAME identical ($I_LEN bytes sent); rx_xdp_tx_xmit +$I_X, _full +$I_F, _inlnw +$I_IN; B's port sent $I_TX frames, $I_TB bytes, in $I_WB WQEBBs; B's device read payload $I_RQ times, $I_RB bytes: $(( I_TX ? I_RQ * 100 / I_TX : 0 )) reads and $(( I_TX ? (I_RB + 64 * I_WB) / I_TX : 0 )) inbound bytes (payload + WQEBBs) per 100 frames / per frame"
	return $rc
}

# Ping-pong: the XDP_TX SQ never behind, nothing inlined; each frame one
# payload read of all its bytes. Kept for the burst to compare with.
inline_pingpong() {
	local rc

	attach_b reflect_frags xdp.frags || return 1
	inline_run pingpong 20
	rc=$?
	detach_b
	P_TX=$I_TX P_RQ=$I_RQ P_RB=$I_RB P_WB=$I_WB
	[ $rc -eq 0 ] && [ "$I_GOT" -eq 20 ] && [ "$I_SAME" -eq 20 ] &&
		[ "$I_X" -eq 20 ] && [ "$I_IN" -eq 0 ] && [ "$I_TX" -eq 20 ] &&
		[ "$I_TB" -eq "$I_LEN" ] && [ "$I_RQ" -eq "$I_TX" ] &&
		[ "$I_RB" -eq "$I_TB" ]
}
ktap_check "XDP_TX ping-pong (the SQ never behind): nothing inlined (rx_xdp_tx_inlnw +0), each frame one payload read of all its bytes, every datagram back byte-exact" inline_pingpong

# Burst held off: once 128 frames are outstanding the sessions opened
# inline (a session of up to 58 frames opened before stays as it is);
# every datagram back byte-exact, each inlined frame one payload read
# fewer (the device read the others' bytes, fewer than all), fewer reads
# per frame than ping-pong's, and fewer inbound bytes (payload and
# WQEBBs; batching, a session a poll against ping-pong's one a frame,
# helps there too).
inline_burst() {
	local rc n=250

	attach_b reflect_frags xdp.frags || return 1
	inline_run burst $n
	rc=$?
	detach_b
	[ "${P_TX:-0}" -gt 0 ] || { diag "no ping-pong figures to compare with"; return 1; }
	diag "per frame: ping-pong $((P_RQ * 100 / P_TX))/100 payload reads, $(( (P_RB + 64 * P_WB) / P_TX )) inbound bytes; burst held off $((I_RQ * 100 / I_TX))/100, $(( (I_RB + 64 * I_WB) / I_TX ))"
	[ $rc -eq 0 ] && [ "$I_GOT" -eq $n ] && [ "$I_SAME" -eq $n ] &&
		[ "$I_X" -eq $n ] && [ "$I_F" -eq 0 ] && [ "$I_IN" -gt 0 ] &&
		[ "$I_TX" -eq $n ] && [ "$I_TB" -eq "$I_LEN" ] &&
		[ "$I_RQ" -eq $((I_TX - I_IN)) ] && [ "$I_RB" -lt "$I_TB" ] &&
		[ $((I_RQ * P_TX)) -lt $((P_RQ * I_TX)) ] &&
		[ $(( (I_RB + 64 * I_WB) * P_TX )) -lt $(( (P_RB + 64 * P_WB) * I_TX )) ]
}
ktap_check "XDP_TX behind (B's port held off, a burst of 250): sessions inline small frames (rx_xdp_tx_inlnw > 0), one payload read fewer per inlined frame, fewer payload reads and inbound bytes per frame than ping-pong, every datagram back byte-exact" inline_burst

tx_health() { health_counts "$(eth_health_dl "$bdf_b")" tx; }
# An error CQE on the XDP SQ that pktgen's flow reaches: the driver
# recovers it (ERR -> RST -> RDY) and tells the tx health reporter,
# XDP_TX delivers again.
xdp_sq_recovery() {
	local sqn i0 r0 he0 hr0 he hr st res

	xdp_bench tx -p swap-macs -m native "$b" || return 1
	# Which SQ of B carries the flow: the one whose WQEs grew (from
	# tx_measure's snapshots, before and after its traffic).
	tx_measure 200 on
	sqn=$(grown_sq)
	[ -n "$sqn" ] || { diag "no XDP SQ found"; xdp_bench_stop; return 1; }
	i0=${S1[b.sq.errors_injected]}
	r0=${S1[e.rx_xdp_tx_recover]}
	read -r he0 hr0 _ <<<"$(tx_health)"
	cxsim errcqe "$bdf_b" "$sqn"
	tx_measure 200 on
	cxsim errcqe "$bdf_b" 0
	recovered() {
		read -r he hr st <<<"$(tx_health)"
		[ "$he" -eq $((he0 + 1)) ] && [ "$hr" -eq $((hr0 + 1)) ] && [ "$st" = healthy ] &&
			[ "$(bstat rx_xdp_tx_recover)" -eq $((r0 + 1)) ]
	}
	wait_for 15 recovered
	snap S2 || { xdp_bench_stop; return 1; }
	res="errors=$(sq_field "${S2[b.sq.$sqn]}" errors) err_resets=$(sq_field "${S2[b.sq.$sqn]}" err_resets)"
	diag "error CQE on XDP SQ $sqn: injected +$((${S2[b.sq.errors_injected]} - i0)), rx_xdp_tx_err +$T_E, rx_xdp_tx_recover +$((${S2[e.rx_xdp_tx_recover]} - r0)), model SQ $res; reporter tx: $(tx_health)"
	if ! [ "${S2[b.sq.errors_injected]}" -eq $((i0 + 1)) ] ||
		! [ "$T_E" -ge 1 ] || ! recovered; then
		xdp_bench_stop
		return 1
	fi
	tx_measure "$FRAMES" on
	tx_delivers
	res=$?
	xdp_bench_stop
	[ $res -eq 0 ] && [ "$T_S" -gt 0 ]
}
ktap_check "error CQE on the XDP SQ: rx_xdp_tx_err, rx_xdp_tx_recover, devlink reporter tx; XDP_TX delivers every frame again" xdp_sq_recovery

# The XDP SQ's recovery failing (its MODIFY_SQ ERR -> RST refused once):
# said in the kernel log, the reporter tx left in error, and still in
# error after a stack SQ of B recovered meanwhile; devlink health recover
# brings the XDP SQ back (rx_xdp_tx_recover +1), the reporter healthy,
# XDP_TX delivers every frame again.
MODIFY_SQ=0x905
b_tx_recovers() { nsx ethtool -S "$b" | awk '$1 ~ /^tx[0-9]+_recover:$/ { s += $2 } END { print s + 0 }'; }
xdp_sq_recover_fail() {
	local sqn r0 t0 e0 s hit='' st out res

	xdp_bench tx -p swap-macs -m native "$b" || return 1
	tx_measure 200 on
	sqn=$(grown_sq)
	[ -n "$sqn" ] || { diag "no XDP SQ found"; xdp_bench_stop; return 1; }
	r0=$(bstat rx_xdp_tx_recover)
	dmesg_mark xdpsq_fail
	cxsim fault "$bdf_b" "$MODIFY_SQ" 1 || { xdp_bench_stop; return 1; }
	cxsim errcqe "$bdf_b" "$sqn"
	tx_measure 200 on
	cxsim errcqe "$bdf_b" 0
	wait_for 15 bash -c "dmesg | sed -n '/selftest-mark: xdpsq_fail\$/,\$p' | grep -q 'XDP SQ .*recovery failed'"
	dmesg_since xdpsq_fail | grep -E 'recovery failed|failed, status' | sed 's/^/# /'
	read -r _ _ st <<<"$(tx_health)"
	diag "XDP SQ $sqn's recovery refused: reporter tx: $(tx_health)"
	dmesg_since xdpsq_fail | grep -q "XDP SQ .*recovery failed" && [ "$st" = error ] ||
		{ xdp_bench_stop; return 1; }
	# A stack SQ of B fails and recovers meanwhile: B's stack sends (its
	# pings; the program bounces the replies), the program stays (taking
	# it away would rebuild the channels, the failed XDP SQ with them).
	t0=$(b_tx_recovers)
	e0=$(model_get "$bdf_b" sq.errors_injected)
	for s in $(model_tx_sqns "$bdf_b"); do
		cxsim errcqe "$bdf_b" "$s"
		for cpu in $(seq 0 $(($(nproc) - 1))); do
			nsx taskset -c "$cpu" ping -c 1 -W 1 "$A_IP" >/dev/null 2>&1
		done
		[ "$(model_get "$bdf_b" sq.errors_injected)" = "$e0" ] || { hit=$s; break; }
	done
	cxsim errcqe "$bdf_b" 0
	wait_for 15 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 ~ /^tx[0-9]+_recover:\$/ { s += \$2 } END { print s + 0 }') -gt $t0 ]"
	read -r _ _ st <<<"$(tx_health)"
	diag "stack SQ ${hit:-none} of B: tx_recover +$(($(b_tx_recovers) - t0)); reporter tx: $(tx_health)"
	[ -n "$hit" ] && [ "$st" = error ] ||
		{ diag "the reporter should stay in error: the XDP SQ is still out"; xdp_bench_stop; return 1; }
	out=$(devlink health recover "$(eth_health_dl "$bdf_b")" reporter tx 2>&1) ||
		{ diag "devlink health recover: $out"; xdp_bench_stop; return 1; }
	read -r _ _ st <<<"$(tx_health)"
	diag "devlink health recover: reporter tx: $(tx_health), rx_xdp_tx_recover +$(($(bstat rx_xdp_tx_recover) - r0))"
	[ "$st" = healthy ] && [ "$(bstat rx_xdp_tx_recover)" -eq $((r0 + 1)) ] ||
		{ xdp_bench_stop; return 1; }
	tx_measure "$FRAMES" on
	tx_delivers
	res=$?
	xdp_bench_stop
	return $res
}
ktap_check "the XDP SQ's recovery fails: said, reporter tx in error (also after a stack SQ recovered), devlink health recover brings it back, XDP_TX delivers" \
	xdp_sq_recover_fail

# XDP_PASS: TCP through a program, the bytes compared end to end.
tcp_exact() {
	local sent got d0

	head -c $((8 << 20)) /dev/urandom >"$TMP/blob"
	sent=$(sha256sum <"$TMP/blob" | cut -d' ' -f1)
	tcp_sink_start "$TMP/tcp.out"
	d0=$(bstat rx_xdp_drop)
	tcp_send "$TMP/blob" || return 1
	got=$(cut -d' ' -f1 <"$TMP/tcp.out")
	diag "XDP_PASS TCP: sent 8 MiB sha256 ${sent:0:16}, received $(cut -d' ' -f2 <"$TMP/tcp.out") bytes sha256 ${got:0:16}; rx_xdp_drop +$(( $(bstat rx_xdp_drop) - d0 ))"
	[ "$got" = "$sent" ] && [ "$(bstat rx_xdp_drop)" = "$d0" ]
}
pass_tcp() {
	xdp_bench pass -m native "$b" || return 1
	tcp_exact
	local rc=$?
	xdp_bench_stop
	return $rc
}
ktap_check "XDP_PASS (xdp-bench pass): TCP 8 MiB byte-exact" pass_tcp

# XDP_REDIRECT out of B into a veth, and ndo_xdp_xmit into B from a veth:
# v1 sends, v0 (its peer) runs the redirecting program.
veth_setup() {
	modprobe veth || return 1
	# No IPv6 chatter on the veths: every frame counted is ours.
	nsx sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip -n "$NS" link add v0 type veth peer name v1 || return 1
	ip -n "$NS" link set v0 up
	ip -n "$NS" link set v1 up
	# A veth takes redirected frames with its NAPI on: GRO does that.
	nsx ethtool -K v0 gro on >/dev/null && nsx ethtool -K v1 gro on >/dev/null
}
vstat() { nsx cat "/sys/class/net/$1/statistics/$2"; }
# B's rx_xdp_redirect, the model's B rx.packets, v0's rx_packets.
redirect_counts() {
	echo "$(bstat rx_xdp_redirect) $(model_get "$bdf_b" rx.packets) $(vstat v0 rx_packets)"
}
redirect_out() {
	local r0 x0 v0 r x v r1 x1 v1

	veth_setup || return 1
	xdp_bench redirect-map -m native "$b" v1 || return 1
	# Taken while nothing is on its way: a stray frame of A's, counted by
	# the model before these reads and by the driver after, was seen.
	r0=$(settled 30 redirect_counts) || return 1
	read -r r0 x0 v0 <<<"$r0"
	pktgen_ns "" "$a" "$b_mac" "$FRAMES"
	r=$(settled 60 redirect_counts) || return 1
	read -r r1 x1 v1 <<<"$r"
	r=$((r1 - r0)) x=$((x1 - x0)) v=$((v1 - v0))
	xdp_bench_stop
	diag "XDP_REDIRECT $b -> v1 (devmap): B delivered $x, rx_xdp_redirect +$r, v1's peer v0 received $v"
	[ "$x" -gt 0 ] && [ "$r" -eq "$x" ] && [ "$v" -eq "$r" ]
}
ktap_check "XDP_REDIRECT: every frame B delivered goes out through a veth (devmap)" redirect_out

xmit_in_cleanup() {
	xdp_bench_stop v0
	ip -n "$NS" link set dev "$b" xdp off
}
xmit_in() {
	local n=200 x t ar rc=0

	# xdp-bench puts a program of its own on B too: B's XDP SQs exist.
	if ! xdp_bench_start v0 redirect-map -m native v0 "$b"; then
		ip -n "$NS" link set dev "$b" xdp off
		return 1
	fi
	ip -n "$NS" addr add 198.19.0.2/24 dev v1
	ip -n "$NS" neigh add 198.19.0.1 lladdr "$a_mac" dev v1
	pair_rest S0 || return 1
	nsx ping -q -c "$n" -i 0.01 -W 1 198.19.0.1 >/dev/null
	pair_rest S1 || return 1
	delta x e.tx_xdp_xmit
	delta t b.tx.packets
	a_received ar
	diag "ndo_xdp_xmit v0 -> $b: $n pings from v1, tx_xdp_xmit +$x, tx_xdp_full ${S1[e.tx_xdp_full]}, B port sent $t, A's port received $ar"
	[ "$x" -eq "$n" ] && [ "$t" -eq "$x" ] && [ "$ar" -eq "$x" ] || rc=1
	# Bursts (pktgen on v1): devmap hands B up to 16 frames a call, the
	# flush at the end of v0's poll; sessions span calls. A poll must find
	# more than the one frame pktgen's xmit just queued: v0's NAPI defers
	# (napi_defer_hard_irqs, gro_flush_timeout): after a poll that found
	# work the next comes 200 us later, veth's wake-ups masked meanwhile,
	# and takes what pktgen queued in between. Its thread runs on the CPU
	# pktgen (kpktgend_0) leaves free: behind pktgen on CPU 0, at
	# SCHED_IDLE, it starved while pktgen spun on a full veth ring (a
	# loaded host: 384 of 1000 frames in 90 s; the debug kernel: 836 of
	# 2000).
	nsx sh -c 'echo 1 > /sys/class/net/v0/threaded &&
		echo 1000 > /sys/class/net/v0/napi_defer_hard_irqs &&
		echo 200000 > /sys/class/net/v0/gro_flush_timeout' ||
		diag "v0: no threaded, deferred NAPI; sessions may hold one frame each"
	napi_thread_to v0 1 || diag "v0's NAPI thread not moved to CPU 1"
	xmit_burst on || rc=1
	xmit_burst off || rc=1
	xdp_tx_mpwqe on
	xmit_in_cleanup
	return $rc
}
# napi_thread_to DEV CPU: DEV's NAPI thread onto CPU.
napi_thread_to() {
	local c pid=''

	for c in /proc/[0-9]*/comm; do
		if [[ $(<"$c") == "napi/$1-"* ]]; then
			pid=${c%/comm} pid=${pid#/proc/}
			break
		fi
	done 2>/dev/null
	[ -n "$pid" ] && taskset -pc "$2" "$pid" >/dev/null
}
# a_received VAR: what A's port received or dropped from S0 to S1.
a_received() {
	local r d

	delta r a.rx.packets
	delta d a.rx.drops
	printf -v "$1" %d $((r + d))
}
# xmit_burst on|off: pktgen from v1, redirected by v0 into B.
xmit_burst() {
	local w wb m x s f t ar k

	xdp_tx_mpwqe "$1" || return 1
	snap S0 || return 1
	pktgen_ns "$NS" v1 "$a_mac" "$FRAMES" 1
	pair_rest S1 || return 1
	delta x e.tx_xdp_xmit
	delta s e.tx_xdp_mpwqe
	delta f e.tx_xdp_full
	delta t b.tx.packets
	a_received ar
	delta w b.sq_wqes
	delta wb b.sq_wqebbs
	delta m b.sq_mpwqes
	diag "ndo_xdp_xmit, xdp_tx_mpwqe $1: pktgen $FRAMES from v1: tx_xdp_xmit +$x, tx_xdp_full +$f, tx_xdp_mpwqe +$s$( [ "$s" -gt 0 ] && printf ' (%d.%02d frames a session)' $((x * 100 / s / 100)) $((x * 100 / s % 100))); B port sent $t in $w WQEs ($m MPWQEs), $wb WQEBBs; A's port received $ar"
	if [ "$w" -lt 0 ]; then
		# B's SQs as each snapshot saw them, for the record.
		for k in "${!S0[@]}" "${!S1[@]}"; do
			[[ $k == b.sq.* ]] && echo "$k"
		done | sort -u | while read -r k; do
			diag "$k: S0 '${S0[$k]:-}' S1 '${S1[$k]:-}'"
		done
	fi
	[ "$x" -gt 0 ] && [ "$t" -eq "$x" ] && [ "$ar" -eq "$x" ] || return 1
	if [ "$1" = on ]; then
		[ "$s" -gt 0 ] && [ "$x" -gt "$s" ] && [ "$m" -ge "$s" ] && [ "$wb" -lt "$x" ]
	else
		[ "$s" -eq 0 ] && [ "$m" -eq 0 ] && [ "$w" -ge "$x" ] && [ "$wb" -ge "$x" ]
	fi
}
ktap_check "ndo_xdp_xmit: frames a veth redirects into B leave B's port, every one; bursts in MPWQE sessions of several frames (xdp_tx_mpwqe on), one WQE a frame (off)" xmit_in
ip -n "$NS" link del v0 2>/dev/null

# Attach, detach and swap under traffic (pktgen from A, paced, until
# stopped). A swap changes the program without rebuilding the RQs: no
# CREATE_RQ, the new action acts.
model_cmd() { model_get "$1" "cmd.$2"; }
traffic_start() {
	modprobe pktgen
	pktgen_attach "$a" || return 1
	for l in "count 0" "pkt_size 64" "burst 1" "delay 200000" \
		"dst $B_IP" "dst_mac $b_mac"; do
		echo "$l" >"/proc/net/pktgen/$a"
	done
	pktgen_start until_stopped &
	TRAFFIC=$!
	# Under way: pktgen has sent its first hundred frames.
	wait_for 30 pktgen_sent "$a" 100
}
# pktgen_sent DEV N: pktgen (of this netns) has sent N frames from DEV.
pktgen_sent() {
	local k v

	while read -r k v _; do
		[ "$k" != pkts-sofar: ] || { [ "$v" -ge "$2" ]; return; }
	done <"/proc/net/pktgen/$1" 2>/dev/null
	return 1
}
traffic_stop() {
	pktgen_ctl stop
	traffic 0 wait "$TRAFFIC" 2>/dev/null
	diag "pktgen under the loop: $(sed -n 's/^ *\(Result: .*\)/\1/p' "/proc/net/pktgen/$a")"
}
attach_detach() {
	local i

	ip -n "$NS" link set dev "$b" xdp off
	traffic_start
	for i in $(seq "$ROUNDS"); do
		ip -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_pass.bpf.o" sec xdp &&
			xdp_attached &&
			ip -n "$NS" link set dev "$b" xdpdrv off &&
			! xdp_attached || { traffic_stop; diag "round $i failed"; return 1; }
	done
	traffic_stop
	diag "$ROUNDS attach/detach rounds under pktgen; B rx_packets $(bstat rx_packets)"
	ping -c 2 -W 5 "$B_IP" >/dev/null
}
ktap_check "attach/detach $ROUNDS times under traffic, traffic after" attach_detach

swap() {
	local i c0 c d0 d1

	ip -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_pass.bpf.o" sec xdp || return 1
	c0=$(model_cmd "$bdf_b" CREATE_RQ)
	traffic_start
	for i in $(seq "$ROUNDS"); do
		ip -force -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_drop.bpf.o" sec xdp &&
			ip -force -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_pass.bpf.o" sec xdp ||
			{ traffic_stop; diag "round $i failed"; return 1; }
	done
	ip -force -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_drop.bpf.o" sec xdp
	d0=$(bstat rx_xdp_drop)
	drops_above() { d1=$(bstat rx_xdp_drop); [ "$d1" -gt "$d0" ]; }
	wait_for 30 drops_above
	traffic_stop
	c=$(model_cmd "$bdf_b" CREATE_RQ)
	ip -n "$NS" link set dev "$b" xdpdrv off
	diag "$ROUNDS swaps pass<->drop under pktgen: CREATE_RQ $c0 -> $c; with drop in place rx_xdp_drop +$((d1 - d0))"
	[ "$c" = "$c0" ] && [ "$d1" -gt "$d0" ] && ping -c 2 -W 5 "$B_IP" >/dev/null
}
ktap_check "swap programs $ROUNDS times under traffic: no RQ rebuilt, the new program acts" swap

# xdp_tx_mpwqe switched off and on under XDP_TX traffic: the XDP SQs
# change in place (no SQ created), and reflect every frame afterwards.
mpwqe_toggle() {
	local i c0 c rc=0

	xdp_bench tx -p swap-macs -m native "$b" || return 1
	c0=$(model_cmd "$bdf_b" CREATE_SQ)
	traffic_start
	for i in $(seq "$ROUNDS"); do
		xdp_tx_mpwqe off && xdp_tx_mpwqe on || { diag "round $i failed"; rc=1; break; }
	done
	traffic_stop
	c=$(model_cmd "$bdf_b" CREATE_SQ)
	diag "$ROUNDS xdp_tx_mpwqe off/on under XDP_TX traffic: CREATE_SQ $c0 -> $c"
	[ "$c" = "$c0" ] || rc=1
	tx_measure "$FRAMES" on
	tx_delivers || rc=1
	xdp_bench_stop
	return $rc
}
ktap_check "xdp_tx_mpwqe toggled $ROUNDS times under XDP_TX traffic: no SQ recreated, every frame reflected after" mpwqe_toggle

# Bad input: an MTU whose frames do not fit one buffer (4000 on 4K pages)
# refuses a program that is not frags-aware with the extack (a
# frags-aware one is taken: multi-buffer XDP, xdp_mb.sh); such a program
# attached refuses that MTU. Nothing changes either time.
refused() {
	local mtu=4000 err err2 rc=0

	ip -n "$NS" link set "$b" mtu "$mtu"
	err=$(ip -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_pass.bpf.o" sec xdp 2>&1) && rc=1
	diag "attach at MTU $mtu: $(grep -o 'MTU.*' <<<"$err" | head -n 1)"
	grep -q "too large for single-buffer XDP, max [0-9]*; xdp.frags works" <<<"$err" || rc=1
	xdp_attached && rc=1
	err2=$(ip -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_pass_frags.bpf.o" sec xdp.frags 2>&1) || rc=1
	diag "frags-aware program at MTU $mtu: ${err2:-attached}"
	xdp_attached || rc=1
	ip -n "$NS" link set dev "$b" xdpdrv off
	xdp_attached && rc=1
	[ "$(ip -n "$NS" -j link show "$b" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["mtu"])')" = "$mtu" ] || rc=1
	ip -n "$NS" link set "$b" mtu 1500
	ip -n "$NS" link set dev "$b" xdpdrv obj "$TMP/xdp_pass.bpf.o" sec xdp || rc=1
	ip -n "$NS" link set "$b" mtu "$mtu" 2>/dev/null && rc=1
	[ "$(ip -n "$NS" -j link show "$b" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["mtu"])')" = 1500 ] || rc=1
	xdp_attached || rc=1
	wait_for 15 ns_carrier "$b" 1
	ping -c 2 -W 5 "$B_IP" >/dev/null || rc=1
	ip -n "$NS" link set dev "$b" xdpdrv off
	return $rc
}
ktap_check "XDP at MTU 4000 refused with the extack unless frags-aware, MTU 4000 refused under single-buffer XDP; state unchanged" refused

# xdp-bench redirect from A to B with no program on B: B is a redirect
# target (ndo_xdp_xmit, its XDP SQs) without XDP of its own. xdp-bench
# redirect always puts a dummy program (xdp_pass) on the egress device
# too, for drivers that send redirected frames only with one (xdp-tools
# 1.3's xdp_redirect_basic.c, no option against it): it is taken off B
# once xdp-bench runs, and B has none while the frames flow. A joins B in
# the netns (a redirect stays in one); pktgen on B sends to A's MAC, A's
# program (bpf_redirect(), the MACs swapped) sends each frame out of B,
# addressed to B: A's port drops it at steering (not its MAC), so nothing
# loops. Every frame A's port delivered was redirected, B's XDP SQs sent
# every one, B's port sent them beside pktgen's, none reached B's stack.
a_counts() {
	local k v

	while read -r k v; do
		case $k in
		rx_packets | rx_xdp_redirect | rx_xdp_drop) echo "a_$k $v" ;;
		esac
	done < <(ethtool_stats "$a" "$NS")
}
xdp_prog_of() {
	local p

	p=$(ip -n "$NS" -d link show "$1" | grep -o 'prog/xdp id [0-9]*')
	echo "${p:-no program}"
}
# The redirect window: redirect_open starts xdp-bench redirect A -> B and
# takes its dummy program off B, which rebuilds B's channels (new SQs):
# B's queues stay as they are then until redirect_close stops xdp-bench.
# Fails when a step does or B has a program.
redirect_open() {
	xdp_bench_start "$a" redirect -m native "$a" "$b" || return 1
	# Its dummy program, attached after the one on A.
	wait_for 20 xdp_attached
	diag "xdp-bench redirect $a $b: ip -d link: $a $(xdp_prog_of "$a"), $b $(xdp_prog_of "$b"): taken off $b"
	ip -n "$NS" link set dev "$b" xdp off
	wait_for 15 ns_carrier "$b" 1
	! xdp_attached
}
redirect_close() {
	local rc=0

	xdp_attached && rc=1
	xdp_bench_stop "$a" || rc=1
	return $rc
}
# redirect_burst N [DST_MAC]: in the window, N frames from pktgen on B
# to A's MAC (or DST_MAC) between the snapshots S0 and S1 (A's counters
# in them too).
redirect_burst() {
	local rc=0

	PAIR_SNAP_MORE=a_counts
	if pair_rest S0; then
		pktgen_ns "$NS" "$b" "${2:-$a_mac}" "$1"
		pair_rest S1 || rc=1
	else
		rc=1
	fi
	PAIR_SNAP_MORE=
	return $rc
}
# redirect_frames N: redirect_burst N in a window of its own.
redirect_frames() {
	local rc=0

	redirect_open || rc=1
	[ $rc -ne 0 ] || redirect_burst "$1" || rc=1
	redirect_close || rc=1
	return $rc
}
# A redirect run's counts, S0 to S1, into the caller's locals: A's port
# delivered (ar) and dropped at steering (asd), A's XDP verdicts (r, d),
# B's ndo_xdp_xmit counters (x, f, e), B's tx_packets (t: pktgen's),
# B's port sent (bt), B's stack received (br).
redirect_deltas() {
	delta ar a.rx.packets
	delta asd a.rx.drops.steering
	delta r x.a_rx_xdp_redirect
	delta d x.a_rx_xdp_drop
	delta x e.tx_xdp_xmit
	delta f e.tx_xdp_full
	delta e e.tx_xdp_err
	delta t e.tx_packets
	delta bt b.tx.packets
	delta br e.rx_packets
}

# Of those: pktgen sent its n (rounded up to its bursts), every frame A
# delivered was redirected, posted on B's XDP SQs and sent by B's port
# (beside pktgen's) back to A, whose port drops it at steering (addressed
# to B: MACs swapped); none refused, none on B's stack.
redirect_all_sent() {
	[ "$t" -ge "$n" ] && [ "$ar" -gt 0 ] &&
		[ "$r" -eq "$ar" ] && [ "$d" -eq 0 ] && [ "$x" -eq "$r" ] &&
		[ "$f" -eq 0 ] && [ "$bt" -eq $((t + x)) ] && [ "$asd" -eq "$x" ] &&
		[ "$br" -eq 0 ]
}

redirect_no_prog() {
	local rc=0 n=$FRAMES ar asd r d x f e t bt br

	ip link set "$a" netns "$NS" || return 1
	ip -n "$NS" link set "$a" up
	wait_for 15 ns_carrier "$a" 1 || return 1
	xdp_attached && return 1
	redirect_frames "$n" || rc=1
	redirect_deltas
	# (pktgen's count is rounded up to its bursts: B sent t.)
	diag "xdp-bench redirect $a -> $b, no program on $b: pktgen $n from $b (tx_packets +$t); A's port delivered $ar, A rx_xdp_redirect +$r, rx_xdp_drop +$d; B tx_xdp_xmit +$x, tx_xdp_full +$f; B's port sent $bt; A's port dropped $asd at steering (addressed to B: MACs swapped); B rx_packets +$br"
	[ $rc -eq 0 ] && redirect_all_sent && return 0
	grep -v '^ *$' "$XDP_BENCH_LOG" | tail -n 12 | sed 's/^/# xdp-bench: /'
	return 1
}
ktap_check "xdp-bench redirect $a -> $b with no program on $b: every frame A delivered is redirected, sent by B's XDP SQs and B's port, none on B's stack" redirect_no_prog

# The same from the other CPU: A's completion interrupts on CPU 1, B's on
# CPU 0, so A's NAPI posts on B's XDP SQ of channel 1 (ndo_xdp_xmit takes
# the CPU's) while B's NAPI polls that SQ's CQ on CPU 0; B's rings of 64
# (its CQ too), xdp_tx_mpwqe off (a WQE and a CQE a frame: the most CQEs
# a poll can take). The XDP SQ hands slots back only once its CQ's doorbell record
# says their CQEs are consumed: posting into slots a poll frees before
# that would let the device write more CQEs than the CQ holds (the
# model's cq.overruns, an error it fails the run for). Every frame A
# redirected was posted or refused (a refused one ends its bulk: the
# rest go back uncounted), B's port sent every one posted.
redirect_cross_cpu() {
	local rc=0 n ar r x f t bt ov

	n=$(sized 20000 5000)
	[ "$(nproc)" -ge 2 ] || { diag "one CPU"; return 0; }
	nsx ethtool -G "$b" tx 64 || return 1
	wait_for 15 ns_carrier "$b" 1
	xdp_tx_mpwqe off || return 1
	irqs_to 1 "$bdf_a" && irqs_to 0 "$bdf_b" || return 1
	redirect_frames "$n" || rc=1
	delta ar a.rx.packets
	delta r x.a_rx_xdp_redirect
	delta x e.tx_xdp_xmit
	delta f e.tx_xdp_full
	delta t e.tx_packets
	delta bt b.tx.packets
	ov=$(model_get "$bdf_b" cq.overruns)
	xdp_tx_mpwqe on
	diag "redirect from CPU 1 into B's XDP SQs polled on CPU 0, B's rings 64, xdp_tx_mpwqe off: pktgen $n from $b (tx_packets +$t); A's port delivered $ar, A rx_xdp_redirect +$r; B tx_xdp_xmit +$x, tx_xdp_full +$f, tx_xdp_mpwqe +$((${S1[e.tx_xdp_mpwqe]} - ${S0[e.tx_xdp_mpwqe]})); B's port sent $bt (its SQs' WQEs +$(( ${S1[b.sq_wqes]} - ${S0[b.sq_wqes]} ))); B's CQ overruns ${ov:-?}"
	nsx ethtool -G "$b" tx 1024
	[ $rc -eq 0 ] && [ "$t" -ge "$n" ] && [ "$r" -eq "$ar" ] && [ "$x" -gt 0 ] &&
		[ $((x + f)) -le "$r" ] && [ "$bt" -eq $((t + x)) ] && [ "$ov" = 0 ]
}
ktap_check "xdp-bench redirect from A's NAPI on CPU 1 into B's XDP SQs polled on CPU 0, rings of 64, a WQE a frame: every frame posted sent, no CQ overrun" redirect_cross_cpu

# grown_sqs: B's SQs, but the control SQs, whose WQEs grew from S0 to S1.
grown_sqs() {
	local k

	for k in "${!S1[@]}"; do
		[[ $k =~ ^b\.sq\.[0-9]+$ ]] && [ -n "${S0[$k]+set}" ] || continue
		[ "$(sq_field "${S1[$k]}" umr)" != 1 ] || continue
		[ "$(sq_field "${S1[$k]}" wqes)" -gt "$(sq_field "${S0[$k]}" wqes)" ] &&
			echo "${k#b.sq.}"
	done | sort -n
}
# rx_xdp_tx_moved: B's counters of XDP_TX (rx_xdp_tx_*) that moved from
# S0 to S1, "NAME +N" each, on one line (nothing when none did).
rx_xdp_tx_moved() {
	local k n out=''

	for k in "${!S1[@]}"; do
		[[ $k == e.rx_xdp_tx_* ]] || continue
		n=$(( ${S1[$k]} - ${S0[$k]:-0} ))
		[ "$n" -eq 0 ] || out+="${out:+, }${k#e.} +$n"
	done
	echo "$out"
}

# An error CQE on the ndo_xdp_xmit SQ (B has no program: no XDP_TX SQ).
# Armed inside the redirect window, once its channels are the ones that
# carry the frames: A's interrupts on CPU 1, so A's NAPI redirects from
# CPU 1 and ndo_xdp_xmit posts on B's channel 1 % channels. Its SQ is the
# one a redirect burst grows beside the TX SQ pktgen sends from, which a
# burst to a MAC A's port drops at steering (nothing redirected) grows
# alone. A WQE a frame (xdp_tx_mpwqe off): the first frame the SQ takes
# fails, the device flushes the WQEs behind it, each with an error CQE
# of its own (wqe.flushed): tx_xdp_err counts every error CQE, the
# failed one and the flushed ones, exactly; B's port sent the frames
# posted but those; the SQ recovered once (ERR -> RST -> RDY,
# tx_xdp_recover, the tx reporter), nothing of XDP_TX's counted. Then the
# same SQ carries every frame A redirects again, as redirect_no_prog
# counts them.
NOWHERE_MAC=02:00:00:00:00:01
xmit_sq_error() {
	local rc=0 n=$FRAMES ch sqn ptx g i0 he0 hr0 he hr st e rcv moved fl
	local ar asd r d x f t bt br w

	[ "$(nproc)" -ge 2 ] || { diag "one CPU"; return 0; }
	ch=$(nsx ethtool -l "$b" |
		awk '/^Current/ { c = 1 } c && $1 == "Combined:" { print 1 % $2; exit }')
	xdp_tx_mpwqe off || return 1
	irqs_to 1 "$bdf_a" && irqs_to 0 "$bdf_b" || return 1
	if ! redirect_open; then
		redirect_close
		xdp_tx_mpwqe on
		return 1
	fi
	# pktgen's TX SQ: the one a burst nobody takes grows.
	redirect_burst 200 "$NOWHERE_MAC" || rc=1
	ptx=$(grown_sqs)
	# The ndo_xdp_xmit SQ: the other one a redirect burst grows.
	redirect_burst 200 || rc=1
	g=$(grown_sqs)
	sqn=$(grep -vx "$ptx" <<<"$g")
	diag "in the redirect window: pktgen's TX SQ ${ptx//$'\n'/,}; a redirect burst grew SQs ${g//$'\n'/,}: the ndo_xdp_xmit SQ of channel $ch is ${sqn:-?}"
	if [ $rc -ne 0 ] || [ "$(wc -w <<<"$ptx")" != 1 ] || [ "$(wc -w <<<"$sqn")" != 1 ]; then
		redirect_close
		xdp_tx_mpwqe on
		return 1
	fi

	# The error: armed now, taken by the burst's first frame on that SQ.
	i0=${S1[b.sq.errors_injected]}
	read -r he0 hr0 _ <<<"$(tx_health)"
	cxsim errcqe "$bdf_b" "$sqn" || rc=1
	redirect_burst "$n" || rc=1
	cxsim errcqe "$bdf_b" 0
	recovered() {
		read -r he hr st <<<"$(tx_health)"
		[ "$he" -eq $((he0 + 1)) ] && [ "$hr" -eq $((hr0 + 1)) ] && [ "$st" = healthy ] &&
			[ "$(bstat tx_xdp_recover)" -eq $((${S0[e.tx_xdp_recover]} + 1)) ]
	}
	wait_for 15 recovered
	# S1 now: after the recovery, S0 before the error.
	pair_rest S1 || rc=1
	delta e e.tx_xdp_err
	delta rcv e.tx_xdp_recover
	delta x e.tx_xdp_xmit
	delta f e.tx_xdp_full
	delta fl b.wqe.flushed
	delta t e.tx_packets
	delta bt b.tx.packets
	moved=$(rx_xdp_tx_moved)
	diag "error CQE on SQ $sqn: injected +$((${S1[b.sq.errors_injected]} - i0)), WQEs flushed behind it +$fl, released unsent by the recovery $((e - 1 - fl)); tx_xdp_err +$e, tx_xdp_recover +$rcv, tx_xdp_xmit +$x, tx_xdp_full +$f; B's port sent $bt, pktgen's $t; model SQ errors=$(sq_field "${S1[b.sq.$sqn]}" errors) err_resets=$(sq_field "${S1[b.sq.$sqn]}" err_resets) $(sq_field "${S1[b.sq.$sqn]}" st); reporter tx: $(tx_health); rx_xdp_tx_*: ${moved:-none moved}"
	# Posted in the call the error met, after NAPI saw it: never rung,
	# released by the recovery, counted with the flushed (the race
	# decides how many).
	[ "${S1[b.sq.errors_injected]}" -eq $((i0 + 1)) ] && [ "$e" -ge $((1 + fl)) ] &&
		[ "$bt" -eq $((t + x - e)) ] &&
		[ "$rcv" -eq 1 ] && recovered && [ -z "$moved" ] &&
		[ "$(sq_field "${S1[b.sq.$sqn]}" errors)" = 1 ] &&
		[ "$(sq_field "${S1[b.sq.$sqn]}" err_resets)" = 1 ] &&
		[ "$(sq_field "${S1[b.sq.$sqn]}" st)" = RDY ] || rc=1

	# The same SQ again: every frame A redirects is sent.
	redirect_burst "$n" || rc=1
	redirect_close || rc=1
	xdp_tx_mpwqe on
	redirect_deltas
	w=$(( $(sq_field "${S1[b.sq.$sqn]}" wqes) - $(sq_field "${S0[b.sq.$sqn]}" wqes) ))
	moved=$(rx_xdp_tx_moved)
	diag "after the recovery: pktgen $n from $b (tx_packets +$t); A's port delivered $ar, A rx_xdp_redirect +$r, rx_xdp_drop +$d; B tx_xdp_xmit +$x, tx_xdp_full +$f, tx_xdp_err +$e; SQ $sqn WQEs +$w; B's port sent $bt; A's port dropped $asd at steering; B rx_packets +$br; rx_xdp_tx_*: ${moved:-none moved}"
	[ $rc -eq 0 ] && redirect_all_sent && [ "$e" -eq 0 ] && [ "$w" -eq "$x" ] &&
		[ -z "$moved" ]
}
ktap_check "error CQE on the ndo_xdp_xmit SQ, armed in the redirect window: tx_xdp_err counts it, each WQE flushed behind it and each released unsent, tx_xdp_recover +1, tx reporter, no XDP_TX counter; the SQ then sends every frame A redirects" xmit_sq_error

teardown() {
	pair_down
	rmmod mlx5_core
}
ktap_check "rmmod after the XDP tests" teardown
ktap_check "after rmmod: nothing left on the device" all_clean
no_complaints "no mlx5 error or warning in the kernel log (but the refused MODIFY_SQ asked for)" \
	'(0x905)' 'XDP SQ 0x[0-9a-f]*: recovery failed'

ktap_finish
