#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot hwcsum-bench csum (or crc32c) JSON: GB/s per size, one panel per mode.

usage: /usr/bin/python3 app/hwcsum-bench/plot_csum.py build/bench/csum.json [out.png]
(Debian's matplotlib: run with /usr/bin/python3, not a venv's python3.)
"""
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src = argv[1]
    dst = argv[2] if len(argv) > 2 else src.rsplit(".", 1)[0] + ".png"
    with open(src) as f:
        data = json.load(f)
    results = data["results"]
    modes = sorted({r["mode"] for r in results}, key=lambda m: m != "cache")
    sizes = sorted({r["size"] for r in results})
    names = data["contenders"]
    fig, axes = plt.subplots(1, len(modes), figsize=(6.5 * len(modes), 4.8),
                             squeeze=False)
    width = 0.8 / len(names)
    for ax, mode in zip(axes[0], modes):
        for k, name in enumerate(names):
            ys = []
            for size in sizes:
                hit = [r for r in results
                       if r["mode"] == mode and r["size"] == size and r["impl"] == name]
                ys.append(hit[0]["bytes_per_s"] / 1e9 if hit else 0)
            xs = [i + (k - (len(names) - 1) / 2) * width for i in range(len(sizes))]
            style = {"hatch": "//", "alpha": 0.5} if name == data.get("ceiling") else {}
            bars = ax.bar(xs, ys, width, label=name, **style)
            if name not in (data.get("ceiling"), data.get("peer")):
                for bar, size in zip(bars, sizes):
                    peer = [r for r in results if r["mode"] == mode and
                            r["size"] == size and r["impl"] == name]
                    if peer:
                        ax.annotate(f'{peer[0]["ratio_vs_peer"]:.1f}x',
                                    (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                                    ha="center", va="bottom", fontsize=6, rotation=90)
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels([f"{s // 1024} KiB" if s >= 16384 else str(s) for s in sizes])
        ax.set_xlabel("buffer size (bytes)")
        ax.set_ylabel("GB/s")
        ax.set_title(f'{data["benchmark"]}: {mode}'
                     + (" (arena > LLC)" if mode == "memory" else " resident"))
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f'labels: ratio to {data.get("peer")} measured in the same run '
                 '(shared machine: absolute numbers vary)', fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    print(f"plot: {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
