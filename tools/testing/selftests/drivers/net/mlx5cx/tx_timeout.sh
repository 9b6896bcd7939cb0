#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ndo_tx_timeout recovers the TX queues that really stalled, and only
# those. The model loses one MSI-X message of port A (its test port): the
# completion EQ of the channel it was meant for stays unarmed, so that
# channel's NAPI never runs again on its own. pktgen, alternating over
# the TX queues, fills that channel's SQ and waits on its stopped queue;
# the TX watchdog fires, and our timeout work polls that channel's EQ
# (the lost completions, the EQ rearmed). pktgen then finishes: A sent
# every packet (B's own drops aside), exactly one queue counts a timeout (txN_timeout), and
# traffic flows on every queue afterwards.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

PKTS=$(sized 20000 10000)

require_testport
ktap_header 8

ours_pair_up
nq=$(ls -d /sys/class/net/"$a"/queues/tx-* | wc -l)
diag "$a: $nq TX queues"

timeouts() {
	local q

	for q in $(seq 0 $((nq - 1))); do
		echo -n "$(ethtool_stat "$a" "tx${q}_timeout") "
	done
}

stall() {
	local p0 p1 t0 t1 oob dropped sofar

	p0=$(ip netns exec "$NS" cat "/sys/class/net/$b/statistics/rx_packets")
	t0=$(ethtool_stat "$a" tx_packets)
	pktgen_setup "$a" "$PKTS" 1
	echo "queue_map_min 0" > "/proc/net/pktgen/$a"
	echo "queue_map_max $((nq - 1))" > "/proc/net/pktgen/$a"
	cxsim dropirq "$bdf_a" 1 || return 1
	# Blocks on the stalled queue until the watchdog's recovery.
	traffic 90 pktgen_ctl start
	sofar=$(sed -n 's/.*pkts-sofar: \([0-9]*\).*/\1/p' "/proc/net/pktgen/$a")
	dropped=$(model_get "$bdf_a" irq.dropped)
	sleep 2
	t1=$(ethtool_stat "$a" tx_packets)
	p1=$(ip netns exec "$NS" cat "/sys/class/net/$b/statistics/rx_packets")
	oob=$(ethtool_stat "$b" rx_out_of_buffer "$NS")
	diag "interrupts lost: $dropped; pktgen sent $sofar of $PKTS, A tx_packets +$((t1 - t0)); B received $((p1 - p0)) (rx_out_of_buffer $oob: B's vCPU starved under load)"
	[ "$dropped" = 1 ] && [ "$sofar" = "$PKTS" ] &&
		[ $((t1 - t0)) -ge "$PKTS" ] && [ $((p1 - p0)) -gt 0 ]
}
ktap_check "one lost interrupt: pktgen stalls on a queue, the watchdog recovers it, all $PKTS packets go out" stall

one_queue() {
	local t n=0 v

	t=$(timeouts)
	diag "txN_timeout: $t"
	dmesg | grep -E 'TX watchdog|stalled' | sed 's/^/# /'
	for v in $t; do
		[ "$v" -gt 0 ] && n=$((n + 1))
	done
	[ "$n" = 1 ]
}
ktap_check "exactly one TX queue counted a timeout (txN_timeout)" one_queue

ktap_check "the watchdog fired (dmesg)" bash -c "dmesg | grep -q 'TX watchdog: queue'"

after() {
	local t0 t1

	t0=$(timeouts)
	ping -c 5 -i 0.2 -W 5 "$B_IP" >/dev/null || return 1
	pktgen_setup "$a" 4000 1
	echo "queue_map_min 0" > "/proc/net/pktgen/$a"
	echo "queue_map_max $((nq - 1))" > "/proc/net/pktgen/$a"
	pktgen_start 30 || return 1
	t1=$(timeouts)
	[ "$t0" = "$t1" ]
}
ktap_check "afterwards: ping and pktgen over every queue, no new timeout" after

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
# The watchdog's and the recovery's own lines are expected here.
no_complaints "no other mlx5 error or warning in the kernel log" \
	'TX watchdog: queue' 'stalled: SQ' 'NETDEV WATCHDOG'

ktap_finish
