/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive path of net_hwcsum, end to end: crafted packets are put on
 * the rte_ring a net_ring sub-port reads, received through hwcsum with
 * rx=on, and judged against what the test knows it built. Checksums are
 * filled by DPDK (rte_ipv4_cksum, rte_ipv4/ipv6_udptcp_cksum), the COMPLETE
 * sum is recomputed with rte_raw_cksum, and the expected flags, packet
 * types and counters are derived from the packet's description, not from
 * the PMD's code.
 *
 * Covered: plain UDP/TCP over IPv4/IPv6, VLAN and QinQ, every tunnel type
 * (VXLAN, GENEVE with options, VXLAN-GPE, GUE from the tunnel_ports=
 * devarg, a type registered at run time) with inner IPv4/IPv6 UDP/TCP,
 * wrong outer/inner IP and L4 checksums, zero UDP checksums, malformed
 * tunnel headers on registered ports, inner protocols that are not IP,
 * the sub-port's own verdicts, truncation at every byte, headers split
 * across segments at every byte (with empty segments), xstats, and that
 * every mbuf goes back to the pool.
 *
 * usage: test_rx <path to librte_net_hwcsum.so>
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "rte_pmd_hwcsum.h"
#include "udp_tunnel.h"
#include "../lib/test_eal.h"
#include "../lib/test_harness.h"

#define PKT_MAX 1600
#define PORT_CUSTOM 7777
#define PORT_GUE 6080

enum tun { T_NONE, T_VXLAN, T_GENEVE, T_GPE, T_GUE, T_CUSTOM };
static const char *const tun_names[] = {
	"plain", "vxlan", "geneve", "vxlan-gpe", "gue", "testenc",
};
static const uint16_t tun_ports[] = { 0, 4789, 6081, 4790, PORT_GUE, PORT_CUSTOM };

/* Which checksum the builder spoils, or leaves out. */
#define BAD_OUTER_IP	(1u << 0)
#define BAD_OUTER_L4	(1u << 1)
#define BAD_INNER_IP	(1u << 2)
#define BAD_INNER_L4	(1u << 3)
#define ZERO_OUTER	(1u << 4)	/* outer (or only) UDP checksum 0 */
#define ZERO_INNER	(1u << 5)

/* Ways to break a tunnel header or make it carry something else. */
enum oddity {
	ODD_NONE = 0,
	ODD_VXLAN_FLAGS,	/* VXLAN without the I flag: malformed */
	ODD_GENEVE_OPTLEN,	/* GENEVE opt_len past the datagram: malformed */
	ODD_GENEVE_TLV,		/* an option TLV longer than opt_len: malformed */
	ODD_GPE_NSH,		/* VXLAN-GPE carrying NSH: inner unknown */
	ODD_CUSTOM_UNKNOWN,	/* run-time type carrying "something else" */
	ODD_INNER_ARP,		/* inner Ethernet carrying ARP */
	ODD_FRAG,		/* outer IPv4 first fragment (MF) */
	ODD_ARP,		/* not IP at all */
};

struct spec {
	const char *name;
	uint8_t vlans;		/* outer tags: 1 is 802.1Q, 2 is 802.1ad + 802.1Q */
	bool v6;
	uint8_t l4;		/* 6 or 17 without a tunnel */
	enum tun tun;
	bool inner_eth;		/* GPE and the run-time type: Ethernet, not IP */
	uint8_t inner_vlans;
	bool inner_v6;
	uint8_t inner_l4;
	uint8_t geneve_opts;	/* option words */
	uint16_t payload;
	uint16_t trailer;	/* Ethernet padding after the datagram */
	uint32_t csum;		/* BAD_* and ZERO_* */
	enum oddity odd;
	uint64_t sub;		/* RX checksum flags "the sub-port set" */
};

struct layout {
	uint32_t len, l3, l4, in_l3, in_l4;
};

/* ---------------------------------------------------------------- build */

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint32_t
eth(uint8_t *p, uint32_t off, uint8_t vlans, uint16_t type)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
	unsigned int i;

	memcpy(p + off, macs, 12);
	off += 12;
	for (i = 0; i < vlans; i++) {
		put16(p + off, vlans == 2 && i == 0 ? 0x88a8 : 0x8100);
		put16(p + off + 2, (uint16_t)(100 + i));
		off += 4;
	}
	put16(p + off, type);
	return off + 2;
}

/* An IP header at off carrying l4_len bytes of proto; returns the L4 offset. */
static uint32_t
ip(uint8_t *p, uint32_t off, bool v6, uint8_t proto, uint32_t l4_len,
   uint8_t host)
{
	if (v6) {
		memset(p + off, 0, 40);
		p[off] = 0x60;
		put16(p + off + 4, (uint16_t)l4_len);
		p[off + 6] = proto;
		p[off + 7] = 64;
		p[off + 8] = 0xfd;
		p[off + 23] = host;
		p[off + 24] = 0xfd;
		p[off + 39] = (uint8_t)(host + 1);
		return off + 40;
	}
	memset(p + off, 0, 20);
	p[off] = 0x45;
	put16(p + off + 2, (uint16_t)(20 + l4_len));
	put16(p + off + 4, 0x1234);
	put16(p + off + 6, 0x4000);
	p[off + 8] = 64;
	p[off + 9] = proto;
	p[off + 12] = 10;
	p[off + 15] = host;
	p[off + 16] = 10;
	p[off + 19] = (uint8_t)(host + 1);
	return off + 20;
}

static uint32_t
l4_hlen(uint8_t proto)
{
	return proto == IPPROTO_TCP ? 20 : 8;
}

static void
l4(uint8_t *p, uint32_t off, uint8_t proto, uint16_t dport, uint32_t len)
{
	memset(p + off, 0, l4_hlen(proto));
	put16(p + off, 49152);
	put16(p + off + 2, dport);
	if (proto == IPPROTO_TCP) {
		p[off + 12] = 0x50;
		p[off + 13] = 0x18;
		put16(p + off + 14, 4096);
	} else {
		put16(p + off + 4, (uint16_t)len);
	}
}

/* DPDK fills the L4 checksum (field zeroed first), then we spoil it. */
static void
l4_csum(uint8_t *p, uint32_t l3, uint32_t l4_off, uint8_t proto, bool v6,
	bool bad, bool zero)
{
	uint32_t field = l4_off + (proto == IPPROTO_TCP ? 16 : 6);
	uint16_t c;

	memset(p + field, 0, 2);
	if (zero)
		return;
	if (v6)
		c = rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)(p + l3), p + l4_off);
	else
		c = rte_ipv4_udptcp_cksum((const struct rte_ipv4_hdr *)(p + l3), p + l4_off);
	if (bad)
		c ^= 0x5a5a;
	memcpy(p + field, &c, 2);
}

