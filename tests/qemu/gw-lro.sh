#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The gateway encapsulating a VM's TSO frames, in QEMU:
#
#   tests/qemu/gw-lro.sh GATEWAY PMD_SO RESULTS_DIR [--kernel DIR]
#
#   host netns (vm-run.sh's, "the VM")        guest                    netns qemutso-peer
#   hwbrv 198.51.100.1, TSO -- hwtap0 -- NIC 0 virtio: inner, LRO
#                                             hwcsum-tunnel
#                              hwtap1 -- NIC 1 virtio: underlay -- hwbru -- pu1 192.0.2.2
#                                             192.0.2.1                    tun0 vxlan 198.51.100.2
#
# The VM's TCP leaves its namespace as GSO packets (up to 64 KiB, MSS
# 1360); the tap hands them to the guest whole when net_virtio negotiated
# GUEST_TSO4/6 (and GUEST_CSUM), and net_virtio delivers them with
# RTE_MBUF_F_RX_LRO and tso_segsz. The gateway encapsulates each as one
# VXLAN TSO request (app/hwcsum-tunnel/encap_tso.c); hwcsum on the
# underlay cuts it (virtio-net has no tunnel TSO) and sums every segment.
# Judged: 4 MiB VM -> VTEP with equal SHA-256 (tests/tunnel/streams.py);
# tshark on NIC 1's wire (QEMU filter-dump, vnet headers cut off): every
# IPv4, UDP and TCP checksum of every frame the gateway sent good, none
# longer than the underlay MTU; the VTEP's InCsumErrors 0; the gateway's
# "lro frames" and hwcsum's tx_tso_sw/tx_tso_segments above 0; no mbuf
# leaked. The steps go to RESULTS_DIR/qemu-gw-lro.txt.

set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
usage="usage: gw-lro.sh GATEWAY PMD_SO RESULTS_DIR [--kernel DIR]"
GW=${1:?$usage}
PMD=${2:?$usage}
RESULTS=${3:?$usage}
shift 3
NAME=gw-lro
# shellcheck source=tests/qemu/host-lib.sh
. "$HERE/host-lib.sh"
kernel_arg "$@"
need_tools qemu-system-x86_64 tshark ip ethtool nstat $PY
[ -x "$GW" ] || fail "gateway $GW not built"
GW=$(readlink -f "$GW")
stage_pmd
results_dir "$RESULTS" gw-lro
"$HERE/guest-pmd-dir.sh" "$RUN" librte_mempool_ring.so.23 librte_bus_pci.so.23 \
	librte_bus_vdev.so.23 librte_net_virtio.so.23 > /dev/null || fail "guest-pmd-dir.sh"

say "booting the guest; the VM and the VTEP are namespaces on the host (TCG: minutes)"
"$REPO/devtools/vm-run.sh" --quiet --timeout 1200 --mem 1024 "${KERNEL_ARG[@]}" --outdir "$RUN" \
	--nic virtio-tap@v --nic virtio-tap@u --dump 1 --host-hook "$HERE/gw-lro-host.sh" \
	-- "$HERE/guest-gw-lro.sh" "$GW" "$PMD"
rc=$?
grep -E '^\[qemu-guest' "$RUN/console.log" 2> /dev/null
sed 's/^/  /' "$RUN/hook.log" 2> /dev/null
[ "$rc" = 0 ]
check $? "guest run (status $rc; console $RUN/console.log, gateway log $RUN/gateway.log)"
[ -f "$RUN/host-result" ] || fail "no host result: the hook did not run ($RUN/hook.log)"
grep -q '^ok transfer' "$RUN/host-result"
check $? "4 MiB VM -> VTEP: $(grep -E '^(sent|received):' "$RUN/host-result" | tr '\n' ' ')"
grep -E 'offloads:' "$RUN/host-result" | sed 's/^/     /' | tee -a "$TABLE"
errs=$(awk '/^vtep InCsumErrors:/ { print $3 }' "$RUN/host-result")
[ "${errs:-x}" = 0 ]
check $? "VTEP InCsumErrors (Ip+Udp+Tcp) ${errs:-none}; $(grep '^vtep nstat' "$RUN/host-result")"

