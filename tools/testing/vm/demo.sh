#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM: load our mlx5_core and show what it found.

set -eu

KO=$1

echo "### emulated ConnectX functions (vendor 0x15b3)"
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x15b3 ] || continue
	printf '%s  %s:%s  class %s  BAR0 %s\n' "$(basename "$d")" \
		"$(cat "$d/vendor")" "$(cat "$d/device")" "$(cat "$d/class")" \
		"$(head -n 1 "$d/resource" | awk '{printf "%s-%s", $1, $2}')"
done

echo
echo "### insmod $KO"
dmesg -C
insmod "$KO"
dmesg | grep mlx5_core || true

echo
echo "### bound to"
for d in /sys/bus/pci/drivers/mlx5_core/0000:*; do
	echo "$(basename "$d") -> mlx5_core"
done

echo
echo "### devlink dev info"
devlink dev info

echo
echo "### rmmod mlx5_core"
rmmod mlx5_core
if dmesg | grep -iE 'mlx5_core [0-9a-f]{4}:.*(error|fail)'; then
	exit 1
fi
echo "done"
