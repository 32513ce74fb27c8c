#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
#
# Frames sent through a packet socket with PACKET_VNET_HDR, the way a VMM
# or a tun/tap user gives the kernel a virtio-net header, and their
# receiver. Guest side of kernel/guest/pkt-vnet.sh; standard library only
# (the guest runs the host's /usr/bin/python3).
#
#   vnet-send.py tcp6-gso DEV DST_MAC SRC6 DST6 SPORT DPORT COUNT SEGS MSS
#       COUNT TCP/IPv6 GSO skbs of SEGS*MSS payload bytes each, virtio-net
#       header gso_type TCPV6 and no NEEDS_CSUM: the skb is CHECKSUM_NONE
#       and the stack segments it (issue 27 item 8)
#   vnet-send.py tcp6-capture DEV SPORT DPORT BYTES TIMEOUT READY_FILE
#       receive those segments on DEV (packet socket), check each TCP
#       checksum and put the payload together by sequence number; prints
#       "segments N bad_csum N bytes N intact yes|no"
#   vnet-send.py vlan-udp DEV DST_MAC VID SRC4 DST4 SPORT DPORT LEN
#       one 802.1Q-tagged IPv4/UDP frame sent with sll_protocol ETH_P_IP and
#       a virtio-net header with NEEDS_CSUM (csum_start at the UDP header):
#       skb->protocol says IPv4, the frame starts with a tag (item 10)
#
# Payload bytes are a function of their offset, so the receiver checks
# every byte.

import socket
import struct
import sys
import time

SOL_PACKET = 263
PACKET_VNET_HDR = 15
ETH_P_IP = 0x0800
ETH_P_IPV6 = 0x86DD
ETH_P_8021Q = 0x8100
VIRTIO_NET_HDR_F_NEEDS_CSUM = 1
VIRTIO_NET_HDR_GSO_TCPV6 = 4


def csum(data, start=0):
    if len(data) % 2:
        data += b'\0'
    s = start + sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def fin(s):
    return ~s & 0xFFFF


def mac(text):
    return bytes(int(x, 16) for x in text.split(':'))


def payload(base, n):
    return bytes((base + i) * 7 % 251 for i in range(n))


def vnet_hdr(flags=0, gso_type=0, hdr_len=0, gso_size=0, csum_start=0,
             csum_offset=0):
    # struct virtio_net_hdr, little-endian (the packet socket's is native)
    return struct.pack('<BBHHHH', flags, gso_type, hdr_len, gso_size,
                       csum_start, csum_offset)


def open_tx(dev, proto):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
    s.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
    return s, (dev, proto)


def src_mac(dev):
    with open('/sys/class/net/%s/address' % dev) as f:
        return mac(f.read().strip())


def tcp6_gso(dev, dst_mac, src6, dst6, sport, dport, count, segs, mss):
    s, addr = open_tx(dev, ETH_P_IPV6)
    eth = mac(dst_mac) + src_mac(dev) + struct.pack('!H', ETH_P_IPV6)
    saddr = socket.inet_pton(socket.AF_INET6, src6)
    daddr = socket.inet_pton(socket.AF_INET6, dst6)
    size = segs * mss
    for i in range(count):
        seq = 1000 + i * size
        # PSH|ACK; the checksum field is left 0: without NEEDS_CSUM the
        # stack computes it while segmenting
        tcp = struct.pack('!HHIIBBHHH', sport, dport, seq, 1, 5 << 4, 0x18,
                          65535, 0, 0)
        ip6 = struct.pack('!IHBB', 6 << 28, len(tcp) + size, 6, 64) + saddr + daddr
        hdr = vnet_hdr(0, VIRTIO_NET_HDR_GSO_TCPV6,
                       len(eth) + len(ip6) + len(tcp), mss)
        s.sendto(hdr + eth + ip6 + tcp + payload(seq - 1000, size), addr)
    print('sent %d TCPv6 GSO skbs of %d bytes (gso_size %d, no NEEDS_CSUM)'
          % (count, size, mss))


def tcp6_capture(dev, sport, dport, want, timeout, ready_file):
    r = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_IPV6))
    r.bind((dev, ETH_P_IPV6))
    r.settimeout(0.5)
    with open(ready_file, 'w') as f:
        f.write('ready\n')
    got = {}
    nseg = bad = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and sum(map(len, got.values())) < want:
        try:
            frame = r.recv(65535)
        except socket.timeout:
            continue
        ip6 = frame[14:54]
        if len(ip6) < 40 or ip6[6] != 6:
            continue
        plen = struct.unpack('!H', ip6[4:6])[0]
        tcp = frame[54:54 + plen]
        sp, dp, seq = struct.unpack('!HHI', tcp[:8])
        if (sp, dp) != (sport, dport):
            continue
        nseg += 1
        pseudo = ip6[8:40] + struct.pack('!IxxxB', plen, 6)
        if fin(csum(tcp, csum(pseudo))) != 0:
            bad += 1
            continue
        data = tcp[(tcp[12] >> 4) * 4:]
        got[seq] = data
    total = sum(map(len, got.values()))
    intact = all(d == payload(seq - 1000, len(d)) for seq, d in got.items())
    # contiguous from seq 1000, no hole, no overlap
    pos = 1000
    for seq in sorted(got):
        if seq != pos:
            intact = False
        pos = seq + len(got[seq])
    print('segments %d bad_csum %d bytes %d intact %s'
          % (nseg, bad, total, 'yes' if intact and total == want else 'no'))


def vlan_udp(dev, dst_mac, vid, src4, dst4, sport, dport, n):
    s, addr = open_tx(dev, ETH_P_IP)
    eth = (mac(dst_mac) + src_mac(dev) +
           struct.pack('!HHH', ETH_P_8021Q, vid, ETH_P_IP))
    saddr = socket.inet_aton(src4)
    daddr = socket.inet_aton(dst4)
    data = payload(0, n)
    ulen = 8 + n
    # IP ID 0x0011: a driver that reads "the IPv4 header" at the network
    # header offset a packet socket sets (right after the 14-byte Ethernet
    # header, so on the tag) finds protocol 17 there and asks the chip for
    # a UDP checksum, which it cannot find behind the tag
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + ulen, 0x0011, 0x4000, 64,
                     17, 0, saddr, daddr)
    ip = ip[:10] + struct.pack('!H', fin(csum(ip))) + ip[12:]
    # NEEDS_CSUM: the checksum field holds the pseudo-header sum
    seed = csum(saddr + daddr + struct.pack('!BBH', 0, 17, ulen))
    udp = struct.pack('!HHHH', sport, dport, ulen, seed)
    start = len(eth) + len(ip)
    hdr = vnet_hdr(VIRTIO_NET_HDR_F_NEEDS_CSUM, 0, 0, 0, start, 6)
    s.sendto(hdr + eth + ip + udp + data, addr)
    print('sent a VLAN %d tagged UDP frame of %d bytes, sll_protocol ETH_P_IP,'
          ' NEEDS_CSUM at %d+6' % (vid, n, start))


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == 'tcp6-gso':
        dev, dst_mac, src6, dst6 = args[:4]
        tcp6_gso(dev, dst_mac, src6, dst6, *map(int, args[4:9]))
    elif cmd == 'tcp6-capture':
        tcp6_capture(args[0], int(args[1]), int(args[2]), int(args[3]),
                     float(args[4]), args[5])
    elif cmd == 'vlan-udp':
        vlan_udp(args[0], args[1], int(args[2]), args[3], args[4],
                 *map(int, args[5:8]))
    else:
        sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    main(sys.argv)
