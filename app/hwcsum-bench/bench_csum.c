/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hwcsum-bench csum: GB/s and cycles per byte of every csum_partial()
 * implementation beside DPDK's rte_raw_cksum (compiled here, same flags,
 * same buffers, same run), beside Linux's x86-64 csum_partial() (the
 * kernel's own arch/x86/lib/csum-partial_64.c, compiled for user space by
 * linux-csum/build.sh and loaded with --linux-csum) and beside the
 * machine's plain read bandwidth (the ceiling: no checksum can read
 * faster), cache-resident and from memory, with the ratios.
 *
 * Before any timing, every contender must give the same folded sum as
 * rte_raw_cksum on every size measured at every alignment (and on short
 * buffers ending at an unmapped page): a mismatch stops the run.
 *
 * The machine is shared: each (size, mode) is measured as several rounds
 * that interleave all contenders, each round as many short batches, and
 * the fastest batch of each contender is kept, so a neighbour's burst hits
 * everyone alike. Only ratios mean anything.
 */
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ip.h>

#include "bench.h"
#include "csum.h"

#ifndef HWCSUM_BENCH_OPT
#define HWCSUM_BENCH_OPT "?"
#endif

#define MAX_CONTENDERS 8
#define N_SIZES 6
#define ARENA_MAX ((size_t)1 << 30)
#define LINUX_NAME "linux_csum_partial"
/* Table column width: the contender's name, at least 8. */
#define COL(name) (strlen(name) > 8 ? (int)strlen(name) : 8)

/* 1552: the size the kernel's csum_partial() rewrite quotes cycles for. */
static const size_t sizes[N_SIZES] = { 64, 256, 1500, 1552, 9000, 65536 };

/* Linux's signature: int length, __wsum (a u32) in and out. */
typedef uint32_t (*linux_csum_fn)(const void *buff, int len, uint32_t sum);

struct contender {
	const char *name;
	uint32_t (*fn)(const void *buf, size_t len, uint32_t sum);
	linux_csum_fn linux_fn;		/* instead of fn, for Linux's */
};

struct rate {
	double bytes_per_s;
	double cycles_per_byte;		/* TSC (reference) cycles */
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

/* One call of a contender, whichever signature it has. */
static inline uint32_t
call(const struct contender *c, const void *buf, size_t len, uint32_t sum)
{
	return c->linux_fn != NULL ? c->linux_fn(buf, (int)len, sum) : c->fn(buf, len, sum);
}

/*
 * Bytes per second (and TSC cycles per byte) of a contender on len-byte
 * buffers: cache mode sums the same buffer over and over; memory mode walks
 * an arena bigger than the LLC. In cache mode time is cut into short
 * batches (about 20 us) and the fastest batch counts: on a shared machine a
 * batch that nobody interrupted is the only comparable one. From memory, a
 * short batch can be lucky (a prefetcher ahead, another core's traffic
 * idle), so there the rate over the whole run counts, in batches of about
 * 1 MiB. Inlined once per signature (is_linux), so neither kind of contender
 * pays a test per call.
 */
static inline __attribute__((always_inline)) struct rate
measure_loop(const struct contender *c, const uint8_t *arena, size_t arena_len,
	     size_t len, bool memory, double min_time, bool is_linux)
{
	size_t stride = (len + 63) & ~(size_t)63, pos = 0;
	unsigned long batch = (memory ? (1ul << 20) : 20000ul) / len + 1;
	uint32_t acc = 0;
	double start = bench_now(), best = 0, best_cyc = 0, bytes = 0, busy = 0, cycles = 0;

	do {
		double t0 = bench_now(), t;
		uint64_t c0 = rte_rdtsc(), cyc;
		unsigned long k;

		for (k = 0; k < batch; k++) {
			acc = is_linux ? c->linux_fn(arena + pos, (int)len, acc) :
				      c->fn(arena + pos, len, acc);
			if (memory) {
				pos += stride;
				if (pos + len > arena_len)
					pos = 0;
			}
		}
		cyc = rte_rdtsc() - c0;
		t = bench_now() - t0;
		if (t > 0 && batch * len / t > best) {
			best = batch * len / t;
			best_cyc = (double)cyc / ((double)batch * len);
		}
		bytes += (double)batch * len;
		busy += t;
		cycles += (double)cyc;
	} while (bench_now() - start < min_time);
	sink = acc;
	if (memory)
		return (struct rate){ bytes / busy, cycles / bytes };
	return (struct rate){ best, best_cyc };
}

static struct rate
measure(const struct contender *c, const uint8_t *arena, size_t arena_len,
	size_t len, bool memory, double min_time)
{
	if (c->linux_fn != NULL)
		return measure_loop(c, arena, arena_len, len, memory, min_time, true);
	return measure_loop(c, arena, arena_len, len, memory, min_time, false);
}

/* TSC ticks per second, against CLOCK_MONOTONIC over about 50 ms. */
static double
tsc_hz(void)
{
	double t0 = bench_now(), t;
	uint64_t c0 = rte_rdtsc();

	while ((t = bench_now() - t0) < 0.05)
		;
	return (double)(rte_rdtsc() - c0) / t;
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

/*
 * Linux's csum_partial() from the shared object linux-csum/build.sh makes
 * (dlopen: the normal build never depends on a kernel tree). The object
 * says which kernel it was compiled from and how.
 */
static int
linux_load(const char *path, linux_csum_fn *fn, const char **source, const char **cflags)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		fprintf(stderr, "bench csum: cannot load Linux's csum_partial: %s\n"
			"  (build it with app/hwcsum-bench/linux-csum/build.sh, which prints the path)\n",
			dlerror());
		return -1;
	}
	*fn = (linux_csum_fn)dlsym(h, "csum_partial");
	*source = dlsym(h, "hwcsum_linux_csum_source");
	*cflags = dlsym(h, "hwcsum_linux_csum_cflags");
	if (*fn == NULL || *source == NULL || *cflags == NULL) {
		fprintf(stderr, "bench csum: %s is not linux-csum/build.sh's object "
			"(no csum_partial or hwcsum_linux_csum_source)\n", path);
		return -1;
	}
	/* Same name as ours: the object's own must be the one found. */
	if ((void *)*fn == (void *)csum_partial) {
		fprintf(stderr, "bench csum: dlsym(csum_partial) in %s found lib/csum's\n", path);
		return -1;
	}
	return 0;
}

