/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TEST_RNG_H
#define HWCSUM_TEST_RNG_H

#include <stdint.h>

/* Marsaglia's xorshift32: reproducible from a nonzero seed on every libc. */
static inline uint32_t
test_xorshift32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

#endif
