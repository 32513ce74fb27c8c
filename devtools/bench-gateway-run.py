#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Throughput of the tunnel gateway (app/hwcsum-tunnel) against testpmd.

Cells: encapsulation (inner -> underlay) and decapsulation (underlay ->
inner) of VXLAN/IPv4/UDP, SIZE = inner Ethernet frame of 64/512/1500 bytes
(outer frame SIZE + 50), Mpps on one forwarding lcore. Peer in the same
run, rounds interleaving both: dpdk-testpmd's csum engine on the bare port
with `csum parse-tunnel on` and `csum set ip|udp|outer-ip|outer-udp sw`,
forwarding the same VXLAN packets (outer frame SIZE + 50 in and out).

What each side does per packet:

  gateway encap  receives the inner frame (complete checksums, so no
                 CHECKSUM_PARTIAL request), builds Ethernet/IPv4/UDP/VXLAN
                 in the headroom, outer IPv4 header checksum in software,
                 outer UDP checksum asked of hwcsum as CHECKSUM_PARTIAL
                 (net_null under it: hwcsum's software path sums the whole
                 UDP datagram), flow-hash source port (CRC32-C); one pass
                 over the data.
  gateway decap  hwcsum RX sums the packet once (CHECKSUM_COMPLETE) and
                 classifies it through the registry; the gateway parses
                 VXLAN, verifies outer IPv4 + UDP and inner IPv4 + UDP from
                 the sum (headers only), strips 50 bytes, looks the VNI up
                 and sends the inner frame to its port.
  testpmd csum   parses the tunnel, recomputes inner IPv4 + UDP and outer
                 IPv4 + UDP checksums in software (rte_ipv4_udptcp_cksum:
                 two passes over the inner data), no encapsulation or
                 decapsulation, no verification, no lookup.

Traffic: net_pcap infinite_rx=1 into net_null (no-rx). Gateway rate: tx
pps of its output port from the lines --stats-interval 1 prints, the first
one (warm-up) dropped; testpmd rate: Tx-pps of `show port stats`. The
gateway (a new process per sample) and testpmd never forward at the same
time. Before timing, each size goes once through every contender into
net_pcap tx_pcap files: tshark checks the checksums, the gateway's inner
frames are compared byte for byte, and decap of packets with every
checksum wrong must forward nothing. Nothing here is pass/fail.

usage: bench-gateway-run.py --gateway PATH --outdir DIR [--json PATH]
       [--rounds N] [--duration S] [--sizes 64,512,1500,imix] [--testpmd PATH]

