#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CQE compression (private flag rx_cqe_compress) on both RQ types: off by
# default on the model (no vport_group_manager, as upstream decides it);
# on, pktgen bursts from A into B arrive (or are counted out of buffer by
# the model), in compressed blocks
# of more than one CQE (rx_cqe_compress_blks/pkts), and the model writes
# fewer CQE bytes per received packet than with the flag off; a patterned
# ping flood crosses both ways byte for byte; an RX error CQE is
# recovered from once, blocks after it; a block whose title miscounts its
# CQEs makes the driver reopen the channels, once, and traffic goes on;
# RX timestamps turn it off and it comes back after them; off again, the
# counters stop.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

N=${N:-$(sized 20000 1000)}

require_testport
ktap_header 19

ours_pair_up

# b_flags FLAG on|off...: set B's private flags (in the netns).
b_flags() { ip netns exec "$NS" ethtool --set-priv-flags "$b" "$@"; }
flags_of() {
	ip netns exec "$NS" ethtool --show-priv-flags "$b" | sed 's/^/# /'
}

flags_of
ktap_check "rx_cqe_compress is off by default (the model has no vport_group_manager)" \
	bash -c "ip netns exec $NS ethtool --show-priv-flags $b | grep -Eq 'rx_cqe_compress *: off' &&
		 ethtool --show-priv-flags $a | grep -Eq 'rx_cqe_compress *: off'"

# per_pkt PREFIX: CQE bytes per received packet, x100.
per_pkt() {
	local cb=${1}_cqeb cq=${1}_cqes

	echo $(( ${!cb} * 100 / (${!cq} ? ${!cq} : 1) ))
}

ping_flood() { ping_exact "$(sized 200 100)"; }

for rq in on off; do
	b_flags rx_striding_rq "$rq" rx_cqe_compress off &&
		ethtool --set-priv-flags "$a" rx_striding_rq "$rq" rx_cqe_compress off
	rx_burst off_$rq
	b_flags rx_cqe_compress on &&
		ethtool --set-priv-flags "$a" rx_cqe_compress on
	flags_of
	rx_burst on_$rq
	off_pp=$(per_pkt off_$rq) on_pp=$(per_pkt on_$rq)
	diag "striding $rq: CQE bytes per packet x100: off $off_pp, on $on_pp"
	pk=on_${rq}_pkts bl=on_${rq}_blks cp=on_${rq}_cpkts nw=on_${rq}_nowqe
	# A burst may find B's ring empty: the model counts that frame.
	ktap_check "striding $rq: flag on, each of the $N frames received or counted out of buffer" \
		test "${!pk}" -gt 0 -a $(( ${!pk} + ${!nw} )) -ge "$N"
	ktap_check "striding $rq: compressed blocks of more than one CQE (blks > 0, pkts > blks)" \
		test "${!bl}" -gt 0 -a "${!cp}" -gt "${!bl}"
	ktap_check "striding $rq: the model writes fewer CQE bytes per packet (on $on_pp < off $off_pp / 2, x100)" \
		test "$off_pp" -ge 6400 -a "$on_pp" -lt $(( off_pp / 2 ))
	ktap_check "striding $rq: a patterned ping flood both ways arrives byte for byte" ping_flood
done

# An RX error CQE with the flag on (legacy RQ), at the first frame of a
# burst: the driver recovers the RQ once (its CQ drained block by block,
# the error CQE plain), and the next burst arrives in blocks again.
err2_blks=''
error_recovered() {
	local r0 r1

	r0=$(rq_recovers "$b" "$NS")
	cxsim errcqerq "$bdf_b" any || return 1
	rx_burst err || return 1
	wait_for 15 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 ~ /^rx[0-9]+_recover:\$/ { s += \$2 } END { print s + 0 }') -gt $r0 ]"
	r1=$(rq_recovers "$b" "$NS")
	diag "rxN_recover +$((r1 - r0))"
	rx_burst err2 || return 1
	[ $((r1 - r0)) -eq 1 ] && [ "$err2_blks" -gt 0 ] && ping_flood
}
ktap_check "an RX error CQE with compression on: one recovery, then blocks and a byte-exact ping flood again" \
	error_recovered

