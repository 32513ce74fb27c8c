/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_RX_USUAL_H
#define HWCSUM_RX_USUAL_H

/*
 * The receive work of the usual frame, in one pass and nothing else:
 * Ethernet with at most one tag, IPv4 without options and not a fragment,
 * UDP or TCP; or that as VXLAN on a port the registry has as VXLAN, around
 * the same inside. Each header is read once, the packet summed once in
 * pieces cut at the headers, and flags, packet_type, header lengths and
 * COMPLETE written when every checksum of the packet is right (or a UDP
 * one is 0, where the general path says NONE too).
 *
 * Anything else, or any checksum wrong, returns false before a byte of the
 * mbuf is written, and the general path (hwcsum_rx.c) does the packet from
 * the start: a bad packet is counted and judged there, and nothing here has
 * to give a verdict it could get wrong. tests/pmd/test_rx_onepass.c holds
 * both paths to the same mbuf and counters, and counts that this path took
 * a good share of its packets.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mbuf_ptype.h>

#include "csum.h"
#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"
#include "udp_tunnel.h"

/* The headers of one level (outer, or inside the tunnel). */
struct rx_usual_hdrs {
	uint32_t l3;		/* IPv4 header: behind Ethernet and its tag */
	uint32_t l4;		/* l3 + 20 */
	uint32_t l4_end;	/* end of the UDP datagram or TCP segment */
	uint32_t l4_hlen;	/* 8, or the TCP header's length field */
	uint8_t proto;		/* IPPROTO_UDP or IPPROTO_TCP */
	bool tagged;
	bool udp_zero;		/* UDP sent without a checksum */
};

static __rte_always_inline uint16_t
rx_usual_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * The Ethernet frame at off, its bytes ending at limit (the packet, or the
 * outer UDP datagram around it): false for anything but the usual headers,
 * or lengths csum_walk_eth() and the verifier would not take as they are.
 */
static __rte_always_inline bool
rx_usual_walk(const uint8_t *p, uint32_t off, uint32_t limit,
	      struct rx_usual_hdrs *h)
{
	uint32_t l3 = off + RTE_ETHER_HDR_LEN, l4, end, len;
	uint16_t type;

	if (l3 + 20 + 8 > limit)
		return false;
	type = rx_usual_be16(p + l3 - 2);
	h->tagged = type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ;
	if (h->tagged) {
		l3 += 4;
		if (l3 + 20 + 8 > limit)
			return false;
		type = rx_usual_be16(p + l3 - 2);
	}
	if (type != RTE_ETHER_TYPE_IPV4 || p[l3] != 0x45 ||
	    (rx_usual_be16(p + l3 + 6) & 0x3fff) != 0)
		return false;
	l4 = l3 + 20;
	end = l3 + rx_usual_be16(p + l3 + 2);
	if (end > limit)
		return false;
	h->proto = p[l3 + 9];
	if (h->proto == IPPROTO_UDP) {
		if (l4 + 8 > end)
			return false;
		len = rx_usual_be16(p + l4 + 4);
		if (len < 8 || l4 + len > end)
			return false;
		h->l4_hlen = 8;
		h->udp_zero = (p[l4 + 6] | p[l4 + 7]) == 0;
	} else if (h->proto == IPPROTO_TCP) {
		if (l4 + 20 > end)
			return false;
		len = end - l4;
		h->l4_hlen = (uint32_t)(p[l4 + 12] >> 4) * 4;
		h->udp_zero = false;
	} else {
		return false;
	}
	h->l3 = l3;
	h->l4 = l4;
	h->l4_end = l4 + len;
	return true;
}

/*
 * Receive sums are 64-bit (csum_partial_small64()) pieces of the packet,
 * added as plain integers and folded only where a verdict or COMPLETE
 * needs 16 bits, here and in hwcsum_rx.c's one-pass path. A piece is under
 * 2^37, the outer datagram (four pieces, each moved at most once) under
 * 2^47, COMPLETE (moved once more) under 2^56: nothing wraps.
 */

/* A sum of bytes moved to the offset off (only an odd one changes it). */
static __rte_always_inline uint64_t
rx_at(uint64_t sum, uint32_t off)
{
	return (off & 1) ? csum_rotate64(sum) : sum;
}

/* Sum of the bytes [from, to) of p as seen from base (base <= from). */
static __rte_always_inline uint64_t
rx_piece(const uint8_t *p, uint32_t base, uint32_t from, uint32_t to)
{
	if (from == to)
		return 0;
	return rx_at(csum_partial_small64(p + from, to - from), from - base);
}

/* A sum (of any grouping of the bytes) that checks: folds to all ones. */
static __rte_always_inline bool
rx_sum_ok(uint64_t sum)
{
	return csum_fold(csum_fold64(sum)) == 0xffff;
}

/* The L4 checksum of one level, from its datagram's sum: right, or 0 (UDP). */
static __rte_always_inline bool
rx_usual_l4_ok(const uint8_t *p, const struct rx_usual_hdrs *h, uint64_t dgram)
{
	uint32_t src, dst;

	if (h->udp_zero)
		return true;
	memcpy(&src, p + h->l3 + 12, 4);
	memcpy(&dst, p + h->l3 + 16, 4);
	return rx_sum_ok(dgram + src + dst +
			   rte_cpu_to_be_32(h->l4_end - h->l4 + h->proto));
}

