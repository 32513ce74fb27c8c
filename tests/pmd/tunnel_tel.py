#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""tunnel_tel.py PREFIX COMMAND [KEY...]: ask a running DPDK application
for one telemetry command through the stock /usr/bin/dpdk-telemetry.py
(-f PREFIX, the command on its stdin) and print the value under KEY...:
a string as is, a list of strings one per line, anything else as compact
JSON. Exit 1 with a message when the reply or a key is missing."""
import json
import subprocess
import sys

TELEMETRY = "/usr/bin/dpdk-telemetry.py"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    prefix, command, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = subprocess.run([sys.executable, TELEMETRY, "-f", prefix],
                         input=command + "\n", capture_output=True,
                         text=True, timeout=30).stdout
    lines = [l for l in out.splitlines() if l.startswith("{")]
    if not lines:
        sys.exit("no telemetry reply to %s: %r" % (command, out))
    value = json.loads(lines[-1])[command.split(",")[0]]
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            sys.exit("telemetry %s: no key %r in %s" % (command, key,
                                                        json.dumps(value)))
        value = value[key]
    if isinstance(value, str):
        print(value)
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        print("\n".join(value))
    else:
        print(json.dumps(value, separators=(",", ":"), sort_keys=False))


if __name__ == "__main__":
    main()
