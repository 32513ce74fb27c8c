#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# test_uso (every UDP segment judged in C), then tshark on the segments it
# wrote: no IPv4 or UDP checksum tshark can check may be bad, and in every
# frame but GUE's (port 6080, which tshark does not dissect) the innermost
# UDP header, the datagram's own (port 7000), must have a good checksum.
set -euo pipefail
so=$("$(dirname "$0")/../../devtools/plugin-path.sh" "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$1" "$so" "$WORK/uso.pcap"

# One tshark pass: per frame the IPv4 checksum statuses, the UDP ports and
# the UDP checksum statuses, outermost first (0 bad, 1 good, 2 unverified,
# 3 none, 4 a zero UDP checksum over IPv6: an outer one not asked for).
tshark -r "$WORK/uso.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
	-T fields -E separator=";" -e ip.checksum.status -e udp.dstport \
	-e udp.checksum.status > "$WORK/fields" 2>/dev/null
read -r frames bad gue inner_good others < <(awk -F";" '
	{ n = split($1 "," $3, st, ","); for (i = 1; i <= n; i++) if (st[i] == "0") b++
	  np = split($2, p, ","); ns = split($3, s, ",")
	  if (p[1] == 6080) g++
	  else if (p[np] == 7000 && s[ns] == 1) ok++
	  else o++ }
	END { print NR, b + 0, g + 0, ok + 0, o + 0 }' "$WORK/fields")
echo "tshark: $frames frames, $bad bad checksums, $inner_good with the datagram's UDP checksum good, $gue GUE, $others other"
[ "$frames" -gt 0 ] || { echo "FAIL: no frames captured"; exit 1; }
[ "$bad" -eq 0 ] || { echo "FAIL: tshark found $bad bad checksums"; exit 1; }
[ "$gue" -gt 0 ] && [ "$others" -eq 0 ] && [ "$inner_good" -eq $((frames - gue)) ] ||
	{ echo "FAIL: $inner_good of $frames frames ($gue GUE) have a good inner UDP checksum"; exit 1; }
echo "PASS: tshark agrees"
