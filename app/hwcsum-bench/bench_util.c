/* SPDX-License-Identifier: BSD-3-Clause */
/* What every benchmark needs: a clock and a place to write its JSON. */
#include <errno.h>
#include <stdio.h>
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
