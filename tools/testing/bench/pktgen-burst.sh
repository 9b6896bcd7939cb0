#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./pktgen-burst): for each driver, skb_tx_mpwqe
# setting and burst, N pktgen packets of SIZE bytes (64) from port A on
# queue 0, REPEAT times (2);
# the model's report of port A before and after each run, and pktgen's
# result line, go to $VM_RESULTS/raw/<driver>-<on|off>-b<burst>-r<run>.*, with
# the guest's instruction counts around pktgen's run when the VM has the
# insn-count plugin (.insn0, .insn1; the driver's text in <driver>.text).
# The packets go to a MAC address no port has: port B's device drops them
# (its steering has no rule for them) and its CPU does nothing, so the
# instructions counted are the sending side's alone, and port A sees no
# traffic but its own.

# shellcheck source-path=SCRIPTDIR source=vm-lib.sh
source "$(dirname "$0")/vm-lib.sh"

N=${N:-20000}
BURSTS=${BURSTS:-1 8 32 64}
REPEAT=${REPEAT:-2}
DRIVERS=${DRIVERS:-ours distro}
# Locally administered, unicast, neither port's.
NOBODY_MAC=02:00:5e:00:00:99
SIZE=${SIZE:-64}
echo "$SIZE" >"$RAW/size"

for drv in $DRIVERS; do
	bench_load "$drv" || exit 1
	pair_up "$a" "$b" || { echo "$drv: links did not come up" >&2; exit 1; }
	ethtool -L "$a" combined 1 2>/dev/null || true
	# BQL's learnt limit follows the device's lag, which a loaded host
	# stretches: a floor makes its stops the same on any host. (pktgen
	# heeds only the driver's stops, counted; neither driver rings for
	# BQL's before the end of a burst.)
	bql_floor "$a" 4194304 || exit 1
	wait_for 10 carrier "$a" 1
	ping -c 2 -W 2 "$B_IP" >/dev/null
	for mode in on off; do
		ethtool --set-priv-flags "$a" skb_tx_mpwqe "$mode"
		wait_for 10 carrier "$a" 1
		sleep 1
		for burst in $BURSTS; do
			for ((rep = 1; rep <= REPEAT; rep++)); do
				run=$drv-$mode-b$burst-r$rep
				tag=$RAW/$run
				pktgen_setup "$a" "$N" "$burst" "$SIZE"
				echo "dst 198.18.0.99" >"/proc/net/pktgen/$a"
				echo "dst_mac $NOBODY_MAC" >"/proc/net/pktgen/$a"
				ethtool -S "$a" >"$tag.ethtool-before"
				cxsim report "$bdf_a" >"$tag.before"
				pktgen_start_counted "$run"
				sleep 0.5
				cxsim report "$bdf_a" >"$tag.after"
				ethtool -S "$a" >"$tag.ethtool-after"
				grep -A2 '^Result' "/proc/net/pktgen/$a" >"$tag.pktgen"
				for i in 0 1; do
					f=$VM_RESULTS/insn-$run-$i.txt
					[ ! -f "$f" ] || mv "$f" "$tag.insn$i"
				done
				echo "$drv skb_tx_mpwqe $mode burst $burst run $rep: $(head -n 1 "$tag.pktgen")"
			done
		done
	done
	bench_unload
done