if [ -s "$RUN/nic1.pcap" ]; then
	$PY - "$RUN/nic1.pcap" "$RUN/underlay-tx.pcap" 52:54:00:12:34:11 << 'EOF'
import sys
from scapy.all import rdpcap, wrpcap, Ether
mac = bytes.fromhex(sys.argv[3].replace(":", ""))
out = []
for p in rdpcap(sys.argv[1]):
    raw = bytes(p)
    for off in (12, 10):
        if raw[off + 6:off + 12] == mac:
            out.append(Ether(raw[off:]))
            break
wrpcap(sys.argv[2], out)
EOF
	# One pass of tshark (slow on a busy machine; tests/lib/pcap_csum.py):
	# per frame its number, every IPv4/UDP/TCP checksum status (good, bad,
	# unverified, ...) at any depth, its length and whether it is VXLAN.
	$PY "$REPO/tests/lib/pcap_csum.py" --table --kinds ip,udp,tcp -e frame.len -e vxlan.vni \
		"$RUN/underlay-tx.pcap" > "$RUN/underlay-tx.csum" ||
		check 1 "tshark cannot read $RUN/underlay-tx.pcap"
	read -r frames bad tcp big < <(awk -F'|' '
		{ n++; if ($5 > 1514) big++
		  if (($2 "," $3 "," $4) ~ /(^|,)bad(,|$)/) bad++
		  if ($6 != "" && $4 == "good") tcp++ }
		END { print n + 0, bad + 0, tcp + 0, big + 0 }' "$RUN/underlay-tx.csum")
	[ "$frames" -gt 2000 ] && [ "$bad" = 0 ] && [ "$tcp" -gt 2000 ] && [ "$big" = 0 ]
	check $? "tshark, NIC 1's wire: $frames frames from the gateway, $bad with a bad checksum, $tcp VXLAN TCP with a good inner checksum, $big beyond 1514 bytes"
else
	check 1 "no capture of NIC 1 ($RUN/nic1.pcap)"
fi

LOG="$RUN/gateway.log"
line=$(grep -E '^  tso: lro frames' "$LOG" | tail -n1)
echo "     gateway: ${line# }" | tee -a "$TABLE"
lro=$(sed -n 's/.*lro frames \([0-9]*\).*/\1/p' <<< "$line")
sw=$(sed -n 's/.*tx_tso_sw \([0-9]*\).*/\1/p' <<< "$line")
segs=$(sed -n 's/.*tx_tso_segments \([0-9]*\).*/\1/p' <<< "$line")
full=$(grep -E '^  drops:' "$LOG" | tail -n1 | sed -n 's/.* tx_full \([0-9]*\).*/\1/p')
# Every LRO frame cut by hwcsum, but those the underlay's queue did not
# take (hwcsum holds a cut frame's segments while the virtio ring is full;
# the gateway drops what its short retry cannot place: tx_full).
[ "${lro:-0}" -gt 0 ] && [ "${sw:-0}" -le "$lro" ] && [ "${sw:-0}" -ge $((lro - ${full:-0})) ] &&
	[ "${segs:-0}" -gt $((2 * ${sw:-0})) ]
check $? "the VM's large frames came whole (LRO) and were segmented: lro frames ${lro:-none}, tx_tso_sw ${sw:-none} (tx_full drops ${full:-none}), tx_tso_segments ${segs:-none}"
grep -E '^  drops:' "$LOG" | tail -n1 | tee -a "$TABLE"
grep -qE '^  drops:.* too_big 0 ' "$LOG"
check $? "no frame dropped as too big"
grep -q "none leaked" "$LOG"
check $? "no mbuf leaked (gateway exit)"

echo "gw-lro: $([ "$failed" = 0 ] && echo PASSED || echo FAILED) in $(($(date +%s) - T0)) s (table: $TABLE)"
exit "$failed"
