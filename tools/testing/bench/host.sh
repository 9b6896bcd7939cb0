# SPDX-License-Identifier: GPL-2.0
#
# Sourced by each workload's host-side command: parse --results, build our
# module, run the workload's script (NAME.sh) in the VM with VAR=VALUE
# arguments passed through to it, then tabulate with NAME-report.
#
#   bench_main NAME [vm/run options...] -- "$@"
#
# BENCH_ICOUNT=SHIFT: the guest's clock counts its instructions (QEMU's
# -icount shift=SHIFT,sleep=off) on one vCPU (more where the workload asks
# for them), so that what the guest runs in a window no longer follows
# the host's speed: two xdp-drop runs (BENCH_ICOUNT=5), one idle, one
# sharing its core with a busy loop, agreed within 2.2 % on every row's
# instructions per packet, where two idle runs without it differed by up
# to 86 %.  Not the default (the guest's clock then runs slow against the
# host's; the workloads' timeouts are the host's).  Such VMs used to die
# with RFLAGS holding reserved bits (a #DB, a double fault, a NULL
# dereference under pktgen): QEMU 7.2's cmpxchg16b, in SLUB's fast path,
# left garbage flags, which build-qemu now patches (cxsim/qemu-patches).
#
# NAME-report [BENCH_REPORT_ARGS...] --csv FILE RAWDIR writes NAME.md
# (stdout) and NAME.csv.
#
# The model's jitter has a fixed seed (BENCH_SEED, default 1), so that its
# completions come in the same order run after run.  No IOMMU unless
# BENCH_IOMMU=on: the selftests run
# behind one in strict mode, whose synchronous invalidation on every unmap
# costs both drivers alike and hides what differs between them (hosts
# tuned for throughput run iommu=pt or none).
#
# The guest's soft-lockup watchdog fires after 120 s (watchdog_thresh=60),
# not 20 s.  Under -icount the vCPUs of one VM take turns on one host
# thread, and the kernel's own boot-time W+X page-table walk, before any
# module is loaded, took 11 s of guest time on mq-doorbells' 4 vCPUs on an
# idle host and 22 s, a soft lockup, with a kernel build beside it.  The
# runner fails a workload on any splat; a driver that hangs is still
# caught, 100 s later.
#
# BENCH_BUILD=0: run the module as it is built (make check's, built
# once for every VM of its run), without a make of the tree first.

# shellcheck shell=bash
bench_main() {
	local name=$1 root testing bench results='' kver qemu kv
	local vmopts=() envs=() timing=()

	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vmopts+=("$1")
		shift
	done
	[ $# -eq 0 ] || shift
	bench=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	root=$(readlink -f "$bench/../../..")
	testing=$root/tools/testing
	if [ "${1:-}" = --results ]; then
		results=$2
		shift 2
	fi
	results=${results:-$root/results/bench-$(date +%Y%m%d-%H%M%S)}
	mkdir -p "$results"
	results=$(readlink -f "$results")
	for kv in "$@"; do
		case $kv in
		*=*) envs+=(--env "$kv") ;;
		*) echo "$name: VAR=VALUE expected, not $kv" >&2; return 2 ;;
		esac
	done
	timing=(--seed "${BENCH_SEED:-1}" --append watchdog_thresh=60)
	[ "${BENCH_IOMMU:-off}" = on ] || timing+=(--no-iommu)
	[ "${BENCH_ICOUNT:-off}" = off ] ||
		timing+=(--smp 1 --qemu-arg -icount --qemu-arg "shift=$BENCH_ICOUNT,sleep=off")
	kver=$("$testing/install-deps" --print-kver | tail -n 1)
	qemu=$("$testing/cxsim/build-qemu" | tail -n 1)
	if [ "${BENCH_BUILD:-1}" = 0 ]; then
		[ -f "$root/mlx5_core.ko" ] ||
			{ echo "$name: BENCH_BUILD=0 but no $root/mlx5_core.ko" >&2; return 1; }
	elif ! nice -n 10 make -s -C "$root" >"$results/build.log" 2>&1; then
		tail -n 20 "$results/build.log" >&2
		return 1
	fi
	"$testing/vm/run" --qemu "$qemu" --kver "$kver" --insn-count "${timing[@]}" \
		${vmopts[@]+"${vmopts[@]}"} ${envs[@]+"${envs[@]}"} \
		--timeout 3000 --results "$results/vm" "$bench/$name.sh" || return 1
	python3 "$bench/$name-report" ${BENCH_REPORT_ARGS[@]+"${BENCH_REPORT_ARGS[@]}"} --csv "$results/$name.csv" \
		"$results/vm/raw" >"$results/$name.md" || return 1
	cat "$results/$name.md"
	echo "results: $results"
}