static void
ip_csum(uint8_t *p, uint32_t l3, bool v6, bool bad)
{
	uint16_t c;

	if (v6)
		return;
	c = rte_ipv4_cksum((const struct rte_ipv4_hdr *)(p + l3));
	if (bad)
		c ^= 0x00ff;
	memcpy(p + l3 + 10, &c, 2);
}

static uint32_t
tun_hlen(const struct spec *s)
{
	switch (s->tun) {
	case T_VXLAN:
	case T_GPE:
		return 8;
	case T_GENEVE:
		return 8 + 4u * s->geneve_opts;
	case T_GUE:
	case T_CUSTOM:
		return 4;
	default:
		return 0;
	}
}

static bool
has_inner_eth(const struct spec *s)
{
	return s->tun == T_VXLAN || s->tun == T_GENEVE ||
		((s->tun == T_GPE || s->tun == T_CUSTOM) && s->inner_eth);
}

/* The tunnel header at off, for an inner packet of the spec's kind. */
static void
tun_hdr(uint8_t *p, uint32_t off, const struct spec *s)
{
	uint32_t i;

	memset(p + off, 0, tun_hlen(s));
	switch (s->tun) {
	case T_VXLAN:
		p[off] = s->odd == ODD_VXLAN_FLAGS ? 0x00 : 0x08;
		p[off + 6] = 0x42; /* VNI */
		break;
	case T_GENEVE:
		p[off] = s->odd == ODD_GENEVE_OPTLEN ? 0x3f : s->geneve_opts;
		put16(p + off + 2, 0x6558);
		p[off + 6] = 0x42;
		/* TLVs of one, then up to 31 data words each, filling opt_len. */
		for (i = 0; i < s->geneve_opts;) {
			uint32_t left = s->geneve_opts - i;
			uint32_t data = i == 0 && left >= 2 ? 1 : RTE_MIN(left - 1, 31u);

			put16(p + off + 8 + 4 * i, 0x0102);
			p[off + 8 + 4 * i + 2] = 0x80;
			p[off + 8 + 4 * i + 3] = (uint8_t)data;
			i += 1 + data;
		}
		if (s->odd == ODD_GENEVE_TLV)
			p[off + 8 + 3] = 0x1f;
		break;
	case T_GPE:
		p[off] = 0x0c; /* I and P */
		p[off + 3] = s->odd == ODD_GPE_NSH ? 4 : s->inner_eth ? 3 :
			s->inner_v6 ? 2 : 1;
		p[off + 6] = 0x42;
		break;
	case T_GUE:
		p[off + 1] = s->inner_v6 ? 41 : 4;
		break;
	case T_CUSTOM:
		p[off] = 0xab;
		p[off + 1] = s->odd == ODD_CUSTOM_UNKNOWN ? 3 : s->inner_eth ? 1 : 2;
		break;
	default:
		break;
	}
}

static uint32_t
build(uint8_t *p, const struct spec *s, struct layout *lay)
{
	uint32_t off, ulen, in_len = 0, in_l4_len = 0;

	memset(lay, 0, sizeof(*lay));
	if (s->tun != T_NONE) {
		in_l4_len = l4_hlen(s->inner_l4) + s->payload;
		in_len = (has_inner_eth(s) ? 14u + 4u * s->inner_vlans : 0) +
			(s->inner_v6 ? 40 : 20) + in_l4_len;
		ulen = 8 + tun_hlen(s) + in_len;
	} else {
		ulen = l4_hlen(s->l4) + s->payload;
	}
	off = eth(p, 0, s->vlans, s->odd == ODD_ARP ? 0x0806 : s->v6 ? 0x86dd : 0x0800);
	lay->l3 = off;
	lay->l4 = ip(p, off, s->v6, s->tun ? IPPROTO_UDP : s->l4, ulen, 1);
	if (s->odd == ODD_FRAG)
		put16(p + off + 6, 0x2000);
	l4(p, lay->l4, s->tun ? IPPROTO_UDP : s->l4, tun_ports[s->tun], ulen);
	off = lay->l4 + (s->tun ? 8 : l4_hlen(s->l4));
	if (s->tun != T_NONE) {
		tun_hdr(p, off, s);
		off += tun_hlen(s);
		if (has_inner_eth(s))
			off = eth(p, off, s->inner_vlans, s->odd == ODD_INNER_ARP ? 0x0806 :
				  s->inner_v6 ? 0x86dd : 0x0800);
		lay->in_l3 = off;
		lay->in_l4 = ip(p, off, s->inner_v6, s->inner_l4, in_l4_len, 20);
		l4(p, lay->in_l4, s->inner_l4, 80, in_l4_len);
		off = lay->in_l4 + l4_hlen(s->inner_l4);
	}
	for (uint32_t i = 0; i < s->payload; i++)
		p[off + i] = (uint8_t)(i * 7 + 3);
	off += s->payload;
	lay->len = off + s->trailer;
	memset(p + off, 0, s->trailer);
	/* Inside out: the outer UDP checksum covers the inner packet. */
	if (s->tun != T_NONE) {
		l4_csum(p, lay->in_l3, lay->in_l4, s->inner_l4, s->inner_v6,
			s->csum & BAD_INNER_L4, s->csum & ZERO_INNER);
		ip_csum(p, lay->in_l3, s->inner_v6, s->csum & BAD_INNER_IP);
	}
	l4_csum(p, lay->l3, lay->l4, s->tun ? IPPROTO_UDP : s->l4, s->v6,
		s->csum & BAD_OUTER_L4, s->csum & ZERO_OUTER);
	ip_csum(p, lay->l3, s->v6, s->csum & BAD_OUTER_IP);
	return lay->len;
}

/* The run-time type: 0xab, then 1 (Ethernet), 2 (IPv4), 3 (something else). */
static int
parse_testenc(const uint8_t *hdr, size_t len, struct udp_tunnel_parse_result *res)
{
	static const uint16_t types[] = { 0, UDP_TUNNEL_ETH_P_TEB, UDP_TUNNEL_ETH_P_IPV4 };

	if (len < 4 || hdr[0] != 0xab || hdr[1] == 0 || hdr[1] > 3)
		return -EBADMSG;
	memset(res, 0, sizeof(*res));
	if (hdr[1] == 3)
		return -EPROTONOSUPPORT;
	res->inner_offset = 4;
	res->inner_ethertype = types[hdr[1]];
	return 0;
}

/* ------------------------------------------------------------ expected */

