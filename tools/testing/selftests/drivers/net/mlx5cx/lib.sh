# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the mlx5cx selftests, run as root with no mlx5 driver loaded:
# in the test VM (tools/testing/vm/run) on the ConnectX model, or on a host
# with a real ConnectX-5 or newer. KTAP output comes from the kernel's
# kselftest/ktap_helpers.sh; what is here is ours: the functions under
# test, the model's test port, the two-host setup and pktgen.
#
# On real hardware there is no test port (the model's BAR2) and no QEMU
# monitor: a test point that reaches for either skips, with the reason,
# instead of failing. A test that cannot run at all without the test port
# says so with require_testport.

LIB_DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
# The repository, when the tests run from it (or MLX5CX_REPO names it):
# our module as built there, and the VM runner's QEMU monitor.
REPO=${MLX5CX_REPO:-$(readlink -f "$LIB_DIR/../../../../../..")}
[ -d "$REPO/tools/testing/cxsim" ] || REPO=
# Our mlx5_core: OUR_KO, else the one built in the repository, else what
# modprobe finds (make install puts ours in updates/, ahead of the
# distribution's).
OUR_KO=${OUR_KO:-${REPO:+$REPO/mlx5_core.ko}}
PCI_VENDOR=0x15b3
# ConnectX-5, 5 Ex, 6, 6 Dx, 6 Lx, 7, 8: the physical functions we drive.
CX_DEVICES="0x1017 0x1019 0x101b 0x101d 0x101f 0x1021 0x1023"

# KTAP: the kernel's helpers, from an installed kselftest tree or a kernel
# tree (../../../kselftest), else KSFT_SRC, else the copy that
# tools/testing/install-deps extracts from linux-source-6.12.
for ksft_dir in "$LIB_DIR/../../../kselftest" "${KSFT_SRC:+$KSFT_SRC/kselftest}" \
		"${CXSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mlx5cx}/kselftest/kselftest"; do
	if [ -r "$ksft_dir/ktap_helpers.sh" ]; then
		# shellcheck source=/dev/null
		source "$ksft_dir/ktap_helpers.sh"
		break
	fi
done
if ! declare -F ktap_test_result >/dev/null; then
	echo "Bail out! kselftest/ktap_helpers.sh not found: run tools/testing/install-deps or set KSFT_SRC"
	exit 1
fi

# sized FULL QUICK: how many rounds a loop of a test makes: FULL, or QUICK
# under make check, which sets MLX5CX_QUICK=1 to keep within its time
# budget (make check-full, kselftest by hand and real hardware: FULL).
sized() {
	if [ -n "${MLX5CX_QUICK:-}" ]; then
		echo "$2"
	else
		echo "$1"
	fi
}

