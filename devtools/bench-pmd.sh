#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The net_hwcsum PMD benchmarks through an unmodified dpdk-testpmd
# (devtools/bench-pmd-run.py does the work): testpmd's csum engine with hw
# checksums on net_hwcsum over a sub-port with no engine against the same
# engine with sw checksums on the bare sub-port, and io forwarding over
# net_hwcsum against io on the bare sub-port (pass-through cost). VXLAN/IPv4/
# UDP from net_pcap infinite_rx into net_null, at 64/512/1500-byte inner
# frames and an IMIX (64/570/1518 interleaved 7:4:1); --no-huge, one
# forwarding core; pass-through judged by the paired ratio.
# A tshark check of every checksum (and of the pass-through leaving packets
# byte for byte as they were) comes first. Table on stdout, JSON and a
# plot in <build>/bench/ (pmd.json, pmd.png). Never pass/fail: the exit
# status only says whether the benchmark could run.
#
#   devtools/bench-pmd.sh [build dir] [bench-pmd-run.py options...]
#   e.g. devtools/bench-pmd.sh build-bench --rounds 3
set -euo pipefail

BUILD=${1:-build}
shift || true
# shellcheck source=devtools/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
TESTPMD=${TESTPMD:-dpdk-testpmd}

command -v "$TESTPMD" >/dev/null || { echo "bench-pmd: $TESTPMD not found, skipped"; exit 0; }
bench_pmd bench-pmd

echo "== testpmd pmd (TX software path, pass-through)"
/usr/bin/python3 "$HERE/devtools/bench-pmd-run.py" --testpmd "$TESTPMD" \
	--pmd-so "$SO" --outdir "$OUTDIR" --json "$OUTDIR/pmd.json" "$@"
bench_plot plot_pmd.py "$OUTDIR/pmd.json" "$OUTDIR/pmd.png"
