#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Channel switches under TCP load. iperf3 -P 16 from A to B while A's
# MTU and its channel count (ethtool -L) change in a loop: each change
# builds new channels and moves the TX queues to their SQs while the old
# SQs still have completions to come (the model completes late: its
# latency and jitter). The driver stops every TX queue for the switch;
# a completion of an old SQ that wakes its queue then lets xmit run on a
# queue the driver disabled (counted: tx_xmit_disabled), and the old
# SQ's teardown and the new SQ's NAPI account the same queue's BQL at
# once. No xmit while the TX queues are disabled, every TX queue's
# byte_queue_limits/inflight back to 0 once the link idles, no TX
# watchdog, no kernel splat, and the link still carries traffic.
#
# Then the moment a switch leaves the stack's TX queues running on SQs
# already out of service (ENABLED cleared, the queues not yet stopped):
# held open on purpose, what xmit gets there is dropped and counted
# (tx_queue_dropped), not posted, and not taken for xmit on a disabled
# queue.
#
# vm-args: --port-prop latency=20000 --port-prop jitter=200000

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

# How long iperf3 runs (s), and the most switches made meanwhile. A
# switch takes seconds on the debug kernel (KASAN, lockdep under TCG): it
# runs longer there, for the four switches the load must see.
SECS=$(sized 40 15)
[ "${VM_KERNEL:-debian}" = debian ] || SECS=$((SECS * 3))
SWITCHES=$(sized 60 16)

ktap_header 12

WORK=$(mktemp -d)
IPERF=
SPIN=
trap 'kill "$IPERF" $SPIN 2>/dev/null; pkill -x iperf3; rm -rf "$WORK"' EXIT

ours_pair_up

max_combined() {
	ethtool -l "$a" | awk '/^Combined:/ { n = $2; exit } END { print n }'
}
MAXCH=$(max_combined)
[ "${MAXCH:-0}" -ge 2 ] || MAXCH=2
diag "$a: at most $MAXCH channels, $(nproc) CPUs"

# xmit_disabled: tx_xmit_disabled of A (the total over its channels).
xmit_disabled() { ethtool_stat "$a" tx_xmit_disabled; }
ktap_check "A counts xmit on disabled TX queues (tx_xmit_disabled 0)" \
	test "$(xmit_disabled)" = 0

# switch_loop: until iperf3 ($1, its PID) ends or SWITCHES are made,
# alternate ethtool -L between 1 and MAXCH channels and the MTU between
# 1500 and 1600 (B's stays 1500: TCP's MSS is B's, nothing sent changes
# size). Prints how many were made; fails if one was refused.
switch_loop() {
	local pid=$1 n=0 rc=0

	while [ $n -lt "$SWITCHES" ] && kill -0 "$pid" 2>/dev/null; do
		case $((n % 4)) in
		0) ethtool -L "$a" combined 1 || rc=1 ;;
		1) ip link set "$a" mtu 1600 || rc=1 ;;
		2) ethtool -L "$a" combined "$MAXCH" || rc=1 ;;
		3) ip link set "$a" mtu 1500 || rc=1 ;;
		esac
		n=$((n + 1))
	done
	echo "$n"
	return $rc
}

dmesg_mark switch
load_and_switch() {
	local pid n rc=0

	ethtool -L "$a" combined "$MAXCH" || return 1
	iperf3_server || return 1
	# Bounded: a connection the switches stalled fails here, in minutes.
	traffic "$SECS" iperf3 -c "$B_IP" -P 16 -t "$SECS" -J >"$WORK/iperf.json" 2>&1 &
	pid=$!
	IPERF=$pid
	# The streams first: the queues full when the switches start.
	sleep 2
	n=$(switch_loop "$pid") || rc=1
	wait "$pid"
	diag "$n switches under iperf3 -P 16 ($SECS s): $(python3 -c '
import json, sys
try:
    r = json.load(open(sys.argv[1]))["end"]["sum_received"]
    print(int(r["bits_per_second"] / 1e6), "Mbit/s")
except Exception as e:
    print("no iperf3 result:", e)' "$WORK/iperf.json")"
	[ "${n:-0}" -ge 4 ] || rc=1
	# Back to MAXCH channels, MTU 1500.
	ethtool -L "$a" combined "$MAXCH" && ip link set "$a" mtu 1500 || rc=1
	return $rc
}
ktap_check "iperf3 -P 16 A -> B while the MTU and ethtool -L change in a loop" \
	traffic "$SECS" load_and_switch

wait_for 30 carrier "$a" 1

