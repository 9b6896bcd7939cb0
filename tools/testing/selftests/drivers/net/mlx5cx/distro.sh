#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Conformance: the distribution's own mlx5_core, written against real
# hardware, drives the model unmodified. Probe without complaint, two
# netdevs with carrier, traffic between them (one in a network namespace)
# with counters that agree with the model's, MTU 9000, a link flap from
# the QEMU monitor, MPWQE under pktgen bursts, and a clean unload.
#
# The longest selftest (ten probe cycles at the end): with several VMs
# on two cores it needs more than the runner's default 10 minutes.
# vm-args: --timeout 1500

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

PKTGEN_COUNT=${PKTGEN_COUNT:-$(sized 20000 4000)}
CYCLES=${CYCLES:-$(sized 10 3)}

ktap_header 21

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

# The model counts from boot, the driver from its load: the counters are
# compared from here on (kselftest runs the tests one after another).
if [ "$MLX5CX_TESTPORT" = yes ]; then
	m0_atx=$(model_get "$bdf_a" tx.packets)
	m0_brx=$(model_get "$bdf_b" rx.packets)
	m0_drop=$(model_get "$bdf_b" rx.drops)
	m0_nowqe=$(model_get "$bdf_b" rx.drops.no_wqe)
fi

dmesg -C
modprobe mlx5_core
ktap_check "distribution mlx5_core binds both functions" all_bound mlx5_core
if ours_loaded; then
	ktap_fail "the module is the distribution's (not ours)"
else
	ktap_pass "the module is the distribution's (not ours)"
fi
no_complaints "probe logs no error or warning"

a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
PEER_DEV=$b
diag "netdevs: $bdf_a=$a $bdf_b=$b"
ktap_check "two netdevs" test -n "$a" -a -n "$b" -a "$a" != "$b"

ktap_check "both links up with carrier ($b in netns $NS)" pair_up "$a" "$b"

ethtool --show-priv-flags "$a" | sed 's/^/# /'
ktap_check "skb_tx_mpwqe is on by default" \
	bash -c "ethtool --show-priv-flags $a | grep -Eq 'skb_tx_mpwqe +: on'"

# The model lets MODIFY_CQ change the period mode: upstream then runs
# net_dim on every CQ (its MODIFY_CQ at each CQ's creation included).
ethtool -c "$a" | grep '^Adaptive' | sed 's/^/# /'
ktap_check "net_dim on by default (cq_period_mode_modify announced)" \
	bash -c "ethtool -c $a | grep -q '^Adaptive RX: on  TX: on'"

ktap_check "ping A -> B" ping -c 3 -W 2 "$B_IP"
ktap_check "ping B -> A" ip netns exec "$NS" ping -c 3 -W 2 "$A_IP"

iperf3_server
tcp=$(traffic "$TCP_SECS" iperf3 -c "$B_IP" -t "$TCP_SECS" -J | python3 -c 'import json,sys; r=json.load(sys.stdin)["end"]; print(int(r["sum_received"]["bits_per_second"]/1e6))')
diag "iperf3 TCP $TCP_SECS s: ${tcp:-0} Mbit/s"
ktap_check "iperf3 TCP for $TCP_SECS s moves data" test "${tcp:-0}" -gt 0

# iperf3 UDP, every datagram accounted for.  No loss threshold: a slow
# guest may drop datagrams in the receiver's socket buffer, and the stack
# counts those.  What is asserted is that each datagram A's UDP sent is
# either read by iperf3 or counted by someone: B's UDP (RcvbufErrors and
# other InErrors, NoPorts), B's IP layer, or, between the two stacks, the
# model, the drivers and A's qdisc.  tc counts the UDP packets at A's
# driver (egress) and at B's (ingress).
udp_snapshot() {
	local mdrop

	# The model's drops on the way: A's TX with the link down, B's RX.
	mdrop=$(cxsim report "$bdf_a" "$bdf_b" |
		awk -v a="# $bdf_a" -v b="# $bdf_b" '
			$0 == a { f = "a"; next }
			$0 == b { f = "b"; next }
			f == "a" && $1 == "tx.drops.link_down" { d += $2 }
			f == "b" && index($1, "rx.drops.") == 1 { d += $2 }
			END { print d + 0 }')
	echo "out=$(snmp_get "" Udp OutDatagrams)" \
	     "ipout=$(snmp_get "" Ip OutDiscards)" \
	     "got=$(snmp_get "$NS" Udp InDatagrams)" \
	     "inerr=$(snmp_get "$NS" Udp InErrors)" \
	     "rcvbuf=$(snmp_get "$NS" Udp RcvbufErrors)" \
	     "noport=$(snmp_get "$NS" Udp NoPorts)" \
	     "ipdrop=$(( $(snmp_get "$NS" Ip InDiscards) + $(snmp_get "$NS" Ip InHdrErrors) +
			$(snmp_get "$NS" Ip InAddrErrors) ))" \
	     "mdrop=$mdrop" \
	     "ddrop=$(( $(netdev_stat "" "$a" tx_dropped) + $(netdev_stat "$NS" "$b" rx_dropped) +
		       $(qdisc_drops "" "$a") ))"
}

