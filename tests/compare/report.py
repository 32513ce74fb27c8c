#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""report.py RESULTS_DIR OUT.md OUT.png: the kernel-against-bypass matrix
from the compare-MODEL.json files of tests/compare/analyze.py, as a
markdown page (date, commit, QEMU, kernel and DPDK versions, one table
per NIC model, the hardware differences explained with the cells that
show them) and a plot (hardware share and relative throughput per cell).
Exit 1 if a model's results are missing or a cell failed."""
import datetime
import json
import os
import subprocess
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODELS = ["virtio", "e1000", "e1000e", "rtl8139"]
TUNNELS = ["none", "vxlan", "geneve", "gue", "vxlan-gpe"]
PAIRINGS = ["linux", "hwcsum", "hwcsum-linux", "linux-hwcsum"]
PAIRING_TEXT = {"linux": "Linux → Linux", "hwcsum": "hwcsum → hwcsum",
                "hwcsum-linux": "hwcsum → Linux", "linux-hwcsum": "Linux → hwcsum"}
NO_DPDK = {"rtl8139": "no DPDK driver for the RTL8139 (Linux's 8139cp): "
                      "the bypass and cross cells cannot run"}


def order(c):
    """Table order: pairing, tunnel as the matrix lists them, families."""
    return (PAIRINGS.index(c["pairing"]), TUNNELS.index(c["tunnel"]), c["outer"], c["inner"])


