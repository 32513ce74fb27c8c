#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# TSO in QEMU: testpmd's `tso set` and `tunnel_tso set` on net_hwcsum over
# the real emulated NIC, judged on the wire by tshark and scapy.
#
#   tests/qemu/tso.sh MODEL PMD_SO RESULTS_DIR [--kernel DIR]
#
# 1. tests/pmd/tso_pcap.py writes frames.pcap: large TCP frames (plain
#    IPv4 8000 bytes, IPv6 6000, VXLAN/IPv4 5000, GENEVE/IPv6 with options
#    4321) and one shorter than a segment.
# 2. In the guest (tests/qemu/guest-tso.sh) testpmd's csum engine sends
#    them, every checksum asked in hardware, TSO at MSS 1300 on the hwcsum
#    port, twice (peer MACs :01 and :02).
# 3. The wire, as QEMU's filter-dump records it on the host: e1000 and
#    e1000e on a hub of their own (NIC 0's netdev: the frames as the NIC
#    model put them out); virtio on a tap with vnet headers, in a bridge
#    with a second tap whose NIC negotiates no checksum or TSO offload
#    (guest_csum/guest_tso4/guest_tso6 off), so that the host kernel cuts
#    and completes what NIC 0 handed it before NIC 1 gets it (NIC 1's
#    dump); NIC 0's dump shows what the guest handed over (GSO or not).
# 4. tso_pcap.py check: every frame cut in ceil(payload / MSS) segments,
#    in order, sequence, IDs, lengths, flags, payload joined byte for
#    byte; tshark: every IPv4, UDP and TCP checksum of every segment good.
# 5. hwcsum's xstats say who cut: e1000/e1000e: DPDK's net_e1000_em offers
#    no TSO, so hwcsum cuts all four (tx_tso_sw 4, 20 segments); virtio
#    offers TCP_TSO (host TSO4/TSO6) but no tunnel TSO: the two plain
#    frames are handed down whole (tx_tso_hw 2, two GSO frames in NIC 0's
#    dump), the VXLAN and GENEVE ones cut by hwcsum (tx_tso_sw 2, 8
#    segments). The mempool's in-use count after pass 2 equals pass 1's.
# Table: RESULTS_DIR/qemu-tso-MODEL.txt; run files in RESULTS_DIR/run-tso-MODEL/.

set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
usage="usage: tso.sh MODEL PMD_SO RESULTS_DIR [--kernel DIR]"
MODEL=${1:?$usage}
PMD=${2:?$usage}
RESULTS=${3:?$usage}
shift 3
NAME="tso $MODEL"
# shellcheck source=tests/qemu/host-lib.sh
. "$HERE/host-lib.sh"
kernel_arg "$@"
# 1300: a VXLAN or GENEVE/IPv6 segment (headers, options and TCP
# timestamps included) stays within the virtio link's MTU of 1500, where
# the host bridge would drop or fragment it.
MSS=1300

case "$MODEL" in
e1000 | e1000e)
	NICS=(--nic "$MODEL@a" --dump 0)
	WIRE=nic0.pcap VNET=()
	WANT_SW=4 WANT_SEGS=20 WANT_HW=0
	;;
virtio)
	NICS=(--nic virtio-tap@t --nic virtio-tap,guest_csum=off,guest_tso4=off,guest_tso6=off@t
		--dump 0 --dump 1)
	WIRE=nic1.pcap VNET=(--vnet-hdr)
	WANT_SW=2 WANT_SEGS=8 WANT_HW=2
	;;
*) fail "unknown model '$MODEL' (e1000, e1000e, virtio)" ;;
esac
need_tools qemu-system-x86_64 tshark dpdk-testpmd $PY
$PY -c 'import scapy' 2> /dev/null || fail "python3-scapy missing"
stage_pmd
results_dir "$RESULTS" "tso-$MODEL"
$PY "$REPO/tests/pmd/tso_pcap.py" gen "$RUN/frames.pcap" || fail "tso_pcap.py gen"
$PY -c 'import sys; from scapy.all import rdpcap; print(len(rdpcap(sys.argv[1])))' \
	"$RUN/frames.pcap" > "$RUN/frames.count" || fail "cannot count the frames"
"$HERE/guest-pmd-dir.sh" "$RUN" librte_mempool_ring.so.23 librte_bus_pci.so.23 librte_bus_vdev.so.23 \
	librte_net_e1000.so.23 librte_net_virtio.so.23 librte_net_pcap.so.23 > /dev/null ||
	fail "guest-pmd-dir.sh"

