#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Traffic for critical.sh (scapy).

edges.py critical DIR   gw.ini with GENEVE tunnels (critical options or
                        not), inner_<t>.pcap, remote.pcap (GENEVE from a
                        remote VTEP, C flag set or clear), expect_<t>.pcap
"""
import os
import struct
import sys

from scapy.all import IP, TCP, UDP, Ether, IPv6, Raw, wrpcap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frames import GW_MAC, HOST_MAC, PEER_MAC, VM_MAC  # noqa: E402

LOCAL4, LOCAL6 = "192.0.2.1", "2001:db8::1"


def remote(i, fam):
    """A remote VTEP per tunnel, so the oracle tells tunnels apart."""
    return "192.0.2.%d" % (10 + i) if fam == 4 else "2001:db8::%x" % (0x10 + i)


def write_ini(d, tunnels):
    wrpcap(os.path.join(d, "empty.pcap"), [], linktype=1)
    lines = ["[global]", "underlay = net_hwcsum0", "stats_interval = 0", ""]
    for i, (name, typ, vni, fam, extra) in enumerate(tunnels):
        lines += ["[tunnel:%s]" % name, "type = %s" % typ,
                  "inner_port = net_hwcsum%d" % (i + 1),
                  "local = %s" % (LOCAL4 if fam == 4 else LOCAL6),
                  "remote = %s" % remote(i, fam),
                  "remote_mac = %s" % PEER_MAC, "local_mac = %s" % GW_MAC]
        if vni is not None:
            lines.append("vni = %d" % vni)
        for k, v in extra:
            lines.append("%s = %s" % (k, v))
        lines.append("")
    with open(os.path.join(d, "gw.ini"), "w") as f:
        f.write("\n".join(lines))


# RFC 8926: (class, type, data); type bit 0x80 is "critical".
CRIT_TUNNELS = [
    ("gc4", "geneve", 210, 4, [(0x0102, 0x80, "11223344"), (0x0103, 0x01, "aabbccdd")]),
    ("gc6", "geneve", 211, 6, [(0x0104, 0x01, "01020304"), (0x0105, 0xff, "0a0b0c0d")]),
    ("gp4", "geneve", 212, 4, [(0x0106, 0x7f, "11111111")]),
    ("gz6", "geneve", 213, 6, []),
]


def geneve(vni, opts, crit):
    """RFC 8926 header, Ethernet payload, C flag as asked."""
    o = b"".join(struct.pack("!HBB", c, t, len(h) // 8) + bytes.fromhex(h)
                 for c, t, h in opts)
    return Raw(struct.pack("!BBH", len(o) // 4, 0x40 if crit else 0, 0x6558) +
               vni.to_bytes(3, "big") + b"\0" + o)


def critical(d):
    write_ini(d, [(n, t, v, f, [("geneve_opt", "0x%04x:0x%02x:%s" % o) for o in opts])
                  for n, t, v, f, opts in CRIT_TUNNELS])
    e = Ether(src=VM_MAC, dst=HOST_MAC)
    inner = [Ether(bytes(e / IP(src="198.51.100.1", dst="198.51.100.2") /
                         UDP(sport=1111, dport=2222) / Raw(b"critical?"))),
             Ether(bytes(e / IPv6(src="2001:db8:1::1", dst="2001:db8:1::2") /
                         TCP(sport=3333, dport=80, flags="S")))]
    remote_pkts = []
    for i, (name, _, vni, fam, opts) in enumerate(CRIT_TUNNELS):
        wrpcap(os.path.join(d, "inner_%s.pcap" % name), inner)
        back = [Ether(bytes(Ether(src=HOST_MAC, dst=VM_MAC) / f.payload)) for f in inner]
        wrpcap(os.path.join(d, "expect_%s.pcap" % name), back)
        out = Ether(src=PEER_MAC, dst=GW_MAC) / (
            IP(src=remote(i, fam), dst=LOCAL4) if fam == 4 else
            IPv6(src=remote(i, fam), dst=LOCAL6))
        # C set: with a critical option (gp4 and gz6 configure none: the
        # remote's options are its own), dropped whatever the options.
        copts = opts if any(t & 0x80 for _, t, _ in opts) else \
            (opts + [(0x0107, 0x80, "cafecafe")] if name != "gz6" else [])
        for f in back:
            remote_pkts.append(out / UDP(sport=40000 + i, dport=6081) /
                               geneve(vni, copts, True) / f)
            remote_pkts.append(out / UDP(sport=40000 + i, dport=6081) /
                               geneve(vni, opts, False) / f)
    wrpcap(os.path.join(d, "remote.pcap"), [Ether(bytes(p)) for p in remote_pkts])


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "critical":
        critical(sys.argv[2])
    else:
        sys.exit("unknown command " + cmd)
