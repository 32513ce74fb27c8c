#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_capture.py: the oracles of csum_engine.sh.

  check_capture.py input DIR
      in.pcap against manifest.json: exactly the named checksums are wrong,
      by tshark, by scapy and by csum_pkt's own arithmetic. Run first: the
      harness proves it can see a wrong checksum before judging a PMD.
  check_capture.py output DIR OUT.pcap HW
      OUT.pcap (what testpmd's csum engine sent with `csum set <HW> hw`,
      HW a comma list or "none") against the model of testpmd + a correct
      PMD (csum_pkt.testpmd_csum): every checksum, by value; every other
      byte after the MAC addresses; tshark's and scapy's verdicts.
Exit 0 when everything holds; each failure is one line naming the frame,
the field, what was expected and what was got.

Three independent oracles judge each checksum:
  * csum_pkt (our arithmetic, and the model of what testpmd asks for);
  * tshark 4.0 with ip/udp/tcp checking on and SCTP CRC-32C, VXLAN decoded
    on 8472 too; tshark has no GUE dissector: `-d udp.port==6080,ip`
    decodes GUE version 1 (bare IP), the inner packet of GUE version 0 is
    invisible to it and judged by the other two only;
  * scapy's own checksum functions (checksum, in4_chksum, in6_chksum, its
    SCTP crc32c) over the same bytes.
"""
import json
import os
import struct
import sys

from scapy.all import IP, IPv6, rdpcap  # noqa: E402
from scapy.layers.inet import in4_chksum  # noqa: E402
from scapy.layers.inet6 import in6_chksum  # noqa: E402
from scapy.layers.sctp import crc32c as scapy_crc32c  # noqa: E402
from scapy.utils import checksum as scapy_checksum  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csum_pkt as cp  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pcap_csum  # noqa: E402

KIND_FIELD = {"ip4": "ip", "udp": "udp", "tcp": "tcp", "sctp": "sctp"}


def tshark(path):
    """{frame index: {kind: [verdict per occurrence]}} from tshark."""
    return {f.number - 1: f.status for f in pcap_csum.frames(
        path, decode_as=["udp.port==%d,vxlan" % cp.RT_VXLAN_PORT,
                         "udp.port==%d,ip" % cp.GUE_PORT], sctp=True)}


def scapy_verdict(b, lv, kind):
    """The same checksum by scapy's functions only."""
    l3 = bytes(b[lv.l3:lv.end])
    if kind == "ip4":
        hdr = bytearray(l3[:lv.l3len])
        got = cp.be16(hdr, 10)
        hdr[10:12] = b"\0\0"
        return "good" if scapy_checksum(bytes(hdr)) == got else "bad"
    seg = bytearray(l3[lv.l3len:])
    fo = lv.l4_field() - lv.l4
    if kind == "sctp":
        got = bytes(seg[fo:fo + 4])
        seg[fo:fo + 4] = b"\0\0\0\0"
        return "good" if struct.pack(">I", scapy_crc32c(bytes(seg))) == got else "bad"
    got = cp.be16(seg, fo)
    if kind == "udp" and got == 0:
        return "zero"
    seg[fo:fo + 2] = b"\0\0"
    proto = cp.P_UDP if kind == "udp" else cp.P_TCP
    if lv.ver == 4:
        want = in4_chksum(proto, IP(l3[:lv.l3len]), bytes(seg))
    else:
        want = in6_chksum(proto, IPv6(l3[:40]), bytes(seg))
    if kind == "udp" and want == 0:
        want = 0xFFFF
    return "good" if want == got or {want, got} == {0, 0xFFFF} and kind == "tcp" else "bad"


def tshark_visible(tun, name, raw):
    """Can tshark see this field at all (GUE v0's inner packet: no)."""
    if tun == "gue" and not name.startswith("outer"):
        lv = cp.walk(raw)[0][0]
        return raw[lv.l4 + 8] >> 6 == 1
    return True


