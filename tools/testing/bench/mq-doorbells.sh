#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (run by ./mq-doorbells, 4 vCPUs): port A with 4 channels,
# one pktgen thread per queue (samples/pktgen's multiqueue setup, no
# burst), N packets each; for our driver once per num_doorbells value
# (devlink param, applied by reload), then the distribution driver (one
# doorbell for all its queues).  The model's report of port A before and
# after each run goes to $VM_RESULTS/raw/<driver>-d<doorbells>.*, with
# instruction snapshots under the insn-count plugin.

# shellcheck source-path=SCRIPTDIR source=../selftests/drivers/net/mlx5cx/lib.sh
source "$(dirname "$0")/../selftests/drivers/net/mlx5cx/lib.sh"

N=${N:-5000}
NQ=${NQ:-4}
DOORBELLS=${DOORBELLS:-1 2 4}
DRIVERS=${DRIVERS:-ours distro}
RAW=$VM_RESULTS/raw
mkdir -p "$RAW"
echo "$NQ" >"$RAW/queues"

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

run_one() {
	local tag=$RAW/$1

	ethtool -L "$a" combined "$NQ"
	wait_for 30 carrier "$a" 1
	sleep 1
	ethtool -S "$a" >"$tag.ethtool-before"
	cxsim report "$bdf_a" >"$tag.before"
	insn_snapshot "$1-0" || true
	pktgen_mq_setup "$a" "$NQ" "$N"
	pktgen_start
	insn_snapshot "$1-1" || true
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
	case $drv in
	ours) load_ours ;;
	distro) modprobe mlx5_core ;;
	*) echo "unknown driver $drv" >&2; exit 1 ;;
	esac
	a=$(netdev_of "$bdf_a")
	b=$(netdev_of "$bdf_b")
	PEER_DEV=$b
	if [ -n "${VM_INSN_COUNT:-}" ]; then
		case $drv in
		ours) ko=$OUR_KO ;;
		*) ko=$(modinfo -n mlx5_core) ;;
		esac
		"$(dirname "$0")/insn-report" --ranges mlx5_core "$ko" >"$RAW/$drv.text"
	fi
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
			run_one "$drv-d$d"
		done
	else
		run_one "$drv-d1"
	fi
	pair_down
	modprobe -r mlx5_core 2>/dev/null || rmmod mlx5_core
done