udp_accounted() {
	local before after sent lost egress ingress
	local out ipout got inerr rcvbuf noport ipdrop mdrop ddrop
	local out0 ipout0 got0 inerr0 rcvbuf0 noport0 ipdrop0 mdrop0 ddrop0

	if ! udp_tap_add "" "$a" egress || ! udp_tap_add "$NS" "$b" ingress; then
		diag "tc cannot count UDP packets at the drivers (clsact, u32)"
		return 1
	fi
	iperf3_server
	before=$(udp_snapshot)
	read -r sent lost < <(traffic "$UDP_SECS" iperf3 -c "$B_IP" -u -b 50M -t "$UDP_SECS" -J |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["end"]["sum"]; print(r["packets"], r["lost_packets"])')
	sleep 1
	after=$(udp_snapshot)
	egress=$(udp_tap_get "" "$a" egress)
	ingress=$(udp_tap_get "$NS" "$b" ingress)
	udp_tap_del "" "$a"
	udp_tap_del "$NS" "$b"
	# shellcheck disable=SC2086
	eval "$(echo $before | sed 's/\([a-z]*\)=/\10=/g; s/ /; /g')"
	eval "${after// /; }"
	out=$((out - out0)) ipout=$((ipout - ipout0)) got=$((got - got0))
	inerr=$((inerr - inerr0)) rcvbuf=$((rcvbuf - rcvbuf0))
	noport=$((noport - noport0)) ipdrop=$((ipdrop - ipdrop0))
	mdrop=$((mdrop - mdrop0)) ddrop=$((ddrop - ddrop0))
	UDP_PATH_LOST=$((egress - ingress))
	UDP_PATH_COUNTED=$((mdrop + ddrop))
	UDP_QUEUED=$((ingress - got - inerr - noport - ipdrop))
	diag "iperf3 UDP $UDP_SECS s at 50 Mbit/s: iperf3 sent $sent, lost $lost (sequence gaps)"
	diag "A: UDP OutDatagrams $out, IP OutDiscards $ipout, UDP at A's driver $egress"
	diag "path: UDP at B's driver $ingress; lost $UDP_PATH_LOST, counted by model $mdrop, drivers and qdisc $ddrop"
	diag "B: read by iperf3 $got, InErrors $inerr (RcvbufErrors $rcvbuf), NoPorts $noport, IP drops $ipdrop, in the socket at close $UDP_QUEUED"
	diag "sent $out = read $got + B's UDP $((inerr + noport)) + B's IP $ipdrop + queued $UDP_QUEUED + path $UDP_PATH_LOST"
	# A's UDP sent iperf3's datagrams and the stream's one connect
	# message, all through A's driver; B's stack saw every datagram its
	# driver handed it (read, counted, or left queued at close); every
	# datagram iperf3 found missing is counted by B or lost on the path.
	[ "$got" -gt 0 ] && [ "$out" -eq $((sent + 1)) ] && [ "$egress" -eq "$out" ] &&
		[ "$UDP_QUEUED" -ge 0 ] &&
		[ "$lost" -le $((UDP_PATH_LOST + inerr + ipdrop)) ]
}
ktap_check "iperf3 UDP: every datagram read by iperf3 or counted by a stack" udp_accounted

udp_path_counted() {
	[ "${UDP_PATH_LOST:--1}" -ge 0 ] && [ "$UDP_PATH_LOST" -le "${UDP_PATH_COUNTED:-0}" ]
}
ktap_check "iperf3 UDP: the NIC and drivers lost no datagram they did not count" udp_path_counted

# Counters, after the traffic: A's TX is B's RX, and the model saw both.
sleep 1
counters_agree() {
	local atx brx matx mbrx mdrop oob mnowqe

	atx=$(ethtool_stat "$a" tx_packets)
	brx=$(ethtool_stat "$b" rx_packets "$NS")
	oob=$(ethtool_stat "$b" rx_out_of_buffer "$NS")
	matx=$(( $(model_get "$bdf_a" tx.packets) - ${m0_atx:-0} ))
	mbrx=$(( $(model_get "$bdf_b" rx.packets) - ${m0_brx:-0} ))
	mdrop=$(( $(model_get "$bdf_b" rx.drops) - ${m0_drop:-0} ))
	mnowqe=$(( $(model_get "$bdf_b" rx.drops.no_wqe) - ${m0_nowqe:-0} ))
	diag "A tx_packets $atx, model A tx $matx; B rx_packets $brx, model B rx $mbrx, drops $mdrop"
	diag "B rx_out_of_buffer $oob, model B drops for want of a WQE $mnowqe"
	cxsim report "$bdf_b" | grep '^rx\.drops\.' | sed 's/^/#   /'
	# Every frame A sent was either delivered to B or dropped by B's
	# port, and a drop for want of an RX WQE is the driver's out_of_buffer.
	[ "$atx" = "$matx" ] && [ "$brx" = "$mbrx" ] &&
		[ "$atx" -eq $((brx + mdrop)) ] && [ "$oob" = "$mnowqe" ]
}
ktap_check "ethtool -S counters agree with each other and with the model" counters_agree

# MTU 9000, end to end, without fragmentation. The MTU change restarts the
# channels: the sender repeats until the receiver has its datagram.
ip link set "$a" mtu 9000
ip -n "$NS" link set "$b" mtu 9000
jumbo() {
	local spid rc

	wait_for 10 carrier "$a" 1 && wait_for 10 ns_carrier "$b" 1 || return 1
	python3 - "$B_IP" <<'PY' &
import socket, sys, time
IP_MTU_DISCOVER, IP_PMTUDISC_DO = 10, 2  # <linux/in.h>
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO)
for _ in range(40):
    try:
        s.sendto(b"x" * 8972, (sys.argv[1], 9000))
    except ConnectionRefusedError:
        pass  # the receiver is done, or not bound yet
    time.sleep(0.25)
PY
	spid=$!
	ip netns exec "$NS" python3 - "$B_IP" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 9000))
