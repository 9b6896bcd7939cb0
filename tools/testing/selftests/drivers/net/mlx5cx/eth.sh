#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Our netdev (mlx5e) on both ports, port B in a network namespace: the
# MAC from the vport context, carrier, ping both ways over IPv4 and IPv6,
# iperf3 TCP both ways and UDP, counters that agree between A's TX, B's RX
# and the model, MTU 9000 end to end, bad input refused with the state
# unchanged, channels and rings changed under traffic, link down/up, and
# rmmod with traffic running leaving nothing on the device.
# vm-args: --timeout 1800

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

FLAPS=${FLAPS:-$(sized 100 4)}
RECONF=${RECONF:-$(sized 20 2)}

ktap_header 31

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

dmesg -C
dmesg_mark eth
load_ours
ktap_check "our mlx5_core binds both functions" ours_all_bound
no_complaints "probe logs no error or warning"

a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
PEER_DEV=$b
diag "netdevs: $bdf_a=$a $bdf_b=$b"
ours_netdev() {
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] &&
		ethtool -i "$a" | grep -qx 'driver: mlx5_core' &&
		ethtool -i "$b" | grep -qx "bus-info: $bdf_b"
}
ktap_check "two netdevs of mlx5_core (ethtool -i)" ours_netdev

# addr_assign_type 0: the address is the device's own (not random).
perm_mac() {
	local d

	for d in "$a" "$b"; do
		diag "$d: $(cat /sys/class/net/"$d"/address), assign type $(cat /sys/class/net/"$d"/addr_assign_type)"
		[ "$(cat /sys/class/net/"$d"/addr_assign_type)" = 0 ] || return 1
	done
	[ "$(cat /sys/class/net/"$a"/address)" != "$(cat /sys/class/net/"$b"/address)" ]
}
ktap_check "MAC addresses from the NIC vport context, distinct" perm_mac

mtu_bounds() {
	local max

	max=$(ip -d -j link show "$a" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["max_mtu"])')
	diag "$a: max_mtu $max (port maximum less 22 bytes of headers and FCS)"
	[ "$max" -ge 9000 ]
}
ktap_check "MTU bounds from PMTU" mtu_bounds

ktap_check "both links up with carrier ($b in netns $NS)" pair_up "$a" "$b"

ktap_check "ping A -> B (IPv4)" ping -c 3 -W 5 "$B_IP"
ktap_check "ping B -> A (IPv4)" ip netns exec "$NS" ping -c 3 -W 5 "$A_IP"

iperf_tcp() {
	local dir=$1 mbit

	iperf3_server
	mbit=$(traffic "$TCP_SECS" iperf3 -c "$B_IP" -t "$TCP_SECS" $dir -J | python3 -c 'import json,sys; r=json.load(sys.stdin)["end"]; print(int(r["sum_received"]["bits_per_second"]/1e6))')
	diag "iperf3 TCP $TCP_SECS s ${dir:-A->B}: ${mbit:-0} Mbit/s"
	[ "${mbit:-0}" -gt 0 ]
}
ktap_check "iperf3 TCP $TCP_SECS s A -> B moves data" iperf_tcp ""
ktap_check "iperf3 TCP $TCP_SECS s B -> A moves data" iperf_tcp -R

# UDP: every datagram iperf3 sent either reached B's UDP layer (delivered,
# or dropped for a full socket buffer when the receiver, under TCG, falls
# behind) or was dropped by B's port for want of an RX WQE; nothing else
# is lost.
udp_mib() {
	ip netns exec "$NS" awk -v k="$1" '/^Udp:/ { if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1 } else for (i = 2; i <= NF; i++) if (n[i] == k) print $i }' /proc/net/snmp
}

iperf_udp() {
	local udp p l rcvbuf0 oob0 rcvbuf oob

	rcvbuf0=$(udp_mib RcvbufErrors)
	oob0=$(ethtool_stat "$b" rx_out_of_buffer "$NS")
	iperf3_server
	udp=$(traffic "$UDP_SECS" iperf3 -c "$B_IP" -u -b 20M -t "$UDP_SECS" -J | python3 -c 'import json,sys; r=json.load(sys.stdin)["end"]["sum"]; print(r["packets"], r["lost_packets"])')
	read -r p l <<<"$udp"
	rcvbuf=$(( $(udp_mib RcvbufErrors) - rcvbuf0 ))
	oob=$(( $(ethtool_stat "$b" rx_out_of_buffer "$NS") - oob0 ))
	diag "iperf3 UDP $UDP_SECS s at 20 Mbit/s: $p datagrams, $l lost; B socket buffer drops $rcvbuf, rx_out_of_buffer $oob"
	[ "${p:-0}" -gt 0 ] && [ "$l" -lt "$p" ] && [ "$l" -le $((rcvbuf + oob)) ]
}
ktap_check "iperf3 UDP: delivered; every loss counted (socket buffer, rx_out_of_buffer)" iperf_udp

