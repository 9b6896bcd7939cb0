#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Control path of the Debian mlx5_core on cxsim: probe, netdevs, link up,
# MTU, private flags, unload; then the model's report per function.
# Run with: tools/testing/vm/run --append iomem=relaxed --qemu "$QEMU" THIS
HERE=$(cd "$(dirname "$0")" && pwd)
CXPY=$HERE/../../../selftests/drivers/net/mlx5cx/cxsim.py
set -x
dmesg -n 1
modprobe mlx5_core || echo "FAIL: modprobe"
sleep 5
for d in /sys/bus/pci/drivers/mlx5_core/0*; do echo "bound: $d"; done
NETDEVS=$(for n in /sys/class/net/*; do [ "$(basename "$(readlink -f "$n/device/driver" 2>/dev/null)")" = mlx5_core ] && basename "$n"; done)
echo "netdevs: $NETDEVS"
for n in $NETDEVS; do
	ip link set dev "$n" up || echo "FAIL: up $n"
done
sleep 3
for n in $NETDEVS; do
	echo "$n carrier=$(cat /sys/class/net/$n/carrier) operstate=$(cat /sys/class/net/$n/operstate)"
	ethtool "$n" | grep -E 'Speed|Link detected'
	ip link set dev "$n" mtu 9000 || echo "FAIL: mtu 9000 $n"
	ip link show dev "$n" | head -1
	ethtool --show-priv-flags "$n"
	ethtool --set-priv-flags "$n" skb_tx_mpwqe off || echo "FAIL: mpwqe off $n"
	ethtool --set-priv-flags "$n" skb_tx_mpwqe on || echo "FAIL: mpwqe on $n"
	ethtool --set-priv-flags "$n" rx_striding_rq off || echo "FAIL: striding off $n"
	ethtool --set-priv-flags "$n" rx_striding_rq on || echo "FAIL: striding on $n"
	ip link set dev "$n" mtu 1500 || echo "FAIL: mtu 1500 $n"
	ethtool -S "$n" | head -5
	sleep 1
	echo "$n carrier=$(cat /sys/class/net/$n/carrier)"
	ip link set dev "$n" down || echo "FAIL: down $n"
	ip link set dev "$n" up || echo "FAIL: up2 $n"
done
sleep 2
for b in $(ls /sys/bus/pci/drivers/mlx5_core/ | grep '^0'); do python3 "$CXPY" report "$b" | grep -E '^(obj|pages|leak|port|vport|fs|cmd\.)' ; done
rmmod mlx5_core || echo "FAIL: rmmod"
sleep 1
for b in $(grep -l 0x15b3 /sys/bus/pci/devices/*/vendor | xargs -n1 dirname | xargs -n1 basename); do echo "== $b after rmmod"; python3 "$CXPY" report "$b" | grep -E '^(hca_state|obj|pages|leak|cmd\.errors|cmd\.bad_refs)'; done
echo "== dmesg warnings"
dmesg --level=emerg,alert,crit,err,warn
echo "== dmesg mlx5"
dmesg | grep -i mlx5 | tail -80
