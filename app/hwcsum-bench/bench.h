/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_BENCH_H
#define HWCSUM_BENCH_H

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

#define BENCH_REGISTER(var) \
	static void __attribute__((constructor)) var##_register(void) \
	{ bench_register(&(var)); }

#endif
