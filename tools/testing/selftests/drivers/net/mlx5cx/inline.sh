#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-args: --port-prop inline=l2
#
# A device that requires headers inline in every SEND WQE (the model's
# inline=l2; inline_ip.sh runs this with inline=ip): it says so as
# hardware does, HCA cap wqe_inline_mode "from the vport context" and the
# NIC vport context's min_wqe_inline_mode, and fails a SEND WQE inlining
# less with an error CQE. Our driver reads the mode at probe, creates its
# SQs with it and inlines enough: ping, TCP and UDP cross, the model
# counts no WQE error. Then the model's test port checks the next SEND
# against a stricter mode (tcp) than the driver honours: that WQE inlines
# too little, gets the error CQE, and the tx health reporter recovers the
# SQ; traffic resumes. Under inline=l2, XDP_TX on B inlines the L2 header
# too: its XDP SQ sends SEND WQEs (an MPWQE inlines nothing, so no session
# even with xdp_tx_mpwqe on) and every frame comes back to A without a
# WQE error.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the inline mode is the model's inline property"

INLINE=${INLINE:-l2}
declare -A MODE=([l2]=1 [ip]=2 [tcp]=3)

ktap_header 9

ours_pair_up

# Every SQ of our driver but the control SQs (a TX SQ and an XDP SQ a
# channel, XDP program or not) was created with the vport's mode.
sqs_have_mode() {
	local modes n ch

	modes=$(cxsim report "$bdf_a" | sed -n 's/^sq\.[0-9]* .*min_inline=\([0-9]*\).*/\1/p')
	n=$(echo "$modes" | grep -c "^${MODE[$INLINE]}\$")
	ch=$(ethtool -l "$a" | awk '/Combined:/ {v = $2} END {print v}')
	diag "$a: SQ min_wqe_inline_mode: ${modes//$'\n'/ } (inline=$INLINE is ${MODE[$INLINE]}; $ch channels)"
	[ "$n" -ge $((2 * ch)) ]
}
ktap_check "the driver creates its SQs with the vport's inline mode ($INLINE)" sqs_have_mode

