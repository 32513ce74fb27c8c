#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# TSO from an unmodified testpmd: its csum engine with `tso set` and
# `tunnel_tso set` on a hwcsum port over net_pcap, which reads large TCP
# frames (plain IPv4/IPv6, VXLAN/IPv4, GENEVE with options/IPv6; see
# tso_pcap.py) and writes what hwcsum cut. Judged by tso_pcap.py (count,
# order, sequence, IDs, lengths, flags, payload byte for byte) and tshark
# (every IPv4, UDP and TCP checksum), with the outer UDP checksum by LCO
# (outer-udp hw) and zero (outer-udp sw: testpmd zeroes it under TSO).
PMD_SO=$1
. "$(dirname "$0")/lib.sh"

MSS=1400
seg_pcap_gen tso

run() {
	local outer_udp=$1
	rm -f "$WORK/out.pcap"
	{
		echo "set fwd csum"
		echo "port stop 1"
		for f in ip tcp udp outer-ip; do echo "csum set $f hw 1"; done
		echo "csum set outer-udp $outer_udp 1"
		echo "csum parse-tunnel on 1"
		echo "tso set $MSS 1"
		echo "tunnel_tso set $MSS 1"
		echo "port start 1"
		echo "show port 1 tx_offload configuration"
		echo "start"
		echo "stop"
		echo "show port xstats 1"
		echo "quit"
	} > "$WORK/cmds"
	pcap_session "$WORK/cmds" "$WORK/in.pcap" "$WORK/out.pcap" "outer-udp $outer_udp"
	# GRE and IP-in-IP are not UDP tunnels: testpmd says it leaves them off.
	grep -Ei "(VXLAN|GENEVE|UDP).*not supported|TSO .*not supported by port" <<<"$OUT" &&
		fail "outer-udp $outer_udp: testpmd says a TSO offload is not supported"
	for o in TCP_TSO VXLAN_TNL_TSO GENEVE_TNL_TSO; do
		grep -q "$o" <<<"$OUT" || fail "outer-udp $outer_udp: $o not configured"
	done
	seg_pcap_check $MSS "outer-udp $outer_udp: " ", in order, payload byte for byte"
	local frames bad tcp_good zero_udp
	# One pass (tests/lib/pcap_csum.py), one line per frame:
	# number|ip|udp|tcp checksum statuses|udp checksums
	local table
	table=$(/usr/bin/python3 "$(dirname "$0")/../lib/pcap_csum.py" --table --kinds ip,udp,tcp \
		-e udp.checksum "$WORK/out.pcap") || fail "outer-udp $outer_udp: tshark cannot read out.pcap"
	read -r frames bad tcp_good zero_udp < <(awk -F'|' '
		NF == 0 { next }
		{ f++ }
		($2 "|" $3 "|" $4) ~ /(^|[|,])bad([|,]|$)/ { b++ }
		$4 ~ /(^|,)good(,|$)/ { t++ }
		$5 ~ /(^|,)0x0000(,|$)/ { z++ }
		END { print f + 0, b + 0, t + 0, z + 0 }' <<<"$table")
	[ "$bad" -eq 0 ] && [ "$frames" -gt 0 ] && [ "$tcp_good" -eq "$frames" ] &&
		pass "outer-udp $outer_udp: tshark: $frames frames, every TCP checksum good, none bad" ||
		fail "outer-udp $outer_udp: tshark: $frames frames, $bad with a bad checksum, $tcp_good TCP good"
	if [ "$outer_udp" = sw ]; then
		[ "$zero_udp" -gt 0 ] || fail "outer-udp sw: no outer UDP checksum is zero"
	else
		[ "$zero_udp" -eq 0 ] || fail "outer-udp hw: $zero_udp outer UDP checksums are zero"
	fi
	# testpmd asks TSO of the four frames longer than one segment.
	local sw segs_x
	sw=$(xstat_of tx_tso_sw)
	segs_x=$(xstat_of tx_tso_segments)
	[ "${sw:-0}" -eq 4 ] && [ "${segs_x:-0}" -eq 19 ] ||
		fail "outer-udp $outer_udp: tx_tso_sw = ${sw:-none}, tx_tso_segments = ${segs_x:-none}, want 4 and 19"
}

run hw
run sw
finish
