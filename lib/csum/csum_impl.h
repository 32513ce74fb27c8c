/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_CSUM_IMPL_H
#define HWCSUM_CSUM_IMPL_H

/* Private to lib/csum: the per-CPU implementations of csum_partial(). */

#include <stddef.h>
#include <stdint.h>

#include "csum.h"

/*
 * Implementations accumulate into 64-bit lanes; splitting the buffer into
 * chunks of this many bytes keeps every lane far from overflow whatever the
 * length (an even size, so no chunk starts at an odd offset).
 */
#define CSUM_CHUNK ((size_t)1 << 30)

/*
 * Shorter buffers go scalar in every implementation: below this the vector
 * set-up and the final reduction cost more than they save (measured with
 * hwcsum-bench csum at 64 bytes, cache-resident and from memory).
 */
#define CSUM_VECTOR_MIN 128

static inline uint32_t
csum_fold64(uint64_t x)
{
	x = (x & 0xffffffff) + (x >> 32);
	x = (x & 0xffffffff) + (x >> 32);
	return (uint32_t)x;
}

/* Trailing odd byte: it is the first byte of a 16-bit word. */
static inline uint32_t
csum_odd_byte(uint8_t b)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (uint32_t)b << 8;
#else
	return b;
#endif
}

/*
 * Plain C sum of up to CSUM_CHUNK bytes, folded to 32 bits: 8-byte loads
 * split into 32-bit halves over two accumulators, so no carry is ever lost
 * and the two add chains run in parallel. Used by every implementation for
 * what is too short for vectors.
 */
static inline uint32_t
csum_scalar_chunk(const uint8_t *p, size_t len)
{
	uint64_t lo = 0, hi = 0;
	uint64_t v;
	uint32_t w;
	uint16_t h;

	while (len >= 16) {
		uint64_t v2;

		__builtin_memcpy(&v, p, 8);
		__builtin_memcpy(&v2, p + 8, 8);
		lo += (uint32_t)v;
		hi += v >> 32;
		lo += (uint32_t)v2;
		hi += v2 >> 32;
		p += 16;
		len -= 16;
	}
	if (len >= 8) {
		__builtin_memcpy(&v, p, 8);
		lo += (uint32_t)v;
		hi += v >> 32;
		p += 8;
		len -= 8;
	}
	if (len >= 4) {
		__builtin_memcpy(&w, p, 4);
		lo += w;
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		__builtin_memcpy(&h, p, 2);
		hi += h;
		p += 2;
		len -= 2;
	}
	if (len)
		lo += csum_odd_byte(*p);
	return csum_fold64(lo + hi);
}

uint32_t csum_partial_scalar(const void *buf, size_t len, uint32_t sum);
bool csum_scalar_supported(void);

#if defined(__x86_64__)
#define CSUM_HAVE_X86 1
uint32_t csum_partial_avx2(const void *buf, size_t len, uint32_t sum);
bool csum_avx2_supported(void);
uint32_t csum_partial_avx512(const void *buf, size_t len, uint32_t sum);
bool csum_avx512_supported(void);
#endif

/* Logs on stderr with the library's prefix. */
void csum_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