all_traffic() {
	local e0 s0 tcp sent lost

	e0=$(model_get "$bdf_a" wqe.errors)
	s0=$(model_get "$bdf_a" wqe.SEND)
	ping -c 20 -i 0.05 -W 2 "$B_IP" >/dev/null || return 1
	iperf3_server
	tcp=$(traffic 5 iperf3 -c "$B_IP" -t "$(sized 5 2)" -J | python3 -c 'import json,sys; r=json.load(sys.stdin)["end"]; print(int(r["sum_received"]["bytes"]))')
	iperf3_server
	read -r sent lost < <(traffic 2 iperf3 -c "$B_IP" -u -b 10M -t 2 -J | python3 -c '
import json,sys; r=json.load(sys.stdin)["end"]["sum"]; print(r["packets"], r["lost_packets"])')
	diag "inline=$INLINE: TCP ${tcp:-0} bytes, UDP $sent sent ($lost lost); model SEND +$(( $(model_get "$bdf_a" wqe.SEND) - s0 )), ENHANCED_MPSW $(model_get "$bdf_a" wqe.ENHANCED_MPSW), WQE errors $(model_get "$bdf_a" wqe.errors)"
	[ "${tcp:-0}" -gt 0 ] && [ "${sent:-0}" -gt 0 ] &&
		[ "$(model_get "$bdf_a" wqe.errors)" = "$e0" ] &&
		[ "$(model_get "$bdf_a" wqe.inline_errors)" = 0 ]
}
ktap_check "ping, TCP and UDP under inline=$INLINE: no WQE error" all_traffic

# The counters of both functions and what reached A's tap.
xdp_tx_snap() { pair_snapshot && udp_tap_get "" "$a" ingress; }

# XDP_TX on B (xdp-bench tx, swapping the MACs) under inline=$INLINE:
# pktgen from A, every frame B's port delivered goes back and reaches A's
# stack (a tc filter counts it), the model sees no WQE error.
xdp_tx_inline() {
	local n=500 x0 s0 f0 e0 u0 we0 mr0 x s f e u we mr rc=0

	command -v xdp-bench >/dev/null ||
		{ needs "xdp-tools (tools/testing/install-deps)"; return 1; }
	udp_tap_add "" "$a" ingress || return 1
	xdp_bench_start "$b" tx -p swap-macs -m native "$b" || return 1
	x0=$(ethtool_stat "$b" rx_xdp_tx_xmit "$NS") s0=$(ethtool_stat "$b" rx_xdp_tx_mpwqe "$NS")
	f0=$(ethtool_stat "$b" rx_xdp_tx_full "$NS") e0=$(ethtool_stat "$b" rx_xdp_tx_err "$NS")
	u0=$(udp_tap_get "" "$a" ingress) we0=$(model_get "$bdf_b" wqe.errors)
	mr0=$(model_get "$bdf_b" rx.packets)
	pktgen_setup "$a" "$n" 32
	pktgen_start
	# Until the frames B sent back reached A's tap.
	settled 60 xdp_tx_snap >/dev/null || rc=1
	x=$(( $(ethtool_stat "$b" rx_xdp_tx_xmit "$NS") - x0 ))
	s=$(( $(ethtool_stat "$b" rx_xdp_tx_mpwqe "$NS") - s0 ))
	f=$(( $(ethtool_stat "$b" rx_xdp_tx_full "$NS") - f0 ))
	e=$(( $(ethtool_stat "$b" rx_xdp_tx_err "$NS") - e0 ))
	u=$(( $(udp_tap_get "" "$a" ingress) - u0 ))
	we=$(( $(model_get "$bdf_b" wqe.errors) - we0 ))
	mr=$(( $(model_get "$bdf_b" rx.packets) - mr0 ))
	xdp_bench_stop "$b" || rc=1
	udp_tap_del "" "$a" ingress
	diag "XDP_TX under inline=$INLINE: B delivered $mr; rx_xdp_tx_xmit +$x, full +$f, err +$e, rx_xdp_tx_mpwqe +$s; A's driver got $u back; model WQE errors +$we, inline errors $(model_get "$bdf_b" wqe.inline_errors)"
	[ $rc -eq 0 ] && [ "$x" -gt 0 ] && [ $((x + f)) -eq "$mr" ] && [ "$u" -eq "$x" ] &&
		[ "$e" -eq 0 ] && [ "$we" -eq 0 ] && [ "$s" -eq 0 ] &&
		[ "$(model_get "$bdf_b" wqe.inline_errors)" = 0 ]
}
if [ "$INLINE" != l2 ]; then
	# As upstream's, the XDP SQ inlines the L2 header and no more.
	ktap_skip "XDP_TX under inline=$INLINE" \
		"the XDP SQ inlines the L2 header only (inline.sh covers inline=l2)"
else
	ktap_check "XDP_TX under inline=$INLINE: the L2 header inlined, SEND WQEs, every frame back to A, no WQE error" xdp_tx_inline
fi

tx_health() { health_counts "$(eth_health_dl "$bdf_a")" tx; }

# A SEND inlining less than the mode asks: error CQE, the reporter
# recovers the SQ. Ping (ICMP: IP mode asks the IPv4 header, TCP mode
# the same) from every CPU, so that whichever SQ carries it.
too_little() {
	local e0 r0 e r st rec

	read -r e0 r0 _ <<<"$(tx_health)"
	rec=$(ethtool_stat "$a" tx_recover)
	cxsim inlinefault "$bdf_a" tcp
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" ping -c 1 -W 1 "$B_IP" >/dev/null 2>&1
	done
	recovered() {
		read -r e r st <<<"$(tx_health)"
		[ "$e" -eq $((e0 + 1)) ] && [ "$r" -eq $((r0 + 1)) ] && [ "$st" = healthy ]
	}
	wait_for 15 recovered
	diag "inline fault: model wqe.inline_errors $(model_get "$bdf_a" wqe.inline_errors) (injected $(model_get "$bdf_a" wqe.inline_errors_injected)), tx_cqe_err $(ethtool_stat "$a" tx_cqe_err), tx_recover $(ethtool_stat "$a" tx_recover), reporter tx: $(tx_health)"
	[ "$(model_get "$bdf_a" wqe.inline_errors_injected)" = 1 ] &&
		[ "$(model_get "$bdf_a" wqe.inline_errors)" = 1 ] &&
		[ "$(ethtool_stat "$a" tx_recover)" -eq $((rec + 1)) ] && recovered
}
if [ "$INLINE" != l2 ]; then
	# Under ip and tcp the driver inlines every header (eth_get_headlen).
	ktap_skip "a SEND inlining too little: error CQE, the tx reporter recovers" \
		"the driver inlines every header under $INLINE: no stricter mode to break (inline.sh covers it)"
else
	ktap_check "a SEND inlining too little: error CQE, the tx reporter recovers" too_little
fi
cxsim inlinefault "$bdf_a" none

resumes() {
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" ping -c 2 -W 5 "$B_IP" >/dev/null || return 1
	done
	[ "$(model_get "$bdf_a" wqe.inline_errors)" -le 1 ]
}
ktap_check "traffic resumes on every queue" resumes

pair_down
ktap_check "rmmod" unload_mlx5
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
