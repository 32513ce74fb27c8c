/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AVX2 csum_partial(). Built with a per-function target attribute so the
 * rest of the library keeps the distribution's baseline; only called after
 * __builtin_cpu_supports("avx2") said yes.
 *
 * Each 32-byte load is split into its 32-bit words, zero-extended into
 * 64-bit lanes (mask and shift, no shuffle port), and added to one of four
 * accumulators: no carry handling in the loop, no dependency between loads.
 */
#include <immintrin.h>

#include "csum_impl.h"

#define AVX2 __attribute__((target("avx2")))

static inline AVX2 __m256i
acc_add(__m256i acc, __m256i v, __m256i low32)
{
	acc = _mm256_add_epi64(acc, _mm256_and_si256(v, low32));
	return _mm256_add_epi64(acc, _mm256_srli_epi64(v, 32));
}

static AVX2 uint32_t
avx2_chunk(const uint8_t *p, size_t len)
{
	const __m256i low32 = _mm256_set1_epi64x(0xffffffff);
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
	uint64_t lanes[4], total;

	while (len >= 128) {
		a0 = acc_add(a0, _mm256_loadu_si256((const void *)p), low32);
		a1 = acc_add(a1, _mm256_loadu_si256((const void *)(p + 32)), low32);
		a2 = acc_add(a2, _mm256_loadu_si256((const void *)(p + 64)), low32);
		a3 = acc_add(a3, _mm256_loadu_si256((const void *)(p + 96)), low32);
		p += 128;
		len -= 128;
	}
	while (len >= 32) {
		a0 = acc_add(a0, _mm256_loadu_si256((const void *)p), low32);
		p += 32;
		len -= 32;
	}
	a0 = _mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3));
	_mm256_storeu_si256((void *)lanes, a0);
	/* Each lane is below 2^59 for a chunk of 1 GiB: no overflow here. */
	total = lanes[0] + lanes[1] + lanes[2] + lanes[3];
	total += csum_scalar_chunk(p, len);
	return csum_fold64(total);
}

AVX2 uint32_t
csum_partial_avx2(const void *buf, size_t len, uint32_t sum)
{
	const uint8_t *p = buf;

	/* Below two vectors the set-up and the reduction cost more than they save. */
	if (len < 64)
		return csum_add(sum, csum_scalar_chunk(p, len));
	while (len > CSUM_CHUNK) {
		sum = csum_add(sum, avx2_chunk(p, CSUM_CHUNK));
		p += CSUM_CHUNK;
		len -= CSUM_CHUNK;
	}
	return csum_add(sum, avx2_chunk(p, len));
}

bool
csum_avx2_supported(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}
