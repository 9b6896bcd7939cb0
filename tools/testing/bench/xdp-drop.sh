#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./xdp-drop): for each driver, RQ type and MTU,
# port B (in its namespace) runs `xdp-bench drop`, port A sends N pktgen
# frames of 64 bytes to it, REPEAT times (3) with the same program
# attached; the model's report of port B before and after each run, B's
# ethtool -S and, with the insn-count plugin, the guest's instruction
# counts go to $VM_RESULTS/raw/<driver>-<rq>-m<mtu>-r<run>.*, the kernel's
# symbols to <driver>-<rq>-m<mtu>.kallsyms.gz.  A
# setting the driver refuses (an MTU too large for its XDP, an RQ type it
# does not have) leaves <tag>.refused with the reason.

# shellcheck source-path=SCRIPTDIR source=vm-lib.sh
source "$(dirname "$0")/vm-lib.sh"

N=${N:-20000}
MTUS=${MTUS:-1000 1500 9000}
RQS=${RQS:-legacy striding}
REPEAT=${REPEAT:-3}
DRIVERS=${DRIVERS:-ours distro}
getconf PAGESIZE >"$RAW/page"

for drv in $DRIVERS; do
	bench_pair "$drv" || exit 1
	for rq in $RQS; do
		for mtu in $MTUS; do
			tag=$RAW/$drv-$rq-m$mtu
			if ! set_rq "$rq" >"$tag.err" 2>&1; then
				head -n 1 "$tag.err" >"$tag.refused"
				continue
			fi
			ip link set "$a" mtu "$mtu"
			if ! ip -n "$NS" link set "$b" mtu "$mtu" 2>"$tag.err"; then
				echo "MTU $mtu: $(head -n 1 "$tag.err")" >"$tag.refused"
				continue
			fi
			wait_for 15 bash -c "source $LIB_DIR/lib.sh; carrier $a 1 && ns_carrier $b 1"
			xdp_bench_or_refused "$tag" drop -m native -i 60 "$b" || continue
			sleep 1
			for ((rep = 1; rep <= REPEAT; rep++)); do
				t=$tag-r$rep
				bench_counted_run "$t" b
				echo "$drv $rq MTU $mtu run $rep: B delivered" \
					"$(grew rx.packets "$t") frames"
			done
			# The symbols with xdp-bench's program still loaded (a
			# new one each setting): insn-report --symbols names it.
			bench_symbols "$tag.kallsyms.gz"
			xdp_bench_stop "$b"
		done
	done
	bench_unload
done
