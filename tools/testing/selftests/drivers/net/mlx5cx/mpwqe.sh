#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Our netdev's Enhanced Multi-Packet send WQEs (skb_tx_mpwqe) and its
# doorbell rule: pktgen bursts of 64-byte packets packed into sessions
# that the model counts one for one, doorbells once per burst, WQEBBs per
# packet no more than the distribution driver's; MPWQE off sends one SEND
# WQE per packet; burst 1 rings for every packet; BQL stopping the queue
# after every burst (pktgen sends on) still leaves one doorbell per burst
# and no byte in flight; a burst longer than a
# small ring rings when the queue stops mid-burst; a mixed stream (TSO,
# sendfile, VLAN, checksum on and off, small UDP) arrives byte for byte
# with sessions closing on each fallback; the flag toggled under pktgen
# loses nothing it counted as sent; tx_nop counts the NOP WQEs the
# model fetched, one for one (fragmented packets padding a small ring).
# On the debug kernel, TX mappings failing mid-burst (fail_tx_map) drop
# only the packets they fail, and the bursts they end still ring.
#
# MLX5CX_QUICK=1 scales the packet counts and toggles down (make check);
# the issue's figures come from the full size.
# vm-args: --timeout 1200

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

N=${N:-$(sized 20000 4000)}
TOGGLES=${TOGGLES:-$(sized 100 10)}

ktap_header 18

ours_pair_up
ethtool --show-priv-flags "$a" | sed 's/^/# /'
ktap_check "skb_tx_mpwqe is on by default" \
	bash -c "ethtool --show-priv-flags $a | grep -Eq 'skb_tx_mpwqe *: on'"

counters_named() {
	local c

	for c in tx_mpwqe_blks tx_mpwqe_pkts tx_xmit_more tx_nop tx0_mpwqe_blks \
		 tx0_mpwqe_pkts; do
		[ -n "$(ethtool_stat "$a" "$c")" ] || { diag "no $c"; return 1; }
	done
}
ktap_check "ethtool -S has tx_mpwqe_blks, tx_mpwqe_pkts, tx_xmit_more, tx_nop (total and per queue)" \
	counters_named

# snap PREFIX: the driver's and the model's counters into PREFIX_*;
# fails, naming it, when either lacks one (a missing counter is not 0).
SNAP_DRIVER="pkts:tx_packets blks:tx_mpwqe_blks mpkts:tx_mpwqe_pkts
	db:tx_doorbells stop:tx_queue_stopped more:tx_xmit_more
	tso:tx_tso_packets csn:tx_csum_none cqes:tx_cqes"
SNAP_MODEL="mtx:tx.packets mmpw:wqe.ENHANCED_MPSW msend:wqe.SEND mlso:wqe.LSO
	mdb:sq.doorbells mbbs:dp.wqebbs mdesc:dp.desc_bytes mcqe:cqe.tx
	mlink:tx.drops.link_down mflush:wqe.flushed"
snap() {
	local p=$1 rep st kv v

	rep=$(cxsim report "$bdf_a")
	st=$(ethtool_stats "$a")
	for kv in $SNAP_DRIVER; do
		v=$(report_get "${kv#*:}" <<<"$st")
		[ -n "$v" ] || { diag "ethtool -S $a: no ${kv#*:}"; return 1; }
		printf -v "${p}_${kv%%:*}" %s "$v"
	done
	for kv in $SNAP_MODEL; do
		v=$(report_get "${kv#*:}" <<<"$rep")
		[ -n "$v" ] || { diag "model report of $bdf_a: no ${kv#*:}"; return 1; }
		printf -v "${p}_${kv%%:*}" %s "$v"
	done
}

# tx_pair PREFIX: A's tx_packets and the model's tx.packets into
# PREFIX_dtx and PREFIX_mtx, read while no packet is sent in between (the
# driver's count the same before and after the model's is read).
tx_pair() {
	local i p1 p2 m

	for i in 1 2 3 4 5; do
		p1=$(ethtool_stat "$a" tx_packets)
		m=$(model_get "$bdf_a" tx.packets)
		p2=$(ethtool_stat "$a" tx_packets)
		[ "$p1" = "$p2" ] && break
		sleep 0.2
	done
	[ -n "$p2" ] && [ -n "$m" ] || { diag "no tx_packets or tx.packets"; return 1; }
	eval "${1}_dtx=$p2 ${1}_mtx=$m"
}