enum cnt {
	C_COMPLETE, C_SUB, C_IP_BAD, C_L4_BAD, C_OUTER_IP_BAD, C_OUTER_L4_BAD,
	C_L4_NONE, C_UNKNOWN, C_MALFORMED, C_INNER_UNKNOWN, C_OUTER_RESOLVED,
	C_T_VXLAN, C_T_GENEVE, C_T_GPE, C_T_GUE, C_T_CUSTOM, C__COUNT
};
static const char *const cnt_names[C__COUNT] = {
	"rx_complete", "rx_verdict_from_sub", "rx_ip_bad", "rx_l4_bad",
	"rx_outer_ip_bad", "rx_outer_l4_bad", "rx_l4_none", "rx_unknown",
	"rx_tunnel_malformed", "rx_tunnel_inner_unknown",
	"rx_outer_l4_partial_resolved", "rx_tunnel_vxlan",
	"rx_tunnel_geneve", "rx_tunnel_vxlan-gpe", "rx_tunnel_gue",
	"rx_tunnel_testenc",
};

struct expect {
	uint64_t flags;		/* RX checksum flags */
	uint32_t ptype;
	bool complete;
	unsigned int tun_bit;	/* rx_tunnel_type() */
	uint64_t cnt[C__COUNT];
	/* rte_pmd_hwcsum_rx_verify_l4() for outer and inner: 1, 0, 2, or -1 to skip. */
	int helper_outer, helper_inner;
};

static unsigned int tun_bits[6];

static uint32_t
l2_pt(uint8_t vlans)
{
	return vlans == 0 ? RTE_PTYPE_L2_ETHER : vlans == 1 ?
		RTE_PTYPE_L2_ETHER_VLAN : RTE_PTYPE_L2_ETHER_QINQ;
}

static uint32_t
l3l4_pt(bool v6, uint8_t proto)
{
	return (v6 ? RTE_PTYPE_L3_IPV6 : RTE_PTYPE_L3_IPV4) |
		(proto == IPPROTO_TCP ? RTE_PTYPE_L4_TCP : RTE_PTYPE_L4_UDP);
}

static uint32_t
inner_l2_pt(uint8_t vlans)
{
	return vlans == 0 ? RTE_PTYPE_INNER_L2_ETHER : vlans == 1 ?
		RTE_PTYPE_INNER_L2_ETHER_VLAN : RTE_PTYPE_INNER_L2_ETHER_QINQ;
}

static uint32_t
inner_l3l4_pt(bool v6, uint8_t proto)
{
	return (v6 ? RTE_PTYPE_INNER_L3_IPV6 : RTE_PTYPE_INNER_L3_IPV4) |
		(proto == IPPROTO_TCP ? RTE_PTYPE_INNER_L4_TCP : RTE_PTYPE_INNER_L4_UDP);
}

static bool
malformed(const struct spec *s)
{
	return s->odd == ODD_VXLAN_FLAGS || s->odd == ODD_GENEVE_OPTLEN ||
		s->odd == ODD_GENEVE_TLV;
}

/* L4 verdict flag (plain or inner) for a checksum we built. */
static uint64_t
l4_expect(struct expect *e, bool v6, uint8_t proto, bool bad, bool zero,
	  int *helper)
{
	if (proto == IPPROTO_UDP && zero) {
		if (v6) {
			e->cnt[C_L4_BAD]++; /* RFC 8200: zero is wrong */
			*helper = 0;
			return RTE_MBUF_F_RX_L4_CKSUM_BAD;
		}
		e->cnt[C_L4_NONE]++;
		*helper = 2;
		return 0;
	}
	*helper = bad ? 0 : 1;
	if (bad) {
		e->cnt[C_L4_BAD]++;
		return RTE_MBUF_F_RX_L4_CKSUM_BAD;
	}
	return RTE_MBUF_F_RX_L4_CKSUM_GOOD;
}

static uint64_t
ip_expect(struct expect *e, bool v6, bool bad)
{
	if (v6)
		return 0;
	if (bad) {
		e->cnt[C_IP_BAD]++;
		return RTE_MBUF_F_RX_IP_CKSUM_BAD;
	}
	return RTE_MBUF_F_RX_IP_CKSUM_GOOD;
}

