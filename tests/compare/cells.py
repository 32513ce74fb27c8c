#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The traffic of the comparison matrix, run inside the guest.

cells.py recv PIDFILE REPORT PORT...
    Count the intact UDP datagrams arriving on each PORT (IPv4 and IPv6)
    with the kernel's receive time of the first and the last one (the
    rate does not depend on this loop's speed); at SIGTERM write
    {port: {"received": N, "first": T, "last": T}} as JSON to REPORT.
cells.py send CELLS RESULTS
    CELLS is a JSON list of cells (guest-compare.sh writes it); for each,
    read the counters named in it, send COUNT datagrams of SIZE bytes to
    (dst, port) as fast as the socket takes them, wait for the path to
    drain, read the counters again and append one JSON line to RESULTS;
    then, if the cell has "flood": N, send N more as fast as the socket
    takes them to port + 500, the throughput sample.

Counters: "snmp:PID" is InCsumErrors (Udp, Udp6, Ip-level not included)
of the network namespace of PID (/proc/PID/net/snmp*); "dpdk:PREFIX:NAME"
is the xstats of a DPDK application's ethdev called NAME, read through its
telemetry socket, as dpdk-telemetry.py does.
"""
import json
import os
import select
import signal
import socket
import struct
import sys
import time

DRAIN_S = 1.0
FLOOD_PORT_OFFSET = 500


def payload(n, port):
    block = bytes((i * 7 + port) & 0xff for i in range(n))
    return block


SO_TIMESTAMPNS = 35


def arrival(anc):
    """The kernel's receive time of a datagram (SCM_TIMESTAMPNS), in s."""
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            sec, nsec = struct.unpack("qq", data[:16])
            return sec + nsec * 1e-9
    return time.time()


def recv(pidfile, report, ports):
    socks = {}
    for p in ports:
        s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        s.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)  # SO_RCVBUFFORCE
        # Arrival times from the kernel, not from this (slow, TCG) loop.
        s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        s.bind(("::", p))
        s.setblocking(False)
        socks[s.fileno()] = (s, p)
    stats = {p: {"received": 0, "corrupt": 0, "first": None, "last": None}
             for p in ports}
    done = []
    signal.signal(signal.SIGTERM, lambda *_: done.append(1))
    with open(pidfile + ".tmp", "w") as f:
        f.write("%d\n" % os.getpid())
    os.rename(pidfile + ".tmp", pidfile)
    poll = select.poll()
    for fd in socks:
        poll.register(fd, select.POLLIN)
    while not done:
        try:
            events = poll.poll(200)
        except InterruptedError:
            continue
        for fd, _ in events:
            s, p = socks[fd]
            while True:
                try:
                    data, anc, _, _ = s.recvmsg(65536, 64)
                except (BlockingIOError, InterruptedError):
                    break
                st = stats[p]
                if data != payload(len(data), p):
                    st["corrupt"] += 1
                    continue
                now = arrival(anc)
                st["received"] += 1
                st["first"] = st["first"] or now
                st["last"] = now
    with open(report, "w") as f:
        json.dump(stats, f)


def snmp_errors(pid):
    """InCsumErrors of Udp and Udp6 in the namespace of pid."""
    total = 0
    with open("/proc/%s/net/snmp" % pid) as f:
        rows = [l.split() for l in f if l.startswith("Udp:")]
    total += int(rows[1][rows[0].index("InCsumErrors")])
    with open("/proc/%s/net/snmp6" % pid) as f:
        for l in f:
            k, v = l.split()[:2]
            if k == "Udp6InCsumErrors":
                total += int(v)
    return total