# A block whose title counts 0 CQEs, or more than the CQ holds (the
# model's badrxcqe title_zero and title_long): the driver handles nothing
# of it (where the device's writes end is unknown), counts
# rx_cqe_compress_err once, reopens the channels, and the next burst
# arrives in blocks again.
bad_title() {
	local kind=$1 rq=$2 e0 e1 i0 i1 bl=bt2_${1}_blks

	b_flags rx_striding_rq "$rq" || return 1
	e0=$(ethtool_stat "$b" rx_cqe_compress_err "$NS")
	i0=$(model_get "$bdf_b" rx.bad_cqe_injected)
	dmesg_mark "bad_title_$kind"
	cxsim badrxcqe "$bdf_b" any "$kind" || return 1
	rx_burst "bt_$kind"
	wait_for 30 bash -c "dmesg | sed -n '/selftest-mark: bad_title_$kind\$/,\$p' | grep -q 'channels reopened'" ||
		diag "$kind: no 'channels reopened' in dmesg"
	dmesg_since "bad_title_$kind" | grep -e 'CQE block' -e 'reopen' | sed 's/^/# /'
	e1=$(ethtool_stat "$b" rx_cqe_compress_err "$NS")
	i1=$(model_get "$bdf_b" rx.bad_cqe_injected)
	diag "$kind, striding $rq: rx_cqe_compress_err +$((e1 - e0)), model titles injected +$((i1 - i0))"
	rx_burst "bt2_$kind" || return 1
	[ $((i1 - i0)) -eq 1 ] && [ $((e1 - e0)) -eq 1 ] &&
		[ "${!bl}" -gt 0 ] && ping_flood
}
ktap_check "legacy RQ: a title counting 0 CQEs: counted, channels reopened, blocks and a byte-exact ping flood again" \
	bad_title title_zero off
ktap_check "striding RQ: a title counting more CQEs than the CQ holds: the same" \
	bad_title title_long on
b_flags rx_striding_rq off

# RX hardware timestamps turn it off (a block shares its title's stamp),
# refuse it while on, and bring it back when off.
flag_b() { ip netns exec "$NS" ethtool --show-priv-flags "$b" | grep -Eq "rx_cqe_compress *: $1"; }
follows_tstamp() {
	ip netns exec "$NS" hwstamp_ctl -i "$b" -t 0 -r 1 >/dev/null || return 1
	flag_b off || { diag "still on with RX timestamps"; return 1; }
	b_flags rx_cqe_compress on 2>/dev/null && { diag "turned on with RX timestamps"; return 1; }
	ip netns exec "$NS" hwstamp_ctl -i "$b" -t 0 -r 0 >/dev/null || return 1
	flag_b on || { diag "not back on with RX timestamps off"; return 1; }
}
ktap_check "RX timestamps on: flag off and refused; off: flag on again" follows_tstamp

b_flags rx_cqe_compress off
off_again_blks='' off_again_cpkts='' off_again_mblks='' off_again_pkts=''
rx_burst off_again
ktap_check "flag off again: frames received, rx_cqe_compress_blks/pkts and the model's blocks stop growing" \
	test "$off_again_blks" -eq 0 -a "$off_again_cpkts" -eq 0 -a \
	     "$off_again_mblks" -eq 0 -a "$off_again_pkts" -gt 0

no_complaints "no error or warning in dmesg (but the refusal and the bad titles asked for)" \
	'rx_cqe_compress: not with RX hardware timestamps' \
	'compressed CQE block of [0-9]* CQEs'
pair_down
ktap_check "rmmod" unload_mlx5
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
