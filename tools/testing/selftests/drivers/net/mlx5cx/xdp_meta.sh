#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XDP metadata kfuncs (xdp_metadata_ops) on port A, frames sent from port
# B in a network namespace: a device-bound program (xdp_meta_prog.c,
# loaded by xdp_meta_load.c with libbpf) records what
# bpf_xdp_metadata_rx_hash, _rx_timestamp and _rx_vlan_tag return for
# every UDP frame to port 9000. The netdev family's
# xdp-rx-metadata-features of A says hash, timestamp and vlan-tag. On
# both RQ types (private flag rx_striding_rq on and off):
#  - every frame of four flows is seen; its hash is the Toeplitz hash
#    (A's RSS key, ethtool -x) of its addresses and ports, of type
#    XDP_RSS_TYPE_L4_IPV4_UDP; with RX timestamping off the timestamp
#    kfunc says -ENODATA, so does the VLAN one (untagged frames);
#  - with RX timestamping on (HWTSTAMP_FILTER_ALL) each frame has a
#    timestamp of the PHC's time, between phc_ctl readings taken before
#    and after the frames were sent, in the order each flow's arrived;
#  - 802.1Q-tagged frames: with rxvlan on the kfunc gives the tag the
#    device stripped (VID and PCP), with rxvlan off -ENODATA and the tag
#    is in the frame;
#  - multi-buffer frames (MTU 9000, an xdp.frags program, 8000-byte
#    datagrams, more than one buffer each): hash and timestamp as above.
# distro_xdp_meta.sh runs it on the distribution's mlx5_core
# (DRIVER=distro), whose hash is the symmetric Toeplitz hash it asks for.
# vm-args: --timeout 1500

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

