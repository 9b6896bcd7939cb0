#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# UDP segmentation offload (tx-udp-segmentation, NETIF_F_GSO_UDP_L4), port
# B in a netns as the peer. A sender on A with a UDP_SEGMENT socket sends
# GSO batches over IPv4 and IPv6, runs of full segments and some with a
# shorter last one:
# - B receives every datagram once, its length and content intact, and
#   counts no UDP error;
# - the work was the device's: per batch one LSO WQE, counted by the
#   driver (tx_tso_packets, tx_tso_bytes: the full segments' payload) and
#   by the model (wqe.LSO, and the per-SQ lsos of its report); the
#   device copies the UDP header as it is, so a driver that left the
#   whole payload's UDP length there, or a shorter last segment in the
#   WQE, loses datagrams at B;
# - tx-udp-segmentation off: the stack segments (the counters stand
#   still) and every datagram still arrives;
# - the distribution's mlx5_core, which offers the feature too, on the
#   same model: the same send, the same LSO WQEs, intact at B.
#
# The sender is a short Python program, not the kernel's
# udpgso_bench_tx: each datagram carries its number and a payload derived
# from it, so that B checks every byte of every datagram, and nothing has
# to be built for the guest.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

BATCHES=${BATCHES:-$(sized 200 40)}
MSS=1400
PORT=5010
A_IP6=fd00:18::1
B_IP6=fd00:18::2

ktap_header 22

ours_pair_up

work=$(mktemp -d)
nsb() { ip netns exec "$NS" "$@"; }

# Batch b (from 0): 10 full segments and one of 300 + b % 600 bytes when b
# is even, 8 full segments when odd; datagram k (counted over the batches)
# starts with k and its length, the rest a window of one fixed block.
# $work/plan: "datagrams batches tso_bytes", what a run must produce.
plan() {
	local b n=0 full=0

	for ((b = 0; b < BATCHES; b++)); do
		if ((b % 2 == 0)); then
			n=$((n + 11)) full=$((full + 10))
		else
			n=$((n + 8)) full=$((full + 8))
		fi
	done
	echo "$n $BATCHES $((full * MSS))" > "$work/plan"
}
plan

PYGEN='
import random
BLOCK = random.Random(18).randbytes(4096)
def datagram(k, size):
    head = k.to_bytes(4, "big") + size.to_bytes(4, "big")
    o = (k * 37) % 2048
    return head + BLOCK[o:o + size - 8]
'

# udp_recv FAMILY IP OUT: in B's netns, the receiver; writes $work/OUT.ready
# once bound, then "received N bytes B bad X dup D" to $work/OUT when it
# has N datagrams of the plan, or none came for 5 s after the first, or
# none at all in 60 s (the sender's start, a Python process, can take
# seconds on a slow guest).
udp_recv() {
	nsb python3 - "$@" "$work" "$(cut -d' ' -f1 "$work/plan")" <<EOF &
import socket, sys, os
$PYGEN
fam = socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET
ip, out, work, want = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
s = socket.socket(fam, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 33, 32 << 20)  # SO_RCVBUFFORCE
s.bind((ip, $PORT))
s.settimeout(60)
open(os.path.join(work, out + ".ready"), "w").close()
seen, nbytes, bad, dup = set(), 0, 0, 0
while len(seen) < want:
    try:
        d = s.recv(65536)
    except socket.timeout:
        break
    s.settimeout(5)
    nbytes += len(d)
    k = int.from_bytes(d[:4], "big") if len(d) >= 8 else -1
    if k < 0 or d != datagram(k, int.from_bytes(d[4:8], "big")):
        bad += 1
    elif k in seen:
        dup += 1
    else:
        seen.add(k)
with open(os.path.join(work, out), "w") as f:
    f.write("received %d bytes %d bad %d dup %d\n" % (len(seen), nbytes, bad, dup))
EOF
}

# udp_gso_send FAMILY IP: A's sender, one sendto() per batch of the plan,
# the socket's UDP_SEGMENT at $MSS.
udp_gso_send() {
	traffic 10 python3 - "$@" "$BATCHES" <<EOF
import socket, sys, time
$PYGEN
fam = socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET
ip, batches = sys.argv[2], int(sys.argv[3])
s = socket.socket(fam, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_UDP, 103, $MSS)  # UDP_SEGMENT
k = 0
for b in range(batches):
    sizes = [$MSS] * 10 + [300 + b % 600] if b % 2 == 0 else [$MSS] * 8
    buf = b"".join(datagram(k + i, n) for i, n in enumerate(sizes))
    k += len(sizes)
    s.sendto(buf, (ip, $PORT))
    time.sleep(0.005)
EOF
}