IMIX: one pcap of inner frames of 64, 570 and 1518 bytes, 7:4:1,
interleaved (64 570 64 64 570 64 1518 64 570 64 64 570, four times, the
16 flows in turn), checked and timed like the fixed sizes; its cell's
frame lengths are the means (353.8 B inner).
"""
import argparse
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("bench_pmd_run",
                                               os.path.join(HERE, "bench-pmd-run.py"))
bpr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bpr)

OUTER_OVERHEAD = 50
N_FLOWS = 16
# IMIX 7:4:1 of 64/570/1518, interleaved so that no size comes in a run.
IMIX_PATTERN = (64, 570, 64, 64, 570, 64, 1518, 64, 570, 64, 64, 570)
IMIX_FRAMES = 4 * len(IMIX_PATTERN)
EAL = bpr.EAL
VNI = 42
OUTER_SRC, OUTER_DST = "192.168.0.1", "192.168.0.2"      # remote VTEP, gateway
MAC_REMOTE, MAC_GW = "02:00:00:00:00:01", "02:00:00:00:00:02"
DIRS = ("encap", "decap")


def log(msg):
    print(msg, flush=True)


# --------------------------------------------------------------- traffic

def frame_sizes(size):
    """The inner frame sizes of a cell, in order: N_FLOWS of size, or IMIX."""
    if size == "imix":
        return [IMIX_PATTERN[i % len(IMIX_PATTERN)] for i in range(IMIX_FRAMES)]
    return [size] * N_FLOWS


def mean_size(size):
    v = frame_sizes(size)
    return sum(v) / len(v)


def parse_sizes(text):
    return [s if s == "imix" else int(s) for s in text.split(",")]


def make_pcaps(workdir, sizes):
    """inner-N.pcap (inner frames), vxlan-N.pcap (RFC 7348 VXLAN of them,
    every checksum right), vxlan-N-bad.pcap (every checksum wrong); N a
    size or imix."""
    from scapy.all import Ether, IP, UDP, Raw, wrpcap  # noqa: E402

    os.makedirs(workdir, exist_ok=True)
    out = {}
    for size in sizes:
        inner, good, bad = [], [], []
        for j, fsize in enumerate(frame_sizes(size)):
            i = j % N_FLOWS
            f = bytes(bpr.inner_frame(i, fsize, "bench-gateway"))
            # flags I only, reserved bits zero: lib/udp_tunnel's parser is
            # strict (scapy's VXLAN layer sets GPE bits)
            vxlan = bytes([0x08, 0, 0, 0]) + VNI.to_bytes(3, "big") + b"\0"
            pkt = bytes(Ether(src=MAC_REMOTE, dst=MAC_GW) /
                        IP(src=OUTER_SRC, dst=OUTER_DST) /
                        UDP(sport=40000 + i, dport=4789) / Raw(vxlan + f))
            raw = bytearray(pkt)
            for off in (14 + 10, 14 + 20 + 6, 64 + 10, 64 + 20 + 6):
                raw[off] ^= 0x5A
                raw[off + 1] ^= 0xA5
            inner.append(Ether(f))
            good.append(Ether(pkt))
            bad.append(Ether(bytes(raw)))
        p = {k: os.path.join(workdir, "%s-%s.pcap" % (k, size))
             for k in ("inner", "vxlan", "vxlan-bad")}
        wrpcap(p["inner"], inner)
        wrpcap(p["vxlan"], good)
        wrpcap(p["vxlan-bad"], bad)
        p["inner_frames"] = [bytes(x) for x in inner]
        out[size] = p
    return out


# ------------------------------------------------------------- gateway

def gateway_cmd(args, direction, rx_pcap, tx_pcap=None, infinite=True, duration=2,
                prefix="gwb"):
    """The gateway with one tunnel; rx_pcap feeds the direction's input."""
    src = "net_pcap_src,rx_pcap=%s%s" % (rx_pcap, ",infinite_rx=1" if infinite else "")
    dst = ("net_pcap_dst,tx_pcap=%s" % tx_pcap) if tx_pcap else "net_null_dst,no-rx=1"
    dst_name = dst.split(",")[0]
    if direction == "encap":
        ul, inner = dst, src
        local, remote, rmac = OUTER_SRC, OUTER_DST, MAC_GW
    else:
        ul, inner = src, dst
        local, remote, rmac = OUTER_DST, OUTER_SRC, MAC_REMOTE
    ul_name, inner_name = ul.split(",")[0], inner.split(",")[0]
    assert dst_name in (ul_name, inner_name)
    return ([args.gateway] + EAL + ["--file-prefix", "%s-%d" % (prefix, os.getpid()),
                                    "--vdev", ul, "--vdev", "net_hwcsum0,sub=" + ul_name,
                                    "--vdev", inner, "--vdev", "net_hwcsum1,sub=" + inner_name,
                                    "--", "--underlay", "net_hwcsum0",
                                    # a jumbo underlay, as VXLAN needs for
                                    # 1500-byte VM frames (else too_big)
                                    "--underlay-mtu", "9000",
                                    "--tunnel", "name=bench,type=vxlan,vni=%d,inner_port=net_hwcsum1,"
                                    "local=%s,remote=%s,remote_mac=%s" % (VNI, local, remote, rmac),
                                    "--stats-interval", "1" if infinite else "0",
                                    "--duration", str(duration)])


STAT_RE = re.compile(r"^\s+(underlay|inner)\s+(\S+)\s+rx\s+(\d+) pps.*tx\s+(\d+) pps", re.M)


def gateway_sample(args, direction, pcap):
    """Mpps of the output port (mean of the per-second lines after the first)."""
    cmd = gateway_cmd(args, direction, pcap, duration=args.duration)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.duration + 60)
    if p.returncode != 0:
        raise RuntimeError("gateway exited %d:\n%s" % (p.returncode, (p.stdout + p.stderr)[-3000:]))
    want = "underlay" if direction == "encap" else "inner"
    rates = [int(m.group(4)) for m in STAT_RE.finditer(p.stdout) if m.group(1) == want]
    drops = re.findall(r"^  drops: (.*)$", p.stdout, re.M)
    if len(rates) < 2:
        raise RuntimeError("gateway printed %d stats line(s):\n%s" % (len(rates), p.stdout[-3000:]))
    dropped = sum(int(v) for v in re.findall(r"\s(\d+)", " " + drops[-1])) if drops else -1
    return statistics.mean(rates[1:]) / 1e6, dropped, p.stdout


