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

# One tshark pass (tests/lib/pcap_csum.py), one line per frame:
# number|IPv4 checksum statuses|UDP checksum statuses|UDP ports, outermost
# first (good, bad, unverified, zero, illegal: a zero UDP checksum over
# IPv6, an outer one not asked for).
/usr/bin/python3 "$(dirname "$0")/../lib/pcap_csum.py" --table --kinds ip,udp \
	-e udp.dstport "$WORK/uso.pcap" > "$WORK/fields"
read -r frames bad gue inner_good others < <(awk -F"|" '
	{ n = split($2 "," $3, st, ","); for (i = 1; i <= n; i++) if (st[i] == "bad") b++
	  np = split($4, p, ","); ns = split($3, s, ",")
	  if (p[1] == 6080) g++
	  else if (p[np] == 7000 && s[ns] == "good") ok++
	  else o++ }
	END { print NR, b + 0, g + 0, ok + 0, o + 0 }' "$WORK/fields")
echo "tshark: $frames frames, $bad bad checksums, $inner_good with the datagram's UDP checksum good, $gue GUE, $others other"
[ "$frames" -gt 0 ] || { echo "FAIL: no frames captured"; exit 1; }
[ "$bad" -eq 0 ] || { echo "FAIL: tshark found $bad bad checksums"; exit 1; }
[ "$gue" -gt 0 ] && [ "$others" -eq 0 ] && [ "$inner_good" -eq $((frames - gue)) ] ||
	{ echo "FAIL: $inner_good of $frames frames ($gue GUE) have a good inner UDP checksum"; exit 1; }
echo "PASS: tshark agrees"