tso_used() {
	local tso

	tso=$(ethtool_stat "$a" tx_tso_packets)
	diag "$a: tx_tso_packets $tso, tx_csum_partial $(ethtool_stat "$a" tx_csum_partial)"
	[ "${tso:-0}" -gt 0 ]
}
ktap_check "TCP went out as TSO (tx_tso_packets > 0)" tso_used

# A's TX is B's RX, and the model saw both, in packets and bytes. Read
# while quiet: a snapshot counts only if the model did not move during it
# (a frame still on its way, background IPv6 chatter), else it is taken
# again; the counters that never stand still fail.
model_snapshot() {
	local rep ra rb

	rep=$(cxsim report "$bdf_a" "$bdf_b")
	ra=$(report_of "$bdf_a" <<<"$rep")
	rb=$(report_of "$bdf_b" <<<"$rep")
	echo "$(report_get tx.packets <<<"$ra") $(report_get tx.bytes <<<"$ra")" \
		"$(report_get rx.packets <<<"$rb") $(report_get rx.bytes <<<"$rb")" \
		"$(report_get rx.drops <<<"$rb") $(report_get rx.drops.no_wqe <<<"$rb")"
}

quiet_snapshot() {
	m0=$(model_snapshot)
	sa=$(ethtool_stats "$a")
	sb=$(ethtool_stats "$b" "$NS")
	[ "$m0" = "$(model_snapshot)" ]
}

counters_agree() {
	local atx atxb brx brxb matx matxb mbrx mbrxb mdrop mnowqe oob m0 sa sb

	wait_for 60 quiet_snapshot || { diag "no quiet snapshot in 60 s"; return 1; }
	atx=$(report_get tx_packets <<<"$sa")
	atxb=$(report_get tx_bytes <<<"$sa")
	brx=$(report_get rx_packets <<<"$sb")
	brxb=$(report_get rx_bytes <<<"$sb")
	oob=$(report_get rx_out_of_buffer <<<"$sb")
	read -r matx matxb mbrx mbrxb mdrop mnowqe <<<"$m0"
	diag "A tx_packets $atx tx_bytes $atxb; model A tx $matx / $matxb bytes"
	diag "B rx_packets $brx rx_bytes $brxb; model B rx $mbrx / $mbrxb bytes, drops $mdrop"
	diag "B rx_out_of_buffer $oob, model B drops for want of a WQE $mnowqe"
	[ -n "$atx" ] && [ -n "$matx" ] && [ -n "$oob" ] && [ -n "$mnowqe" ] &&
		[ "$atx" = "$matx" ] && [ "$atxb" = "$matxb" ] &&
		[ "$brx" = "$mbrx" ] && [ "$brxb" = "$mbrxb" ] &&
		[ "$atx" -eq $((brx + mdrop)) ] && [ "$oob" = "$mnowqe" ]
}
ktap_check "ethtool -S packets and bytes agree: A TX, B RX, the model" counters_agree

ipv6_ping() {
	sysctl -qw "net.ipv6.conf.$a.disable_ipv6=0"
	ip netns exec "$NS" sysctl -qw "net.ipv6.conf.$b.disable_ipv6=0"
	ip addr add fd00:5::1/64 dev "$a" nodad
	ip -n "$NS" addr add fd00:5::2/64 dev "$b" nodad
	ping -6 -c 3 -W 5 fd00:5::2 && ip netns exec "$NS" ping -6 -c 3 -W 5 fd00:5::1
}
ktap_check "ping both ways over IPv6 (multicast neighbour discovery)" ipv6_ping

# Bad input: refused, state unchanged.
mtu_refused() {
	! ip link set "$a" mtu 67 2>/dev/null &&
		! ip link set "$a" mtu 65000 2>/dev/null &&
		[ "$(cat /sys/class/net/"$a"/mtu)" = 1500 ]
}
ktap_check "MTU below 68 or above the port maximum refused, MTU unchanged" mtu_refused

rings_refused() {
	local out

	out=$(ethtool -G "$a" rx 1000 2>&1)
	diag "ethtool -G rx 1000: $out"
	! ethtool -G "$a" rx 1000 2>/dev/null && ! ethtool -G "$a" tx 16 2>/dev/null &&
		ethtool -g "$a" | awk '/Current/ {c=1} c && /^RX:/ {print $2; exit}' | grep -qx 1024 &&
		echo "$out" | grep -q 'power'
}
ktap_check "ring size not a power of two or out of range refused with extack" rings_refused

