/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_BENCH_H
#define HWCSUM_BENCH_H

#include <stdio.h>

/*
 * hwcsum-bench runs one named benchmark; each lives in its own file and
 * registers itself with BENCH_REGISTER so main.c needs no list.
 */
struct bench {
	const char *name;
	const char *help;
	int (*main)(int argc, char **argv);
	struct bench *next;
};

void bench_register(struct bench *b);

/* Monotonic time in seconds. */
double bench_now(void);

/* Create the directories in front of path and open it for writing; on
 * failure say why (naming the benchmark) and return NULL. */
FILE *bench_json_open(const char *bench, const char *path);

#define BENCH_REGISTER(var) \
	static void __attribute__((constructor)) var##_register(void) \
	{ bench_register(&(var)); }

#endif
