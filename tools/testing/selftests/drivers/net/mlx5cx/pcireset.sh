#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PCI function resets with the driver bound: the model offers PCIe FLR; a
# reset through sysfs unloads the function (reset_prepare) and loads it
# again (reset_done), 10 times, leaving nothing behind; reloads in a loop
# beside resets in a loop leave it loaded once; a recovery asked for while
# a reset is under way is refused and never loads the function twice. A
# reset of a function whose firmware died brings it back once the
# firmware lives.
# AER: with each function behind a root port and the AER capability (the
# runner's --root-port), QEMU injects a non-fatal and then a fatal
# uncorrectable error into port A's function while iperf3 runs from A to
# B: the kernel's AER driver recovers it (error_detected, slot_reset,
# resume; for the fatal one a secondary bus reset of the root port), the
# netdev comes back under its name, the iperf3 stream flows again,
# fw_fatal counts the error and its recovery, one load's objects and
# pages, nothing left after rmmod.
# vm-args: --root-port

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

RESETS=${RESETS:-$(sized 10 3)}

bdf=$(cx_functions | head -n 1)
dl=pci/$bdf
sysdev=/sys/bus/pci/devices/$bdf

# AER: the function's AER capability and a root port above it (the VM's
# functions are root complex integrated endpoints on pcie.0 without the
# runner's --root-port, and the model has no AER capability then).
has_aer() {
	python3 - "$sysdev/config" <<-'PY'
	import struct, sys
	cfg = open(sys.argv[1], "rb").read()
	off = 0x100
	while len(cfg) >= off + 4 and off:
	    hdr = struct.unpack_from("<I", cfg, off)[0]
	    if hdr & 0xffff == 0x0001:
	        sys.exit(0)
	    off = hdr >> 20
	sys.exit(1)
	PY
}
under_root_port() {
	[ "$(basename "$(dirname "$(readlink -f "$sysdev")")")" != "pci0000:00" ]
}
# The kernel's AER service on the root port (CONFIG_PCIEAER) gives it
# its counters.
kernel_aer() {
	[ -e "$(dirname "$(readlink -f "$sysdev")")/aer_rootport_total_err_fatal" ]
}
AER_POINTS=7
aer=no
if ! has_aer || ! under_root_port || [ -z "${VM_ROOT_PORT:-}" ]; then
	aer_why="no AER capability on the function or no root port above it (tools/testing/vm/run --root-port): QEMU cannot inject"
elif ! kernel_aer; then
	aer_why="the kernel has no AER service on the root port (CONFIG_PCIEAER): nothing would recover"
else
	aer=yes
fi
if [ "$aer" = yes ]; then
	ktap_header $((8 + AER_POINTS))
else
	ktap_header 9
fi

load_ours
objs0=$(model_sum "$bdf" obj.)
pages0=$(model_get "$bdf" pages)

ktap_check "the function offers FLR (reset_method flr)" \
	grep -qw flr "$sysdev/reset_method"

up_again() {
	[ "$(bound_driver "$bdf")" = mlx5_core ] &&
		[ "$(model_get "$bdf" hca_state)" = initialised ] &&
		[ "$(model_sum "$bdf" obj.)" = "$objs0" ] &&
		[ "$(model_get "$bdf" pages)" = "$pages0" ]
}

dmesg_mark resets
resets() {
	local i r0

	r0=$(model_get "$bdf" resets)
	for i in $(seq "$RESETS"); do
		echo 1 > "$sysdev/reset" || { diag "reset $i: write failed"; return 1; }
		up_again || { diag "reset $i: not back"; return 1; }
	done
	diag "model function resets: $r0 -> $(model_get "$bdf" resets)"
	[ "$(model_get "$bdf" resets)" -ge $((r0 + RESETS)) ]
}
ktap_check "$RESETS function resets through sysfs: back each time, same objects and pages" resets
ktap_check "no leak report: each reset found the function torn down" \
	test "$(model_get "$bdf" leak.reports)" = 0
ktap_check "the function still reloads after the resets" \
	bash -c "devlink dev reload $dl && source $LIB_DIR/lib.sh && [ \"\$(model_get $bdf hca_state)\" = initialised ]"

