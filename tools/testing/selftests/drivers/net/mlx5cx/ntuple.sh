#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ethtool ntuple steering (ethtool -N/-U, -n), port B in its netns as the
# sender of raw frames (a packet socket: any EtherType, protocol, address
# and port), port A steering them:
# - 20 rules of each flow type (tcp4, udp4, ip4, tcp6, udp6, ip6, ether),
#   each flow to a named queue (flow i to queue i % NQ): per flow type,
#   every frame lands on its queue, counted by A's rxN_packets exactly;
# - ethtool -n lists exactly the rules added, one rule's fields as given;
#   the model holds one entry per rule (with our driver: in one table more,
#   one flow group per mask);
# - action -1 drops: no queue sees the frames, the port counted them
#   (eth-mac FramesReceivedOK, as upstream) and the model's steering
#   dropped them;
# - after ethtool -L combined grows the channels the rules still steer; a
#   shrink below a queue in use is refused (the kernel's check);
# - rules survive ifdown/ifup; add/delete cycles of rules of changing
#   masks leave the model's tables, groups and entries where they were;
# - bad rules (a queue out of range, SCTP, TOS, VLAN, a location beyond
#   the table) are refused, with our driver saying why in the kernel log;
# - rmmod with rules in place leaves the model nothing.
# distro_ntuple.sh runs it on the distribution's mlx5_core (DRIVER=distro):
# the model agrees with the driver written for the hardware.
# vm-args: --smp 4

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

DRIVER=${DRIVER:-ours}
CYCLES=${CYCLES:-1000}
REPS=3			# frames per flow
NQ=3			# the rules' queues: 0 .. NQ - 1
TYPES="tcp4 udp4 ip4 tcp6 udp6 ip6 ether"
# The frames' addresses: none A's own, so that A's stack answers nothing.
S4=198.18.2.2
D4=198.18.2.1
S6=fd00:19::2
D6=fd00:19::1

ktap_header 31

driver_pair_up
mac_a=$(cat "/sys/class/net/$a/address")
ethtool -k "$a" | grep ntuple | sed 's/^/# /'

ktap_check "$NQ channels on $a" ethtool -L "$a" combined $NQ

# nfc ARGS...: ethtool -N $a ARGS, failing when the kernel refused (ethtool
# 6.1 says so but exits 0).
nfc() {
	local out

	out=$(ethtool -N "$a" "$@" 2>&1) || { printf '%s\n' "$out" >&2; return 1; }
	[ -z "$out" ] || printf '%s\n' "$out" >&2
	! grep -q 'Cannot' <<<"$out"
}

# rule_args TYPE I: ethtool -N's words for flow I of TYPE (no action).
rule_args() {
	local t=$1 i=$2

	case $t in
	tcp4 | udp4)
		echo "flow-type $t src-ip $S4 dst-ip $D4 src-port $((10000 + i)) dst-port $((20000 + i))" ;;
	ip4)	echo "flow-type ip4 src-ip $S4 dst-ip 198.18.3.$((i + 1)) l4proto 253" ;;
	tcp6 | udp6)
		echo "flow-type $t src-ip $S6 dst-ip $D6 src-port $((10000 + i)) dst-port $((20000 + i))" ;;
	ip6)	printf 'flow-type ip6 src-ip %s dst-ip fd00:19::1:%x l4proto 253\n' "$S6" $((i + 1)) ;;
	ether)	printf 'flow-type ether src 02:00:00:00:01:%02x proto 0x88b5\n' "$i" ;;
	esac
}

type_ix() {
	local t n=0

	for t in $TYPES; do
		[ "$t" = "$1" ] && echo $n && return
		n=$((n + 1))
	done
}

