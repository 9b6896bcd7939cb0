# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the mlx5cx selftests. They run inside the test VM
# (tools/testing/vm/run), as root, with the emulated ConnectX functions
# present and no driver loaded. Output is KTAP.

LIB_DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
REPO=$(readlink -f "$LIB_DIR/../../../../../..")
OUR_KO=${OUR_KO:-$REPO/mlx5_core.ko}
# QEMU monitor commands from inside the VM (tools/testing/vm/qmp).
VM_QMP=$REPO/tools/testing/vm/qmp
PCI_VENDOR=0x15b3

KTAP_NUM=0
KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0

ktap_header() {
	echo "TAP version 13"
	echo "1..$1"
}

ktap_result() {
	local status=$1 desc=$2 directive=${3:-}

	KTAP_NUM=$((KTAP_NUM + 1))
	case $status in
	ok)
		if [ -n "$directive" ]; then
			KTAP_SKIP=$((KTAP_SKIP + 1))
			echo "ok $KTAP_NUM $desc # SKIP $directive"
		else
			KTAP_PASS=$((KTAP_PASS + 1))
			echo "ok $KTAP_NUM $desc"
		fi
		;;
	*)
		KTAP_FAIL=$((KTAP_FAIL + 1))
		echo "not ok $KTAP_NUM $desc"
		;;
	esac
}

ktap_pass() { ktap_result ok "$1"; }
ktap_fail() { ktap_result fail "$1"; }
ktap_skip() { ktap_result ok "$1" "$2"; }

# ktap_check DESC CMD...: one test point from a command's exit status.
ktap_check() {
	local desc=$1

	shift
	if "$@"; then
		ktap_pass "$desc"
	else
		ktap_fail "$desc"
	fi
}

ktap_finish() {
	echo "# totals: pass:$KTAP_PASS fail:$KTAP_FAIL skip:$KTAP_SKIP"
	[ "$KTAP_FAIL" -eq 0 ]
}

diag() { echo "# $*"; }

# The PCI addresses of the emulated ConnectX functions, one a line.
cx_functions() {
	local d

	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = "$PCI_VENDOR" ] && basename "$d"
	done
	return 0
}

# The driver a PCI function is bound to, or nothing.
bound_driver() {
	local link=/sys/bus/pci/devices/$1/driver

	[ -e "$link" ] && basename "$(readlink -f "$link")"
	return 0
}

# all_bound DRIVER: every emulated function is bound to DRIVER.
all_bound() {
	local bdf n=0

	for bdf in $(cx_functions); do
		[ "$(bound_driver "$bdf")" = "$1" ] || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

# none_bound: no emulated function is bound to any driver.
none_bound() {
	local bdf

	for bdf in $(cx_functions); do
		[ -z "$(bound_driver "$bdf")" ] || return 1
	done
	return 0
}

# The loaded mlx5_core is ours: built out of tree, so the kernel marks it
# with taint flag O; the distribution's in-tree module has none.
ours_loaded() {
	grep -q O /sys/module/mlx5_core/taint 2>/dev/null
}

load_ours() {
	insmod "$OUR_KO" "$@"
}

unload_mlx5() {
	[ -d /sys/module/mlx5_core ] || return 0
	rmmod mlx5_core
}

# dmesg_since MARK: kernel log lines after the line that contains MARK.
dmesg_mark() {
	echo "selftest-mark: $1" > /dev/kmsg
}

dmesg_since() {
	dmesg | sed -n "/selftest-mark: $1\$/,\$p"
}

# The model's test port (tools/testing/cxsim, BAR2): faults and its report.
cxsim() {
	python3 "$LIB_DIR/cxsim.py" "$@"
}

# model_get BDF KEY: one value of the model's report, or nothing.
model_get() {
	cxsim report "$1" | awk -v k="$2" '$1 == k { print $2; exit }'
}

# model_sum BDF PREFIX: sum of the report's values whose key starts with PREFIX.
model_sum() {
	cxsim report "$1" | awk -v p="$2" 'index($1, p) == 1 { s += $2 } END { print s + 0 }'
}

# report_get KEY: one value of a report read earlier, on stdin.
report_get() {
	awk -v k="$1" '$1 == k { print $2; exit }'
}

# snmp_get NETNS PROTO FIELD: a counter of /proc/net/snmp in NETNS ("" for
# this namespace), e.g. snmp_get peer Udp RcvbufErrors.
snmp_get() {
	local ns=${1:+ip netns exec $1}

	$ns cat /proc/net/snmp | awk -v p="$2:" -v f="$3" '
		$1 == p && !hdr { for (i = 2; i <= NF; i++) col[$i] = i; hdr = 1; next }
		$1 == p && hdr { print $col[f]; exit }'
}

# netdev_stat NETNS DEV NAME: a counter of /sys/class/net/DEV/statistics.
netdev_stat() {
	local ns=${1:+ip netns exec $1}

	$ns cat "/sys/class/net/$2/statistics/$3"
}

# UDP counters at the driver's door, by tc (clsact): udp_tap_add NETNS DEV
# ingress|egress counts the IPv4 UDP packets DEV hands to the stack or the
# stack hands to DEV; udp_tap_get NETNS DEV DIR reads the count.
udp_tap_add() {
	local ns=${1:+ip netns exec $1}

	# The guest does not autoload modules: name them.
	modprobe -a sch_ingress cls_u32 act_gact || return 1
	$ns tc qdisc add dev "$2" clsact 2>/dev/null
	$ns tc filter add dev "$2" "$3" protocol ip prio 1 u32 \
		match ip protocol 17 0xff action ok
}

udp_tap_get() {
	local ns=${1:+ip netns exec $1}

	$ns tc -s filter show dev "$2" "$3" |
		awk '/Sent [0-9]+ bytes [0-9]+ pkt/ { print $4; exit }'
}

udp_tap_del() {
	local ns=${1:+ip netns exec $1}

	$ns tc qdisc del dev "$2" clsact 2>/dev/null
	return 0
}

# qdisc_drops NETNS DEV: packets the root qdisc of DEV dropped.
qdisc_drops() {
	local ns=${1:+ip netns exec $1}

	$ns tc -s qdisc show dev "$2" | awk '/dropped/ {
		for (i = 1; i <= NF; i++) if ($i == "(dropped") { sub(",", "", $(i + 1)); print $(i + 1); exit } }'
}

