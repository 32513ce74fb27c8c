#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guest side of kernel-csum-kunit: load the KUnit tests of the checksum
# offload spec helper (patch "net: add KUnit tests for the checksum offload
# spec helper", CONFIG_SKB_CSUM_OFFL_KUNIT_TEST=m) and report their result.
# KUnit runs a module's suites when it is loaded; the TAP results are in
# debugfs (and the kernel log). Fails unless every case ran and passed.
#
#   kernel/guest/csum/kunit.sh EXPECTED_CASES

set -u
expected=${1:?usage: kunit.sh EXPECTED_CASES}
results=/sys/kernel/debug/kunit/skb_csum_offload/results

modprobe skb_csum_offl_test || { echo "FAIL: modprobe skb_csum_offl_test"; exit 1; }
if [ -r "$results" ]; then
	tap=$(cat "$results")
else
	tap=$(dmesg)
fi
echo "$tap"
passed=$(echo "$tap" | grep -cE '^[[:space:]]*ok [0-9]+ csum_offl_')
failed=$(echo "$tap" | grep -cE '^[[:space:]]*not ok [0-9]+ ')
echo "kunit skb_csum_offload: $passed passed, $failed failed, $expected expected"
[ "$failed" = 0 ] && [ "$passed" = "$expected" ]
