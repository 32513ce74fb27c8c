#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""csum_drive.py: drives one interactive dpdk-testpmd session of
csum_engine.sh and judges every cell (one `csum set` combination).

  csum_drive.py --work DIR --mode bare|hwcsum|rxchain --matrix reduced|full
                --testpmd CMD --eal "EAL ARGS" [--pmd SO]

A cell: `port stop all`, `csum set <ip|udp|tcp|sctp|outer-ip|outer-udp>
hw|sw` on both ports (checked with `csum show`), `port start all`
(net_pcap reopens in.pcap and truncates out.pcap), `start`, poll `show fwd
stats all` until every frame is through, `stop` (Bad-* counters),
`port stop all` (out.pcap closed), then check_capture judges the copy.
"""
import argparse
import itertools
import json
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_capture as cc  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testpmd import Testpmd, fwd_stats, xstats  # noqa: E402
import csum_pkt as cp  # noqa: E402
from scapy.all import rdpcap  # noqa: E402

TXSPLIT = "17,41,2000"     # odd lengths: headers and sums cross segments


def pcap_count(path):
    """Frames in a pcap file so far (complete records only)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return 0
    off, n = 24, 0
    while off + 16 <= len(data):
        caplen = int.from_bytes(data[off + 8:off + 12], "little")
        off += 16 + caplen
        if off <= len(data):
            n += 1
    return n


def cell_name(hw):
    return "+".join(f for f in cp.HW_FLAGS if f in hw) or "all-sw"


def matrix(kind):
    full = [set(c) for n in range(len(cp.HW_FLAGS) + 1)
            for c in itertools.combinations(cp.HW_FLAGS, n)]
    if kind == "full":
        return full
    # Reduced: none, each flag alone, the inner set, the outer set, inner
    # with each outer one, all.
    inner = {"ip", "udp", "tcp", "sctp"}
    cells = [set()] + [{f} for f in cp.HW_FLAGS] + [inner, {"outer-ip", "outer-udp"},
                                                   inner | {"outer-ip"}, inner | {"outer-udp"},
                                                   {"udp", "outer-udp"}, {"ip", "outer-ip"},
                                                   set(cp.HW_FLAGS)]
    return cells


def ptype_lines(out, rx_port):
    """hw ptype per packet received on rx_port, in order (verbose dump)."""
    res = []
    cur = None
    for line in out.splitlines():
        m = re.search(r"port (\d+)/queue \d+: received (\d+) packets", line)
        if m:
            cur = int(m.group(1))
            continue
        if "src=" in line and " - Receive queue=" in line and cur == rx_port:
            m = re.search(r" - hw ptype: (.*?) - sw ptype", line)
            sm = re.search(r"nb_segs=(\d+)", line)
            res.append((m.group(1).strip() if m else "", int(sm.group(1)) if sm else 0))
    return res


