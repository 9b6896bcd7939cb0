#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The port and interrupt settings of our netdev through ethtool: link
# modes and speed from PTYS, global pause (-a/-A) in PFCC and the PAUSE
# frames the link partner sends (the model's XOFF), and interrupt
# moderation: ethtool -c/-C (rx/tx usecs and
# frames, adaptive) programmed with MODIFY_CQ, bad values refused with the
# state unchanged, and what it does: a pktgen stream from A into B, B's
# interrupts (the model's MSI-X count of B's function) per packet B
# received. With rx-frames 32 and rx-usecs 4000 (adaptive off) one per 32
# packets or per 4 ms period, whichever comes first (the model counts
# which): at most 1/16 for a back-to-back stream, plus one for each
# period that ran out before 32 came; with rx-frames 1
# about one for a stream of one packet every 10 ms (at least 1/3: NAPI
# still polling when a frame comes takes it without an interrupt). The
# period mode (cqe-mode-rx): a lone ping waits the whole period for its
# interrupt when the period starts at the CQE, none when it starts at
# the CQ's last event (the model counts the EQEs it waited for).
# Adaptive moderation leaves the CQ of an RQ that receives nothing as it
# is.
# MLX5CX_QUICK=1 sends fewer packets.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

PKTS=$(sized 20000 4000)
PKTS1=$(sized 500 200)

ktap_header 16

ours_pair_up

nsb() { ip netns exec "$NS" "$@"; }

link_modes() {
	local out

	out=$(ethtool "$a")
	echo "$out" | grep -E 'Speed|Duplex|baseCR4' | sed 's/^/# /'
	echo "$out" | grep -q 'Speed: 100000Mb/s' &&
		echo "$out" | grep -q 'Duplex: Full' &&
		echo "$out" | sed -n '/Supported link modes/,/Supported pause/p' |
			grep -q '100000baseCR4/Full' &&
		echo "$out" | sed -n '/Supported link modes/,/Supported pause/p' |
			grep -q '25000baseCR/Full'
}
ktap_check "ethtool: link modes and speed (100000Mb/s) from PTYS" link_modes

# pause_is RX TX: what ethtool -a reads back from the device (PFCC).
pause_is() {
	ethtool -a "$a" | grep -q "^RX:[[:space:]]*$1" &&
		ethtool -a "$a" | grep -q "^TX:[[:space:]]*$2"
}
pause() {
	ethtool -A "$a" rx off tx off && pause_is off off &&
		ethtool -A "$a" rx on tx off && pause_is on off &&
		ethtool -A "$a" rx off tx on && pause_is off on &&
		ethtool -A "$a" rx on tx on && pause_is on on || return 1
	diag "$(ethtool -a "$a" | tr '\n' ' ')"
	diag "pause frames: $(ethtool --include-statistics -a "$a" 2>/dev/null | grep -i frames | tr '\n' ' ')"
	ethtool --include-statistics -a "$a" | grep -q 'rx_pause_frames: 0'
}
ktap_check "ethtool -A rx/tx pause each way, read back from PFCC; pause frame counters (PPCNT)" pause

pause_autoneg() {
	ethtool -A "$a" autoneg on rx off tx off 2>/dev/null && return 1
	pause_is on on
}
ktap_check "ethtool -A autoneg on refused, pause unchanged" pause_autoneg