# d NAME: counter NAME's change from s0_ to s1_; nothing (which no
# comparison passes) and a complaint when either snapshot lacks it.
d() {
	local x=s1_$1 y=s0_$1

	if [ -z "${!x:-}" ] || [ -z "${!y:-}" ]; then
		echo "# counter $1 missing from a snapshot" >&2
		return 1
	fi
	echo $(( ${!x} - ${!y} ))
}

pktgen() {
	pktgen_setup "$@" && pktgen_start
}

# a_rest: A's driver and model counters stand still (the device sends
# later than the doorbell): before a snapshot that a step compares.
a_snapshot() { traffic_counters "$bdf_a" && ethtool_stats "$a"; }
a_rest() { settled 30 a_snapshot >/dev/null; }

burst32() {
	local pk bl mp db stop mdb mpw bbs desc cqe

	# BQL's floor raised, only the ring's own stops (counted) stop the
	# queue; bql_stopped below has BQL stop it.  The floor applies at
	# the queue's next completion: a burst first.
	bql_floor "$a" 4194304 || return 1
	pktgen "$a" 64 32 || { bql_floor "$a" 0; return 1; }
	a_rest || { bql_floor "$a" 0; return 1; }
	snap s0 || { bql_floor "$a" 0; return 1; }
	pktgen "$a" "$N" 32 || { bql_floor "$a" 0; return 1; }
	a_rest || { bql_floor "$a" 0; return 1; }
	snap s1 || { bql_floor "$a" 0; return 1; }
	bql_floor "$a" 0 || return 1
	pk=$(d pkts) bl=$(d blks) mp=$(d mpkts) db=$(d db) stop=$(d stop)
	mdb=$(d mdb) mpw=$(d mmpw) bbs=$(d mbbs) desc=$(d mdesc) cqe=$(d mcqe)
	diag "pktgen $N x 64 B, burst 32: tx_packets +$pk, tx_mpwqe_pkts +$mp, tx_mpwqe_blks +$bl, model ENHANCED_MPSW +$mpw, SEND +$(d msend)"
	diag "doorbells: driver +$db, model +$mdb, queue stops +$stop; CQEs: model +$cqe, driver +$(d cqes)"
	diag "per packet: $(awk -v p="$pk" -v w="$bbs" -v b="$desc" -v d="$mdb" -v c="$cqe" \
		'BEGIN { printf "WQEBBs %.3f, descriptor bytes %.1f, doorbells %.4f, CQEs %.4f", w / p, b / p, d / p, c / p }')"
	# Every packet went into a session, the model ran each session the
	# driver posted, a doorbell per 32 packets plus one per queue stop,
	# and no more than the distribution driver's 1/3 WQEBB per packet.
	[ "$pk" -ge "$N" ] && [ "$mp" -eq "$pk" ] && [ "$(d mtx)" -eq "$pk" ] &&
		[ "$bl" -gt 0 ] && [ "$mpw" -eq "$bl" ] && [ "$mdb" -eq "$db" ] &&
		[ "$mdb" -le $(( (pk + 31) / 32 + stop )) ] &&
		[ $((3 * bbs)) -le "$pk" ]
}
ktap_check "pktgen burst 32: tx_mpwqe_pkts == packets, model ENHANCED_MPSW == tx_mpwqe_blks, doorbells <= 1/32 + stops, WQEBBs <= 1/3 per packet" \
	burst32

