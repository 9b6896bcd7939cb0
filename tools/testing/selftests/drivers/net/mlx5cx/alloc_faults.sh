#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-kernels: debug
# vm-args: --allow-trace-after vmalloc.error:|page.allocation.failure:
#
# (The allocation failures it injects make the kernel print warn_alloc's
# report, a call trace included; those traces are expected.  Any other
# still fails the run.)
#
# Allocation failures during probe (the debug kernel only: failslab and
# fail_page_alloc).  The probing task binds one function through sysfs with
# its Nth slab allocation failing and more after it, each within N of the
# one before (failslab: the task's fail-nth, then interval N), then again
# with page allocations failing (fail_page_alloc), N over a range, until
# the probe has succeeded three times in a row (the whole probe then fits
# before the Nth).  Each probe either binds or fails cleanly: the model
# holds nothing of ours afterwards.  The probes after a failure are the
# sweep's next ones: one that fails before its Nth allocation failed on
# its own (what the failure before left behind), and those that end the
# sweep bind after all the failures before them.  kmemleak finds nothing
# once the sweeps are done.
#
# Only the probing task's allocations fail (task-filter, make-it-fail): the
# rest of the VM, the shell included, is left alone.
#
# The function is held enabled through its sysfs "enable" file while the
# sweeps run.  Otherwise pci_enable_device() in the probe routes the INTx
# pin through ACPI (the _PRT, the link's _SRS, _STA and _CRS) and the
# unwind's pci_disable_device() looks it up again, so the injected failures
# reached the AML interpreter.  ACPICA's unwind of one of them once used
# freed memory (KASAN in acpi_ut_update_object_reference): the kernel's
# bug, not ours.  Held, our enable and disable only count, and the count
# after each probe (back to the one we hold) says the unwind disabled what
# it enabled.
#
# A probe takes tens of seconds under TCG with the debug kernel's checkers,
# so N runs 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (powers of two and the
# midpoints): the first failure lands early, in the middle and late in the
# probe, and the failures that follow hit the unwind itself.  Under make
# check (MLX5CX_QUICK) only the powers of two: about half the probes.
# Environment: FAULT_N="1 2 3 ..." sets the values; FAULT_MAX_N (default
# 5000) caps them.

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

DBG=/sys/kernel/debug
FAULT_MAX_N=${FAULT_MAX_N:-5000}
if [ -z "${FAULT_N:-}" ]; then
	FAULT_N=1
	midpoints=$(sized 1 0)
	for ((n = 2; n <= FAULT_MAX_N; n *= 2)); do
		FAULT_N+=" $n"
		[ "$midpoints" = 1 ] && [ $((n + n / 2)) -le "$FAULT_MAX_N" ] &&
			FAULT_N+=" $((n + n / 2))"
	done
fi
DRV=/sys/bus/pci/drivers/mlx5_core
HELD=''

ktap_header 5

if [ ! -d $DBG/failslab ] || [ ! -d $DBG/fail_page_alloc ]; then
	why="needs the debug kernel (vm/run --kernel debug): no failslab/fail_page_alloc"
	for p in "failslab sweep" "fail_page_alloc sweep" "injection hit the probe" \
		"the largest N probed clean" "kmemleak"; do
		ktap_skip "$p" "$why"
	done
	ktap_finish
	exit
fi

bdf=$(cx_functions | head -n 1)
ENABLE=/sys/bus/pci/devices/$bdf/enable

# attr_set ATTR KEY=VALUE...: configure a fault attribute.
attr_set() {
	local attr=$1 kv

	shift
	for kv in "$@"; do
		echo "${kv#*=}" >"$DBG/$attr/${kv%%=*}"
	done
}

# attr_off ATTR: no failures, and a stack filter no call passes, so that
# the probing task's fail-nth does not count ATTR's calls either.
attr_off() {
	attr_set "$1" probability=0 times=0 interval=1 stacktrace-depth=32 \
		require-start=0 require-end=0
}

# Only tasks with make-it-fail set, and only allocations made with our
# module's code on the stack (the stack-trace filter: N counts those
# alone), sleeping allocations included, no messages (a stack dump would
# read as a kernel splat).  Without the stack filter the marked shell's
# own page faults failed too, and a page fault whose page cannot be had is
# retried for ever ("VM_FAULT_OOM leaked out to the #PF handler").
#
# One kernel function is left out (the filter's reject range):
# register_irq_proc(), which request_irq() calls for a vector's first
# handler.  It ignores a failure to create one of /proc/irq/N's files and
# unregister_irq_proc() removes every one of them, so freeing the vector
# then WARNs in remove_proc_entry() ("name 'smp_affinity'"): the kernel's
# own unwind, not ours, and a WARN fails the run.
MOD_START='' MOD_END='' REJECT_START=0 REJECT_END=0
attr_on() {
	local attr=$1 n=$2

	attr_set "$attr" task-filter=Y ignore-gfp-wait=N verbose=0 space=0 \
		probability=100 interval="$n" times=-1 stacktrace-depth=32 \
		require-start="$MOD_START" require-end="$MOD_END" \
		reject-start="$REJECT_START" reject-end="$REJECT_END"
	[ "$attr" = fail_page_alloc ] && attr_set "$attr" min-order=0 ignore-gfp-highmem=Y
	return 0
}

unbind() {
	[ -n "$(bound_driver "$bdf")" ] && echo "$bdf" >"$DRV/unbind"
	return 0
}