/* The folded sum of every checksum contender (not the ceiling) on one buffer. */
static int
check_one(const struct contender *cs, unsigned int n_cs, unsigned int raw_idx,
	  const uint8_t *buf, size_t len, uint32_t seed, const char *where)
{
	uint16_t want = csum_fold(csum_add(rte_raw_cksum(buf, len), seed));
	unsigned int i;

	for (i = raw_idx + 1; i < n_cs; i++) {
		uint16_t got = csum_fold(call(&cs[i], buf, len, seed));

		if (got != want)
			break;
	}
	if (i == n_cs)
		return 0;
	fprintf(stderr, "bench csum: MISMATCH on %zu bytes at address offset %u mod 64, "
		"seed 0x%08x (%s): folded sums", len, (unsigned int)((uintptr_t)buf & 63),
		seed, where);
	for (i = raw_idx; i < n_cs; i++)
		fprintf(stderr, "%s %s 0x%04x", i == raw_idx ? "" : ",", cs[i].name,
			i == raw_idx ? want : csum_fold(call(&cs[i], buf, len, seed)));
	fprintf(stderr, "\n");
	return -1;
}

/*
 * Before timing: every size measured, at every alignment mod 64 (the
 * measured buffers are 64-byte aligned) and at the arena positions the
 * memory mode walks first; every length up to 600 at 16 alignments; every
 * length up to 64 ending right before an unmapped page (Linux's tail
 * load, load_unaligned_zeropad(), reads up to 7 bytes past the buffer);
 * buffers of all-zero and all-one bytes; zero and non-zero seeds.
 * Returns the number of buffers checked, or -1 after a mismatch.
 */
