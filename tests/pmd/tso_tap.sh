#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# TSO from an unmodified testpmd onto net_tap: tso_testpmd.sh's frames
# (plain IPv4/IPv6, VXLAN/IPv4, GENEVE with options/IPv6; tso_pcap.py)
# read by net_pcap and sent by testpmd's csum engine, with `tso set` and
# `tunnel_tso set`, through a hwcsum port over net_tap; what reaches the
# kernel's side of the tap is captured by tcpdump. net_tap's own TSO is
# rte_gso (TCP over IPv4 only), so hwcsum cuts every shape and the tap
# sums what hwcsum hands it (its UDP/TCP offload). Judged by tso_pcap.py
# (count, order, sequence, lengths, flags, payload byte for byte) and by
# tshark on every IPv4, UDP and TCP checksum.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"
private_netns "$@"
# net_tap drops frames over its MTU (1500) plus 22 bytes, and a GENEVE
# over IPv6 segment with options carries about 160 bytes of headers.
# tso_tap.sh PMD_SO [MSS]
MSS=${2:-1300}
seg_pcap_gen tso

# Ports: net_pcap0 0, net_tap0 1, hwcsum over them 2 and 3. Configured
# before the capture starts: a port restart takes the tap down.
tp_start "--vdev net_pcap0,rx_pcap=$WORK/in.pcap,tx_pcap=/dev/null
	--vdev net_tap0,iface=hwtsotap0 --vdev net_hwcsum0,sub=net_pcap0
	--vdev net_hwcsum1,sub=net_tap0" "--no-flush-rx --nb-ports=2" ||
	{ fail "testpmd did not start"; finish; }
for c in "port stop 3" "csum set ip hw 3" "csum set tcp hw 3" "csum set udp hw 3" \
	 "csum set outer-ip hw 3" "csum set outer-udp hw 3" "csum parse-tunnel on 3" \
	 "tso set $MSS 3" "tunnel_tso set $MSS 3" "port start 3"; do
	tp_cmd "$c" || fail "testpmd: $c"
done
tap_capture hwtsotap0 "$WORK/out.pcap" || fail "no capture"
tp_cmd "set fwd csum"
tap_forward 3

seg_pcap_check $MSS "net_tap: " ", in order, payload byte for byte"
frames=$(tshark -r "$WORK/out.pcap" 2>/dev/null | wc -l)
read -r good bad < <(/usr/bin/python3 "$(dirname "$0")/../lib/pcap_csum.py" --count good-bad "$WORK/out.pcap")
[ "$frames" -gt 0 ] && [ "$bad" = 0 ] && [ "$good" -gt "$frames" ] &&
	pass "tshark: $frames frames, $good checksums good, none bad" ||
	fail "tshark: $frames frames, $good good, $bad bad"
# testpmd asks TSO of the four frames longer than one segment.
sw=$(xstat_of tx_tso_sw) segs=$(xstat_of tx_tso_segments) hw=$(xstat_of tx_tso_hw)
[ "${sw:-0}" -eq 4 ] && [ "${segs:-0}" -eq 20 ] && [ "${hw:-0}" -eq 0 ] &&
	pass "cut by hwcsum: tx_tso_sw 4, tx_tso_segments 20, tx_tso_hw 0" ||
	fail "tx_tso_sw ${sw:-none}, tx_tso_segments ${segs:-none}, tx_tso_hw ${hw:-none}: want 4, 20, 0"
finish
