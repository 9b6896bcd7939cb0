#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# AF_XDP zero copy under channel rebuilds: xsk_fwd (xsk_fwd.c, libxdp's
# xsk API) binds a zero-copy socket to port B's queue 0 and sends every
# frame it receives back from the same UMEM frame, its addresses swapped.
# Port A sends 100000 numbered frames of 46 to 1500 bytes (xsk_fwd_gen.py;
# XSK_FWD_COUNT, 20000 on the debug kernel) and takes each back byte for
# byte, sending again what a rebuild lost.
# While they flow, B's channels are rebuilt around the socket: its RX ring
# resized (the XSK RQ and SQ move to new channels: the old ones give back
# their frames before the new ones take frames from the socket's rings), a
# resize that fails in the device (the old channels keep the socket, its
# frames told their RXQ as before), the ring resized back, the XDP
# program swapped twice for a copy on the same XSKMAP, and a frame
# completed in error on the XSK RQ (counted, the channels reopened around
# the socket, which carries on). Before the
# traffic, B's forwarder sends a frame and, in the same MPWQE session's
# poll, a descriptor longer than the MTU, which the XSK SQ must refuse
# (tx_xsk_err) without harm to the session or to what follows. Then:
# every frame went through the XSK RQ and the XSK SQ and none through the
# copy path, every descriptor the forwarder sent was completed (the XSK
# SQ's teardown completes what it did not send). Then, on a quiet link,
# the forwarder again with a program that sends every eighth frame back
# itself (XDP_TX from the XSK RQ): every frame back byte for byte, those
# counted in rx_xsk_xdp_tx_xmit exactly and never seen by the socket.
# B works as before.
# XSK_FWD_RQ picks the XSK RQ of the first run: striding (the default:
# rx_striding_rq on, UMEM frames of 4 KiB, a frame per stride mapped by
# UMR), legacy (rx_striding_rq off) or 2k (rx_striding_rq on, frames of
# 2 KiB: the legacy XSK RQ as the fallback); the run checks that the XSK
# RQ was of that type (rx_xsk_umr_frames, the model's umr.entries). After
# a striding first run, the XDP_TX run takes frames of 2 KiB, so that one
# test runs both XSK RQ types; else the first run's frames.
# vm-args: --timeout 1500

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "a resize is made to fail in the model"

# The frames A sends, XSK_FWD_COUNT: the rebuilds below happen at
# fractions of it. The debug kernel (KASAN, lockdep) moves some 175 frames
# a second where the Debian kernel moves 1000 or more: there 20000 frames
# (about 2 minutes) keep within the generator's 480 s deadline.
if [ "${VM_KERNEL:-debian}" = debug ]; then
	COUNT=${XSK_FWD_COUNT:-20000}
else
	COUNT=${XSK_FWD_COUNT:-100000}
fi
if ! [[ $COUNT =~ ^[0-9]+$ ]] || [ "$COUNT" -lt 100 ]; then
	echo "Bail out! XSK_FWD_COUNT=$COUNT: a number of frames, 100 or more"
	exit 1
fi
MODIFY_RQ=0x909
case ${XSK_FWD_RQ:=striding} in
striding) STRIDING=on FRAME=4096 ;;
legacy) STRIDING=off FRAME=4096 ;;
2k) STRIDING=on FRAME=2048 ;;
*) echo "Bail out! XSK_FWD_RQ=$XSK_FWD_RQ: striding, legacy or 2k"; exit 1 ;;
esac
TX_FRAME=$FRAME
[ "$XSK_FWD_RQ" != striding ] || TX_FRAME=2048

ktap_header 17
ours_pair_up
TMP=$(mktemp -d)

ktap_check "the forwarder and its XDP programs built" \
	gen_files "$TMP" xsk_fwd xsk_fwd.bpf.o xsk_fwd_tx.bpf.o

