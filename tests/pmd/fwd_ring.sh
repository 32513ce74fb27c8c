#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# testpmd over two hwcsum ports on net_ring: each ring loops a port's TX
# back to its RX, so every packet sent through hwcsum must come back
# through hwcsum, and testpmd must see only the hwcsum ports.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d)
. "$(dirname "$0")/session.sh"

VDEVS="--vdev net_ring0 --vdev net_ring1 --vdev net_hwcsum0,sub=net_ring0 --vdev net_hwcsum1,sub=net_ring1"
BURSTS=4
EXPECT=$((BURSTS * 32))

tp_start ring $TP_EAL $VDEVS -- $TP_APP --nb-ports=2
tp show port summary all
tx_first_burst $BURSTS 2 3
tp_stop

ports=$(echo "$OUT" | awk '/^Number of available ports:/ { print $NF; exit }')
[ "$ports" = 2 ] && pass "testpmd sees 2 ports" || fail "testpmd sees '$ports' ports, expected 2"
echo "$OUT" | grep -q "net_ring" &&
	fail "an owned sub-port is visible to testpmd" || pass "sub-ports hidden"

# Closing hwcsum closes its stopped sub-port without stopping it again
# (ethdev logs "already stopped" for that).
echo "$OUT" | grep -q "already stopped" &&
	fail "a port was stopped twice at close: $(echo "$OUT" | grep "already stopped" | head -n1)" ||
	pass "each port stopped once"

for port in 2 3; do
	read -r rx tx < <(fwd_stats $port)
	if [ "$tx" = "$EXPECT" ] && [ "$rx" = "$EXPECT" ]; then
		pass "port $port: TX $tx = RX $rx"
	else
		fail "port $port: TX '$tx' RX '$rx', expected $EXPECT each"
	fi
done
finish