def cmd(*argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def pct(v):
    return "-" if v is None else "%.0f %%" % (100 * v)


def num(v, fmt="%.2f"):
    return "-" if v is None else fmt % v


def cell(results, model, cid):
    for c in results.get(model, {}).get("cells", []):
        if c["id"] == cid:
            return c
    return None


def verdicts_of(results, model, cid):
    c = cell(results, model, cid)
    if c is None or c["rx_hw"] is None:
        return "`%s`: -" % cid
    return "device %d, COMPLETE %d (`%s`)" % (c["rx_hw"], c["rx_complete"], cid)


def share_of(results, model, cid):
    c = cell(results, model, cid)
    return "%s (`%s`)" % (pct(c["hw_share"]) if c else "not run", cid)


# The hardware differences: each sentence names the cells that show it.
def differences(r):
    return [
        ("e1000: a generic transmit engine (TUCSS/TUCSO)",
         "hwcsum gives it the inner UDP checksum inside every tunnel: "
         "%s, %s; Linux's e1000 driver advertises no `hw_enc_features`, so "
         "the stack resolves every tunnelled checksum itself: %s, %s; plain "
         "UDP is offloaded by both: %s, %s." % (
             share_of(r, "e1000", "hwcsum-linux/vxlan/44"),
             share_of(r, "e1000", "hwcsum-linux/gue/44"),
             share_of(r, "e1000", "linux/vxlan/44"),
             share_of(r, "e1000", "linux/gue/44"),
             share_of(r, "e1000", "hwcsum-linux/none/44"),
             share_of(r, "e1000", "linux/none/44"))),
        ("e1000e: a parsing engine",
         "it finds the outermost L4 header itself and cannot be pointed at "
         "an inner one: hwcsum's parse engine offloads the plain cells "
         "(%s) and resolves the tunnelled inner checksums in software "
         "(%s); Linux's e1000e likewise: %s." % (
             share_of(r, "e1000e", "hwcsum-linux/none/44"),
             share_of(r, "e1000e", "hwcsum-linux/vxlan/44"),
             share_of(r, "e1000e", "linux/vxlan/44"))),
        ("rtl8139: IPv4 only",
         "8139cp offloads IPv4 UDP (%s) and not IPv6 (%s); with the series "
         "the IPv6 and tunnelled checksums are resolved outside the driver "
         "lock. %s." % (
             share_of(r, "rtl8139", "linux/none/44"),
             share_of(r, "rtl8139", "linux/none/66"),
             NO_DPDK["rtl8139"][0].upper() + NO_DPDK["rtl8139"][1:])),
        ("virtio-net: CHECKSUM_PARTIAL passed through",
         "any start and offset goes to the host in the vnet header: hwcsum "
         "leaves it every inner checksum of every tunnel (%s, %s, %s), while "
         "Linux 6.1's virtio_net sets no `hw_enc_features`, so the stack "
         "resolves the tunnelled ones itself (%s) and offloads plain UDP "
         "(%s). The receiving NIC runs with guest_csum=off, so the host "
         "completes each sum before the frame arrives, and a wrong request "
         "shows as a wrong sum; on the other direction a hwcsum receiver "
         "gets the host's partial packets (NEEDS_CSUM) and takes the "
         "device's verdict for plain UDP (%s)." % (
             share_of(r, "virtio", "hwcsum-linux/vxlan/44"),
             share_of(r, "virtio", "hwcsum-linux/gue/64"),
             share_of(r, "virtio", "hwcsum/geneve/44"),
             share_of(r, "virtio", "linux/vxlan/44"),
             share_of(r, "virtio", "linux/none/44"),
             verdicts_of(r, "virtio", "linux-hwcsum/none/44"))),
        ("Every model: the outer UDP checksum of a tunnel",
         "both stacks compute it in software (by local checksum offload "
         "once the inner one is left partial: a header's worth of work), "
         "so a tunnel cell's share is at most 50 %, reached when the inner "
         "checksum goes to the device."),
    ]


def table(model, res):
    rows = ["| pairing | tunnel | outer/inner | sent | received | wrong (tshark / own / receiver) "
            "| hw share | rx verdicts (device / COMPLETE) | throughput vs Linux plain |",
            "|---|---|---|---:|---:|---|---:|---|---:|"]
    for c in sorted(res["cells"], key=order):
        rx = "-" if c["rx_hw"] is None else "%d / %d" % (c["rx_hw"], c["rx_complete"])
        rows.append("| %s | %s | IPv%d/IPv%d | %d | %d | %d / %d / %d | %s | %s | %s |" % (
            PAIRING_TEXT[c["pairing"]], c["tunnel"], c["outer"], c["inner"], c["sent"],
            c["received"], c["tshark_bad"], c["own_bad"], c["rx_counter_bad"],
            pct(c["hw_share"]), rx, num(c["rel_tput"])))
    if model in NO_DPDK:
        rows.append("| hwcsum (all) | - | - | - | - | - | - | - | %s |" % NO_DPDK[model])
    return "\n".join(rows)


def plot(results, path):
    models = [m for m in MODELS if m in results]
    fig, axes = plt.subplots(len(models), 2, figsize=(16, 3.2 * len(models)), squeeze=False)
    for row, m in enumerate(models):
        cells = sorted(results[m]["cells"], key=order)
        labels = ["%s %s %d/%d" % (c["pairing"], c["tunnel"], c["outer"], c["inner"]) for c in cells]
        colors = ["C%d" % PAIRINGS.index(c["pairing"]) for c in cells]
        for col, key, title in ((0, "hw_share", "hardware share of L4 checksums"),
                                (1, "rel_tput", "throughput / Linux plain UDP")):
            ax = axes[row][col]
            ax.bar(range(len(cells)), [c[key] or 0 for c in cells], color=colors)
            ax.set_xticks(range(len(cells)))
            ax.set_xticklabels(labels, rotation=90, fontsize=6)
            ax.set_title("%s: %s" % (m, title), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    rdir, md, png = sys.argv[1:]
    results, missing, failed = {}, [], 0
    for m in MODELS:
        p = os.path.join(rdir, "compare-%s.json" % m)
        if os.path.exists(p):
            results[m] = json.load(open(p))
            results[m]["mtime"] = os.path.getmtime(p)
            failed += sum(c["verdict"] != "ok" for c in results[m]["cells"])
        else:
            missing.append(m)
    if not results:
        sys.exit("report.py: no compare-MODEL.json in %s" % rdir)
    any_info = next(iter(results.values()))["info"]
    commit = cmd("git", "-C", os.path.dirname(os.path.abspath(__file__)), "describe",
                 "--always", "--dirty")
    out = ["# Kernel against bypass: the same traffic through both stacks",
           "",
           "Generated by `make compare` (devtools/compare.sh, tests/compare/). "
           "Do not edit: rerun it.",
           "",
           "- written: %s (each model's run: its heading)" %
           datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
           "- commit: %s" % commit,
           "- QEMU: %s (TCG, `-cpu max`, 2 vCPUs)" % cmd("qemu-system-x86_64", "--version").splitlines()[0],
           "- guest kernel: Linux %s with the series (kernel/patches)" % any_info["kernel"],
           "- DPDK: %s (Debian), net_hwcsum and hwcsum-tunnel from this commit" %
           cmd("pkg-config", "--modversion", "libdpdk"),
           "- models: %s%s" % (", ".join(results), "; missing: " + ", ".join(missing) if missing else ""),
           "",
           "## What a cell is",
           "",
           "Two NICs of one model on one emulated link. The sender's stack sends "
           "UDP datagrams of 512 bytes (tests/compare/cells.py) to the "
           "receiver's, plain or through a tunnel, over IPv4 or IPv6 outside "
           "and inside. *Linux* is the guest kernel with its own tunnel devices: "
           "vxlan, an external geneve device whose routes carry two RFC 8926 "
           "options (12 bytes), ipip/sit/ip6tnl over GUE, and an external "
           "`vxlan gpe` device (IP payload). *hwcsum* is hwcsum-tunnel on "
           "net_hwcsum over the model's DPDK driver, with the same VNIs, "
           "options and payloads (testpmd's csum engine for the plain cells), "
           "fed through a veth by a Linux namespace. Every pairing runs: "
           "Linux → Linux, hwcsum → hwcsum, and each stack into the other.",
           "",
           "- **sent / received**: datagrams the sender's socket took, and "
           "those that reached the receiving socket intact. A cell fails when "
           "more than 5 % are lost or one arrived that was not on the wire: "
           "under TCG on a busy host an emulated receive ring can overflow in "
           "a burst, which says nothing about checksums; a wrong one fails "
           "the cell at any count.",
           "- **wrong**: checksums wrong at the receiver: tshark on QEMU's dump "
           "of the receiving NIC (outside the sender; it decodes VXLAN and "
           "GENEVE, not GUE), the analyzer's own check of every IPv4 header "
           "and UDP sum at every depth (GUE included), and the receiver's "
           "counters (Linux InCsumErrors; hwcsum rx_*_bad). Must be 0.",
           "- **hw share**: of the L4 checksums on the wire, the share the "
           "sending stack left to the emulated hardware (Linux: checksum "
           "fields holding the pseudo-header seed in a capture of the sending "
           "NIC; hwcsum: tx_l4_hw and tx_outer_udp_hw). An outer UDP checksum "
           "computed by local checksum offload counts as software in both.",
           "- **rx verdicts**: on a hwcsum receiver, packets whose verdict "
           "came from the device, and packets verified from the "
           "CHECKSUM_COMPLETE sum. Linux has no counter for this (-).",
           "- **throughput**: after each cell, 1000 more datagrams as fast as "
           "the sender's socket takes them; their rate between the first and "
           "the last arrival at the receiving socket (kernel timestamps), "
           "relative to Linux → Linux plain UDP of the same NIC and outer "
           "family in the same run (TCG timings compare only within a run; "
           "losses in this sample are not judged). The bypass cells run one "
           "or two polling lcores on the guest's 2 vCPUs beside the sender, "
           "which Linux → Linux does not.",
           "",
           "## The hardware differences",
           ""]
    for title, text in differences(results):
        out.append("- **%s**: %s" % (title, text))
    out.append("")
    for m in MODELS:
        if m in results:
            when = datetime.datetime.utcfromtimestamp(results[m]["mtime"]).strftime("%Y-%m-%d %H:%M UTC")
            out += ["## %s (driver %s, measured %s)" % (m, results[m]["info"]["driver"], when),
                    "", table(m, results[m]), ""]
    out += ["![hardware share and relative throughput per cell](compare.png)", ""]
    with open(md, "w") as f:
        f.write("\n".join(out))
    plot(results, png)
    print("report: %d model(s), %d failed cell(s), missing: %s -> %s, %s" % (
        len(results), failed, ", ".join(missing) or "none", md, png))
    sys.exit(1 if failed or missing else 0)


if __name__ == "__main__":
    main()
