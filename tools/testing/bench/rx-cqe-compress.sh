#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./rx-cqe-compress): for each driver, RQ type and
# private flag rx_cqe_compress (off, on) on port B, port A sends N pktgen
# frames of 64 bytes to B's stack, REPEAT times (3); the model's report
# of port B before and after each run, B's ethtool -S and, with the
# insn-count plugin, the guest's instruction counts go to
# $VM_RESULTS/raw/<driver>-<rq>-c<on|off>-r<run>.*, the kernel's symbols
# to <driver>.kallsyms.gz.  A setting the driver refuses (an RQ type or a
# flag it does not have) leaves <tag>.refused with the reason.
#
# The frames are addressed to B's MAC but to an IPv4 address B does not
# hold (DST_IP): B's stack takes each through GRO and IP's input route,
# which drops it (forwarding is off) without an ICMP error, so that B
# sends nothing back and the link carries pktgen's frames only.

# shellcheck source-path=SCRIPTDIR source=vm-lib.sh
source "$(dirname "$0")/vm-lib.sh"

N=${N:-20000}
RQS=${RQS:-legacy striding}
COMPRESS=${COMPRESS:-off on}
REPEAT=${REPEAT:-3}
DRIVERS=${DRIVERS:-ours distro}
# On B's subnet (pair_up's /24), held by no one.
DST_IP=${DST_IP:-${B_IP%.*}.99}

# set_compress on|off: B's rx_cqe_compress (the flag of both drivers).
set_compress() {
	if ! ip netns exec "$NS" ethtool --show-priv-flags "$b" 2>/dev/null |
		grep -q '^rx_cqe_compress'; then
		echo "no private flag rx_cqe_compress"
		return 1
	fi
	ip netns exec "$NS" ethtool --set-priv-flags "$b" rx_cqe_compress "$1" &&
		ip netns exec "$NS" ethtool --show-priv-flags "$b" |
		grep -Eq "^rx_cqe_compress *: $1\$"
}

for drv in $DRIVERS; do
	bench_pair "$drv" || exit 1
	ip netns exec "$NS" sysctl -qw net.ipv4.ip_forward=0
	for rq in $RQS; do
		for c in $COMPRESS; do
			tag=$RAW/$drv-$rq-c$c
			if ! { set_rq "$rq" && set_compress "$c"; } >"$tag.err" 2>&1; then
				head -n 1 "$tag.err" >"$tag.refused"
				continue
			fi
			wait_for 15 bash -c "source $LIB_DIR/lib.sh; carrier $a 1 && ns_carrier $b 1"
			sleep 1
			for ((rep = 1; rep <= REPEAT; rep++)); do
				t=$tag-r$rep
				PKTGEN_DST=$DST_IP bench_counted_run "$t" b
				echo "$drv $rq rx_cqe_compress $c run $rep: B delivered" \
					"$(grew rx.packets "$t") frames," \
					"$(grew cqe.comp_cqes "$t") in compressed blocks"
			done
		done
	done
	bench_unload
done
