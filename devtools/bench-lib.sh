# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
#
# Sourced by the devtools/bench-*.sh wrappers with BUILD (the build
# directory) set: HERE (the repository), OUTDIR (<build>/bench, made) and
#   bench_pmd NAME   SO: the built librte_net_hwcsum.so staged for EAL (or
#                    fail, naming the benchmark NAME)
#   bench_plot PLOT JSON PNG   app/hwcsum-bench/PLOT of JSON into PNG

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR="$BUILD/bench"
mkdir -p "$OUTDIR"

bench_pmd() {
	SO="$BUILD/drivers/net/hwcsum/librte_net_hwcsum.so"
	[ -f "$SO" ] || { echo "$1: $SO not built" >&2; exit 1; }
	SO=$("$HERE/devtools/plugin-path.sh" "$SO")
}

bench_plot() {
	/usr/bin/python3 "$HERE/app/hwcsum-bench/$1" "$2" "$3"
	echo "plot: $3"
}
