#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# devlink on our mlx5_core: info, the num_doorbells parameter (validation
# with an extack message, applied by reload), and 20 reloads.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

RELOADS=${RELOADS:-$(sized 20 5)}
# The model's firmware version and board id (PSID); on real hardware,
# the card's (README.md).
FW_VERSION=${FW_VERSION:-16.35.4030}
BOARD_ID=${BOARD_ID:-MT_0000000008}

ktap_header 13

load_ours
bdf=$(cx_functions | head -n 1)
dl=pci/$bdf

ktap_check "devlink dev info: driver mlx5_core" \
	bash -c "devlink dev info $dl | grep -q 'driver mlx5_core'"
ktap_check "devlink dev info: fw.version $FW_VERSION running" \
	bash -c "devlink dev info $dl | grep -q 'fw.version $FW_VERSION'"

ktap_check "devlink dev info: fw.psid from the device" \
	bash -c "devlink dev info $dl | grep -q 'fw.psid $BOARD_ID'"

adev=$(eth_adev "$bdf")
diag "auxiliary device of $bdf: ${adev:-none}"
one_adev_each() {
	local f n=0

	for f in $(cx_functions); do
		[ "$(eth_adev "$f" | wc -l)" = 1 ] || return 1
		n=$((n + 1))
	done
	[ "$(find /sys/bus/auxiliary/devices -name 'mlx5_core.eth.*' | wc -l)" = "$n" ]
}
ktap_check "one Ethernet auxiliary device per function (mlx5_core.eth.N)" \
	one_adev_each

doorbells() { devlink_param_get "$dl" num_doorbells; }
def=$(doorbells)
diag "num_doorbells default: $def"
ktap_check "num_doorbells defaults to 8" test "$def" = 8

range="num_doorbells must be between 0 and 64"
ktap_check "num_doorbells 65 refused with the range, value unchanged" \
	devlink_param_refused "$dl" num_doorbells 65 "$range"
ktap_check "num_doorbells 1000 refused with the range, value unchanged" \
	devlink_param_refused "$dl" num_doorbells 1000 "$range"

# Allocated: the smaller of the value and the channels there can be (one
# per completion vector and CPU), two doorbell registers per UAR page.
dmesg_mark reload
applied() {
	local ncomp want pages

	devlink_param_reload "$dl" num_doorbells 4 || return 1
	ncomp=$(dmesg_since reload | sed -n "s/.*mlx5_core $bdf: .*completion EQs \([0-9]*\).*/\1/p" | tail -n 1)
	want=$(printf '%s\n' 4 "$ncomp" "$(nproc)" | sort -n | head -n 1)
	pages=$(( (want + 1) / 2 ))
	diag "num_doorbells 4, $ncomp completion EQs, $(nproc) CPUs: $want doorbells in $pages UAR pages expected; model has $(model_get "$bdf" obj.uar) UARs"
	dmesg_since reload | grep -q "mlx5_core $bdf: .*doorbells $want in $pages UAR pages$" &&
		[ "$(model_get "$bdf" obj.uar)" = $((pages + 1)) ] &&
		[ "$(doorbells)" = 4 ]
}
ktap_check "num_doorbells 4 applied by reload: min(4, channels) doorbells, 2 a UAR page" applied

reloads() {
	local i

	for i in $(seq "$RELOADS"); do
		devlink dev reload "$dl" || { diag "reload $i failed"; return 1; }
	done
	[ "$(model_get "$bdf" hca_state)" = initialised ]
}
ktap_check "$RELOADS reloads" reloads
ktap_check "the auxiliary device survives the reloads ($adev)" \
	test "$(eth_adev "$bdf")" = "$adev"
ktap_check "still bound and serving devlink after the reloads" \
	bash -c "devlink dev info $dl | grep -q 'fw.version $FW_VERSION'"

unload_mlx5
ktap_check "rmmod unbinds every function" none_bound
ktap_check "no object or page left behind, no leak report" all_clean

ktap_finish