static void
expect_plain(const struct spec *s, struct expect *e)
{
	uint8_t proto = s->tun ? IPPROTO_UDP : s->l4;
	uint64_t sub_l4 = s->sub & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	e->ptype = l2_pt(s->vlans);
	if (s->odd == ODD_ARP) {
		e->complete = true;
		e->cnt[C_COMPLETE]++;
		return;
	}
	e->ptype |= l3l4_pt(s->v6, proto);
	if (malformed(s))
		e->cnt[C_MALFORMED]++;
	if (sub_l4) {
		/* Kept, not summed. */
		e->cnt[C_SUB]++;
		e->flags = sub_l4;
		if (sub_l4 == RTE_MBUF_F_RX_L4_CKSUM_BAD)
			e->cnt[C_L4_BAD]++;
		if (s->sub & RTE_MBUF_F_RX_IP_CKSUM_MASK) {
			e->flags |= s->sub & RTE_MBUF_F_RX_IP_CKSUM_MASK;
			if ((s->sub & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_BAD)
				e->cnt[C_IP_BAD]++;
		} else {
			e->flags |= ip_expect(e, s->v6, s->csum & BAD_OUTER_IP);
		}
		return;
	}
	e->complete = true;
	e->cnt[C_COMPLETE]++;
	e->flags = ip_expect(e, s->v6, s->csum & BAD_OUTER_IP);
	if (s->odd == ODD_FRAG) {
		e->ptype = (e->ptype & ~RTE_PTYPE_L4_MASK) | RTE_PTYPE_L4_FRAG;
		return;
	}
	e->flags |= l4_expect(e, s->v6, proto, s->csum & BAD_OUTER_L4,
			      s->csum & ZERO_OUTER, &e->helper_outer);
}

/* An inner GOOD over a bad outer header is UNKNOWN (docs/ovs.md). */
static uint64_t
inner_good_needs_outer(uint64_t f)
{
	if ((f & RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK) == RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD &&
	    (f & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_GOOD)
		f &= ~RTE_MBUF_F_RX_L4_CKSUM_MASK;
	if ((f & RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD) &&
	    (f & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_GOOD)
		f &= ~RTE_MBUF_F_RX_IP_CKSUM_MASK;
	return f;
}

static void
expect_tunnel(const struct spec *s, struct expect *e)
{
	uint64_t sub_l4 = s->sub & RTE_MBUF_F_RX_L4_CKSUM_MASK;
	bool unknown_inner = s->odd == ODD_GPE_NSH || s->odd == ODD_CUSTOM_UNKNOWN ||
		s->odd == ODD_INNER_ARP;

	e->complete = true;
	e->cnt[C_COMPLETE]++;
	e->tun_bit = tun_bits[s->tun];
	e->cnt[C_T_VXLAN + s->tun - T_VXLAN]++;
	e->ptype = l2_pt(s->vlans) | l3l4_pt(s->v6, IPPROTO_UDP);
	e->ptype |= s->tun == T_VXLAN ? RTE_PTYPE_TUNNEL_VXLAN :
		s->tun == T_GENEVE ? RTE_PTYPE_TUNNEL_GENEVE :
		s->tun == T_GPE ? RTE_PTYPE_TUNNEL_VXLAN_GPE : 0;
	if (sub_l4) {
		e->cnt[C_SUB]++;
		if (sub_l4 == RTE_MBUF_F_RX_L4_CKSUM_GOOD)
			e->flags |= RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
		else if (sub_l4 == RTE_MBUF_F_RX_L4_CKSUM_BAD)
			e->flags |= RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD;
		/* Data verified, field maybe a seed: made right, then GOOD. */
		if (sub_l4 == RTE_MBUF_F_RX_L4_CKSUM_NONE && !(s->csum & ZERO_OUTER)) {
			e->flags |= RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
			e->cnt[C_OUTER_RESOLVED]++;
		}
		if (sub_l4 == RTE_MBUF_F_RX_L4_CKSUM_BAD)
			e->cnt[C_OUTER_L4_BAD]++;
	} else if (s->csum & ZERO_OUTER) {
		e->cnt[C_L4_NONE]++; /* RFC 6935 over IPv6 too */
	} else if (s->csum & BAD_OUTER_L4) {
		e->flags |= RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD;
		e->cnt[C_OUTER_L4_BAD]++;
	} else {
		e->flags |= RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
	}
	if (!s->v6 && (s->csum & BAD_OUTER_IP)) {
		e->flags |= RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD;
		e->cnt[C_OUTER_IP_BAD]++;
	}
	e->helper_outer = s->csum & ZERO_OUTER ? (s->v6 ? -1 : 2) :
		(s->csum & BAD_OUTER_L4 ? 0 : 1);
	if (unknown_inner) {
		e->cnt[C_INNER_UNKNOWN]++;
		if (s->odd == ODD_INNER_ARP)
			e->ptype |= inner_l2_pt(s->inner_vlans);
		return;
	}
	if (has_inner_eth(s))
		e->ptype |= inner_l2_pt(s->inner_vlans);
	e->ptype |= inner_l3l4_pt(s->inner_v6, s->inner_l4);
	e->flags |= ip_expect(e, s->inner_v6, s->csum & BAD_INNER_IP);
	e->flags |= l4_expect(e, s->inner_v6, s->inner_l4, s->csum & BAD_INNER_L4,
			      s->csum & ZERO_INNER, &e->helper_inner);
	e->flags = inner_good_needs_outer(e->flags);
}

static void
expect_of(const struct spec *s, struct expect *e)
{
	memset(e, 0, sizeof(*e));
	e->helper_outer = e->helper_inner = -1;
	if (s->tun == T_NONE || malformed(s) || s->odd == ODD_FRAG || s->odd == ODD_ARP)
		expect_plain(s, e);
	else
		expect_tunnel(s, e);
}

/* ------------------------------------------------------------- the port */

static struct rte_mempool *mp;
static struct harness_rings rings;
static uint16_t port, ring_port;
static struct rte_pmd_hwcsum_dyn dyn;
static uint64_t cnt_ids[C__COUNT];
/* rte_pmd_hwcsum_rx_tunnel_type(), from the PMD EAL loaded. */
static unsigned int (*rx_tunnel_type)(uint16_t, const struct rte_mbuf *);
static bool cnt_ok;

#define RX_CKSUM_ALL (RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK | \
		      RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD | RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK)

static void
counters(uint64_t *v)
{
	memset(v, 0, sizeof(*v) * C__COUNT);
	if (cnt_ok)
		CHECK(rte_eth_xstats_get_by_id(port, cnt_ids, v, C__COUNT) == C__COUNT,
		      "xstats by id");
}

/* An mbuf chain holding p[0..len) cut at cuts[] (0: an empty segment). */
static struct rte_mbuf *
chain(const uint8_t *p, uint32_t len, const uint32_t *cuts, unsigned int n_cuts)
{
	struct rte_mbuf *head = NULL, *m;
	uint32_t done = 0;
	unsigned int i;

	for (i = 0; i <= n_cuts; i++) {
		uint32_t n = len - done;

		if (i < n_cuts)
			n = RTE_MIN(n, cuts[i]);
		else if (n == 0 && head != NULL)
			break;
		m = rte_pktmbuf_alloc(mp);
		if (m == NULL)
			rte_exit(EXIT_FAILURE, "mbuf pool empty\n");
		memcpy(rte_pktmbuf_append(m, (uint16_t)n), p + done, n);
		done += n;
		if (head == NULL)
			head = m;
		else
			CHECK(rte_pktmbuf_chain(head, m) == 0, "chain");
	}
	return head;
}

static struct rte_mbuf *
receive(struct rte_mbuf *m)
{
	struct rte_mbuf *out[4];
	uint16_t n;
	int tries;

	CHECK(rte_ring_enqueue(rings.rx, m) == 0, "enqueue");
	for (tries = 0, n = 0; tries < 10 && n == 0; tries++)
		n = rte_eth_rx_burst(port, 0, out, 4);
	CHECK(n == 1, "received %u packets, expected 1", n);
	if (n != 1) {
		rte_pktmbuf_free_bulk(out, n);
		return NULL;
	}
	return out[0];
}

/* rte_raw_cksum over the flat packet from l3: the independent COMPLETE. */
static uint16_t
raw_from(const uint8_t *p, uint32_t len, uint32_t start)
{
	return rte_raw_cksum(p + start, len - start);
}

/* L4 header length a ptype implies for the builder's packets (TCP: no options). */
static uint32_t
pt_l4_hlen(uint32_t l4_pt)
{
	if (l4_pt == RTE_PTYPE_L4_TCP || l4_pt == RTE_PTYPE_INNER_L4_TCP)
		return 20;
	if (l4_pt == RTE_PTYPE_L4_UDP || l4_pt == RTE_PTYPE_INNER_L4_UDP)
		return 8;
	return 0;
}

/*
 * The header lengths hwcsum leaves in tx_offload (docs/pmd.md, Receive),
 * from the builder's layout: the tunnel layout when the inner IP header
 * was understood, the outer one when the outer IP header was, else none.
 */
static uint64_t
hdr_lens(const struct layout *lay, uint32_t ptype)
{
	uint32_t l2, l3, l4, ol2 = 0, ol3 = 0;

	if (ptype & RTE_PTYPE_INNER_L3_MASK) {
		ol2 = lay->l3;
		ol3 = lay->l4 - lay->l3;
		l2 = lay->in_l3 - lay->l4;
		l3 = lay->in_l4 - lay->in_l3;
		l4 = pt_l4_hlen(ptype & RTE_PTYPE_INNER_L4_MASK);
	} else if (ptype & RTE_PTYPE_L3_MASK) {
		l2 = lay->l3;
		l3 = lay->l4 - lay->l3;
		l4 = pt_l4_hlen(ptype & RTE_PTYPE_L4_MASK);
	} else {
		return 0;
	}
	if (l2 > 127 || l3 > 511 || ol2 > 127 || ol3 > 511)
		return 0;
	return rte_mbuf_tx_offload(l2, l3, l4, 0, ol3, ol2, 0);
}

static void
judge(const char *what, const struct spec *s, const uint8_t *p,
      const struct layout *lay, struct rte_mbuf *m, const struct expect *e,
      const uint64_t *before, bool helper_ok)
{
	uint64_t after[C__COUNT];
	uint16_t start, sum;
	unsigned int i;
	bool complete = rte_pmd_hwcsum_rx_complete(&dyn, m, &start, &sum);

	CHECK(m->port == port, "%s %s: port %u", s->name, what, m->port);
	CHECK((m->ol_flags & RX_CKSUM_ALL) == e->flags,
	      "%s %s: flags %#" PRIx64 ", expected %#" PRIx64, s->name, what,
	      (uint64_t)(m->ol_flags & RX_CKSUM_ALL), e->flags);
	CHECK(m->packet_type == e->ptype, "%s %s: ptype %#x, expected %#x",
	      s->name, what, m->packet_type, e->ptype);
	CHECK(m->tx_offload == hdr_lens(lay, e->ptype),
	      "%s %s: header lengths %#" PRIx64 ", expected %#" PRIx64, s->name,
	      what, (uint64_t)m->tx_offload, hdr_lens(lay, e->ptype));
	CHECK(complete == e->complete, "%s %s: COMPLETE %d, expected %d", s->name,
	      what, complete, e->complete);
	if (complete && e->complete)
		CHECK(start == lay->l3 && sum == raw_from(p, lay->len, lay->l3),
		      "%s %s: COMPLETE {%u, %#x}, rte_raw_cksum {%u, %#x}", s->name,
		      what, start, sum, lay->l3, raw_from(p, lay->len, lay->l3));
	CHECK(rx_tunnel_type(port, m) == e->tun_bit,
	      "%s %s: tunnel type %#x, expected %#x", s->name, what,
	      rx_tunnel_type(port, m), e->tun_bit);
	if (helper_ok && complete && e->helper_outer >= 0)
		CHECK(rte_pmd_hwcsum_rx_verify_l4(&dyn, m, lay->l3, lay->l4) ==
		      e->helper_outer, "%s %s: rx_verify_l4 outer %d, expected %d",
		      s->name, what, rte_pmd_hwcsum_rx_verify_l4(&dyn, m, lay->l3, lay->l4),
		      e->helper_outer);
	if (helper_ok && complete && e->helper_inner >= 0)
		CHECK(rte_pmd_hwcsum_rx_verify_l4(&dyn, m, lay->in_l3, lay->in_l4) ==
		      e->helper_inner, "%s %s: rx_verify_l4 inner %d, expected %d",
		      s->name, what, rte_pmd_hwcsum_rx_verify_l4(&dyn, m, lay->in_l3,
		      lay->in_l4), e->helper_inner);
	counters(after);
	for (i = 0; cnt_ok && i < C__COUNT; i++)
		CHECK(after[i] - before[i] == e->cnt[i],
		      "%s %s: %s went up by %" PRIu64 ", expected %" PRIu64, s->name,
		      what, cnt_names[i], after[i] - before[i], e->cnt[i]);
}

/* One packet, cut into segments as asked; flags as the sub-port "set" them. */
static void
run(const struct spec *s, const uint32_t *cuts, unsigned int n_cuts,
    const char *what)
{
	static uint8_t p[PKT_MAX];
	uint64_t before[C__COUNT];
	struct layout lay;
	struct expect e;
	struct rte_mbuf *m;
	uint32_t len = build(p, s, &lay);
	/* The inline helper reads headers across segments as lib/csum does. */
	bool helper_ok = true;

	expect_of(s, &e);
	m = chain(p, len, cuts, n_cuts);
	/* Stale verdicts a real sub-port would never leave: must be cleared. */
	m->ol_flags = s->sub ? s->sub : RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD |
		RTE_MBUF_F_RX_IP_CKSUM_BAD | dyn.rx_complete;
	m->packet_type = RTE_PTYPE_L2_ETHER_TIMESYNC;
	counters(before);
	m = receive(m);
	if (m == NULL)
		return;
	judge(what, s, p, &lay, m, &e, before, helper_ok);
	rte_pktmbuf_free(m);
}

static void
run_flat(const struct spec *s)
{
	run(s, NULL, 0, "flat");
}

/* Every split point, then with an empty segment at the split. */
static void
run_splits(const struct spec *s)
{
	static uint8_t p[PKT_MAX];
	struct layout lay;
	uint32_t len = build(p, s, &lay), at;
	char what[64];

	for (at = 1; at < len; at++) {
		uint32_t two[1] = { at }, three[3] = { at, 0, 3 };

		snprintf(what, sizeof(what), "split at %u", at);
		run(s, two, 1, what);
		snprintf(what, sizeof(what), "split at %u, empty, 3", at);
		run(s, three, 3, what);
	}
}

/* ------------------------------------------------------------- the cases */

static void
test_plain(void)
{
	static const struct spec specs[] = {
		{ "v4/udp", .l4 = 17, .payload = 33 },
		{ "v4/tcp", .l4 = 6, .payload = 100 },
		{ "v6/udp", .v6 = true, .l4 = 17, .payload = 64 },
		{ "v6/tcp", .v6 = true, .l4 = 6, .payload = 1 },
		{ "vlan/v4/udp", .vlans = 1, .l4 = 17, .payload = 10 },
		{ "qinq/v6/tcp", .vlans = 2, .v6 = true, .l4 = 6, .payload = 51 },
		{ "v4/udp padded", .l4 = 17, .payload = 4, .trailer = 14 },
		{ "v6/tcp padded", .v6 = true, .l4 = 6, .payload = 0, .trailer = 7 },
		{ "v4/tcp bad ip", .l4 = 6, .payload = 20, .csum = BAD_OUTER_IP },
		{ "v4/udp bad l4", .l4 = 17, .payload = 20, .csum = BAD_OUTER_L4 },
		{ "v6/tcp bad l4", .v6 = true, .l4 = 6, .payload = 20, .csum = BAD_OUTER_L4 },
		{ "v4/udp bad both", .l4 = 17, .payload = 9, .csum = BAD_OUTER_L4 | BAD_OUTER_IP },
		{ "v4/udp zero", .l4 = 17, .payload = 20, .csum = ZERO_OUTER },
		{ "v6/udp zero", .v6 = true, .l4 = 17, .payload = 20, .csum = ZERO_OUTER },
		{ "v4/udp first fragment", .l4 = 17, .payload = 20, .odd = ODD_FRAG },
		{ "vxlan port, first fragment", .tun = T_VXLAN, .inner_l4 = 17,
		  .payload = 20, .odd = ODD_FRAG },
		{ "arp", .l4 = 17, .payload = 20, .odd = ODD_ARP },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(specs); i++)
		run_flat(&specs[i]);
}

/* Every tunnel type, outer v4/v6, inner v4/v6 UDP/TCP, inner Ethernet or IP. */
static void
test_tunnels(void)
{
	static char names[64][48];
	unsigned int n = 0, t, k;

	for (t = T_VXLAN; t <= T_CUSTOM; t++) {
		for (k = 0; k < 16; k++) {
			struct spec s = {
				.tun = t, .v6 = k & 1, .inner_v6 = k & 2,
				.inner_l4 = k & 4 ? 6 : 17, .inner_eth = k & 8,
				.payload = (uint16_t)(17 + n),
				.geneve_opts = t == T_GENEVE ? 3 : 0,
			};

			/* Only GPE and ours choose Ethernet or IP; ours has no inner IPv6. */
			if (s.inner_eth && t != T_GPE && t != T_CUSTOM)
				continue;
			if (t == T_CUSTOM && !s.inner_eth && s.inner_v6)
				continue;
			snprintf(names[n], sizeof(names[n]), "%s%s/v%d/v%d/%s",
				 tun_names[t], s.inner_eth ? "+eth" : "",
				 s.v6 ? 6 : 4, s.inner_v6 ? 6 : 4,
				 s.inner_l4 == 6 ? "tcp" : "udp");
			s.name = names[n++];
			run_flat(&s);
		}
	}
	printf("tunnels: %u shapes\n", n);
}

static const struct spec tunnel_specs[] = {
	{ "vlan/vxlan/vlan inner", .vlans = 1, .tun = T_VXLAN, .inner_vlans = 1,
	  .inner_l4 = 6, .payload = 40 },
	{ "qinq/geneve opts/qinq inner", .vlans = 2, .v6 = true, .tun = T_GENEVE,
	  .geneve_opts = 5, .inner_vlans = 2, .inner_l4 = 17, .payload = 30 },
	{ "geneve 63-word options", .tun = T_GENEVE, .geneve_opts = 63, .inner_l4 = 6,
	  .payload = 10 },
	{ "vxlan bad outer ip", .tun = T_VXLAN, .inner_l4 = 17, .payload = 10,
	  .csum = BAD_OUTER_IP },
	{ "vxlan bad outer udp", .tun = T_VXLAN, .inner_l4 = 17, .payload = 10,
	  .csum = BAD_OUTER_L4 },
	{ "vxlan bad inner ip", .tun = T_VXLAN, .inner_l4 = 6, .payload = 10,
	  .csum = BAD_INNER_IP },
	{ "vxlan bad inner tcp", .tun = T_VXLAN, .inner_l4 = 6, .payload = 10,
	  .csum = BAD_INNER_L4 },
	{ "geneve/v6 all bad", .tun = T_GENEVE, .v6 = true, .geneve_opts = 2,
	  .inner_l4 = 17, .payload = 10,
	  .csum = BAD_OUTER_L4 | BAD_INNER_IP | BAD_INNER_L4 },
	{ "gue/v4 bad outer ip, bad inner udp", .tun = T_GUE, .inner_l4 = 17,
	  .payload = 10, .csum = BAD_OUTER_IP | BAD_INNER_L4 },
	{ "vxlan/v4 zero outer", .tun = T_VXLAN, .inner_l4 = 17, .payload = 10,
	  .csum = ZERO_OUTER },
	{ "vxlan/v6 zero outer (RFC 6935)", .tun = T_VXLAN, .v6 = true, .inner_l4 = 6,
	  .payload = 10, .csum = ZERO_OUTER },
	{ "geneve/v6 zero outer, zero inner v4", .tun = T_GENEVE, .v6 = true,
	  .inner_l4 = 17, .payload = 10, .csum = ZERO_OUTER | ZERO_INNER },
	{ "vxlan zero inner v6 udp", .tun = T_VXLAN, .inner_v6 = true,
	  .inner_l4 = 17, .payload = 10, .csum = ZERO_INNER },
	{ "vxlan padded", .tun = T_VXLAN, .inner_l4 = 17, .payload = 2, .trailer = 9 },
	{ "malformed vxlan", .tun = T_VXLAN, .inner_l4 = 17, .payload = 10,
	  .odd = ODD_VXLAN_FLAGS },
	{ "malformed vxlan/v6 zero udp", .tun = T_VXLAN, .v6 = true, .inner_l4 = 17,
	  .payload = 10, .odd = ODD_VXLAN_FLAGS, .csum = ZERO_OUTER },
	{ "geneve opt_len past the end", .tun = T_GENEVE, .geneve_opts = 1,
	  .inner_l4 = 17, .payload = 10, .odd = ODD_GENEVE_OPTLEN },
	{ "geneve option TLV past opt_len", .tun = T_GENEVE, .geneve_opts = 2,
	  .inner_l4 = 17, .payload = 10, .odd = ODD_GENEVE_TLV },
	{ "gpe carrying nsh", .tun = T_GPE, .inner_l4 = 17, .payload = 10,
	  .odd = ODD_GPE_NSH, .csum = BAD_OUTER_L4 },
	{ "run-time type, unknown inner", .tun = T_CUSTOM, .inner_l4 = 17,
	  .payload = 10, .odd = ODD_CUSTOM_UNKNOWN },
	{ "vxlan carrying arp", .tun = T_VXLAN, .inner_l4 = 17, .payload = 10,
	  .odd = ODD_INNER_ARP },
};

static void
test_tunnel_cases(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(tunnel_specs); i++)
		run_flat(&tunnel_specs[i]);
}

/* The sub-port's verdicts: kept for plain packets, outer for tunnels. */
static void
test_sub_verdicts(void)
{
	static const struct spec specs[] = {
		/* Checksums wrong, sub-port says good: kept (nothing was summed). */
		{ "sub good on bad v4/udp", .l4 = 17, .payload = 10, .csum = BAD_OUTER_L4,
		  .sub = RTE_MBUF_F_RX_L4_CKSUM_GOOD },
		{ "sub good+ip good on v4/tcp", .l4 = 6, .payload = 10,
		  .sub = RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_IP_CKSUM_GOOD },
		{ "sub bad, ip unknown, bad ip header", .l4 = 6, .payload = 10,
		  .csum = BAD_OUTER_IP, .sub = RTE_MBUF_F_RX_L4_CKSUM_BAD },
		{ "sub none (virtio needs_csum) v6/udp", .v6 = true, .l4 = 17, .payload = 10,
		  .sub = RTE_MBUF_F_RX_L4_CKSUM_NONE },
		{ "sub good on malformed vxlan", .tun = T_VXLAN, .inner_l4 = 17,
		  .payload = 10, .odd = ODD_VXLAN_FLAGS,
		  .sub = RTE_MBUF_F_RX_L4_CKSUM_GOOD },
		/* Tunnels: the sub-port's verdict is the outer one; inner ours. */
		{ "sub good on vxlan, bad inner", .tun = T_VXLAN, .inner_l4 = 6,
		  .payload = 10, .csum = BAD_INNER_L4, .sub = RTE_MBUF_F_RX_L4_CKSUM_GOOD },
		{ "sub bad on geneve", .tun = T_GENEVE, .v6 = true, .inner_l4 = 17,
		  .payload = 10, .sub = RTE_MBUF_F_RX_L4_CKSUM_BAD },
		{ "sub none on gue", .tun = T_GUE, .inner_l4 = 17, .payload = 10,
		  .sub = RTE_MBUF_F_RX_L4_CKSUM_NONE },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(specs); i++)
		run_flat(&specs[i]);
	/* The sub-port's IP verdict on a tunnel becomes the outer one. */
	{
		struct spec s = { "sub ip bad + l4 good on vxlan", .tun = T_VXLAN,
				  .inner_l4 = 17, .payload = 10,
				  .sub = RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_IP_CKSUM_BAD };
		static uint8_t p[PKT_MAX];
		uint64_t before[C__COUNT];
		struct layout lay;
		struct expect e;
		struct rte_mbuf *m;
		uint32_t len = build(p, &s, &lay);

		expect_of(&s, &e);
		e.flags = inner_good_needs_outer(e.flags | RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD);
		e.cnt[C_OUTER_IP_BAD]++;
		m = chain(p, len, NULL, 0);
		m->ol_flags = s.sub;
		counters(before);
		m = receive(m);
		if (m != NULL) {
			judge("flat", &s, p, &lay, m, &e, before, true);
			rte_pktmbuf_free(m);
		}
	}
}

/* Cut short at every byte: verdict UNKNOWN, counted once, never a crash. */
static void
test_truncated(void)
{
	static const struct spec specs[] = {
		{ "trunc geneve/v6/tcp", .tun = T_GENEVE, .v6 = true, .geneve_opts = 2,
		  .inner_l4 = 6, .payload = 6 },
		{ "trunc qinq/v4/udp", .vlans = 2, .l4 = 17, .payload = 4 },
	};
	static uint8_t p[PKT_MAX];
	unsigned int i;

	for (i = 0; i < RTE_DIM(specs); i++) {
		const struct spec *s = &specs[i];
		struct layout lay;
		uint32_t len = build(p, s, &lay), cut;

		for (cut = 0; cut < len; cut++) {
			uint64_t before[C__COUNT], after[C__COUNT];
			struct rte_mbuf *m = chain(p, cut, (uint32_t[]){ cut / 2 }, 1);
			uint16_t start, sum;
			bool complete;

			counters(before);
			m = receive(m);
			if (m == NULL)
				continue;
			counters(after);
			complete = rte_pmd_hwcsum_rx_complete(&dyn, m, &start, &sum);
			CHECK((m->ol_flags & RX_CKSUM_ALL) == 0,
			      "%s cut %u: flags %#" PRIx64, s->name, cut, (uint64_t)m->ol_flags);
			CHECK(!RTE_ETH_IS_TUNNEL_PKT(m->packet_type) &&
			      (m->packet_type & RTE_PTYPE_L3_MASK) == 0,
			      "%s cut %u: ptype %#x", s->name, cut, m->packet_type);
			CHECK(complete == (cut >= lay.l3) &&
			      (!complete || sum == raw_from(p, cut, lay.l3)),
			      "%s cut %u: COMPLETE %d", s->name, cut, complete);
			CHECK(!cnt_ok || (after[C_UNKNOWN] - before[C_UNKNOWN] == 1 &&
					  after[C_L4_BAD] == before[C_L4_BAD] &&
					  after[C_MALFORMED] == before[C_MALFORMED]),
			      "%s cut %u: unknown +%" PRIu64, s->name, cut,
			      after[C_UNKNOWN] - before[C_UNKNOWN]);
			rte_pktmbuf_free(m);
		}
	}
}

static void
test_splits(void)
{
	static const struct spec specs[] = {
		{ "vxlan/v4/tcp", .tun = T_VXLAN, .inner_l4 = 6, .payload = 9 },
		{ "geneve/v6 opts/v6/udp", .tun = T_GENEVE, .v6 = true, .geneve_opts = 3,
		  .inner_v6 = true, .inner_l4 = 17, .payload = 7 },
		{ "gpe/v4/ip bad inner", .tun = T_GPE, .inner_l4 = 17, .payload = 5,
		  .csum = BAD_INNER_L4 },
		{ "qinq/v6/tcp", .vlans = 2, .v6 = true, .l4 = 6, .payload = 13 },
		{ "malformed geneve", .tun = T_GENEVE, .geneve_opts = 1, .inner_l4 = 17,
		  .payload = 4, .odd = ODD_GENEVE_OPTLEN },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(specs); i++)
		run_splits(&specs[i]);
}

/*
 * rte_pmd_hwcsum_rx_verify_l4() with the UDP header straddling the first
 * segment's end: read across the cut, good at every split point.
 */
static void
probe_helper_split_udp(void)
{
	struct spec s = { "v4/udp", .l4 = 17, .payload = 20 };
	static uint8_t p[PKT_MAX];
	struct layout lay;
	uint32_t len = build(p, &s, &lay), at;

	for (at = lay.l4; at < lay.l4 + 8; at++) {
		struct rte_mbuf *m = chain(p, len, (uint32_t[]){ at }, 1);
		int r;

		/* What a recycled buffer may hold behind data_len. */
		memset(rte_pktmbuf_mtod_offset(m, uint8_t *, at), 0,
		       rte_pktmbuf_tailroom(m));
		m = receive(m);
		if (m == NULL)
			continue;
		r = rte_pmd_hwcsum_rx_verify_l4(&dyn, m, lay.l3, lay.l4);
		CHECK(r == 1, "rte_pmd_hwcsum_rx_verify_l4(), UDP header cut at %u: %d, expected 1",
		      at, r);
		rte_pktmbuf_free(m);
	}
}

static void
test_ptypes(void)
{
	uint32_t pt[64];
	int n = rte_eth_dev_get_supported_ptypes(port, RTE_PTYPE_ALL_MASK, pt, 64), i;
	uint32_t want[] = { RTE_PTYPE_TUNNEL_VXLAN, RTE_PTYPE_TUNNEL_GENEVE,
			    RTE_PTYPE_TUNNEL_VXLAN_GPE, RTE_PTYPE_INNER_L4_TCP,
			    RTE_PTYPE_L2_ETHER_QINQ, RTE_PTYPE_L4_FRAG };
	unsigned int w;

	CHECK(n > 20, "supported ptypes: %d", n);
	for (w = 0; w < RTE_DIM(want); w++) {
		bool found = false;

		for (i = 0; i < n; i++)
			found |= pt[i] == want[w];
		CHECK(found, "ptype %#x not in the supported list", want[w]);
	}
	CHECK(rx_tunnel_type(ring_port, NULL) == 0 &&
	      rx_tunnel_type(RTE_MAX_ETHPORTS, NULL) == 0,
	      "rx_tunnel_type on a port that is not hwcsum");
}

/* ---------------------------------------------------------------- setup */

static void
setup(const char *so)
{
	struct rte_eth_udp_tunnel tunnels[] = {
		{ 4789, RTE_ETH_TUNNEL_TYPE_VXLAN },
		{ 6081, RTE_ETH_TUNNEL_TYPE_GENEVE },
		{ 4790, RTE_ETH_TUNNEL_TYPE_VXLAN_GPE },
	};
	struct udp_tunnel_registry *(*get_registry)(uint16_t);
	struct udp_tunnel_registry *reg;
	struct rte_eth_conf conf = {0};
	unsigned int i;
	void *h;

	mp = rte_pktmbuf_pool_create("test_rx", 2048, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL)
		rte_exit(EXIT_FAILURE, "pool: %s\n", rte_strerror(rte_errno));
	port = harness_ring_hwcsum("rxtest", 64, RING_F_SP_ENQ | RING_F_SC_DEQ,
				   "net_hwcsum_rx", "rx=on,tunnel_ports=gue:" RTE_STR(PORT_GUE),
				   &rings);
	if (rte_eth_dev_get_port_by_name("net_ring_rxtest", &ring_port) != 0)
		rte_exit(EXIT_FAILURE, "no port net_ring_rxtest\n");
	CHECK(rte_pmd_hwcsum_dyn_lookup(&dyn) == 0, "dyn lookup");
	CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure");
	CHECK(rte_eth_rx_queue_setup(port, 0, 64, 0, NULL, mp) == 0, "rxq");
	CHECK(rte_eth_tx_queue_setup(port, 0, 64, 0, NULL) == 0, "txq");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	for (i = 0; i < RTE_DIM(tunnels); i++)
		CHECK(rte_eth_dev_udp_tunnel_port_add(port, &tunnels[i]) == 0,
		      "udp_tunnel_port_add %u", tunnels[i].udp_port);

	/* The PMD is loaded by EAL (-d), not linked: find its function. */
	h = dlopen(so, RTLD_NOW | RTLD_NOLOAD);
	get_registry = h ? (struct udp_tunnel_registry *(*)(uint16_t))
		dlsym(h, "rte_pmd_hwcsum_registry") : NULL;
	if (get_registry == NULL || (reg = get_registry(port)) == NULL)
		rte_exit(EXIT_FAILURE, "rte_pmd_hwcsum_registry: %s\n", dlerror());
	CHECK(get_registry(ring_port) == NULL, "registry of a port that is not hwcsum");
	rx_tunnel_type = (unsigned int (*)(uint16_t, const struct rte_mbuf *))
		dlsym(h, "rte_pmd_hwcsum_rx_tunnel_type");
	if (rx_tunnel_type == NULL)
		rte_exit(EXIT_FAILURE, "rte_pmd_hwcsum_rx_tunnel_type: %s\n", dlerror());
	CHECK(udp_tunnel_type_register(reg, "testenc", parse_testenc,
				       &tun_bits[T_CUSTOM]) == 0, "register testenc");
	CHECK(udp_tunnel_port_add(reg, AF_INET, PORT_CUSTOM, tun_bits[T_CUSTOM]) == 0,
	      "add testenc port");
	tun_bits[T_VXLAN] = UDP_TUNNEL_TYPE_VXLAN;
	tun_bits[T_GENEVE] = UDP_TUNNEL_TYPE_GENEVE;
	tun_bits[T_GPE] = UDP_TUNNEL_TYPE_VXLAN_GPE;
	tun_bits[T_GUE] = UDP_TUNNEL_TYPE_GUE;
	dlclose(h); /* EAL still holds it */

	cnt_ok = true;
	for (i = 0; i < C__COUNT; i++)
		if (rte_eth_xstats_get_id_by_name(port, cnt_names[i], &cnt_ids[i]) != 0) {
			CHECK(false, "no xstat named %s", cnt_names[i]);
			cnt_ok = false;
		}
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s <librte_net_hwcsum.so>\n", argv[0]);
		return 2;
	}
	if (harness_eal_init(argv[0], &(struct harness_eal){ .name = "rx",
			.pmd = argv[1] }) != 0)
		return 1;
	setup(argv[1]);
	test_ptypes();
	test_plain();
	test_tunnels();
	test_tunnel_cases();
	test_sub_verdicts();
	test_truncated();
	test_splits();
	probe_helper_split_udp();

	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_vdev_uninit("net_hwcsum_rx") == 0, "remove");
	CHECK(rte_mempool_in_use_count(mp) == 0, "%u mbufs not returned to the pool",
	      rte_mempool_in_use_count(mp));
	rte_mempool_free(mp);
	harness_rings_free(&rings);
	rte_eal_cleanup();
	return harness_summary("test_rx");
}