# rxnfc add | del | cycles N: SIOCETHTOOL from one program (an ethtool
# run costs a tenth of a second in the guest). add: the 140 rules, flow i
# of the type numbered t (in $TYPES' order) at location 20 * t + i, to
# queue i % NQ, the rules rule_args says; del: delete them; cycles N: N
# times a rule at location 600 added and deleted, its flow type and mask
# changing every time (udp4 source port, ip6 destination, ether
# destination MAC and drop).
rxnfc() {
	python3 -S - "$a" "$NQ" "$@" <<'EOF'
import ctypes, fcntl, socket, struct, sys
dev, nq, mode = sys.argv[1].encode(), int(sys.argv[2]), sys.argv[3]
SIOCETHTOOL, INS, DEL = 0x8946, 0x32, 0x31
TCP4, UDP4, TCP6, UDP6, IP4, IP6, ETHER = 0x01, 0x02, 0x05, 0x06, 0x0d, 0x0e, 0x12
DISC = (1 << 64) - 1
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
def nfc(cmd, loc, flow_type=0, h=b"", m=b"", ring=0):
    # struct ethtool_rxnfc: cmd, flow_type, data, then the flow spec:
    # flow_type, h_u[52], h_ext[20], m_u[52], m_ext[20], ring_cookie, location
    fs = struct.pack("=I52s20s52s20s4xQI4x", flow_type, h, b"", m, b"", ring, loc)
    buf = ctypes.create_string_buffer(struct.pack("=IIQ", cmd, flow_type, 0) + fs + bytes(8))
    fcntl.ioctl(s, SIOCETHTOOL, struct.pack("16sP", dev, ctypes.addressof(buf)))
a4 = lambda x: socket.inet_aton(x)
a6 = lambda x: socket.inet_pton(socket.AF_INET6, x)
F4, F6 = b"\xff" * 4, b"\xff" * 16
def rule(t, i):
    if t in ("tcp4", "udp4"):
        h = struct.pack("!4s4sHH", a4("198.18.2.2"), a4("198.18.2.1"), 10000 + i, 20000 + i)
        return (TCP4 if t == "tcp4" else UDP4), h, struct.pack("!4s4sHH", F4, F4, 0xffff, 0xffff)
    if t == "ip4":   # ip_ver ETH_RX_NFC_IP4, proto 253
        h = struct.pack("!4s4s4sBBB", a4("198.18.2.2"), a4("198.18.3.%d" % (i + 1)), bytes(4), 0, 1, 253)
        return IP4, h, struct.pack("!4s4s4sBBB", F4, F4, bytes(4), 0, 0, 0xff)
    if t in ("tcp6", "udp6"):
        h = struct.pack("!16s16sHH", a6("fd00:19::2"), a6("fd00:19::1"), 10000 + i, 20000 + i)
        return (TCP6 if t == "tcp6" else UDP6), h, struct.pack("!16s16sHH", F6, F6, 0xffff, 0xffff)
    if t == "ip6":
        h = struct.pack("!16s16s4sBB", a6("fd00:19::2"), a6("fd00:19::1:%x" % (i + 1)), bytes(4), 0, 253)
        return IP6, h, struct.pack("!16s16s4sBB", F6, F6, bytes(4), 0, 0xff)
    h = struct.pack("!6s6sH", bytes(6), bytes.fromhex("0200000001%02x" % i), 0x88b5)
    return ETHER, h, struct.pack("!6s6sH", bytes(6), b"\xff" * 6, 0xffff)
types = "tcp4 udp4 ip4 tcp6 udp6 ip6 ether".split()
if mode in ("add", "del"):
    for ti, t in enumerate(types):
        for i in range(20):
            if mode == "add":
                ft, h, m = rule(t, i)
                nfc(INS, ti * 20 + i, ft, h, m, i % nq)
            else:
                nfc(DEL, ti * 20 + i)
elif mode == "masks":
    # UDP/IPv4 rules at 700.., rule k matching destination port 0 under
    # mask k (each mask its own), to queue 0, until one is refused.
    n = 0
    for k in range(1, int(sys.argv[4]) + 1):
        try:
            nfc(INS, 699 + k, UDP4, bytes(12), struct.pack("!8xH", k), 0)
        except OSError as e:
            print("added %d, rule %d refused: errno %d" % (n, k, e.errno))
            break
        n += 1
    else:
        print("added %d" % n)
elif mode == "delmasks":
    for k in range(1, int(sys.argv[4]) + 1):
        nfc(DEL, 699 + k)
else:
    for n in range(int(sys.argv[4])):
        k = n % 3
        if k == 0:
            nfc(INS, 600, UDP4, struct.pack("!8xH", n), struct.pack("!8xH", 0xffff), 1)
        elif k == 1:
            nfc(INS, 600, IP6, bytes(16) + a6("fd00:20::%x" % n), bytes(16) + F6, 2)
        else:
            nfc(INS, 600, ETHER, bytes.fromhex("020000000301"), b"\xff" * 6, DISC)
        nfc(DEL, 600)
EOF
}