# devlink dev reload in a loop beside function resets in a loop.  On
# 6.12 a reload takes the device lock a sysfs reset holds from prepare to
# done, so it runs between resets (one that still came inside a reset
# would be refused: "a PCI reset of the function is under way"); whatever
# the interleaving, every reload goes through or is refused, and the
# function ends loaded once, with no leak report.
reload_beside_reset() {
	local pid done=0 busy=0 other=0 out rc=0 i leaks0

	leaks0=$(model_get "$bdf" leak.reports)
	(for i in $(seq "$RESETS"); do
		echo 1 > "$sysdev/reset" || exit 1
	done) &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if out=$(devlink dev reload "$dl" 2>&1); then
			done=$((done + 1))
		elif [[ $out == *"PCI reset of the function is under way"* ]]; then
			busy=$((busy + 1))
		else
			other=$((other + 1))
			diag "reload: $out"
		fi
	done
	wait "$pid" || { diag "a reset failed"; rc=1; }
	diag "$RESETS resets beside $((done + busy + other)) reloads: $done done, $busy refused during a reset, $other failed"
	[ "$other" = 0 ] || rc=1
	wait_for 10 up_again || {
		diag "not loaded once: objects $(model_sum "$bdf" obj.) (was $objs0), pages $(model_get "$bdf" pages) (was $pages0), hca_state $(model_get "$bdf" hca_state)"
		rc=1
	}
	[ "$(model_get "$bdf" leak.reports)" = "$leaks0" ] ||
		{ diag "leak reports: $leaks0 -> $(model_get "$bdf" leak.reports)"; rc=1; }
	[ "$rc" = 0 ] && [ $((done + busy)) -gt 0 ] && devlink dev reload "$dl" &&
		up_again
}
ktap_check "reloads in a loop beside $RESETS resets: each done or refused, the function loaded once, no leak report" \
	reload_beside_reset

# A recovery asked for while a reset is under way (devlink health
# recover takes the devlink lock, not the device lock a sysfs reset holds
# from prepare to done, as a reload does). The firmware is dead (fw_fatal
# reported it, auto-recovery off): the reset's done waits up to 5 s for
# signs of life before it loads the function, without the devlink lock. A
# recovery asked for then must be refused; the firmware comes back, and
# the reset's done loads the function (or, when life came after its wait,
# a recovery then does), once: one load's objects and pages, healthy,
# reloads working after. (The model reports the objects the dead function
# could not give back at its FLR: a leak report here is expected.)
dead() {
	devlink health show "$dl" reporter fw_fatal | grep -q "error 1"
}
unloads() { dmesg | grep -c "function reset: unloading"; }
# unloads_past N: more than N function resets began.
unloads_past() { [ "$(unloads)" -gt "$1" ]; }
recover_in_reset() {
	local u0 pid out rc=0

	devlink health set "$dl" reporter fw_fatal auto_recover false
	cxsim timeout "$bdf" 1000 && cxsim dead "$bdf" on || return 1
	if ! wait_for 30 dead; then
		diag "fw_fatal never reported the dead firmware"
		cxsim dead "$bdf" off
		return 1
	fi
	u0=$(unloads)
	echo 1 > "$sysdev/reset" &
	pid=$!
	wait_for 4 unloads_past "$u0" || { diag "no reset began"; rc=1; }
	if out=$(devlink health recover "$dl" reporter fw_fatal 2>&1); then
		diag "the recovery ran during the reset"
		rc=1
	elif [[ $out != *"PCI reset of the function is under way"* ]]; then
		diag "recover: $out"
		rc=1
	fi
	cxsim dead "$bdf" off
	wait "$pid" || { diag "the reset failed"; rc=1; }
	# Life may have come after the reset's done gave up waiting (a slow
	# host): then the function is unloaded, and a recovery brings it back.
	if [ "$(model_get "$bdf" hca_state)" != initialised ]; then
		diag "the reset left the function unloaded (no life within its wait): recovering"
		devlink health recover "$dl" reporter fw_fatal || rc=1
	fi
	devlink health set "$dl" reporter fw_fatal auto_recover true
	if ! wait_for 10 up_again; then
		diag "not loaded once: objects $(model_sum "$bdf" obj.) (was $objs0), pages $(model_get "$bdf" pages) (was $pages0), hca_state $(model_get "$bdf" hca_state)"
		rc=1
	fi
	[ "$rc" = 0 ] &&
		devlink health show "$dl" reporter fw_fatal | grep -q 'state healthy' &&
		devlink dev reload "$dl"
}
ktap_check "a recovery asked for during a reset of a dead function: refused, the function loaded once by the reset, healthy, reloads after" \
	recover_in_reset
cxsim clear "$bdf"

# A reset of a function whose firmware died: it comes back when the
# firmware runs again.  The death must have been seen (fw_fatal reported
# it) before the reset, or the point proves nothing about a dead function.
dead_then_reset() {
	devlink health set "$dl" reporter fw_fatal auto_recover false
	cxsim timeout "$bdf" 1000 && cxsim dead "$bdf" on || return 1
	if ! wait_for 30 dead; then
		diag "fw_fatal never reported the dead firmware: $(devlink health show "$dl" reporter fw_fatal)"
		cxsim dead "$bdf" off
		return 1
	fi
	cxsim dead "$bdf" off
	echo 1 > "$sysdev/reset" || return 1
	[ "$(model_get "$bdf" hca_state)" = initialised ] &&
		devlink health show "$dl" reporter fw_fatal | grep -q 'state healthy'
}
ktap_check "dead firmware (fw_fatal reports it), then a function reset: the function is back, healthy" \
	dead_then_reset
