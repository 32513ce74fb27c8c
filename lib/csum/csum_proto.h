/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_CSUM_PROTO_H
#define HWCSUM_CSUM_PROTO_H

/**
 * @file
 * The protocol numbers and L4 checksum field offsets that lib/csum, the
 * PMD and the gateway all use, defined once: the numbers are the C
 * library's IPPROTO_*, the offsets count from the start of the L4 header
 * (what CHECKSUM_PARTIAL's csum_offset holds), and the one reader of a
 * big-endian 16-bit header field they all use.
 */

#include <stdint.h>
#include <netinet/in.h>	/* IPPROTO_* */

#define CSUM_UDP_OFFSET  6	/**< RFC 768 */
#define CSUM_TCP_OFFSET  16	/**< RFC 9293 */
#define CSUM_SCTP_OFFSET 8	/**< RFC 9260: the CRC32c, not a ones' complement sum */

/** The big-endian 16-bit field at p (any alignment), in host order. */
static inline uint16_t
csum_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

#endif /* HWCSUM_CSUM_PROTO_H */
