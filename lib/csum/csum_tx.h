/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_CSUM_TX_H
#define HWCSUM_CSUM_TX_H

/**
 * @file
 * One packet's transmit header work in one call: the pseudo-header seeds,
 * the IPv4 header checksums, the outer UDP checksum (by LCO or summed) and
 * the inner CHECKSUM_PARTIAL sum, for a packet whose layout the caller
 * already knows (DPDK's l2_len .. outer_l3_len, or a generic start/offset).
 *
 * It is the fast form of this sequence of csum_mbuf.h calls, done in this
 * order, and its result is bit for bit theirs:
 *   csum_mbuf_seed_l4(l3, csum_start, l4_proto)       CSUM_TX_SEED_L4
 *   csum_mbuf_seed_l4(outer_l3, outer_l4, UDP)        CSUM_TX_SEED_OUTER
 *   csum_mbuf_ipv4_hdr_fill(l3)                       CSUM_TX_IP
 *   csum_mbuf_ipv4_hdr_fill(outer_l3)                 CSUM_TX_OUTER_IP
 *   csum_mbuf_lco(outer_l4, 6, csum_start, csum_offset) CSUM_TX_OUTER_LCO
 *   csum_mbuf_apply_partial(outer_l4, 6)              CSUM_TX_OUTER_SUM
 *   csum_mbuf_apply_partial(csum_start, csum_offset)  CSUM_TX_L4
 * where an IPv4 fill also requires the header to be IPv4 with ihl * 4 equal
 * to its length (l3_len, outer_l3_len), as RTE_MBUF_F_TX_IP_CKSUM does.
 *
 * One bounds check, each header read once, in place, inline. It takes only
 * what it can do safely in one pass: the whole packet in the first segment,
 * headers nested the usual way (outer IP, outer UDP, inner IP, inner L4, no
 * field written into a header read after it), every header as the sequence
 * above would accept it. Anything else is declined before any byte is
 * written, and the caller runs the sequence above (the reference), which
 * then also gives the precise error.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "csum.h"
#include "csum_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Write the (inner) L4 pseudo-header seed, UDP or TCP (l4_proto). */
#define CSUM_TX_SEED_L4		(1u << 0)
/** Write the outer UDP header's pseudo-header seed. */
#define CSUM_TX_SEED_OUTER	(1u << 1)
/** Fill the (inner) IPv4 header checksum at l3 (l3_len bytes). */
#define CSUM_TX_IP		(1u << 2)
/** Fill the outer IPv4 header checksum at outer_l3 (outer_l3_len bytes). */
#define CSUM_TX_OUTER_IP	(1u << 3)
/** Outer UDP checksum by LCO: the inner request is still pending. */
#define CSUM_TX_OUTER_LCO	(1u << 4)
/** Outer UDP checksum summed to the end of the packet. */
#define CSUM_TX_OUTER_SUM	(1u << 5)
/** The (inner) request csum_start/csum_offset summed to the end. */
#define CSUM_TX_L4		(1u << 6)

/** What to do, offsets from the packet's first byte. */
struct csum_tx_work {
	uint32_t ops;		/**< CSUM_TX_* */
	uint32_t outer_l3, outer_l3_len, outer_l4;
	uint32_t l3, l3_len;
	uint32_t csum_start, csum_offset;
	uint8_t l4_proto;	/**< IPPROTO_TCP or IPPROTO_UDP, for CSUM_TX_SEED_L4 */
};

/**
 * Set by csum_tx_work_check(): the offsets of w agree with each other, so
 * csum_tx_apply() checks only what depends on the packet. Clear it when
 * changing an offset.
 */
#define CSUM_TX_F_LAYOUT_OK	(1u << 31)

#define CSUM_TX_OUTER_OPS (CSUM_TX_SEED_OUTER | CSUM_TX_OUTER_IP | \
			   CSUM_TX_OUTER_LCO | CSUM_TX_OUTER_SUM)