cxsim clear "$bdf"

unload_mlx5
ktap_check "rmmod after the resets: no object or page left" \
	bash -c "source $LIB_DIR/lib.sh; [ \"\$(model_sum $bdf obj.)\" = 0 ] && [ \"\$(model_get $bdf pages)\" = 0 ]"

if [ "$aer" = no ]; then
	ktap_skip "AER error injection" "$aer_why"
	ktap_finish
fi

# AER under traffic. Port A's function (QEMU id port0) is behind root
# port rp0, B's behind rp1: A's recovery reaches A alone.
ours_pair_up
bdf_a=$bdf
# (Without the test port the model's counts are not there: the points
# that need them skip, the recoveries are still checked.)
if [ "$MLX5CX_TESTPORT" = yes ]; then
	objs_a=$(model_sum "$bdf_a" obj.)
	pages_a=$(model_get "$bdf_a" pages)
fi
nsb() { ip netns exec "$NS" "$@"; }
b_rx() { ethtool_stat "$b" rx_packets "$NS"; }
count() { dmesg | grep -c -- "$1"; }
# The AER driver's lines name the function or its root port; ours name
# the function.
aer_counts() {
	echo "$(count "$bdf_a: PCI error detected") $(count "$bdf_a: PCI slot reset") $(count "$bdf_a: function back after the reset") $(count "AER: device recovery successful") $(count "AER: device recovery failed") $(count "$bdf_b: PCI error detected")"
}
# The last AER recovery's length by the kernel's clock: from the error
# message the root port received to the recovery's verdict.
aer_secs() {
	dmesg | awk -F'[][]' '/AER: .*error message received/ { t0 = $2 }
		/AER: device recovery/ { t1 = $2 } END { printf "%.2f", t1 - t0 }'
}
# The model's resets of A's function (with the test port): both errors
# must reset it, the non-fatal one by our FLR, the fatal one by the root
# port's secondary bus reset.
a_resets() {
	if [ "$MLX5CX_TESTPORT" = yes ]; then
		model_get "$bdf_a" resets
	else
		echo 0
	fi
}

# aer_inject ERROR: QEMU's pcie_aer_inject_error on A's function, through
# the runner's monitor agent. HMP answers as text: "OK id: ..." when the
# error went in.
aer_inject() {
	local out

	out=$(vm_qmp "{\"execute\": \"human-monitor-command\", \"arguments\": {\"command-line\": \"pcie_aer_inject_error port0 $1\"}}") || {
		diag "pcie_aer_inject_error: $out"
		return 1
	}
	if [[ $out != '{"return": "OK id: port0 '* ]]; then
		diag "pcie_aer_inject_error $1: $out"
		return 1
	fi
}