say "booting the guest (TCG: a few minutes)"
"$REPO/devtools/vm-run.sh" --quiet --timeout 1100 "${KERNEL_ARG[@]}" --outdir "$RUN" \
	"${NICS[@]}" -- "$HERE/guest-tso.sh" "$MODEL" "$PMD" "$MSS"
guest_result $?
[ -s "$RUN/$WIRE" ] || fail "no capture $RUN/$WIRE"

mac0=$(awk '$1 == 0 { print $4 }' "$RUN/nics")
$PY "$HERE/tso-wire.py" split "$RUN/$WIRE" "$mac0" "$RUN" "${VNET[@]}" | tee -a "$TABLE" ||
	fail "no frame of NIC 0 ($mac0) in $WIRE"
if [ "$MODEL" = virtio ]; then
	handed=$($PY "$HERE/tso-wire.py" gso "$RUN/nic0.pcap" "$mac0")
	echo "NIC 0 handed to the host: $handed" | tee -a "$TABLE"
	[[ $handed =~ ^gso\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" = $((2 * WANT_HW)) ]
	check $? "virtio got $((2 * WANT_HW)) GSO frames over two passes (the plain TCP ones, cut by the host kernel)"
fi
for pass in 1 2; do
	cap="$RUN/pass-$pass.pcap"
	[ -s "$cap" ] || { check 1 "pass $pass: no frame on the wire"; continue; }
	out=$($PY "$REPO/tests/pmd/tso_pcap.py" check "$RUN/frames.pcap" "$cap" "$MSS")
	st=$?
	[ "$st" = 0 ] || grep FAIL <<< "$out" | head -8 | tee -a "$TABLE"
	check "$st" "pass $pass: $(tail -n1 <<< "$out"), in order, headers as Linux's GSO, payload byte for byte"
	# tshark (tests/lib/pcap_csum.py), one line per frame:
	# number|ip|udp|tcp checksum statuses
	table=$($PY "$REPO/tests/lib/pcap_csum.py" --table --kinds ip,udp,tcp "$cap") ||
		check 1 "pass $pass: tshark cannot read $cap"
	read -r frames bad tcp_good < <(awk -F'|' '
		NF == 0 { next }
		{ f++ }
		($2 "|" $3 "|" $4) ~ /(^|[|,])bad([|,]|$)/ { b++ }
		$4 ~ /(^|,)good(,|$)/ { t++ }
		END { print f + 0, b + 0, t + 0 }' <<< "$table")
	[ "$frames" -gt 0 ] && [ "$bad" = 0 ] && [ "$tcp_good" = "$frames" ]
	check $? "pass $pass: tshark: $frames frames, $bad with a bad checksum, $tcp_good with a good TCP checksum"
	xs="$RUN/xstats-$pass.txt"
	x() { awk -v k="$1:" '$1 == k { print $2 }' "$xs"; }
	sw=$(x tx_tso_sw) segs=$(x tx_tso_segments) hw=$(x tx_tso_hw)
	[ "${sw:-x}" = "$WANT_SW" ] && [ "${segs:-x}" = "$WANT_SEGS" ] && [ "${hw:-x}" = "$WANT_HW" ]
	check $? "pass $pass: xstats tx_tso_sw ${sw:-none} tx_tso_segments ${segs:-none} tx_tso_hw ${hw:-none} (want $WANT_SW $WANT_SEGS $WANT_HW)"
	for k in tx_tso_no_mbufs tx_tso_dropped_at_stop tx_tso_dropped_refused tx_bad_request_dropped tx_prepare_refused; do
		v=$(x $k)
		[ "${v:-0}" = 0 ] || check 1 "pass $pass: $k = $v"
	done
done
in1=$(awk '$1 == "pass" && $2 == 1 { print $8 }' "$RUN/result.txt")
in2=$(awk '$1 == "pass" && $2 == 2 { print $8 }' "$RUN/result.txt")
# e1000's stop frees both rings: every mbuf is back; virtio keeps its
# RX ring filled (256) across a stop.
[ -n "${in1:-}" ] && [ "${in1:-}" = "${in2:-}" ] && { [ "$MODEL" = virtio ] || [ "$in1" = 0 ]; }
check $? "mbufs: in use after pass 1 ${in1:-?}, after pass 2 ${in2:-?} (port stopped; e1000: 0, virtio: its RX ring)"
grep -E 'TSO' "$RUN/tx-offloads.txt" | tr -s ' ' | head -3 | sed 's/^/tx offloads: /' | tee -a "$TABLE"

echo "tso $MODEL: $([ "$failed" = 0 ] && echo PASSED || echo FAILED) in $(($(date +%s) - T0)) s (table: $TABLE)"
exit "$failed"
