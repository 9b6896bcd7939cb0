#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A recovery that fails is said, and can be tried again. The model's test
# port completes a WQE of port A's SQ in error (the SQ in ERR) and fails
# one command of the recovery that follows: the state query (QUERY_SQ),
# then in a second round the move out of ERR (MODIFY_SQ). Each time the
# driver says in the kernel log that the queue stays stopped, its devlink
# health reporter "tx" stays in the error state, and devlink health
# recover brings the SQ back (ERR -> RST -> RDY): the reporter healthy,
# traffic again. The same for port B's RQ and its reporter "rx"
# (QUERY_RQ failed once after an RX error CQE).
#
# Then A's Ethernet side is unbound and bound again through sysfs, under
# traffic: the driver core runs its remove and probe holding only the
# auxiliary device's lock, not the function's devlink lock a reload
# holds. The netdev comes back and passes traffic, devlink health lists
# its reporters again, a failed recovery is recovered through devlink as
# before, and the kernel log has no WARN (on the debug kernel: no lockdep
# report, such as a devlink lock assertion).

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the error CQEs and the command faults are injected through it"

QUERY_SQ=0x907
MODIFY_SQ=0x905
QUERY_RQ=0x90b

ktap_header 20

ours_pair_up
ktap_check "one channel on A" ethtool -L "$a" combined 1

tx_health() { health_counts "$(eth_health_dl "$bdf_a")" tx; }
rx_health() { health_counts "$(eth_health_dl "$bdf_b")" rx; }

# err_cqe_with_fault OPCODE: one error CQE on A's SQ, and OPCODE fails
# once in the recovery that follows; succeeds once the model failed both.
err_cqe_with_fault() {
	local op=$1 f0 e0 hit

	f0=$(model_get "$bdf_a" cmd.faults)
	e0=$(model_get "$bdf_a" sq.errors_injected)
	cxsim fault "$bdf_a" "$op" 1 || return 1
	# shellcheck disable=SC2046 # one SQ number a word
	for s in $(model_tx_sqns "$bdf_a"); do
		cxsim errcqe "$bdf_a" "$s"
		for cpu in $(seq 0 $(($(nproc) - 1))); do
			taskset -c "$cpu" ping -c 1 -W 1 "$B_IP" >/dev/null 2>&1
		done
		if [ "$(model_get "$bdf_a" sq.errors_injected)" != "$e0" ]; then
			hit=$s
			break
		fi
	done
	cxsim errcqe "$bdf_a" 0
	faulted() { [ "$(model_get "$bdf_a" cmd.faults)" != "$f0" ]; }
	wait_for 15 faulted
	diag "error CQE on SQ ${hit:-none}, $op failed: cmd.faults $f0 -> $(model_get "$bdf_a" cmd.faults)"
	[ -n "$hit" ] && faulted
}

# stuck_reported WHAT: the kernel log says the queue stays stopped, the
# reporter "tx" is in the error state, and nothing gets through.
stuck_reported() {
	local mark=$1

	wait_for 15 bash -c "dmesg | sed -n '/selftest-mark: $mark\$/,\$p' | grep -q 'recovery failed'"
	dmesg_since "$mark" | grep -E 'recovery failed|query failed|failed, status' | sed 's/^/# /'
	diag "reporter tx: $(tx_health)"
	dmesg_since "$mark" | grep -q 'TX queue [0-9]* stopped until devlink health recover' &&
		[ "$(tx_health | awk '{ print $3 }')" = error ] &&
		! ping -c 1 -W 2 "$B_IP" >/dev/null
}

# recover_by_devlink: devlink health recover: the reporter healthy with
# one recovery more, and traffic from every CPU.
recover_by_devlink() {
	local r0 r rec0 rec out

	read -r _ r0 _ <<<"$(tx_health)"
	rec0=$(ethtool_stat "$a" tx_recover)
	out=$(devlink health recover "$(eth_health_dl "$bdf_a")" reporter tx 2>&1) ||
		{ diag "devlink health recover: $out"; return 1; }
	read -r _ r _ <<<"$(tx_health)"
	rec=$(ethtool_stat "$a" tx_recover)
	diag "reporter tx: $(tx_health); tx_recover $rec0 -> $rec"
	[ "$(tx_health | awk '{ print $3 }')" = healthy ] &&
		[ "$r" -gt "$r0" ] && [ "$rec" -gt "$rec0" ] || return 1
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" ping -c 2 -W 5 "$B_IP" >/dev/null || return 1
	done
}

dmesg_mark query_sq
ktap_check "error CQE on A's SQ, its recovery's QUERY_SQ fails once" \
	err_cqe_with_fault "$QUERY_SQ"
ktap_check "the failed recovery is said: kernel log, reporter tx in error, queue stopped" \
	stuck_reported query_sq
ktap_check "devlink health recover: SQ back, reporter tx healthy, traffic from every CPU" \
	recover_by_devlink

dmesg_mark modify_sq
ktap_check "error CQE on A's SQ, its recovery's MODIFY_SQ (ERR -> RST) fails once" \
	err_cqe_with_fault "$MODIFY_SQ"
ktap_check "the failed recovery is said: kernel log, reporter tx in error, queue stopped" \
	stuck_reported modify_sq
ktap_check "devlink health recover: SQ back, reporter tx healthy, traffic from every CPU" \
	recover_by_devlink