def judge(raw, tsh):
    """[(name, kind, ours, scapy, tshark or None, got, want)] for a frame."""
    flds, tun = cp.fields(raw)
    res = []
    seen = {"ip": 0, "udp": 0, "tcp": 0, "sctp": 0}
    for name, lv, kind in flds:
        ours, got, want = cp.verdict(raw, lv, kind)
        sc = scapy_verdict(raw, lv, kind)
        ts = None
        if tsh is not None and tshark_visible(tun, name, raw):
            k = KIND_FIELD[kind]
            lst = tsh.get(k, [])
            ts = lst[seen[k]] if seen[k] < len(lst) else "missing"
            seen[k] += 1
        res.append((name, kind, ours, sc, ts, got, want))
    return res, tun


def fmt(kind, v):
    return "0x%08x" % v if kind == "sctp" else "0x%04x" % v


def check_input(d):
    man = json.load(open(os.path.join(d, "manifest.json")))["frames"]
    path = os.path.join(d, "in.pcap")
    frames = [bytes(p) for p in rdpcap(path)]
    tsh = tshark(path)
    fails = []
    nbad = {"ours": 0, "scapy": 0, "tshark": 0}
    for i, (raw, e) in enumerate(zip(frames, man)):
        res, _ = judge(raw, tsh.get(i))
        for name, kind, ours, sc, ts, got, want in res:
            exp = "bad" if name in e["corrupt"] else ("zero" if kind == "udp" and got == 0 else "good")
            for who, v in (("ours", ours), ("scapy", sc), ("tshark", ts)):
                if v is None:
                    continue
                nbad[who] += v == "bad"
                if v != exp:
                    fails.append("input frame %d (%s) %s: %s says %s, manifest says %s" %
                                 (i, e["desc"], name, who, v, exp))
    ncorrupt = sum(len(e["corrupt"]) for e in man)
    return fails, ("input: %d frames, %d wrong checksums named; bad by ours %d, scapy %d, "
                   "tshark %d (GUE v0 inner invisible to tshark)" %
                   (len(frames), ncorrupt, nbad["ours"], nbad["scapy"], nbad["tshark"]))


def same_but_checksums(a, b):
    """a and b equal from byte 12 on (MACs are swapped by testpmd), the
    checksum fields of a left out."""
    if len(a) != len(b):
        return False
    flds, _ = cp.fields(a)
    skip = set()
    for name, lv, kind in flds:
        o = lv.l3 + 10 if kind == "ip4" else lv.l4_field()
        skip.update(range(o, o + (4 if kind == "sctp" else 2)))
    return all(a[k] == b[k] for k in range(12, len(a)) if k not in skip)


def align(models, outs):
    """[(input index, output index)]: output frames in order, each matched to
    the next input frame it can be (frames may be dropped, not reordered)."""
    pairs, j = [], 0
    for k, o in enumerate(outs):
        for jj in range(j, len(models)):
            if same_but_checksums(models[jj], o):
                pairs.append((jj, k))
                j = jj + 1
                break
        else:
            if j < len(models):      # nothing matches: pair in order, report
                pairs.append((j, k))
                j += 1
    return pairs


