#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Traffic, oracle and telemetry for devtools/demo.sh (the gateway demo).

demo_gateway.py ini DIR           DIR/gw.ini: the demo's two tunnels
demo_gateway.py send DIR SECONDS  paced traffic into the FIFOs DIR/underlay.rx,
                                  DIR/vm_vx.rx and DIR/vm_gn.rx (pcap streams
                                  the gateway's net_pcap ports read), from
                                  when DIR/go exists; what was sent is kept in
                                  DIR/sent_*.pcap, what must come out of each
                                  inner port in DIR/expect_*.pcap
demo_gateway.py check DIR         frame counts, and every decapsulated frame
                                  byte for byte what the remote VTEP sent
demo_gateway.py telemetry PREFIX  the tunnel table, the gateway's counters and
                                  hwcsum's xstats of a running gateway

The frames, addresses and the CHECKSUM_PARTIAL seeding come from the tunnel
test suite (tests/tunnel/frames.py).
"""
import json
import os
import re
import struct
import subprocess
import sys
import textwrap
import time

VX_VNI, GN_VNI = 42, 7
GN_OPTS = [(0x0102, 0x80, "11223344"), (0x0103, 0x01, "aabbccdd00112233")]
BURST = 32		# one gateway burst (GW_BURST) per port per tick
TICK = 0.2		# seconds: 160 frames per second per port
FIFOS = ("underlay", "vm_vx", "vm_gn")


def ini(d):
    opts = "".join("geneve_opt = 0x%04x:0x%02x:%s\n" % o for o in GN_OPTS)
    common = "remote_mac = %s\nlocal_mac = %s\n" % (PEER_MAC, GW_MAC)
    with open(os.path.join(d, "gw.ini"), "w") as f:
        f.write("[global]\nunderlay = net_hwcsum0\nstats_interval = 1\n\n"
                "[tunnel:vx]\ntype = vxlan\nvni = %d\ninner_port = net_hwcsum1\n"
                "local = %s\nremote = %s\n%s\n"
                "[tunnel:gn]\ntype = geneve\nvni = %d\ninner_port = net_hwcsum2\n"
                "local = %s\nremote = %s\n%s%s"
                % (VX_VNI, OUT4[0], OUT4[1], common,
                   GN_VNI, OUT6[0], OUT6[1], common, opts))


def geneve(vni):
    """RFC 8926 header with the demo's options, Ethernet payload."""
    opts = b"".join(struct.pack("!HBB", c, t, len(h) // 8) + bytes.fromhex(h)
                    for c, t, h in GN_OPTS)
    return Raw(struct.pack("!BBH", len(opts) // 4, 0, 0x6558) +
               vni.to_bytes(3, "big") + b"\0" + opts)


def host_frames():
    """What the remote hosts send to the VMs (complete checksums)."""
    e = Ether(src=HOST_MAC, dst=VM_MAC)
    v4 = IP(src="198.51.100.2", dst="198.51.100.1")
    v6 = IPv6(src="2001:db8:1::2", dst="2001:db8:1::1")
    return [Ether(bytes(f)) for f in (
        e / v4 / UDP(sport=2222, dport=1111) / Raw(b"reply" * 40),
        e / v4 / TCP(sport=80, dport=3333, flags="PA", seq=9) / Raw(bytes(range(256)) * 4),
        e / v6 / UDP(sport=5555, dport=4444) / Raw(b"y" * 77),
        e / v6 / TCP(sport=443, dport=6666, flags="SA"),
    )]


def remote_packet(i, inner):
    """Packet i of the remote VTEP: VXLAN over IPv4 and GENEVE over IPv6 in turn."""
    sport = 49152 + i % 1000
    if i % 2 == 0:
        p = (Ether(src=PEER_MAC, dst=GW_MAC) / IP(src=OUT4[1], dst=OUT4[0]) /
             UDP(sport=sport, dport=4789) / vxlan(VX_VNI) / inner)
    else:
        p = (Ether(src=PEER_MAC, dst=GW_MAC) / IPv6(src=OUT6[1], dst=OUT6[0]) /
             UDP(sport=sport, dport=6081) / geneve(GN_VNI) / inner)
    return bytes(p)


def pcap_header():
    return struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)


def pcap_record(frame):
    t = time.time()
    return struct.pack("<IIII", int(t), int(t % 1 * 1e6), len(frame),
                       len(frame)) + frame


def pcap_read(path):
    with open(path, "rb") as f:
        data = f.read()
    frames, off = [], 24
    while off + 16 <= len(data):
        n = struct.unpack_from("<I", data, off + 8)[0]
        frames.append(data[off + 16:off + 16 + n])
        off += 16 + n
    return frames


def pcap_write(path, frames):
    with open(path, "wb") as f:
        f.write(pcap_header() + b"".join(pcap_record(x) for x in frames))


def write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


def send(d, seconds):
    vm = [bytes(p[0]) for p in inner_frames(False)]	# 3 of 10 seeded: partial
    host = [bytes(f) for f in host_frames()]
    # Read-write: the open does not wait for the gateway's, whatever order
    # EAL probes its vdevs in (Linux FIFO semantics).
    fifos = [os.open(os.path.join(d, name + ".rx"), os.O_RDWR) for name in FIFOS]
    for f in fifos:
        write_all(f, pcap_header())
    while not os.path.exists(os.path.join(d, "go")):
        time.sleep(0.05)
    sent = {name: [] for name in FIFOS}
    expect = {"vm_vx": [], "vm_gn": []}
    bad = 0
    start = time.monotonic()
    ticks = int(seconds / TICK)
    for tick in range(ticks):
        burst = {name: [] for name in FIFOS}
        for k in range(BURST):
            i = tick * BURST + k
            inner = host[i // 2 % len(host)]
            pkt = remote_packet(i, inner)
            if k == BURST - 1 - tick % 2:	# VXLAN and GENEVE in turn
                # A bit flipped on the wire: the outer checksum catches it.
                pkt = pkt[:-5] + bytes([pkt[-5] ^ 0x10]) + pkt[-4:]
                bad += 1
            else:
                expect["vm_vx" if i % 2 == 0 else "vm_gn"].append(inner)
            burst["underlay"].append(pkt)
            burst["vm_vx"].append(vm[i % len(vm)])
            burst["vm_gn"].append(vm[(i + 5) % len(vm)])
        for name, f in zip(FIFOS, fifos):
            write_all(f, b"".join(pcap_record(x) for x in burst[name]))
            sent[name] += burst[name]
        time.sleep(max(0, start + (tick + 1) * TICK - time.monotonic()))
    for f in fifos:
        os.close(f)	# the gateway reads end of file
    for name in FIFOS:
        pcap_write(os.path.join(d, "sent_%s.pcap" % name), sent[name])
    for name, frames in expect.items():
        pcap_write(os.path.join(d, "expect_%s.pcap" % name), frames)
    with open(os.path.join(d, "corrupted"), "w") as f:
        f.write("%d\n" % bad)
    print("traffic: %d frames from each VM and %d underlay packets (%d corrupted) "
          "in %.1f s" % (len(sent["vm_vx"]), len(sent["underlay"]), bad,
                         time.monotonic() - start))


def check(d):
    def n(name):
        return len(pcap_read(os.path.join(d, name)))
    failed = 0
    vms = n("sent_vm_vx.pcap") + n("sent_vm_gn.pcap")
    out = n("underlay.tx.pcap")
    ok = out == vms and out > 0
    failed += not ok
    print("%s: encapsulated: %d frames from the VMs, %d on the underlay"
          % ("ok" if ok else "FAIL", vms, out))
    for vm in ("vm_vx", "vm_gn"):
        want = pcap_read(os.path.join(d, "expect_%s.pcap" % vm))
        got = pcap_read(os.path.join(d, "%s.tx.pcap" % vm))
        ok = want == got and len(got) > 0
        failed += not ok
        print("%s: decapsulated to %s: %d of %d frames, byte for byte what the "
              "remote host sent" % ("ok" if ok else "FAIL", vm,
                                    sum(a == b for a, b in zip(want, got)), len(want)))
    return failed


def ask(prefix, commands):
    """The replies to commands, in one session of the stock telemetry client."""
    out = subprocess.run([sys.executable, "/usr/bin/dpdk-telemetry.py", "-f", prefix],
                         input="\n".join(commands) + "\n", capture_output=True,
                         text=True, timeout=30).stdout
    replies = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
    replies = [r for r in replies if "version" not in r]	# a greeting, on a tty
    if len(replies) != len(commands):
        sys.exit("telemetry: %d replies to %s: %r" % (len(replies), commands, out))
    return [r.get(c.split(",")[0], r) for r, c in zip(replies, commands)]


def listing(pairs, first="     "):
    """name value, name value, ... wrapped, never between a name and its value."""
    text = textwrap.fill(", ".join("%s\x01%s" % kv for kv in pairs), width=79,
                         initial_indent=first, subsequent_indent="       ")
    return text.replace("\x01", " ")


def telemetry(prefix):
    ports, stats = ask(prefix, ["/hwcsum/list", "/hwcsum_tunnel/stats"])
    names = {v["port_id"]: k for k, v in stats["ports"].items()}
    under = stats["ports"]["net_hwcsum0"]["port_id"]
    tunnels, *xstats = ask(prefix, ["/hwcsum/tunnels,%d" % under] +
                           ["/ethdev/xstats,%d" % p for p in ports])
    print("-- /hwcsum/tunnels,%d: the underlay's tunnel table, as ethtool "
          "--show-tunnels prints it" % under)
    print("\n".join("     " + line for line in tunnels["text"]))
    print("-- /hwcsum_tunnel/stats: the gateway's counters")
    print(listing((k, v) for k, v in stats.items() if not isinstance(v, dict)))
    for key in ("drops", "hwcsum"):
        print(listing(stats[key].items(), "     %s: " % key))
    print("-- /ethdev/xstats,<port>: hwcsum's own xstats of each port, non-zero "
          "(not ethdev's\n   basic counters, not the sub-port's sub_*)")
    basic = re.compile(r"^(sub_|(rx|tx)_(good_|q\d|errors|missed_errors|mbuf_))")
    for p, xs in zip(ports, xstats):
        print("   port %d, %s:" % (p, names.get(p, "?")))
        print(listing((k, v) for k, v in xs.items() if v and not basic.match(k)))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd in ("ini", "send"):
        # scapy takes seconds to import: only where frames are made.
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        "..", "tests", "tunnel"))
        from frames import (GW_MAC, HOST_MAC, OUT4, OUT6, PEER_MAC, VM_MAC,
                            inner_frames, vxlan)
        from scapy.all import IP, TCP, UDP, Ether, IPv6, Raw
    if cmd == "ini":
        ini(sys.argv[2])
    elif cmd == "send":
        send(sys.argv[2], float(sys.argv[3]))
    elif cmd == "check":
        sys.exit(1 if check(sys.argv[2]) else 0)
    elif cmd == "telemetry":
        telemetry(sys.argv[2])
    else:
        sys.exit(__doc__)
