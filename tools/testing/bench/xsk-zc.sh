#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./xsk-zc): for each driver and mode, port B (in
# its namespace, one channel) runs the selftests' xsk_fwd -d with every
# frame redirected to its socket (xsk_fwd_all.bpf.o), UMEM frames of 4 KiB
# (the distribution driver maps 2 KiB frames with KLM UMRs, which the
# model does not offer: log_max_klm_list_size 0), port A sends N
# pktgen frames of 64 bytes to it, REPEAT times (3), a socket each; the
# model's report of both ports before and after each run, B's ethtool -S,
# the socket's own count and, with the insn-count plugin, the guest's
# instruction counts go to $VM_RESULTS/raw/<driver>-<mode>-r<run>.*.  A
# mode the driver refuses leaves <tag>.refused with the reason.

# shellcheck source-path=SCRIPTDIR source=vm-lib.sh
source "$(dirname "$0")/vm-lib.sh"

N=${N:-20000}
MODES=${MODES:-copy zc}
REPEAT=${REPEAT:-3}
DRIVERS=${DRIVERS:-ours distro}
X=$(mktemp -d)
gen_files "$X" xsk_fwd xsk_fwd_all.bpf.o || exit 1

for drv in $DRIVERS; do
	bench_pair "$drv" || exit 1
	for mode in $MODES; do
		for ((rep = 1; rep <= REPEAT; rep++)); do
			run=$drv-$mode-r$rep
			tag=$RAW/$run
			opt=-c
			[ "$mode" = copy ] || opt=
			ip netns exec "$NS" "$X/xsk_fwd" -d -f 4096 $opt "$b" 0 "$X/xsk_fwd_all.bpf.o" \
				>"$tag.fwd" 2>"$tag.err" &
			fwd=$!
			if ! wait_for 30 grep -q '^ready' "$tag.fwd"; then
				kill "$fwd" 2>/dev/null
				wait "$fwd"
				{ printf 'xsk_fwd: '; head -n 1 "$tag.err"; } >"$tag.refused"
				break
			fi
			wait_for 15 bash -c "source $LIB_DIR/lib.sh; carrier $a 1 && ns_carrier $b 1"
			sleep 1
			cxsim report "$bdf_a" >"$tag.a-before"
			cxsim report "$bdf_b" >"$tag.before"
			ip netns exec "$NS" ethtool -S "$b" >"$tag.ethtool-before"
			pktgen_setup "$a" "$N" 32
			# B's NAPI and the socket's reader run beside pktgen; 200 ms
			# for their last poll.
			BENCH_KEEP_PIDS=$fwd pktgen_start_counted "$run" 200
			sleep 1
			cxsim report "$bdf_b" >"$tag.after"
			cxsim report "$bdf_a" >"$tag.a-after"
			ip netns exec "$NS" ethtool -S "$b" >"$tag.ethtool-after"
			for i in 0 1; do
				f=$VM_RESULTS/insn-$run-$i.txt
				[ ! -f "$f" ] || mv "$f" "$tag.insn$i"
			done
			bench_symbols "$tag.kallsyms.gz"
			kill -TERM "$fwd"
			wait "$fwd"
			echo "$drv $mode run $rep: the socket took $(awk '$1 == "rx" { print $2 }' "$tag.fwd") frames"
		done
	done
	bench_unload
done
rm -rf "$X"
