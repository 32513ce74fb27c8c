/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef TEST_COMMON_H
#define TEST_COMMON_H

#include <stdio.h>

static unsigned int test_failures;
static unsigned int test_checks;

/* Count and report; the test exits non-zero if any CHECK failed. */
#define CHECK(cond) do { \
	test_checks++; \
	if (!(cond)) { \
		test_failures++; \
		fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long a_ = (long long)(a), b_ = (long long)(b); \
	test_checks++; \
	if (a_ != b_) { \
		test_failures++; \
		fprintf(stderr, "FAIL %s:%d: %s == %lld, expected %s == %lld\n", \
			__FILE__, __LINE__, #a, a_, #b, b_); \
	} \
} while (0)

static inline int
test_summary(const char *name)
{
	printf("%s: %u checks, %u failed\n", name, test_checks, test_failures);
	return test_failures != 0 || test_checks == 0;
}

#endif
