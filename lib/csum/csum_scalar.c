/* SPDX-License-Identifier: BSD-3-Clause */
/* Portable csum_partial(): the baseline every CPU runs. */
#include "csum_impl.h"

uint32_t
csum_partial_scalar(const void *buf, size_t len, uint32_t sum)
{
	const uint8_t *p = buf;

	while (len > CSUM_CHUNK) {
		sum = csum_add(sum, csum_scalar_chunk(p, CSUM_CHUNK));
		p += CSUM_CHUNK;
		len -= CSUM_CHUNK;
	}
	return csum_add(sum, csum_scalar_chunk(p, len));
}

bool
csum_scalar_supported(void)
{
	return true;
}
