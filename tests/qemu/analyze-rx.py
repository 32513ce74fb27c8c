#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
#
# Judge one run of the QEMU hwcsum receive suite (tests/qemu/rx.sh):
#
#   analyze-rx.py RUN_DIR MODEL [--vnet-hdr] [--tamper] [--json OUT]
#
# 1. The wire: nic0.pcap (QEMU filter-dump of NIC 0's netdev) must hold,
#    per session (split by guest-rx.sh's marker frames), exactly the frames
#    of rx-frames.pcap, byte for byte (nothing on the way touched a
#    checksum). --vnet-hdr: the dump carries the virtio-net header; its
#    flags (NEEDS_CSUM 1, DATA_VALID 2) are counted and become the device
#    verdict of that frame (DATA_VALID -> L4 GOOD, NEEDS_CSUM -> L4 NONE).
# 2. Expected counts, from the frame facts of rx-frames.json and a model of
#    what each device judges (verdict on the outermost headers only):
#      e1000   nothing (QEMU's 82540EM model never verifies RX checksums);
#      e1000e  QEMU verifies the outermost IPv4 header and UDP/TCP checksum
#              (a zero UDP checksum is not verified); net_e1000_em reports
#              only the errors: IP_CKSUM_BAD, L4_CKSUM_BAD;
#      virtio  what the virtio-net header said (step 1).
#    bare:   Bad-ipcsum / Bad-l4csum = the device's BAD verdicts; no outer
#            verdicts (the bare driver cannot see a tunnel).
#    hwcsum: the truth: Bad-ipcsum = wrong innermost IPv4 header, Bad-l4csum
#            = wrong innermost L4 (a zero UDP checksum over IPv6 is wrong,
#            over IPv4 it is "none"), Bad-outer-ipcsum / Bad-outer-l4csum =
#            a tunnel's wrong outer IPv4 / UDP (zero outer UDP is legal over
#            both families, RFC 6935); xstats: rx_verdict_from_sub = frames
#            with a device L4 verdict, rx_complete = every frame but the
#            plain ones with a device verdict (those are not summed),
#            rx_tunnel_vxlan/geneve, rx_*_bad = the Bad-* above, rx_l4_none
#            = the legal zero UDP checksums, rx_unknown / rx_tunnel_malformed
#            / rx_tunnel_inner_unknown = 0.
# 3. testpmd's forward statistics and xstats of each session against them.
# --tamper adds 1 to hwcsum's expected Bad-l4csum (the run must fail).
# Exit status 0 when everything matches.
import argparse
import json
import os
import re
import struct
import sys

NIC0 = bytes.fromhex("525400123410")
SRC = bytes.fromhex("020000000001")


def read_pcap(path):
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    out, off = [], 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


def strip_vnet(f):
    """(flags, frame) of a filter-dump record with a 10- or 12-byte header."""
    for n in (12, 10):
        eth = f[n:]
        if eth[:6] in (NIC0, b"\xff" * 6) and eth[6:12] == SRC:
            return f[0], eth
    return None, f


def wire(run, vnet, frames):
    """Per session: (ok, problems, flags per frame) of what reached NIC 0."""
    sessions, cur = [], []
    for rec in read_pcap(os.path.join(run, "nic0.pcap")):
        flags, f = strip_vnet(rec) if vnet else (0, rec)
        if f[6:12] != SRC:
            continue  # NIC 0's own transmissions (the csum engine forwards)
        if f[12:14] == b"\x88\xb5":
            sessions.append(cur)
            cur = []
            continue
        cur.append((flags, f))
    sessions.append(cur)
    result = []
    for got in sessions:
        probs = []
        if len(got) != len(frames):
            probs.append("%d frames reached NIC 0, %d were injected" % (len(got), len(frames)))
        for i, (flags, f) in enumerate(got[:len(frames)]):
            want = frames[i]
            if f[:len(want)] != want or any(f[len(want):]):
                probs.append("frame %d differs on the wire from what was generated" % i)
        result.append((probs, [fl for fl, _ in got]))
    return result


