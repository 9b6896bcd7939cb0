#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of the VM runner (tools/testing/vm/run), host side, TAP output.
# Boots one VM per case, most with --ports 0; the model error and IOMMU
# cases boot one cxsim function (--ports 1), so QEMU must have the model
# (--qemu, or the runner builds it).
#
# With --kernel debug it tests the runner with the debug kernel instead: a
# clean run passes (nothing reported at boot, the kmemleak scan finds
# nothing), our module is built for that kernel and loads, and each checker
# fails a run: the test-only module in checkers/ makes a KASAN, a lockdep,
# a DMA-API debug and a kmemleak report in turn.
#
# Usage: selftest.sh [--qemu PATH] [--kver KVER] [--kernel KIND] [--keep]
#   --qemu, --kver, --kernel  passed through to the runner
#   --keep          keep the scratch directory (kept anyway when a case fails)

set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUN=$VM_DIR/run
PASS_ARGS=()
KEEP=
GUEST_KERNEL=debian

while [ $# -gt 0 ]; do
	case $1 in
	--qemu | --kver | --kernel)
		[ $# -ge 2 ] || { echo "$1 needs an argument" >&2; exit 2; }
		PASS_ARGS+=("$1" "$2")
		[ "$1" = --kernel ] && GUEST_KERNEL=$2
		shift 2
		;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: ${0##*/} [--qemu PATH] [--kver KVER] [--kernel KIND] [--keep]" >&2; exit 2 ;;
	esac
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/vm-selftest.XXXXXX")
N=0 FAILED=0

finish() {
	if [ "$FAILED" -eq 0 ] && [ -z "$KEEP" ]; then
		rm -rf "$TMP"
	else
		echo "# scratch directory kept: $TMP"
	fi
	echo "# $((N - FAILED)) passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
	exit
}

# guest_script NAME BODY: an executable bash script in the scratch directory.
guest_script() {
	printf '#!/bin/bash\n%s\n' "$2" >"$TMP/$1.sh"
	chmod +x "$TMP/$1.sh"
}

# check DESC WANT_RC MAX_SECONDS GREP_RE RUNNER_ARGS...: run the runner and
# expect its exit status WANT_RC, a wall time under MAX_SECONDS and, unless
# GREP_RE is empty, its combined output to match GREP_RE (one or more
# extended regexes, one a line: each must match).
check() {
	local desc=$1 want=$2 max=$3 re=$4 rc=0 t0 t1 out ok=1 why='' r=''
	shift 4
	N=$((N + 1))
	out=$TMP/case$N.log
	t0=$(date +%s)
	"$RUN" "${PASS_ARGS[@]}" --ports 0 --results "$TMP/case$N" "$@" >"$out" 2>&1 || rc=$?
	t1=$(date +%s)
	if [ "$rc" -ne "$want" ]; then
		ok='' why="exit $rc, want $want"
	elif [ $((t1 - t0)) -gt "$max" ]; then
		ok='' why="took $((t1 - t0))s, limit ${max}s"
	else
		while IFS= read -r r; do
			[ -z "$r" ] || grep -q -E -- "$r" "$out" && continue
			ok='' why="output does not match /$r/"
			break
		done <<< "$re"
	fi
	if [ -n "$ok" ]; then
		echo "ok $N - $desc ($((t1 - t0))s)"
	else
		FAILED=$((FAILED + 1))
		echo "not ok $N - $desc: $why"
		sed 's/^/# /' "$out"
	fi
}

guest_script exit0 'exit 0'
guest_script exit7 'exit 7'
# The kernel log lines of the dmesg cases (k LINE logs one at level 4):
# a WARN without a trace; a report whose trace goes through
# fei_kprobe_handler; what QEMU's TCG leaks into a guest now and then, a
# kernel-mode #DB with single-step set, which the kernel WARNs about in
# exc_debug_kernel(); a report with a trace of its own.
# shellcheck disable=SC2016 # expanded in the guest
k='k() { echo "<4>$1" >/dev/kmsg; }'
warn_log="k 'WARNING: CPU: 0 PID: 1 at selftest'"
fei_log='k "WARNING: inconsistent lock state"; k "other info"; k "Call Trace:"
k " get_random_u8+0xb0/0x5c0"; k " fei_kprobe_handler+0x1d/0xa0"
k " kprobe_int3_handler+0x193/0x510"; k "---[ end trace 0 ]---"'
db_log='k "------------[ cut here ]------------"
k "WARNING: CPU: 0 PID: 0 at arch/x86/kernel/traps.c:1100 exc_debug_kernel+0xb9/0x170"
k "Modules linked in:"; k "Call Trace:"; k " <#DB>"
k " exc_debug_kernel+0xb9/0x170"; k " asm_exc_debug+0x1a/0x30"; k " </#DB>"
k "---[ end trace 0 ]---"'
bug_log='k "BUG: selftest second report"; k "Call Trace:"; k " selftest_func+0x1/0x2"
k "---[ end trace 0 ]---"'
guest_script warn "$k
$warn_log; exit 0"
# What the runner lets pass, in one run: the WARN (--allow-dmesg), the
# report through fei_kprobe_handler (--allow-report-via), the #DB.
guest_script tolerated "$k
$warn_log
$fei_log
$db_log
exit 0"
# Each of them followed by a report that nothing excuses.
guest_script fei_bug "$k
$fei_log
$bug_log
exit 0"
guest_script db_bug "$k
$db_log
$bug_log
exit 0"
guest_script crash 'echo 1 >/proc/sys/kernel/sysrq; echo c >/proc/sysrq-trigger; sleep 600'
# shellcheck disable=SC2016 # expanded in the guest
guest_script args '[ $# -eq 4 ] && [ "$1" = "a b" ] && [ "$2" = "" ] &&
[ "$3" = "it'\''s \"q\" \$HOME *" ] && [ "$4" = "x  y" ] &&
[ "$VM_ENV_T" = "a b '\''c'\''" ] && echo ARGS-INTACT'
guest_script sleep 'sleep 600'
guest_script daemon 'sleep 600 & echo started; exit 3'
# KTAP totals out, then a clean-up that never returns (an rmmod stuck in
# the kernel, as a broken driver's).
guest_script hung_cleanup "trap 'sleep 600' EXIT
echo 'ok 1 - done'
echo '# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0'
exit 0"
# The cxsim function in $bdf (no driver is bound); pci_cmd BITS sets bits
# of its PCI command register (0x2 memory decoding, 0x4 bus mastering).
CXSIM_PY=$VM_DIR/../selftests/drivers/net/mlx5cx/cxsim.py
# shellcheck disable=SC2016 # expanded in the guest
pci_fn='bdf=$(for d in /sys/bus/pci/devices/*; do
	[ "$(cat $d/vendor)" = 0x15b3 ] && { echo ${d##*/}; break; }; done)
[ -n "$bdf" ] || { echo "no cxsim function"; exit 1; }
pci_cmd() { python3 -c "import struct,sys
f = open(\"/sys/bus/pci/devices/$bdf/config\", \"r+b\", buffering=0)
f.seek(4); c = struct.unpack(\"<H\", f.read(2))[0] | int(sys.argv[1], 0)
f.seek(4); f.write(struct.pack(\"<H\", c))" "$1"; }'
# A write to a UAR page nobody allocated: a model error (uar.unallocated).
# shellcheck disable=SC2016 # expanded in the guest
guest_script merr "$pci_fn"'
pci_cmd 0x2
python3 -c "import mmap,os
fd = os.open(\"/sys/bus/pci/devices/$bdf/resource0\", os.O_RDWR | os.O_SYNC)
m = mmap.mmap(fd, 0x2000)
memoryview(m).cast(\"I\")[(0x1000 + 0x40) // 4] = 0"
'"$CXSIM_PY"' report $bdf | grep -x "model_error.uar.unallocated 1" && echo PLANTED'
# The device DMA-writes to IOVA 0x1000, which no mapping covers: first with
# bus mastering off (not issued, no error), then on (the IOMMU refuses).
# shellcheck disable=SC2016 # expanded in the guest
guest_script dmaprobe "$pci_fn"'
[ -e /sys/bus/pci/devices/$bdf/iommu_group ] || { echo "not behind an IOMMU"; exit 1; }
pci_cmd 0x2
[ "$('"$CXSIM_PY"' dmaprobe $bdf 0x1000)" = blocked ] && echo PROBE-BLOCKED
pci_cmd 0x6
[ "$('"$CXSIM_PY"' dmaprobe $bdf 0x1000)" = refused ] && echo PROBE-REFUSED
for i in $(seq 50); do dmesg | grep -q "DMAR: .*DMA Write.*fault addr 0x1000" && break; sleep 0.1; done
dmesg | grep "DMAR: .*fault addr" | head -n 3'
# IOMMU on ($1 on) or off: the function in an IOMMU group whose domain
# translates DMA and unmaps strictly (type DMA, not DMA-FQ), DMA and
# interrupt remapping on; or none of it.
# shellcheck disable=SC2016 # expanded in the guest
guest_script iommu "$pci_fn"'
g=/sys/bus/pci/devices/$bdf/iommu_group
if [ "$1" = on ]; then
	[ -e $g ] && dmesg | grep -q "DMAR: IOMMU enabled" &&
		dmesg | grep -q "DMAR-IR: Enabled IRQ remapping" &&
		[ "$(cat $g/type)" = DMA ] && echo "IOMMU-ON group $(basename "$(readlink $g)") type DMA"
else
	[ ! -e $g ] && ! dmesg | grep -q "DMAR: IOMMU enabled" && echo IOMMU-OFF
fi'
qmp_cmds="$(dirname "$RUN")/qmp '{\"execute\": \"query-status\"}' &&
! $(dirname "$RUN")/qmp '{\"execute\": \"no-such-command\"}'"
# Monitor commands from the guest, then two snapshots of the insn-count
# plugin around a known loop in the kernel, each at its marker instruction:
# the file is there when the marker program returns.
# shellcheck disable=SC2016 # expanded in the guest
guest_script qmp_insn "$qmp_cmds"' || exit 1
snap() {
	rm -f "$VM_RESULTS/insn-$1.txt"; echo "$1" >"$VM_RESULTS/insn.req" &&
	"$VM_INSN_MARK" && [ -f "$VM_RESULTS/insn-$1.txt" ]
}
[ "$VM_INSN_COUNT" = 1 ] && snap a && dd if=/dev/zero of=/dev/null bs=4k count=20000 &&
snap b && '"$(dirname "$RUN")/../bench/insn-report"' "$VM_RESULTS/insn-a.txt" "$VM_RESULTS/insn-b.txt"'

# The flags cmpxchg16b leaves (cmpxchg16b-flags.c, built here): QEMU 7.2
# itself got them wrong until build-qemu patched it.
if ! cc -O2 -o "$TMP/cmpxchg16b-flags" "$VM_DIR/cmpxchg16b-flags.c" 2>"$TMP/cc.log"; then
	echo "Bail out! cmpxchg16b-flags.c does not build"
	sed 's/^/# /' "$TMP/cc.log"
	exit 1
fi
guest_script cx16 "$TMP/cmpxchg16b-flags"

# The debug kernel's cases.  Its boot is slower: limits are wider.
debug_cases() {
	local tree ko
	tree=$("$VM_DIR/debug-kernel" | tail -n 1)
	cp -r "$VM_DIR/checkers" "$TMP/checkers"
	if ! make -C "$tree" M="$TMP/checkers" modules >"$TMP/checkers.log" 2>&1; then
		echo "Bail out! the checkers module does not build against $tree"
		sed 's/^/# /' "$TMP/checkers.log"
		exit 1
	fi
	ko=$TMP/checkers/vm_checkers.ko
	# shellcheck disable=SC2016 # expanded in the guest
	guest_script checker 'insmod "$1" trigger="$2"; echo "insmod: $?"; exit 0'
	# shellcheck disable=SC2016 # expanded in the guest
	guest_script clean '[ "$(modinfo -F vermagic "$OUR_KO" | cut -d" " -f1)" = "$(uname -r)" ] &&
insmod "$OUR_KO" && rmmod mlx5_core && echo OURS-LOADED &&
insmod "$1" && rmmod vm_checkers && echo CHECKERS-CLEAN'

	echo "TAP version 13"
	echo "1..5"
	# One boot: nothing at boot or from the kmemleak scan, our module
	# built for this kernel loads, the checkers module without a trigger
	# is clean.
	check "debug kernel: a clean run gives 0; our mlx5_core, built for it, loads; vm_checkers is clean" \
		0 300 'CHECKERS-CLEAN' "$TMP/clean.sh" "$ko"
	check "debug kernel: a KASAN report fails the run" 123 900 \
		'dmesg.txt:[0-9]+:.*BUG: KASAN: slab-out-of-bounds' "$TMP/checker.sh" "$ko" kasan
	check "debug kernel: a lockdep report fails the run" 123 900 \
		'dmesg.txt:[0-9]+:.*possible circular locking dependency' "$TMP/checker.sh" "$ko" lockdep
	check "debug kernel: a DMA-API debug report fails the run" 123 900 \
		'dmesg.txt:[0-9]+:.*DMA-API: .*different direction' "$TMP/checker.sh" "$ko" dma
	check "debug kernel: a leak found by kmemleak fails the run" 123 900 \
		'dmesg.txt:[0-9]+:.*unreferenced object 0x[0-9a-f]+ \(size 128\)' \
		"$TMP/checker.sh" "$ko" kmemleak
}

if [ "$GUEST_KERNEL" = debug ]; then
	debug_cases
	finish
fi

echo "TAP version 13"
echo "1..22"
check "exit 0 gives 0; args and --env values with spaces and quotes arrive intact" 0 240 \
	'exit=0
ARGS-INTACT' --env "VM_ENV_T=a b 'c'" "$TMP/args.sh" "a b" "" "it's \"q\" \$HOME *" "x  y"
check "exit 7 gives 7" 7 240 'exit=7' "$TMP/exit7.sh"
check "WARN in dmesg fails a passing script" 123 240 'dmesg.txt:[0-9]+:.*WARNING: CPU: 0 PID: 1 at selftest' \
	"$TMP/warn.sh"
check "--allow-dmesg whitelists a WARN, --allow-report-via drops a report whose trace goes through RE, a kernel #DB WARN (exc_debug_kernel) is an emulator artifact: none counted" \
	0 240 'exit=0
emulator artifact, not counted' \
	--allow-dmesg 'at selftest$' --allow-report-via 'fei_kprobe_handler' "$TMP/tolerated.sh"
check "--allow-report-via keeps a report whose trace does not" 123 240 \
	'dmesg.txt:[0-9]+:.*BUG: selftest second report' \
	--allow-report-via 'fei_kprobe_handler' "$TMP/fei_bug.sh"
check "the emulator artifact hides no other report" 123 240 \
	'dmesg.txt:[0-9]+:.*BUG: selftest second report' "$TMP/db_bug.sh"
check "kernel crash fails fast" 123 180 'serial.log:[0-9]+:.*Kernel panic' --timeout 300 "$TMP/crash.sh"
check "a crash while booting boots again, then the script runs" 0 240 \
	'boot 1: the guest kernel crashed before the script started.*booting again' \
	--append vm.boot_crash=once "$TMP/exit0.sh"
check "a crash on every boot fails after --boot-retries 2" 123 360 \
	'boot 2: the guest kernel crashed before the script started' \
	--boot-retries 2 --append vm.boot_crash=always "$TMP/exit0.sh"
# Three boots, two retried: each retried boot's console kept, the last one
# is serial.log and carries the verdict's splat.
N=$((N + 1))
d=$TMP/case$((N - 1))
if grep -q 'Kernel panic' "$d/serial-boot1.log" "$d/serial-boot2.log" 2>/dev/null &&
	[ ! -e "$d/serial-boot3.log" ] && grep -q 'Kernel panic' "$d/serial.log" &&
	! grep -q 'boot 3:' "$TMP/case$((N - 1)).log"; then
	echo "ok $N - three boots: serial-boot1.log, serial-boot2.log and serial.log each hold a panic"
else
	FAILED=$((FAILED + 1))
	echo "not ok $N - three boots: the consoles of the crashed boots are not as expected"
	find "$d" -maxdepth 1 | sed 's/^/# /'
fi
check "a process left running does not hold the VM" 3 240 'started' "$TMP/daemon.sh"
check "a script past --timeout 10 times out" 124 120 'TIMEOUT' --timeout 10 "$TMP/sleep.sh"
export VM_POWEROFF_SECS=5
check "a guest that does not power off after the script is stopped: 124, long before --timeout" 124 120 \
	'did not power off within 5s of the script.s end' --timeout 600 \
	--append vm.poweroff_hang "$TMP/exit0.sh"
unset VM_POWEROFF_SECS
check "a clean-up that hangs after the totals fails the run, long before --timeout" 1 120 \
	'clean-up hung 4 s after its totals' --timeout 600 --append vm.cleanup_grace=4 \
	"$TMP/hung_cleanup.sh"
check "the guest's flags after cmpxchg16b: ZF its own, no reserved bit (QEMU's cxsim/qemu-patches/0001)" \
	0 240 '0 of 1000 wrong' "$TMP/cx16.sh"
check "monitor commands from the guest reach QEMU; --insn-count: snapshots on request, kernel instructions counted" \
	0 240 '"status": "running"
insn\.kernel=[0-9]{6,}' --insn-count "$TMP/qmp_insn.sh"
# One cxsim function: its report is checked after the VM.
check "default: the cxsim function sits behind the IOMMU (group, DMAR, IRQ remapping); a clean report passes" \
	0 240 'IOMMU-ON group' --ports 1 "$TMP/iommu.sh" on
check "--no-iommu boots without it" 0 240 'IOMMU-OFF' --ports 1 --no-iommu "$TMP/iommu.sh" off
check "a planted model error (a write to an unallocated UAR page) fails a passing script" 122 240 \
	'model_error\.uar\.unallocated 1' --ports 1 "$TMP/merr.sh"
check "--allow-model-error accepts that kind" 0 240 \
	'PLANTED
model errors of port0, all expected' --ports 1 --allow-model-error 'uar\.unallocated' "$TMP/merr.sh"
check "--allow-model-error matches the whole kind: uar.unallocated is no uar" 122 240 \
	'model_error\.uar\.unallocated 1' --ports 1 --allow-model-error uar "$TMP/merr.sh"
check "a DMA to an unmapped IOVA faults in the IOMMU and fails the run (dma.fail)" 122 240 \
	'PROBE-BLOCKED
PROBE-REFUSED
DMAR: .*fault addr 0x1000
model_error\.dma\.fail\.wr\.other 1' --ports 1 "$TMP/dmaprobe.sh"
finish
