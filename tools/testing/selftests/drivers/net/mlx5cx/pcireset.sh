#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PCI function resets with the driver bound: the model offers PCIe FLR; a
# reset through sysfs unloads the function (reset_prepare) and loads it
# again (reset_done), 10 times, leaving nothing behind. A reset of a
# function whose firmware died brings it back once the firmware lives.
# AER error injection, when the VM can offer it.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

RESETS=${RESETS:-$(sized 10 3)}

ktap_header 7

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

# A reset of a function whose firmware died: it comes back when the
# firmware runs again.  The death must have been seen (fw_fatal reported
# it) before the reset, or the point proves nothing about a dead function.
dead() {
	devlink health show "$dl" reporter fw_fatal | grep -q "error 1"
}
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
