#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# One NIC model of the kernel-against-bypass matrix:
#
#   tests/compare/compare.sh MODEL RESULTS_DIR PMD_SO GATEWAY [full|reduced]
#
# Boots the project's kernel with two NICs of MODEL on one link and runs
# tests/compare/guest-compare.sh in it (Linux to Linux, hwcsum-tunnel to
# Linux and back, gateway to gateway), with QEMU recording both NICs'
# wire (filter-dump: outside every sender). Then tests/compare/analyze.py
# judges every cell and writes RESULTS_DIR/compare-MODEL.json and .txt.
# MODEL: virtio (taps with vnet headers; NIC 1 with guest_csum=off, so the
# host completes what NIC 0 left partial before NIC 1 sees it), e1000,
# e1000e, rtl8139 (no DPDK driver: Linux cells only).

set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
usage="usage: compare.sh MODEL RESULTS_DIR PMD_SO GATEWAY [full|reduced]"
MODEL=${1:?$usage}
RESULTS=${2:?$usage}
PMD=${3:?$usage}
GW=${4:?$usage}
CELLSET=${5:-full}
T0=$(date +%s)
fail() { echo "compare $MODEL: FAILED: $*" >&2; exit 1; }

case "$MODEL" in
e1000 | e1000e) NICS=(--nic "$MODEL@a" --nic "$MODEL@a"); DPDK_PMD=librte_net_e1000.so.23 ;;
rtl8139) NICS=(--nic "$MODEL@a" --nic "$MODEL@a"); DPDK_PMD= ;;
virtio) NICS=(--nic virtio-tap@t --nic virtio-tap,guest_csum=off@t); DPDK_PMD=librte_net_virtio.so.23 ;;
*) fail "unknown model '$MODEL' (virtio, e1000, e1000e, rtl8139)" ;;
esac
for tool in qemu-system-x86_64 tshark /usr/bin/python3; do
	command -v "$tool" > /dev/null || fail "$tool missing (devtools/setup.sh)"
done
[ -f "$PMD" ] || fail "PMD $PMD not built"
[ -x "$GW" ] || fail "gateway $GW not built"
GW=$(readlink -f "$GW")
PMD=$("$REPO/devtools/plugin-path.sh" "$PMD") || fail "cannot stage $PMD for EAL"

mkdir -p "$RESULTS" || exit 1
RESULTS=$(readlink -f "$RESULTS")
RUN="$RESULTS/run-$MODEL"
rm -rf "$RUN"
mkdir -p "$RUN"
if [ -n "$DPDK_PMD" ]; then
	"$REPO/tests/qemu/guest-pmd-dir.sh" "$RUN" librte_mempool_ring.so.23 librte_bus_pci.so.23 \
		librte_bus_vdev.so.23 librte_net_af_packet.so.23 "$DPDK_PMD" > /dev/null ||
		fail "guest-pmd-dir.sh"
fi
"$REPO/devtools/vm-run.sh" --quiet --timeout 1500 --outdir "$RUN" "${NICS[@]}" --dump 0 --dump 1 \
	-- "$HERE/guest-compare.sh" "$MODEL" "$PMD" "$GW" "$CELLSET" "$DPDK_PMD"
rc=$?
grep -E '^\[compare-guest|^cell ' "$RUN/console.log" 2> /dev/null
if [ "$rc" != 0 ]; then
	tail -n 30 "$RUN/console.log" >&2
	fail "the guest run failed (status $rc); console: $RUN/console.log"
fi
/usr/bin/python3 "$HERE/analyze.py" "$RUN" --json "$RESULTS/compare-$MODEL.json" |
	tee "$RESULTS/compare-$MODEL.txt"
rc=${PIPESTATUS[0]}
echo "compare $MODEL: $([ "$rc" = 0 ] && echo PASSED || echo FAILED) in $(($(date +%s) - T0)) s"
exit "$rc"
