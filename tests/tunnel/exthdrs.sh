#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Inner IPv6 behind extension headers (issue 27 item 6), judged by scapy and
# tshark: a remote VTEP's VXLAN (over IPv4) and GUE (over IPv6) packets
# carry inner UDP and TCP behind hop-by-hop, destination options, routing
# headers (type 0, type 2, segment routing; Segments Left > 0, where the
# pseudo-header takes the final destination, RFC 8200 8.1, and 0) and a
# chain of them, each with the right checksum and with a wrong one; first
# fragments, right or wrong; two malformed routing headers. Whether
# hwcsum's verdicts and lengths are taken (rx on) or the gateway walks and
# sums itself (rx=off):
#  - every right packet and every fragment is delivered, byte for byte,
#    and tshark finds no bad checksum among them;
#  - every wrong one is dropped and counted as inner_csum, the malformed
#    ones as inner_routing, nothing else is dropped, nothing leaks;
#  - rx on: hwcsum's receive verdict called the wrong ones bad itself
#    (rx_l4_bad) and the gateway took it;
#  - the other way, the right packets sent by the VM with Linux's
#    CHECKSUM_PARTIAL seed (over the final destination) are completed:
#    tshark finds every inner checksum of the underlay capture good.
# Usage: exthdrs.sh <hwcsum-tunnel> <librte_net_hwcsum.so>
GW=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"

"$PY" "$HERE/exthdrs.py" gen "$WORK" || { echo "FAIL: cannot generate traffic"; exit 1; }
read -r delivered inner_csum inner_routing <"$WORK/counts.txt"
total=$((delivered + inner_csum + inner_routing))

for mode in on off; do
	args=""
	[ $mode = off ] && args=",rx=off"
	run_gw decap-$mode $(gw_vdevs "$args" "$WORK/remote.pcap" "$WORK/under_out_$mode.pcap" \
		"$WORK/empty.pcap" "$WORK/back_@.pcap") -- -f "$WORK/gw.ini" --duration 2
	log=$WORK/decap-$mode.log
	[ "$RC" -eq 0 ] && pass "rx=$mode: gateway exits 0" || fail "rx=$mode: exit status $RC"
	expect_in "$log" "none leaked" "rx=$mode: every dropped mbuf freed"
	expect_in "$log" "encap 0 decap $delivered " \
		"rx=$mode: $delivered of $total packets delivered (the right ones, the fragments)"
	expect_in "$log" "drops:.* inner_csum $inner_csum( |\$)" \
		"rx=$mode: $inner_csum wrong inner checksums dropped as inner_csum"
	expect_in "$log" "drops:.* inner_routing $inner_routing( |\$)" \
		"rx=$mode: $inner_routing malformed routing headers dropped as inner_routing"
	other=$(grep '^  drops:' "$log" | tail -1 | awk '{ for (i = 2; i < NF; i += 2)
		if ($i != "inner_csum" && $i != "inner_routing") n += $(i + 1) } END { print n + 0 }')
	[ "$other" -eq 0 ] && pass "rx=$mode: no other drop" || fail "rx=$mode: $other other drops"
	if [ $mode = on ]; then
		expect_in "$log" "rx_l4_bad $inner_csum " \
			"rx=on: hwcsum's verdict called the $inner_csum wrong ones bad"
	fi
	"$PY" "$HERE/exthdrs.py" check "$WORK" >"$WORK/check-$mode.out" 2>&1
	sed "s/^\(ok\|FAIL\): /\1: rx=$mode: /" "$WORK/check-$mode.out"
	FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/check-$mode.out")))
	grep -q '^Traceback' "$WORK/check-$mode.out" && fail "rx=$mode: exthdrs.py check failed"
done

# The VM's CHECKSUM_PARTIAL packets behind the same headers: the gateway
# recognises the seed (over the final destination) and completes it.
run_gw encap $(gw_vdevs "" "$WORK/empty.pcap" "$WORK/under_enc.pcap" "$WORK/inner_@.pcap" \
	"$WORK/inner_out_@.pcap") -- -f "$WORK/gw.ini" --duration 2
[ "$RC" -eq 0 ] && pass "encap: gateway exits 0" || fail "encap: exit status $RC"
read -r seeded <"$WORK/seeded.txt"
expect_in "$WORK/encap.log" "encap $seeded decap 0 .*inner partial $seeded," \
	"encap: the $seeded seeded packets recognised as CHECKSUM_PARTIAL"
"$PY" "$HERE/exthdrs.py" encap-check "$WORK" || FAILS=$((FAILS + 1))
finish
