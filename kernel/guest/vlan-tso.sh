#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of kernel-vlan-tso: a 4 MiB TCP stream between two NICs (two
# namespaces, one QEMU hub), plain and over VLAN tags the NIC does not
# insert itself from the descriptor: 802.1ad (8139cp has no STAG_TX) and
# 802.1Q with `ethtool -K txvlan off`. 802.1Q with the tag in the
# descriptor is the control. Those tags are pushed into the frame after
# ndo_features_check(); a driver whose features check ignores that keeps
# TSO for frames its engine cannot parse, and then drops or corrupts them.
#
#   kernel/guest/vlan-tso.sh
#
# Passes when, for every case, all bytes arrive, the sender's tx_dropped
# does not move and the log has no "GSO packet with a checksum the device
# cannot offload". v1 failed both every time (300-460 drops per VLAN case).
# Times and retransmissions are printed, not judged: under TCG on a busy
# host the control case alone varied from 0.06 s to 5.5 s.

set -u
BYTES=$((4 * 1024 * 1024))
PORT=5001
GUEST_TAG=vlan-tso
. "$(dirname "$0")/lib.sh"
# The receiver must not be the bottleneck, nor merge what it receives.
tx_rx_pair

# One subnet per case: plain, q (802.1Q, tag in the descriptor), q-sw
# (802.1Q, txvlan off), ad (802.1ad).
setup_case() {
	local name=$1 proto=$2 id=$3 net=$4 dev
	if [ "$proto" = none ]; then
		run in_tx ip addr add "$net.1/24" dev "$TXDEV"
		run in_rx ip addr add "$net.2/24" dev "$RXDEV"
		return
	fi
	for side in tx rx; do
		dev=$TXDEV
		[ $side = rx ] && dev=$RXDEV
		run ip netns exec $side ip link add link "$dev" name "v$name" type vlan protocol "$proto" id "$id"
		run ip netns exec $side ip addr add "$net.$([ $side = tx ] && echo 1 || echo 2)/24" dev "v$name"
		run ip netns exec $side ip link set "v$name" up
	done
}
setup_case plain none 0 192.168.60
setup_case q 802.1Q 10 192.168.61
setup_case ad 802.1ad 30 192.168.63

tx_dropped() { in_tx cat "/sys/class/net/$TXDEV/statistics/tx_dropped" 2>/dev/null || in_tx awk -v d="$TXDEV:" '$1 == d { print $13 }' /proc/net/dev; }
gso_log_lines() { dmesg | grep -c 'GSO packet with a checksum the device cannot offload'; }
retrans() { in_tx nstat -az TcpRetransSegs 2>/dev/null | awk '$1 == "TcpRetransSegs" { print $2 }'; }

# stream NET: seconds taken for BYTES from tx to rx, or die.
stream() {
	local net=$1 out
	out=$(in_rx timeout 120 /usr/bin/python3 -c '
import socket, sys, time
bytes_, port = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[3], port)); s.listen(1); s.settimeout(60)
print("listening", flush=True)
c, _ = s.accept(); c.settimeout(60)
got, t0 = 0, None
while got < bytes_:
    b = c.recv(1 << 16)
    if not b: break
    if t0 is None: t0 = time.monotonic()
    got += len(b)
print(got, time.monotonic() - (t0 or time.monotonic()))
' "$BYTES" "$PORT" "$net.2" &
	# The listener's python can take seconds to start under TCG: retry a
	# refused connect for up to 30 s rather than guess a delay.
	in_tx timeout 90 /usr/bin/python3 -c '
import socket, sys, time
deadline = time.monotonic() + 30
while True:
    try:
        s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)
        break
    except ConnectionRefusedError:
        if time.monotonic() > deadline: raise
        time.sleep(0.2)
s.sendall(bytes(int(sys.argv[3]))); s.close()
' "$net.2" "$PORT" "$BYTES" || echo "sender failed" >&2
	wait)
	local got secs
	read -r got secs <<< "$(echo "$out" | tail -n1)"
	[ "$got" = "$BYTES" ] || die "$net: received ${got:-nothing} of $BYTES bytes"
	echo "$secs"
}

# run_case CASE: one stream; drops and log lines fail.
fail=0
run_case() {
	local case=$1 net d0 d1 l0 l1 r0 r1 secs
	case $case in
	plain) net=192.168.60 ;;
	q | q-sw) net=192.168.61 ;;
	ad) net=192.168.63 ;;
	esac
	if [ $case = q-sw ]; then
		run in_tx ethtool -K "$TXDEV" txvlan off
	else
		in_tx ethtool -K "$TXDEV" txvlan on 2>/dev/null
	fi
	d0=$(tx_dropped)
	l0=$(gso_log_lines)
	r0=$(retrans)
	secs=$(stream $net) || exit 1
	d1=$(tx_dropped)
	l1=$(gso_log_lines)
	r1=$(retrans)
	say "$case: $BYTES bytes in $secs s, tx_dropped +$((d1 - d0)), log lines +$((l1 - l0)), retransmitted segments +$((${r1:-0} - ${r0:-0}))"
	[ "$d1" = "$d0" ] || { say "FAIL: $case: tx_dropped moved by $((d1 - d0))"; fail=1; }
	[ "$l1" = "$l0" ] || { say "FAIL: $case: the stack logged GSO packets the device cannot offload"; fail=1; }
}
for case in plain q q-sw ad; do
	run_case $case
done
[ $fail = 0 ] || die "see above"
say "OK: every case complete, no drop, no GSO log line"
