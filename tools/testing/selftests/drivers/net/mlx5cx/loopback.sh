#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Port loopback (ethtool -K loopback, NETIF_F_LOOPBACK): the port's phy
# local loopback (PPLR), where every frame the port transmits comes back
# to its own receiver and none reaches the wire, as AF_XDP's xskxceiver
# (kernel_xsk.sh) wants of a real NIC. Port B in a netns is the wire's
# other end.
# - the feature is offered, off by default; the model's port has no
#   loopback;
# - on: the model's PPLR asks phy local and the link retrained once to
#   run it; N raw frames (AF_PACKET, an experimental EtherType) A sends,
#   to its own MAC and broadcast, come back to A: captured on A byte for
#   byte, A's rx counters and the model's looped-frame count move by N,
#   A's tx by N, and B (netdev and model) receives nothing; a ping to B,
#   its frames looped to A's receiver (B's MAC: A drops them), is lost;
# - devlink reload with loopback on: the reset turned the port's loopback
#   off, the driver turns it on again (model, and frames still loop);
# - off: the link retrained once more, A's frames reach B again (ping,
#   and the same raw frames to B's MAC, captured there byte for byte).

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the model's report tells the port's loopback"

N=${N:-$(sized 200 50)}

ktap_header 13

ours_pair_up
nsb() { ip netns exec "$NS" "$@"; }
work=$(mktemp -d)

# lb_state: "asked in-effect" loopback of the model's port A (PPLR lb_en,
# the one the link runs), as two numbers.
lb_state() {
	local r

	r=$(cxsim report "$bdf_a")
	echo "$(report_get port.lb_en <<<"$r") $(report_get port.lb_active <<<"$r")"
}

offered() {
	local k

	k=$(ethtool -k "$a" | grep '^loopback:')
	diag "ethtool -k: $k; model (asked, in effect): $(lb_state)"
	[ "$k" = "loopback: off" ] && [ "$(lb_state)" = "0 0" ]
}
ktap_check "loopback offered (not fixed), off by default; the model's port not looped" offered

# set_lb on|off WANT: ethtool -K loopback; the model's port then runs
# WANT ("asked in-effect"), the link went down once and is back.
set_lb() {
	local d0 d

	d0=$(model_get "$bdf_a" port.link_down_events)
	ethtool -K "$a" loopback "$1" || return 1
	wait_for 15 carrier "$a" 1 || return 1
	d=$(( $(model_get "$bdf_a" port.link_down_events) - d0 ))
	diag "loopback $1: ethtool -k: $(ethtool -k "$a" | grep '^loopback:');" \
		"model $(lb_state); link down $d time(s)"
	ethtool -k "$a" | grep -qx "loopback: $1" && [ "$(lb_state)" = "$2" ] &&
		[ "$d" -eq 1 ]
}

# The frames: K from 0, to DST, from A's MAC, EtherType 0x88b5, 60 to
# about 1460 bytes, K and a pattern derived from it after the header.
PYFRAME='
import random, socket, struct, sys
BLOCK = random.Random(28).randbytes(2048)
def frame(dst, src, k):
    size = 60 + (k * 97) % 1400
    body = struct.pack("!I", k) + BLOCK[k % 512:k % 512 + size - 18]
    return dst + src + struct.pack("!H", 0x88b5) + body
def mac(s):
    return bytes.fromhex(s.replace(":", ""))
'

# capture NETNS DEV OUT N: AF_PACKET capture of 0x88b5 frames DEV receives
# (not those it sends), each checked against frame(); writes OUT.ready
# once bound, then "got G good K" to OUT when N came or none for 10 s.
capture() {
	local ns=${1:+ip netns exec $1}

	$ns python3 - "$2" "$3" "$4" <<EOF &
$PYFRAME
dev, out, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x88b5))
s.bind((dev, 0))
s.settimeout(10)
open(out + ".ready", "w").close()
got = good = 0
while got < want:
    try:
        data, addr = s.recvfrom(4096)
    except socket.timeout:
        break
    if addr[2] == socket.PACKET_OUTGOING:
        continue
    got += 1
    k = struct.unpack("!I", data[14:18])[0]
    good += data == frame(data[0:6], data[6:12], k)
open(out, "w").write("got %d good %d\n" % (got, good))
EOF
	wait_for 10 test -e "$3.ready"
}

