#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extra RSS contexts (ethtool -X DEV context new|N, ethtool -N ... context
# N), port B in its netns sending raw UDP and TCP frames of 32 flows each
# (source ports apart) to port A, whose main indirection table spreads
# over queues 0 and 1 only; each check counts A's rxN_packets per queue:
# - two contexts, one over queues 2 and 3, one over 4 and 5: the model
#   holds an RQT and 7 TIRs more for each; a udp4 rule with the first
#   context puts every frame of its flows on queues 2 and 3 (both used),
#   a tcp4 rule with the second on 4 and 5, no frame elsewhere; flows no
#   rule takes stay on 0 and 1;
# - a context in use by a rule cannot be deleted (saying why); a new
#   indirection table of a context (queue 3 only) takes effect at once; a
#   context's own key is kept (ethtool -x context N);
# - a context's hashed fields (ethtool -N rx-flow-hash tcp4 d context N)
#   are its own: its flows then on one queue, the main context's spread;
#   the main context's likewise; sctp4 or an L2 field refused;
# - the contexts persist over ifdown/ifup and a channel change (their
#   RQTs follow the new channels); a channel count below a queue a
#   context uses is refused (the kernel's check);
# - a context and its rule made while the netdev is down steer after ifup;
# - rules and contexts deleted: the model's RQTs and TIRs are as before;
#   rmmod with a context in place leaves the model nothing.
# vm-args: --smp 8

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

REPS=2			# frames per flow
FLOWS=32
NQ=8			# queues looked at: 0 .. NQ - 1
D4=198.18.2.1		# not A's own address: A's stack answers nothing

ktap_header 25

ours_pair_up
mac_a=$(cat "/sys/class/net/$a/address")

# ethtool_ok ARGS...: ethtool ARGS, failing when the kernel refused
# (ethtool 6.1 says "Cannot ..." but may exit 0); its output on stdout.
ethtool_ok() {
	local out

	out=$(ethtool "$@" 2>&1)
	local rc=$?
	printf '%s\n' "$out"
	[ $rc = 0 ] && ! grep -q 'Cannot' <<<"$out"
}

# send KIND DPORT: from B, $REPS frames of each of $FLOWS flows of KIND
# (udp4, tcp4) to D4:DPORT, flow i from 198.18.(2 + i).(2 + 5 i) port
# 10000 + 1553 i.  Which queue of a table a flow lands on is a bit of its
# Toeplitz hash: over flows that differ in few bits (the low 5 of the
# source port, as once here) it depends on as few bits of the key, and 1
# random key in 32 (the default key is random) put all on one queue.
# These flows differ in 21 dimensions: about 1 key in 2 million.
send() {
	ip netns exec "$NS" python3 -S - "$b" "$mac_a" "$REPS" "$FLOWS" "$@" <<'EOF'
import socket, struct, sys
dev, amac, reps, flows, kind, dport = sys.argv[1:7]
amac = bytes.fromhex(amac.replace(":", ""))
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
proto = 6 if kind == "tcp4" else 17
for i in range(int(flows)):
    if proto == 6:
        l4 = struct.pack("!HHIIBBHHH", 10000 + 1553 * i, int(dport), 1, 0, 5 << 4, 0x10, 512, 0, 0) + b"x" * 18
    else:
        l4 = struct.pack("!HHHH", 10000 + 1553 * i, int(dport), 8 + 18, 0) + b"x" * 18
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64, proto, 0,
                    socket.inet_aton("198.18.%d.%d" % (2 + i, 2 + 5 * i)),
                    socket.inet_aton("198.18.2.1"))
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    frame = amac + bytes.fromhex("020000000201") + b"\x08\x00" + h + l4
    for r in range(int(reps)):
        s.send(frame)
EOF
}

# lands KIND DPORT Q...: the frames of KIND's flows to DPORT all land on
# queues Q..., each of them some, no other queue any.  With ONE=1: all
# on one of Q... (a hash without the ports).
lands() {
	local kind=$1 dport=$2 before after q got n=0 total=$((FLOWS * REPS))
	local ok=0 counts="" used=0

	shift 2
	before=$(rxq_stats "$a") || return 1
	traffic 0 send "$kind" "$dport" || return 1
	wait_for 10 rxq_arrived "$a" "$before" "$total"
	sleep 0.3
	after=$(rxq_stats "$a") || return 1
	for ((q = 0; q < NQ; q++)); do
		got=$(($(rxq_get $q "$after") - $(rxq_get $q "$before")))
		counts+=" $got"
		if [[ " $* " == *" $q "* ]]; then
			n=$((n + got))
			[ "$got" = 0 ] || used=$((used + 1))
			[ "$got" -gt 0 ] || [ "${ONE:-}" = 1 ] || ok=1
		elif [ "$got" != 0 ]; then
			ok=1
		fi
	done
	[ "$n" = "$total" ] || ok=1
	[ "${ONE:-}" != 1 ] || [ $used = 1 ] || ok=1
	[ $ok = 0 ] || diag "$kind to port $dport: queues 0..$((NQ - 1)) received$counts, expected $total on ${ONE:+one of }$* only"
	return $ok
}

