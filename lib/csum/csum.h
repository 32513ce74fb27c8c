/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_CSUM_H
#define HWCSUM_CSUM_H

/**
 * @file
 * Internet checksum (RFC 1071) core: no DPDK dependency.
 *
 * Conventions (the same as Linux's __wsum/__sum16 and DPDK's rte_raw_cksum):
 *
 * - A *partial sum* is a uint32_t ones' complement accumulator of 16-bit
 *   words read in host order from memory ("memory order"). It is unfolded:
 *   many 32-bit values stand for the same 16-bit sum. Add partial sums with
 *   csum_add(), never with '+'.
 * - A *folded sum* (uint16_t) is a partial sum reduced to 16 bits, not
 *   complemented. A *checksum* is the complement of a folded sum.
 * - Both are in memory order: storing one with memcpy() or a uint16_t store
 *   writes the right bytes into a packet, on any host byte order. So do not
 *   apply htons()/ntohs() to them; do convert header fields that you
 *   compute (lengths, protocol numbers) to network order before summing.
 * - A region that starts at an odd offset from the start of the region it is
 *   part of must be combined with csum_block_add(), which rotates it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Partial sum of len bytes at buf (any length, any alignment) added to sum. */
uint32_t csum_partial(const void *buf, size_t len, uint32_t sum);

/** Ones' complement addition of two partial sums. */
static inline uint32_t
csum_add(uint32_t a, uint32_t b)
{
	uint32_t r = a + b;

	return r + (r < a);
}

/*
 * Ones' complement addition in 64 bits (end-around carry): an add and an
 * add-with-carry of 0. The 64-bit ones' complement sum is congruent to
 * the 16-bit one modulo 0xffff, since 0xffff divides 2^64 - 1.
 */
static inline uint64_t
csum_add64(uint64_t a, uint64_t b)
{
	a += b;
	return a + (a < b);
}

/*
 * Plain C sum of len bytes (at most 1 GiB), not folded: 8-byte words added
 * with end-around carry (two instructions a word, the load folded into
 * the first) on two chains, the 1 to 7 bytes left as one small integer, and the result
 * folded to 33 bits. It is a plain integer congruent to the 16-bit ones'
 * complement sum modulo 0xffff, and 0 only for all-zero bytes: such sums
 * of pieces of one buffer add as integers and fold once (csum_fold64()).
 * Every implementation of csum_partial() uses it, folded
 * (csum_scalar_block()), for what is too short for vectors; not for
 * direct use.
 */
static inline __attribute__((always_inline)) uint64_t
csum_scalar_block64(const void *buf, size_t len)
{
	const uint8_t *p = (const uint8_t *)buf;
	uint64_t sum = 0, sum2 = 0, v, tail = 0;
	uint32_t w;
	uint16_t h;

	/* Two carry chains, so that a long buffer is not one serial chain. */
	while (len >= 16) {
		uint64_t v2;

		__builtin_memcpy(&v, p, 8);
		__builtin_memcpy(&v2, p + 8, 8);
		sum = csum_add64(sum, v);
		sum2 = csum_add64(sum2, v2);
		p += 16;
		len -= 16;
	}
	sum = csum_add64(sum, sum2);
	if (len >= 8) {
		__builtin_memcpy(&v, p, 8);
		sum = csum_add64(sum, v);
		p += 8;
		len -= 8;
	}
	/* What is left, at 16-bit lanes whose place does not matter
	 * (2^16 is 1 modulo 0xffff): under 2^33, added once. */
	if (len >= 4) {
		__builtin_memcpy(&w, p, 4);
		tail = w;
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		__builtin_memcpy(&h, p, 2);
		tail += h;
		p += 2;
		len -= 2;
	}
	/* A trailing odd byte is the first byte of a 16-bit word. */
	if (len)
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		tail += (uint32_t)*p << 8;
#else
		tail += *p;
#endif
	sum = csum_add64(sum, tail);
	return (sum & 0xffffffff) + (sum >> 32);
}