static long
check_all(const struct contender *cs, unsigned int n_cs, unsigned int raw_idx,
	  const uint8_t *arena, size_t arena_len)
{
	static const uint32_t seeds[] = { 0, 0xfffefffd, 0x00012345 };
	long page = sysconf(_SC_PAGESIZE), checked = 0;
	size_t big = sizes[N_SIZES - 1] + 128, len, off, s, k;
	uint8_t *buf = aligned_alloc(64, big), *guard;
	unsigned int seed;
	int fill;

	guard = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == NULL || guard == MAP_FAILED) {
		fprintf(stderr, "bench csum: cannot allocate the check buffers\n");
		free(buf);
		return -1;
	}
	mprotect(guard + page, page, PROT_NONE);
	for (seed = 0; seed < sizeof(seeds) / sizeof(seeds[0]); seed++) {
		for (fill = -1; fill <= 0xff; fill += 0xff + (fill < 0)) {
			/* fill -1: pseudo-random bytes; then 0x00 and 0xff. */
			for (k = 0; k < big; k++)
				buf[k] = fill < 0 ? (uint8_t)((k * 2654435761u) >> 13) : (uint8_t)fill;
			for (s = 0; s < N_SIZES; s++)
				for (off = 0; off < 64; off++, checked++)
					if (check_one(cs, n_cs, raw_idx, buf + off, sizes[s],
						      seeds[seed], "measured size") < 0)
						goto fail;
			for (len = 0; len <= 600; len++)
				for (off = 0; off < 16; off++, checked++)
					if (check_one(cs, n_cs, raw_idx, buf + off, len,
						      seeds[seed], "short length") < 0)
						goto fail;
			memcpy(guard, buf, page);
			for (len = 0; len <= 64; len++, checked++)
				if (check_one(cs, n_cs, raw_idx, guard + page - len, len,
					      seeds[seed], "ending at an unmapped page") < 0)
					goto fail;
		}
		for (s = 0; s < N_SIZES; s++) {
			size_t stride = (sizes[s] + 63) & ~(size_t)63, pos;

			for (pos = 0, k = 0; k < 64 && pos + sizes[s] <= arena_len;
			     k++, pos += stride, checked++)
				if (check_one(cs, n_cs, raw_idx, arena + pos, sizes[s],
					      seeds[seed], "benchmark arena") < 0)
					goto fail;
		}
	}
	munmap(guard, 2 * page);
	free(buf);
	return checked;
fail:
	munmap(guard, 2 * page);
	free(buf);
	return -1;
}

static void
usage(void)
{
	printf("usage: hwcsum-bench csum [--json PATH] [--linux-csum SO] [--rounds N] [--time SEC] "
	       "[--arena-mib N] [--quick]\n"
	       "  --json PATH       write results there (default build/bench/csum.json)\n"
	       "  --linux-csum SO   also measure Linux's csum_partial from SO, the object\n"
	       "                    app/hwcsum-bench/linux-csum/build.sh prints (default\n"
	       "                    $HWCSUM_LINUX_CSUM; devtools/bench.sh passes it)\n"
	       "  --rounds N        interleaved rounds per point, best kept (default 5)\n"
	       "  --time SEC        minimum time per contender per round (default 0.02)\n"
	       "  --arena-mib N     memory-mode arena (default 2 x LLC, at most 1024)\n"
	       "  --quick           1 round, 5 ms: a smoke run\n"
	       "plot: /usr/bin/python3 app/hwcsum-bench/plot_csum.py PATH.json PATH.png\n");
}

/* A row per size and mode, a column per contender: GB/s or cycles per byte. */
static void
print_rate_table(const struct contender *cs, unsigned int n_cs,
		 struct rate best[N_SIZES][2][MAX_CONTENDERS], bool cycles)
{
	unsigned int s, mode, i;

	printf("%-7s %-6s", "size", "mode");
	for (i = 0; i < n_cs; i++)
		printf(" %*s", COL(cs[i].name), cs[i].name);
	printf("\n");
	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++) {
			printf("%-7zu %-6s", sizes[s], mode ? "memory" : "cache");
			for (i = 0; i < n_cs; i++) {
				const struct rate *b = &best[s][mode][i];

				if (cycles)
					printf(" %*.3f", COL(cs[i].name), b->cycles_per_byte);
				else
					printf(" %*.2f", COL(cs[i].name), b->bytes_per_s / 1e9);
			}
			printf("\n");
		}
}