# objs: the model's RQTs and TIRs of A ("" without the test port).
objs() {
	local rep

	[ "$MLX5CX_TESTPORT" = yes ] || return 0
	rep=$(cxsim report "$bdf_a") || return 1
	echo "$(report_get obj.rqt <<<"$rep") $(report_get obj.tir <<<"$rep")"
}

# new_ctx ARGS...: ethtool -X A context new ARGS; the new id on stdout.
new_ctx() {
	local out

	out=$(ethtool_ok -X "$a" context new "$@") || { diag "$out"; return 1; }
	sed -n 's/^New RSS context is \([0-9]*\)$/\1/p' <<<"$out"
}

# indir_of CTX: the queues context CTX's table names, sorted, unique.
indir_of() {
	ethtool -x "$a" context "$1" |
		awk '/^ *[0-9]+:/ { for (i = 2; i <= NF; i++) print $i }' | sort -un | tr '\n' ' '
}

setup() {
	ethtool_ok -L "$a" combined 6 >/dev/null &&
		ethtool_ok -X "$a" equal 2 >/dev/null
}
ktap_check "6 channels on $a, the main indirection table over queues 0 and 1" setup

objs0=$(objs)
C1=$(new_ctx weight 0 0 1 1)
C2=$(new_ctx weight 0 0 0 0 1 1)
made() {
	diag "contexts $C1 and $C2; tables: $C1: $(indir_of "$C1"), $C2: $(indir_of "$C2")"
	[ -n "$C1" ] && [ -n "$C2" ] && [ "$(indir_of "$C1")" = "2 3 " ] &&
		[ "$(indir_of "$C2")" = "4 5 " ]
}
ktap_check "two contexts created, over queues 2-3 and 4-5 (ethtool -x context N)" made
if [ "$MLX5CX_TESTPORT" = yes ]; then
	read -r rqt0 tir0 <<<"$objs0"
	read -r rqt1 tir1 <<<"$(objs)"
	ktap_check "the model holds 2 RQTs and 14 TIRs more (RQT, TIR: $objs0 -> $rqt1 $tir1)" \
		test "$((rqt1 - rqt0)) $((tir1 - tir0))" = "2 14"
else
	ktap_skip "the model holds 2 RQTs and 14 TIRs more" "$TESTPORT_NEEDED"
fi

rules() {
	ethtool_ok -N "$a" flow-type udp4 dst-ip $D4 dst-port 7001 context "$C1" loc 1 >/dev/null &&
		ethtool_ok -N "$a" flow-type tcp4 dst-ip $D4 dst-port 7002 context "$C2" loc 2 >/dev/null &&
		ethtool -n "$a" rule 1 | grep -q "RSS Context ID: $C1"
}
ktap_check "rules: udp4 port 7001 to context $C1, tcp4 port 7002 to context $C2" rules
ktap_check "udp4 flows of the rule with context $C1 land on queues 2 and 3 only" lands udp4 7001 2 3
ktap_check "tcp4 flows of the rule with context $C2 land on queues 4 and 5 only" lands tcp4 7002 4 5
ktap_check "flows no rule takes land on queues 0 and 1 only" lands udp4 7003 0 1

del_refused() {
	local out

	dmesg_mark rss-del
	if out=$(ethtool_ok -X "$a" context "$C1" delete); then
		diag "context $C1 deleted though rule 1 steers to it"
		return 1
	fi
	dmesg_since rss-del | grep -q "RSS context $C1: ethtool rule 1 steers to it" ||
		{ diag "no message: $out"; return 1; }
	[ "$(indir_of "$C1")" = "2 3 " ]
}
ktap_check "deleting context $C1 refused while rule 1 steers to it, saying why" del_refused

modify() {
	ethtool_ok -X "$a" context "$C1" weight 0 0 0 1 >/dev/null &&
		[ "$(indir_of "$C1")" = "3 " ] && lands udp4 7001 3
}
ktap_check "a new table for context $C1 (queue 3 only): its flows land on queue 3" modify

KEY=6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:ae:7b:30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa
key_kept() {
	local k

	ethtool_ok -X "$a" context "$C2" hkey "$KEY" >/dev/null || return 1
	k=$(ethtool -x "$a" context "$C2" | sed -n '/RSS hash key:/{n;p}')
	[ "$k" = "$KEY" ] || { diag "context $C2's key: $k"; return 1; }
	[ "$(ethtool -x "$a" | sed -n '/RSS hash key:/{n;p}')" != "$KEY" ] &&
		lands tcp4 7002 4 5
}
ktap_check "context $C2 with its own key (the main one unchanged): its flows still on 4 and 5" key_kept

# hashed CTX TYPE: the fields rx-flow-hash TYPE [context CTX] lists, on
# a line ("IP SA IP DA L4 bytes 0 & 1 [TCP/UDP src port] ...").  CTX 0:
# the main context.
hashed() {
	local ctx=()

	[ "$1" = 0 ] || ctx=(context "$1")
	ethtool -n "$a" rx-flow-hash "$2" "${ctx[@]}" |
		awk 'p && NF { printf "%s ", $0 } /Hash flow key/ { p = 1 }'
}