# gen_files DIR NAME...: the Makefile's TEST_GEN_FILES NAME... (XDP
# program objects, the metadata loader) in DIR: each the copy built beside
# the tests (by make, or kselftest's make install), else, where it is
# missing or older than a source beside it, built now by that Makefile, in
# parallel (clang starts slowly under TCG: a VM that finds the host's
# copies saves that).
gen_files() {
	local dir=$1 name src stale=() fresh

	shift
	for name in "$@"; do
		fresh=$([ -f "$LIB_DIR/$name" ] && echo 1)
		if [ -n "$fresh" ] && [ -f "$LIB_DIR/Makefile" ]; then
			for src in "$LIB_DIR"/*.c "$LIB_DIR"/*.h "$LIB_DIR/Makefile"; do
				[ "$src" -nt "$LIB_DIR/$name" ] && fresh= && break
			done
		fi
		if [ -n "$fresh" ]; then
			cp "$LIB_DIR/$name" "$dir/$name" || return 1
		else
			stale+=("$dir/$name")
		fi
	done
	[ ${#stale[@]} = 0 ] ||
		make -s -j"${#stale[@]}" -C "$LIB_DIR" OUTPUT="$dir" "${stale[@]}" >&2
}

# How long the tests' iperf3 runs last (seconds), TCP and UDP: under make
# check long enough for TSO and every counter a test compares to move.
TCP_SECS=${TCP_SECS:-$(sized 10 3)}
UDP_SECS=${UDP_SECS:-$(sized 5 2)}

# insn_snapshot NAME: in a VM run with --insn-count, have the insn-count
# TCG plugin write the guest's instruction counts so far to
# $VM_RESULTS/insn-NAME.txt (tools/testing/bench/insn-report compares two):
# the request named, then the marker program, at whose marker instruction
# the plugin writes it. Fails without the plugin or when none was written.
insn_snapshot() {
	local f=${VM_RESULTS:-}/insn-$1.txt

	[ -n "${VM_INSN_COUNT:-}" ] && [ -x "${VM_INSN_MARK:-}" ] || return 1
	rm -f "$f"
	echo "$1" >"$VM_RESULTS/insn.req" && "$VM_INSN_MARK" && [ -f "$f" ]
}

# The test-facing names, on the kernel's helpers.
ktap_header() {
	ktap_print_header
	ktap_set_plan "$1"
}

# diag MSG: a KTAP diagnostic line (ktap_print_msg, without its word
# splitting and globbing of MSG).
diag() { echo "# $*"; }

# needs REASON: the current test point depends on something this host
# lacks; it is reported as skipped with REASON, whatever it found.
needs() {
	printf '%s\n' "$1" > "$MLX5CX_NEEDS"
}

# ktap_result pass|fail|skip DESC [REASON]: one test point. A point whose
# work (since the previous point) reached for something missing skips; a
# point whose work stalled (within) fails, saying where, and ends the test.
ktap_result() {
	local status=$1 desc=$2 reason=${3:-}

	if [ -s "$MLX5CX_STALL" ]; then
		stall_bail_out "$desc"
	fi
	if [ -s "$MLX5CX_NEEDS" ]; then
		status=skip
		reason=$(head -n 1 "$MLX5CX_NEEDS")
	fi
	rm -f "$MLX5CX_NEEDS"
	case $status in
	pass)	ktap_test_pass "$desc" ;;
	skip)
		# ktap_test_skip takes no reason; KTAP puts it after the
		# directive, as ksft_test_result_skip() does.
		__ktap_test ok "$desc" "SKIP $reason"
		KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
		;;
	*)	ktap_test_fail "$desc" ;;
	esac
	point_time
}

# With MLX5CX_TIMES set, each test point is followed by a diagnostic of
# how long it took since the previous one (or the start of the test):
# where a test's time goes.  The shell's own clock: no process started.
MLX5CX_T0=${EPOCHREALTIME/./}
point_time() {
	local now us

	[ -n "${MLX5CX_TIMES:-}" ] || return 0
	now=${EPOCHREALTIME/./}
	us=$((now - MLX5CX_T0))
	MLX5CX_T0=$now
	printf '# point %d: %d.%01ds\n' $((KTAP_TESTNO - 1)) \
		$((us / 1000000)) $((us % 1000000 / 100000))
}

ktap_pass() { ktap_result pass "$1"; }
ktap_fail() { ktap_result fail "$1"; }
# ktap_skip DESC REASON
ktap_skip() { ktap_result skip "$1" "$2"; }

# ktap_check DESC CMD...: one test point from a command's exit status
# (ktap_test_result, with CMD's words kept as they are), CMD bounded in
# time (within): STEP_SECS seconds, a backstop for steps without a bound
# of their own (traffic has its own, tighter: TRAFFIC_SECS).
ktap_check() {
	local desc=$1

	shift
	if MLX5CX_STEP=$desc within "$STEP_SECS" "$@"; then
		ktap_pass "$desc"
	else
		ktap_fail "$desc"
	fi
}

# The last line of a test: totals, and the exit status kselftest reads
# (0 when every planned point passed or skipped).
ktap_finish() {
	[ ! -s "$MLX5CX_STALL" ] || stall_bail_out "the test's last steps"
	rm -f "$MLX5CX_NEEDS"
	stall_cleanup
	ktap_finished
}

# Every step in bounded time: a driver that stops sending (a TX path that
# never rings its doorbell) must fail the step that stalled within
# minutes, not sit in iperf3 or pktgen until kselftest's timeout.
#
# within SECS CMD...: run CMD (a program, or a shell function in this
# shell, so that what it sets stays set) for at most SECS seconds.  When
# SECS pass first, every process CMD started is killed (the shell running
# CMD is not: CMD returns, failing) and the stall is recorded: the test
# point that CMD was part of fails with "stalled after SECS s" and the
# test ends there (the rest would only stall again, each step its whole
# bound).  After a stall, within and wait_for fail at once.  Sized for a
# busy 2-core TCG machine: a stall means nothing happened for minutes.
# A step of traffic (iperf3, pktgen, a sender) runs under `traffic`: its
# own length and TRAFFIC_SECS more, less than TCP takes to give up a
# connection (127 s): a dead TX path stalls there, not in a TCP timeout.
#
# The clock is a background shell (disowned: a bare `wait` of the test
# does not wait for it) that the test's stall kill spares; if CMD itself
# does not return a minute after the kill (stuck in the kernel), the
# clock ends the whole test, saying so on the test's output.
STEP_SECS=${STEP_SECS:-$(sized 1200 600)}
TRAFFIC_SECS=${TRAFFIC_SECS:-90}

# traffic LEN CMD...: CMD, traffic meant to last about LEN seconds (0 for
# a count of packets), within LEN + TRAFFIC_SECS seconds.
traffic() {
	local len=$1

	shift
	within $((len + TRAFFIC_SECS)) "$@"
}

# udp_paced IP PORT N SIZE: N UDP datagrams of SIZE bytes to IP:PORT, 2 ms
# apart, datagram i filled with the byte i & 0xff; within a traffic bound.
udp_paced() {
	traffic 5 python3 - "$@" <<'EOF'
import socket, sys, time
ip, port, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(n):
    s.sendto(bytes([i & 0xff]) * size, (ip, port))
    time.sleep(0.002)
EOF
}

within() {
	local secs=$1 me=$BASHPID wd rc what exit_trap

	shift
	[ ! -s "$MLX5CX_STALL" ] || return 124
	what="${MLX5CX_STEP:+$MLX5CX_STEP: }$*"
	# The clock must not inherit the test's EXIT trap (its clean-up): a
	# subshell that sets a trap of its own revives the inherited ones,
	# and the clock, stopped early, would run it.  The trap is set again
	# in the test's own shell only: a subshell (a step in the
	# background, `traffic ... &`) lists the test's trap but does not
	# run it, and set there it would clean up when the step ends.
	# Nor any descriptor past stderr: a clock left running would hold
	# a pipe of the caller's (kselftest's runner passes 3 and 4) open.
	exit_trap=$(trap -p EXIT)
	trap - EXIT
	within_clock "$secs" "$me" "$what" </dev/null >/dev/null 2>&1 \
		3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	wd=$!
	[ "$BASHPID" != "$$" ] || eval "${exit_trap:-:}"
	disown "$wd"
	"$@"
	rc=$?
	kill "$wd" 2>/dev/null
	[ ! -s "$MLX5CX_STALL" ] || return 124
	return $rc
}

# within_clock SECS ROOT WHAT: the clock of one within (in the
# background): after SECS, the stall recorded and ROOT's processes but
# the clocks killed.
within_clock() {
	local secs=$1 root=$2 what=$3 s=

	trap 'rm -f "$MLX5CX_STALL.clock.$BASHPID"' EXIT
	# Every sleep of the clock, even one whose PID is not in $s yet.
	trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM
	echo "$BASHPID" >"$MLX5CX_STALL.clock.$BASHPID"
	sleep "$secs" &
	s=$!
	wait "$s"
	s=
	[ -s "$MLX5CX_STALL" ] ||
		printf 'stalled after %s s (%s)\n' "$secs" "${what:0:200}" >"$MLX5CX_STALL"
	echo "selftest-stall: after $secs s: $what" >/dev/kmsg 2>/dev/null
	stall_kill "$root"
	# CMD returns once its processes are gone, and within stops this
	# clock; a shell stuck in a system call does not.
	sleep 60 &
	s=$!
	wait "$s"
	s=
	[ -e "/proc/$root" ] || exit 0
	{
		echo "# $(cat "$MLX5CX_STALL"), and did not stop when killed"
		echo "Bail out! a step stalled and did not stop"
	} >>"/proc/$MLX5CX_TOP/fd/1"
	stall_kill "$MLX5CX_TOP"
	kill -KILL "$MLX5CX_TOP"
}

# stall_kill ROOT: kill every process under ROOT (not ROOT), but the
# clocks of within and what they run: TERM, then KILL 5 s later.
stall_kill() {
	local root=$1 sig l pid rest ppid f i
	local -A kids=() clock=()
	local -a todo list

	for f in "$MLX5CX_STALL".clock.*; do
		[ -e "$f" ] && clock[${f##*.}]=1
	done
	for sig in TERM KILL; do
		kids=()
		for f in /proc/[0-9]*/stat; do
			{ read -r l <"$f"; } 2>/dev/null || continue
			pid=${l%% *} rest=${l##*) }
			read -r _ ppid _ <<<"$rest"
			kids[$ppid]+=" $pid"
		done
		list=() todo=("$root")
		for ((i = 0; i < ${#todo[@]}; i++)); do
			for pid in ${kids[${todo[$i]}]:-}; do
				[ -z "${clock[$pid]:-}" ] || continue
				list+=("$pid") todo+=("$pid")
			done
		done
		[ ${#list[@]} -gt 0 ] || return 0
		kill -"$sig" "${list[@]}" 2>/dev/null
		[ $sig = KILL ] || sleep 5
	done
}

# stall_bail_out DESC: the point DESC failed for a stall; the test ends.
stall_bail_out() {
	local why

	why=$(head -n 1 "$MLX5CX_STALL")
	rm -f "$MLX5CX_NEEDS"
	__ktap_test "not ok" "$1" "$why"
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
	stall_cleanup
	ktap_exit_fail_msg "a step stalled ($why): the rest of the test is not run"
}

# stall_cleanup: stop the clocks still running (those of shells a stall
# killed); the test is ending.
stall_cleanup() {
	local f

	for f in "$MLX5CX_STALL".clock.*; do
		[ -e "$f" ] && kill "${f##*.}" 2>/dev/null
	done
	rm -f "$MLX5CX_STALL"
}

# The PCI functions under test, one a line: MLX5CX_FUNCTIONS (BDFs), else
# every ConnectX-5+ physical function of the host.
cx_functions() {
	local d v id

	if [ -n "${MLX5CX_FUNCTIONS:-}" ]; then
		# shellcheck disable=SC2086 # one BDF a word
		printf '%s\n' $MLX5CX_FUNCTIONS
		return 0
	fi
	# Read with the shell's own read: helpers that ask often (all_bound in
	# probe cycles) would otherwise start two programs a PCI device.
	for d in /sys/bus/pci/devices/*; do
		read -r v <"$d/vendor" && [ "$v" = "$PCI_VENDOR" ] || continue
		read -r id <"$d/device" || continue
		case " $CX_DEVICES " in
		*" $id "*) echo "${d##*/}" ;;
		esac
	done
	return 0
}

TESTPORT_NEEDED="needs the model's test port (BAR2), which this device lacks"
QMP_NEEDED="needs the QEMU monitor of the test VM"

# require_testport [WHY]: the whole test needs the model's test port; on
# real hardware it is skipped, with the reason.
require_testport() {
	[ "$MLX5CX_TESTPORT" = yes ] && return 0
	rm -f "$MLX5CX_NEEDS"
	ktap_print_header
	ktap_skip_all "$TESTPORT_NEEDED${1:+ ($1)}"
	exit "$KSFT_SKIP"
}

# Once per test (sub-shells, bash -c included, inherit): the test's shell
# and where a stall is recorded (within).
if [ -z "${MLX5CX_TOP:-}" ]; then
	MLX5CX_TOP=$$
	MLX5CX_STALL=${TMPDIR:-/tmp}/mlx5cx-stall.$$
	rm -f "$MLX5CX_STALL" "$MLX5CX_STALL".clock.*
	export MLX5CX_TOP MLX5CX_STALL
fi

# Once per test (sub-shells inherit): a host without a function to test
# skips the test; whether the functions have the model's test port.
if [ -z "${MLX5CX_TESTPORT:-}" ]; then
	if [ -z "$(cx_functions)" ]; then
		ktap_print_header
		ktap_skip_all "no ConnectX-5 or newer function on this host"
		exit "$KSFT_SKIP"
	fi
	# shellcheck disable=SC2046 # one BDF a word
	if python3 -S "$LIB_DIR/cxsim.py" present $(cx_functions) 2>/dev/null; then
		MLX5CX_TESTPORT=yes
	else
		MLX5CX_TESTPORT=no
	fi
	MLX5CX_NEEDS=${TMPDIR:-/tmp}/mlx5cx-needs.$$
	rm -f "$MLX5CX_NEEDS"
	export MLX5CX_TESTPORT MLX5CX_NEEDS
fi

# vm_qmp JSON: a QEMU monitor command from inside the VM
# (tools/testing/vm/qmp). VM_QMP is kept for the tests that call it so.
vm_qmp() {
	if [ -z "${CXSIM_VM:-}" ] || [ ! -x "$REPO/tools/testing/vm/qmp" ]; then
		needs "$QMP_NEEDED"
		return 1
	fi
	"$REPO/tools/testing/vm/qmp" "$@"
}
# shellcheck disable=SC2034 # used by the tests
VM_QMP=vm_qmp

# The driver a PCI function is bound to, or nothing.
bound_driver() {
	local link=/sys/bus/pci/devices/$1/driver

	[ -e "$link" ] && link=$(readlink -f "$link") && echo "${link##*/}"
	return 0
}

# all_bound DRIVER: every emulated function is bound to DRIVER.
all_bound() {
	local bdf n=0

	for bdf in $(cx_functions); do
		[ "$(bound_driver "$bdf")" = "$1" ] || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

# none_bound: no emulated function is bound to any driver.
none_bound() {
	local bdf

	for bdf in $(cx_functions); do
		[ -z "$(bound_driver "$bdf")" ] || return 1
	done
	return 0
}

# The loaded mlx5_core is ours: it has a version (MODULE_VERSION, which
# the kernel shows in /sys/module/mlx5_core/version); upstream's driver,
# the distribution's, has none.  Not the out-of-tree taint (O): built in a
# kernel tree (tools/testing/intree-build), ours has none either.
ours_loaded() {
	[ -e /sys/module/mlx5_core/version ]
}

# ours_all_bound: every emulated function bound to mlx5_core, and that
# module ours (not the distribution's, which modprobe finds when $OUR_KO
# is not built).
ours_all_bound() {
	ours_loaded && all_bound mlx5_core
}

load_ours() {
	if [ -n "$OUR_KO" ] && [ -f "$OUR_KO" ]; then
		insmod "$OUR_KO" "$@"
	else
		modprobe mlx5_core "$@"
	fi
}

unload_mlx5() {
	[ -d /sys/module/mlx5_core ] || return 0
	rmmod mlx5_core
}

# dmesg_since MARK: kernel log lines after the line that contains MARK.
dmesg_mark() {
	echo "selftest-mark: $1" > /dev/kmsg
}

dmesg_since() {
	dmesg | sed -n "/selftest-mark: $1\$/,\$p"
}

# The model's test port (tools/testing/cxsim, BAR2): faults and its report.
# Without it (real hardware), the test point that asked skips.
# Python starts slowly in a TCG guest (about a second): -S skips the site
# packages cxsim.py does not use, and a test reads the report once for
# all the values it compares.  The report, which tests read a hundred
# times a run, comes from cxsim_report (the same output, in C: half a
# second less a read) where the Makefile built it from its source as it
# is now.
CXSIM_REPORT=$LIB_DIR/cxsim_report
[ -x "$CXSIM_REPORT" ] && [ ! "$LIB_DIR/cxsim_report.c" -nt "$CXSIM_REPORT" ] ||
	CXSIM_REPORT=
cxsim() {
	if [ "$MLX5CX_TESTPORT" != yes ]; then
		needs "$TESTPORT_NEEDED"
		return 1
	fi
	if [ "$1" = report ] && [ -n "$CXSIM_REPORT" ]; then
		"$CXSIM_REPORT" "${@:2}"
		return
	fi
	python3 -S "$LIB_DIR/cxsim.py" "$@"
}

# model_get BDF KEY: one value of the model's report, or nothing.
model_get() {
	cxsim report "$1" | awk -v k="$2" '$1 == k { print $2; exit }'
}

# model_sum BDF PREFIX: sum of the report's values whose key starts with PREFIX.
model_sum() {
	cxsim report "$1" | awk -v p="$2" 'index($1, p) == 1 { s += $2 } END { print s + 0 }'
}

# report_get KEY: one value of a report read earlier, on stdin.
report_get() {
	awk -v k="$1" '$1 == k { print $2; exit }'
}

# report_sum PREFIX: the sum of the values whose key starts with PREFIX in
# a report read earlier, on stdin.
report_sum() {
	awk -v p="$1" 'index($1, p) == 1 { s += $2 } END { print s + 0 }'
}

# report_of BDF: the part of a report of several functions (cxsim report
# BDF...), on stdin, that is BDF's.
report_of() {
	awk -v h="# $1" '$0 == h { f = 1; next } /^# / { f = 0 } f'
}

# snmp_get NETNS PROTO FIELD: a counter of /proc/net/snmp in NETNS ("" for
# this namespace), e.g. snmp_get peer Udp RcvbufErrors.
snmp_get() {
	local ns=${1:+ip netns exec $1}

	$ns cat /proc/net/snmp | awk -v p="$2:" -v f="$3" '
		$1 == p && !hdr { for (i = 2; i <= NF; i++) col[$i] = i; hdr = 1; next }
		$1 == p && hdr { print $col[f]; exit }'
}

# netdev_stat NETNS DEV NAME: a counter of /sys/class/net/DEV/statistics.
netdev_stat() {
	local ns=${1:+ip netns exec $1}

	$ns cat "/sys/class/net/$2/statistics/$3"
}

# UDP counters at the driver's door, by tc (clsact): udp_tap_add NETNS DEV
# ingress|egress counts the IPv4 UDP packets DEV hands to the stack or the
# stack hands to DEV; udp_tap_get NETNS DEV DIR reads the count.
udp_tap_add() {
	local ns=${1:+ip netns exec $1}

	# The guest does not autoload modules: name them.
	modprobe -a sch_ingress cls_u32 act_gact || return 1
	$ns tc qdisc add dev "$2" clsact 2>/dev/null
	$ns tc filter add dev "$2" "$3" protocol ip prio 1 u32 \
		match ip protocol 17 0xff action ok
}

udp_tap_get() {
	local ns=${1:+ip netns exec $1}

	$ns tc -s filter show dev "$2" "$3" |
		awk '/Sent [0-9]+ bytes [0-9]+ pkt/ { print $4; exit }'
}

udp_tap_del() {
	local ns=${1:+ip netns exec $1}

	$ns tc qdisc del dev "$2" clsact 2>/dev/null
	return 0
}

# qdisc_drops NETNS DEV: packets the root qdisc of DEV dropped.
qdisc_drops() {
	local ns=${1:+ip netns exec $1}

	$ns tc -s qdisc show dev "$2" | awk '/dropped/ {
		for (i = 1; i <= NF; i++) if ($i == "(dropped") { sub(",", "", $(i + 1)); print $(i + 1); exit } }'
}

# model_clean BDF [REPORT]: the function holds no object and no page of
# ours, and no teardown ever found one left behind; from REPORT (its
# report, read earlier) or a report read now.  A report without the
# counters (none read, another model) is not clean.
model_clean() {
	local rep objs pages leaks

	if [ $# -ge 2 ]; then
		rep=$2
	else
		rep=$(cxsim report "$1") || return 1
	fi
	objs=$(report_sum obj. <<<"$rep")
	pages=$(report_get pages <<<"$rep")
	leaks=$(report_get leak.reports <<<"$rep")
	if [ -z "$pages" ] || [ -z "$leaks" ]; then
		diag "$1: the report has no pages or leak.reports counter"
		return 1
	fi
	if [ "$objs" = 0 ] && [ "$pages" = 0 ] && [ "$leaks" = 0 ]; then
		return 0
	fi
	diag "$1: objects $objs, pages $pages, leak reports $leaks"
	grep -E '^(obj|leak|pages|hca)' <<<"$rep" | sed 's/^/#   /'
	return 1
}

# all_clean: model_clean on every function, from one report of them all.
all_clean() {
	local bdf rep

	# shellcheck disable=SC2046 # one BDF a word
	rep=$(cxsim report $(cx_functions)) || return 1
	for bdf in $(cx_functions); do
		model_clean "$bdf" "$(report_of "$bdf" <<<"$rep")" || return 1
	done
}

# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds.
wait_for() {
	local deadline=$((SECONDS + $1))

	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		[ ! -s "$MLX5CX_STALL" ] || return 1
		sleep 0.2
	done
}

# settled SECS CMD...: wait until CMD's output, a snapshot of counters, is
# the same twice in a row half a second apart, at most SECS: what was sent
# has been received, counted or dropped (the device completes later than
# the doorbell, a stack later still).  Prints that snapshot; fails if the
# counters never stood still.
settled() {
	local secs=$1 deadline=$((SECONDS + $1)) prev cur

	shift
	prev=$("$@") || return 1
	while :; do
		sleep 0.5
		cur=$("$@") || return 1
		if [ "$cur" = "$prev" ]; then
			printf '%s\n' "$cur"
			return 0
		fi
		if [ $SECONDS -ge $deadline ] || [ -s "$MLX5CX_STALL" ]; then
			# (on stderr: the caller may keep the snapshot)
			diag "counters still moving after $secs s: $*" >&2
			diff <(printf '%s\n' "$prev") <(printf '%s\n' "$cur") |
				sed -n 's/^[<>]/#  &/p' | head -n 20 >&2
			return 1
		fi
		prev=$cur
	done
}

# traffic_counters BDF...: the model's traffic counters of the functions
# (what moves only with traffic: not eqe.posted, which a command's
# completion moves, ethtool -S asking for the port's counters), for
# settled.
traffic_counters() {
	cxsim report "$@" | grep -E '^(# |(tx|rx|cqe|wqe|sq|cq)\.|eqe\.comp|pcie\.payload\.|pcie\.rx\.wr_pages)'
}

# Counters compared across a step of traffic between the two hosts
# (ours_pair_up: A here, B in $NS), read at once: each read of the model
# starts python, about a second in a loaded TCG guest.
#
# pair_snapshot: the model's traffic counters of both functions
# (traffic_counters), B's ethtool counters, and, when PAIR_SNAP_MORE
# names a command, its "NAME VALUE" lines (what else the step compares:
# counters of A's, of the stack, of a veth).
pair_snapshot() {
	traffic_counters "$bdf_a" "$bdf_b" || return 1
	echo "# e"
	ethtool_stats "$b" "$NS" || return 1
	[ -n "${PAIR_SNAP_MORE:-}" ] || return 0
	echo "# x"
	$PAIR_SNAP_MORE
}

# snap_load ARRAY: a snapshot (pair_snapshot, on stdin) into the
# associative array ARRAY: the model's KEY of A as a.KEY, of B as b.KEY,
# B's ethtool counter NAME as e.NAME, PAIR_SNAP_MORE's NAME as x.NAME;
# and per function the SQs but the striding RQs' control SQs (umr=1)
# summed as sq_totals does (b.sq_wqes, b.sq_wqebbs, b.sq_mpwqes), and the
# CQEs of their CQs (b.sq_cqes), the control SQs' doorbells apart
# (b.umr_doorbells).
declare -gA S0 S1
snap_load() {
	local -n _s=$1
	local k v sec='' f w wb m db umr cqn
	local -A sq_cq=()

	_s=()
	while read -r k v; do
		if [ "$k" = "#" ]; then
			case $v in
			"$bdf_a") sec=a ;;
			"$bdf_b") sec=b ;;
			*) sec=$v ;;
			esac
			_s[$sec.sq_wqes]=0 _s[$sec.sq_wqebbs]=0 _s[$sec.sq_mpwqes]=0
			_s[$sec.umr_doorbells]=0 _s[$sec.sq_cqes]=0
			continue
		fi
		_s[$sec.$k]=$v
		[[ $k =~ ^sq\.[0-9]+$ ]] || continue
		w=0 wb=0 m=0 db=0 umr=0 cqn=''
		for f in $v; do
			case $f in
			wqes=*) w=${f#*=} ;;
			wqebbs=*) wb=${f#*=} ;;
			mpwqes=*) m=${f#*=} ;;
			doorbells=*) db=${f#*=} ;;
			cqn=*) cqn=${f#*=} ;;
			umr=1) umr=1 ;;
			esac
		done
		if [ $umr = 1 ]; then
			_s[$sec.umr_doorbells]=$((_s[$sec.umr_doorbells] + db))
		else
			_s[$sec.sq_wqes]=$((_s[$sec.sq_wqes] + w))
			_s[$sec.sq_wqebbs]=$((_s[$sec.sq_wqebbs] + wb))
			_s[$sec.sq_mpwqes]=$((_s[$sec.sq_mpwqes] + m))
			[ -z "$cqn" ] || sq_cq[$sec.cq.$cqn]=$sec
		fi
	done
	# The CQ lines follow the SQ lines: the SQs' CQEs once all are read.
	for k in "${!sq_cq[@]}"; do
		for f in ${_s[$k]:-}; do
			[ "${f%%=*}" != cqes ] ||
				_s[${sq_cq[$k]}.sq_cqes]=$((_s[${sq_cq[$k]}.sq_cqes] + ${f#*=}))
		done
	done
}

# snap ARRAY: a snapshot now, into ARRAY.
snap() {
	local s

	s=$(pair_snapshot) || return 1
	snap_load "$1" <<<"$s"
}

# pair_rest [ARRAY]: the counters of a snapshot stand still (settled, at
# most 60 s): before a step's first reads, after its traffic; the
# snapshot they stood still at into ARRAY, the step's reads.
pair_rest() {
	local s

	s=$(settled 60 pair_snapshot) || return 1
	[ -z "${1:-}" ] || snap_load "$1" <<<"$s"
}

# delta VAR KEY: VAR set to KEY's growth from snapshot S0 to S1 (a value
# no counter can have, with a diagnostic, if either lacks KEY).
delta() {
	if [ -z "${S0[$2]+set}" ] || [ -z "${S1[$2]+set}" ]; then
		diag "$2: not among the counters read"
		printf -v "$1" %d -1000000000
		return 0
	fi
	printf -v "$1" %d $((${S1[$2]} - ${S0[$2]}))
}

# The netdev of an emulated function (first one under its PCI device).
netdev_of() {
	local d

	for d in /sys/bus/pci/devices/"$1"/net/*; do
		[ -e "$d" ] && echo "${d##*/}" && return 0
	done
	return 1
}

# ethtool_stat DEV NAME [NETNS]: one counter of ethtool -S.
ethtool_stat() {
	local ns=${3:+ip netns exec $3}

	$ns ethtool -S "$1" | awk -v k="$2:" '$1 == k { print $2; exit }'
}

# ethtool_stats DEV [NETNS]: every counter of ethtool -S at once, "NAME
# VALUE" a line, for report_get: one snapshot instead of one ethtool run
# per counter (each takes a while in a TCG guest).
ethtool_stats() {
	local ns=${2:+ip netns exec $2}

	$ns ethtool -S "$1" | sed -n 's/^ *\([^ :]*\): \([0-9]*\)$/\1 \2/p'
}

# stats_delta NAME BEFORE AFTER: how far counter NAME moved between two
# ethtool_stats snapshots (of any netns: ethtool_stats DEV NETNS), AFTER's
# value less BEFORE's; a value no counter can have, with a diagnostic on
# stderr, if either lacks NAME.
stats_delta() {
	local v0 v1

	v0=$(report_get "$1" <<<"$2")
	v1=$(report_get "$1" <<<"$3")
	if [ -z "$v0" ] || [ -z "$v1" ]; then
		echo "# $1: not among the counters read" >&2
		echo -1000000000
		return 0
	fi
	echo $((v1 - v0))
}

# stats_deltas BEFORE AFTER NAME...: "NAME DELTA" of each NAME, by
# stats_delta, joined by "; ", for a diagnostic.
stats_deltas() {
	local n sep=''

	for n in "${@:3}"; do
		printf '%s%s %s' "$sep" "$n" "$(stats_delta "$n" "$1" "$2")"
		sep='; '
	done
	echo
}

# rxq_stats DEV: DEV's rxN_packets of every queue, "rxN_packets VALUE" a
# line (a snapshot for rxq_get and rxq_sum).
rxq_stats() { ethtool_stats "$1" | grep -E '^rx[0-9]+_packets '; }

# rxq_get Q SNAPSHOT: rxQ_packets in an rxq_stats snapshot (0 if none).
rxq_get() {
	local v

	v=$(report_get "rx$1_packets" <<<"$2")
	echo "${v:-0}"
}

# rxq_sum SNAPSHOT: the packets of every queue in an rxq_stats snapshot.
rxq_sum() { awk '{ s += $2 } END { print s + 0 }' <<<"$1"; }

# rxq_arrived DEV BEFORE N: DEV's queues received N packets more than in
# the snapshot BEFORE.
rxq_arrived() { [ "$(($(rxq_sum "$(rxq_stats "$1")") - $(rxq_sum "$2")))" -ge "$3" ]; }

# rx_burst PREFIX: N (the caller's) 64-byte pktgen frames from A into B
# in bursts of 32, between two snapshots at rest (pair_rest); the deltas
# into PREFIX_pkts (B's rx_packets), PREFIX_blks and PREFIX_cpkts (B's
# rx_cqe_compress_blks and _pkts), and from the model's report of B
# PREFIX_cqes (RX CQEs), PREFIX_mblks and PREFIX_mcqes (compressed blocks
# and the CQEs in them), PREFIX_cqeb (CQE bytes written), PREFIX_nowqe
# (frames dropped out of buffer).
rx_cqe_bytes() { cxsim report "$bdf_b" | grep '^pcie\.cqe\.wr_bytes '; }
rx_burst() {
	local p=$1 v

	PAIR_SNAP_MORE=rx_cqe_bytes pair_rest S0 || return 1
	pktgen_setup "$a" "$N" 32 && pktgen_start || return 1
	PAIR_SNAP_MORE=rx_cqe_bytes pair_rest S1 || return 1
	delta "${p}_pkts" e.rx_packets
	delta "${p}_blks" e.rx_cqe_compress_blks
	delta "${p}_cpkts" e.rx_cqe_compress_pkts
	delta "${p}_cqes" b.cqe.rx
	delta "${p}_mblks" b.cqe.comp_blocks
	delta "${p}_mcqes" b.cqe.comp_cqes
	delta "${p}_cqeb" x.pcie.cqe.wr_bytes
	delta "${p}_nowqe" b.rx.drops.no_wqe
	v=$(for k in pkts blks cpkts cqes mblks mcqes cqeb nowqe; do
		local n=${p}_$k
		printf ' %s %s' "$k" "${!n}"
	done)
	diag "$p:$v"
}

# ping_exact [COUNT]: a ping flood of COUNT (200) 1200-byte patterned
# datagrams, 16 in flight, A to B and back: every reply came, byte for
# byte.
ping_exact() {
	local out

	out=$(ping -c "${1:-200}" -i 0.01 -l 16 -s 1200 -p a55a0ff0 -W 2 "$B_IP" 2>&1)
	echo "$out" | tail -n 2 | sed 's/^/# /'
	! grep -q 'wrong data' <<<"$out" && grep -q ' 0% packet loss' <<<"$out"
}

# Kernel log lines at warning level or worse that name mlx5 (the kernel's
# release in a report's CPU line, such as the debug kernel's
# 6.12.118-mlx5cx-debug, does not count).
mlx5_complaints() {
	dmesg --level=emerg,alert,crit,err,warn |
		awk -v rel="$(uname -r)" '{
			l = $0
			i = index(l, rel)
			if (i)
				l = substr(l, 1, i - 1) substr(l, i + length(rel))
			if (tolower(l) ~ /mlx5/)
				print
		}' |
		grep -v -e 'loading out-of-tree module' -e 'module verification failed' \
			-e 'Modules linked in:'
}

# no_complaints DESCRIPTION [PATTERN...]: one test point, passed when the
# kernel log holds no mlx5 error or warning (mlx5_complaints) but lines
# matching a PATTERN, the ones the test provoked; the rest are shown.
# With NO_COMPLAINTS_STRICT set, no oops, BUG, WARN or stalled page_pool
# either.
# kernel_splats [MARK]: the kernel log's oopses, BUGs, WARNs and stalled
# page_pools, but the emulator's own: QEMU's TCG can deliver a kernel #DB
# with the trap flag set (exc_debug_kernel WARNs), which hardware never
# does; the VM runner leaves it out of its verdict alike.
# With MARK (dmesg_mark), only the lines since it.
kernel_splats() {
	if [ $# -gt 0 ]; then
		dmesg_since "$1"
	else
		dmesg
	fi | grep -E 'WARNING|BUG|Oops|page_pool.*stalled' |
		grep -v 'WARNING: .* exc_debug_kernel'
}

no_complaints() {
	local desc=$1 p c
	local -a skip=()

	shift
	for p in "$@"; do
		skip+=(-e "$p")
	done
	if [ ${#skip[@]} -gt 0 ]; then
		c=$(mlx5_complaints | grep -v "${skip[@]}")
	else
		c=$(mlx5_complaints)
	fi
	[ -z "$c" ] || echo "$c" | sed 's/^/# /'
	if [ -n "${NO_COMPLAINTS_STRICT:-}" ] && [ -n "$(kernel_splats)" ]; then
		echo "# an oops, BUG, WARN or stalled page_pool in the kernel log"
		c+=" oops"
	fi
	ktap_check "$desc" test -z "$c"
}

# The two ports as two hosts: port A's netdev stays here as $A_IP, port B's
# moves into network namespace $NS as $B_IP; both up, IPv6 off so that no
# background chatter enters the counters.
NS=peer
A_IP=198.18.0.1
B_IP=198.18.0.2

# (read, not cat: wait_for polls these)
carrier() {
	local c=

	{ read -r c <"/sys/class/net/$1/carrier"; } 2>/dev/null
	[ "$c" = "$2" ]
}
ns_carrier() { [ "$(ip netns exec "$NS" cat "/sys/class/net/$1/carrier" 2>/dev/null)" = "$2" ]; }

# pair_up A B: set up the two hosts; succeeds once both have carrier.
# Each knows the other's MAC address (a permanent neighbour entry): no
# ARP request, reply or probe crosses the ports while a test counts
# frames, whenever a neighbour entry would have gone stale.  IPv6 is off
# for the same reason (no DAD, router solicitation or MLD report): on A,
# and in the namespace before B moves in, since a device that changes
# namespace takes that namespace's defaults.
pair_up() {
	local mac_a mac_b

	sysctl -qw "net.ipv6.conf.$1.disable_ipv6=1"
	mac_a=$(cat "/sys/class/net/$1/address")
	mac_b=$(cat "/sys/class/net/$2/address")
	ip netns add "$NS"
	ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
	ip link set "$2" netns "$NS"
	ip addr add "$A_IP/24" dev "$1"
	ip -n "$NS" addr add "$B_IP/24" dev "$2"
	ip neigh replace "$B_IP" lladdr "$mac_b" dev "$1" nud permanent
	ip -n "$NS" neigh replace "$A_IP" lladdr "$mac_a" dev "$2" nud permanent
	ip link set "$1" up
	ip -n "$NS" link set lo up
	ip -n "$NS" link set "$2" up
	wait_for 15 bash -c "source $LIB_DIR/lib.sh; carrier $1 1 && ns_carrier $2 1"
}

pair_down() {
	ip netns del "$NS" 2>/dev/null
	return 0
}

# ours_bound: our mlx5_core loaded on both functions, one test point;
# sets bdf_a, bdf_b, their netdevs a and b, and PEER_DEV (b). dmesg is
# cleared first, for the test's own dmesg checks.
ours_bound() {
	bdf_a=$(cx_functions | sed -n 1p)
	bdf_b=$(cx_functions | sed -n 2p)
	dmesg -C
	load_ours
	ktap_check "our mlx5_core binds both functions" ours_all_bound
	a=$(netdev_of "$bdf_a")
	b=$(netdev_of "$bdf_b")
	PEER_DEV=$b
}

# ours_pair_up: ours_bound, then the pair up with carrier, port B in the
# netns $NS: two test points.
ours_pair_up() {
	ours_bound
	ktap_check "both links up with carrier ($b in netns $NS)" pair_up "$a" "$b"
}

# distro_built: the distribution's mlx5_core is there, built for the
# Debian kernel alone.  distro_here: the same, and on another kernel (the
# debug kernel) the current point skips, saying so.  on_distro CMD...: CMD
# where it is there, else that skip.
distro_built() { [ "${VM_KERNEL:-debian}" = debian ]; }
distro_here() {
	distro_built && return 0
	needs "the distribution driver is built for the Debian kernel, not $(uname -r)"
	return 1
}
on_distro() { distro_here && "$@"; }

# driver_pair_up: ours_pair_up, or with DRIVER=distro the same two points
# on the distribution's mlx5_core (modprobe), which sets bdf_a, bdf_b, a
# and b alike.
driver_pair_up() {
	if [ "${DRIVER:-ours}" != distro ]; then
		ours_pair_up
		return
	fi
	bdf_a=$(cx_functions | sed -n 1p)
	bdf_b=$(cx_functions | sed -n 2p)
	dmesg -C
	modprobe mlx5_core
	ktap_check "distribution mlx5_core binds both functions" all_bound mlx5_core
	a=$(netdev_of "$bdf_a")
	b=$(netdev_of "$bdf_b")
	ktap_check "both links up with carrier ($b in netns $NS)" pair_up "$a" "$b"
}

# The tunnel tests' helpers (tunnel.sh, gre.sh): A and B (in $NS) each end
# of tunnel devices over the ports, TCP copied through them and counted.

# tnl_addrs NAME NET: tunnel device NAME, made at both ends, gets NET.1 at
# A and NET.2 at B, an MTU of 1400 (room for any of the outer headers),
# and goes up.
tnl_addrs() {
	ip link set "$1" mtu 1400 &&
		ip -n "$NS" link set "$1" mtu 1400 &&
		ip addr add "$2.1/24" dev "$1" &&
		ip -n "$NS" addr add "$2.2/24" dev "$1" &&
		ip link set "$1" up &&
		ip -n "$NS" link set "$1" up
}

# tnl_xdp_at_b DIR: an XDP program on B's port (built into DIR), which
# makes B's receive path use the CQE's checksum verdict
# (CHECKSUM_UNNECESSARY) rather than CHECKSUM_COMPLETE.
tnl_xdp_at_b() {
	if ! gen_files "$1" xdp_pass.bpf.o ||
	   ! ip -n "$NS" link set dev "$b" xdpdrv obj "$1/xdp_pass.bpf.o" sec xdp ||
	   ! wait_for 15 ns_carrier "$b" 1; then
		diag "no XDP at B"
		return 1
	fi
}

# tnl_snap N: A's inner counters, the model's LSO WQEs of A (where the
# test port is: real hardware has none to read), B's
# rx_csum_unnecessary_inner and rx_csum_none and its stack's TCP and UDP
# checksum errors, into TNL[N.key]; tnl_d KEY: TNL[1.KEY] - TNL[0.KEY].
declare -A TNL
tnl_snap() {
	local n=$1 st

	st=$(ethtool_stats "$a")
	TNL[$n.tso]=$(report_get tx_tso_inner_packets <<<"$st")
	TNL[$n.csum]=$(report_get tx_csum_partial_inner <<<"$st")
	TNL[$n.lso]=0
	[ "$MLX5CX_TESTPORT" != yes ] || TNL[$n.lso]=$(model_get "$bdf_a" wqe.LSO)
	TNL[$n.rxin]=$(ethtool_stat "$b" rx_csum_unnecessary_inner "$NS")
	TNL[$n.rxnone]=$(ethtool_stat "$b" rx_csum_none "$NS")
	TNL[$n.tcperr]=$(snmp_get "$NS" Tcp InCsumErrors)
	TNL[$n.udperr]=$(snmp_get "$NS" Udp InCsumErrors)
}
tnl_d() { echo $((TNL[1.$1] - TNL[0.$1])); }

# tnl_tcp_copy DIR IP PORT: A sends DIR/src to IP:PORT (at B); B's copy,
# DIR/dst, must match.  The counters around it in TNL (tnl_snap 0 and 1).
tnl_tcp_copy() {
	local dir=$1 ip=$2 port=$3 m

	rm -f "$dir/dst"
	tnl_snap 0
	ip netns exec "$NS" socat -u "TCP-LISTEN:$port,bind=$ip,reuseaddr" \
		"CREATE:$dir/dst" &
	servers_up "$NS" "tcp:$port" || return 1
	traffic 10 socat -u "FILE:$dir/src" "TCP:$ip:$port" || return 1
	traffic 0 wait
	tnl_snap 1
	m="TCP to $ip:$port: $(stat -c %s "$dir/dst" 2>/dev/null) bytes at B;"
	m+=" A tx_tso_inner_packets +$(tnl_d tso) tx_csum_partial_inner"
	m+=" +$(tnl_d csum), model wqe.LSO +$(tnl_d lso); B"
	m+=" rx_csum_unnecessary_inner +$(tnl_d rxin) rx_csum_none"
	m+=" +$(tnl_d rxnone), Tcp InCsumErrors +$(tnl_d tcperr), Udp"
	m+=" InCsumErrors +$(tnl_d udperr)"
	diag "$m"
	cmp -s "$dir/src" "$dir/dst"
}

# eth_adev BDF: the function's Ethernet auxiliary device (mlx5_core.eth.N),
# the device the netdev's driver binds to.
eth_adev() {
	local d

	for d in /sys/bus/pci/devices/"$1"/mlx5_core.eth.*; do
		[ -e "$d" ] && basename "$d"
	done
}

# eth_health_dl BDF: the devlink handle of the health reporters "tx" and
# "rx" of the function's netdev, for health_counts and devlink health:
# the netdev's port on the devlink instance of the Ethernet auxiliary
# device (auxiliary/mlx5_core.eth.N/65535), for our driver as for the
# distribution's. Found through the instance, not the netdev's name: a
# port whose netdev moved to another namespace shows none.
eth_health_dl() {
	local adev

	adev=$(eth_adev "$1")
	[ -n "$adev" ] || return 1
	devlink port show | sed -n "s|^\(auxiliary/$adev/[0-9]*\): .*|\1|p"
}

# health_counts DL REPORTER: "ERRORS RECOVERIES STATE" of the devlink
# health reporter REPORTER of DL (pci/BDF, or a port's handle:
# eth_health_dl), "0 0 ?" when it has none.
health_counts() {
	devlink health show "$1" reporter "$2" 2>/dev/null | awk '
		{
			for (i = 1; i < NF; i++) {
				if ($i == "state") s = $(i + 1)
				if ($i == "error") e = $(i + 1)
				if ($i == "recover") r = $(i + 1)
			}
		}
		END { print e + 0, r + 0, (s == "" ? "?" : s) }'
}

# model_tx_sqns BDF: the function's ready send queues in the model but
# the striding RQs' control SQs (umr=1), in creation order: each
# channel's TX SQ and its XDP SQ (there with no XDP program too, which
# no traffic of the stack's reaches).
model_tx_sqns() {
	cxsim report "$1" | awk '$1 ~ /^sq\.[0-9]+$/ && / st=RDY / && / umr=0 / {
		print substr($1, 4) }' | sort -n
}

# sq_totals BDF: "wqes wqebbs mpwqes" summed over the function's SQs but
# the striding RQs' control SQs (umr=1: their WQEs are UMRs).
sq_totals() {
	cxsim report "$1" | awk '$1 ~ /^sq\.[0-9]+$/ && !/ umr=1 / {
		w = b = m = 0
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "wqes") w = kv[2]
			if (kv[1] == "wqebbs") b = kv[2]
			if (kv[1] == "mpwqes") m = kv[2]
		}
		tw += w; tb += b; tm += m
	} END { print tw + 0, tb + 0, tm + 0 }'
}

# sq_fault_by_ping BDF SQN...: arm each SQ in turn for one error CQE
# (cxsim errcqe), pinging $B_IP from every CPU until the model says it
# failed a WQE; prints that SQ (nothing if none did), disarmed after.
sq_fault_by_ping() {
	local bdf=$1 s cpu

	shift
	for s in "$@"; do
		cxsim errcqe "$bdf" "$s"
		for _ in 1 2 3; do
			for cpu in $(seq 0 $(($(nproc) - 1))); do
				taskset -c "$cpu" ping -c 1 -W 1 "$B_IP" >/dev/null 2>&1
			done
			if [ "$(model_get "$bdf" sq.errors_injected)" = 1 ]; then
				cxsim errcqe "$bdf" 0
				echo "$s"
				return 0
			fi
		done
	done
	cxsim errcqe "$bdf" 0
}

# rq_recovers DEV [NS]: RQ recoveries of DEV, its rxN_recover counters
# summed.
rq_recovers() {
	local ns=${2:+ip netns exec $2}

	$ns ethtool -S "$1" | awk '$1 ~ /^rx[0-9]+_recover:$/ { s += $2 } END { print s + 0 }'
}

# devlink_diag_get DEV REPORTER KEY: a field of "devlink health diagnose"
# of DEV's REPORTER (lower case, found at any depth), or nothing.
devlink_diag_get() {
	devlink -j health diagnose "$1" reporter "$2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
def find(o):
    if isinstance(o, dict):
        if sys.argv[1] in o:
            return o[sys.argv[1]]
        for v in o.values():
            r = find(v)
            if r is not None:
                return r
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r is not None:
                return r
    return None
v = find(d)
print("" if v is None else str(v).lower())
' "$3"
}

# devlink_param_get DL NAME: the driverinit value of devlink parameter
# NAME of DL (pci/BDF).
devlink_param_get() {
	devlink dev param show "$1" name "$2" |
		awk '/cmode driverinit/ { print $NF }'
}

# devlink_param_reload DL NAME VALUE: set the driverinit value of NAME,
# then reload DL to apply it.
devlink_param_reload() {
	devlink dev param set "$1" name "$2" value "$3" cmode driverinit &&
		devlink dev reload "$1"
}

# devlink_param_refused DL NAME VALUE MSG: setting NAME to VALUE is refused
# with MSG in the kernel's answer (extack), and NAME keeps its value.
devlink_param_refused() {
	local before out

	before=$(devlink_param_get "$1" "$2")
	out=$(devlink dev param set "$1" name "$2" value "$3" cmode driverinit 2>&1) &&
		{ diag "$2 $3 accepted"; return 1; }
	diag "$2 $3: $out"
	echo "$out" | grep -q -- "$4" && [ "$(devlink_param_get "$1" "$2")" = "$before" ]
}

# probe_cycles N LOAD UNLOAD: N rounds of LOAD (a command line), every
# function bound to mlx5_core, UNLOAD, none bound.
probe_cycles() {
	local n=$1 load=$2 unload=$3 i

	for i in $(seq "$n"); do
		$load || { diag "cycle $i: $load failed"; return 1; }
		all_bound mlx5_core || { diag "cycle $i: not bound"; return 1; }
		$unload || { diag "cycle $i: $unload failed"; return 1; }
		none_bound || { diag "cycle $i: still bound"; return 1; }
	done
}

# pktgen_attach DEV: DEV alone on pktgen's thread 0 (of the current netns).
# rem_device_all only asks the thread, which drops its devices when it
# next runs (pktgen waits 125 ms for it, not always enough in a loaded TCG
# guest): a device added before then is dropped with them, its
# /proc/net/pktgen entry gone. So the old devices are asked away only
# when there are some, and DEV is added once the thread's list is empty;
# add_device is asked again while it fails (EBUSY: the name still on a
# thread), for 20 s at most.
pktgen_thread_busy() {
	grep -Eq '^(Running|Stopped): [^ ]' /proc/net/pktgen/kpktgend_0
}
pktgen_attach() {
	local t=/proc/net/pktgen/kpktgend_0 i

	if pktgen_thread_busy; then
		echo rem_device_all >"$t" || return 1
		for ((i = 0; i < 100; i++)); do
			pktgen_thread_busy || break
			sleep 0.2
		done
	fi
	for ((i = 0; i < 100; i++)); do
		echo "add_device $1" 2>/dev/null >"$t" && return 0
		sleep 0.2
	done
	echo "add_device $1" >"$t"
}

# pktgen_setup DEV COUNT BURST [SIZE]: pktgen on DEV towards the peer host
# ($B_IP in $NS, netdev PEER_DEV), SIZE-byte packets (64) in bursts of
# BURST xmit_more packets, COUNT packets (0: until stopped). Start with
# pktgen_start.
pktgen_setup() {
	local dev=$1 count=$2 burst=$3 size=${4:-64} mac

	mac=$(ip -n "$NS" -br link show "$PEER_DEV" | awk '{print $3}')
	modprobe pktgen
	pktgen_attach "$dev" || return 1
	printf '%s\n' "count $count" "pkt_size $size" "burst $burst" "delay 0" \
		"dst $B_IP" "dst_mac $mac" |
		while read -r l; do echo "$l" >"/proc/net/pktgen/$dev"; done
}

# bql_floor DEV BYTES: BQL's minimum limit on every TX queue of DEV (0:
# the default again).  A device whose completions come late (the model's,
# more so on a loaded host) keeps BQL's learnt limit low, and BQL stops
# the stack's queue long before the ring is full; a floor leaves the
# ring's own stops only, for tests that fill the ring or count its stops.
# BQL applies it at the queue's next completion: send something before
# counting.
bql_floor() {
	local q

	for q in /sys/class/net/"$1"/queues/tx-*/byte_queue_limits/limit_min; do
		echo "$2" >"$q" || return 1
	done
}

# cqe_delay_built DIR: the kprobe spin program and its loader
# (cqe_delay_prog.c, cqe_delay_load.c; built on the host, gen_files) in
# DIR; says what is missing when they cannot be.
cqe_delay_built() {
	[ -x "$1/cqe_delay_load" ] && return 0
	if [ ! -d /sys/bus/event_source/devices/kprobe ]; then
		needs "kprobes for BPF (CONFIG_KPROBE_EVENTS, CONFIG_BPF_EVENTS)"
		return 1
	fi
	gen_files "$1" cqe_delay.bpf.o cqe_delay_load && return 0
	needs "clang, a C compiler and libbpf-dev (tools/testing/install-deps)"
	return 1
}

# mlx5_irqs BDF [NAME]: the IRQ numbers of the function's vectors called
# NAME (an extended regex for the part of /proc/interrupts' name before
# "@pci:BDF"; default every completion vector, mlx5_comp0, mlx5_comp1,
# ...), one a line.
mlx5_irqs() {
	awk -v s="@pci:$1" -v re="^(${2:-mlx5_comp[0-9]+})\$" '{
		n = $NF
		if (length(n) > length(s) &&
		    substr(n, length(n) - length(s) + 1) == s &&
		    substr(n, 1, length(n) - length(s)) ~ re) {
			sub(":", "", $1)
			print $1
		}
	}' /proc/interrupts
}

# irqs_to CPU BDF [NAME]: those vectors (mlx5_irqs) to CPU; fails when
# the function has none of that name.
irqs_to() {
	local irq n=0

	for irq in $(mlx5_irqs "$2" "${3:-}"); do
		echo "$1" >"/proc/irq/$irq/smp_affinity_list" || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

# pktgen_start [LEN]: run the configured devices; returns when COUNT are
# sent, a step of traffic of length LEN (0: a count of packets).  A run
# until stopped (COUNT 0, in the background: pktgen_start until_stopped)
# is bounded by the step that stops it (pktgen_ctl stop).
pktgen_start() {
	if [ "${1:-}" = until_stopped ]; then
		pktgen_ctl start
	else
		traffic "${1:-0}" pktgen_ctl start
	fi
}

# pktgen_ctl start|stop: write pgctrl from a process of its own, which a
# stall can kill (not the test's shell; a signal stops pktgen's threads).
pktgen_ctl() {
	(echo "$1" >/proc/net/pktgen/pgctrl)
}

# xdp_bench_start DEV ARGS...: `xdp-bench ARGS` in $NS, in the
# background until xdp_bench_stop; succeeds once a program is attached to
# DEV (one of the devices in ARGS).  Started straight from here (ip netns
# exec execs it), so that the signals reach it.  Its output:
# $XDP_BENCH_LOG.
XDP_BENCH_LOG=${VM_RESULTS:-/tmp}/xdp-bench.log
xdp_attached_ns() { ip -n "$NS" -d link show "$1" | grep -q 'prog/xdp'; }
xdp_bench_start() {
	XDP_BENCH_DEV=$1
	shift
	ip netns exec "$NS" xdp-bench "$@" >"$XDP_BENCH_LOG" 2>&1 &
	XDP_BENCH_PID=$!
	wait_for 20 xdp_attached_ns "$XDP_BENCH_DEV" && return 0
	sed 's/^/# xdp-bench: /' "$XDP_BENCH_LOG" | head -n 20
	kill "$XDP_BENCH_PID" 2>/dev/null
	wait "$XDP_BENCH_PID" 2>/dev/null
	return 1
}

# Stopped as a user would (SIGINT: xdp-bench detaches its program on the
# way out); a background job may ignore SIGINT, so SIGTERM, then KILL and
# the program removed by hand.  Succeeds when no program is left.
proc_gone() {
	[ ! -e "/proc/$1" ] || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}
xdp_bench_stop() {
	local dev=${1:-$XDP_BENCH_DEV} sig

	for sig in INT TERM KILL; do
		kill -"$sig" "$XDP_BENCH_PID" 2>/dev/null || break
		wait_for 5 proc_gone "$XDP_BENCH_PID" && break
	done
	wait "$XDP_BENCH_PID" 2>/dev/null
	if xdp_attached_ns "$dev"; then
		echo "# xdp-bench left its program attached: removed"
		ip -n "$NS" link set dev "$dev" xdp off
	fi
	! xdp_attached_ns "$dev"
}

# A TCP transfer compared end to end: tcp_sink_start OUT starts a
# receiver on $B_IP:5201 in $NS that writes "sha256 bytes" of what it got
# to OUT; tcp_send FILE connects from the host side, sends FILE and waits
# for the receiver. Counters read between the two see only the transfer.
tcp_sink_start() {
	ip netns exec "$NS" "${PY:-python3}" -c '
import hashlib, socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5201)); s.listen(1); s.settimeout(120)
c, _ = s.accept(); h = hashlib.sha256(); n = 0
while True:
    d = c.recv(65536)
    if not d: break
    h.update(d); n += len(d)
print(h.hexdigest(), n)' "$B_IP" >"$1" &
	TCP_SINK=$!
	servers_up "$NS" tcp:5201
}
# ss_in NETNS ARGS...: ss in NETNS (-: the test's own namespace).
ss_in() {
	local ns=$1

	shift
	if [ "$ns" = - ]; then ss "$@"; else ss -N "$ns" "$@"; fi
}

