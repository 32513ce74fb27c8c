/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_CSUM_MBUF_H
#define HWCSUM_CSUM_MBUF_H

/**
 * @file
 * Checksums over (possibly segmented) DPDK mbufs, in the Linux model:
 *
 * - CHECKSUM_PARTIAL (transmit): the sender puts the pseudo-header sum
 *   (folded, not complemented: the "seed") in the checksum field and asks
 *   for the sum from csum_start to the end of the packet to be folded,
 *   complemented and stored at csum_start + csum_offset. Offsets are
 *   measured from the first byte of the packet (rte_pktmbuf_mtod()).
 * - CHECKSUM_COMPLETE (receive): one partial sum over the packet from a
 *   start offset to its end; any L4 checksum behind that start is verified
 *   by taking out the bytes in front of it (and any trailer after the IP
 *   datagram, such as Ethernet padding), reading headers only.
 *
 * Every function checks offsets and lengths against pkt_len and against
 * the segment chain itself (a chain shorter than pkt_len is an error, not a
 * crash) and returns a negative errno, logging nothing: the data path calls
 * these per packet and counts errors itself. Sums follow csum.h (memory
 * order, unfolded uint32_t). Writers require the bytes they write to be
 * writable by the caller (not shared with a clone): the caller's business,
 * as for any header rewrite in DPDK.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_mbuf.h>

#include "csum.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Partial sum of len bytes of m starting at off (any segmentation, any
 * parity of segment lengths).
 * @return 0 and *sum set; -EINVAL if off + len is beyond pkt_len or the
 *   chain holds fewer bytes than pkt_len says.
 */
static inline int csum_mbuf_sum(const struct rte_mbuf *m, uint32_t off,
				uint32_t len, uint32_t *sum);

/** Copy len bytes at off out of m (bounds checked like csum_mbuf_sum()). */
static inline int csum_mbuf_read(const struct rte_mbuf *m, uint32_t off,
				 uint32_t len, void *dst);

/** Copy len bytes into m at off, across segments (bounds checked). */
static inline int csum_mbuf_write(struct rte_mbuf *m, uint32_t off,
				  uint32_t len, const void *src);

/**
 * Apply a CHECKSUM_PARTIAL request in software: sum from csum_start to the
 * end of the packet (the seed in the field included), store the checksum at
 * csum_start + csum_offset; a result of 0 is stored as 0xFFFF (Linux
 * CSUM_MANGLED_0; both mean zero to a receiver, and for UDP 0 would mean
 * "no checksum").
 * @return 0; -EINVAL when the field does not lie within the packet behind
 *   csum_start, or the chain is short.
 */
int csum_mbuf_apply_partial(struct rte_mbuf *m, uint32_t csum_start,
			    uint32_t csum_offset);

/**
 * Prepare a CHECKSUM_PARTIAL request the way a stack does: write the
 * pseudo-header seed (folded, not complemented) for the UDP or TCP header
 * at l4_off, carried by the IPv4/IPv6 header at l3_off, into its checksum
 * field. The L4 length is the IP datagram's end minus l4_off. The request
 * is then (csum_start = l4_off, csum_offset = 6 or 16). DPDK's own TX
 * checksum flags expect the same seed (rte_ipv4/ipv6_phdr_cksum()).
 * @return 0; -EINVAL for a header that is not IPv4/IPv6 or offsets/lengths
 *   that do not fit; -ENOTSUP for an IPv6 jumbogram.
 */
int csum_mbuf_seed_l4(struct rte_mbuf *m, uint32_t l3_off, uint32_t l4_off,
		      uint8_t l4_proto);

/**
 * Fill the IPv4 header checksum at l3_off in software (what
 * RTE_MBUF_F_TX_IP_CKSUM asks of a device).
 * @return 0; -EINVAL when no IPv4 header fits there.
 */
int csum_mbuf_ipv4_hdr_fill(struct rte_mbuf *m, uint32_t l3_off);

/**
 * Local checksum offload (Linux lco_csum, Documentation/networking/
 * checksum-offloads.rst): fill the outer UDP checksum of an encapsulated
 * packet whose inner L4 checksum is still a CHECKSUM_PARTIAL request
 * (inner_start/inner_offset, seed in the field). Once the inner checksum is
 * filled, its L4 region sums to the complement of its seed, so the outer
 * checksum needs only the bytes between outer_start and inner_start. The
 * outer field must hold the outer seed (pseudo-header sum), exactly as for
 * csum_mbuf_apply_partial(); the inner request is left for the device (or
 * for csum_mbuf_apply_partial()) and the packet bytes behind inner_start
 * are not read.
 * @return 0; -EINVAL for offsets outside the packet, an inner start not
 *   behind the outer field, or a short chain.
 */