/*
 * What csum_tx_apply() requires of the offsets alone: the field of a seed
 * where its protocol has it, outer headers wholly in front of the inner
 * ones, the outer UDP field in no inner header, the inner L4 header behind
 * the outer UDP header.
 */
static __rte_always_inline bool
csum_tx__layout_ok(const struct csum_tx_work *w, uint32_t ops)
{
	if ((ops & CSUM_TX_SEED_L4) &&
	    ((w->l4_proto != IPPROTO_UDP && w->l4_proto != IPPROTO_TCP) ||
	     w->csum_offset != (w->l4_proto == IPPROTO_UDP ? CSUM_UDP_OFFSET :
				CSUM_TCP_OFFSET)))
		return false;
	if (ops & CSUM_TX_OUTER_OPS) {
		if ((ops & (CSUM_TX_SEED_L4 | CSUM_TX_IP)) && w->l3 < w->outer_l4)
			return false;
		if ((ops & CSUM_TX_OUTER_IP) &&
		    (uint64_t)w->outer_l3 + w->outer_l3_len > w->outer_l4)
			return false;
	}
	if ((ops & CSUM_TX_SEED_OUTER) && (ops & (CSUM_TX_SEED_L4 | CSUM_TX_IP)) &&
	    (uint64_t)w->outer_l4 + 8 > w->l3)
		return false;
	if ((ops & CSUM_TX_OUTER_LCO) &&
	    (uint64_t)w->csum_start < (uint64_t)w->outer_l4 + 8)
		return false;
	if ((ops & (CSUM_TX_SEED_OUTER | CSUM_TX_OUTER_SUM)) &&
	    (ops & (CSUM_TX_SEED_L4 | CSUM_TX_L4)) &&
	    (uint64_t)w->csum_start < (uint64_t)w->outer_l4 + 8)
		return false;
	return true;
}

/**
 * Set by csum_tx_work_check() when w is work csum_tx_apply_usual() does:
 * it then tries that first. Clear it with CSUM_TX_F_LAYOUT_OK.
 */
#define CSUM_TX_F_USUAL		(1u << 30)

#define CSUM_TX_USUAL_INNER (CSUM_TX_SEED_L4 | CSUM_TX_L4)
#define CSUM_TX_USUAL_OUTER (CSUM_TX_SEED_OUTER | CSUM_TX_OUTER_LCO)

/*
 * The work of the usual frame, as testpmd's csum engine asks for it: the
 * (inner) L4 checksum from DPDK's flags, its IPv4 header optionally, and
 * around it optionally a tunnel's outer UDP checksum by LCO, its IPv4
 * header optionally. The IP headers end where the L4 headers start (20 or
 * 40 bytes: no options, no extension headers) and LCO's part is even.
 */
static inline bool
csum_tx__usual_ok(const struct csum_tx_work *w, uint32_t ops)
{
	uint32_t outer = ops & CSUM_TX_OUTER_OPS, l3_len = w->csum_start - w->l3;

	if ((ops & (CSUM_TX_USUAL_INNER | CSUM_TX_OUTER_SUM)) != CSUM_TX_USUAL_INNER)
		return false;
	if (w->csum_start < w->l3 || (l3_len != 20 && l3_len != 40) ||
	    ((ops & CSUM_TX_IP) && (w->l3_len != 20 || l3_len != 20)))
		return false;
	if (outer == 0)
		return true;
	l3_len = w->outer_l4 - w->outer_l3;
	if ((outer & CSUM_TX_USUAL_OUTER) != CSUM_TX_USUAL_OUTER ||
	    w->outer_l4 < w->outer_l3 || (l3_len != 20 && l3_len != 40) ||
	    ((ops & CSUM_TX_OUTER_IP) && (w->outer_l3_len != 20 || l3_len != 20)))
		return false;
	return ((w->csum_start - w->outer_l4) & 1) == 0;
}

/**
 * Check w's offsets once for many packets (a plan): false when
 * csum_tx_apply() would decline every packet for them; otherwise it sets
 * CSUM_TX_F_LAYOUT_OK in w->ops, and CSUM_TX_F_USUAL where that applies.
 */
