/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hwcsum-bench csum: GB/s of every csum_partial() implementation beside
 * DPDK's rte_raw_cksum (compiled here, same flags, same buffers, same run)
 * and beside the machine's plain read bandwidth (the ceiling: no checksum
 * can read faster), cache-resident and from memory, with the ratios.
 *
 * The machine is shared: each (size, mode) is measured as several rounds
 * that interleave all contenders, each round as many short batches, and
 * the fastest batch of each contender is kept, so a neighbour's burst hits
 * everyone alike. Only ratios mean anything.
 */
#include <errno.h>
#include <getopt.h>
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_ip.h>

#include "bench.h"
#include "csum.h"

#define MAX_CONTENDERS 8
#define N_SIZES 5
#define ARENA_MAX ((size_t)1 << 30)

static const size_t sizes[N_SIZES] = { 64, 256, 1500, 9000, 65536 };

struct contender {
	const char *name;
	uint32_t (*fn)(const void *buf, size_t len, uint32_t sum);
};

static volatile uint32_t sink;

static uint32_t
dpdk_raw(const void *buf, size_t len, uint32_t sum)
{
	return sum + rte_raw_cksum(buf, len);
}

/* The ceiling: read every byte with the widest loads, do nothing else. */
__attribute__((target("avx2"))) static uint32_t
read_avx2(const void *buf, size_t len, uint32_t sum)
{
	const uint8_t *p = buf;
	__m256i a = _mm256_setzero_si256(), b = a;
	size_t i;

	for (i = 0; i + 64 <= len; i += 64) {
		a = _mm256_or_si256(a, _mm256_loadu_si256((const void *)(p + i)));
		b = _mm256_or_si256(b, _mm256_loadu_si256((const void *)(p + i + 32)));
	}
	for (; i + 32 <= len; i += 32)
		a = _mm256_or_si256(a, _mm256_loadu_si256((const void *)(p + i)));
	a = _mm256_or_si256(a, b);
	return sum + (uint32_t)_mm256_extract_epi32(a, 0) + (uint32_t)i;
}

__attribute__((target("avx512f"))) static uint32_t
read_avx512(const void *buf, size_t len, uint32_t sum)
{
	const uint8_t *p = buf;
	__m512i a = _mm512_setzero_si512(), b = a;
	size_t i;

	for (i = 0; i + 128 <= len; i += 128) {
		a = _mm512_or_si512(a, _mm512_loadu_si512(p + i));
		b = _mm512_or_si512(b, _mm512_loadu_si512(p + i + 64));
	}
	for (; i + 64 <= len; i += 64)
		a = _mm512_or_si512(a, _mm512_loadu_si512(p + i));
	a = _mm512_or_si512(a, b);
	return sum + (uint32_t)_mm512_reduce_or_epi32(a) + (uint32_t)i;
}

static uint32_t
read_scalar(const void *buf, size_t len, uint32_t sum)
{
	const uint64_t *p = buf;
	uint64_t a = 0;
	size_t i;

	for (i = 0; i < len / 8; i++)
		a |= p[i];
	return sum + (uint32_t)a;
}

/*
 * Bytes per second of fn on len-byte buffers: cache mode sums the same
 * buffer over and over; memory mode walks an arena bigger than the LLC.
 * In cache mode time is cut into short batches (about 20 us) and the
 * fastest batch counts: on a shared machine a batch that nobody interrupted
 * is the only comparable one. From memory, a short batch can be lucky (a
 * prefetcher ahead, another core's traffic idle), so there the rate over
 * the whole run counts, in batches of about 1 MiB.
 */
