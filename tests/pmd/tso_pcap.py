#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""tso_pcap.py: the captures of tso_testpmd.sh.

  gen IN.pcap          large TCP frames, one TCP source port each: plain
                       IPv4 and IPv6, VXLAN/IPv4, GENEVE with options/IPv6
  check IN OUT MSS     every input frame cut into ceil(payload/MSS)
                       segments, in order: payload joined byte for byte,
                       sequence, IP IDs, lengths, FIN/PSH on the last
                       only, CWR on the first only; prints 'N segments'

Checksums are tshark's to judge (tso_testpmd.sh).
"""
import sys
from scapy.all import Ether, IP, IPv6, UDP, TCP, Raw, rdpcap, wrpcap
from scapy.layers.vxlan import VXLAN

# (TCP source port, payload bytes): the port names the frame in the output.
FRAMES = [(7001, 8000), (7002, 6000), (7003, 5000), (7004, 4321), (7005, 900)]


def payload(n, seed):
    return bytes((i * 7 + seed + i // 253) & 0xff for i in range(n))


def tcp(sport, n):
    return (TCP(sport=sport, dport=80, seq=0xfffff000, ack=1, flags="FPAC",
                options=[("NOP", None), ("NOP", None), ("Timestamp", (7, 0))]) /
            Raw(payload(n, sport)))


def geneve(opts):
    """GENEVE header with option bytes (scapy's layer is not needed)."""
    hdr = bytes([len(opts) // 4, 0, 0x65, 0x58, 0, 0, 42, 0])
    return Raw(hdr + opts)


def gen(path):
    (p4, n4), (p6, n6), (pvx, nvx), (pgn, ngn), (psm, nsm) = FRAMES
    opts = bytes([0x01, 0x02, 0x03, 0x01, 1, 2, 3, 4,
                  0x01, 0x02, 0x04, 0x01, 5, 6, 7, 8])
    pkts = [
        Ether() / IP(src="10.0.0.1", dst="10.0.0.2", id=100, flags="DF") / tcp(p4, n4),
        Ether() / IPv6(src="fd00::1", dst="fd00::2") / tcp(p6, n6),
        Ether() / IP(src="192.0.2.1", dst="192.0.2.2", id=300) /
        UDP(sport=5555, dport=4789) / VXLAN(flags=0x08, vni=42) /
        Ether() / IP(src="10.1.0.1", dst="10.1.0.2", id=400) / tcp(pvx, nvx),
        Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") /
        UDP(sport=5556, dport=6081) / geneve(opts) /
        Ether() / IP(src="10.2.0.1", dst="10.2.0.2", id=500) / tcp(pgn, ngn),
        # Shorter than one segment: passes as it is, checksums made.
        Ether() / IP(src="10.0.0.1", dst="10.0.0.3", id=600) / tcp(psm, nsm),
    ]
    # GENEVE carried as raw bytes: let scapy decode the inner frame anyway.
    wrpcap(path, [Ether(bytes(p)) for p in pkts])


def inner(p):
    """(inner IP layer, TCP layer, outer IP layer or None, outer UDP or None)."""
    outer_ip = outer_udp = None
    if UDP in p and p[UDP].dport in (4789, 6081):
        outer_ip = p[IP] if p.haslayer(IP) and p[IP].proto == 17 else p[IPv6]
        outer_udp = p[UDP]
        data = bytes(p[UDP].payload)
        hlen = 8 + (data[0] & 0x3f) * 4 if p[UDP].dport == 6081 else 8
        q = Ether(data[hlen:])
        ip = q[IP] if q.haslayer(IP) else q[IPv6]
        return ip, q[TCP], outer_ip, outer_udp
    ip = p[IP] if p.haslayer(IP) else p[IPv6]
    return ip, p[TCP], None, None


def check(in_path, out_path, mss):
    fails = []
    segs = {}
    for f in rdpcap(out_path):
        p = Ether(bytes(f))
        try:
            ip, t, oip, oudp = inner(p)
        except (IndexError, AttributeError):
            fails.append("output frame not TCP: %r" % p.summary())
            continue
        segs.setdefault(t.sport, []).append((p, ip, t, oip, oudp))
    total = 0
    for f in rdpcap(in_path):
        ip0, t0, oip0, _ = inner(Ether(bytes(f)))
        data0 = bytes(t0.payload)
        got = segs.pop(t0.sport, [])
        n = max(1, -(-len(data0) // mss))
        name = "port %d (%d bytes)" % (t0.sport, len(data0))
        if len(got) != n:
            fails.append("%s: %d segments, want %d" % (name, len(got), n))
            continue
        joined = b""
        for i, (p, ip, t, oip, oudp) in enumerate(got):
            data = bytes(t.payload)
            if t.seq != (t0.seq + i * mss) & 0xffffffff:
                fails.append("%s seg %d: seq %#x" % (name, i, t.seq))
            want = set(str(t0.flags))
            if i + 1 != n:
                want -= {"F", "P"}
            if i != 0:
                want -= {"C"}
            if set(str(t.flags)) != want:
                fails.append("%s seg %d: flags %s, want %s" % (name, i, t.flags, "".join(sorted(want))))
            if ip.version == 4:
                if ip.id != (ip0.id + i) & 0xffff or ip.len != len(bytes(ip)):
                    fails.append("%s seg %d: inner id %d len %d" % (name, i, ip.id, ip.len))
            elif ip.plen != len(bytes(ip)) - 40:
                fails.append("%s seg %d: inner plen %d" % (name, i, ip.plen))
            if oip is not None:
                if oip.version == 4 and oip.id != (oip0.id + i) & 0xffff:
                    fails.append("%s seg %d: outer id %d" % (name, i, oip.id))
                if oudp.len != len(bytes(oudp)):
                    fails.append("%s seg %d: outer UDP len %d" % (name, i, oudp.len))
            if len(data) > mss:
                fails.append("%s seg %d: %d bytes of payload" % (name, i, len(data)))
            joined += data
        if joined != data0:
            fails.append("%s: payload not reassembled (%d of %d bytes)" % (name, len(joined), len(data0)))
        total += len(got)
    for sport in segs:
        fails.append("unexpected output from port %d" % sport)
    for m in fails:
        print("FAIL:", m)
    print("%d segments" % total)
    return 1 if fails else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
        sys.exit(0)
    sys.exit(check(sys.argv[2], sys.argv[3], int(sys.argv[4])))
