/* SPDX-License-Identifier: BSD-3-Clause */
/* What every benchmark needs: a clock and a place to write its JSON. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"

double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* mkdir -p of the directories in front of the last '/'. */
static int
mkdir_parents(const char *path)
{
	char dir[4096];
	char *s;

	if (strlen(path) >= sizeof(dir))
		return -ENAMETOOLONG;
	strcpy(dir, path);
	for (s = dir + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return 0;
}

FILE *
bench_json_open(const char *bench, const char *path)
{
	int ret = mkdir_parents(path);
	FILE *out = ret < 0 ? NULL : fopen(path, "w");

	if (out == NULL)
		fprintf(stderr, "bench %s: cannot write %s: %s\n", bench, path,
			strerror(ret < 0 ? -ret : errno));
	return out;
}

int
bench_json_close(const char *bench, FILE *out, const char *path)
{
	fputs("  ]\n}\n", out);
	if (ferror(out) | fclose(out)) {
		fprintf(stderr, "bench %s: error writing %s\n", bench, path);
		return 1;
	}
	printf("\nJSON: %s\n", path);
	return 0;
}

int
bench_parse_opts(int argc, char **argv, struct bench_opts *o,
		 unsigned int max_rounds, void (*usage)(void))
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "packets", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': o->json = optarg; break;
		case 'r': o->rounds = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'p': o->packets = strtoul(optarg, NULL, 0); break;
		case 'h': usage(); return 0;
		default: usage(); return 2;
		}
	}
	if (o->rounds == 0 || o->rounds > max_rounds || o->packets == 0) {
		usage();
		return 2;
	}
	return -1;
}
