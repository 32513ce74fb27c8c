#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Instructions per packet of the tunnel gateway (app/hwcsum-tunnel) under
callgrind: the traffic of devtools/bench-gateway.sh (VXLAN/IPv4/UDP, VNI
42, 16 flows), a fixed number of packets through net_pcap (no
infinite_rx) into net_null, one lcore. Deterministic, unlike the Mpps of
the benchmark: the before/after measure on a shared machine.

Columns, instructions per packet (callgrind Ir, inclusive):
  gateway   the gateway's own work: gw_encap_burst / gw_decap_burst minus
            gw_tx (its transmit into hwcsum and net_null)
  tx        gw_tx: hwcsum's TX (the outer UDP checksum on encap) and net_null
  hwcsum_rx hwcsum_rx_one: hwcsum's receive work (decap; 0 on encap,
            whose inner port has none)
  total     gateway + tx + hwcsum_rx (net_pcap's copy and the polling
            loop are left out)

usage: callgrind-gateway.py --gateway PATH --outdir DIR
       [--sizes 64,512,1500,imix] [--packets N] [--dirs encap,decap] [--json PATH]
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("bench_gateway_run",
                                               os.path.join(HERE, "bench-gateway-run.py"))
bgr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bgr)


def repeat_pcap(src, dst, n):
    from scapy.all import rdpcap, wrpcap  # noqa: E402
    pk = rdpcap(src)
    wrpcap(dst, [pk[i % len(pk)] for i in range(n)])


def inclusive(out_file):
    """{function: inclusive Ir} from callgrind_annotate --inclusive=yes."""
    txt = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                          out_file], capture_output=True, text=True, check=True).stdout
    res = {}
    for line in txt.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\([^)]*\)\s+\S*:(\S+)", line) or \
            re.match(r"^\s*([\d,]+)\s+\S*:(\S+)", line)
        if m:
            name = m.group(2).split("'")[0]
            res.setdefault(name, int(m.group(1).replace(",", "")))
    return res


def run_one(args, direction, size, pcap, workdir):
    out = os.path.join(workdir, "cg-%s-%s.out" % (direction, size))
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + \
        bgr.gateway_cmd(args, direction, pcap, infinite=False, duration=args.duration,
                        prefix="gwcg")
    cmd = [c if c != "0-1" else "0" for c in cmd]	# one lcore: main forwards
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("gateway under callgrind exited %d:\n%s" %
                           (p.returncode, (p.stdout + p.stderr)[-3000:]))
    m = re.search(r"encap (\d+) decap (\d+)", p.stdout)
    n = int(m.group(1 if direction == "encap" else 2)) if m else 0
    if n != args.packets:
        raise RuntimeError("%s %s: %d of %d packets forwarded:\n%s" %
                           (direction, size, n, args.packets, p.stdout[-2000:]))
    inc = inclusive(out)
    burst = inc.get("gw_%s_burst" % direction, 0)
    tx = inc.get("gw_tx", 0)
    rx = inc.get("hwcsum_rx_one", 0)
    per = {"gateway": (burst - tx) / n, "tx": tx / n, "hwcsum_rx": rx / n,
           "total": (burst + rx) / n}
    return per


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--gateway", required=True)
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--sizes", default="64,512,1500,imix")
    ap.add_argument("--dirs", default="encap,decap")
    ap.add_argument("--packets", type=int, default=2400)
    ap.add_argument("--duration", type=int, default=6)
    ap.add_argument("--json")
    args = ap.parse_args(argv[1:])
    workdir = os.path.join(args.outdir, "callgrind")
    os.makedirs(workdir, exist_ok=True)
    sizes = [s if s == "imix" else int(s) for s in args.sizes.split(",")]
    pcaps = bgr.make_pcaps(workdir, sizes)
    res = {}
    print("%-6s %-6s %10s %10s %10s %10s" % ("dir", "size", "gateway", "tx", "hwcsum_rx",
                                             "total"))
    for size, p in pcaps.items():
        for d in args.dirs.split(","):
            src = os.path.join(workdir, "cg-in-%s-%s.pcap" % (d, size))
            repeat_pcap(p["inner"] if d == "encap" else p["vxlan"], src, args.packets)
            per = run_one(args, d, size, src, workdir)
            res["%s %s" % (d, size)] = {k: round(v, 1) for k, v in per.items()}
            print("%-6s %-6s %10.1f %10.1f %10.1f %10.1f" %
                  (d, size, per["gateway"], per["tx"], per["hwcsum_rx"], per["total"]),
                  flush=True)
    if args.json:
        bgr.bpr.write_json(args.json, {"gateway": args.gateway, "packets": args.packets,
                                       "instructions_per_packet": res}, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
