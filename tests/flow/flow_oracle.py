#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""flow_oracle.py: traffic for the rte_flow tests and what they must see.

  flow_oracle.py gen DIR          write DIR/in.pcap (every group below)
  flow_oracle.py check DIR LOG    judge DIR/o<q>.pcap and testpmd's verbose
                                  LOG against the rules of flow_testpmd.sh

The expected queue, mark and RSS hash of every packet are computed here,
independently of the PMD: scapy parses the captures, and the Toeplitz
hash is this file's own (Microsoft's verification key, the default of
rte_flow's RSS action). Prints one line per check; exit 1 on any failure.
"""
import collections
import re
import socket
import sys

from scapy.all import (ICMP, IP, TCP, UDP, Ether, IPv6, Raw, rdpcap, wrpcap)
from scapy.layers.vxlan import VXLAN

N_QUEUES = 4
MS_KEY = bytes.fromhex(
    "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c"
    "6a42b73bbeac01fa")
GENEVE_OPT_CLASS, GENEVE_OPT_TYPE = 0x0102, 0x80
OPT_MATCH, OPT_OTHER = 0x11223344, 0x55667788


def toeplitz(data, key=MS_KEY):
    """The RSS hash of data: for each set bit, XOR the key's 32-bit window."""
    k = int.from_bytes(key, "big")
    klen = len(key) * 8
    h = 0
    for i, byte in enumerate(data):
        for b in range(8):
            if byte & (0x80 >> b):
                shift = klen - 32 - (i * 8 + b)
                h ^= (k >> shift) & 0xffffffff
    return h


# The verification suite of Microsoft's RSS specification: (source,
# destination, source port, destination port, address hash, with ports).
MS_VECTORS = [
    ("66.9.149.187", "161.142.100.80", 2794, 1766, 0x323e8fc2, 0x51ccc178),
    ("3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", 2794, 1766,
     0x2cc18cd5, 0x40207d3d),
]


def hash_input(src, dst, sport=None, dport=None):
    """Addresses, then the ports when given: what RSS hashes, in order."""
    fam = socket.AF_INET6 if ":" in src else socket.AF_INET
    data = socket.inet_pton(fam, src) + socket.inet_pton(fam, dst)
    if sport is not None:
        data += sport.to_bytes(2, "big") + dport.to_bytes(2, "big")
    return data


def toeplitz_self_test(judge):
    for src, dst, sp, dp, h_addr, h_ports in MS_VECTORS:
        judge.ok(toeplitz(hash_input(src, dst)) == h_addr and
                 toeplitz(hash_input(src, dst, sp, dp)) == h_ports,
                 "this file's Toeplitz gives the RSS specification's hashes "
                 "for %s -> %s" % (src, dst))


def ip_udp_tuple(ip):
    """src, dst, sport, dport as rte_flow's ipv4-udp / ipv6-udp hash them."""
    return hash_input(ip.src, ip.dst, ip[UDP].sport, ip[UDP].dport)


def outer(dport, sport=40000, v6=False):
    eth = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
    ip = (IPv6(src="fd00::1", dst="fd00::2") if v6 else
          IP(src="10.0.0.1", dst="10.0.0.2"))
    return eth / ip / UDP(sport=sport, dport=dport)


