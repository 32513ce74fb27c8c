#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of kernel-csum-kunit: load the KUnit tests of the checksum
# offload spec (kernel/patches/1-csum, "net: add KUnit tests for the
# checksum offload spec", CONFIG_SKB_CSUM_OFFLOAD_KUNIT_TEST=m) and report
# their result.
# KUnit runs a module's suites when it is loaded; the TAP results are in
# debugfs (and the kernel log). Fails unless every case ran and passed.
#
#   kernel/guest/csum/kunit.sh EXPECTED_CASES [MODULE SUITE]
#
# MODULE and SUITE default to the series' test; kernel/v1-regressions runs
# the same cases against v1 under another name.

set -u
expected=${1:?usage: kunit.sh EXPECTED_CASES [MODULE SUITE]}
module=${2:-skb_csum_offload_test}
suite=${3:-skb_csum_offload}
results=/sys/kernel/debug/kunit/$suite/results

modprobe "$module" || { echo "FAIL: modprobe $module"; exit 1; }
if [ -r "$results" ]; then
	tap=$(cat "$results")
else
	tap=$(dmesg)
fi
echo "$tap"
passed=$(echo "$tap" | grep -cE '^[[:space:]]+ok [0-9]+ ')
failed=$(echo "$tap" | grep -cE '^[[:space:]]*not ok [0-9]+ ')
echo "kunit $suite: $passed passed, $failed failed, $expected expected"
[ "$failed" = 0 ] && [ "$passed" = "$expected" ]