def check_gateway(args, pcaps, workdir):
    res = {}
    for size, p in pcaps.items():
        r = {}
        for direction, src, name in (("encap", p["inner"], "encap"),
                                     ("decap", p["vxlan"], "decap"),
                                     ("decap", p["vxlan-bad"], "decap-bad")):
            out = os.path.join(workdir, "check-gw-%s-%s.pcap" % (name, size))
            if os.path.exists(out):
                os.unlink(out)
            cmd = gateway_cmd(args, direction, src, tx_pcap=out, infinite=False,
                              duration=1, prefix="gwb-chk")
            pr = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            sent = len(p["inner_frames"])
            e = {"sent": sent, "exit": pr.returncode}
            if name == "decap-bad":
                from scapy.all import rdpcap  # noqa: E402
                e["forwarded"] = len(rdpcap(out)) if os.path.exists(out) else 0
                m = re.search(r"outer_csum (\d+)", pr.stdout)
                e["dropped_outer_csum"] = int(m.group(1)) if m else None
                e["ok"] = pr.returncode == 0 and e["forwarded"] == 0 and \
                    e["dropped_outer_csum"] == sent
                log("check: %4s B gateway %-9s %d forwarded, %s dropped outer_csum (want 0, %d)"
                    % (size, name, e["forwarded"], e["dropped_outer_csum"], sent))
            else:
                from scapy.all import rdpcap  # noqa: E402
                n, good = bpr.tshark_verdicts(out) if direction == "encap" else \
                    inner_verdicts(out)
                got = [bytes(x) for x in rdpcap(out)]
                inners = [g[OUTER_OVERHEAD:] for g in got] if direction == "encap" else got
                same = sum(1 for a, b in zip(inners, p["inner_frames"]) if a == b)
                e.update({"packets": n, "checksums_good": good, "inner_identical": same,
                          "ok": pr.returncode == 0 and good == sent and same == sent})
                log("check: %4s B gateway %-9s %2d/%d with all %d checksums right, "
                    "%2d/%d inner frames identical" %
                    (size, name, good, sent, 4 if direction == "encap" else 2,
                     same, sent))
            r[name] = e
        res[str(size)] = r
    return res


def inner_verdicts(path):
    """(packets, packets whose IPv4 and UDP checksums are both good)."""
    fr = bpr.pcap_csum.frames(path)
    return len(fr), sum(1 for f in fr if f.status.get("ip") == ["good"] and
                        f.status.get("udp") == ["good"])


# ------------------------------------------------------------- testpmd

def check_testpmd(args, pcaps, workdir):
    res = {}
    for size, p in pcaps.items():
        out = os.path.join(workdir, "check-testpmd-%s.pcap" % size)
        if os.path.exists(out):
            os.unlink(out)
        tp = bpr.start_testpmd(args.testpmd, "gwb-tpchk-%d" % os.getpid(),
                               ["net_pcap_in,rx_pcap=" + p["vxlan-bad"],
                                "net_pcap_out,tx_pcap=" + out],
                               out[:-len(".pcap")] + ".log", app_extra=["--no-flush-rx"])
        txp = tp.ports()["net_pcap_out"]
        tp.cmd("set fwd csum")
        tp.cmd("port stop all")
        bpr.setup_csum(tp, txp, "sw")
        tp.cmd("port start all")
        tp.cmd("start")
        time.sleep(0.5)
        tp.cmd("stop")
        tp.quit()
        n, good = bpr.tshark_verdicts(out)
        sent = len(p["inner_frames"])
        res[str(size)] = {"sent": sent, "packets": n, "all_checksums_good": good,
                          "ok": good == sent}
        log("check: %4s B testpmd csum sw %2d/%d with all 4 checksums right "
            "(fed every checksum wrong)" % (size, good, sent))
    return res


# -------------------------------------------------------------- timing

