#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checksum offload and TSO of our netdev, port B in a netns as the peer:
# - TCP and UDP from A with tx-checksumming on and off: B's stack
#   validates every segment and datagram (no InCsumErrors, bytes intact),
#   and the device's verdict covers them: CHECKSUM_COMPLETE from the
#   CQE's sum (rx_csum_complete) that the stack finds right (no "hw csum
#   failure"), also with the VLAN tag left in the frame; no hardware GRO
#   (rx_gro_packets stays 0);
# - frames with a corrupted UDP or TCP checksum, written on the wire from
#   B's side with a packet socket: A hands them on CHECKSUM_COMPLETE
#   (rx_csum_complete), or CHECKSUM_NONE for a short frame, never
#   CHECKSUM_UNNECESSARY; its stack drops them (InCsumErrors), nothing
#   reaches the listening socket;
# - a 1 MiB file sent with sendfile() over TCP with TSO on arrives byte
#   for byte and tx_tso_packets counts it.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
if ! command -v socat >/dev/null; then
	echo "1..0 # SKIP socat not installed"
	exit 4
fi

ktap_header 14

ours_pair_up

work=$(mktemp -d)
head -c $((1 << 20)) /dev/urandom > "$work/src"
nsb() { ip netns exec "$NS" "$@"; }

# tcp_copy PORT: A sends $work/src to B over TCP; B's copy must match.
tcp_copy() {
	local port=$1

	rm -f "$work/dst"
	nsb socat -u "TCP-LISTEN:$port,bind=$B_IP,reuseaddr" "CREATE:$work/dst" &
	servers_up "$NS" "tcp:$port" || return 1
	traffic 5 socat -u "FILE:$work/src" "TCP:$B_IP:$port" || return 1
	traffic 0 wait
	cmp -s "$work/src" "$work/dst"
}

# udp_send N PORT: N datagrams of 1000 bytes from A to B; B received them
# all (its Udp InDatagrams), none with a bad checksum (InCsumErrors).
udp_send() {
	local n=$1 port=$2 in0 in1 err0 err1

	in0=$(snmp_get "$NS" Udp InDatagrams)
	err0=$(snmp_get "$NS" Udp InCsumErrors)
	nsb socat -u "UDP-RECV:$port,bind=$B_IP" /dev/null &
	sleep 1
	udp_paced "$B_IP" "$port" "$n" 1000
	sleep 1
	kill %% 2>/dev/null
	wait
	in1=$(snmp_get "$NS" Udp InDatagrams)
	err1=$(snmp_get "$NS" Udp InCsumErrors)
	diag "UDP: B received $((in1 - in0)) of $n, InCsumErrors +$((err1 - err0))"
	[ $((in1 - in0)) -ge "$n" ] && [ "$err1" = "$err0" ]
}

