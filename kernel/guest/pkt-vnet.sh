#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of kernel-pkt-vnet-*: frames a packet socket sends with a
# virtio-net header (PACKET_VNET_HDR, kernel/guest/vnet-send.py) from NIC 0
# (namespace tx) to NIC 1 (namespace rx, same QEMU hub). Both rtl8139.
#
#   kernel/guest/pkt-vnet.sh gso-no-csum
#       issue 27 item 8: five TCP/IPv6 GSO skbs (3 x 1000 bytes) whose
#       header has gso_type TCPV6 and no NEEDS_CSUM, so the skb is
#       CHECKSUM_NONE. 8139cp has no TSO6: the stack segments them. Passes
#       when 8139cp's tx_csum_sw (ethtool -S, 1-csum 5/5) does not move,
#       i.e. no segment reached the driver with a checksum the chip cannot
#       fill, and the receiver gets all 15000 bytes intact with valid
#       checksums and no TcpInCsumErrors. v2 failed: tx_csum_sw +15.
#   kernel/guest/pkt-vnet.sh vlan-proto
#       item 10: one 802.1Q-tagged IPv4/UDP frame sent with sll_protocol
#       ETH_P_IP and NEEDS_CSUM. Passes when the receiver's UDP socket on
#       its VLAN device gets the datagram intact and UdpInCsumErrors does
#       not move. With v2's 1/5 alone (cp_vlan_tag_in_frame() reading
#       skb->protocol) the chip was asked for a checksum it cannot find
#       behind the tag and the frame left with the pseudo-header seed.

set -u
MODE=${1:?usage: pkt-vnet.sh gso-no-csum|vlan-proto}
GUEST_TAG=pkt-vnet-$MODE
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
SEND="/usr/bin/python3 $HERE/vnet-send.py"
tx_rx_pair
say "tx features: $(in_tx ethtool -k "$TXDEV" | grep -E '^(tx-checksumming|tcp-segmentation-offload|tx-vlan-offload):' | tr -s ' \n' ' ')"

# nstat_of NS NAME: the counter NAME of namespace NS (absolute).
nstat_of() { ip netns exec "$1" nstat -az "$2" 2>/dev/null | awk -v n="$2" '$1 == n { print $2 }'; }
# csum_stat NAME: 8139cp's ethtool -S counter (empty without 1-csum 5/5).
csum_stat() { in_tx ethtool -S "$TXDEV" 2>/dev/null | awk -v n="$1:" '$1 == n { print $2 }'; }
OUT=${HWCSUM_OUT:-/tmp}

fail=0
case $MODE in
gso-no-csum)
	run in_tx ip -6 addr add fd00:27::1/64 dev "$TXDEV" nodad
	run in_rx ip -6 addr add fd00:27::2/64 dev "$RXDEV" nodad
	sw0=$(csum_stat tx_csum_sw)
	hw0=$(csum_stat tx_csum_hw)
	[ -n "$sw0" ] || die "no tx_csum_sw in ethtool -S $TXDEV (needs 1-csum 5/5)"
	e0=$(nstat_of rx TcpInCsumErrors)
	ready=$OUT/pkt-vnet-ready
	rm -f "$ready"
	in_rx timeout 120 $SEND tcp6-capture "$RXDEV" 40000 40001 15000 60 "$ready" > "$OUT/pkt-vnet-capture.txt" &
	cap=$!
	for _ in $(seq 300); do [ -s "$ready" ] && break; sleep 0.1; done
	[ -s "$ready" ] || die "the receiver did not start"
	run in_tx $SEND tcp6-gso "$TXDEV" "$mac1" fd00:27::1 fd00:27::2 40000 40001 5 3 1000
	wait $cap
	result=$(cat "$OUT/pkt-vnet-capture.txt")
	sw1=$(csum_stat tx_csum_sw)
	hw1=$(csum_stat tx_csum_hw)
	e1=$(nstat_of rx TcpInCsumErrors)
	say "receiver: $result"
	say "8139cp tx_csum_sw +$((sw1 - sw0)), tx_csum_hw +$((hw1 - hw0)); rx TcpInCsumErrors +$((${e1:-0} - ${e0:-0}))"
	[ "$sw1" = "$sw0" ] || { say "FAIL: tx_csum_sw moved: segments reached 8139cp CHECKSUM_PARTIAL with a checksum the chip cannot fill"; fail=1; }
	case $result in
	*"bad_csum 0 bytes 15000 intact yes") ;;
	*) say "FAIL: data not received intact"; fail=1 ;;
	esac
	[ "${e1:-0}" = "${e0:-0}" ] || { say "FAIL: TcpInCsumErrors moved"; fail=1; }
	;;
vlan-proto)
	run in_rx ip link add link "$RXDEV" name v10 type vlan id 10
	run in_rx ip addr add 192.168.71.2/24 dev v10
	run in_rx ip link set v10 up
	e0=$(nstat_of rx UdpInCsumErrors)
	ready=$OUT/pkt-vnet-ready
	rm -f "$ready"
	in_rx timeout 60 /usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("192.168.71.2", 40002)); s.settimeout(15)
open(sys.argv[1], "w").write("ready\n")
sys.path.insert(0, sys.argv[2]); vs = __import__("vnet-send")
try:
    d = s.recv(65535)
    print("received", len(d), "intact" if d == vs.payload(0, 777) else "corrupted")
except socket.timeout:
    print("received nothing")
' "$ready" "$HERE" > "$OUT/pkt-vnet-udp.txt" &
	rcv=$!
	for _ in $(seq 300); do [ -s "$ready" ] && break; sleep 0.1; done
	[ -s "$ready" ] || die "the receiver did not start"
	run in_tx $SEND vlan-udp "$TXDEV" "$mac1" 10 192.168.71.1 192.168.71.2 40003 40002 777
	wait $rcv
	result=$(cat "$OUT/pkt-vnet-udp.txt")
	e1=$(nstat_of rx UdpInCsumErrors)
	say "receiver: $result; rx UdpInCsumErrors +$((${e1:-0} - ${e0:-0}))"
	[ "$result" = "received 777 intact" ] || { say "FAIL: the datagram was not delivered intact"; fail=1; }
	[ "${e1:-0}" = "${e0:-0}" ] || { say "FAIL: UdpInCsumErrors moved: the frame left with a bad UDP checksum"; fail=1; }
	;;
*) die "unknown mode $MODE" ;;
esac
[ $fail = 0 ] || die "see above"
say "OK"
