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
# vm-args: --port-prop latency=20000 --port-prop jitter=200000

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

# How long iperf3 runs (s), and the most switches made meanwhile. A
# switch takes seconds on the debug kernel (KASAN, lockdep under TCG): it
# runs longer there, for the four switches the load must see.
SECS=$(sized 40 15)
[ "${VM_KERNEL:-debian}" = debian ] || SECS=$((SECS * 3))
SWITCHES=$(sized 60 16)

ktap_header 11

WORK=$(mktemp -d)
IPERF=
trap 'kill "$IPERF" 2>/dev/null; pkill -x iperf3; rm -rf "$WORK"' EXIT

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
	ip netns exec "$NS" iperf3 -s -D -1 -B "$B_IP" >/dev/null || return 1
	wait_for 30 tcp_listening "$NS" 5201 || return 1
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
