/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_RX_USUAL_H
#define HWCSUM_RX_USUAL_H

/*
 * The receive work of the usual frame, in one pass and nothing else:
 * Ethernet with at most one tag, then IPv4 without options and not a
 * fragment or IPv6 without extension headers, then UDP or TCP; or that as
 * VXLAN or GENEVE (no options, not critical, Ethernet inside) on a port
 * the registry has as that type, around the same inside. Each header is
 * read once, the packet summed once in pieces cut at the headers, and
 * flags, packet_type, header lengths and COMPLETE written when every
 * checksum of the packet is right (or a UDP one is 0 where the general
 * path says NONE too: IPv4, or a tunnel's outer IPv6 header, RFC 6935).
 *
 * Anything else, or any checksum wrong, returns false before a byte of the
 * mbuf is written, and the general path (hwcsum_rx.c) does the packet from
 * the start: a bad packet is counted and judged there, and nothing here has
 * to give a verdict it could get wrong. tests/pmd/test_rx_onepass.c holds
 * both paths to the same mbuf and counters, and counts that this path took
 * a good share of its packets, of each IP version and tunnel type.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mbuf_ptype.h>

#include "csum.h"
#include "csum_proto.h"
#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"
#include "udp_tunnel.h"

/* The headers of one level (outer, or inside the tunnel). */
struct rx_usual_hdrs {
	uint32_t l3;		/* IP header: behind Ethernet and its tag */
	uint32_t l4;		/* l3 + 20 (IPv4) or l3 + 40 (IPv6) */
	uint32_t l4_end;	/* end of the UDP datagram or TCP segment */
	uint32_t l4_hlen;	/* 8, or the TCP header's length field */
	uint32_t ptype;		/* L2, L3 and L4 (inner ones inside the tunnel) */
	uint8_t proto;		/* IPPROTO_UDP or IPPROTO_TCP */
	bool v6;
	bool udp_zero;		/* UDP sent without a checksum */
};

/*
 * The Ethernet frame at off, its bytes ending at limit (the packet, or the
 * outer UDP datagram around it): false for anything but the usual headers,
 * or lengths csum_walk_eth() and the verifier would not take as they are.
 * inner (a constant): the frame inside the tunnel, for its ptype values.
 * Each value is set where the walk learns it, for no select after.
 */
static __rte_always_inline bool
rx_usual_walk(const uint8_t *p, uint32_t off, uint32_t limit, bool inner,
	      struct rx_usual_hdrs *h)
{
	uint32_t l3 = off + RTE_ETHER_HDR_LEN, l4, end, len;
	uint16_t type;
	bool tagged;

	/* The smaller IP header and UDP: every field read below is inside. */
	if (l3 + 20 + 8 > limit)
		return false;
	type = csum_be16(p + l3 - 2);
	tagged = type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ;
	if (tagged) {
		l3 += 4;
		if (l3 + 20 + 8 > limit)
			return false;
		type = csum_be16(p + l3 - 2);
	}
	if (type == RTE_ETHER_TYPE_IPV4) {
		if (p[l3] != 0x45 || (csum_be16(p + l3 + 6) & 0x3fff) != 0)
			return false;
		l4 = l3 + 20;
		end = l3 + csum_be16(p + l3 + 2);
		h->proto = p[l3 + 9];
		h->v6 = false;
		h->ptype = inner ? RTE_PTYPE_INNER_L3_IPV4 : RTE_PTYPE_L3_IPV4;
	} else if (type == RTE_ETHER_TYPE_IPV6) {
		/* Next header UDP/TCP (below): no extension header. */
		if ((p[l3] >> 4) != 6)
			return false;
		l4 = l3 + 40;
		end = l4 + csum_be16(p + l3 + 4);
		h->proto = p[l3 + 6];
		h->v6 = true;
		h->ptype = inner ? RTE_PTYPE_INNER_L3_IPV6 : RTE_PTYPE_L3_IPV6;
	} else {
		return false;
	}
	if (end > limit)
		return false;
	if (h->proto == IPPROTO_UDP) {
		if (l4 + 8 > end)
			return false;
		len = csum_be16(p + l4 + 4);
		if (len < 8 || l4 + len > end)
			return false;
		h->l4_hlen = 8;
		h->udp_zero = (p[l4 + 6] | p[l4 + 7]) == 0;
		h->ptype |= inner ? RTE_PTYPE_INNER_L4_UDP : RTE_PTYPE_L4_UDP;
	} else if (h->proto == IPPROTO_TCP) {
		if (l4 + 20 > end)
			return false;
		len = end - l4;
		h->l4_hlen = (uint32_t)(p[l4 + 12] >> 4) * 4;
		h->udp_zero = false;
		h->ptype |= inner ? RTE_PTYPE_INNER_L4_TCP : RTE_PTYPE_L4_TCP;
	} else {
		return false;
	}
	if (inner)
		h->ptype |= tagged ? RTE_PTYPE_INNER_L2_ETHER_VLAN : RTE_PTYPE_INNER_L2_ETHER;
	else
		h->ptype |= tagged ? RTE_PTYPE_L2_ETHER_VLAN : RTE_PTYPE_L2_ETHER;
	h->l3 = l3;
	h->l4 = l4;
	h->l4_end = l4 + len;
	return true;
}

