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

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the error CQEs and the command faults are injected through it"

QUERY_SQ=0x907
MODIFY_SQ=0x905
QUERY_RQ=0x90b

ktap_header 13

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

pair_down
rmmod mlx5_core
ktap_check "after rmmod: nothing left on the device" all_clean
# The failed commands, the recoveries and their failures are expected.
no_complaints "no other mlx5 error or warning in the kernel log" \
	'(0x907)' '(0x905)' '(0x90b)' \
	'recovery failed' 'query failed' 'error CQE' 'recovering' \
	'modify SQ' 'modify RQ' 'TX watchdog' 'stalled: SQ' 'NETDEV WATCHDOG'

ktap_finish
