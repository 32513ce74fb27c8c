/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef TEST_COMMON_H
#define TEST_COMMON_H

/* tests/lib's CHECK and harness_summary(), and an equality check that
 * prints both values. */
#include <stdio.h>

#include "../lib/test_harness.h"

#define CHECK_EQ(a, b) do { \
	long long a_ = (long long)(a), b_ = (long long)(b); \
	CHECK(a_ == b_, "%s == %lld, expected %s == %lld", #a, a_, #b, b_); \
} while (0)

#endif