/*
 * Receive sums are 64-bit (csum_partial_small64()) pieces of the packet,
 * added as plain integers and folded only where a verdict or COMPLETE
 * needs 16 bits, here and in hwcsum_rx.c's one-pass path. A piece is under
 * 2^37, the outer datagram (five pieces at most, each moved at most once)
 * under 2^47, COMPLETE (moved once more) under 2^56: nothing wraps.
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

/*
 * Sums of one level's IP header, v6 (a constant) its version: the whole
 * header (its own check for IPv4; a piece of COMPLETE and of an outer
 * datagram) and the addresses the pseudo-header takes. Each byte is read
 * once.
 */
static __rte_always_inline uint64_t
rx_usual_ip_sums(const uint8_t *p, const struct rx_usual_hdrs *h, bool v6,
		 uint64_t *addrs)
{
	uint32_t src, dst;

	if (v6) {
		*addrs = csum_scalar_block64(p + h->l3 + 8, 32);
		return *addrs + csum_scalar_block64(p + h->l3, 8);
	}
	memcpy(&src, p + h->l3 + 12, 4);
	memcpy(&dst, p + h->l3 + 16, 4);
	*addrs = (uint64_t)src + dst;
	return csum_scalar_block64(p + h->l3, 20);
}

/* An IP header checks: IPv4's sum; IPv6 has no header checksum. */
static __rte_always_inline bool
rx_usual_ip_ok(uint64_t ip, bool v6)
{
	return v6 || rx_sum_ok(ip);
}

/* The L4 checksum of one level, from its datagram's sum: right, or 0 (UDP). */
static __rte_always_inline bool
rx_usual_l4_ok(const struct rx_usual_hdrs *h, uint64_t addrs, uint64_t dgram)
{
	return h->udp_zero || rx_sum_ok(dgram + addrs +
			rte_cpu_to_be_32(h->l4_end - h->l4 + h->proto));
}

/*
 * The tunnel ptype of the 8-byte tunnel header at t, of a registered type:
 * VXLAN (flags I, everything reserved zero, as the inline parser wants) or
 * GENEVE version 0 without options, C bit clear, carrying Ethernet. 0 for
 * any other type or header, which has its parser in the general path.
 */
static __rte_always_inline uint32_t
rx_usual_tunnel_hdr(const uint8_t *p, uint32_t t, unsigned int type)
{
	uint32_t word;

	if (type == UDP_TUNNEL_TYPE_VXLAN) {
		memcpy(&word, p + t, 4);
		return word == rte_cpu_to_be_32(0x08000000) && p[t + 7] == 0 ?
			RTE_PTYPE_TUNNEL_VXLAN : 0;
	}
	return type == UDP_TUNNEL_TYPE_GENEVE && p[t] == 0 &&
		(p[t + 1] & 0x40) == 0 &&
		csum_be16(p + t + 2) == RTE_ETHER_TYPE_TEB ? RTE_PTYPE_TUNNEL_GENEVE : 0;
}

/* What every packet the path takes ends with: counters, COMPLETE, flags. */
static __rte_always_inline void
rx_usual_done(const struct hwcsum_private *priv, struct rte_mbuf *m,
	      const uint8_t *p, const struct rx_usual_hdrs *o, uint64_t ip,
	      uint64_t dgram, uint64_t fl, struct hwcsum_rxq_stats *st)
{
	struct rte_pmd_hwcsum_csum *f;

	st->c[HWCSUM_RX_L4_NONE] += o->udp_zero;
	st->c[HWCSUM_RX_COMPLETE]++;
	fl |= m->ol_flags & ~(HWCSUM_RX_CKSUM_FLAGS | priv->rx_complete_flag);
	if (priv->rx_complete_flag != 0) {
		f = RTE_MBUF_DYNFIELD(m, priv->dynfield_off,
				      struct rte_pmd_hwcsum_csum *);
		f->start = (uint16_t)o->l3;
		f->sum = csum_fold(csum_fold64(ip + dgram +
					       rx_piece(p, o->l3, o->l4_end,
							m->pkt_len)));
		fl |= priv->rx_complete_flag;
	}
	m->ol_flags = fl;
}

/* A packet that is no tunnel; v6 (a constant): its IP version. */
static __rte_always_inline bool
rx_usual_plain(const struct hwcsum_private *priv, struct rte_mbuf *m,
	       const uint8_t *p, const struct rx_usual_hdrs *o, bool v6,
	       struct hwcsum_rxq_stats *st)
{
	uint64_t ip, addrs, dgram;