def measure(args, pcaps):
    vdevs = ["net_pcap_%s,rx_pcap=%s,infinite_rx=1" % (size, p["vxlan"])
             for size, p in pcaps.items()]
    vdevs.append("net_null_bare,no-rx=1")
    tp = bpr.start_testpmd(args.testpmd, "gwb-pmd-%d" % os.getpid(), vdevs,
                           os.path.join(args.outdir, "gateway", "testpmd.log"))
    ids = tp.ports()
    txp = ids["net_null_bare"]
    tp.cmd("port stop all")
    status = bpr.setup_csum(tp, txp, "sw")
    tp.cmd("port start all")
    tp.cmd("set fwd csum")

    contenders = ["testpmd", "encap", "decap"]
    samples = {s: {c: [] for c in contenders} for s in pcaps}
    drops = {s: {d: [] for d in DIRS} for s in pcaps}
    total = args.rounds * len(pcaps) * len(contenders)
    k = 0
    t0 = time.monotonic()
    try:
        for r in range(args.rounds):
            for size, p in pcaps.items():
                order = contenders[r % 3:] + contenders[:r % 3]
                for c in order:
                    if c == "testpmd":
                        tp.cmd("set portlist %d,%d" % (ids["net_pcap_%s" % size], txp))
                        tp.cmd("start")
                        time.sleep(args.warmup)
                        tp.cmd("show port stats %d" % txp)
                        time.sleep(args.interval)
                        mpps = bpr.tx_pps(tp.cmd("show port stats %d" % txp)) / 1e6
                        tp.cmd("stop")
                    else:
                        src = p["inner"] if c == "encap" else p["vxlan"]
                        mpps, dropped, _ = gateway_sample(args, c, src)
                        drops[size][c].append(dropped)
                    samples[size][c].append(mpps)
                    k += 1
                    log("[%3d/%d %5.0fs] round %d/%d  %4s B  %-8s %6.2f Mpps" %
                        (k, total, time.monotonic() - t0, r + 1, args.rounds, size,
                         "gateway " + c if c != "testpmd" else "testpmd", mpps))
    finally:
        tp.quit()
    return samples, drops, status


