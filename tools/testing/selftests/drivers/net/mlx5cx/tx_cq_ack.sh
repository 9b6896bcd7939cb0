#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TX completions free the SQ's slots only after the CQ's doorbell record
# says their CQEs are consumed. The TX CQ has as many entries as the SQ
# has WQEBBs: a poll that hands slots back to xmit CQE by CQE, while the
# CQ's consumer index stays where it was, lets xmit on another CPU post
# WQEs whose CQEs the device has no room for (a CQ overrun: the model's
# cq.overrun error and a CQ error event; on hardware, a dead queue). The
# XDP SQ's poll must keep the same order against ndo_xdp_xmit.
#
# One channel, the smallest TX ring, BQL out of the way, no TX completion
# moderation, the channel's completion interrupt (its NAPI) on CPU 0 and
# pktgen, one packet a doorbell, from CPU 1, against a device that
# completes soon after the doorbell (short latency and jitter, a fast
# wire). The race wants xmit a little faster than the completions: a
# poll that starts as the queue wakes then chases CQEs while xmit
# refills the slots it frees, until more than a CQ of them came between
# two updates of the doorbell record. At the model's own pace this does
# not race (4a4c963 swept delays, sizes, fragments and bursts: never an
# overrun with the bug in place): the per-CQE work of the poll is cheap
# next to pktgen's xmit under TCG, the poll catches up and ends, and a
# full ring stops xmit until it does.
#
# So the poll is made to chase, WQE by WQE: a kprobe program
# (cqe_delay_prog.c, loaded by cqe_delay_load.c), only while pktgen
# sends, holds each napi_consume_skb() on CPU 0 until mlx5e_xmit() ran
# once more (at most SLOW_WAIT): the poll frees slots exactly as fast as
# xmit takes them, the queue stays awake and the poll keeps finding
# CQEs; then with a fixed spin (SLOW_SPIN) at each. With the bug in
# place the model saw an overrun in the paced run in 4 of 5 runs of this
# test, with fixed spins of 200 and 400 us in 1 of 2: still a race (a
# poll must start with the queue awake), that these mostly win.
# The same for the XDP SQ, where nothing stops ndo_xdp_xmit but a full
# ring: A (one channel, its NAPI on CPU 1) redirects what pktgen on B
# sends it into B's XDP SQ of channel 1 (xdp-bench redirect, B's rings
# of 64, a WQE a frame), whose NAPI polls its completions on CPU 0, each
# xdp_return_frame_bulk() held until ndo_xdp_xmit ran once more (at most
# SLOW_WAIT), then slowed by XDP_DELAY; B's channel 0, pktgen's, and its
# TX completions on CPU 1. Held, every WQE the poll frees is taken by a
# call of its own, which rings and asks for a CQE: the XDP SQ asks for one
# a doorbell, and A's calls, once a NAPI poll, carry bulks of several
# frames, so a fixed spin no longer brings a CQ's worth of CQEs into one
# poll (xdpsq-cq-db-late survived it).
#
# No CQ overrun, no CQ error event or TX timeout, and the packets reach
# the peer.
#
# vm-args: --port-prop latency=500 --port-prop jitter=1000 --port-prop speed=0

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the CQ overrun is the model's to see"

# The slowed polls: packets (frames) a run, the longest wait for xmit at
# a completed WQE, the spins at each completed WQE and XDP frame (ns).
PKTS=$(sized 5000 2000)
SLOW_WAIT=1000000
SLOW_SPIN=200000
XDP_DELAY=300000
XDP_FRAMES=$(sized 5000 2000)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ktap_header 9

ours_pair_up