# Per tx_csum run: B's rx_csum_complete, rx_gro_packets and rx_packets
# deltas, for the points after.
COMPLETE=()
GRO=()
RXP=()
tx_csum() {
	local mode=$1 p0 p1 n0 n1 u0 u1 c0 c1 g0 g1 r0 r1 tcperr0 tcperr1 st

	ethtool -K "$a" tx "$mode" >/dev/null 2>&1 || return 1
	ethtool -k "$a" | grep -q "^tx-checksumming: $mode" || return 1
	p0=$(ethtool_stat "$a" tx_csum_partial)
	n0=$(ethtool_stat "$a" tx_csum_none)
	st=$(ethtool_stats "$b" "$NS")
	u0=$(report_get rx_csum_unnecessary <<<"$st")
	c0=$(report_get rx_csum_complete <<<"$st")
	g0=$(report_get rx_gro_packets <<<"$st")
	r0=$(report_get rx_packets <<<"$st")
	tcperr0=$(snmp_get "$NS" Tcp InCsumErrors)
	tcp_copy 5001 && udp_send 200 5002 || return 1
	p1=$(ethtool_stat "$a" tx_csum_partial)
	n1=$(ethtool_stat "$a" tx_csum_none)
	st=$(ethtool_stats "$b" "$NS")
	u1=$(report_get rx_csum_unnecessary <<<"$st")
	c1=$(report_get rx_csum_complete <<<"$st")
	g1=$(report_get rx_gro_packets <<<"$st")
	r1=$(report_get rx_packets <<<"$st")
	tcperr1=$(snmp_get "$NS" Tcp InCsumErrors)
	COMPLETE+=($((c1 - c0)))
	GRO+=($((g1 - g0)))
	RXP+=($((r1 - r0)))
	diag "tx $mode: A tx_csum_partial +$((p1 - p0)) tx_csum_none +$((n1 - n0)); B rx_csum_complete +$((c1 - c0)) rx_csum_unnecessary +$((u1 - u0)), rx_gro_packets +$((g1 - g0)) of rx_packets +$((r1 - r0)); Tcp InCsumErrors +$((tcperr1 - tcperr0))"
	[ "$tcperr1" = "$tcperr0" ] &&
		[ $((c1 - c0 + u1 - u0)) -ge 200 ] || return 1
	if [ "$mode" = on ]; then
		[ $((p1 - p0)) -ge 200 ]
	else
		[ "$p1" = "$p0" ] && [ $((n1 - n0)) -ge 200 ]
	fi
}
ktap_check "tx-checksumming on: TCP 1 MiB intact, 200 UDP datagrams, checksums offloaded and valid at B" tx_csum on
ktap_check "tx-checksumming off: the same with checksums from the stack (tx_csum_none)" tx_csum off
ethtool -K "$a" tx on >/dev/null 2>&1

# As upstream mlx5e gives an IP frame that is not short: CHECKSUM_COMPLETE
# from the CQE's sum, and a right one (the stack, checking each TCP
# segment and UDP datagram with it, found no error to report and no sum
# it had to correct: no "hw csum failure").
csum_complete() {
	[ "${#COMPLETE[@]}" -eq 2 ] || return 1
	! dmesg | grep -q 'hw csum failure' &&
		[ "${COMPLETE[0]}" -ge 200 ] && [ "${COMPLETE[1]}" -ge 200 ]
}
ktap_check "B gave the TCP and UDP it received CHECKSUM_COMPLETE (rx_csum_complete), no hw csum failure" \
	csum_complete

# rx_gro_packets: packets of hardware GRO sessions (upstream's SHAMPO);
# this driver does none, however much TCP it receives (software GRO is
# the stack's).
no_hw_gro() {
	[ "${#GRO[@]}" -eq 2 ] || return 1
	[ "${RXP[0]}" -gt 0 ] && [ "${GRO[0]}" -eq 0 ] && [ "${GRO[1]}" -eq 0 ]
}
ktap_check "TCP received at B: rx_gro_packets stays 0 (no hardware GRO), not rx_packets" \
	no_hw_gro