# counters ARRAY: a run's counters into ARRAY: A's tx_tso_packets (tso)
# and tx_tso_bytes (tsob), B's UDP errors (udperr), and where the model's
# test port is, its wqe.LSO (lso) and the per-SQ lsos summed (lsos) of A.
declare -A C0 C1
counters() {
	local -n _c=$1
	local st rep

	st=$(ethtool_stats "$a")
	_c[tso]=$(report_get tx_tso_packets <<<"$st")
	_c[tsob]=$(report_get tx_tso_bytes <<<"$st")
	# shellcheck disable=SC2016 # awk's fields
	_c[udperr]=$(($(snmp_get "$NS" Udp InErrors) +
		$(snmp_get "$NS" Udp InCsumErrors) +
		$(nsb awk '$1 == "Udp6InErrors" || $1 == "Udp6InCsumErrors" { s += $2 }
			END { print s + 0 }' /proc/net/snmp6)))
	[ "$MLX5CX_TESTPORT" = yes ] || return 0
	rep=$(cxsim report "$bdf_a")
	_c[lso]=$(report_get wqe.LSO <<<"$rep")
	_c[lsos]=$(awk '$1 ~ /^sq\.[0-9]+$/ {
		for (i = 2; i <= NF; i++)
			if (split($i, kv, "=") == 2 && kv[1] == "lsos")
				s += kv[2]
		} END { print s + 0 }' <<<"$rep")
}

# run FAMILY IP NAME: the plan sent from A to IP, received at B into
# $work/NAME; the counters' deltas into D_tso, D_tsob, D_udperr, and with
# the test port D_lso, D_lsos; passes when B got every datagram intact.
run() {
	local fam=$1 ip=$2 name=$3 want got

	rm -f "$work/$name" "$work/$name.ready"
	counters C0
	udp_recv "$fam" "$ip" "$name"
	wait_for 30 test -e "$work/$name.ready" || return 1
	udp_gso_send "$fam" "$ip" || return 1
	wait || return 1
	counters C1
	D_tso=$((C1[tso] - C0[tso]))
	D_tsob=$((C1[tsob] - C0[tsob]))
	D_udperr=$((C1[udperr] - C0[udperr]))
	if [ "$MLX5CX_TESTPORT" = yes ]; then
		D_lso=$((C1[lso] - C0[lso]))
		D_lsos=$((C1[lsos] - C0[lsos]))
	fi
	read -r want _ <"$work/plan"
	got=$(cat "$work/$name" 2>/dev/null)
	diag "IPv$fam $name: $BATCHES batches, $want datagrams sent; B $got; A tx_tso_packets +$D_tso tx_tso_bytes +$D_tsob; model wqe.LSO +${D_lso:-?} lsos +${D_lsos:-?}; B UDP errors +$D_udperr"
	[ "$got" = "received $want bytes $(expected_bytes) bad 0 dup 0" ] &&
		[ "$D_udperr" = 0 ]
}

# The bytes of the plan's datagrams.
expected_bytes() {
	local b s=0

	for ((b = 0; b < BATCHES; b++)); do
		if ((b % 2 == 0)); then
			s=$((s + 10 * MSS + 300 + b % 600))
		else
			s=$((s + 8 * MSS))
		fi
	done
	echo $s
}

# lso_counted: the last run's batches were one LSO WQE each, as the driver
# counts them (the full segments' payload in tx_tso_bytes).
lso_counted() {
	local _n batches bytes

	read -r _n batches bytes <"$work/plan"
	[ "$D_tso" = "$batches" ] && [ "$D_tsob" = "$bytes" ]
}

# lso_in_model: ... and as the model ran them.
lso_in_model() {
	local batches

	cxsim report "$bdf_a" >/dev/null || return 1
	batches=$(cut -d' ' -f2 "$work/plan")
	[ "$D_lso" = "$batches" ] && [ "$D_lsos" = "$batches" ]
}

# no_lso: the last run had no LSO WQE, in the driver's count and, with the
# test port, the model's.
no_lso() {
	[ "$D_tso" = 0 ] && [ "$D_tsob" = 0 ] || return 1
	[ "$MLX5CX_TESTPORT" = yes ] || return 0
	[ "$D_lso" = 0 ] && [ "$D_lsos" = 0 ]
}

feature_is() {
	ethtool -k "$a" | grep -q "^tx-udp-segmentation: $1\$"
}

ipv6_up() {
	sysctl -qw "net.ipv6.conf.$a.disable_ipv6=0" &&
		nsb sysctl -qw "net.ipv6.conf.$b.disable_ipv6=0" &&
		ip -6 addr add "$A_IP6/64" dev "$a" nodad &&
		ip -n "$NS" -6 addr add "$B_IP6/64" dev "$b" nodad &&
		ip -6 neigh replace "$B_IP6" dev "$a" nud permanent \
			lladdr "$(nsb cat "/sys/class/net/$b/address")" &&
		ip -n "$NS" -6 neigh replace "$A_IP6" dev "$b" nud permanent \
			lladdr "$(cat "/sys/class/net/$a/address")"
}

ethtool -k "$a" | grep -E '^tx-(udp-segmentation|gso-partial)' | sed 's/^/# /'
ktap_check "ethtool -k: tx-udp-segmentation on" feature_is on

ktap_check "IPv4 UDP_SEGMENT: B receives every datagram once, length and bytes intact" \
	run 4 "$B_IP" v4
ktap_check "IPv4: one LSO WQE per batch (tx_tso_packets, tx_tso_bytes)" lso_counted
ktap_check "IPv4: the model ran them as LSO WQEs (wqe.LSO, per-SQ lsos)" lso_in_model

ktap_check "IPv6 on both ports (static neighbours)" ipv6_up
ktap_check "IPv6 UDP_SEGMENT: B receives every datagram once, length and bytes intact" \
	run 6 "$B_IP6" v6
ktap_check "IPv6: one LSO WQE per batch (tx_tso_packets, tx_tso_bytes)" lso_counted
ktap_check "IPv6: the model ran them as LSO WQEs (wqe.LSO, per-SQ lsos)" lso_in_model

ktap_check "ethtool -K tx-udp-segmentation off" \
	bash -c "ethtool -K $a tx-udp-segmentation off && ethtool -k $a | grep -q '^tx-udp-segmentation: off$'"
ktap_check "tx-udp-segmentation off, IPv4: every datagram intact at B" run 4 "$B_IP" v4off
ktap_check "tx-udp-segmentation off: segmented by the stack, no LSO WQE" no_lso
ktap_check "tx-udp-segmentation off, IPv6: every datagram intact at B" run 6 "$B_IP6" v6off
ktap_check "tx-udp-segmentation off, IPv6: no LSO WQE" no_lso
ethtool -K "$a" tx-udp-segmentation on >/dev/null 2>&1

no_complaints "our driver logs no error or warning"

# The distribution's driver on the same model and the same send.
distro_up() {
	distro_here || return 1
	pair_down
	unload_mlx5 || return 1
	dmesg -C
	modprobe mlx5_core || return 1
	! ours_loaded && all_bound mlx5_core || return 1
	a=$(netdev_of "$bdf_a")
	b=$(netdev_of "$bdf_b")
	PEER_DEV=$b
	[ -n "$a" ] && [ -n "$b" ] && pair_up "$a" "$b"
}
ktap_check "the distribution's mlx5_core binds both functions, links up" distro_up
! distro_built ||
	ethtool -k "$a" | grep -E '^tx-(udp-segmentation|gso-partial)' | sed 's/^/# /'
ktap_check "distribution driver: tx-udp-segmentation on" on_distro feature_is on
ktap_check "distribution driver, IPv4 UDP_SEGMENT: every datagram intact at B" \
	on_distro run 4 "$B_IP" distro
ktap_check "distribution driver: one LSO WQE per batch (tx_tso_packets, tx_tso_bytes)" \
	on_distro lso_counted
ktap_check "distribution driver: the model ran them as LSO WQEs" on_distro lso_in_model
distro_here
no_complaints "the distribution driver logs no error or warning"

pair_down
unload_mlx5
rm -rf "$work"
ktap_finish
