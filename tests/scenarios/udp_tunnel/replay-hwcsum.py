#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""replay-hwcsum.py --pmd SO [--testpmd BIN] [--dump OUT] [--logdir DIR] [-v] FILE...

Replay UDP tunnel scenario files (README.md in this directory) against
net_hwcsum through an unmodified dpdk-testpmd, one testpmd per file:

  NIC      a hwcsum port made with `port attach` (sub-port: a net_null made
           the same way), registry=shared, tables=4:vxlan/4:geneve+vxlan-gpe;
           knobs become devargs: tables_open_only, static_iana_vxlan,
           tables_shared. nic up/down = port start/stop; nic del = port
           stop, close, device detach (both); nic reset = port (stop,)
           reset (, start).
  tunnel   a user of (family, port, type), as a Linux socket: testpmd's
           `port config A udp_tunnel_port add|rm` on an "anchor" hwcsum port
           of the same registry, one per family (DPDK's call has no family
           and refuses the same (type, port) twice on one port); anchors have
           the default table (64 entries, every type) so they never fill.
           Tunnels of one (family, port, type) share one add (counted here).
  check    telemetry /hwcsum/tunnels,<port>: each table slot by slot
           (table<N>_slots, compared with the expectation slot by slot),
           the ethtool view (the text: its entries must be the slots
           without the empty ones, and the static 4789/vxlan entries), and
           the registry's users against the tunnels that are up (the
           anchors add nothing else).

What testpmd cannot express stops the file there (later states depend on
it), reported with the line and why; `set sleep` and `set sync_all` only
change how the device is told, not what a check finds: they are reported
and the file goes on. Any testpmd error the replayer did not ask for
("Invalid port", "udp tunneling port add error", a failed attach...) is a
failure. --dump writes one line per check in the format of the three-way
comparison (README.md, "Three ways"), plus `stop` and `note` lines.
testpmd (tests/lib/testpmd.py) writes everything it prints, one log per
session, into --logdir (default: a directory removed at the end).
Exit 0 only if every check that ran matched its expectations.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
import testpmd  # noqa: E402

NIC_TABLES = "4:vxlan/4:geneve+vxlan-gpe"
TESTPMD_TYPES = ("vxlan", "geneve", "vxlan-gpe")
ANCHOR = {"v4": 200, "v6": 201}	# net_null<N> / net_hwcsum<N>
FAMILIES_UP = {"v4": ["v4"], "v6": ["v6"], "dual": ["v6", "v4"]}
# Lines of testpmd's output that no step of a replay should produce.
UNEXPECTED = re.compile(r"Invalid port|error|Error|ERROR|[Ff]ail|Cannot|Can not|"
                        r"Please stop|not stopped|Bad arguments|^net_hwcsum:|"
                        r"^udp_tunnel|No such|not supported")
# ... except what a step asks for: another type on a static_iana_vxlan port.
ALLOWED = re.compile(r"^udp_tunnel: dev \S+: port 4789 type \S+ not offloaded: "
                     r"the device assumes port 4789 is vxlan$")
TIMEOUT = 30


class Stop(Exception):
    """A step testpmd cannot express: the file stops here."""


def command_output(out, command):
    """The lines testpmd printed for command: its output less the echo."""
    lines = out.splitlines()
    if command in lines:
        lines.remove(command)
    return lines


def log_tail(path, n):
    with open(path, errors="replace") as f:
        return [l for l in f.read().splitlines() if l.strip()][-n:]


def compact(slots):
    return [s for s in slots if s != "0"]


def fmt_entries(entries):
    return "[" + " ".join(entries) + "]"


def fmt_slots(slots):
    return " ".join(slots)


