#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""UDP and TCP streams through the tunnel, judged by what arrives.

streams.py udp-recv PORT COUNT      prints "udp received N"
streams.py udp-send HOST PORT COUNT
streams.py tcp-recv PORT            prints "tcp received BYTES SHA256"
streams.py tcp-send HOST PORT BYTES prints "tcp sent BYTES SHA256"
streams.py ping HOST COUNT [SIZE]   ICMP/ICMPv6 echo, prints "N received"
                                    (no iputils-ping needed); SIZE bytes
                                    of payload, never fragmented (DF)
HOST may be IPv4 or IPv6; a UDP receiver gives up after 3 s of silence, TCP after 10 s.
"""
import hashlib
import socket
import sys
import time


def family(host):
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def payload(n):
    block = bytes((i * 7 + 3) & 0xff for i in range(4093))
    return (block * (n // len(block) + 1))[:n]


def udp_recv(port, count):
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    # Room for the whole burst: a receiver starved of CPU must not drop.
    s.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)	# SO_RCVBUFFORCE (root)
    s.bind(("::", port))
    s.settimeout(3)
    got = 0
    try:
        while got < count:
            data, _ = s.recvfrom(65536)
            if data == payload(len(data)):
                got += 1
    except socket.timeout:
        pass
    print("udp received %d" % got)


def udp_send(host, port, count):
    s = socket.socket(family(host), socket.SOCK_DGRAM)
    for i in range(count):
        s.sendto(payload(200 + (i * 37) % 1100), (host, port))
        if i % 10 == 9:
            time.sleep(0.002)	# modest: the gateway shares 2 cores


def tcp_recv(port):
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("::", port))
    s.listen(1)
    s.settimeout(20)
    h, n = hashlib.sha256(), 0
    try:
        c, _ = s.accept()
        c.settimeout(10)
        while True:
            data = c.recv(65536)
            if not data:
                break
            h.update(data)
            n += len(data)
    except socket.timeout:
        pass
    print("tcp received %d %s" % (n, h.hexdigest()))


def tcp_send(host, port, nbytes):
    data = payload(nbytes)
    for _ in range(50):	# until the receiver listens
        try:
            s = socket.create_connection((host, port), timeout=10)
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("tcp: cannot connect to %s port %d" % (host, port))
    s.sendall(data)
    s.close()
    print("tcp sent %d %s" % (nbytes, hashlib.sha256(data).hexdigest()))


def ping(host, count, size=None):
    v6 = ":" in host
    proto = socket.IPPROTO_ICMPV6 if v6 else socket.IPPROTO_ICMP
    s = socket.socket(family(host), socket.SOCK_RAW, proto)
    s.settimeout(2)
    if size is not None:    # a packet bigger than the path fails, whole
        if v6:
            s.setsockopt(socket.IPPROTO_IPV6, 23, 1)    # IPV6_DONTFRAG
        else:
            s.setsockopt(socket.IPPROTO_IP, 10, 2)  # IP_MTU_DISCOVER, _DO
    got = 0
    for seq in range(count):
        hdr = bytes([128 if v6 else 8, 0, 0, 0, 0x12, 0x34, 0, seq])
        body = b"hwcsum-tunnel ping %d" % seq
        if size is not None:
            body = (body * (size // len(body) + 1))[:size]
        pkt = bytearray(hdr + body)
        if not v6:	# the kernel fills the ICMPv6 checksum itself
            w = sum(int.from_bytes(pkt[i:i + 2].ljust(2, b"\0"), "big")
                    for i in range(0, len(pkt), 2))
            while w >> 16:
                w = (w & 0xffff) + (w >> 16)
            pkt[2:4] = (~w & 0xffff).to_bytes(2, "big")
        s.sendto(bytes(pkt), (host, 0))
        deadline = time.time() + 2
        while time.time() < deadline:
            try:
                data = s.recv(65535)
            except socket.timeout:
                break
            icmp = data if v6 else data[(data[0] & 15) * 4:]
            if icmp[0] == (129 if v6 else 0) and icmp[4:8] == hdr[4:8] and \
                    icmp[8:] == body:
                got += 1
                break
        time.sleep(0.2)
    print("%d received" % got)


if __name__ == "__main__":
    a = sys.argv
    {"udp-recv": lambda: udp_recv(int(a[2]), int(a[3])),
     "udp-send": lambda: udp_send(a[2], int(a[3]), int(a[4])),
     "tcp-recv": lambda: tcp_recv(int(a[2])),
     "tcp-send": lambda: tcp_send(a[2], int(a[3]), int(a[4])),
     "ping": lambda: ping(a[2], int(a[3]),
                          int(a[4]) if len(a) > 4 else None)}[a[1]]()
