/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AVX-512 csum_partial(): the AVX2 scheme on 64-byte vectors, with a masked
 * load for the tail so that nothing but the last partial word goes scalar.
 */
#include <immintrin.h>

#include "csum_impl.h"

#define AVX512 __attribute__((target("avx512f,avx512bw")))

static inline AVX512 __m512i
acc_add(__m512i acc, __m512i v, __m512i low32)
{
	acc = _mm512_add_epi64(acc, _mm512_and_si512(v, low32));
	return _mm512_add_epi64(acc, _mm512_srli_epi64(v, 32));
}

static AVX512 uint32_t
avx512_chunk(const uint8_t *p, size_t len)
{
	const __m512i low32 = _mm512_set1_epi64(0xffffffff);
	__m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
	uint64_t total;

	while (len >= 256) {
		a0 = acc_add(a0, _mm512_loadu_si512(p), low32);
		a1 = acc_add(a1, _mm512_loadu_si512(p + 64), low32);
		a2 = acc_add(a2, _mm512_loadu_si512(p + 128), low32);
		a3 = acc_add(a3, _mm512_loadu_si512(p + 192), low32);
		p += 256;
		len -= 256;
	}
	while (len >= 64) {
		a0 = acc_add(a0, _mm512_loadu_si512(p), low32);
		p += 64;
		len -= 64;
	}
	if (len >= 4) {
		/* Whole 32-bit words of the tail; masked-off bytes read as 0 and never fault. */
		__mmask64 m = (len & ~(size_t)3) == 64 ? ~(__mmask64)0 :
			((__mmask64)1 << (len & ~(size_t)3)) - 1;

		a1 = acc_add(a1, _mm512_maskz_loadu_epi8(m, p), low32);
		p += len & ~(size_t)3;
		len &= 3;
	}
	a0 = _mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3));
	/* Lanes stay below 2^58 for a 1 GiB chunk: the reduction cannot overflow. */
	total = _mm512_reduce_add_epi64(a0);
	total += csum_scalar_chunk(p, len);
	return csum_fold64(total);
}

AVX512 uint32_t
csum_partial_avx512(const void *buf, size_t len, uint32_t sum)
{
	const uint8_t *p = buf;

	if (len < 64)
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
