#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Judge one NIC model's run of the kernel-against-bypass matrix.

analyze.py RUN_DIR [--json OUT.json]

RUN_DIR is what tests/compare/guest-compare.sh left (cells.jsonl, recv-*.json,
tx-*.pcap, app logs) plus QEMU's filter-dump of both NICs (nic0.pcap,
nic1.pcap: the emulated wire, outside every sender). Per cell:
  - sent, received intact (the receiving socket), lost;
  - checksums wrong at the receiver, three ways: tshark on the wire
    capture (every IPv4 header, UDP checksum at every depth it decodes:
    VXLAN and GENEVE, not GUE), an own check of every header and UDP
    checksum at every depth (GUE included), and the receiver's counters
    (Linux InCsumErrors, hwcsum rx_*_bad);
  - the hardware share: of the L4 checksums on the wire, how many the
    sending stack left to the device (Linux: seeds in a tcpdump of the
    sending NIC; hwcsum: tx_l4_hw and tx_outer_udp_hw);
  - receive verdicts of a hwcsum receiver (rx_verdict_from_sub: the
    device's; rx_complete: CHECKSUM_COMPLETE);
  - throughput: after the cell, cells.py floods the cell's port + 500
    with as many datagrams as the socket takes; their rate between the
    first and the last arrival, relative to the Linux plain-UDP cell of
    the same outer family in the same run (losses there are not judged).
virtio-net dumps carry a vnet header: it is cut off, and a NEEDS_CSUM
frame (a partial checksum handed to the next hop) is completed from its
csum_start/csum_offset first, so that a wrong request shows as a wrong sum.
Exit status 1 when a cell fails: a wrong checksum anywhere, more than 5 %
lost, or a frame missing from the wire.
"""
import json
import os
import struct
import sys

from scapy.all import IP, UDP, Ether, IPv6, RawPcapReader
from scapy.layers.inet import in4_chksum
from scapy.layers.inet6 import in6_chksum
from scapy.layers.vxlan import VXLAN  # noqa: F401 (binds UDP 4789)
from scapy.contrib.geneve import GENEVE  # noqa: F401 (binds UDP 6081)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pcap_csum  # noqa: E402

GUE_PORT = 6080
FLOOD_PORT_OFFSET = 500  # cells.py's throughput sample
ETHERTYPES = (b"\x08\x00", b"\x86\xdd", b"\x08\x06")


def fold(s):
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def ones_sum(data):
    if len(data) % 2:
        data += b"\0"
    return fold(sum(int.from_bytes(data[i:i + 2], "big")
                    for i in range(0, len(data), 2)))


def strip_vnet(raw):
    """(frame, completed?) of a virtio-net dump record."""
    for off in (12, 10):
        if raw[off + 12:off + 14] in ETHERTYPES:
            hdr, frame = raw[:off], bytearray(raw[off:])
            if hdr[0] & 1:  # VIRTIO_NET_HDR_F_NEEDS_CSUM
                start = int.from_bytes(hdr[6:8], "little")
                where = start + int.from_bytes(hdr[8:10], "little")
                s = ~ones_sum(bytes(frame[start:])) & 0xffff
                frame[where:where + 2] = (s or 0xffff).to_bytes(2, "big")
                return bytes(frame), True
            return bytes(frame), False
    return raw, False


def next_ip_udp(cur):
    """The first IP or IPv6 layer from cur on, and the UDP header right
    behind it (IPv6 extension headers between them: ip6tnl adds one)."""
    while cur is not None and not isinstance(cur, (IP, IPv6)):
        cur = cur.payload if cur.payload else None
    if cur is None:
        return None, None
    udp = cur.payload
    while isinstance(cur, IPv6) and udp and udp.__class__.__name__.startswith("IPv6ExtHdr"):
        udp = udp.payload
    return cur, udp if isinstance(udp, UDP) else None


def layers(pkt):
    """(ip, udp) pairs at every depth, GUE's inner IP included."""
    out = []
    cur = pkt
    while cur is not None:
        ip, udp = next_ip_udp(cur)
        if udp is None:
            break
        out.append((ip, udp))
        if udp.dport == GUE_PORT:
            body = bytes(udp.payload)[4:]
            cur = IP(body) if body[:1] and body[0] >> 4 == 4 else IPv6(body)
        else:
            cur = udp.payload
    return out


def own_check(pkt):
    """(checksums present, wrong) of every IPv4 header and UDP sum."""
    present = wrong = 0
    for ip, udp in layers(pkt):
        if isinstance(ip, IP):
            hdr = bytes(ip)[:ip.ihl * 4]
            wrong += ones_sum(hdr) != 0xffff
        if udp.chksum == 0 and isinstance(ip, IP):
            continue  # no UDP checksum: legal over IPv4
        present += 1
        data = bytes(udp)[:udp.len]
        if isinstance(ip, IP):
            ok = in4_chksum(17, ip, data) in (0, 0xffff)
        else:
            ok = in6_chksum(17, ip, data) in (0, 0xffff)
        wrong += not ok
    return present, wrong


def cell_port(pkt):
    ls = layers(pkt)
    return ls[-1][1].dport if ls else None


def frames(path):
    """The raw frames of a capture (no dissection: the throughput samples
    make captures of tens of thousands of frames)."""
    for raw, _ in RawPcapReader(path):
        yield bytes(raw)


def write_eth(path, raws):
    """A classic pcap of Ethernet frames (timestamps 0: tshark needs none)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for raw in raws:
            f.write(struct.pack("<IIII", 0, 0, len(raw), len(raw)) + raw)


def wire(run, nic, sender_mac, ports):
    """Per cell port: frames, checksums present, wrong (own), completed;
    and the frame numbers, for tshark; and the capture tshark reads."""
    path = os.path.join(run, "nic%d.pcap" % nic)
    vnet = open(os.path.join(run, "nics")).read().find("virtio-tap") >= 0
    src = bytes.fromhex(sender_mac.replace(":", ""))
    stats = {p: {"frames": 0, "sums": 0, "own_bad": 0, "completed": 0,
                 "numbers": []} for p in ports}
    eth_frames = []
    for n, raw in enumerate(frames(path), 1):
        completed = False
        if vnet:
            raw, completed = strip_vnet(raw)
            eth_frames.append(raw)
        if raw[6:12] != src:
            continue
        pkt = Ether(raw)
        port = cell_port(pkt)
        if port not in stats:
            continue
        st = stats[port]
        present, bad = own_check(pkt)
        st["frames"] += 1
        st["sums"] += present
        st["own_bad"] += bad
        st["completed"] += completed
        st["numbers"].append(n)
    if not vnet:
        return stats, path
    eth_path = os.path.join(run, "nic%d.eth.pcap" % nic)
    write_eth(eth_path, eth_frames)
    return stats, eth_path


def tshark_bad(eth_path):
    """frame number -> (checksums verified good, bad), by tshark: every IPv4
    header and UDP checksum it decodes (tests/lib/pcap_csum.py)."""
    res = {}
    for f in pcap_csum.frames(eth_path):
        v = f.verdicts(("ip", "udp"))
        res[f.number] = (v.count("good"), v.count("bad"))
    return res


def linux_tx_share(run, name, ports):
    """Per port: L4 sums the Linux sender left partial (a seed) / all."""
    path = os.path.join(run, "tx-%s.pcap" % name)
    res = {p: [0, 0] for p in ports}
    if not os.path.exists(path):
        return res
    for raw in frames(path):
        pkt = Ether(raw)
        port = cell_port(pkt)
        if port not in res:
            continue
        for ip, udp in layers(pkt):
            if udp.chksum == 0 and isinstance(ip, IP):
                continue
            if isinstance(ip, IP):
                pseudo = ones_sum(bytes(ip)[12:20] + bytes([0, 17]) +
                                  udp.len.to_bytes(2, "big"))
            else:
                pseudo = ones_sum(bytes(ip)[8:40] + udp.len.to_bytes(4, "big") +
                                  bytes([0, 0, 0, 17]))
            res[port][0] += udp.chksum == pseudo
            res[port][1] += 1
    return res


def main():
    args = sys.argv[1:]
    out_json = None
    if "--json" in args:
        i = args.index("--json")
        out_json = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    run = args[0]
    info = dict(l.split(None, 1) for l in open(os.path.join(run, "info.txt"))
                if " " in l)
    info = {k: v.strip() for k, v in info.items()}
    mac = [info["mac0"].lower(), info["mac1"].lower()]
    cells = [json.loads(l) for l in open(os.path.join(run, "cells.jsonl"))]
    recv = {}
    for c in cells:
        if c["recv"] not in recv:
            recv[c["recv"]] = json.load(open(os.path.join(run, c["recv"])))
    # A to B on NIC 1's wire, B to A (linux-hwcsum) on NIC 0's.
    by_dir = {0: [], 1: []}
    for c in cells:
        by_dir[0 if c["pairing"] == "linux-hwcsum" else 1].append(c)
    wires = {}
    for nic, cs in by_dir.items():
        if not cs:
            continue
        sender = mac[1 - nic]
        stats, eth = wire(run, nic, sender, [c["port"] for c in cs])
        ts = tshark_bad(eth)
        for c in cs:
            st = stats[c["port"]]
            st["tshark_ok"] = sum(ts.get(n, (0, 0))[0] for n in st["numbers"])
            st["tshark_bad"] = sum(ts.get(n, (0, 0))[1] for n in st["numbers"])
            del st["numbers"]
            wires[c["id"]] = st
    shares = {}
    shares.update(linux_tx_share(run, "linux", [c["port"] for c in cells if c["pairing"] == "linux"]))
    shares.update(linux_tx_share(run, "linux-hwcsum", [c["port"] for c in cells if c["pairing"] == "linux-hwcsum"]))

    rows = []
    failed = 0
    ref = {}
    for c in cells:
        r = recv[c["recv"]][str(c["port"])]
        w = wires[c["id"]]
        ctr = c["counters"]
        snmp = sum(v.get("InCsumErrors", 0) for k, v in ctr.items() if k.startswith("snmp:"))
        dp = [v for k, v in ctr.items() if k.startswith("dpdk:")]
        tx_dp = dp[0] if dp and c["pairing"] in ("hwcsum", "hwcsum-linux") else None
        rx_dp = dp[-1] if dp and c["pairing"] in ("hwcsum", "linux-hwcsum") else None
        hw_bad = sum(rx_dp.get(k, 0) for k in ("rx_ip_bad", "rx_l4_bad", "rx_outer_ip_bad",
                                               "rx_outer_l4_bad")) if rx_dp else 0
        if tx_dp is not None:
            hw = tx_dp.get("tx_l4_hw", 0) + tx_dp.get("tx_outer_udp_hw", 0)
            total = w["sums"]
        else:
            hw, total = shares.get(c["port"], [0, 0])
        fl = recv[c["recv"]].get(str(c["port"] + FLOOD_PORT_OFFSET), {})
        secs = (fl["last"] - fl["first"]) if fl.get("received", 0) >= 100 else None
        rate = fl["received"] / secs if secs and secs > 0 else None
        row = dict(id=c["id"], pairing=c["pairing"], tunnel=c["tunnel"], outer=c["outer"],
                   inner=c["inner"], sent=c["sent"], received=r["received"],
                   corrupt=r["corrupt"], frames=w["frames"], completed=w["completed"],
                   tshark_ok=w["tshark_ok"], tshark_bad=w["tshark_bad"], own_bad=w["own_bad"],
                   rx_counter_bad=snmp + hw_bad, hw=hw, sums=total,
                   hw_share=(min(hw, total) / total) if total else None,
                   rx_hw=rx_dp.get("rx_verdict_from_sub") if rx_dp else None,
                   rx_complete=rx_dp.get("rx_complete") if rx_dp else None,
                   pps=rate, flood_sent=c.get("flood", 0),
                   flood_received=fl.get("received", 0))
        why = []
        if row["tshark_bad"] or row["own_bad"] or row["rx_counter_bad"] or row["corrupt"]:
            why.append("wrong checksums")
        if row["received"] < 0.95 * row["sent"]:
            why.append("lost %d of %d" % (row["sent"] - row["received"], row["sent"]))
        if row["frames"] < row["received"]:
            why.append("%d received, %d on the wire" % (row["received"], row["frames"]))
        row["verdict"] = "FAIL: " + ", ".join(why) if why else "ok"
        failed += bool(why)
        if c["pairing"] == "linux" and c["tunnel"] == "none":
            ref[c["outer"]] = rate
        rows.append(row)
    for row in rows:
        base = ref.get(row["outer"]) or ref.get(4)
        row["rel_tput"] = row["pps"] / base if row["pps"] and base else None

    def f(v, fmt):
        return "-" if v is None else fmt % v
    print("model %s, kernel %s, driver %s" % (info["model"], info["kernel"], info["driver"]))
    hdr = "%-13s %-6s %-3s %5s %5s %6s %6s %5s %5s %6s %5s %6s %6s %6s  %s" % (
        "pairing", "tunnel", "o/i", "sent", "recv", "frames", "tshark", "bad", "rxbad",
        "hw", "sums", "hw%", "rxhw", "rxcomp", "tput  verdict")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        print("%-13s %-6s %d/%d %5d %5d %6d %6d %5d %5d %6d %5d %6s %6s %6s %5s  %s" % (
            r["pairing"], r["tunnel"], r["outer"], r["inner"], r["sent"], r["received"],
            r["frames"], r["tshark_ok"], r["tshark_bad"] + r["own_bad"], r["rx_counter_bad"],
            r["hw"], r["sums"], f(None if r["hw_share"] is None else 100 * r["hw_share"], "%.0f"),
            f(r["rx_hw"], "%d"), f(r["rx_complete"], "%d"), f(r["rel_tput"], "%.2f"),
            r["verdict"]))
    print("%d cells, %d failed" % (len(rows), failed))
    if out_json:
        with open(out_json, "w") as fo:
            json.dump({"info": info, "cells": rows}, fo, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