channels_refused() {
	local max

	max=$(ethtool -l "$a" | awk '/Combined:/ {print $2; exit}')
	! ethtool -L "$a" combined 0 2>/dev/null &&
		! ethtool -L "$a" combined $((max + 1)) 2>/dev/null &&
		ping -c 1 -W 5 "$B_IP" >/dev/null
}
ktap_check "ethtool -L combined 0 and above the maximum refused" channels_refused

# MTU 9000 end to end, without fragmentation.
ip link set "$a" mtu 9000
ip -n "$NS" link set "$b" mtu 9000
# 9000-byte IP packets, each one frame: B receives one frame per request.
jumbo() {
	local rx0 rxb0 rx rxb

	wait_for 10 carrier "$a" 1 && wait_for 10 ns_carrier "$b" 1 || return 1
	rx0=$(ethtool_stat "$b" rx_packets "$NS")
	rxb0=$(ethtool_stat "$b" rx_bytes "$NS")
	ping -c 3 -W 5 -s 8972 "$B_IP" >/dev/null &&
		ip netns exec "$NS" ping -c 3 -W 5 -s 8972 "$A_IP" >/dev/null || return 1
	rx=$(( $(ethtool_stat "$b" rx_packets "$NS") - rx0 ))
	rxb=$(( $(ethtool_stat "$b" rx_bytes "$NS") - rxb0 ))
	diag "6 pings of 9000-byte IP packets: B rx_packets +$rx, rx_bytes +$rxb"
	[ "$rx" -ge 6 ] && [ "$rx" -lt 12 ] && [ "$rxb" -ge $((6 * 9014)) ]
}
ktap_check "MTU 9000: 9000-byte pings cross both ways unfragmented" jumbo
ktap_check "MTU 9000: iperf3 TCP moves data" iperf_tcp ""
ktap_check "MTU 9000: counters still agree" counters_agree
ip link set "$a" mtu 1500
ip -n "$NS" link set "$b" mtu 1500

# Reconfiguration under traffic: iperf3 runs while channels, rings and the
# MTU change; it must still be delivering at the end.
rx_moving() {
	local r0 r1

	r0=$(ethtool_stat "$b" rx_packets "$NS")
	sleep 2
	r1=$(ethtool_stat "$b" rx_packets "$NS")
	[ $((r1 - r0)) -gt 100 ]
}

reconf_under_traffic() {
	local max i pid rc=0

	max=$(ethtool -l "$a" | awk '/Combined:/ {print $2; exit}')
	iperf3_server
	iperf3 -c "$B_IP" -t 900 >/dev/null 2>&1 &
	pid=$!
	wait_for 10 rx_moving || rc=1
	for i in $(seq "$RECONF"); do
		[ $rc = 0 ] || break
		ethtool -L "$a" combined 1 && ethtool -L "$a" combined "$max" &&
			ethtool -G "$a" rx 512 tx 512 &&
			ethtool -G "$a" rx 1024 tx 1024 &&
			ip link set "$a" mtu 4000 && ip link set "$a" mtu 1500 &&
			ethtool -K "$a" rx off tx off >/dev/null &&
			ethtool -K "$a" rx on tx on >/dev/null &&
			ethtool -X "$a" equal 1 && ethtool -X "$a" default || rc=1
	done
	# TCP may be in retransmission backoff after a switch: give it time.
	wait_for 10 carrier "$a" 1 && wait_for 30 rx_moving || rc=1
	diag "$RECONF rounds of -L 1/$max, -G 512/1024, MTU 4000/1500, -K rx/tx checksums off/on, -X equal 1/default under iperf3: traffic moving afterwards: $((1 - rc))"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return $rc
}
ktap_check "channels, rings, MTU, checksum offloads, indirection changed under iperf3: traffic resumes" reconf_under_traffic

totals_survive() {
	local before after

	before=$(ethtool_stat "$a" tx_packets)
	ethtool -L "$a" combined 1 || return 1
	after=$(ethtool_stat "$a" tx_packets)
	diag "tx_packets before -L 1: $before, after: $after"
	ethtool -L "$a" combined "$(ethtool -l "$a" | awk '/Combined:/ {print $2; exit}')"
	[ "$after" -ge "$before" ] && [ "$before" -gt 0 ]
}
ktap_check "counter totals survive a channel reconfiguration" totals_survive

flaps() {
	local i

	for i in $(seq "$FLAPS"); do
		ip link set "$a" down && ip link set "$a" up || return 1
	done
	wait_for 15 carrier "$a" 1 && ping -c 2 -W 5 "$B_IP" >/dev/null
}
ktap_check "ip link set down/up $FLAPS times, then ping" flaps

