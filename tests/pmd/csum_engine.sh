#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# csum_engine.sh <librte_net_hwcsum.so>: an unmodified dpdk-testpmd `csum`
# forwarding engine over two hwcsum ports, each stacked on a net_pcap port:
# one reads in.pcap (scapy-crafted by gen_captures.py), the other writes
# what testpmd sent. Every checksum of every output frame is judged by value
# against a model of testpmd + a correct device (csum_pkt.py), and by
# tshark and scapy; testpmd's Bad-ipcsum/Bad-l4csum/Bad-outer-ipcsum/
# Bad-outer-l4csum must equal the numbers of wrong checksums in the input
# that hwcsum's registry lets it see; verbose mode must show the tunnel
# `hw ptype` of every tunnelled frame.
#
# Frames: plain, VXLAN, GENEVE with options, VXLAN-GPE, GUE v0/v1
# (tunnel_ports=gue:6080), VXLAN on 8472 added at run time; IPv4/IPv6 outer
# and inner, UDP/TCP (SCTP plain and in VXLAN), VLAN and QinQ, wrong inner,
# outer and IP checksums. Multi-segment: testpmd's txsplit (17,41,rest)
# for TX chains, a session with --mbuf-size=320 for RX chains.
#
# Steps, each must pass:
#   1. input: tshark, scapy and our arithmetic find exactly the corrupted
#      checksums of in.pcap (the oracles can see a wrong checksum);
#   2. negative: a copy of a good output with two checksums broken on
#      purpose must fail check_capture, naming exactly those frames;
#   3. bare: net_pcap alone (no hwcsum), `csum set * sw`: the harness and
#      the model agree with plain testpmd;
#   4. hwcsum: the matrix of `csum set <ip|udp|tcp|sctp|outer-ip|outer-udp>
#      hw` combinations, `csum parse-tunnel on`, --enable-rx-cksum;
#   5. rxchain: hwcsum with RX mbuf chains.
#
# Matrix: all 64 combinations by default (about 95 s here on 2 busy cores,
# plus 4 txsplit cells and 3 RX-chain cells); CSUM_ENGINE_MATRIX=reduced
# runs 15 (none, each flag alone, the inner set, the outer set, inner+each
# outer, udp+outer-udp, ip+outer-ip, all) in about 20 s.
# CSUM_ENGINE_WORK=<dir> keeps the captures and logs there.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3           # Debian's scapy
MATRIX=${CSUM_ENGINE_MATRIX:-full}
# lib.sh keeps an ASan runtime for testpmd only: csum_drive.py gives
# TESTPMD_PRELOAD back to testpmd.

if [ -n "${CSUM_ENGINE_WORK:-}" ]; then
	WORK=$CSUM_ENGINE_WORK
	mkdir -p "$WORK"
else
	WORK=$(mktemp -d /var/tmp/hwcsum-csum-engine.XXXXXX)
	trap 'rm -rf "$WORK"' EXIT
fi
OUT=""

step() { # step <name> <command...>: pass/fail on the exit status, output shown
	local name=$1
	shift
	local log
	log=$("$@" 2>&1)
	local rc=$?
	echo "$log" | sed 's/^/  /'
	OUT=$log
	[ $rc -eq 0 ] && pass "$name" || fail "$name"
}

step "gen_captures" $PY "$HERE/gen_captures.py" "$WORK"
[ -f "$WORK/in.pcap" ] || finish
step "input oracles" $PY "$HERE/check_capture.py" input "$WORK"

drive() { # drive <mode> <file prefix suffix>
	$PY "$HERE/csum_drive.py" --work "$WORK" --mode "$1" --matrix "$MATRIX" \
		--testpmd "$TESTPMD" --pmd "$PMD_SO" \
		--eal "$EAL_COMMON-$1" --results "$WORK/results-$1.json"
}

step "bare net_pcap, csum sw (harness against plain testpmd)" drive bare

# Negative: break two checksums of the bare all-sw output (a VXLAN inner
# TCP checksum, a plain IPv4 header checksum); the checker must fail and
# name those two frames and nothing else.
negative() {
	$PY - "$WORK" "$HERE" <<-'EOF'
	import json, os, subprocess, sys
	sys.path.insert(0, sys.argv[2])
	from scapy.all import Ether, rdpcap, wrpcap
	import csum_pkt as cp
	w = sys.argv[1]
	man = json.load(open(os.path.join(w, "manifest.json")))["frames"]
	frames = [bytearray(bytes(p)) for p in rdpcap(os.path.join(w, "cell-bare-00.pcap"))]
	pick = [next(e["index"] for e in man if e["tunnel"] == "vxlan" and not e["corrupt"]
	             and "tcp" in e["desc"]),
	        next(e["index"] for e in man if e["tunnel"] is None and not e["corrupt"]
	             and e["desc"].startswith("plain ip4"))]
	for i, what in zip(pick, ("l4", "ip")):
	    flds, _ = cp.fields(frames[i])
	    lv = [lv for n, lv, k in flds if n == what][0]
	    o = lv.l4_field() if what == "l4" else lv.l3 + 10
	    frames[i][o] ^= 0x10
	bad = os.path.join(w, "negative.pcap")
	wrpcap(bad, [Ether(bytes(f)) for f in frames])
	r = subprocess.run([sys.executable, os.path.join(sys.argv[2], "check_capture.py"),
	                    "output", w, bad, "none"], capture_output=True, text=True)
	print(r.stdout)
	named = sorted({int(l.split()[2]) for l in r.stdout.splitlines()
	                if l.startswith("FAIL: frame")})
	ok = r.returncode != 0 and named == sorted(pick)
	print("negative: checker exit %d, frames named %s, corrupted %s -> %s" %
	      (r.returncode, named, sorted(pick), "caught" if ok else "NOT CAUGHT"))
	sys.exit(0 if ok else 1)
	EOF
}
if [ -f "$WORK/cell-bare-00.pcap" ]; then
	step "negative check (a corrupted capture must fail)" negative
else
	fail "negative check: no bare output to corrupt"
fi

step "hwcsum csum matrix ($MATRIX)" drive hwcsum
step "hwcsum RX mbuf chains (--mbuf-size=320)" drive rxchain
echo "captures and logs: $WORK"
OUT=""
finish
