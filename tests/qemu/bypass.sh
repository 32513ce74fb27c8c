#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Host side of the QEMU hwcsum suite: testpmd over hwcsum over the real
# emulated NIC, one meson test per NIC model.
#
#   tests/qemu/bypass.sh MODEL PMD_SO RESULTS_DIR [--kernel DIR] [SESSION[:RUN,...] ...]
#
# MODEL: e1000 (QEMU 82540EM, net_e1000_em, hwcsum "generic" engine: the
# device model sums from csum_start), e1000e (82574L, net_e1000_em, "parse":
# the model finds the outermost L4 itself), virtio (virtio-net on a host
# tap with vnet headers, net_virtio with VIRTIO_NET_F_CSUM, "generic").
# Sessions (default "bare:sw,hw hwcsum:hw"): see tests/qemu/guest-bypass.sh.
#
# 1. tests/qemu/gen-frames.py writes frames.pcap (60 frames: plain, VXLAN,
#    GENEVE, IPv4/IPv6 outer and inner, UDP/TCP, every checksum wrong).
# 2. devtools/vm-run.sh boots the kernel with the NIC and --dump 0 (QEMU
#    filter-dump of NIC 0's netdev: the frames as the NIC model put them on
#    the wire, recorded by QEMU on the host); virtio adds NIC 1, a second
#    tap on the same bridge with guest_csum=off, so that the host kernel
#    completes every partial checksum before it reaches NIC 1 (--dump 1).
# 3. In the guest, guest-bypass.sh replays the file through testpmd's csum
#    engine to the NIC (bare) or to net_hwcsum0 on it.
# 4. analyze.py judges every run (count, payload, every checksum, the
#    xstats split), tshark independently counts bad checksums per run.
# The table goes to RESULTS_DIR/qemu-MODEL.txt (+ .json); the run's files
# stay in RESULTS_DIR/run-MODEL/.

set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
usage="usage: bypass.sh MODEL PMD_SO RESULTS_DIR [--kernel DIR] [SESSION[:RUN,...] ...]"
MODEL=${1:?$usage}
PMD=${2:?$usage}
RESULTS=${3:?$usage}
shift 3
KERNEL_ARG=()
SESSIONS=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) KERNEL_ARG=(--kernel "$2"); shift ;;
	-*) echo "bypass: unknown option '$1'" >&2; exit 2 ;;
	*) SESSIONS+=("$1") ;;
	esac
	shift
done
[ ${#SESSIONS[@]} -gt 0 ] || SESSIONS=(bare:sw,hw hwcsum:hw)
NAME="bypass $MODEL"
# shellcheck source=tests/qemu/host-lib.sh
. "$HERE/host-lib.sh"

case "$MODEL" in
e1000 | e1000e)
	NICS=(--nic "$MODEL@a" --dump 0)
	CAPTURE=nic0.pcap
	ANALYZE_ARGS=()
	;;
virtio)
	NICS=(--nic virtio-tap@t --nic virtio-tap,guest_csum=off@t --dump 0 --dump 1)
	# NIC 0's own dump shows the partial checksums with their vnet
	# headers (the requests); NIC 1's the frames the host completed.
	CAPTURE=nic1.pcap
	ANALYZE_ARGS=(--vnet-hdr --requests)
	;;
*) fail "unknown model '$MODEL' (e1000, e1000e, virtio)" ;;
esac
need_tools qemu-system-x86_64 tshark dpdk-testpmd $PY
$PY -c 'import scapy' 2> /dev/null || fail "python3-scapy missing"
stage_pmd
results_dir "$RESULTS" "$MODEL"
/usr/bin/python3 "$HERE/gen-frames.py" "$RUN/frames.pcap" "$RUN/frames.cases" || fail "gen-frames.py"
"$HERE/guest-pmd-dir.sh" "$RUN" librte_mempool_ring.so.23 librte_bus_pci.so.23 librte_bus_vdev.so.23 \
	librte_net_e1000.so.23 librte_net_virtio.so.23 librte_net_pcap.so.23 > /dev/null ||
	fail "guest-pmd-dir.sh"

"$REPO/devtools/vm-run.sh" --quiet --timeout 420 "${KERNEL_ARG[@]}" --outdir "$RUN" \
	"${NICS[@]}" -- "$HERE/guest-bypass.sh" "$MODEL" "$PMD" "${SESSIONS[@]}"
guest_result $?
[ -s "$RUN/$CAPTURE" ] || fail "no capture $RUN/$CAPTURE"

if [ "$MODEL" = virtio ]; then
	ANALYZE_ARGS+=("$RUN/nic0.pcap")
fi
/usr/bin/python3 "$HERE/analyze.py" "$RUN" "$MODEL" "$RUN/$CAPTURE" "${ANALYZE_ARGS[@]}" \
	--json "$RESULTS/qemu-$MODEL.json" | tee "$RESULTS/qemu-$MODEL.txt"
[ "${PIPESTATUS[0]}" = 0 ] || failed=1

# tshark's own opinion, per run (tests/lib/pcap_csum.py): frames to the
# run's peer MAC with a bad IPv4/UDP/TCP checksum status at any depth
# (VXLAN 4789 and GENEVE 6081 are decoded by default). virtio's filter-dump
# carries vnet headers: tshark reads the copy without them that analyze.py
# wrote.
TSHARK_IN="$RUN/$CAPTURE"
[ "$MODEL" = virtio ] && TSHARK_IN="$RUN/${CAPTURE%.pcap}.eth.pcap"
if :; then
	mac0=$(awk '$1 == 0 { print $4 }' "$RUN/nics")
	while read -r _ k session mode peer sent _read; do
		counts=$($PY "$HERE/../lib/pcap_csum.py" --count frames-bad --no-expert \
			-Y "eth.src==$mac0 && eth.dst==$peer" "$TSHARK_IN") ||
			{ echo "FAIL: tshark cannot read $TSHARK_IN"; failed=1; continue; }
		read -r frames bad <<< "$counts"
		line="tshark run $k ($session, csum $mode): $frames frames, $bad with a bad checksum"
		echo "$line" | tee -a "$RESULTS/qemu-$MODEL.txt"
		if [ "$session" = hwcsum ] || [ "$mode" = sw ]; then
			[ "$bad" = 0 ] && [ "$frames" = "$sent" ] || { echo "FAIL: $line"; failed=1; }
		fi
	done < "$RUN/runs.txt"
fi

echo "bypass $MODEL: $([ "$failed" = 0 ] && echo PASSED || echo FAILED) in $(($(date +%s) - T0)) s (table: $RESULTS/qemu-$MODEL.txt)"
exit "$failed"
