#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# TSO benchmark (issue 29): 64 KiB TCP/IPv4 frames (65000 payload bytes)
# from net_pcap (infinite_rx) cut into 1400-byte segments towards net_null,
# through an unmodified testpmd's csum engine, one forwarding core:
#   hwcsum-tso   `tso set 1400` on net_hwcsum over net_null: hwcsum_tso.c
#                cuts, every segment's checksums right (tx_engine none);
#   bare-gso     `set port <null> gso on` on the bare net_null: testpmd's
#                rte_gso in software (its segments' checksums are not
#                checked here; pmd-testpmd-tso checks hwcsum's).
# Rates from the TX port's `show port stats` over [interval] seconds after
# a warm-up: segments/s, hence 64 KiB frames/s and Gbit/s of segments as
# sent; rounds alternate which contender goes first. --mbuf-size 65400:
# infinite_rx takes no chains, so a frame is one mbuf (and so is each
# segment, from the same pool, for both contenders). Ratios of
# the same run only mean anything (the machine is shared); never pass/fail.
#
#   devtools/bench-tso.sh [build dir] [rounds] [interval s]
set -euo pipefail

BUILD=${1:-build}
ROUNDS=${2:-3}
INTERVAL=${3:-4}
# shellcheck source=devtools/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
WARMUP=2
MSS=1400
TESTPMD=${TESTPMD:-dpdk-testpmd}
command -v "$TESTPMD" >/dev/null || { echo "bench-tso: $TESTPMD not found, skipped"; exit 0; }
bench_pmd bench-tso
WORK=$(mktemp -d /var/tmp/hwcsum-bench-tso.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT

/usr/bin/python3 - "$WORK/tso.pcap" <<'PY'
import sys
from scapy.all import Ether, IP, TCP, Raw, wrpcap
wrpcap(sys.argv[1], [Ether() / IP(src="10.0.0.1", dst="10.0.0.2", id=i) /
                     TCP(sport=7000 + i, dport=80, flags="PA") / Raw(bytes(65000))
                     for i in range(4)])
PY

# run <contender>: prints "in_pps seg_pps seg_bps"
run() {
	local who=$1 vdevs="" tx cmds
	if [ "$who" = hwcsum-tso ]; then
		# pcap 0, null 1 (owned by hwcsum), hwcsum 2
		vdevs="--vdev net_hwcsum0,sub=net_null0,tx_engine=none"
		tx=2
		cmds="port stop $tx
csum set ip hw $tx
csum set tcp hw $tx
tso set $MSS $tx
port start $tx"
	else
		tx=1
		cmds="set gso segsz $((MSS + 54))
set port $tx gso on"
	fi
	rm -f "$WORK/$who.log"
	{
		# EAL start-up first: the timing starts at the first prompt.
		for _ in $(seq 600); do
			grep -q "testpmd> " "$WORK/$who.log" 2>/dev/null && break
			sleep 0.1
		done
		echo "set fwd csum"
		echo "$cmds"
		echo "start"
		sleep "$WARMUP"
		echo "show port stats all"
		sleep "$INTERVAL"
		echo "show port stats all"
		echo "stop"
		echo "quit"
	} | LD_PRELOAD= timeout 120 "$TESTPMD" --no-huge -m 1024 --no-pci -l 0-1 \
		--file-prefix "hwcsum-bench-tso-$$" -d "$SO" \
		--vdev "net_pcap0,rx_pcap=$WORK/tso.pcap,infinite_rx=1" \
		--vdev net_null0,no-rx=1 $vdevs \
		-- -i --mbuf-size=65400 --total-num-mbufs=3072 --nb-cores=1 \
		--rxd=256 --txd=512 > "$WORK/$who.log" 2>&1 || true
	# The second block of the TX port: segments/s over the interval
	# (net_pcap's infinite_rx and net_null count no bytes).
	awk -v tx="$tx" '
		/NIC statistics for port/ { port = $(NF-1); seen[port]++ }
		/Tx-pps:/ && port == tx && seen[port] == 2 { print $2 + 0; exit }' \
		"$WORK/$who.log"
}

# 65000 payload bytes in 1400-byte segments; 54 header bytes each.
SEGS=$(( (65000 + MSS - 1) / MSS ))
printf "%-11s %5s %12s %12s %14s\n" contender round "Mpps(64KiB)" "Mpps(segs)" "Gbit/s(wire)"
json="["
for r in $(seq "$ROUNDS"); do
	order="hwcsum-tso bare-gso"
	[ $((r % 2)) -eq 0 ] && order="bare-gso hwcsum-tso"
	for who in $order; do
		seg_pps=$(run "$who")
		[ "${seg_pps:-0}" -gt 0 ] || echo "bench-tso: $who: no rate (KEEP=1 keeps the logs)" >&2
		# Frames/s, and bits/s of the segments as sent (headers included).
		in_pps=$(echo "${seg_pps:-0} / $SEGS" | bc -l)
		bps=$(echo "($in_pps * 65000 + ${seg_pps:-0} * 54) * 8" | bc -l)
		printf "%-11s %5d %12.4f %12.3f %14.2f\n" "$who" "$r" \
			"$(echo "$in_pps / 1000000" | bc -l)" "$(echo "${seg_pps:-0} / 1000000" | bc -l)" \
			"$(echo "$bps / 1000000000" | bc -l)"
		json="$json{\"contender\":\"$who\",\"round\":$r,\"seg_pps\":${seg_pps:-0},\"frame_pps\":$(printf %.1f "$in_pps"),\"bps\":$(printf %.0f "$bps")},"
	done
done
echo "${json%,}]" > "$OUTDIR/tso.json"
echo "JSON: $OUTDIR/tso.json"
