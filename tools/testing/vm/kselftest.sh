#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the test VM: run the selftests the way the kernel runs its own.
# kselftest's "make install" puts drivers/net/mlx5cx, the kernel's runner
# and kselftest-list.txt into a scratch tree, and the kernel's
# run_kselftest.sh runs them there; its TAP goes to stdout, where make
# check counts it. Exits 0 when every test passed or skipped.
#
#	tools/testing/vm/run [options] tools/testing/vm/kselftest.sh [TEST.sh...]
#
# TEST.sh: run only these (run_kselftest.sh -t); default: every test.

set -uo pipefail

REPO=$(cd "$(dirname "$(readlink -f "$0")")/../../.." && pwd)
TARGET=drivers/net/mlx5cx
DEST=${KSFT_INSTALL_PATH:-/tmp/kselftest}
OUT=${TMPDIR:-/tmp}/kselftest.out

if ! make -s -C "$REPO/tools/testing/selftests" TARGETS="$TARGET" \
	KSFT_INSTALL_PATH="$DEST" install >"$OUT" 2>&1; then
	cat "$OUT"
	echo "Bail out! make install of $TARGET failed"
	exit 1
fi
args=()
for t in "$@"; do
	args+=(-t "$TARGET:$t")
done
# An installed test finds our module and the QEMU monitor here.
export MLX5CX_REPO=$REPO
"$DEST/run_kselftest.sh" "${args[@]}" | tee "$OUT"
# The runner's own lines (its test points are nested, "# ok ...").
grep -q '^ok ' "$OUT" && ! grep -q '^not ok ' "$OUT"
