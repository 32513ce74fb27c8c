#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# testpmd over two hwcsum ports on net_af_packet, stacked on the two ends
# of a veth pair in a private network namespace: what one hwcsum port
# transmits crosses the kernel and must all arrive at the other one.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"
private_veth_pair "$@"
WORK=$(mktemp -d)
. "$(dirname "$0")/session.sh"

VDEVS="--vdev net_af_packet0,iface=veth0 --vdev net_af_packet1,iface=veth1"
VDEVS="$VDEVS --vdev net_hwcsum0,sub=net_af_packet0 --vdev net_hwcsum1,sub=net_af_packet1"
BURSTS=4
EXPECT=$((BURSTS * 32))

tp_start veth $TP_EAL $VDEVS -- $TP_APP --nb-ports=2
tx_first_burst $BURSTS 2 3
tp_stop

read -r rx2 tx2 < <(fwd_stats 2)
read -r rx3 tx3 < <(fwd_stats 3)
for v in "$tx2" "$tx3"; do
	[ "$v" = "$EXPECT" ] || fail "a port sent '$v' packets, expected $EXPECT"
done
[ "$tx2" = "$rx3" ] && pass "hwcsum0 TX $tx2 = hwcsum1 RX $rx3" ||
	fail "hwcsum0 TX '$tx2' != hwcsum1 RX '$rx3'"
[ "$tx3" = "$rx2" ] && pass "hwcsum1 TX $tx3 = hwcsum0 RX $rx2" ||
	fail "hwcsum1 TX '$tx3' != hwcsum0 RX '$rx2'"
# The kernel's own counters on the wire must agree with testpmd.
# (/proc/net/dev, not /sys/class/net: sysfs shows the host's namespace.)
netdev_count() { sed 's/:/ /' /proc/net/dev | awk -v d="$1" -v f="$2" '$1 == d { print $f }'; }
k0=$(netdev_count veth0 11)	# tx packets
k1=$(netdev_count veth1 3)	# rx packets
[ "$k0" = "$tx2" ] && [ "$k1" = "$tx2" ] && pass "veth0 tx $k0 = veth1 rx $k1" ||
	fail "kernel counters veth0 tx '$k0' veth1 rx '$k1', testpmd sent '$tx2'"
finish
