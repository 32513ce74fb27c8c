/* SPDX-License-Identifier: BSD-3-Clause */
/* Pseudo-headers, the IPv4 header checksum and RFC 1624 updates. */
#include <string.h>

#include "csum_impl.h"

static inline uint32_t
to_be32(uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return v;
#else
	return __builtin_bswap32(v);
#endif
}

uint32_t
csum_ipv4_pseudo(uint32_t src, uint32_t dst, uint32_t l4_len, uint8_t proto,
		 uint32_t sum)
{
	/* Zero, protocol, then the 16-bit length; as one big-endian word when
	 * the length fits, which it must for IPv4. */
	uint32_t proto_len = to_be32(((uint32_t)proto << 16) | (l4_len & 0xffff));

	sum = csum_add(sum, src);
	sum = csum_add(sum, dst);
	return csum_add(sum, proto_len);
}

uint32_t
csum_ipv6_pseudo(const void *src, const void *dst, uint32_t l4_len,
		 uint8_t proto, uint32_t sum)
{
	sum = csum_partial_scalar(src, 16, sum);
	sum = csum_partial_scalar(dst, 16, sum);
	sum = csum_add(sum, to_be32(l4_len));
	return csum_add(sum, to_be32(proto));
}

uint16_t
csum_ipv4_hdr(const void *hdr)
{
	const uint8_t *h = hdr;
	unsigned int len = (h[0] & 0xf) * 4;
	uint16_t field;

	memcpy(&field, h + 10, 2);
	/* Sum with the field in place, then take it out again. */
	return csum_finish(csum_sub(csum_partial_scalar(h, len, 0), field));
}

bool
csum_ipv4_hdr_ok(const void *hdr)
{
	const uint8_t *h = hdr;

	return csum_fold(csum_partial_scalar(h, (h[0] & 0xf) * 4, 0)) == 0xffff;
}

uint16_t
csum_update_buf(uint16_t check, const void *old_bytes, const void *new_bytes,
		size_t len)
{
	uint32_t sum = (uint16_t)~check;

	sum = csum_sub(sum, csum_partial_scalar(old_bytes, len, 0));
	sum = csum_add(sum, csum_partial_scalar(new_bytes, len, 0));
	return csum_finish(sum);
}
