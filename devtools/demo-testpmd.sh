#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The testpmd demo, no NIC needed (`make demo` runs the gateway demo,
# devtools/demo.sh): an unmodified dpdk-testpmd over two net_hwcsum ports
# adds tunnel ports, forwards crafted tunnel traffic whose every checksum is
# wrong with the checksums requested in "hardware", and ends with the
# xstats, the telemetry tunnel table, and tshark's verdict on what came out.
#
#   devtools/demo-testpmd.sh [build dir]
set -euo pipefail

BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PMD_SO="$BUILD/drivers/net/hwcsum/librte_net_hwcsum.so"
[ -f "$PMD_SO" ] || { echo "demo: $PMD_SO not built: run make build" >&2; exit 1; }
# EAL refuses plugins from world-writable directories.
PMD_SO=$("$HERE/devtools/plugin-path.sh" "$PMD_SO")
WORK=$(mktemp -d /var/tmp/hwcsum-demo.XXXXXX)
PREFIX=hwcsum-demo-$$
# EAL leaves its runtime directory behind: it goes with the scratch.
trap 'rm -rf "$WORK" "/var/run/dpdk/$PREFIX"' EXIT

/usr/bin/python3 "$HERE/tests/pmd/tx_handoff_gen.py" "$WORK/in.pcap" "$WORK/empty.pcap"

EAL="--no-huge -m 256 --no-pci -l 0-1 --file-prefix $PREFIX -d $PMD_SO"
VDEVS="--vdev net_pcap0,rx_pcap=$WORK/in.pcap,tx_pcap=/dev/null"
VDEVS="$VDEVS --vdev net_pcap1,rx_pcap=$WORK/empty.pcap,tx_pcap=$WORK/out.pcap"
VDEVS="$VDEVS --vdev net_hwcsum0,sub=net_pcap0 --vdev net_hwcsum1,sub=net_pcap1"

cat <<INTRO
== hwcsum testpmd demo ======================================================
dpdk-testpmd $EAL \\
    $VDEVS \\
    -- -i --no-flush-rx --enable-rx-cksum --total-num-mbufs=2048 --nb-ports=2

Two hwcsum ports (2 and 3) own net_pcap0 and net_pcap1 (ports 0 and 1,
hidden from testpmd). net_pcap0 reads 24 crafted packets: VXLAN over IPv4
with inner UDP, VXLAN over IPv6 with inner TCP, plain TCP, every checksum
wrong. testpmd's csum engine forwards them to port 3 with ip, udp, tcp,
outer-ip and outer-udp checksums in "hw": hwcsum does them (net_pcap has
no engine), the outer UDP by LCO. Receive verification on port 2 counts
the wrong checksums that arrive (Bad-*), from one CHECKSUM_COMPLETE sum.
=============================================================================
INTRO

# testpmd is driven by tests/lib/testpmd_driver.sh, command by command,
# so the telemetry socket is read between two commands while it runs.
# shellcheck source=tests/lib/testpmd_driver.sh
. "$HERE/tests/lib/testpmd_driver.sh"
die() { echo "demo: $*" >&2; exit 1; }
TP_DIR=$WORK
TP_WRAP=(timeout 120)
# show: the last command and what it printed, without EAL's chatter and
# (in xstats) the zero counters.
show() {
	grep -v '^EAL: \|^testpmd: \|^Warning: NUMA\|^ *$\|^TELEMETRY' <<<"$TP_OUT" |
		awk '/NIC extended statistics/ { x = 1 } x && / 0$/ { next } { print }' || :
}
# shellcheck disable=SC2086
tp_start demo $EAL $VDEVS -- -i --no-flush-rx --enable-rx-cksum --total-num-mbufs=2048 --nb-ports=2
show
while read -r cmd; do
	tp "$cmd"
	show
done <<CMDS
show port summary all
port config 2 udp_tunnel_port add vxlan 4789
port config 3 udp_tunnel_port add vxlan 4789
port config 3 udp_tunnel_port add geneve 6081
port config 3 udp_tunnel_port add vxlan-gpe 4790
set fwd csum
port stop all
csum set ip hw 3
csum set udp hw 3
csum set tcp hw 3
csum set outer-ip hw 3
csum set outer-udp hw 3
csum parse-tunnel on 2
csum parse-tunnel on 3
port start all
start
CMDS
# Forward until port 3 has sent the 24 packets (10 s at most).
for _ in $(seq 50); do
	tp_counter 3 TX-packets
	[ "$VAL" -ge 24 ] && break
	sleep 0.2
done
for cmd in "stop" "show port xstats 2" "show port xstats 3"; do
	tp "$cmd"
	show
done
echo
echo "== dpdk-telemetry.py -f $PREFIX: /hwcsum/tunnels,3 (ethtool --show-tunnels layout)"
/usr/bin/python3 "$HERE/tests/pmd/tunnel_tel.py" "$PREFIX" /hwcsum/tunnels,3 text
echo "== /hwcsum/offload,3: engine"
/usr/bin/python3 "$HERE/tests/pmd/tunnel_tel.py" "$PREFIX" /hwcsum/offload,3 engine_source
tp_stop

echo
echo "== tshark on what port 3 sent (ip/udp/tcp checksum validation on)"
/usr/bin/python3 "$HERE/tests/lib/pcap_csum.py" --count totals "$WORK/out.pcap" |
	awk '{ printf "%d packets: %d checksums good, %d bad\n", $1, $2, $3 }'
