#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""tso-wire.py: the QEMU TSO test's captures (tests/qemu/tso.sh).

  split CAPTURE NIC0_MAC OUTDIR [--vnet-hdr]
      the frames NIC 0 sent (source MAC NIC0_MAC), one pcap per pass:
      OUTDIR/pass-K.pcap holds those to peer 02:00:00:00:a0:0K. With
      --vnet-hdr the capture is QEMU's filter-dump of a tap netdev, which
      puts the virtio-net header (10 or 12 bytes) in front of each frame:
      it is cut off. Prints "pass K: N frames".
  gso CAPTURE NIC0_MAC
      the virtio-net headers of what NIC 0 handed to the host: prints
      "gso N frames (largest B bytes, gso_size S), needs_csum M,
      plain P".
"""
import struct
import sys
from scapy.all import rdpcap, wrpcap, Ether

GSO_NONE = 0


def frames(path, mac, vnet):
    """(frame, vnet header or None) for each frame NIC 0 sent."""
    mac = bytes.fromhex(mac.replace(":", ""))
    for p in rdpcap(path):
        raw = bytes(p)
        if not vnet:
            if raw[6:12] == mac:
                yield raw, None
            continue
        for off in (12, 10):
            if raw[off + 6:off + 12] == mac:
                yield raw[off:], raw[:off]
                break


def split(path, mac, outdir, vnet):
    passes = {}
    for raw, _ in frames(path, mac, vnet):
        dst = raw[0:6]
        if dst[:5] != bytes([2, 0, 0, 0, 0xa0]):
            continue
        passes.setdefault(dst[5], []).append(Ether(raw))
    for k in sorted(passes):
        wrpcap("%s/pass-%d.pcap" % (outdir, k), passes[k])
        print("pass %d: %d frames" % (k, len(passes[k])))
    return 0 if passes else 1


def gso(path, mac):
    n_gso = needs = plain = largest = 0
    sizes = set()
    for raw, hdr in frames(path, mac, True):
        flags, gso_type = hdr[0], hdr[1]
        if gso_type != GSO_NONE:
            n_gso += 1
            largest = max(largest, len(raw))
            sizes.add(struct.unpack_from("<H", hdr, 4)[0])
        elif flags & 1:
            needs += 1
        else:
            plain += 1
    print("gso %d frames (largest %d bytes, gso_size %s), needs_csum %d, plain %d"
          % (n_gso, largest, ",".join(map(str, sorted(sizes))) or "-", needs, plain))
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "split":
        sys.exit(split(sys.argv[2], sys.argv[3], sys.argv[4], "--vnet-hdr" in sys.argv[5:]))
    if len(sys.argv) == 4 and sys.argv[1] == "gso":
        sys.exit(gso(sys.argv[2], sys.argv[3]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
