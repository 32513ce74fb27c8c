#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The hwcsum demo (`make demo`), no NIC needed: the tunnel gateway
# app/hwcsum-tunnel between two VMs and a remote VTEP, every port a
# net_hwcsum port. VXLAN and GENEVE traffic flows both ways for a few
# seconds; then the telemetry, and an independent verdict: tshark checks
# every checksum that came out, the decapsulated frames are compared byte
# for byte. Exits 1 when anything is wrong. (devtools/demo-testpmd.sh is
# the older demo: unmodified dpdk-testpmd over hwcsum ports.)
#
#   devtools/demo.sh [build dir]
set -euo pipefail

BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")/.." && pwd)
GW=$BUILD/app/hwcsum-tunnel/hwcsum-tunnel
PY=/usr/bin/python3	# Debian's python3-scapy; the python3 on PATH may lack it
HELPER=$HERE/devtools/demo_gateway.py
TRAFFIC_SECONDS=4
# The gateway links the PMD (librte_net_hwcsum.so.0, through its RUNPATH):
# no -d.
[ -f "$GW" ] || { echo "demo: $GW not built: run make build" >&2; exit 1; }

# Scratch under /var/tmp: EAL's plugin check, and no tmpfs size limits.
WORK=$(mktemp -d /var/tmp/hwcsum-demo.XXXXXX)
PREFIX=hwcsum-demo-$$
GW_PID='' SEND_PID='' SHOW_PID=''
cleanup() {
	local pid
	for pid in $SEND_PID $GW_PID $SHOW_PID; do
		kill "$pid" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	# EAL leaves its runtime directory behind: it goes with the scratch.
	rm -rf "$WORK" "/var/run/dpdk/$PREFIX"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$PY" "$HELPER" ini "$WORK"
cat <<INTRO
== hwcsum demo: the tunnel gateway ===========================================
app/hwcsum-tunnel between two VMs and a remote VTEP; each port is a
net_hwcsum port stacked on a net_pcap port (no NIC needed):

  VM vx -- net_hwcsum1 --+                          VXLAN VNI 42, IPv4
                         +-- gateway -- net_hwcsum0 ============ remote VTEP
  VM gn -- net_hwcsum2 --+              (underlay)  GENEVE VNI 7 + 2 options, IPv6

For $TRAFFIC_SECONDS s, scapy feeds every port 160 frames a second through a FIFO:
 - the VMs send UDP, TCP, ICMP, ARP and VLAN frames, 3 in 10 of them
   CHECKSUM_PARTIAL (the pseudo-header seed a virtio NIC hands over): the
   gateway encapsulates them, hwcsum completes the inner checksums and the
   outer UDP checksum is done by LCO;
 - the remote VTEP sends VXLAN and GENEVE packets: the gateway verifies
   them from hwcsum's one CHECKSUM_COMPLETE sum per packet and decapsulates
   them to the VM of their VNI; one in 32 has a bit flipped on the wire
   and must be dropped (outer_csum).
You see the gateway's statistics once a second, then its telemetry (the
tunnel table, its counters, hwcsum's xstats), then the verdict: tshark
validates every checksum that came out. The configuration, gw.ini:
INTRO
sed 's/^./    &/' "$WORK/gw.ini"
echo "=============================================================================="

# net_pcap reads its rx_pcap as a stream: FIFOs make the traffic live.
for f in underlay vm_vx vm_gn; do
	mkfifo "$WORK/$f.rx"
done
timeout 50 "$PY" "$HELPER" send "$WORK" "$TRAFFIC_SECONDS" >"$WORK/send.log" 2>&1 &
SEND_PID=$!

VDEVS=()
i=0
for f in underlay vm_vx vm_gn; do
	VDEVS+=(--vdev "net_pcap$i,rx_pcap=$WORK/$f.rx,tx_pcap=$WORK/$f.tx.pcap"
		--vdev "net_hwcsum$i,sub=net_pcap$i")
	i=$((i + 1))
done
echo "\$ hwcsum-tunnel --no-huge -m 256 --no-pci -l 0-1 \\"
printf '    %s %s %s %s \\\n' "${VDEVS[@]//$WORK\//}"
echo "    -- -f gw.ini"
# The log is complete for the checks below; the screen gets it without EAL's
# start-up lines and ethdev's "already stopped" notes at close.
timeout -k 5 50 "$GW" --no-huge -m 256 --no-pci -l 0-1 --file-prefix "$PREFIX" \
	"${VDEVS[@]}" -- -f "$WORK/gw.ini" >"$WORK/gw.log" 2>&1 &
GW_PID=$!
tail -n +1 -f --pid="$GW_PID" "$WORK/gw.log" |
	grep --line-buffered -v '^EAL: \|^TELEMETRY: \|already stopped$' &
SHOW_PID=$!

# The traffic starts once the ports are up (the banner is printed then).
for _ in $(seq 300); do
	grep -q 'queue(s)$' "$WORK/gw.log" && break
	kill -0 "$GW_PID" 2>/dev/null || break
	sleep 0.1
done
if ! grep -q 'queue(s)$' "$WORK/gw.log"; then
	# Its own lines are on the screen once tail is done; EAL's were not.
	kill -0 "$GW_PID" 2>/dev/null || wait "$SHOW_PID" || true
	grep '^EAL: \|^TELEMETRY: ' "$WORK/gw.log" >&2 || true
	echo "demo: the gateway did not start" >&2
	exit 1
fi
touch "$WORK/go"
if ! wait "$SEND_PID"; then
	SEND_PID=
	echo "demo: the traffic generator failed:" >&2
	cat "$WORK/send.log" >&2
	exit 1
fi
SEND_PID=
# One more statistics line, then the telemetry while the gateway still runs.
sleep 1.2
TEL_OK=1
"$PY" "$HELPER" telemetry "$PREFIX" >"$WORK/telemetry.txt" 2>&1 || TEL_OK=0
# SIGINT stops it: tunnel ports taken back, ports closed, mbufs counted.
kill -INT "$GW_PID" 2>/dev/null || true
GW_RC=0
wait "$GW_PID" || GW_RC=$?
GW_PID=
wait "$SHOW_PID" || true
SHOW_PID=

echo
echo "== telemetry (dpdk-telemetry.py -f $PREFIX), after the traffic"
cat "$WORK/telemetry.txt"

echo
echo "== verdict"
FAILS=0
ok() { echo "  ok: $*"; }
bad() { echo "  FAIL: $*"; FAILS=$((FAILS + 1)); }
[ "$TEL_OK" -eq 1 ] || bad "telemetry did not answer"
sed 's/^/  /' "$WORK/send.log"

# The gateway's own account: exit status, mempool, drops.
case $GW_RC in
0) ok "gateway exit status 0" ;;
2) bad "gateway exit status 2: mbufs leaked" ;;
*) bad "gateway exit status $GW_RC" ;;
esac
if grep -q 'none leaked$' "$WORK/gw.log"; then
	ok "$(grep '^mempool:' "$WORK/gw.log")"
