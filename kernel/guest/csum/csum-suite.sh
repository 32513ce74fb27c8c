#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of the checksum suite (run inside the VM by
# tests/kernel/csum-suite.sh through devtools/vm-run.sh):
#
#   kernel/guest/csum/csum-suite.sh MODEL
#
# The VM has two NICs of MODEL on one link (NIC 0 and NIC 1 of
# $HWCSUM_NICS_FILE). NIC 0 goes to namespace "tx", NIC 1 to "rx", so every
# packet really crosses the emulated wire. Both get IPv4 and IPv6 underlay
# addresses and, on top, VXLAN, GENEVE, FOU and GUE tunnels for each family.
# traffic.py then sends short UDP and TCP bursts, plain and through every
# tunnel, over IPv4 and IPv6, while tcpdump records both NICs. Everything
# lands in $HWCSUM_OUT (cases.txt, results.json, tx.pcap, rx.pcap, info.txt)
# for the host to check (kernel/guest/csum/analyze.py); this script fails
# only when the set-up or the traffic itself fails.

set -u
MODEL=${1:?usage: csum-suite.sh MODEL}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${HWCSUM_OUT:?run me through devtools/vm-run.sh}
PY=/usr/bin/python3
GUEST_TAG=csum-guest
. "$HERE/../lib.sh"
mac0=$(nic_mac 0)
mac1=$(nic_mac 1)
TXDEV=$(nic_by_mac "$mac0") || die "NIC 0 ($mac0) not found"
RXDEV=$(nic_by_mac "$mac1") || die "NIC 1 ($mac1) not found"
DRIVER=$(ethtool -i "$TXDEV" | awk '/^driver:/ { print $2 }')
say "model $MODEL: tx $TXDEV ($mac0), rx $RXDEV ($mac1), driver $DRIVER, kernel $(uname -r)"

for mod in vxlan geneve fou fou6 ipip ip6_tunnel; do
	run modprobe "$mod"
done

run ip netns add tx
run ip netns add rx
run ip link set "$TXDEV" netns tx
run ip link set "$RXDEV" netns rx

# Underlay: 192.168.50.0/24 and fd50::/64 (192.168.51.0/24 and fd51::/64
# for GUE: two IP-in-IP tunnels cannot share endpoints). VXLAN and GENEVE
# get one device per underlay family; FOU and GUE encapsulate IP-in-IP
# (IPv4) and IPv6-in-IPv6 tunnels, and both sides listen on their ports.
# No DAD (the addresses are usable
# at once), no GRO on the NICs (the captures must show the frames as they
# were on the wire, not merged with a partial checksum).
setup_ns() {
	local ns=$1 dev=$2 me=$3 peer=$4 x
	run ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		net.ipv6.conf.default.accept_dad=0
	run ip netns exec "$ns" ethtool -K "$dev" gro off
	# QEMU 7.2's e1000e model corrupts IPv6 TSO frames (the segments it
	# cuts carry a damaged source address and payload length, tshark:
	# "Malformed Packet"; the receiver drops them and TCP retransmits). That
	# is an emulator bug, not a checksum one: keep IPv6 TSO off there.
	if [ "$DRIVER" = e1000e ]; then
		run ip netns exec "$ns" ethtool -K "$dev" tx-tcp6-segmentation off
	fi
	# One ip process per namespace: every exec over 9p costs under TCG.
	cat > "/tmp/setup-$ns.ip" <<-END
	link set lo up
	link set $dev up
	addr add 192.168.50.$me/24 dev $dev
	addr add fd50::$me/64 dev $dev nodad
	addr add 192.168.51.$me/24 dev $dev
	addr add fd51::$me/64 dev $dev nodad
	link add vx4 type vxlan id 10 dstport 4789 local 192.168.50.$me remote 192.168.50.$peer dev $dev
	link add vx6 type vxlan id 11 dstport 4789 local fd50::$me remote fd50::$peer dev $dev
	link add gnv4 type geneve id 20 remote 192.168.50.$peer
	link add gnv6 type geneve id 21 remote fd50::$peer
	fou add port 5555 ipproto 4
	fou add port 5556 gue
	fou add port 5565 ipproto 41 -6
	fou add port 5566 gue -6
	link add fou4 type ipip local 192.168.50.$me remote 192.168.50.$peer encap fou encap-sport auto encap-dport 5555
	link add gue4 type ipip local 192.168.51.$me remote 192.168.51.$peer encap gue encap-sport auto encap-dport 5556
	link add fou6 type ip6tnl mode ip6ip6 local fd50::$me remote fd50::$peer encap fou encap-sport auto encap-dport 5565
	link add gue6 type ip6tnl mode ip6ip6 local fd51::$me remote fd51::$peer encap gue encap-sport auto encap-dport 5566
	END
	for x in vx4 vx6 gnv4 gnv6 fou4 gue4 fou6 gue6; do
		echo "link set $x mtu 1400 up" >> "/tmp/setup-$ns.ip"
	done
	cat >> "/tmp/setup-$ns.ip" <<-END
	addr add 10.10.0.$me/24 dev vx4
	addr add fd10::$me/64 dev vx6 nodad
	addr add 10.20.0.$me/24 dev gnv4
	addr add fd20::$me/64 dev gnv6 nodad
	addr add 10.30.0.$me/24 dev fou4
	addr add fd30::$me/64 dev fou6 nodad
	addr add 10.40.0.$me/24 dev gue4
	addr add fd40::$me/64 dev gue6 nodad
	END
	run ip -n "$ns" -batch "/tmp/setup-$ns.ip"
}
setup_ns tx "$TXDEV" 1 2
setup_ns rx "$RXDEV" 2 1
say "namespaces, addresses and tunnels set up"