# bind_failing N: bind $bdf from a task whose allocations are subject to
# the armed fault attribute, and print what is left of its fail-nth.  The
# sysfs file is opened before the task is marked, so the failures start
# inside the write.  The attribute's own count (interval) runs on from one
# probe to the next, so by itself the probe's first failure would land
# anywhere in its first N allocations; the task's fail-nth makes it the
# Nth, exactly (the same N fails the same allocation again).  The interval
# takes over from there: the failures after the first land where the
# kernel's count says, each within N allocations of the one before.
# What is left of fail-nth after the write says whether the Nth came: a
# probe that failed with some left failed on its own, with nothing
# injected (what an earlier failure left behind, say).
bind_failing() {
	(
		exec 3>"$DRV/bind"
		echo 1 >/proc/self/make-it-fail
		echo "$1" >/proc/self/fail-nth
		echo "$bdf" >&3
		read -r left </proc/self/fail-nth
		echo "$left"
	) 2>/dev/null
}

# enabled_held WHAT: with no driver bound, the function's enable count is
# the one this test holds: the probe or remove disabled what it enabled.
enabled_held() {
	local c

	c=$(cat "$ENABLE")
	[ "$c" = 1 ] && return 0
	diag "$1: enable count $c after the driver let go, 1 (ours) expected"
	return 1
}

FAILED_PROBES=0 CLEAN_PROBES=0 LAST_CLEAN=''

# sweep ATTR: N over FAULT_N until three probes in a row bound.
sweep() {
	local attr=$1 n last=0 ok_run=0 bad=0 failed=0 bound=0 left

	for n in $FAULT_N; do
		[ "$ok_run" -lt 3 ] || break
		last=$n
		attr_on "$attr" "$n"
		left=$(bind_failing "$n")
		attr_off "$attr"
		if [ "$(bound_driver "$bdf")" = mlx5_core ]; then
			ok_run=$((ok_run + 1)) bound=$((bound + 1))
			unbind
		else
			ok_run=0 failed=$((failed + 1))
			if [ "${left:-0}" != 0 ]; then
				diag "$attr N=$n: the probe failed with no failure injected (fail-nth $left short)"
				bad=$((bad + 1))
			fi
		fi
		enabled_held "$attr N=$n" || bad=$((bad + 1))
		if ! model_clean "$bdf"; then
			diag "$attr N=$n: the model holds objects or pages of ours"
			bad=$((bad + 1))
		fi
		[ "$bad" -lt 5 ] || { diag "$attr: giving up after 5 faults"; break; }
	done
	n=$last
	diag "$attr: N = ${FAULT_N%% *}..$n: $failed probes failed cleanly, $bound bound"
	FAILED_PROBES=$((FAILED_PROBES + failed))
	if [ "$ok_run" -ge 3 ]; then
		CLEAN_PROBES=$((CLEAN_PROBES + 1))
	else
		LAST_CLEAN+=" $attr(no success up to N=$n)"
	fi
	[ "$bad" -eq 0 ]
}

# Our driver loaded with no function bound: probes happen on our bind writes.
echo 0 >/sys/bus/pci/drivers_autoprobe
trap 'echo 1 >/sys/bus/pci/drivers_autoprobe; attr_off failslab; attr_off fail_page_alloc
	[ -z "$HELD" ] || echo 0 >"$ENABLE"' EXIT
load_ours
none_bound || { unbind; diag "a function was bound despite drivers_autoprobe=0"; }
echo 1 >"$ENABLE" && HELD=1
attr_off failslab
attr_off fail_page_alloc
diag "$bdf held enabled (count $(cat "$ENABLE")): no ACPI under the injected failures"
# Our module's code: from its text to the end of its core (an upper bound).
# (bash arithmetic wraps at 2^63; printf %#x prints the unsigned value)
MOD_START=$(cat /sys/module/mlx5_core/sections/.text)
MOD_END=$(printf '%#x' $(( MOD_START + $(cat /sys/module/mlx5_core/coresize) )))
diag "failures limited to stacks through $MOD_START-$MOD_END"
# register_irq_proc's text: from its address to the next symbol's.
read -r REJECT_START REJECT_END < <(awk '
	$3 == "register_irq_proc" && $2 ~ /^[tT]$/ { start = $1 }
	{ addr[NR] = $1 }
	END {
		if (start == "")
			exit
		for (i in addr)
			if (addr[i] > start && (end == "" || addr[i] < end))
				end = addr[i]
		print "0x" start, "0x" end
	}' /proc/kallsyms)
if [ -z "$REJECT_END" ]; then
	diag "register_irq_proc not in /proc/kallsyms: no reject range"
	REJECT_START=0 REJECT_END=0
else
	diag "allocations under register_irq_proc ($REJECT_START-$REJECT_END) never fail"
fi

dmesg_mark alloc-faults
ktap_check "failslab: every Nth slab allocation of the probe fails: clean unwinds, later probes bind" \
	sweep failslab
ktap_check "fail_page_alloc: every Nth page allocation of the probe fails: clean unwinds, later probes bind" \
	sweep fail_page_alloc
ktap_check "the injection made probes fail ($FAILED_PROBES)" test "$FAILED_PROBES" -gt 0
ktap_check "both sweeps reached a probe without failures${LAST_CLEAN:+:$LAST_CLEAN}" \
	test "$CLEAN_PROBES" -eq 2

rmmod mlx5_core
# Objects are reported once 5 s old, by a scan that finds them unchanged
# since the scan before (the first only takes their checksum): two scans.
kmemleak_clean() {
	local k=$DBG/kmemleak

	[ -w "$k" ] || { diag "no kmemleak"; return 1; }
	sleep 5
	echo scan >"$k"
	echo scan >"$k"
	if [ -s "$k" ] && grep -q 'unreferenced object' "$k"; then
		head -n 40 "$k" | sed 's/^/# /'
		return 1
	fi
}
ktap_check "kmemleak: nothing leaked by the failed probes" kmemleak_clean

ktap_finish