# send DST N: A sends frame(DST, A's MAC, k) for k < N.
send() {
	python3 - "$a" "$1" "$(cat "/sys/class/net/$a/address")" "$2" <<EOF
$PYFRAME
dev, dst, src, n = sys.argv[1], mac(sys.argv[2]), mac(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
for k in range(n):
    s.send(frame(dst, src, k))
EOF
}

counters() {
	echo "a_rx $(netdev_stat "" "$a" rx_packets) a_tx $(netdev_stat "" "$a" tx_packets)" \
	     "b_rx $(netdev_stat "$NS" "$b" rx_packets)" \
	     "lb $(model_get "$bdf_a" port.lb_frames) b_model_rx $(model_get "$bdf_b" rx.frames)"
}

# val SNAPSHOT KEY
val() { awk -v k="$2" '{ for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1) }' <<<"$1"; }

# looped DST TAG: N frames from A to DST come back to A, B sees none.
looped() {
	local c0 c1 d

	c0=$(counters)
	rm -f "$work/$2" "$work/$2.ready"
	capture "" "$a" "$work/$2" "$N" || return 1
	send "$1" "$N" || return 1
	wait
	c1=$(settled 10 counters) || return 1
	diag "to $1: captured on A: $(cat "$work/$2"); before: $c0; after: $c1"
	for d in a_rx a_tx b_rx lb b_model_rx; do
		eval "d_$d=$(( $(val "$c1" $d) - $(val "$c0" $d) ))"
	done
	# shellcheck disable=SC2154
	[ "$(cat "$work/$2")" = "got $N good $N" ] && [ "$d_a_rx" -eq "$N" ] &&
		[ "$d_a_tx" -eq "$N" ] && [ "$d_lb" -eq "$N" ] &&
		[ "$d_b_rx" -eq 0 ] && [ "$d_b_model_rx" -eq 0 ]
}

ktap_check "loopback on: the model's port asks and runs phy local, the link retrained once" \
	set_lb on "2 2"
mac_a=$(cat "/sys/class/net/$a/address")
ktap_check "$N frames to A's own MAC back to A byte for byte; rx, tx, looped +$N; none at B" \
	looped "$mac_a" own
ktap_check "$N broadcast frames come back to A alone" looped ff:ff:ff:ff:ff:ff bcast

ping_lost() {
	local b0 lb0 b1 lb1 out

	b0=$(netdev_stat "$NS" "$b" rx_packets)
	lb0=$(model_get "$bdf_a" port.lb_frames)
	out=$(ping -c 3 -i 0.3 -W 1 "$B_IP" 2>&1 | tail -n 2 | head -n 1)
	b1=$(netdev_stat "$NS" "$b" rx_packets)
	lb1=$(model_get "$bdf_a" port.lb_frames)
	diag "ping $B_IP: $out; B rx +$((b1 - b0)), looped +$((lb1 - lb0))"
	[[ $out == *" 0 received"* ]] && [ "$b1" -eq "$b0" ] &&
		[ "$lb1" -ge $((lb0 + 3)) ]
}
ktap_check "ping to B: requests looped to A (not its MAC: dropped), none at B, no reply" \
	ping_lost

reload() {
	local dl=pci/$bdf_a

	devlink dev reload "$dl" || return 1
	wait_for 30 carrier "$a" 1 || return 1
	diag "after devlink reload: ethtool -k: $(ethtool -k "$a" | grep '^loopback:');" \
		"model $(lb_state)"
	ethtool -k "$a" | grep -qx "loopback: on" && [ "$(lb_state)" = "2 2" ]
}
ktap_check "devlink reload: the reset cleared the port's loopback, the driver sets it again" reload
ktap_check "after the reload, A's frames still come back to A alone" looped "$mac_a" reloaded

ktap_check "loopback off: the model's port back to none, the link retrained once" \
	set_lb off "0 0"
ktap_check "ping to B answered again" ping -c 3 -i 0.3 -W 2 "$B_IP"

# on_wire: N frames to B's MAC reach B byte for byte, none loop.
on_wire() {
	local lb0 lb1 mac_b

	mac_b=$(nsb cat "/sys/class/net/$b/address")
	lb0=$(model_get "$bdf_a" port.lb_frames)
	rm -f "$work/wire" "$work/wire.ready"
	capture "$NS" "$b" "$work/wire" "$N" || return 1
	send "$mac_b" "$N" || return 1
	wait
	lb1=$(model_get "$bdf_a" port.lb_frames)
	diag "to B's MAC: captured on B: $(cat "$work/wire"); looped +$((lb1 - lb0))"
	[ "$(cat "$work/wire")" = "got $N good $N" ] && [ "$lb1" -eq "$lb0" ]
}
ktap_check "loopback off: $N frames to B's MAC reach B byte for byte, none looped" on_wire

no_complaints "no mlx5 errors or warnings in the kernel log"
pair_down
rm -rf "$work"
ktap_finish
