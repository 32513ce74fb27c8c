#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
#
# Judge one run of the QEMU hwcsum suite from its files (tests/qemu/bypass.sh):
#
#   analyze.py RUN_DIR MODEL CAPTURE.pcap [--vnet-hdr] [--requests SENDER.pcap] [--json OUT.json]
#
# --vnet-hdr: CAPTURE comes from QEMU 7.2's filter-dump on a tap netdev
# with vnet headers, which writes the virtio-net header (10 or 12 bytes) in
# front of every frame; it is found and cut off (frames of NIC 0 only),
# and the bare frames are written to CAPTURE.eth.pcap (for tshark).
# --requests SENDER.pcap: the filter-dump of the sending NIC's own tap
# netdev; its vnet headers say which frames left the guest with
# VIRTIO_NET_F_CSUM's NEEDS_CSUM (a partial checksum the host completed);
# their count is reported and, for hwcsum csum hw runs, must equal
# hwcsum's tx_l4_hw.
#
# For every testpmd run listed in RUN_DIR/runs.txt: the frames of CAPTURE
# sent by NIC 0 to that run's peer MAC, matched to the frames of
# RUN_DIR/frames.pcap by the tag in their payload; every IPv4 header,
# UDP and TCP checksum (outer and inner) recomputed; the payload compared
# with what was sent. Then hwcsum's xstats of the run against what the
# NIC's TX engine must have done. Prints a table; exit status 1 when a
# check fails:
#   - every run: captured == sent by testpmd, no frame twice, no payload
#     changed, no frame testpmd did not send;
#   - bare, csum sw (testpmd's own software checksums: the control of the
#     capture chain): no bad checksum;
#   - hwcsum, every mode: all frames sent and captured, no bad checksum;
#   - hwcsum, csum hw: the xstats split (which side did the work) as the
#     TX engine of MODEL implies.
# Bare runs with csum hw are reported, not judged: they show what the
# unmodified driver does with the same requests.
import json
import re
import sys

from scapy.all import IP, TCP, UDP, Ether, IPv6, Raw, rdpcap, wrpcap
from scapy.layers.vxlan import VXLAN  # noqa: F401 (binds UDP 4789)
from scapy.contrib.geneve import GENEVE  # noqa: F401 (binds UDP 6081)

TAG = re.compile(rb"hwcsum-case-(\d+)-(\d+)-")


def payload(pkt):
    raw = pkt.getlayer(Raw)
    return bytes(raw.load) if raw is not None else b""


def tag_of(pkt):
    m = TAG.search(bytes(pkt))
    return "%s-%s" % (m.group(1).decode(), m.group(2).decode()) if m else None


def bad_checksums(raw):
    """Names of the checksums of one frame that are wrong."""
    pkt = Ether(raw)
    ref = Ether(raw)
    bad = []
    for layer, name in ((IP, "ip"), (UDP, "udp"), (TCP, "tcp")):
        i = 1
        while ref.getlayer(layer, i) is not None:
            lay = ref.getlayer(layer, i)
            if layer is UDP and lay.chksum == 0 and lay.underlayer is not None \
                    and isinstance(lay.underlayer, IP):
                i += 1
                continue  # no checksum: legal over IPv4
            del lay.chksum
            i += 1
    fixed = Ether(bytes(ref))
    for layer, name in ((IP, "ip"), (UDP, "udp"), (TCP, "tcp")):
        i = 1
        while pkt.getlayer(layer, i) is not None:
            have = pkt.getlayer(layer, i).chksum
            want = fixed.getlayer(layer, i).chksum
            # A UDP sum of 0 is sent as 0xffff; TCP 0xffff == 0x0000 in
            # ones' complement (Linux's CSUM_MANGLED_0 does it for TCP too).
            if have != want and not (layer in (UDP, TCP) and {have, want} == {0, 0xffff}):
                bad.append("%s%s" % ("outer-" if i == 1 and pkt.getlayer(layer, 2) is not None else
                                     "inner-" if i > 1 else "", name))
            i += 1
    return bad