def inner(i, v6=False, l2=True):
    ip = (IPv6(src="fd01::%x" % (i + 1), dst="fd02::1") if v6 else
          IP(src="192.168.%d.%d" % (i // 200, i % 200 + 1), dst="172.16.0.1"))
    pkt = ip / UDP(sport=1024 + 7 * i, dport=5000) / Raw(b"f%04d" % i)
    if l2:
        pkt = Ether(src="02:00:00:00:01:01", dst="02:00:00:00:01:02") / pkt
    return pkt


def geneve_opt(data):
    # class(2) type(1) R|length(1, in words) data: one 4-byte word
    return (GENEVE_OPT_CLASS.to_bytes(2, "big") + bytes([GENEVE_OPT_TYPE, 1]) +
            data.to_bytes(4, "big"))


# Each group: name, packets, and what the rules of flow_testpmd.sh make of
# one packet: (queue rule, mark or None, rss level or 0).
def groups():
    g = collections.OrderedDict()
    g["vxlan42"] = [outer(4789) / VXLAN(flags=0x08, vni=42) / inner(i)
                    for i in range(256)]
    g["vxlan43"] = [outer(4789, 40001) / VXLAN(flags=0x08, vni=43) / inner(i)
                    for i in range(32)]
    g["udp9999"] = [outer(9999) / Raw(b"d" * 18) for _ in range(32)]
    g["tcp80_a"] = [Ether() / IP(src="10.0.0.5", dst="10.0.0.2") /
                    TCP(sport=2000 + i, dport=80) for i in range(16)]
    g["tcp80_b"] = [Ether() / IP(src="10.0.0.6", dst="10.0.0.2") /
                    TCP(sport=2000 + i, dport=80) for i in range(16)]
    g["udp7777"] = [outer(7777) / Raw(b"p" * 18) for _ in range(16)]
    g["icmp"] = [Ether() / IP(src="10.0.0.1", dst="10.0.0.2") / ICMP(seq=i)
                 for i in range(16)]
    # GENEVE: 2 words of options, inner Ethernet (0x6558), VNI 7.
    opt_hdr = lambda d: Raw(bytes([2, 0, 0x65, 0x58, 0, 0, 7, 0]) +
                            geneve_opt(d))
    g["geneve_opt"] = [outer(6081) / opt_hdr(OPT_MATCH) / inner(i)
                       for i in range(256)]
    g["geneve_other"] = [outer(6081) / opt_hdr(OPT_OTHER) / inner(i)
                         for i in range(16)]
    # GUE version 0, 4-byte header, IPIP inside: the registry knows 6080
    # from the tunnel_ports= devarg, not from any rule's tunnel item.
    g["gue"] = [outer(6080) / Raw(bytes([0x00, 4, 0, 0])) /
                inner(i, l2=False) for i in range(256)]
    g["vxlan6"] = [outer(4789, 40002, v6=True) / VXLAN(flags=0x08, vni=50) /
                   inner(i, v6=True) for i in range(128)]
    return g


# What flow_testpmd.sh's rules do to each group: (queue or "rss", mark,
# rss level). Queue None: default (queue 0 of the sub-port's packets).
EXPECT = {
    "vxlan42": ("rss", 7, 2),
    "vxlan43": (3, 9, 0),
    "udp9999": ("drop", None, 0),
    "tcp80_a": (2, None, 0),
    "tcp80_b": (1, None, 0),
    "udp7777": (2, "flag", 0),
    "icmp": (0, None, 0),
    "geneve_opt": ("rss", 11, 2),
    "geneve_other": (0, None, 0),
    "gue": ("rss", 12, 2),
    "vxlan6": ("rss", 13, 2),
}


def group_of(pkt):
    """Which group a captured packet belongs to, from its headers alone."""
    if TCP in pkt:
        return {"10.0.0.5": "tcp80_a", "10.0.0.6": "tcp80_b"}.get(
            pkt[IP].src)
    if ICMP in pkt:
        return "icmp"
    if UDP not in pkt:
        return None
    dport = pkt[UDP].dport
    if dport == 4789:
        return "vxlan6" if IPv6 in pkt else "vxlan%d" % pkt[VXLAN].vni
    if dport == 6081:
        data = int.from_bytes(bytes(pkt[UDP].payload)[12:16], "big")
        return "geneve_opt" if data == OPT_MATCH else "geneve_other"
    return {6080: "gue", 9999: "udp9999", 7777: "udp7777"}.get(dport)


def inner_ip(pkt, name):
    if name == "gue":
        return IP(bytes(pkt[UDP].payload)[4:])
    skip = 8 if name.startswith("vxlan") else 16   # GENEVE: 8 + option
    return Ether(bytes(pkt[UDP].payload)[skip:]).payload


def gen(d):
    pkts = [p for grp in groups().values() for p in grp]
    wrpcap(d + "/in.pcap", pkts)
    wrpcap(d + "/empty.pcap", [])
    print("wrote %d packets in %d groups" % (len(pkts), len(groups())))


VERBOSE_RX = re.compile(r"port \d+/queue (\d+): received (\d+) packets")


def verbose_hashes(log):
    """(queue, mark or None, rss hash or None, length) per received packet."""
    out, queue = [], None
    for line in open(log, errors="replace"):
        m = VERBOSE_RX.search(line)
        if m:
            queue = int(m.group(1))
            continue
        if queue is None or " - length=" not in line:
            continue
        h = re.search(r"RSS hash=0x([0-9a-f]+)", line)
        mk = re.search(r"FDIR matched ID=0x([0-9a-f]+)", line)
        fl = "FDIR matched" in line and mk is None
        ln = int(re.search(r" - length=(\d+)", line).group(1))
        out.append((queue, int(mk.group(1), 16) if mk else ("flag" if fl else None),
                    int(h.group(1), 16) if h else None, ln))
    return out


class Judge:
    def __init__(self):
        self.fails = 0

    def ok(self, cond, what):
        print(("ok: " if cond else "FAIL: ") + what)
        self.fails += 0 if cond else 1


def check(d, log):
    j = Judge()
    toeplitz_self_test(j)
    sent = {k: len(v) for k, v in groups().items()}
    seen = collections.defaultdict(lambda: collections.Counter())
    want_verbose = collections.Counter()
    for q in range(N_QUEUES):
        for pkt in rdpcap("%s/o%d.pcap" % (d, q)):
            name = group_of(pkt)
            fate, mark, level = EXPECT.get(name, (None, None, 0))
            seen[name][q] += 1
            h = None
            if fate == "rss":
                h = toeplitz(ip_udp_tuple(inner_ip(pkt, name)))
                fate = h % N_QUEUES
            if fate != q:
                j.ok(False, "%s packet on queue %d, expected %s" % (name, q, fate))
            want_verbose[(q, mark, h, len(pkt))] += 1
    for name, n in sent.items():
        got = sum(seen[name].values())
        if EXPECT[name][0] == "drop":
            j.ok(got == 0, "%s: %d of %d forwarded (DROP rule: 0)" % (name, got, n))
        else:
            j.ok(got == n, "%s: %d of %d forwarded, on queues %s" %
                 (name, got, n, dict(sorted(seen[name].items()))))
    for name in sent:
        if EXPECT[name][0] != "rss":
            continue
        counts = [seen[name][q] for q in range(N_QUEUES)]
        exp = sent[name] / N_QUEUES
        chi2 = sum((c - exp) ** 2 / exp for c in counts)
        # 3 degrees of freedom: 16.27 is the 0.1% point; the traffic is
        # fixed, so this is a property of the hash, not a flaky sample.
        j.ok(chi2 < 16.27 and min(counts) > 0,
             "%s inner RSS spread %s: max/min %.2f, chi-square %.2f (< 16.27)" %
             (name, counts, max(counts) / max(min(counts), 1), chi2))
    got_verbose = collections.Counter(verbose_hashes(log))
    missing = want_verbose - got_verbose
    extra = got_verbose - want_verbose
    j.ok(not missing and not extra and want_verbose,
         "testpmd verbose: queue, mark and RSS hash of %d packets agree with "
         "the captures and this file's Toeplitz (missing %s, unexpected %s)" %
         (sum(want_verbose.values()), list(missing.items())[:3],
          list(extra.items())[:3]))
    return j.fails


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(1 if check(sys.argv[2], sys.argv[3]) else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