# The cases: protocol x tunnel x family, each on its own port.
CASES="$OUT/cases.txt"
declare -A NET4=([plain]=192.168.50 [vxlan]=10.10.0 [geneve]=10.20.0 [fou]=10.30.0 [gue]=10.40.0)
declare -A NET6=([plain]=fd50: [vxlan]=fd10: [geneve]=fd20: [fou]=fd30: [gue]=fd40:)
{
	echo "# id proto tunnel family dst port"
	id=0
	for tunnel in plain vxlan geneve fou gue; do
		for family in 4 6; do
			for proto in udp tcp; do
				if [ "$family" = 4 ]; then
					dst=${NET4[$tunnel]}.2
				else
					dst=${NET6[$tunnel]}:2
				fi
				echo "$id $proto $tunnel $family $dst $((20000 + id))"
				id=$((id + 1))
			done
		done
	done
} > "$CASES"

{
	echo "model $MODEL"
	echo "kernel $(uname -r)"
	echo "driver $DRIVER"
	echo "tx_dev $TXDEV $mac0"
	echo "rx_dev $RXDEV $mac1"
	echo "--- ethtool -k $TXDEV (sender)"
	in_tx ethtool -k "$TXDEV"
	echo "--- ethtool -k $RXDEV (receiver)"
	in_rx ethtool -k "$RXDEV"
} > "$OUT/info.txt" 2>&1

# Captures of both NICs, whole frames, written packet by packet.
rm -f "$OUT/tx.pcap" "$OUT/rx.pcap"
in_tx tcpdump -i "$TXDEV" -s 0 -B 16384 -U -n -w "$OUT/tx.pcap" 2> "$OUT/tcpdump-tx.log" &
TCPDUMP_TX=$!
in_rx tcpdump -i "$RXDEV" -s 0 -B 16384 -U -n -w "$OUT/rx.pcap" 2> "$OUT/tcpdump-rx.log" &
TCPDUMP_RX=$!
RXPIDFILE=/tmp/csum-receiver.pid
in_rx "$PY" "$HERE/traffic.py" receive "$CASES" "$RXPIDFILE" &
RECEIVER=$!
cleanup() {
	kill "$RECEIVER" 2>/dev/null
	# SIGTERM: background jobs of a script start with SIGINT ignored.
	kill -TERM "$TCPDUMP_TX" "$TCPDUMP_RX" 2>/dev/null
	wait "$TCPDUMP_TX" "$TCPDUMP_RX" 2>/dev/null
}
trap cleanup EXIT

started() {
	[ -s "$RXPIDFILE" ] && grep -q listening "$OUT/tcpdump-tx.log" &&
		grep -q listening "$OUT/tcpdump-rx.log"
}
for _ in $(seq 120); do
	started && break
	kill -0 "$TCPDUMP_TX" 2>/dev/null && kill -0 "$TCPDUMP_RX" 2>/dev/null ||
		die "tcpdump exited: $(cat "$OUT"/tcpdump-*.log)"
	kill -0 "$RECEIVER" 2>/dev/null || die "the receiver exited (see the console)"
	sleep 0.5
done
started || die "the receiver or tcpdump did not start within 60 s"

# The driver's checksum counters, if it has them (patched 8139cp), read
# where the capture can be cut exactly: two reads one second apart that
# agree mean no counted frame left in between, so frames captured before
# the middle of that second were counted before the first read and frames
# captured after it were not. The analysis compares the counters with the
# frames of the capture between the start and the end cut.
stable_counters() {
	local c1 c2 t1 t2
	for _ in $(seq 30); do
		c1=$(in_tx ethtool -S "$TXDEV" | grep 'tx_csum_')
		t1=$(date +%s.%N)
		sleep 1
		t2=$(date +%s.%N)
		c2=$(in_tx ethtool -S "$TXDEV" | grep 'tx_csum_')
		if [ "$c1" = "$c2" ]; then
			echo "cut $(echo "($t1 + $t2) / 2" | bc -l)"
			echo "$c1"
			return 0
		fi
	done
	return 1
}
HAS_DRV_COUNTERS=0
in_tx ethtool -S "$TXDEV" 2>/dev/null | grep -q 'tx_csum_hw:' && HAS_DRV_COUNTERS=1
if [ "$HAS_DRV_COUNTERS" = 1 ]; then
	stable_counters > "$OUT/counters-start.txt" ||
		die "the driver counters of $TXDEV never stood still for a second"
fi
say "receiver pid $(cat "$RXPIDFILE"), captures running; sending"

TXDEV_ARG=()
[ "$HAS_DRV_COUNTERS" = 1 ] && TXDEV_ARG=(--tx-dev "$TXDEV")
in_tx "$PY" "$HERE/traffic.py" send "$CASES" "$OUT/results.json" \
	"$(cat "$RXPIDFILE")" "${TXDEV_ARG[@]}"
rc=$?
if [ "$HAS_DRV_COUNTERS" = 1 ]; then
	stable_counters > "$OUT/counters-end.txt" ||
		die "the driver counters of $TXDEV never stood still for a second"
fi
cleanup
trap - EXIT
{
	echo "--- ethtool -S $TXDEV (sender, after)"
	in_tx ethtool -S "$TXDEV"
	echo "--- ethtool -S $RXDEV (receiver, after)"
	in_rx ethtool -S "$RXDEV"
	echo "--- dmesg warnings"
	dmesg | grep -i -E 'warn|bug|csum|checksum' | tail -n 20
} >> "$OUT/info.txt" 2>&1
say "traffic done (status $rc); captures: $(stat -c %s "$OUT/tx.pcap") and $(stat -c %s "$OUT/rx.pcap") bytes"
exit "$rc"
