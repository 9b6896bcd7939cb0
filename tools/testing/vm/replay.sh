#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Same seed, same run: a selftest under the runner's --deterministic mode.
# Records the files the selftest uses (run --record-files), runs it twice
# from them with one seed and once with the next seed, and checks, in TAP:
# each deterministic run passes; the two runs with one seed leave the same
# model reports (every counter of both ports), the same output and the
# same kernel log, byte for byte; the other seed changes the model's
# counters (the seed is what the runs replay: the device's delays).
#
# A failure the asynchronous model found in a deterministic run replays
# exactly with its seed: run --deterministic LIST --seed N (LIST is
# RESULTS/record/files.list).
#
# Usage: replay.sh [--qemu PATH] [--seed N] [--results DIR] [SELFTEST]
#   SELFTEST   a selftest's name (tools/testing/selftests/drivers/net/
#              mlx5cx/NAME.sh), default vlan
#   --seed N   the seed of the two runs, default 7

set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$VM_DIR/../../.." && pwd)
RUN=$VM_DIR/run
QARGS=() SEED=7 OUT='' T=vlan

while [ $# -gt 0 ]; do
	case $1 in
	--qemu) QARGS=(--qemu "$2"); shift 2 ;;
	--seed) SEED=$2; shift 2 ;;
	--results) OUT=$2; shift 2 ;;
	-*) echo "usage: ${0##*/} [--qemu PATH] [--seed N] [--results DIR] [SELFTEST]" >&2; exit 2 ;;
	*) T=$1; shift ;;
	esac
done
[[ $SEED =~ ^[0-9]+$ ]] || { echo "--seed: a number" >&2; exit 2; }
SCRIPT=$REPO/tools/testing/selftests/drivers/net/mlx5cx/$T.sh
[ -f "$SCRIPT" ] || { echo "no selftest $T" >&2; exit 2; }
[ -n "$OUT" ] || OUT=$(mktemp -d "${TMPDIR:-/tmp}/replay.XXXXXX")
mkdir -p "$OUT"
read -r -a VMARGS <<< "$(sed -n 's/^# vm-args: //p' "$SCRIPT")"

N=0 FAILED=0
ok() {
	N=$((N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $N - $2"
	else
		echo "not ok $N - $2"
		FAILED=$((FAILED + 1))
	fi
}

# vm NAME ARGS...: the selftest in a VM, results in $OUT/NAME.
vm() {
	local name=$1
	shift
	"$RUN" ${QARGS[@]+"${QARGS[@]}"} --env MLX5CX_QUICK=1 "${VMARGS[@]}" "$@" \
		--results "$OUT/$name" "$SCRIPT" >"$OUT/$name.log" 2>&1
}

# passed NAME: the run's status was 0 and its selftest said ok to all.
passed() {
	grep -q '^# Totals: pass:[1-9][0-9]* fail:0 ' "$OUT/$1/output.log" &&
		grep -q 'exit=0 ' "$OUT/$1.log"
}

# same A B: both ports' reports, the output and the kernel log alike.
same() {
	local f
	for f in cxsim-port0.report cxsim-port1.report output.log dmesg.txt; do
		if [ ! -s "$OUT/$1/$f" ] || ! cmp -s "$OUT/$1/$f" "$OUT/$2/$f"; then
			echo "# $f differs:"
			diff "$OUT/$1/$f" "$OUT/$2/$f" 2>&1 | head -n 10 | sed 's/^/#   /'
			return 1
		fi
	done
}

echo "TAP version 13"
echo "1..5"
rc=0
vm record --record-files || rc=$?
[ "$rc" -eq 0 ] && [ -s "$OUT/record/files.list" ] || rc=1
ok "$rc" "$T recorded: $(wc -l <"$OUT/record/files.list" 2>/dev/null || echo 0) host files listed (--record-files)"
LIST=$OUT/record/files.list
for r in 1 2; do
	rc=0
	vm "seed$SEED-$r" --seed "$SEED" --deterministic "$LIST" || rc=$?
	[ "$rc" -ne 0 ] || passed "seed$SEED-$r" || rc=1
	ok "$rc" "$T --deterministic --seed $SEED, run $r: passes ($(grep -o 'total=[0-9.]*s' "$OUT/seed$SEED-$r.log" || echo '?'))"
done
rc=0
same "seed$SEED-1" "seed$SEED-2" || rc=1
ok "$rc" "one seed twice: the same model counters (both ports' reports), output and kernel log, byte for byte"
other=$((SEED + 1))
rc=0
vm "seed$other" --seed "$other" --deterministic "$LIST" || rc=$?
[ "$rc" -ne 0 ] || passed "seed$other" || rc=1
if [ "$rc" -eq 0 ] && cmp -s "$OUT/seed$SEED-1/cxsim-port0.report" "$OUT/seed$other/cxsim-port0.report"; then
	echo "# seed $other left the same counters as seed $SEED: the seed replays nothing"
	rc=1
fi
ok "$rc" "seed $other passes with other counters ($(diff "$OUT/seed$SEED-1/cxsim-port0.report" "$OUT/seed$other/cxsim-port0.report" 2>/dev/null | grep -c '^<' || true) lines of port 0's report differ)"
echo "# $((N - FAILED)) passed, $FAILED failed (results: $OUT)"
[ "$FAILED" -eq 0 ]