# model_clean BDF: the function holds no object and no page of ours, and no
# teardown ever found one left behind.
model_clean() {
	local objs pages leaks

	objs=$(model_sum "$1" obj.)
	pages=$(model_get "$1" pages)
	leaks=$(model_get "$1" leak.reports)
	if [ "$objs" = 0 ] && [ "${pages:-0}" = 0 ] && [ "${leaks:-0}" = 0 ]; then
		return 0
	fi
	diag "$1: objects $objs, pages $pages, leak reports $leaks"
	cxsim report "$1" | grep -E '^(obj|leak|pages|hca)' | sed 's/^/#   /'
	return 1
}

all_clean() {
	local bdf

	for bdf in $(cx_functions); do
		model_clean "$bdf" || return 1
	done
}

# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds.
wait_for() {
	local deadline=$((SECONDS + $1))

	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.2
	done
}

# The netdev of an emulated function (first one under its PCI device).
netdev_of() {
	local d

	for d in /sys/bus/pci/devices/"$1"/net/*; do
		[ -e "$d" ] && basename "$d" && return 0
	done
	return 1
}

# ethtool_stat DEV NAME [NETNS]: one counter of ethtool -S.
ethtool_stat() {
	local ns=${3:+ip netns exec $3}

	$ns ethtool -S "$1" | awk -v k="$2:" '$1 == k { print $2; exit }'
}

# Kernel log lines at warning level or worse that name mlx5, since MARK.
mlx5_complaints() {
	dmesg --level=emerg,alert,crit,err,warn | grep -i mlx5 |
		grep -v -e 'loading out-of-tree module' -e 'module verification failed'
}

# The two ports as two hosts: port A's netdev stays here as $A_IP, port B's
# moves into network namespace $NS as $B_IP; both up, IPv6 off so that no
# background chatter enters the counters.
NS=peer
A_IP=198.18.0.1
B_IP=198.18.0.2

carrier() { [ "$(cat "/sys/class/net/$1/carrier" 2>/dev/null)" = "$2" ]; }
ns_carrier() { [ "$(ip netns exec "$NS" cat "/sys/class/net/$1/carrier" 2>/dev/null)" = "$2" ]; }

# pair_up A B: set up the two hosts; succeeds once both have carrier.
pair_up() {
	sysctl -qw "net.ipv6.conf.$1.disable_ipv6=1" "net.ipv6.conf.$2.disable_ipv6=1"
	ip netns add "$NS"
	ip link set "$2" netns "$NS"
	ip addr add "$A_IP/24" dev "$1"
	ip -n "$NS" addr add "$B_IP/24" dev "$2"
	ip link set "$1" up
	ip -n "$NS" link set lo up
	ip -n "$NS" link set "$2" up
	wait_for 15 bash -c "source $LIB_DIR/lib.sh; carrier $1 1 && ns_carrier $2 1"
}

pair_down() {
	ip netns del "$NS" 2>/dev/null
	return 0
}

# probe_cycles N LOAD UNLOAD: N rounds of LOAD (a command line), every
# function bound to mlx5_core, UNLOAD, none bound.
probe_cycles() {
	local n=$1 load=$2 unload=$3 i

	for i in $(seq "$n"); do
		$load || { diag "cycle $i: $load failed"; return 1; }
		all_bound mlx5_core || { diag "cycle $i: not bound"; return 1; }
		$unload || { diag "cycle $i: $unload failed"; return 1; }
		none_bound || { diag "cycle $i: still bound"; return 1; }
	done
}

# pktgen_setup DEV COUNT BURST: pktgen on DEV towards the peer host ($B_IP
# in $NS, netdev PEER_DEV), 64-byte packets in bursts of BURST xmit_more
# packets, COUNT packets (0: until stopped). Start with pktgen_start.
pktgen_setup() {
	local dev=$1 count=$2 burst=$3 mac

	mac=$(ip -n "$NS" -br link show "$PEER_DEV" | awk '{print $3}')
	modprobe pktgen
	echo "rem_device_all" >/proc/net/pktgen/kpktgend_0
	echo "add_device $dev" >/proc/net/pktgen/kpktgend_0
	printf '%s\n' "count $count" "pkt_size 64" "burst $burst" "delay 0" \
		"dst $B_IP" "dst_mac $mac" |
		while read -r l; do echo "$l" >"/proc/net/pktgen/$dev"; done
}

# pktgen_start: run the configured device; returns when COUNT are sent.
pktgen_start() {
	echo start >/proc/net/pktgen/pgctrl
}
