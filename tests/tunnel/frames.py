#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Traffic and oracle for the hwcsum-tunnel file tests (scapy).

frames.py gen DIR       inner_<t>.pcap (sent), expect_<t>.pcap (what must
                        come back after encap + decap), bad.pcap (underlay
                        packets each dropped for one reason), empty.pcap
frames.py split FILE N  FILE.q<i>.pcap: every N-th frame, for N queues
frames.py compare-queues DIR N NAME...  back_NAME.q<i>.pcap hold expect_NAME
frames.py compare DIR NAME...  expect_NAME.pcap and back_NAME.pcap equal,
                        byte for byte, for each tunnel NAME
frames.py gue DIR       strip outer + GUE headers of under.pcap into
                        gue_inner.pcap, for tshark (it has no GUE dissector)
frames.py ini DIR       the gateway's configuration for the tunnels below
"""
import os
import sys

from scapy.all import (ARP, ICMP, IP, TCP, UDP, Dot1Q, Ether, IPv6, Raw,
                       rdpcap, wrpcap)

OUT4, OUT6 = ("192.0.2.1", "192.0.2.2"), ("2001:db8::1", "2001:db8::2")
GW_MAC, PEER_MAC = "02:00:00:00:00:01", "02:00:00:00:00:02"
VM_MAC, HOST_MAC = "02:00:00:00:10:01", "02:00:00:00:10:02"

# name, type, vni, family, extra keys
TUNNELS = [
    ("vx4", "vxlan", 100, 4, {"udp_csum": "off"}),
    ("vx6", "vxlan", 101, 6, {}),
    # Options not critical: this gateway drops GENEVE with the C flag, which
    # a critical one sets (critical.sh tests that).
    ("gn4", "geneve", 200, 4, {"geneve_opt": ["0x0102:0x02:11223344",
                                              "0x0103:0x01:aabbccdd00112233"]}),
    # 128 option bytes: 198 bytes of outer headers, more than the 128 of
    # headroom, so the gateway chains them in an mbuf of their own (two
    # options: rte_cfgfile keeps at most 255 characters of a value).
    ("gn6", "geneve", 201, 6, {"geneve_opt": ["0xffff:0x7f:" + "01020304" * 15,
                                              "0xffff:0x7e:" + "a0b0c0d0" * 15]}),
    ("gpe4", "vxlan-gpe", 300, 4, {}),
    ("gpe6", "vxlan-gpe", 301, 6, {}),
    ("gue4", "gue", None, 4, {"inner_dst_mac": HOST_MAC, "inner_src_mac": VM_MAC}),
    ("gue6", "gue", None, 6, {"inner_dst_mac": HOST_MAC, "inner_src_mac": VM_MAC}),
]


def fold(s):
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def words(b):
    return sum(int.from_bytes(b[i:i + 2], "big") for i in range(0, len(b), 2))


def seeded(frame):
    """The frame as a CHECKSUM_PARTIAL sender leaves it: seed in the field."""
    raw = bytearray(bytes(frame))
    eth = 18 if frame.haslayer(Dot1Q) else 14
    if frame.haslayer(IP):
        ip = frame[IP]
        l4 = eth + ip.ihl * 4
        l4_len = ip.len - ip.ihl * 4
        s = words(raw[eth + 12:eth + 20]) + ip.proto + l4_len
        proto = ip.proto
    else:
        l4 = eth + 40
        l4_len = frame[IPv6].plen
        proto = frame[IPv6].nh
        s = words(raw[eth + 8:eth + 40]) + proto + l4_len
    off = l4 + (6 if proto == 17 else 16)
    raw[off:off + 2] = fold(s).to_bytes(2, "big")
    return Ether(bytes(raw))


def inner_frames(gue):
    """(sent, expected back) pairs: plain, seeded (partial) and odd frames."""
    e = Ether(src=VM_MAC, dst=HOST_MAC)
    v4 = IP(src="198.51.100.1", dst="198.51.100.2")
    v6 = IPv6(src="2001:db8:1::1", dst="2001:db8:1::2")
    pay = Raw(bytes(range(256)) * 2)
    plain = [
        e / v4 / UDP(sport=1111, dport=2222) / Raw(b"hello udp"),
        e / v4 / TCP(sport=3333, dport=80, flags="PA", seq=7) / pay,
        e / v6 / UDP(sport=4444, dport=5555) / Raw(b"x" * 333),
        e / v6 / TCP(sport=6666, dport=443, flags="S"),
        e / v4 / ICMP() / Raw(b"ping"),
    ]
    if not gue:
        plain += [
            Ether(src=VM_MAC, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc="198.51.100.1",
                                                           pdst="198.51.100.2"),
            e / Dot1Q(vlan=5) / v4 / UDP(sport=1, dport=2) / Raw(b"vlan"),
        ]
    pairs = [(Ether(bytes(f)), Ether(bytes(f))) for f in plain]
    partial = [
        e / v4 / UDP(sport=7777, dport=8888) / Raw(b"partial" * 20),
        e / v6 / TCP(sport=9999, dport=22, flags="PA") / pay,
        e / v4 / TCP(sport=1234, dport=4321, flags="A") / Raw(b"odd length!"),
        # shorter than an IPv6 header behind Ethernet (54 bytes), unpadded
        e / v4 / UDP(sport=7779, dport=8887) / Raw(b"tiny"),
    ]
    pairs += [(seeded(Ether(bytes(f))), Ether(bytes(f))) for f in partial]
    return pairs


def vxlan(vni):
    """RFC 7348 header (scapy's VXLAN sets GPE bits by default)."""
    return Raw(b"\x08\0\0\0" + vni.to_bytes(3, "big") + b"\0")


def gen(d):
    for name, typ, _, _, _ in TUNNELS:
        pairs = inner_frames(typ == "gue")
        wrpcap(os.path.join(d, "inner_%s.pcap" % name), [p[0] for p in pairs])
        wrpcap(os.path.join(d, "expect_%s.pcap" % name), [p[1] for p in pairs])
    wrpcap(os.path.join(d, "empty.pcap"), [], linktype=1)
    # Underlay packets for tunnel vx4 (VNI 100), each wrong in one way.
    out = Ether(src=PEER_MAC, dst=GW_MAC) / IP(src=OUT4[1], dst=OUT4[0])
    inner = Ether(src=HOST_MAC, dst=VM_MAC) / IP(src="198.51.100.2",
                                                 dst="198.51.100.1")
    good_in = inner / UDP(sport=5, dport=6) / Raw(b"payload")
    bad_l4 = inner / UDP(sport=5, dport=6, chksum=0x1234) / Raw(b"payload")
    bad_ip = Ether(src=HOST_MAC, dst=VM_MAC) / IP(src="198.51.100.2",
        dst="198.51.100.1", chksum=0x4321) / UDP(sport=5, dport=6) / Raw(b"p")
    bad = [
        ("unknown_vni", out / UDP(sport=40000, dport=4789) / vxlan(999) / good_in),
        ("inner_csum", out / UDP(sport=40000, dport=4789) / vxlan(100) / bad_l4),
        ("inner_ip_csum", out / UDP(sport=40000, dport=4789) / vxlan(100) / bad_ip),
        ("outer_csum", out / UDP(sport=40000, dport=4789, chksum=0xbad) /
         vxlan(100) / good_in),
        ("malformed", out / UDP(sport=40000, dport=4789) / Raw(b"\x08\x00")),
        ("not_tunnel", out / UDP(sport=40000, dport=9999) / Raw(b"plain udp")),
        ("outer_csum", Ether(src=PEER_MAC, dst=GW_MAC) / IPv6(src=OUT6[1], dst=OUT6[0]) /
         UDP(sport=40000, dport=4789, chksum=0) / vxlan(101) / good_in),
    ]
    frames = []
    for _, f in bad:
        f = Ether(bytes(f))
        if f.haslayer(IPv6):	# scapy would compute it: force the zero
            raw = bytearray(bytes(f))
            raw[14 + 40 + 6:14 + 40 + 8] = b"\0\0"
            f = Ether(bytes(raw))
        frames.append(f)
    wrpcap(os.path.join(d, "bad.pcap"), frames)


def ini(d):
    lines = ["; hwcsum-tunnel file test: every tunnel type over IPv4 and IPv6",
             "[global]", "underlay = net_hwcsum0", "stats_interval = 0", ""]
    for i, (name, typ, vni, fam, extra) in enumerate(TUNNELS):
        local, remote = OUT4 if fam == 4 else OUT6
        lines += ["[tunnel:%s]" % name, "type = %s" % typ,
                  "inner_port = net_hwcsum%d" % (i + 1),
                  "local = %s" % local, "remote = %s" % remote,
                  "remote_mac = %s" % PEER_MAC, "local_mac = %s" % GW_MAC]
        if vni is not None:
            lines.append("vni = %d" % vni)
        for k, v in extra.items():
            for x in (v if isinstance(v, list) else [v]):
                lines.append("%s = %s" % (k, x))
        lines.append("")
    with open(os.path.join(d, "gw.ini"), "w") as f:
        f.write("\n".join(lines))


def compare(d, names):
    failed = 0
    for n in names:
        a, b = (os.path.join(d, "%s_%s.pcap" % (w, n)) for w in ("expect", "back"))
        pa, pb = [bytes(p) for p in rdpcap(a)], [bytes(p) for p in rdpcap(b)]
        if pa == pb and pa:
            print("ok: round trip %s: identical, %d frames" % (n, len(pa)))
            continue
        failed += 1
        print("FAIL: round trip %s: sent %d frames, got %d back" % (n, len(pa), len(pb)))
        for i, (x, y) in enumerate(zip(pa, pb)):
            if x != y:
                print("  frame %d:\n    %s\n    %s" % (i, x.hex(), y.hex()))
    return failed


def split(path, n):
    """path.q<i>.pcap for i < n: frame k goes to queue k % n."""
    frames = rdpcap(path)
    base = path[:-len(".pcap")]
    for i in range(n):
        wrpcap("%s.q%d.pcap" % (base, i), frames[i::n])


def compare_queues(d, n, names):
    """back_NAME.q<i>.pcap together hold expect_NAME.pcap: every frame, byte
    for byte, each once (queues keep no order between them)."""
    failed = 0
    for name in names:
        want = sorted(bytes(p) for p in rdpcap(os.path.join(d, "expect_%s.pcap" % name)))
        got = []
        for i in range(n):
            got += [bytes(p) for p in rdpcap(os.path.join(d, "back_%s.q%d.pcap" % (name, i)))]
        if sorted(got) == want and want:
            print("ok: round trip %s over %d queues: identical, %d frames" % (name, n, len(want)))
        else:
            failed += 1
            print("FAIL: round trip %s over %d queues: sent %d frames, got %d back (%d differ)"
                  % (name, n, len(want), len(got), len(set(want) ^ set(got))))
    return failed


def gue(d):
    out = []
    for p in rdpcap(os.path.join(d, "under.pcap")):
        if UDP in p and p[UDP].dport == 6080:
            body = bytes(p[UDP].payload)[4:]
            out.append(Ether(src=VM_MAC, dst=HOST_MAC,
                             type=0x0800 if body[0] >> 4 == 4 else 0x86DD) / body)
    wrpcap(os.path.join(d, "gue_inner.pcap"), out)
    print("gue inner frames: %d" % len(out))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "gen":
        gen(sys.argv[2])
    elif cmd == "ini":
        ini(sys.argv[2])
    elif cmd == "gue":
        gue(sys.argv[2])
    elif cmd == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3:]))
    elif cmd == "split":
        split(sys.argv[2], int(sys.argv[3]))
    elif cmd == "compare-queues":
        sys.exit(compare_queues(sys.argv[2], int(sys.argv[3]), sys.argv[4:]))
    else:
        sys.exit("unknown command " + cmd)