/** A 64-bit sum folded to 32 bits: the same congruence, 0 only for 0. */
static inline uint32_t
csum_fold64(uint64_t v)
{
	v = (v & 0xffffffff) + (v >> 32);
	v = (v & 0xffffffff) + (v >> 32);
	return (uint32_t)v;
}

/* csum_scalar_block64() folded: what csum_partial() returns. */
static inline uint32_t
csum_scalar_block(const void *buf, size_t len)
{
	return csum_fold64(csum_scalar_block64(buf, len));
}

/** Buffers up to this size are summed inline by csum_partial_small() (every
 * implementation sums them in plain C too: CSUM_VECTOR_MIN). */
#define CSUM_SMALL_MAX 127

/**
 * csum_partial() for header-sized buffers, inline: no call and no
 * dispatch, which cost more than the sum itself for a few bytes (and fold
 * away when len is a constant). Longer buffers go to csum_partial(). The
 * arithmetic is the one every implementation uses below its vector size,
 * so the result is the same 32-bit value csum_partial() would return.
 */
static inline uint32_t
csum_partial_small(const void *buf, size_t len, uint32_t sum)
{
	if (len > CSUM_SMALL_MAX)
		return csum_partial(buf, len, sum);
	return csum_add(sum, csum_scalar_block(buf, len));
}

/**
 * csum_partial_small() before its fold: pieces of one packet summed with
 * it add as plain integers (a piece at an odd offset rotated by
 * csum_rotate64()) and are folded once with csum_fold64().
 */
static inline __attribute__((always_inline)) uint64_t
csum_partial_small64(const void *buf, size_t len)
{
	if (len > CSUM_SMALL_MAX)
		return csum_partial(buf, len, 0);
	return csum_scalar_block64(buf, len);
}

/**
 * A 64-bit sum of bytes seen one byte further on: 2^8 times it modulo
 * 2^64 - 1, a multiple of 0xffff, so the congruence carries over.
 */
static inline uint64_t
csum_rotate64(uint64_t sum)
{
	return (sum << 8) | (sum >> 56);
}

/** Ones' complement subtraction: the sum that, added to b, gives a. */
static inline uint32_t
csum_sub(uint32_t a, uint32_t b)
{
	return csum_add(a, ~b);
}

/** Fold a partial sum to 16 bits, not complemented (0 becomes 0 only if sum was 0). */
static inline uint16_t
csum_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/** The checksum to store in a packet: complement of the folded sum. */
static inline uint16_t
csum_finish(uint32_t sum)
{
	return (uint16_t)~csum_fold(sum);
}

/**
 * Swap the two bytes of every 16-bit word of a partial sum: the sum of the
 * same bytes seen from an odd offset.
 */
static inline uint32_t
csum_rotate(uint32_t sum)
{
	return (sum >> 8) | (sum << 24);
}

/**
 * Add the partial sum of a sub-region that starts at byte offset off of the
 * region whose sum is sum (Linux csum_block_add).
 */
static inline uint32_t
csum_block_add(uint32_t sum, uint32_t block, size_t off)
{
	return csum_add(sum, (off & 1) ? csum_rotate(block) : block);
}

/** Remove the partial sum of a sub-region at offset off (Linux csum_block_sub). */
static inline uint32_t
csum_block_sub(uint32_t sum, uint32_t block, size_t off)
{
	return csum_sub(sum, (off & 1) ? csum_rotate(block) : block);
}

/**
 * RFC 1624 eqn. 3 incremental update: a stored checksum check (memory
 * order) covering a 16-bit field that changes from old_val to new_val
 * (both as read from memory). Returns the new checksum, exact in every case
 * where recomputing would be, including the 0x0000/0xFFFF ambiguity of
 * RFC 1141.
 */
static inline uint16_t
csum_update16(uint16_t check, uint16_t old_val, uint16_t new_val)
{
	uint32_t sum = (uint16_t)~check;

	sum = csum_add(sum, (uint16_t)~old_val);
	sum = csum_add(sum, new_val);
	return csum_finish(sum);
}

