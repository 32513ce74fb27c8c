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