DRIVER=${DRIVER:-ours}
PER_FLOW=${PER_FLOW:-$(sized 16 4)}
FLOWS=(10001 10002 10003 10004)
PORT=9000
VID=100
PCP=5
A_VIP=198.18.1.1
B_VIP=198.18.1.2
KN=${KSFT_NET_SRC:-${CXSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mlx5cx}/kselftest-net}
TMP=$(mktemp -d)
LPID=
cleanup() {
	[ -n "$LPID" ] && kill "$LPID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

ktap_header $((4 + 2 * 4))

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

dmesg -C
dmesg_mark xdp_meta
if [ "$DRIVER" = distro ]; then
	modprobe mlx5_core
	ktap_check "distribution mlx5_core binds both functions" all_bound mlx5_core
else
	load_ours
	ktap_check "our mlx5_core binds both functions" ours_all_bound
fi
a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
PEER_DEV=$b

nsx() { ip netns exec "$NS" "$@"; }

# The program (single-buffer and xdp.frags) and its loader, built on the
# host (gen_files).
build() {
	gen_files "$TMP" xdp_meta.bpf.o xdp_meta_frags.bpf.o xdp_meta_load
}
vlan_up() {
	local mac_a mac_b

	mac_a=$(cat "/sys/class/net/$a/address")
	mac_b=$(nsx cat "/sys/class/net/$b/address")
	modprobe 8021q || return 1
	ip link add link "$a" name "$a.$VID" type vlan id "$VID" &&
		ip -n "$NS" link add link "$b" name "$b.$VID" type vlan id "$VID" \
			egress-qos-map 0:$PCP || return 1
	sysctl -qw "net.ipv6.conf.$a/$VID.disable_ipv6=1"
	ip addr add "$A_VIP/24" dev "$a.$VID"
	ip -n "$NS" addr add "$B_VIP/24" dev "$b.$VID"
	ip neigh replace "$B_VIP" lladdr "$mac_b" dev "$a.$VID" nud permanent
	ip -n "$NS" neigh replace "$A_VIP" lladdr "$mac_a" dev "$b.$VID" nud permanent
	ip link set "$a.$VID" up && ip -n "$NS" link set "$b.$VID" up
}
setup() {
	if ! command -v clang >/dev/null || ! command -v cc >/dev/null ||
	   [ ! -f /usr/include/bpf/libbpf.h ] || ! command -v phc_ctl >/dev/null ||
	   ! command -v hwstamp_ctl >/dev/null; then
		needs "clang, a C compiler, libbpf-dev and linuxptp (tools/testing/install-deps)"
		return 1
	fi
	build && pair_up "$a" "$b" && vlan_up
}
ktap_check "links up, $b in netns $NS, VLAN $VID on both; program and loader built" setup

# The netdev family's dev-get of A (the kernel's YNL library, the
# kselftest copy tools/testing/install-deps extracts).
rx_metadata_features() {
	local got

	if [ ! -f "$KN/tools/net/ynl/lib/ynl.py" ] || ! python3 -c 'import yaml' 2>/dev/null; then
		needs "the kernel's YNL library ($KN/tools/net/ynl) and python3-yaml"
		return 1
	fi
	got=$(python3 - "$KN" "$(cat "/sys/class/net/$a/ifindex")" <<'PY'
import sys
sys.path.insert(0, sys.argv[1] + "/tools/net/ynl")
from lib import YnlFamily
y = YnlFamily(sys.argv[1] + "/Documentation/netlink/specs/netdev.yaml", schema="")
d = y.do("dev-get", {"ifindex": int(sys.argv[2])})
print(" ".join(sorted(d.get("xdp-rx-metadata-features", []))))
PY
) || return 1
	diag "$a: xdp-rx-metadata-features: $got"
	[ "$got" = "hash timestamp vlan-tag" ]
}
ktap_check "xdp-rx-metadata-features of $a: hash, timestamp, vlan-tag" rx_metadata_features

# Upstream's mlx5_core asks for the symmetric Toeplitz hash
# (rx_hash_symmetric), which orders the addresses and the ports before
# hashing; ours for the plain one.
SYM=$([ "$DRIVER" = distro ] && echo 1 || echo 0)
# A's RSS key, as hex without separators.
RSS_KEY=$(ethtool -x "$a" | awk '/RSS hash key/ { getline; gsub(":", ""); print; exit }')

# loader_start OBJ: the program on A, bound to it; loader_stop: its records.
loader_start() {
	"$TMP/xdp_meta_load" "$a" "$TMP/$1" >"$TMP/out" 2>&1 &
	LPID=$!
	if ! wait_for 60 grep -q '^attached' "$TMP/out" ||
	   ! wait_for 15 carrier "$a" 1; then
		cat "$TMP/out" >&2
		loader_stop
		return 1
	fi
}
loader_stop() {
	local rc

	kill -TERM "$LPID" 2>/dev/null
	wait "$LPID"
	rc=$?
	LPID=
	return $rc
}

# send DST SIZE: PER_FLOW datagrams of SIZE bytes from each of FLOWS (the
# source ports) to DST:PORT, from B.
send() {
	traffic 10 nsx python3 - "$1" "$PORT" "$PER_FLOW" "$2" "${FLOWS[@]}" <<'PY'
import socket, sys, time
dst, port, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
socks = []
for sp in sys.argv[5:]:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("", int(sp)))
    socks.append(s)
for i in range(n):
    for s in socks:
        s.sendto(bytes([i & 0xff]) * size, (dst, port))
        time.sleep(0.005)
PY
}

phc_now() {
	local p

	p=$(ethtool -T "$a" | sed -n 's/^PTP Hardware Clock: \([0-9][0-9]*\)$/\1/p')
	phc_ctl -q "/dev/ptp$p" -- get | sed -n 's/.*clock time is \([0-9.]*\).*/\1/p'
}

