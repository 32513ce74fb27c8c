#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check a run of the guest checksum suite and print its table.

    analyze.py RUNDIR [--expect-8139cp patched|unpatched] [--json FILE]

RUNDIR is what kernel/guest/csum/csum-suite.sh left in $HWCSUM_OUT:
cases.txt, results.json, tx.pcap (the sending NIC), rx.pcap (the receiving
NIC), nics. Every frame of both captures is decoded down to the innermost
transport header, through VXLAN (4789), GENEVE (6081), FOU (5555 IPv4,
5565 IPv6) and GUE (5556, 5566), and every checksum in it (IPv4 header, each
UDP and TCP header) is recomputed:

  ok       the checksum is right
  none     IPv4 UDP without checksum (0): allowed
  partial  the field holds the pseudo-header seed of a CHECKSUM_PARTIAL
           packet, i.e. the checksum is still to be filled in by the NIC
  bad      anything else

A frame received by a NIC (rx.pcap towards the receiver, tx.pcap towards the
sender: replies and ACKs) must have no partial or bad checksum: that is the
wire. A frame sent by the sending NIC (tx.pcap, seen by AF_PACKET just
before ndo_start_xmit()) tells who computes its checksum: "partial" means
the driver got it as CHECKSUM_PARTIAL (the NIC or the driver fills it),
"ok" means the stack computed it before the driver (software).