def device_verdict(model, fact, vflags):
    """(ip, l4) verdict of the device on the outermost headers: None, 'bad', 'good', 'none'."""
    if model == "e1000":
        return None, None
    if model == "virtio":
        if vflags is not None and vflags & 1:
            return None, "none"
        if vflags is not None and vflags & 2:
            return None, "good"
        return None, None
    f = fact["fault"]
    ip = "bad" if f in ("bad-ip", "bad-outer-ip") else None
    l4 = "bad" if f in ("bad-l4", "bad-outer-udp") else None
    return ip, l4


def expected(model, facts, vflags, tamper):
    bare = {"Bad-ipcsum": 0, "Bad-l4csum": 0, "Bad-outer-ipcsum": 0, "Bad-outer-l4csum": 0}
    hw = dict(bare)
    xs = {"rx_complete": 0, "rx_verdict_from_sub": 0, "rx_tunnel_vxlan": 0,
          "rx_tunnel_geneve": 0, "rx_ip_bad": 0, "rx_l4_bad": 0, "rx_outer_ip_bad": 0,
          "rx_outer_l4_bad": 0, "rx_l4_none": 0, "rx_unknown": 0, "rx_tunnel_malformed": 0,
          "rx_tunnel_inner_unknown": 0}
    for i, fa in enumerate(facts):
        dip, dl4 = device_verdict(model, fa, vflags[i] if i < len(vflags) else None)
        bare["Bad-ipcsum"] += dip == "bad"
        bare["Bad-l4csum"] += dl4 == "bad"
        plain = fa["kind"] == "plain"
        f = fa["fault"]
        xs["rx_verdict_from_sub"] += dl4 is not None
        xs["rx_complete"] += not (plain and dl4 is not None)
        if plain:
            hw["Bad-ipcsum"] += f == "bad-ip"
            hw["Bad-l4csum"] += f == "bad-l4" or (f == "udp-zero" and fa["ofam"] == 6)
            xs["rx_l4_none"] += f == "udp-zero" and fa["ofam"] == 4
        else:
            xs["rx_tunnel_" + fa["kind"]] += 1
            hw["Bad-ipcsum"] += f == "bad-inner-ip"
            hw["Bad-l4csum"] += f == "bad-inner-l4" or (f == "inner-udp-zero" and fa["ifam"] == 6)
            hw["Bad-outer-ipcsum"] += f == "bad-outer-ip"
            hw["Bad-outer-l4csum"] += f == "bad-outer-udp"
            xs["rx_l4_none"] += f == "outer-udp-zero" or (f == "inner-udp-zero" and fa["ifam"] == 4)
    for a, b in (("Bad-ipcsum", "rx_ip_bad"), ("Bad-l4csum", "rx_l4_bad"),
                 ("Bad-outer-ipcsum", "rx_outer_ip_bad"), ("Bad-outer-l4csum", "rx_outer_l4_bad")):
        xs[b] = hw[a]
    if tamper:
        hw["Bad-l4csum"] += 1
    return bare, hw, xs


def fwd_stats(path, port):
    """RX-packets and Bad-* of one port's block of testpmd's forward statistics."""
    text = open(path).read()
    m = re.search(r"Forward statistics for port %s\s.*?(?=-{10,} Forward statistics|\+{5,}|$)" % port,
                  text, re.S)
    block = m.group(0) if m else ""
    got = {}
    for k in ("RX-packets", "Bad-ipcsum", "Bad-l4csum", "Bad-outer-l4csum", "Bad-outer-ipcsum"):
        mm = re.search(r"(?<![a-z-])%s:\s*(\d+)" % re.escape(k), block)
        got[k] = int(mm.group(1)) if mm else None
    return got


