#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# One-command machine setup for hwcsum. Idempotent: every step checks
# whether it is already done. Stops at the first failure, naming the step.
#
#   devtools/setup.sh            install packages + DPDK driver SDK headers
#   HWCSUM_CACHE=/path ...       where caches live (default /var/cache/hwcsum)
#
# Prints, as its last line, the SDK include directory it prepared.

set -euo pipefail

HWCSUM_CACHE=${HWCSUM_CACHE:-/var/cache/hwcsum}
HERE=$(cd "$(dirname "$0")" && pwd)

# Each package is here for a reason written in README.md ("Dependencies").
PACKAGES=(
	dpdk dpdk-dev libdpdk-dev pkg-config libnuma-dev libpcap-dev libbpf-dev
	meson ninja-build gcc clang libclang-rt-14-dev
	dpkg-dev xz-utils
	qemu-system-x86 linux-source-6.1 linux-source-6.12 busybox-static
	bc flex bison libelf-dev libssl-dev cpio kmod
	iproute2 ethtool net-tools tcpdump tshark python3-scapy python3-matplotlib
	python3-pyelftools
	ca-certificates
	openvswitch-switch-dpdk
)

step() { STEP="$*"; echo "[setup] $*"; }
fail() {
	echo "[setup] FAILED at step: ${STEP:-?}" >&2
	echo "[setup] $*" >&2
	exit 1
}
trap 'fail "a command failed (line $LINENO); re-run with bash -x for detail"' ERR

[ "$(id -u)" = 0 ] || { STEP="privileges"; fail "run as root (apt and /var/cache need it)"; }

missing_packages() {
	local p
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

APT_UPDATED=0
apt_update() {
	[ "$APT_UPDATED" = 1 ] && return 0
	step "apt-get update"
	DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null ||
		fail "apt-get update failed: is Debian's archive reachable?"
	APT_UPDATED=1
}

step "check installed packages"
mapfile -t MISSING < <(missing_packages)
if [ "${#MISSING[@]}" -gt 0 ]; then
	apt_update
	step "apt-get install ${MISSING[*]}"
	# No service may start: Open vSwitch's would run beside the ovs
	# suite's own switch. A policy-rc.d of ours only while installing.
	POLICY=/usr/sbin/policy-rc.d
	if [ ! -e "$POLICY" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$POLICY" && chmod 0755 "$POLICY"
		trap 'rm -f "$POLICY"' EXIT
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${MISSING[@]}" >/dev/null ||
		fail "apt-get install failed for: ${MISSING[*]}"
fi

# The DPDK driver SDK headers come from the source package of exactly the
# installed libdpdk-dev version; dpdk-sdk.sh does that part.
step "DPDK driver SDK headers"
SDK_INC=$("$HERE/dpdk-sdk.sh") || fail "dpdk-sdk.sh failed (see above)"

echo "[setup] done"
echo "$SDK_INC"