# The same with the VLAN tag left in the frame (rx-vlan-offload off at
# B): the CQE's sum starts past the tag, the driver adds the tag's.
vlan_complete() {
	local c0 c1 err0 err1 ok=0

	modprobe 8021q || return 1
	ip link add link "$a" name "$a.9" type vlan id 9 &&
		ip -n "$NS" link add link "$b" name "$b.9" type vlan id 9 || return 1
	ip addr add 198.19.9.1/24 dev "$a.9"
	ip -n "$NS" addr add 198.19.9.2/24 dev "$b.9"
	ip link set "$a.9" up
	ip -n "$NS" link set "$b.9" up
	nsb ethtool -K "$b" rxvlan off >/dev/null 2>&1
	c0=$(ethtool_stat "$b" rx_csum_complete "$NS")
	err0=$(snmp_get "$NS" Udp InCsumErrors)
	ping -c 1 -W 5 198.19.9.2 >/dev/null 2>&1
	nsb socat -u "UDP-RECV:5005,bind=198.19.9.2" /dev/null &
	sleep 1
	udp_paced 198.19.9.2 5005 50 300 || ok=1
	sleep 1
	kill %% 2>/dev/null
	wait
	c1=$(ethtool_stat "$b" rx_csum_complete "$NS")
	err1=$(snmp_get "$NS" Udp InCsumErrors)
	nsb ethtool -K "$b" rxvlan on >/dev/null 2>&1
	ip link del "$a.9"
	ip -n "$NS" link del "$b.9"
	diag "VLAN 9, rx-vlan-offload off at B: rx_csum_complete +$((c1 - c0)), Udp InCsumErrors +$((err1 - err0))"
	[ $ok -eq 0 ] && [ $((c1 - c0)) -ge 50 ] && [ "$err1" = "$err0" ] &&
		! dmesg | grep -q 'hw csum failure'
}
ktap_check "UDP over a VLAN with the tag left in the frame at B: CHECKSUM_COMPLETE, right" \
	vlan_complete

# inject PROTO N [PAYLOAD]: N frames to A's UDP/TCP port 7000 with a
# corrupted L4 checksum and PAYLOAD bytes of payload (72 by default),
# written by a packet socket on B's side.
inject() {
	local amac bmac

	amac=$(cat "/sys/class/net/$a/address")
	bmac=$(nsb cat "/sys/class/net/$b/address")
	nsb $PY - "$b" "$bmac" "$amac" "$B_IP" "$A_IP" "$1" "$2" "${3:-72}" <<'EOF'
import socket, struct, sys
dev, smac, dmac, sip, dip, proto, n, plen = sys.argv[1:9]
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
sa, da = socket.inet_aton(sip), socket.inet_aton(dip)
payload = (b"corrupted checksum" * 4)[:int(plen)]
if proto == "udp":
    l4 = struct.pack("!HHHH", 40000, 7000, 8 + len(payload), 0) + payload
    num = 17
else:
    l4 = struct.pack("!HHIIBBHHH", 40000, 7000, 1, 0, 5 << 4, 0x02, 65535, 0, 0) + payload
    num = 6
pseudo = sa + da + struct.pack("!BBH", 0, num, len(l4))
good = csum(pseudo + l4)
bad = (good ^ 0x5a5a) or 1
off = 6 if proto == "udp" else 16
l4 = l4[:off] + struct.pack("!H", bad) + l4[off + 2:]
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64, num, 0, sa, da)
ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
eth = bytes.fromhex(dmac.replace(":", "")) + bytes.fromhex(smac.replace(":", "")) + b"\x08\x00"
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
for _ in range(int(n)):
    s.send(eth + ip + l4)
EOF
}