class FileReplay:
    session = 0

    def __init__(self, path, opts, dump):
        self.path = path
        self.opts = opts
        self.dump = dump
        self.line = 0
        self.msg = "start"
        self.checks = 0
        self.errors = 0
        with open(path) as f:
            self.text = f.read().splitlines()
        self.total = sum(1 for l in self.text if l.split()[:1] == ["check"])

    # ---------------------------------------------------------- output
    def fail(self, why):
        print("ERROR %s:%d: %s: %s" % (self.path, self.line, self.msg, why))
        self.errors += 1

    def record(self, kind, *fields):
        if self.dump is not None:
            print("\t".join([kind, self.path] + [str(f) for f in fields]),
                  file=self.dump)

    def run_tp(self, command, expect=None):
        """One testpmd command; any output it should not give is a failure.
        expect: a regex the output must match (group 1 returned)."""
        if self.opts.verbose:
            print("  %s:%d: %s" % (self.path, self.line, command))
        out = command_output(self.tp.cmd(command, TIMEOUT), command)
        bad = [l for l in out if UNEXPECTED.search(l) and not ALLOWED.match(l)]
        if bad:
            self.fail("testpmd '%s': %s" % (command, " / ".join(bad[:3])))
        if expect is None:
            return None
        for l in out:
            m = re.search(expect, l)
            if m:
                return m.group(1) if m.groups() else l
        self.fail("testpmd '%s': no '%s' in: %s" % (command, expect,
                                                  " / ".join(out[-5:])))
        return None

    # ------------------------------------------------------------ bus
    def bus_up(self):
        FileReplay.session += 1
        vdevs = []
        for n in ANCHOR.values():
            vdevs += ["net_null%d" % n,
                      "net_hwcsum%d,sub=net_null%d,registry=shared" % (n, n)]
        prefix = "hwcsum-3way-%d-%d" % (os.getpid(), FileReplay.session)
        self.log = os.path.join(self.opts.logdir, "%s-%d.log" % (
            os.path.basename(self.path), FileReplay.session))
        self.tp = testpmd.Testpmd([self.opts.testpmd] + testpmd.eal_args(
            prefix, self.opts.pmd, vdevs) + ["--", "-i", "--total-num-mbufs=4096"],
            self.log)
        startup = self.tp.wait_prompt(TIMEOUT).splitlines()
        bad = [l for l in startup if UNEXPECTED.search(l)]
        if bad:
            self.fail("testpmd start: " + " / ".join(bad[:3]))
        ports = self.tp.ports(TIMEOUT)
        self.anchor = {}
        for fam, n in ANCHOR.items():
            self.anchor[fam] = ports.get("net_hwcsum%d" % n)
            if self.anchor[fam] is None:
                raise RuntimeError("anchor net_hwcsum%d did not come up: %s" %
                                   (n, " / ".join(startup[-5:])))
        self.knobs = {}
        self.nics = {}		# id -> dict(port, name, sub, up, static)
        self.tunnels = {}	# name -> dict(fam, port, type, up)
        self.refs = {}		# (fam, port, type) -> tunnels up
        self.seq = 0

    def bus_down(self):
        rc = self.tp.quit()
        # EAL leaves its runtime directory behind; it is ours alone.
        shutil.rmtree(os.path.join(testpmd.RUNTIME_DIR, self.tp.prefix), ignore_errors=True)
        if rc != 0:
            self.fail("testpmd exited %d: %s" % (rc, " / ".join(log_tail(self.log, 5))))

    # ------------------------------------------------------- commands
    def cmd_set(self, w):
        knob, value = w[1], w[2] in ("1", "on")
        if knob == "ipv4_only" and value:
            raise Stop("DPDK's udp_tunnel_port API carries no address family, "
                       "so an IPv4-only device cannot be told v6 tunnels apart")
        if knob in ("sleep", "sync_all") and value:
            why = {"sleep": "hwcsum's callbacks do not sleep; a sleep only "
                   "delays when the device is told, and a check waits for "
                   "deferred work",
                   "sync_all": "hwcsum is told port by port, never whole "
                   "tables; the registry picks the same slots either way"}
            self.note(" ".join(w), "not expressed, continued: " + why[knob])
        self.knobs[knob] = value

    def note(self, cmd, why):
        print("NOTE %s:%d '%s': %s" % (self.path, self.line, cmd, why))
        self.record("note", self.line, cmd, why)

    def nic_devargs(self, sub):
        a = "sub=%s,registry=shared,tables=%s" % (sub, NIC_TABLES)
        if self.knobs.get("open_only"):
            a += ",tables_open_only=1"
        if self.knobs.get("static_iana_vxlan"):
            a += ",static_iana_vxlan=1"
        if self.knobs.get("shared"):
            a += ",tables_shared=bus"
        return a

    def nic(self, word):
        nic = self.nics.get(word)
        if nic is None:
            self.fail("no nic '%s'" % word)
        return nic

    def cmd_nic(self, w):
        op = w[1]
        if op == "offload":
            raise Stop("DPDK has no per-port switch for UDP tunnel port "
                       "offload (Linux's rx-udp_tunnel-port-offload)")
        if op == "inject_error":
            raise Stop("testpmd has no way to make the device fail a "
                       "callback (no fault injection)")
        if op == "new":
            if w[2] in self.nics:
                self.fail("nic %s exists" % w[2])
                return
            n = self.seq
            self.seq += 1
            sub, name = "net_null%d" % n, "net_hwcsum%d" % n
            self.run_tp("port attach " + sub, r"Port \d+ is attached")
            port = self.run_tp("port attach %s,%s" % (name, self.nic_devargs(sub)),
                               r"Port (\d+) is attached")
            have = self.tp.ports(TIMEOUT).get(name) if port is not None else None
            if port is not None and have != int(port):
                self.fail("%s is port %s but the summary says %s" % (name, port, have))
            if port is not None:
                self.nics[w[2]] = dict(port=int(port), name=name, sub=sub,
                                       up=False,
                                       static=bool(self.knobs.get("static_iana_vxlan")))
            return
        nic = self.nic(w[2])
        if nic is None:
            return
        p = nic["port"]
        if op == "up" and not nic["up"]:
            self.run_tp("port start %d" % p)
            nic["up"] = True
        elif op == "down" and nic["up"]:
            self.run_tp("port stop %d" % p)
            nic["up"] = False
        elif op == "del":
            if nic["up"]:
                self.run_tp("port stop %d" % p)
            self.run_tp("port close %d" % p, r"Port %d is closed" % p)
            self.run_tp("device detach " + nic["name"], r"is detached")
            self.run_tp("device detach " + nic["sub"], r"is detached")
            del self.nics[w[2]]
        elif op == "reset":
            # testpmd resets only a stopped port; start replays the tables.
            if nic["up"]:
                self.run_tp("port stop %d" % p)
            self.run_tp("port reset %d" % p)
            if nic["up"]:
                self.run_tp("port start %d" % p)
        elif op not in ("up", "down"):
            self.fail("bad 'nic' line")

    def ref(self, fam, port, type_, add):
        key = (fam, port, type_)
        n = self.refs.get(key, 0)
        self.refs[key] = n + (1 if add else -1)
        if (add and n == 0) or (not add and n == 1):
            self.run_tp("port config %d udp_tunnel_port %s %s %d" %
                        (self.anchor[fam], "add" if add else "rm", type_, port))

    def tunnel_set_up(self, t, up):
        if t["up"] == up:
            return
        other = [k for k, n in self.refs.items()
                 if n > 0 and k[1] == t["port"] and k[2] != t["type"]]
        if up and other:
            raise Stop("DPDK's udp_tunnel_port API has no address family, so "
                       "hwcsum holds one tunnel type per UDP port; %d is %s "
                       "(%s) already" % (t["port"], other[0][2], other[0][0]))
        fams = FAMILIES_UP[t["fam"]]
        for fam in fams if up else reversed(fams):
            self.ref(fam, t["port"], t["type"], up)
        t["up"] = up

    def cmd_tunnel(self, w):
        if w[1] == "flush":
            for name in list(self.tunnels):
                self.tunnel_set_up(self.tunnels.pop(name), False)
            return
        if w[1] == "add":
            if w[5] not in TESTPMD_TYPES:
                raise Stop("testpmd's udp_tunnel_port takes %s; %s is not one" %
                           (", ".join(TESTPMD_TYPES), w[5]))
            if w[2] in self.tunnels or w[3] not in FAMILIES_UP:
                self.fail("bad tunnel %s" % w[2])
                return
            t = dict(fam=w[3], port=int(w[4]), type=w[5], up=False)
            self.tunnels[w[2]] = t
            self.tunnel_set_up(t, True)
            return
        t = self.tunnels.get(w[2])
        if t is None:
            self.fail("no tunnel %s" % w[2])
        elif w[1] in ("up", "down"):
            self.tunnel_set_up(t, w[1] == "up")
        elif w[1] == "del":
            self.tunnel_set_up(self.tunnels.pop(w[2]), False)

    # ---------------------------------------------------------- check
    def read_tables(self, port):
        """Each table's slots (table<N>_slots: "0" or "<port>/<type>"),
        each table's entries as the ethtool-like text shows them (in slot
        order, no empty slots), the static tables' indexes, the shape of
        the others, and the users."""
        d = self.tp.telemetry("/hwcsum/tunnels,%d" % port)
        if "error" in d:
            raise RuntimeError("telemetry: %s" % d["error"])
        text, t = [], None
        for l in d["text"]:
            m = re.match(r"\s*UDP port table (\d+):", l)
            if m:
                t = int(m.group(1))
                text.append([])
            m = re.match(r"\s*port (\d+), (\S+)$", l)
            if m:
                text[t].append("%s/%s" % m.groups())
        missing = [i for i in range(d["n_tables"]) if "table%d_slots" % i not in d]
        if missing:
            raise RuntimeError("telemetry /hwcsum/tunnels,%d has no table%d_slots "
                               "(a PMD without it, or a reply cut at 16 KB)" %
                               (port, missing[0]))
        slots = [d["table%d_slots" % i] for i in range(d["n_tables"])]
        static = [i for i in range(d["n_tables"]) if d["table%d" % i]["static"]]
        shape = [(d["table%d" % i]["size"], d["table%d" % i]["types"])
                 for i in range(d["n_tables"]) if i not in static]
        return slots, text, static, shape, d.get("users", [])

    def cmd_check(self, w):
        nic = self.nic(w[1])
        if nic is None:
            return
        self.checks += 1
        slots, text, static_idx, shape, users = self.read_tables(nic["port"])
        n_static = sum(text[i].count("4789/vxlan") for i in static_idx)
        have = [s for i, s in enumerate(slots) if i not in static_idx]
        shown = [s for i, s in enumerate(text) if i not in static_idx]
        if shape != [(4, "vxlan"), (4, "geneve, vxlan-gpe")]:
            self.fail("nic %s: tables %s, not netdevsim's" % (w[1], shape))
            if len(have) != 2:
                return
        self.record("check", self.line, self.checks, w[1],
                    fmt_slots(have[0]), fmt_slots(have[1]), n_static)
        for t in (0, 1):
            if have[t] != self.expect[t]:
                self.fail("nic %s table %d: expected slots %s, have %s" %
                          (w[1], t, fmt_slots(self.expect[t]), fmt_slots(have[t])))
            # The ethtool view: the same entries, without the empty slots.
            if shown[t] != compact(have[t]):
                self.fail("nic %s table %d: the ethtool text shows %s, the slots are %s" %
                          (w[1], t, fmt_entries(shown[t]), fmt_slots(have[t])))
        if n_static != (1 if nic["static"] else 0):
            self.fail("nic %s: telemetry shows the static 4789/vxlan %d times" %
                      (w[1], n_static))
        # The registry holds exactly the tunnels that are up: one user per
        # (port, type), one reference per family (per anchor).
        want_users = {}
        for (fam, port, type_), n in self.refs.items():
            if n > 0:
                key = "v4 %d %s" % (port, type_)
                want_users[key] = want_users.get(key, 0) + 1
        have_users = {}
        for u in users:
            m = re.match(r"(.*) refcnt (\d+)$", u)
            have_users[m.group(1)] = int(m.group(2))
        if have_users != want_users:
            self.fail("registry users %s, the tunnels up make %s" %
                      (have_users, want_users))

    # ------------------------------------------------------------ file
    def run(self):
        self.expect = [["0"] * 4, ["0"] * 4]
        self.bus_up()
        stopped = None
        try:
            for self.line, raw in enumerate(self.text, 1):
                if raw.startswith("msg "):
                    self.msg = raw[4:].strip()
                    continue
                w = raw.split()
                if not w or w[0].startswith("#"):
                    continue
                try:
                    self.step(w)
                except Stop as e:
                    stopped = (self.line, raw.strip(), str(e))
                    break
            for t in list(self.tunnels.values()):
                self.tunnel_set_up(t, False)
        except RuntimeError as e:
            self.fail(str(e))
        finally:
            self.bus_down()
        if stopped:
            self.record("stop", *stopped)
            where = "; stopped at %s:%d '%s': %s" % (self.path, *stopped)
        else:
            where = ""
        verdict = "FAILED %d errors in" % self.errors if self.errors else "PASSED"
        print("%s: %s %d of %d checks compared%s" % (self.path, verdict,
                                                   self.checks, self.total, where))
        if self.errors and not self.opts.verbose:
            kept = " (%s)" % self.log if self.opts.keep_logs else ""
            print("  last testpmd output%s: %s" % (kept, " / ".join(log_tail(self.log, 8))))
        return self.errors == 0

    def step(self, w):
        if w[0] == "set" and len(w) == 3:
            self.cmd_set(w)
        elif w[0] == "nic" and len(w) >= 3:
            self.cmd_nic(w)
        elif w[0] == "tunnel":
            self.cmd_tunnel(w)
        elif w[0] == "expect" and len(w) == 7 and w[1] == "table":
            self.expect[int(w[2])] = w[3:]
        elif w[0] == "check" and len(w) == 2:
            self.cmd_check(w)
        elif w[:2] == ["bus", "reset"]:
            self.bus_down()
            self.bus_up()
        else:
            self.fail("unknown command '%s'" % " ".join(w))


def main():
    ap = argparse.ArgumentParser(usage=__doc__.splitlines()[0])
    ap.add_argument("--pmd", required=True, help="librte_net_hwcsum.so")
    ap.add_argument("--testpmd", default="dpdk-testpmd")
    ap.add_argument("--dump", help="write the tables of every check here")
    ap.add_argument("--logdir", help="keep testpmd's output here")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="+")
    opts = ap.parse_args()
    # EAL refuses plugins under world-writable directories.
    opts.pmd = subprocess.run([os.path.join(REPO, "devtools", "plugin-path.sh"),
                               opts.pmd], check=True, capture_output=True,
                              text=True).stdout.strip()
    dump = open(opts.dump, "w") if opts.dump else None
    opts.keep_logs = opts.logdir is not None
    if opts.keep_logs:
        os.makedirs(opts.logdir, exist_ok=True)
    else:
        opts.logdir = tempfile.mkdtemp(prefix="hwcsum-replay-")
    ok = True
    try:
        for path in opts.files:
            ok &= FileReplay(path, opts, dump).run()
    finally:
        if not opts.keep_logs:
            shutil.rmtree(opts.logdir, ignore_errors=True)
    if dump is not None:
        dump.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
