/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The C tests' checks: CHECK counts every check and prints each failure
 * (file, line, the condition, a message), the first HARNESS_PRINT_MAX of
 * them only, so a broken build does not bury the first cause under
 * thousands of lines; all are counted. harness_summary() prints the one
 * result line and gives the exit status: non-zero on any failure, and when
 * nothing was checked at all. No DPDK here (test_eal.h has EAL).
 *
 * Before including, a test may define HARNESS_PRINT_MAX (default 40) and
 * HARNESS_PRINT_PASSES (print "ok: <message>" for every check that holds,
 * for tests whose output is read by a script).
 */
#ifndef HWCSUM_TEST_HARNESS_H
#define HWCSUM_TEST_HARNESS_H

#include <stdio.h>

#ifndef HARNESS_PRINT_MAX
#define HARNESS_PRINT_MAX 40
#endif
#ifndef HARNESS_PRINT_PASSES
#define HARNESS_PRINT_PASSES 0
#endif

static unsigned long harness_checks, harness_failures;

/* CHECK(cond) or CHECK(cond, printf format, ...): the message says what
 * was checked and the values seen. */
#define CHECK(cond, ...) do { \
	harness_checks++; \
	if (!(cond)) { \
		harness_failures++; \
		if (harness_failures <= HARNESS_PRINT_MAX) { \
			printf("FAIL %s:%d: %s:", __FILE__, __LINE__, #cond); \
			printf(" " __VA_ARGS__); \
			printf("\n"); \
		} \
	} else if (HARNESS_PRINT_PASSES) { \
		printf("ok:" " " __VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

/* Print "<name>: PASS|FAIL: <n> checks, <m> failure(s)"; the exit status. */
static inline int
harness_summary(const char *name)
{
	int failed = harness_failures != 0 || harness_checks == 0;

	printf("%s: %s: %lu checks, %lu failure(s)%s\n", name,
	       failed ? "FAIL" : "PASS", harness_checks, harness_failures,
	       harness_checks == 0 ? " (nothing was checked)" : "");
	fflush(stdout);
	return failed;
}

#endif /* HWCSUM_TEST_HARNESS_H */