def summarize(samples):
    def stats(v):
        return {"samples": [round(x, 3) for x in v], "best": round(max(v), 3),
                "median": round(statistics.median(v), 3)}

    cases = []
    for size, s in samples.items():
        for d in DIRS:
            a, b = s[d], s["testpmd"]
            pairs = [x / y for x, y in zip(a, b) if y > 0]
            cases.append({
                "cell": "%s %s" % (d, size), "direction": d, "size": size,
                "outer_frame_len": mean_size(size) + OUTER_OVERHEAD,
                "in_frame_len": mean_size(size) if d == "encap" else
                mean_size(size) + OUTER_OVERHEAD,
                "out_frame_len": mean_size(size) + OUTER_OVERHEAD if d == "encap" else
                mean_size(size),
                "gateway": stats(a), "peer": stats(b),
                "ratio": {"best": round(max(a) / max(b), 3),
                          "median": round(statistics.median(a) / statistics.median(b), 3),
                          "paired_median": round(statistics.median(pairs), 3)},
            })
    return cases


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--gateway", required=True)
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--json")
    ap.add_argument("--testpmd", default="dpdk-testpmd")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=int, default=4,
                    help="gateway seconds per sample (first second is warm-up)")
    ap.add_argument("--warmup", type=float, default=1.0, help="testpmd warm-up seconds")
    ap.add_argument("--interval", type=float, default=2.0, help="testpmd interval seconds")
    ap.add_argument("--sizes", default="64,512,1500,imix")
    ap.add_argument("--no-check", action="store_true")
    args = ap.parse_args(argv[1:])
    if args.duration < 3:
        ap.error("--duration must be at least 3 (it prints duration - 1 lines: one warm-up, the rest measured)")
    sizes = parse_sizes(args.sizes)
    json_path = args.json or os.path.join(args.outdir, "gateway.json")
    workdir = os.path.join(args.outdir, "gateway")
    t_start = time.monotonic()

    pcaps = make_pcaps(workdir, sizes)
    mach = bpr.machine()
    log("machine: %s, %d CPUs, load average %.2f (shared: only ratios mean anything)" %
        (mach["cpu"], mach["cpus"], mach["loadavg_at_start"][0]))
    log("EAL: %s (no hugepages), one forwarding lcore (lcore 1) on both sides" % " ".join(EAL))
    if args.no_check:
        check = {"verified": False, "why": "--no-check"}
    elif not bpr.shutil.which("tshark"):
        log("check: tshark not found: output NOT verified")
        check = {"verified": False, "why": "tshark not found"}
    else:
        check = {"verified": True, "gateway": check_gateway(args, pcaps, workdir),
                 "testpmd": check_testpmd(args, pcaps, workdir)}
    all_right = check.get("verified") and \
        all(e["ok"] for per in check["gateway"].values() for e in per.values()) and \
        all(e["ok"] for e in check["testpmd"].values())
    log("timing: %d rounds x %d sizes x (testpmd, gateway encap, gateway decap); gateway "
        "%ds per sample (1s warm-up), testpmd %.1fs + %.1fs" %
        (args.rounds, len(sizes), args.duration, args.warmup, args.interval))
    samples, drops, status = measure(args, pcaps)
    cases = summarize(samples)

    print()
    print("Gateway vs testpmd csum engine (sw checksums), VXLAN/IPv4/UDP, Mpps on one lcore")
    print("(median of %d rounds; best in brackets; peer = testpmd csum sw forwarding the "
          "VXLAN frame, no encap/decap)" % args.rounds)
    print("%-12s %-11s %17s %17s %8s %8s" % ("cell", "in->out B", "gateway", "peer",
                                          "ratio", "paired"))
    for c in cases:
        print("%-12s %-11s %7.2f (%6.2f) %7.2f (%6.2f) %7.2fx %7.2fx" %
              (c["cell"], "%d->%d" % (c["in_frame_len"], c["out_frame_len"]),
               c["gateway"]["median"], c["gateway"]["best"], c["peer"]["median"],
               c["peer"]["best"], c["ratio"]["median"], c["ratio"]["paired_median"]))
    bad_drops = {"%s %s" % (d, s): v for s, per in drops.items() for d, v in per.items()
                 if any(x != 0 for x in v)}
    if bad_drops:
        print("WARNING: the gateway dropped packets while timed: %s" % bad_drops)
    if not check.get("verified"):
        print("WARNING: output not verified (%s)" % check.get("why"))
    elif not all_right:
        print("WARNING: the correctness check did not pass for every contender "
              "(see check above): those numbers measure wrong output")
    elapsed = time.monotonic() - t_start
    print("duration: %.0fs" % elapsed)

    doc = {
        "bench": "gateway",
        "unit": "Mpps",
        "machine": mach,
        "eal": EAL,
        "traffic": "VXLAN/IPv4/UDP VNI %d, %d flows, net_pcap infinite_rx -> net_null no-rx"
                   % (VNI, N_FLOWS),
        "size_definition": "inner Ethernet frame bytes; outer frame = size + 50; "
                           "imix: 7:4:1 of 64/570/1518 interleaved, lengths are means",
        "gateway": {"binary": args.gateway, "rate": "tx pps of the output port, "
                    "mean of --stats-interval 1 lines after the first",
                    "duration_s": args.duration,
                    "encap": "inner frame (complete checksums) -> VXLAN; outer IPv4 csum sw, "
                             "outer UDP csum as CHECKSUM_PARTIAL to hwcsum (software path "
                             "over net_null)",
                    "decap": "VXLAN -> inner frame; hwcsum RX COMPLETE sum + registry "
                             "classification, outer IPv4+UDP and inner IPv4+UDP verified"},
        "peer": {"name": "dpdk-testpmd csum engine, bare net_null port",
                 "config": "csum parse-tunnel on; csum set ip|udp|outer-ip|outer-udp sw",
                 "csum_config": status,
                 "does": "recomputes inner IPv4+UDP and outer IPv4+UDP checksums in "
                         "software on the VXLAN frame (size+50 in and out); no "
                         "encapsulation, decapsulation, verification or lookup",
                 "rate": "Tx-pps of show port stats", "warmup_s": args.warmup,
                 "interval_s": args.interval},
        "rounds": args.rounds,
        "check": check,
        "output_right": bool(all_right),
        "gateway_drops_while_timed": {"%s %s" % (d, s): v for s, per in drops.items()
                                      for d, v in per.items()},
        "duration_s": round(elapsed, 1),
        "cases": cases,
    }
    bpr.write_json(json_path, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
