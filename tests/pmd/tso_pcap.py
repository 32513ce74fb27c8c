#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""tso_pcap.py: the captures of tso_testpmd.sh.

  gen IN.pcap          large TCP frames, one TCP source port each: plain
                       IPv4 and IPv6, VXLAN/IPv4, GENEVE with options/IPv6
  check IN OUT MSS [ABSENT]
                       every input frame cut into ceil(payload/MSS)
                       segments, in order: payload joined byte for byte,
                       sequence, IP IDs, lengths, FIN/PSH on the last
                       only, CWR on the first only; prints 'N segments'.
                       ABSENT: TCP source ports, comma-separated, of frames
                       none of whose segments may be there

Checksums are tshark's to judge (tso_testpmd.sh).
"""
import sys
from scapy.all import Ether, IP, IPv6, UDP, TCP, Raw, wrpcap
from scapy.layers.vxlan import VXLAN

import seg_pcap
from seg_pcap import GENEVE_OPTS, geneve

# (TCP source port, payload bytes): the port names the frame in the output.
FRAMES = [(7001, 8000), (7002, 6000), (7003, 5000), (7004, 4321), (7005, 900)]


def payload(n, seed):
    return bytes((i * 7 + seed + i // 253) & 0xff for i in range(n))


def tcp(sport, n):
    return (TCP(sport=sport, dport=80, seq=0xfffff000, ack=1, flags="FPAC",
                options=[("NOP", None), ("NOP", None), ("Timestamp", (7, 0))]) /
            Raw(payload(n, sport)))


def gen(path):
    (p4, n4), (p6, n6), (pvx, nvx), (pgn, ngn), (psm, nsm) = FRAMES
    pkts = [
        Ether() / IP(src="10.0.0.1", dst="10.0.0.2", id=100, flags="DF") / tcp(p4, n4),
        Ether() / IPv6(src="fd00::1", dst="fd00::2") / tcp(p6, n6),
        Ether() / IP(src="192.0.2.1", dst="192.0.2.2", id=300) /
        UDP(sport=5555, dport=4789) / VXLAN(flags=0x08, vni=42) /
        Ether() / IP(src="10.1.0.1", dst="10.1.0.2", id=400) / tcp(pvx, nvx),
        Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") /
        UDP(sport=5556, dport=6081) / geneve(GENEVE_OPTS) /
        Ether() / IP(src="10.2.0.1", dst="10.2.0.2", id=500) / tcp(pgn, ngn),
        # Shorter than one segment: passes as it is, checksums made.
        Ether() / IP(src="10.0.0.1", dst="10.0.0.3", id=600) / tcp(psm, nsm),
    ]
    # GENEVE carried as raw bytes: let scapy decode the inner frame anyway.
    wrpcap(path, [Ether(bytes(p)) for p in pkts])


def judge(name, i, n, mss, t0, t):
    """Segment i of n: its sequence, FIN/PSH on the last only, CWR on the first."""
    fails = []
    if t.seq != (t0.seq + i * mss) & 0xffffffff:
        fails.append("%s seg %d: seq %#x" % (name, i, t.seq))
    want = set(str(t0.flags))
    if i + 1 != n:
        want -= {"F", "P"}
    if i != 0:
        want -= {"C"}
    if set(str(t.flags)) != want:
        fails.append("%s seg %d: flags %s, want %s" % (name, i, t.flags, "".join(sorted(want))))
    if len(bytes(t.payload)) > mss:
        fails.append("%s seg %d: %d bytes of payload" % (name, i, len(bytes(t.payload))))
    return fails


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
        sys.exit(0)
    absent = [int(p) for p in sys.argv[5].split(",")] if len(sys.argv) > 5 else []
    sys.exit(seg_pcap.check(sys.argv[2], sys.argv[3], int(sys.argv[4]), TCP, judge,
                            absent))