# aer_under_load NAME ERROR: inject ERROR on A while iperf3 runs from A
# to B; the recovery runs once (error_detected, slot_reset, resume), the
# kernel calls it successful, A comes back as $a with carrier, and the
# iperf3 stream reaches B again; then ping's bytes reach B.
aer_under_load() {
	local name=$1 err=$2 c0 c1 want client rx0 rx1 log t0 r0 z0 z1 bytes0 bytes1
	local -a n0 n1

	log=${VM_RESULTS:-/tmp}/iperf3-aer-$name.log
	c0=$(aer_counts)
	z0=$(a_resets)
	iperf3_server || { diag "iperf3 server not listening"; return 1; }
	rx0=$(b_rx)
	# Paced: unpaced, iperf3 keeps the TCG guest's vCPUs busy and
	# every step of the test's own crawls (20 Mb/s: 1700 frames a second).
	# Until the test stops it: on the debug kernel the steps below take
	# more than two minutes.
	iperf3 -c "$B_IP" -t 900 -b 20M >"$log" 2>&1 &
	client=$!
	if ! wait_for 20 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 == \"rx_packets:\" { print \$2 }') -gt $((rx0 + 200)) ]"; then
		diag "iperf3 never reached B"
		kill -TERM "$client" 2>/dev/null
		wait "$client"
		return 1
	fi
	t0=$SECONDS
	r0=$(count 'AER: device recovery')
	aer_inject "$err" || { kill -TERM "$client"; wait "$client"; return 1; }
	# Done when the AER driver says so, either way.
	wait_for 60 bash -c "[ \$(dmesg | grep -c 'AER: device recovery') -gt $r0 ]"
	t0=$((SECONDS - t0))
	c1=$(aer_counts)
	read -ra n0 <<<"$c0"
	read -ra n1 <<<"$c1"
	z1=$(a_resets)
	diag "$name: the kernel's recovery took $(aer_secs) s (seen here in $t0 s); error_detected +$((n1[0] - n0[0])), slot_reset +$((n1[1] - n0[1])), resume (back) +$((n1[2] - n0[2])), AER recovery successful +$((n1[3] - n0[3])), failed +$((n1[4] - n0[4])); B's error_detected +$((n1[5] - n0[5])); model resets of A +$((z1 - z0))"
	want=$(( n1[0] - n0[0] == 1 && n1[1] - n0[1] == 1 && n1[2] - n0[2] == 1 && n1[3] - n0[3] == 1 && n1[4] == n0[4] && n1[5] == n0[5] ))
	if [ "$MLX5CX_TESTPORT" = yes ] && [ $((z1 - z0)) != 1 ]; then
		diag "A's function was reset $((z1 - z0)) times, not once"
		want=0
	fi
	# The netdev back, same name, carrier; the stream goes on.
	if [ "$(netdev_of "$bdf_a")" != "$a" ]; then
		diag "A's netdev is now '$(netdev_of "$bdf_a")', not $a"
		want=0
	elif ! wait_for 20 carrier "$a" 1; then
		diag "$a: no carrier after the recovery ($(ls "/sys/bus/pci/devices/$bdf_a/net" 2>&1))"
		want=0
	fi
	rx1=$(b_rx)
	if ! wait_for 40 bash -c "[ \$(ip netns exec $NS ethtool -S $b | awk '\$1 == \"rx_packets:\" { print \$2 }') -gt $((rx1 + 200)) ]"; then
		diag "the iperf3 stream did not reach B again"
		want=0
	fi
	kill -TERM "$client" 2>/dev/null
	wait "$client"
	bytes0=$(netdev_stat "$NS" "$b" rx_bytes)
	if ! ping -q -c 20 -i 0.05 -s 1000 -W 5 "$B_IP" >/dev/null; then
		diag "ping after the recovery lost replies"
		want=0
	fi
	bytes1=$(netdev_stat "$NS" "$b" rx_bytes)
	# 20 requests of 1000 bytes of payload: 1042 bytes a frame at least.
	if [ $((bytes1 - bytes0)) -lt $((20 * 1042)) ]; then
		diag "B received $((bytes1 - bytes0)) bytes of ping, not 20 x 1042"
		want=0
	fi
	diag "$name: B received $((rx1 - rx0)) frames of iperf3 before and during the recovery, $((bytes1 - bytes0)) bytes of ping after"
	[ "$want" = 1 ] || dmesg | grep -E 'AER|mlx5|pcieport' | tail -n 25 | sed 's/^/# dmesg: /'
	[ "$want" = 1 ]
}

# aer_health NAME E0: fw_fatal counted the error and its recovery (E0:
# its counts before), healthy; one load's objects and pages on A.
aer_health() {
	local e0=$2 e1 r0 r1 s1 objs pages

	read -r e0 r0 _ <<<"$e0"
	read -r e1 r1 s1 < <(health_counts "$dl" fw_fatal)
	objs=$(model_sum "$bdf_a" obj.)
	pages=$(model_get "$bdf_a" pages)
	diag "$1: fw_fatal errors $e0 -> $e1, recoveries $r0 -> $r1, $s1; objects $objs (one load: $objs_a), pages $pages ($pages_a), hca_state $(model_get "$bdf_a" hca_state)"
	[ "$e1" = $((e0 + 1)) ] && [ "$r1" = $((r0 + 1)) ] && [ "$s1" = healthy ] &&
		[ "$objs" = "$objs_a" ] && [ "$pages" = "$pages_a" ]
}

h0=$(health_counts "$dl" fw_fatal)
ktap_check "AER non-fatal (POISON_TLP) on A under iperf3: recovered once (error_detected, the function reset, slot_reset, resume), B untouched, $a back with carrier, the stream and ping reach B" \
	aer_under_load nonfatal POISON_TLP
ktap_check "devlink health: fw_fatal counts the non-fatal error and its recovery, healthy; one load's objects and pages" \
	aer_health nonfatal "$h0"
h0=$(health_counts "$dl" fw_fatal)
ktap_check "AER fatal (DLP) on A under iperf3: recovered once (error_detected, the root port's bus reset, slot_reset, resume), B untouched, $a back with carrier, the stream and ping reach B" \
	aer_under_load fatal DLP
ktap_check "devlink health: fw_fatal counts the fatal error and its recovery, healthy; one load's objects and pages" \
	aer_health fatal "$h0"

pair_down
unload_mlx5
ktap_check "rmmod after the AER recoveries: no object or page left on either function" \
	bash -c "source $LIB_DIR/lib.sh; for f in \$(cx_functions); do [ \"\$(model_sum \$f obj.)\" = 0 ] && [ \"\$(model_get \$f pages)\" = 0 ] || exit 1; done"

ktap_finish