static double
measure(const struct contender *c, const uint8_t *arena, size_t arena_len,
	size_t len, bool memory, double min_time)
{
	size_t stride = (len + 63) & ~(size_t)63, pos = 0;
	unsigned long batch = (memory ? (1ul << 20) : 20000ul) / len + 1;
	uint32_t acc = 0;
	double start = bench_now(), best = 0, bytes = 0, busy = 0;

	do {
		double t0 = bench_now(), t;
		unsigned long k;

		for (k = 0; k < batch; k++) {
			acc = c->fn(arena + pos, len, acc);
			if (memory) {
				pos += stride;
				if (pos + len > arena_len)
					pos = 0;
			}
		}
		t = bench_now() - t0;
		if (t > 0 && batch * len / t > best)
			best = batch * len / t;
		bytes += (double)batch * len;
		busy += t;
	} while (bench_now() - start < min_time);
	sink = acc;
	return memory ? bytes / busy : best;
}

static size_t
llc_bytes(void)
{
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);

	if (l3 <= 0) {
		FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
		unsigned long kib;

		l3 = 32l << 20;
		if (f != NULL) {
			if (fscanf(f, "%luK", &kib) == 1)
				l3 = (long)(kib << 10);
			fclose(f);
		}
	}
	return (size_t)l3;
}

static void
usage(void)
{
	printf("usage: hwcsum-bench csum [--json PATH] [--rounds N] [--time SEC] "
	       "[--arena-mib N] [--quick]\n"
	       "  --json PATH    write results there (default build/bench/csum.json)\n"
	       "  --rounds N     interleaved rounds per point, best kept (default 5)\n"
	       "  --time SEC     minimum time per contender per round (default 0.02)\n"
	       "  --arena-mib N  memory-mode arena (default 2 x LLC, at most 1024)\n"
	       "  --quick        1 round, 5 ms: a smoke run\n"
	       "plot: /usr/bin/python3 app/hwcsum-bench/plot_csum.py PATH.json PATH.png\n");
}

