#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The standard ethtool counter groups of our netdev (ethtool -S --groups
# eth-mac eth-phy eth-ctrl rmon), read from the port's PPCNT groups
# (IEEE 802.3, RFC 2819), against frames of known number and size sent
# from A to B with pktgen: A's FramesTransmittedOK and OctetsTransmittedOK
# (wire octets: the FCS counted, short frames padded to 64) and B's
# received ones move by exactly what was sent, B's RMON size classes take
# 60-byte frames in the 64-octet class and 1514-byte ones in 1024-1518, a
# broadcast ping and a multicast stream move the broadcast and multicast
# counters; MAC control, symbol and length errors stay 0 on the model's
# clean wire. IPv6 is off and the neighbours static (pair_up): nothing
# else crosses the wire during a step, so the counts are exact. With
# CONFIG_PAGE_POOL_STATS, ethtool -S has the page_pool counters (rx_pp_*),
# B's allocations among them growing with the traffic; without, none.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

N64=$(sized 2000 300)
N1514=$(sized 1000 200)
NMC=$(sized 500 100)
NBC=3
GROUPS_ARGS=(--groups eth-mac eth-phy eth-ctrl rmon)

ktap_header 11

ours_pair_up

# std_stats DEV [NETNS]: the standard groups of DEV, "NAME VALUE" a line.
std_stats() {
	local ns=${2:+ip netns exec $2}

	$ns ethtool -S "$1" "${GROUPS_ARGS[@]}" |
		sed -n 's/^ *\([^ :]*\): \([0-9]*\)$/\1 \2/p'
}

# std_snapshot: both ports' standard groups, A's as a.NAME, B's as b.NAME;
# fails when either has none.
std_snapshot() {
	local sa sb

	sa=$(std_stats "$a") && sb=$(std_stats "$b" "$NS") || return 1
	if [ -z "$sa" ] || [ -z "$sb" ]; then
		diag "standard groups: ${sa:-none on A} ${sb:-none on B}" >&2
		return 1
	fi
	sed 's/^/a./' <<<"$sa"
	sed 's/^/b./' <<<"$sb"
}

# std_snap ARRAY: a snapshot, once the counters stand still, into ARRAY.
std_snap() {
	local -n _s=$1
	local k v s

	s=$(settled 30 std_snapshot) || return 1
	_s=()
	while read -r k v; do
		_s[$k]=$v
	done <<<"$s"
}

# grew KEY WANT: KEY grew by exactly WANT from S0 to S1.
grew() {
	local d

	delta d "$1"
	diag "$1: +$d (want +$2)"
	[ "$d" -eq "$2" ]
}

groups_present() {
	local out n k

	out=$(ethtool -S "$a" "${GROUPS_ARGS[@]}") || return 1
	echo "$out" | sed 's/^/# /'
	for k in eth-mac-FramesTransmittedOK eth-mac-OctetsReceivedOK \
		 eth-mac-BroadcastFramesReceivedOK eth-phy-SymbolErrorDuringCarrier \
		 eth-ctrl-MACControlFramesReceived rmon-etherStatsUndersizePkts \
		 rmon-etherStatsJabbers rx-rmon-etherStatsPkts64Octets \
		 rx-rmon-etherStatsPkts1024to1518Octets \
		 rx-rmon-etherStatsPkts8192to10239Octets; do
		echo "$out" | grep -q "^ *$k: [0-9]*$" || {
			diag "$k missing"
			return 1
		}
	done
	n=$(echo "$out" | grep -c '^ *rx-rmon-etherStatsPkts')
	diag "rmon size classes: $n"
	[ "$n" -eq 10 ]
}
ktap_check "ethtool -S --groups eth-mac eth-phy eth-ctrl rmon: every group, 10 RMON size classes" groups_present

# B's page pool allocations before any traffic (none without the option).
pp_allocs() {
	local f s

	f=$(ethtool_stat "$b" rx_pp_alloc_fast "$NS")
	s=$(ethtool_stat "$b" rx_pp_alloc_slow "$NS")
	echo $((${f:-0} + ${s:-0}))
}
PP0=$(pp_allocs)

# pktgen_burst COUNT SIZE [DST_MAC]: COUNT frames of SIZE bytes (FCS not
# counted) from A to B, to B's MAC or DST_MAC; S0 and S1 around it. To an
# address B does not have: B drops them without an ICMP error back.
pktgen_burst() {
	std_snap S0 || return 1
	pktgen_setup "$a" "$1" 1 "$2" || return 1
	echo "dst 198.18.0.9" >"/proc/net/pktgen/$a" || return 1
	[ -z "${3:-}" ] || echo "dst_mac $3" >"/proc/net/pktgen/$a" || return 1
	pktgen_start || return 1
	std_snap S1
}

small_frames() {
	pktgen_burst "$N64" 60 || return 1
	grew a.eth-mac-FramesTransmittedOK "$N64" &&
		grew a.eth-mac-OctetsTransmittedOK $((N64 * 64)) &&
		grew b.eth-mac-FramesReceivedOK "$N64" &&
		grew b.eth-mac-OctetsReceivedOK $((N64 * 64)) &&
		grew a.eth-mac-FramesReceivedOK 0 &&
		grew b.eth-mac-FramesTransmittedOK 0
}
ktap_check "$N64 frames of 60 bytes A->B: FramesTransmittedOK/ReceivedOK +$N64, octets +64 each (padding, FCS)" small_frames

