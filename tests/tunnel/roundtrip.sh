#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# hwcsum-tunnel end to end over net_pcap: every tunnel type over an IPv4
# and an IPv6 underlay, GENEVE with options, outer UDP checksum on and off,
# inner checksums arriving complete and CHECKSUM_PARTIAL (seeded).
#  1. encapsulate: tshark judges every checksum of the underlay capture;
#  2. decapsulate that capture: each inner port gets back exactly what was
#     sent (partial frames: with the checksum filled in), byte for byte;
#  3. underlay packets wrong in one way each: dropped, counted by reason.
# Usage: roundtrip.sh <hwcsum-tunnel> <librte_net_hwcsum.so>
GW=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"

"$PY" "$HERE/frames.py" gen "$WORK" && "$PY" "$HERE/frames.py" ini "$WORK" ||
	{ echo "FAIL: cannot generate traffic"; exit 1; }
NAMES=$(tunnel_names)

# 1. encapsulate
run_gw encap $(gw_vdevs "" "$WORK/empty.pcap" "$WORK/under.pcap" "$WORK/inner_@.pcap" \
	"$WORK/inner_out_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "encap run exits 0" || fail "encap run exit status $RC"
expect_in "$WORK/encap.log" "none leaked" "encap: no mbuf leaked"
sent=0
for n in $NAMES; do
	sent=$((sent + $(tshark -r "$WORK/inner_$n.pcap" 2>/dev/null | wc -l)))
done
got=$(tshark -r "$WORK/under.pcap" 2>/dev/null | wc -l)
[ "$got" -eq "$sent" ] && [ "$sent" -gt 0 ] && pass "encap: $got of $sent frames out" ||
	fail "encap: $got frames on the underlay, $sent sent"
expect_in "$WORK/encap.log" "encap $sent decap 0" "encap counter $sent"
bad=$(bad_checksums "$WORK/under.pcap")
[ "$bad" -eq 0 ] && pass "tshark: 0 bad checksums in the underlay capture" ||
	fail "tshark: $bad frames with bad checksums in under.pcap"
"$PY" "$HERE/frames.py" gue "$WORK" >/dev/null
bad=$(bad_checksums "$WORK/gue_inner.pcap")
ngue=$(tshark -r "$WORK/gue_inner.pcap" 2>/dev/null | wc -l)
[ "$bad" -eq 0 ] && [ "$ngue" -gt 0 ] && pass "tshark: GUE inner packets ($ngue) checksums good" ||
	fail "tshark: GUE inner: $bad bad of $ngue"
# tshark verified something: one pass (tests/lib/pcap_csum.py), one line
# per frame: number|udp status|tcp status|protocols|udp dst ports|udp src
# ports|udp checksums|geneve classes|vni (statuses good, bad, zero, ...).
"$PY" "$HERE/../lib/pcap_csum.py" --table --kinds udp,tcp -e frame.protocols \
	-e udp.dstport -e udp.srcport -e udp.checksum -e geneve.option.class -e vxlan.vni \
	"$WORK/under.pcap" >"$WORK/fields.txt" || fail "tshark cannot read under.pcap"
ck() {
	local c
	c=$(awk -F'|' "$1" "$WORK/fields.txt" | wc -l)
	[ "$c" -gt 0 ] && pass "tshark: $c frames with $2" || fail "tshark: no frame with $2"
}
ck '$4 ~ /^eth:ethertype:ip:udp:vxlan:eth:ethertype:ip:udp/ && $2 ~ /,good$/' "VXLAN/IPv4 (zero outer checksum), inner UDP good"
ck '$4 ~ /ipv6:udp:vxlan/ && $2 ~ /^good/' "VXLAN/IPv6, outer checksum good"
ck '$4 ~ /ip:udp:geneve.*tcp/ && $2 == "good" && $3 == "good"' "GENEVE/IPv4, outer UDP and inner TCP good"
ck '$8 == "0x0102,0x0103"' "GENEVE options 0x0102 and 0x0103"
ck '$4 ~ /ipv6:udp:geneve/ && $8 == "0xffff,0xffff"' "GENEVE/IPv6 with two 64-byte options 0xffff"
ck '$5 ~ /^4790,/ && $2 == "good,good"' "VXLAN-GPE, outer and inner UDP good"
ck '$4 ~ /^eth:ethertype:ip:udp/ && $5 == "6080" && $2 == "good"' "GUE/IPv4, outer good"
ck '$4 ~ /^eth:ethertype:ipv6:udp/ && $5 == "6080" && $2 == "good"' "GUE/IPv6, outer good"
# Outer source ports: entropy in 32768-60999, and not all the same.
ports=$(cut -d'|' -f6 "$WORK/fields.txt" | cut -d, -f1 | sort -u)
out=$(echo "$ports" | awk '$1 < 32768 || $1 > 60999' | wc -l)
[ "$out" -eq 0 ] && [ "$(echo "$ports" | wc -l)" -gt 8 ] &&
	pass "outer source ports in range, $(echo "$ports" | wc -l) distinct" ||
	fail "outer source ports: $out out of range: $ports"
# vx4 has udp_csum = off: its outer checksum is zero, every other one is set.
z=$(awk -F'|' '$9 == "100" && $7 !~ /^0x0000(,|$)/' "$WORK/fields.txt" | wc -l)
nz=$(awk -F'|' '$9 != "100" && $7 ~ /^0x0000(,|$)/' "$WORK/fields.txt" | wc -l)
[ "$z" -eq 0 ] && [ "$nz" -eq 0 ] && pass "outer UDP checksum zero exactly for vx4 (udp_csum = off)" ||
	fail "outer checksums: $z non-zero in vx4, $nz zero elsewhere"
expect_in "$WORK/encap.log" "inner partial [1-9]" "inner CHECKSUM_PARTIAL kept for hwcsum"
expect_in "$WORK/encap.log" "outer lco [1-9]" "outer checksum by LCO"
expect_in "$WORK/encap.log" "outer headers chained [1-9]" "gn6's long options: outer headers chained in front"

# 2. decapsulate what was encapsulated
run_gw decap $(gw_vdevs "" "$WORK/under.pcap" "$WORK/under_out.pcap" "$WORK/empty.pcap" \
	"$WORK/back_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "decap run exits 0" || fail "decap run exit status $RC"
expect_in "$WORK/decap.log" "none leaked" "decap: no mbuf leaked"
expect_in "$WORK/decap.log" "encap 0 decap $sent " "decap counter $sent"
# hwcsum's RX verified every outer and inner L4 checksum from its one
# COMPLETE sum: the gateway takes those verdicts and sums nothing again.
expect_in "$WORK/decap.log" "rx verify: hwcsum [1-9][0-9]* complete 0 sw 0" \
	"verdicts from hwcsum's CHECKSUM_COMPLETE, none recomputed"
"$PY" "$HERE/frames.py" compare "$WORK" $NAMES >"$WORK/compare.out"
cat "$WORK/compare.out"
FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/compare.out")))
[ "$(grep -c '^ok' "$WORK/compare.out")" -eq 8 ] || fail "round trips: not 8 passed"

# 3. drops by reason
run_gw drops $(gw_vdevs "" "$WORK/bad.pcap" "$WORK/under_out2.pcap" "$WORK/empty.pcap" \
	"$WORK/drop_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "drops run exits 0" || fail "drops run exit status $RC"
expect_in "$WORK/drops.log" "none leaked" "drops: every dropped mbuf freed"
for r in "not_tunnel 1" "malformed 1" "unknown_vni 1" "outer_csum 2" "inner_ip_csum 1" \
	"inner_csum 1"; do
	expect_in "$WORK/drops.log" "drops:.* $r( |\$)" "dropped: $r"
done
expect_in "$WORK/drops.log" "encap 0 decap 0 " "nothing delivered from bad.pcap"
finish
