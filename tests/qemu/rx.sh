#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Host side of the QEMU hwcsum receive suite: frames with known good and
# deliberately wrong checksums arrive at a real emulated NIC bound to DPDK
# in the guest; testpmd's csum engine over the bare driver and then over
# net_hwcsum on it must report exactly the expected Bad-* counts, and
# hwcsum's xstats must show which verdicts came from the device.
#
#   tests/qemu/rx.sh MODEL PMD_SO RESULTS_DIR [--kernel DIR] [--sessions LIST] [--expect-tamper]
#
# MODEL: e1000 (QEMU 82540EM: the model never verifies RX checksums),
# e1000e (82574L: QEMU's model verifies the outermost IPv4 header and
# UDP/TCP checksum in software and net_e1000_em reports IPE/TCPE as BAD),
# virtio (virtio-net on a host tap with vnet headers: the virtio-net header
# of each frame tells the guest NEEDS_CSUM / DATA_VALID).
#
# How the frames get there (one boot per NIC, both testpmd sessions in it):
# the guest has a second NIC, NIC 1, on the same wire as NIC 0 (the same
# QEMU hub for e1000/e1000e, an e1000 driven by the guest kernel; for
# virtio a second virtio-tap on the same bridge in vm-run.sh's private
# network namespace, driven by the guest's virtio_net). guest-rx.sh writes
# the frames of gen-rx-frames.py to NIC 1 through a raw AF_PACKET socket:
# such an skb is CHECKSUM_NONE, so no one on the way (guest kernel, NIC
# model, host tap and bridge) completes or checks a checksum; QEMU's
# filter-dump on NIC 0's netdev (--dump 0) records what reached NIC 0,
# and analyze-rx.py checks that it is byte for byte what was generated and,
# for virtio, reads the flags of the virtio-net header each frame carried
# (observed: 0 for all of them: the host's tun driver sets DATA_VALID only
# for an skb that is CHECKSUM_UNNECESSARY, and a frame forwarded from
# another tap is not, so virtio's device verdict never appears this way).
#
# --sessions LIST: the testpmd sessions, in order (default "bare,hwcsum";
# make test runs "hwcsum" alone, the bare control is in suite qemu-full).
# --expect-tamper: add 1 to one expected count (the suite must then fail;
# shows that the comparison is real).
#
# Results: RESULTS_DIR/qemu-rx-MODEL.txt (+ .json); the run's files stay
# in RESULTS_DIR/run-rx-MODEL/.

set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
usage="usage: rx.sh MODEL PMD_SO RESULTS_DIR [--kernel DIR] [--sessions LIST] [--expect-tamper]"
MODEL=${1:?$usage}
PMD=${2:?$usage}
RESULTS=${3:?$usage}
shift 3
KERNEL_ARG=()
ANALYZE_ARGS=()
SESSIONS=bare,hwcsum
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) KERNEL_ARG=(--kernel "$2"); shift ;;
	--sessions)
		[[ ${2:-} =~ ^(bare|hwcsum)(,(bare|hwcsum))*$ ]] ||
			{ echo "rx: --sessions takes bare and/or hwcsum, comma-separated (got '${2:-}')" >&2; exit 2; }
		SESSIONS=$2
		shift
		;;
	--expect-tamper) ANALYZE_ARGS+=(--tamper) ;;
	*) echo "rx: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
NAME="rx $MODEL"
# shellcheck source=tests/qemu/host-lib.sh
. "$HERE/host-lib.sh"

case "$MODEL" in
e1000 | e1000e) NICS=(--nic "$MODEL@a" --nic e1000@a --dump 0) ;;
virtio)
	NICS=(--nic virtio-tap@t --nic virtio-tap@t --dump 0)
	ANALYZE_ARGS+=(--vnet-hdr)
	;;
