#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# test_tso (every TSO segment judged in C), then tshark on the segments it
# wrote: each IPv4, UDP and TCP checksum it can check must be good, and
# every frame's TCP checksum must be one of them (but GUE's, port 6080,
# which tshark does not dissect: its outer UDP checksum covers it when
# asked for, and test_tso checked its TCP checksum).
set -euo pipefail
so=$("$(dirname "$0")/../../devtools/plugin-path.sh" "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$1" "$so" "$WORK/tso.pcap"

frames=$(tshark -r "$WORK/tso.pcap" 2>/dev/null | wc -l)
# status: 0 bad, 1 good (2 unverified: a zero UDP checksum, none sent)
read -r good bad < <(tshark -r "$WORK/tso.pcap" -o ip.check_checksum:TRUE \
	-o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE \
	-T fields -e ip.checksum.status -e udp.checksum.status \
	-e tcp.checksum.status 2>/dev/null |
	tr '\t,' '\n\n' | awk '$1 == 1 { g++ } $1 == 0 { b++ } END { print g + 0, b + 0 }')
tcp_good=$(tshark -r "$WORK/tso.pcap" -o tcp.check_checksum:TRUE \
	-Y 'tcp.checksum.status == 1' 2>/dev/null | wc -l)
gue=$(tshark -r "$WORK/tso.pcap" -Y 'udp.dstport == 6080' 2>/dev/null | wc -l)
echo "tshark: $frames frames, $good checksums good, $bad bad, $tcp_good TCP good"
[ "$frames" -gt 0 ] || { echo "FAIL: no frames captured"; exit 1; }
[ "$bad" -eq 0 ] || { echo "FAIL: tshark found $bad bad checksums"; exit 1; }
[ "$gue" -gt 0 ] && [ "$tcp_good" -eq $((frames - gue)) ] ||
	{ echo "FAIL: $tcp_good of $frames frames ($gue GUE) have a good TCP checksum"; exit 1; }
echo "PASS: tshark agrees"
