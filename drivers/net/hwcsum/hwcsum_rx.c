/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive, in the Linux CHECKSUM_COMPLETE model: one ones' complement sum
 * per packet from the first byte after the Ethernet/VLAN headers, then
 * every UDP/TCP checksum behind it (outer and, for a registered tunnel,
 * inner) verified from that sum by reading headers only. Headers are read
 * by lib/csum's walker (csum_walk.h), the one the transmit check uses;
 * tunnels are recognised through the registry's lock-free lookup and the
 * type's parser. The results are DPDK 22.11's RTE_MBUF_F_RX_*_CKSUM_*
 * flags, packet_type and the COMPLETE dynamic field of rte_pmd_hwcsum.h.
 *
 * No lock, no allocation: headers are read in place when the first segment
 * holds them, otherwise copied to the stack. The parse is in
 * hwcsum_rx_parse.h, shared with the rte_flow burst (hwcsum_flow_rx.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ethdev_driver.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_prefetch.h>

#include "csum_mbuf.h"
#include "csum_proto.h"
#include "csum_walk.h"
#include "hwcsum_private.h"
#include "hwcsum_rx_parse.h"
#include "hwcsum_rx_usual.h"
#include "rte_pmd_hwcsum.h"

/* --------------------------------------------------------- packet_type */

/* The outer and inner values of each layer ([1]: RTE_PTYPE_INNER_*). */
static uint32_t
l2_ptype(const struct csum_walk *w, bool inner)
{
	static const uint32_t pt[2][3] = {
		{ RTE_PTYPE_L2_ETHER, RTE_PTYPE_L2_ETHER_VLAN, RTE_PTYPE_L2_ETHER_QINQ },
		{ RTE_PTYPE_INNER_L2_ETHER, RTE_PTYPE_INNER_L2_ETHER_VLAN,
		  RTE_PTYPE_INNER_L2_ETHER_QINQ },
	};

	return pt[inner][w->n_vlans];
}

static uint32_t
l3_ptype(const struct csum_walk *w, bool inner)
{
	static const uint32_t pt[2][4] = {
		{ RTE_PTYPE_L3_IPV4, RTE_PTYPE_L3_IPV4_EXT,
		  RTE_PTYPE_L3_IPV6, RTE_PTYPE_L3_IPV6_EXT },
		{ RTE_PTYPE_INNER_L3_IPV4, RTE_PTYPE_INNER_L3_IPV4_EXT,
		  RTE_PTYPE_INNER_L3_IPV6, RTE_PTYPE_INNER_L3_IPV6_EXT },
	};

	if (w->ip_version == 4)
		return pt[inner][(w->flags & CSUM_WALK_F_IP_OPTIONS) ? 1 : 0];
	return pt[inner][(w->flags & (CSUM_WALK_F_EXT_HDRS |
				      CSUM_WALK_F_FRAGMENT)) ? 3 : 2];
}

static uint32_t
l4_ptype(const struct csum_walk *w, bool inner)
{
	static const uint32_t pt[2][5] = {
		{ RTE_PTYPE_L4_FRAG, RTE_PTYPE_L4_TCP, RTE_PTYPE_L4_UDP,
		  RTE_PTYPE_L4_SCTP, RTE_PTYPE_L4_ICMP },
		{ RTE_PTYPE_INNER_L4_FRAG, RTE_PTYPE_INNER_L4_TCP,
		  RTE_PTYPE_INNER_L4_UDP, RTE_PTYPE_INNER_L4_SCTP,
		  RTE_PTYPE_INNER_L4_ICMP },
	};

	if (w->flags & CSUM_WALK_F_FRAGMENT)
		return pt[inner][0];
	switch (w->l4_proto) {
	case IPPROTO_TCP:
		return pt[inner][1];
	case IPPROTO_UDP:
		return pt[inner][2];
	case IPPROTO_SCTP:
		return pt[inner][3];
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return pt[inner][4];
	default:
		return 0;
	}
}

/* Built-in types have fixed bits; DPDK has no value for GUE or others. */
static inline uint32_t
tunnel_ptype(unsigned int type)
{
	switch (type) {
	case UDP_TUNNEL_TYPE_VXLAN:
		return RTE_PTYPE_TUNNEL_VXLAN;
	case UDP_TUNNEL_TYPE_GENEVE:
		return RTE_PTYPE_TUNNEL_GENEVE;
	case UDP_TUNNEL_TYPE_VXLAN_GPE:
		return RTE_PTYPE_TUNNEL_VXLAN_GPE;
	default:
		return 0;
	}
}

static uint32_t
rx_ptype(const struct rx_pkt *pk)
{
	uint32_t pt = 0;

	if (pk->outer.l3_off == 0)
		return RTE_PTYPE_UNKNOWN;
	pt |= l2_ptype(&pk->outer, false);
	if (pk->outer_st != CSUM_WALK_OK)
		return pt;
	pt |= l3_ptype(&pk->outer, false) | l4_ptype(&pk->outer, false);
	if (pk->tunnel < RX_TUNNEL_INNER_UNKNOWN)
		return pt;
	pt |= tunnel_ptype(pk->type);
	if (pk->tunnel == RX_TUNNEL_INNER_UNKNOWN && !pk->inner_l2)
		return pt;
	if (pk->inner_l2 && pk->inner.l3_off != 0)
		pt |= l2_ptype(&pk->inner, true);
	if (pk->inner_st == CSUM_WALK_OK)
		pt |= l3_ptype(&pk->inner, true) | l4_ptype(&pk->inner, true);
	return pt;
}

/* ------------------------------------------------------- header lengths */

/* Length of the UDP or TCP header at off, 0 when unknown or not in view. */
static uint32_t
l4_hlen(const struct rx_view *v, const struct csum_walk *w)
{
	if (w->flags & CSUM_WALK_F_FRAGMENT)
		return 0;
	if (w->l4_proto == IPPROTO_UDP)
		return UDP_HLEN;
	if (w->l4_proto == IPPROTO_TCP && (uint64_t)w->l4_off + 13 <= v->len)
		return (uint32_t)(v->p[w->l4_off + 12] >> 4) * 4;
	return 0;
}

/*
 * The walk's header lengths, left in the mbuf in DPDK's TX layout (for a
 * tunnel: outer_l2_len, outer_l3_len, then l2_len = outer UDP + tunnel
 * header + inner Ethernet, l3_len, l4_len of the inner packet), so that a
 * forwarding or decapsulating application need not walk the headers again.
 * 0 everywhere when the walk did not get that far or a length does not fit
 * its field (a GENEVE header with long options, say).
 */
static uint64_t
rx_hdr_lens(const struct rx_pkt *pk)
{
	const struct csum_walk *o = &pk->outer, *in = &pk->inner;
	uint32_t l2, l3, l4, ol2 = 0, ol3 = 0;

	if (pk->outer_st != CSUM_WALK_OK)
		return 0;
	if (pk->tunnel != RX_TUNNEL_OK || pk->inner_st != CSUM_WALK_OK) {
		l2 = o->l3_off;
		l3 = o->l4_off - o->l3_off;
		l4 = l4_hlen(pk->view, o);
	} else {
		ol2 = o->l3_off;
		ol3 = o->l4_off - o->l3_off;
		l2 = in->l3_off - o->l4_off;
		l3 = in->l4_off - in->l3_off;
		l4 = l4_hlen(pk->view, in);
	}
	if (l2 > 127 || l3 > 511 || l4 > 255 || ol2 > 127 || ol3 > 511)
		return 0;
	return rte_mbuf_tx_offload(l2, l3, l4, 0, ol3, ol2, 0);
}

/* ------------------------------------------------------------ verdicts */

/* One packet's checksum work, from the one COMPLETE sum. */
struct rx_sum {
	bool ok;
	uint32_t start;
	uint32_t sum;
};

/*
 * Every verdict of one packet, before it becomes flags and counters:
 * IP 1 good, 0 bad, -ENOENT none; L4 a csum_l4_status, -ENOENT none,
 * another negative errno for headers that do not add up.
 */
struct rx_checks {
	struct rx_sum s;
	int outer_ip, outer_l4;	/* the only headers of a packet that is no tunnel */
	int inner_ip, inner_l4;
};

/* csum_mbuf_verify_l4() for the L4 header a walk found; -1 when there is none. */
static int
rx_verify_l4(const struct rte_mbuf *m, const struct rx_sum *s,
	     const struct csum_walk *w, uint32_t flags)
{
	if (!s->ok || (w->flags & CSUM_WALK_F_FRAGMENT) ||
	    (w->l4_proto != IPPROTO_UDP && w->l4_proto != IPPROTO_TCP))
		return -ENOENT;
	return csum_mbuf_verify_l4(m, s->start, s->sum, w->l3_off, w->l4_off,
				   w->l4_proto, flags);
}

/* Sum of an IP header (or of any short run); the usual 20 bytes unrolled. */
static inline uint32_t
rx_hdr_sum(const uint8_t *h, uint32_t hlen)
{
	return hlen == 20 ? csum_partial_small(h, 20, 0) :
		csum_partial_small(h, hlen, 0);
}

/*
 * csum_mbuf_ipv4_hdr_ok() for the IPv4 header of a complete walk: 1, 0,
 * or -ENOENT for none. The walk found the whole header in the view, so it
 * is checked there: no second bounds check, no copy, no call.
 */
static int
rx_verify_ip(const struct rx_pkt *pk, const struct csum_walk *w)
{
	if (w->ip_version != 4)
		return -ENOENT;
	return csum_fold(rx_hdr_sum(pk->view->p + w->l3_off,
				    w->l4_off - w->l3_off)) == 0xffff;
}

/* Flags for the innermost (or only) IP and L4 headers; counts the bad ones. */
static uint64_t
rx_inner_flags(int ip, int l4, struct hwcsum_rxq_stats *st, bool *unknown)
{
	uint64_t f = 0;

	if (ip == 1) {
		f |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	} else if (ip == 0) {
		f |= RTE_MBUF_F_RX_IP_CKSUM_BAD;
		st->c[HWCSUM_RX_IP_BAD]++;
	}
	switch (l4) {
	case CSUM_L4_GOOD:
		f |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
		break;
	case CSUM_L4_BAD:
		f |= RTE_MBUF_F_RX_L4_CKSUM_BAD;
		st->c[HWCSUM_RX_L4_BAD]++;
		break;
	case CSUM_L4_NONE:
		/* Nothing to verify: DPDK's L4_CKSUM_NONE means something else. */
		st->c[HWCSUM_RX_L4_NONE]++;
		break;
	case -ENOENT:
		break; /* not UDP/TCP, or a fragment: no verdict, nothing wrong */
	default:
		*unknown = true;
		break;
	}
	return f;
}

/* Outer verdicts of a tunnel: ours, or what the sub-port's hardware said. */
static uint64_t
rx_outer_flags(int ip, int l4, uint64_t sub, struct hwcsum_rxq_stats *st,
	       bool *unknown)
{
	uint64_t f = 0;

	if ((sub & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_BAD)
		ip = 0;
	if (ip == 0) {
		f |= RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD;
		st->c[HWCSUM_RX_OUTER_IP_BAD]++;
	}
	switch (sub & RTE_MBUF_F_RX_L4_CKSUM_MASK) {
	case RTE_MBUF_F_RX_L4_CKSUM_GOOD:
		l4 = CSUM_L4_GOOD;
		break;
	case RTE_MBUF_F_RX_L4_CKSUM_BAD:
		l4 = CSUM_L4_BAD;
		break;
	default:
		break;
	}
	switch (l4) {
	case CSUM_L4_GOOD:
		f |= RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
		break;
	case CSUM_L4_BAD:
		f |= RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD;
		st->c[HWCSUM_RX_OUTER_L4_BAD]++;
		break;
	case CSUM_L4_NONE:
		st->c[HWCSUM_RX_L4_NONE]++;
		break;
	default:
		*unknown = true;
		break;
	}
	return f;
}

/*
 * The sub-port verified the data but left the tunnel's outer UDP checksum
 * as the sender put it (virtio-net's NEEDS_CSUM, a CHECKSUM_PARTIAL from
 * the host: DPDK's L4_CKSUM_NONE). DPDK has no such outer flag, and the
 * field is not a checksum yet: make it right from the COMPLETE sum, as
 * net_virtio does itself where it cannot flag, and call it GOOD.
 */
static int
rx_resolve_outer(struct rte_mbuf *m, const struct rx_pkt *pk, struct rx_sum *s,
		 struct hwcsum_rxq_stats *st)
{
	int ret;

	if (!s->ok)
		return -ENOENT;
	ret = csum_mbuf_resolve_l4(m, s->start, &s->sum, pk->outer.l3_off,
				   pk->outer.l4_off, IPPROTO_UDP);
	if (ret != CSUM_L4_GOOD)
		return ret;	/* IPv4 without a checksum: NONE; or unknown */
	st->c[HWCSUM_RX_OUTER_L4_RESOLVED]++;
	return CSUM_L4_GOOD;
}

/* csum_mbuf_resolve_l4_seed() for the L4 header a walk found. */
static int
rx_resolve_seed(struct rte_mbuf *m, struct rx_sum *s, const struct csum_walk *w)
{
	return csum_mbuf_resolve_l4_seed(m, s->start, &s->sum, w->l3_off,
					 w->l4_off, w->l4_proto);
}

/*
 * rx_partial_seed: a packet socket may hand over a host-local
 * CHECKSUM_PARTIAL packet whose one partial field holds Linux's seed, not
 * a sum. One field per packet can (one csum_start): a tunnel's inner one
 * (its outer UDP sum, made by LCO, is then right only once the inner is
 * filled in), or else the outer or only one. Any other wrong value stays
 * BAD, so only a field equal to its seed is taken for one.
 */
static void
rx_resolve_seeds(struct rte_mbuf *m, const struct rx_pkt *pk,
		 struct rx_checks *c, struct hwcsum_rxq_stats *st)
{
	uint32_t zero_ok = pk->outer.ip_version == 6 ? CSUM_VERIFY_F_IPV6_UDP_ZERO : 0;

	if (pk->tunnel >= RX_TUNNEL_INNER_UNKNOWN && c->inner_l4 == CSUM_L4_BAD) {
		if (rx_resolve_seed(m, &c->s, &pk->inner) != CSUM_L4_GOOD)
			return;
		c->inner_l4 = CSUM_L4_GOOD;
		st->c[HWCSUM_RX_L4_SEED_RESOLVED]++;
		if (c->outer_l4 == CSUM_L4_BAD)
			c->outer_l4 = rx_verify_l4(m, &c->s, &pk->outer, zero_ok);
		return;
	}
	if (c->outer_l4 == CSUM_L4_BAD &&
	    rx_resolve_seed(m, &c->s, &pk->outer) == CSUM_L4_GOOD) {
		c->outer_l4 = CSUM_L4_GOOD;
		st->c[HWCSUM_RX_L4_SEED_RESOLVED]++;
	}
}

/* The inner headers of a tunnel were walked to the end: verdicts to give. */
static inline bool
rx_inner_walked(const struct rx_pkt *pk)
{
	return pk->tunnel == RX_TUNNEL_OK && pk->inner_st == CSUM_WALK_OK;
}

/*
 * The general path, for any packet (chains, headers that do not add up):
 * COMPLETE over the mbuf, then each L4 checksum verified from it by
 * lib/csum, which finds the pseudo-header and the bytes to take out again.
 * sub: a tunnel's outer L4 verdict from the sub-port (0 for none).
 */
static void
rx_checks_general(struct rte_mbuf *m, const struct rx_pkt *pk, uint64_t sub,
		  struct hwcsum_rxq_stats *st, struct rx_checks *c)
{
	/* RFC 6935: a tunnel over IPv6 may send a zero UDP checksum. */
	uint32_t zero_ok = pk->outer.ip_version == 6 ? CSUM_VERIFY_F_IPV6_UDP_ZERO : 0;

	c->s.ok = pk->outer.l3_off != 0 &&
		csum_mbuf_complete(m, pk->outer.l3_off, &c->s.sum) == 0;
	c->s.start = pk->outer.l3_off;
	c->outer_ip = c->outer_l4 = c->inner_ip = c->inner_l4 = -ENOENT;
	if (pk->outer_st == CSUM_WALK_OK && !(sub & RTE_MBUF_F_RX_IP_CKSUM_MASK))
		c->outer_ip = rx_verify_ip(pk, &pk->outer);
	if (pk->tunnel < RX_TUNNEL_INNER_UNKNOWN) {
		if (pk->outer_st == CSUM_WALK_OK)
			c->outer_l4 = rx_verify_l4(m, &c->s, &pk->outer, 0);
		return;
	}
	if (!(sub & RTE_MBUF_F_RX_L4_CKSUM_MASK))
		c->outer_l4 = rx_verify_l4(m, &c->s, &pk->outer, zero_ok);
	else if ((sub & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_NONE)
		c->outer_l4 = rx_resolve_outer(m, pk, &c->s, st);
	if (rx_inner_walked(pk)) {
		c->inner_ip = rx_verify_ip(pk, &pk->inner);
		c->inner_l4 = rx_verify_l4(m, &c->s, &pk->inner, 0);
	}
}

/* The L4 datagram of one IP layer, as the one-pass path checks it. */
struct rx_l4 {
	bool verdict;	 /* UDP/TCP, whole datagram: a checksum to judge */
	bool udp_zero;	 /* UDP with checksum field 0 */
	uint32_t end;	 /* end of the datagram; l4_off when there is no verdict */
	uint32_t pseudo; /* its pseudo-header sum, length and protocol included */
};

/*
 * Locate the L4 datagram behind a complete walk (whole packet in view) as
 * csum_mbuf_verify_l4() would: false where it would refuse the headers (a
 * UDP length or TCP header that does not fit the IP datagram, a
 * jumbogram), which the general path then judges as it always did.
 */
static __rte_always_inline bool
rx_l4_locate(const uint8_t *p, const struct csum_walk *w, struct rx_l4 *l)
{
	uint32_t len;
	uint16_t check;

	l->verdict = false;
	l->udp_zero = false;
	l->end = w->l4_off;
	if ((w->flags & CSUM_WALK_F_FRAGMENT) ||
	    (w->l4_proto != IPPROTO_UDP && w->l4_proto != IPPROTO_TCP))
		return true;
	/* A jumbogram, or a routing header's final destination in the
	 * pseudo-header: csum_mbuf_verify_l4() judges those. */
	if (w->flags & (CSUM_WALK_F_JUMBO | CSUM_WALK_F_ROUTED))
		return false;
	if (w->l4_proto == IPPROTO_UDP) {
		if (w->l4_off + UDP_HLEN > w->l3_end)
			return false;
		len = csum_be16(p + w->l4_off + 4);
		if (len < UDP_HLEN || w->l4_off + len > w->l3_end)
			return false;
		memcpy(&check, p + w->l4_off + 6, sizeof(check));
		l->udp_zero = check == 0;
	} else {
		len = w->l3_end - w->l4_off;
		if (len < 20)
			return false;
	}
	l->verdict = true;
	l->end = w->l4_off + len;
	/* Addresses (IPv4 12..19, IPv6 8..39), then length and protocol. */
	l->pseudo = csum_add(w->ip_version == 4 ?
			     csum_partial_small(p + w->l3_off + 12, 8, 0) :
			     csum_partial_small(p + w->l3_off + 8, 32, 0),
			     rte_cpu_to_be_32(len + w->l4_proto));
	return true;
}

/* The verdict of a datagram whose bytes sum to sum, seen from its start. */
static inline int
rx_l4_status(const struct rx_l4 *l, uint64_t sum, bool zero_ok, bool ipv6)
{
	if (!l->verdict)
		return -ENOENT;
	if (l->udp_zero)
		return !ipv6 || zero_ok ? CSUM_L4_NONE : CSUM_L4_BAD;
	return rx_sum_ok(sum + l->pseudo) ? CSUM_L4_GOOD : CSUM_L4_BAD;
}

/* Sum of an IP header; the usual 20 bytes unrolled. */
static inline uint64_t
rx_hdr_sum64(const uint8_t *h, uint32_t hlen)
{
	return hlen == 20 ? csum_scalar_block64(h, 20) : csum_partial_small64(h, hlen);
}

/*
 * The one-pass path: a packet of one segment, headers the
 * walk understood. The packet is cut where the walk found the headers and
 * each piece summed once: the IP headers (whose sums are the IPv4 header
 * checks), the bytes between the outer L4 header and the inner IP header,
 * each L4 datagram, any trailer. Every verdict and COMPLETE are then sums
 * of pieces plus a pseudo-header from the walk: no header parsed again,
 * nothing subtracted. false: a case for the general path (which gives the
 * same answers for everything this path takes; tests/pmd/test_rx_onepass.c).
 */
static bool
rx_checks_onepass(const struct rx_pkt *pk, uint32_t pkt_len, uint64_t sub,
		  struct rx_checks *c)
{
	const uint8_t *p = pk->view->p;
	const struct csum_walk *o = &pk->outer, *in = &pk->inner;
	uint32_t l3 = o->l3_off, l4 = o->l4_off;
	uint64_t ip_sum, dgram, inner_ip;
	struct rx_l4 ol, il;
	bool tunnel = pk->tunnel >= RX_TUNNEL_INNER_UNKNOWN;

	if (pk->outer_st != CSUM_WALK_OK ||
	    (sub & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_NONE ||
	    !rx_l4_locate(p, o, &ol))
		return false;
	c->outer_ip = c->outer_l4 = c->inner_ip = c->inner_l4 = -ENOENT;
	ip_sum = rx_hdr_sum64(p + l3, l4 - l3);
	if (tunnel && rx_inner_walked(pk)) {
		if (!rx_l4_locate(p, in, &il))
			return false;
		inner_ip = rx_hdr_sum64(p + in->l3_off, in->l4_off - in->l3_off);
		dgram = csum_partial_small64(p + in->l4_off, il.end - in->l4_off);
		if (in->ip_version == 4)
			c->inner_ip = rx_sum_ok(inner_ip);
		c->inner_l4 = rx_l4_status(&il, dgram, false, in->ip_version == 6);
		/* The outer datagram: up to the inner IP header, then the pieces. */
		dgram = csum_partial_small64(p + l4, in->l3_off - l4) +
			rx_at(inner_ip, in->l3_off - l4) +
			rx_at(dgram, in->l4_off - l4) + rx_piece(p, l4, il.end, ol.end);
	} else {
		dgram = csum_partial_small64(p + l4, ol.end - l4);
	}
	if (o->ip_version == 4 && !(sub & RTE_MBUF_F_RX_IP_CKSUM_MASK))
		c->outer_ip = rx_sum_ok(ip_sum);
	if (!(sub & RTE_MBUF_F_RX_L4_CKSUM_MASK))
		/* RFC 6935: a tunnel over IPv6 may send a zero UDP checksum. */
		c->outer_l4 = rx_l4_status(&ol, dgram, tunnel, o->ip_version == 6);
	c->s.ok = true;
	c->s.start = l3;
	c->s.sum = csum_fold64(ip_sum + rx_at(dgram, l4 - l3) +
			       rx_piece(p, l3, ol.end, pkt_len));
	return true;
}

/*
 * A tunnel's inner GOOD stands only over an outer header that is not bad;
 * over a bad one it becomes UNKNOWN. DPDK puts the inner verdicts in
 * RX_IP/L4_CKSUM, but an application that never registered the tunnel
 * reads them as the outer ones: Open vSwitch 3.1's VXLAN/GENEVE pop skips
 * its own outer IPv4 and UDP checks on GOOD (docs/ovs.md). With UNKNOWN it
 * checks, and an application reading DPDK's way drops the packet on its
 * RX_OUTER_*_BAD flag as before.
 */
static uint64_t
rx_inner_good_needs_outer(uint64_t fl)
{
	if ((fl & RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK) == RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD &&
	    (fl & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_GOOD)
		fl &= ~RTE_MBUF_F_RX_L4_CKSUM_MASK;
	if ((fl & RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD) &&
	    (fl & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_GOOD)
		fl &= ~RTE_MBUF_F_RX_IP_CKSUM_MASK;
	return fl;
}

/* Our verdicts, from one COMPLETE sum; sub: a tunnel's outer L4 verdict kept. */
static void
rx_verdicts(const struct hwcsum_private *priv, struct rte_mbuf *m,
	    const struct rx_pkt *pk, uint64_t sub, struct hwcsum_rxq_stats *st)
{
	bool unknown = pk->outer_st != CSUM_WALK_OK &&
		pk->outer_st != CSUM_WALK_NOT_IP;
	struct rte_pmd_hwcsum_csum *f;
	struct rx_checks c;
	uint64_t fl;

	if (m->nb_segs != 1 || m->pkt_len > m->data_len ||
	    !rx_checks_onepass(pk, m->pkt_len, sub, &c))
		rx_checks_general(m, pk, sub, st, &c);
	if (unlikely(priv->rx_partial_seed && c.s.ok &&
		     (c.outer_l4 == CSUM_L4_BAD || c.inner_l4 == CSUM_L4_BAD)))
		rx_resolve_seeds(m, pk, &c, st);
	if (c.s.ok) {
		st->c[HWCSUM_RX_COMPLETE]++;
		/* A bare priv (fuzzers) may have no field registered. */
		if (priv->rx_complete_flag != 0) {
			f = RTE_MBUF_DYNFIELD(m, priv->dynfield_off,
					      struct rte_pmd_hwcsum_csum *);
			f->start = (uint16_t)c.s.start;
			f->sum = csum_fold(c.s.sum);
			m->ol_flags |= priv->rx_complete_flag;
		}
	} else {
		unknown = true;
	}
	if (pk->tunnel < RX_TUNNEL_INNER_UNKNOWN) {
		fl = rx_inner_flags(c.outer_ip, c.outer_l4, st, &unknown);
	} else {
		st->tunnel[__builtin_ctz(pk->type)]++;
		/* A partial outer sum was resolved above: the verdict is ours. */
		if ((sub & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_NONE)
			sub &= ~RTE_MBUF_F_RX_L4_CKSUM_MASK;
		fl = rx_outer_flags(c.outer_ip, c.outer_l4, sub, st, &unknown);
		if (pk->tunnel == RX_TUNNEL_INNER_UNKNOWN)
			st->c[HWCSUM_RX_INNER_UNKNOWN]++;
		else if (pk->inner_st != CSUM_WALK_OK)
			unknown = true;
		else
			fl = rx_inner_good_needs_outer(fl |
				rx_inner_flags(c.inner_ip, c.inner_l4, st, &unknown));
	}
	m->ol_flags |= fl;
	if (unknown)
		st->c[HWCSUM_RX_UNKNOWN]++;
}

/*
 * The sub-port's hardware judged a packet that is no tunnel of ours
 * (virtio-net DATA_VALID, e1000 status bits): keep that, sum nothing.
 */
static void
rx_keep_sub(struct rte_mbuf *m, const struct rx_pkt *pk, uint64_t sub,
	    struct hwcsum_rxq_stats *st)
{
	int ip = -ENOENT;

	st->c[HWCSUM_RX_VERDICT_SUB]++;
	m->ol_flags |= sub & RTE_MBUF_F_RX_L4_CKSUM_MASK;
	if ((sub & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_BAD)
		st->c[HWCSUM_RX_L4_BAD]++;
	if (sub & RTE_MBUF_F_RX_IP_CKSUM_MASK) {
		m->ol_flags |= sub & RTE_MBUF_F_RX_IP_CKSUM_MASK;
		if ((sub & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_BAD)
			st->c[HWCSUM_RX_IP_BAD]++;
		return;
	}
	/* It said nothing of the IPv4 header: 20 bytes, ours to check. */
	if (pk->outer_st == CSUM_WALK_OK)
		ip = rx_verify_ip(pk, &pk->outer);
	if (ip == 1) {
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	} else if (ip == 0) {
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_BAD;
		st->c[HWCSUM_RX_IP_BAD]++;
	}
}

/* One packet, parsed into the caller's v and pk (rte_flow reads them after). */
void
hwcsum_rx_one_parsed(const struct hwcsum_private *priv, struct rte_mbuf *m,
		     struct hwcsum_rxq_stats *st, struct rx_view *v,
		     struct rx_pkt *pk)
{
	uint64_t sub = m->ol_flags & HWCSUM_RX_CKSUM_FLAGS;

	m->ol_flags &= ~(HWCSUM_RX_CKSUM_FLAGS | priv->rx_complete_flag);
	view_get(m, v);
	rx_parse(priv, v, m->pkt_len, pk);
	m->packet_type = rx_ptype(pk);
	m->tx_offload = rx_hdr_lens(pk);
	if (pk->tunnel == RX_TUNNEL_MALFORMED)
		st->c[HWCSUM_RX_TUNNEL_MALFORMED]++;
	/* Only an L4 verdict of the sub-port is kept (a tunnel: as the outer one). */
	if (!(sub & RTE_MBUF_F_RX_L4_CKSUM_MASK)) {
		sub = 0;
	} else if (pk->tunnel < RX_TUNNEL_INNER_UNKNOWN) {
		rx_keep_sub(m, pk, sub, st);
		return;
	} else {
		st->c[HWCSUM_RX_VERDICT_SUB]++;
	}
	rx_verdicts(priv, m, pk, sub, st);
}

void
hwcsum_rx_one(const struct hwcsum_private *priv, struct rte_mbuf *m,
	      struct hwcsum_rxq_stats *st)
{
	struct rx_view v;
	struct rx_pkt pk;

	if (likely(hwcsum_rx_usual(priv, m, m->ol_flags & HWCSUM_RX_CKSUM_FLAGS, st)))
		return;
	hwcsum_rx_one_parsed(priv, m, st, &v, &pk);
}

uint16_t
hwcsum_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_rxq *rxq = queue;
	const struct hwcsum_private *priv = rxq->priv;
	uint16_t nb_rx, i;

	if (hwcsum_rxq_flow_path(rxq))
		return hwcsum_rx_burst_flow(rxq, pkts, n, true);
	if (unlikely(priv->sub_closed))
		return 0;
	nb_rx = hwcsum_sub_rx(rxq, pkts, n);
	for (i = 0; i < nb_rx; i++) {
		/* The next packet's headers come in while this one is worked on. */
		if (i + 1 < nb_rx)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], const void *));
		pkts[i]->port = rxq->port_id;
		hwcsum_rx_one(priv, pkts[i], &rxq->stats);
	}
	return nb_rx;
}

int
hwcsum_rx_bare_create(struct udp_tunnel_registry *reg,
		      struct hwcsum_private **priv, struct hwcsum_rxq_stats **st)
{
	*priv = calloc(1, sizeof(**priv));
	*st = calloc(1, sizeof(**st));
	if (*priv == NULL || *st == NULL) {
		hwcsum_rx_bare_free(*priv, *st);
		*priv = NULL;
		*st = NULL;
		return -ENOMEM;
	}
	(*priv)->rx_work = true;
	(*priv)->dynfield_off = -1;	/* no dynfield: flags and ptype only */
	(*priv)->registry = reg;
	return 0;
}

void
hwcsum_rx_bare_free(struct hwcsum_private *priv, struct hwcsum_rxq_stats *st)
{
	free(priv);
	free(st);
}

static const uint32_t rx_ptypes[] = {
	RTE_PTYPE_L2_ETHER,
	RTE_PTYPE_L2_ETHER_VLAN,
	RTE_PTYPE_L2_ETHER_QINQ,
	RTE_PTYPE_L3_IPV4,
	RTE_PTYPE_L3_IPV4_EXT,
	RTE_PTYPE_L3_IPV6,
	RTE_PTYPE_L3_IPV6_EXT,
	RTE_PTYPE_L4_TCP,
	RTE_PTYPE_L4_UDP,
	RTE_PTYPE_L4_SCTP,
	RTE_PTYPE_L4_ICMP,
	RTE_PTYPE_L4_FRAG,
	RTE_PTYPE_TUNNEL_VXLAN,
	RTE_PTYPE_TUNNEL_GENEVE,
	RTE_PTYPE_TUNNEL_VXLAN_GPE,
	RTE_PTYPE_INNER_L2_ETHER,
	RTE_PTYPE_INNER_L2_ETHER_VLAN,
	RTE_PTYPE_INNER_L2_ETHER_QINQ,
	RTE_PTYPE_INNER_L3_IPV4,
	RTE_PTYPE_INNER_L3_IPV4_EXT,
	RTE_PTYPE_INNER_L3_IPV6,
	RTE_PTYPE_INNER_L3_IPV6_EXT,
	RTE_PTYPE_INNER_L4_TCP,
	RTE_PTYPE_INNER_L4_UDP,
	RTE_PTYPE_INNER_L4_SCTP,
	RTE_PTYPE_INNER_L4_ICMP,
	RTE_PTYPE_INNER_L4_FRAG,
	RTE_PTYPE_UNKNOWN
};

/*
 * Ours when the checksum burst runs (rx=on, or rx=auto with an RX checksum
 * offload configured); in pass-through the sub-port's, as failsafe does.
 */
const uint32_t *
hwcsum_supported_ptypes(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_eth_dev *sub;

	if (priv->args.rx_mode == HWCSUM_RX_ON ||
	    (priv->args.rx_mode == HWCSUM_RX_AUTO && priv->rx_work))
		return rx_ptypes;
	if (priv->sub_closed)
		return NULL;
	sub = &rte_eth_devices[priv->sub_port];
	if (sub->dev_ops->dev_supported_ptypes_get == NULL)
		return NULL;
	return sub->dev_ops->dev_supported_ptypes_get(sub);
}

uint32_t
hwcsum_tunnel_ptype(const struct udp_tunnel_registry *reg __rte_unused,
		    unsigned int type)
{
	return tunnel_ptype(type);
}

unsigned int
rte_pmd_hwcsum_rx_tunnel_type(uint16_t port_id, const struct rte_mbuf *m)
{
	const struct hwcsum_private *priv;
	struct rx_view v;
	struct rx_pkt pk;

	if (m == NULL || !rte_eth_dev_is_valid_port(port_id) ||
	    rte_eth_devices[port_id].dev_ops != &hwcsum_dev_ops)
		return 0;
	priv = hwcsum_priv(&rte_eth_devices[port_id]);
	view_get(m, &v);
	rx_parse(priv, &v, m->pkt_len, &pk);
	/* The same answer as packet_type: a malformed header is plain UDP. */
	return pk.tunnel >= RX_TUNNEL_INNER_UNKNOWN ? pk.type : 0;
}
