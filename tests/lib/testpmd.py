#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""testpmd.py: the Python testpmd driver.

Testpmd(cmd, log): one interactive dpdk-testpmd (cmd: the whole command
line, EAL and application arguments), its output line-buffered and read
by a thread, everything it prints kept in the log file. wait_prompt()
returns the output up to the next prompt; cmd(c) sends a command and
returns its output; quit() ends it. TESTPMD_PRELOAD (an ASan build's
runtime, tests/pmd/meson.build) is given back to testpmd only.
fwd_stats(out) reads testpmd's forward statistics blocks.
"""
import os
import queue
import re
import subprocess
import threading
import time

PROMPT = "testpmd> "
STDBUF_SO = next((p for p in ("/usr/libexec/coreutils/libstdbuf.so",
                              "/usr/lib/coreutils/libstdbuf.so") if os.path.exists(p)), "")


class Testpmd:
    def __init__(self, cmd, log):
        self.log = open(log, "w")
        # Line-buffered stdout for testpmd (what stdbuf -oL does), after any
        # runtime that must come first (ASan's, from meson.build).
        env = dict(os.environ)
        pre = [x for x in (os.environ.get("TESTPMD_PRELOAD", ""), STDBUF_SO) if x]
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

    def quit(self):
        try:
            self.p.stdin.write(b"quit\n")
            self.p.stdin.flush()
            self.p.wait(timeout=30)
        except Exception:           # noqa: BLE001
            self.p.kill()
        self.log.close()


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