# tcp_listening NETNS PORT: a TCP socket listens on PORT in NETNS.
tcp_listening() { [ -n "$(ss_in "$1" -Hltn "sport = :$2")" ]; }

# tcp_free NETNS PORT: no TCP socket listens on PORT in NETNS.
tcp_free() { ! tcp_listening "$@"; }

# udp_bound NETNS PORT: a UDP socket is bound to PORT in NETNS.
udp_bound() { [ -n "$(ss_in "$1" -Hlun "sport = :$2")" ]; }

# servers_up NETNS PROTO:PORT...: wait up to 30 s until a server started
# in the background listens (tcp) or is bound (udp) on each PORT in
# NETNS (-: the test's own): a client started sooner would be refused, or
# its datagrams lost.
servers_up() {
	local ns=$1 p where=$1

	shift
	[ "$ns" != - ] || where="the test's namespace"
	for p in "$@"; do
		case $p in
		tcp:*) wait_for 30 tcp_listening "$ns" "${p#tcp:}" ;;
		udp:*) wait_for 30 udp_bound "$ns" "${p#udp:}" ;;
		*) false ;;
		esac || { diag "no server on $p in $where"; return 1; }
	done
}

# iperf3_server: a one-shot iperf3 server on B_IP in $NS, listening when
# this returns.  The one before it may still be closing after its test:
# up to 5 s for its port first (one that never had its client stays, and
# serves the next).
iperf3_server() {
	wait_for 5 tcp_free "$NS" 5201 || true
	ip netns exec "$NS" iperf3 -s -D -1 -B "$B_IP" >/dev/null || return 1
	servers_up "$NS" tcp:5201
}