# bad_csum PROTO SNMP [PAYLOAD]: 10 frames with a bad checksum (inject)
# to A: on CHECKSUM_COMPLETE (not short) or CHECKSUM_NONE (a short frame,
# its sum unusable, the device's verdict bad), never UNNECESSARY.
bad_csum() {
	local proto=$1 P=$2 plen=${3:-72} n0 n1 u0 u1 c0 c1 e0 e1 got verdict

	n0=$(ethtool_stat "$a" rx_csum_none)
	u0=$(ethtool_stat "$a" rx_csum_unnecessary)
	c0=$(ethtool_stat "$a" rx_csum_complete)
	e0=$(snmp_get "" "$P" InCsumErrors)
	rm -f "$work/got"
	if [ "$proto" = udp ]; then
		socat -u "UDP-RECV:7000,bind=$A_IP" "CREATE:$work/got" &
	else
		socat -u "TCP-LISTEN:7000,bind=$A_IP,reuseaddr" "CREATE:$work/got" &
	fi
	sleep 1
	inject "$proto" 10 "$plen" || return 1
	sleep 1
	kill %% 2>/dev/null
	wait
	n1=$(ethtool_stat "$a" rx_csum_none)
	u1=$(ethtool_stat "$a" rx_csum_unnecessary)
	c1=$(ethtool_stat "$a" rx_csum_complete)
	e1=$(snmp_get "" "$P" InCsumErrors)
	got=$(stat -c %s "$work/got" 2>/dev/null || echo 0)
	diag "$proto, 10 frames with a bad checksum, $plen bytes of payload: A rx_csum_complete +$((c1 - c0)), rx_csum_none +$((n1 - n0)), rx_csum_unnecessary +$((u1 - u0)), $P InCsumErrors +$((e1 - e0)), $got bytes delivered"
	# 14 + 20 + 8 + 18: 60 bytes, a short frame.
	if [ "$plen" -le 18 ]; then
		verdict=$((n1 - n0))
	else
		verdict=$((c1 - c0))
	fi
	[ "$verdict" -ge 10 ] && [ "$u1" = "$u0" ] &&
		[ $((e1 - e0)) -ge 10 ] && [ "$got" = 0 ]
}
ktap_check "UDP with a corrupted checksum on the wire: rx_csum_complete, dropped by the stack, never delivered" bad_csum udp Udp
ktap_check "short UDP frame with a corrupted checksum: rx_csum_none (the device's verdict), dropped by the stack" bad_csum udp Udp 8
ktap_check "TCP SYN with a corrupted checksum on the wire: rx_csum_complete, dropped by the stack" bad_csum tcp Tcp

sendfile_tso() {
	local t0 t1 b0 b1

	ethtool -K "$a" tso on >/dev/null 2>&1
	ethtool -k "$a" | grep -q '^tcp-segmentation-offload: on' || return 1
	t0=$(ethtool_stat "$a" tx_tso_packets)
	b0=$(ethtool_stat "$a" tx_tso_bytes)
	rm -f "$work/dst"
	nsb socat -u "TCP-LISTEN:5003,bind=$B_IP,reuseaddr" "CREATE:$work/dst" &
	servers_up "$NS" tcp:5003 || return 1
	traffic 10 $PY - "$B_IP" 5003 "$work/src" <<'EOF' || return 1
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
with open(sys.argv[3], "rb") as f:
    sent = s.sendfile(f)
s.close()
assert sent == 1 << 20, sent
EOF
	traffic 0 wait
	t1=$(ethtool_stat "$a" tx_tso_packets)
	b1=$(ethtool_stat "$a" tx_tso_bytes)
	diag "sendfile 1 MiB: tx_tso_packets +$((t1 - t0)), tx_tso_bytes +$((b1 - b0)); $(stat -c %s "$work/dst") bytes at B"
	cmp -s "$work/src" "$work/dst" && [ $((t1 - t0)) -gt 0 ] &&
		[ $((b1 - b0)) -gt 0 ]
}
ktap_check "1 MiB sendfile over TCP with TSO: byte-exact at B, tx_tso_packets counts it" sendfile_tso

rx_off() {
	local n0 n1 u0 u1

	nsb ethtool -K "$b" rx off >/dev/null 2>&1 || return 1
	n0=$(ethtool_stat "$b" rx_csum_none "$NS")
	u0=$(ethtool_stat "$b" rx_csum_unnecessary "$NS")
	tcp_copy 5004 || return 1
	n1=$(ethtool_stat "$b" rx_csum_none "$NS")
	u1=$(ethtool_stat "$b" rx_csum_unnecessary "$NS")
	nsb ethtool -K "$b" rx on >/dev/null 2>&1
	diag "B rx-checksumming off: rx_csum_none +$((n1 - n0)), rx_csum_unnecessary +$((u1 - u0))"
	[ "$u1" = "$u0" ] && [ $((n1 - n0)) -gt 0 ]
}
ktap_check "rx-checksumming off at B: TCP intact, verified by the stack (rx_csum_none)" rx_off

rm -rf "$work"
pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
