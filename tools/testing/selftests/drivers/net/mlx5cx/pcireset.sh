#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PCI function resets with the driver bound: the model offers PCIe FLR; a
# reset through sysfs unloads the function (reset_prepare) and loads it
# again (reset_done), 10 times, leaving nothing behind; a recovery asked
# for while a reset is under way is refused and never loads the function
# twice. A reset of a function whose firmware died brings it
# back once the firmware lives.
# AER error injection, when the VM can offer it.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

RESETS=${RESETS:-$(sized 10 3)}

ktap_header 8

bdf=$(cx_functions | head -n 1)
dl=pci/$bdf
sysdev=/sys/bus/pci/devices/$bdf

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
	wait_for 4 test "$(unloads)" != "$u0" || { diag "no reset began"; rc=1; }
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

# AER: aer_inject needs the device's AER capability and a root port above
# it. The VM's functions are root complex integrated endpoints on pcie.0
# (no root port) and the model has no AER capability: say so rather than
# pretend.
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
if ! has_aer || ! under_root_port; then
	ktap_skip "AER error injection" \
		"no AER capability on the function and no root port above it (root complex integrated endpoint on pcie.0): aer_inject cannot target it"
else
	ktap_skip "AER error injection" "not wired up in this VM"
fi

ktap_finish
