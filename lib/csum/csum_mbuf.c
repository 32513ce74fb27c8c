/* SPDX-License-Identifier: BSD-3-Clause */
/* Sums over segmented mbufs: CHECKSUM_PARTIAL, COMPLETE, LCO, verification. */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>

#include "csum_mbuf.h"
#include "csum_walk.h"
#include "csum_proto.h"


/* off + len within pkt_len, without 32-bit overflow. */
static inline bool
range_ok(const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	return (uint64_t)off + len <= m->pkt_len;
}

/*
 * First segment holding byte off, and off made relative to it. Fails when
 * the chain ends first: pkt_len is not trusted to match the segments.
 */
static const struct rte_mbuf *
seg_at(const struct rte_mbuf *seg, uint32_t *off)
{
	while (seg != NULL && *off >= seg->data_len) {
		*off -= seg->data_len;
		seg = seg->next;
	}
	return seg;
}

int
csum_mbuf_sum_chain(const struct rte_mbuf *m, uint32_t off, uint32_t len,
		    uint32_t *sum)
{
	const struct rte_mbuf *seg;
	uint32_t acc = 0, done = 0;

	if (!range_ok(m, off, len))
		return -EINVAL;
	if (len == 0) {
		*sum = 0;
		return 0;
	}
	seg = seg_at(m, &off);
	while (done < len) {
		uint32_t n;

		if (seg == NULL)
			return -EINVAL;
		n = RTE_MIN((uint32_t)seg->data_len - off, len - done);
		/* A piece at an odd position of the range is byte-rotated. */
		acc = csum_block_add(acc, csum_partial(
			rte_pktmbuf_mtod_offset(seg, const uint8_t *, off), n, 0),
			done);
		done += n;
		off = 0;
		seg = seg->next;
	}
	*sum = acc;
	return 0;
}

int
csum_mbuf_read_chain(const struct rte_mbuf *m, uint32_t off, uint32_t len,
		     void *dst)
{
	const struct rte_mbuf *seg;
	uint8_t *out = dst;
	uint32_t done = 0;

	if (!range_ok(m, off, len))
		return -EINVAL;
	seg = seg_at(m, &off);
	while (done < len) {
		uint32_t n;

		if (seg == NULL)
			return -EINVAL;
		n = RTE_MIN((uint32_t)seg->data_len - off, len - done);
		memcpy(out + done, rte_pktmbuf_mtod_offset(seg, const uint8_t *, off), n);
		done += n;
		off = 0;
		seg = seg->next;
	}
	return 0;
}

int
csum_mbuf_write_chain(struct rte_mbuf *m, uint32_t off, uint32_t len,
		      const void *src)
{
	struct rte_mbuf *seg;
	const uint8_t *in = src;
	uint32_t done = 0;

	if (!range_ok(m, off, len))
		return -EINVAL;
	/* Check the whole range first so that a short chain writes nothing. */
	seg = (struct rte_mbuf *)(uintptr_t)seg_at(m, &off);
	{
		const struct rte_mbuf *s = seg;
		uint64_t avail = 0;

		if (s != NULL)
			avail = (uint64_t)s->data_len - off;
		for (s = s ? s->next : NULL; s != NULL && avail < len; s = s->next)
			avail += s->data_len;
		if (avail < len)
			return -EINVAL;
	}
	while (done < len) {
		uint32_t n = RTE_MIN((uint32_t)seg->data_len - off, len - done);

		memcpy(rte_pktmbuf_mtod_offset(seg, uint8_t *, off), in + done, n);
		done += n;
		off = 0;
		seg = seg->next;
	}
	return 0;
}

/* The checksum field must lie behind start, inside the packet. */
static inline bool
request_ok(const struct rte_mbuf *m, uint32_t start, uint32_t offset)
{
	return (uint64_t)start + offset + sizeof(uint16_t) <= m->pkt_len;
}

