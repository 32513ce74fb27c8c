#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot hwcsum-bench flow JSON: ns per packet against the number of rules,
the tuple-space table beside a linear scan, for each rule set's masks.

usage: /usr/bin/python3 app/hwcsum-bench/plot_flow.py build/bench/flow.json [out.png]
"""
import sys

from plot_common import plt, run


def plot(doc):
    cases = doc["cases"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    groups = []
    for c in cases:
        if not groups or c["rules"] <= groups[-1][-1]["rules"]:
            groups.append([])
        groups[-1].append(c)
    for g in groups:
        masks = max(c["masks"] for c in g)
        xs = [c["rules"] for c in g]
        for key, style in (("table", "-o"), ("linear", "--s")):
            ax.plot(xs, [c[key] for c in g], style,
                    label=f"{key}, {masks} mask{'s' if masks > 1 else ''}")
        last = g[-1]
        ax.annotate(f"{last['linear_over_table']:.0f}x", (last["rules"], last["table"]),
                    textcoords="offset points", xytext=(-30, 8), fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("rules")
    ax.set_ylabel("ns per packet (lower is better)")
    ax.set_title("rte_flow on net_hwcsum: classification cost (linear/table at 4096)")
    ax.legend()
    return fig


if __name__ == "__main__":
    sys.exit(run(sys.argv, __doc__, {"flow": plot}))
