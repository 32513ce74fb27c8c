#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest smoke test (run inside the VM by tests/kernel/meson.build):
#   kernel/guest/smoke.sh EXPECTED_CPUS [MODEL...]
# Checks that the guest is usable by the other kernel suites: every vCPU up,
# root over 9p, the writable tmpfs/hugetlbfs/debugfs mounts, /dev/fd, the
# kernel's modules loadable, and one NIC per MODEL bound to the right driver
# (MODELs in the order given to vm-run.sh --nic). Prints one line per check.

set -u
expected_cpus=$1
shift
failed=0
. "$(dirname "$0")/lib.sh"

check() {
	local what=$1
	shift
	if "$@" > /dev/null 2>&1; then
		echo "ok   - $what"
	else
		echo "FAIL - $what (command: $*)"
		failed=$((failed + 1))
	fi
}

mounted() { awk -v m="$1" -v t="$2" '$2 == m && $3 == t { f = 1 } END { exit !f }' /proc/mounts; }

check "$expected_cpus CPUs online" test "$(nproc)" = "$expected_cpus"
check "root is the host root over 9p" mounted / 9p
check "tmpfs on /tmp" mounted /tmp tmpfs
check "tmpfs on /run" mounted /run tmpfs
check "hugetlbfs on /dev/hugepages" mounted /dev/hugepages hugetlbfs
check "debugfs on /sys/kernel/debug" mounted /sys/kernel/debug debugfs
check "/tmp writable" touch /tmp/smoke
check "bash process substitution (/dev/fd)" bash -c 'read -r x < <(echo hi); [ "$x" = hi ]'
check "modules.dep of $(uname -r) visible" test -f "/lib/modules/$(uname -r)/modules.dep"
for mod in udp_tunnel vxlan geneve fou netdevsim; do
	check "modprobe $mod" modprobe "$mod"
done
check "udp_tunnel is a module (the selftest unloads it)" test -d /sys/module/udp_tunnel/sections
check "modprobe -r netdevsim vxlan geneve fou" modprobe -r netdevsim vxlan geneve fou
check "a network namespace" bash -c 'ip netns add smoke && ip -n smoke link set lo up && ip netns del smoke'
check "a veth pair" bash -c 'ip link add smk0 type veth peer name smk1 && ip link del smk0'

# NICs: vm-run.sh writes "index model link mac" per NIC.
declare -A driver_of=([virtio]=virtio_net [virtio-tap]=virtio_net [e1000]=e1000
	[e1000e]=e1000e [rtl8139]=8139cp)
i=0
for model in "$@"; do
	mac=$(nic_mac "$i")
	dev=$(nic_by_mac "$mac")
	check "NIC $i ($model, $mac) present" test -n "$dev"
	if [ -n "$dev" ]; then
		check "NIC $i $dev uses driver ${driver_of[$model]}" \
			bash -c "ethtool -i $dev | grep -qx 'driver: ${driver_of[$model]}'"
		check "NIC $i $dev comes up" ip link set "$dev" up
		if [ "$model" = virtio-tap ]; then
			# vnet headers negotiated: virtio-net offers checksum offload.
			check "NIC $i $dev has tx checksum offload (vnet headers)" \
				bash -c "ethtool -k $dev | grep -q '^tx-checksumming: on'"
		fi
	fi
	i=$((i + 1))
done

if [ "$failed" = 0 ]; then
	echo "smoke: all checks passed"
	exit 0
fi
echo "smoke: $failed check(s) FAILED"
exit 1
