#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The model's compressed CQEs, read by the distribution's mlx5_core: its
# rx_cqe_compress is off by default (no vport_group_manager), turned on it
# takes the model's title and mini CQE arrays on both RQ types: pktgen
# bursts A -> B all received and counted as decompressed
# (rx_cqe_compress_pkts), blocks of more than one CQE, a patterned ping
# flood both ways byte for byte, and a clean unload.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the model's report counts the compressed blocks"

N=${N:-$(sized 20000 1000)}

ktap_header 11

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)
dmesg -C
modprobe mlx5_core
ktap_check "distribution mlx5_core binds both functions" all_bound mlx5_core
a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
PEER_DEV=$b

ethtool --show-priv-flags "$b" | sed 's/^/# /'
ktap_check "its rx_cqe_compress is off by default" \
	bash -c "ethtool --show-priv-flags $b | grep -Eq 'rx_cqe_compress +: off'"
ktap_check "turning rx_cqe_compress on is accepted (both ports)" \
	bash -c "ethtool --set-priv-flags $a rx_cqe_compress on &&
		 ethtool --set-priv-flags $b rx_cqe_compress on"
ktap_check "both links up with carrier ($b in netns $NS)" pair_up "$a" "$b"

ping_exact() {
	local out

	out=$(ping -c 200 -i 0.01 -l 16 -s 1200 -p a55a0ff0 -W 2 "$B_IP" 2>&1)
	echo "$out" | tail -n 2 | sed 's/^/# /'
	! grep -q 'wrong data' <<<"$out" && grep -q ' 0% packet loss' <<<"$out"
}
ktap_check "a patterned ping flood both ways arrives byte for byte" ping_exact

# burst: N 64-byte frames A -> B in bursts of 32; B's counters and the
# model's across it.
burst() {
	local s0 s1 r0 r1

	s0=$(ethtool_stats "$b" "$NS")
	r0=$(cxsim report "$bdf_b")
	pktgen_setup "$a" "$N" 32 || return 1
	pktgen_start || return 1
	# received, counted or dropped: B's counters stand still
	s1=$(settled 10 ethtool_stats "$b" "$NS") || return 1
	r1=$(cxsim report "$bdf_b")
	pkts=$(( $(report_get rx_packets <<<"$s1") - $(report_get rx_packets <<<"$s0") ))
	blks=$(( $(report_get rx_cqe_compress_blks <<<"$s1") - $(report_get rx_cqe_compress_blks <<<"$s0") ))
	cpkts=$(( $(report_get rx_cqe_compress_pkts <<<"$s1") - $(report_get rx_cqe_compress_pkts <<<"$s0") ))
	mblks=$(( $(report_get cqe.comp_blocks <<<"$r1") - $(report_get cqe.comp_blocks <<<"$r0") ))
	mcqes=$(( $(report_get cqe.comp_cqes <<<"$r1") - $(report_get cqe.comp_cqes <<<"$r0") ))
	cqeb=$(( $(report_get pcie.cqe.wr_bytes <<<"$r1") - $(report_get pcie.cqe.wr_bytes <<<"$r0") ))
	nowqe=$(( $(report_get rx.drops.no_wqe <<<"$r1") - $(report_get rx.drops.no_wqe <<<"$r0") ))
	diag "B rx_packets +$pkts, rx_cqe_compress_blks +$blks pkts +$cpkts; model blocks +$mblks CQEs +$mcqes, CQE bytes +$cqeb, out of buffer +$nowqe"
}

for rq in on off; do
	ip netns exec "$NS" ethtool --set-priv-flags "$b" rx_striding_rq "$rq"
	ip netns exec "$NS" ethtool --show-priv-flags "$b" | grep -E 'rx_striding_rq|rx_cqe_compress' | sed 's/^/# /'
	burst
	# A burst may find B's ring empty: the model counts that frame.
	ktap_check "striding $rq: each of the $N frames received or counted out of buffer" \
		test "$pkts" -gt 0 -a $((pkts + nowqe)) -ge "$N"
	ktap_check "striding $rq: decompressed what the model compressed (pkts = model's, blocks > 1 CQE)" \
		test "$cpkts" -gt "$blks" -a "$blks" -gt 0 -a "$cpkts" -eq "$mcqes" -a "$blks" -eq "$mblks"
done

pair_down
no_complaints "no mlx5 error or warning (but rxhash off with compression)" \
	'Disabling rxhash, not supported when CQE compress is active'
modprobe -r mlx5_core
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
