#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Short UDP and TCP bursts for the guest checksum suite.

    traffic.py receive CASES PIDFILE       (in the receiver's namespace)
    traffic.py send CASES RESULTS RXPID [--tx-dev DEV]   (in the sender's)

CASES has one case per line: "id proto tunnel family dst port". The
receiver listens on every (dst, port), checks every byte it gets against the
pattern the sender used and reports its counts back over the same path. The
sender runs the cases one after the other and records, around each case, the
checksum error counters of both namespaces (the receiver's through
/proc/RXPID/net) and, when the sending NIC's driver exports them in
ethtool -S (patched 8139cp), its tx_csum_hw / tx_csum_sw counters.
Results go to RESULTS as JSON. Only the standard library: the guest runs the
host's /usr/bin/python3 over 9p, and every import costs seconds under TCG.
"""

import json
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

MAGIC = b'HWCS'
UDP_HDR = struct.Struct('!4sHHI')        # magic, case, kind, seq
TCP_HDR = struct.Struct('!4sHII')        # magic, case, seq, length
KIND_DATA, KIND_PROBE, KIND_END = 0, 1, 2
REPLY = struct.Struct('!4sHII')          # magic, kind, good, bad

UDP_COUNT = 40
# Odd and even lengths, tiny to well inside the 1400-byte tunnel MTU: no IP
# fragmentation (the IPv6 tunnels' path MTU is below 1400), so every frame
# carries its L4 header and every checksum can be checked per frame.
UDP_SIZES = (1, 2, 3, 17, 64, 255, 333, 512, 777, 999, 1111, 1200, 1233)
TCP_COUNT = 30
TCP_SIZES = (1, 7, 100, 1000, 1459, 3000, 4097, 8191)


def payload(case, seq, length):
    return random.Random(case * 1000003 + seq).randbytes(length)


def udp_size(seq):
    return UDP_SIZES[seq % len(UDP_SIZES)]


def tcp_size(seq):
    return TCP_SIZES[seq % len(TCP_SIZES)]


def read_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            cid, proto, tunnel, family, dst, port = line.split()
            cases.append({'id': int(cid), 'proto': proto, 'tunnel': tunnel,
                          'family': int(family), 'dst': dst,
                          'port': int(port)})
    return cases


def family_of(case):
    return socket.AF_INET if case['family'] == 4 else socket.AF_INET6


# ---------------------------------------------------------------- receiver

def serve_udp(case, sock):
    good = bad = 0
    while True:
        data, peer = sock.recvfrom(65535)
        if len(data) < UDP_HDR.size:
            bad += 1
            continue
        magic, cid, kind, seq = UDP_HDR.unpack_from(data)
        if magic != MAGIC or cid != case['id']:
            bad += 1
        elif kind == KIND_PROBE:
            good = bad = 0
            sock.sendto(REPLY.pack(MAGIC, kind, 0, 0), peer)
        elif kind == KIND_END:
            sock.sendto(REPLY.pack(MAGIC, kind, good, bad), peer)
        elif data[UDP_HDR.size:] == payload(cid, seq, udp_size(seq)):
            good += 1
        else:
            bad += 1


def recv_exact(conn, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def serve_tcp(case, sock):
    while True:
        conn, _ = sock.accept()
        good = bad = 0
        with conn:
            conn.settimeout(60)
            try:
                while True:
                    hdr = recv_exact(conn, TCP_HDR.size)
                    if hdr is None:
                        break
                    magic, cid, seq, length = TCP_HDR.unpack(hdr)
                    if magic != MAGIC or cid != case['id'] or length > 1 << 20:
                        bad += 1
                        break
                    data = recv_exact(conn, length)
                    if data == payload(cid, seq, length):
                        good += 1
                    else:
                        bad += 1
                conn.sendall(REPLY.pack(MAGIC, KIND_END, good, bad))
            except OSError as e:
                print(f'receiver: case {case["id"]}: {e}', file=sys.stderr)


def receive(cases_path, pidfile):
    threads = []
    for case in read_cases(cases_path):
        fam = family_of(case)
        if case['proto'] == 'udp':
            sock = socket.socket(fam, socket.SOCK_DGRAM)
            target = serve_udp
        else:
            sock = socket.socket(fam, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            target = serve_tcp
        sock.bind((case['dst'], case['port']))
        if case['proto'] == 'tcp':
            sock.listen(4)
        t = threading.Thread(target=target, args=(case, sock), daemon=True)
        t.start()
        threads.append(t)
    with open(pidfile + '.tmp', 'w') as f:
        f.write(f'{os.getpid()}\n')
    os.rename(pidfile + '.tmp', pidfile)
    print(f'receiver: listening for {len(threads)} cases', flush=True)
    while True:
        time.sleep(3600)


# ------------------------------------------------------------------ sender

CSUM_KEYS = ('Ip:InCsumErrors', 'IpExt:InCsumErrors', 'Icmp:InCsumErrors',
             'Tcp:InCsumErrors', 'Udp:InCsumErrors', 'UdpLite:InCsumErrors',
             'Icmp6InCsumErrors', 'Udp6InCsumErrors', 'UdpLite6InCsumErrors')


def csum_errors(procnet):
    """Every *InCsumErrors counter of one namespace, by name."""
    found = {}
    for name in ('snmp', 'netstat'):
        with open(os.path.join(procnet, name)) as f:
            lines = f.read().splitlines()
        for head, vals in zip(lines[0::2], lines[1::2]):
            keys, values = head.split(), vals.split()
            for k, v in zip(keys[1:], values[1:]):
                found[keys[0] + k] = int(v)
    with open(os.path.join(procnet, 'snmp6')) as f:
        for line in f:
            k, v = line.split()
            found[k] = int(v)
    return {k: found[k] for k in CSUM_KEYS if k in found}


def drv_counters(dev):
    if not dev:
        return None
    out = subprocess.run(['ethtool', '-S', dev], capture_output=True,
                         text=True, timeout=30).stdout
    stats = {}
    for line in out.splitlines():
        k, _, v = line.strip().partition(':')
        if k in ('tx_csum_hw', 'tx_csum_sw'):
            stats[k] = int(v)
    return stats or None


def delta(after, before):
    return {k: after[k] - before.get(k, 0) for k in after}


def send_udp(case, sock, addr):
    """Probe until the receiver answers (neighbour resolution, tunnel
    set-up), send the burst, then ask for the count."""
    def ask(kind, attempts):
        for _ in range(attempts):
            sock.sendto(UDP_HDR.pack(MAGIC, case['id'], kind, 0), addr)
            try:
                data = sock.recv(64)
            except socket.timeout:
                continue
            # A late answer to an earlier probe is not this answer.
            if len(data) == REPLY.size and REPLY.unpack(data)[1] == kind:
                return REPLY.unpack(data)[2:]
        raise TimeoutError(f'case {case["id"]}: no answer from {addr}')

    sock.settimeout(0.5)
    ask(KIND_PROBE, 40)
    for seq in range(1, UDP_COUNT + 1):
        body = payload(case['id'], seq, udp_size(seq))
        sock.sendto(UDP_HDR.pack(MAGIC, case['id'], KIND_DATA, seq) + body,
                    addr)
        time.sleep(0.002)   # a burst, not a flood: no qdisc or ring drops
    time.sleep(0.2)
    good, bad = ask(KIND_END, 20)
    return UDP_COUNT, good, bad


def send_tcp(case, addr):
    sock = socket.socket(family_of(case), socket.SOCK_STREAM)
    sock.settimeout(30)
    for attempt in range(10):
        try:
            sock.connect(addr)
            break
        except OSError:
            if attempt == 9:
                raise
            sock.close()
            time.sleep(0.5)
            sock = socket.socket(family_of(case), socket.SOCK_STREAM)
            sock.settimeout(30)
    with sock:
        for seq in range(1, TCP_COUNT + 1):
            body = payload(case['id'], seq, tcp_size(seq))
            sock.sendall(TCP_HDR.pack(MAGIC, case['id'], seq, len(body)) +
                         body)
        sock.shutdown(socket.SHUT_WR)
        reply = recv_exact(sock, REPLY.size)
    if reply is None:
        raise ConnectionError(f'case {case["id"]}: no count from receiver')
    _, _, good, bad = REPLY.unpack(reply)
    return TCP_COUNT, good, bad


def send(cases_path, results_path, rxpid, tx_dev):
    rx_procnet = f'/proc/{rxpid}/net'
    results = []
    failed = 0
    for case in read_cases(cases_path):
        addr = (case['dst'], case['port'])
        before = (csum_errors(rx_procnet), csum_errors('/proc/self/net'),
                  drv_counters(tx_dev))
        t0 = time.monotonic()
        error = None
        sent = good = bad = 0
        try:
            if case['proto'] == 'udp':
                sock = socket.socket(family_of(case), socket.SOCK_DGRAM)
                with sock:
                    sent, good, bad = send_udp(case, sock, addr)
            else:
                sent, good, bad = send_tcp(case, addr)
        except (OSError, TimeoutError) as e:
            error = str(e)
            failed += 1
        time.sleep(0.3)     # let the last ACKs and replies land
        after = (csum_errors(rx_procnet), csum_errors('/proc/self/net'),
                 drv_counters(tx_dev))
        res = dict(case)
        res.update(sent=sent, received=good, content_errors=bad,
                   error=error, seconds=round(time.monotonic() - t0, 2),
                   rx_csum_errors=delta(after[0], before[0]),
                   tx_csum_errors=delta(after[1], before[1]),
                   drv=(delta(after[2], before[2])
                        if after[2] is not None and before[2] is not None
                        else None))
        results.append(res)
        print(f'case {case["id"]:2} {case["proto"]} {case["tunnel"]:6} '
              f'ipv{case["family"]}: sent {sent} received {good} '
              f'bad {bad} drv {res["drv"]} '
              f'{"ERROR " + error if error else ""}', flush=True)
    with open(results_path, 'w') as f:
        json.dump(results, f, indent=1)
    return 1 if failed else 0


def main(argv):
    if len(argv) == 4 and argv[1] == 'receive':
        return receive(argv[2], argv[3])
    if len(argv) in (5, 7) and argv[1] == 'send':
        tx_dev = argv[6] if len(argv) == 7 and argv[5] == '--tx-dev' else None
        return send(argv[2], argv[3], int(argv[4]), tx_dev)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