setup() {
	local irq

	ethtool -L "$a" combined 1 || return 1
	ethtool -G "$a" tx 64 || return 1
	[ "$(ethtool -g "$a" | awk '/^TX:/ { v = $2 } END { print v }')" = 64 ] ||
		return 1
	bql_floor "$a" 4000000 || return 1
	ethtool -C "$a" adaptive-tx off tx-usecs 0 tx-frames 1 || return 1
	# The channel's completion interrupt, mlx5_comp0 of port A.
	irq=$(mlx5_irqs "$bdf_a" mlx5_comp0)
	irqs_to 0 "$bdf_a" mlx5_comp0 || { diag "no mlx5_comp0 interrupt"; return 1; }
	diag "one channel, TX ring 64, IRQ $irq on CPU $(cat "/proc/irq/$irq/smp_affinity_list")"
}
ktap_check "one channel, TX ring of 64, BQL floor, no TX moderation, completion IRQ on CPU 0" setup

# pktgen on CPU 1 (its thread kpktgend_1): A's only queue.
pktgen_cpu1() {
	local size=$1 burst=$2 delay=$3 frags=$4 mac i

	mac=$(ip -n "$NS" -br link show "$PEER_DEV" | awk '{print $3}')
	modprobe pktgen || return 1
	echo rem_device_all >/proc/net/pktgen/kpktgend_0
	echo rem_device_all >/proc/net/pktgen/kpktgend_1
	for ((i = 0; i < 100; i++)); do
		echo "add_device $a" 2>/dev/null >/proc/net/pktgen/kpktgend_1 &&
			break
		sleep 0.2
	done
	printf '%s\n' "count $PKTS" "pkt_size $size" "burst $burst" "delay $delay" "frags $frags" \
		"flag NO_TIMESTAMP" "dst $B_IP" "dst_mac $mac" |
		while read -r l; do echo "$l" >"/proc/net/pktgen/$a"; done
}

# chase SIZE BURST DELAY FRAGS: PKTS packets of SIZE bytes in FRAGS page
# fragments, in bursts of BURST, DELAY ns apart; A sent all of them, B received some (B's vCPU may drop
# under the flood), and the model saw no CQ overrun.
chase() {
	local size=$1 burst=$2 delay=$3 frags=$4 t0 t1 r0 r1 ov sofar

	pktgen_cpu1 "$size" "$burst" "$delay" "$frags" || return 1
	t0=$(ethtool_stat "$a" tx_packets)
	r0=$(ip netns exec "$NS" cat "/sys/class/net/$b/statistics/rx_packets")
	pktgen_start 0 || return 1
	sofar=$(sed -n 's/.*pkts-sofar: \([0-9]*\).*/\1/p' "/proc/net/pktgen/$a")
	settled 30 traffic_counters "$bdf_a" "$bdf_b" >/dev/null
	t1=$(ethtool_stat "$a" tx_packets)
	r1=$(ip netns exec "$NS" cat "/sys/class/net/$b/statistics/rx_packets")
	ov=$(model_get "$bdf_a" cq.overruns)
	diag "size $size frags $frags burst $burst delay $delay ns: pktgen sent $sofar, A tx_packets +$((t1 - t0)), B rx_packets +$((r1 - r0)), CQ overruns ${ov:-?}, tx0_queue_wake $(ethtool_stat "$a" tx0_queue_wake), tx0_cqes $(ethtool_stat "$a" tx0_cqes), ch0_poll $(ethtool_stat "$a" ch0_poll)"
	[ "$sofar" -ge "$PKTS" ] && [ $((t1 - t0)) -ge "$PKTS" ] &&
		[ $((r1 - r0)) -gt 0 ] && [ "$ov" = 0 ]
}

dmesg_mark chase

# delay_on FUNC POLL NS [XMIT]: each call of FUNC on CPU 0 spins NS ns
# (with XMIT: until XMIT ran once more, at most NS ns), and the calls
# between two entries of POLL are counted, until delay_off.
delay_on() {
	"$TMP/cqe_delay_load" "$TMP/cqe_delay.bpf.o" "$1" "$2" 0 "$3" 64 ${4:+"$4"} \
		>"$TMP/delay.out" 2>&1 &
	DELAY_PID=$!
	wait_for 30 grep -q '^attached$' "$TMP/delay.out" && return 0
	sed 's/^/# cqe_delay_load: /' "$TMP/delay.out"
	kill "$DELAY_PID" 2>/dev/null
	wait "$DELAY_PID" 2>/dev/null
	return 1
}

