#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Print the totals of a meson test run as its last line: "N passed, N failed".

CI reads only that line. A skipped test counts as failed: a suite that
cannot run here is a defect to fix, not something to hide. Exits non-zero
when anything failed or no test ran at all.
"""
import json
import sys

PASS = {"OK", "EXPECTEDFAIL"}

def main(path):
    passed, failed = 0, []
    try:
        with open(path) as f:
            for line in f:
                t = json.loads(line)
                if t["result"] in PASS:
                    passed += 1
                else:
                    failed.append(f'{t["name"]}: {t["result"]}')
    except FileNotFoundError:
        failed.append(f"no test log at {path}: the test run did not start")
    for f in failed:
        print(f"  not passed: {f}")
    if passed == 0 and not failed:
        failed.append("no test ran")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
