#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Host side of the kernel checksum suite (one meson test per NIC model):
#
#   tests/kernel/csum-suite.sh MODEL RESULTS_DIR [--kernel DIR | --tree 6.1|6.12] [--expect-8139cp patched|unpatched]
#
# MODEL: virtio (virtio-net on host taps with vnet headers, in a private
# network namespace), e1000, e1000e, rtl8139. Boots the kernel (default: the
# patched one kernel/build.sh builds) with two NICs of MODEL on one link,
# runs kernel/guest/csum/csum-suite.sh in it (UDP and TCP, plain and through
# VXLAN, GENEVE, FOU and GUE, over IPv4 and IPv6, the two NICs in two
# namespaces), then checks the run on the host:
#   - kernel/guest/csum/analyze.py: data, InCsumErrors deltas, every checksum
#     of every captured frame, the 8139cp decisions against the capture;
#   - tshark, independently: no received frame with a bad IP/UDP/TCP
#     checksum, and some verified good ones.
# The table (model x protocol x tunnel x family -> sent, received, checksum
# errors, frames, offloaded hw/sw) is printed and written to
# RESULTS_DIR/csum-MODEL.txt (and .json); the run's captures stay in
# RESULTS_DIR/run-MODEL/.
#
# virtio: the receiving side runs with guest_csum=off so that the host
# completes every checksum before the frame reaches the guest, which then
# really verifies it; the sending side keeps VIRTIO_NET_F_CSUM (its
# checksums are offloaded to the host through the vnet header).

set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
MODEL=${1:?usage: csum-suite.sh MODEL RESULTS_DIR [--kernel DIR | --tree 6.1|6.12] [--expect-8139cp patched|unpatched]}
RESULTS=${2:?usage: csum-suite.sh MODEL RESULTS_DIR ...}
shift 2
KERNEL_ARG=()
EXPECT_ARG=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) KERNEL_ARG=(--kernel "$2"); shift ;;
	--tree) KERNEL_ARG=(--tree "$2"); shift ;;
	--expect-8139cp) EXPECT_ARG=(--expect-8139cp "$2"); shift ;;
	*) echo "csum-suite: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

case "$MODEL" in
virtio) NIC=virtio-tap,guest_csum=off@t; GUEST_MODEL=virtio-tap ;;
e1000 | e1000e | rtl8139) NIC=$MODEL@a; GUEST_MODEL=$MODEL ;;
*) echo "csum-suite: unknown model '$MODEL' (virtio, e1000, e1000e, rtl8139)" >&2; exit 2 ;;
esac

mkdir -p "$RESULTS" || exit 1
RESULTS=$(readlink -f "$RESULTS")
RUN="$RESULTS/run-$MODEL"
rm -rf "$RUN"
T0=$(date +%s)
# One vCPU: sender, receiver and captures take turns on it, and under TCG
# a second vCPU costs host CPU (e1000: 27 s of it against 21 s, same
# result), which make test's budget pays.
"$REPO/devtools/vm-run.sh" --quiet --timeout 900 --smp 1 "${KERNEL_ARG[@]}" --outdir "$RUN" \
	--nic "$NIC" --nic "$NIC" -- "$REPO/kernel/guest/csum/csum-suite.sh" "$GUEST_MODEL"
rc=$?
grep -E '^\[csum-guest|^case |^receiver' "$RUN/console.log" 2>/dev/null
if [ "$rc" != 0 ]; then
	echo "csum-suite: the guest run failed (status $rc); console: $RUN/console.log" >&2
	tail -n 30 "$RUN/console.log" >&2
	exit 1
fi

failed=0
/usr/bin/python3 "$REPO/kernel/guest/csum/analyze.py" "$RUN" "${EXPECT_ARG[@]}" \
	--json "$RESULTS/csum-$MODEL.json" || failed=1
cp "$RUN/csum-table.txt" "$RESULTS/csum-$MODEL.txt" 2>/dev/null

# tshark's opinion of every frame a NIC received (tests/lib/pcap_csum.py;
# FOU payloads decoded as IP; GUE has no dissector, analyze.py covers it):
# no frame with a bad IPv4/UDP/TCP checksum status, some with a good one.
# One exception: a TCP checksum of 0xffff where the computed value is 0x0000
# is what Linux's own skb_checksum_help() writes (CSUM_MANGLED_0, for every
# protocol) and is the same number in ones' complement; tshark calls it bad
# after RFC 1624. It happens to about one segment in 65536, so it must not
# make the suite flaky: it is counted, and reported, as good.
tshark_check() {
	local pcap=$1 mac=$2 out bad good mangled
	# number|ip|udp|tcp statuses|tcp.checksum|tcp.checksum_calculated
	out=$(/usr/bin/python3 "$REPO/tests/lib/pcap_csum.py" --table --kinds ip,udp,tcp \
		-d udp.port==5555,ip -d udp.port==5565,ipv6 -Y "eth.dst==$mac" \
		-e tcp.checksum -e tcp.checksum_calculated "$pcap") || {
		echo "tshark: cannot read $pcap"; return 1; }
	mangled=$(echo "$out" | awk -F'|' '$4 == "bad" && $5 == "0xffff" && $6 == "0x0000"' | wc -l)
	out=$(echo "$out" | awk -F'|' -v OFS='|' '$4 == "bad" && $5 == "0xffff" && $6 == "0x0000" { $4 = "good" }
		{ print $2, $3, $4 }')
	bad=$(echo "$out" | grep -Ec '(^|[|,])bad([|,]|$)')
	good=$(echo "$out" | grep -Ec '(^|[|,])good([|,]|$)')
	echo "tshark $(basename "$pcap"): frames to $mac: $good with verified good checksums ($mangled TCP 0xffff for 0x0000), $bad with a bad one"
	[ "$bad" = 0 ] && [ "$good" -gt 0 ]
}
mac0=$(awk '$1 == 0 { print $4 }' "$RUN/nics")
mac1=$(awk '$1 == 1 { print $4 }' "$RUN/nics")
tshark_check "$RUN/rx.pcap" "$mac1" | tee -a "$RESULTS/csum-$MODEL.txt" || failed=1
tshark_check "$RUN/tx.pcap" "$mac0" | tee -a "$RESULTS/csum-$MODEL.txt" || failed=1

echo "csum-suite $MODEL: $([ "$failed" = 0 ] && echo PASSED || echo FAILED) in $(($(date +%s) - T0)) s (table: $RESULTS/csum-$MODEL.txt)"
exit "$failed"