int
csum_mbuf_apply_partial(struct rte_mbuf *m, uint32_t csum_start,
			uint32_t csum_offset)
{
	uint32_t sum;
	uint16_t check;
	int ret;

	if (!request_ok(m, csum_start, csum_offset))
		return -EINVAL;
	ret = csum_mbuf_sum(m, csum_start, m->pkt_len - csum_start, &sum);
	if (ret < 0)
		return ret;
	check = csum_finish(sum);
	if (check == 0)
		check = 0xffff;
	return csum_mbuf_write(m, csum_start + csum_offset, sizeof(check), &check);
}

int
csum_mbuf_lco(struct rte_mbuf *m, uint32_t outer_start, uint32_t outer_offset,
	      uint32_t inner_start, uint32_t inner_offset)
{
	uint32_t sum;
	uint16_t inner_seed, check;
	int ret;

	if (!request_ok(m, outer_start, outer_offset) ||
	    !request_ok(m, inner_start, inner_offset) ||
	    (uint64_t)inner_start < (uint64_t)outer_start + outer_offset + sizeof(uint16_t))
		return -EINVAL;
	ret = csum_mbuf_read(m, inner_start + inner_offset, sizeof(inner_seed),
			     &inner_seed);
	if (ret < 0)
		return ret;
	/* Headers only: a short range, summed inline (csum_mbuf_sum()). */
	ret = csum_mbuf_sum(m, outer_start, inner_start - outer_start, &sum);
	if (ret < 0)
		return ret;
	/* The inner region, once its checksum is in, sums to ~seed. */
	sum = csum_block_add(sum, (uint16_t)~inner_seed, inner_start - outer_start);
	check = csum_finish(sum);
	if (check == 0)
		check = 0xffff;
	return csum_mbuf_write(m, outer_start + outer_offset, sizeof(check), &check);
}

int
csum_mbuf_complete(const struct rte_mbuf *m, uint32_t start, uint32_t *sum)
{
	if (start > m->pkt_len)
		return -EINVAL;
	return csum_mbuf_sum(m, start, m->pkt_len - start, sum);
}

/* What verification needs from the IP header in front of the L4 header. */
struct l3_info {
	uint32_t end;    /* first byte after the IP datagram */
	uint32_t pseudo; /* pseudo-header sum, without the L4 length */
	bool ipv6;
};

/* The full pseudo-header sum of an L4 segment of l4_len bytes. */
static inline uint32_t
l4_pseudo(const struct l3_info *l3, uint32_t l4_len, uint8_t l4_proto)
{
	return csum_add(csum_add(l3->pseudo, rte_cpu_to_be_32(l4_len)),
			rte_cpu_to_be_32(l4_proto));
}

/*
 * IPv6 headers longer than the fixed one, copied when the first segment
 * does not hold them: at most this many bytes (a bound for the stack; in
 * the first segment there is none).
 */
#define IPV6_EXT_COPY_MAX 512

/*
 * The pseudo-header addresses of an IPv6 packet with extension headers
 * from l3_off to l4_off: the source and the final destination, which a
 * routing header with Segments Left > 0 names (RFC 8200 8.1), found by
 * csum_walk. The headers must end exactly at l4_off. Out of line: only
 * packets with extension headers come here.
 */
static __rte_noinline int
ipv6_ext_pseudo(const struct rte_mbuf *m, uint32_t l3_off, uint32_t l4_off,
		uint32_t end, uint32_t *pseudo)
{
	uint8_t buf[IPV6_EXT_COPY_MAX];
	uint32_t n = l4_off - l3_off;
	const uint8_t *hdr;
	struct csum_walk w;

	if (csum_mbuf_in_first_seg(m, l3_off, n))
		hdr = rte_pktmbuf_mtod_offset(m, const uint8_t *, l3_off);
	else if (n <= sizeof(buf) && csum_mbuf_read_chain(m, l3_off, n, buf) == 0)
		hdr = buf;
	else
		return -EINVAL;
	memset(&w, 0, sizeof(w));
	if (csum_walk_ip(hdr, n, end - l3_off, 0, 0x86dd, &w) != CSUM_WALK_OK ||
	    w.l4_off != n)
		return -EINVAL;
	*pseudo = csum_add(csum_partial_small(hdr + 8, 16, 0),
			   csum_partial_small(hdr + csum_walk_ipv6_dst_off(&w),
					      16, 0));
	return 0;
}

