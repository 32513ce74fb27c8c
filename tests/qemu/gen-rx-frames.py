#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
#
# The frames the QEMU hwcsum receive suite injects (tests/qemu/rx.sh):
#
#   gen-rx-frames.py DST_MAC OUT.pcap OUT.json
#
# Plain IPv4/IPv6 UDP/TCP, and VXLAN (4789) and GENEVE (6081) over IPv4 and
# IPv6 with inner IPv4/IPv6 UDP/TCP (inner Ethernet). Every base packet is
# sent once with all checksums right and once per fault, exactly one
# checksum wrong (or zero) per frame, every other checksum right *over the
# faulty bytes* (a bad inner checksum is covered by a correct outer UDP
# checksum):
#   plain:  good, bad-ip (IPv4), bad-l4, udp-zero
#   tunnel: good, bad-outer-ip (IPv4 outer), bad-outer-udp, outer-udp-zero,
#           bad-inner-ip (IPv4 inner), bad-inner-l4, inner-udp-zero
# OUT.json: one object per frame, in file order: index, name, kind
# (plain|vxlan|geneve), ofam, ifam, proto, fault, len. analyze-rx.py
# derives every expected count from these facts.
import json
import sys

from scapy.all import IP, TCP, UDP, Ether, IPv6, Raw, wrpcap
from scapy.layers.vxlan import VXLAN
from scapy.contrib.geneve import GENEVE

SRC = "02:00:00:00:00:01"
TUN_PORT = {"vxlan": 4789, "geneve": 6081}


def l3(fam, a, b, net, ck):
    if fam == 4:
        return IP(src="192.168.%d.%d" % (net, a), dst="192.168.%d.%d" % (net, b), ttl=64,
                  chksum=ck)
    return IPv6(src="fd%02x::%d" % (net, a), dst="fd%02x::%d" % (net, b), hlim=64)


def l4(proto, port, ck):
    if proto == "udp":
        return UDP(sport=40000 + port % 1000, dport=port, chksum=ck)
    return TCP(sport=40000 + port % 1000, dport=port, flags="PA", seq=1000, ack=1,
               chksum=ck)


def build(dst, kind, ofam, ifam, proto, ck, payload, port):
    """ck: role -> explicit checksum value (roles oip, ol4, iip, il4); None = computed."""
    if kind == "plain":
        return Ether(src=SRC, dst=dst) / l3(ofam, 1, 2, 60, ck.get("oip")) / \
            l4(proto, port, ck.get("ol4")) / Raw(payload)
    inner = Ether(src="02:00:00:00:01:11", dst="02:00:00:00:01:12") / \
        l3(ifam, 11, 12, 61, ck.get("iip")) / l4(proto, port, ck.get("il4")) / Raw(payload)
    hdr = VXLAN(vni=100, flags=0x08) if kind == "vxlan" else GENEVE(vni=200, proto=0x6558)
    return Ether(src=SRC, dst=dst) / l3(ofam, 1, 2, 60, ck.get("oip")) / \
        UDP(sport=50000 + port % 1000, dport=TUN_PORT[kind], chksum=ck.get("ol4")) / hdr / inner


def field(pkt, role):
    """The checksum a packet carries for a role (read back from its bytes)."""
    p = Ether(bytes(pkt))
    lay = p.payload  # outer L3
    if role in ("ol4", "iip", "il4"):
        lay = lay.payload  # outer L4
    if role in ("iip", "il4"):
        lay = lay.payload.payload.payload  # tunnel header / inner Ethernet / inner L3
    if role == "il4":
        lay = lay.payload
    return lay.chksum


def wrong(c):
    for x in (0x1234, 0x4321):
        w = c ^ x
        if w not in (0, 0xffff):
            return w
    raise AssertionError(c)


FAULTS_PLAIN = ("good", "bad-ip", "bad-l4", "udp-zero")
FAULTS_TUN = ("good", "bad-outer-ip", "bad-outer-udp", "outer-udp-zero",
              "bad-inner-ip", "bad-inner-l4", "inner-udp-zero")
ROLE = {"bad-ip": "oip", "bad-l4": "ol4", "bad-outer-ip": "oip", "bad-outer-udp": "ol4",
        "bad-inner-ip": "iip", "bad-inner-l4": "il4"}


def cases():
    for fam in (4, 6):
        for proto in ("udp", "tcp"):
            for f in FAULTS_PLAIN:
                if (f == "bad-ip" and fam != 4) or (f == "udp-zero" and proto != "udp"):
                    continue
                yield "plain", fam, 0, proto, f
    for kind in ("vxlan", "geneve"):
        for ofam in (4, 6):
            for ifam in (4, 6):
                for proto in ("udp", "tcp"):
                    for f in FAULTS_TUN:
                        if (f == "bad-outer-ip" and ofam != 4) or \
                                (f == "bad-inner-ip" and ifam != 4) or \
                                (f == "inner-udp-zero" and proto != "udp"):
                            continue
                        yield kind, ofam, ifam, proto, f


def main():
    dst, out_pcap, out_json = sys.argv[1], sys.argv[2], sys.argv[3]
    frames, facts = [], []
    for i, (kind, ofam, ifam, proto, fault) in enumerate(cases()):
        tag = b"hwcsum-rx-%d-" % i
        size = (1, 64, 555, 1201)[i % 4]
        payload = (tag + bytes((j * 7 + i) & 0xff for j in range(size)))[:max(size, len(tag))]
        port = 20000 + i
        ck = {}
        if fault in ROLE:
            role = ROLE[fault]
            good = build(dst, kind, ofam, ifam, proto, {}, payload, port)
            ck[role] = wrong(field(good, role))
        elif fault == "udp-zero" or fault == "outer-udp-zero":
            ck["ol4"] = 0
        elif fault == "inner-udp-zero":
            ck["il4"] = 0
        pkt = build(dst, kind, ofam, ifam, proto, ck, payload, port)
        raw = bytes(pkt)
        assert len(raw) <= 1514, (i, len(raw))
        # The fault is the only thing wrong: the faulted field differs from
        # the computed one, every other checksum is what scapy computes.
        if fault in ROLE:
            assert field(Ether(raw), ROLE[fault]) == ck[ROLE[fault]]
        name = "%s-%s%s-%s-%s" % (kind, "ip%d-in-" % ifam if kind != "plain" else "",
                                  "ip%d" % ofam, proto, fault)
        frames.append(Ether(raw))
        facts.append({"index": i, "name": name, "kind": kind, "ofam": ofam, "ifam": ifam,
                      "proto": proto, "fault": fault, "len": len(raw)})
    wrpcap(out_pcap, frames)
    with open(out_json, "w") as f:
        json.dump(facts, f, indent=0)
    print("gen-rx-frames: %d frames -> %s" % (len(frames), out_pcap))


main()