s.settimeout(10)
data, _ = s.recvfrom(65536)
sys.exit(0 if len(data) == 8972 else 1)
PY
	rc=$?
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	return $rc
}
ktap_check "MTU 9000: an 8972-byte datagram crosses unfragmented" jumbo

# Link flap from the QEMU monitor.
"$VM_QMP" '{"execute": "set_link", "arguments": {"name": "port1", "up": false}}' >/dev/null
ktap_check "set_link port1 off: carrier down" wait_for 10 ns_carrier "$b" 0
"$VM_QMP" '{"execute": "set_link", "arguments": {"name": "port1", "up": true}}' >/dev/null
ktap_check "set_link port1 on: carrier up" wait_for 10 ns_carrier "$b" 1

# pktgen bursts of xmit_more packets: MPWQE sessions on the device.
pktgen() {
	pktgen_setup "$@" && pktgen_start
}

mpwqe_burst() {
	local blks0 pkts0 m0 blks pkts m

	blks0=$(ethtool_stat "$a" tx_mpwqe_blks)
	pkts0=$(ethtool_stat "$a" tx_mpwqe_pkts)
	m0=$(model_get "$bdf_a" wqe.ENHANCED_MPSW)
	pktgen "$a" "$PKTGEN_COUNT" 32
	blks=$(( $(ethtool_stat "$a" tx_mpwqe_blks) - blks0 ))
	pkts=$(( $(ethtool_stat "$a" tx_mpwqe_pkts) - pkts0 ))
	m=$(( $(model_get "$bdf_a" wqe.ENHANCED_MPSW) - ${m0:-0} ))
	diag "pktgen burst 32: tx_mpwqe_blks +$blks, tx_mpwqe_pkts +$pkts, model ENHANCED_MPSW +$m"
	[ "$pkts" -ge "$PKTGEN_COUNT" ] && [ "$blks" -gt 0 ] &&
		[ "$blks" -lt "$pkts" ] && [ "$m" -eq "$blks" ]
}
ktap_check "pktgen burst 32: MPWQE sessions, model ENHANCED_MPSW == tx_mpwqe_blks" mpwqe_burst

no_mpwqe() {
	local s0 t0 m0 s t m n=1024

	ethtool --set-priv-flags "$a" skb_tx_mpwqe off || return 1
	wait_for 10 carrier "$a" 1
	s0=$(model_get "$bdf_a" wqe.SEND)
	m0=$(model_get "$bdf_a" wqe.ENHANCED_MPSW)
	t0=$(ethtool_stat "$a" tx_packets)
	pktgen "$a" "$n" 32
	s=$(( $(model_get "$bdf_a" wqe.SEND) - ${s0:-0} ))
	m=$(( $(model_get "$bdf_a" wqe.ENHANCED_MPSW) - ${m0:-0} ))
	t=$(( $(ethtool_stat "$a" tx_packets) - t0 ))
	diag "skb_tx_mpwqe off: pktgen $n, tx_packets +$t, model SEND +$s, ENHANCED_MPSW +$m"
	[ "$t" -ge "$n" ] && [ "$s" -eq "$t" ] && [ "$m" -eq 0 ]
}
ktap_check "skb_tx_mpwqe off: one SEND WQE per packet" no_mpwqe

pair_down
modprobe -r mlx5_core
ktap_check "rmmod: nothing left on the device" all_clean

ktap_check "$CYCLES probe/remove cycles" \
	probe_cycles "$CYCLES" "modprobe mlx5_core" "modprobe -r mlx5_core"
ktap_check "after the cycles: nothing left, no complaint" \
	bash -c "source $LIB_DIR/lib.sh; all_clean && [ -z \"\$(mlx5_complaints)\" ]"

ktap_finish
