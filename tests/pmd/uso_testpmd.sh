#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# UDP segmentation from an unmodified testpmd 22.11 on a hwcsum port over
# net_pcap. testpmd's csum engine sets RTE_MBUF_F_TX_UDP_SEG only with
# `set port <p> gso on` (never from `tso set`), and its own rte_gso takes
# every datagram with IPv4 innermost first (tunnelled or not); those it
# cannot cut (IPv6 innermost: plain, in VXLAN/IPv4, in GENEVE/IPv6) reach
# the port with the flag and `tso set`'s /
# `tunnel_tso set`'s tso_segsz, which hwcsum cuts (UDP_TSO enabled with
# `port config 1 tx_offload udp_tso on`). Judged by uso_pcap.py (count,
# order, lengths, IDs, payload byte for byte) and tshark (every IPv4 and
# UDP checksum; the datagram's own UDP checksum good in every frame).
PMD_SO=$1
. "$(dirname "$0")/lib.sh"

MSS=1400
seg_pcap_gen uso

# hwcsum is port 1 (pcap_session).
cat > "$WORK/cmds" <<CMDS
set fwd csum
port stop 1
csum set ip hw 1
csum set udp hw 1
csum set outer-ip hw 1
csum set outer-udp hw 1
csum parse-tunnel on 1
tso set $MSS 1
tunnel_tso set $MSS 1
port config 1 tx_offload udp_tso on
set port 1 gso on
set gso segsz 1500
port start 1
show port 1 tx_offload configuration
start
stop
show port xstats 1
quit
CMDS
pcap_session "$WORK/cmds" "$WORK/in.pcap" "$WORK/out.pcap"
grep -q "UDP_TSO" <<<"$OUT" || fail "UDP_TSO not configured on port 1 (testpmd: $(grep -i udp_tso <<<"$OUT" | head -2))"
seg_pcap_check $MSS "" ", in order, each a UDP datagram of its own, payload byte for byte"
# One pass (tests/lib/pcap_csum.py), one line per frame: number|IPv4
# checksum statuses|UDP checksum statuses|UDP ports, outermost first; the
# innermost UDP header (port 7000) is the datagram's own.
table=$(/usr/bin/python3 "$(dirname "$0")/../lib/pcap_csum.py" --table --kinds ip,udp \
	-e udp.dstport "$WORK/out.pcap") || fail "tshark cannot read out.pcap"
read -r frames bad inner_good < <(awk -F'|' '
	NF == 0 { next }
	{ f++ }
	($2 "|" $3) ~ /(^|[|,])bad([|,]|$)/ { b++ }
	{ np = split($4, p, ","); ns = split($3, s, ",") }
	p[np] == 7000 && s[ns] == "good" { g++ }
	END { print f + 0, b + 0, g + 0 }' <<<"$table")
[ "$bad" -eq 0 ] && [ "$frames" -gt 0 ] && [ "$inner_good" -eq "$frames" ] &&
	pass "tshark: $frames frames, every datagram's UDP checksum good, none bad" ||
	fail "tshark: $frames frames, $bad with a bad checksum, $inner_good with a good inner UDP checksum"
# Three datagrams longer than one segment: 5 + 4 + 4 segments.
sw=$(xstat_of tx_tso_sw)
segs_x=$(xstat_of tx_tso_segments)
[ "${sw:-0}" -eq 3 ] && [ "${segs_x:-0}" -eq 13 ] ||
	fail "tx_tso_sw = ${sw:-none}, tx_tso_segments = ${segs_x:-none}, want 3 and 13"
finish
