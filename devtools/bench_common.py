# SPDX-License-Identifier: BSD-3-Clause
"""bench_common.py: what the devtools benchmark runners share.

machine(): the CPU model, CPU count and kernel release, for the result
document (each runner adds the load averages it reports).
write_json(path, doc, indent): the result document where --json said,
then 'JSON: path' on stdout.
"""
import json
import os
import platform


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "cpus": os.cpu_count(), "kernel": platform.release()}


def write_json(path, doc, indent=2):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=indent)
        f.write("\n")
    print("JSON: %s" % path)
