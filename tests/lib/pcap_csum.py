#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""pcap_csum.py: tshark's verdict on every checksum of every frame.

The one place that asks tshark (an oracle we did not write) about the
checksums in a capture: IPv4 header, UDP, TCP, ICMP, ICMPv6 and, on
request, SCTP (CRC-32C), outer and inner, with IP/UDP/TCP validation on,
plus tshark's checksum expert messages.

  pcap_csum.py [options] PCAP
      one line per frame: "<frame> ip=good udp=good,bad tcp= ..." and a
      summary line "frames F, checksums good G, bad B, frames with a bad
      one X"
  pcap_csum.py --count bad-frames PCAP
      the number of frames with a bad IP/UDP/TCP checksum or a checksum
      expert message (what "0 bad checksums in the capture" means)
  pcap_csum.py --count good-bad PCAP
      "G B": how many IP/UDP/TCP checksums tshark calls good and bad
  pcap_csum.py --count totals PCAP
      "F G B E": frames, checksums good, bad, frames with a checksum
      expert message
  pcap_csum.py --count frames-bad PCAP
      "F X": frames, frames with a bad one (as bad-frames)
  pcap_csum.py --table [-e FIELD ...] PCAP
      one line per frame, columns joined by "|": the frame number, the
      statuses of each of --kinds in that order (occurrences joined by
      ","), then each tshark FIELD asked for
Options: -d SPEC (tshark's decode-as, repeatable), -Y FILTER (only the
frames it matches), --sctp (validate SCTP as CRC-32C), --kinds ip,udp,...
(which checksums count; default ip,udp,tcp), --no-expert (bad-frames
and frames-bad: expert messages do not count).
Exit 0; 1 when tshark cannot read the file.