static inline bool
csum_tx_work_check(struct csum_tx_work *w)
{
	if (!csum_tx__layout_ok(w, w->ops))
		return false;
	w->ops |= CSUM_TX_F_LAYOUT_OK;
	if (csum_tx__usual_ok(w, w->ops))
		w->ops |= CSUM_TX_F_USUAL;
	return true;
}

/* Internal helpers of csum_tx_apply(). */
static inline uint16_t
csum_tx__be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * csum_mbuf_seed_l4()'s acceptance and value, read-only: the seed for the
 * UDP/TCP header at l4 carried by the IP header at l3 (all it reads lies
 * in front of l4).
 */
static __rte_always_inline bool
csum_tx__seed(const uint8_t *p, uint32_t len, uint32_t l3, uint32_t l4,
	      uint8_t proto, uint16_t *seed)
{
	const uint8_t *ip = p + l3;
	uint32_t end, hlen, pseudo, l4_len;

	if (l3 + 20 > len || l3 > l4)
		return false;
	if (ip[0] >> 4 == 4) {
		hlen = (ip[0] & 0xf) * 4u;
		if (hlen < 20 || csum_tx__be16(ip + 2) < hlen || ip[9] != proto ||
		    l3 + hlen > l4)
			return false;
		end = l3 + csum_tx__be16(ip + 2);
		pseudo = csum_partial_small(ip + 12, 8, 0);
	} else if (ip[0] >> 4 == 6) {
		/* Extension headers (a routing header's final destination
		 * goes in the pseudo-header): the reference walks them. */
		if (l3 + 40 > len || csum_tx__be16(ip + 4) == 0 || l3 + 40 != l4)
			return false;
		end = l3 + 40 + csum_tx__be16(ip + 4);
		pseudo = csum_partial_small(ip + 8, 32, 0);
	} else {
		return false;
	}
	if (end > len || l4 > end)
		return false;
	l4_len = end - l4;
	if (l4_len < (proto == IPPROTO_UDP ? 8u : 20u))
		return false;
	*seed = csum_fold(csum_add(csum_add(pseudo, rte_cpu_to_be_32(l4_len)),
				   rte_cpu_to_be_32(proto)));
	return true;
}

/* An IPv4 header of exactly hlen bytes at l3, within len. */
static __rte_always_inline bool
csum_tx__ipv4_expected(const uint8_t *p, uint32_t len, uint32_t l3,
		       uint32_t hlen)
{
	return hlen >= 20 && l3 + hlen <= len && p[l3] >> 4 == 4 &&
		(p[l3] & 0xf) * 4u == hlen;
}

/* csum_mbuf_ipv4_hdr_fill() on a header already checked. */
static __rte_always_inline void
csum_tx__ipv4_fill(uint8_t *ip, uint32_t hlen)
{
	uint16_t field, check;
	uint32_t sum = hlen == 20 ? csum_partial_small(ip, 20, 0) :
		csum_partial_small(ip, hlen, 0);

	memcpy(&field, ip + 10, 2);
	check = csum_finish(csum_sub(sum, field));
	memcpy(ip + 10, &check, 2);
}

/* csum_mbuf_apply_partial() on a request already checked. */
static __rte_always_inline void
csum_tx__partial(uint8_t *p, uint32_t len, uint32_t start, uint32_t offset)
{
	uint16_t check = csum_finish(csum_partial_small(p + start, len - start, 0));

	if (check == 0)
		check = 0xffff;
	memcpy(p + start + offset, &check, 2);
}

/**
 * Do w on the first len bytes at p (a flat packet of len bytes).
 * @return true: done; false: declined, nothing written (run the reference
 *   sequence instead).
 */
