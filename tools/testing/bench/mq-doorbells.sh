#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./mq-doorbells, 4 vCPUs): port A with 4 channels,
# one pktgen thread per queue (samples/pktgen's multiqueue setup, no
# burst), N packets each; for our driver once per num_doorbells value
# (devlink param, applied by reload), then the distribution driver (one
# doorbell for all its queues), REPEAT times (2) each.  The model's
# report of port A before and after each run goes to
# $VM_RESULTS/raw/<driver>-d<doorbells>-r<run>.*, with instruction
# snapshots under the insn-count plugin.

# shellcheck source-path=SCRIPTDIR source=vm-lib.sh
source "$(dirname "$0")/vm-lib.sh"

N=${N:-5000}
NQ=${NQ:-4}
DOORBELLS=${DOORBELLS:-1 2 4}
DRIVERS=${DRIVERS:-ours distro}
REPEAT=${REPEAT:-2}
echo "$NQ" >"$RAW/queues"

# run_one NAME: one run, its files $RAW/NAME.*.
run_one() {
	local tag=$RAW/$1

	ethtool -L "$a" combined "$NQ"
	wait_for 30 carrier "$a" 1
	sleep 1
	ethtool -S "$a" >"$tag.ethtool-before"
	cxsim report "$bdf_a" >"$tag.before"
	pktgen_mq_setup "$a" "$NQ" "$N"
	pktgen_start_counted "$1"
	sleep 0.5
	cxsim report "$bdf_a" >"$tag.after"
	ethtool -S "$a" >"$tag.ethtool-after"
	for i in 0 1; do
		f=$VM_RESULTS/insn-$1-$i.txt
		[ ! -f "$f" ] || mv "$f" "$tag.insn$i"
	done
	echo "$1: A sent $(( $(awk '$1 == "tx.packets" { print $2 }' "$tag.after") - $(awk '$1 == "tx.packets" { print $2 }' "$tag.before") )) packets"
}

for drv in $DRIVERS; do
	bench_load "$drv" || exit 1
	pair_up "$a" "$b" || { echo "$drv: links did not come up" >&2; exit 1; }
	if [ "$drv" = ours ]; then
		for d in $DOORBELLS; do
			devlink dev param set "pci/$bdf_a" name num_doorbells \
				value "$d" cmode driverinit
			devlink dev reload "pci/$bdf_a"
			a=$(netdev_of "$bdf_a")
			ip addr add "$A_IP/24" dev "$a" 2>/dev/null
			ip link set "$a" up
			wait_for 30 carrier "$a" 1
			for ((rep = 1; rep <= REPEAT; rep++)); do
				run_one "$drv-d$d-r$rep"
			done
		done
	else
		for ((rep = 1; rep <= REPEAT; rep++)); do
			run_one "$drv-d1-r$rep"
		done
	fi
	bench_unload
done