# rx_pause_is N: the PAUSE frames A received, as ethtool reads them (PPCNT).
rx_pause_is() {
	ethtool --include-statistics -a "$a" | grep -q "rx_pause_frames: $1\$"
}
# The partner's XOFF holds A's sending while RX pause is on; with it off
# the PAUSE frame is counted and ignored.
partner_pause() {
	cxsim xoff "$bdf_a" on || return 1
	ping -c 1 -W 1 "$B_IP" >/dev/null && { diag "XOFF not honoured: a ping went out"; return 1; }
	rx_pause_is 1 || { diag "after XOFF: $(ethtool --include-statistics -a "$a" | grep rx_pause)"; return 1; }
	cxsim xoff "$bdf_a" off || return 1
	ping -c 1 -W 5 "$B_IP" >/dev/null || { diag "no ping after XON"; return 1; }
	ethtool -A "$a" rx off || return 1
	cxsim xoff "$bdf_a" on || return 1
	ping -c 1 -W 5 "$B_IP" >/dev/null || { diag "RX pause off: XOFF still held A"; return 1; }
	cxsim xoff "$bdf_a" off
	ethtool -A "$a" rx on || return 1
	diag "$(ethtool --include-statistics -a "$a" | grep -i pause_frames | tr '\n' ' ')"
	rx_pause_is 4
}
if [ "$MLX5CX_TESTPORT" = yes ]; then
	ktap_check "PAUSE frames from the partner: counted (PPCNT), honoured only with RX pause on" partner_pause
else
	ktap_skip "PAUSE frames from the partner: counted (PPCNT), honoured only with RX pause on" "$TESTPORT_NEEDED"
fi
coal_get() { nsb ethtool -c "$b" | awk -v k="$1:" '$1 == k { print $2; exit }'; }

# Out of probe both directions are adaptive, as upstream where MODIFY_CQ
# may change the period mode (the model announces it).
default_dim() {
	diag "$(nsb ethtool -c "$b" | grep '^Adaptive')"
	nsb ethtool -c "$b" | grep -q '^Adaptive RX: on  TX: on'
}
ktap_check "adaptive moderation (net_dim) on for RX and TX by default" default_dim

# net_dim measures each CQ by its own completion events, as upstream: a
# channel that only sends gives its RQ's DIM no measurement, and the
# RQ's CQ no MODIFY_CQ. One channel, so that the pings' replies and the
# stream share it: the replies give that DIM samples with traffic, unlike
# the empty ones after them. The stream goes to a MAC nobody has, so
# that B answers nothing.
idle_rx_dim() {
	local m0 m1 n rc=0

	n=$(ethtool -l "$a" | awk '/^Combined:/ { v = $2 } END { print v }')
	ethtool -L "$a" combined 1 || return 1
	ethtool -C "$a" adaptive-rx on adaptive-tx off || rc=1
	ping -c 100 -i 0.01 -q -W 5 "$B_IP" >/dev/null || rc=1
	pktgen_setup "$a" 10000 1 || rc=1
	echo "dst_mac 02:00:5e:00:00:99" >"/proc/net/pktgen/$a"
	# Once the moderation the pings earned is in place (the report
	# lists a command once it ran).
	m0=$(settled 10 model_get "$bdf_a" cmd.MODIFY_CQ) || rc=1
	pktgen_start || rc=1
	m1=$(model_get "$bdf_a" cmd.MODIFY_CQ)
	m0=${m0:-0} m1=${m1:-0}
	diag "one channel, adaptive-rx on, adaptive-tx off; A sends and receives nothing: $(grep -o 'pkts-sofar: [0-9]*' "/proc/net/pktgen/$a"), MODIFY_CQ $m0 -> $m1"
	ethtool -C "$a" adaptive-tx on || rc=1
	ethtool -L "$a" combined "$n" || rc=1
	[ $rc -eq 0 ] && [ "$m1" -eq "$m0" ]
}
ktap_check "adaptive-rx on a channel that only sends: no MODIFY_CQ (net_dim counts the RQ CQ's own events)" idle_rx_dim

set_coal() {
	nsb ethtool -C "$b" adaptive-rx off adaptive-tx off rx-usecs 4000 rx-frames 32 || return 1
	diag "$(nsb ethtool -c "$b" | grep -E '^(Adaptive RX|rx-usecs|rx-frames|tx-usecs|tx-frames):' | tr '\n' ' ')"
	[ "$(coal_get rx-usecs)" = 4000 ] && [ "$(coal_get rx-frames)" = 32 ] &&
		nsb ethtool -c "$b" | grep -q '^Adaptive RX: off'
}
ktap_check "ethtool -C rx-usecs 4000 rx-frames 32 adaptive off: ethtool -c reads it back" set_coal