*) fail "unknown model '$MODEL' (e1000, e1000e, virtio)" ;;
esac
need_tools qemu-system-x86_64 dpdk-testpmd $PY
$PY -c 'import scapy' 2> /dev/null || fail "python3-scapy missing"
stage_pmd
results_dir "$RESULTS" "rx-$MODEL"
# NIC 0's MAC (vm-run.sh: 52:54:00:12:34:10 + index).
/usr/bin/python3 "$HERE/gen-rx-frames.py" 52:54:00:12:34:10 "$RUN/rx-frames.pcap" \
	"$RUN/rx-frames.json" || fail "gen-rx-frames.py"
"$HERE/guest-pmd-dir.sh" "$RUN" librte_mempool_ring.so.23 librte_bus_pci.so.23 librte_bus_vdev.so.23 \
	librte_net_e1000.so.23 librte_net_virtio.so.23 > /dev/null || fail "guest-pmd-dir.sh"

# virtio: vm-run.sh's tap namespace has a bridge, and the host's
# br_netfilter (bridge-nf-call-iptables=1, the default of every new
# namespace while the module is loaded) drops IPv4 frames with a wrong
# header checksum on it (br_validate_ipv4). Once QEMU runs, switch it off
# in QEMU's namespace and tell the guest (netns-ready), which waits for it.
NETNS_HELPER=
if [ "$MODEL" = virtio ]; then
	(
		for _ in $(seq 1 240); do
			# The newest match is QEMU itself (unshare execs bash, which
			# execs QEMU); ready once it is in its own namespace with
			# the bridge (vm-run.sh: hwbr<link>) up.
			pid=$(pgrep -f -n -- "qemu-system-x86_64 .*path=$RUN,") &&
				[ "$(readlink "/proc/$pid/ns/net")" != "$(readlink /proc/self/ns/net)" ] &&
				nsenter -t "$pid" -n ip link show hwbrt > /dev/null 2>&1 && break
			pid=
			sleep 0.5
		done
		[ -n "${pid:-}" ] || { echo "rx: QEMU of $RUN not found" > "$RUN/netns-ready.err"; exit 1; }
		nsenter -t "$pid" -n sh -c 'for f in /proc/sys/net/bridge/bridge-nf-call-iptables \
			/proc/sys/net/bridge/bridge-nf-call-ip6tables; do [ -e "$f" ] && echo 0 > "$f"; done
			echo "qemu pid '"$pid"': bridge-nf-call-iptables=$(cat /proc/sys/net/bridge/bridge-nf-call-iptables 2>/dev/null || echo absent)"' \
			> "$RUN/netns-ready.tmp" 2>&1 && mv "$RUN/netns-ready.tmp" "$RUN/netns-ready"
	) &
	NETNS_HELPER=$!
fi

"$REPO/devtools/vm-run.sh" --quiet --timeout 300 "${KERNEL_ARG[@]}" --outdir "$RUN" \
	"${NICS[@]}" -- "$HERE/guest-rx.sh" "$MODEL" "$PMD" ${SESSIONS//,/ }
rc=$?
[ -n "$NETNS_HELPER" ] && { kill "$NETNS_HELPER" 2> /dev/null; wait "$NETNS_HELPER" 2> /dev/null; cat "$RUN/netns-ready" 2> /dev/null; }
guest_result "$rc"
[ -s "$RUN/nic0.pcap" ] || fail "no capture $RUN/nic0.pcap"

/usr/bin/python3 "$HERE/analyze-rx.py" "$RUN" "$MODEL" "${ANALYZE_ARGS[@]}" \
	--json "$RESULTS/qemu-rx-$MODEL.json" | tee "$RESULTS/qemu-rx-$MODEL.txt"
failed=${PIPESTATUS[0]}
echo "rx $MODEL: $([ "$failed" = 0 ] && echo PASSED || echo FAILED) in $(($(date +%s) - T0)) s (table: $RESULTS/qemu-rx-$MODEL.txt)"
[ "$failed" = 0 ]
