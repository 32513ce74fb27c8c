# SPDX-License-Identifier: BSD-3-Clause
# Helpers for the PMD suites: drive an unmodified dpdk-testpmd.
# Sourced by tests/pmd/*.sh; $PMD_SO is the librte_net_hwcsum.so to load.

TESTPMD=${TESTPMD:-dpdk-testpmd}
# An ASan build preloads its runtime for testpmd, which is not built with it
# (meson.build). Only testpmd gets it back (LD_PRELOAD=$TESTPMD_PRELOAD on
# each run): every grep, sleep and python of a script would otherwise pay
# the runtime's start-up, which doubled tunnel_ports.sh (29 s against 13 s).
# Kept when a script re-runs itself in a namespace (private_veth_pair).
export TESTPMD_PRELOAD=${TESTPMD_PRELOAD:-${LD_PRELOAD:-}}
unset LD_PRELOAD
PMD_SO=$("$(dirname "${BASH_SOURCE[0]}")/../../devtools/plugin-path.sh" "$PMD_SO") ||
	{ echo "FAIL: cannot stage the PMD for EAL"; exit 1; }
FAILS=0

# A file prefix per run: meson runs tests in parallel and EAL's runtime
# directory would otherwise collide.
EAL_COMMON="--no-huge -m 256 --no-pci -l 0-1 --file-prefix hwcsum-test-$$"

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }

# testpmd_session <eal args> <app args>; testpmd commands on stdin.
# Output in $OUT, exit status in $RC.
testpmd_session() {
	local eal=$1 app=$2
	OUT=$(LD_PRELOAD=$TESTPMD_PRELOAD timeout 120 "$TESTPMD" $EAL_COMMON -d "$PMD_SO" $eal -- \
		-i --total-num-mbufs=4096 $app 2>&1)
	RC=$?
}

# Print "rx tx" from the accumulated forward statistics block of a port.
fwd_stats() {
	echo "$OUT" | awk -v port="$1" '
		/Forward statistics for port/ { inblk = ($(NF-1) == port) }
		inblk && /RX-packets:/ { rx = $2 }
		inblk && /TX-packets:/ { tx = $2; print rx, tx; exit }'
}

# private_netns "$@": re-run the calling script in a private network
# namespace without IPv6, so the kernel adds no packets of its own.
private_netns() {
	if [ -z "${HWCSUM_IN_NETNS:-}" ]; then
		HWCSUM_IN_NETNS=1 exec unshare -n "$0" "$@"
	fi
	sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 ||
		{ echo "FAIL: cannot disable IPv6 in the namespace"; exit 1; }
}

# private_veth_pair "$@": re-run the calling script in a private network
# namespace, then create veth0/veth1 there, up, without IPv6 (no DAD, no
# router solicitations): only the test's own packets cross the pair.
private_veth_pair() {
	if [ -z "${HWCSUM_IN_NETNS:-}" ]; then
		HWCSUM_IN_NETNS=1 exec unshare -n "$0" "$@"
	fi
	sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 &&
	ip link add veth0 type veth peer name veth1 &&
	ip link set veth0 up &&
	ip link set veth1 up || { echo "FAIL: cannot set up the veth pair"; exit 1; }
}

finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "--- last testpmd output ---"
		echo "$OUT" | tail -60
		echo "$FAILS check(s) failed"
		exit 1
	fi
	echo "all checks passed"
	exit 0
}