hash_ctx() {
	ethtool_ok -N "$a" rx-flow-hash tcp4 d context "$C2" >/dev/null || return 1
	[ "$(hashed "$C2" tcp4)" = "IP DA " ] ||
		{ diag "context $C2 tcp4 hashes: $(hashed "$C2" tcp4)"; return 1; }
	[[ "$(hashed 0 tcp4)" == *"L4 bytes 2 & 3"* ]] ||
		{ diag "the main context's tcp4 hashes: $(hashed 0 tcp4)"; return 1; }
	ONE=1 lands tcp4 7002 4 5 && lands tcp4 7005 0 1
}
ktap_check "rx-flow-hash tcp4 d context $C2: its flows on one queue of 4 and 5, the main context's TCP flows still spread" hash_ctx

hash_main() {
	ethtool_ok -N "$a" rx-flow-hash udp4 d >/dev/null &&
		[ "$(hashed 0 udp4)" = "IP DA " ] && ONE=1 lands udp4 7003 0 1 || return 1
	ethtool_ok -N "$a" rx-flow-hash udp4 sdfn >/dev/null && lands udp4 7003 0 1
}
ktap_check "rx-flow-hash udp4 d on the main context: its UDP flows on one queue; sdfn: spread again" hash_main

hash_refused() {
	dmesg_mark rxfh
	if ethtool_ok -N "$a" rx-flow-hash sctp4 sd >/dev/null ||
	   ethtool_ok -N "$a" rx-flow-hash tcp4 sdm context "$C2" >/dev/null; then
		diag "a flow type or field the device cannot hash was taken"
		return 1
	fi
	dmesg_since rxfh | grep -q "rx-flow-hash: only tcp4, udp4, tcp6 and udp6 can be set" &&
		dmesg_since rxfh | grep -q "rx-flow-hash: only the IP addresses and L4 ports" &&
		[ "$(hashed "$C2" tcp4)" = "IP DA " ]
}
ktap_check "rx-flow-hash of sctp4, or of an L2 field, refused saying why, nothing changed" hash_refused

updown() {
	ip link set "$a" down && ip link set "$a" up && wait_for 15 carrier "$a" 1 &&
		[ "$(indir_of "$C1")" = "3 " ] && [ "$(indir_of "$C2")" = "4 5 " ] &&
		lands udp4 7001 3 && ONE=1 lands tcp4 7002 4 5
}
ktap_check "after ifdown/ifup the contexts steer as before (context $C2 hashing the destination address only)" updown

hash_back() {
	ethtool_ok -N "$a" rx-flow-hash tcp4 sdfn context "$C2" >/dev/null && lands tcp4 7002 4 5
}
ktap_check "rx-flow-hash tcp4 sdfn context $C2: its flows spread over 4 and 5 again" hash_back

grow() {
	ethtool_ok -L "$a" combined 8 >/dev/null && lands udp4 7001 3 &&
		lands tcp4 7002 4 5 && lands udp4 7003 0 1
}
ktap_check "after ethtool -L combined 8 the contexts steer as before" grow
ktap_check "ethtool -L combined 5 refused: context $C2 uses queue 5" \
	bash -c "! ethtool -L $a combined 5 2>/dev/null"

down_made() {
	local c3 rc=0

	ip link set "$a" down
	c3=$(new_ctx weight 0 0 0 0 0 0 1 1) &&
		ethtool_ok -N "$a" flow-type udp4 dst-ip $D4 dst-port 7004 context "$c3" loc 3 >/dev/null || rc=1
	ip link set "$a" up && wait_for 15 carrier "$a" 1 || rc=1
	[ $rc = 0 ] && lands udp4 7004 6 7 || rc=1
	ethtool_ok -N "$a" delete 3 >/dev/null && ethtool_ok -X "$a" context "$c3" delete >/dev/null || rc=1
	return $rc
}
ktap_check "a context and its rule made while down steer after ifup (queues 6, 7)" down_made

delete_all() {
	ethtool_ok -N "$a" delete 1 >/dev/null && ethtool_ok -N "$a" delete 2 >/dev/null &&
		ethtool_ok -X "$a" context "$C1" delete >/dev/null &&
		ethtool_ok -X "$a" context "$C2" delete >/dev/null || return 1
	! ethtool -x "$a" context "$C1" >/dev/null 2>&1 || { diag "context $C1 still there"; return 1; }
	[ "$(objs)" = "$objs0" ] || { diag "model RQTs, TIRs: $(objs), before the contexts $objs0"; return 1; }
}
ktap_check "rules and contexts deleted: the model's RQTs and TIRs as before" delete_all
ktap_check "traffic without the contexts: flows land on queues 0 and 1" lands udp4 7001 0 1

last_ctx() { new_ctx equal 4 >/dev/null; }
ktap_check "a context left in place for rmmod" last_ctx
pair_down
rmmod mlx5_core
ktap_check "rmmod with a context: the model holds nothing" all_clean
no_complaints "no mlx5 error or warning but the refused deletion's and rx-flow-hash's" 'steers to it' 'rx-flow-hash: only'
ktap_finish
