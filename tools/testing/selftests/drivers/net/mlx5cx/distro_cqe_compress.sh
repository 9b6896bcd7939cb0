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

ktap_check "a patterned ping flood both ways arrives byte for byte" ping_exact

# Set by rx_burst d.
d_pkts='' d_nowqe='' d_cpkts='' d_blks='' d_mcqes='' d_mblks=''
for rq in on off; do
	ip netns exec "$NS" ethtool --set-priv-flags "$b" rx_striding_rq "$rq"
	ip netns exec "$NS" ethtool --show-priv-flags "$b" | grep -E 'rx_striding_rq|rx_cqe_compress' | sed 's/^/# /'
	rx_burst d
	# A burst may find B's ring empty: the model counts that frame.
	ktap_check "striding $rq: each of the $N frames received or counted out of buffer" \
		test "$d_pkts" -gt 0 -a $((d_pkts + d_nowqe)) -ge "$N"
	ktap_check "striding $rq: decompressed what the model compressed (pkts = model's, blocks > 1 CQE)" \
		test "$d_cpkts" -gt "$d_blks" -a "$d_blks" -gt 0 -a "$d_cpkts" -eq "$d_mcqes" -a "$d_blks" -eq "$d_mblks"
done

pair_down
no_complaints "no mlx5 error or warning (but rxhash off with compression)" \
	'Disabling rxhash, not supported when CQE compress is active'
modprobe -r mlx5_core
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
