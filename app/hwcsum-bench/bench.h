/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_BENCH_H
#define HWCSUM_BENCH_H

#include <stdio.h>

/*
 * hwcsum-bench runs one named benchmark; each lives in its own file and
 * registers itself with BENCH_REGISTER(name, help, main) so main.c needs
 * no list.
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

/* Close the results array and the object, close the file and say where it
 * is. Returns 0, or 1 after naming the benchmark if the write failed. */
int bench_json_close(const char *bench, FILE *out, const char *path);

/* What the rounds x packets benchmarks take: --json, --rounds, --packets. */
struct bench_opts {
	const char *json;
	unsigned int rounds;
	unsigned long packets;
};

/*
 * Parse those (o holds the defaults). Returns -1 to go on, else the exit
 * status after usage() was printed: 0 for --help, 2 for a bad option, no
 * rounds or packets, or more than max_rounds rounds.
 */
int bench_parse_opts(int argc, char **argv, struct bench_opts *o,
		     unsigned int max_rounds, void (*usage)(void));

/* The benchmark `name` (a bare word: it names the command and the
 * registration), what `hwcsum-bench` says of it, and its main. */
#define BENCH_REGISTER(nm, hlp, fn) \
	static struct bench bench_##nm = { .name = #nm, .help = hlp, .main = fn }; \
	static void __attribute__((constructor)) bench_##nm##_register(void) \
	{ bench_register(&bench_##nm); }

#endif
