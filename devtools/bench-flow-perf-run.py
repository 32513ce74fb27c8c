#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""rte_flow insertion and deletion rates of net_hwcsum, measured by DPDK's
own dpdk-test-flow-perf (22.11), unmodified. See devtools/bench-flow-perf.sh.

The port layout flow-perf 22.11 needs: it configures ports 0 ..
rte_eth_dev_count_avail() - 1 by id and puts rules on the portmask's ports
below that bound. hwcsum's sub-port is probed first (port 0, owned), hwcsum
is port 1, and a third, unused net_null (port 2) makes the count 2 so that
port 1 is reached. flow-perf also configures and starts the owned port 0;
hwcsum takes it back at its own configure (hwcsum_sub_reclaim()).

--check (the test in make test): one run of --rules rules with deletion,
then flow-perf's forwarding keeps the process alive while hwcsum's flow
count is read through telemetry; pass/fail on correctness only: every rule
inserted and deleted (flow-perf exits on the first failed create or
destroy), both rates parsed and > 0, the hwcsum port holding 0 rules and
0 masks after the deletion. Never on a rate.
"""
import argparse
import json
import os
import pty
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time

import bench_common

# Rule kinds: flow-perf's item and action options, all accepted by
# hwcsum_flow_parse.c (flow-perf varies the IPv4/IPv6 source per rule, one
# mask for all: one tuple-space group).
KINDS = {
    "ipv4-udp-queue": ["--ether", "--ipv4", "--udp", "--queue"],
    "ipv6-tcp-rss": ["--ether", "--ipv6", "--tcp", "--rss"],
    "vxlan-mark-queue": ["--ether", "--ipv4", "--udp", "--vxlan", "--mark",
                         "--queue"],
}

RATE = re.compile(r"\[Latency \| (Insertion|Deletion)\] All Cores :: Port (\d+) :: "
                  r"Total (?:flows insertion|deletion) rate -> ([0-9.]+) K Rules/Sec")
TIME = re.compile(r"\[Latency \| (Insertion|Deletion)\] All Cores :: Port (\d+) :: "
                  r"The time for (?:creating|deleting) (\d+) rules is ([0-9.]+) seconds")
BATCH = re.compile(r":: Rules batch #(\d+): (\d+) rules in ([0-9.]+) sec\[ Rate = ([0-9.]+) K Rule/Sec \]")
FIRST = re.compile(r"First flow installed in ([0-9.]+) milliseconds")
SIZE = re.compile(r"rte_flow size in DPDK layer: (-?\d+) Bytes")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def machine():
    return dict(bench_common.machine(), loadavg=os.getloadavg()[0])


def runtime_dir(prefix):
    return "/var/run/dpdk/" + prefix


def command(a, prefix, rules, kind, fwd):
    batch = max(1, rules // 10)
    return [a.flow_perf, "--no-huge", "-m", "256", "--no-pci", "-l", "0-1",
            "--file-prefix", prefix, "-d", a.pmd_so,
            "--vdev", "net_null0", "--vdev", "net_hwcsum0,sub=net_null0",
            "--vdev", "net_null1", "--",
            "--portmask=0x2", "--ingress", "--rules-count=%d" % rules,
            "--rules-batch=%d" % batch, "--deletion-rate", "--dump-iterations",
            "--total-mbuf-count=4096"] + KINDS[kind] + (["--enable-fwd"] if fwd else [])


def parse(out, rules):
    r = {"rules": rules}
    for m in RATE.finditer(out):
        r["insert_krps" if m.group(1) == "Insertion" else "delete_krps"] = float(m.group(3))
        r["port"] = int(m.group(2))
    for m in TIME.finditer(out):
        key = "insert" if m.group(1) == "Insertion" else "delete"
        r[key + "_rules"] = int(m.group(3))
        r[key + "_s"] = float(m.group(4))
    batches = [float(m.group(4)) for m in BATCH.finditer(out)]
    if len(batches) == 20:	# ten of insertion, then ten of deletion
        r["insert_first_batch_krps"], r["insert_last_batch_krps"] = batches[0], batches[9]
        r["delete_first_batch_krps"], r["delete_last_batch_krps"] = batches[10], batches[19]
    m = FIRST.search(out)
    if m:
        r["first_rule_ms"] = float(m.group(1))
    m = SIZE.search(out)
    if m:
        r["dpdk_heap_bytes_per_rule"] = int(m.group(1))
    return r


def judge(r, rules, out):
    for key in ("insert_krps", "delete_krps", "insert_rules", "delete_rules"):
        if key not in r:
            print(out)
            fail("flow-perf's output has no %s (see above)" % key)
    if r["insert_rules"] != rules or r["delete_rules"] != rules:
        fail("flow-perf inserted %d and deleted %d rules, want %d"
             % (r["insert_rules"], r["delete_rules"], rules))
    if not (r["insert_krps"] > 0 and r["delete_krps"] > 0):
        fail("rates not > 0: %r" % r)


def telemetry(prefix, query):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(runtime_dir(prefix) + "/dpdk_telemetry.v2")
    s.recv(1024)
    s.send(query.encode())
    reply = json.loads(s.recv(1 << 20))
    s.close()
    return list(reply.values())[0]


def hwcsum_port(prefix):
    for pid in telemetry(prefix, "/ethdev/list"):
        if telemetry(prefix, "/ethdev/info,%d" % pid)["name"] == "net_hwcsum0":
            return pid
    fail("no net_hwcsum0 port in telemetry's /ethdev/list")


def run_once(a, rules, kind):
    prefix = "hwcsum-flowperf-%d" % os.getpid()
    env = dict(os.environ, LC_ALL="C")
    p = subprocess.run(command(a, prefix, rules, kind, False), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=a.timeout)
    shutil.rmtree(runtime_dir(prefix), ignore_errors=True)
    if p.returncode != 0 or "Bye" not in p.stdout:
        print(p.stdout)
        fail("flow-perf exited %d (%s, %d rules)" % (p.returncode, kind, rules))
    r = parse(p.stdout, rules)
    judge(r, rules, p.stdout)
    r["kind"] = kind
    return r


def check(a, rules, kind):
    """One run kept alive by flow-perf's forwarding: read hwcsum's flow
    count after the deletion, then SIGINT. A pty: flow-perf's stdout is
    line-buffered only on a terminal, and the line that says forwarding
    started is the cue."""
    prefix = "hwcsum-flowperf-check-%d" % os.getpid()
    env = dict(os.environ, LC_ALL="C")
    master, slave = pty.openpty()
    p = subprocess.Popen(command(a, prefix, rules, kind, True), env=env,
                         stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    out, deadline, state = "", time.time() + a.timeout, None
    try:
        while time.time() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536).decode(errors="replace")
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            if state is None and ":: started stats on lcore" in out:
                port = hwcsum_port(prefix)
                flows = telemetry(prefix, "/hwcsum/flows,%d" % port)
                xs = telemetry(prefix, "/ethdev/xstats,%d" % port)
                state = (port, flows, xs)
                p.send_signal(signal.SIGINT)
            if p.poll() is not None and not ready:
                break
    finally:
        if p.poll() is None:
            p.kill()
        rc = p.wait()
        os.close(master)
        shutil.rmtree(runtime_dir(prefix), ignore_errors=True)
    if state is None:
        print(out)
        fail("flow-perf never reached forwarding after the deletion")
    if rc != 0 or "Bye" not in out:
        print(out)
        fail("flow-perf exited %d" % rc)
    port, flows, xs = state
    r = parse(out, rules)
    judge(r, rules, out)
    if r["port"] != port:
        fail("flow-perf measured port %d, hwcsum is port %d" % (r["port"], port))
    print("hwcsum port %d after deletion: n_rules %d, flow_rules_sw %d, flow_masks %d, "
          "rules offered to the sub-port and refused %d"
          % (port, flows["n_rules"], xs["flow_rules_sw"], xs["flow_masks"],
             xs["flow_rules_hw_refused"]))
    if flows["n_rules"] != 0 or xs["flow_rules_sw"] != 0 or xs["flow_masks"] != 0:
        fail("hwcsum still holds rules after flow-perf deleted them all")
    print("%s: %d rules inserted at %.1f k rules/s, deleted at %.1f k rules/s"
          % (kind, rules, r["insert_krps"], r["delete_krps"]))
    print("PASS: flow-perf inserted and deleted every rule on hwcsum")


def table(results, mach):
    print("machine: %s, %d CPUs, kernel %s; load average %.2f before, %.2f after"
          % (mach["cpu"], mach["cpus"], mach["kernel"], mach["loadavg"],
             mach["loadavg_after"]))
    print("%-18s %7s %12s %12s %12s %12s %10s %10s"
          % ("kind", "rules", "insert k/s", "delete k/s", "ins last10%",
             "del first10%", "first ms", "heap B/r"))
    for r in results:
        print("%-18s %7d %12.1f %12.1f %12.1f %12.1f %10.3f %10s"
              % (r["kind"], r["rules"], r["insert_krps"], r["delete_krps"],
                 r.get("insert_last_batch_krps", 0),
                 r.get("delete_first_batch_krps", 0), r.get("first_rule_ms", 0),
                 r.get("dpdk_heap_bytes_per_rule", "-")))
    print("ins last10%: the rate of the last tenth inserted, del first10%: of the "
          "first tenth deleted (each change rebuilds the classifier: O(rules))")
    print("heap B/r: flow-perf's growth of DPDK's heap per rule, its own list of "
          "rule pointers; hwcsum keeps rules on the C heap, which it does not see")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flow-perf", default="dpdk-test-flow-perf")
    ap.add_argument("--pmd-so", required=True)
    ap.add_argument("--rules", default="1000,2000,4000")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--json")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    # EAL refuses a plugin under a world-writable directory: a path it takes.
    a.pmd_so = subprocess.run(
        [os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugin-path.sh"),
         a.pmd_so], check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    counts = [int(x) for x in a.rules.split(",")]
    kinds = a.kinds.split(",")
    for k in kinds:
        if k not in KINDS:
            fail("unknown kind %s (known: %s)" % (k, ", ".join(KINDS)))
    if a.check:
        check(a, counts[0], kinds[0])
        return
    mach = machine()
    results = [run_once(a, n, k) for k in kinds for n in counts]
    mach["loadavg_after"] = os.getloadavg()[0]
    table(results, mach)
    if a.json:
        bench_common.write_json(a.json, {"tool": "dpdk-test-flow-perf 22.11", "machine": mach,
                                         "results": results}, indent=1)


if __name__ == "__main__":
    main()