The run fails when a case lost or corrupted data, a checksum error counter
(/proc/net/snmp, snmp6, netstat *InCsumErrors, both namespaces) moved, a
received frame has a partial or bad checksum, a case has no frame at all in
a capture, or, with --expect-8139cp, the 8139cp decisions are not the
expected ones: patched (ethtool -S tx_csum_hw/tx_csum_sw present, plain IPv4
in hardware only; what the chip cannot parse, IPv6 and inner checksums of
tunnels, resolved by the stack before the driver since ndo_features_check
strips the offload for it, so it never reaches the driver as partial; the
one exception is the outer UDP checksum of segments of a TCP stream in an
IPv6 tunnel (GSO_UDP_TUNNEL_CSUM): __skb_udp_tunnel_segment() decides it
from dev->features, not from what ndo_features_check left, so those
segments arrive partial and the driver's guard resolves them, before its
lock, and only them; the driver's counts equal to the partial frames in
the capture) or unpatched (IPv6 and tunnelled packets never reach the
driver as partial).
"""

import json
import os
import struct
import sys

TUNNEL_PORTS = {4789: 'vxlan', 6081: 'geneve', 5555: 'fou4', 5565: 'fou6',
                5556: 'gue', 5566: 'gue'}
CASE_PORT_BASE = 20000


def read_pcap(path):
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24:
        return []
    magic = data[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        endian = '<'
    elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        endian = '>'
    else:
        raise ValueError(f'{path}: not a pcap file')
    frac = 1e-9 if magic in (b'\x4d\x3c\xb2\xa1', b'\xa1\xb2\x3c\x4d') else 1e-6
    linktype = struct.unpack(endian + 'I', data[20:24])[0]
    if linktype != 1:
        raise ValueError(f'{path}: link type {linktype}, expected Ethernet')
    frames = []
    off = 24
    rec = struct.Struct(endian + 'IIII')
    while off + rec.size <= len(data):
        sec, sub, caplen, origlen = rec.unpack_from(data, off)
        off += rec.size
        frames.append((data[off:off + caplen], origlen, sec + sub * frac))
        off += caplen
    return frames


def ones_sum(data, start=0):
    if len(data) % 2:
        data += b'\0'
    total = start + sum(struct.unpack(f'!{len(data) // 2}H', data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return total


def l4_status(l4, pseudo, proto, ipv4):
    """Classify the checksum of a UDP or TCP segment `l4`."""
    field_off = 6 if proto == 17 else 16
    if len(l4) < field_off + 2:
        return 'bad'
    field = struct.unpack_from('!H', l4, field_off)[0]
    if proto == 17 and field == 0:
        return 'none' if ipv4 else 'bad'
    if ones_sum(pseudo + l4) == 0xffff:
        return 'ok'
    # CHECKSUM_PARTIAL: the field holds the folded pseudo-header sum.
    if field == ones_sum(pseudo):
        return 'partial'
    return 'bad'


def decode_ip(pkt, version, checks):
    """Decode an IP packet: append (what, status) to checks and return the
    innermost (proto, sport, dport) or None."""
    if version == 4:
        if len(pkt) < 20:
            checks.append(('ipv4', 'bad'))
            return None
        ihl = (pkt[0] & 0x0f) * 4
        total = struct.unpack_from('!H', pkt, 2)[0]
        checks.append(('ipv4', 'ok' if ones_sum(pkt[:ihl]) == 0xffff
                       else 'bad'))
        frag = struct.unpack_from('!H', pkt, 6)[0]
        proto = pkt[9]
        # TSO frames seen before the NIC may carry a total length of 0.
        end = total if total >= ihl else len(pkt)
        l4 = pkt[ihl:end]
        if frag & 0x3fff:
            checks.append(('fragment', 'frag'))
            return None
        pseudo = pkt[12:20] + struct.pack('!BBH', 0, proto, len(l4))
    else:
        if len(pkt) < 40:
            checks.append(('ipv6', 'bad'))
            return None
        plen = struct.unpack_from('!H', pkt, 4)[0]
        proto = pkt[6]
        off = 40
        # Hop-by-hop, routing, destination options (ip6tnl's encap limit).
        while proto in (0, 43, 60) and off + 2 <= len(pkt):
            proto, off = pkt[off], off + (pkt[off + 1] + 1) * 8
        if proto == 44:
            checks.append(('fragment', 'frag'))
            return None
        end = 40 + plen if plen else len(pkt)
        l4 = pkt[off:end]
        pseudo = pkt[8:40] + struct.pack('!IxxxB', len(l4), proto)
    if proto == 4:
        return decode_ip(l4, 4, checks)
    if proto == 41:
        return decode_ip(l4, 6, checks)
    if proto not in (6, 17) or len(l4) < 8:
        return (proto, 0, 0)
    name = 'udp' if proto == 17 else 'tcp'
    checks.append((f'{name}{version}', l4_status(l4, pseudo, proto,
                                                 version == 4)))
    sport, dport = struct.unpack_from('!HH', l4)
    if proto == 17 and dport in TUNNEL_PORTS:
        inner = decode_tunnel(TUNNEL_PORTS[dport], l4[8:], checks)
        if inner is not None:
            return inner
    return (proto, sport, dport)


def decode_tunnel(kind, payload, checks):
    if kind == 'vxlan':
        return decode_eth(payload[8:], checks)
    if kind == 'geneve':
        if len(payload) < 8:
            return None
        hlen = 8 + (payload[0] & 0x3f) * 4
        return decode_eth(payload[hlen:], checks)
    if kind in ('fou4', 'fou6'):
        return decode_ip(payload, 4 if kind == 'fou4' else 6, checks)
    # GUE version 0: 4 bytes + hlen words, protocol in byte 1; version 1
    # is the inner IP header itself.
    if not payload:
        return None
    if payload[0] >> 6 == 1:
        return decode_ip(payload, payload[0] >> 4, checks)
    hlen = 4 + (payload[0] & 0x1f) * 4
    proto = payload[1]
    if proto in (4, 41):
        return decode_ip(payload[hlen:], 4 if proto == 4 else 6, checks)
    return None


def decode_eth(frame, checks):
    if len(frame) < 14:
        return None
    etype = struct.unpack_from('!H', frame, 12)[0]
    off = 14
    while etype in (0x8100, 0x88a8) and off + 4 <= len(frame):
        etype = struct.unpack_from('!H', frame, off + 2)[0]
        off += 4
        checks.append(('vlan', 'tag'))
    if etype == 0x0800:
        return decode_ip(frame[off:], 4, checks)
    if etype == 0x86dd:
        return decode_ip(frame[off:], 6, checks)
    return None


def case_of(flow, ncases):
    if flow is None:
        return None
    proto, sport, dport = flow
    for port in (dport, sport):
        if CASE_PORT_BASE <= port < CASE_PORT_BASE + ncases:
            return port - CASE_PORT_BASE
    return None


def mac_str(b):
    return ':'.join(f'{x:02x}' for x in b)


def new_stats():
    return {'wire_frames': 0, 'wire_bad': 0, 'wire_partial': 0,
            'wire_frag': 0, 'tx_partial': 0, 'tx_full': 0, 'tx_frames': 0,
            'tx_partial_v4plain': 0, 'tx_partial_other': 0}


def rtl8139_can_sum(checks):
    """Whether the partial checksum of a frame is one the rtl8139 C+ engine
    fills: the TCP/UDP header right after the outermost IPv4 header of an
    untagged frame."""
    return (len(checks) >= 2 and checks[0][0] == 'ipv4' and
            checks[1][0] in ('udp4', 'tcp4') and checks[1][1] == 'partial')


def scan(path, own_mac, ncases, stats, other, where, window=None):
    """Account the frames of one capture; own_mac is the captured NIC."""
    problems = []
    for n, (frame, origlen, ts) in enumerate(read_pcap(path), 1):
        checks = []
        flow = decode_eth(frame, checks)
        if not checks:
            continue        # ARP and other non-IP frames
        cid = case_of(flow, ncases)
        st = stats[cid] if cid is not None else other
        outgoing = mac_str(frame[6:12]) == own_mac
        statuses = [s for _, s in checks]
        if outgoing:
            if where != 'tx':
                continue    # the receiver's replies: checked on the wire
            st['tx_frames'] += 1
            if 'partial' in statuses:
                st['tx_partial'] += 1
                can = rtl8139_can_sum(checks)
                if can:
                    st['tx_partial_v4plain'] += 1
                else:
                    st['tx_partial_other'] += 1
                if window and window[0] < ts < window[1]:
                    window[2 if can else 3] += 1
            else:
                st['tx_full'] += 1
            continue
        st['wire_frames'] += 1
        if len(frame) < origlen:
            st['wire_bad'] += 1
            problems.append(f'{where}.pcap frame {n}: truncated')
        if 'frag' in statuses:
            st['wire_frag'] += 1
        if 'partial' in statuses:
            st['wire_partial'] += 1
        if 'bad' in statuses or 'partial' in statuses:
            st['wire_bad'] += 1
            problems.append(f'{where}.pcap frame {n} (case {cid}): ' +
                            ', '.join(f'{w} {s}' for w, s in checks))
    return problems


def read_counters(path):
    if not os.path.exists(path):
        return None
    found = {}
    with open(path) as f:
        for line in f:
            parts = line.replace(':', ' ').split()
            if len(parts) == 2 and parts[0] in ('cut', 'tx_csum_hw',
                                                'tx_csum_sw'):
                found[parts[0]] = float(parts[1])
    return found


def main(argv):
    args = argv[1:]
    expect = None
    json_out = None
    while len(args) > 1 and args[-2].startswith('--'):
        opt, val = args[-2:]
        args = args[:-2]
        if opt == '--expect-8139cp' and val in ('patched', 'unpatched'):
            expect = val
        elif opt == '--json':
            json_out = val
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    run = args[0]
    with open(os.path.join(run, 'results.json')) as f:
        results = json.load(f)
    macs = {}
    with open(os.path.join(run, 'nics')) as f:
        for line in f:
            idx, _, _, mac = line.split()
            macs[int(idx)] = mac.lower()
    info = {}
    with open(os.path.join(run, 'info.txt')) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0] in ('model', 'kernel', 'driver'):
                info[parts[0]] = parts[1]

    ncases = len(results)
    stats = [new_stats() for _ in range(ncases)]
    other = new_stats()
    problems = scan(os.path.join(run, 'rx.pcap'), macs[1], ncases, stats,
                    other, 'rx')
    # Patched 8139cp: its counters read at two cut points of the capture.
    window = None
    cuts = [read_counters(os.path.join(run, f'counters-{w}.txt'))
            for w in ('start', 'end')]
    if cuts[0] and cuts[1]:
        window = [cuts[0]['cut'], cuts[1]['cut'], 0, 0]
    problems += scan(os.path.join(run, 'tx.pcap'), macs[0], ncases, stats,
                     other, 'tx', window)

    is_8139cp = info.get('driver') == '8139cp'
    rows = []
    for res, st in zip(results, stats):
        fail = []
        csum_err = (sum(res['rx_csum_errors'].values()) +
                    sum(res['tx_csum_errors'].values()))
        drv = res.get('drv')
        if res['error']:
            fail.append(res['error'])
        if res['received'] != res['sent'] or res['content_errors']:
            fail.append(f'received {res["received"]}/{res["sent"]}, '
                        f'{res["content_errors"]} corrupted')
        if csum_err:
            fail.append(f'InCsumErrors moved: rx {res["rx_csum_errors"]} '
                        f'tx {res["tx_csum_errors"]}')
        if st['wire_bad']:
            fail.append(f'{st["wire_bad"]} received frames with a bad or '
                        'partial checksum')
        if st['wire_frag']:
            fail.append(f'{st["wire_frag"]} fragments (not verifiable)')
        if not st['wire_frames'] or not st['tx_frames']:
            fail.append('no frame of this case in a capture')
        plain4 = res['tunnel'] == 'plain' and res['family'] == 4
        can, cannot = st['tx_partial_v4plain'], st['tx_partial_other']
        if is_8139cp and expect == 'patched':
            # The spec's decision, frame by frame, must be what the
            # capture says the chip can parse. What it cannot parse is
            # resolved by the stack, not in the driver (issue 12, bug 2),
            # except the outer UDP checksum of TCP segments in an IPv6
            # tunnel, which software GSO leaves partial (see above): there
            # the xmit-time guard, before cp->lock, resolves exactly those.
            gso_outer6 = (res['proto'] == 'tcp' and res['family'] == 6 and
                          res['tunnel'] != 'plain')
            if drv is None:
                fail.append('8139cp without tx_csum_hw/tx_csum_sw counters')
            else:
                if plain4 and (can == 0 or cannot != 0):
                    fail.append('plain IPv4 not all for the chip')
                if cannot != drv['tx_csum_sw']:
                    fail.append(f'{cannot} frames reached the driver partial '
                                'with a checksum the chip cannot fill, '
                                f'the guard resolved {drv["tx_csum_sw"]}')
                if drv['tx_csum_sw'] and not gso_outer6:
                    fail.append(f'the driver resolved {drv["tx_csum_sw"]} '
                                'checksums the stack should have (only GSO '
                                'segments of an IPv6 tunnel may reach it)')
        if is_8139cp and expect == 'unpatched' and cannot:
            fail.append(f'{cannot} frames reached the unpatched driver with '
                        'a checksum the chip cannot fill')
        if drv is not None:
            hw, sw = drv['tx_csum_hw'], drv['tx_csum_sw'] + st['tx_full']
        else:
            hw, sw = st['tx_partial'], st['tx_full']
        row = {'model': info.get('model', '?'), 'kernel_driver':
               info.get('driver', '?'), 'proto': res['proto'],
               'tunnel': res['tunnel'], 'family': f'ipv{res["family"]}',
               'sent': res['sent'], 'received': res['received'],
               'csum_errors': csum_err, 'wire_frames': st['wire_frames'],
               'wire_bad': st['wire_bad'], 'tx_frames': st['tx_frames'],
               'tx_partial': st['tx_partial'], 'tx_full': st['tx_full'],
               'tx_partial_v4plain': can, 'tx_partial_other': cannot,
               'drv_hw': drv['tx_csum_hw'] if drv else None,
               'drv_sw': drv['tx_csum_sw'] if drv else None,
               'offload_hw': hw, 'offload_sw': sw,
               'verdict': 'FAIL: ' + '; '.join(fail) if fail else 'ok'}
        rows.append(row)

    head = (f'{"model":8} {"proto":5} {"tunnel":6} {"family":6} {"sent":>4} '
            f'{"recv":>4} {"csumerr":>7} {"wire":>5} {"bad":>3} '
            f'{"txpart":>6} {"txfull":>6} {"drvhw":>5} {"drvsw":>5} '
            f'{"hw":>4} {"sw":>4}  verdict')
    lines = [head, '-' * len(head)]
    for r in rows:
        def opt(v):
            return '-' if v is None else str(v)
        lines.append(f'{r["model"]:8} {r["proto"]:5} {r["tunnel"]:6} '
                     f'{r["family"]:6} {r["sent"]:4} {r["received"]:4} '
                     f'{r["csum_errors"]:7} {r["wire_frames"]:5} '
                     f'{r["wire_bad"]:3} {r["tx_partial"]:6} '
                     f'{r["tx_full"]:6} {opt(r["drv_hw"]):>5} '
                     f'{opt(r["drv_sw"]):>5} {r["offload_hw"]:4} '
                     f'{r["offload_sw"]:4}  {r["verdict"]}')
    lines.append(f'other frames (ARP/ND, non-case): received '
                 f'{other["wire_frames"]}, bad {other["wire_bad"]}')
    failed = sum(r['verdict'] != 'ok' for r in rows) + (other['wire_bad'] > 0)
    whole = None
    if window:
        # Every CHECKSUM_PARTIAL frame the driver got between the cuts,
        # background traffic included, against the driver's own decisions.
        whole = {'drv_hw': int(cuts[1]['tx_csum_hw'] - cuts[0]['tx_csum_hw']),
                 'drv_sw': int(cuts[1]['tx_csum_sw'] - cuts[0]['tx_csum_sw']),
                 'capture_hw': window[2], 'capture_sw': window[3]}
        ok = (whole['drv_hw'], whole['drv_sw']) == (window[2], window[3])
        lines.append(f'whole run, 8139cp decisions: driver hw '
                     f'{whole["drv_hw"]} sw {whole["drv_sw"]}; capture '
                     f'(chip can parse / cannot) {window[2]} / {window[3]}: '
                     f'{"match" if ok else "MISMATCH"}')
        failed += not ok
    elif is_8139cp and expect == 'patched':
        lines.append('8139cp without driver counters at the cuts: FAIL')
        failed += 1
    lines.append(f'kernel {info.get("kernel", "?")}, driver '
                 f'{info.get("driver", "?")}: {len(rows)} cases, '
                 f'{failed} failed')
    text = '\n'.join(lines)
    print(text)
    for p in problems[:20]:
        print('  ' + p)
    with open(os.path.join(run, 'csum-table.txt'), 'w') as f:
        f.write(text + '\n')
    summary = {'kernel': info.get('kernel'), 'driver': info.get('driver'),
               'rows': rows, 'other': other, 'whole_run_8139cp': whole,
               'problems': problems[:200]}
    with open(json_out or os.path.join(run, 'csum-table.json'), 'w') as f:
        json.dump(summary, f, indent=1)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
