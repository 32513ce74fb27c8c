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
from scapy.all import Ether, IP, IPv6, UDP, Raw, rdpcap, wrpcap
from scapy.layers.vxlan import VXLAN

DPORT = 7000
# (UDP source port, payload bytes): the port names the datagram in the output.
FRAMES = [(8001, 6000), (8002, 5000), (8003, 4321), (8004, 900)]


def payload(n, seed):
    return bytes((i * 11 + seed + i // 251) & 0xff for i in range(n))


def udp(sport, n):
    return UDP(sport=sport, dport=DPORT) / Raw(payload(n, sport))


def geneve(opts):
    return Raw(bytes([len(opts) // 4, 0, 0x65, 0x58, 0, 0, 42, 0]) + opts)


def gen(path):
    (p6, n6), (pvx, nvx), (pgn, ngn), (psm, nsm) = FRAMES
    opts = bytes([0x01, 0x02, 0x03, 0x01, 1, 2, 3, 4,
                  0x01, 0x02, 0x04, 0x01, 5, 6, 7, 8])
    pkts = [
        Ether() / IPv6(src="fd00::1", dst="fd00::2") / udp(p6, n6),
        Ether() / IP(src="192.0.2.1", dst="192.0.2.2", id=300) /
        UDP(sport=5555, dport=4789) / VXLAN(flags=0x08, vni=42) /
        Ether() / IPv6(src="fd01::1", dst="fd01::2") / udp(pvx, nvx),
        Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") /
        UDP(sport=5556, dport=6081) / geneve(opts) /
        Ether() / IPv6(src="fd02::1", dst="fd02::2") / udp(pgn, ngn),
        Ether() / IPv6(src="fd00::1", dst="fd00::3") / udp(psm, nsm),
    ]
    wrpcap(path, [Ether(bytes(p)) for p in pkts])


def inner(p):
    """(inner IP, inner UDP, outer IP or None, outer UDP or None)."""
    if UDP in p and p[UDP].dport in (4789, 6081):
        oip = p[IP] if p.haslayer(IP) and p[IP].proto == 17 else p[IPv6]
        oudp = p[UDP]
        data = bytes(oudp.payload)
        hlen = 8 + (data[0] & 0x3f) * 4 if oudp.dport == 6081 else 8
        q = Ether(data[hlen:])
        ip = q[IP] if q.haslayer(IP) else q[IPv6]
        return ip, ip[UDP], oip, oudp
    ip = p[IP] if p.haslayer(IP) else p[IPv6]
    return ip, ip[UDP], None, None


def check(in_path, out_path, mss):
    fails, segs = [], {}
    for f in rdpcap(out_path):
        try:
            ip, u, oip, oudp = inner(Ether(bytes(f)))
        except (IndexError, AttributeError):
            fails.append("output frame not UDP: %r" % Ether(bytes(f)).summary())
            continue
        segs.setdefault(u.sport, []).append((ip, u, oip, oudp))
    total = 0
    for f in rdpcap(in_path):
        ip0, u0, oip0, _ = inner(Ether(bytes(f)))
        data0 = bytes(u0.payload)
        got = segs.pop(u0.sport, [])
        n = max(1, -(-len(data0) // mss))
        name = "port %d (%d bytes)" % (u0.sport, len(data0))
        if len(got) != n:
            fails.append("%s: %d datagrams, want %d" % (name, len(got), n))
            continue
        joined = b""
        for i, (ip, u, oip, oudp) in enumerate(got):
            data = bytes(u.payload)
            want = min(mss, len(data0) - i * mss)
            if len(data) != want or u.len != 8 + want or u.dport != DPORT:
                fails.append("%s seg %d: %d bytes, UDP length %d, want %d"
                             % (name, i, len(data), u.len, 8 + want))
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
            joined += data
        if joined != data0:
            fails.append("%s: payload not reassembled (%d of %d bytes)"
                         % (name, len(joined), len(data0)))
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
