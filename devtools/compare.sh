#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# `make compare`: the kernel-against-bypass matrix on every NIC model,
# then docs/compare.md and docs/compare.png from it.
#
#   devtools/compare.sh BUILD_DIR [full|reduced] [MODEL...]
#
# One guest per model (tests/compare/compare.sh); while it runs, a
# progress line every 10 s: the model, cells done of the model's cells,
# models left, elapsed time. Tables and JSON in BUILD_DIR/compare/.

set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:?usage: compare.sh BUILD_DIR [full|reduced] [MODEL...]}
CELLSET=${2:-full}
shift $(($# >= 2 ? 2 : 1))
MODELS=("$@")
[ ${#MODELS[@]} -gt 0 ] || MODELS=(virtio e1000 e1000e rtl8139)
BUILD=$(readlink -f "$BUILD")
OUT=$BUILD/compare
PMD=$BUILD/drivers/net/hwcsum/librte_net_hwcsum.so
GW=$BUILD/app/hwcsum-tunnel/hwcsum-tunnel
T0=$(date +%s)
mkdir -p "$OUT"

# Cells per model: 18 per pairing (plain 2; VXLAN, GENEVE, GUE, VXLAN-GPE 4) in
# the full set, 5 in the reduced one; 4 pairings with a DPDK driver.
per_pairing=18
[ "$CELLSET" = reduced ] && per_pairing=5
elapsed() { local s=$(($(date +%s) - T0)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

failed=0
n=0
for model in "${MODELS[@]}"; do
	n=$((n + 1))
	total=$((per_pairing * 4))
	[ "$model" = rtl8139 ] && total=$per_pairing
	echo "== compare: model $model ($n of ${#MODELS[@]}), $total cells, $(elapsed) elapsed"
	"$REPO/tests/compare/compare.sh" "$model" "$OUT" "$PMD" "$GW" "$CELLSET" > "$OUT/$model.log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2> /dev/null; do
		sleep 10
		done_cells=$(cat "$OUT/run-$model/cells.jsonl" 2> /dev/null | wc -l)
		echo "   $model: $done_cells/$total cells, $((${#MODELS[@]} - n)) model(s) after it, $(elapsed)"
	done
	wait "$pid" || failed=$((failed + 1))
	tail -n 1 "$OUT/$model.log"
done
/usr/bin/python3 "$REPO/tests/compare/report.py" "$OUT" "$REPO/docs/compare.md" "$REPO/docs/compare.png" ||
	failed=$((failed + 1))
echo "compare: ${#MODELS[@]} model(s), $failed failed, $(elapsed); docs/compare.md, docs/compare.png"
exit $((failed > 0))