static int
bench_csum_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "linux-csum", required_argument, NULL, 'l' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, 't' },
		{ "arena-mib", required_argument, NULL, 'a' },
		{ "quick", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *json_path = "build/bench/csum.json", *linux_path = getenv("HWCSUM_LINUX_CSUM");
	const char *linux_source = NULL, *linux_cflags = NULL;
	struct contender cs[MAX_CONTENDERS];
	struct rate best[N_SIZES][2][MAX_CONTENDERS];
	unsigned int n_cs = 0, rounds = 5, n_impls, i, s, mode, r, raw_idx, ceil_idx, ours_idx;
	unsigned int linux_idx = MAX_CONTENDERS;
	const struct csum_impl *impls = csum_impl_list(&n_impls);
	double min_time = 0.02, hz;
	size_t arena_len = 0, llc = llc_bytes();
	linux_csum_fn linux_fn = NULL;
	uint8_t *arena;
	long checked;
	FILE *out;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': json_path = optarg; break;
		case 'l': linux_path = optarg; break;
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
	if (linux_path != NULL && *linux_path != '\0' &&
	    linux_load(linux_path, &linux_fn, &linux_source, &linux_cflags) < 0)
		return 1;

	/* Contenders: the ceiling, DPDK, Linux, then each implementation we can run. */
	__builtin_cpu_init();
	memset(cs, 0, sizeof(cs));
	memset(best, 0, sizeof(best));
	ceil_idx = n_cs;
	cs[n_cs++] = (struct contender){ "read-ceiling",
		__builtin_cpu_supports("avx512f") ? read_avx512 :
		__builtin_cpu_supports("avx2") ? read_avx2 : read_scalar, NULL };
	raw_idx = n_cs;
	cs[n_cs++] = (struct contender){ "rte_raw_cksum", dpdk_raw, NULL };
	if (linux_fn != NULL) {
		linux_idx = n_cs;
		cs[n_cs++] = (struct contender){ LINUX_NAME, NULL, linux_fn };
	} else {
		printf("(%s: not measured; pass --linux-csum, as devtools/bench.sh does)\n",
		       LINUX_NAME);
	}
	ours_idx = n_cs;
	for (i = n_impls; i-- > 0 && n_cs < MAX_CONTENDERS;)
		if (impls[i].supported())
			cs[n_cs++] = (struct contender){ impls[i].name, impls[i].partial, NULL };
		else
			printf("(%s: not supported by this CPU)\n", impls[i].name);

	arena = aligned_alloc(64, arena_len);
	if (arena == NULL) {
		fprintf(stderr, "bench csum: cannot allocate a %zu MiB arena\n", arena_len >> 20);
		return 1;
	}
	for (i = 0; i < arena_len; i++)
		arena[i] = (uint8_t)(i * 131 + (i >> 12));

	checked = check_all(cs, n_cs, raw_idx, arena, arena_len);
	if (checked < 0) {
		fprintf(stderr, "bench csum: contenders disagree: nothing timed\n");
		free(arena);
		return 1;
	}
	hz = tsc_hz();
	printf("csum: LLC %zu MiB, memory arena %zu MiB, %u rounds x %.3f s, active impl %s, "
	       "-O%s, TSC %.3f GHz\n", llc >> 20, arena_len >> 20, rounds, min_time,
	       csum_impl_active()->name, HWCSUM_BENCH_OPT, hz / 1e9);
	if (linux_fn != NULL)
		printf("linux: %s, %s\n", linux_source, linux_cflags);
	printf("check: %ld buffers, every contender's folded sum equal to rte_raw_cksum's\n",
	       checked);

	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++)
			for (r = 0; r < rounds; r++)
				for (i = 0; i < n_cs; i++) {
					struct rate got = measure(&cs[i], arena,
								  mode ? arena_len : sizes[s],
								  sizes[s], mode, min_time);

					if (got.bytes_per_s > best[s][mode][i].bytes_per_s)
						best[s][mode][i] = got;
				}
	free(arena);

	/* Tables: GB/s, cycles per byte, then the ratios to DPDK and to Linux. */
	printf("\nGB/s\n");
	print_rate_table(cs, n_cs, best, false);
	printf("\ncycles per byte (TSC: reference cycles at %.3f GHz, not core clocks)\n",
	       hz / 1e9);
	print_rate_table(cs, n_cs, best, true);
	printf("\nspeed ratios (>1: faster than the peer): x %s", cs[raw_idx].name);
	if (linux_idx < n_cs)
		printf(" | x %s", LINUX_NAME);
	printf("\n%-7s %-6s", "size", "mode");
	for (i = raw_idx + 1; i < n_cs; i++)
		printf(" %*s", COL(cs[i].name), cs[i].name);
	if (linux_idx < n_cs) {
		printf(" |");
		for (i = ours_idx; i < n_cs; i++)
			printf(" %*s", COL(cs[i].name), cs[i].name);
	}
	printf("\n");
	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++) {
			printf("%-7zu %-6s", sizes[s], mode ? "memory" : "cache");
			for (i = raw_idx + 1; i < n_cs; i++)
				printf(" %*.2f", COL(cs[i].name),
				       best[s][mode][i].bytes_per_s / best[s][mode][raw_idx].bytes_per_s);
			if (linux_idx < n_cs) {
				printf(" |");
				for (i = ours_idx; i < n_cs; i++)
					printf(" %*.2f", COL(cs[i].name),
					       best[s][mode][i].bytes_per_s /
					       best[s][mode][linux_idx].bytes_per_s);
			}
			printf("\n");
		}
	if (linux_idx < n_cs)
		for (s = 0; s < N_SIZES; s++)
			if (sizes[s] == 1552)
				printf("\n%s on 1552 bytes, cache-resident: %.0f TSC cycles per call "
				       "(its commit message quotes ~72 cycles on Ice Lake)\n",
				       LINUX_NAME, best[s][0][linux_idx].cycles_per_byte * 1552);
	printf("\nfraction of the read ceiling (best implementation):\n");
	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++) {
			double top = 0;

			for (i = ours_idx; i < n_cs; i++)
				if (best[s][mode][i].bytes_per_s > top)
					top = best[s][mode][i].bytes_per_s;
			printf("  %6zu %-6s %.2f (rte_raw_cksum %.2f", sizes[s],
			       mode ? "memory" : "cache", top / best[s][mode][ceil_idx].bytes_per_s,
			       best[s][mode][raw_idx].bytes_per_s / best[s][mode][ceil_idx].bytes_per_s);
			if (linux_idx < n_cs)
				printf(", %s %.2f", LINUX_NAME,
				       best[s][mode][linux_idx].bytes_per_s /
				       best[s][mode][ceil_idx].bytes_per_s);
			printf(")\n");
		}

	out = bench_json_open("csum", json_path);
	if (out == NULL)
		return 1;
	fprintf(out, "{\n  \"benchmark\": \"csum\",\n  \"unit\": \"bytes_per_second\",\n"
		"  \"optimization\": \"%s\",\n  \"tsc_hz\": %.0f,\n"
		"  \"cycles\": \"TSC (rte_rdtsc): reference cycles at tsc_hz, not core clocks\",\n"
		"  \"llc_bytes\": %zu,\n  \"arena_bytes\": %zu,\n  \"rounds\": %u,\n"
		"  \"min_time_s\": %g,\n  \"checked_buffers\": %ld,\n"
		"  \"ceiling\": \"%s\",\n  \"peer\": \"%s\",\n",
		HWCSUM_BENCH_OPT, hz, llc, arena_len, rounds, min_time, checked,
		cs[ceil_idx].name, cs[raw_idx].name);
	if (linux_idx < n_cs)
		fprintf(out, "  \"linux_peer\": \"%s\",\n  \"linux_source\": \"%s\",\n"
			"  \"linux_cflags\": \"%s\",\n", LINUX_NAME, linux_source, linux_cflags);
	fprintf(out, "  \"contenders\": [");
	for (i = 0; i < n_cs; i++)
		fprintf(out, "%s\"%s\"", i ? ", " : "", cs[i].name);
	fprintf(out, "],\n  \"results\": [\n");
	for (s = 0; s < N_SIZES; s++)
		for (mode = 0; mode < 2; mode++)
			for (i = 0; i < n_cs; i++) {
				const struct rate *b = &best[s][mode][i];

				fprintf(out, "    {\"size\": %zu, \"mode\": \"%s\", \"impl\": \"%s\", "
					"\"bytes_per_s\": %.0f, \"cycles_per_byte\": %.4f, "
					"\"cycles_per_call\": %.1f, \"ratio_vs_peer\": %.4f, ",
					sizes[s], mode ? "memory" : "cache", cs[i].name,
					b->bytes_per_s, b->cycles_per_byte, b->cycles_per_byte * sizes[s],
					b->bytes_per_s / best[s][mode][raw_idx].bytes_per_s);
				if (linux_idx < n_cs)
					fprintf(out, "\"ratio_vs_linux\": %.4f, ", b->bytes_per_s /
						best[s][mode][linux_idx].bytes_per_s);
				fprintf(out, "\"fraction_of_ceiling\": %.4f}%s\n",
					b->bytes_per_s / best[s][mode][ceil_idx].bytes_per_s,
					(s == N_SIZES - 1 && mode == 1 && i == n_cs - 1) ? "" : ",");
			}
	return bench_json_close("csum", out, json_path);
}

BENCH_REGISTER(csum,
	       "ones' complement sum: ours vs rte_raw_cksum vs Linux's csum_partial vs read bandwidth",
	       bench_csum_main)
