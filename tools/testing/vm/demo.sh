#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM: load our mlx5_core and show what it found, then use the
# two ports as two hosts (port B's netdev in a network namespace) and ping
# between them.

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

# The netdev of a PCI function.
netdev_of() { ls "/sys/bus/pci/devices/$1/net" 2>/dev/null | head -n 1; }

bdfs=$(ls -d /sys/bus/pci/drivers/mlx5_core/0000:* | xargs -n 1 basename)
a=$(netdev_of "$(echo "$bdfs" | sed -n 1p)")
b=$(netdev_of "$(echo "$bdfs" | sed -n 2p)")
echo
echo "### the netdevs: $a (port A, 198.18.0.1) and $b (port B, in netns peer, 198.18.0.2)"
ethtool -i "$a" | grep -E '^(driver|firmware-version|bus-info)'
ip netns add peer
ip link set "$b" netns peer
ip addr add 198.18.0.1/24 dev "$a"
ip -n peer addr add 198.18.0.2/24 dev "$b"
ip link set "$a" up
ip -n peer link set "$b" up
for _ in $(seq 30); do
	[ "$(cat "/sys/class/net/$a/carrier" 2>/dev/null)" = 1 ] &&
		[ "$(ip netns exec peer cat "/sys/class/net/$b/carrier" 2>/dev/null)" = 1 ] && break
	sleep 0.5
done
ip -br addr show "$a"
ip -n peer -br addr show "$b"
ethtool "$a" | grep -E 'Speed|Link detected'
ethtool -l "$a" | sed -n '/Current/,$p' | grep -i combined

echo
echo "### ping A -> B and B -> A"
ping -c 3 -W 5 198.18.0.2
ip netns exec peer ping -c 3 -W 5 198.18.0.1
echo
echo "### ethtool -S $a (packets)"
ethtool -S "$a" | grep -E '^ *(rx|tx)_(packets|bytes):'
ip netns del peer

echo
echo "### rmmod mlx5_core"
rmmod mlx5_core
if dmesg | grep -iE 'mlx5_core [0-9a-f]{4}:.*(error|fail)'; then
	exit 1
fi
echo "done"
