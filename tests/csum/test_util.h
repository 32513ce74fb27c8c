/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TEST_CSUM_UTIL_H
#define HWCSUM_TEST_CSUM_UTIL_H

/*
 * Shared by the csum tests: tests/lib's CHECK (the first 20 failures
 * printed) and harness_summary(), a seeded PRNG
 * (seed printed so a failure can be replayed with CSUM_TEST_SEED), and the
 * plain byte-by-byte reference sum everything is compared against.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define HARNESS_PRINT_MAX 20
#include "../lib/test_harness.h"

static uint64_t rng_state;

static inline uint64_t
rng(void)
{
	/* splitmix64: small, good enough, reproducible. */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t
rng_below(uint32_t n)
{
	return n ? (uint32_t)(rng() % n) : 0;
}

static inline void
rng_fill(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len--)
		*p++ = (uint8_t)rng();
}

static inline void
rng_seed_from_env(const char *test)
{
	const char *s = getenv("CSUM_TEST_SEED");

	rng_state = s ? strtoull(s, NULL, 0) : 0x1071c0ffee;
	printf("%s: seed 0x%" PRIx64 " (CSUM_TEST_SEED to replay)\n", test, rng_state);
}

/* Reference: RFC 1071 by the book, one byte at a time, 64-bit accumulator. */
static inline uint16_t
ref_fold(const void *buf, size_t len, uint64_t sum)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		sum += (i & 1) ? p[i] : (uint64_t)p[i] << 8;
#else
		sum += (i & 1) ? (uint64_t)p[i] << 8 : p[i];
#endif
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

#endif
