#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Driver core on the model: bring-up reaches a working HCA with EQs and
# doorbells, page requests at run time are served both ways, and 50
# probe/remove cycles leave nothing behind on the device.
# vm-args: --timeout 1500

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

CYCLES=${CYCLES:-$(sized 50 4)}
# The model's; on real hardware, the card's (README.md).
FW_VERSION=${FW_VERSION:-16.35.4030}

ktap_header 10

dmesg_mark core
load_ours
ktap_check "our mlx5_core binds every function" ours_all_bound

probe_line() {
	local bdf

	for bdf in $(cx_functions); do
		dmesg_since core | grep -E "mlx5_core $bdf: firmware version $FW_VERSION, cmdif 5, UAR pages [0-9]+, completion EQs [0-9]+, doorbells [0-9]+ in [0-9]+ UAR pages" |
			sed 's/^/# /' | grep . || return 1
	done
}
ktap_check "one probe line with firmware version and capabilities" probe_line

bdf=$(cx_functions | head -n 1)
hca_objects() {
	local ncomp eqs uars dbs

	ncomp=$(dmesg_since core | sed -n "s/.*mlx5_core $bdf: .*completion EQs \([0-9]*\).*/\1/p" | tail -n 1)
	dbs=$(dmesg_since core | sed -n "s/.*mlx5_core $bdf: .*doorbells [0-9]* in \([0-9]*\) UAR pages.*/\1/p" | tail -n 1)
	eqs=$(model_get "$bdf" obj.eq)
	uars=$(model_get "$bdf" obj.uar)
	diag "$bdf: model has $eqs EQs, $uars UARs; driver: $ncomp completion EQs, $dbs doorbell UAR pages"
	[ "$(model_get "$bdf" hca_state)" = initialised ] &&
		[ "$eqs" = $((ncomp + 1)) ] && [ "$uars" = $((dbs + 1)) ]
}
ktap_check "the device holds the async EQ, one EQ per vector, the doorbell UAR pages" hca_objects

pages_are() {
	[ "$(model_get "$bdf" pages)" = "$1" ]
}
p0=$(model_get "$bdf" pages)
cxsim pages "$bdf" 16
ktap_check "a page request event for 16 pages is served ($p0 -> $((p0 + 16)))" \
	wait_for 10 pages_are $((p0 + 16))
cxsim pages "$bdf" -16
ktap_check "a page return event for 16 pages is served" wait_for 10 pages_are "$p0"

unload_mlx5
ktap_check "rmmod unbinds every function" none_bound
ktap_check "rmmod leaves no object or page on the device" all_clean

ktap_check "$CYCLES probe/remove cycles" \
	probe_cycles "$CYCLES" load_ours "rmmod mlx5_core"
ktap_check "after $CYCLES cycles: zero objects, zero pages left, no leak report" all_clean

# The tests read the model's report through cxsim_report where it is
# built: on a quiet device it prints what cxsim.py prints, byte for byte.
same_report() {
	local py c

	[ -n "$CXSIM_REPORT" ] || { diag "cxsim_report not built"; return 1; }
	py=$(python3 -S "$LIB_DIR/cxsim.py" report) && c=$(cxsim report) || return 1
	diag "$(wc -l <<<"$py") lines from cxsim.py, $(wc -l <<<"$c") from cxsim_report"
	diff <(echo "$py") <(echo "$c") | head -n 5 | sed 's/^/# /'
	[ "$py" = "$c" ]
}
if [ "$MLX5CX_TESTPORT" = yes ]; then
	ktap_check "cxsim_report prints the model's report as cxsim.py does" same_report
else
	ktap_skip "cxsim_report prints the model's report as cxsim.py does" "$TESTPORT_NEEDED"
fi

ktap_finish
