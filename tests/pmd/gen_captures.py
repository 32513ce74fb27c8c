#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""gen_captures.py OUTDIR: the input capture of csum_engine.sh.

Writes OUTDIR/in.pcap and OUTDIR/manifest.json. Every frame is crafted by
scapy with correct checksums, then zero or more of its checksums are made
wrong on purpose (named in the manifest, so the test knows how many Bad-*
testpmd must count). Frames:
  plain IPv4/IPv6 UDP/TCP/SCTP, some VLAN-tagged (QinQ once);
  VXLAN (4789), GENEVE with options (6081, inner Ethernet and bare IP),
  VXLAN-GPE (4790, inner IPv4, IPv6 and Ethernet), GUE v0 and v1 (6080),
  VXLAN on 8472 (the port the test adds at run time);
  outer IPv4/IPv6 x inner IPv4/IPv6 x inner UDP/TCP for every tunnel;
  payloads 0..1400 bytes (odd lengths too); outer UDP checksum 0 on some.
Each payload of 8 bytes or more starts with "HWCS" and the frame's index.
"""
import json
import os
import struct
import sys

from scapy.all import Ether, Dot1Q, Dot1AD, IP, IPv6, UDP, TCP, Raw, wrpcap  # noqa: E402
from scapy.layers.sctp import SCTP, SCTPChunkData  # noqa: E402
from scapy.layers.vxlan import VXLAN  # noqa: E402
from scapy.contrib.geneve import GENEVE, GeneveOptions  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csum_pkt as cp  # noqa: E402

MAC1, MAC2 = "02:00:00:00:00:01", "02:00:00:00:00:02"
PORTS = {"vxlan": 4789, "geneve": 6081, "vxlan-gpe": 4790, "gue0": cp.GUE_PORT,
         "gue1": cp.GUE_PORT, "vxlan-rt": cp.RT_VXLAN_PORT}


def payload(idx, n):
    tag = b"HWCS%04d" % idx
    body = bytes((idx * 7 + i * 13) & 0xFF for i in range(n))
    return Raw((tag + body[8:]) if n >= 8 else body)


def l3(v6, inner, idx):
    if v6:
        return IPv6(src="2001:db8:%x::1" % (2 if inner else 1),
                    dst="2001:db8:%x::%x" % (2 if inner else 1, idx + 2), hlim=64)
    return IP(src="10.%d.0.1" % (2 if inner else 1),
              dst="10.%d.%d.%d" % (2 if inner else 1, idx // 250, idx % 250 + 2),
              id=idx, ttl=64)


def l4(kind, idx, n):
    if kind == "udp":
        return UDP(sport=10000 + idx, dport=7000) / payload(idx, n)
    if kind == "tcp":
        return TCP(sport=20000 + idx, dport=80, seq=idx * 1000, flags="PA") / payload(idx, n)
    return SCTP(sport=30000 + idx, dport=9) / SCTPChunkData(tsn=idx, data=bytes(payload(idx, n)))


def l2(vlan, src=MAC1, dst=MAC2):
    e = Ether(src=src, dst=dst)
    if vlan == "vlan":
        e = e / Dot1Q(vlan=100 + 1)
    elif vlan == "qinq":
        e = e / Dot1AD(vlan=200) / Dot1Q(vlan=300)
    return e


def tunnel_frame(idx, tun, ov6, iv6, ikind, n, vlan=None, ivlan=None,
                 outer_udp0=False, inner_eth=None):
    inner_pkt = l3(iv6, True, idx) / l4(ikind, idx, n)
    ieth = l2(ivlan, "02:00:00:00:01:01", "02:00:00:00:01:02")
    if tun in ("vxlan", "vxlan-rt"):
        t = VXLAN(flags=0x08, vni=1000 + idx) / ieth / inner_pkt
    elif tun == "geneve":
        opts = [GeneveOptions(classid=0x0102, type=0x80, data=b"\x11\x22\x33\x44"),
                GeneveOptions(classid=0xFFFF, type=0x01, data=b"\xAA\xBB\xCC\xDD\xEE\xFF\x00\x01")]
        if inner_eth is False:
            t = GENEVE(vni=2000 + idx, proto=0x86DD if iv6 else 0x0800, options=opts) / inner_pkt
        else:
            t = GENEVE(vni=2000 + idx, proto=0x6558, options=opts) / ieth / inner_pkt
    elif tun == "vxlan-gpe":
        if inner_eth:
            t = VXLAN(flags=0x0C, NextProtocol=3, vni=3000 + idx) / ieth / inner_pkt
        else:
            t = VXLAN(flags=0x0C, NextProtocol=2 if iv6 else 1, vni=3000 + idx) / inner_pkt
    elif tun == "gue0":
        # draft-ietf-intarea-gue: version 0, C 0, Hlen 0, proto = the IP
        # protocol of the payload (IPIP or IPv6), flags 0.
        t = Raw(struct.pack("!BBH", 0, cp.P_IPV6 if iv6 else cp.P_IPIP, 0)) / inner_pkt
    elif tun == "gue1":
        t = inner_pkt                   # GUE version 1: the IP header itself
    else:
        raise ValueError(tun)
    ou = UDP(sport=40000 + idx, dport=PORTS[tun])
    if outer_udp0:
        ou.chksum = 0
    return l2(vlan) / l3(ov6, False, idx) / ou / t


def corrupt(b, names):
    """Make the named checksums wrong: never 0 for UDP (0 means none)."""
    b = bytearray(b)
    flds, _ = cp.fields(b)
    byname = {n: (lv, k) for n, lv, k in flds}
    # Inner first; then the outer UDP checksum, which covers the inner
    # packet, is made right again for it (a sender's view: the inner
    # checksum was wrong before encapsulation), unless it is named too.
    names = sorted(names, key=lambda n: n.startswith("outer"))
    if any(not n.startswith("outer") for n in names) and "outer_l4" in byname:
        lv, kind = byname["outer_l4"]
        if kind == "udp" and cp.l4_get(b, lv) != 0:
            names = names + ["fix_outer_l4"]
            names.sort(key=lambda n: (n.startswith("outer"), n == "outer_l4"))
    for name in names:
        if name == "fix_outer_l4":
            cp.fix_l4(b, byname["outer_l4"][0])
            continue
        lv, kind = byname[name]
        if kind == "ip4":
            cp.put16(b, lv.l3 + 10, cp.be16(b, lv.l3 + 10) ^ 0x0F0F)
        elif kind == "sctp":
            cp.l4_set(b, lv, cp.l4_get(b, lv) ^ 0x01020304)
        else:
            v = cp.l4_get(b, lv) ^ 0x2222
            cp.l4_set(b, lv, v if v not in (0, 0xFFFF) else 0x1234)
    return bytes(b)


def build():
    frames = []           # (scapy-built bytes, manifest entry)

    def add(pkt, desc, bad=(), **kw):
        idx = len(frames)
        raw = bytes(pkt)
        raw = corrupt(raw, bad)
        e = {"index": idx, "desc": desc, "corrupt": list(bad), "len": len(raw)}
        e.update(kw)
        frames.append((raw, e))
        return idx

    # Plain packets. Indexes are assigned in order, so the payload tag
    # index is len(frames) at the time each is built.
    plain = [(False, "udp", 0, None), (False, "udp", 1, "vlan"), (False, "tcp", 33, None),
             (False, "tcp", 1400, "qinq"), (True, "udp", 64, None), (True, "udp", 999, "vlan"),
             (True, "tcp", 0, None), (True, "tcp", 517, None),
             (False, "sctp", 20, None), (True, "sctp", 100, None)]
    for v6, k, n, vlan in plain:
        idx = len(frames)
        add(l2(vlan) / l3(v6, False, idx) / l4(k, idx, n),
            "plain %s/%s len %d%s" % ("ip6" if v6 else "ip4", k, n, " " + vlan if vlan else ""),
            tunnel=None, vlan=vlan)
    for v6, k, n, bad in [(False, "udp", 40, ["ip"]), (False, "udp", 41, ["l4"]),
                          (False, "tcp", 300, ["l4"]), (False, "tcp", 301, ["ip", "l4"]),
                          (True, "udp", 77, ["l4"]), (True, "tcp", 1001, ["l4"])]:
        idx = len(frames)
        add(l2(None) / l3(v6, False, idx) / l4(k, idx, n),
            "plain %s/%s len %d bad %s" % ("ip6" if v6 else "ip4", k, n, "+".join(bad)),
            bad, tunnel=None)
    # UDP without checksum over IPv4 (testpmd leaves it 0).
    idx = len(frames)
    p = l2(None) / l3(False, False, idx) / l4("udp", idx, 50)
    p[UDP].chksum = 0
    add(p, "plain ip4/udp csum 0", tunnel=None)

    sizes = [0, 1, 63, 200, 1001, 1400, 17, 512]
    for tun in ("vxlan", "geneve", "vxlan-gpe", "gue0", "gue1", "vxlan-rt"):
        j = 0
        for ov6 in (False, True):
            for iv6 in (False, True):
                for ik in ("udp", "tcp"):
                    n = sizes[j % len(sizes)]
                    j += 1
                    idx = len(frames)
                    vlan = "vlan" if j in (3, 6) else None
                    add(tunnel_frame(idx, tun, ov6, iv6, ik, n, vlan=vlan),
                        "%s %s/%s/%s len %d%s" % (tun, "ip6" if ov6 else "ip4",
                                                  "ip6" if iv6 else "ip4", ik, n,
                                                  " vlan" if vlan else ""),
                        tunnel=tun, vlan=vlan)
        # Corrupted: one checksum each, and one with two.
        for ov6, iv6, ik, n, bad in [(False, False, "udp", 90, ["l4"]),
                                     (False, False, "tcp", 91, ["ip"]),
                                     (True, False, "tcp", 92, ["l4"]),
                                     (True, True, "udp", 93, ["outer_l4"]),
                                     (False, True, "tcp", 94, ["outer_ip"]),
                                     (False, False, "udp", 95, ["outer_l4", "l4"])]:
            idx = len(frames)
            add(tunnel_frame(idx, tun, ov6, iv6, ik, n),
                "%s %s/%s/%s len %d bad %s" % (tun, "ip6" if ov6 else "ip4",
                                               "ip6" if iv6 else "ip4", ik, n, "+".join(bad)),
                bad, tunnel=tun)
    # Variants: outer UDP checksum 0, inner VLAN, inner Ethernet for GPE,
    # bare-IP GENEVE, SCTP inside VXLAN.
    for tun, kw, desc in [("vxlan", dict(outer_udp0=True), "outer udp csum 0"),
                          ("geneve", dict(outer_udp0=True), "outer udp csum 0"),
                          ("vxlan", dict(vlan="vlan", ivlan="vlan"), "outer+inner vlan"),
                          ("vxlan-gpe", dict(inner_eth=True), "inner ethernet"),
                          ("vxlan-gpe", dict(inner_eth=True, vlan="vlan"), "inner ethernet, vlan"),
                          ("geneve", dict(inner_eth=False), "bare ip inner"),
                          ("gue0", dict(outer_udp0=True), "outer udp csum 0")]:
        idx = len(frames)
        add(tunnel_frame(idx, tun, False, False, "udp", 333, **kw),
            "%s ip4/ip4/udp len 333 %s" % (tun, desc), tunnel=tun)
    idx = len(frames)
    add(tunnel_frame(idx, "vxlan", False, False, "sctp", 40), "vxlan ip4/ip4/sctp len 40",
        tunnel="vxlan")
    idx = len(frames)
    add(tunnel_frame(idx, "geneve", True, True, "tcp", 1200, inner_eth=False),
        "geneve ip6/ip6/tcp len 1200 bare ip inner bad l4", ["l4"], tunnel="geneve")
    return frames


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    frames = build()
    # Self-check: each frame walks to what was built, and only the named
    # checksums are wrong (our arithmetic, before any DPDK code runs).
    for raw, e in frames:
        flds, tun = cp.fields(raw)
        want_tun = {"vxlan-rt": "vxlan", "gue0": "gue", "gue1": "gue"}.get(e["tunnel"], e["tunnel"])
        assert tun == want_tun, (e, tun)
        bad = sorted(n for n, lv, k in flds if cp.verdict(raw, lv, k)[0] == "bad")
        assert bad == sorted(e["corrupt"]), (e, bad)
        e["fields"] = [n for n, lv, k in flds]
    wrpcap(os.path.join(out, "in.pcap"), [Ether(raw) for raw, _ in frames])
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"frames": [e for _, e in frames],
                   "ports": {"vxlan": 4789, "vxlan-gpe": 4790, "geneve": 6081,
                             "gue": cp.GUE_PORT, "vxlan_runtime": cp.RT_VXLAN_PORT}},
                  f, indent=1)
    print("%d frames, %d with wrong checksums -> %s" %
          (len(frames), sum(1 for _, e in frames if e["corrupt"]), out))


if __name__ == "__main__":
    main()
