#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Bad devargs: the probe fails with a log line naming what was wrong, and
# testpmd (asked for --nb-ports=N) exits non-zero because the port is
# missing. EAL itself never fails rte_eal_init on a vdev probe error
# (rte_bus_probe only logs it), so --nb-ports is what makes it fatal.
PMD_SO=$1
. "$(dirname "$0")/lib.sh"

expect_bad() {
	local what=$1 vdevs=$2 nb_ports=$3 message=$4
	testpmd_session "$vdevs" "--nb-ports=$nb_ports" </dev/null
	if [ "$RC" -eq 0 ]; then
		fail "$what: testpmd exited 0"
	elif ! grep -qF -- "$message" <<<"$OUT"; then
		fail "$what: no log line \"$message\""
	else
		pass "$what: exit $RC, \"$message\""
	fi
}

# No other port on these command lines, so a failed probe leaves none.
expect_bad "missing sub" "--vdev net_hwcsum0" 1 \
	"net_hwcsum0: missing devarg 'sub=<port name>'"
expect_bad "unknown key" "--vdev net_hwcsum0,sub=net_ring0,speed=10" 1 \
	"net_hwcsum0: unknown devarg 'speed'"
expect_bad "no such sub-port" "--vdev net_hwcsum0,sub=net_ring7" 1 \
	"net_hwcsum0: sub-port 'net_ring7' does not exist"
expect_bad "sub-port already owned" \
	"--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0 --vdev net_hwcsum1,sub=net_ring0" 2 \
	"net_hwcsum1: sub-port 'net_ring0' is already owned by 'net_hwcsum0'"
expect_bad "rx_partial_seed value" "--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0,rx_partial_seed=yes" 2 \
	"net_hwcsum0: devarg rx_partial_seed='yes' is not one of: auto on off"
expect_bad "peer_segment value" "--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0,peer_segment=1" 2 \
	"net_hwcsum0: devarg peer_segment='1' is not one of: auto on off"

# The same command line with good devargs must work, or the checks above
# prove nothing.
testpmd_session "--vdev net_ring0 --vdev net_hwcsum0,sub=net_ring0,rx_partial_seed=on,peer_segment=off" "--nb-ports=1" </dev/null
[ "$RC" -eq 0 ] && pass "good devargs: exit 0" || fail "good devargs: exit $RC"
finish
