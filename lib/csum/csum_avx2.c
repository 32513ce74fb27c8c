/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AVX2 csum_partial(). Built with a per-function target attribute so the
 * rest of the library keeps the distribution's baseline; only called after
 * __builtin_cpu_supports("avx2") said yes.
 *
 * Four independent accumulators, so loads never wait on each other.
 */
#include <immintrin.h>

#include "csum_impl.h"

#define AVX2 __attribute__((target("avx2")))

/*
 * vpmaddwd against ones adds pairs of 16-bit words into 32-bit lanes, one
 * instruction for what would otherwise be a mask, a shift and two adds. It
 * treats words as signed, so each word is first biased by 0x8000 (a xor):
 * every pair then comes out 65536 too small, which is added back at the
 * end from the byte count. A lane moves by at most 65536 per vector, so
 * 32-bit lanes are widened to 64 bits every BLOCK vectors.
 */
/* Vectors per accumulator between widenings: four accumulators of at most
 * (BLOCK + 3) * 65536 in magnitude still add up within an int32. */
#define BLOCK 8000

static inline AVX2 __m256i
widen(__m256i total, __m256i acc32)
{
	total = _mm256_add_epi64(total, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(acc32)));
	return _mm256_add_epi64(total, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(acc32, 1)));
}

static AVX2 uint32_t
avx2_chunk(const uint8_t *p, size_t len)
{
	const __m256i bias = _mm256_set1_epi16((short)0x8000);
	const __m256i ones = _mm256_set1_epi16(1);
	__m256i total = _mm256_setzero_si256();
	size_t vec_bytes = len & ~(size_t)31;
	int64_t lanes[4], signed_sum;

	while (len >= 32) {
		__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
		size_t n = 0;

		for (; len >= 128 && n < BLOCK; n++) {
			a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_xor_si256(
				_mm256_loadu_si256((const void *)p), bias), ones));
			a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_xor_si256(
				_mm256_loadu_si256((const void *)(p + 32)), bias), ones));
			a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(_mm256_xor_si256(
				_mm256_loadu_si256((const void *)(p + 64)), bias), ones));
			a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(_mm256_xor_si256(
				_mm256_loadu_si256((const void *)(p + 96)), bias), ones));
			p += 128;
			len -= 128;
		}
		if (len < 128) {
			/* Up to three more vectors: a0 has room, it took at most BLOCK. */
			while (len >= 32) {
				a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_xor_si256(
					_mm256_loadu_si256((const void *)p), bias), ones));
				p += 32;
				len -= 32;
			}
		}
		total = widen(total, _mm256_add_epi32(_mm256_add_epi32(a0, a1),
						      _mm256_add_epi32(a2, a3)));
	}
	_mm256_storeu_si256((void *)lanes, total);
	signed_sum = lanes[0] + lanes[1] + lanes[2] + lanes[3];
	/* Undo the bias: 65536 per pair of words, i.e. 16384 per byte. */
	return csum_fold64((uint64_t)(signed_sum + (int64_t)vec_bytes * 16384) +
			   csum_scalar_chunk(p, len));
}

AVX2 uint32_t
csum_partial_avx2(const void *buf, size_t len, uint32_t sum)
{
	const uint8_t *p = buf;

	if (len < CSUM_VECTOR_MIN)
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
