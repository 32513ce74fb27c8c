#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""VXLAN or GENEVE frames for the switch's underlay, one checksum broken on purpose.

vxlan_frames.py [--geneve] IFACE COUNT OUTER_SRC_MAC OUTER_DST_MAC INNER_SRC_MAC INNER_DST_MAC VARIANT:SEQ...

VARIANT: good, outer-udp-bad, outer-ip-bad, inner-tcp-bad; COUNT frames
of each. The inner packet is a TCP SYN 10.98.0.2 -> 10.98.0.1 port 9
with sequence number SEQ, so a capture can tell these frames from any
other and from each other; the outer one is
192.0.2.2 -> 192.0.2.1, UDP to 4789 (GENEVE: 6081, no options), VNI 42,
with an outer UDP checksum.
"""
import sys

from scapy.all import IP, TCP, UDP, VXLAN, Ether, raw, sendp
from scapy.contrib.geneve import GENEVE

GENEVE_MODE = "--geneve" in sys.argv


def frame(variant, omac_src, omac_dst, imac_src, imac_dst, seq):
    inner = Ether(src=imac_src, dst=imac_dst) / \
        IP(src="10.98.0.2", dst="10.98.0.1") / \
        TCP(sport=40000, dport=9, flags="S", seq=seq)
    inner = Ether(raw(inner))		# checksums filled in
    if variant == "inner-tcp-bad":
        inner[TCP].chksum ^= 0x5a5a
    tunnel = UDP(sport=50000, dport=6081) / GENEVE(vni=42, proto=0x6558) \
        if GENEVE_MODE else \
        UDP(sport=50000, dport=4789) / VXLAN(flags="Instance", vni=42)
    outer = Ether(src=omac_src, dst=omac_dst) / \
        IP(src="192.0.2.2", dst="192.0.2.1") / tunnel / inner
    outer = Ether(raw(outer))
    if variant == "outer-udp-bad":
        outer[UDP].chksum ^= 0x5a5a
    elif variant == "outer-ip-bad":
        outer[IP].chksum ^= 0x5a5a
    return outer


def main():
    argv = [a for a in sys.argv if a != "--geneve"]
    iface, count, macs = argv[1], int(argv[2]), argv[3:7]
    frames = []
    for arg in argv[7:]:
        variant, seq = arg.split(":")
        frames += [frame(variant, *macs, int(seq))] * count
    sendp(frames, iface=iface, verbose=False, inter=0.05)


if __name__ == "__main__":
    main()