# send TYPE FIRST COUNT [DPORT]: from B, $REPS frames of each flow FIRST ..
# FIRST + COUNT - 1 of TYPE (with DPORT: UDP/IPv4 to that port instead).
send() {
	ip netns exec "$NS" python3 -S - "$b" "$mac_a" "$REPS" "$@" <<'EOF'
import socket, struct, sys
dev, amac, reps, kind, first, count = sys.argv[1:7]
dport_fixed = int(sys.argv[7]) if len(sys.argv) > 7 else None
amac = bytes.fromhex(amac.replace(":", ""))
bmac = bytes.fromhex("020000000201")
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
def ip4(src, dst, proto, l4):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64, proto, 0,
                    socket.inet_aton(src), socket.inet_aton(dst))
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return 0x0800, h + l4
def ip6(src, dst, nh, l4):
    h = struct.pack("!IHBB16s16s", 6 << 28, len(l4), nh, 64,
                    socket.inet_pton(socket.AF_INET6, src),
                    socket.inet_pton(socket.AF_INET6, dst))
    return 0x86dd, h + l4
def l4(tcp, sp, dp):
    if tcp:
        return struct.pack("!HHIIBBHHH", sp, dp, 1, 0, 5 << 4, 0x10, 512, 0, 0) + b"x" * 18
    return struct.pack("!HHHH", sp, dp, 8 + 18, 0) + b"x" * 18
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
for i in range(int(first), int(first) + int(count)):
    src = bmac
    if kind in ("tcp4", "udp4"):
        dp = dport_fixed if dport_fixed else 20000 + i
        et, p = ip4("198.18.2.2", "198.18.2.1", 6 if kind == "tcp4" else 17,
                    l4(kind == "tcp4", 10000 + i, dp))
    elif kind == "ip4":
        et, p = ip4("198.18.2.2", "198.18.3.%d" % (i + 1), 253, b"y" * 30)
    elif kind in ("tcp6", "udp6"):
        et, p = ip6("fd00:19::2", "fd00:19::1", 6 if kind == "tcp6" else 17,
                    l4(kind == "tcp6", 10000 + i, 20000 + i))
    elif kind == "ip6":
        et, p = ip6("fd00:19::2", "fd00:19::1:%x" % (i + 1), 253, b"y" * 30)
    else:
        et, p = 0x88b5, b"z" * 46
        src = bytes.fromhex("0200000001%02x" % i)
    frame = amac + src + struct.pack("!H", et) + p
    for r in range(int(reps)):
        s.send(frame)
EOF
}

# lands TYPE: TYPE's 20 flows sent, each queue's rxN_packets grew by the
# frames of the flows steered to it, no other queue by any.
lands() {
	local t=$1 before after q want got ok=0

	before=$(rxq_stats "$a") || return 1
	traffic 0 send "$t" 0 20 || return 1
	# All arrived (or 10 s passed), then a last look for strays.
	wait_for 10 rxq_arrived "$a" "$before" $((20 * REPS))
	sleep 0.3
	after=$(rxq_stats "$a") || return 1
	for ((q = 0; q < 8; q++)); do
		want=0
		if ((q < NQ)); then
			want=$(( (20 / NQ + (q < 20 % NQ ? 1 : 0)) * REPS ))
		fi
		got=$(($(rxq_get $q "$after") - $(rxq_get $q "$before")))
		if [ "$got" != "$want" ]; then
			diag "$t: queue $q received $got, expected $want"
			ok=1
		fi
	done
	return $ok
}

