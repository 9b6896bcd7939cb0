# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the workloads' scripts in the VM: the selftests' lib.sh, and
# bench_load, which every workload starts a driver's turn with.

# shellcheck shell=bash
# A workload's pktgen runs (pktgen_start) are bounded as the selftests'
# are, but the insn-count plugin slows the guest several times over: a
# bound of 15 minutes, to catch a stall, not a slow run.
TRAFFIC_SECS=${TRAFFIC_SECS:-900}
# shellcheck source-path=SCRIPTDIR source=../selftests/drivers/net/mlx5cx/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../selftests/drivers/net/mlx5cx/lib.sh"

BENCH_DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
RAW=$VM_RESULTS/raw
mkdir -p "$RAW"
# IPv6 off on every device of this namespace, now and whenever one is
# (re)made: pair_up turns it off on port A only, and an MTU below IPv6's
# minimum of 1280 (xdp-drop's 1000) drops the device's IPv6 state, which
# a later MTU of 1280 or more creates again with the namespace's default
# (IPv6 on): DAD, MLD reports and router solicitations, every 4 s, then
# backing off, that port B counts beside pktgen's frames.
sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
# JITed BPF programs (xdp-bench's) in /proc/kallsyms, for insn-report
# --symbols: else their instructions go to whichever symbol precedes them.
[ -z "${VM_INSN_COUNT:-}" ] || sysctl -qw net.core.bpf_jit_kallsyms=1
bdf_a=$(cx_functions | sed -n 1p)
bdf_b=$(cx_functions | sed -n 2p)

# bench_load DRIVER: ours or distro (the distribution's mlx5_core) bound to
# both functions; sets a, b (their netdevs) and PEER_DEV; under the
# insn-count plugin, the module's text ranges go to $RAW/DRIVER.text (for
# its share of the instructions).
bench_load() {
	local ko

	case $1 in
	ours) load_ours; ko=$OUR_KO ;;
	distro) modprobe mlx5_core; ko=$(modinfo -n mlx5_core) ;;
	*) echo "unknown driver $1" >&2; return 1 ;;
	esac
	a=$(netdev_of "$bdf_a")
	b=$(netdev_of "$bdf_b")
	PEER_DEV=$b
	BENCH_DRV=$1
	[ -z "${VM_INSN_COUNT:-}" ] ||
		"$BENCH_DIR/insn-report" --ranges mlx5_core "$ko" >"$RAW/$1.text"
}