b_ethtool() { ip netns exec "$NS" ethtool "$@"; }
# rx_ring [FILE]: B's current RX ring size, by ethtool -g now or from its
# output saved in FILE.
rx_ring() {
	if [ $# -gt 0 ]; then cat "$1"; else b_ethtool -g "$b"; fi |
		awk '/^Current/ { c = 1 } c && $1 == "RX:" { print $2; exit }'
}

# B's counters of the XSK queues and of the regular RQ's redirects.
STATS=(rx_xsk_packets rx_xsk_xdp_redirect tx_xsk_xmit tx_xsk_cqes
	rx_xsk_wqe_err rx_wqe_err tx_xsk_err rx_xdp_redirect rx_xsk_umr_frames
	rx_xsk_umr_cqe_err rx_xsk_buff_alloc_err)
# d NAME: how far B's counter NAME moved over the run.
d() { stats_delta "$1" "$ST0" "$ST1"; }

start_fwd() {
	b_ethtool -L "$b" combined 1 || return 1
	b_ethtool --set-priv-flags "$b" rx_striding_rq "$STRIDING" || return 1
	RING0=$(rx_ring)
	ST0=$(ethtool_stats "$b" "$NS")
	U0=$(model_get "$bdf_b" umr.entries)
	ip netns exec "$NS" "$TMP/xsk_fwd" -e -f "$FRAME" "$b" 0 "$TMP/xsk_fwd.bpf.o" \
		>"$TMP/fwd.out" 2>"$TMP/fwd.err" &
	FWD=$!
	if ! wait_for 30 grep -q '^ready' "$TMP/fwd.out"; then
		sed 's/^/# /' "$TMP/fwd.err"
		return 1
	fi
	PROG0=$(ip -n "$NS" -d link show "$b" | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p')
	diag "xsk_fwd pid $FWD, program id $PROG0, RX ring $RING0," \
		"XSK RQ $XSK_FWD_RQ (rx_striding_rq $STRIDING, frames of $FRAME)"
}
ktap_check "B: one channel, a zero-copy socket on queue 0 with its program" start_fwd

run_gen() {
	local cx="python3 -S $LIB_DIR/cxsim.py" e="ip netns exec $NS ethtool" fail rqerr

	# The resize the device fails: MODIFY_RQ made to fail, the resize's
	# exit status and error, the ring's size after it.
	fail="$cx fault $bdf_b $MODIFY_RQ 1; echo \$? >$TMP/fault2"
	fail+="; $e -G $b rx 256 2>$TMP/resize2.err; echo \$? >$TMP/resize2"
	fail+="; $e -g $b >$TMP/ring2"
	# An error CQE on the next frame of B's, after a mark in the log.
	rqerr="echo selftest-mark: xsk_rq_err >/dev/kmsg"
	rqerr+="; $cx errcqerq $bdf_b any; echo \$? >$TMP/errcqe"

	python3 "$LIB_DIR/xsk_fwd_gen.py" "$a" \
		"$(ip netns exec "$NS" cat "/sys/class/net/$b/address")" "$COUNT" \
		--deadline 480 \
		--at $((COUNT * 15 / 100)) "$e -G $b rx 512; echo \$? >$TMP/resize1" \
		--at $((COUNT * 30 / 100)) "kill -USR1 $FWD" \
		--at $((COUNT * 45 / 100)) "$fail" \
		--at $((COUNT * 60 / 100)) "$e -G $b rx $RING0; echo \$? >$TMP/resize3" \
		--at $((COUNT * 75 / 100)) "kill -USR1 $FWD" \
		--at $((COUNT * 90 / 100)) "$rqerr" \
		2>&1 >"$TMP/gen.out" | sed -u 's/^/# A: /'
	GEN_RC=${PIPESTATUS[0]}
	sed 's/^/# A: /' "$TMP/gen.out"
	return "$GEN_RC"
}
ktap_check "$COUNT frames through B's forwarder and back, byte for byte" run_gen

stop_fwd() {
	kill -TERM "$FWD" && wait "$FWD"
	FWD_RC=$?
	ST1=$(ethtool_stats "$b" "$NS")
	U1=$(model_get "$bdf_b" umr.entries)
	sed 's/^/# B: /' "$TMP/fwd.out" "$TMP/fwd.err"
	[ "$FWD_RC" = 0 ]
}
ktap_check "the forwarder ran to the end" stop_fwd
fwd() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/fwd.out"; }

resized() {
	local r1 r3 r

	r1=$(cat "$TMP/resize1")
	r3=$(cat "$TMP/resize3")
	r=$(rx_ring)
	diag "resize to 512: exit $r1; back to $RING0: exit $r3; RX ring now $r"
	[ "$r1" = 0 ] && [ "$r3" = 0 ] && [ "$r" = "$RING0" ]
}
ktap_check "the RX ring resized twice under the socket" resized

failed_resize() {
	local r f2 r2

	r=$(rx_ring "$TMP/ring2")
	f2=$(cat "$TMP/fault2")
	r2=$(cat "$TMP/resize2")
	diag "resize to 256 with MODIFY_RQ failing (fault set: exit $f2): exit $r2," \
		"RX ring then $r: $(head -n 1 "$TMP/resize2.err")"
	[ "$f2" = 0 ] && [ "$r2" != 0 ] &&
		grep -q "switching to new channels failed" "$TMP/resize2.err" &&
		[ "$r" = 512 ]
}
ktap_check "a resize the device fails leaves the socket's channels as they were" failed_resize

swapped() {
	local id

	id=$(ip -n "$NS" -d link show "$b" | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p')
	diag "program ids: $PROG0 at the start; swaps $(fwd swaps); none attached now: ${id:-none}"
	[ "$(fwd swaps)" = 2 ] && [ -z "$id" ]
}
ktap_check "the XDP program swapped twice, detached at the end" swapped

zero_copy() {
	diag "B: $(stats_deltas "$ST0" "$ST1" "${STATS[@]}")"
	[ "$(d rx_xsk_xdp_redirect)" -ge "$COUNT" ] &&
		[ "$(d rx_xsk_packets)" -ge "$(d rx_xsk_xdp_redirect)" ] &&
		[ "$(d tx_xsk_xmit)" -ge $((COUNT + 1)) ] &&
		[ "$(d tx_xsk_cqes)" -gt 0 ] && [ "$(d rx_xdp_redirect)" = 0 ] &&
		[ "$(d tx_xsk_err)" = 1 ]
}
ktap_check "every frame through the XSK RQ and SQ, none copied; the one too long refused" zero_copy

# The striding XSK RQ maps every frame it receives into by a UMR (a
# WQE's 64 at a time: at least as many as frames came), which the model
# ran (umr.entries counts the MTT entries of every UMR of B's, the
# regular RQ's too); the legacy XSK RQ maps none.
xsk_rq_type() {
	local f u

	f=$(d rx_xsk_umr_frames) u=$((U1 - U0))
	diag "XSK RQ $XSK_FWD_RQ: rx_xsk_umr_frames +$f, the model's umr.entries +$u," \
		"rx_xsk_umr_cqe_err +$(d rx_xsk_umr_cqe_err)"
	[ "$(d rx_xsk_umr_cqe_err)" = 0 ] || return 1
	if [ "$XSK_FWD_RQ" = striding ]; then
		[ "$f" -ge "$(d rx_xsk_packets)" ] && [ "$u" -ge "$f" ]
	else
		[ "$f" = 0 ]
	fi
}
ktap_check "the XSK RQ was $XSK_FWD_RQ: its frames mapped by UMR, or none" xsk_rq_type

# The error CQE (one-shot, for the next frame of any RQ of B's: all go to
# the XSK RQ) is counted once, and the XSK RQ, which has no recovery of
# its own, is rebuilt with the channels (reopen_work); the run above
# shows the socket went on past it.
xsk_rq_error() {
	local reopened

	reopened=$(dmesg_since xsk_rq_err | grep -c "$b: channels reopened")
	diag "error CQE armed: exit $(cat "$TMP/errcqe");" \
		"rx_xsk_wqe_err +$(d rx_xsk_wqe_err), rx_wqe_err +$(d rx_wqe_err);" \
		"channels reopened $reopened times since"
	[ "$(cat "$TMP/errcqe")" = 0 ] && [ "$(d rx_xsk_wqe_err)" = 1 ] &&
		[ "$(d rx_wqe_err)" = 0 ] && [ "$reopened" = 1 ]
}
ktap_check "an error CQE on the XSK RQ: counted once, the channels reopened, the socket carried on" xsk_rq_error

completed() {
	[ "$(fwd outstanding)" = 0 ] && [ "$(fwd rx_invalid_descs)" = 0 ] &&
		[ "$(fwd tx_invalid_descs)" = 0 ] &&
		[ "$(fwd tx)" -ge $((COUNT + 2)) ]
}
ktap_check "every descriptor the forwarder sent completed (the refused one too), none invalid" \
	completed

# XDP_TX from the XSK RQ, on a quiet link: the forwarder again, its
# program (xsk_fwd_tx.bpf.o) sending every eighth frame back itself (those
# numbered 7 modulo 8, their addresses swapped as the forwarder swaps
# them). XDP_TX copies such a frame out of the UMEM and posts the copy on
# the channel's XDP_TX SQ: the frames come back byte for byte, the marked
# ones counted in rx_xsk_xdp_tx_xmit exactly (none full, none in error,
# none dropped), never in the socket's RX ring, the rest through the
# socket and the XSK SQ; nothing through the regular RQ (no copy mode, no
# XDP_TX or redirect of its own), nothing through ndo_xdp_xmit. The
# counts are exact only if no frame went twice: the generator sends a
# frame again after 10 s here, not 1 (a stalled guest's late frame is not
# lost; a lost one still fails the point).
TX_COUNT=${XSK_TX_COUNT:-4000}
TX_STATS=(rx_xsk_packets rx_xsk_xdp_tx_xmit rx_xsk_xdp_tx_full rx_xsk_xdp_tx_err
	rx_xsk_xdp_drop rx_xsk_xdp_redirect tx_xsk_xmit tx_xsk_err rx_xdp_tx_xmit
	rx_xdp_redirect rx_packets tx_xdp_xmit rx_xsk_umr_frames)
start_fwd_tx() {
	ip netns exec "$NS" "$TMP/xsk_fwd" -f "$TX_FRAME" "$b" 0 "$TMP/xsk_fwd_tx.bpf.o" \
		>"$TMP/fwd_tx.out" 2>"$TMP/fwd_tx.err" &
	FWD=$!
	if ! wait_for 30 grep -q '^ready' "$TMP/fwd_tx.out"; then
		sed 's/^/# /' "$TMP/fwd_tx.err"
		return 1
	fi
	ST2=$(ethtool_stats "$b" "$NS")
}
ktap_check "B: the forwarder again (frames of $TX_FRAME), its program sending every eighth frame back (XDP_TX)" \
	start_fwd_tx

xsk_xdp_tx() {
	local marked=$(((TX_COUNT + 1) / 8)) kept fwd_rc t0 t1 t rx

	kept=$((TX_COUNT - marked))
	t0=$(model_get "$bdf_b" tx.packets)
	python3 "$LIB_DIR/xsk_fwd_gen.py" "$a" \
		"$(ip netns exec "$NS" cat "/sys/class/net/$b/address")" "$TX_COUNT" \
		--deadline 120 --retry 10 2>&1 >"$TMP/gen_tx.out" | sed -u 's/^/# A: /'
	GEN_RC=${PIPESTATUS[0]}
	sed 's/^/# A: /' "$TMP/gen_tx.out"
	t1=$(model_get "$bdf_b" tx.packets)
	kill -TERM "$FWD" && wait "$FWD"
	fwd_rc=$?
	ST3=$(ethtool_stats "$b" "$NS")
	sed 's/^/# B: /' "$TMP/fwd_tx.out" "$TMP/fwd_tx.err"
	diag "B: $(stats_deltas "$ST2" "$ST3" "${TX_STATS[@]}"); B's port sent $((t1 - t0))"
	dt() { stats_delta "$1" "$ST2" "$ST3"; }
	out_val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
	rx=$(out_val rx "$TMP/fwd_tx.out")
	t=$(out_val tx "$TMP/fwd_tx.out")
	diag "$marked of $TX_COUNT frames marked for XDP_TX, $kept for the socket: the forwarder received $rx, sent $t (exit $fwd_rc); the generator sent again $(out_val resent "$TMP/gen_tx.out")"
	# Resent frames would be counted twice: the counts are exact only
	# when none was lost.
	[ "$GEN_RC" = 0 ] && [ "$fwd_rc" = 0 ] &&
		[ "$(out_val resent "$TMP/gen_tx.out")" = 0 ] &&
		[ "$(out_val dup "$TMP/gen_tx.out")" = 0 ] &&
		[ "$(dt rx_xsk_xdp_tx_xmit)" = "$marked" ] &&
		[ "$(dt rx_xsk_xdp_tx_full)" = 0 ] && [ "$(dt rx_xsk_xdp_tx_err)" = 0 ] &&
		[ "$(dt rx_xsk_xdp_drop)" = 0 ] &&
		[ "$(dt rx_xsk_xdp_redirect)" = "$kept" ] &&
		[ "$(dt rx_xsk_packets)" = "$TX_COUNT" ] &&
		[ "$rx" = "$kept" ] && [ "$t" = "$kept" ] &&
		[ "$(dt tx_xsk_xmit)" = "$kept" ] && [ "$(dt tx_xsk_err)" = 0 ] &&
		[ "$(dt rx_xdp_tx_xmit)" = 0 ] && [ "$(dt rx_xdp_redirect)" = 0 ] &&
		[ "$(dt tx_xdp_xmit)" = 0 ] && [ $((t1 - t0)) -eq "$TX_COUNT" ] &&
		# Frames of 2 KiB: the legacy XSK RQ, no UMR.
		{ [ "$TX_FRAME" != 2048 ] || [ "$(dt rx_xsk_umr_frames)" = 0 ]; }
}
ktap_check "$TX_COUNT frames back byte for byte, every eighth sent by XDP_TX from the XSK RQ: rx_xsk_xdp_tx_xmit exact, those never in the socket, none through the regular RQ" \
	xsk_xdp_tx

ktap_check "B's regular path after the socket went: a patterned ping, byte for byte" \
	ping_exact
no_complaints "no mlx5 errors or warnings but the failed resize's" \
	"MODIFY_RQ(0x909) op_mod(0x[0-9a-f]*) failed" "switching to new channels failed" \
	"failed to activate"
kill "$FWD" 2>/dev/null
rm -rf "$TMP"
ktap_finish
