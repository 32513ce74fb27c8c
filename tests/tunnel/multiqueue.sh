#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# hwcsum-tunnel with two worker lcores, each with its own queue of every
# port (the machine has two cores: --lcores puts the main lcore and one
# worker on the same one). net_pcap gives a port one queue per rx_pcap /
# tx_pcap file, so each worker reads and writes files of its own:
#  1. encapsulate the round trip's traffic split over two inner queues:
#     both workers forward, every frame comes out once, tshark finds no
#     bad checksum in either underlay queue's capture;
#  2. decapsulate both underlay captures, one per queue: the inner ports'
#     two queues together give back exactly what was sent, byte for byte;
#  3. no mbuf leaked, no drop.
# Twice the queues need more mbufs than the single-queue default.
# Usage: multiqueue.sh <hwcsum-tunnel> <librte_net_hwcsum.so>
GW=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"
Q=2
LCORES="--lcores 0@0,1@1,2@1"

"$PY" "$HERE/frames.py" gen "$WORK" && "$PY" "$HERE/frames.py" ini "$WORK" ||
	{ echo "FAIL: cannot generate traffic"; exit 1; }
NAMES=$(tunnel_names)
for n in $NAMES; do
	"$PY" "$HERE/frames.py" split "$WORK/inner_$n.pcap" $Q || { echo "FAIL: split"; exit 1; }
done

# pcap_port <index> <rx file pattern> <tx file pattern>: Q queues, %q = queue.
pcap_port() {
	local i=$1 args="" q
	for q in $(seq 0 $((Q - 1))); do
		args+=",rx_pcap=${2//%q/$q},tx_pcap=${3//%q/$q}"
	done
	echo "--vdev net_pcap$i${args} --vdev net_hwcsum$i,sub=net_pcap$i"
}
# vdevs <underlay rx> <underlay tx> <inner rx> <inner tx>; @ = tunnel name.
vdevs() {
	local i=1 n
	pcap_port 0 "$1" "$2"
	for n in $NAMES; do
		pcap_port $i "${3//@/$n}" "${4//@/$n}"
		i=$((i + 1))
	done
}
# run_gw with the lcores above instead of -l 0-1.
run_gw_q() {
	local name=$1
	shift
	RUN_N=$((RUN_N + 1))
	timeout 60 "$GW" --no-huge -m 256 --no-pci $LCORES \
		--file-prefix "hwcsum-tunnel-$$-$RUN_N" "$@" >"$WORK/$name.log" 2>&1
	RC=$?
}

# 1. encapsulate, two workers
run_gw_q encap $(vdevs "$WORK/empty.pcap" "$WORK/under.q%q.pcap" "$WORK/inner_@.q%q.pcap" \
	"$WORK/inner_out_@.q%q.pcap") -- -f "$WORK/gw.ini" --mbufs 16384 --duration 2
[ "$RC" -eq 0 ] && pass "encap run exits 0" || fail "encap run exit status $RC"
expect_in "$WORK/encap.log" "underlay net_hwcsum0, $Q queue\(s\)" "$Q queues, one per worker"
expect_in "$WORK/encap.log" "none leaked" "encap: no mbuf leaked"
sent=0
for n in $NAMES; do
	sent=$((sent + $(tshark -r "$WORK/inner_$n.pcap" 2>/dev/null | wc -l)))
done
got=0
for q in $(seq 0 $((Q - 1))); do
	c=$(tshark -r "$WORK/under.q$q.pcap" 2>/dev/null | wc -l)
	[ "$c" -gt 0 ] && pass "encap: worker of queue $q sent $c frames" ||
		fail "encap: nothing on underlay queue $q"
	bad=$(bad_checksums "$WORK/under.q$q.pcap")
	[ "$bad" -eq 0 ] && pass "tshark: 0 bad checksums on underlay queue $q" ||
		fail "tshark: $bad frames with bad checksums on underlay queue $q"
	got=$((got + c))
done
[ "$got" -eq "$sent" ] && [ "$sent" -gt 0 ] && pass "encap: $got of $sent frames out" ||
	fail "encap: $got frames on the underlay, $sent sent"

# 2. decapsulate both queues' captures
run_gw_q decap $(vdevs "$WORK/under.q%q.pcap" "$WORK/under_out.q%q.pcap" "$WORK/empty.pcap" \
	"$WORK/back_@.q%q.pcap") -- -f "$WORK/gw.ini" --mbufs 16384 --duration 2
[ "$RC" -eq 0 ] && pass "decap run exits 0" || fail "decap run exit status $RC"
expect_in "$WORK/decap.log" "none leaked" "decap: no mbuf leaked"
expect_in "$WORK/decap.log" "encap 0 decap $sent " "decap counter $sent"
expect_in "$WORK/decap.log" "not_tunnel 0 malformed 0 unknown_vni 0 outer_csum 0 inner_ip_csum 0 inner_csum 0 geneve_critical 0" \
	"decap: no drop"
"$PY" "$HERE/frames.py" compare-queues "$WORK" $Q $NAMES >"$WORK/compare.out"
cat "$WORK/compare.out"
FAILS=$((FAILS + $(grep -c '^FAIL' "$WORK/compare.out")))
[ "$(grep -c '^ok' "$WORK/compare.out")" -eq 8 ] || fail "round trips over $Q queues: not 8 passed"
finish
