#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TX completions free the SQ's slots only after the CQ's doorbell record
# says their CQEs are consumed. The TX CQ has as many entries as the SQ
# has WQEBBs: a poll that hands slots back to xmit CQE by CQE, while the
# CQ's consumer index stays where it was, lets xmit on another CPU post
# WQEs whose CQEs the device has no room for (a CQ overrun: the model's
# cq.overrun error and a CQ error event; on hardware, a dead queue).
#
# One channel, the smallest TX ring, BQL out of the way, no TX completion
# moderation, the channel's completion interrupt (its NAPI) on CPU 0 and
# pktgen, one packet a doorbell, from CPU 1, against a device that
# completes soon after the doorbell (short latency and jitter, a fast
# wire). The race wants xmit a little faster than the completions: a
# poll that starts as the queue wakes then chases CQEs while xmit
# refills the slots it frees, until more than a CQ of them came between
# two updates of the doorbell record. How fast each side runs depends on
# the host, so pktgen sends with a few delays between packets, and
# with page fragments (an unmap each at completion), in turn.
# No CQ overrun, no CQ error event or TX timeout, and the packets reach
# the peer.
#
# On the model this has not been seen to fail with the bug in place (see
# the commit that added it): the device or xmit is always the slower
# side there, and a full ring stops xmit until the poll ends. It guards
# the order, and fails on a real overrun.
#
# vm-args: --port-prop latency=500 --port-prop jitter=1000 --port-prop speed=0

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the CQ overrun is the model's to see"

PKTS=$(sized 60000 20000)
# pktgen's delay between packets, ns.
DELAYS="0 100000"
# Page fragments a packet (each a mapping to undo at completion).
FRAGS="0 8"

ktap_header 9

ours_pair_up

# The channel's completion interrupt: mlx5_comp0 of port A.
comp_irq() {
	awk -v n="mlx5_comp0@pci:$bdf_a" '$NF == n { sub(":", "", $1); print $1 }' \
		/proc/interrupts
}

setup() {
	local irq

	ethtool -L "$a" combined 1 || return 1
	ethtool -G "$a" tx 64 || return 1
	[ "$(ethtool -g "$a" | awk '/^TX:/ { v = $2 } END { print v }')" = 64 ] ||
		return 1
	bql_floor "$a" 4000000 || return 1
	ethtool -C "$a" adaptive-tx off tx-usecs 0 tx-frames 1 || return 1
	irq=$(comp_irq)
	[ -n "$irq" ] || { diag "no mlx5_comp0 interrupt"; return 1; }
	echo 0 >"/proc/irq/$irq/smp_affinity_list" || return 1
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

# Every delay, one packet a doorbell; then bursts of 8.
sweep() {
	local d f rc=0

	for f in $FRAGS; do
		for d in $DELAYS; do
			chase 1000 1 "$d" "$f" || rc=1
		done
	done
	return $rc
}

dmesg_mark chase
ktap_check "$PKTS packets of 1000 bytes, one a doorbell, from CPU 1, in each of $FRAGS fragments, $DELAYS ns apart: no CQ overrun" \
	sweep
ktap_check "$PKTS packets of 64 bytes in bursts of 8 from CPU 1: no CQ overrun" \
	chase 64 8 0 0

no_cq_error() {
	! dmesg_since chase | grep -i -E 'CQ error|cq_err|TX watchdog|NETDEV WATCHDOG|error CQE'
}
ktap_check "no CQ error event, error CQE or TX timeout in the kernel log" no_cq_error

ktap_check "afterwards: ping" ping -c 3 -i 0.2 -W 5 "$B_IP"

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
