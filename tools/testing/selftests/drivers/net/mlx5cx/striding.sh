#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Our striding RQ (private flag rx_striding_rq, offered where the device
# has striding RQ and UMR) against the legacy RQ, port B in a network
# namespace receiving what pktgen on port A sends:
#  - for each RQ type and MTU: xdp-bench drop on B (native): every frame
#    B's port delivered is counted in rx_xdp_drop, delivered + the port's
#    drops = sent, and the pages taken from the page pool per 1000 frames
#    are what the sizing (en/params_rx.c) says; where single-buffer XDP
#    cannot work (the frame is not linear: xdp.sh checks the refusal)
#    the same is measured without XDP. The striding RQ maps every page
#    it takes by UMR (the model's umr.entries), the legacy RQ none;
#    above a linear frame the striding RQ's strides are 256 bytes.
#  - for each MTU on the striding RQ: a WQE is 256 KiB (64 pages of 4 KiB),
#    so the UMR WQEs the model ran are at most the WQEs the strides
#    consumed filled, plus one WQE retired before and refilled within the
#    run; the ICOSQ asks for one completion per doorbell, which rings at
#    least two UMRs: at most half a CQE per UMR; and the WQEs those UMRs
#    mapped reach the device: A still pings B once the run is over.
#  - rx_striding_rq toggled under TCP traffic: the connection survives,
#    and once the driver is unloaded the model holds nothing of ours.
# vm-args: --timeout 1500

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

FRAMES=${FRAMES:-$(sized 5000 2000)}
MTUS=${MTUS:-$(sized "1000 1500 4000 9000" "1000 9000")}
ROUNDS=${ROUNDS:-$(sized 50 3)}
PAGE=$(getconf PAGESIZE)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ktap_header $((6 + 5 * $(wc -w <<<"$MTUS")))

dmesg_mark striding
ours_pair_up

nsx() { ip netns exec "$NS" "$@"; }
bstat() { ethtool_stat "$b" "$1" "$NS"; }
flag_is() { nsx ethtool --show-priv-flags "$b" | grep -Eq "rx_striding_rq *: $1"; }
set_flag() { nsx ethtool --set-priv-flags "$b" rx_striding_rq "$1"; }

flag_listed() { nsx ethtool --show-priv-flags "$b" | grep -q rx_striding_rq; }
ktap_check "rx_striding_rq is offered" flag_listed

# xdp_bench ARGS...: xdp-bench on B until xdp_bench_stop (lib.sh).
xdp_bench() { xdp_bench_start "$b" "$@"; }

# pktgen from A: COUNT 64-byte frames to B.
pktgen_a() {
	local l

	modprobe pktgen
	pktgen_attach "$a" || return 1
	for l in "count $1" "pkt_size 64" "burst 32" "delay 0" \
		"dst $B_IP" "dst_mac $b_mac"; do
		echo "$l" > "/proc/net/pktgen/$a"
	done
	pktgen_start
}
b_mac=$(ip -n "$NS" -br link show "$b" | awk '{print $3}')

# The sizing on x86-64 (64-byte lines, 320-byte skb_shared_info,
# NET_IP_ALIGN 0) for pktgen's 64-byte frames: linear buffer = headroom +
# MTU + 22 aligned to 64, + 320, rounded up to a power of two, while that
# fits a page. Prints "stride bufs_per_page pages_per_1000_frames".
sizing() {
	local type=$1 mtu=$2 headroom=$3 lin s=1

	lin=$(( ((headroom + mtu + 22 + 63) / 64) * 64 + 320 ))
	while [ $s -lt "$lin" ]; do s=$((s * 2)); done
	if [ "$s" -le "$PAGE" ]; then
		echo "$s $((PAGE / s)) $((1000 * s / PAGE))"
	elif [ "$type" = striding ]; then
		# 256-byte strides, the headers copied: a small frame takes one.
		echo "256 $((PAGE / 256)) $((1000 * 256 / PAGE))"
	else
		# Whole pages: a small frame is written into the first one,
		# and the WQE's other fragments stay in it, posted again.
		echo "$PAGE 0 1000"
	fi
}

# rq_strides BDF: strides frames consumed on the function's striding RQs.
rq_strides() {
	cxsim report "$1" | awk '$1 ~ /^rq\.[0-9]+$/ {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "strides") s += kv[2] }
	} END { print s + 0 }'
}

# rq_all_strides BDF: strides consumed and skipped by filler CQEs on the
# function's striding RQs (what retires WQEs).
rq_all_strides() {
	cxsim report "$1" | awk '$1 ~ /^rq\.[0-9]+$/ {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "strides" || kv[1] == "filler_strides") s += kv[2] }
	} END { print s + 0 }'
}

