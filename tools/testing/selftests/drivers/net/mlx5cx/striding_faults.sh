#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults of our striding RQ (private flag rx_striding_rq on port B, in a
# network namespace), injected by the model's test port:
#  - UMR completions held until released: the RQ whose UMRs wait runs out
#    of WQEs (the port drops, out of buffer) but the driver hands the
#    device no WQE before its UMR completed (the model's umr.early_use
#    stays 0); once released the RQ fills again and every frame the port
#    delivers reaches the stack; every page taken was mapped by a UMR.
#  - UMR completions delayed by a few hundred ms each: TCP still flows.
#  - a striding CQE naming the wrong WQE, then one with a stride out of
#    order, then an error CQE: each counted once in rx_wqe_err, the RQ
#    reset by recovery (rxN_recover), TCP and UDP flow again.
#  - a UMR that fails (error CQE on the ICOSQ): counted in rx_umr_cqe_err,
#    recovery resets the ICOSQ and the RQ and says so truthfully (devlink
#    health: as many recoveries as errors), and that RQ receives again.
#  - our driver never trips the model's memory protection, and once
#    unloaded the model holds nothing of ours.
# vm-args: --timeout 1500

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

require_testport
FRAMES=${FRAMES:-$(sized 5000 3000)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ktap_header 17

dmesg_mark striding_faults
ours_pair_up

nsx() { ip netns exec "$NS" "$@"; }
bstat() { ethtool_stat "$b" "$1" "$NS"; }
recovers() { rq_recovers "$b" "$NS"; }
# reporter_count KEY: "error" or "recover" count of B's "rx" reporter.
reporter_count() {
	local e r

	read -r e r _ <<<"$(health_counts "$(eth_health_dl "$bdf_b")" rx)"
	if [ "$1" = error ]; then echo "$e"; else echo "$r"; fi
}
b_model() { model_get "$bdf_b" "$1"; }

striding_on() {
	nsx ethtool --set-priv-flags "$b" rx_striding_rq on &&
		nsx ethtool --show-priv-flags "$b" | grep -Eq 'rx_striding_rq *: on' &&
		wait_for 15 ns_carrier "$b" 1
}
ktap_check "rx_striding_rq on for B" striding_on

# One pktgen flow A -> B: always the same RQ of B.
pktgen_setup "$a" "$FRAMES" 32

# deliver_all: pktgen FRAMES into B again: every frame B's port delivered
# reached the stack (B's rx_packets, once NAPI caught up), and some were
# delivered.
caught_up() {
	[ $(( $(bstat rx_packets) - R0 )) -ge $(( $(b_model rx.packets) - M0 )) ]
}
deliver_all() {
	local d0 r m d

	sleep 1
	R0=$(bstat rx_packets) M0=$(b_model rx.packets) d0=$(b_model rx.drops)
	pktgen_start
	sleep 2
	wait_for 15 caught_up
	r=$(( $(bstat rx_packets) - R0 )) m=$(( $(b_model rx.packets) - M0 ))
	d=$(( $(b_model rx.drops) - d0 ))
	diag "pktgen $FRAMES: B's port delivered $m, dropped $d; B rx_packets +$r"
	[ "$m" -gt 0 ] && [ "$r" -ge "$m" ] && [ $((m + d)) -ge "$FRAMES" ]
}

# The UMR held until released.
held_starves() {
	local nowqe0

	nowqe0=$(b_model rx.drops.no_wqe)
	cxsim umrhold "$bdf_b" until || return 1
	pktgen_start
	sleep 2
	HELD=$(b_model umr.held)
	diag "UMRs held: $HELD SQ(s) stopped, $(b_model umr.holds) holds; port drops for want of a WQE +$(( $(b_model rx.drops.no_wqe) - nowqe0 )); umr.early_use $(b_model umr.early_use)"
	[ "${HELD:-0}" -ge 1 ] && [ "$(b_model rx.drops.no_wqe)" -gt "$nowqe0" ] &&
		[ "$(b_model umr.early_use)" = 0 ]
}
P0=$(bstat rx_pages) U0=$(b_model umr.entries)
ktap_check "UMR completions held: the RQ runs dry (port drops, out of buffer), no WQE handed to the device before its UMR completed (umr.early_use 0)" held_starves

released() {
	cxsim umrrelease "$bdf_b" || return 1
	wait_for 10 bash -c "[ \"\$(python3 -S $LIB_DIR/cxsim.py report $bdf_b | awk '\$1 == \"umr.held\" { print \$2 }')\" = 0 ]" &&
		deliver_all && [ "$(b_model umr.early_use)" = 0 ]
}
ktap_check "released: the RQ fills again, every frame the port delivers reaches the stack" released

pages_mapped() {
	local p u

	sleep 1
	p=$(( $(bstat rx_pages) - P0 )) u=$(( $(b_model umr.entries) - U0 ))
	diag "pages taken +$p, MTT entries UMRs wrote +$u"
	[ "$p" -gt 0 ] && [ "$p" -eq "$u" ]
}
ktap_check "every page B took was mapped by a completed UMR (rx_pages == umr.entries)" pages_mapped

timed_hold() {
	local h0 ok=0

	h0=$(b_model umr.holds)
	cxsim umrhold "$bdf_b" 300 || return 1
	iperf3_server
	traffic 4 iperf3 -c "$B_IP" -t 4 -J >"$TMP/iperf.json" 2>&1 || ok=1
	cxsim umrrelease "$bdf_b"
	TCP_BYTES=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bytes"])' <"$TMP/iperf.json" 2>/dev/null)
	diag "TCP with every UMR completion 300 ms late: ${TCP_BYTES:-?} bytes received; holds +$(( $(b_model umr.holds) - h0 )), umr.early_use $(b_model umr.early_use)"
	[ $ok = 0 ] && [ "${TCP_BYTES:-0}" -gt 0 ] &&
		[ "$(b_model umr.holds)" -gt "$h0" ] && [ "$(b_model umr.early_use)" = 0 ]
}
ktap_check "UMR completions 300 ms late: TCP flows, still no early use" timed_hold

# bad_cqe KIND: one malformed striding CQE; counted once, the RQ reset.
bad_cqe() {
	local e0 r0 i0

	e0=$(bstat rx_wqe_err) r0=$(recovers) i0=$(b_model rx.bad_cqe_injected)
	cxsim badrxcqe "$bdf_b" any "$1" || return 1
	ping -c 3 -i 0.3 -W 2 "$B_IP" >/dev/null
	wait_for 15 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 ~ /^rx[0-9]+_recover:\$/ { s += \$2 } END { print s + 0 }') -gt $r0 ]"
	diag "$1: model made $(( $(b_model rx.bad_cqe_injected) - i0 )) CQE(s) lie; rx_wqe_err +$(( $(bstat rx_wqe_err) - e0 )), rxN_recover +$(( $(recovers) - r0 ))"
	[ $(( $(b_model rx.bad_cqe_injected) - i0 )) = 1 ] &&
		[ $(( $(bstat rx_wqe_err) - e0 )) = 1 ] && [ $(( $(recovers) - r0 )) = 1 ]
}
ktap_check "CQE naming the wrong WQE: rx_wqe_err +1, RQ reset once (rxN_recover +1)" bad_cqe wqe_id
ktap_check "CQE with a stride out of order: rx_wqe_err +1, RQ reset once" bad_cqe stride

# An error CQE from the model on a striding RQ (the RQ goes to ERR).
err_cqe() {
	local e0 r0 i0

	e0=$(bstat rx_wqe_err) r0=$(recovers) i0=$(b_model rq.errors_injected)
	cxsim errcqerq "$bdf_b" any || return 1
	ping -c 3 -i 0.3 -W 2 "$B_IP" >/dev/null
	wait_for 15 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 ~ /^rx[0-9]+_recover:\$/ { s += \$2 } END { print s + 0 }') -gt $r0 ]"
	diag "error CQE: model injected $(( $(b_model rq.errors_injected) - i0 )); rx_wqe_err +$(( $(bstat rx_wqe_err) - e0 )), rxN_recover +$(( $(recovers) - r0 ))"
	[ $(( $(b_model rq.errors_injected) - i0 )) = 1 ] &&
		[ $(( $(bstat rx_wqe_err) - e0 )) = 1 ] && [ $(( $(recovers) - r0 )) = 1 ]
}
ktap_check "error CQE on a striding RQ: rx_wqe_err +1, RQ reset once" err_cqe

tcp_udp() {
	local tcp udp

	iperf3_server
	traffic 3 iperf3 -c "$B_IP" -t "$(sized 3 2)" -J >"$TMP/tcp.json" 2>&1 || return 1
	iperf3_server
	traffic 2 iperf3 -c "$B_IP" -u -b 20M -t 2 -J >"$TMP/udp.json" 2>&1 || return 1
	tcp=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bytes"])' <"$TMP/tcp.json")
	udp=$(python3 -c 'import json,sys; s=json.load(sys.stdin)["end"]["sum"]; print(s["packets"] - s["lost_packets"])' <"$TMP/udp.json")
	diag "after the resets: TCP $tcp bytes received, UDP $udp datagrams received"
	[ "${tcp:-0}" -gt 0 ] && [ "${udp:-0}" -gt 0 ]
}
ktap_check "after the resets: TCP and UDP flow A -> B" tcp_udp

# A UMR that fails: error CQE on the ICOSQ of the RQ pktgen feeds.
umr_fails() {
	local u0 r0 f0

	u0=$(bstat rx_umr_cqe_err) r0=$(recovers) f0=$(b_model umr.fail_injected)
	cxsim umrfail "$bdf_b" 1 || return 1
	pktgen_start
	wait_for 15 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 ~ /^rx[0-9]+_recover:\$/ { s += \$2 } END { print s + 0 }') -gt $r0 ]"
	diag "failed UMRs $(( $(b_model umr.fail_injected) - f0 )); rx_umr_cqe_err +$(( $(bstat rx_umr_cqe_err) - u0 )), rxN_recover +$(( $(recovers) - r0 ))"
	[ $(( $(b_model umr.fail_injected) - f0 )) = 1 ] &&
		[ $(( $(bstat rx_umr_cqe_err) - u0 )) = 1 ] && [ $(( $(recovers) - r0 )) = 1 ]
}
ktap_check "a UMR fails: rx_umr_cqe_err +1, the RQ and its ICOSQ reset once" umr_fails
ktap_check "that RQ receives again: every frame the port delivers reaches the stack" deliver_all

reported() {
	devlink health show "$(eth_health_dl "$bdf_b")" reporter rx | sed 's/^/# /'
	[ "$(reporter_count error)" = 4 ] && [ "$(reporter_count recover)" = 4 ] &&
		devlink health show "$(eth_health_dl "$bdf_b")" reporter rx | grep -q 'state healthy'
}
ktap_check "devlink reporter rx: 4 errors, 4 recoveries, healthy" reported

no_prot_err() {
	local rep

	# shellcheck disable=SC2046 # one BDF a word
	rep=$(cxsim report $(cx_functions)) || return 1
	diag "memory protection refusals: $(report_sum rx.prot_errors <<<"$rep"), UMRs used early: $(report_sum umr.early_use <<<"$rep")"
	[ "$(report_sum rx.prot_errors <<<"$rep")" = 0 ] &&
		[ "$(report_sum umr.early_use <<<"$rep")" = 0 ]
}
ktap_check "our driver never tripped the model's memory protection" no_prot_err

unload_clean() {
	pair_down
	rmmod mlx5_core && all_clean
}
ktap_check "driver unloaded: the model holds no object or page of ours" unload_clean

NO_COMPLAINTS_STRICT=1 no_complaints \
	"no other mlx5 error or warning, no oops or WARN in the kernel log" \
	'resetting the RQ' 'error CQE on RQ' 'resetting its ICOSQ' 'injected'

ktap_finish