# check SRC DST LEN TS VLAN: the records of the last run (loader_stop's
# output) against what the frames were: each flow's frames all seen, their
# length LEN (bytes of the frame as XDP sees it: more than its linear part
# when LEN exceeds a page), hash (SYM: symmetric) and type; TS "off"
# (-ENODATA) or "LO-HI" (PHC seconds); VLAN "none" (untagged), "strip"
# (the kfunc gives the tag) or "frame" (-ENODATA, the tag in the frame).
check() {
	python3 - "$TMP/out" "$RSS_KEY" "$1" "$2" "$PORT" "$3" "$4" "$5" \
		"$PER_FLOW" "$VID" "$PCP" "$SYM" "${FLOWS[@]}" <<'PY'
import ipaddress, sys
out, key, src, dst, port, flen, ts, vlan, per, vid, pcp, sym = sys.argv[1:13]
flows = [int(p) for p in sys.argv[13:]]
key = bytes.fromhex(key)
port, flen, per, vid, pcp = int(port), int(flen), int(per), int(vid), int(pcp)
ENODATA = -61
L4_IPV4_UDP = 0x1 | 0x8 | 0x20  # XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_UDP

def toeplitz(data):
    h, k = 0, int.from_bytes(key, "big")
    kbits = len(key) * 8
    for i, byte in enumerate(data):
        for b in range(8):
            if byte & (0x80 >> b):
                h ^= (k >> (kbits - 32 - (i * 8 + b))) & 0xffffffff
    return h

recs, frames = [], None
for line in open(out):
    f = line.split()
    if f and f[0] == "frames":
        frames = int(f[1])
    elif f and f[0] == "seq":
        recs.append({f[i]: int(f[i + 1], 0) for i in range(0, len(f), 2)})
bad = []
if frames != len(flows) * per or len(recs) != frames:
    bad.append("frames %s, records %d, sent %d" % (frames, len(recs), len(flows) * per))
hashes = {}
for r in recs:
    sp = r["sport"]
    ips = [ipaddress.ip_address(src).packed, ipaddress.ip_address(dst).packed]
    ports = [sp.to_bytes(2, "big"), port.to_bytes(2, "big")]
    if sym == "1":
        ips.sort()
        ports.sort()
    inp = b"".join(ips + ports)
    want = toeplitz(inp)
    hashes.setdefault(sp, set()).add(r["hash"])
    if r["hash_err"] or r["hash"] != want or r["hash_type"] != L4_IPV4_UDP:
        bad.append("seq %d sport %d: hash_err %d hash 0x%08x type 0x%x, want 0x%08x type 0x%x" %
                   (r["seq"], sp, r["hash_err"], r["hash"], r["hash_type"], want, L4_IPV4_UDP))
    if r["len"] != flen or (flen > 4096) != (r["linear"] < r["len"]):
        bad.append("seq %d: len %d (linear %d), want %d" % (r["seq"], r["len"], r["linear"], flen))
    if vlan == "strip":
        if r["vlan_err"] or r["vlan_proto"] != 0x8100 or r["vlan_tci"] != (pcp << 13 | vid) or r["frame_tci"]:
            bad.append("seq %d: vlan_err %d proto 0x%x tci 0x%x frame_tci 0x%x" %
                       (r["seq"], r["vlan_err"], r["vlan_proto"], r["vlan_tci"], r["frame_tci"]))
    elif r["vlan_err"] != ENODATA or r["frame_tci"] != (0 if vlan == "none" else pcp << 13 | vid):
        bad.append("seq %d: vlan_err %d frame_tci 0x%x" % (r["seq"], r["vlan_err"], r["frame_tci"]))
    if ts == "off" and r["ts_err"] != ENODATA:
        bad.append("seq %d: ts_err %d with timestamping off" % (r["seq"], r["ts_err"]))
if ts != "off":
    lo, hi = (int(float(x) * 1e9) for x in ts.split("-"))
    # In order within a flow: its frames share an RQ, stamped and seen
    # in the order they came. Two flows on two channels are seen by two
    # CPUs, in any order: a frame a late vCPU sees after another flow's
    # may carry the earlier stamp (5.7 ms earlier in a make check).
    last = {}
    for r in recs:
        prev = last.get(r["sport"], 0)
        if r["ts_err"] or not lo <= r["ts"] <= hi or r["ts"] < prev:
            bad.append("seq %d sport %d: ts_err %d ts %d, want %d..%d, after %d" %
                       (r["seq"], r["sport"], r["ts_err"], r["ts"], lo, hi, prev))
        last[r["sport"]] = r["ts"]
if recs:
    print("# %d frames; hash per flow: %s; ts %s" % (len(recs),
          ", ".join("%d: 0x%08x" % (sp, min(h)) for sp, h in sorted(hashes.items())),
          "first %d last %d" % (recs[0]["ts"], recs[-1]["ts"]) if ts != "off" else "off"))
for b in bad[:8]:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
}

