#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Probe and remove: our mlx5_core binds every emulated function and reports
# the model's firmware version; the Ethernet side unbound and bound again
# through sysfs comes back; load/unload cycles leave nothing bound; the
# distribution's mlx5_core, carried by the VM, binds the same functions.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

CYCLES=${CYCLES:-$(sized 20 3)}
# The model's firmware version (tools/testing/cxsim); on real hardware,
# the card's (README.md).
FW_VERSION=${FW_VERSION:-16.35.4030}

ktap_header 9

nfn=$(cx_functions | wc -l)
diag "emulated functions: $(cx_functions | tr '\n' ' ')"
ktap_check "the VM has two emulated ConnectX functions" test "$nfn" -eq 2

dmesg_mark probe
if load_ours; then
	ktap_check "our mlx5_core binds every function" all_bound mlx5_core
else
	ktap_fail "our mlx5_core binds every function"
fi
ktap_check "the loaded mlx5_core is ours (it has our version)" ours_loaded

fw_logged() {
	local bdf

	for bdf in $(cx_functions); do
		dmesg_since probe | grep -q "mlx5_core $bdf: firmware version $FW_VERSION," ||
			return 1
	done
}
dmesg_since probe | grep 'firmware version' | sed 's/^/# /'
ktap_check "each function logged firmware version $FW_VERSION" fw_logged

devlink_fw() {
	local bdf

	for bdf in $(cx_functions); do
		devlink dev info "pci/$bdf" | grep -q "fw.version $FW_VERSION" ||
			return 1
	done
}
ktap_check "devlink dev info reports fw.version $FW_VERSION" devlink_fw

# The Ethernet side unbound and bound again through sysfs: the driver core
# runs its remove and probe holding only the auxiliary device's lock, not
# the function's devlink lock (a reload holds it; on the debug kernel,
# lockdep WARNs when a devlink lock assertion fails). Each netdev comes
# back with its health reporters tx and rx.
eth_rebind() {
	local drv=/sys/bus/auxiliary/drivers/mlx5_core.eth bdf adev dl s

	dmesg_mark rebind
	for bdf in $(cx_functions); do
		adev=$(eth_adev "$bdf")
		echo "$adev" >"$drv/unbind" || return 1
		if netdev_of "$bdf" >/dev/null; then
			diag "$adev unbound, $bdf still has a netdev"
			return 1
		fi
		echo "$adev" >"$drv/bind" || return 1
		netdev_of "$bdf" >/dev/null || { diag "$adev bound, no netdev"; return 1; }
		dl=$(eth_health_dl "$bdf")
		diag "$adev bound again: netdev $(netdev_of "$bdf"), reporters on ${dl:-none}"
		devlink health show "$dl" reporter tx >/dev/null &&
			devlink health show "$dl" reporter rx >/dev/null || return 1
	done
	s=$(kernel_splats rebind)
	[ -z "$s" ] || echo "$s" | head -n 40 | sed 's/^/# /'
	[ -z "$s" ]
}
ktap_check "sysfs unbind and bind of each mlx5_core.eth.N: netdev and reporters back, no WARN" \
	eth_rebind

unload_mlx5
ktap_check "rmmod unbinds every function" none_bound

ktap_check "$CYCLES load/unload cycles" \
	probe_cycles "$CYCLES" load_ours "rmmod mlx5_core"

# The distribution driver: proof that the VM carries it and that the model
# serves it (distro.sh goes further).
dmesg_mark distro
if [ "${VM_KERNEL:-debian}" != debian ]; then
	ktap_skip "distribution mlx5_core binds every function" \
		"the distribution driver is built for the Debian kernel, not $(uname -r)"
elif ! modprobe mlx5_core 2>/dev/null; then
	ktap_fail "distribution mlx5_core loads"
elif ours_loaded; then
	ktap_fail "distribution mlx5_core loads (ours was picked instead)"
elif all_bound mlx5_core; then
	ktap_pass "distribution mlx5_core binds every function"
else
	dmesg_since distro | grep mlx5_core | tail -n 5 | sed 's/^/# /'
	ktap_fail "distribution mlx5_core binds every function"
fi
modprobe -r mlx5_core 2>/dev/null

ktap_finish
