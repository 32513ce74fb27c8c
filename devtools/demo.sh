#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The hwcsum demo, no NIC needed: an unmodified dpdk-testpmd drives two
# net_hwcsum ports, each stacked on a net_ring port, and forwards traffic
# between them while the port statistics are shown.
#
#   devtools/demo.sh [build dir]
set -euo pipefail

BUILD=${1:-build}
PMD_SO="$BUILD/drivers/net/hwcsum/librte_net_hwcsum.so"
[ -f "$PMD_SO" ] || { echo "demo: $PMD_SO not built: run make build" >&2; exit 1; }
# EAL refuses plugins from world-writable directories.
PMD_SO=$("$(dirname "$0")/plugin-path.sh" "$PMD_SO")

EAL="--no-huge -m 256 --no-pci -l 0-1 --file-prefix hwcsum-demo -d $PMD_SO"
VDEVS="--vdev net_ring0 --vdev net_ring1"
VDEVS="$VDEVS --vdev net_hwcsum0,sub=net_ring0 --vdev net_hwcsum1,sub=net_ring1"

cat <<INTRO
== hwcsum demo ==============================================================
dpdk-testpmd $EAL \\
    $VDEVS \\
    -- -i --total-num-mbufs=4096 --nb-ports=2

Two hwcsum ports (2 and 3) own net_ring0 and net_ring1 (ports 0 and 1,
hidden from testpmd). testpmd io-forwards between them: port 2 -> port 3
-> port 2, after injecting 4 bursts of 32 packets on each port.
=============================================================================
INTRO

commands() {
	echo "show port summary all"
	echo "set fwd io"
	echo "start tx_first 4"
	for i in 1 2 3; do
		sleep 1
		echo "show port stats all"
	done
	echo "stop"
	echo "quit"
}

# shellcheck disable=SC2086
commands | timeout 120 dpdk-testpmd $EAL $VDEVS -- -i --total-num-mbufs=4096 \
	--nb-ports=2 2>&1 | grep -v '^EAL: \|^testpmd: \|^Warning: NUMA\|^ *$'