# delay_off: the programs detached; DELAY_STATS says what they counted
# (calls slowed, polls, the most calls in one poll); fails unless FUNC ran
# slowed at least once.
delay_off() {
	local rc=0

	kill "$DELAY_PID" && wait "$DELAY_PID" || rc=1
	DELAY_STATS=$(awk '$1 != "attached" { printf "%s%s %s", s, $1, $2; s = ", " }' \
		"$TMP/delay.out")
	DELAY_CALLS=$(awk '$1 == "calls" { print $2 }' "$TMP/delay.out")
	[ $rc -eq 0 ] && [ "${DELAY_CALLS:-0}" -gt 0 ]
}

# slowed_chase NS [XMIT]: PKTS packets with napi_consume_skb() on
# CPU 0 held NS ns (with XMIT: until it ran once more, at most NS ns).
slowed_chase() {
	local rc=0

	delay_on napi_consume_skb mlx5e_poll_tx_cq "$@" || return 1
	chase 64 1 0 0 || rc=1
	delay_off || rc=1
	diag "napi_consume_skb on CPU 0 held ${2:+until $2 ran, at most }$(($1 / 1000)) us: $DELAY_STATS"
	return $rc
}
# The second only if the first passed: an overrun leaves the SQ dead.
chase_slowed() {
	cqe_delay_built "$TMP" && slowed_chase "$SLOW_WAIT" mlx5e_xmit &&
		slowed_chase "$SLOW_SPIN"
}
ktap_check "$PKTS packets of 64 bytes, one a doorbell, from CPU 1, each completed WQE held on CPU 0 until the next xmit, then $SLOW_SPIN ns: no CQ overrun" \
	chase_slowed

no_cq_error() {
	! dmesg_since chase | grep -i -E 'CQ error|cq_err|TX watchdog|NETDEV WATCHDOG|error CQE'
}
ktap_check "no CQ error event, error CQE or TX timeout in the kernel log" no_cq_error

ktap_check "afterwards: ping" ping -c 3 -i 0.2 -W 5 "$B_IP"

nsx() { ip netns exec "$NS" "$@"; }

