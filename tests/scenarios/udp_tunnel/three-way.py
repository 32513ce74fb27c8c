#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""three-way.py [options] [FILE...]

Replay UDP tunnel scenario files (default: tests/scenarios/udp_tunnel/
[0-9]*.scn) against three implementations of the registry, each dumping the
tables of the NIC at every `check`, then print the three tables per check
side by side and fail on the first difference with a diff:

  netdevsim  Linux udp_tunnel_nic + netdevsim in a QEMU guest
             (replay-netdevsim.sh through devtools/vm-run.sh, one vCPU)
  lib        lib/udp_tunnel with the netdevsim-shaped mock device
             (tests/udp_tunnel/scenario_run)
  hwcsum     net_hwcsum through an unmodified dpdk-testpmd, read back
             through telemetry (replay-hwcsum.py, table<N>_slots), while
             the guest runs

All three are compared slot by slot, empty slots included, so a port in
the wrong slot of a table with a hole is caught in any of them. The static
4789/vxlan entries each shows (its ethtool view) are compared too. Where
testpmd cannot express a step, hwcsum stops at it (the output says which
line and why) and the rest of the file is compared two ways. Each replayer
also checks the file's `expect` lines itself; any of them failing fails
this command.

Options:
  --build DIR          meson build directory (default: <repo>/build) for
                       the two defaults below
  --scenario-run EXE   tests/udp_tunnel/udp_tunnel_scenario_run
  --pmd SO             drivers/net/hwcsum/librte_net_hwcsum.so
  --outdir DIR         where the dumps, the guest's run directory and
                       hwcsum's testpmd logs (hwcsum-testpmd/) go
                       (default: <build>/tests/kernel/udp-tunnel-three-way)
  --kernel DIR         passed to vm-run.sh (default: kernel/build.sh output)
  --compare-only       run nothing: compare the dumps already in --outdir