else
	bad "no 'none leaked' from the gateway"
fi
corrupted=$(cat "$WORK/corrupted")
drops=$(grep '^  drops:' "$WORK/gw.log" | tail -1 || true)
other=$(echo "$drops" | awk '{ for (i = 2; i < NF; i += 2)
	if ($i != "outer_csum") n += $(i + 1) } END { print n + 0 }')
if echo "$drops" | grep -q " outer_csum $corrupted " && [ "$other" -eq 0 ]; then
	ok "dropped exactly the $corrupted corrupted packets (outer_csum), nothing else"
else
	bad "drops: expected outer_csum $corrupted and nothing else:$drops"
fi

# Counts and the decapsulated frames, byte for byte (demo_gateway.py check).
CHECK_RC=0
"$PY" "$HELPER" check "$WORK" >"$WORK/check.txt" 2>&1 || CHECK_RC=$?
sed 's/^/  /' "$WORK/check.txt"
n=$(grep -c '^FAIL' "$WORK/check.txt" || true)
[ "$CHECK_RC" -eq 0 ] || FAILS=$((FAILS + (n > 0 ? n : 1)))

# tshark, independent of hwcsum (tests/lib/pcap_csum.py): every IPv4
# header, UDP, TCP and ICMP checksum it finds (outer and inner), and what
# it recognises as a tunnel.
for f in underlay vm_vx vm_gn; do
	echo "$f.tx.pcap $("$PY" "$HERE/tests/lib/pcap_csum.py" --kinds ip,udp,tcp,icmp \
		--count totals "$WORK/$f.tx.pcap" 2>/dev/null || echo 0 0 0 0)"
done >"$WORK/tshark.txt"
while read -r f n g b e; do
	if [ "$n" -gt 0 ] && [ "$g" -gt 0 ] && [ "$b" -eq 0 ] && [ "$e" -eq 0 ]; then
		ok "tshark: $f: $n frames, $g checksums good, 0 bad"
	else
		bad "tshark: $f: $n frames, $g checksums good, $b bad, $e checksum warnings"
	fi
done <"$WORK/tshark.txt"
tshark -r "$WORK/underlay.tx.pcap" -T fields -E separator='|' -e vxlan.vni -e geneve.vni \
	-e geneve.option.class 2>/dev/null | sort | uniq -c >"$WORK/tunnels.txt" || true
vx=$(awk -F'|' '$1 ~ / 42$/ { print $1 + 0 }' "$WORK/tunnels.txt")
gn=$(awk -F'|' '$2 ~ /^(0x0*)?7$/ && $3 == "0x0102,0x0103" { print $1 + 0 }' "$WORK/tunnels.txt")
if [ "$(wc -l <"$WORK/tunnels.txt")" -eq 2 ] && [ "${vx:-0}" -gt 0 ] && [ "${gn:-0}" -gt 0 ]; then
	ok "tshark: underlay: ${vx} VXLAN VNI 42, ${gn} GENEVE VNI 7 with options 0x0102, 0x0103"
else
	bad "tshark: underlay tunnels not as configured: $(tr '\n' ' ' <"$WORK/tunnels.txt")"
fi

if [ "$FAILS" -ne 0 ]; then
	echo "== demo FAILED: $FAILS check(s) failed"
	# The screen had the gateway's output but its EAL lines: those now.
	[ "$GW_RC" -eq 0 ] || grep '^EAL: \|^TELEMETRY: ' "$WORK/gw.log" || true
	exit 1
fi
echo "== demo passed: traffic through the gateway both ways, every checksum good"
