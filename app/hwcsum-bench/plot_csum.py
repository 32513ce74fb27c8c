#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot hwcsum-bench csum (or crc32c) JSON: GB/s per size, one panel per mode;
for csum also TSC cycles per byte (a second row), labelled with the speed
ratio to Linux's csum_partial when the JSON has it.

usage: /usr/bin/python3 app/hwcsum-bench/plot_csum.py build/bench/csum.json [out.png]
(Debian's matplotlib: run with /usr/bin/python3, not a venv's python3.)
"""
import sys

from plot_common import plt, run


def panel(ax, data, mode, sizes, key, scale, ratio_key, skip):
    """Bars of key (times scale) per size and contender; labels: ratio_key."""
    results = data["results"]
    names = data["contenders"]
    width = 0.8 / len(names)
    for k, name in enumerate(names):
        hits = []
        for size in sizes:
            hit = [r for r in results
                   if r["mode"] == mode and r["size"] == size and r["impl"] == name]
            hits.append(hit[0] if hit else None)
        ys = [h[key] * scale if h else 0 for h in hits]
        xs = [i + (k - (len(names) - 1) / 2) * width for i in range(len(sizes))]
        style = {"hatch": "//", "alpha": 0.5} if name == data.get("ceiling") else {}
        bars = ax.bar(xs, ys, width, label=name, **style)
        if name in skip:
            continue
        for bar, hit in zip(bars, hits):
            if hit and ratio_key in hit:
                ax.annotate(f'{hit[ratio_key]:.1f}x',
                            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=6, rotation=90)
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([f"{s // 1024} KiB" if s >= 16384 else str(s) for s in sizes])
    ax.set_xlabel("buffer size (bytes)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7)


def plot(data):
    results = data["results"]
    modes = sorted({r["mode"] for r in results}, key=lambda m: m != "cache")
    sizes = sorted({r["size"] for r in results})
    cycles = all("cycles_per_byte" in r for r in results)
    linux = data.get("linux_peer")
    rows = 2 if cycles else 1
    fig, axes = plt.subplots(rows, len(modes), figsize=(6.5 * len(modes), 4.8 * rows),
                             squeeze=False)
    where = {m: " (arena > LLC)" if m == "memory" else " resident" for m in modes}
    for ax, mode in zip(axes[0], modes):
        panel(ax, data, mode, sizes, "bytes_per_s", 1e-9, "ratio_vs_peer",
              (data.get("ceiling"), data.get("peer")))
        ax.set_ylabel("GB/s")
        ax.set_title(f'{data["benchmark"]}: {mode}{where[mode]}, GB/s '
                     f'(labels: x {data.get("peer")})', fontsize=9)
    if cycles:
        for ax, mode in zip(axes[1], modes):
            panel(ax, data, mode, sizes, "cycles_per_byte", 1, "ratio_vs_linux",
                  (data.get("ceiling"), data.get("peer"), linux))
            ax.set_yscale("log")
            ax.set_ylabel("TSC cycles per byte (log)")
            ax.set_title(f'{data["benchmark"]}: {mode}{where[mode]}, cycles/byte'
                         + (f' (labels: speed x {linux})' if linux else ''), fontsize=9)
    note = f'labels: ratio to {data.get("peer")}'
    if linux:
        note += f' (top) and to {linux} (bottom)'
    note += ' measured in the same run (shared machine: absolute numbers vary)'
    if cycles:
        note += f'; TSC = reference cycles at {data["tsc_hz"] / 1e9:.2f} GHz'
    fig.suptitle(note, fontsize=8)
    return fig


if __name__ == "__main__":
    sys.exit(run(sys.argv, __doc__, {"csum": plot, "crc32c": plot}))