# listed N: ethtool -n lists N rules, at locations 0 .. N - 1.
listed() {
	local out locs

	out=$(ethtool -n "$a") || return 1
	locs=$(sed -n 's/^Filter: \([0-9]*\)$/\1/p' <<<"$out" | tr '\n' ' ')
	if ! grep -q "^Total $1 rules" <<<"$out" || [ "$locs" != "$(seq -s ' ' 0 $(($1 - 1))) " ]; then
		diag "ethtool -n: $(grep '^Total' <<<"$out"), locations: $locs"
		return 1
	fi
}

# fs_objs: the model's flow tables, groups and entries of A; nothing
# without the test port (real hardware).
fs_objs() {
	local rep

	[ "$MLX5CX_TESTPORT" = yes ] || return 0
	rep=$(cxsim report "$bdf_a") || return 1
	echo "$(report_get obj.ft <<<"$rep") $(report_get obj.fg <<<"$rep") $(report_get obj.fte <<<"$rep")"
}

objs0=$(fs_objs)
diag "model, $a: flow tables, groups, entries before the rules: $objs0"
dmesg_mark ntuple-add
ktap_check "140 rules added (20 each of $TYPES)" rxnfc add
ktap_check "ethtool -n lists the 140 rules at their locations" listed 140
rule_shows() {
	local out

	out=$(ethtool -n "$a" rule 23) || return 1
	if grep -q "UDP over IPv4" <<<"$out" &&
	   grep -q "Dest port: 20003" <<<"$out" &&
	   grep -q "Src IP addr: $S4" <<<"$out" &&
	   grep -q "Action: Direct to queue 0" <<<"$out"; then
		return 0
	fi
	printf '%s\n' "$out" | sed 's/^/# /'
	return 1
}
ktap_check "ethtool -n rule 23: its type, fields and queue" rule_shows

objs1=$(fs_objs)
diag "model: flow tables, groups, entries with the rules: $objs1"
read -r ft0 fg0 fte0 <<<"$objs0"
read -r ft1 fg1 fte1 <<<"$objs1"
if [ "$MLX5CX_TESTPORT" != yes ]; then
	ktap_skip "the model holds the rules' entries" "$TESTPORT_NEEDED"
elif [ "$DRIVER" = distro ]; then
	ktap_check "the model holds 140 entries more (driver's tables: $((ft1 - ft0)) more, groups $((fg1 - fg0)) more)" \
		test "$((fte1 - fte0))" = 140
else
	ktap_check "the model holds one table, 7 groups (one per mask) and 140 entries more" \
		test "$((ft1 - ft0)) $((fg1 - fg0)) $((fte1 - fte0))" = "1 7 140"
fi

for t in $TYPES; do
	ktap_check "$t: each of 20 flows lands on its queue" lands "$t"
done

# action -1: the frames arrive at the port, steering drops them.
drops() {
	local before after m0 m1 f0 f1 got

	before=$(settled 30 rxq_stats "$a") || return 1
	m0=0 m1=0
	[ "$MLX5CX_TESTPORT" != yes ] || m0=$(model_get "$bdf_a" rx.drops.steering)
	f0=$(ethtool -S "$a" --groups eth-mac | awk '$1 == "eth-mac-FramesReceivedOK:" { print $2 }')
	traffic 0 send udp4 0 20 9999 || return 1
	after=$(settled 30 rxq_stats "$a") || return 1
	[ "$MLX5CX_TESTPORT" != yes ] || m1=$(model_get "$bdf_a" rx.drops.steering)
	f1=$(ethtool -S "$a" --groups eth-mac | awk '$1 == "eth-mac-FramesReceivedOK:" { print $2 }')
	got=$(($(awk '{ s += $2 } END { print s + 0 }' <<<"$after") -
	       $(awk '{ s += $2 } END { print s + 0 }' <<<"$before")))
	diag "dropped: queues received $got, the port $((f1 - f0)), the model dropped $((m1 - m0)) in steering"
	[ "$got" = 0 ] && [ "$((f1 - f0))" = $((20 * REPS)) ] &&
		{ [ "$MLX5CX_TESTPORT" != yes ] || [ "$((m1 - m0))" = $((20 * REPS)) ]; }
}
nfc flow-type udp4 dst-port 9999 action -1 loc 300
ktap_check "action -1: the frames reach the port, no queue (dropped by steering)" drops
nfc delete 300

