#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Jumbo frames through hwcsum ports on an Open vSwitch netdev bridge.
#
#   ns a: va 10.97.0.1 ---- sa [pcap+hwcsum "ja"] br (netdev) [hwcsum+pcap "jb"] sb ---- vb 10.97.0.2 :ns b
#
# net_af_packet in DPDK 22.11 reports a 1518-byte maximum frame whatever
# its ring's frame size, so ethdev refuses mtu_request=9000 on hwcsum over
# it (bridge.sh checks the refusal). net_pcap on a live interface (iface=)
# takes frames up to its 65,535-byte snapshot and has no MTU setting of
# its own: hwcsum keeps the MTU itself, and the veths are set to 9000 by
# whoever owns them (here: this script). Checks: mtu_request=9000 taken by
# OVS on both ports; ping with 8,972 bytes of payload and DF both ways;
# 4 MiB of TCP at MSS 8,948 with equal SHA-256; tshark on both peers: no
# bad checksum, frames over 1,518 bytes seen.
# Usage: jumbo.sh <build dir> <librte_net_hwcsum.so>
BUILD=$1 PMD_SO=$2
. "$(dirname "$0")/lib.sh"
NS_A=hwo-ja-$ID NS_B=hwo-jb-$ID BR=br-jumbo

ovs_init "--vdev net_pcap0,iface=sa --vdev net_pcap1,iface=sb" &&
peer "$NS_A" sa va 10.97.0.1/24 &&
peer "$NS_B" sb vb 10.97.0.2/24 || { fail "cannot set up"; finish; }
for l in "$NS_OVS sa" "$NS_OVS sb" "$NS_A va" "$NS_B vb"; do
	set -- $l
	ip -n "$1" link set "$2" mtu 9000 || fail "mtu 9000 on $2"
done
ovs_start || { fail "cannot start Open vSwitch"; finish; }

vsctl add-br $BR -- set Bridge $BR datapath_type=netdev &&
for p in "ja net_hwcsum0,sub=net_pcap0" "jb net_hwcsum1,sub=net_pcap1"; do
	set -- $p
	vsctl add-port $BR "$1" -- set Interface "$1" type=dpdk \
		"options:dpdk-devargs=$2" mtu_request=9000 || fail "add-port $1"
done
check "ja and jb up without error" eval 'iface_ok ja && iface_ok jb'
for p in ja jb; do
	check "$p: OVS says mtu 9000" eval 'ovs-vsctl --timeout=20 wait-until Interface $p mtu=9000 >/dev/null'
done

# big_ping <ns> <address>: 3 of 4 echoes of 8972 bytes (a 9000-byte IPv4
# packet) with DF answered.
big_ping() {
	local got
	got=$(in_ns "$1" "$PY" "$STREAMS" ping "$2" 4 8972 2>&1 | grep -o '[0-9]* received' | cut -d' ' -f1)
	[ "${got:-0}" -ge 3 ]
}
check "ping a -> b, 9000-byte packets, DF" big_ping "$NS_A" 10.97.0.2
check "ping b -> a, 9000-byte packets, DF" big_ping "$NS_B" 10.97.0.1

capture_start a "$NS_A" va && capture_start b "$NS_B" vb || fail "tshark did not start"
check "4 MiB TCP a -> b, SHA-256 equal" tcp_transfer "$NS_A" "$NS_B" 10.97.0.2 4194304
capture_stop
for c in a b; do
	big=$(tshark -r "$WORK/$c.pcap" -Y "tcp && frame.len > 1518" 2>/dev/null | wc -l)
	bad=$(bad_checksums "$WORK/$c.pcap")
	check "tshark on ns $c: $big TCP frames over 1518 bytes, $bad bad checksums" \
		eval '[ "$big" -gt 100 ] && [ "$bad" = 0 ]'
done
finish
