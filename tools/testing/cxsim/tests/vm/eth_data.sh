#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Data path of the Debian mlx5_core on cxsim: two ports on one hub, one in
# a network namespace; ping, iperf3 TCP/UDP, ethtool -S against the model's
# counters, pktgen bursts (MPWQE), skb_tx_mpwqe off, link down/up.
# Run with: tools/testing/vm/run --append iomem=relaxed --qemu "$QEMU" THIS
HERE=$(cd "$(dirname "$0")" && pwd)
CXPY=$HERE/../../../selftests/drivers/net/mlx5cx/cxsim.py
QMP=$HERE/../../../vm/qmp
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
rep() { python3 "$CXPY" report "$1" | awk -v k="$2" '$1 == k { print $2 }'; }
st() { ethtool -S "$1" 2>/dev/null | awk -v k="$2:" '$1 == k { print $2 }'; }
nst() { ip netns exec ns1 ethtool -S "$1" 2>/dev/null | awk -v k="$2:" '$1 == k { print $2 }'; }

dmesg -n 1
sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
modprobe mlx5_core || fail modprobe
sleep 5
BDFS=$(ls /sys/bus/pci/drivers/mlx5_core/ | grep '^0' | sort)
set -- $BDFS
B0=$1 B1=$2
A=$(ls /sys/bus/pci/devices/$B0/net/ 2>/dev/null | head -1)
B=$(ls /sys/bus/pci/devices/$B1/net/ 2>/dev/null | head -1)
echo "ports: $B0=$A $B1=$B"
[ -n "$A" ] && [ -n "$B" ] || { fail "no netdevs"; exit 1; }
MACB=$(cat /sys/class/net/$B/address)
ip netns add ns1
ip link set "$B" netns ns1
ip addr add 198.18.0.1/24 dev "$A"
ip link set "$A" up
ip -n ns1 addr add 198.18.0.2/24 dev "$B"
ip -n ns1 link set lo up
ip -n ns1 link set "$B" up
sleep 3
echo "carrier $A=$(cat /sys/class/net/$A/carrier) $B=$(ip netns exec ns1 cat /sys/class/net/$B/carrier)"

dmesg | grep -E "StrdRq"
echo "== ping"
ping -c 5 -W 2 198.18.0.2 || fail "ping 0->1"
ip netns exec ns1 ping -c 5 -W 2 198.18.0.1 || fail "ping 1->0"

echo "== iperf3 TCP"
ip netns exec ns1 iperf3 -s -D -1 -p 5201 ; sleep 1
timeout 60 iperf3 -c 198.18.0.2 -p 5201 -t 10 -f m | tail -4 || fail "iperf3 tcp"
echo "== iperf3 UDP"
ip netns exec ns1 iperf3 -s -D -1 -p 5202 ; sleep 1
timeout 60 iperf3 -c 198.18.0.2 -p 5202 -u -b 50M -t 5 -f m | tail -4 || fail "iperf3 udp"
sleep 1

echo "== counters: driver vs model"
for k in tx_packets tx_bytes rx_packets rx_bytes tx_mpwqe_blks tx_mpwqe_pkts rx_out_of_buffer rx_mpwqe_filler_cqes rx_vport_unicast_packets tx_vport_unicast_packets rx_csum_complete rx_csum_unnecessary tx_csum_partial tx_tso_packets; do
	echo "A $k $(st $A $k)   B $k $(nst $B $k)"
done
for b in $B0 $B1; do
	echo "-- model $b"
	python3 "$CXPY" report "$b" | grep -E '^(dp\.|wqe\.|cqe\.|cq\.|eqe\.|tx\.|rx\.|sq\.(doorbells|errors))'
done

echo "== pktgen burst 32"
modprobe pktgen || fail "modprobe pktgen"
blks0=$(st $A tx_mpwqe_blks); mpw0=$(rep $B0 wqe.ENHANCED_MPSW); pk0=$(rep $B0 tx.packets)
echo "rem_device_all" > /proc/net/pktgen/kpktgend_0
echo "add_device $A" > /proc/net/pktgen/kpktgend_0
P=/proc/net/pktgen/$A
for c in "count 20000" "pkt_size 60" "burst 32" "delay 0" "dst 198.18.0.2" "dst_mac $MACB" "udp_dst_min 9" "udp_dst_max 9"; do
	echo "$c" > "$P" || fail "pktgen $c"