static __rte_always_inline bool
csum_tx_apply_flat(uint8_t *p, uint32_t len, const struct csum_tx_work *w)
{
	uint32_t ops = w->ops;
	uint16_t seed_in = 0, seed_out = 0;
	uint64_t field_end = (uint64_t)w->csum_start + w->csum_offset + 2;

	/* Acceptance, read-only: each header read before any write. */
	if (!(ops & CSUM_TX_F_LAYOUT_OK) && !csum_tx__layout_ok(w, ops))
		return false;
	if ((ops & (CSUM_TX_SEED_L4 | CSUM_TX_OUTER_LCO | CSUM_TX_L4)) &&
	    field_end > len)
		return false;
	if ((ops & CSUM_TX_SEED_L4) &&
	    !csum_tx__seed(p, len, w->l3, w->csum_start, w->l4_proto, &seed_in))
		return false;
	if ((ops & CSUM_TX_SEED_OUTER) &&
	    !csum_tx__seed(p, len, w->outer_l3, w->outer_l4, 17, &seed_out))
		return false;
	if ((ops & (CSUM_TX_OUTER_LCO | CSUM_TX_OUTER_SUM)) &&
	    w->outer_l4 + 8 > len)
		return false;
	if ((ops & CSUM_TX_IP) &&
	    !csum_tx__ipv4_expected(p, len, w->l3, w->l3_len))
		return false;
	if ((ops & CSUM_TX_OUTER_IP) &&
	    !csum_tx__ipv4_expected(p, len, w->outer_l3, w->outer_l3_len))
		return false;

	/* The work, in the reference's order. */
	if (ops & CSUM_TX_SEED_L4)
		memcpy(p + w->csum_start + w->csum_offset, &seed_in, 2);
	if (ops & CSUM_TX_SEED_OUTER)
		memcpy(p + w->outer_l4 + CSUM_UDP_OFFSET, &seed_out, 2);
	if (ops & CSUM_TX_IP)
		csum_tx__ipv4_fill(p + w->l3, w->l3_len);
	if (ops & CSUM_TX_OUTER_IP)
		csum_tx__ipv4_fill(p + w->outer_l3, w->outer_l3_len);
	if (ops & CSUM_TX_OUTER_LCO) {
		uint32_t n = w->csum_start - w->outer_l4;
		uint16_t inner, check;

		memcpy(&inner, p + w->csum_start + w->csum_offset, 2);
		check = csum_finish(csum_block_add(
			csum_partial_small(p + w->outer_l4, n, 0),
			(uint16_t)~inner, n));
		if (check == 0)
			check = 0xffff;
		memcpy(p + w->outer_l4 + CSUM_UDP_OFFSET, &check, 2);
	} else if (ops & CSUM_TX_OUTER_SUM) {
		csum_tx__partial(p, len, w->outer_l4, CSUM_UDP_OFFSET);
	}
	if (ops & CSUM_TX_L4)
		csum_tx__partial(p, len, w->csum_start, w->csum_offset);
	return true;
}

/*
 * The usual frame's work, each header read once and no byte read back
 * after it is written (a load over a fresh 2-byte store stalls). Sums are
 * 64-bit integers congruent to the ones' complement sum modulo 0xffff and
 * folded once per checksum: every sum folded here is non-zero (it holds a
 * seed or an IPv4 version byte), so the fold gives the one value in
 * 1..0xffff of its class, the value the reference's own order of folds
 * gives too.
 *
 * Its helpers are __rte_always_inline like the rest of this file: each is
 * a few instructions of the per-packet body, and gcc's -O2 heuristics
 * may leave such helpers as calls (they did with the header-sized sums of
 * csum.h), which cost as much as their work.
 */

/* A byte run's sum, loaded in host order (any alignment). */
static __rte_always_inline uint64_t
csum_tx__ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static __rte_always_inline uint64_t
csum_tx__ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static __rte_always_inline uint64_t
csum_tx__ld16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/*
 * csum_finish() of a 64-bit sum in fewer steps: 64 to 32 bits with
 * end-around carry (the same class, 0 only for 0), then Linux's
 * complemented fold ((~s - ror32(s, 16)) >> 16), which equals
 * csum_finish(s) for every 32-bit s (checked for all 2^32 while writing
 * it; test_csum_tx checks a sample).
 */