"""
import argparse
import difflib
import glob
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
IMPLS = ("netdevsim", "lib", "hwcsum")
DUMPS = {"netdevsim": "vm/netdevsim.tables", "lib": "lib.tables",
         "hwcsum": "hwcsum.tables"}
T0 = time.time()


def say(text):
    print("[three-way +%ds] %s" % (time.time() - T0, text), flush=True)


# ------------------------------------------------------------ the dumps
class Check:
    def __init__(self, path, f):
        self.line, self.n, self.nic = int(f[2]), int(f[3]), f[4]
        # Each table: its slots, "0" (empty) or "<port>/<type>".
        self.tables = [t.split() for t in f[5:7]]
        if any(t.startswith("[") for t in f[5:7]):
            raise SystemExit("%s: %s:%s check %s lists entries without their slots "
                             "(a dump from before table<N>_slots): replay again" %
                             (path, f[1], f[2], f[3]))
        self.static = int(f[7])

    def where(self):
        return (self.line, self.n, self.nic)

    def table_str(self, t):
        return " ".join(self.tables[t])

    def view(self):
        """Lines to diff: each table slot by slot, the static entries."""
        out = ["table %d slots: %s" % (t, " ".join(words))
               for t, words in enumerate(self.tables)]
        out.append("static 4789/vxlan shown: %d" % self.static)
        return out


def parse_dump(path):
    """{file: {"checks": [Check], "stop": (line, cmd, why) | None, "notes": []}}"""
    out = {}
    with open(path) as f:
        for raw in f:
            w = raw.rstrip("\n").split("\t")
            r = out.setdefault(w[1], dict(checks=[], stop=None, notes=[]))
            if w[0] == "check" and len(w) == 8:
                r["checks"].append(Check(path, w))
            elif w[0] == "stop":
                r["stop"] = (int(w[2]), w[3], w[4])
            elif w[0] == "note":
                r["notes"].append((int(w[2]), w[3], w[4]))
            else:
                raise SystemExit("%s: bad line: %r" % (path, raw))
    return out


def msgs_of(path):
    """line -> the `msg` label in force there."""
    msg, out = "start", {}
    with open(path) as f:
        for i, raw in enumerate(f, 1):
            if raw.startswith("msg "):
                msg = raw[4:].strip()
            out[i] = msg
    return out


# ----------------------------------------------------------- comparison
def differ(a, b):
    return a.view() != b.view()


def side_by_side(label, cells, width):
    print(("  %-8s %s" % (label, " | ".join(c.ljust(width) for c in cells))).rstrip())


def print_check(name, msg, rows, width):
    ref = next(c for c in rows.values() if c is not None)
    print("%s:%d check %d nic %s '%s'" % (name, ref.line, ref.n, ref.nic, msg))
    for t in (0, 1):
        side_by_side("table %d" % t, [rows[i].table_str(t) if rows[i] else "(not replayed)"
                                      for i in IMPLS], width)
    if any(c and c.static for c in rows.values()):
        side_by_side("static", [str(rows[i].static) if rows[i] else "-"
                                for i in IMPLS], width)


def report_difference(path, msg, ref, rows, a=None, b=None, why=None):
    print()
    print("FAIL: first difference at %s:%d, check %d (nic %s), step '%s'" %
          (path, ref.line, ref.n, ref.nic, msg))
    if why:
        print("  " + why)
        return
    for i in IMPLS:
        if rows[i] is not None:
            print("  %-9s holds: %s" % (i, "; ".join(rows[i].view())))
    sys.stdout.writelines(difflib.unified_diff(
        [l + "\n" for l in rows[a].view()],
        [l + "\n" for l in rows[b].view()], a, b))


def compare(files, dumps):
    """Print every check three ways; False at the first difference."""
    for path in files:
        name = os.path.relpath(path, REPO)
        msgs = msgs_of(path)
        recs = {i: dumps[i].get(path, dict(checks=[], stop=None, notes=[]))
                for i in IMPLS}
        checks = [c for r in recs.values() for c in r["checks"]]
        width = max([len(c.table_str(t)) for c in checks for t in (0, 1)] + [30])
        print()
        side_by_side("", ["netdevsim (slots)", "lib (slots)", "hwcsum (slots)"], width)
        notes = list(recs["hwcsum"]["notes"])
        stop = recs["hwcsum"]["stop"]
        if stop is not None:
            notes.append((stop[0], stop[1], "cannot be expressed through testpmd, "
                          "hwcsum stops here: " + stop[2]))
        n = max(len(r["checks"]) for r in recs.values())
        for k in range(n):
            rows = {i: recs[i]["checks"][k] if k < len(recs[i]["checks"]) else None
                    for i in IMPLS}
            ref = rows["lib"] or rows["netdevsim"] or rows["hwcsum"]
            msg = msgs.get(ref.line, "?")
            while notes and notes[0][0] < ref.line:
                line, cmd, why = notes.pop(0)
                print("%s:%d hwcsum: '%s' %s" % (name, line, cmd, why))
            print_check(name, msg, rows, width)
            for i in IMPLS:
                hw_stopped = i == "hwcsum" and stop is not None and ref.line > stop[0]
                if rows[i] is None and not hw_stopped:
                    report_difference(name, msg, ref, rows, why="%s ran no check %d "
                                      "(it stopped or failed earlier)" % (i, ref.n))
                    return False
                if rows[i] is not None and rows[i].where() != ref.where():
                    report_difference(name, msg, ref, rows, why="%s's check %d is line %d "
                                      "nic %s, another's line %d nic %s" %
                                      (i, k + 1, rows[i].line, rows[i].nic, ref.line, ref.nic))
                    return False
            for a, b in (("netdevsim", "lib"), ("lib", "hwcsum"), ("netdevsim", "hwcsum")):
                if rows[a] is not None and rows[b] is not None and differ(rows[a], rows[b]):
                    report_difference(name, msg, ref, rows, a, b)
                    return False
        counts = {i: len(recs[i]["checks"]) for i in IMPLS}
        summary = "netdevsim %(netdevsim)d, lib %(lib)d, hwcsum %(hwcsum)d checks" % counts
        if stop is not None:
            summary += "; hwcsum stopped at %s:%d '%s': %s" % (name, *stop)
        print("== %s: identical: %s" % (name, summary))
    return True


# -------------------------------------------------------------- running
def run_all(opts, files):
    os.makedirs(opts.outdir, exist_ok=True)
    vmdir = os.path.join(opts.outdir, "vm")
    shutil.rmtree(vmdir, ignore_errors=True)
    for d in DUMPS.values():
        if os.path.exists(os.path.join(opts.outdir, d)):
            os.unlink(os.path.join(opts.outdir, d))
    vm_log = open(os.path.join(opts.outdir, "vm-run.log"), "w")
    kernel = ["--kernel", opts.kernel] if opts.kernel else []
    # The guest writes its dump into the run directory, $HWCSUM_OUT there.
    guest = ["/bin/bash", "-c", 'exec /bin/bash "$0" --dump "$HWCSUM_OUT/netdevsim.tables" "$@"',
             os.path.join(HERE, "replay-netdevsim.sh")] + files
    say("netdevsim: booting the guest (vm-run.sh --smp 1), run directory %s" % vmdir)
    vm = subprocess.Popen([os.path.join(REPO, "devtools", "vm-run.sh"), "--quiet",
                           "--smp", "1", "--timeout", "1200", "--outdir", vmdir] +
                          kernel + ["--"] + guest, stdout=vm_log, stderr=subprocess.STDOUT)
    status = {}
    say("lib: %s" % opts.scenario_run)
    r = subprocess.run([opts.scenario_run, "--dump", os.path.join(opts.outdir, DUMPS["lib"])] +
                       files, capture_output=True, text=True)
    status["lib"] = r.returncode
    print(r.stdout + r.stderr, end="", flush=True)
    say("hwcsum: replay-hwcsum.py through dpdk-testpmd")
    r = subprocess.run([sys.executable, os.path.join(HERE, "replay-hwcsum.py"),
                        "--pmd", opts.pmd, "--dump", os.path.join(opts.outdir, DUMPS["hwcsum"]),
                        "--logdir", os.path.join(opts.outdir, "hwcsum-testpmd")] +
                       files, capture_output=True, text=True)
    status["hwcsum"] = r.returncode
    print(r.stdout + r.stderr, end="", flush=True)
    say("netdevsim: waiting for the guest")
    status["netdevsim"] = vm.wait()
    vm_log.close()
    console = os.path.join(vmdir, "console.log")
    if os.path.exists(console):
        with open(console, errors="replace") as f:
            for l in f:
                l = l.replace("\r", "").rstrip("\n")
                if "PASSED" in l or "FAILED" in l or l.startswith(("ERROR", "WARN")):
                    print(l)
    if status["netdevsim"] != 0:
        with open(os.path.join(opts.outdir, "vm-run.log")) as f:
            print("netdevsim: vm-run.sh exited %d:\n%s" % (status["netdevsim"], f.read()[-2000:]))
    say("replays done: " + ", ".join("%s exit %d" % kv for kv in status.items()))
    return status


def main():
    ap = argparse.ArgumentParser(usage=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--scenario-run")
    ap.add_argument("--pmd")
    ap.add_argument("--outdir")
    ap.add_argument("--kernel")
    ap.add_argument("--compare-only", action="store_true")
    ap.add_argument("files", nargs="*")
    opts = ap.parse_args()
    opts.scenario_run = opts.scenario_run or os.path.join(
        opts.build, "tests", "udp_tunnel", "udp_tunnel_scenario_run")
    opts.pmd = opts.pmd or os.path.join(opts.build, "drivers", "net", "hwcsum",
                                        "librte_net_hwcsum.so")
    opts.outdir = os.path.abspath(opts.outdir or os.path.join(
        opts.build, "tests", "kernel", "udp-tunnel-three-way"))
    files = [os.path.abspath(f) for f in opts.files] or \
        sorted(glob.glob(os.path.join(HERE, "[0-9]*.scn")))

    status = {} if opts.compare_only else run_all(opts, files)
    try:
        dumps = {i: parse_dump(os.path.join(opts.outdir, DUMPS[i])) for i in IMPLS}
    except OSError as e:
        print("FAIL: a replayer left no dump: %s" % e)
        return 1
    same = compare(files, dumps)
    bad = [i for i, rc in status.items() if rc != 0]
    if bad:
        print("FAIL: against the files' expect lines: %s failed (output above)" %
              ", ".join(bad))
    n = sum(len(dumps["lib"].get(f, {"checks": []})["checks"]) for f in files)
    nh = sum(len(dumps["hwcsum"].get(f, {"checks": []})["checks"]) for f in files)
    if same and not bad:
        say("PASSED: %d files, %d checks identical in netdevsim and lib, "
            "%d of them in hwcsum too" % (len(files), n, nh))
        return 0
    say("FAILED")
    return 1


if __name__ == "__main__":
    sys.exit(main())
