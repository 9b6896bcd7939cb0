#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults injected through the model: each bring-up command fails once in
# turn, a command completes after the timeout, and the firmware's health
# counter stops. Each time the driver names what failed, leaves nothing
# behind on the device and works again afterwards.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
require_testport "the faults are injected through it"

BRINGUP=(ENABLE_HCA QUERY_ISSI SET_ISSI QUERY_PAGES MANAGE_PAGES QUERY_HCA_CAP
	 SET_HCA_CAP INIT_HCA ALLOC_UAR CREATE_EQ)

ktap_header $(( ${#BRINGUP[@]} + 8 ))

bdf=$(cx_functions | head -n 1)
other=$(cx_functions | sed -n 2p)

# The bring-up commands fail once each, in the order the probe issues
# them, on successive probes of $bdf: the module loads once, $other binds
# then and stays bound, and $bdf is bound again through sysfs for each.
# Each probe fails naming its command and no other, so it got past the
# command that failed the probe before it; the model holds nothing of $bdf
# after each; and once they have all failed, $bdf binds.  (One module for
# all of them: what a failed probe leaves in the driver, an ID, a debugfs
# name, a registration, meets the probes after it.)
fail_once() {
	local op=$1 lines

	dmesg_mark "fault-$op"
	cxsim fault "$bdf" "$op" 1 || return 1
	if [ "$op" = "${BRINGUP[0]}" ]; then
		load_ours || return 1
		[ "$(bound_driver "$other")" = mlx5_core ] ||
			{ diag "$op: $other not bound"; return 1; }
	else
		echo "$bdf" 2>/dev/null >"$DRV/bind"
	fi
	if [ -n "$(bound_driver "$bdf")" ]; then
		diag "$op: $bdf bound despite the fault"
		return 1
	fi
	lines=$(dmesg_since "fault-$op" | grep "mlx5_core $bdf: .*) failed, status")
	[[ $lines == *"mlx5_core $bdf: $op(0x"*") op_mod(0x"*") failed, status"* ]] ||
		{ diag "$op: no dmesg line naming the command"; return 1; }
	if [ "$(grep -c . <<<"$lines")" != 1 ]; then
		diag "$op: the probe failed other commands too:"
		sed 's/^/# /' <<<"$lines"
		return 1
	fi
	sed 's/^/# /' <<<"$lines"
	model_clean "$bdf"
}

DRV=/sys/bus/pci/drivers/mlx5_core
for op in "${BRINGUP[@]}"; do
	ktap_check "$op fails once: probe fails naming it alone, nothing left" \
		fail_once "$op"
done

# After them all, the next probe binds, the other function still works,
# and the module unloads leaving nothing behind.
bound_after() {
	echo "$bdf" >"$DRV/bind" && all_bound mlx5_core &&
		devlink dev info "pci/$other" | grep -q fw.version &&
		rmmod mlx5_core && all_clean
}
ktap_check "after ${#BRINGUP[@]} failed probes the next binds; rmmod leaves nothing" bound_after

# QUERY_ADAPTER only feeds devlink info: the device works without it.
adapter_fails() {
	cxsim fault "$bdf" QUERY_ADAPTER 1 &&
		load_ours && all_bound mlx5_core &&
		devlink dev info "pci/$bdf" | grep -q fw.version &&
		rmmod mlx5_core && model_clean "$bdf"
}
ktap_check "QUERY_ADAPTER fails: the function works without a board id" adapter_fails

# A completion later than the command timeout.
late_completion() {
	dmesg_mark late
	cxsim timeout "$bdf" 2000 || return 1
	cxsim delay "$bdf" 4000 QUERY_ISSI 1 || return 1
	load_ours || return 1
	[ -z "$(bound_driver "$bdf")" ] || { diag "bound despite the timeout"; return 1; }
	dmesg_since late | grep -q "mlx5_core $bdf: QUERY_ISSI(0x10a) timed out after 2000 ms" ||
		{ diag "no timeout line"; return 1; }
	rmmod mlx5_core || return 1
	model_clean "$bdf" || return 1
	load_ours && all_bound mlx5_core
}
ktap_check "a completion past the timeout fails the probe with a timeout line" late_completion
ktap_check "after the timeout the device holds nothing and the next probe works" \
	bash -c "rmmod mlx5_core && source $LIB_DIR/lib.sh && all_clean"
cxsim timeout "$bdf" 0

# The firmware stops: the health counter freezes. Not fatal by itself
# (commands still run): the reporter fw reports it and does not recover.
load_ours
reporter_counts() {
	devlink health show "pci/$bdf" reporter fw | grep -q "error 1 recover 0"
}
dmesg_mark health
cxsim freeze "$bdf" on
ktap_check "a stuck health counter is reported to fw, which only reports" \
	wait_for 30 reporter_counts
devlink health show "pci/$bdf" reporter fw | sed 's/^/# /'
ktap_check "dmesg names the stuck counter; no internal error, no recovery" \
	bash -c "dmesg | sed -n '/selftest-mark: health$/,\$p' | grep -q 'health counter stuck' &&
		 ! dmesg | sed -n '/selftest-mark: health$/,\$p' | grep -q 'mlx5_core $bdf: recovering' &&
		 devlink health diagnose pci/$bdf reporter fw | grep -q 'internal_error: false'"
health_counter() {
	devlink health diagnose "pci/$bdf" reporter fw |
		sed -n 's/.*health_counter: \([0-9]*\).*/\1/p'
}
reloaded() {
	local c0 c1

	devlink dev reload "pci/$bdf" || return 1
	c0=$(health_counter)
	sleep 1
	c1=$(health_counter)
	diag "health counter after reload: $c0 -> $c1"
	[ "$(model_get "$bdf" hca_state)" = initialised ] &&
		[ "$(bound_driver "$bdf")" = mlx5_core ] &&
		[ "$c1" -gt "$c0" ] &&
		devlink health show "pci/$bdf" reporter fw | grep -q "state healthy"
}
ktap_check "a reload restarts the firmware: counter runs, fw healthy again" reloaded
unload_mlx5
ktap_check "rmmod after the reload leaves nothing behind" all_clean

ktap_finish
