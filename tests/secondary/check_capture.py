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
import subprocess
import sys

FIELDS = ["frame.packet_flags_direction", "udp.srcport", "frame.len",
	  "ip.checksum.status", "udp.checksum.status", "data.data"]


def tshark(path):
	out = subprocess.run(
		["tshark", "-r", path, "-o", "ip.check_checksum:TRUE",
		 "-o", "udp.check_checksum:TRUE", "-T", "fields", "-E", "separator=|"] +
		sum((["-e", f] for f in FIELDS), []),
		check=True, capture_output=True, text=True).stdout
	return [dict(zip(FIELDS, line.split("|"))) for line in out.splitlines()]


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
			if exact and (f["ip.checksum.status"], f["udp.checksum.status"]) != ("1", "1"):
				errors.append(f"{name}: frame {f['udp.srcport']} checksum status "
					      f"ip {f['ip.checksum.status']} udp {f['udp.checksum.status']}")
	print(f"{kind}: {len(rx)} received, {len(tx)} sent frames")
	for e in errors:
		print("  " + e)
	return 1 if errors else 0


if __name__ == "__main__":
	sys.exit(main())
