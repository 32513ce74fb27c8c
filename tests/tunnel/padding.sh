#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Tunnels carrying IP (GUE, VXLAN-GPE with gpe_payload=ip) carry the inner
# IP packet by its length: a VM's minimum-size frame with Ethernet padding
# (or an IPv6 frame with a trailer) must not take its padding into the
# tunnel. Tunnels carrying Ethernet (VXLAN, VXLAN-GPE) keep the frame as it
# is. tshark judges every length and checksum of the underlay capture; the
# capture fed back gives the IP packets (Ethernet: the frames) byte for byte.
# Usage: padding.sh <hwcsum-tunnel> <librte_net_hwcsum.so>
GW=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"

"$PY" "$HERE/edges.py" padding "$WORK" || { echo "FAIL: cannot generate traffic"; exit 1; }
NAMES=$(tunnel_names)

run_gw encap $(gw_vdevs "" "$WORK/empty.pcap" "$WORK/under.pcap" "$WORK/inner_@.pcap" \
	"$WORK/inner_out_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "encap run exits 0" || fail "encap run exit status $RC"
expect_in "$WORK/encap.log" "none leaked" "encap: no mbuf leaked"
expect_in "$WORK/encap.log" "encap 36 decap 0 " "encap: 36 frames"
"$PY" "$HERE/edges.py" lengths "$WORK" >"$WORK/lengths.out"
cat "$WORK/lengths.out"
FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/lengths.out")))
[ "$(grep -c '^ok' "$WORK/lengths.out")" -eq 36 ] || fail "lengths: not 36 passed"
bad=$(bad_checksums "$WORK/under.pcap")
[ "$bad" -eq 0 ] && pass "tshark: 0 bad checksums in the underlay capture" ||
	fail "tshark: $bad frames with bad checksums in under.pcap"
bad=$(bad_checksums "$WORK/gue_inner.pcap")
[ "$bad" -eq 0 ] && pass "tshark: GUE inner packets' checksums good" ||
	fail "tshark: GUE inner: $bad bad"
# GUE's inner packets behind an Ethernet header: no bytes beyond the IP length.
inner_pad=$(tshark -r "$WORK/gue_inner.pcap" -Y 'eth.trailer || eth.padding' 2>/dev/null | wc -l)
[ "$inner_pad" -eq 0 ] && pass "tshark: no trailer or padding in GUE's inner packets" ||
	fail "tshark: $inner_pad GUE inner packets with a trailer or padding"

run_gw decap $(gw_vdevs "" "$WORK/under.pcap" "$WORK/under_out.pcap" "$WORK/empty.pcap" \
	"$WORK/back_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "decap run exits 0" || fail "decap run exit status $RC"
expect_in "$WORK/decap.log" "encap 0 decap 36 " "decap: 36 frames"
"$PY" "$HERE/frames.py" compare "$WORK" $NAMES >"$WORK/compare.out"
cat "$WORK/compare.out"
FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/compare.out")))
finish
