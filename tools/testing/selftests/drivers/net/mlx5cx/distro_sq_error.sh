#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TX error CQE and recovery with the distribution's mlx5_core: the model's
# test port fails the next WQE on the SQ that carries the traffic
# (ERR_CQE_SQN: an error CQE with LOCAL_PROT_ERR, the SQ in error, what is
# behind it flushed); the driver logs the error CQE, its devlink health
# reporter "tx" counts an error and a recovery (reporter_tx.c:
# mlx5e_tx_reporter_err_cqe_recover), the model sees the SQ go
# ERR -> RST -> RDY, traffic flows again, and rmmod leaves nothing behind.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the error CQE is injected through it"

# MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, what the model's fault reports.
SYND=0x4

ktap_header 11

bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

dmesg -C
modprobe mlx5_core
ktap_check "distribution mlx5_core binds both functions" all_bound mlx5_core

a=$(netdev_of "$bdf_a")
b=$(netdev_of "$bdf_b")
PEER_DEV=$b
diag "netdevs: $bdf_a=$a $bdf_b=$b"
pair_up "$a" "$b"
up() { carrier "$a" 1 && ns_carrier "$b" 1; }
ktap_check "ping A -> B before the fault" ping -c 3 -W 2 "$B_IP"

# The tx reporter is a port reporter (devlink_port_health_reporter_create)
# on the devlink port of the netdev: auxiliary/mlx5_core.eth.N/PORT.
tx_handle() {
	devlink -j port show | python3 -c '
import json, sys
for h, p in json.load(sys.stdin)["port"].items():
    if p.get("netdev") == sys.argv[1]:
        print(h)
        break' "$a"
}
txh=$(tx_handle)
diag "tx reporter: ${txh:-none}"

# The driver's TX SQs (txqsq, not the ICOSQs): the tx reporter's diagnose.
tx_sqns() {
	devlink -j health diagnose "$txh" reporter tx | python3 -c '
import json, sys
def walk(o):
    if isinstance(o, dict):
        if "sqn" in o and "txq ix" in o:
            print(o["sqn"])
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(json.load(sys.stdin))'
}
sqns=$(tx_sqns)
rdy=$(cxsim sqs "$bdf_a" | tr '\n' ' ')
diag "TX SQs (devlink diagnose): ${sqns//$'\n'/ }; RDY SQs (model): $rdy"
in_model() {
	local s

	[ -n "$sqns" ] || return 1
	for s in $sqns; do
		echo " $rdy " | grep -q " $s " || return 1
	done
}
ktap_check "the driver's TX SQs are RDY SQs of the model" in_model

health() { health_counts "$txh" tx; }
h0=$(health)
diag "reporter tx before: error recover state = $h0"
m0=$(model_get "$bdf_a" cmd.MODIFY_SQ)

# Arm each TX SQ in turn and send from every CPU until one takes the fault.
dmesg_mark errcqe
# shellcheck disable=SC2086 # one SQ number a word
hit=$(sq_fault_by_ping "$bdf_a" $sqns)
diag "fault taken by SQ ${hit:-none}"
ktap_check "the model failed one WQE of a TX SQ" test -n "$hit"
hex=$(printf '0x%x' "${hit:-0}")

logged() {
	dmesg_since errcqe | grep -Eq "Error cqe on cqn 0x[0-9a-f]+, ci 0x[0-9a-f]+, qn $hex, opcode 0xd, syndrome $SYND, vendor syndrome 0x0" &&
		dmesg_since errcqe | grep -q "ERR CQE on SQ: $hex"
}
wait_for 10 logged
dmesg_since errcqe | grep -i -e "cqe" -e "recover" -e "SQ" | sed 's/^/# dmesg: /' | head -20
ktap_check "the driver logs the error CQE (syndrome $SYND) and reports it" logged

recovered() {
	local e0 r0 e r st

	read -r e0 r0 _ <<<"$h0"
	read -r e r st <<<"$(health)"
	[ "$e" -eq $((e0 + 1)) ] && [ "$r" -eq $((r0 + 1)) ] && [ "$st" = healthy ]
}
wait_for 15 recovered
diag "reporter tx after: error recover state = $(health)"
devlink health show "$txh" reporter tx | sed 's/^/# /'
ktap_check "devlink health reporter tx: one error, one recovery, healthy" recovered

