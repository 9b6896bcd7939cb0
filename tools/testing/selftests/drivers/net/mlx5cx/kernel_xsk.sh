#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own AF_XDP selftest, xskxceiver (tools/testing/selftests/bpf,
# from Debian's linux-source-6.12), against our port in its real-NIC mode:
# both its sockets on port A (-i A -i A, as test_xsk.sh -i A runs it), the
# port in loopback (ethtool -K loopback on: the model's phy local loopback,
# see loopback.sh) so that what one socket sends the other receives, and
# promiscuous, since the tool's frames go to a multicast MAC of its own.
# xskxceiver checks every frame it receives (sequence number, length,
# content) and its sockets' statistics. Each of its cases runs alone
# (-t N: one that ends the tool with an error takes no other with it), in
# each mode our driver has: SKB (generic XDP, copy), DRV (native XDP,
# copy) and ZC (native XDP, zero copy: the socket's UMEM frames posted in
# the channel's XSK RQ, its TX ring sent by the XSK SQ); one test point
# each, a case it skips a skip with its reason. A case that fails here
# runs once more on the kernel's lo (SKB mode, no driver of ours), or
# where lo cannot take it (multi-buffer cases) on a veth pair as
# test_xsk.sh's default: failing there as well, it is the kernel's or the
# tool's, a skip that says so with the tool's first error; else a
# failure. (6.12's tool has such bugs: its receive loop, when a batch of
# 64 descriptors ends inside a 3-descriptor 9000 byte frame, puts the
# descriptors back but not its expected packet, and reports "expected
# pkt_nb N, got N-1" whenever the receiver falls behind.) The tool waits
# 3 s for all it sent (4096 frames in most cases): a case that only ran
# out of that time runs once more, then once more with the tool waiting
# 60 s (at most WAIT60_MAX times a mode), and the VM has a thread per
# vCPU.
# Around that: the ZC cases really went through the XSK queues (frames
# redirected from the XSK RQ, rx_xsk_xdp_redirect, descriptors sent and
# completed by the XSK SQ, tx_xsk_xmit and tx_xsk_cqes; the XSK RQ
# striding, rx_striding_rq on, for the cases of aligned 4 KiB frames, the
# tool's default, on a ring of 512 frames or more, as all but
# HW_SW_MIN_RING_SIZE's: frames mapped by UMR, rx_xsk_umr_frames), the frames
# really crossed the model's port (looped back there), and port B got
# none of them.
#
# xskxceiver is built on the host by tools/testing/install-deps (xsk.mk in
# this directory, into the cache's kselftest-xsk/bin-KEY, KEY the hash of
# this xsk.mk), or from KSFT_XSK (a directory with xskxceiver).
# vm-args: --timeout 1800 --tcg-thread multi

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the model's report tells the frames the port looped"

XSK_KEY=$(sha256sum <"$(dirname "$0")/xsk.mk" | cut -c 1-16)
XSK=${KSFT_XSK:-${CXSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mlx5cx}/kselftest-xsk/bin-$XSK_KEY}
X=$XSK/xskxceiver
if [ ! -x "$X" ]; then
	echo "1..0 # SKIP the kernel's xskxceiver not found in $XSK:" \
		"run tools/testing/install-deps or set KSFT_XSK"
	exit 4
