#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Run one of the kernel's netdevsim selftests inside the guest, unchanged,
# from the tree the running kernel was built from (kernel/build.sh copies
# tools/testing/selftests/drivers/net/netdevsim into its output), and check
# its verdict:
#   kernel/guest/netdevsim-selftest.sh SCRIPT MIN_CHECKS
# passes only if SCRIPT exits 0 AND prints "PASSED all N checks" with
# N >= MIN_CHECKS (a script that silently runs fewer checks is a failure).
# Prints a heartbeat every 30 s: the selftests are quiet until the end.

set -u
script=$1
min_checks=$2
dir="${HWCSUM_KERNEL_DIR:?not in a vm-run.sh guest}/selftests/netdevsim"
[ -f "$dir/$script" ] || { echo "FAIL: $dir/$script not found"; exit 1; }
command -v ethtool > /dev/null || { echo "FAIL: ethtool missing (devtools/setup.sh)"; exit 1; }
command -v ifconfig > /dev/null || { echo "FAIL: ifconfig missing (net-tools, devtools/setup.sh)"; exit 1; }

# The log goes to the shared run directory: it survives a guest timeout.
log="${HWCSUM_OUT:-/tmp}/${script%.sh}.log"
start=$(date +%s)
echo "running $script from $dir"
(cd "$dir" && bash ${HWCSUM_SELFTEST_TRACE:+-x} "./$script") > "$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2> /dev/null; do
	for _ in $(seq 30); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 1
	done
	kill -0 "$pid" 2> /dev/null &&
		echo "$script still running, $(($(date +%s) - start)) s, $(grep -c '^ERROR' "$log") errors so far (log: $log)"
done
wait "$pid"
rc=$?
cat "$log"
echo "$script exited $rc after $(($(date +%s) - start)) s"

checks=$(sed -n 's/^PASSED all \([0-9][0-9]*\) checks$/\1/p' "$log" | tail -n1)
if [ "$rc" != 0 ] || [ -z "$checks" ]; then
	echo "FAIL: $script did not pass (exit $rc)"
	exit 1
fi
if [ "$checks" -lt "$min_checks" ]; then
	echo "FAIL: $script passed only $checks checks, expected at least $min_checks"
	exit 1
fi
echo "OK: $script PASSED $checks checks (floor $min_checks)"
