#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Frames too big for the underlay MTU (1500, read from ethdev), for every
# tunnel type over IPv4 and IPv6, GENEVE with 16 and 128 option bytes:
#  1. a frame whose outer packet is exactly the MTU goes out (tshark: every
#     outer IP length 1500) and comes back byte for byte; one byte more,
#     or a 9014-byte frame, is dropped and counted as too_big, in the
#     statistics and in telemetry (RFC 7348 4.3: a VTEP does not fragment);
#  2. the VM gets back what Linux's bridged vxlan answers: ICMP
#     fragmentation needed for IPv4 with DF, ICMPv6 packet too big, with
#     the MTU less the tunnel's overhead; none for IPv4 without DF, an ICMP
#     error or a frame that is not IP. scapy builds each answer itself and
#     must find it byte for byte; tshark checks type, code, MTU, checksums.
# Usage: toobig.sh <hwcsum-tunnel> <librte_net_hwcsum.so>
GW=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"

"$PY" "$HERE/pmtu.py" gen "$WORK" || { echo "FAIL: cannot generate traffic"; exit 1; }
NAMES=$(tunnel_names)
read -r ENCAP TOO_BIG ICMP <"$WORK/counts"

# 1. encapsulate, with telemetry asked while it runs
TEL_PREFIX=hwcsum-tunnel-$$-tel
timeout 60 "$GW" --no-huge -m 256 --no-pci -l 0-1 --file-prefix $TEL_PREFIX \
	$(gw_vdevs "" "$WORK/empty.pcap" "$WORK/under.pcap" "$WORK/inner_@.pcap" \
	"$WORK/inner_out_@.pcap") -- -f "$WORK/gw.ini" --duration 3 >"$WORK/encap.log" 2>&1 &
pid=$!
for _ in $(seq 40); do grep -qs "tunnel(s)" "$WORK/encap.log" && break; sleep 0.1; done
sleep 1
echo /hwcsum_tunnel/stats | "$PY" /usr/bin/dpdk-telemetry.py -f $TEL_PREFIX >"$WORK/tel.log" 2>&1
wait $pid
RC=$?
log=$WORK/encap.log
[ "$RC" -eq 0 ] && pass "encap run exits 0" || fail "encap run exit status $RC"
expect_in "$log" "none leaked" "encap: every dropped mbuf freed"
expect_in "$log" "underlay MTU 1500" "the underlay's MTU read from ethdev"
expect_in "$log" "encap $ENCAP decap 0 " "encap: the $ENCAP frames at the limit"
expect_in "$log" "drops:.* too_big $TOO_BIG( |\$)" "$TOO_BIG frames dropped as too_big"
expect_in "$log" "pmtu: mtu 1500 icmp $ICMP\$" "$ICMP ICMP answers counted"
other=$(grep '^  drops:' "$log" | tail -1 | awk '{ for (i = 2; i < NF; i += 2)
	if ($i != "too_big") n += $(i + 1) } END { print n + 0 }')
[ "$other" -eq 0 ] && pass "no other drop" || fail "$other other drops"
grep -q "\"underlay_mtu\": 1500, \"pmtu_icmp\": $ICMP," "$WORK/tel.log" &&
	grep -q "\"too_big\": $TOO_BIG," "$WORK/tel.log" &&
	pass "telemetry: too_big $TOO_BIG, pmtu_icmp $ICMP, underlay_mtu 1500" ||
	fail "telemetry: $(cat "$WORK/tel.log")"
"$PY" "$HERE/pmtu.py" underlay "$WORK" >"$WORK/underlay.out"
cat "$WORK/underlay.out"
FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/underlay.out")))
bad=$(bad_checksums "$WORK/under.pcap")
[ "$bad" -eq 0 ] && pass "tshark: 0 bad checksums in the underlay capture" ||
	fail "tshark: $bad frames with bad checksums in under.pcap"

# 2. the answers on each inner port
"$PY" "$HERE/pmtu.py" replies "$WORK" >"$WORK/replies.out"
cat "$WORK/replies.out"
FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/replies.out")))

# 3. the frames at the limit come back whole
run_gw decap $(gw_vdevs "" "$WORK/under.pcap" "$WORK/under_out.pcap" "$WORK/empty.pcap" \
	"$WORK/back_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "decap run exits 0" || fail "decap run exit status $RC"
expect_in "$WORK/decap.log" "encap 0 decap $ENCAP " "decap: $ENCAP frames"
"$PY" "$HERE/frames.py" compare "$WORK" $NAMES >"$WORK/compare.out"
cat "$WORK/compare.out"
FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/compare.out")))
finish