static __rte_always_inline uint32_t
rx_usual_ptype(const struct rx_usual_hdrs *h)
{
	return (h->tagged ? RTE_PTYPE_L2_ETHER_VLAN : RTE_PTYPE_L2_ETHER) |
		RTE_PTYPE_L3_IPV4 |
		(h->proto == IPPROTO_UDP ? RTE_PTYPE_L4_UDP : RTE_PTYPE_L4_TCP);
}

static __rte_always_inline uint32_t
rx_usual_inner_ptype(const struct rx_usual_hdrs *h)
{
	return (h->tagged ? RTE_PTYPE_INNER_L2_ETHER_VLAN : RTE_PTYPE_INNER_L2_ETHER) |
		RTE_PTYPE_INNER_L3_IPV4 |
		(h->proto == IPPROTO_UDP ? RTE_PTYPE_INNER_L4_UDP :
		 RTE_PTYPE_INNER_L4_TCP);
}

/*
 * The whole receive work of m when it is the usual frame with every
 * checksum right; false (m untouched) for the general path. sub: the
 * sub-port's checksum flags, which must say nothing of L4.
 */
static __rte_always_inline bool
hwcsum_rx_usual(const struct hwcsum_private *priv, struct rte_mbuf *m,
		uint64_t sub, struct hwcsum_rxq_stats *st)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = m->pkt_len, vxlan;
	struct rx_usual_hdrs o, in;
	uint64_t ip, dgram, inner_ip, inner, fl;
	struct rte_pmd_hwcsum_csum *f;
	uint32_t word;
	unsigned int type;

	if ((sub & RTE_MBUF_F_RX_L4_CKSUM_MASK) || m->data_len < len ||
	    !rx_usual_walk(p, 0, len, &o))
		return false;
	type = o.proto == IPPROTO_UDP && priv->registry != NULL ?
		udp_tunnel_lookup_inline(priv->registry,
					 rx_usual_be16(p + o.l4 + 2)) : 0;
	ip = csum_scalar_block64(p + o.l3, 20);
	if (type == 0) {
		dgram = csum_partial_small64(p + o.l4, o.l4_end - o.l4);
		if (!rx_sum_ok(ip) || !rx_usual_l4_ok(p, &o, dgram))
			return false;
		m->packet_type = rx_usual_ptype(&o);
		m->tx_offload = rte_mbuf_tx_offload(o.l3, 20, o.l4_hlen, 0, 0, 0, 0);
		fl = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			(o.udp_zero ? 0 : RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	} else {
		/* VXLAN only (its flags word, then the reserved byte); every
		 * other type has its parser in the general path. */
		vxlan = o.l4 + 8;
		if (type != UDP_TUNNEL_TYPE_VXLAN ||
		    !rx_usual_walk(p, vxlan + 8, o.l4_end, &in))
			return false;
		memcpy(&word, p + vxlan, 4);
		if (word != rte_cpu_to_be_32(0x08000000) || p[vxlan + 7] != 0)
			return false;
		/* Pieces: outer UDP, VXLAN and inner Ethernet; inner IPv4
		 * header; inner datagram; what the outer datagram holds
		 * behind it. All start at even offsets from the outer L4. */
		inner_ip = csum_scalar_block64(p + in.l3, 20);
		inner = csum_partial_small64(p + in.l4, in.l4_end - in.l4);
		dgram = csum_scalar_block64(p + o.l4, in.l3 - o.l4) + inner_ip +
			inner + rx_piece(p, o.l4, in.l4_end, o.l4_end);
		if (!rx_sum_ok(ip) || !rx_sum_ok(inner_ip) ||
		    !rx_usual_l4_ok(p, &in, inner) || !rx_usual_l4_ok(p, &o, dgram))
			return false;
		m->packet_type = rx_usual_ptype(&o) | RTE_PTYPE_TUNNEL_VXLAN |
			rx_usual_inner_ptype(&in);
		m->tx_offload = rte_mbuf_tx_offload(in.l3 - o.l4, 20, in.l4_hlen,
						    0, 20, o.l3, 0);
		fl = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			(in.udp_zero ? 0 : RTE_MBUF_F_RX_L4_CKSUM_GOOD) |
			(o.udp_zero ? 0 : RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD);
		st->tunnel[__builtin_ctz(UDP_TUNNEL_TYPE_VXLAN)]++;
		st->c[HWCSUM_RX_L4_NONE] += in.udp_zero;
	}
	st->c[HWCSUM_RX_L4_NONE] += o.udp_zero;
	st->c[HWCSUM_RX_COMPLETE]++;
	fl |= m->ol_flags & ~(HWCSUM_RX_CKSUM_FLAGS | priv->rx_complete_flag);
	if (priv->rx_complete_flag != 0) {
		f = RTE_MBUF_DYNFIELD(m, priv->dynfield_off,
				      struct rte_pmd_hwcsum_csum *);
		f->start = (uint16_t)o.l3;
		f->sum = csum_fold(csum_fold64(ip + dgram +
					       rx_piece(p, o.l3, o.l4_end, len)));
		fl |= priv->rx_complete_flag;
	}
	m->ol_flags = fl;
	return true;
}

#endif
