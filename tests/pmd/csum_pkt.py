# SPDX-License-Identifier: BSD-3-Clause
"""Shared by gen_captures.py, check_capture.py and csum_drive.py.

- walk(): a header walker over raw frames (Ethernet, VLAN/QinQ, IPv4/IPv6,
  UDP/TCP/SCTP, and VXLAN, VXLAN-GPE, GENEVE, GUE v0/v1 on the UDP ports it
  is given), returning the offset of every checksum field;
- our own checksum arithmetic (ones' complement, pseudo-headers, CRC32c),
  independent of scapy and of tshark;
- testpmd_csum(): what dpdk-testpmd 22.11's csum engine (csumonly.c) plus a
  correct PMD produce for one frame, given the `csum set ... hw` set:
  the exact expected output image.
"""
import struct

# Where testpmd's csum engine looks (csumonly.c: parse_vxlan 4789,
# parse_vxlan_gpe vxlan_gpe_udp_port 4790, parse_geneve geneve_udp_port
# 6081); it has no GUE and no run-time VXLAN port.
TESTPMD_TUNNELS = {4789: "vxlan", 4790: "vxlan-gpe", 6081: "geneve"}
# Every tunnel the captures carry (used to find every checksum).
GUE_PORT = 6080
RT_VXLAN_PORT = 8472
ALL_TUNNELS = {4789: "vxlan", 4790: "vxlan-gpe", 6081: "geneve",
               GUE_PORT: "gue", RT_VXLAN_PORT: "vxlan"}

HW_FLAGS = ("ip", "udp", "tcp", "sctp", "outer-ip", "outer-udp")

ETH_P_IP, ETH_P_IPV6, ETH_P_VLAN, ETH_P_QINQ, ETH_P_TEB = 0x0800, 0x86DD, 0x8100, 0x88A8, 0x6558
P_TCP, P_UDP, P_SCTP, P_IPIP, P_IPV6 = 6, 17, 132, 4, 41


def be16(b, o):
    return (b[o] << 8) | b[o + 1]


def put16(b, o, v):
    b[o] = (v >> 8) & 0xFF
    b[o + 1] = v & 0xFF


def sum16(data):
    """Unfolded ones' complement sum of data (odd length padded)."""
    if len(data) & 1:
        data = bytes(data) + b"\0"
    s = 0
    for (w,) in struct.iter_unpack("!H", bytes(data)):
        s += w
    return s


def fold(s):
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def ip4_csum(hdr):
    h = bytearray(hdr)
    h[10:12] = b"\0\0"
    return (~fold(sum16(h))) & 0xFFFF


_CRC32C = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC32C.append(_c)