/* Inline: the data path's callers pass constants and must not pay a call. */
static __rte_always_inline int
parse_l3(const struct rte_mbuf *m, uint32_t l3_off, uint32_t l4_off,
	 uint8_t l4_proto, struct l3_info *info)
{
	uint8_t buf[40];
	const uint8_t *hdr;
	uint32_t hlen;
	uint16_t len16;

	/* In place when the first segment holds the header: no copy. */
	hdr = csum_mbuf_ptr(m, l3_off, 1, buf);
	if (hdr == NULL)
		return -EINVAL;
	switch (hdr[0] >> 4) {
	case 4:
		hdr = csum_mbuf_ptr(m, l3_off, 20, buf);
		if (hdr == NULL)
			return -EINVAL;
		hlen = (hdr[0] & 0xf) * 4u;
		memcpy(&len16, hdr + 2, 2);
		len16 = rte_be_to_cpu_16(len16);
		if (hlen < 20 || len16 < hlen || hdr[9] != l4_proto ||
		    (uint64_t)l3_off + hlen > l4_off)
			return -EINVAL;
		info->end = l3_off + len16;
		info->ipv6 = false;
		info->pseudo = csum_partial_small(hdr + 12, 8, 0);
		break;
	case 6:
		hdr = csum_mbuf_ptr(m, l3_off, 40, buf);
		if (hdr == NULL)
			return -EINVAL;
		memcpy(&len16, hdr + 4, 2);
		len16 = rte_be_to_cpu_16(len16);
		if (len16 == 0)
			return -ENOTSUP; /* jumbogram: length is in a hop-by-hop option */
		if ((uint64_t)l3_off + 40 > l4_off)
			return -EINVAL;
		info->end = l3_off + 40 + len16;
		info->ipv6 = true;
		if (l4_off == l3_off + 40) {
			info->pseudo = csum_partial_small(hdr + 8, 32, 0);
		} else {
			if (info->end > m->pkt_len || l4_off > info->end)
				return -EINVAL;
			if (ipv6_ext_pseudo(m, l3_off, l4_off, info->end,
					    &info->pseudo) < 0)
				return -EINVAL;
		}
		break;
	default:
		return -EINVAL;
	}
	if (info->end > m->pkt_len || l4_off > info->end)
		return -EINVAL;
	return 0;
}

int
csum_mbuf_seed_l4(struct rte_mbuf *m, uint32_t l3_off, uint32_t l4_off,
		  uint8_t l4_proto)
{
	struct l3_info l3;
	uint32_t l4_len;
	uint16_t seed;
	int ret;

	if (l4_proto != IPPROTO_UDP && l4_proto != IPPROTO_TCP)
		return -EINVAL;
	if (l3_off > l4_off)
		return -EINVAL;
	ret = parse_l3(m, l3_off, l4_off, l4_proto, &l3);
	if (ret < 0)
		return ret;
	l4_len = l3.end - l4_off;
	if (l4_len < (l4_proto == IPPROTO_UDP ? 8u : 20u))
		return -EINVAL;
	seed = csum_fold(l4_pseudo(&l3, l4_len, l4_proto));
	return csum_mbuf_write(m, l4_off + (l4_proto == IPPROTO_UDP ? CSUM_UDP_OFFSET :
					   CSUM_TCP_OFFSET), sizeof(seed), &seed);
}

/*
 * The whole IPv4 header at l3_off (options included): in place, or copied
 * into buf; NULL when there is none. *hlen is its length.
 */
static inline const uint8_t *
ipv4_hdr_at(const struct rte_mbuf *m, uint32_t l3_off, uint8_t buf[60],
	    uint32_t *hlen)
{
	const uint8_t *hdr = csum_mbuf_ptr(m, l3_off, 20, buf);

	if (hdr == NULL)
		return NULL;
	*hlen = (hdr[0] & 0xf) * 4u;
	if ((hdr[0] >> 4) != 4 || *hlen < 20)
		return NULL;
	return *hlen == 20 ? hdr : csum_mbuf_ptr(m, l3_off, *hlen, buf);
}