TUNNEL_PTYPE = {"vxlan": "TUNNEL_VXLAN", "vxlan-rt": "TUNNEL_VXLAN", "geneve": "TUNNEL_GENEVE",
                "vxlan-gpe": "TUNNEL_VXLAN_GPE"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--mode", choices=("bare", "hwcsum", "rxchain"), required=True)
    ap.add_argument("--matrix", default="reduced")
    ap.add_argument("--testpmd", default="dpdk-testpmd")
    ap.add_argument("--eal", required=True)
    ap.add_argument("--pmd", default="")
    ap.add_argument("--results", required=True)
    a = ap.parse_args()
    w = a.work
    man = json.load(open(os.path.join(w, "manifest.json")))["frames"]
    in_frames = [bytes(p) for p in rdpcap(os.path.join(w, "in.pcap"))]
    n = len(in_frames)
    out_pcap = os.path.join(w, "out-%s.pcap" % a.mode)
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s" % os.path.join(w, "in.pcap"),
             "--vdev", "net_pcap1,tx_pcap=%s" % out_pcap]
    app = ["-i", "--no-flush-rx", "--forward-mode=csum", "--total-num-mbufs=8192"]
    if a.mode != "bare":
        tp = "tunnel_ports=gue:%d" % cp.GUE_PORT
        vdevs += ["--vdev", "net_hwcsum0,sub=net_pcap0," + tp,
                  "--vdev", "net_hwcsum1,sub=net_pcap1," + tp]
        app.append("--enable-rx-cksum")
    if a.mode == "rxchain":
        app.append("--mbuf-size=320")     # 192 data bytes: frames chain on RX
    eal = a.eal.split() + ["--log-level=testpmd:info"] + (["-d", a.pmd] if a.pmd and a.mode != "bare" else [])
    cmd = a.testpmd.split() + eal + vdevs + ["--"] + app
    results = {"mode": a.mode, "cells": [], "setup_fail": [], "command": " ".join(cmd)}
    fails = results["setup_fail"]
    tp = Testpmd(cmd, os.path.join(w, "testpmd-%s.log" % a.mode))

    def done():
        json.dump(results, open(a.results, "w"), indent=1)
        tp.quit()
        nf = len(fails) + sum(1 for c in results["cells"] if c["fails"])
        print("%s: %d cells, %d failed, %d setup failures" %
              (a.mode, len(results["cells"]), nf - len(fails), len(fails)))
        return 1 if nf else 0

    try:
        tp.wait_prompt(120)
        ports = tp.ports()
        want = ("net_pcap0", "net_pcap1") if a.mode == "bare" else ("net_hwcsum0", "net_hwcsum1")
        if not all(x in ports for x in want) or len(ports) != 2:
            fails.append("show port summary all: ports %s, expected exactly %s" % (ports, want))
            return done()
        rxp, txp = ports[want[0]], ports[want[1]]
        results["ports"] = {"rx": rxp, "tx": txp}
        tp.cmd("port stop all")
        registered = set()
        for p in (rxp, txp):
            o = tp.cmd("csum parse-tunnel on %d" % p)
            if "Invalid port" in o or "Parse tunnel is on" not in tp.cmd("csum show %d" % p):
                fails.append("csum parse-tunnel on %d: %s" % (p, o.strip()))
            if a.mode == "bare":
                continue
            for t, port in (("vxlan", 4789), ("vxlan-gpe", 4790), ("geneve", 6081)):
                o = tp.cmd("port config %d udp_tunnel_port add %s %d" % (p, t, port))
                if "Invalid port" in o or "failed" in o.lower() or "error" in o.lower():
                    fails.append("udp_tunnel_port add %s %d on port %d: %s" % (t, port, p, o.strip()))
        if a.mode != "bare":
            registered = {"vxlan", "vxlan-gpe", "geneve", "gue0", "gue1"}
        if a.mode == "bare":
            cells = [(set(), None), (set(), TXSPLIT)]
        elif a.mode == "rxchain":
            cells = [(set(), None), (set(cp.HW_FLAGS), None), ({"udp", "tcp", "outer-udp"}, None)]
        else:
            m = matrix(a.matrix)
            cells = [(c, None) for c in m]
            # Multi-segment TX (testpmd's pkt_copy_split): a few cells.
            cells += [(set(), TXSPLIT), (set(cp.HW_FLAGS), TXSPLIT),
                      ({"udp", "tcp", "outer-udp"}, TXSPLIT), ({"ip", "outer-ip"}, TXSPLIT)]
        split_on = False
        verbose_registered = set()
        for ci, (hw, split) in enumerate(cells):
            t0 = time.time()
            cell = {"name": cell_name(hw) + (" txsplit " + split if split else ""),
                    "hw": sorted(hw), "fails": []}
            cf = cell["fails"]
            tp.cmd("port stop all")
            for p in (rxp, txp):
                for f in cp.HW_FLAGS:
                    o = tp.cmd("csum set %s %s %d" % (f, "hw" if f in hw else "sw", p))
                    if "not supported" in o or "Invalid port" in o or "Please stop" in o:
                        cf.append("csum set %s hw %d: %s" % (f, p, o.strip().splitlines()[-1]))
                show = tp.cmd("csum show %d" % p)
                for f, label in zip(cp.HW_FLAGS, ("IP", "UDP", "TCP", "SCTP", "Outer-Ip", "Outer-Udp")):
                    mode = "hw" if f in hw else "sw"
                    if "%s checksum offload is %s" % (label, mode) not in show:
                        cf.append("csum show %d: %s is not %s" % (p, label, mode))
            if split and not split_on:
                o = tp.cmd("set txpkts %s" % split) + tp.cmd("set txsplit on")
                if "give up" in o or "ignored" in o:
                    cf.append("set txpkts %s: %s" % (split, o.strip()))
                split_on = True
            elif not split and split_on:
                tp.cmd("set txsplit off")
                split_on = False
            o = tp.cmd("port start all", 120)
            if "Fail" in o or "Invalid port" in o:
                cf.append("port start all: %s" % o.strip()[-500:])
            # VXLAN on 8472, added while the port runs, from the second cell
            # on: the first cell sees 8472 as plain UDP.
            rt_now = a.mode != "bare" and ci == 1
            if rt_now:
                o = tp.cmd("port config %d udp_tunnel_port add vxlan %d" % (rxp, cp.RT_VXLAN_PORT))
                if "Invalid port" in o or "failed" in o.lower():
                    cf.append("udp_tunnel_port add vxlan %d at run time: %s" % (cp.RT_VXLAN_PORT, o.strip()))
                registered.add("vxlan-rt")
            verbose = (a.mode == "hwcsum" and ci == 1) or (a.mode == "rxchain" and ci == 0)
            if verbose:
                tp.cmd("set verbose 1")
                verbose_registered = set(registered)
            tp.cmd("clear port xstats all")
            tp.send("start")
            # Poll the output capture (net_pcap flushes it every burst), not
            # testpmd: nothing is typed while the lcore forwards.
            t_end = time.time() + 20
            last, since = -1, time.time()
            while time.time() < t_end:
                time.sleep(0.05)
                c = pcap_count(out_pcap)
                if c >= n:
                    break
                if c != last:
                    last, since = c, time.time()
                elif time.time() - since > 1.5:
                    break
            sout = tp.cmd("stop", marker="Accumulated forward statistics")
            xs = {}
            for p in (rxp, txp):
                xo = xstats(tp.cmd("show port xstats %d" % p))
                xs[p] = {k: v for k, v in xo.items()
                         if v and not re.match(r"(sub_)?(rx|tx)_(good_)?(packets|bytes)$", k)
                         and not k.startswith("sub_rx_q0") and not k.startswith("sub_tx_q0")}
            cell["xstats"] = xs
            if verbose:
                tp.cmd("set verbose 0")
            st = fwd_stats(sout)
            o = tp.cmd("port stop all")
            cell["stats"] = st
            if verbose:
                # The per-packet dump came with the forwarding: in the log.
                pass
            rs, ts = st.get(rxp, {}), st.get(txp, {})
            if rs.get("rx") != n:
                cf.append("RX-packets on port %d: %s, expected %d" % (rxp, rs.get("rx"), n))
            if ts.get("tx") != n:
                cf.append("TX-packets on port %d: %s (dropped %s), expected %d" %
                          (txp, ts.get("tx"), ts.get("tx_dropped"), n))
            exp = cc.expected_rx_bad(man, registered, rx_verdicts=a.mode != "bare")
            for key, label in (("ip", "Bad-ipcsum"), ("l4", "Bad-l4csum"),
                               ("outer_ip", "Bad-outer-ipcsum"), ("outer_l4", "Bad-outer-l4csum")):
                got = rs.get("bad_" + key)
                if got != exp[key]:
                    cf.append("%s on port %d: %s, expected %d" % (label, rxp, got, exp[key]))
            cell["expected_bad"] = exp
            keep = os.path.join(w, "cell-%s-%02d.pcap" % (a.mode, ci))
            shutil.copy(out_pcap, keep)
            f2, summary = cc.check_output(w, keep, hw, in_frames, man)
            cf.extend(f2)
            cell["summary"] = summary
            cell["seconds"] = round(time.time() - t0, 2)
            results["cells"].append(cell)
            print("%s %-40s %s" % ("ok  " if not cf else "FAIL", cell["name"], summary))
            for f in cf[:12]:
                print("      " + f)
            if cf:
                print("      xstats: %s" % json.dumps(cell.get("xstats")))
            if len(cf) > 12:
                print("      ... %d more (%s)" % (len(cf) - 12, a.results))
            sys.stdout.flush()
        # hw ptype of each tunnelled packet (verbose cell 1, or 0 for rxchain).
        if a.mode != "bare":
            tp.log.flush()
            log = open(os.path.join(w, "testpmd-%s.log" % a.mode)).read()
            # The verbose cell's dump is the first set of received lines.
            pts = ptype_lines(log, rxp)[:n]
            pf = []
            if len(pts) < n:
                pf.append("verbose: %d packet dumps on port %d, expected %d" % (len(pts), rxp, n))
            seen = {}
            for e, (pt, segs) in zip(man, pts):
                t = e["tunnel"]
                want = TUNNEL_PTYPE.get(t) if t in verbose_registered else None
                if t is not None and t not in verbose_registered and "TUNNEL_" in pt:
                    pf.append("frame %d (%s): hw ptype '%s' has a tunnel, port %s not registered yet"
                              % (e["index"], e["desc"], pt, e["tunnel"]))
                if t in ("gue0", "gue1"):
                    seen.setdefault("gue", set()).add(pt)
                if want and want not in pt.split():
                    pf.append("frame %d (%s): hw ptype '%s', expected %s" % (e["index"], e["desc"], pt, want))
                if t is None and "TUNNEL_" in pt:
                    pf.append("frame %d (%s): hw ptype '%s' has a tunnel" % (e["index"], e["desc"], pt))
            chained = sum(1 for _, segs in pts if segs > 1)
            if a.mode == "rxchain" and chained == 0:
                pf.append("rxchain: no received frame had nb_segs > 1")
            results["ptype"] = {"rx_chained": chained, "fails": pf, "gue_ptypes": {k: sorted(v) for k, v in seen.items()}}
            print("%s hw ptype of every tunnelled packet (verbose, registered: %s): %d mismatches; "
                  "%d frames arrived chained; GUE (no DPDK ptype) shows %s" %
                  ("ok  " if not pf else "FAIL", ",".join(sorted(verbose_registered)), len(pf),
                   chained, sorted({p.split(" INNER")[0] for p in seen.get("gue", set())})))
            for f in pf[:12]:
                print("      " + f)
            fails.extend(pf)
    except RuntimeError as ex:
        fails.append(str(ex))
        print("FAIL: " + str(ex)[:3000])
    return done()


if __name__ == "__main__":
    sys.exit(main())
