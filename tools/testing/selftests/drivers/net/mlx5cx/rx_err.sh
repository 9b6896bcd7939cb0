#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# An error CQE on a receive queue: the model (its test port) completes
# the next frame for one of port B's RQs in error and puts that RQ in the
# error state. Our driver counts it (rx_wqe_err), its devlink health
# reporter "rx" reports it and recovers the RQ (ERR -> RST -> RDY, the
# ring posted afresh: rxN_recover), and traffic flows again; the same
# while iperf3 runs. A legacy RQ's CQE that counts more bytes than its
# WQE holds: the frame is dropped and counted, nothing else happens.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

require_testport
ktap_header 10

ours_pair_up

nsb() { ip netns exec "$NS" "$@"; }
bstat() { ethtool_stat "$b" "$1" "$NS"; }
recovers() { rq_recovers "$b" "$NS"; }
# reporter_count KEY: "error" or "recover" count of B's "rx" reporter.
reporter_count() {
	local e r

	read -r e r _ <<<"$(health_counts "$(eth_health_dl "$bdf_b")" rx)"
	if [ "$1" = error ]; then echo "$e"; else echo "$r"; fi
}

rx_reporter() { devlink health show "$(eth_health_dl "$bdf_b")" reporter rx >/dev/null; }
ktap_check "devlink health reporter rx exists" rx_reporter

one_error() {
	local e0 r0 e1 r1

	e0=$(bstat rx_wqe_err)
	r0=$(recovers)
	cxsim errcqerq "$bdf_b" any || return 1
	ping -c 1 -W 2 "$B_IP" >/dev/null
	wait_for 15 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 ~ /^rx[0-9]+_recover:\$/ { s += \$2 } END { print s + 0 }') -gt $r0 ]"
	e1=$(bstat rx_wqe_err)
	r1=$(recovers)
	diag "rx_wqe_err +$((e1 - e0)), rxN_recover +$((r1 - r0)); model: $(cxsim report "$bdf_b" | grep -E '^rq\.errors_injected|^rq\.[0-9]+ ' | tr '\n' ' ')"
	[ $((e1 - e0)) = 1 ] && [ $((r1 - r0)) = 1 ]
}
ktap_check "injected RX error CQE: rx_wqe_err and rxN_recover count it once" one_error

reported() {
	devlink health show "$(eth_health_dl "$bdf_b")" reporter rx | sed 's/^/# /'
	[ "$(reporter_count error)" = 1 ] && [ "$(reporter_count recover)" = 1 ]
}
ktap_check "devlink reporter rx: 1 error, 1 recover" reported

ktap_check "traffic again: ping A -> B" ping -c 5 -i 0.2 -W 5 "$B_IP"
ktap_check "every RQ of B back in RDY (model)" bash -c "! python3 $LIB_DIR/cxsim.py report $bdf_b | grep -E '^rq\.[0-9]+ ' | grep -v 'state=1 '"

under_load() {
	local r0 r1 rx0 rx1 client log=${VM_RESULTS:-/tmp}/iperf3-rx_err.log

	r0=$(recovers)
	# A slow guest (the debug kernel) takes its time to listen, and to
	# get its client going: the fault is armed once B receives.
	iperf3_server
	rx0=$(ethtool_stat "$b" rx_packets "$NS")
	# Long enough for the slowest guest; stopped once B recovered.
	iperf3 -c "$B_IP" -t 60 >"$log" 2>&1 &
	client=$!
	wait_for 20 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 == \"rx_packets:\" { print \$2 }') -gt $((rx0 + 100)) ]"
	rx1=$(ethtool_stat "$b" rx_packets "$NS")
	cxsim errcqerq "$bdf_b" any || return 1
	wait_for 30 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 ~ /^rx[0-9]+_recover:\$/ { s += \$2 } END { print s + 0 }') -gt $r0 ]"
	kill -TERM "$client" 2>/dev/null
	wait
	r1=$(recovers)
	diag "under iperf3 (B had received $((rx1 - rx0)) frames of it when the fault was armed): rxN_recover +$((r1 - r0))"
	[ $((r1 - r0)) = 1 ] || sed 's/^/# iperf3: /' "$log" | tail -n 5
	[ $((r1 - r0)) = 1 ] && ping -c 3 -W 5 "$B_IP" >/dev/null
}
ktap_check "the same under iperf3: recovered once, traffic flows" under_load

# A legacy RQ's CQE counting 64 KiB more than its frame (the model's
# badrxcqe byte_cnt), more than any WQE holds: that frame is dropped and
# counted (rx_oversize_pkts_sw_drop), the RQ is not reset, pings go on.
long_cqe() {
	local d0 d1 r0 r1 i0 i1 striding

	striding=$(nsb ethtool --show-priv-flags "$b" | awk '$1 == "rx_striding_rq" { print $3 }')
	nsb ethtool --set-priv-flags "$b" rx_striding_rq off 2>&1 | sed 's/^/# /'
	nsb ethtool --show-priv-flags "$b" | grep -Eq 'rx_striding_rq *: off' ||
		{ diag "rx_striding_rq not off"; return 1; }
	ping -c 3 -i 0.2 -W 5 "$B_IP" >/dev/null || { diag "no ping before"; return 1; }
	d0=$(bstat rx_oversize_pkts_sw_drop) r0=$(recovers)
	i0=$(model_get "$bdf_b" rx.bad_cqe_injected)
	cxsim badrxcqe "$bdf_b" any byte_cnt || { diag "badrxcqe refused"; return 1; }
	ping -c 1 -W 2 "$B_IP" >/dev/null
	wait_for 10 bash -c "[ \$(python3 -S $LIB_DIR/cxsim.py report $bdf_b | awk '\$1 == \"rx.bad_cqe_injected\" { print \$2 }') -gt $i0 ]"
	ping -c 5 -i 0.2 -W 5 "$B_IP" >/dev/null || { diag "no ping after it"; return 1; }
	d1=$(bstat rx_oversize_pkts_sw_drop) r1=$(recovers)
	i1=$(model_get "$bdf_b" rx.bad_cqe_injected)
	diag "byte_cnt: model made $((i1 - i0)) CQE(s) lie; rx_oversize_pkts_sw_drop +$((d1 - d0)), rxN_recover +$((r1 - r0))"
	nsb ethtool --set-priv-flags "$b" rx_striding_rq "${striding:-on}" || return 1
	[ $((i1 - i0)) = 1 ] && [ $((d1 - d0)) = 1 ] && [ "$r1" = "$r0" ]
}
ktap_check "legacy RQ, a CQE longer than its WQE: the frame dropped and counted once, no reset, pings answered" \
	long_cqe

pair_down
rmmod mlx5_core
no_complaints "no other mlx5 error or warning in the kernel log" \
	'error CQE on RQ' 'injected error CQE' 'CQE of [0-9]* bytes for WQE'

ktap_finish
