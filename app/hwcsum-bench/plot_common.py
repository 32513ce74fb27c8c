# SPDX-License-Identifier: BSD-3-Clause
"""What the plot_*.py scripts share: matplotlib without a display, and the
command line (a benchmark's JSON in, the PNG beside it unless named):
run(argv, usage, plotters) with plotters {bench kind: plot(doc) -> figure}.

Debian's matplotlib: run the scripts with /usr/bin/python3.
"""
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401 (the scripts' plt)


def load(argv, usage):
    """(the JSON, the PNG path), or None after printing usage."""
    if len(argv) < 2:
        print(usage.strip(), file=sys.stderr)
        return None
    src = argv[1]
    dst = argv[2] if len(argv) > 2 else src.rsplit(".", 1)[0] + ".png"
    with open(src) as f:
        return json.load(f), dst


def run(argv, usage, plotters):
    """Plot argv[1] with the plotter of its kind into the PNG; exit status."""
    got = load(argv, usage)
    if got is None:
        return 2
    doc, dst = got
    # The C benches of byte throughput name their kind "benchmark".
    kind = doc.get("bench", doc.get("benchmark"))
    if kind not in plotters:
        print("%s: %s: a %r benchmark, not %s" % (os.path.basename(argv[0]), argv[1], kind,
                                                   " or ".join(plotters)), file=sys.stderr)
        return 2
    fig = plotters[kind](doc)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    return 0