# B's RQ: an RX error CQE (the RQ in ERR), QUERY_RQ fails once.
rx_stuck() {
	local f0 e0

	dmesg_mark query_rq
	f0=$(model_get "$bdf_b" cmd.faults)
	read -r e0 _ <<<"$(rx_health)"
	cxsim fault "$bdf_b" "$QUERY_RQ" 1 || return 1
	cxsim errcqerq "$bdf_b" any || return 1
	ping -c 1 -W 2 "$B_IP" >/dev/null
	wait_for 15 bash -c "dmesg | sed -n '/selftest-mark: query_rq\$/,\$p' | grep -q 'RQ 0x[0-9a-f]*: recovery failed'"
	dmesg_since query_rq | grep -E 'recovery failed|query failed|failed, status' | sed 's/^/# /'
	diag "reporter rx: $(rx_health); cmd.faults $f0 -> $(model_get "$bdf_b" cmd.faults)"
	[ "$(rx_health | awk '{ print $1 }')" -gt "$e0" ] &&
		[ "$(rx_health | awk '{ print $3 }')" = error ] &&
		dmesg_since query_rq | grep -q 'receives nothing until devlink health recover'
}
ktap_check "error CQE on B's RQ, QUERY_RQ fails once: said, reporter rx in error" rx_stuck

rx_recover() {
	local out

	out=$(devlink health recover "$(eth_health_dl "$bdf_b")" reporter rx 2>&1) ||
		{ diag "devlink health recover: $out"; return 1; }
	diag "reporter rx: $(rx_health)"
	[ "$(rx_health | awk '{ print $3 }')" = healthy ] &&
		ping -c 5 -i 0.2 -W 5 "$B_IP" >/dev/null
}
ktap_check "devlink health recover: reporter rx healthy, traffic again" rx_recover

# rebind_a: A's mlx5_core.eth.N unbound while A floods B, bound again; the
# new netdev ($a) set up as ours_pair_up did, one channel, carrier.
rebind_a() {
	local drv=/sys/bus/auxiliary/drivers/mlx5_core.eth adev pid

	adev=$(eth_adev "$bdf_a")
	[ -n "$adev" ] || return 1
	dmesg_mark rebind
	ping -f -w 60 "$B_IP" >/dev/null 2>&1 &
	pid=$!
	sleep 2
	echo "$adev" >"$drv/unbind" || { kill "$pid"; return 1; }
	kill "$pid" 2>/dev/null
	wait "$pid"
	if netdev_of "$bdf_a" >/dev/null; then
		diag "$adev unbound, $bdf_a still has a netdev"
		return 1
	fi
	echo "$adev" >"$drv/bind" || return 1
	a=$(netdev_of "$bdf_a") || return 1
	diag "$adev unbound and bound again: netdev $a"
	sysctl -qw "net.ipv6.conf.$a.disable_ipv6=1"
	ethtool -L "$a" combined 1 || return 1
	ip addr add "$A_IP/24" dev "$a"
	ip neigh replace "$B_IP" lladdr "$(ip netns exec "$NS" cat "/sys/class/net/$b/address")" \
		dev "$a" nud permanent
	ip -n "$NS" neigh replace "$A_IP" lladdr "$(cat "/sys/class/net/$a/address")" \
		dev "$b" nud permanent
	ip link set "$a" up
	wait_for 15 carrier "$a" 1
}
ktap_check "A's Ethernet side unbound and bound again under traffic (sysfs): netdev back, carrier" \
	rebind_a
ping_b() { ping -c 5 -i 0.2 -W 5 "$B_IP" >/dev/null; }
ktap_check "after the rebind: traffic A <-> B" ping_b

# reporters_listed: devlink health lists "tx" and "rx" under A's handle,
# new (no error yet) and healthy.
reporters_listed() {
	local dl

	dl=$(eth_health_dl "$bdf_a")
	devlink port show | sed 's/^/# /'
	devlink -j health show | python3 -c '
import json, sys
h = json.load(sys.stdin)["health"].get(sys.argv[1], [])
got = {r["reporter"]: (r["state"], r["error"], r["recover"]) for r in h}
print("# %s: %s" % (sys.argv[1], got))
sys.exit(0 if all(got.get(n) == ("healthy", 0, 0) for n in ("tx", "rx")) else 1)' "$dl"
}
ktap_check "after the rebind: devlink health lists A's reporters tx and rx, healthy" \
	reporters_listed

dmesg_mark rebind_sq
ktap_check "after the rebind: error CQE on A's SQ, its recovery's QUERY_SQ fails once" \
	err_cqe_with_fault "$QUERY_SQ"
ktap_check "after the rebind: the failed recovery is said, reporter tx in error" \
	stuck_reported rebind_sq
ktap_check "after the rebind: devlink health recover brings the SQ back, traffic" \
	recover_by_devlink

rebind_splats() {
	local s

	s=$(kernel_splats rebind)
	[ -z "$s" ] || echo "$s" | head -n 40 | sed 's/^/# /'
	[ -z "$s" ]
}
ktap_check "no WARN in the kernel log since the unbind (lockdep: no devlink lock assertion)" \
	rebind_splats

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
# The failed commands, the recoveries and their failures are expected.
no_complaints "no other mlx5 error or warning in the kernel log" \
	'(0x907)' '(0x905)' '(0x90b)' \
	'recovery failed' 'query failed' 'error CQE' 'recovering' \
	'modify SQ' 'modify RQ' 'TX watchdog' 'stalled: SQ' 'NETDEV WATCHDOG'

ktap_finish