From Python: frames(path, ...) gives a Frame per frame (statuses by kind
as "good", "bad", "unverified", "zero" for a UDP checksum of 0 (tshark's
"not present"), "illegal"), and bad_frames()/good_bad() count them.
"""
import argparse
import subprocess
import sys

TSHARK = "tshark"
# tshark's proto_checksum_enum_e values.
STATUS = {"0": "bad", "1": "good", "2": "unverified", "3": "zero", "4": "illegal"}
KINDS = ("ip", "udp", "tcp", "icmp", "icmpv6", "sctp")
# What tests mean by "every checksum": IPv4, UDP and TCP; ICMP on request.
DEFAULT_KINDS = ("ip", "udp", "tcp")
EXPERT = "_ws.expert.message"
# Fields are joined by SEP, several occurrences of one field by AGG:
# characters no expert message or number contains.
SEP, AGG = "\x1f", "\x1e"


class Frame:
    """One frame: its number, statuses by kind, checksum expert messages,
    and any extra fields asked for (raw strings, occurrences joined by ",")."""

    def __init__(self, number, status, expert, fields):
        self.number = number
        self.status = status
        self.expert = expert
        self.fields = fields

    def verdicts(self, kinds=DEFAULT_KINDS):
        """Every status of the given kinds, in kind order."""
        return [s for k in kinds for s in self.status.get(k, [])]

    def has_bad(self, kinds=DEFAULT_KINDS, expert=True):
        return "bad" in self.verdicts(kinds) or (expert and bool(self.expert))

    def __str__(self):
        return "%d %s%s" % (self.number, " ".join(
            "%s=%s" % (k, ",".join(self.status[k])) for k in KINDS if k in self.status),
            "".join(" expert=%r" % e for e in self.expert))


def tshark_command(path, decode_as=(), display_filter=None, sctp=False, fields=()):
    cmd = [TSHARK, "-r", path, "-n",
           "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
           "-o", "tcp.check_checksum:TRUE"]
    if sctp:
        cmd += ["-o", "sctp.checksum:CRC-32C"]
    for d in decode_as:
        cmd += ["-d", d]
    if display_filter:
        cmd += ["-Y", display_filter]
    cmd += ["-T", "fields", "-E", "separator=" + SEP, "-E", "occurrence=a",
            "-E", "aggregator=" + AGG, "-e", "frame.number", "-e", EXPERT]
    for k in KINDS:
        cmd += ["-e", k + ".checksum.status"]
    for f in fields:
        cmd += ["-e", f]
    return cmd


def frames(path, decode_as=(), display_filter=None, sctp=False, fields=()):
    """[Frame] for every frame of the capture (that the filter matches)."""
    out = subprocess.run(tshark_command(path, decode_as, display_filter, sctp, fields),
                         check=True, capture_output=True, text=True).stdout
    res = []
    for line in out.split("\n"):  # not splitlines(): it splits at AGG too
        cols = line.split(SEP)
        if len(cols) < 2 + len(KINDS):
            continue
        status = {}
        for k, c in zip(KINDS, cols[2:2 + len(KINDS)]):
            vals = [STATUS.get(s, s) for s in c.split(AGG) if s]
            if vals:
                status[k] = vals
        expert = [m for m in cols[1].split(AGG) if "hecksum" in m]
        extra = {f: c.replace(AGG, ",") for f, c in zip(fields, cols[2 + len(KINDS):])}
        res.append(Frame(int(cols[0]), status, expert, extra))
    return res


def bad_frames(fr, kinds=DEFAULT_KINDS, expert=True):
    """How many frames have a bad checksum (or a checksum expert message)."""
    return sum(1 for f in fr if f.has_bad(kinds, expert))


def good_bad(fr, kinds=DEFAULT_KINDS):
    """(checksums good, checksums bad) over all frames."""
    v = [s for f in fr for s in f.verdicts(kinds)]
    return v.count("good"), v.count("bad")


def expert_frames(fr):
    """How many frames carry a checksum expert message."""
    return sum(1 for f in fr if f.expert)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pcap")
    ap.add_argument("-d", dest="decode_as", action="append", default=[],
                    help="tshark decode-as, e.g. udp.port==8472,vxlan")
    ap.add_argument("-Y", dest="filter", help="tshark display filter")
    ap.add_argument("--sctp", action="store_true", help="validate SCTP CRC-32C")
    ap.add_argument("--kinds", default=",".join(DEFAULT_KINDS),
                    help="checksums that count (of %s)" % ",".join(KINDS))
    ap.add_argument("--no-expert", action="store_true",
                    help="bad-frames, frames-bad: checksum expert messages do not count")
    ap.add_argument("--count", choices=("bad-frames", "good-bad", "totals", "frames-bad"))
    ap.add_argument("--table", action="store_true",
                    help="one line per frame: number|statuses of --kinds|fields")
    ap.add_argument("-e", dest="fields", action="append", default=[],
                    help="--table: a tshark field to add (repeatable)")
    a = ap.parse_args(argv)
    if a.fields and not a.table:
        ap.error("-e needs --table")
    if a.table and a.count:
        ap.error("--table and --count exclude each other")
    kinds = tuple(a.kinds.split(","))
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        ap.error("unknown checksum kind(s) %s (known: %s)" % (",".join(unknown), ",".join(KINDS)))
    try:
        fr = frames(a.pcap, a.decode_as, a.filter, a.sctp, a.fields)
    except subprocess.CalledProcessError as e:
        print("tshark cannot read %s: %s" % (a.pcap, e.stderr.strip()), file=sys.stderr)
        return 1
    if a.count == "bad-frames":
        print(bad_frames(fr, kinds, not a.no_expert))
    elif a.count == "good-bad":
        print("%d %d" % good_bad(fr, kinds))
    elif a.count == "frames-bad":
        print("%d %d" % (len(fr), bad_frames(fr, kinds, not a.no_expert)))
    elif a.table:
        for f in fr:
            print("|".join([str(f.number)] + [",".join(f.status.get(k, [])) for k in kinds] +
                           [f.fields[e] for e in a.fields]))
    elif a.count == "totals":
        print("%d %d %d %d" % ((len(fr),) + good_bad(fr, kinds) + (expert_frames(fr),)))
    else:
        for f in fr:
            print(f)
        g, b = good_bad(fr, kinds)
        print("frames %d, checksums good %d, bad %d, frames with a bad one %d" %
              (len(fr), g, b, bad_frames(fr, kinds, not a.no_expert)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