# The XDP SQ: A joins B in the netns (a redirect stays in one), its
# channel's NAPI on CPU 1 redirects every frame into B (ndo_xdp_xmit on
# B's XDP SQ of channel 1, the CPU's), whose NAPI runs on CPU 0.
# xdp-bench's dummy program on B is taken off: B is a redirect target
# only. pktgen on B (CPU 1, its queue 0: channel 0, whose NAPI is on CPU
# 1 too, not held up by the slowed poll), bursts of 8, to A's MAC; A's
# program sends each frame out of B again, addressed to B (A's port
# drops it at steering).
xdp_setup() {
	command -v xdp-bench >/dev/null ||
		{ needs "xdp-tools (tools/testing/install-deps)"; return 1; }
	cqe_delay_built "$TMP" || return 1
	ip link set "$a" netns "$NS" || return 1
	nsx ip link set "$a" up
	nsx ethtool -L "$b" combined 2 || return 1
	nsx ethtool -G "$b" tx 64 || return 1
	nsx ethtool --set-priv-flags "$b" xdp_tx_mpwqe off || return 1
	wait_for 15 ns_carrier "$a" 1 && wait_for 15 ns_carrier "$b" 1 ||
		return 1
	irqs_to 1 "$bdf_a" mlx5_comp0 && irqs_to 1 "$bdf_b" mlx5_comp0 &&
		irqs_to 0 "$bdf_b" mlx5_comp1 ||
		return 1
	xdp_bench_start "$a" redirect -m native "$a" "$b" || return 1
	wait_for 20 xdp_attached_ns "$b"
	ip -n "$NS" link set dev "$b" xdp off
	wait_for 15 ns_carrier "$b" 1
}
xdp_pktgen_b() {
	local a_mac

	a_mac=$(nsx cat "/sys/class/net/$a/address")
	nsx bash -c "rem() { echo rem_device_all >/proc/net/pktgen/kpktgend_\$1; }
		rem 0 && rem 1 || exit 1
		for i in \$(seq 100); do
			echo 'add_device $b' 2>/dev/null >/proc/net/pktgen/kpktgend_1 && break
			sleep 0.2
		done
		for l in 'count $XDP_FRAMES' 'pkt_size 64' 'burst 8' 'delay 0' \
			'dst $B_IP' 'dst_mac $a_mac'; do
			echo \"\$l\" >/proc/net/pktgen/$b || exit 1
		done"
}
# xdp_chase NS [XMIT]: XDP_FRAMES frames from pktgen on B, each
# xdp_return_frame_bulk() of B's XDP SQ poll on CPU 0 held NS ns (with
# XMIT: until XMIT ran once more, at most NS ns); every frame A
# redirected posted or refused, and no CQ overrun.
xdp_chase() {
	local rc=0 r0 x0 f0 r x f ov

	xdp_pktgen_b || return 1
	r0=$(ethtool_stat "$a" rx_xdp_redirect "$NS")
	x0=$(ethtool_stat "$b" tx_xdp_xmit "$NS")
	f0=$(ethtool_stat "$b" tx_xdp_full "$NS")
	if delay_on xdp_return_frame_bulk mlx5e_poll_xdpsq_cq "$@"; then
		traffic 0 nsx bash -c "echo start >/proc/net/pktgen/pgctrl" || rc=1
		delay_off || rc=1
	else
		rc=1
	fi
	settled 30 traffic_counters "$bdf_a" "$bdf_b" >/dev/null
	r=$(($(ethtool_stat "$a" rx_xdp_redirect "$NS") - r0))
	x=$(($(ethtool_stat "$b" tx_xdp_xmit "$NS") - x0))
	f=$(($(ethtool_stat "$b" tx_xdp_full "$NS") - f0))
	ov=$(model_get "$bdf_b" cq.overruns)
	diag "$XDP_FRAMES frames from $b: A rx_xdp_redirect +$r, B tx_xdp_xmit +$x, tx_xdp_full +$f; B's CQ overruns ${ov:-?}; xdp_return_frame_bulk on CPU 0 held ${2:+until $2 ran, at most }$(($1 / 1000)) us: $DELAY_STATS"
	[ $rc -eq 0 ] && [ "$r" -gt 0 ] && [ "$x" -gt 0 ] &&
		[ $((x + f)) -le "$r" ] && [ "$ov" = 0 ]
}
# Paced first: a WQE freed, one ndo_xdp_xmit call (A's NAPI flushes once
# a poll) takes its slot and rings for it, a CQE each, as many as the
# ring holds while one poll runs (each completion asks for one CQE a
# doorbell: with bulks of several frames a call the fixed spin alone
# no longer brings a CQ's worth of CQEs into one poll). The second only
# if the first passed: an overrun leaves the SQ dead.
xdp_slowed() {
	local rc=0

	xdp_setup || return 1
	xdp_chase "$SLOW_WAIT" mlx5e_xdp_xmit && xdp_chase "$XDP_DELAY" || rc=1
	xdp_bench_stop "$a" || rc=1
	return $rc
}
ktap_check "xdp-bench redirect from A's NAPI on CPU 1 into B's XDP SQ polled on CPU 0, each frame's return held until the next ndo_xdp_xmit, then $XDP_DELAY ns, rings of 64: no CQ overrun" \
	xdp_slowed

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