def frames_of(path, nic0, vnet):
    """(frame, vnet header or None) of every captured frame of NIC 0."""
    mac = bytes.fromhex(nic0.replace(":", ""))
    out = []
    for p in rdpcap(path):
        raw = bytes(p)
        if not vnet:
            out.append((raw, None))
            continue
        for off in (12, 10):
            if raw[off + 6:off + 12] == mac:
                out.append((raw[off:], raw[:off]))
                break
    return out


def kind_of(case_name):
    return case_name.split("-")[0]


def read_xstats(path):
    stats = {}
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"^(\w+):\s+(\d+)\s*$", line.strip())
                if m:
                    stats[m.group(1)] = int(m.group(2))
    except OSError:
        pass
    return stats


def expected_split(model, cases, sent_kinds):
    """The xstats a hw run on hwcsum must show, from the TX engine of MODEL."""
    n = sum(sent_kinds.values())
    tunnels = n - sent_kinds.get("plain", 0)
    if model in ("e1000", "virtio"):
        # generic engine: every L4 checksum (inner ones of tunnels too) by
        # the device from csum_start; the outer UDP checksum of a tunnel
        # by LCO in software, without reading the payload.
        return {"tx_l4_hw": n, "tx_l4_sw": 0, "tx_outer_udp_hw": 0,
                "tx_outer_udp_lco": ("tunnels", tunnels),
                "tx_bad_request_dropped": 0, "tx_prepare_refused": 0}
    if model == "e1000e":
        # parse engine: the device finds the outermost L4 only: plain L4 in
        # hardware; a tunnel's inner L4 in software, its outer UDP by the
        # device.
        return {"tx_l4_hw": sent_kinds.get("plain", 0), "tx_l4_sw": tunnels,
                "tx_outer_udp_hw": ("tunnels", tunnels), "tx_outer_udp_lco": 0,
                "tx_bad_request_dropped": 0, "tx_prepare_refused": 0}
    raise SystemExit("analyze: unknown model %s" % model)