def telemetry(prefix, *commands):
    """The replies of a DPDK application to commands, in order."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(10)
    s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix)
    json.loads(s.recv(16384))  # the greeting
    replies = []
    for c in commands:
        s.send(c.encode())
        replies.append(json.loads(s.recv(1 << 20))[c.split(",")[0]])
    s.close()
    return replies


def dpdk_xstats(prefix, name):
    """xstats of the ethdev called name."""
    ids = telemetry(prefix, "/ethdev/list")[0]
    infos = telemetry(prefix, *["/ethdev/info,%d" % i for i in ids])
    for i, info in zip(ids, infos):
        if info.get("name") == name:
            return telemetry(prefix, "/ethdev/xstats,%d" % i)[0]
    raise SystemExit("telemetry of %s: no port %s" % (prefix, name))


def counters(names):
    out = {}
    for name in names:
        kind, _, arg = name.partition(":")
        if kind == "snmp":
            out[name] = {"InCsumErrors": snmp_errors(arg)}
        else:
            prefix, _, port = arg.partition(":")
            out[name] = dpdk_xstats(prefix, port)
    return out


def delta(before, after):
    return {n: {k: v - before[n].get(k, 0) for k, v in after[n].items()
                if isinstance(v, int)} for n in after}


def echo(fam, dst):
    """One ICMP or ICMPv6 echo request to dst (no reply awaited)."""
    if fam == socket.AF_INET6:
        s = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
        s.sendto(bytes([128, 0, 0, 0, 0, 1, 0, 1]), (dst, 0))  # sum by Linux
    else:
        s = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_ICMP)
        msg = bytearray([8, 0, 0, 0, 0, 1, 0, 1])
        total = sum((msg[i] << 8) | msg[i + 1] for i in range(0, 8, 2))
        total = (total & 0xffff) + (total >> 16)
        msg[2:4] = (~total & 0xffff).to_bytes(2, "big")
        s.sendto(bytes(msg), (dst, 0))
    s.close()


def send(cells_file, results):
    with open(cells_file) as f:
        cells = json.load(f)
    for c in cells:
        fam = socket.AF_INET6 if ":" in c["dst"] else socket.AF_INET
        names = c.get("counters", [])
        before = counters(names)
        s = socket.socket(fam, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, 32, 4 << 20)  # SO_SNDBUFFORCE
        data = payload(c["size"], c["port"])
        # An echo request first: the neighbour (and the ARP across a
        # tunnel) is resolved before the burst, which an unresolved
        # neighbour's queue (unres_qlen_bytes) would otherwise cut; ICMP,
        # so that every UDP checksum the counters see is the cell's.
        echo(fam, c["dst"])
        time.sleep(0.5)
        sent = 0
        t0 = time.monotonic()
        for i in range(c["count"]):
            # Paced: the counted datagrams judge checksums, and a receiver
            # starved of CPU under TCG must not overrun its NIC's ring
            # (the flood below is the throughput sample).
            if i % 20 == 19:
                time.sleep(0.002)
            # A full queue or a neighbour not yet resolved: wait, not drop.
            while True:
                try:
                    s.sendto(data, (c["dst"], c["port"]))
                    break
                except (BlockingIOError, OSError) as e:
                    if getattr(e, "errno", 0) not in (11, 105, 111):
                        raise
                    time.sleep(0.001)
            sent += 1
        t1 = time.monotonic()
        s.close()
        c.update(t_send0=t0, t_send1=t1)
        time.sleep(DRAIN_S)
        after = counters(names)
        flood = c.get("flood", 0)
        if flood:
            # The throughput sample: as fast as the socket takes them, to
            # the cell's port + FLOOD_PORT_OFFSET (judged apart: losses
            # here are the measure, not an error).
            data = payload(c["size"], c["port"] + FLOOD_PORT_OFFSET)
            s = socket.socket(fam, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, 32, 4 << 20)
            s.setblocking(False)
            n = 0
            while n < flood:
                try:
                    s.sendto(data, (c["dst"], c["port"] + FLOOD_PORT_OFFSET))
                    n += 1
                except BlockingIOError:
                    time.sleep(0.0005)
            s.close()
            time.sleep(DRAIN_S)
        r = dict(c, sent=sent, send_seconds=t1 - t0,
                 counters=delta(before, after))
        with open(results, "a") as f:
            f.write(json.dumps(r) + "\n")
        print("cell %s: sent %d in %.2f s" % (c["id"], sent, t1 - t0),
              flush=True)


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "recv":
        recv(sys.argv[2], sys.argv[3], [int(p) for p in sys.argv[4:]])
    elif len(sys.argv) == 4 and sys.argv[1] == "send":
        send(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