sq_back() {
	local line

	line=$(cxsim report "$bdf_a" | awk -v k="sq.$hit" '$1 == k')
	echo "$line" | grep -q " st=RDY " && echo "$line" | grep -q " errors=1 " &&
		echo "$line" | grep -q " err_resets=1"
}
wait_for 10 sq_back
cxsim report "$bdf_a" | grep -E "^sq\.($hit |errors|recoveries|doorbells_bad)|^wqe\.flushed|^cqe\.err" | sed 's/^/# model: /'
m=$(( $(model_get "$bdf_a" cmd.MODIFY_SQ) - ${m0:-0} ))
diag "model: MODIFY_SQ +$m"
model_recovered() {
	[ "$(model_get "$bdf_a" sq.recoveries)" = 1 ] && [ "$m" -eq 2 ] && sq_back
}
ktap_check "model: the SQ went ERR -> RST -> RDY (recoveries 1, MODIFY_SQ +2)" \
	model_recovered

stat_sum() { ethtool -S "$a" | awk -v p="$1" '$1 ~ "^tx[0-9]+_" p ":$" { s += $2 } END { print s + 0 }'; }
diag "ethtool -S: tx*_cqe_err $(stat_sum cqe_err), tx*_recover $(stat_sum recover)"
ktap_check "ethtool -S: a TX queue counted the error CQE and the recovery" \
	test "$(stat_sum cqe_err)" -ge 1 -a "$(stat_sum recover)" -eq 1

after() {
	local cpu

	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" ping -c 3 -W 2 "$B_IP" >/dev/null || return 1
	done
}
ktap_check "traffic flows again (ping from every CPU)" after

# Again under pktgen load: WQEs are queued behind the failed one and keep
# coming until the driver stops the queue; the SQ (flush_in_error_en)
# flushes them with WR_FLUSH_ERR CQEs, which the recovery waits for.
# With skb_tx_mpwqe on, a pktgen burst of 32 is one MPWQE, alone in its
# doorbell, and whether anything follows it before the queue stops is a
# race; with it off, the burst is 32 SEND WQEs behind one doorbell, and
# the model fails the first of a batch: at least one is flushed, always.
pktgen_bg() {
	pktgen_setup "$a" 0 32 && pktgen_start until_stopped &
}
injected2() { [ "$(model_get "$bdf_a" sq.errors_injected)" = 2 ]; }
recovered2() { [ "$(health)" = "2 2 healthy" ]; }
under_load() {
	local s f0

	ethtool --set-priv-flags "$a" skb_tx_mpwqe off || return 1
	wait_for 15 up || return 1
	sqns=$(tx_sqns)
	diag "skb_tx_mpwqe off: TX SQs now ${sqns//$'\n'/ }"
	f0=$(model_get "$bdf_a" wqe.flushed)
	pktgen_bg
	sleep 1
	for s in $sqns; do
		cxsim errcqe "$bdf_a" "$s"
		wait_for 3 injected2 && break
	done
	cxsim errcqe "$bdf_a" 0
	# count 0 runs until stopped.
	pktgen_ctl stop
	traffic 0 wait
	wait_for 15 recovered2
	diag "under load: injected $(model_get "$bdf_a" sq.errors_injected), flushed +$(( $(model_get "$bdf_a" wqe.flushed) - f0 )), reporter tx error recover state = $(health), model recoveries $(model_get "$bdf_a" sq.recoveries)"
	injected2 && recovered2 &&
		[ "$(model_get "$bdf_a" wqe.flushed)" -gt "$f0" ] &&
		[ "$(model_get "$bdf_a" sq.recoveries)" = 2 ] && after
}
ktap_check "under pktgen load: WQEs behind it flushed, second recovery, traffic flows" under_load

pair_down
modprobe -r mlx5_core
ktap_check "rmmod: nothing left on the device" all_clean

ktap_finish