	/* IPv6 requires a UDP checksum: 0 is BAD (RFC 8200 8.1). */
	if (v6 && o->udp_zero)
		return false;
	ip = rx_usual_ip_sums(p, o, v6, &addrs);
	dgram = csum_partial_small64(p + o->l4, o->l4_end - o->l4);
	if (!rx_usual_ip_ok(ip, v6) || !rx_usual_l4_ok(o, addrs, dgram))
		return false;
	m->packet_type = o->ptype;
	m->tx_offload = rte_mbuf_tx_offload(o->l3, v6 ? 40 : 20, o->l4_hlen,
					    0, 0, 0, 0);
	rx_usual_done(priv, m, p, o, ip, dgram,
		      (v6 ? 0 : RTE_MBUF_F_RX_IP_CKSUM_GOOD) |
		      (o->udp_zero ? 0 : RTE_MBUF_F_RX_L4_CKSUM_GOOD), st);
	return true;
}

/*
 * A tunnel of type (tunnel: its ptype) around in; ov6, iv6 (constants):
 * the outer and inner IP versions. The outer UDP checksum may be 0 over
 * IPv6 too (RFC 6935); inside, IPv6 requires one.
 */
static __rte_always_inline bool
rx_usual_tunnel(const struct hwcsum_private *priv, struct rte_mbuf *m,
		const uint8_t *p, const struct rx_usual_hdrs *o,
		const struct rx_usual_hdrs *in, unsigned int type,
		uint32_t tunnel, bool ov6, bool iv6, struct hwcsum_rxq_stats *st)
{
	uint64_t ip, addrs, inner_ip, inner_addrs, inner, dgram;

	if (iv6 && in->udp_zero)
		return false;
	/* Pieces: outer UDP, tunnel header and inner Ethernet; inner IP
	 * header; inner datagram; what the outer datagram holds behind it.
	 * All start at even offsets from the outer L4. */
	ip = rx_usual_ip_sums(p, o, ov6, &addrs);
	inner_ip = rx_usual_ip_sums(p, in, iv6, &inner_addrs);
	inner = csum_partial_small64(p + in->l4, in->l4_end - in->l4);
	dgram = csum_scalar_block64(p + o->l4, in->l3 - o->l4) + inner_ip +
		inner + rx_piece(p, o->l4, in->l4_end, o->l4_end);
	if (!rx_usual_ip_ok(ip, ov6) || !rx_usual_ip_ok(inner_ip, iv6) ||
	    !rx_usual_l4_ok(in, inner_addrs, inner) ||
	    !rx_usual_l4_ok(o, addrs, dgram))
		return false;
	m->packet_type = o->ptype | tunnel | in->ptype;
	m->tx_offload = rte_mbuf_tx_offload(in->l3 - o->l4, iv6 ? 40 : 20,
					    in->l4_hlen, 0, ov6 ? 40 : 20,
					    o->l3, 0);
	st->tunnel[__builtin_ctz(type)]++;
	st->c[HWCSUM_RX_L4_NONE] += in->udp_zero;
	rx_usual_done(priv, m, p, o, ip, dgram,
		      (iv6 ? 0 : RTE_MBUF_F_RX_IP_CKSUM_GOOD) |
		      (in->udp_zero ? 0 : RTE_MBUF_F_RX_L4_CKSUM_GOOD) |
		      (o->udp_zero ? 0 : RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD), st);
	return true;
}

/*
 * The whole receive work of m when it is the usual frame with every
 * checksum right; false (m untouched) for the general path. sub: the
 * sub-port's checksum flags, which must say nothing of L4. Each
 * combination of IP versions has its own copy of the work, with the
 * header lengths and flags of its versions as constants.
 */
static __rte_always_inline bool
hwcsum_rx_usual(const struct hwcsum_private *priv, struct rte_mbuf *m,
		uint64_t sub, struct hwcsum_rxq_stats *st)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rx_usual_hdrs o, in;
	unsigned int type;
	uint32_t tunnel;

	if ((sub & RTE_MBUF_F_RX_L4_CKSUM_MASK) || m->data_len < m->pkt_len ||
	    !rx_usual_walk(p, 0, m->pkt_len, false, &o))
		return false;
	type = o.proto == IPPROTO_UDP && priv->registry != NULL ?
		udp_tunnel_lookup_inline(priv->registry,
					 csum_be16(p + o.l4 + 2)) : 0;
	if (type == 0)
		return o.v6 ? rx_usual_plain(priv, m, p, &o, true, st) :
			rx_usual_plain(priv, m, p, &o, false, st);
	tunnel = rx_usual_tunnel_hdr(p, o.l4 + 8, type);
	if (tunnel == 0 || !rx_usual_walk(p, o.l4 + 16, o.l4_end, true, &in))
		return false;
	if (!o.v6)
		return in.v6 ?
			rx_usual_tunnel(priv, m, p, &o, &in, type, tunnel, false, true, st) :
			rx_usual_tunnel(priv, m, p, &o, &in, type, tunnel, false, false, st);
	return in.v6 ?
		rx_usual_tunnel(priv, m, p, &o, &in, type, tunnel, true, true, st) :
		rx_usual_tunnel(priv, m, p, &o, &in, type, tunnel, true, false, st);
}

#endif
