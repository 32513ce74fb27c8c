#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot the tunnel gateway benchmark (gateway.json, devtools/bench-gateway.sh):
gateway encap/decap Mpps against testpmd's csum engine (sw checksums).

usage: /usr/bin/python3 app/hwcsum-bench/plot_gateway.py build/bench/gateway.json [out.png]
"""
import sys

from plot_common import plt, run


def tick_label(c):
    if c["size"] == "imix":
        return "IMIX 7:4:1\n64/570/1518 B"
    return "%d B inner\n(%d B frame)" % (c["size"], c["outer_frame_len"])


def plot(doc):
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    for ax, direction, title in (
            (axes[0], "encap", "Encapsulation (inner -> underlay) vs testpmd csum sw"),
            (axes[1], "decap", "Decapsulation (underlay -> inner) vs testpmd csum sw")):
        cases = [c for c in doc["cases"] if c["direction"] == direction]
        names = (("peer", "testpmd csum sw (no encap/decap)"), ("gateway", "hwcsum-tunnel"))
        width = 0.8 / len(names)
        for i, (key, label) in enumerate(names):
            xs = [k + (i - (len(names) - 1) / 2) * width for k in range(len(cases))]
            ys = [c[key]["median"] for c in cases]
            lo = [max(0.0, y - min(c[key]["samples"])) for y, c in zip(ys, cases)]
            hi = [max(0.0, max(c[key]["samples"]) - y) for y, c in zip(ys, cases)]
            drawn = ax.bar(xs, ys, width, label=label, yerr=[lo, hi], capsize=2)
            if key == "gateway":
                for bar, c in zip(drawn, cases):
                    ax.annotate("%.2fx" % c["ratio"]["median"],
                                (bar.get_x() + width / 2, bar.get_height()),
                                ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels([tick_label(c) for c in cases])
        ax.set_ylabel("Mpps, one lcore (median, whiskers min..max)")
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=8)
    m = doc.get("machine", {})
    fig.suptitle("hwcsum-tunnel VXLAN/IPv4 on %s, %s CPUs (shared machine; ratios from the "
                 "same run)%s" % (m.get("cpu", "?"), m.get("cpus", "?"),
                                  "" if doc.get("output_right") else " - OUTPUT NOT VERIFIED"),
                 fontsize=10)
    return fig



if __name__ == "__main__":
    sys.exit(run(sys.argv, __doc__, {"gateway": plot}))
