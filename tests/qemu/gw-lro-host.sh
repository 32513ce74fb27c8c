#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Host side of tests/qemu/gw-lro.sh, run by devtools/vm-run.sh --host-hook
# in the private network namespace that holds the guest's taps:
#
#   gw-lro-host.sh RUN_DIR
#
# That namespace is the VM: its bridge hwbrv (NIC 0's tap, the gateway's
# inner port) has 198.51.100.1, MTU 1400, TSO on. The Linux VTEP is
# namespace qemutso-peer-PID: veth pu1 192.0.2.2 on bridge hwbru (NIC 1's
# tap, the gateway's underlay), vxlan tun0 (VNI 42, UDP checksums)
# 198.51.100.2. Once the guest writes RUN_DIR/gw-ready: 4 MiB of TCP from
# the VM to the VTEP (tests/tunnel/streams.py, SHA-256 both ends), the
# VTEP's InCsumErrors, then RUN_DIR/host-result and RUN_DIR/host-done,
# which tells the guest to stop the gateway.

set -u
RUN=${1:?usage: gw-lro-host.sh RUN_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
STREAMS="$HERE/../tunnel/streams.py"
PY=/usr/bin/python3
BYTES=$((4 << 20))
PEER=qemutso-peer-$$
T0=$(date +%s)
say() { echo "[host +$(($(date +%s) - T0))s] $*"; }
result() { echo "$*" >> "$RUN/host-result"; say "$*"; }
finish() {
	ip netns del "$PEER" 2> /dev/null
	touch "$RUN/host-done"
	exit "$1"
}
die() { result "FAILED $*"; finish 1; }
in_peer() { ip netns exec "$PEER" "$@"; }

: > "$RUN/host-result"
ip link show hwbrv > /dev/null 2>&1 && ip link show hwbru > /dev/null 2>&1 ||
	die "bridges hwbrv/hwbru missing (vm-run.sh --nic virtio-tap@v --nic virtio-tap@u)"
# The VM.
ip link set hwbrv address 02:00:00:00:10:01 mtu 1400 &&
	ip addr add 198.51.100.1/24 dev hwbrv &&
	ip neigh replace 198.51.100.2 lladdr 02:00:00:00:20:02 dev hwbrv nud permanent ||
	die "cannot set up the VM side on hwbrv"
# The VTEP.
ip netns add "$PEER" || die "ip netns add $PEER"
# No IPv6 chatter (router solicitations, MLD) for the gateway to drop.
in_peer sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 ||
	die "sysctl in $PEER"
ip link add pu0 type veth peer name pu1 netns "$PEER" &&
	ip link set pu0 master hwbru && ip link set pu0 up &&
	in_peer ip link set lo up &&
	in_peer ip link set pu1 address 02:00:00:00:20:01 up &&
	in_peer ip addr add 192.0.2.2/24 dev pu1 &&
	in_peer ip neigh replace 192.0.2.1 lladdr 52:54:00:12:34:11 dev pu1 nud permanent &&
	in_peer ip link add tun0 address 02:00:00:00:20:02 type vxlan id 42 remote 192.0.2.1 \
		local 192.0.2.2 dev pu1 dstport 4789 udpcsum &&
	in_peer ip link set tun0 mtu 1400 up &&
	in_peer ip addr add 198.51.100.2/24 dev tun0 &&
	in_peer ip neigh replace 198.51.100.1 lladdr 02:00:00:00:10:01 dev tun0 nud permanent ||
	die "cannot set up the VTEP namespace $PEER"
say "namespaces ready; waiting for the gateway in the guest"

for _ in $(seq 900); do
	[ -e "$RUN/gw-ready" ] && break
	[ -e "$RUN/guest-failed" ] && die "the guest gave up before the gateway was ready"
	sleep 1
done
[ -e "$RUN/gw-ready" ] || die "the gateway never got ready"
# The tap's offloads are what the guest's driver negotiated: TSO on
# hwtap0 means net_virtio asked for GUEST_TSO4/6 and GUEST_CSUM.
result "hwtap0 offloads: $(ethtool -k hwtap0 2> /dev/null |
	awk '/^tcp-segmentation-offload:|^tx-checksumming:/ { printf "%s %s ", $1, $2 }')"
result "hwbrv offloads: $(ethtool -k hwbrv 2> /dev/null |
	awk '/^tcp-segmentation-offload:/ { printf "%s %s ", $1, $2 }')"
ip -s link show hwtap0 > "$RUN/hwtap0-before.txt" 2>&1

in_peer "$PY" "$STREAMS" tcp-recv 5002 > "$RUN/tcp-recv.out" 2>&1 &
rpid=$!
sleep 1
say "sending $BYTES bytes of TCP from the VM to 198.51.100.2 (TCG: slow)"
sent=$(timeout 600 "$PY" "$STREAMS" tcp-send 198.51.100.2 5002 "$BYTES" 2>&1)
wait "$rpid"
got=$(cat "$RUN/tcp-recv.out")
result "sent: $sent"
result "received: $got"
ip -s link show hwtap0 > "$RUN/hwtap0-after.txt" 2>&1
result "vtep InCsumErrors: $(in_peer awk '
	/^(Ip|Udp|Tcp):/ { if (!h[$1]) { for (i = 2; i <= NF; i++) col[$1, $i] = i; h[$1] = 1 }
		else if (($1, "InCsumErrors") in col) s += $(col[$1, "InCsumErrors"]) }
	END { print s + 0 }' /proc/net/snmp)"
result "vtep nstat: $(in_peer nstat -az TcpInCsumErrors UdpInCsumErrors 2> /dev/null | awk 'NR > 1 { printf "%s %s ", $1, $2 }')"
if [ -n "$sent" ] && [ "${sent#tcp sent }" = "${got#tcp received }" ]; then
	result "ok transfer"
	finish 0
fi
die "transfer: sent '$sent', received '$got'"
