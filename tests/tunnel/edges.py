#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Traffic and oracle for critical.sh and padding.sh (scapy, tshark).

edges.py critical DIR   gw.ini with GENEVE tunnels (critical options or
                        not), inner_<t>.pcap, remote.pcap (GENEVE from a
                        remote VTEP, C flag set or clear), expect_<t>.pcap
edges.py padding DIR    gw.ini with GUE and VXLAN-GPE carrying IP, and
                        VXLAN / VXLAN-GPE carrying Ethernet; inner_<t>.pcap
                        with padded frames, expect_<t>.pcap
edges.py lengths DIR    under.pcap of the padding run judged by tshark:
                        outer UDP length = 8 + tunnel header + the inner IP
                        length (IP tunnels) or the whole frame (Ethernet);
                        GUE's inner packets into gue_inner.pcap
"""
import os
import struct
import subprocess
import sys

from scapy.all import ICMP, IP, TCP, UDP, Ether, IPv6, Raw, rdpcap, wrpcap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frames import GW_MAC, HOST_MAC, PEER_MAC, VM_MAC, seeded  # noqa: E402

LOCAL4, LOCAL6 = "192.0.2.1", "2001:db8::1"


def remote(i, fam):
    """A remote VTEP per tunnel, so the oracle tells tunnels apart."""
    return "192.0.2.%d" % (10 + i) if fam == 4 else "2001:db8::%x" % (0x10 + i)


def write_ini(d, tunnels):
    wrpcap(os.path.join(d, "empty.pcap"), [], linktype=1)
    lines = ["[global]", "underlay = net_hwcsum0", "stats_interval = 0", ""]
    for i, (name, typ, vni, fam, extra) in enumerate(tunnels):
        lines += ["[tunnel:%s]" % name, "type = %s" % typ,
                  "inner_port = net_hwcsum%d" % (i + 1),
                  "local = %s" % (LOCAL4 if fam == 4 else LOCAL6),
                  "remote = %s" % remote(i, fam),
                  "remote_mac = %s" % PEER_MAC, "local_mac = %s" % GW_MAC]
        if vni is not None:
            lines.append("vni = %d" % vni)
        for k, v in extra:
            lines.append("%s = %s" % (k, v))
        lines.append("")
    with open(os.path.join(d, "gw.ini"), "w") as f:
        f.write("\n".join(lines))


# RFC 8926: (class, type, data); type bit 0x80 is "critical".
CRIT_TUNNELS = [
    ("gc4", "geneve", 210, 4, [(0x0102, 0x80, "11223344"), (0x0103, 0x01, "aabbccdd")]),
    ("gc6", "geneve", 211, 6, [(0x0104, 0x01, "01020304"), (0x0105, 0xff, "0a0b0c0d")]),
    ("gp4", "geneve", 212, 4, [(0x0106, 0x7f, "11111111")]),
    ("gz6", "geneve", 213, 6, []),
]


def geneve(vni, opts, crit):
    """RFC 8926 header, Ethernet payload, C flag as asked."""
    o = b"".join(struct.pack("!HBB", c, t, len(h) // 8) + bytes.fromhex(h)
                 for c, t, h in opts)
    return Raw(struct.pack("!BBH", len(o) // 4, 0x40 if crit else 0, 0x6558) +
               vni.to_bytes(3, "big") + b"\0" + o)


def critical(d):
    write_ini(d, [(n, t, v, f, [("geneve_opt", "0x%04x:0x%02x:%s" % o) for o in opts])
                  for n, t, v, f, opts in CRIT_TUNNELS])
    e = Ether(src=VM_MAC, dst=HOST_MAC)
    inner = [Ether(bytes(e / IP(src="198.51.100.1", dst="198.51.100.2") /
                         UDP(sport=1111, dport=2222) / Raw(b"critical?"))),
             Ether(bytes(e / IPv6(src="2001:db8:1::1", dst="2001:db8:1::2") /
                         TCP(sport=3333, dport=80, flags="S")))]
    remote_pkts = []
    for i, (name, _, vni, fam, opts) in enumerate(CRIT_TUNNELS):
        wrpcap(os.path.join(d, "inner_%s.pcap" % name), inner)
        back = [Ether(bytes(Ether(src=HOST_MAC, dst=VM_MAC) / f.payload)) for f in inner]
        wrpcap(os.path.join(d, "expect_%s.pcap" % name), back)
        out = Ether(src=PEER_MAC, dst=GW_MAC) / (
            IP(src=remote(i, fam), dst=LOCAL4) if fam == 4 else
            IPv6(src=remote(i, fam), dst=LOCAL6))
        # C set: with a critical option (gp4 and gz6 configure none: the
        # remote's options are its own), dropped whatever the options.
        copts = opts if any(t & 0x80 for _, t, _ in opts) else \
            (opts + [(0x0107, 0x80, "cafecafe")] if name != "gz6" else [])
        for f in back:
            remote_pkts.append(out / UDP(sport=40000 + i, dport=6081) /
                               geneve(vni, copts, True) / f)
            remote_pkts.append(out / UDP(sport=40000 + i, dport=6081) /
                               geneve(vni, opts, False) / f)
    wrpcap(os.path.join(d, "remote.pcap"), [Ether(bytes(p)) for p in remote_pkts])


IP_TUNNELS = [
    ("gue4", "gue", None, 4, [("inner_dst_mac", HOST_MAC), ("inner_src_mac", VM_MAC)]),
    ("gue6", "gue", None, 6, [("inner_dst_mac", HOST_MAC), ("inner_src_mac", VM_MAC)]),
    ("gpi4", "vxlan-gpe", 310, 4, [("gpe_payload", "ip"), ("inner_dst_mac", HOST_MAC),
                                   ("inner_src_mac", VM_MAC)]),
    ("gpi6", "vxlan-gpe", 311, 6, [("gpe_payload", "ip"), ("inner_dst_mac", HOST_MAC),
                                   ("inner_src_mac", VM_MAC)]),
    # Ethernet-carrying: the frame, padding included, is the payload.
    ("vxe4", "vxlan", 110, 4, []),
    ("gpe6", "vxlan-gpe", 312, 6, []),
]


def pad(f, n, byte=0):
    """f as a VM sends it: Ethernet padding up to n bytes (60: minimum)."""
    raw = bytes(f)
    return Ether(raw + bytes([byte]) * (n - len(raw)))


def padded_frames():
    """(sent, complete) pairs: minimum-size frames with padding, an IPv6
    frame with a trailer beyond its payload length, one seeded (partial)."""
    e = Ether(src=VM_MAC, dst=HOST_MAC)
    v4 = IP(src="198.51.100.1", dst="198.51.100.2")
    v6 = IPv6(src="2001:db8:1::1", dst="2001:db8:1::2")
    plain = [
        pad(e / v4 / UDP(sport=1111, dport=2222) / Raw(b"abcd"), 60),
        pad(e / v4 / TCP(sport=3333, dport=80, flags="S"), 60),
        pad(e / v4 / ICMP() / Raw(b"ping"), 60, 0xa5),	# not zero: seen in the wild
        pad(e / v6 / UDP(sport=4444, dport=5555) / Raw(b"xy"), 72, 0x5a),
        Ether(bytes(e / v4 / UDP(sport=1, dport=2) / Raw(b"x" * 100))),
    ]
    pairs = [(f, f) for f in plain]
    full = pad(e / v4 / UDP(sport=7777, dport=8888) / Raw(b"pa"), 60)
    pairs.append((seeded(full), full))
    return pairs


def padding(d):
    write_ini(d, IP_TUNNELS)
    pairs = padded_frames()
    for name, typ, _, _, extra in IP_TUNNELS:
        wrpcap(os.path.join(d, "inner_%s.pcap" % name), [s for s, _ in pairs])
        if typ == "gue" or ("gpe_payload", "ip") in extra:
            # The IP packet by its length, behind the rebuilt Ethernet header.
            back = []
            for _, f in pairs:
                ip = f.payload
                n = ip.len if f.type == 0x0800 else 40 + ip.plen
                back.append(Ether(bytes(Ether(src=VM_MAC, dst=HOST_MAC, type=f.type)) +
                                  bytes(f)[14:14 + n]))
        else:
            back = [f for _, f in pairs]
        wrpcap(os.path.join(d, "expect_%s.pcap" % name), back)


def tshark(path, fields):
    out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-E", "separator=|"] +
                         sum((["-e", f] for f in fields), []),
                         capture_output=True, text=True, check=True).stdout
    return [line.split("|") for line in out.splitlines()]


def first(v):
    return v.split(",")[0] if v else ""


def lengths(d):
    """Judge under.pcap by tshark's reading of every length."""
    failed = 0
    sent = {n: [int(r[0]) for r in tshark(os.path.join(d, "inner_%s.pcap" % n),
                                          ["frame.len"])] for n, *_ in IP_TUNNELS}
    byremote = {remote(i, t[3]): t for i, t in enumerate(IP_TUNNELS)}
    rows = tshark(os.path.join(d, "under.pcap"),
                  ["frame.protocols", "ip.dst", "ipv6.dst", "udp.length", "ip.len",
                   "ipv6.plen", "frame.len"])
    raw = rdpcap(os.path.join(d, "under.pcap"))
    seen = {n: 0 for n in sent}
    gue_inner = []
    for k, (protos, ipdst, ip6dst, udplen, iplen, ip6plen, flen) in enumerate(rows):
        outer6 = protos.startswith("eth:ethertype:ipv6")
        dst = first(ip6dst) if outer6 else first(ipdst)
        name, typ, _, fam, extra = byremote[dst]
        ulen = int(first(udplen))
        idx = seen[name]
        seen[name] += 1
        if typ == "gue":
            # tshark has no GUE dissector: it judges the inner packet alone.
            l4 = 14 + (40 if outer6 else 20)
            body = bytes(raw[k])[l4 + 8 + 4:l4 + ulen]
            gue_inner.append(Ether(src=VM_MAC, dst=HOST_MAC,
                                   type=0x0800 if body[0] >> 4 == 4 else 0x86DD) / body)
            continue
        if ("gpe_payload", "ip") in extra:
            # The inner IP header is the last one tshark read.
            lens = [int(x) for x in iplen.split(",")] if iplen else []
            plens = [int(x) for x in ip6plen.split(",")] if ip6plen else []
            rest = protos.split(":udp:", 1)[1].split(":")
            inner_v4 = [x for x in rest if x in ("ip", "ipv6")][0] == "ip"
            want = 16 + (lens[-1] if inner_v4 else 40 + plens[-1])
            what = "the inner IP length"
        else:
            want = 16 + sent[name][idx]
            what = "the inner frame"
        if ulen == want:
            print("ok: %s frame %d: outer UDP length %d = 8 + 8 + %s" % (name, idx, ulen, what))
        else:
            failed += 1
            print("FAIL: %s frame %d: outer UDP length %d, want %d (8 + 8 + %s)"
                  % (name, idx, ulen, want, what))
    wrpcap(os.path.join(d, "gue_inner.pcap"), gue_inner)
    rows = tshark(os.path.join(d, "gue_inner.pcap"), ["frame.len", "ip.len", "ipv6.plen"])
    for k, (flen, iplen, ip6plen) in enumerate(rows):
        want = 14 + (int(iplen) if iplen else 40 + int(ip6plen))
        if int(flen) == want:
            print("ok: GUE inner packet %d: %d bytes, its IP length" % (k, want - 14))
        else:
            failed += 1
            print("FAIL: GUE inner packet %d: %d bytes carried, IP length %d"
                  % (k, int(flen) - 14, want - 14))
    for n, c in seen.items():
        if c != len(sent[n]):
            failed += 1
            print("FAIL: %s: %d frames on the underlay, %d sent" % (n, c, len(sent[n])))
    return failed


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "critical":
        critical(sys.argv[2])
    elif cmd == "padding":
        padding(sys.argv[2])
    elif cmd == "lengths":
        sys.exit(1 if lengths(sys.argv[2]) else 0)
    else:
        sys.exit("unknown command " + cmd)
