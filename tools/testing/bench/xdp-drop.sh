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

# B's RQ type set to $1 with its private flag rx_striding_rq; a driver
# without the flag has the legacy RQ only.
set_rq() {
	local on=off

	[ "$1" = legacy ] || on=on
	if ! ip netns exec "$NS" ethtool --show-priv-flags "$b" 2>/dev/null |
		grep -q '^rx_striding_rq'; then
		[ "$1" = legacy ] && return 0
		echo "no striding RQ (no private flag rx_striding_rq)"
		return 1
	fi
	ip netns exec "$NS" ethtool --set-priv-flags "$b" rx_striding_rq "$on"
}

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
			if ! xdp_bench_start "$b" drop -m native -i 60 "$b" >"$tag.err" 2>&1; then
				{ printf 'xdp-bench drop: '; grep -m1 -iE 'err|fail|refus|support' "$tag.err" || echo refused; } >"$tag.refused"
				continue
			fi
			sleep 1
			for ((rep = 1; rep <= REPEAT; rep++)); do
				t=$tag-r$rep
				# B's reports bracket A's (each takes a while):
				# every frame A counts as sent falls in B's window.
				cxsim report "$bdf_b" >"$t.before"
				ip netns exec "$NS" ethtool -S "$b" >"$t.ethtool-before"
				cxsim report "$bdf_a" >"$t.a-before"
				pktgen_setup "$a" "$N" 32
				# B's NAPI runs beside pktgen; 200 ms for its last poll.
				pktgen_start_counted "${t##*/}" 200
				sleep 1
				cxsim report "$bdf_a" >"$t.a-after"
				ip netns exec "$NS" ethtool -S "$b" >"$t.ethtool-after"
				cxsim report "$bdf_b" >"$t.after"
				for i in 0 1; do
					f=$VM_RESULTS/insn-${t##*/}-$i.txt
					[ ! -f "$f" ] || mv "$f" "$t.insn$i"
				done
				n0=$(awk '$1 == "rx.packets" { print $2 }' "$t.before")
				n1=$(awk '$1 == "rx.packets" { print $2 }' "$t.after")
				echo "$drv $rq MTU $mtu run $rep: B delivered $((n1 - n0)) frames"
			done
			# The symbols with xdp-bench's program still loaded (a
			# new one each setting): insn-report --symbols names it.
			[ -z "${VM_INSN_COUNT:-}" ] ||
				awk '$2 ~ /^[tTwW]$/' /proc/kallsyms | gzip >"$tag.kallsyms.gz"
			xdp_bench_stop "$b"
		done
	done
	bench_unload
done