ktap_check "ethtool -L combined 4 with the rules in place" ethtool -L "$a" combined 4
ktap_check "after the channel change: ether flows land on their queues" lands ether
ktap_check "after the channel change: udp6 flows land on their queues" lands udp6
ktap_check "ethtool -L combined 2 refused: rules use queue 2" \
	bash -c "! ethtool -L $a combined 2 2>/dev/null"

updown() {
	ip link set "$a" down && ip link set "$a" up &&
		wait_for 15 carrier "$a" 1
}
ktap_check "ifdown/ifup with the rules" updown
listed_lands() { listed 140 && lands "$1"; }
ktap_check "after ifdown/ifup: 140 rules listed, ip4 flows land on their queues" \
	listed_lands ip4

# Cycles of one rule at location 600 whose mask changes every time (a
# new group each time with our driver), added and deleted.
cycles() { rxnfc cycles "$CYCLES"; }
objs2=$(fs_objs)
ktap_check "$CYCLES add/delete cycles of a rule of changing masks" cycles
objs3=$(fs_objs)
if [ "$MLX5CX_TESTPORT" = yes ]; then
	ktap_check "after the cycles the model's tables, groups, entries are as before ($objs3)" \
		test "$objs3" = "$objs2"
else
	ktap_skip "after the cycles the model's tables, groups, entries are as before" "$TESTPORT_NEEDED"
fi

# bad RULE... MESSAGE: refused, and (our driver) MESSAGE in the log.
refused() {
	local msg=$1

	shift
	dmesg_mark "ntuple-bad-$*"
	if nfc "$@" 2>/dev/null || ! listed 140; then
		diag "accepted: $*"
		nfc delete 500 2>/dev/null
		return 1
	fi
	[ "$DRIVER" = distro ] && return 0
	dmesg_since "ntuple-bad-$*" | grep -q "$msg" ||
		{ diag "no \"$msg\" in the log after: $*"; return 1; }
}
bad_rules() {
	local rc=0

	refused "queue 9, there are 4" flow-type udp4 dst-port 5 action 9 loc 500 || rc=1
	refused "flow type 0x3 is not supported" flow-type sctp4 dst-port 5 action 0 loc 500 || rc=1
	refused "TOS/traffic class" flow-type tcp4 tos 0x10 action 0 loc 500 || rc=1
	# Upstream matches the VLAN ID; we do not (yet).
	if [ "$DRIVER" = distro ]; then
		{ nfc flow-type udp4 dst-port 5 vlan 7 m 0xf000 action 0 loc 500 &&
			nfc delete 500; } || rc=1
	else
		refused "VLAN and user-defined" flow-type udp4 dst-port 5 vlan 7 m 0xf000 action 0 loc 500 || rc=1
	fi
	refused "location 2000, the table has 1024" flow-type udp4 dst-port 5 action 0 loc 2000 || rc=1
	return $rc
}
ktap_check "bad rules refused (queue, SCTP, TOS, VLAN, location), each saying why (the distribution's: matches VLANs)" bad_rules
ktap_check "after the bad rules: 140 rules listed, tcp6 flows land on their queues" \
	listed_lands tcp6

delete_all() {
	rxnfc del || return 1
	[ "$(fs_objs)" = "$objs0" ] || { diag "model: $(fs_objs), before the rules $objs0"; return 1; }
	ethtool -n "$a" | grep -q '^Total 0 rules'
}
ktap_check "every rule deleted: none listed, the model's tables as before the rules" delete_all

