#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# rte_flow insertion and deletion rates of a net_hwcsum port (over a
# net_null sub-port, --no-huge), measured by Debian's unmodified
# dpdk-test-flow-perf (DPDK 22.11); devtools/bench-flow-perf-run.py does
# the work. For each rule kind and count: flow-perf's insertion and
# deletion rates (k rules/s), the rate of the last tenth inserted and the
# first tenth deleted, the first rule's latency and the heap growth flow-perf
# reports. Table on stdout with the machine and its load, JSON in
# <build>/bench/flow-perf.json. Never pass/fail on a rate: the exit status
# only says whether the benchmark ran (the test `flow-perf` runs the
# --check form).
#
#   devtools/bench-flow-perf.sh [build dir] [bench-flow-perf-run.py options...]
#   e.g. devtools/bench-flow-perf.sh build --rules 1000,4000 --kinds ipv4-udp-queue
set -euo pipefail

BUILD=${1:-build}
shift || true
# shellcheck source=devtools/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
FLOW_PERF=${FLOW_PERF:-dpdk-test-flow-perf}

command -v "$FLOW_PERF" >/dev/null ||
	{ echo "bench-flow-perf: $FLOW_PERF not found (Debian package dpdk)" >&2; exit 1; }
bench_pmd bench-flow-perf

echo "== dpdk-test-flow-perf on net_hwcsum (rte_flow insertion/deletion)"
/usr/bin/python3 "$HERE/devtools/bench-flow-perf-run.py" \
	--flow-perf "$(command -v "$FLOW_PERF")" --pmd-so "$SO" \
	--json "$OUTDIR/flow-perf.json" "$@"