int csum_mbuf_lco(struct rte_mbuf *m, uint32_t outer_start,
		  uint32_t outer_offset, uint32_t inner_start,
		  uint32_t inner_offset);

/**
 * CHECKSUM_COMPLETE: partial sum from start to the end of the packet.
 * @return 0 and *sum set; -EINVAL when start > pkt_len or the chain is short.
 */
int csum_mbuf_complete(const struct rte_mbuf *m, uint32_t start,
		       uint32_t *sum);

/** Verdict of csum_mbuf_verify_l4(). */
enum csum_l4_status {
	CSUM_L4_GOOD = 0, /**< checksum present and correct */
	CSUM_L4_BAD = 1,  /**< checksum wrong (or a zero UDP checksum over IPv6) */
	CSUM_L4_NONE = 2, /**< UDP checksum 0: sender computed none (IPv4, or
			       IPv6 when CSUM_VERIFY_F_IPV6_UDP_ZERO allows) */
};

/**
 * Flag for csum_mbuf_verify_l4(): accept a zero UDP checksum over IPv6 as
 * "none" (RFC 6935/6936, allowed for tunnels such as VXLAN or GENEVE
 * when configured) instead of "bad" (RFC 8200 section 8.1).
 */
#define CSUM_VERIFY_F_IPV6_UDP_ZERO (1u << 0)

/**
 * Verify the UDP or TCP checksum of the L4 header at l4_off, carried by the
 * IPv4 or IPv6 header at l3_off (outer or inner: any depth), from the
 * CHECKSUM_COMPLETE sum complete_sum of the packet from complete_start to
 * its end (complete_sum may be folded to 16 bits or not).
 *
 * Only headers are read: the bytes from complete_start to l4_off, the
 * IP addresses and lengths, and any trailer after the end of the L4
 * datagram (its end is the UDP length for UDP, the IP length for TCP).
 * For IPv6 with extension headers l4_off locates the L4 header: the
 * headers from l3_off must end exactly there (csum_walk's IPv6 walk), and
 * the pseudo-header uses the final destination of a routing header with
 * Segments Left > 0 (RFC 8200 8.1), else the fixed header's; a malformed
 * routing header is -EINVAL (csum_walk: CSUM_WALK_BAD_ROUTING). The same
 * holds for csum_mbuf_seed_l4() and the resolve functions below.
 *
 * @param l4_proto IPPROTO_UDP (17) or IPPROTO_TCP (6); for IPv4 it must
 *   match the header's protocol.
 * @param flags CSUM_VERIFY_F_*.
 * @return a csum_l4_status (>= 0); -EINVAL for offsets or lengths that do
 *   not fit the packet or each other, a header that is not IPv4/IPv6, an
 *   unsupported protocol; -ENOTSUP for an IPv6 jumbogram.
 */
int csum_mbuf_verify_l4(const struct rte_mbuf *m, uint32_t complete_start,
			uint32_t complete_sum, uint32_t l3_off,
			uint32_t l4_off, uint8_t l4_proto, uint32_t flags);

/**
 * Complete a received partial checksum: make the UDP or TCP checksum of
 * the L4 header at l4_off right, whatever its field holds (Linux's
 * CHECKSUM_PARTIAL seed, or the value already), from the COMPLETE sum
 * *complete_sum of the packet from complete_start, reading headers only;
 * *complete_sum is updated for the new field. For a device that says
 * "data verified, checksum not filled in" (virtio-net's NEEDS_CSUM) where
 * DPDK has no flag to pass that on, such as a tunnel's outer UDP header.
 * @return CSUM_L4_GOOD: the field is right now (rewritten or not);
 *   CSUM_L4_NONE: an IPv4 UDP checksum of 0 (none), left alone;
 *   -EINVAL as csum_mbuf_verify_l4(), or for a short chain.
 */
int csum_mbuf_resolve_l4(struct rte_mbuf *m, uint32_t complete_start,
			 uint32_t *complete_sum, uint32_t l3_off,
			 uint32_t l4_off, uint8_t l4_proto);