# Rules added while the netdev is down are installed at the next open:
# one that would find no free flow group there (a group per distinct
# mask, MLX5E_ETHTOOL_MAX_GROUPS of them) is refused when added, not
# dropped at the open.
masks_down() {
	local out rc=0

	dmesg_mark ntuple-masks
	ip link set "$a" down
	out=$(rxnfc masks 33)
	ip link set "$a" up
	wait_for 15 carrier "$a" 1 || rc=1
	diag "33 rules of distinct masks while down: $out; after ifup $(ethtool -n "$a" | grep '^Total')"
	[ "$out" = "added 32, rule 33 refused: errno 28" ] || rc=1
	dmesg_since ntuple-masks | grep -q 'all 32 flow groups would be in use' ||
		{ diag "no message for the refused rule"; rc=1; }
	! dmesg_since ntuple-masks | grep -q 'dropped' ||
		{ diag "a rule was dropped at the open: $(dmesg_since ntuple-masks | grep dropped)"; rc=1; }
	[ "$(ethtool -n "$a" | sed -n 's/^Total \([0-9]*\) rules.*/\1/p')" = 32 ] || rc=1
	rxnfc delmasks 32 || rc=1
	[ "$(fs_objs)" = "$objs0" ] || { diag "model: $(fs_objs), before the rules $objs0"; rc=1; }
	return $rc
}
if [ "$DRIVER" = distro ]; then
	ktap_skip "rules added while down: the 33rd distinct mask refused when added, none dropped at ifup" \
		"the distribution driver's groups are its flow steering core's"
else
	ktap_check "rules added while down: the 33rd distinct mask refused when added, none dropped at ifup" \
		masks_down
fi

seven_rules() {
	local t ti

	for t in $TYPES; do
		ti=$(type_ix "$t")
		# shellcheck disable=SC2046 # the rule's words
		nfc $(rule_args "$t" 5) action 1 loc $((ti * 20 + 5)) || return 1
	done
}
ktap_check "one rule of each type added again" seven_rules

# An open whose flow tables fail at the last step (the root refused
# once): everything it created is gone again, entries first (the device
# refuses a group or table that still has entries), the rules kept for
# the next open, which works.
root_refused() {
	local before after rc=0

	ip link set "$a" down
	before=$(fs_objs)
	dmesg_mark ntuple-root
	cxsim fault "$bdf_a" SET_FLOW_TABLE_ROOT 1 || return 1
	if ip link set "$a" up 2>/dev/null; then
		diag "ifup succeeded with SET_FLOW_TABLE_ROOT refused"
		rc=1
	fi
	cxsim clear "$bdf_a"
	after=$(fs_objs)
	diag "A down: flow tables, groups, entries $before; after the refused open $after"
	dmesg_since ntuple-root | grep -E 'mlx5' | head -n 4 | sed 's/^/# /'
	[ "$after" = "$before" ] || rc=1
	ip link set "$a" up && wait_for 15 carrier "$a" 1 || rc=1
	[ "$(ethtool -n "$a" | sed -n 's/^Total \([0-9]*\) rules.*/\1/p')" = 7 ] ||
		{ diag "ethtool -n after: $(ethtool -n "$a" | grep '^Total')"; rc=1; }
	return $rc
}
if [ "$DRIVER" = distro ]; then
	ktap_skip "an open with the flow table root refused leaves no flow object; the next open installs the rules" \
		"the distribution driver makes its flow tables at probe"
elif [ "$MLX5CX_TESTPORT" != yes ]; then
	ktap_skip "an open with the flow table root refused leaves no flow object; the next open installs the rules" \
		"$TESTPORT_NEEDED"
else
	ktap_check "an open with the flow table root refused leaves no flow object; the next open installs the rules" \
		root_refused
fi
pair_down
rmmod mlx5_core
ktap_check "rmmod with the rules installed: the model holds nothing" all_clean
no_complaints "no mlx5 error or warning but the refused rules' and the refused root's" \
	'ethtool rule' 'flow is not valid' 'failed to add ethtool steering rule' \
	'SET_FLOW_TABLE_ROOT'
ktap_finish
