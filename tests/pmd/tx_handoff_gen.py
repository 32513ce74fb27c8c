#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Captures for tx_handoff.sh: 8 VXLAN/IPv4 with inner IPv4/UDP, 8 VXLAN/IPv6
# with inner IPv6/TCP, 8 plain IPv4/TCP; every checksum deliberately wrong,
# so only the checksum offload under test can make them right. VXLAN flags
# are exactly I (scapy defaults to I+P, which Linux drops as malformed).
import sys
from scapy.all import Ether, IP, IPv6, UDP, TCP, Raw, wrpcap
from scapy.layers.vxlan import VXLAN

pkts = []
for i in range(8):
    inner4 = (Ether() / IP(src="10.0.0.1", dst="10.0.0.2", chksum=0x1234) /
              UDP(sport=1000 + i, dport=2000, chksum=0x4321) / Raw(b"x" * (100 + i * 37)))
    pkts.append(Ether() / IP(src="192.0.2.1", dst="192.0.2.2", chksum=0x1111) /
                UDP(sport=5555, dport=4789, chksum=0x2222) / VXLAN(flags=0x08, vni=42) / inner4)
    inner6 = (Ether() / IPv6(src="fd00::1", dst="fd00::2") /
              TCP(sport=1000 + i, dport=80, chksum=0x4321) / Raw(b"y" * (60 + i * 51)))
    pkts.append(Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") /
                UDP(sport=5555, dport=4789, chksum=0x2222) / VXLAN(flags=0x08, vni=43) / inner6)
    pkts.append(Ether() / IP(src="198.51.100.1", dst="198.51.100.2", chksum=0x1111) /
                TCP(sport=1, dport=2, chksum=0x1) / Raw(b"z" * (200 + i)))
wrpcap(sys.argv[1], pkts)
wrpcap(sys.argv[2], [])