/* Sum of an IPv4 header; the usual 20 bytes as a constant, fully unrolled. */
static inline uint32_t
ipv4_hdr_sum(const uint8_t *hdr, uint32_t hlen)
{
	if (hlen == 20)
		return csum_partial_small(hdr, 20, 0);
	return csum_partial_small(hdr, hlen, 0);
}

int
csum_mbuf_ipv4_hdr_fill(struct rte_mbuf *m, uint32_t l3_off)
{
	const uint8_t *hdr;
	uint8_t buf[60];
	uint32_t hlen;
	uint16_t field, check;

	hdr = ipv4_hdr_at(m, l3_off, buf, &hlen);
	if (hdr == NULL)
		return -EINVAL;
	/* csum_ipv4_hdr(), inline: sum with the field, then take it out. */
	memcpy(&field, hdr + 10, 2);
	check = csum_finish(csum_sub(ipv4_hdr_sum(hdr, hlen), field));
	return csum_mbuf_write(m, l3_off + 10, sizeof(check), &check);
}

/*
 * The L4 segment at l4_off as the checksum sees it, from the COMPLETE sum:
 * pseudo-header + segment (its checksum field as it is), folded-able.
 * Also the stored field and, for UDP, whether it is zero.
 */
static int
l4_sum_from_complete(const struct rte_mbuf *m, uint32_t complete_start,
		     uint32_t complete_sum, uint32_t l3_off, uint32_t l4_off,
		     uint8_t l4_proto, uint32_t *l4_sum, uint16_t *check,
		     bool *ipv6, uint32_t *pseudo)
{
	struct l3_info l3;
	uint32_t l4_end, l4_len, front, back, sum;
	uint16_t len16;
	uint8_t buf[20];
	const uint8_t *l4;
	int ret;

	if (l4_proto != IPPROTO_UDP && l4_proto != IPPROTO_TCP)
		return -EINVAL;
	if (complete_start > l4_off || l3_off > l4_off)
		return -EINVAL;
	ret = parse_l3(m, l3_off, l4_off, l4_proto, &l3);
	if (ret < 0)
		return ret;
	if (l4_proto == IPPROTO_UDP) {
		l4 = csum_mbuf_ptr(m, l4_off, 8, buf);
		if (l4 == NULL)
			return -EINVAL;
		memcpy(&len16, l4 + 4, 2);
		l4_len = rte_be_to_cpu_16(len16);
		if (l4_len < 8 || (uint64_t)l4_off + l4_len > l3.end)
			return -EINVAL;
		memcpy(check, l4 + CSUM_UDP_OFFSET, 2);
	} else {
		l4_len = l3.end - l4_off;
		l4 = l4_len >= 20 ? csum_mbuf_ptr(m, l4_off, 20, buf) : NULL;
		if (l4 == NULL)
			return -EINVAL;
		memcpy(check, l4 + CSUM_TCP_OFFSET, 2);
	}
	*ipv6 = l3.ipv6;
	l4_end = l4_off + l4_len;

	/* complete = front + [l4 at its position] + back: take out the rest. */
	ret = csum_mbuf_sum(m, complete_start, l4_off - complete_start, &front);
	if (ret < 0)
		return ret;
	back = 0;
	if (l4_end != m->pkt_len) {
		ret = csum_mbuf_sum(m, l4_end, m->pkt_len - l4_end, &back);
		if (ret < 0)
			return ret;
	}
	sum = csum_sub(complete_sum, front);
	sum = csum_block_sub(sum, back, l4_end - complete_start);
	/* Now the L4 sum as seen from complete_start: realign it to l4_off. */
	if ((l4_off - complete_start) & 1)
		sum = csum_rotate(sum);
	*pseudo = l4_pseudo(&l3, l4_len, l4_proto);
	*l4_sum = csum_add(sum, *pseudo);
	return 0;
}

