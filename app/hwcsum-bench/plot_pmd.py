#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot the PMD benchmarks: testpmd Mpps (pmd.json, devtools/bench-pmd.sh)
or RX verification ns/packet (rxverify.json, hwcsum-bench rxverify).
Fixed sizes first, then the IMIX entry (size or label "imix") where the
JSON has one.

usage: /usr/bin/python3 app/hwcsum-bench/plot_pmd.py build/bench/pmd.json [out.png]
       /usr/bin/python3 app/hwcsum-bench/plot_pmd.py build/bench/rxverify.json [out.png]
"""
import sys

from plot_common import plt, run


def is_imix(case):
    return case.get("label") == "imix" or case.get("size") == "imix"


def ordered(cases):
    """Fixed sizes in order, then IMIX (absent in older JSON: fine)."""
    return sorted((c for c in cases if not is_imix(c)), key=lambda c: c["size"]) + \
        [c for c in cases if is_imix(c)]


def size_tick(case):
    if is_imix(case):
        frame = case.get("outer_frame_len")
        return "IMIX 7:4:1\n64/570/1518 B inner%s" % (
            "\n(%.0f B mean frame)" % frame if isinstance(frame, (int, float)) else "")
    if "outer_frame_len" in case:
        return "%d B inner\n(%d B frame)" % (case["size"], case["outer_frame_len"])
    return "%d B inner" % case["size"]


def bars(ax, cases, names, value, ylabel, title, ratio_of=None, err=None):
    """Grouped bars per size; ratio_of: {name: (numerator, denominator)} labels."""
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        xs = [c + (i - (len(names) - 1) / 2) * width for c in range(len(cases))]
        ys = [value(case, name) for case in cases]
        yerr = None
        if err is not None:
            yerr = [[max(0.0, y - err(case, name)[0]) for y, case in zip(ys, cases)],
                    [max(0.0, err(case, name)[1] - y) for y, case in zip(ys, cases)]]
        drawn = ax.bar(xs, ys, width, label=name, yerr=yerr, capsize=2)
        if ratio_of and name in ratio_of:
            for bar, case in zip(drawn, cases):
                ax.annotate(ratio_of[name](case), (bar.get_x() + width / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([size_tick(c) for c in cases], fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)


def plot_pmd(doc):
    cases = ordered(doc["cases"])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))

    def best(case, name):
        return case["contenders"][name]["best"]

    def spread(case, name):
        s = case["contenders"][name]["samples"]
        return min(s), max(s)

    def med(case, name):
        return case["contenders"][name]["median"]

    bars(ax1, cases, ["bare-csum-sw", "hwcsum-csum-hw"], med,
         "Mpps, one core (median, whiskers min..max)",
         "TX checksums: testpmd csum engine, hwcsum software path vs sw on the bare port",
         {"hwcsum-csum-hw": lambda c: "%.2fx" % c["ratios"]["tx_sw_path"]["median"]},
         spread)
    bars(ax2, cases, ["bare-io", "hwcsum-io"], med,
         "Mpps, one core (median, whiskers min..max)",
         "Pass-through: io forwarding over hwcsum vs the bare port\n"
         "(label: paired ratio, the median of the per-round ratios)",
         {"hwcsum-io": lambda c: "%.3fx" % c["ratios"]["pass_through"].get(
             "paired_median", c["ratios"]["pass_through"]["median"])},
         spread)
    m = doc.get("machine", {})
    fig.suptitle("net_hwcsum on %s, %s CPUs (shared machine; ratios from the same run)%s"
                 % (m.get("cpu", "?"), m.get("cpus", "?"),
                    "" if doc.get("checksums_right") else " - CHECKSUMS NOT VERIFIED"),
                 fontsize=10)
    return fig


def plot_rxverify(doc):
    cases = ordered(doc["cases"])
    names = [n for n in ("complete", "rte_verify", "hwcsum_rx_one")
             if all(n in c for c in cases)]
    fig, ax = plt.subplots(figsize=(8.5, 4.8))

    def best(case, name):
        return case[name]["best"]

    def spread(case, name):
        return case[name]["best"], max(case[name]["rounds"])

    def ratio(key):
        return lambda c: "%.2fx" % c[key] if key in c else ""

    ratios = {"complete": ratio("ratio_best")}
    if "hwcsum_rx_one" in names:
        ratios["hwcsum_rx_one"] = ratio("ratio_rx_one_best")
    bars(ax, cases, names, best, "ns per packet (best round; lower is better)",
         "RX verify VXLAN/IPv4/UDP, outer + inner (%s); ratio = rte_verify / this"
         % doc.get("impl", "?"), ratios, spread)
    return fig



if __name__ == "__main__":
    sys.exit(run(sys.argv, __doc__, {"pmd": plot_pmd, "rxverify": plot_rxverify}))
