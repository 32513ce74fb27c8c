# SPDX-License-Identifier: BSD-3-Clause
"""What the plot_*.py scripts share: matplotlib without a display, and the
command line (a benchmark's JSON in, the PNG beside it unless named).

Debian's matplotlib: run the scripts with /usr/bin/python3.
"""
import json
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