# icosq_cqes BDF: CQEs on the CQs of the function's UMR SQs (umr=1).
icosq_cqes() {
	cxsim report "$1" | awk '
	$1 ~ /^sq\.[0-9]+$/ {
		c = ""; u = 0
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "cqn") c = kv[2]
			if (kv[1] == "umr") u = kv[2]
		}
		if (u == 1) want["cq." c] = 1
	}
	$1 ~ /^cq\.[0-9]+$/ {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "cqes") n[$1] = kv[2] }
	}
	END { for (k in want) s += n[k]; print s + 0 }'
}

# Bytes of a striding RQ WQE: 256 KiB, at least 8 pages.
MPWQE_BYTES=$(( PAGE * 8 > 262144 ? PAGE * 8 : 262144 ))

TABLE=()
# measure TYPE MTU XDP(drop|none): one pktgen run into B, the deltas.
measure() {
	local type=$1 mtu=$2 xdp=$3 headroom=64 d0 p0 r0 u0 mr0 md0 ma0
	local stride per kpkt want tol used pages s0 uw0 ic0 sa0 w0

	[ "$xdp" = drop ] && headroom=256
	read -r stride per kpkt <<<"$(sizing "$type" "$mtu" "$headroom")"
	sleep 1
	d0=$(bstat rx_xdp_drop) p0=$(bstat rx_pages) r0=$(bstat rx_packets)
	u0=$(model_get "$bdf_b" umr.entries) s0=$(rq_strides "$bdf_b")
	mr0=$(model_get "$bdf_b" rx.packets) md0=$(model_get "$bdf_b" rx.drops)
	ma0=$(model_get "$bdf_a" tx.packets)
	uw0=$(model_get "$bdf_b" wqe.UMR) ic0=$(icosq_cqes "$bdf_b")
	sa0=$(rq_all_strides "$bdf_b") w0=$(model_get "$bdf_b" pcie.rx.wr_pages)
	pktgen_a "$FRAMES"
	settled 60 pair_snapshot >/dev/null || return 1
	M_D=$(( $(bstat rx_xdp_drop) - d0 )) M_P=$(( $(bstat rx_pages) - p0 ))
	M_R=$(( $(bstat rx_packets) - r0 ))
	M_U=$(( $(model_get "$bdf_b" umr.entries) - u0 ))
	M_S=$(( $(rq_strides "$bdf_b") - s0 ))
	M_MR=$(( $(model_get "$bdf_b" rx.packets) - mr0 ))
	M_MD=$(( $(model_get "$bdf_b" rx.drops) - md0 ))
	M_MA=$(( $(model_get "$bdf_a" tx.packets) - ma0 ))
	M_UW=$(( $(model_get "$bdf_b" wqe.UMR) - uw0 ))
	M_IC=$(( $(icosq_cqes "$bdf_b") - ic0 ))
	M_SA=$(( $(rq_all_strides "$bdf_b") - sa0 )) M_STRIDE=$stride
	M_W=$(( $(model_get "$bdf_b" pcie.rx.wr_pages) - w0 ))
	want=$(( M_MR * kpkt / 1000 ))
	[ "$per" -gt 0 ] && want=$(( M_MR / per ))
	used=$type tol=$(( 2 * (kpkt / 1000 + 1) ))
	# The legacy RQ's frames used the pages the device wrote them into
	# (the model's count): exact but for the page open at either end. The
	# striding RQ takes a WQE's pages at a time, ahead of use: what its
	# frames used is the strides they consumed (the model's count), in
	# pages.
	pages=$M_W
	[ "$type" = striding ] && pages=$(( M_S * stride / PAGE ))
	diag "$type MTU $mtu XDP $xdp: A sent $M_MA, B port delivered $M_MR, dropped $M_MD; rx_xdp_drop +$M_D, rx_packets +$M_R; pages taken +$M_P, written +$M_W, mapped by UMR +$M_U, strides consumed +$M_S: $pages pages used (sizing: stride $stride, $per per page, $want pages +-$tol)"
	TABLE+=("$(printf '%-8s %5u %-5s %6u %5u %9u %9u' "$used" "$mtu" "$xdp" "$stride" "$per" $((M_MR ? pages * 1000 / M_MR : 0)) "$kpkt")")
	[ "$M_MR" -gt 0 ] && [ "$pages" -ge $((want - tol)) ] && [ "$pages" -le $((want + tol)) ] || return 1
	# Every page the striding RQ took, a UMR mapped; the legacy RQ none.
	# The legacy RQ takes a page for the buffers SKBs keep, none for the
	# frames XDP dropped: their buffers stay in the WQE, posted again.
	if [ "$used" = striding ]; then
		[ "$M_U" -eq "$M_P" ] && [ "$M_S" -ge "$M_MR" ]
	elif [ "$xdp" = drop ]; then
		[ "$M_U" -eq 0 ] && [ "$M_S" -eq 0 ] && [ "$M_P" -le 2 ]
	else
		[ "$M_U" -eq 0 ] && [ "$M_S" -eq 0 ] &&
			[ "$M_P" -ge $((want - tol)) ] && [ "$M_P" -le $((want + tol)) ]
	fi
}

