#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own driver selftests (tools/testing/selftests/drivers/net:
# ping.py, stats.py, queues.py, from Debian's linux-source-6.12) against
# our netdev, run as their README says: NETIF is port A, port B in network
# namespace $NS is the remote end (REMOTE_TYPE=netns), IPv4 and IPv6
# addresses on both. Each of their test cases is one test point here; a
# case they skip or mark XFAIL is a skip with their reason.
#
# The tests come from KSFT_NET_SRC (a kernel tree), else from the copy
# that tools/testing/install-deps extracts from linux-source-6.12 into
# ~/.cache/mlx5cx/kselftest-net (with tools/net/ynl and the netlink specs
# they import). They need python3 with PyYAML, socat, ethtool and ip.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

A_IP6=2001:db8:18::1
B_IP6=2001:db8:18::2
# The cases of each test, in the order it runs them.
CASES="ping.test_v4 ping.test_v6 ping.test_tcp
stats.check_pause stats.check_fec stats.pkt_byte_sum stats.qstat_by_ifindex stats.check_down
queues.get_queues queues.addremove_queues"

KN=${KSFT_NET_SRC:-${CXSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mlx5cx}/kselftest-net}
TESTS=$KN/tools/testing/selftests/drivers/net
# PyYAML is what the YNL library needs: Debian's python3 has it
# (python3-yaml); a python3 earlier in PATH may not.
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

if [ ! -f "$TESTS/ping.py" ] || [ ! -f "$KN/tools/net/ynl/lib/ynl.py" ]; then
	echo "1..0 # SKIP the kernel's drivers/net selftests not found in $KN: run tools/testing/install-deps or set KSFT_NET_SRC"
	exit 4
fi
if ! $PY -c 'import yaml' 2>/dev/null; then
	echo "1..0 # SKIP python3 without PyYAML (python3-yaml), which the kernel's YNL library needs"
	exit 4
fi

ktap_header $((5 + $(echo "$CASES" | wc -w)))

ours_bound
diag "netdevs: $bdf_a=$a $bdf_b=$b"

# pair_up leaves IPv6 off (no chatter in the counters of the other tests);
# ping.py's test_v6 needs it, without DAD so that it is usable at once.
setup() {
	pair_up "$a" "$b" || return 1
	sysctl -qw "net.ipv6.conf.$a.disable_ipv6=0" || return 1
	ip netns exec "$NS" sysctl -qw "net.ipv6.conf.$b.disable_ipv6=0" || return 1
	ip -6 addr add "$A_IP6/64" dev "$a" nodad || return 1
	ip -n "$NS" -6 addr add "$B_IP6/64" dev "$b" nodad || return 1
	ping -c 1 -W 5 "$B_IP" >/dev/null && ping -c 1 -W 5 "$B_IP6" >/dev/null
}
ktap_check "$a up as the local end, $b in netns $NS as the remote, IPv4 and IPv6" setup

export NETIF=$a LOCAL_V4=$A_IP REMOTE_V4=$B_IP LOCAL_V6=$A_IP6 REMOTE_V6=$B_IP6 \
	REMOTE_TYPE=netns REMOTE_ARGS=$NS

# Each test run whole, its KTAP output kept in $out_dir.
out_dir=$(mktemp -d)
for t in ping stats queues; do
	diag "running the kernel's drivers/net/$t.py"
	# Unbuffered: a test the timeout kills still shows how far it got.
	(cd "$TESTS" && PYTHONUNBUFFERED=1 timeout 600 "$PY" "./$t.py") > "$out_dir/$t" 2>&1
	echo "$?" > "$out_dir/$t.rc"
	sed 's/^/# | /' "$out_dir/$t"
done

# One point per case: "ok N NAME", "ok N NAME # SKIP why" or "# XFAIL why"
# (both a skip here, with the reason) or "not ok N NAME".
for c in $CASES; do
	t=${c%%.*}
	line=$(grep -E "^(not )?ok [0-9]+ $c( |\$)" "$out_dir/$t" | head -n 1)
	case $line in
	"")
		diag "$t.py did not report $c (exit status $(cat "$out_dir/$t.rc"))"
		ktap_fail "drivers/net/$c" ;;
	"not ok "*)
		ktap_fail "drivers/net/$c" ;;
	*"# SKIP"* | *"# XFAIL"*)
		ktap_skip "drivers/net/$c" "${line#*# }" ;;
	*)
		ktap_pass "drivers/net/$c" ;;
	esac
done
rm -rf "$out_dir"

pair_down
ktap_check "rmmod" rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
no_complaints "no mlx5 error or warning in the kernel log"

ktap_finish