def check_output(d, out_path, hw, in_frames=None, man=None, max_lines=40):
    """Failures and a one-line summary for one cell's output capture."""
    if man is None:
        man = json.load(open(os.path.join(d, "manifest.json")))["frames"]
    if in_frames is None:
        in_frames = [bytes(p) for p in rdpcap(os.path.join(d, "in.pcap"))]
    try:
        out_frames = [bytes(p) for p in rdpcap(out_path)] if os.path.getsize(out_path) > 24 else []
    except (OSError, EOFError) as ex:
        return ["cannot read %s: %s" % (out_path, ex)], "no output"
    fails = []
    tsh = tshark(out_path) if out_frames else {}
    models = [cp.testpmd_csum(raw, hw)[0] for raw in in_frames]
    pairs = align(models, out_frames)
    if len(out_frames) != len(in_frames):
        seen = {i for i, _ in pairs}
        lost = [i for i in range(len(in_frames)) if i not in seen]
        fails.append("frames: expected %d, got %d; missing: %s" %
                     (len(in_frames), len(out_frames),
                      "; ".join("%d (%s)" % (i, man[i]["desc"]) for i in lost[:40])))
    tshark_bad = expect_bad = expect_bad_visible = 0
    bad_fields = {}
    for i, k in pairs:
        raw, e = in_frames[i], man[i]
        got_b = out_frames[k]
        want_b = models[i]
        tag = b"HWCS%04d" % i
        if len(got_b) != len(want_b):
            fails.append("frame %d (%s): length %d, expected %d" % (i, e["desc"], len(got_b), len(want_b)))
            continue
        exp_res, _ = judge(want_b, None)
        got_res, _ = judge(got_b, tsh.get(k))
        # Exactly which checksum fields may differ: compare bytes outside them.
        flds, _ = cp.fields(want_b)
        mask = bytearray(len(want_b))
        for name, lv, kind in flds:
            o = lv.l3 + 10 if kind == "ip4" else lv.l4_field()
            for k in range(o, o + (4 if kind == "sctp" else 2)):
                mask[k] = 1
        diff = [k for k in range(12, len(want_b)) if not mask[k] and got_b[k] != want_b[k]]
        if diff:
            fails.append("frame %d (%s): %d non-checksum bytes differ from the input, first at "
                         "offset %d (0x%02x, expected 0x%02x)" %
                         (i, e["desc"], len(diff), diff[0], got_b[diff[0]], want_b[diff[0]]))
        if tag in want_b and tag not in got_b:
            fails.append("frame %d (%s): payload tag %s missing (reordered?)" % (i, e["desc"], tag.decode()))
        for (name, kind, xo, _xs, _, xval, _), (_, _, go, gs, gt, gval, _) in zip(exp_res, got_res):
            exp_status = xo
            if exp_status == "bad":
                expect_bad += 1
                expect_bad_visible += gt is not None
            if gt == "bad":
                tshark_bad += 1
            same = gval == xval or (kind == "tcp" and {gval, xval} == {0, 0xFFFF})
            if not same:
                fails.append("frame %d (%s) %s: expected %s (%s), got %s (%s)" %
                             (i, e["desc"], name, fmt(kind, xval), exp_status, fmt(kind, gval), go))
                bad_fields[name] = bad_fields.get(name, 0) + 1
            # The three oracles must agree on what was sent.
            for who, v in (("scapy", gs), ("tshark", gt)):
                if v is not None and v != go:
                    fails.append("frame %d (%s) %s: %s says %s, csum_pkt says %s (oracle disagreement)" %
                                 (i, e["desc"], name, who, v, go))
    if tshark_bad != expect_bad_visible:
        fails.append("tshark calls %d checksums bad, the model %d of those it can see" %
                     (tshark_bad, expect_bad_visible))
    summary = ("%d/%d frames, %d checksum values wrong%s; tshark bad %d = model %d "
               "(+%d GUE v0 inner tshark cannot see)" %
               (len(out_frames), len(in_frames),
                sum(bad_fields.values()),
                (" (" + ", ".join("%s %d" % kv for kv in sorted(bad_fields.items())) + ")") if bad_fields else "",
                tshark_bad, expect_bad_visible, expect_bad - expect_bad_visible))
    if len(fails) > max_lines:
        fails = fails[:max_lines] + ["... %d more" % (len(fails) - max_lines)]
    return fails, summary


def expected_rx_bad(man, registered, rx_verdicts=True):
    """testpmd's Bad-* counters on the receiving port, from the manifest:
    registered is the set of manifest tunnel names hwcsum's registry knows."""
    c = {"ip": 0, "l4": 0, "outer_ip": 0, "outer_l4": 0}
    if not rx_verdicts:
        return c
    for e in man:
        bad = set(e["corrupt"])
        if e["tunnel"] is not None and e["tunnel"] in registered:
            for k in c:
                c[k] += k in bad
        elif e["tunnel"] is not None:          # plain UDP to hwcsum
            c["ip"] += "outer_ip" in bad
            c["l4"] += "outer_l4" in bad
        else:
            c["ip"] += "ip" in bad
            c["l4"] += "l4" in bad
    return c


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "input":
        fails, summary = check_input(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "output":
        hw = set() if sys.argv[4] == "none" else set(sys.argv[4].split(","))
        fails, summary = check_output(sys.argv[2], sys.argv[3], hw)
    else:
        print(__doc__)
        return 2
    for f in fails:
        print("FAIL: " + f)
    print(summary)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