def main():
    args = sys.argv[1:]
    json_out = None
    if "--json" in args:
        i = args.index("--json")
        json_out = args[i + 1]
        del args[i:i + 2]
    vnet = "--vnet-hdr" in args
    if vnet:
        args.remove("--vnet-hdr")
    requests = None
    if "--requests" in args:
        i = args.index("--requests")
        requests = args[i + 1]
        del args[i:i + 2]
    run_dir, model, capture = args
    cases = {}
    with open(run_dir + "/frames.cases") as f:
        for line in f:
            tag, name, size = line.split()
            cases[tag] = name
    sent_frames = {tag_of(p): p for p in rdpcap(run_dir + "/frames.pcap")}
    nframes = len(sent_frames)
    nic0 = None
    with open(run_dir + "/nics") as f:
        for line in f:
            idx, _model, _link, mac = line.split()
            if idx == "0":
                nic0 = mac.lower()
    runs = []
    with open(run_dir + "/runs.txt") as f:
        for line in f:
            w = line.split()
            runs.append({"run": int(w[1]), "session": w[2], "mode": w[3],
                         "peer": w[4].lower(), "sent": int(w[5]), "read": int(w[6])})
    cap = frames_of(capture, nic0, vnet)
    if vnet:
        wrpcap(capture[:-5] + ".eth.pcap" if capture.endswith(".pcap") else capture + ".eth.pcap",
               [Ether(raw) for raw, _h in cap])
    req = frames_of(requests, nic0, True) if requests else None
    failures = []
    out = []
    print("%-4s %-7s %-4s %5s %5s %8s %5s  %-34s %s" % (
        "run", "session", "csum", "sent", "capt", "bad-csum", "data", "bad by kind", "xstats split"))
    for r in runs:
        peer = bytes.fromhex(r["peer"].replace(":", ""))
        frames = [raw for raw, _h in cap if raw[:6] == peer and len(raw) >= 14]
        needs_csum = None
        if req is not None:
            # virtio_net_hdr: flags (1 = NEEDS_CSUM), gso_type, hdr_len,
            # gso_size, csum_start, csum_offset.
            needs_csum = sum(1 for raw, h in req if raw[:6] == peer and h[0] & 1)
        seen, bad_by_kind, bad_names, data_bad, dup, unknown = {}, {}, {}, 0, 0, 0
        kinds = {}
        nbad = 0
        for raw in frames:
            pkt = Ether(raw)
            tag = tag_of(pkt)
            if tag is None or tag not in cases:
                unknown += 1
                continue
            if tag in seen:
                dup += 1
            seen[tag] = 1
            kind = kind_of(cases[tag])
            kinds[kind] = kinds.get(kind, 0) + 1
            if payload(pkt) != payload(sent_frames[tag]):
                data_bad += 1
            bad = bad_checksums(raw)
            if bad:
                nbad += 1
                bad_by_kind[kind] = bad_by_kind.get(kind, 0) + 1
                for b in bad:
                    bad_names[b] = bad_names.get(b, 0) + 1
        label = "run %d (%s, csum %s)" % (r["run"], r["session"], r["mode"])
        if len(frames) != r["sent"]:
            failures.append("%s: testpmd sent %d frames, %d captured" % (label, r["sent"], len(frames)))
        if dup or unknown or data_bad:
            failures.append("%s: %d duplicate, %d unknown frames, %d with a changed payload" %
                            (label, dup, unknown, data_bad))
        if r["session"] == "bare" and r["mode"] == "sw" and nbad:
            failures.append("%s: %d frames with a bad checksum although testpmd computed them all "
                            "(the capture chain is broken)" % (label, nbad))
        split = {}
        if r["session"] == "hwcsum":
            if r["sent"] != nframes or len(frames) != nframes:
                failures.append("%s: %d of %d frames sent, %d captured" % (label, r["sent"], nframes, len(frames)))
            if nbad:
                failures.append("%s: %d frames with a bad checksum: %s" % (label, nbad, bad_names))
            xs = read_xstats("%s/xstats-%d.txt" % (run_dir, r["run"]))
            if not xs:
                failures.append("%s: no xstats" % label)
            split = {k: v for k, v in xs.items() if k.startswith("tx_") and v and not k.startswith("tx_good")
                     and k not in ("tx_errors",)}
            if needs_csum is not None and r["mode"] == "hw" and needs_csum != xs.get("tx_l4_hw"):
                failures.append("%s: %d frames left with NEEDS_CSUM, hwcsum counted tx_l4_hw %s" %
                                (label, needs_csum, xs.get("tx_l4_hw")))
            if r["mode"] == "hw" and xs:
                for k, want in expected_split(model, cases, kinds).items():
                    have = xs.get(k)
                    if isinstance(want, tuple):
                        ok = have is not None and 0 < have <= want[1]
                        want_s = "1..%d" % want[1]
                    else:
                        ok = have == want
                        want_s = str(want)
                    if not ok:
                        failures.append("%s: xstat %s = %s, expected %s for the %s TX engine" %
                                        (label, k, have, want_s, "parse" if model == "e1000e" else "generic"))
                if model == "e1000e":
                    reasons = {k: v for k, v in xs.items() if k.startswith("tx_l4_sw_") and k != "tx_l4_sw_bytes" and v}
                    if sum(reasons.values()) != xs.get("tx_l4_sw", -1):
                        failures.append("%s: tx_l4_sw %s but the reasons add up to %d (%s)" %
                                        (label, xs.get("tx_l4_sw"), sum(reasons.values()), reasons))
        if needs_csum is not None:
            split["vnet_NEEDS_CSUM"] = needs_csum
        bk = ",".join("%s:%d" % kv for kv in sorted(bad_by_kind.items())) or "-"
        if bad_names:
            bk += " (" + ",".join("%s:%d" % kv for kv in sorted(bad_names.items())) + ")"
        print("%-4d %-7s %-4s %5d %5d %8d %5s  %-34s %s" % (
            r["run"], r["session"], r["mode"], r["sent"], len(frames), nbad,
            "ok" if not data_bad else "BAD", bk,
            " ".join("%s=%d" % kv for kv in split.items()) or "-"))
        out.append(dict(r, captured=len(frames), bad=nbad, bad_by_kind=bad_by_kind,
                        bad_checksums=bad_names, data_bad=data_bad, xstats_tx=split))
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"model": model, "frames": nframes, "runs": out, "failures": failures}, f, indent=1)
    for msg in failures:
        print("FAIL: " + msg)
    print("analyze %s: %s" % (model, "PASSED" if not failures else "FAILED (%d)" % len(failures)))
    return 1 if failures else 0


sys.exit(main())
