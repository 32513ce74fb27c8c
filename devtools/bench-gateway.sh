#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Throughput of the tunnel gateway (app/hwcsum-tunnel), Mpps on one
# forwarding lcore, VXLAN/IPv4/UDP encapsulation and decapsulation of
# 64/512/1500-byte inner frames and IMIX (7:4:1 of 64/570/1518,
# interleaved in one pcap), against testpmd's csum engine with sw
# checksums and `csum parse-tunnel on` on the bare port in the same run
# (devtools/bench-gateway-run.py does the work and says what each side
# does). net_pcap infinite_rx into net_null, --no-huge. A correctness check
# (tshark, byte comparison) comes first. Table on stdout, JSON and a plot in
# <build>/bench/ (gateway.json, gateway.png). Never pass/fail: the exit
# status only says whether the benchmark could run.
#
#   devtools/bench-gateway.sh [build dir] [bench-gateway-run.py options...]
#   e.g. devtools/bench-gateway.sh build --rounds 5
set -euo pipefail

BUILD=${1:-build}
shift || true
# shellcheck source=devtools/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
GW="$BUILD/app/hwcsum-tunnel/hwcsum-tunnel"
TESTPMD=${TESTPMD:-dpdk-testpmd}

command -v "$TESTPMD" >/dev/null || { echo "bench-gateway: $TESTPMD not found, skipped"; exit 0; }
# The gateway links the PMD: no plugin to stage.
[ -x "$GW" ] || { echo "bench-gateway: $GW not built" >&2; exit 1; }

echo "== hwcsum-tunnel gateway (encap/decap) vs testpmd csum sw"
/usr/bin/python3 "$HERE/devtools/bench-gateway-run.py" --testpmd "$TESTPMD" \
	--gateway "$GW" --outdir "$OUTDIR" --json "$OUTDIR/gateway.json" "$@"
bench_plot plot_gateway.py "$OUTDIR/gateway.json" "$OUTDIR/gateway.png"
