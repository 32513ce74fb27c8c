#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Run every benchmark hwcsum-bench knows, writing tables to stdout and
# JSON + PNG plots to <build>/bench/. Each benchmark measures against a
# named peer in the same run and prints the ratio; none is pass/fail.
#
#   devtools/bench.sh [build dir]
set -euo pipefail

BUILD=${1:-build}
BENCH="$BUILD/app/hwcsum-bench/hwcsum-bench"
# shellcheck source=devtools/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

mapfile -t NAMES < <("$BENCH" --help | awk '/^benchmarks:/ { on = 1; next } on && NF { print $1 }')
[ "${#NAMES[@]}" -gt 0 ] || { echo "bench: no benchmark registered in $BENCH" >&2; exit 1; }

# csum's Linux peer: the kernel's own csum_partial(), compiled for user space
# from the linux-source package (into a cache outside the repository).
LINUX_CSUM=$("$HERE/app/hwcsum-bench/linux-csum/build.sh" | tail -n 1) ||
	{ echo "bench: cannot build Linux's csum_partial for the csum benchmark (see above)" >&2; exit 1; }

for name in "${NAMES[@]}"; do
	echo "== hwcsum-bench $name"
	extra=()
	[ "$name" = csum ] && extra=(--linux-csum "$LINUX_CSUM")
	"$BENCH" "$name" --json "$OUTDIR/$name.json" "${extra[@]}"
	case "$name" in
	crc32c) plot=plot_csum.py ;;	# same JSON shape
	rxverify) plot=plot_pmd.py ;;	# the PMD plots
	*) plot=plot_$name.py ;;
	esac
	[ ! -f "$HERE/app/hwcsum-bench/$plot" ] || bench_plot "$plot" "$OUTDIR/$name.json" "$OUTDIR/$name.png"
done

# The PMD through dpdk-testpmd: TX software path and pass-through cost.
"$HERE/devtools/bench-pmd.sh" "$BUILD"

# The tunnel gateway: encap/decap Mpps against testpmd's csum engine (sw).
"$HERE/devtools/bench-gateway.sh" "$BUILD"

# rte_flow insertion/deletion rates through DPDK's dpdk-test-flow-perf.
"$HERE/devtools/bench-flow-perf.sh" "$BUILD"
