#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_capture.py <dumpcap|pdump-rx|pdump-tx> <capture> <in.pcap>

Judge a capture of the hwcsum port against the frames the sub-port
replayed (gen_frames.py): tshark reads it, with IPv4 and UDP checksum
validation on.
- received frames (dumpcap's inbound, pdump's rx file) are the input
  frames byte for byte, each once, every checksum good;
- sent frames (dumpcap's outbound, pdump's tx file) are the same UDP
  datagrams, each once, at the same length. Their checksums are not
  judged: pdump's TX callback runs before the PMD's burst, so it sees
  what testpmd's csum engine asked for (IPv4 checksum field zeroed),
  not what hwcsum put on the wire.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pcap_csum  # noqa: E402

FIELDS = ["frame.packet_flags_direction", "udp.srcport", "frame.len", "data.data"]


def tshark(path):
	"""Per frame the FIELDS and "csum": (IPv4 verdicts, UDP verdicts)."""
	return [dict(f.fields, csum=(f.status.get("ip", []), f.status.get("udp", [])))
		for f in pcap_csum.frames(path, fields=FIELDS)]


def main():
	kind, capture, inp = sys.argv[1:4]
	want = {f["udp.srcport"]: f for f in tshark(inp)}
	got = tshark(capture)
	errors = []
	if kind == "dumpcap":
		# pcapng packet flags, bits 0-1: 1 inbound, 2 outbound.
		def direction(f):
			return int(f["frame.packet_flags_direction"] or "0", 0) & 3
		rx = [f for f in got if direction(f) == 1]
		tx = [f for f in got if direction(f) == 2]
		if len(rx) + len(tx) != len(got):
			errors.append("frames without a direction")
	else:
		rx, tx = (got, []) if kind == "pdump-rx" else ([], got)
	for name, frames, exact in (("received", rx, True), ("sent", tx, False)):
		if kind != "dumpcap" and not frames:
			continue
		ports = sorted(f["udp.srcport"] for f in frames)
		if ports != sorted(want):
			errors.append(f"{name}: UDP source ports {ports}, expected {sorted(want)}")
			continue
		for f in frames:
			w = want[f["udp.srcport"]]
			if f["frame.len"] != w["frame.len"] or f["data.data"] != w["data.data"]:
				errors.append(f"{name}: frame {f['udp.srcport']} differs from the input")
			if exact and f["csum"] != (["good"], ["good"]):
				errors.append(f"{name}: frame {f['udp.srcport']} checksums "
					      f"ip {f['csum'][0]} udp {f['csum'][1]}")
	print(f"{kind}: {len(rx)} received, {len(tx)} sent frames")
	for e in errors:
		print("  " + e)
	return 1 if errors else 0


if __name__ == "__main__":
	sys.exit(main())
