/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hwcsum-bench <name> [options]: dispatch to one registered benchmark.
 * Every benchmark measures against a named peer in the same run and prints
 * the ratio; none of them is a pass/fail test.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static struct bench *benches;

void
bench_register(struct bench *b)
{
	b->next = benches;
	benches = b;
}

static void
usage(FILE *out)
{
	const struct bench *b;

	fprintf(out, "usage: hwcsum-bench <benchmark> [options]\n\nbenchmarks:\n");
	for (b = benches; b != NULL; b = b->next)
		fprintf(out, "  %-12s %s\n", b->name, b->help);
}

int
main(int argc, char **argv)
{
	const struct bench *b;

	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (b = benches; b != NULL; b = b->next)
		if (strcmp(b->name, argv[1]) == 0)
			return b->main(argc - 1, argv + 1);
	fprintf(stderr, "hwcsum-bench: unknown benchmark '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