static __rte_always_inline uint16_t
csum_tx__finish64(uint64_t sum)
{
	uint32_t lo = (uint32_t)sum, s = lo + (uint32_t)(sum >> 32);

	s += s < lo;
	return (uint16_t)((~s - ((s >> 16) | (s << 16))) >> 16);
}

/* An IP header of the usual frame, as read before any write. */
struct csum_tx__ip {
	uint16_t seed;		/* pseudo-header seed of its L4 part */
	uint64_t hdr;		/* IPv4: header sum without the checksum field */
	uint64_t field;		/* IPv4: the checksum field as it was */
};

/*
 * The IP header at l3 carrying proto in its L4 part at l3 + hlen (hlen 20:
 * IPv4 without options; 40: IPv6), that part at least min bytes long and
 * within len: csum_tx__seed()'s checks for this shape (l3 < len is known:
 * the caller's l4 + min <= len came first).
 */
static __rte_always_inline bool
csum_tx__usual_ip(const uint8_t *p, uint32_t len, uint32_t l3, uint32_t hlen,
		  uint8_t proto, uint32_t min, struct csum_tx__ip *ip)
{
	const uint8_t *h = p + l3;
	uint32_t l4_len;
	uint64_t addrs;

	if (hlen == 20) {
		uint32_t total = csum_tx__be16(h + 2);

		if (h[0] != 0x45 || h[9] != proto || total < 20 + min ||
		    l3 + total > len)
			return false;
		l4_len = total - 20;
		addrs = csum_tx__ld64(h + 12);
		ip->hdr = csum_add64(csum_add64(csum_tx__ld64(h), csum_tx__ld16(h + 8)),
				     addrs);
		ip->field = csum_tx__ld16(h + 10);
	} else {
		l4_len = csum_tx__be16(h + 4);
		if (h[0] >> 4 != 6 || l4_len < min || l3 + 40 + l4_len > len)
			return false;
		addrs = csum_add64(csum_add64(csum_tx__ld64(h + 8), csum_tx__ld64(h + 16)),
				   csum_add64(csum_tx__ld64(h + 24), csum_tx__ld64(h + 32)));
		/* What an LCO part around it sums: the whole header. */
		ip->hdr = csum_add64(csum_tx__ld64(h), addrs);
		ip->field = 0;
	}
	ip->seed = (uint16_t)~csum_tx__finish64(csum_add64(addrs, (uint64_t)rte_cpu_to_be_32(l4_len) +
					    rte_cpu_to_be_32(proto)));
	return true;
}

/* The checksum an IPv4 header's field takes. */
static __rte_always_inline uint16_t
csum_tx__ipv4_check(const struct csum_tx__ip *ip)
{
	return csum_tx__finish64(ip->hdr);
}

/* A UDP (or TCP) checksum from its sum: 0 goes out as 0xffff. */
static __rte_always_inline uint16_t
csum_tx__l4_check(uint64_t sum)
{
	uint16_t check = csum_tx__finish64(sum);

	return check == 0 ? 0xffff : check;
}

/**
 * csum_tx_apply_flat() for work csum_tx_work_check() marked
 * CSUM_TX_F_USUAL, on the usual frame only: IP headers of exactly the
 * length the offsets give (IPv4 without options, IPv6), lengths that fit
 * the packet. The result is bit for bit the reference's; anything else is
 * declined, nothing written (csum_tx_apply_flat() then has its turn).
 */