# No SQ in service. mlx5e_deactivate_priv() clears the SQs' ENABLED bit,
# waits for the xmits and polls that saw it set (synchronize_net(), in
# mlx5e_xdp_xmit_disable()) and only then stops the stack's TX queues:
# an SKB sent meanwhile finds no SQ in service, and xmit drops it and
# counts it (tx_queue_dropped), before any WQE. Normally a moment too
# short to hit; here it is held open: a kprobe program
# (cqe_delay_prog.c's "delay", loaded by cqe_delay_load.c) spins
# NOSQ_SPIN ns at mlx5e_xdp_xmit_disable()'s entry, on CPU 1 only, where
# ethtool -L makes the switches (MAXCH -> 1 -> MAXCH), while pktgen on
# CPU 0 (thread kpktgend_0) sends on A's queue 0, a packet every
# NOSQ_GAP ns. A queue stopped by a full ring as its SQ leaves service
# stays stopped (no completion wakes it now) and nothing reaches xmit:
# pktgen is paced to keep that rare (it fills the ring only catching up
# after a stall of the guest), and the two switches are two chances.
# Every packet pktgen counts sent is posted or dropped (tx_packets +
# tx_queue_dropped), some dropped, none counted as xmit on a disabled
# queue (tx_xmit_disabled, and its warning); the model saw no error, and
# the queues carry traffic afterwards both ways.
# Under the VM's single-threaded TCG the vCPUs take turns, and pktgen
# yields at each packet (cpu_relax: PAUSE ends a vCPU's turn): it gets
# CPU 0 at the spinning CPU's interrupts, tens of packets dropped in a
# window (30 to 60 in most runs), more when a turn is long (about 1000).
NOSQ_SPIN=200000000
NOSQ_GAP=200000

# spin_on FUNC CPU NS: each call of FUNC on CPU spins NS ns, until
# spin_off N, which sets SPIN_STATS (what the program counted) and fails
# unless FUNC was held exactly N times.
spin_on() {
	"$WORK/cqe_delay_load" "$WORK/cqe_delay.bpf.o" "$1" - "$2" "$3" 0 \
		>"$WORK/spin.out" 2>&1 &
	SPIN=$!
	wait_for 30 grep -q '^attached$' "$WORK/spin.out" && return 0
	sed 's/^/# cqe_delay_load: /' "$WORK/spin.out"
	spin_off 0
	return 1
}
spin_off() {
	local rc=0

	kill "$SPIN" && wait "$SPIN" || rc=1
	SPIN=
	SPIN_STATS=$(awk '$1 == "calls" || $1 == "spun_us" { printf "%s%s %s", s, $1, $2; s = ", " }' \
		"$WORK/spin.out")
	[ $rc -eq 0 ] && [ "$(awk '$1 == "calls" { print $2 }' "$WORK/spin.out")" = "$1" ]
}

# pktgen_sent: what pktgen counts sent on A (NETDEV_TX_OK: posted or
# dropped).
pktgen_sent() { sed -n 's/.*pkts-sofar: \([0-9]*\).*/\1/p' "/proc/net/pktgen/$a"; }
# pktgen_sending: pktgen runs on A (its counters cleared) and sent some.
pktgen_sending() {
	sed -n 's/^Running: //p' /proc/net/pktgen/kpktgend_0 | grep -qw -- "$a" &&
		[ "$(pktgen_sent)" -gt 0 ] 2>/dev/null
}

# held_switch N: pktgen started, ethtool -L to N channels from CPU 1,
# the switch held open, pktgen stopped: a run of its own (pktgen paced
# after a stop makes up for the time it could not send, and a burst
# that fills the ring would be in the next switch's way). SENT counts
# what pktgen sent; HELD says what queue 0 dropped and how long the
# switch took.
held_switch() {
	local pg t0 d0 d1 rc=0

	d0=$(ethtool_stat "$a" tx0_queue_dropped)
	pktgen_start until_stopped &
	pg=$!
	wait_for 20 pktgen_sending || rc=1
	t0=$(date +%s%N)
	taskset -c 1 ethtool -L "$a" combined "$1" || rc=1
	t0=$((($(date +%s%N) - t0) / 1000000))
	pktgen_ctl stop
	wait "$pg"
	SENT=$((SENT + $(pktgen_sent)))
	d1=$(ethtool_stat "$a" tx0_queue_dropped)
	HELD="$((${d1:-0} - ${d0:-0})) in $t0 ms"
	return $rc
}