# pipe_readers KEEP: KEEP (pids between spaces) with the processes that
# read a pipe a process of it writes its stdout or stderr to, and so on
# from theirs (a tee or a sed the output goes through, the other end of
# the runner's pipe): frozen, they would leave a print of the window
# blocked once the pipe is full.  A pipe's reader holds it open for
# reading (fdinfo's flags: O_RDONLY or O_RDWR), its writers write-only.
pipe_readers() {
	local keep=$1 outs=' ' added=1 e dir fd pipe p k v fl
	local -a fds

	mapfile -t fds < <(find /proc/[0-9]*/fd -lname 'pipe:*' -printf '%h %f %l\n' 2>/dev/null)
	while [ "$added" = 1 ]; do
		added=0
		for e in "${fds[@]}"; do
			read -r dir fd pipe <<<"$e"
			p=${dir#/proc/} p=${p%/fd}
			[[ $fd == [12] && $keep == *" $p "* && $outs != *" $pipe "* ]] &&
				outs+="$pipe "
		done
		for e in "${fds[@]}"; do
			read -r dir fd pipe <<<"$e"
			p=${dir#/proc/} p=${p%/fd}
			[[ $keep != *" $p "* && $outs == *" $pipe "* ]] || continue
			fl=''
			while read -r k v; do
				[ "$k" != flags: ] || { fl=$v; break; }
			done 2>/dev/null <"/proc/$p/fdinfo/$fd"
			[ -n "$fl" ] || continue
			(( (8#$fl & 3) != 1 )) || continue
			keep+="$p "
			added=1
		done
	done
	echo "$keep"
}

# others_freeze: every user process but this shell, its ancestors and
# the readers of their output (pipe_readers) frozen (cgroup v2 freezer,
# cgroup bench-quiet): the VM's init, whose watchdog loop starts a sleep
# and a grep every 2 s, and the workload's background programs
# (xdp-bench, which polls its counters).  Their process starts and exits,
# page faults and system calls stay out of a counted window; others_thaw
# lets them run again.  BENCH_KEEP_PIDS: the workload's own receivers
# (pids, by spaces), which run on.  A process they fork meanwhile joins
# their cgroup, so that a pass that moves none ends it.  What the kept
# readers do in a window counts in its user instructions (insn.user):
# the workloads' checks bound those.
QUIET_CG=/sys/fs/cgroup/bench-quiet
others_freeze() {
	local keep=' ' p q moved cg line f

	if [ ! -e "$QUIET_CG" ]; then
		[ -e /sys/fs/cgroup/cgroup.procs ] ||
			mount -t cgroup2 cgroup2 /sys/fs/cgroup || return 1
		mkdir "$QUIET_CG" || return 1
	fi
	q=$BASHPID
	while [ "$q" -gt 1 ]; do
		keep+="$q "
		p=$q q=0
		while read -r line; do
			case $line in PPid:*) q=${line#PPid:} q=${q//[[:space:]]/} ;; esac
		done <"/proc/$p/status"
	done
	keep+="1 ${BENCH_KEEP_PIDS:+$BENCH_KEEP_PIDS }"
	keep=$(pipe_readers "$keep")
	moved=1
	while [ "$moved" -gt 0 ]; do
		moved=0
		for p in /proc/[0-9]*; do
			p=${p#/proc/}
			[[ "$keep" != *" $p "* ]] || continue
			cg='' line=''
			{
				read -r cg <"/proc/$p/cgroup"
				read -r line <"/proc/$p/stat"
			} 2>/dev/null
			[ "$cg" != "0::/${QUIET_CG##*/}" ] || continue
			# Not a kernel thread (PF_KTHREAD in the flags, the 7th
			# field after the command's name): the freezer leaves
			# those running, and a cgroup holding one never reads
			# as frozen.
			read -ra f <<<"${line##*) }"
			[ -n "${f[6]:-}" ] && (( (f[6] & 0x200000) == 0 )) || continue
			# A process gone meanwhile refuses.
			{ echo "$p" >"$QUIET_CG/cgroup.procs"; } 2>/dev/null &&
				moved=$((moved + 1))
		done
	done
	echo 1 >"$QUIET_CG/cgroup.freeze" || return 1
	wait_for 10 grep -qx 'frozen 1' "$QUIET_CG/cgroup.events"
}

others_thaw() {
	[ ! -e "$QUIET_CG/cgroup.freeze" ] || echo 0 >"$QUIET_CG/cgroup.freeze"
}

# pktgen_start_counted NAME [MS]: pktgen_start; with the insn-count plugin,
# its snapshots NAME-0 and NAME-1 (insn-NAME-0.txt, insn-NAME-1.txt) taken
# by one process around pgctrl's "start" line (pgctrl drops a write's last
# character), which returns once pktgen is done, and MS milliseconds after
# it (a receiver's last poll), every other user process frozen
# (others_freeze): what the guest ran for the packets, and no process
# start or exit.  The window's user instructions (insn-report's
# insn.user) are insn-mark's own, 116.
pktgen_start_counted() {
	local rc=0

	[ -n "${VM_INSN_COUNT:-}" ] || { pktgen_start; return; }
	others_freeze || { others_thaw; echo "cannot freeze the other processes" >&2; return 1; }
	printf '%s\n%s\n' "$1-0" "$1-1" >"$VM_RESULTS/insn.req" &&
		timeout "$TRAFFIC_SECS" "$VM_INSN_MARK" /proc/net/pktgen/pgctrl \
			$'start\n' "${2:-0}" || rc=$?
	others_thaw
	return $rc
}

# set_rq TYPE: B's RQ type (legacy or striding) set with its private flag
# rx_striding_rq; a driver without the flag has the legacy RQ only.
set_rq() {
	local on=off

	[ "$1" = legacy ] || on=on
	if ! ip netns exec "$NS" ethtool --show-priv-flags "$b" 2>/dev/null |
		grep -q '^rx_striding_rq'; then
		[ "$1" = legacy ] && return 0
		echo "no striding RQ (no private flag rx_striding_rq)"
		return 1
	fi
	ip netns exec "$NS" ethtool --set-priv-flags "$b" rx_striding_rq "$on"
}

# grew KEY TAG: KEY of the model's report, TAG.after less TAG.before.
grew() {
	echo $(( $(awk -v k="$1" '$1 == k { print $2 }' "$2.after") -
		$(awk -v k="$1" '$1 == k { print $2 }' "$2.before") ))
}

# xdp_bench_or_refused TAG MODE ARGS...: `xdp-bench MODE ARGS` on port B,
# or TAG.refused with the first line that says why not.
xdp_bench_or_refused() {
	local tag=$1

	shift
	xdp_bench_start "$b" "$@" >"$tag.err" 2>&1 && return 0
	{
		printf 'xdp-bench %s: ' "$1"
		grep -m1 -iE 'err|fail|refus|support' "$tag.err" || echo refused
	} >"$tag.refused"
	return 1
}

# bench_counted_run T LAST: one counted run of $N 64-byte pktgen frames
# from A to B in bursts of 32, B's model report and ethtool -S (T.before,
# T.ethtool-*, T.after) around A's (T.a-*): B's bracket A's, so that every
# frame A counts as sent falls in B's window. LAST=a takes A's after
# report last, for a workload where B sends the frames back: once B's
# last one is on the wire. The insn-count plugin's two counts go to
# T.insn0 and T.insn1. PKTGEN_DST: the frames' IPv4 destination, when not
# B's address.
bench_counted_run() {
	local t=$1 last=$2 i f

	cxsim report "$bdf_b" >"$t.before"
	ip netns exec "$NS" ethtool -S "$b" >"$t.ethtool-before"
	cxsim report "$bdf_a" >"$t.a-before"
	pktgen_setup "$a" "$N" 32
	[ -z "${PKTGEN_DST:-}" ] || echo "dst $PKTGEN_DST" >"/proc/net/pktgen/$a"
	# B's NAPI runs beside pktgen; 200 ms for its last poll (and its XDP
	# SQ's completions).
	pktgen_start_counted "${t##*/}" 200
	sleep 1
	[ "$last" = a ] || cxsim report "$bdf_a" >"$t.a-after"
	ip netns exec "$NS" ethtool -S "$b" >"$t.ethtool-after"
	cxsim report "$bdf_b" >"$t.after"
	[ "$last" != a ] || cxsim report "$bdf_a" >"$t.a-after"
	for i in 0 1; do
		f=$VM_RESULTS/insn-${t##*/}-$i.txt
		[ ! -f "$f" ] || mv "$f" "$t.insn$i"
	done
}

# bench_pair DRIVER: bench_load, then the two ports paired up (B in $NS)
# with one channel each, carrier on both.
bench_pair() {
	bench_load "$1" || return 1
	pair_up "$a" "$b" || { echo "$1: links did not come up" >&2; return 1; }
	ip netns exec "$NS" ethtool -L "$b" combined 1 2>/dev/null || true
	ethtool -L "$a" combined 1 2>/dev/null || true
	wait_for 15 bash -c "source $LIB_DIR/lib.sh; carrier $a 1 && ns_carrier $b 1"
}

# bench_symbols FILE: under the insn-count plugin, the text symbols of the
# kernel, of every module and of the JITed BPF programs loaded now, to
# FILE (gzip), for insn-report --symbols: where each packet's instructions
# went.  Without the plugin, nothing.
bench_symbols() {
	[ -z "${VM_INSN_COUNT:-}" ] ||
		awk '$2 ~ /^[tTwW]$/' /proc/kallsyms | gzip >"$1"
}

# bench_unload: the namespace and the driver gone, for the next turn, after
# the symbols (pktgen's too, loaded during the turn) to
# $RAW/DRIVER.kallsyms.gz.
bench_unload() {
	bench_symbols "$RAW/$BENCH_DRV.kallsyms.gz"
	pair_down
	modprobe -r mlx5_core 2>/dev/null || rmmod mlx5_core
}
