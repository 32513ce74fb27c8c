/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AVX-512 csum_partial(): the AVX2 scheme on 64-byte vectors, with a masked
 * load for the tail so that nothing but the last partial word goes scalar.
 */
#include <immintrin.h>

#include "csum_impl.h"

#define AVX512 __attribute__((target("avx512f,avx512bw")))

/* As in csum_avx2.c: biased words, vpmaddwd into 32-bit lanes, widened
 * every BLOCK vectors, the bias added back from the byte count. */
/* Vectors per accumulator between widenings: four accumulators of at most
 * (BLOCK + 3) * 65536 in magnitude still add up within an int32. */
#define BLOCK 8000

static inline AVX512 __m512i
madd(__m512i acc, __m512i v)
{
	const __m512i bias = _mm512_set1_epi16((short)0x8000);
	const __m512i ones = _mm512_set1_epi16(1);

	return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_xor_si512(v, bias), ones));
}

static inline AVX512 __m512i
widen(__m512i total, __m512i acc32)
{
	total = _mm512_add_epi64(total, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(acc32)));
	return _mm512_add_epi64(total, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(acc32, 1)));
}

static AVX512 uint32_t
avx512_chunk(const uint8_t *p, size_t len)
{
	__m512i total = _mm512_setzero_si512();
	/* Bytes seen as whole vectors (a masked tail counts 64: its zeroed
	 * bytes were biased like the others). */
	size_t vec_bytes = len < 64 ? 0 :
		(len & ~(size_t)63) + ((len & 63) >= 4 ? 64 : 0);
	int64_t signed_sum;

	while (len >= 64) {
		__m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
		size_t n = 0;

		for (; len >= 256 && n < BLOCK; n++) {
			a0 = madd(a0, _mm512_loadu_si512(p));
			a1 = madd(a1, _mm512_loadu_si512(p + 64));
			a2 = madd(a2, _mm512_loadu_si512(p + 128));
			a3 = madd(a3, _mm512_loadu_si512(p + 192));
			p += 256;
			len -= 256;
		}
		if (len < 256) {
			/* At most three more vectors and the tail: a0 has room. */
			while (len >= 64) {
				a1 = madd(a1, _mm512_loadu_si512(p));
				p += 64;
				len -= 64;
			}
			if (len >= 4) {
				/* Whole 32-bit words of the tail; masked-off bytes read as 0
				 * (biased like the rest, counted in vec_bytes) and never fault. */
				__mmask64 m = ((__mmask64)1 << (len & ~(size_t)3)) - 1;

				a2 = madd(a2, _mm512_maskz_loadu_epi8(m, p));
				p += len & ~(size_t)3;
				len &= 3;
			}
		}
		total = widen(total, _mm512_add_epi32(_mm512_add_epi32(a0, a1),
						      _mm512_add_epi32(a2, a3)));
	}
	signed_sum = _mm512_reduce_add_epi64(total);
	/* Undo the bias: 65536 per pair of words, i.e. 16384 per vector byte. */
	return csum_fold64((uint64_t)(signed_sum + (int64_t)vec_bytes * 16384) +
			   csum_scalar_chunk(p, len));
}

AVX512 uint32_t
csum_partial_avx512(const void *buf, size_t len, uint32_t sum)
{
	const uint8_t *p = buf;

	if (len < CSUM_VECTOR_MIN)
		return csum_add(sum, csum_scalar_chunk(p, len));
	while (len > CSUM_CHUNK) {
		sum = csum_add(sum, avx512_chunk(p, CSUM_CHUNK));
		p += CSUM_CHUNK;
		len -= CSUM_CHUNK;
	}
	return csum_add(sum, avx512_chunk(p, len));
}

bool
csum_avx512_supported(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") &&
		__builtin_cpu_supports("avx512bw");
}