static __rte_always_inline bool
csum_tx_apply_usual(uint8_t *p, uint32_t len, const struct csum_tx_work *w)
{
	uint32_t ops = w->ops, start = w->csum_start, off = w->csum_offset;
	uint32_t min = w->l4_proto == IPPROTO_UDP ? 8 : 20;
	struct csum_tx__ip in, out = { 0 };	/* out: read only with SEED_OUTER */
	uint64_t l4_sum, lco_sum = 0;

	/* Acceptance, read-only (the offsets were checked by the plan). */
	if (start + min > len ||
	    !csum_tx__usual_ip(p, len, w->l3, start - w->l3, w->l4_proto, min, &in))
		return false;
	if (ops & CSUM_TX_SEED_OUTER) {
		uint32_t o4 = w->outer_l4;

		if (!csum_tx__usual_ip(p, len, w->outer_l3, o4 - w->outer_l3,
				       IPPROTO_UDP, 8, &out))
			return false;
		/* LCO: the outer UDP header holding its seed, the tunnel
		 * header and inner Ethernet, the inner IP header as it will
		 * be (a filled IPv4 header sums to 0), and the complement
		 * of the inner seed. */
		lco_sum = csum_add64(csum_add64(csum_tx__ld32(p + o4) +
						csum_tx__ld16(p + o4 + 4) + out.seed,
						(uint16_t)~in.seed),
				     csum_scalar_block64(p + o4 + 8, w->l3 - o4 - 8));
		if (!(ops & CSUM_TX_IP))
			lco_sum = csum_add64(lco_sum, csum_add64(in.hdr, in.field));
	}
	/* The L4 part with its field holding the seed. */
	l4_sum = csum_add64(csum_partial_small64(p + start, len - start),
			    (uint64_t)(uint16_t)~csum_tx__ld16(p + start + off) + in.seed);

	/* The writes. */
	if (ops & CSUM_TX_OUTER_IP) {
		uint16_t check = csum_tx__ipv4_check(&out);

		memcpy(p + w->outer_l3 + 10, &check, 2);
	}
	if (ops & CSUM_TX_IP) {
		uint16_t check = csum_tx__ipv4_check(&in);

		memcpy(p + w->l3 + 10, &check, 2);
	}
	if (ops & CSUM_TX_SEED_OUTER) {
		uint16_t check = csum_tx__l4_check(lco_sum);

		memcpy(p + w->outer_l4 + CSUM_UDP_OFFSET, &check, 2);
	}
	{
		uint16_t check = csum_tx__l4_check(l4_sum);

		memcpy(p + start + off, &check, 2);
	}
	return true;
}

/**
 * csum_tx_apply_flat() on an mbuf: taken only when the first segment holds
 * the whole packet (pkt_len <= data_len). Work marked CSUM_TX_F_USUAL
 * tries csum_tx_apply_usual() first.
 */
static __rte_always_inline bool
csum_tx_apply(struct rte_mbuf *m, const struct csum_tx_work *w)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	if (unlikely(m->pkt_len > m->data_len))
		return false;
	if ((w->ops & CSUM_TX_F_USUAL) && likely(csum_tx_apply_usual(p, m->pkt_len, w)))
		return true;
	/* A generic request alone (the gateway's outer UDP checksum): of
	 * csum_tx_apply_flat()'s checks only the field's place applies. */
	if ((w->ops & ~CSUM_TX_F_LAYOUT_OK) == CSUM_TX_L4) {
		uint32_t start = w->csum_start, len = m->pkt_len;
		uint16_t check;

		if ((uint64_t)start + w->csum_offset + 2 > len)
			return false;
		/* csum_tx__partial()'s value: csum_tx__finish64() is
		 * csum_finish() of the same sum, 0 included. */
		check = csum_tx__l4_check(csum_partial_small64(p + start, len - start));
		memcpy(p + start + w->csum_offset, &check, 2);
		return true;
	}
	return csum_tx_apply_flat(p, m->pkt_len, w);
}

/**
 * The reference: the csum_mbuf.h sequence csum_tx_apply() stands for, on
 * any mbuf (chains too). For tests, and for callers without a fast case.
 * @return 0, or the first negative errno of the sequence (bytes written by
 *   the steps before it stay written).
 */
int csum_tx_apply_ref(struct rte_mbuf *m, const struct csum_tx_work *w);

#ifdef __cplusplus
}
#endif

#endif