fi
# Its cases, in the order it runs them ("N: NAME" after "Tests:").
mapfile -t CASES < <("$X" -l | sed -n 's/^[0-9]*: //p')
# XSK_MODES, XSK_CASES (indices of CASES from 0), lists by commas: a part
# of the run,
# while developing (--env XSK_MODES=zc --env XSK_CASES=0,1).
MODES=${XSK_MODES:-skb drv zc}
MODES=${MODES//,/ }
XSK_CASES=${XSK_CASES//,/ }
read -r -a IDS <<<"${XSK_CASES:-${!CASES[*]}}"

ktap_header $((6 + ${#IDS[@]} * $(wc -w <<<"$MODES")))

ours_bound
work=$(mktemp -d)

# Huge pages: the unaligned-chunk cases put their UMEM in them.
setup() {
	sysctl -qw vm.nr_hugepages=32
	sysctl -qw "net.ipv6.conf.$a.disable_ipv6=1"
	ip link set "$b" down
	ip link set "$a" up
	ethtool --set-priv-flags "$a" rx_striding_rq on || return 1
	ethtool -K "$a" loopback on || return 1
	ip link set "$a" promisc on || return 1
	wait_for 15 carrier "$a" 1 || return 1
	[ "$(model_get "$bdf_a" port.lb_active)" = 2 ]
}
ktap_check "$a up, in loopback (the model's port runs phy local), promiscuous" setup

lb0=$(model_get "$bdf_a" port.lb_frames)
b0=$(model_get "$bdf_b" rx.frames)

# reset_iface: what test_xsk.sh's cleanup_iface does after each run (a
# run that ends early leaves its XDP program and MTU behind).
reset_iface() {
	ip link set "$a" xdp off
	ip link set "$a" xdpgeneric off
	ip link set "$a" mtu 1500
}

# port_counts: A's frames sent and received, the model's looped frames and
# receive drops, as "tx N rx N looped N drops N".
port_counts() {
	echo "tx $(netdev_stat "" "$a" tx_packets) rx $(netdev_stat "" "$a" rx_packets)" \
	     "looped $(model_get "$bdf_a" port.lb_frames) drops $(model_get "$bdf_a" rx.drops)"
}

# The one case of the tool that the kernel it runs on refuses before any
# device is involved: STAT_RX_DROPPED asks a UMEM headroom of 3648 bytes
# (a 4 KiB frame less 256 and three 64-byte frames), over the 3392 that
# 6.12's xdp_umem_reg() allows since it reserves skb_shared_info and 128
# bytes more (XDP_UMEM_REG: EINVAL, in the tool's thread_common_ops()).
umem_refused() {
	[ "$1" = STAT_RX_DROPPED ] &&
		grep -q 'thread_common_ops:[0-9]*\]: ERROR: 22/' "$2"
}

# In zero copy the device reads and writes the UMEM at the addresses the
# pool mapped, page by page: behind the IOMMU (the VM's default) its pages
# are not contiguous in the device's address space, and the AF_XDP core
# itself refuses a descriptor that straddles two of them
# (xp_desc_crosses_non_contig_pg(): the unaligned-chunk cases put half
# their frames across a 4 KiB boundary), counts it invalid and never
# completes it: the tool then waits for that completion in vain
# ("Transmission loop timed out") and misses the frame. The same cases pass
# in ZC with --no-iommu. straddle_refused MODE NAME OUT: such a failure.
straddle_refused() {
	[ "$1" = zc ] && [[ $2 == *UNALIGNED* ]] &&
		[ -n "$(ls /sys/class/iommu 2>/dev/null)" ] &&
		grep -q 'Transmission loop timed out' "$3"
}

# On a kernel with the DMA API's debug checks (the debug tier's), the
# AF_XDP core itself syncs each frame it hands out (xp_alloc(): the
# checks make every sync count) over the frame's whole length from its
# first byte.  An unaligned chunk that straddles two UMEM pages the core
# found contiguous in the device's address space is two mappings, one
# per page, to the checker, which reports the sync as memory the driver
# has not mapped ("tries to sync DMA memory it has not allocated", size
# the frame's length, from xp_alloc() under the driver's refill), for
# any driver.  Behind the IOMMU those cases are refused anyway
# (straddle_refused); on such a kernel they are not run.
# dma_debug_straddles MODE NAME: such a case on such a kernel.
dma_debug_straddles() {
	[ "$1" = zc ] && [[ $2 == *UNALIGNED* ]] && [ -d /sys/kernel/debug/dma-api ]
}

# xsk2 IF1 IF2 MODE I OUT: xskxceiver's case I (from 0) alone in MODE,
# its two sockets on IF1 and IF2 (its default setup: a veth pair), its
# output in OUT; its verdict line ("ok 1 ...", "not ok 1 ...").  The tool
# is $XSK_TOOL (xskxceiver).
xsk2() {
	(cd "$XSK" && timeout 300 "./${XSK_TOOL:-xskxceiver}" -i "$1" -i "$2" \
		-m "$3" -t "$4") > "$5" 2>&1
	grep -E '^(not )?ok 1( |$)' "$5" | head -n 1
}

# xsk IF MODE I OUT: xsk2 with both sockets on IF (real-NIC mode).
xsk() { xsk2 "$1" "$@"; }

# on_veth I: case I in SKB mode over a veth pair, as the kernel's
# test_xsk.sh runs it by default (no driver of ours either): for the
# cases lo cannot take (multi-buffer ones: lo's MTU path has no XDP
# frags). Its verdict line.
on_veth() {
	if [ ! -e /sys/class/net/xv0 ]; then
		modprobe veth &&
			ip link add xv0 numtxqueues 4 numrxqueues 4 type veth \
				peer name xv1 numtxqueues 4 numrxqueues 4 || return 0
		sysctl -qw net.ipv6.conf.xv0.disable_ipv6=1 net.ipv6.conf.xv1.disable_ipv6=1
		ip link set xv0 up
		ip link set xv1 up
	fi
	ip link set xv0 xdpgeneric off
	ip link set xv1 xdpgeneric off
	ip link set xv0 mtu 1500
	ip link set xv1 mtu 1500
	xsk2 xv0 xv1 skb "$1" "$work/veth.$1"
}

# on_lo I: case I in SKB mode on the kernel's loopback device lo, where
# no driver of ours takes part (generic XDP, the stack's own copy path):
# its verdict line. lo's MTU restored after.
on_lo() {
	ip link set lo up
	xsk lo skb "$1" "$work/lo.$1"
	ip link set lo xdpgeneric off
	ip link set lo mtu 65536
}

# slow_only LINE OUT: the tool's verdict LINE is a failure and its output
# OUT says only that it ran out of time receiving (no frame out of order,
# none too many).
slow_only() {
	[[ $1 == "not ok"* ]] && grep -q 'Receive loop timed out' "$2" &&
		! grep -q -e 'expected' -e 'Too many' "$2"
}

# run_case MODE I: case I (from 0) alone in MODE on port A (a case the
# tool ends with exit_with_error() takes no other with it), its output in
# $work/MODE.I; one point, by the tool's verdict. A case that fails here
# and fails the same way on lo (below) is the kernel's or the tool's, not
# this driver's: a skip that says so, with the tool's first error; one
# that passes on lo is a failure here.
run_case() {
	local m=$1 i=$2 name=${CASES[$2]} out=$work/$1.$2 line lo err t
	local tool=xskxceiver

	if dma_debug_straddles "$m" "$name"; then
		ktap_skip "xsk ${m^^} $name" \
			"DMA API debug checks: the AF_XDP core's own sync of a frame across two UMEM pages is reported"
		return
	fi
	reset_iface
	line=$(xsk "$a" "$m" "$i" "$out")
	# The tool waits 3 s for all it sent: a TCG guest with other VMs on
	# the machine can be slower than that. Once more, said; if it ran
	# out of time again, once more with the same tool waiting 60 s
	# (xsk.mk's xskxceiver-wait60): every frame still checked, and a
	# frame lost again still fails it, but the guest's speed no longer
	# does. A mode whose every case loses frames would spend a minute on
	# each: WAIT60_MAX such runs a mode, then no more.
	if slow_only "$line" "$out"; then
		diag "xskxceiver -m $m -t $i: receive loop timed out (3 s); once more"
		reset_iface
		line=$(xsk "$a" "$m" "$i" "$out")
	fi
	if slow_only "$line" "$out" && [ -x "$XSK/xskxceiver-wait60" ]; then
		if [ "$wait60_left" -gt 0 ]; then
			wait60_left=$((wait60_left - 1))
			tool=xskxceiver-wait60
			diag "timed out again; once more waiting 60 s ($tool)"
			reset_iface
			t=$SECONDS
			line=$(XSK_TOOL=$tool xsk "$a" "$m" "$i" "$out")
			diag "${line:-no verdict} in $((SECONDS - t)) s"
		else
			diag "timed out again; no 60 s run left in this mode ($WAIT60_MAX used)"
		fi
	fi
	case $line in
	"not ok"* | "")
		sed 's/^/# | /' "$out" | grep -v -e '^# | # [0-9]*:[0-9]* *$' \
			-e 'Last completion address' | uniq -c | sed 's/^ *1 //' | head -n 40
		err=$(grep -m 1 -E 'ERROR|expected|Too many|\] ' "$out" | sed 's/^# //')
		if umem_refused "$name" "$out"; then
			ktap_skip "xsk ${m^^} $name" \
				"the kernel refuses the tool's UMEM (headroom 3648 > 3392): EINVAL"
			return
		fi
		if straddle_refused "$m" "$name" "$out"; then
			ktap_skip "xsk ${m^^} $name" \
				"behind the IOMMU the AF_XDP core refuses ZC descriptors across non-contiguous pages"
			return
		fi
		# With the tool that ran last here (a 60 s wait there too).
		lo=$(XSK_TOOL=$tool on_lo "$i")
		diag "the same case on lo (SKB mode, no driver of ours): ${lo:-no verdict}"
		if [ -z "$lo" ] || [[ $lo == *"# SKIP"* ]]; then
			lo=$(XSK_TOOL=$tool on_veth "$i")
			diag "on a veth pair (SKB mode, no driver of ours): ${lo:-no verdict}"
		fi
		if [[ $lo == "not ok"* ]]; then
			ktap_skip "xsk ${m^^} $name" \
				"fails with no driver of ours too (lo or veth: the kernel's AF_XDP copy path or the tool): ${err:-$line}"
		else
			ktap_fail "xsk ${m^^} $name"
		fi ;;
	*"# SKIP"*)
		ktap_skip "xsk ${m^^} $name" "${line#*# SKIP }" ;;
	*)
		ktap_pass "xsk ${m^^} $name" ;;
	esac
}

# A's zero-copy counters, compared across the ZC cases.
XSK_STATS=(rx_xsk_xdp_redirect rx_xsk_packets rx_xsk_xdp_drop tx_xsk_xmit
	tx_xsk_cqes rx_xsk_wqe_err tx_xsk_err rx_xsk_umr_frames rx_xsk_umr_cqe_err)

WAIT60_MAX=${WAIT60_MAX:-4}
for m in $MODES; do
	wait60_left=$WAIT60_MAX
	c0=$(port_counts)
	[ "$m" != zc ] || x0=$(ethtool_stats "$a")
	t0=$SECONDS
	for i in "${IDS[@]}"; do
		run_case "$m" "$i"
	done
	diag "-m $m: $((SECONDS - t0)) s; port A before: $c0; after: $(port_counts)"
	[ "$m" != zc ] || x1=$(ethtool_stats "$a")
done

# The ZC cases went through the XSK queues: frames received into UMEM
# frames and redirected to the socket without a copy, descriptors sent
# from the socket's TX ring and completed, no WQE error on either queue
# (the cases' invalid descriptors never reach the driver: the AF_XDP core
# drops them); the cases of aligned 4 KiB frames ran the striding XSK RQ
# (its frames mapped by UMR, none in error), the others the legacy one.
zc_used() {
	diag "A's XSK counters over -m zc: $(stats_deltas "$x0" "$x1" "${XSK_STATS[@]}")"
	[ "$(stats_delta rx_xsk_xdp_redirect "$x0" "$x1")" -gt 0 ] &&
		[ "$(stats_delta tx_xsk_xmit "$x0" "$x1")" -gt 0 ] &&
		[ "$(stats_delta tx_xsk_cqes "$x0" "$x1")" -gt 0 ] &&
		[ "$(stats_delta rx_xsk_wqe_err "$x0" "$x1")" = 0 ] &&
		[ "$(stats_delta tx_xsk_err "$x0" "$x1")" = 0 ] &&
		[ "$(stats_delta rx_xsk_umr_frames "$x0" "$x1")" -gt 0 ] &&
		[ "$(stats_delta rx_xsk_umr_cqe_err "$x0" "$x1")" = 0 ]
}
ZC_USED="ZC: frames redirected from the XSK RQ (striding: mapped by UMR),"
ZC_USED+=" sent and completed by the XSK SQ, no WQE error"
if [[ " $MODES " == *" zc "* ]]; then
	ktap_check "$ZC_USED" zc_used
else
	ktap_skip "ZC: the XSK queues used" "XSK_MODES=$MODES"
fi

looped() {
	local lb b

	lb=$(( $(model_get "$bdf_a" port.lb_frames) - lb0 ))
	b=$(( $(model_get "$bdf_b" rx.frames) - b0 ))
	diag "the model's port A looped $lb frames back; port B received $b"
	[ "$lb" -gt 0 ] && [ "$b" -eq 0 ]
}
ktap_check "the frames crossed the model's port, looped back to A; none reached B" looped

cleanup() {
	reset_iface
	ip link set "$a" promisc off
	ethtool -K "$a" loopback off
}
ktap_check "loopback and promiscuous mode off again" cleanup
no_complaints "no mlx5 errors or warnings in the kernel log"
[ ! -e /sys/class/net/xv0 ] || ip link del xv0
rm -rf "$work"
ktap_finish