tcp_send() {
	traffic 10 "${PY:-python3}" -c '
import socket, sys
s = socket.create_connection((sys.argv[1], 5201), timeout=120)
s.sendall(open(sys.argv[2], "rb").read()); s.close()' "$B_IP" "$1" || {
		kill "$TCP_SINK" 2>/dev/null
		wait "$TCP_SINK"
		return 1
	}
	traffic 0 wait "$TCP_SINK"
}

# pktgen_mq_setup DEV NQ COUNT: samples/pktgen's multiqueue setup (one
# thread per queue): thread i sends COUNT 64-byte packets (0: until
# stopped) on queue i of DEV, no burst, towards the peer host ($B_IP,
# netdev PEER_DEV in $NS).  Start with pktgen_start.
pktgen_mq_setup() {
	local dev=$1 nq=$2 count=$3 mac i t

	mac=$(ip -n "$NS" -br link show "$PEER_DEV" | awk '{print $3}')
	modprobe pktgen || return 1
	for t in /proc/net/pktgen/kpktgend_*; do
		echo rem_device_all >"$t"
	done
	for ((i = 0; i < nq; i++)); do
		echo "add_device $dev@$i" >"/proc/net/pktgen/kpktgend_$i" || return 1
		printf '%s\n' "count $count" "clone_skb 0" "pkt_size 64" \
			"burst 1" "delay 0" "flag NO_TIMESTAMP" \
			"queue_map_min $i" "queue_map_max $i" \
			"dst $B_IP" "dst_mac $mac" |
			while read -r l; do echo "$l" >"/proc/net/pktgen/$dev@$i"; done
	done
}
