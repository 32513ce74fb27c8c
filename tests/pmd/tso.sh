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

# One tshark pass (tests/lib/pcap_csum.py), one line per frame:
# number|ip|udp|tcp statuses (good, bad; unverified: a zero UDP checksum,
# none sent)|udp dst ports
table=$(/usr/bin/python3 "$(dirname "$0")/../lib/pcap_csum.py" --table --kinds ip,udp,tcp \
	-e udp.dstport "$WORK/tso.pcap")
frames=$(grep -c . <<<"$table" || true)
read -r good bad tcp_good gue < <(awk -F'|' '
	{ for (i = 2; i <= 4; i++) { n = split($i, s, ","); for (j = 1; j <= n; j++) { g += s[j] == "good"; b += s[j] == "bad" } } }
	$4 ~ /(^|,)good(,|$)/ { t++ }
	$5 ~ /(^|,)6080(,|$)/ { u++ }
	END { print g + 0, b + 0, t + 0, u + 0 }' <<<"$table")
echo "tshark: $frames frames, $good checksums good, $bad bad, $tcp_good TCP good"
[ "$frames" -gt 0 ] || { echo "FAIL: no frames captured"; exit 1; }
[ "$bad" -eq 0 ] || { echo "FAIL: tshark found $bad bad checksums"; exit 1; }
[ "$gue" -gt 0 ] && [ "$tcp_good" -eq $((frames - gue)) ] ||
	{ echo "FAIL: $tcp_good of $frames frames ($gue GUE) have a good TCP checksum"; exit 1; }
echo "PASS: tshark agrees"
