#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Traffic and oracle for exthdrs.sh: inner IPv6 behind extension headers.

exthdrs.py gen DIR      gw.ini (VXLAN over IPv4 carrying Ethernet, GUE over
                        IPv6 carrying IPv6), remote.pcap: a remote VTEP's
                        packets whose inner IPv6 UDP/TCP sits behind
                        hop-by-hop, destination options, routing (type 0,
                        type 2, segment routing, none left) and fragment
                        headers, each once with the right checksum (scapy's,
                        which takes a routing header's final destination)
                        and once with a wrong one; two malformed routing
                        headers; expect_<t>.pcap (what the VM must get);
                        counts.txt (delivered, inner_csum, inner_routing)
                        judge.pcap: each inner packet once, as a frame
exthdrs.py check DIR    tshark on judge.pcap must call every right checksum
                        good and every wrong one bad (a second oracle that
                        agrees with scapy on the final destination);
                        back_<t>.pcap must be expect_<t>.pcap byte for byte,
                        and tshark must find no bad checksum in it
exthdrs.py encap-check DIR  under_enc.pcap (the gateway's encapsulation of
                        inner_vx4.pcap: the right packets with Linux's
                        CHECKSUM_PARTIAL seed over the final destination):
                        tshark finds every inner checksum completed, good
"""
import os
import sys

from scapy.all import (IP, TCP, UDP, Ether, IPv6, IPv6ExtHdrDestOpt,
                       IPv6ExtHdrFragment, IPv6ExtHdrHopByHop,
                       IPv6ExtHdrRouting, IPv6ExtHdrSegmentRouting, Raw,
                       rdpcap, wrpcap)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scapy.layers.inet6 import in6_pseudoheader  # noqa: E402
from edges import LOCAL4, LOCAL6, remote, write_ini  # noqa: E402
from frames import GW_MAC, HOST_MAC, PEER_MAC, VM_MAC, vxlan  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pcap_csum  # noqa: E402

TUNNELS = [
    ("vx4", "vxlan", 400, 4, []),
    ("gue6", "gue", None, 6, [("inner_dst_mac", VM_MAC), ("inner_src_mac", HOST_MAC)]),
]
SRC, DST = "2001:db8:1::2", "2001:db8:1::1"
HOPS = ["2001:db8:9::1", "2001:db8:9::2", "2001:db8:9::3"]


def variants():
    """(name, extension headers): right and wrong checksums behind each."""
    return [
        ("hbh", lambda: IPv6ExtHdrHopByHop()),
        ("dst", lambda: IPv6ExtHdrDestOpt()),
        ("rt0", lambda: IPv6ExtHdrRouting(type=0, segleft=2, addresses=HOPS[:2])),
        ("rt0-1left", lambda: IPv6ExtHdrRouting(type=0, segleft=1, addresses=HOPS)),
        ("rt0-none-left", lambda: IPv6ExtHdrRouting(type=0, segleft=0, addresses=HOPS[:1])),
        ("rt2", lambda: IPv6ExtHdrRouting(type=2, segleft=1, addresses=HOPS[2:])),
        ("srh", lambda: IPv6ExtHdrSegmentRouting(segleft=2, addresses=HOPS)),
        ("chain", lambda: IPv6ExtHdrHopByHop() / IPv6ExtHdrDestOpt() /
         IPv6ExtHdrSegmentRouting(segleft=1, addresses=HOPS[:2]) / IPv6ExtHdrDestOpt()),
    ]


def l4s(i):
    return [("udp", UDP(sport=1000 + i, dport=2000)),
            ("tcp", TCP(sport=3000 + i, dport=4000, flags="PA", seq=i))]


def wrong(pkt, l4):
    """The same packet with a checksum that is not the right one."""
    good = Ether(bytes(pkt))[l4].chksum
    pkt[l4].chksum = good ^ 0x5a5a
    return Ether(bytes(pkt))


def inner_packets():
    """[(name, IPv6 packet, verdict)]: verdict 'good', 'bad', 'frag', 'routing'."""
    out = []
    pay = Raw(b"behind extension headers" * 3)
    for i, (name, ext) in enumerate(variants()):
        for l4name, l4 in l4s(i):
            base = IPv6(src=SRC, dst=DST) / ext() / l4 / pay
            good = IPv6(bytes(base))
            out.append(("%s/%s" % (name, l4name), good, "good"))
            bad = IPv6(bytes(base))
            layer = UDP if l4name == "udp" else TCP
            bad[layer].chksum = good[layer].chksum ^ 0x5a5a
            out.append(("%s/%s wrong" % (name, l4name), IPv6(bytes(bad)), "bad"))
            # A first fragment: its L4 checksum covers every fragment, so
            # it is delivered unverified, right or wrong.
            frag = IPv6(src=SRC, dst=DST) / IPv6ExtHdrHopByHop() / \
                IPv6ExtHdrFragment(offset=0, m=1, id=i) / l4 / pay
            if name == "hbh":
                out.append(("frag/%s" % l4name, IPv6(bytes(frag)), "frag"))
                f = IPv6(bytes(frag))
                raw = bytearray(bytes(f))
                ck = 40 + 8 + 8 + (6 if l4name == "udp" else 16)
                raw[ck] ^= 0x5a
                out.append(("frag/%s wrong" % l4name, IPv6(bytes(raw)), "frag"))
    # Malformed: Segments Left beyond the segment list; a routing type whose
    # final destination cannot be read (RPL, compressed addresses).
    srh = IPv6ExtHdrSegmentRouting(segleft=4, lastentry=2, addresses=HOPS)
    out.append(("srh 4 left of 3", IPv6(bytes(IPv6(src=SRC, dst=DST) / srh /
                                              UDP(sport=9, dport=9) / pay)), "routing"))
    rpl = IPv6ExtHdrRouting(type=3, segleft=1, addresses=HOPS[:1])
    out.append(("rpl 1 left", IPv6(bytes(IPv6(src=SRC, dst=DST) / rpl /
                                         TCP(sport=9, dport=9) / pay)), "routing"))
    return out


def seed(pkt):
    """pkt with Linux's CHECKSUM_PARTIAL seed in its L4 field: the folded
    pseudo-header sum (scapy's pseudo-header: the final destination)."""
    pkt = IPv6(bytes(pkt))
    layer = UDP if pkt.haslayer(UDP) else TCP
    u = pkt[layer]
    ph = bytes(in6_pseudoheader(6 if layer is TCP else 17, u, len(bytes(u))))
    s = sum(int.from_bytes(ph[i:i + 2], "big") for i in range(0, len(ph), 2))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    u.chksum = s
    return IPv6(bytes(pkt))


def encap_check(d):
    """tshark on what the gateway sent: every inner UDP/TCP checksum good."""
    want = int(open(os.path.join(d, "seeded.txt")).read())
    st = tshark_status(os.path.join(d, "under_enc.pcap"))
    good = sum(1 for u, t in st if (t or u) == "good")
    if len(st) == want and good == want:
        print("ok: encap: tshark finds the %d completed inner checksums good" % want)
        return 0
    print("FAIL: encap: %d frames sent of %d, %d inner checksums good: %s"
          % (len(st), want, good, st[:4]))
    return 1


def gen(d):
    write_ini(d, TUNNELS)
    under, counts = [], {"delivered": 0, "inner_csum": 0, "inner_routing": 0}
    inner = inner_packets()
    # Each inner packet once, as the VM gets it: for the oracle (check 1).
    wrpcap(os.path.join(d, "judge.pcap"),
           [Ether(bytes(Ether(src=HOST_MAC, dst=VM_MAC) / p)) for _, p, _ in inner])
    with open(os.path.join(d, "names.txt"), "w") as f:
        f.write("".join("%s: %s\n" % (n, v) for n, _, v in inner))
    for i, (t, typ, vni, fam, _) in enumerate(TUNNELS):
        expect = []
        if fam == 4:
            out = Ether(src=PEER_MAC, dst=GW_MAC) / IP(src=remote(i, 4), dst=LOCAL4)
        else:
            out = Ether(src=PEER_MAC, dst=GW_MAC) / IPv6(src=remote(i, 6), dst=LOCAL6)
        for _, pkt, verdict in inner:
            frame = Ether(src=HOST_MAC, dst=VM_MAC) / pkt
            udp = UDP(sport=40000 + len(under) % 20000,
                      dport=4789 if typ == "vxlan" else 6080)
            if typ == "vxlan":
                u = out / udp / vxlan(vni) / frame
            else:
                # GUE variant 0, no options, protocol 41 (IPv6).
                u = out / udp / Raw(b"\x00\x29\x00\x00") / pkt
            under.append(Ether(bytes(u)))
            if verdict in ("good", "frag"):
                expect.append(Ether(bytes(frame)))
                counts["delivered"] += 1
            elif verdict == "bad":
                counts["inner_csum"] += 1
            else:
                counts["inner_routing"] += 1
        wrpcap(os.path.join(d, "expect_%s.pcap" % t), expect)
    wrpcap(os.path.join(d, "remote.pcap"), under)
    # The VM's side: the right packets (no fragment) left CHECKSUM_PARTIAL,
    # the seed over the final destination in the field, for the gateway to
    # recognise and complete before encapsulating them (VXLAN; GUE's inner
    # packets tshark cannot reach).
    seeded = [Ether(bytes(Ether(src=VM_MAC, dst=HOST_MAC) / seed(p)))
              for _, p, v in inner if v == "good"]
    wrpcap(os.path.join(d, "inner_vx4.pcap"), seeded)
    wrpcap(os.path.join(d, "inner_gue6.pcap"), [], linktype=1)
    with open(os.path.join(d, "seeded.txt"), "w") as f:
        f.write("%d\n" % len(seeded))
    with open(os.path.join(d, "counts.txt"), "w") as f:
        f.write("%(delivered)d %(inner_csum)d %(inner_routing)d\n" % counts)


def tshark_status(path):
    """Per frame: the innermost UDP and TCP checksum statuses by tshark
    (tests/lib/pcap_csum.py: "good", "bad", ...; "" when it has none)."""
    return [tuple(f.status.get(k, [""])[-1] for k in ("udp", "tcp"))
            for f in pcap_csum.frames(path)]


def check(d):
    failed = 0
    names = open(os.path.join(d, "names.txt")).read().splitlines()
    # 1. The oracle: tshark on what was sent.
    sent = tshark_status(os.path.join(d, "judge.pcap"))
    if len(sent) != len(names):
        print("FAIL: tshark read %d frames of %d" % (len(sent), len(names)))
        return 1
    agree = 0
    for name, st in zip(names, sent):
        verdict = name.rsplit(": ", 1)[1]
        if verdict not in ("good", "bad"):
            continue
        l4 = st[1] if "/tcp" in name else st[0]
        if l4 == verdict:
            agree += 1
        else:
            failed += 1
            print("FAIL: tshark calls %s checksum status %r" % (name, l4))
    print("%s: tshark agrees with scapy on %d right and wrong inner checksums"
          % ("ok" if not failed else "FAIL", agree))
    # 2. What came back to the VM: byte for byte, and tshark finds it good.
    for t, _, _, _, _ in TUNNELS:
        a, b = (os.path.join(d, "%s_%s.pcap" % (w, t)) for w in ("expect", "back"))
        pa = [bytes(p) for p in rdpcap(a)]
        pb = [bytes(p) for p in rdpcap(b)] if os.path.getsize(b) > 24 else []
        if pa == pb:
            print("ok: %s: the %d right (and fragment) packets delivered, byte for byte"
                  % (t, len(pa)))
        else:
            failed += 1
            print("FAIL: %s: expected %d frames, got %d" % (t, len(pa), len(pb)))
            extra = set(pb) - set(pa)
            for x in list(extra)[:4]:
                print("  unexpected: %s" % Ether(x).summary())
            for x in [x for x in pa if x not in set(pb)][:4]:
                print("  missing: %s" % Ether(x).summary())
        bad = [s for s in tshark_status(b) if "bad" in s] if pb else []
        if bad:
            failed += 1
            print("FAIL: %s: tshark finds %d delivered frames with a bad checksum"
                  % (t, len(bad)))
    return failed


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif sys.argv[1] == "check":
        sys.exit(1 if check(sys.argv[2]) else 0)
    elif sys.argv[1] == "encap-check":
        sys.exit(encap_check(sys.argv[2]))
    else:
        sys.exit("usage: exthdrs.py gen|check DIR")