def crc32c(data):
    c = 0xFFFFFFFF
    for x in data:
        c = _CRC32C[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


class Level:
    """One IP level: offsets into the frame."""

    def __init__(self):
        self.l3 = self.ver = self.l3len = self.proto = self.l4 = None
        self.end = None         # end of the L3 packet (from IP length fields)

    def l4_field(self):
        """(offset, size, kind) of the L4 checksum, or None."""
        if self.proto == P_UDP:
            return self.l4 + 6
        if self.proto == P_TCP:
            return self.l4 + 16
        if self.proto == P_SCTP:
            return self.l4 + 8
        return None


def parse_l2(b, off):
    """Ethernet + any VLAN tags at off: (ethertype, l3 offset)."""
    et = be16(b, off + 12)
    off += 14
    while et in (ETH_P_VLAN, ETH_P_QINQ) and off + 4 <= len(b):
        et = be16(b, off + 2)
        off += 4
    return et, off


def parse_ip(b, off, ver):
    lv = Level()
    lv.l3 = off
    lv.ver = ver
    if ver == 4:
        lv.l3len = (b[off] & 0xF) * 4
        lv.proto = b[off + 9]
        lv.end = off + be16(b, off + 2)
    else:
        lv.l3len = 40
        lv.proto = b[off + 6]
        lv.end = off + 40 + be16(b, off + 4)
    lv.l4 = off + lv.l3len
    return lv


def walk(b, tunnels=ALL_TUNNELS):
    """[outer Level, (inner Level)], tunnel name or None."""
    et, off = parse_l2(b, 0)
    if et not in (ETH_P_IP, ETH_P_IPV6):
        return [], None
    outer = parse_ip(b, off, 4 if et == ETH_P_IP else 6)
    levels = [outer]
    if outer.proto != P_UDP:
        return levels, None
    dport = be16(b, outer.l4 + 2)
    tun = tunnels.get(dport)
    if tun is None:
        return levels, None
    t = outer.l4 + 8
    inner_off, inner_ver = None, None
    if tun == "vxlan":
        et, inner_off = parse_l2(b, t + 8)
    elif tun == "vxlan-gpe":
        np = b[t + 3]
        if np == 1:
            et, inner_off = ETH_P_IP, t + 8
        elif np == 2:
            et, inner_off = ETH_P_IPV6, t + 8
        elif np == 3:
            et, inner_off = parse_l2(b, t + 8)
        else:
            return levels, None
    elif tun == "geneve":
        optlen = (b[t] & 0x3F) * 4
        proto = be16(b, t + 2)
        hl = 8 + optlen
        if proto == ETH_P_TEB:
            et, inner_off = parse_l2(b, t + hl)
        elif proto in (ETH_P_IP, ETH_P_IPV6):
            et, inner_off = proto, t + hl
        else:
            return levels, None
    elif tun == "gue":
        v = b[t] >> 6
        if v == 1:                      # GUE version 1: bare IP
            inner_ver = b[t] >> 4
            et, inner_off = (ETH_P_IP if inner_ver == 4 else ETH_P_IPV6), t
        elif v == 0 and not (b[t] & 0x20):   # data message, not control
            hlen = (b[t] & 0x1F) * 4
            proto = b[t + 1]
            et = {P_IPIP: ETH_P_IP, P_IPV6: ETH_P_IPV6}.get(proto)
            inner_off = t + 4 + hlen
            if et is None:
                return levels, None
        else:
            return levels, None
    if et not in (ETH_P_IP, ETH_P_IPV6):
        return levels, None
    levels.append(parse_ip(b, inner_off, 4 if et == ETH_P_IP else 6))
    return levels, tun


def l4_expected(b, lv):
    """The correct L4 checksum value of level lv over frame b as it is."""
    seg = bytearray(b[lv.l4:lv.end])
    fo = lv.l4_field() - lv.l4
    if lv.proto == P_SCTP:
        seg[fo:fo + 4] = b"\0\0\0\0"
        return crc32c(seg)
    seg[fo:fo + 2] = b"\0\0"
    n = len(seg)
    if lv.ver == 4:
        ph = bytes(b[lv.l3 + 12:lv.l3 + 20]) + struct.pack("!BBH", 0, lv.proto, n)
    else:
        ph = bytes(b[lv.l3 + 8:lv.l3 + 40]) + struct.pack("!IxxxB", n, lv.proto)
    c = (~fold(sum16(ph) + sum16(seg))) & 0xFFFF
    if lv.proto == P_UDP and c == 0:
        c = 0xFFFF
    return c


def l4_get(b, lv):
    o = lv.l4_field()
    if lv.proto == P_SCTP:
        return struct.unpack_from("<I", b, o)[0]   # scapy/Linux byte order
    return be16(b, o)


def l4_set(b, lv, v):
    o = lv.l4_field()
    if lv.proto == P_SCTP:
        struct.pack_into("<I", b, o, v)
    else:
        put16(b, o, v)


def fix_ip(b, lv):
    put16(b, lv.l3 + 10, ip4_csum(b[lv.l3:lv.l3 + lv.l3len]))


def fix_l4(b, lv):
    l4_set(b, lv, l4_expected(b, lv))


def fields(b, tunnels=ALL_TUNNELS):
    """Every checksum of frame b: [(name, level, kind)], names outer_ip,
    outer_l4, ip, l4 for a tunnel, ip, l4 for a plain packet."""
    levels, tun = walk(b, tunnels)
    out = []
    names = (["outer_ip", "outer_l4"], ["ip", "l4"]) if len(levels) == 2 else (["ip", "l4"],)
    for lv, (nip, nl4) in zip(levels, names):
        if lv.ver == 4:
            out.append((nip, lv, "ip4"))
        if lv.proto in (P_UDP, P_TCP, P_SCTP):
            out.append((nl4, lv, {P_UDP: "udp", P_TCP: "tcp", P_SCTP: "sctp"}[lv.proto]))
    return out, tun


def verdict(b, lv, kind):
    """(status, got, want): status good | bad | zero (UDP without checksum)."""
    if kind == "ip4":
        got = be16(b, lv.l3 + 10)
        want = ip4_csum(b[lv.l3:lv.l3 + lv.l3len])
    else:
        got = l4_get(b, lv)
        want = l4_expected(b, lv)
        if kind == "udp" and got == 0:
            return "zero", got, want
    return ("good" if got == want else "bad"), got, want


def testpmd_csum(frame, hw, parse_tunnel=True):
    """The frame testpmd 22.11's csum engine sends, with every hw request
    done right by the PMD. hw: a set of HW_FLAGS. Returns (bytes, notes)."""
    b = bytearray(frame)
    levels, tun = walk(b, TESTPMD_TUNNELS if parse_tunnel else {})
    if not levels:
        return bytes(b), []
    inner = levels[-1]
    outer = levels[0] if len(levels) == 2 else None
    late = []          # what the "hardware" does, after testpmd's software
    # process_inner_cksums()
    if inner.ver == 4:
        late.append(("ip", inner)) if "ip" in hw else fix_ip(b, inner)
    if inner.proto == P_UDP:
        if be16(b, inner.l4_field()) != 0:     # "do not recalculate udp cksum if it was 0"
            late.append(("l4", inner)) if "udp" in hw else fix_l4(b, inner)
    elif inner.proto == P_TCP:
        late.append(("l4", inner)) if "tcp" in hw else fix_l4(b, inner)
    elif inner.proto == P_SCTP:
        # (ipv4_hdr->total_length & 0x3) == 0 on a big-endian field read as
        # host order, even for IPv6: the low bits of byte 2 of the L3 header.
        if "sctp" in hw and (b[inner.l3 + 2] & 3) == 0:
            late.append(("l4", inner))
        else:
            l4_set(b, inner, 0)
    # process_outer_cksums()
    if outer is not None:
        if outer.ver == 4:
            late.append(("oip", outer)) if "outer-ip" in hw else fix_ip(b, outer)
        if outer.proto == P_UDP:
            if "outer-udp" in hw:
                late.append(("ol4", outer))
            elif be16(b, outer.l4_field()) != 0:
                fix_l4(b, outer)    # over the inner headers as they are now
    # The device: inner first, then the outer that covers it.
    for what, lv in late:
        if what in ("ip", "oip"):
            fix_ip(b, lv)
    for what, lv in late:
        if what == "l4":
            fix_l4(b, lv)
    for what, lv in late:
        if what == "ol4":
            fix_l4(b, lv)
    return bytes(b), tun
