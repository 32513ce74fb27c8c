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

/* Up to CSUM_CHUNK bytes in plain C (csum.h): what is too short for vectors. */
static inline uint32_t
csum_scalar_chunk(const uint8_t *p, size_t len)
{
	return csum_scalar_block(p, len);
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