"$VM_QMP" '{"execute": "set_link", "arguments": {"name": "port1", "up": false}}' >/dev/null
ktap_check "set_link port1 off: carrier down (port change event)" wait_for 10 ns_carrier "$b" 0
"$VM_QMP" '{"execute": "set_link", "arguments": {"name": "port1", "up": true}}' >/dev/null
ktap_check "set_link port1 on: carrier up, ping" \
	bash -c "source $LIB_DIR/lib.sh; wait_for 10 ns_carrier $b 1 && ping -c 2 -W 5 $B_IP >/dev/null"

# rx_queues_hit: how many RX queues of A received 64 UDP flows from B.
rx_queues_hit() {
	local max q n used=0

	max=$(ethtool -l "$a" | awk '/Combined:/ {print $2; exit}')
	declare -A before
	for q in $(seq 0 $((max - 1))); do
		before[$q]=$(ethtool_stat "$a" "rx${q}_packets")
	done
	ip netns exec "$NS" python3 - "$A_IP" <<'PY'
import socket, sys
for port in range(5000, 5064):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"x" * 64, (sys.argv[1], port))
PY
	sleep 1
	for q in $(seq 0 $((max - 1))); do
		n=$(( $(ethtool_stat "$a" "rx${q}_packets") - ${before[$q]} ))
		echo "# rx${q}_packets +$n" >&2
		[ "$n" -ge 4 ] && used=$((used + 1))
	done
	echo "$used"
}

rss_spread() {
	local max all one

	max=$(ethtool -l "$a" | awk '/Combined:/ {print $2; exit}')
	all=$(rx_queues_hit)
	ethtool -X "$a" equal 1 || return 1
	one=$(rx_queues_hit)
	ethtool -X "$a" default || return 1
	diag "64 UDP flows: $all of $max RX queues used; after ethtool -X equal 1: $one"
	[ "$max" -ge 2 ] && [ "$all" = "$max" ] && [ "$one" = 1 ]
}
ktap_check "RSS: 64 UDP flows reach every RX queue; ethtool -X equal 1 moves them onto one" rss_spread

# An error CQE on one SQ: counted, reported by the devlink health reporter
# "tx", the SQ recovered (ERR -> RST -> RDY), traffic through it again.
tx_health() { health_counts "$(eth_health_dl "$bdf_a")" tx; }

err_cqe_recovery() {
	local hit e0 r0 e r st rec err

	read -r e0 r0 _ <<<"$(tx_health)"
	# shellcheck disable=SC2046 # one SQ number a word
	hit=$(sq_fault_by_ping "$bdf_a" $(model_tx_sqns "$bdf_a"))
	recovered() {
		read -r e r st <<<"$(tx_health)"
		[ "$e" -eq $((e0 + 1)) ] && [ "$r" -eq $((r0 + 1)) ] && [ "$st" = healthy ]
	}
	wait_for 15 recovered
	rec=$(ethtool_stat "$a" tx_recover)
	err=$(ethtool_stat "$a" tx_cqe_err)
	diag "error CQE on SQ ${hit:-none}: tx_cqe_err $err, tx_recover $rec, reporter tx: $(tx_health)"
	[ -n "$hit" ] && [ "${rec:-0}" -eq 1 ] && [ "${err:-0}" -ge 1 ] && recovered || return 1
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" ping -c 2 -W 5 "$B_IP" >/dev/null || return 1
	done
}
ktap_check "error CQE on an SQ: tx_recover, devlink reporter tx, traffic resumes" err_cqe_recovery

# devlink dev reload with traffic: the netdev is suspended and resumed,
# not re-registered (same ifindex), and passes traffic again.
reload_traffic() {
	local ifindex pid

	ifindex=$(cat /sys/class/net/"$a"/ifindex)
	iperf3_server
	iperf3 -c "$B_IP" -t 20 >/dev/null 2>&1 &
	pid=$!
	sleep 3
	devlink dev reload "pci/$bdf_a" || return 1
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	diag "$a ifindex before $ifindex, after $(cat /sys/class/net/"$a"/ifindex)"
	[ "$(cat /sys/class/net/"$a"/ifindex)" = "$ifindex" ] &&
		wait_for 15 carrier "$a" 1 && ping -c 2 -W 5 "$B_IP" >/dev/null
}
ktap_check "devlink dev reload under iperf3: same netdev, traffic again" reload_traffic

rmmod_traffic() {
	iperf3_server
	iperf3 -c "$B_IP" -t 30 >/dev/null 2>&1 &
	sleep 3
	pair_down
	rmmod mlx5_core
}
ktap_check "rmmod with the netdevs up and iperf3 running" rmmod_traffic
ktap_check "after rmmod: nothing left on the device" all_clean
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