# run OBJ DST SIZE TS VLAN: the program on A, the datagrams from B, the
# records checked. TS: "off" or "on" (HWTSTAMP_FILTER_ALL meanwhile).
run() {
	local obj=$1 dst=$2 size=$3 ts=$4 vlan=$5 lo hi rc=0 flen

	flen=$((ETH_HLEN + 28 + size))
	[ "$vlan" = frame ] && flen=$((flen + 4))
	hwstamp_ctl -i "$a" -r "$([ "$ts" = on ] && echo 1 || echo 0)" >/dev/null || return 1
	loader_start "$obj" || return 1
	lo=$(phc_now)
	send "$dst" "$size" || rc=1
	hi=$(phc_now)
	loader_stop || rc=1
	hwstamp_ctl -i "$a" -r 0 >/dev/null
	[ "$ts" = on ] && ts="$lo-$hi"
	check "$([ "$dst" = "$A_IP" ] && echo "$B_IP" || echo "$B_VIP")" "$dst" \
		"$flen" "$ts" "$vlan" || rc=1
	return $rc
}
ETH_HLEN=14

vlan_step() {
	local rc=0

	ethtool -K "$a" rxvlan on && run xdp_meta.bpf.o "$A_VIP" 100 on strip || rc=1
	ethtool -K "$a" rxvlan off && run xdp_meta.bpf.o "$A_VIP" 100 off frame || rc=1
	ethtool -K "$a" rxvlan on
	return $rc
}
mb() {
	local rc=0

	ip link set "$a" mtu 9000 && ip -n "$NS" link set "$b" mtu 9000 &&
		wait_for 15 carrier "$a" 1 || return 1
	run xdp_meta_frags.bpf.o "$A_IP" 8000 on none || rc=1
	ip link set "$a" mtu 1500
	ip -n "$NS" link set "$b" mtu 1500
	wait_for 15 carrier "$a" 1
	return $rc
}

for mode in on off; do
	ethtool --set-priv-flags "$a" rx_striding_rq "$mode" &&
		wait_for 15 carrier "$a" 1
	ktap_check "rx_striding_rq $mode: hash of each frame the Toeplitz hash of its flow, L4 IPv4 UDP; timestamping off: no timestamp; untagged: no VLAN" \
		run xdp_meta.bpf.o "$A_IP" 100 off none
	ktap_check "rx_striding_rq $mode: timestamping on: each frame's PHC time, in order within its flow, between readings before and after" \
		run xdp_meta.bpf.o "$A_IP" 100 on none
	ktap_check "rx_striding_rq $mode: 802.1Q frames: rxvlan on, the stripped tag (VID $VID, PCP $PCP); rxvlan off, -ENODATA and the tag in the frame" \
		vlan_step
	ktap_check "rx_striding_rq $mode: multi-buffer frames (MTU 9000, xdp.frags): hash and timestamp" mb
done

no_complaints "no mlx5 error or warning in the kernel log"
ktap_finish