static int
bench_csum_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, 't' },
		{ "arena-mib", required_argument, NULL, 'a' },
		{ "quick", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *json_path = "build/bench/csum.json";
	struct contender cs[MAX_CONTENDERS];
	double best[N_SIZES][2][MAX_CONTENDERS] = { { { 0 } } };
	unsigned int n_cs = 0, rounds = 5, n_impls, i, s, mode, r, raw_idx, ceil_idx;
	const struct csum_impl *impls = csum_impl_list(&n_impls);
	double min_time = 0.02;
	size_t arena_len = 0, llc = llc_bytes();
	uint8_t *arena;
	FILE *out;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': json_path = optarg; break;
		case 'r': rounds = (unsigned int)atoi(optarg); break;
		case 't': min_time = atof(optarg); break;
		case 'a': arena_len = (size_t)atol(optarg) << 20; break;
		case 'q': rounds = 1; min_time = 0.005; break;
		case 'h': usage(); return 0;
		default: usage(); return 2;
		}
	}
	if (rounds == 0 || rounds > 1000 || min_time <= 0 || min_time > 10) {
		fprintf(stderr, "bench csum: --rounds must be 1..1000 and --time in (0, 10]\n");
		return 2;
	}
	if (arena_len == 0)
		arena_len = llc * 2 < ARENA_MAX ? llc * 2 : ARENA_MAX;
	if (arena_len < (size_t)4 << 20)
		arena_len = (size_t)4 << 20;

	/* Contenders: the ceiling, DPDK, then each implementation we can run. */
	__builtin_cpu_init();
	ceil_idx = n_cs;
	cs[n_cs++] = (struct contender){ "read-ceiling",
		__builtin_cpu_supports("avx512f") ? read_avx512 :
		__builtin_cpu_supports("avx2") ? read_avx2 : read_scalar };
	raw_idx = n_cs;
	cs[n_cs++] = (struct contender){ "rte_raw_cksum", dpdk_raw };
	for (i = n_impls; i-- > 0 && n_cs < MAX_CONTENDERS;)
		if (impls[i].supported())
			cs[n_cs++] = (struct contender){ impls[i].name, impls[i].partial };
		else
			printf("(%s: not supported by this CPU)\n", impls[i].name);

	arena = aligned_alloc(64, arena_len);
	if (arena == NULL) {
		fprintf(stderr, "bench csum: cannot allocate a %zu MiB arena\n", arena_len >> 20);
		return 1;
	}
	for (i = 0; i < arena_len; i++)
		arena[i] = (uint8_t)(i * 131 + (i >> 12));
	printf("csum: LLC %zu MiB, memory arena %zu MiB, %u rounds x %.3f s, active impl %s\n",
	       llc >> 20, arena_len >> 20, rounds, min_time, csum_impl_active()->name);

	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++)
			for (r = 0; r < rounds; r++)
				for (i = 0; i < n_cs; i++) {
					double bps = measure(&cs[i], arena, mode ? arena_len : sizes[s],
							     sizes[s], mode, min_time);

					if (bps > best[s][mode][i])
						best[s][mode][i] = bps;
				}
	free(arena);

	/* Table: GB/s, then each implementation's ratio to DPDK and to the ceiling. */
	printf("\n%-7s %-6s", "size", "mode");
	for (i = 0; i < n_cs; i++)
		printf(" %13s", cs[i].name);
	printf("   x rte_raw_cksum");
	printf("\n");
	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++) {
			printf("%-7zu %-6s", sizes[s], mode ? "memory" : "cache");
			for (i = 0; i < n_cs; i++)
				printf(" %8.2f GB/s", best[s][mode][i] / 1e9);
			printf("  ");
			for (i = raw_idx + 1; i < n_cs; i++)
				printf(" %s %.2fx", cs[i].name,
				       best[s][mode][i] / best[s][mode][raw_idx]);
			printf("\n");
		}
	printf("\nfraction of the read ceiling (best implementation):\n");
	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++) {
			double top = 0;

			for (i = raw_idx + 1; i < n_cs; i++)
				if (best[s][mode][i] > top)
					top = best[s][mode][i];
			printf("  %6zu %-6s %.2f (rte_raw_cksum %.2f)\n", sizes[s],
			       mode ? "memory" : "cache", top / best[s][mode][ceil_idx],
			       best[s][mode][raw_idx] / best[s][mode][ceil_idx]);
		}

	out = bench_json_open("csum", json_path);
	if (out == NULL)
		return 1;
	fprintf(out, "{\n  \"benchmark\": \"csum\",\n  \"unit\": \"bytes_per_second\",\n"
		"  \"llc_bytes\": %zu,\n  \"arena_bytes\": %zu,\n  \"rounds\": %u,\n"
		"  \"min_time_s\": %g,\n  \"ceiling\": \"%s\",\n  \"peer\": \"%s\",\n"
		"  \"contenders\": [", llc, arena_len, rounds, min_time,
		cs[ceil_idx].name, cs[raw_idx].name);
	for (i = 0; i < n_cs; i++)
		fprintf(out, "%s\"%s\"", i ? ", " : "", cs[i].name);
	fprintf(out, "],\n  \"results\": [\n");
	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++)
			for (i = 0; i < n_cs; i++)
				fprintf(out, "    {\"size\": %zu, \"mode\": \"%s\", \"impl\": \"%s\", "
					"\"bytes_per_s\": %.0f, \"ratio_vs_peer\": %.4f, "
					"\"fraction_of_ceiling\": %.4f}%s\n",
					sizes[s], mode ? "memory" : "cache", cs[i].name,
					best[s][mode][i], best[s][mode][i] / best[s][mode][raw_idx],
					best[s][mode][i] / best[s][mode][ceil_idx],
					(s == N_SIZES - 1 && mode == 1 && i == n_cs - 1) ? "" : ",");
	fprintf(out, "  ]\n}\n");
	if (fclose(out) != 0) {
		fprintf(stderr, "bench csum: error writing %s\n", json_path);
		return 1;
	}
	printf("\nJSON: %s\n", json_path);
	return 0;
}

static struct bench bench_csum = {
	.name = "csum",
	.help = "ones' complement sum: our implementations vs rte_raw_cksum vs read bandwidth",
	.main = bench_csum_main,
};
BENCH_REGISTER(bench_csum)