done
timeout 120 sh -c 'echo start > /proc/net/pktgen/pgctrl'
grep -E 'Result|pkts-sofar' "$P"
sleep 1
blks1=$(st $A tx_mpwqe_blks); mpw1=$(rep $B0 wqe.ENHANCED_MPSW); pk1=$(rep $B0 tx.packets)
echo "pktgen: tx_mpwqe_blks +$((blks1 - blks0)) model wqe.ENHANCED_MPSW +$((mpw1 - mpw0)) model tx.packets +$((pk1 - pk0))"
echo "driver tx_mpwqe_blks total $blks1, model wqe.ENHANCED_MPSW total $mpw1"
[ "$blks1" = "$mpw1" ] || fail "tx_mpwqe_blks $blks1 != wqe.ENHANCED_MPSW $mpw1"

echo "== skb_tx_mpwqe off"
ethtool --set-priv-flags "$A" skb_tx_mpwqe off || fail "priv flag"
sleep 2
s0=$(rep $B0 wqe.SEND); m0=$(rep $B0 wqe.ENHANCED_MPSW); p0=$(rep $B0 tx.packets)
echo "count 5000" > "$P"
timeout 120 sh -c 'echo start > /proc/net/pktgen/pgctrl'
grep -E 'Result' "$P"
sleep 1
s1=$(rep $B0 wqe.SEND); m1=$(rep $B0 wqe.ENHANCED_MPSW); p1=$(rep $B0 tx.packets)
echo "mpwqe off: wqe.SEND +$((s1 - s0)) wqe.ENHANCED_MPSW +$((m1 - m0)) tx.packets +$((p1 - p0))"
[ $((s1 - s0)) -ge 5000 ] && [ $((m1 - m0)) -eq 0 ] || fail "mpwqe off: not one SEND per packet"
ethtool --set-priv-flags "$A" skb_tx_mpwqe on

echo "== legacy (cyclic) RQ: rx_striding_rq off"
ethtool --set-priv-flags "$A" rx_striding_rq off || fail "striding off A"
ip netns exec ns1 ethtool --set-priv-flags "$B" rx_striding_rq off || fail "striding off B"
sleep 3
ping -c 5 -W 2 198.18.0.2 || fail "ping 0->1 legacy RQ"
ip netns exec ns1 ping -c 5 -W 2 198.18.0.1 || fail "ping 1->0 legacy RQ"
ethtool --set-priv-flags "$A" rx_striding_rq on
ip netns exec ns1 ethtool --set-priv-flags "$B" rx_striding_rq on
sleep 3
echo "== link down/up (QMP set_link port1)"
"$QMP" '{"execute":"set_link","arguments":{"name":"port1","up":false}}'
sleep 2
echo "carrier $B=$(ip netns exec ns1 cat /sys/class/net/$B/carrier) model port.oper_up=$(rep $B1 port.oper_up)"
ping -c 2 -W 1 198.18.0.2 && fail "ping through a link that is down"
"$QMP" '{"execute":"set_link","arguments":{"name":"port1","up":true}}'
sleep 3
echo "carrier $B=$(ip netns exec ns1 cat /sys/class/net/$B/carrier) model port.oper_up=$(rep $B1 port.oper_up)"
ping -c 3 -W 2 198.18.0.2 || fail "ping after link up"

echo "== final counters"
for k in tx_packets tx_bytes rx_packets rx_bytes tx_mpwqe_blks rx_out_of_buffer; do
	echo "A $k $(st $A $k)   B $k $(nst $B $k)"
done
for b in $B0 $B1; do
	echo "-- model $b"
	python3 "$CXPY" report "$b" | grep -E '^(wqe\.|cqe\.|cq\.overruns|tx\.|rx\.|sq\.errors|port\.)'
done
echo "== dmesg warnings"
dmesg --level=emerg,alert,crit,err,warn | tail -40
echo "FAILS=$FAILS"
exit $((FAILS ? 1 : 0))
