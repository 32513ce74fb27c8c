#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
#
# The frames the QEMU hwcsum suite sends (tests/qemu/bypass.sh):
#
#   gen-frames.py OUT.pcap OUT.cases
#
# Plain IPv4/IPv6 UDP and TCP, VXLAN and GENEVE over IPv4 and IPv6 outer
# headers with IPv4 and IPv6, UDP and TCP inner packets, each in four
# payload sizes (odd and even, 1 byte to nearly a full frame). Every
# checksum is wrong on purpose (IPv4 header, L4, outer UDP) except one
# VXLAN case whose outer UDP checksum is 0 ("none", legal over IPv4): the
# forwarder must fix them all, so a right checksum on the wire was really
# computed by someone on the way. Each frame carries "hwcsum-case-<id>-<n>"
# at the start of its payload so the capture can be matched frame by frame.
# OUT.cases: one line per frame: "<id>-<n> <case name> <payload bytes>".
import sys

from scapy.all import IP, TCP, UDP, Ether, IPv6, Raw, wrpcap
from scapy.layers.vxlan import VXLAN
from scapy.contrib.geneve import GENEVE

BAD = 0xbad1  # a wrong checksum: never what the packet sums to (checked)
SIZES = (1, 64, 555, 1333)
SRC, DST = "02:00:00:00:00:01", "02:00:00:00:00:02"


def ip4(a, b):
    return IP(src="192.168.60.%d" % a, dst="192.168.60.%d" % b, ttl=64, chksum=BAD)


def ip6(a, b):
    return IPv6(src="fd60::%d" % a, dst="fd60::%d" % b, hlim=64)


def l4(proto, port):
    if proto == "udp":
        return UDP(sport=40000 + port, dport=port, chksum=BAD)
    return TCP(sport=40000 + port, dport=port, flags="PA", seq=1000, ack=1, chksum=BAD)


def inner(fam, proto, port):
    l3 = ip4(11, 12) if fam == 4 else IPv6(src="fd61::11", dst="fd61::12")
    return Ether(src="02:00:00:00:01:11", dst="02:00:00:00:01:12") / l3 / l4(proto, port)


def outer_udp(fam, dport, csum=BAD):
    l3 = ip4(1, 2) if fam == 4 else ip6(1, 2)
    return l3 / UDP(sport=50000 + dport % 1000, dport=dport, chksum=csum)


CASES = []  # (name, builder(port) -> packet without payload)
for fam in (4, 6):
    for proto in ("udp", "tcp"):
        CASES.append(("plain-ip%d-%s" % (fam, proto),
                      lambda port, fam=fam, proto=proto:
                      (ip4(1, 2) if fam == 4 else ip6(1, 2)) / l4(proto, port)))
for ofam, ifam, proto in ((4, 4, "udp"), (4, 4, "tcp"), (4, 6, "tcp"),
                          (6, 4, "udp"), (6, 4, "tcp"), (6, 6, "udp")):
    CASES.append(("vxlan-ip%d-in-ip%d-%s" % (ifam, ofam, proto),
                  lambda port, ofam=ofam, ifam=ifam, proto=proto:
                  outer_udp(ofam, 4789) / VXLAN(vni=100, flags=0x08) / inner(ifam, proto, port)))
CASES.append(("vxlan-ip4-in-ip4-udp-outer-csum-0",
              lambda port: outer_udp(4, 4789, 0) / VXLAN(vni=101, flags=0x08) / inner(4, "udp", port)))
for ofam, ifam, proto in ((4, 4, "udp"), (4, 4, "tcp"), (6, 6, "tcp"), (6, 4, "udp")):
    CASES.append(("geneve-ip%d-in-ip%d-%s" % (ifam, ofam, proto),
                  lambda port, ofam=ofam, ifam=ifam, proto=proto:
                  outer_udp(ofam, 6081) / GENEVE(vni=200, proto=0x6558) / inner(ifam, proto, port)))


def main():
    out_pcap, out_cases = sys.argv[1], sys.argv[2]
    frames, lines = [], []
    for cid, (name, build) in enumerate(CASES):
        for n, size in enumerate(SIZES):
            tag = b"hwcsum-case-%d-%d-" % (cid, n)
            payload = (tag + bytes((i * 7 + cid) & 0xff for i in range(size)))[:max(size, len(tag))]
            pkt = Ether(src=SRC, dst=DST) / build(20000 + cid) / Raw(payload)
            raw = bytes(pkt)
            assert len(raw) <= 1514, (name, len(raw))
            # The wrong checksums must really be wrong.
            good = Ether(raw)
            for layer in (IP, UDP, TCP):
                i = 1
                while good.getlayer(layer, i) is not None:
                    lay = good.getlayer(layer, i)
                    if lay.chksum not in (0,):
                        del lay.chksum
                    i += 1
            fixed = Ether(bytes(good))
            assert bytes(fixed) != raw, name
            frames.append(Ether(raw))
            lines.append("%d-%d %s %d" % (cid, n, name, len(payload)))
    wrpcap(out_pcap, frames)
    with open(out_cases, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("gen-frames: %d frames, %d cases x %d sizes -> %s" % (len(frames), len(CASES), len(SIZES), out_pcap))


main()
