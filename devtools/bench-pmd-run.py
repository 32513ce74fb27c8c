#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""PMD benchmarks of net_hwcsum, driven through an unmodified dpdk-testpmd.

Two comparisons, each against a named peer in the same testpmd process,
rounds interleaving every contender (the machine is shared: only ratios
from the same run mean anything; nothing here is pass/fail):

  tx-sw-path    testpmd's csum engine with `csum set ip|udp|outer-ip|outer-udp
                hw` on net_hwcsum over a sub-port with no engine
                (tx_engine=none: everything in hwcsum's software path)
                against the same engine with `... sw` on the bare sub-port.
  pass-through  io forwarding over a second net_hwcsum port with no offload
                configured or requested against io on the bare sub-port.

Traffic: VXLAN/IPv4/UDP from net_pcap (infinite_rx) into net_null (no-rx);
SIZE is the inner Ethernet frame (inner L2 header to the end of the inner
UDP payload), the outer frame is SIZE + 50 bytes. `imix` is one pcap of
64, 570 and 1518-byte inner frames interleaved 7:4:1 (the simple IMIX).
Rate: Tx-pps of the transmitting port from `show port stats` over
--interval seconds after --warmup seconds of forwarding, one sample per
contender per round. The two contenders of a comparison run back to back
(which one first alternates, and so does which comparison goes first), so
that the per-round ratio ("paired") compares samples taken moments apart.

Before timing, a correctness check sends each size once with every
checksum wrong through both TX contenders into net_pcap tx_pcap files and
has tshark verify the outer and inner IPv4 and UDP checksums: a benchmark of
wrong checksums is worthless, so the JSON says whether each one was right.

usage: bench-pmd-run.py --pmd-so SO --outdir DIR [--json PATH] [--rounds N]
       [--warmup S] [--interval S] [--sizes 64,512,1500,imix] [--testpmd PATH]
"""
import argparse
import os
import re
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import pcap_csum  # noqa: E402
import bench_common  # noqa: E402
import testpmd  # noqa: E402
from bench_common import write_json  # noqa: E402,F401 (bench-gateway-run.py uses it)

OUTER_OVERHEAD = 50  # outer Ethernet 14 + IPv4 20 + UDP 8 + VXLAN 8
N_FLOWS = 16
EAL = testpmd.EAL_HOST
APP = ["-i", "--total-num-mbufs=8192", "--nb-cores=1", "--rxd=512", "--txd=512"]
CSUM_KINDS = ["ip", "udp", "outer-ip", "outer-udp"]

# (name, forwarding engine, TX port role), in comparisons of two: the peer
# first, then hwcsum.
COMPARISONS = [
    [("bare-csum-sw", "csum", "bare"), ("hwcsum-csum-hw", "csum", "hwcsum")],
    [("bare-io", "io", "bare"), ("hwcsum-io", "io", "hwcsum_io")],
]
CONTENDERS = [c for pair in COMPARISONS for c in pair]

# The simple IMIX: inner frame sizes and how many of each in a cycle.
IMIX = ((64, 7), (570, 4), (1518, 1))
# 7:4:1 spread out over a cycle of 12 rather than in runs of one size.
IMIX_CYCLE = [64, 570, 64, 64, 1518, 64, 570, 64, 64, 570, 64, 570]
IMIX_CYCLES = 4


def size_label(size):
    """'64', ..., or 'imix'."""
    return str(size)


def outer_frame_len(size):
    """Outer frame bytes; for imix, the mean over the mix."""
    if size == "imix":
        n = sum(k for _, k in IMIX)
        return round(sum((s + OUTER_OVERHEAD) * k for s, k in IMIX) / n, 1)
    return size + OUTER_OVERHEAD


def parse_sizes(text):
    sizes = []
    for s in text.split(","):
        s = s.strip().lower()
        sizes.append(s if s == "imix" else int(s))
    return sizes


def log(msg):
    print(msg, flush=True)


# --------------------------------------------------------------- traffic

def inner_frame(i, fsize, who):
    """Flow i's inner Ethernet/IPv4/UDP frame of fsize bytes (scapy)."""
    from scapy.all import Ether, IP, UDP, Raw  # noqa: E402

    f = (Ether(src="02:00:00:00:01:%02x" % i, dst="02:00:00:00:02:01") /
         IP(src="10.1.0.%d" % (i + 1), dst="10.2.0.1") /
         UDP(sport=1000 + i, dport=2000))
    pay = fsize - len(f)
    if pay < 0:
        raise SystemExit("%s: size %d is below the %d-byte inner frame" % (who, fsize, len(f)))
    return f / Raw(bytes((i * 7 + j) & 0xFF for j in range(pay)))


def make_pcaps(outdir, sizes):
    """vxlan-N.pcap (valid checksums) and vxlan-N-bad.pcap (all wrong);
    for imix, the sizes of IMIX_CYCLE in turn, flows as for the others."""
    from scapy.all import Ether, IP, UDP, wrpcap  # noqa: E402
    from scapy.layers.vxlan import VXLAN  # noqa: E402

    os.makedirs(outdir, exist_ok=True)
    paths = {}
    for size in sizes:
        good, bad = [], []
        frames = IMIX_CYCLE * IMIX_CYCLES if size == "imix" else [size] * N_FLOWS
        for k, fsize in enumerate(frames):
            i = k % N_FLOWS
            inner = inner_frame(i, fsize, "bench-pmd")
            pkt = (Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
                   IP(src="192.168.0.1", dst="192.168.0.2") /
                   UDP(sport=40000 + i, dport=4789) / VXLAN(vni=42) / inner)
            raw = bytearray(bytes(pkt))
            good.append(Ether(bytes(raw)))
            # Every checksum wrong but the outer UDP one non-zero, so that
            # testpmd's sw path recomputes it (it leaves a 0 alone).
            for off in (14 + 10, 14 + 20 + 6, 64 + 10, 64 + 20 + 6):
                raw[off] ^= 0x5A
                raw[off + 1] ^= 0xA5
            bad.append(Ether(bytes(raw)))
        paths[size] = (os.path.join(outdir, "vxlan-%s.pcap" % size_label(size)),
                       os.path.join(outdir, "vxlan-%s-bad.pcap" % size_label(size)))
        wrpcap(paths[size][0], good)
        wrpcap(paths[size][1], bad)
    return paths


# ------------------------------------------------------------- testpmd

def start_testpmd(binary, prefix, vdevs, log, pmd=None, app_extra=()):
    """One interactive testpmd (tests/lib/testpmd.py) with the benchmarks'
    EAL and application arguments, its output in log, at its first prompt."""
    tp = testpmd.Testpmd([binary] + testpmd.eal_args(prefix, pmd, vdevs) + ["--"] +
                         APP + list(app_extra), log)
    tp.wait_prompt()
    return tp


def port_xstats(tp, port):
    return testpmd.xstats(tp.cmd("show port xstats %d" % port))


def tx_pps(out):
    m = re.search(r"Tx-pps:\s+(\d+)", out)
    if not m:
        raise RuntimeError("no Tx-pps in:\n" + out)
    return int(m.group(1))


def setup_csum(tp, port, mode):
    """Tunnel parsing and all four checksums in mode; what testpmd now says."""
    tp.cmd("csum parse-tunnel on %d" % port)
    out = ""
    for kind in CSUM_KINDS:
        out = tp.cmd("csum set %s %s %d" % (kind, mode, port))
    st = csum_status(out)
    if any(st.get(kind) != mode for kind in CSUM_KINDS):
        raise RuntimeError("port %d: asked for %s checksums, testpmd has %s:\n%s"
                           % (port, mode, st, out))
    return st


def csum_status(out):
    """{kind: 'hw'|'sw'} from the `csum show` lines testpmd prints."""
    st = {}
    for kind, label in (("ip", "IP"), ("udp", "UDP"), ("outer-ip", "Outer-Ip"),
                        ("outer-udp", "Outer-Udp")):
        found = re.findall(r"^%s checksum offload is (\w+)" % re.escape(label), out, re.M)
        if found:
            st[kind] = found[-1]
    return st


# ------------------------------------------------------- correctness

def tshark_verdicts(path):
    """(packets, packets with all four IPv4/UDP checksums good)."""
    fr = pcap_csum.frames(path)
    return len(fr), sum(1 for f in fr if f.verdicts(("ip", "udp")) == ["good"] * 4)


def pcap_frames(path):
    """The raw bytes of every packet of a pcap file."""
    from scapy.all import rdpcap  # noqa: E402
    return [bytes(p) for p in rdpcap(path)]


# (contender, TX port role, input) of the correctness check: both TX
# contenders on the bad-checksum file; the pass-through on the good one,
# which must come out byte for byte as it went in.
CHECKS = (("bare-csum-sw", "bare", "bad"), ("hwcsum-csum-hw", "hwcsum", "bad"),
          ("hwcsum-io", "hwcsum_io", "good"))


def check_correctness(args, pcaps, workdir):
    """Send each size's packets once through every checked contender."""
    if shutil.which("tshark") is None:
        log("check: tshark not found: output NOT verified")
        return {"verified": False, "why": "tshark not found"}
    result = {"verified": True, "sizes": {}}
    for size, (good_pcap, bad) in pcaps.items():
        res = {}
        sent = len(pcap_frames(bad))
        for name, role, which in CHECKS:
            src = bad if which == "bad" else good_pcap
            out_pcap = os.path.join(workdir, "check-%s-%s.pcap" % (name, size_label(size)))
            if os.path.exists(out_pcap):
                os.unlink(out_pcap)
            vdevs = ["net_pcap_in,rx_pcap=" + src, "net_pcap_out,tx_pcap=" + out_pcap]
            if role == "hwcsum":
                vdevs.append("net_hwcsum_chk,sub=net_pcap_out,tx_engine=none")
            elif role == "hwcsum_io":
                vdevs.append("net_hwcsum_chk,sub=net_pcap_out")
            tp = start_testpmd(args.testpmd, "hwcsum-bench-chk-%d" % os.getpid(), vdevs,
                               out_pcap[:-len(".pcap")] + ".log",
                               args.pmd_so if role != "bare" else None, ["--no-flush-rx"])
            ids = tp.ports()
            txp = ids["net_pcap_out" if role == "bare" else "net_hwcsum_chk"]
            if role == "hwcsum_io":
                tp.cmd("set fwd io")
            else:
                tp.cmd("set fwd csum")
                tp.cmd("port stop all")
                setup_csum(tp, txp, "hw" if role == "hwcsum" else "sw")
                tp.cmd("port start all")
            tp.cmd("start")
            time.sleep(0.5)
            tp.cmd("stop")
            xs = port_xstats(tp, txp) if role != "bare" else {}
            tp.quit()  # closes the pcap dumper
            n, good = tshark_verdicts(out_pcap)
            entry = {"packets": n, "all_checksums_good": good, "sent": sent}
            if role == "hwcsum":
                entry["tx_l4_sw"] = xs.get("tx_l4_sw", 0)
                entry["tx_outer_udp_lco"] = xs.get("tx_outer_udp_lco", 0)
                entry["tx_ip_sw"] = xs.get("tx_ip_sw", 0)
                detail = "  (tx_l4_sw %d, tx_outer_udp_lco %d, tx_ip_sw %d)" % (
                    entry["tx_l4_sw"], entry["tx_outer_udp_lco"], entry["tx_ip_sw"])
            elif role == "hwcsum_io":
                same = pcap_frames(out_pcap) == pcap_frames(src)
                entry["unchanged"] = same
                entry["requests"] = xs.get("tx_req_dpdk_flags", 0) + \
                    xs.get("tx_req_partial", 0)
                if not same:  # counts as wrong: a pass-through must not touch
                    entry["all_checksums_good"] = 0
                detail = "  (%s)" % ("byte-identical" if same else "CHANGED")
            else:
                detail = ""
            res[name] = entry
            log("check: %4s B %-15s %2d/%d packets with all 4 checksums right%s" %
                (size_label(size), name, entry["all_checksums_good"], sent, detail))
        result["sizes"][size_label(size)] = res
    return result


# -------------------------------------------------------------- timing

def machine():
    return dict(bench_common.machine(), loadavg_at_start=list(os.getloadavg()))


def measure(args, pcaps, workdir):
    vdevs = ["net_pcap_%s,rx_pcap=%s,infinite_rx=1" % (size_label(size), good)
             for size, (good, _) in pcaps.items()]
    vdevs += ["net_null_bare,no-rx=1", "net_null_sub,no-rx=1",
              "net_hwcsum_tx,sub=net_null_sub,tx_engine=none",
              "net_null_sub_io,no-rx=1", "net_hwcsum_io,sub=net_null_sub_io"]
    tp = start_testpmd(args.testpmd, "hwcsum-bench-pmd-%d" % os.getpid(), vdevs,
                       os.path.join(workdir, "testpmd.log"), args.pmd_so)
    ids = tp.ports()
    port = {"bare": ids["net_null_bare"], "hwcsum": ids["net_hwcsum_tx"],
            "hwcsum_io": ids["net_hwcsum_io"]}
    rx = {size: ids["net_pcap_%s" % size_label(size)] for size in pcaps}
    tp.cmd("port stop all")
    status = {"bare": setup_csum(tp, port["bare"], "sw"),
              "hwcsum": setup_csum(tp, port["hwcsum"], "hw")}
    tp.cmd("port start all")
    tp.cmd("clear port xstats %d" % port["hwcsum"])

    samples = {size: {c[0]: [] for c in CONTENDERS} for size in pcaps}
    total = args.rounds * len(pcaps) * len(CONTENDERS)
    k = 0
    t0 = time.monotonic()
    for r in range(args.rounds):
        for size in pcaps:
            # The two of a comparison back to back; who goes first alternates
            # every round, and which comparison goes first every other one.
            pairs = COMPARISONS if r % 4 < 2 else COMPARISONS[::-1]
            order = [c for pair in pairs for c in (pair if r % 2 == 0 else pair[::-1])]
            for name, fwd, role in order:
                txp = port[role]
                tp.cmd("set fwd %s" % fwd)
                tp.cmd("set portlist %d,%d" % (rx[size], txp))
                tp.cmd("start")
                time.sleep(args.warmup)
                tp.cmd("show port stats %d" % txp)	# baseline
                time.sleep(args.interval)
                mpps = tx_pps(tp.cmd("show port stats %d" % txp)) / 1e6
                tp.cmd("stop")
                samples[size][name].append(mpps)
                k += 1
                log("[%3d/%d %5.0fs] round %d/%d  %4s B  %-15s %6.2f Mpps" %
                    (k, total, time.monotonic() - t0, r + 1, args.rounds, size_label(size),
                     name, mpps))
    xs = port_xstats(tp, port["hwcsum"])
    xs_io = port_xstats(tp, port["hwcsum_io"])
    tp.quit()
    return samples, status, xs, xs_io


def summarize(samples):
    def stats(v):
        return {"samples": [round(x, 3) for x in v], "best": round(max(v), 3),
                "median": round(statistics.median(v), 3)}

    def ratio(a, b):
        pairs = [x / y for x, y in zip(a, b) if y > 0]
        return {"best": round(max(a) / max(b), 3),
                "median": round(statistics.median(a) / statistics.median(b), 3),
                "paired_median": round(statistics.median(pairs), 3)}

    cases = []
    for size, s in samples.items():
        case = {
            "size": size,
            "outer_frame_len": outer_frame_len(size),
            "contenders": {name: stats(v) for name, v in s.items()},
            "ratios": {
                "tx_sw_path": ratio(s["hwcsum-csum-hw"], s["bare-csum-sw"]),
                "pass_through": ratio(s["hwcsum-io"], s["bare-io"]),
            },
        }
        if size == "imix":
            case["label"] = "imix"
            case["mix"] = [{"size": sz, "weight": w} for sz, w in IMIX]
        cases.append(case)
    return cases


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--pmd-so", required=True)
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--json")
    ap.add_argument("--testpmd", default="dpdk-testpmd")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--warmup", type=float, default=0.4)
    ap.add_argument("--interval", type=float, default=0.5)
    ap.add_argument("--sizes", default="64,512,1500,imix")
    ap.add_argument("--no-check", action="store_true")
    args = ap.parse_args(argv[1:])
    sizes = parse_sizes(args.sizes)
    json_path = args.json or os.path.join(args.outdir, "pmd.json")
    workdir = os.path.join(args.outdir, "pmd")
    os.makedirs(workdir, exist_ok=True)

    pcaps = make_pcaps(workdir, sizes)
    mach = machine()
    log("machine: %s, %d CPUs, load average %.2f (shared: only ratios mean anything)" %
        (mach["cpu"], mach["cpus"], mach["loadavg_at_start"][0]))
    log("testpmd: %s (no hugepages), one forwarding core" % " ".join(EAL))
    check = {"verified": False, "why": "--no-check"} if args.no_check else \
        check_correctness(args, pcaps, workdir)
    log("timing: %d rounds x %d sizes x %d contenders, %.1fs warm-up + %.1fs each" %
        (args.rounds, len(sizes), len(CONTENDERS), args.warmup, args.interval))
    samples, status, xs, xs_io = measure(args, pcaps, workdir)
    cases = summarize(samples)

    tx_pkts = xs.get("tx_good_packets", 0)
    hw_work = xs.get("tx_l4_sw", 0) > 0
    all_right = check.get("verified") and all(
        e["all_checksums_good"] == e["sent"]
        for per in check["sizes"].values() for e in per.values())
    io_req = xs_io.get("tx_req_dpdk_flags", 0) + xs_io.get("tx_req_partial", 0)

    print()
    print("TX software path (Mpps, one core; best / median of %d rounds)" % args.rounds)
    print("%-6s %-7s %17s %17s %8s %8s %8s" % ("size", "frame", "bare csum sw",
          "hwcsum csum hw", "best", "median", "paired"))
    for c in cases:
        a, b, r = c["contenders"]["bare-csum-sw"], c["contenders"]["hwcsum-csum-hw"], \
            c["ratios"]["tx_sw_path"]
        print("%-6s %-7s %8.2f / %6.2f %8.2f / %6.2f %7.2fx %7.2fx %7.2fx" %
              (size_label(c["size"]), c["outer_frame_len"], a["best"], a["median"], b["best"],
               b["median"], r["best"], r["median"], r["paired_median"]))
    print()
    print("Pass-through (io forwarding, Mpps; ratio hwcsum / bare, target: paired >= 0.98)")
    print("%-6s %-7s %17s %17s %8s %8s %8s" % ("size", "frame", "bare io", "hwcsum io",
          "best", "median", "paired"))
    for c in cases:
        a, b, r = c["contenders"]["bare-io"], c["contenders"]["hwcsum-io"], \
            c["ratios"]["pass_through"]
        print("%-6s %-7s %8.2f / %6.2f %8.2f / %6.2f %7.3fx %7.3fx %7.3fx" %
              (size_label(c["size"]), c["outer_frame_len"], a["best"], a["median"], b["best"],
               b["median"], r["best"], r["median"], r["paired_median"]))
    print()
    print("hwcsum TX port xstats over the run: tx_good_packets %d, tx_req_dpdk_flags %d, "
          "tx_l4_sw %d, tx_outer_udp_lco %d, tx_ip_sw %d" %
          (tx_pkts, xs.get("tx_req_dpdk_flags", 0), xs.get("tx_l4_sw", 0),
           xs.get("tx_outer_udp_lco", 0), xs.get("tx_ip_sw", 0)))
    if not hw_work:
        print("WARNING: tx_l4_sw is 0: hwcsum did no checksum work, so the csum-hw "
              "numbers are a pass-through, not a comparison")
    if not check.get("verified"):
        print("WARNING: checksums not verified (%s)" % check.get("why"))
    elif not all_right:
        print("WARNING: the correctness check did not pass for every contender "
              "(see check above): those numbers measure wrong checksums")
    if io_req:
        print("WARNING: the pass-through port saw %d offload requests" % io_req)

    doc = {
        "bench": "pmd",
        "unit": "Mpps",
        "machine": mach,
        "testpmd": {"eal": EAL, "app": APP, "hugepages": False,
                    "traffic": "VXLAN/IPv4/UDP, %d flows, net_pcap infinite_rx -> net_null no-rx"
                    % N_FLOWS},
        "size_definition": "inner Ethernet frame bytes; outer frame = size + 50; "
                           "imix: 64/570/1518 interleaved 7:4:1, outer_frame_len its mean",
        "rounds": args.rounds, "warmup_s": args.warmup, "interval_s": args.interval,
        "csum_config": status,
        "check": check,
        "checksums_right": bool(all_right),
        "hwcsum_did_tx_work": hw_work,
        "xstats_hwcsum_tx": {k: v for k, v in xs.items() if v},
        "xstats_hwcsum_io": {k: v for k, v in xs_io.items() if v},
        "targets": {"tx_sw_path_1500": 3.0, "pass_through_min": 0.98,
                    "pass_through_ratio": "paired_median"},
        "cases": cases,
    }
    print()
    write_json(json_path, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