int
csum_mbuf_verify_l4(const struct rte_mbuf *m, uint32_t complete_start,
		    uint32_t complete_sum, uint32_t l3_off, uint32_t l4_off,
		    uint8_t l4_proto, uint32_t flags)
{
	uint32_t sum, pseudo;
	uint16_t check;
	bool ipv6;
	int ret;

	ret = l4_sum_from_complete(m, complete_start, complete_sum, l3_off,
				   l4_off, l4_proto, &sum, &check, &ipv6, &pseudo);
	if (ret < 0)
		return ret;
	if (l4_proto == IPPROTO_UDP && check == 0)
		return (!ipv6 || (flags & CSUM_VERIFY_F_IPV6_UDP_ZERO)) ?
			CSUM_L4_NONE : CSUM_L4_BAD;
	return csum_fold(sum) == 0xffff ? CSUM_L4_GOOD : CSUM_L4_BAD;
}

/* Write the value that makes the field right; *complete_sum follows it. */
static int
l4_field_resolve(struct rte_mbuf *m, uint32_t complete_start,
		 uint32_t *complete_sum, uint32_t l4_off, uint8_t l4_proto,
		 uint32_t sum, uint16_t check)
{
	uint32_t field_off;
	uint16_t fixed;
	int ret;

	/* Whatever the field held (a seed, or the right value): the sum
	 * without it, complemented, is the value that makes it right. */
	fixed = (uint16_t)~csum_fold(csum_sub(sum, check));
	if (fixed == 0 && l4_proto == IPPROTO_UDP)
		fixed = 0xffff;	/* RFC 768: 0 means "no checksum" */
	if (fixed == check)
		return CSUM_L4_GOOD;
	field_off = l4_off + (l4_proto == IPPROTO_UDP ? CSUM_UDP_OFFSET : CSUM_TCP_OFFSET);
	ret = csum_mbuf_write(m, field_off, 2, &fixed);
	if (ret < 0)
		return ret;
	*complete_sum = csum_block_add(csum_block_sub(*complete_sum, check,
			field_off - complete_start), fixed, field_off - complete_start);
	return CSUM_L4_GOOD;
}

int
csum_mbuf_resolve_l4(struct rte_mbuf *m, uint32_t complete_start,
		     uint32_t *complete_sum, uint32_t l3_off, uint32_t l4_off,
		     uint8_t l4_proto)
{
	uint32_t sum, pseudo;
	uint16_t check;
	bool ipv6;
	int ret;

	ret = l4_sum_from_complete(m, complete_start, *complete_sum, l3_off,
				   l4_off, l4_proto, &sum, &check, &ipv6, &pseudo);
	if (ret < 0)
		return ret;
	/* IPv4 UDP without a checksum stays without one. */
	if (l4_proto == IPPROTO_UDP && check == 0 && !ipv6)
		return CSUM_L4_NONE;
	return l4_field_resolve(m, complete_start, complete_sum, l4_off,
				l4_proto, sum, check);
}

int
csum_mbuf_resolve_l4_seed(struct rte_mbuf *m, uint32_t complete_start,
			  uint32_t *complete_sum, uint32_t l3_off,
			  uint32_t l4_off, uint8_t l4_proto)
{
	uint32_t sum, pseudo;
	uint16_t check;
	bool ipv6;
	int ret;

	ret = l4_sum_from_complete(m, complete_start, *complete_sum, l3_off,
				   l4_off, l4_proto, &sum, &check, &ipv6, &pseudo);
	if (ret < 0)
		return ret;
	if (csum_fold(sum) == 0xffff)
		return CSUM_L4_GOOD;
	/* Linux's CHECKSUM_PARTIAL seed: the folded pseudo-header sum. */
	if (check != (uint16_t)csum_fold(pseudo))
		return CSUM_L4_BAD;
	return l4_field_resolve(m, complete_start, complete_sum, l4_off,
				l4_proto, sum, check);
}

int
csum_mbuf_ipv4_hdr_ok(const struct rte_mbuf *m, uint32_t l3_off)
{
	const uint8_t *hdr;
	uint8_t buf[60];
	uint32_t hlen;

	hdr = ipv4_hdr_at(m, l3_off, buf, &hlen);
	if (hdr == NULL)
		return -EINVAL;
	/* csum_ipv4_hdr_ok(), inline. */
	return csum_fold(ipv4_hdr_sum(hdr, hlen)) == 0xffff ? 1 : 0;
}