small_hist() {
	grew b.rx-rmon-etherStatsPkts64Octets "$N64" &&
		grew b.rx-rmon-etherStatsPkts65to127Octets 0 &&
		grew b.rx-rmon-etherStatsPkts1024to1518Octets 0 &&
		grew b.rmon-etherStatsUndersizePkts 0
}
ktap_check "B's RMON: the $N64 in the 64-octet class, none elsewhere" small_hist

large_frames() {
	pktgen_burst "$N1514" 1514 || return 1
	grew a.eth-mac-FramesTransmittedOK "$N1514" &&
		grew a.eth-mac-OctetsTransmittedOK $((N1514 * 1518)) &&
		grew b.eth-mac-FramesReceivedOK "$N1514" &&
		grew b.eth-mac-OctetsReceivedOK $((N1514 * 1518)) &&
		grew b.rx-rmon-etherStatsPkts1024to1518Octets "$N1514" &&
		grew b.rx-rmon-etherStatsPkts64Octets 0 &&
		grew b.rx-rmon-etherStatsPkts1519to2047Octets 0 &&
		grew b.eth-mac-FrameTooLongErrors 0
}
ktap_check "$N1514 frames of 1514 bytes: +1518 octets each, B's 1024-1518 class +$N1514, 64 class unchanged" large_frames

multicast() {
	pktgen_burst "$NMC" 100 01:00:5e:00:00:fb || return 1
	grew a.eth-mac-MulticastFramesXmittedOK "$NMC" &&
		grew b.eth-mac-MulticastFramesReceivedOK "$NMC" &&
		grew a.eth-mac-BroadcastFramesXmittedOK 0 &&
		grew b.rx-rmon-etherStatsPkts65to127Octets "$NMC"
}
ktap_check "$NMC frames to 01:00:5e:00:00:fb: Multicast{Xmitted,Received}OK +$NMC" multicast

# B ignores echo requests to a broadcast address (icmp_echo_ignore_broadcasts):
# A's requests are the only frames.
broadcast() {
	std_snap S0 || return 1
	traffic 0 ping -b -q -c "$NBC" -i 0.2 -W 1 198.18.0.255 >/dev/null 2>&1
	std_snap S1 || return 1
	grew a.eth-mac-BroadcastFramesXmittedOK "$NBC" &&
		grew b.eth-mac-BroadcastFramesReceivedOK "$NBC" &&
		grew a.eth-mac-FramesTransmittedOK "$NBC" &&
		grew a.eth-mac-MulticastFramesXmittedOK 0
}
ktap_check "broadcast ping ($NBC echo requests): Broadcast{Xmitted,Received}OK +$NBC" broadcast

# Counters of errors and MAC control frames: the wire corrupts nothing and
# nobody sends PAUSE.
is_zero() {
	local k

	for k in "$@"; do
		[ "${S1[$k]:-x}" = 0 ] || {
			diag "$k: ${S1[$k]:-missing}"
			return 1
		}
	done
}
clean_wire() {
	local p

	p=$(ethtool --include-statistics -a "$a" 2>/dev/null | grep -i 'pause_frames' | tr -s ' \n' ' ')
	diag "A pause: $p"
	is_zero {a,b}.eth-ctrl-MACControlFramesTransmitted \
		{a,b}.eth-ctrl-MACControlFramesReceived \
		{a,b}.eth-ctrl-UnsupportedOpcodesReceived \
		{a,b}.eth-phy-SymbolErrorDuringCarrier \
		{a,b}.eth-mac-FrameCheckSequenceErrors \
		{a,b}.eth-mac-FrameTooLongErrors \
		{a,b}.rmon-etherStatsFragments {a,b}.rmon-etherStatsJabbers &&
		[[ $p == *"rx_pause_frames: 0"* && $p == *"tx_pause_frames: 0"* ]]
}
ktap_check "eth-ctrl, eth-phy, error and pause counters 0 on a clean wire" clean_wire

# Whether the running kernel has CONFIG_PAGE_POOL_STATS: y, n or unknown.
pp_config() {
	local c=/boot/config-$(uname -r)

	if [ -r "$c" ]; then
		grep -q '^CONFIG_PAGE_POOL_STATS=y' "$c" && echo y || echo n
	elif [ -r /proc/config.gz ]; then
		zgrep -q '^CONFIG_PAGE_POOL_STATS=y' /proc/config.gz && echo y || echo n
	else
		echo unknown
	fi
}
pp_stats() {
	local cfg n allocs

	cfg=$(pp_config)
	n=$(ip netns exec "$NS" ethtool -S "$b" | grep -c '^ *rx_pp_')
	allocs=$(pp_allocs)
	diag "CONFIG_PAGE_POOL_STATS: $cfg; B: $n rx_pp_* counters, alloc_fast + alloc_slow $PP0 before the traffic, $allocs after"
	case $cfg in
	y) [ "$n" -eq 11 ] && [ "$PP0" -gt 0 ] && [ "$allocs" -gt "$PP0" ] ;;
	n) [ "$n" -eq 0 ] ;;
	*) return 1 ;;
	esac
}
ktap_check "page_pool counters (rx_pp_*) as the kernel has CONFIG_PAGE_POOL_STATS" pp_stats

no_complaints "no mlx5 error or warning"

pair_down
ktap_finish
