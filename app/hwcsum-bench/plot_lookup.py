#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot hwcsum-bench lookup JSON: ns per packet, lock-free beside the locks.

usage: /usr/bin/python3 app/hwcsum-bench/plot_lookup.py build/bench/lookup.json [out.png]
"""
import sys

from plot_common import plt, run

CONTENDERS = ["lock-free", "mutex", "rwlock"]


def plot(doc):
    cases = doc["cases"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    width = 0.8 / len(CONTENDERS)
    for i, name in enumerate(CONTENDERS):
        xs = [c + (i - 1) * width for c in range(len(cases))]
        ys = [case[name] for case in cases]
        bars = ax.bar(xs, ys, width, label=name)
        for bar, case in zip(bars, cases):
            if name != "lock-free":
                ratio = case[name] / case["lock-free"]
                ax.annotate(f"{ratio:.1f}x", (bar.get_x() + width / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([c["case"] for c in cases])
    ax.set_ylabel("ns per lookup (lower is better)")
    ax.set_title("UDP port -> tunnel type lookup (ratio vs lock-free above bars)")
    ax.legend()
    return fig


if __name__ == "__main__":
    sys.exit(run(sys.argv, __doc__, {"lookup": plot}))
