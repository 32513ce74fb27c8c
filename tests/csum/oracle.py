#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""scapy + tshark oracle for the software CHECKSUM_PARTIAL and LCO paths.

usage: oracle.py ORACLE_FILL_BINARY WORKDIR

1. scapy crafts UDP/TCP over IPv4/IPv6, plain and inside VXLAN, with
   payloads from 0 bytes to jumbo and every checksum wrong or zero;
2. oracle_fill (our C code) fills them as a stack + offload engine would;
3. tshark, with checksum validation on, must call every IP/UDP/TCP
   checksum (outer and inner) good, and scapy, recomputing each one from
   scratch, must get the same values;
4. negative control: the same checks must reject a copy with one checksum
   corrupted, or the oracle proves nothing.
Exit 0 only if all of that holds.
"""
import os
import random
import subprocess
import sys

from scapy.all import Ether, IP, IPv6, UDP, TCP, Raw, rdpcap, wrpcap  # noqa: E402
from scapy.layers.vxlan import VXLAN  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pcap_csum  # noqa: E402


def eth():
    # Explicit addresses: scapy would otherwise try to resolve them (slow, noisy).
    return Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")


def payload(rnd, n):
    return Raw(bytes(rnd.getrandbits(8) for _ in range(n)))


def craft(rnd):
    pkts = []
    lengths = [0, 1, 2, 3, 7, 8, 63, 64, 511, 1001, 1400, 1472, 3001, 8000]
    for n in lengths:
        for v6 in (False, True):
            for tcp in (False, True):
                ip = IPv6(src="2001:db8::1", dst="2001:db8::%x" % (n + 2)) if v6 else \
                    IP(src="192.0.2.1", dst="198.51.100.%d" % (n % 250 + 1), chksum=0xdead)
                l4 = TCP(sport=1000 + n, dport=80, chksum=rnd.choice([0, 0xbeef])) if tcp else \
                    UDP(sport=2000 + n, dport=53, chksum=rnd.choice([0, 0xbeef]))
                pkts.append(eth() / ip / l4 / payload(rnd, n))
    # VXLAN: outer UDP v4/v6, inner UDP/TCP over v4/v6.
    for n in (0, 1, 17, 64, 999, 1350, 7000):
        for outer_v6 in (False, True):
            for inner_v6 in (False, True):
                for inner_tcp in (False, True):
                    oip = IPv6(src="2001:db8:1::1", dst="2001:db8:1::2") if outer_v6 else \
                        IP(src="203.0.113.1", dst="203.0.113.2", chksum=0x1234)
                    iip = IPv6(src="fd00::1", dst="fd00::2") if inner_v6 else \
                        IP(src="10.0.0.1", dst="10.0.0.2", chksum=0x4321)
                    il4 = TCP(sport=3000, dport=443, chksum=0xabcd) if inner_tcp else \
                        UDP(sport=3001, dport=4000, chksum=0)
                    pkts.append(eth() / oip / UDP(sport=50000 + n, dport=4789, chksum=0x5555) /
                                VXLAN(vni=42) / eth() / iip / il4 / payload(rnd, n))
    return pkts


def tshark_statuses(path):
    """Per frame, every ip/udp/tcp checksum verdict tshark gives."""
    return {f.number: f.verdicts()
            for f in pcap_csum.frames(path, decode_as=["udp.port==4789,vxlan"])}


def expected_count(pkt):
    n = 0
    for layer in (IP, UDP, TCP):
        n += len([1 for _ in iter_layers(pkt, layer)])
    return n


def iter_layers(pkt, cls):
    p = pkt
    while p:
        if isinstance(p, cls):
            yield p
        p = p.payload if p.payload and not isinstance(p.payload, Raw) else None


def scapy_mismatches(pkts):
    """Checksums scapy recomputes from scratch that differ from the packet's."""
    bad = []
    for i, p in enumerate(pkts, 1):
        fresh = p.copy()
        for cls in (IP, UDP, TCP):
            for layer in iter_layers(fresh, cls):
                del layer.chksum
        fresh = Ether(bytes(fresh))
        for cls in (IP, UDP, TCP):
            got = [layer.chksum for layer in iter_layers(p, cls)]
            want = [layer.chksum for layer in iter_layers(fresh, cls)]
            if got != want:
                bad.append((i, cls.__name__, got, want))
    return bad


def judge(path, pkts):
    """(problems with tshark, problems with scapy) for the pcap at path."""
    statuses = tshark_statuses(path)
    ts_bad = []
    for i, p in enumerate(pkts, 1):
        st = statuses.get(i, [])
        if len(st) != expected_count(p) or any(s != "good" for s in st):
            ts_bad.append((i, st, expected_count(p)))
    return ts_bad, scapy_mismatches(rdpcap(path))


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    fill, work = argv[1], argv[2]
    os.makedirs(work, exist_ok=True)
    rnd = random.Random(int(os.environ.get("CSUM_TEST_SEED", "1071"), 0))
    src, dst, bad = (os.path.join(work, f) for f in
                     ("oracle-in.pcap", "oracle-out.pcap", "oracle-corrupt.pcap"))
    pkts = craft(rnd)
    wrpcap(src, pkts)
    # Crafted input must be judged wrong, or tshark is not checking.
    ts_in, _ = judge(src, pkts)
    if len(ts_in) < len(pkts) * 0.9:
        print(f"FAIL: tshark accepted {len(pkts) - len(ts_in)} of {len(pkts)} crafted packets "
              "with bad checksums: checksum validation is not on")
        return 1
    subprocess.run([fill, src, dst], check=True)
    filled = rdpcap(dst)
    if len(filled) != len(pkts):
        print(f"FAIL: {len(filled)} packets out, {len(pkts)} in")
        return 1
    ts_bad, sc_bad = judge(dst, filled)
    for b in ts_bad[:10]:
        print("tshark rejects frame %d: statuses %s, %d checksums expected" % b)
    for b in sc_bad[:10]:
        print("scapy disagrees on frame %d %s: packet %s, recomputed %s" % b)
    n_sums = sum(expected_count(p) for p in filled)
    print(f"oracle: {len(filled)} packets, {n_sums} checksums; "
          f"tshark rejects {len(ts_bad)} packets, scapy disagrees on {len(sc_bad)}")
    # Negative control: corrupt one checksum in one packet of each kind.
    raw = [bytearray(bytes(p)) for p in filled]
    victims = rnd.sample(range(len(raw)), 5)
    for v in victims:
        layer = next(iter_layers(filled[v], TCP), None) or next(iter_layers(filled[v], UDP))
        off = len(raw[v]) - len(layer) + (16 if isinstance(layer, TCP) else 6)
        raw[v][off] ^= 0x01
    wrpcap(bad, [Ether(bytes(r)) for r in raw])
    ts_neg, sc_neg = judge(bad, [Ether(bytes(r)) for r in raw])
    caught_ts = {b[0] - 1 for b in ts_neg}
    caught_sc = {b[0] - 1 for b in sc_neg}
    print(f"negative control: corrupted {sorted(victims)}, tshark caught {sorted(caught_ts)}, "
          f"scapy caught {sorted(caught_sc)}")
    if ts_bad or sc_bad:
        return 1
    if caught_ts != set(victims) or caught_sc != set(victims):
        print("FAIL: the oracle does not catch a corrupted checksum")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
