# SPDX-License-Identifier: BSD-3-Clause
"""seg_pcap.py: what tso_pcap.py and uso_pcap.py share.

GENEVE_OPTS and geneve(): a GENEVE header with two 4-byte options, built by
hand (scapy's layer is not needed). inner(p, l4): a frame's innermost IP
and L4 layers and its outer IP and UDP ones (plain, VXLAN or GENEVE).
check(in, out, mss, l4, judge): every input frame (named by its L4 source
port) cut into ceil(payload/MSS) segments, in order, with the IP IDs and
lengths and outer UDP lengths fixed and the payload joined byte for byte;
judge(name, i, n, mss, l4_0, l4_seg) adds what the protocol's own header must
say; the frames whose source port is in absent must have no segment out
(the sub-port refused them). Prints 'N segments'; returns the exit code.
"""
from scapy.all import Ether, IP, IPv6, UDP, Raw, rdpcap

GENEVE_OPTS = bytes([0x01, 0x02, 0x03, 0x01, 1, 2, 3, 4,
                     0x01, 0x02, 0x04, 0x01, 5, 6, 7, 8])


def geneve(opts):
    """GENEVE header with option bytes, Ethernet inside, VNI 42."""
    return Raw(bytes([len(opts) // 4, 0, 0x65, 0x58, 0, 0, 42, 0]) + opts)


def inner(p, l4):
    """(inner IP layer, its l4 layer, outer IP layer or None, outer UDP or None)."""
    if UDP in p and p[UDP].dport in (4789, 6081):
        oip = p[IP] if p.haslayer(IP) and p[IP].proto == 17 else p[IPv6]
        oudp = p[UDP]
        data = bytes(oudp.payload)
        hlen = 8 + (data[0] & 0x3f) * 4 if oudp.dport == 6081 else 8
        q = Ether(data[hlen:])
        ip = q[IP] if q.haslayer(IP) else q[IPv6]
        return ip, ip[l4], oip, oudp
    ip = p[IP] if p.haslayer(IP) else p[IPv6]
    return ip, ip[l4], None, None


def check(in_path, out_path, mss, l4, judge, absent=()):
    fails, segs = [], {}
    for f in rdpcap(out_path):
        try:
            ip, t, oip, oudp = inner(Ether(bytes(f)), l4)
        except (IndexError, AttributeError):
            fails.append("output frame not %s: %r" % (l4.__name__, Ether(bytes(f)).summary()))
            continue
        segs.setdefault(t.sport, []).append((ip, t, oip, oudp))
    total = 0
    for f in rdpcap(in_path):
        ip0, t0, oip0, _ = inner(Ether(bytes(f)), l4)
        data0 = bytes(t0.payload)
        got = segs.pop(t0.sport, [])
        n = max(1, -(-len(data0) // mss))
        name = "port %d (%d bytes)" % (t0.sport, len(data0))
        if t0.sport in absent:
            if got:
                fails.append("%s: %d segments, want none" % (name, len(got)))
            continue
        if len(got) != n:
            fails.append("%s: %d segments, want %d" % (name, len(got), n))
            continue
        joined = b""
        for i, (ip, t, oip, oudp) in enumerate(got):
            fails += judge(name, i, n, mss, t0, t)
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
            joined += bytes(t.payload)
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
