#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""uso_pcap.py: the captures of uso_testpmd.sh.

  gen IN.pcap          large UDP datagrams (destination port 7000), one
                       source port each: plain IPv6, VXLAN/IPv4 outer with
                       IPv6 inside, GENEVE with options over IPv6 with IPv6
                       inside, and one shorter than a segment
  check IN OUT MSS     every input datagram cut into ceil(payload/MSS) UDP
                       datagrams of its own, in order (Linux's UDP GSO): each
                       with its own UDP header and length, MSS bytes of
                       payload (the last less), IPv4 IDs +1 a segment,
                       IPv6 payload length and outer UDP length fixed; the
                       payload joined byte for byte; prints 'N segments'

Checksums are tshark's to judge (uso_testpmd.sh). These are the shapes
testpmd 22.11 hands to the port with RTE_MBUF_F_TX_UDP_SEG: its csum
engine sets the flag only under `set port <p> gso on`, and its own rte_gso
then takes every datagram whose innermost IP is IPv4 (IS_IPV4_UDP looks at
RTE_MBUF_F_TX_IPV4 alone, tunnel or not) into its own UDP/IPv4 path and
clears the flag, and passes the IPv6 ones on with it. IPv4 IDs are test_uso.c's to check.
"""
import sys
from scapy.all import Ether, IP, IPv6, UDP, Raw, wrpcap
from scapy.layers.vxlan import VXLAN

import seg_pcap
from seg_pcap import GENEVE_OPTS, geneve

DPORT = 7000
# (UDP source port, payload bytes): the port names the datagram in the output.
FRAMES = [(8001, 6000), (8002, 5000), (8003, 4321), (8004, 900)]


def payload(n, seed):
    return bytes((i * 11 + seed + i // 251) & 0xff for i in range(n))


def udp(sport, n):
    return UDP(sport=sport, dport=DPORT) / Raw(payload(n, sport))


def gen(path):
    (p6, n6), (pvx, nvx), (pgn, ngn), (psm, nsm) = FRAMES
    pkts = [
        Ether() / IPv6(src="fd00::1", dst="fd00::2") / udp(p6, n6),
        Ether() / IP(src="192.0.2.1", dst="192.0.2.2", id=300) /
        UDP(sport=5555, dport=4789) / VXLAN(flags=0x08, vni=42) /
        Ether() / IPv6(src="fd01::1", dst="fd01::2") / udp(pvx, nvx),
        Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") /
        UDP(sport=5556, dport=6081) / geneve(GENEVE_OPTS) /
        Ether() / IPv6(src="fd02::1", dst="fd02::2") / udp(pgn, ngn),
        Ether() / IPv6(src="fd00::1", dst="fd00::3") / udp(psm, nsm),
    ]
    wrpcap(path, [Ether(bytes(p)) for p in pkts])


def judge(name, i, n, mss, u0, u):
    """Segment i of n, a datagram of its own: its length, MSS bytes (the last less)."""
    data = bytes(u.payload)
    want = min(mss, len(bytes(u0.payload)) - i * mss)
    if len(data) != want or u.len != 8 + want or u.dport != DPORT:
        return ["%s seg %d: %d bytes, UDP length %d, want %d"
                % (name, i, len(data), u.len, 8 + want)]
    return []


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
        sys.exit(0)
    sys.exit(seg_pcap.check(sys.argv[2], sys.argv[3], int(sys.argv[4]), UDP, judge))
