#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""testpmd.py: the Python testpmd driver.

Testpmd(cmd, log): one interactive dpdk-testpmd (cmd: the whole command
line, EAL and application arguments; eal_args() makes the EAL part of
this host's), its output line-buffered and read by a thread, everything
it prints kept in the log file. wait_prompt() returns the output up to
the next prompt; cmd(c) sends a command and returns its output (the
command's echo first); ports() reads `show port summary all` into {name:
port id}; telemetry(c) asks EAL's telemetry socket of the testpmd's file
prefix; quit() ends it and returns its exit status. TESTPMD_PRELOAD (an
ASan build's runtime, tests/pmd/meson.build) is given back to testpmd
only; without it, testpmd keeps the LD_PRELOAD it was given, as
tests/lib/testpmd.sh does. fwd_stats(out) and xstats(out) read testpmd's
forward statistics blocks and `show port xstats`.
"""
import json
import os
import queue
import re
import socket
import subprocess
import threading
import time

PROMPT = "testpmd> "
# EAL on this host: no hugepages, no PCI device, two lcores.
EAL_HOST = ["--no-huge", "-m", "256", "--no-pci", "-l", "0-1"]
# EAL's runtime directories (root's), one per file prefix.
RUNTIME_DIR = "/var/run/dpdk"
STDBUF_SO = next((p for p in ("/usr/libexec/coreutils/libstdbuf.so",
                              "/usr/lib/coreutils/libstdbuf.so") if os.path.exists(p)), "")


def eal_args(prefix, pmd=None, vdevs=()):
    """EAL arguments of a testpmd on this host: a runtime directory of its
    own (prefix: tests and benchmarks run side by side), the PMD by -d,
    one --vdev per entry of vdevs."""
    a = EAL_HOST + ["--file-prefix", prefix] + (["-d", pmd] if pmd else [])
    for v in vdevs:
        a += ["--vdev", v]
    return a


def _file_prefix(cmd):
    for i, a in enumerate(cmd):
        if a == "--file-prefix" and i + 1 < len(cmd):
            return cmd[i + 1]
        if a.startswith("--file-prefix="):
            return a.split("=", 1)[1]
    return "rte"


class Testpmd:
    def __init__(self, cmd, log):
        self.log = open(log, "w")
        self.prefix = _file_prefix(cmd)
        self.tel = None
        # Line-buffered stdout for testpmd (what stdbuf -oL does), after any
        # runtime that must come first (ASan's, from meson.build).
        env = dict(os.environ)
        first = os.environ.get("TESTPMD_PRELOAD") or os.environ.get("LD_PRELOAD", "")
        pre = [x for x in (first, STDBUF_SO) if x]
        env["LD_PRELOAD"] = " ".join(pre)
        env["_STDBUF_O"] = "L"
        env["_STDBUF_E"] = "L"
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, bufsize=0, env=env)
        self.q = queue.Queue()
        self.buf = ""
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        while True:
            d = os.read(self.p.stdout.fileno(), 65536)
            if not d:
                self.q.put(None)
                return
            self.q.put(d.decode(errors="replace"))

    def wait_prompt(self, timeout=60):
        end = time.time() + timeout
        chunks = [self.buf]
        tail = self.buf
        while PROMPT not in tail:
            try:
                d = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                raise RuntimeError("testpmd: no prompt within %ds; last output:\n%s" %
                                   (timeout, "".join(chunks)[-3000:]))
            if d is None:
                raise RuntimeError("testpmd exited (rc %s); last output:\n%s" %
                                   (self.p.wait(), "".join(chunks)[-3000:]))
            chunks.append(d)
            self.log.write(d)
            tail = tail[-len(PROMPT):] + d
        out, self.buf = "".join(chunks).split(PROMPT, 1)
        return out

    def send(self, c):
        self.log.write("\n>>> %s\n" % c)
        self.p.stdin.write((c + "\n").encode())
        self.p.stdin.flush()

    def cmd(self, c, timeout=60, marker=None):
        """Output of command c: up to the prompt that follows marker (the
        forwarding lcore may print into the prompt of an earlier command)."""
        self.send(c)
        out = self.wait_prompt(timeout)
        end = time.time() + timeout
        while marker is not None and marker not in out:
            if time.time() > end:
                raise RuntimeError("testpmd: no '%s' after '%s'" % (marker, c))
            out += PROMPT + self.wait_prompt(timeout)
        return out

    def ports(self, timeout=60):
        """{name: port id} of every port testpmd has now."""
        out = self.cmd("show port summary all", timeout)
        n = re.search(r"^Number of available ports: (\d+)", out, re.M)
        rows = re.findall(r"^(\d+)\s+[0-9A-Fa-f:]{17}\s+(\S+)", out, re.M)
        if n is None or len(rows) != int(n.group(1)):
            raise RuntimeError("testpmd: unreadable port summary:\n" + out)
        return {name: int(port) for port, name in rows}

    def telemetry(self, command):
        """The value of a telemetry command ("/ethdev/list", "/x,arg"),
        from the socket in this testpmd's runtime directory."""
        if self.tel is None:
            self.tel = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            self.tel.connect(os.path.join(RUNTIME_DIR, self.prefix, "dpdk_telemetry.v2"))
            self.tel.recv(65536)    # the greeting: version, pid, max output
        self.tel.send(command.encode())
        return json.loads(self.tel.recv(1 << 20))[command.split(",")[0]]

    def quit(self):
        """Its exit status; what it prints while it ends goes to the log."""
        if self.tel is not None:
            self.tel.close()
        try:
            self.p.stdin.write(b"quit\n")
            self.p.stdin.flush()
            self.p.wait(timeout=30)
        except Exception:           # noqa: BLE001
            self.p.kill()
        rc = self.p.wait()
        while True:
            try:
                d = self.q.get(timeout=5)
            except queue.Empty:
                break
            if d is None:
                break
            self.log.write(d)
        self.log.close()
        return rc


def fwd_stats(out):
    """{port: {rx, tx, tx_dropped, bad_ip, bad_l4, bad_outer_l4, bad_outer_ip}}"""
    res = {}
    for m in re.finditer(r"Forward statistics for port (\d+)\s+-+\n(.*?)\n\s+-{10,}", out, re.S):
        blk = m.group(2)

        def num(name):
            mm = re.search(re.escape(name) + r":\s+(\d+)", blk)
            return int(mm.group(1)) if mm else None
        res[int(m.group(1))] = {"rx": num("RX-packets"), "tx": num("TX-packets"),
                                "tx_dropped": num("TX-dropped"),
                                "bad_ip": num("Bad-ipcsum"), "bad_l4": num("Bad-l4csum"),
                                "bad_outer_l4": num("Bad-outer-l4csum"),
                                "bad_outer_ip": num("Bad-outer-ipcsum")}
    return res


def xstats(out):
    """{name: value} from the output of `show port xstats N`."""
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^([\w-]+): (\d+)\s*$", out, re.M)}
