#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GENEVE's critical options (RFC 8926 3.4, 3.5), judged by tshark:
#  1. encapsulation sets the C flag exactly for the tunnels whose configured
#     options have a critical type (bit 0x80);
#  2. the gateway processes no option: a packet with C set is dropped and
#     counted as geneve_critical (as Linux geneve_rx() drops it), whether
#     hwcsum's lengths are taken (rx on) or the gateway walks (rx=off);
#     the same packets with C clear are delivered, byte for byte.
# Usage: critical.sh <hwcsum-tunnel> <librte_net_hwcsum.so>
GW=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"

"$PY" "$HERE/edges.py" critical "$WORK" || { echo "FAIL: cannot generate traffic"; exit 1; }
NAMES=$(tunnel_names)

# 1. encapsulate: C exactly where a configured option is critical
run_gw encap $(gw_vdevs "" "$WORK/empty.pcap" "$WORK/under.pcap" "$WORK/inner_@.pcap" \
	"$WORK/inner_out_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "encap run exits 0" || fail "encap run exit status $RC"
tshark -r "$WORK/under.pcap" -T fields -E separator='|' -e geneve.vni \
	-e geneve.flags.critical -e geneve.option.type 2>/dev/null >"$WORK/geneve.txt"
for v in 210:1:gc4 211:1:gc6 212:0:gp4 213:0:gz6; do
	vni=${v%%:*} c=${v#*:} c=${c%%:*} n=${v##*:}
	all=$(awk -F'|' -v vni=$vni '$1 == vni' "$WORK/geneve.txt" | wc -l)
	good=$(awk -F'|' -v vni=$vni -v c=$c '$1 == vni && $2 == c' "$WORK/geneve.txt" | wc -l)
	[ "$all" -eq 2 ] && [ "$good" -eq "$all" ] &&
		pass "tshark: $n (VNI $vni): C flag $c on all $all frames" ||
		fail "tshark: $n (VNI $vni): C flag $c on $good of $all frames: $(grep "^$vni|" "$WORK/geneve.txt" | head -1)"
done
bad=$(bad_checksums "$WORK/under.pcap")
[ "$bad" -eq 0 ] && pass "tshark: 0 bad checksums in the underlay capture" ||
	fail "tshark: $bad frames with bad checksums in under.pcap"

# 2. decapsulate a remote VTEP's packets, C set and clear, both paths
tshark -r "$WORK/remote.pcap" -T fields -e geneve.flags.critical 2>/dev/null |
	sort | uniq -c | tr -s ' ' >"$WORK/remote_c.txt"
grep -qx ' 8 1' "$WORK/remote_c.txt" && grep -qx ' 8 0' "$WORK/remote_c.txt" &&
	pass "tshark: the remote sends 8 packets with C set, 8 without" ||
	fail "tshark: remote.pcap C flags: $(cat "$WORK/remote_c.txt")"
for mode in on off; do
	args=""
	[ $mode = off ] && args=",rx=off"
	run_gw decap-$mode $(gw_vdevs "$args" "$WORK/remote.pcap" "$WORK/under_out_$mode.pcap" \
		"$WORK/empty.pcap" "$WORK/back_@.pcap") -- -f "$WORK/gw.ini" --duration 2
	log=$WORK/decap-$mode.log
	[ "$RC" -eq 0 ] && pass "decap rx=$mode exits 0" || fail "decap rx=$mode exit status $RC"
	expect_in "$log" "none leaked" "decap rx=$mode: every dropped mbuf freed"
	expect_in "$log" "encap 0 decap 8 " "decap rx=$mode: the 8 packets with C clear delivered"
	expect_in "$log" "drops:.* geneve_critical 8( |\$)" "decap rx=$mode: 8 dropped as geneve_critical"
	other=$(grep '^  drops:' "$log" | tail -1 | awk '{ for (i = 2; i < NF; i += 2)
		if ($i != "geneve_critical") n += $(i + 1) } END { print n + 0 }')
	[ "$other" -eq 0 ] && pass "decap rx=$mode: no other drop" || fail "decap rx=$mode: $other other drops"
	[ $mode = on ] && expect_in "$log" "decap headers: hwcsum 16 walked 0" \
		"rx=on: every packet judged from hwcsum's lengths"
	"$PY" "$HERE/frames.py" compare "$WORK" $NAMES >"$WORK/compare-$mode.out"
	sed "s/^\(ok\|FAIL\): /\1: rx=$mode: /" "$WORK/compare-$mode.out"
	FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/compare-$mode.out")))
done

# 3. the gateway's own critical tunnels cannot come back through it
run_gw own $(gw_vdevs "" "$WORK/under.pcap" "$WORK/under_out_own.pcap" \
	"$WORK/empty.pcap" "$WORK/own_@.pcap") -- -f "$WORK/gw.ini" --duration 2
expect_in "$WORK/own.log" "encap 0 decap 4 " "own traffic: gp4 and gz6 (no critical option) delivered"
expect_in "$WORK/own.log" "drops:.* geneve_critical 4( |\$)" "own traffic: gc4 and gc6 dropped as geneve_critical"
finish