no_sq_drops() {
	local rc=0 s0 s1 w pkts drops stops dis warn

	if [ "$(nproc)" -lt 2 ]; then
		needs "two CPUs: the sender beside the switch"
		return 1
	fi
	cqe_delay_built "$WORK" || return 1
	pktgen_setup "$a" 0 1 || return 1
	echo "delay $NOSQ_GAP" >"/proc/net/pktgen/$a" || return 1
	s0=$(ethtool_stats "$a") || return 1
	spin_on mlx5e_xdp_xmit_disable 1 "$NOSQ_SPIN" || return 1
	SENT=0
	held_switch 1 || rc=1
	w="$MAXCH -> 1: tx0_queue_dropped +$HELD"
	held_switch "$MAXCH" || rc=1
	w+=", 1 -> $MAXCH: +$HELD"
	spin_off 2 || rc=1
	echo rem_device_all >/proc/net/pktgen/kpktgend_0
	# What A completed since: the counters at rest.
	s1=$(settled 30 ethtool_stats "$a") || rc=1
	pkts=$(($(report_get tx_packets <<<"$s1") - $(report_get tx_packets <<<"$s0")))
	drops=$(($(report_get tx_queue_dropped <<<"$s1") - $(report_get tx_queue_dropped <<<"$s0")))
	stops=$(($(report_get tx0_queue_stopped <<<"$s1") - $(report_get tx0_queue_stopped <<<"$s0")))
	dis=$(($(report_get tx_xmit_disabled <<<"$s1") - $(report_get tx_xmit_disabled <<<"$s0")))
	warn=$(dmesg_since switch | grep -c 'while the TX queues are disabled')
	diag "ethtool -L $w; mlx5e_xdp_xmit_disable() on CPU 1 held: $SPIN_STATS"
	diag "pktgen sent $SENT on queue 0, one per $((NOSQ_GAP / 1000)) us: tx_packets +$pkts, tx_queue_dropped +$drops, tx0_queue_stopped +$stops, tx_xmit_disabled +$dis, warnings $warn"
	if [ "$MLX5CX_TESTPORT" = yes ] &&
	   [ "$(model_get "$bdf_a" model_errors)" != 0 ]; then
		diag "the model counts errors of A: $(cxsim report "$bdf_a" | grep -E '^model_error\.[^ ]+ [1-9]' | tr '\n' ' ')"
		rc=1
	fi
	[ $rc -eq 0 ] && [ "$drops" -gt 0 ] && [ "$dis" = 0 ] &&
		[ "$warn" = 0 ] && [ $((pkts + drops)) = "$SENT" ] ||
		return 1
	wait_for 30 carrier "$a" 1 || return 1
	if ! ping -q -c 3 -i 0.2 -W 5 "$B_IP" >/dev/null ||
	   ! ip netns exec "$NS" ping -q -c 3 -i 0.2 -W 5 "$A_IP" >/dev/null; then
		diag "no ping both ways after the switches"
		return 1
	fi
}
ktap_check "SKBs sent while a switch has A's SQs out of service, its TX queues not yet stopped: dropped and counted (tx_queue_dropped), none posted, none on a disabled queue; ping both ways after" \
	no_sq_drops

no_xmit_disabled() {
	local n

	n=$(xmit_disabled)
	diag "tx_xmit_disabled $n: $(ethtool -S "$a" | awk '/tx[0-9]+_xmit_disabled:/ { printf "%s %s ", $1, $2 }')"
	[ "$n" = 0 ]
}
ktap_check "no xmit while A's TX queues were disabled (tx_xmit_disabled 0)" \
	no_xmit_disabled

# inflight_all: each TX queue's BQL bytes in flight, "tx-N:BYTES ...".
inflight_all() {
	local q out=

	for q in /sys/class/net/"$a"/queues/tx-*; do
		out+="${q##*/}:$(cat "$q/byte_queue_limits/inflight") "
	done
	echo "$out"
}
inflight_zero() { ! inflight_all | grep -q -E ':[1-9]'; }
bql_idle() {
	wait_for 20 inflight_zero && return 0
	diag "BQL inflight when idle: $(inflight_all)"
	return 1
}
ktap_check "idle: every TX queue's byte_queue_limits/inflight back to 0" bql_idle

no_watchdog() {
	! dmesg_since switch | grep -E 'NETDEV WATCHDOG|TX watchdog|transmit queue .* timed out'
}
ktap_check "no TX watchdog in the kernel log" no_watchdog
no_splat() { [ -z "$(kernel_splats switch)" ] || { kernel_splats switch | sed 's/^/# /'; false; }; }
ktap_check "no oops, BUG or WARN in the kernel log" no_splat

# The queues the switches left still send.
ktap_check "afterwards: ping" ping -q -c 3 -i 0.2 -W 5 "$B_IP"

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
