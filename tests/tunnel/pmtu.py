#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Traffic and oracle for toobig.sh (scapy, tshark): frames around the
underlay MTU (1500, net_pcap's default) for every tunnel type.

pmtu.py gen DIR      gw.ini, inner_<t>.pcap (frames at the limit and one
                     byte or more beyond it), expect_<t>.pcap (what the
                     round trip gives back: the frames at the limit),
                     reply_<t>.pcap (the ICMP answers scapy builds itself),
                     counts (encap, too_big, icmp, what the log must say)
pmtu.py replies DIR  inner_out_<t>.pcap holds reply_<t>.pcap byte for byte,
                     and tshark finds every ICMP/ICMPv6 and IPv4 checksum good
pmtu.py underlay DIR under.pcap: every outer IP packet exactly 1500 bytes,
                     as many per tunnel as frames at the limit were sent
"""
import os
import struct
import subprocess
import sys

from scapy.all import (ICMP, IP, TCP, UDP, Dot1Q, Ether, ICMPv6EchoRequest,
                       ICMPv6PacketTooBig, IPOption_Router_Alert, IPv6, Raw, rdpcap, wrpcap)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edges import remote, write_ini  # noqa: E402
from frames import HOST_MAC, VM_MAC  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pcap_csum  # noqa: E402

MTU = 1500
INNER_MACS = [("inner_dst_mac", HOST_MAC), ("inner_src_mac", VM_MAC)]


def geneve_opts(n):
    """n option bytes as geneve_opt keys, 64 bytes an option (rte_cfgfile
    keeps 255 characters of a value), none critical (critical.sh)."""
    keys, left, t = [], n, 1
    while left:
        size = min(left, 64)
        keys.append(("geneve_opt", "0x0102:0x%02x:%s" % (t, "a5" * (size - 4))))
        left -= size
        t += 1
    return keys


# name, type, vni, family, option bytes, keys. The overhead of each differs.
TUNNELS = [
    ("vx4", "vxlan", 120, 4, 0, []),
    ("vx6", "vxlan", 121, 6, 0, []),
    ("gn4", "geneve", 220, 4, 16, []),
    ("gn6", "geneve", 221, 6, 128, []),	# longer than the headroom: chained
    ("gpe4", "vxlan-gpe", 320, 4, 0, []),
    ("gpi6", "vxlan-gpe", 321, 6, 0, [("gpe_payload", "ip")] + INNER_MACS),
    ("gue4", "gue", None, 4, 0, INNER_MACS),
]


def carries_ip(typ, keys):
    return typ == "gue" or ("gpe_payload", "ip") in keys


def limit(name):
    """Largest payload (frame, or IP packet) within the MTU: the outer IP,
    UDP and tunnel headers are the overhead."""
    _, typ, _, fam, opts, _ = [t for t in TUNNELS if t[0] == name][0]
    return MTU - ((20 if fam == 4 else 40) + 8 + (4 if typ == "gue" else 8) + opts)


PATTERN = bytes(range(256)) * 40


def sized(l2, l3, l4, ip_len):
    """l2 / l3 / l4 with a payload making the IP packet ip_len bytes."""
    head = len(bytes(l3 / l4))
    return Ether(bytes(l2 / l3 / l4 / Raw(PATTERN[:ip_len - head])))


def frames(ip_tunnel, lim):
    """(frame, passes, answered) for one tunnel whose limit is lim."""
    e = Ether(src=VM_MAC, dst=HOST_MAC)
    tag = Dot1Q(vlan=7)
    l2 = 0 if ip_tunnel else 14		# the IP length making the payload lim
    v4 = dict(src="198.51.100.1", dst="198.51.100.2", ttl=61)
    v6 = dict(src="2001:db8:1::1", dst="2001:db8:1::2", hlim=59)
    udp, tcp = UDP(sport=1111, dport=2222), TCP(sport=3333, dport=80, flags="A")
    unreach = ICMP(type=3, code=1) / IP(src="198.51.100.2", dst="203.0.113.9") / UDP()
    out = [
        (sized(e, IP(flags="DF", **v4), udp, lim - l2), True, False),
        (sized(e, IP(flags="DF", **v4), udp, lim - l2 + 1), False, True),
        (sized(e, IP(flags=0, **v4), udp, lim - l2 + 1), False, False),	# no DF
        (sized(e, IPv6(**v6), udp, lim - l2), True, False),
        (sized(e, IPv6(**v6), tcp, lim - l2 + 1), False, True),
        (sized(e, IP(flags="DF", **v4), tcp, 9000), False, True),	# a 9014-byte frame
        (sized(e, IPv6(**v6), ICMPv6EchoRequest(), 9000), False, True),
        # options: the general walker, and a longer quote
        (sized(e, IP(flags="DF", options=[IPOption_Router_Alert()], **v4), udp,
               lim - l2 + 1),
         False, True),
        (sized(e, IP(flags="DF", **v4), unreach, lim - l2 + 1), False, False),	# an error
    ]
    if not ip_tunnel:
        out += [
            (sized(e / tag, IP(flags="DF", **v4), udp, lim - 18), True, False),
            (sized(e / tag, IP(flags="DF", **v4), udp, lim - 18 + 1), False, True),
            (Ether(bytes(Ether(src=VM_MAC, dst=HOST_MAC, type=0x88b5) /
                         Raw(PATTERN[:lim + 1 - 14]))), False, False),	# not IP
        ]
    return out


def reply(f, mtu):
    """The answer as Linux builds it (iptunnel_pmtud_build_icmp{,v6}()),
    quoting RFC 792's IP header + 8 bytes for IPv4, up to 1280 for IPv6;
    checksums by scapy."""
    eth = Ether(dst=f.src, src=f.dst)
    if Dot1Q in f:
        eth = eth / Dot1Q(vlan=f[Dot1Q].vlan)
    raw = bytes(f)
    l3 = 18 if Dot1Q in f else 14
    if IP in f:
        ip = f[IP]
        quote = raw[l3:l3 + ip.ihl * 4 + 8]
        return Ether(bytes(eth / IP(src=ip.dst, dst=ip.src, ttl=ip.ttl, flags="DF", id=0) /
                           ICMP(type=3, code=4, nexthopmtu=mtu) / Raw(quote)))
    ip6 = f[IPv6]
    quote = raw[l3:l3 + min(40 + ip6.plen, 1280 - 48)]
    return Ether(bytes(eth / IPv6(src=ip6.dst, dst=ip6.src, hlim=ip6.hlim) /
                       ICMPv6PacketTooBig(mtu=mtu) / Raw(quote)))


def back(f, ip_tunnel):
    """What decapsulation gives back: GUE and VXLAN-GPE carrying IP rebuild
    the Ethernet header from inner_dst_mac / inner_src_mac."""
    if not ip_tunnel:
        return f
    return Ether(bytes(Ether(src=VM_MAC, dst=HOST_MAC, type=f.type)) + bytes(f)[14:])


def gen(d):
    write_ini(d, [(n, t, v, fam, geneve_opts(o) + k) for n, t, v, fam, o, k in TUNNELS])
    counts = {"encap": 0, "too_big": 0, "icmp": 0}
    for name, typ, _, fam, opts, keys in TUNNELS:
        ip_tunnel = carries_ip(typ, keys)
        lim = limit(name)
        fs = frames(ip_tunnel, lim)
        wrpcap(os.path.join(d, "inner_%s.pcap" % name), [f for f, _, _ in fs])
        wrpcap(os.path.join(d, "expect_%s.pcap" % name),
               [back(f, ip_tunnel) for f, ok, _ in fs if ok])
        # The next-hop MTU is the IP packet's: less the VM's Ethernet header
        # (and tag) where the tunnel carries it.
        replies = [reply(f, lim - (0 if ip_tunnel else 18 if Dot1Q in f else 14))
                   for f, _, answered in fs if answered]
        wrpcap(os.path.join(d, "reply_%s.pcap" % name), replies, linktype=1)
        counts["encap"] += sum(ok for _, ok, _ in fs)
        counts["too_big"] += sum(not ok for _, ok, _ in fs)
        counts["icmp"] += len(replies)
    with open(os.path.join(d, "counts"), "w") as f:
        f.write("%(encap)d %(too_big)d %(icmp)d\n" % counts)


def tshark(path, fields, prefs=()):
    out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-E", "separator=|"] +
                         sum((["-o", p] for p in prefs), []) +
                         sum((["-e", f] for f in fields), []),
                         capture_output=True, text=True, check=True).stdout
    return [line.split("|") for line in out.splitlines()]


def expected_mtu(p):
    return p[ICMP].nexthopmtu if ICMP in p else p[ICMPv6PacketTooBig].mtu


def replies(d):
    failed = 0
    every, what = [], []
    for name, *_ in TUNNELS:
        want = rdpcap(os.path.join(d, "reply_%s.pcap" % name))
        got = rdpcap(os.path.join(d, "inner_out_%s.pcap" % name))
        if [bytes(p) for p in got] == [bytes(p) for p in want]:
            print("ok: %s: %d ICMP answers, byte for byte scapy's" % (name, len(got)))
        else:
            failed += 1
            print("FAIL: %s: %d ICMP answers, want %d" % (name, len(got), len(want)))
            for i, (x, y) in enumerate(zip(want, got)):
                if bytes(x) != bytes(y):
                    print("  answer %d:\n    want %s\n    got  %s"
                          % (i, bytes(x).hex(), bytes(y).hex()))
        every += got
        what += [(name, i, expected_mtu(p)) for i, p in enumerate(want[:len(got)])]
    # tshark's own reading of all of them (one run): type, code and MTU of
    # the answer (the first value; later ones are the quoted packet's), and
    # its checksums good, no checksum of the quote bad.
    path = os.path.join(d, "answers.pcap")
    wrpcap(path, every, linktype=1)
    fields = ["icmp.type", "icmp.code", "icmp.mtu", "icmpv6.type", "icmpv6.code", "icmpv6.mtu"]
    rows = pcap_csum.frames(path, fields=fields)
    for (name, i, mtu), row in zip(what, rows):
        t4, c4, m4, t6, c6, m6 = [row.fields[f].split(",") for f in fields]
        v4 = t4 != [""]
        kind = (t4[0], c4[0], m4[0]) if v4 else (t6[0], c6[0], m6[0])
        st4 = row.status.get("icmp", [])
        sums = row.status.get("ip", []) + st4 if v4 else row.status.get("icmpv6", [])
        want = ("3", "4", str(mtu)) if v4 else ("2", "0", str(mtu))
        if kind == want and sums[:1] == ["good"] and (not v4 or st4[:1] == ["good"]) and \
           "bad" not in sums:
            print("ok: tshark: %s answer %d: %s, MTU %d, checksums good"
                  % (name, i, "ICMP 3/4" if v4 else "ICMPv6 2/0", mtu))
        else:
            failed += 1
            print("FAIL: tshark: %s answer %d: %s, want type/code/MTU %s"
                  % (name, i, "|".join(row.fields[f] for f in fields) + " " + str(row),
                     "/".join(want)))
    if len(rows) != len(what):
        failed += 1
        print("FAIL: tshark read %d answers of %d" % (len(rows), len(what)))
    return failed


def underlay(d):
    failed = 0
    want = {n: len(rdpcap(os.path.join(d, "expect_%s.pcap" % n))) for n, *_ in TUNNELS}
    seen = {n: 0 for n in want}
    byremote = {remote(i, t[3]): t[0] for i, t in enumerate(TUNNELS)}
    for k, (protos, ipdst, ip6dst, iplen, ip6plen) in enumerate(
            tshark(os.path.join(d, "under.pcap"), ["frame.protocols", "ip.dst", "ipv6.dst",
                                                   "ip.len", "ipv6.plen"])):
        outer6 = protos.startswith("eth:ethertype:ipv6")
        dst = ip6dst.split(",")[0] if outer6 else ipdst.split(",")[0]
        name = byremote[dst]
        n = 40 + int(ip6plen.split(",")[0]) if outer6 else int(iplen.split(",")[0])
        seen[name] += 1
        if n == MTU:
            print("ok: tshark: %s packet %d: outer IP length %d, the MTU" % (name, k, n))
        else:
            failed += 1
            print("FAIL: tshark: %s packet %d: outer IP length %d, want %d" % (name, k, n, MTU))
    for n in want:
        if seen[n] != want[n]:
            failed += 1
            print("FAIL: %s: %d packets on the underlay, %d at the limit sent" % (n, seen[n], want[n]))
    return failed


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "gen":
        gen(sys.argv[2])
    elif cmd == "replies":
        sys.exit(1 if replies(sys.argv[2]) else 0)
    elif cmd == "underlay":
        sys.exit(1 if underlay(sys.argv[2]) else 0)
    else:
        sys.exit("unknown command " + cmd)
