#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# gen_frames.py <out.pcap> [<iface>]: the frames the primary forwards, each
# telling which it is by its UDP source port (5000 + i) and length; written
# to <out.pcap>, and sent on <iface> when one is named.
import sys
from scapy.all import Ether, IP, UDP, Raw, sendp, wrpcap

N = 10
frames = [
	Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
	IP(src="10.0.0.1", dst="10.0.0.2") /
	UDP(sport=5000 + i, dport=4000) / Raw(b"hwcsum" * (i + 1))
	for i in range(N)]
wrpcap(sys.argv[1], frames)
if len(sys.argv) > 2:
	# Spaced out: net_pcap reads a socket a loaded lcore may drain late.
	sendp(frames, iface=sys.argv[2], inter=0.02, verbose=False)
