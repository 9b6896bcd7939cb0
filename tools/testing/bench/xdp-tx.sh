#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./xdp-tx): for each driver, RQ type and
# xdp_tx_mpwqe setting, port B (in its namespace, one channel) runs
# `xdp-bench tx -p no-touch`, port A sends N pktgen frames of 64 bytes to
# it, REPEAT times (3) with the same program attached; each frame goes
# back out of B to A with its addresses as they came (B's MAC as
# destination), so A's device drops it at steering (rx.drops.steering)
# and A's CPU never sees it.  The model's report of both ports before
# and after each run, B's ethtool -S and, with the insn-count plugin, the
# guest's instruction counts go to
# $VM_RESULTS/raw/<driver>-<rq>-mpwqe-<on|off>-r<run>.*, the kernel's
# symbols to <driver>-<rq>-mpwqe-<on|off>.kallsyms.gz.  A setting the
# driver refuses (an RQ type it does not have, a flag it lacks, the
# program) leaves <tag>.refused with the reason.

# shellcheck source-path=SCRIPTDIR source=vm-lib.sh
source "$(dirname "$0")/vm-lib.sh"

N=${N:-20000}
RQS=${RQS:-legacy striding}
MPWQES=${MPWQES:-on off}
REPEAT=${REPEAT:-3}
DRIVERS=${DRIVERS:-ours distro}

# B's private flag $1 set to $2; a driver without the flag refuses.
set_flag() {
	if ! ip netns exec "$NS" ethtool --show-priv-flags "$b" 2>/dev/null |
		grep -q "^$1"; then
		echo "no private flag $1"
		return 1
	fi
	ip netns exec "$NS" ethtool --set-priv-flags "$b" "$1" "$2"
}

for drv in $DRIVERS; do
	bench_pair "$drv" || exit 1
	for rq in $RQS; do
		for mpwqe in $MPWQES; do
			tag=$RAW/$drv-$rq-mpwqe-$mpwqe
			if ! { set_rq "$rq" && set_flag xdp_tx_mpwqe "$mpwqe"; } \
				>"$tag.err" 2>&1; then
				head -n 1 "$tag.err" >"$tag.refused"
				continue
			fi
			ip netns exec "$NS" ethtool --show-priv-flags "$b" >"$tag.flags"
			wait_for 15 bash -c "source $LIB_DIR/lib.sh; carrier $a 1 && ns_carrier $b 1"
			xdp_bench_or_refused "$tag" tx -p no-touch -m native -i 60 "$b" ||
				continue
			sleep 1
			for ((rep = 1; rep <= REPEAT; rep++)); do
				t=$tag-r$rep
				bench_counted_run "$t" a
				echo "$drv $rq xdp_tx_mpwqe $mpwqe run $rep: B delivered" \
					"$(grew rx.packets "$t")," \
					"sent back $(grew tx.packets "$t") frames"
			done
			# The symbols with xdp-bench's program still loaded (a
			# new one each setting): insn-report --symbols names it.
			bench_symbols "$tag.kallsyms.gz"
			xdp_bench_stop "$b"
		done
	done
	bench_unload
done