# bql_param NAME [BYTES]: byte_queue_limits/NAME of A's queue 0; with
# BYTES, set to it.
bql_param() {
	local f=/sys/class/net/$a/queues/tx-0/byte_queue_limits/$1

	if [ $# -gt 1 ]; then
		echo "$2" >"$f"
	else
		cat "$f"
	fi
}

# BQL stops the queue (STACK_XOFF) at the end of every burst when its
# limit is less than a burst's bytes; pktgen heeds the driver's stop
# only and sends on. Each burst still rings once, at its end: the SKBs
# sent under xmit_more into a queue BQL holds stopped do not ring (each
# would close the session), and every byte BQL counted sent is
# completed once (inflight back to 0).
bql_stopped() {
	local max pk db mdb stop lim infl rc=0

	max=$(bql_param limit_max) || return 1
	# Under one burst's 32 x 60 bytes: the limit applies at the queue's
	# next completion, so a burst first.
	bql_param limit_max 1000 && pktgen "$a" 64 32 && a_rest && snap s0 || rc=1
	[ $rc = 0 ] && pktgen "$a" "$N" 32 && a_rest && snap s1 || rc=1
	lim=$(bql_param limit) infl=$(bql_param inflight)
	bql_param limit_max "$max" || rc=1
	[ $rc = 0 ] || return 1
	pk=$(d pkts) db=$(d db) mdb=$(d mdb) stop=$(d stop)
	diag "pktgen $N x 64 B, burst 32, BQL limit_max 1000 (limit $lim): tx_packets +$pk, model +$(d mtx), sessions +$(d blks), doorbells driver +$db model +$mdb, queue stops +$stop, BQL inflight at rest $infl"
	[ "$pk" -ge "$N" ] && [ "$(d mtx)" -eq "$pk" ] && [ "$lim" -le 1000 ] &&
		[ "$mdb" -eq "$db" ] && [ "$mdb" -le $(( (pk + 31) / 32 + stop )) ] &&
		[ "$infl" -eq 0 ]
}
ktap_check "pktgen burst 32 with BQL stopping the queue after each burst: doorbells <= 1/32 + stops, BQL inflight back to 0" \
	bql_stopped

# Burst 1: no packet waits for a later one.
burst1() {
	local n=200 pk db mdb

	snap s0 || return 1
	pktgen "$a" "$n" 1 || return 1
	a_rest || return 1
	snap s1 || return 1
	pk=$(d pkts) db=$(d db) mdb=$(d mdb)
	diag "pktgen $n, burst 1: tx_packets +$pk, doorbells driver +$db, model +$mdb, sessions +$(d blks), tx_xmit_more +$(d more)"
	[ "$pk" -ge "$n" ] && [ "$db" -ge "$pk" ] && [ "$mdb" -eq "$db" ] &&
		[ "$(d mtx)" -eq "$pk" ] && [ "$(d more)" -eq 0 ]
}
ktap_check "pktgen burst 1: a doorbell for every packet, the model sent each" burst1

# TX mappings that fail mid-burst, as an exhausted IOMMU makes them fail:
# the driver's fault attribute (debugfs mlx5/fail_tx_map, on a kernel with
# fault injection: the debug kernel) fails every 5th mapping.
# Each failed packet is dropped and counted; one that ends a burst leaves
# the session open behind it, and the NOP that rings for the burst comes
# after that session is closed: every packet counted sent reaches the
# wire, the model runs as many sessions and NOPs as the driver posted.
FAIL_TX=/sys/kernel/debug/mlx5/fail_tx_map
map_faults() {
	local n=2000 pk dr nop mnop rc=0

	snap s0 || return 1
	dr=$(ethtool_stat "$a" tx_queue_dropped) nop=$(ethtool_stat "$a" tx_nop)
	mnop=$(model_get "$bdf_a" wqe.NOP)
	printf '%s\n' "probability 100" "interval 5" "times -1" "verbose 0" |
		while read -r k v; do echo "$v" >"$FAIL_TX/$k"; done || rc=1
	[ $rc -eq 0 ] && { pktgen "$a" "$n" 32 || rc=1; }
	echo 0 >"$FAIL_TX/probability"
	a_rest || rc=1
	snap s1 || return 1
	dr=$(( $(ethtool_stat "$a" tx_queue_dropped) - dr ))
	nop=$(( $(ethtool_stat "$a" tx_nop) - nop ))
	mnop=$(( $(model_get "$bdf_a" wqe.NOP) - mnop ))
	pk=$(d pkts)
	diag "pktgen $n x 64 B, burst 32, every 5th mapping failing: tx_packets +$pk, tx_queue_dropped +$dr, sessions driver +$(d blks) model +$(d mmpw), NOPs driver +$nop model +$mnop, model sent +$(d mtx)"
	[ $rc -eq 0 ] && [ "$dr" -ge $((n / 5 - 1)) ] &&
		[ $((pk + dr)) -ge "$n" ] && [ "$(d mtx)" -eq "$pk" ] &&
		[ "$(d mmpw)" -eq "$(d blks)" ] && [ "$nop" -gt 0 ] &&
		[ "$mnop" -eq "$nop" ]
}
if [ -d "$FAIL_TX" ]; then
	ktap_check "TX mappings failing mid-burst (mlx5/fail_tx_map): drops counted, sessions closed before the NOP that rings, the rest sent" \
		map_faults
else
	ktap_skip "TX mappings failing mid-burst (mlx5/fail_tx_map)" \
		"needs fault injection (the debug kernel: vm/run --kernel debug): no $FAIL_TX"
fi

# tx_timeouts: the TX watchdog's count over A's queues.
tx_timeouts() {
	ethtool -S "$a" | awk '/^ *tx[0-9]+_timeout:/ { n += $2 } END { print n + 0 }'
}

# Bursts longer than the whole ring: the queue stops while xmit_more still
# promises more, so the stop must ring; WQEs left unrung would never
# complete, and the stopped queue would wait for the TX watchdog.
long_burst() {
	local n=4096 burst=512 tx pk stop to0 to1 rc=0

	tx=$(ethtool -g "$a" | awk '/Current/ { c = 1 } c && /^TX:/ { print $2; exit }')
	[ -n "$tx" ] || { diag "ethtool -g $a: no TX ring size"; return 1; }
	ethtool -G "$a" tx 64 || return 1
	bql_floor "$a" 4194304 && pktgen "$a" 64 32 || rc=1
	to0=$(tx_timeouts)
	[ $rc = 0 ] && a_rest && snap s0 || rc=1
	[ $rc = 0 ] && pktgen "$a" "$n" "$burst" && a_rest && snap s1 || rc=1
	to1=$(tx_timeouts)
	bql_floor "$a" 0 || rc=1
	ethtool -G "$a" tx "$tx" || rc=1
	[ $rc = 0 ] || return 1
	pk=$(d pkts) stop=$(d stop)
	diag "pktgen $n x 64 B, burst $burst on a 64-WQEBB ring: tx_packets +$pk, model +$(d mtx), queue stops +$stop, doorbells +$(d db), TX timeouts +$((to1 - to0))"
	[ "$pk" -ge "$n" ] && [ "$(d mtx)" -eq "$pk" ] && [ "$stop" -gt 0 ] &&
		[ "$to1" -eq "$to0" ]
}
ktap_check "pktgen bursts longer than a 64-WQEBB ring: each stop rings, every packet sent, no TX timeout" \
	long_burst
ktap_check "a single ping is answered (its doorbell is rung at once)" \
	ping -c 1 -W 5 "$B_IP"

# B's losses the stacks and the model count: UDP receive errors in B's
# namespace and the model's drops at B's port.
b_counted_drops() {
	echo $(( $(snmp_get "$NS" Udp InErrors) + $(snmp_get "$NS" Udp NoPorts) +
		 $(model_sum "$bdf_b" rx.drops.) ))
}

# The mixed stream: every TCP byte arrives (the receiver hashes it), every
# UDP datagram arrives intact or is counted dropped by B, and A's driver
# posted nothing that the model did not send.
mixed() {
	local out rc up=0 bdrop0 bdrop1 sent got lost

	modprobe 8021q || return 1
	ip link add link "$a" name "$a.7" type vlan id 7
	ip -n "$NS" link add link "$b" name "$b.7" type vlan id 7
	ip addr add 198.19.7.1/24 dev "$a.7"
	ip -n "$NS" addr add 198.19.7.2/24 dev "$b.7"
	ip link set "$a.7" up
	ip -n "$NS" link set "$b.7" up
	sleep 1
	snap s0 || return 1
	bdrop0=$(b_counted_drops)
	tx_pair s0 || return 1
	# The UDP receivers stop once the sender is done (the file STOP) and
	# nothing more comes for half a second: what the stacks dropped is
	# not waited for.
	rm -f "$VM_RESULTS/mixed-stop"
	ip netns exec "$NS" python3 - "$B_IP" 198.19.7.2 "$VM_RESULTS/mixed-stop" \
		>"$VM_RESULTS/mixed-rx.txt" 2>&1 <<'PY' &
import hashlib, os, socket, sys, threading, time
ip, vip, stop = sys.argv[1], sys.argv[2], sys.argv[3]
res = {}
def tcp(port):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((ip, port)); s.listen(1); s.settimeout(120)
    c, _ = s.accept(); c.settimeout(120); h = hashlib.sha256(); n = 0
    while True:
        b = c.recv(1 << 16)
        if not b: break
        h.update(b); n += len(b)
    res[port] = (n, h.hexdigest())
def udp(addr, port, count):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    s.bind((addr, port)); s.settimeout(0.5); got = set(); bad = 0
    end = time.monotonic() + 300
    while len(got) < count and time.monotonic() < end:
        try:
            b, _ = s.recvfrom(2048)
        except socket.timeout:
            if os.path.exists(stop): break
            continue
        i = int.from_bytes(b[:4], "big")
        if b != i.to_bytes(4, "big") * (len(b) // 4): bad += 1
        else: got.add(i)
    res[port] = (len(got), bad)
th = [threading.Thread(target=tcp, args=(p,)) for p in (5001, 5002)]
th += [threading.Thread(target=udp, args=(ip, 6001, 3000)),
       threading.Thread(target=udp, args=(ip, 6002, 1000)),
       threading.Thread(target=udp, args=(vip, 6003, 1000))]
for t in th: t.start()
for t in th: t.join()
for k in sorted(res): print(k, *res[k])
PY
	local rpid=$!
	servers_up "$NS" tcp:5001 tcp:5002 udp:6001 udp:6002 udp:6003 || up=1
	out=$(traffic 30 python3 - "$B_IP" 198.19.7.2 <<'PY'
import hashlib, os, socket, sys, tempfile, threading, time
ip, vip = sys.argv[1], sys.argv[2]
SO_NO_CHECK = 11
res = {}
blob = os.urandom(4 << 20)
def tcp_send():
    s = socket.create_connection((ip, 5001)); s.sendall(blob); s.close()
    res[5001] = (len(blob), hashlib.sha256(blob).hexdigest())
def tcp_sendfile():
    data = os.urandom(2 << 20)
    with tempfile.TemporaryFile() as f:
        f.write(data); f.flush()
        s = socket.create_connection((ip, 5002)); off = 0
        while off < len(data):
            off += os.sendfile(s.fileno(), f.fileno(), off, len(data) - off)
        s.close()
    res[5002] = (len(data), hashlib.sha256(data).hexdigest())
def udp(addr, port, count, nocsum):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if nocsum: s.setsockopt(socket.SOL_SOCKET, SO_NO_CHECK, 1)
    for i in range(count):
        s.sendto(i.to_bytes(4, "big") * 8, (addr, port))
        if i % 50 == 49: time.sleep(0.01)
    res[port] = (count, 0)
th = [threading.Thread(target=tcp_send), threading.Thread(target=tcp_sendfile),
      threading.Thread(target=udp, args=(ip, 6001, 3000, False)),
      threading.Thread(target=udp, args=(ip, 6002, 1000, True)),
      threading.Thread(target=udp, args=(vip, 6003, 1000, False))]
for t in th: t.start()
for t in th: t.join()
for k in sorted(res): print(k, *res[k])
PY
)
	rc=$?
	sleep 1
	: >"$VM_RESULTS/mixed-stop"
	traffic 0 wait "$rpid"
	sleep 1
	snap s1 || return 1
	tx_pair s1 || return 1
	# The driver counts a session when it posts it, the model when it
	# fetches it: a late packet (an ACK) may fall between the two reads.
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(d mmpw)" -eq "$(d blks)" ] && break
		sleep 0.5
		snap s1 || return 1
		tx_pair s1 || return 1
	done
	bdrop1=$(b_counted_drops)
	echo "$out" | sed 's/^/# sent: /'
	sed 's/^/# received: /' "$VM_RESULTS/mixed-rx.txt"
	diag "tx_packets +$(d dtx), model A tx +$(d mtx): tx_mpwqe_pkts +$(d mpkts) in tx_mpwqe_blks +$(d blks); TSO +$(d tso), csum none +$(d csn); model SEND +$(d msend), LSO +$(d mlso), ENHANCED_MPSW +$(d mmpw)"
	sent=$(echo "$out" | awk '$1 >= 6000 { s += $2 } END { print s + 0 }')
	got=$(awk '$1 >= 6000 && $3 == 0 { s += $2 } END { print s + 0 }' "$VM_RESULTS/mixed-rx.txt")
	lost=$((sent - got))
	diag "UDP: sent $sent, received intact $got, missing $lost; B counted dropped +$((bdrop1 - bdrop0)) (UDP InErrors, NoPorts, port drops)"
	cxsim report "$bdf_b" | grep '^rx\.drops\.' | sed 's/^/#   /'
	ip link del "$a.7"
	ip -n "$NS" link del "$b.7"
	[ $rc -eq 0 ] && [ $up -eq 0 ] && [ "$(d dtx)" -eq "$(d mtx)" ] &&
		[ "$(echo "$out" | grep '^500')" = "$(grep '^500' "$VM_RESULTS/mixed-rx.txt")" ] &&
		[ "$(awk '$1 >= 6000 { print $1 }' "$VM_RESULTS/mixed-rx.txt" | wc -l)" -eq 3 ] &&
		awk '$1 >= 6000 && $3 != 0 { exit 1 }' "$VM_RESULTS/mixed-rx.txt" &&
		[ "$lost" -le $((bdrop1 - bdrop0)) ] &&
		[ "$(d tso)" -gt 0 ] && [ "$(d mlso)" -gt 0 ] &&
		[ "$(d msend)" -gt 0 ] && [ "$(d csn)" -ge 1000 ] &&
		[ "$(d mmpw)" -eq "$(d blks)" ] &&
		[ "$(d blks)" -gt $(( ($(d mpkts) + 57) / 58 )) ]
}
ktap_check "mixed TSO, sendfile, VLAN, checksum on/off and small UDP: every byte arrives or is counted dropped, sessions close on each fallback" \
	mixed

mpwqe_off() {
	local n=1024

	ethtool --set-priv-flags "$a" skb_tx_mpwqe off || return 1
	wait_for 10 carrier "$a" 1
	a_rest || return 1
	snap s0 || return 1
	pktgen "$a" "$n" 32 || return 1
	a_rest || return 1
	snap s1 || return 1
	diag "skb_tx_mpwqe off: pktgen $n, tx_packets +$(d pkts), model SEND +$(d msend), ENHANCED_MPSW +$(d mmpw), tx_mpwqe_blks +$(d blks), tx_mpwqe_pkts +$(d mpkts)"
	[ "$(d pkts)" -ge "$n" ] && [ "$(d msend)" -eq "$(d pkts)" ] &&
		[ "$(d mmpw)" -eq 0 ] && [ "$(d blks)" -eq 0 ] && [ "$(d mpkts)" -eq 0 ]
}
ktap_check "skb_tx_mpwqe off: tx_mpwqe_* unchanged, one SEND WQE per packet" mpwqe_off

# at_rest P: snap P, plus B's driver and port counts (P_brx, P_mrx,
# P_mdrop), read again until two reads agree: a frame in flight between
# the reads of A and of B would count as sent in one and received in the
# next.
at_rest() {
	local p=$1 rep cur prev=

	for _ in $(seq 20); do
		snap "$p" || return 1
		eval "${p}_brx=$(ethtool_stat "$b" rx_packets "$NS")"
		rep=$(cxsim report "$bdf_b")
		eval "${p}_mrx=$(echo "$rep" | report_get rx.packets)"
		eval "${p}_mdrop=$(echo "$rep" | awk 'index($1, "rx.drops.") == 1 { s += $2 } END { print s + 0 }')"
		cur=$(eval echo "\$${p}_mtx \$${p}_pkts \$${p}_mrx \$${p}_mdrop \$${p}_brx")
		[ "$cur" = "$prev" ] && [ -n "$(eval echo "\$${p}_mrx\$${p}_brx")" ] &&
			return 0
		prev=$cur
		sleep 0.3
	done
	diag "counters still moving after 20 reads: $cur"
	return 1
}

# Toggled under pktgen: A's driver counted every packet it took; each
# one left the model's port A (or was dropped there and counted), and
# each that left reached B's driver or was counted dropped by B's port.
# A toggle reopens the channels: WQEs the device had not read when their
# SQ went to error are flushed unsent, as on hardware (the model counts
# the WQEs, not their packets: a session carries at most MAX_SESSION).
MAX_SESSION=64
toggles() {
	local i pg lost

	ethtool --set-priv-flags "$a" skb_tx_mpwqe on || return 1
	wait_for 10 carrier "$a" 1
	sleep 1
	at_rest s0 || return 1
	pktgen_setup "$a" 0 32
	pktgen_start until_stopped &
	pg=$!
	for i in $(seq "$TOGGLES"); do
		ethtool --set-priv-flags "$a" skb_tx_mpwqe off || { diag "toggle $i off failed"; break; }
		ethtool --set-priv-flags "$a" skb_tx_mpwqe on || { diag "toggle $i on failed"; break; }
	done
	pktgen_ctl stop
	traffic 0 wait "$pg"
	at_rest s1 || return 1
	lost=$(( $(d pkts) - $(d mtx) - $(d mlink) ))
	diag "$TOGGLES toggles ($i done) under pktgen: A tx_packets +$(d pkts), model A tx +$(d mtx), link-down drops +$(d mlink), flushed WQEs +$(d mflush) (packets unsent in them: $lost)"
	diag "B: model rx +$(d mrx), port drops +$(d mdrop), driver rx_packets +$(d brx); sessions +$(d blks) ($(d mpkts) packets)"
	[ "$i" -eq "$TOGGLES" ] && [ "$(d pkts)" -gt 0 ] &&
		[ "$lost" -ge 0 ] && [ "$lost" -le $(( $(d mflush) * MAX_SESSION )) ] &&
		[ "$(d mtx)" -eq $(( $(d mrx) + $(d mdrop) )) ] &&
		[ "$(d brx)" -eq "$(d mrx)" ]
}
ktap_check "skb_tx_mpwqe toggled $TOGGLES times under pktgen: every packet counted sent is received, counted dropped or in a flushed WQE" \
	toggles
ktap_check "skb_tx_mpwqe is on after the toggles, traffic flows" \
	bash -c "ethtool --show-priv-flags $a | grep -Eq 'skb_tx_mpwqe *: on' && ping -c 2 -W 5 $B_IP >/dev/null"

# tx_nop counts NOP WQEs, as upstream, not runs of them: pktgen packets of
# 6 page fragments take 3 WQEBBs each (no MPWQE for them), so a 128-WQEBB
# ring ends on a run of 2 NOPs each time round; the model counts each NOP
# it fetches.
nops() {
	local ring n0 n1 m0 m1 rc=0

	ring=$(ethtool -g "$a" | awk '/^TX:/ { n++; if (n == 2) print $2 }')
	ethtool -G "$a" tx 128 || return 1
	wait_for 10 carrier "$a" 1
	pktgen_setup "$a" 1000 1 1000 && echo "frags 6" >"/proc/net/pktgen/$a" ||
		rc=1
	a_rest || rc=1
	n0=$(ethtool_stat "$a" tx_nop)
	m0=$(model_get "$bdf_a" wqe.NOP)
	[ $rc -eq 0 ] && { pktgen_start || rc=1; }
	a_rest || rc=1
	n1=$(ethtool_stat "$a" tx_nop)
	m1=$(model_get "$bdf_a" wqe.NOP)
	ethtool -G "$a" tx "${ring:-1024}"
	wait_for 10 carrier "$a" 1
	diag "pktgen 1000 x 1000 bytes in 6 fragments, TX ring 128: tx_nop +$((n1 - n0)), model wqe.NOP +$((m1 - m0)) (TX ring back to ${ring:-1024})"
	[ $rc -eq 0 ] && [ $((m1 - m0)) -gt 0 ] && [ $((n1 - n0)) -eq $((m1 - m0)) ]
}
ktap_check "tx_nop counts each NOP WQE the model fetched (ring-end padding)" nops

no_complaints "no error or warning in dmesg"

pair_down
ktap_check "rmmod" unload_mlx5
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
