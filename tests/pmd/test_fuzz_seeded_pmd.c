/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A PMD fuzz target (fuzz_tx.c or fuzz_rx.c, linked in) run as a test:
 * first every regression seed given on the command line (files, or
 * directories of them: tests/pmd/fuzz-corpus/<target>/), then a fixed
 * number of inputs from a fixed seed (HWCSUM_FUZZ_SEED replays another).
 * An invariant broken aborts with the input saved; a run that never
 * reached the paths the target exists for fails too.
 *
 * usage: test_fuzz_seeded_pmd <iterations> [seed file or directory...]
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
size_t fuzz_seeded_input(uint8_t *buf, size_t cap, uint64_t (*rnd)(void));
int fuzz_seeded_report(unsigned long iters);
extern const char *const fuzz_seeded_name;

#define INPUT_MAX 8192

static uint64_t rng_state;

static uint64_t
rng(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned long
run_file(const char *path)
{
	static uint8_t buf[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL) {
		fprintf(stderr, "%s: cannot open %s\n", fuzz_seeded_name, path);
		exit(1);
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 1;
}

static unsigned long
run_path(const char *path)
{
	struct stat sb;
	struct dirent **ents;
	unsigned long done = 0;
	int n, i;

	if (stat(path, &sb) != 0) {
		fprintf(stderr, "%s: no such seed path %s\n", fuzz_seeded_name, path);
		exit(1);
	}
	if (!S_ISDIR(sb.st_mode))
		return run_file(path);
	n = scandir(path, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char sub[4096];

		if (ents[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, ents[i]->d_name);
			done += run_file(sub);
		}
		free(ents[i]);
	}
	free(ents);
	return done;
}

int
main(int argc, char **argv)
{
	static uint8_t input[INPUT_MAX];
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000, i, seeds = 0;
	const char *s = getenv("HWCSUM_FUZZ_SEED");
	int a;

	LLVMFuzzerInitialize(&argc, &argv);
	for (a = 2; a < argc; a++)
		seeds += run_path(argv[a]);
	rng_state = s != NULL ? strtoull(s, NULL, 0) : 0x68776373756dull;
	printf("%s: %lu regression seeds passed; seed %#" PRIx64
	       " (HWCSUM_FUZZ_SEED replays another), %lu inputs\n",
	       fuzz_seeded_name, seeds, rng_state, iters);
	for (i = 0; i < iters; i++) {
		size_t size = fuzz_seeded_input(input, sizeof(input), rng);

		LLVMFuzzerTestOneInput(input, size);
	}
	if (fuzz_seeded_report(iters) != 0) {
		printf("%s: FAIL: some path was never reached\n", fuzz_seeded_name);
		return 1;
	}
	printf("%s: PASS\n", fuzz_seeded_name);
	return 0;
}