/**
 * csum_mbuf_resolve_l4() for a device that hands over host-local
 * CHECKSUM_PARTIAL packets without saying so (a packet socket on a veth:
 * net_af_packet drops the kernel's TP_STATUS_CSUMNOTREADY): the field is
 * completed only when it holds exactly Linux's seed, the folded
 * pseudo-header sum; any other wrong value stays wrong.
 * @return CSUM_L4_GOOD: the checksum was right, or was the seed and is
 *   right now; CSUM_L4_BAD: wrong and not the seed (nothing written);
 *   -EINVAL as csum_mbuf_verify_l4(), or for a short chain.
 */
int csum_mbuf_resolve_l4_seed(struct rte_mbuf *m, uint32_t complete_start,
			      uint32_t *complete_sum, uint32_t l3_off,
			      uint32_t l4_off, uint8_t l4_proto);

/**
 * Verify the IPv4 header at l3_off of m (header checksum, version, ihl).
 * @return 1 good, 0 bad checksum, -EINVAL not an IPv4 header within the packet.
 */
int csum_mbuf_ipv4_hdr_ok(const struct rte_mbuf *m, uint32_t l3_off);

/* ---------------------------------------------------------------------
 * The accessors above, inline for the case the data path nearly always
 * meets (the bytes are in the first segment): a constant-size copy or a
 * direct sum, no call. Chains go to the *_chain functions.
 */
int csum_mbuf_sum_chain(const struct rte_mbuf *m, uint32_t off, uint32_t len,
			uint32_t *sum);
int csum_mbuf_read_chain(const struct rte_mbuf *m, uint32_t off, uint32_t len,
			 void *dst);
int csum_mbuf_write_chain(struct rte_mbuf *m, uint32_t off, uint32_t len,
			  const void *src);

/* off + len within the first segment and within pkt_len. */
static inline bool
csum_mbuf_in_first_seg(const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	uint64_t end = (uint64_t)off + len;

	return end <= m->data_len && end <= m->pkt_len;
}

static inline int
csum_mbuf_sum(const struct rte_mbuf *m, uint32_t off, uint32_t len,
	      uint32_t *sum)
{
	if (csum_mbuf_in_first_seg(m, off, len)) {
		*sum = csum_partial_small(rte_pktmbuf_mtod_offset(m, const uint8_t *,
								  off), len, 0);
		return 0;
	}
	return csum_mbuf_sum_chain(m, off, len, sum);
}

static inline int
csum_mbuf_read(const struct rte_mbuf *m, uint32_t off, uint32_t len,
	       void *dst)
{
	if (csum_mbuf_in_first_seg(m, off, len)) {
		memcpy(dst, rte_pktmbuf_mtod_offset(m, const uint8_t *, off), len);
		return 0;
	}
	return csum_mbuf_read_chain(m, off, len, dst);
}

/*
 * len bytes at off, in place when the first segment holds them, else
 * copied to buf (len bytes, like rte_pktmbuf_read()); NULL when the packet
 * or its chain does not hold them. Headers read this way cost no copy.
 */
static inline const void *
csum_mbuf_ptr(const struct rte_mbuf *m, uint32_t off, uint32_t len, void *buf)
{
	if (csum_mbuf_in_first_seg(m, off, len))
		return rte_pktmbuf_mtod_offset(m, const uint8_t *, off);
	return csum_mbuf_read_chain(m, off, len, buf) == 0 ? buf : NULL;
}

static inline int
csum_mbuf_write(struct rte_mbuf *m, uint32_t off, uint32_t len,
		const void *src)
{
	if (csum_mbuf_in_first_seg(m, off, len)) {
		memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, off), src, len);
		return 0;
	}
	return csum_mbuf_write_chain(m, off, len, src);
}

/**
 * An IPv4 header at off of exactly len bytes (options included) within the
 * packet: what RTE_MBUF_F_TX_IP_CKSUM with l3_len = len asks a device to
 * fill, so a device told where the header starts and ends (e1000's
 * IPCSS/IPCSE) stays inside the packet.
 * @return 0, or -EINVAL.
 */
static inline int
csum_mbuf_ipv4_hdr_expected(const struct rte_mbuf *m, uint32_t off,
			    uint32_t len)
{
	uint8_t b;

	if (len < 20 || (uint64_t)off + len > m->pkt_len ||
	    csum_mbuf_read(m, off, 1, &b) < 0)
		return -EINVAL;
	return b >> 4 == 4 && (b & 0xf) * 4u == len ? 0 : -EINVAL;
}

#ifdef __cplusplus
}
#endif

#endif
