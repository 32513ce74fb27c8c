# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced by the guest scripts: progress lines with the elapsed time, the
# "tx" and "rx" namespaces the two-NIC suites use, and the lookup of a NIC
# by the MAC address devtools/vm-run.sh gave it (HWCSUM_NICS_FILE holds
# "index model link mac" per NIC). Set GUEST_TAG before sourcing.

T0=$(date +%s)
say() { echo "[${GUEST_TAG:-guest} +$(($(date +%s) - T0))s] $*"; }
die() { say "FAILED: $*"; exit 1; }
run() { "$@" || die "command failed: $*"; }
in_tx() { ip netns exec tx "$@"; }
in_rx() { ip netns exec rx "$@"; }

# nic_by_mac MAC: the interface with that address, in this namespace.
nic_by_mac() {
	local d
	for d in /sys/class/net/*; do
		[ "$(cat "$d/address" 2>/dev/null)" = "$1" ] && { basename "$d"; return 0; }
	done
	return 1
}

# nic_mac INDEX: the MAC of NIC INDEX of vm-run.sh's --nic list.
nic_mac() { awk -v i="$1" '$1 == i { print $4 }' "$HWCSUM_NICS_FILE"; }

# tx_rx_pair: NIC 0 (MAC mac0) up in namespace "tx" as TXDEV, NIC 1
# (mac1) in "rx" as RXDEV, with GRO off on the receiver (it must not merge
# what it checks).
tx_rx_pair() {
	mac0=$(nic_mac 0)
	mac1=$(nic_mac 1)
	TXDEV=$(nic_by_mac "$mac0") || die "NIC 0 ($mac0) not found"
	RXDEV=$(nic_by_mac "$mac1") || die "NIC 1 ($mac1) not found"
	say "tx $TXDEV ($(ethtool -i "$TXDEV" | awk '/^driver:/ { print $2 }')), rx $RXDEV, kernel $(uname -r)"
	run ip netns add tx
	run ip netns add rx
	run ip link set "$TXDEV" netns tx
	run ip link set "$RXDEV" netns rx
	in_tx ip link set lo up
	in_rx ip link set lo up
	run in_tx ip link set "$TXDEV" up
	run in_rx ip link set "$RXDEV" up
	in_rx ethtool -K "$RXDEV" gro off 2>/dev/null
}