/** RFC 1624 update for a 32-bit field (e.g. an IPv4 address), memory order. */
static inline uint16_t
csum_update32(uint16_t check, uint32_t old_val, uint32_t new_val)
{
	uint32_t sum = (uint16_t)~check;

	sum = csum_add(sum, ~old_val);
	sum = csum_add(sum, new_val);
	return csum_finish(sum);
}

/**
 * RFC 1624 update for a field of any even length at an even offset
 * (e.g. an IPv6 address): old and new hold len bytes.
 */
uint16_t csum_update_buf(uint16_t check, const void *old_bytes,
			 const void *new_bytes, size_t len);

/**
 * IPv4 pseudo-header partial sum (RFC 768/793).
 * @param src, dst  addresses as stored in the packet (network order).
 * @param l4_len    length of the L4 header and payload, host order.
 * @param proto     IP protocol number.
 * @param sum       partial sum to add to (0, or the sum of the L4 segment).
 */
uint32_t csum_ipv4_pseudo(uint32_t src, uint32_t dst, uint32_t l4_len,
			  uint8_t proto, uint32_t sum);

/**
 * IPv6 pseudo-header partial sum (RFC 8200 section 8.1): 16-byte
 * addresses as stored in the packet (for a routing header the final
 * destination is the caller's business), l4_len and proto in host order.
 */
uint32_t csum_ipv6_pseudo(const void *src, const void *dst, uint32_t l4_len,
			  uint8_t proto, uint32_t sum);

/**
 * IPv4 header checksum to store in the header at hdr (ihl * 4 bytes,
 * ihl >= 5 read from the header), computed as if the checksum field were 0.
 */
uint16_t csum_ipv4_hdr(const void *hdr);

/** True when the IPv4 header at hdr (checksum field included) is valid. */
bool csum_ipv4_hdr_ok(const void *hdr);

/**
 * Implementations of csum_partial(). One is chosen at start-up (library
 * constructor) from the CPU's flags: the fastest supported one, or the one
 * named by the environment variable HWCSUM_CSUM_IMPL (scalar, avx2,
 * avx512). A name that is unknown or that this CPU cannot run is reported on
 * stderr and the process aborts: a test that forces a path must never run
 * another one.
 */
#define CSUM_IMPL_ENV "HWCSUM_CSUM_IMPL"

struct csum_impl {
	const char *name;
	/** Same contract as csum_partial(). */
	uint32_t (*partial)(const void *buf, size_t len, uint32_t sum);
	/** True when the running CPU can execute partial. */
	bool (*supported)(void);
};

/** Every implementation built in, supported here or not; *count filled. */
const struct csum_impl *csum_impl_list(unsigned int *count);

/** Implementation by name, or NULL. */
const struct csum_impl *csum_impl_find(const char *name);

/** The implementation csum_partial() dispatches to. */
const struct csum_impl *csum_impl_active(void);

/**
 * Make name the implementation behind csum_partial() (NULL: the best one
 * this CPU supports). Not thread safe against concurrent csum_partial();
 * call at start-up.
 * @return 0, -EINVAL for an unknown name, -ENOTSUP when the CPU lacks it.
 */
int csum_impl_select(const char *name);

/**
 * CRC32c (Castagnoli, reflected, as used by SCTP and iSCSI): raw update of
 * crc over len bytes, no pre/post inversion (the same contract as
 * rte_hash_crc()). Uses the SSE4.2 crc32 instruction when present.
 */
uint32_t csum_crc32c(const void *buf, size_t len, uint32_t crc);

/** Bitwise-table software CRC32c, same contract: the reference for tests. */
uint32_t csum_crc32c_sw(const void *buf, size_t len, uint32_t crc);

/**
 * SCTP checksum of a whole SCTP packet whose checksum field (bytes 8-11)
 * is zero (RFC 9260 appendix A), in memory order like the other sums here:
 * store it with memcpy() or a native uint32_t store.
 */
static inline uint32_t
csum_sctp_crc32c(const void *buf, size_t len)
{
	uint32_t crc = ~csum_crc32c(buf, len, 0xffffffff);

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	crc = __builtin_bswap32(crc);
#endif
	return crc;
}

#ifdef __cplusplus
}
#endif

#endif