bad_coal() {
	local msg

	msg=$(nsb ethtool -C "$b" rx-usecs 5000 2>&1) && return 1
	diag "rx-usecs 5000: $msg"
	msg=$(nsb ethtool -C "$b" rx-frames 70000 2>&1) && return 1
	diag "rx-frames 70000: $msg"
	[ "$(coal_get rx-usecs)" = 4000 ] && [ "$(coal_get rx-frames)" = 32 ]
}
ktap_check "rx-usecs above 4095 and rx-frames above 65535 refused, state unchanged" bad_coal

# irq_per_pkt COUNT DELAY: a pktgen stream of COUNT packets from A, DELAY
# ns apart, once B's counters stand still: "interrupts packets eqes
# by_count by_period posted cqes events", B's interrupts (the model's
# MSI-X count of B's function), the packets B received, its completion
# EQEs, those the model posted when cq_max_count was reached and when
# cq_period ran out, every EQE it posted, B's CQEs, and the completion
# events B's driver counted (ch_events: one per completion EQE).
b_snapshot() {
	traffic_counters "$bdf_b" && nsb cat "/sys/class/net/$b/statistics/rx_packets"
}
b_counts() {
	local rep

	rep=$(cxsim report "$bdf_b") || return 1
	echo "$(report_get msix.sent <<<"$rep") $(nsb cat "/sys/class/net/$b/statistics/rx_packets")" \
		"$(report_get eqe.comp <<<"$rep") $(report_get eqe.comp.mod_count <<<"$rep")" \
		"$(report_get eqe.comp.mod_timer <<<"$rep") $(report_get eqe.posted <<<"$rep")" \
		"$(( $(report_get cqe.rx <<<"$rep") + $(report_get cqe.tx <<<"$rep") ))" \
		"$(ethtool_stat "$b" ch_events "$NS")"
}
irq_per_pkt() {
	local c0 c1 i

	pktgen_setup "$a" "$1" 1
	echo "delay $2" > "/proc/net/pktgen/$a"
	settled 30 b_snapshot >/dev/null || return 1
	read -r -a c0 <<<"$(b_counts)"
	[ ${#c0[@]} = 8 ] || { diag "B's report lacks a counter: ${c0[*]}"; return 1; }
	pktgen_start || return 1
	# The last EQE waits for the period after the last packet.
	settled 30 b_snapshot >/dev/null || return 1
	read -r -a c1 <<<"$(b_counts)"
	[ ${#c1[@]} = 8 ] || { diag "B's report lacks a counter: ${c1[*]}"; return 1; }
	for i in 0 1 2 3 4 5 6 7; do
		printf '%s ' $((c1[i] - c0[i]))
	done
	echo
}

ratio() { awk -v i="$1" -v p="$2" 'BEGIN { printf "%.4f", p ? i / p : 0 }'; }

# Back to back: every completion EQE of B is moderated (the model posted
# it for the count or the period, none at once), each by the count took
# 32 CQEs, an interrupt is an EQE at most: at most one interrupt in 16
# plus those for which the period ran out; never more than one in 2.
# (The model decides which, on its own clock: how fast this host sends
# does not loosen the bound.  Under host load B may drop some of the
# burst: the ratio is over what B received.)
moderated() {
	local irq pkts eqe cnt tmr posted cqes ev

	read -r irq pkts eqe cnt tmr posted cqes ev <<<"$(irq_per_pkt "$PKTS" 0)"
	diag "rx-frames 32, back to back: $irq interrupts for $pkts packets ($(ratio "$irq" "$pkts") per packet); completion EQEs $eqe: $cnt by the count, $tmr by the period; $cqes CQEs, $posted EQEs in all; ch_events $ev"
	[ -n "$ev" ] && [ "$ev" -eq "$eqe" ] &&
		[ "$pkts" -ge $((PKTS / 2)) ] && [ "$irq" -gt 0 ] &&
		[ "$eqe" -eq $((cnt + tmr)) ] && [ $((cnt * 32)) -le "$cqes" ] &&
		[ "$irq" -le "$posted" ] && [ "$irq" -le $((pkts / 16 + tmr)) ] &&
		[ $((irq * 2)) -le "$pkts" ]
}
ktap_check "rx-frames 32, rx-usecs 4000: every EQE moderated, by the count after 32 CQEs or by the period; at most 1/16 interrupt per packet beside the period's (model counts); ch_events counts each completion EQE" moderated

# One packet every 10 ms, so that B's NAPI is done with each before the
# next comes: each packet is an interrupt of its own, its EQE posted by
# the count (1), at least one for every 3 packets. A host that stalls
# this VM bunches them (pktgen sends the ones it is late for back to
# back) and NAPI, still polling, takes the bunch without an EQE: 462
# interrupts for 1000 packets 1 ms apart, and 132 for 300 5 ms apart,
# with three VMs on two CPUs. The bound still tells it from rx-frames
# 32 (1/16 at most). B's few sends (ICMP) complete on TX CQs the period
# moderates.
per_packet() {
	local irq pkts eqe cnt tmr posted cqes ev

	nsb ethtool -C "$b" rx-frames 1 || return 1
	read -r irq pkts eqe cnt tmr posted cqes ev <<<"$(irq_per_pkt "$PKTS1" 10000000)"
	diag "rx-frames 1, 10 ms apart: $irq interrupts for $pkts packets ($(ratio "$irq" "$pkts") per packet); completion EQEs $eqe: $cnt by the count, $tmr by the period; ch_events $ev"
	[ -n "$ev" ] && [ "$ev" -eq "$eqe" ] &&
		[ "$pkts" -ge "$PKTS1" ] && [ "$eqe" -eq $((cnt + tmr)) ] &&
		[ $((cnt * 3)) -ge "$pkts" ] &&
		[ $((irq * 3)) -ge "$pkts" ] && [ "$irq" -le $((pkts + pkts / 10)) ]
}
ktap_check "rx-frames 1: about one interrupt per packet (1/3 .. 1.1), an EQE by the count for one packet in 3 at least; ch_events counts each completion EQE" per_packet

# min_rtt: the shortest of 5 pings from A to B, in ms, and the EQEs B's
# function waited for (the model posted them from its timer once the
# period ran out, eqe.comp.mod_waited) meanwhile.
min_rtt() {
	local w0 w1 rtt

	w0=$(model_get "$bdf_b" eqe.comp.mod_waited)
	rtt=$(ping -c 5 -i 0.2 -W 5 -q "$B_IP" | awk -F'[/ =]+' '/^rtt/ { print $6 }')
	w1=$(model_get "$bdf_b" eqe.comp.mod_waited)
	# A count not read: no number, and the point fails.
	if [ -n "$w0" ] && [ -n "$w1" ]; then
		echo "${rtt:-?} $((w1 - w0))"
	else
		echo "${rtt:-?} ?"
	fi
}
# The period mode (cqe-mode-rx, the private flag rx_cqe_moder): with the
# period started by the CQE (as the PRM's START_FROM_CQE), a lone ping
# request waits the whole 4 ms period for its EQE, every time, the
# count of 64 never reached: B's model waits for each of the 5 EQEs, and
# no ping returns in less than 4 ms. Started by the CQ's last event (the
# default), requests 200 ms apart find it long past and raise their EQE
# at once: no wait, but for one at most (a neighbour probe just before
# a request). The model's counts, not the round trip, tell the second:
# on a loaded host a ping takes 4 ms without waiting for anything.
# tx_cqe_moder (tx-usecs 16) does the same to the TX CQs, and only to
# them: a reply's completion waits its 16 us (3 of 5 at least: the poll
# that sent the reply may find its CQE before it arms the CQ, and no
# event is due), the requests' RX completions not (6 waits at most: 5
# and a probe's). Either change builds new channels.
cqe_mode() {
	local c0 c1 cqe cqe_w eqe eqe_w tx tx_w rc=0

	c0=$(model_get "$bdf_b" cmd.CREATE_CQ)
	nsb ethtool -C "$b" adaptive-rx off rx-usecs 4000 rx-frames 64 cqe-mode-rx on || return 1
	c1=$(model_get "$bdf_b" cmd.CREATE_CQ)
	diag "$(nsb ethtool -c "$b" | grep '^CQE mode'); $(nsb ethtool --show-priv-flags "$b" | grep cqe_moder | tr -s ' \n' ' '); CREATE_CQ $c0 -> $c1"
	nsb ethtool -c "$b" | grep -q '^CQE mode RX: on  TX: off' &&
		nsb ethtool --show-priv-flags "$b" | grep -Eq '^rx_cqe_moder *: on' &&
		[ "$c1" -gt "$c0" ] || rc=1
	read -r cqe cqe_w <<<"$(min_rtt)"
	nsb ethtool -C "$b" cqe-mode-rx off || return 1
	read -r eqe eqe_w <<<"$(min_rtt)"
	nsb ethtool --show-priv-flags "$b" | grep -Eq '^rx_cqe_moder *: off' || rc=1
	# TX's through the private flag, read back by ethtool -c.
	nsb ethtool --set-priv-flags "$b" tx_cqe_moder on || return 1
	tx=$(nsb ethtool -c "$b" | grep '^CQE mode')
	read -r _ tx_w <<<"$(min_rtt)"
	nsb ethtool --set-priv-flags "$b" tx_cqe_moder off || return 1
	diag "rx-usecs 4000 rx-frames 64, 5 pings: cqe-mode-rx on: shortest $cqe ms, $cqe_w EQEs waited for; off: $eqe ms, $eqe_w; tx_cqe_moder on: $tx, $tx_w waited for"
	[ $rc -eq 0 ] && [ "$tx" = "CQE mode RX: off  TX: on" ] &&
		[ "$cqe_w" -ge 5 ] && [ "$eqe_w" -le 1 ] &&
		[ "$tx_w" -ge 3 ] && [ "$tx_w" -le 6 ] &&
		awk -v c="$cqe" 'BEGIN { exit !(c != "?" && c >= 4.0) }' &&
		nsb ethtool -c "$b" | grep -q '^CQE mode RX: off  TX: off'
}
ktap_check "cqe-mode-rx (rx_cqe_moder) on: a lone packet waits the 4 ms period (its EQE from the model's timer, no ping under 4 ms), off: its EQE at once; tx_cqe_moder on: read back by ethtool -c, the replies' TX completions wait (3 of 5 at least), not the RX ones; the channels rebuilt" cqe_mode

adaptive() {
	nsb ethtool -C "$b" adaptive-rx on adaptive-tx on || return 1
	nsb ethtool -c "$b" | grep -q '^Adaptive RX: on  TX: on' || return 1
	# DIM reprograms the CQs as it measures: traffic flows throughout.
	nsb ping -c 3 -W 5 "$A_IP" >/dev/null && ping -c 3 -W 5 "$B_IP" >/dev/null &&
		nsb ethtool -C "$b" adaptive-rx off adaptive-tx off
}
ktap_check "adaptive (net_dim) on and off, traffic both ways" adaptive

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
# The refused pause autonegotiation's own line is expected.
no_complaints "no other mlx5 error or warning in the kernel log" \
	'pause autonegotiation is not supported'

ktap_finish
