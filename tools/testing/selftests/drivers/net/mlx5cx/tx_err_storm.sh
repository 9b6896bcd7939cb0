#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Error CQEs on a full SQ, one after another, under load. The link
# partner holds port A off with PAUSE frames (the model's XOFF; global RX
# pause on) and BQL is out of the way, so that pktgen fills A's one SQ (its
# largest ring) however slow the guest is; then the test port fails the
# next WQE the SQ runs and the partner lets go (XON): an error CQE, and a
# flush CQE for every WQE behind it, thousands at once. Recovery must take every completion
# the device wrote before the SQ is reset: one left in the CQ names a WQE
# of the old ring, and completing it in the new one frees WQEs in flight
# (their buffers unmapped under the device: a DMA fault behind the
# IOMMU) or walks the consumer counter past the producer, and a flush
# CQE left over is an error CQE: a second recovery of an SQ that had
# none. Each round: one recovery more, exactly (ethtool tx0_recover,
# devlink health reporter tx); no completion outside the posted WQEs
# (tx0_cqe_stale); traffic resumes.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the error CQEs are injected through it"

ROUNDS=$(sized 8 4)

ktap_header 9

ours_pair_up

setup() {
	ethtool -L "$a" combined 1 || return 1
	ethtool -G "$a" tx 8192 || return 1
	ethtool -A "$a" rx on || return 1
	bql_floor "$a" 100000000 || return 1
	sqn=$(model_tx_sqns "$bdf_a" | head -n 1)
	diag "one channel, TX ring $(ethtool -g "$a" | awk '/^TX:/ { v = $2 } END { print v }'), SQ ${sqn:-?}"
	[ -n "$sqn" ]
}
ktap_check "one channel, TX ring of 8192, RX pause, BQL floor" setup

tx_health() { health_counts "$(eth_health_dl "$bdf_a")" tx; }
sq_inflight() { cxsim report "$bdf_a" | awk -v k="sq.$sqn" '$1 == k'; }
stopped() { [ "$(ethtool_stat "$a" tx0_queue_stopped)" -gt "$stop0" ]; }
injected() { [ "$(model_get "$bdf_a" sq.errors_injected)" != "$inj0" ]; }
recovered() { [ "$(ethtool_stat "$a" tx0_recover)" -ge "$want_r" ]; }

# storm: pktgen floods the SQ; ROUNDS times, the partner's XOFF until the
# ring is full and the queue stopped, an error CQE armed, XON, and the
# recovery awaited.
storm() {
	local i rec0 rec ok=0

	rec0=$(ethtool_stat "$a" tx0_recover)
	pktgen_setup "$a" 0 1 || return 1
	pktgen_start until_stopped &
	for ((i = 1; i <= ROUNDS; i++)); do
		inj0=$(model_get "$bdf_a" sq.errors_injected)
		stop0=$(ethtool_stat "$a" tx0_queue_stopped)
		cxsim xoff "$bdf_a" on || break
		wait_for 20 stopped || { diag "round $i: the ring did not fill"; break; }
		cxsim errcqe "$bdf_a" "$sqn" || break
		cxsim xoff "$bdf_a" off || break
		wait_for 20 injected || { diag "round $i: no error CQE injected"; break; }
		want_r=$((rec0 + i))
		wait_for 30 recovered || { diag "round $i: not recovered"; break; }
		ok=$i
	done
	cxsim errcqe "$bdf_a" 0
	cxsim xoff "$bdf_a" off
	traffic 0 pktgen_ctl stop
	wait
	rec=$(settled 15 ethtool_stat "$a" tx0_recover)
	diag "rounds recovered: $ok of $ROUNDS; tx0_recover $rec0 -> $rec; reporter tx: $(tx_health); tx0_cqe_err $(ethtool_stat "$a" tx0_cqe_err); model: $(sq_inflight)"
	[ "$ok" = "$ROUNDS" ] && [ "$rec" = $((rec0 + ROUNDS)) ]
}
ktap_check "$ROUNDS error CQEs on a full SQ under pktgen: each recovered, once" storm

reported() {
	local e r st

	read -r e r st <<<"$(tx_health)"
	diag "reporter tx: errors $e, recoveries $r, state $st"
	[ "$e" = "$ROUNDS" ] && [ "$r" = "$ROUNDS" ] && [ "$st" = healthy ]
}
ktap_check "devlink health reporter tx: $ROUNDS errors, $ROUNDS recoveries, healthy" reported

no_stale() {
	local n

	n=$(ethtool_stat "$a" tx0_cqe_stale)
	diag "tx0_cqe_stale ${n:-?}"
	[ "${n:-1}" = 0 ]
}
ktap_check "no completion named a WQE outside the posted ones (tx0_cqe_stale 0)" no_stale

after() {
	local t0 t1

	t0=$(ethtool_stat "$a" tx_packets)
	pktgen_setup "$a" 3000 1 || return 1
	pktgen_start 30 || return 1
	settled 30 traffic_counters "$bdf_a" >/dev/null
	t1=$(ethtool_stat "$a" tx_packets)
	diag "tx_packets +$((t1 - t0)); $(sq_inflight)"
	[ $((t1 - t0)) -ge 3000 ] && ping -c 3 -i 0.2 -W 5 "$B_IP" >/dev/null
}
ktap_check "afterwards: 3000 packets by pktgen, and ping" after

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
no_complaints "no other mlx5 error or warning in the kernel log" \
	'error CQE' 'recovering'

ktap_finish
