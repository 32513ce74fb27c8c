#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Print the totals of meson test runs as the last line: "N passed, N failed".

usage: test-summary.py [label:]testlog.json ...
A label prefixes the test names of that run (e.g. asan:build-asan/...).

CI reads only that line. A skipped test counts as failed: a suite that
cannot run here is a defect to fix, not something to hide. Exits non-zero
when anything failed or no test ran at all.
"""
import json
import sys

PASS = {"OK", "EXPECTEDFAIL"}

def read_log(arg, failed):
    label, _, path = arg.rpartition(":")
    prefix = f"{label}/" if label else ""
    passed = 0
    try:
        with open(path) as f:
            for line in f:
                t = json.loads(line)
                if t["result"] in PASS:
                    passed += 1
                else:
                    failed.append(f'{prefix}{t["name"]}: {t["result"]}')
    except FileNotFoundError:
        failed.append(f"no test log at {path}: the test run did not start")
    return passed


def main(args):
    passed, failed = 0, []
    for arg in args:
        passed += read_log(arg, failed)
    for f in failed:
        print(f"  not passed: {f}")
    if passed == 0 and not failed:
        failed.append("no test ran")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