for type in striding legacy; do
	if [ "$type" = striding ]; then set_flag on; else set_flag off; fi
	for mtu in $MTUS; do
		ip -n "$NS" link set "$b" mtu "$mtu"
		wait_for 15 ns_carrier "$b" 1
		# The frame is linear with XDP's headroom: drop counts; else
		# (single-buffer XDP refused) the pages without XDP.
		read -r _ per _ <<<"$(sizing legacy "$mtu" 256)"
		if [ "$per" -gt 0 ]; then
			drop_counts() {
				flag_is "$([ "$type" = striding ] && echo on || echo off)" || return 1
				xdp_bench drop -m native "$b" || return 1
				measure "$type" "$mtu" drop
				local ok=$?
				xdp_bench_stop || return 1
				# Every frame B's port delivered reached XDP and
				# was dropped, none reached the stack, none lost.
				[ $ok -eq 0 ] && [ "$M_D" -eq "$M_MR" ] && [ "$M_R" -eq 0 ] &&
					[ "$M_MA" -eq $((M_MR + M_MD)) ]
			}
			ktap_check "$type RQ MTU $mtu xdp-bench drop: rx_xdp_drop == delivered, delivered + port drops == sent, pages as the sizing says" drop_counts
		else
			no_xdp_counts() {
				measure "$type" "$mtu" none || return 1
				# (A's own frames besides pktgen's may go
				# uncounted here: at least what pktgen sent.)
				[ "$M_R" -eq "$M_MR" ] && [ $((M_MR + M_MD)) -ge "$FRAMES" ]
			}
			ktap_check "$type RQ MTU $mtu (not linear, no XDP): frames to the stack, pages as the sizing says" no_xdp_counts
		fi
		no_xdp_small() {
			[ "$mtu" = "$(echo "$MTUS" | awk '{print $1}')" ] || return 0
			measure "$type" "$mtu" none
		}
		ktap_check "$type RQ MTU $mtu: without XDP at the first MTU, pages as the sizing says" no_xdp_small
		# The last measure's UMR WQEs and ICOSQ CQEs.
		umr_per_wqe() {
			local spw=$((MPWQE_BYTES / M_STRIDE)) max

			max=$(( (M_SA + spw - 1) / spw + 1 ))
			diag "$type MTU $mtu: $M_SA strides, $spw per WQE: UMR WQEs +$M_UW (at most $max), ICOSQ CQEs +$M_IC"
			[ "$M_UW" -le "$max" ] && [ $((2 * M_IC)) -le "$M_UW" ] || return 1
			# Three WQEs' strides retire two within the run: a refill.
			[ "$M_SA" -lt $((3 * spw)) ] || [ "$M_IC" -gt 0 ] || return 1
			# The run used up the WQEs posted before it: B receives
			# only through the ones its completions published since.
			ping -c 3 -W 2 -q "$B_IP" >/dev/null
		}
		if [ "$type" = striding ]; then
			ktap_check "striding RQ MTU $mtu: UMR WQEs <= WQEs of $MPWQE_BYTES bytes the strides filled + 1, ICOSQ CQEs <= UMR WQEs / 2, A pings B after" umr_per_wqe
		fi
	done
done
diag "pages per 1000 frames, $PAGE-byte pages (measured vs sizing):"
diag "RQ         MTU XDP   stride /page  measured    sizing"
for l in "${TABLE[@]}"; do diag "$l"; done

ip -n "$NS" link set "$b" mtu 1500
wait_for 15 ns_carrier "$b" 1
set_flag on

# rx_striding_rq toggled on B while A sends TCP to it.
toggle_under_traffic() {
	local i pid ok=0

	iperf3_server
	# Bounded: a connection the toggles stalled fails here, in minutes.
	traffic $((ROUNDS * 2 + 5)) iperf3 -c "$B_IP" -t $((ROUNDS * 2 + 5)) -J \
		>"$TMP/iperf.json" 2>&1 &
	pid=$!
	sleep 2
	for i in $(seq "$ROUNDS"); do
		set_flag off || ok=1
		flag_is off || ok=1
		set_flag on || ok=1
		flag_is on || ok=1
	done
	wait "$pid" || ok=1
	diag "iperf3 across $ROUNDS toggles: $(python3 -c 'import json,sys; r=json.load(sys.stdin)["end"]; print(r["sum_received"]["bytes"], "bytes received")' <"$TMP/iperf.json" 2>&1)"
	return $ok
}
ktap_check "rx_striding_rq toggled $ROUNDS times under TCP: every switch applied, the connection survives" toggle_under_traffic

unload_clean() {
	pair_down
	unload_mlx5 && all_clean
}
ktap_check "driver unloaded: the model holds no object or page of ours" unload_clean
no_splat() { [ -z "$(kernel_splats)" ]; }
ktap_check "no oops, WARN or page_pool complaint in dmesg" no_splat

ktap_finish