def xstats(path):
    got = {}
    for line in open(path):
        m = re.match(r"\s*([A-Za-z0-9_]+):\s*(\d+)\s*$", line)
        if m:
            got[m.group(1)] = int(m.group(2))
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("model")
    ap.add_argument("--vnet-hdr", action="store_true")
    ap.add_argument("--tamper", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    facts = json.load(open(os.path.join(a.run, "rx-frames.json")))
    frames = read_pcap(os.path.join(a.run, "rx-frames.pcap"))
    sessions = {}
    for line in open(os.path.join(a.run, "sessions.txt")):
        w = line.split()
        sessions[w[1]] = int(w[2])
    order = list(sessions)
    wires = wire(a.run, a.vnet_hdr, frames)
    failed = []
    report = {"model": a.model, "frames": len(frames), "sessions": {}}
    print("QEMU %s receive: %d frames injected per session (%d plain, %d VXLAN, %d GENEVE)" % (
        a.model, len(frames), sum(f["kind"] == "plain" for f in facts),
        sum(f["kind"] == "vxlan" for f in facts), sum(f["kind"] == "geneve" for f in facts)))
    vflags = []
    for k, s in enumerate(order):
        probs, fl = wires[k] if k < len(wires) else (["no capture for this session"], [])
        if k == 0:
            vflags = fl
        for p in probs:
            failed.append("%s wire: %s" % (s, p))
        if a.vnet_hdr:
            hist = {}
            for x in fl:
                hist[x] = hist.get(x, 0) + 1
            print("  %s: virtio-net header flags of the frames as delivered to NIC 0: %s" % (
                s, ", ".join("0x%02x x%d" % kv for kv in sorted(hist.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))))
        else:
            print("  %s: wire check: %s" % (s, "OK, byte for byte" if not probs else "; ".join(probs)))
    bare_exp, hw_exp, xs_exp = expected(a.model, facts, vflags, a.tamper)
    keys = ("Bad-ipcsum", "Bad-l4csum", "Bad-outer-ipcsum", "Bad-outer-l4csum")
    print("%-8s %9s  %-18s %-18s %-18s %-18s" % ("session", "received", *keys))
    for s in order:
        info = open(os.path.join(a.run, "port-info-%s.txt" % s)).read()
        port = re.search(r"Infos for port (\d+)", info)
        port = port.group(1) if port else "?"
        got = fwd_stats(os.path.join(a.run, "fwd-stats-%s.txt" % s), port)
        exp = bare_exp if s == "bare" else hw_exp
        cells = []
        for k in keys:
            ok = got[k] == exp[k]
            cells.append("%s/%s%s" % (got[k], exp[k], "" if ok else " FAIL"))
            if not ok:
                failed.append("%s %s: testpmd reports %s, expected %d" % (s, k, got[k], exp[k]))
        # What the port forwarded while the frames were injected: its own
        # counters (sessions.txt) also count anything that reached the NIC
        # before forwarding started (a host bridge's frame at link-up, say),
        # which testpmd flushes and which is not part of the test.
        rx = got["RX-packets"]
        if rx != len(frames):
            failed.append("%s: NIC 0's port forwarded %s frames, %d injected (port counters: %d)"
                          % (s, rx, len(frames), sessions[s]))
        print("%-8s %4d/%-4d  %-18s %-18s %-18s %-18s" % (s, rx, len(frames), *cells))
        report["sessions"][s] = {"received": rx, "reported": got, "expected": exp}
    print("  (cells: reported/expected)")
    if "hwcsum" in sessions:
        got = xstats(os.path.join(a.run, "xstats-hwcsum.txt"))
        print("hwcsum rx xstats (reported/expected):")
        line = []
        for k, v in xs_exp.items():
            ok = got.get(k) == v
            line.append("%s %s/%d%s" % (k, got.get(k), v, "" if ok else " FAIL"))
            if not ok:
                failed.append("hwcsum xstat %s: %s, expected %d" % (k, got.get(k), v))
        for i in range(0, len(line), 4):
            print("  " + ", ".join(line[i:i + 4]))
        report["xstats"] = {"reported": {k: got.get(k) for k in xs_exp}, "expected": xs_exp}
    report["failures"] = failed
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)
    for f in failed:
        print("FAIL: " + f)
    print("analyze-rx %s: %s" % (a.model, "PASSED" if not failed else "FAILED (%d)" % len(failed)))
    return 1 if failed else 0


sys.exit(main())
