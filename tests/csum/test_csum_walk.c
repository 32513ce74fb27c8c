/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The header walker (csum_walk.h): every shape it knows, checked against
 * the offsets the builder put the headers at and against DPDK's own
 * parser (rte_net_get_ptype()); truncated at every byte (views of exactly
 * that size on the heap, so ASan sees any read past them); bad versions,
 * lengths and ihl; too many tags; fragments; extension headers past the
 * datagram; walks from an inner Ethernet or IP header; random bytes;
 * routing headers with Segments Left > 0 (the final destination, RFC 8200
 * 8.1) and the malformed ones.
 */
#include <stdbool.h>

#include <rte_mbuf.h>
#include <rte_net.h>

#include "csum_walk.h"
#include "mbuf_build.h"
#include "test_util.h"

#define PKT_MAX 512

enum { EXT_HBH = 0, EXT_ROUTING = 43, EXT_FRAG = 44, EXT_AH = 51, EXT_DST = 60 };

struct shape {
	const char *name;
	uint8_t n_vlans;
	uint16_t tpid;		/* first tag (0x8100 or 0x88a8) */
	bool v6;
	uint8_t v4_opts;	/* bytes of IPv4 options, a multiple of 4 */
	uint8_t ext[4];		/* IPv6 extension headers, in order */
	uint8_t n_ext;
	uint8_t l4;		/* 6, 17, 132, 1 */
	uint16_t frag;		/* IPv4 flags/offset field, or IPv6 fragment offset|M */
};

struct layout {
	uint32_t l3, l4, l3_end, len;
	uint8_t flags;
};

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint32_t
ext_len(uint8_t proto)
{
	switch (proto) {
	case EXT_HBH: return 8;
	case EXT_DST: return 16;
	case EXT_ROUTING: return 24;
	case EXT_AH: return 24;
	default: return 8;	/* fragment */
	}
}

/* IP header (and extension headers) at off carrying l4_len bytes; returns the L4 offset. */
static uint32_t
put_ip(uint8_t *p, uint32_t off, const struct shape *s, uint32_t l4_len,
       struct layout *lay)
{
	uint32_t pos, i, ext_total = 0;

	lay->l3 = off;
	if (!s->v6) {
		uint32_t ihl = 20 + s->v4_opts;

		p[off] = (uint8_t)(0x40 | ihl / 4);
		put16(p + off + 2, (uint16_t)(ihl + l4_len));
		put16(p + off + 6, s->frag);
		p[off + 8] = 64;
		p[off + 9] = s->l4;
		memset(p + off + 20, 1, s->v4_opts); /* NOPs */
		lay->l4 = off + ihl;
		lay->l3_end = lay->l4 + l4_len;
		if (s->v4_opts)
			lay->flags |= CSUM_WALK_F_IP_OPTIONS;
		if (s->frag & 0x3fff)
			lay->flags |= CSUM_WALK_F_FRAGMENT;
		if (s->frag & 0x1fff)
			lay->flags |= CSUM_WALK_F_LATER_FRAG;
		return lay->l4;
	}
	for (i = 0; i < s->n_ext; i++)
		ext_total += ext_len(s->ext[i]);
	p[off] = 0x60;
	put16(p + off + 4, (uint16_t)(ext_total + l4_len));
	p[off + 6] = s->n_ext ? s->ext[0] : s->l4;
	p[off + 7] = 64;
	pos = off + 40;
	for (i = 0; i < s->n_ext; i++) {
		uint8_t next = i + 1 < s->n_ext ? s->ext[i + 1] : s->l4;
		uint32_t len = ext_len(s->ext[i]);

		memset(p + pos, 0, len);
		p[pos] = next;
		if (s->ext[i] == EXT_AH)
			p[pos + 1] = (uint8_t)(len / 4 - 2);
		else if (s->ext[i] == EXT_FRAG)
			put16(p + pos + 2, s->frag);
		else
			p[pos + 1] = (uint8_t)(len / 8 - 1);
		if (s->ext[i] == EXT_FRAG) {
			lay->flags |= CSUM_WALK_F_FRAGMENT;
			if (s->frag & 0xfff8)
				lay->flags |= CSUM_WALK_F_LATER_FRAG;
		} else {
			lay->flags |= CSUM_WALK_F_EXT_HDRS;
		}
		pos += len;
		if (s->ext[i] == EXT_FRAG)
			break; /* the walk ends at a fragment header */
	}
	lay->l4 = pos;
	lay->l3_end = off + 40 + ext_total + l4_len;
	return pos;
}

/* Ethernet, tags, IP, an L4 header and payload; random bytes elsewhere. */
static uint32_t
build(uint8_t *p, const struct shape *s, uint32_t payload, struct layout *lay)
{
	uint32_t off = 12, i, l4_hlen = s->l4 == 6 ? 20 : 8;

	rng_fill(p, PKT_MAX);
	memset(lay, 0, sizeof(*lay));
	for (i = 0; i < s->n_vlans; i++) {
		put16(p + off, i == 0 ? s->tpid : 0x8100);
		off += 4;
	}
	put16(p + off, s->v6 ? 0x86dd : 0x0800);
	put_ip(p, off + 2, s, l4_hlen + payload, lay);
	lay->len = lay->l3_end;
	return lay->len;
}

static const struct shape shapes[] = {
	{ "v4/udp", .l4 = 17 },
	{ "v4/tcp", .l4 = 6 },
	{ "v4/sctp", .l4 = 132 },
	{ "v4+opts/tcp", .v4_opts = 12, .l4 = 6 },
	{ "v4+40B opts/udp", .v4_opts = 40, .l4 = 17 },
	{ "vlan/v4/udp", .n_vlans = 1, .tpid = 0x8100, .l4 = 17 },
	{ "qinq/v4/tcp", .n_vlans = 2, .tpid = 0x88a8, .l4 = 6 },
	{ "qinq/v6/udp", .n_vlans = 2, .tpid = 0x88a8, .v6 = true, .l4 = 17 },
	{ "8100+8100/v4/udp", .n_vlans = 2, .tpid = 0x8100, .l4 = 17 },
	{ "v6/udp", .v6 = true, .l4 = 17 },
	{ "v6/tcp", .v6 = true, .l4 = 6 },
	{ "v6+hbh/udp", .v6 = true, .ext = { EXT_HBH }, .n_ext = 1, .l4 = 17 },
	{ "v6+hbh+rt+dst/tcp", .v6 = true, .ext = { EXT_HBH, EXT_ROUTING, EXT_DST },
	  .n_ext = 3, .l4 = 6 },
	{ "v6+ah/tcp", .v6 = true, .ext = { EXT_AH }, .n_ext = 1, .l4 = 6 },
	{ "v6+dst+ah/udp", .v6 = true, .ext = { EXT_DST, EXT_AH }, .n_ext = 2, .l4 = 17 },
	{ "v4 DF/udp", .l4 = 17, .frag = 0x4000 },
	{ "v4 first frag/udp", .l4 = 17, .frag = 0x2000 },
	{ "v4 later frag/udp", .l4 = 17, .frag = 0x0010 },
	{ "v4 last frag/tcp", .l4 = 6, .frag = 0x00b9 },
	{ "v6 frag first/udp", .v6 = true, .ext = { EXT_FRAG }, .n_ext = 1, .l4 = 17,
	  .frag = 0x0001 },
	{ "v6 frag later/udp", .v6 = true, .ext = { EXT_FRAG }, .n_ext = 1, .l4 = 17,
	  .frag = 0x0100 },
	{ "v6+hbh+frag/tcp", .v6 = true, .ext = { EXT_HBH, EXT_FRAG }, .n_ext = 2,
	  .l4 = 6, .frag = 0x0001 },
};

/* The walk found exactly what the builder wrote. */
static void
check_fields(const struct shape *s, const struct layout *lay,
	     const struct csum_walk *w, const char *what)
{
	uint8_t proto = s->l4;

	CHECK(w->l3_off == lay->l3 && w->l4_off == lay->l4 &&
	      w->l3_end == lay->l3_end && w->n_vlans == s->n_vlans &&
	      w->outer_tpid == (s->n_vlans ? s->tpid : 0) &&
	      w->ethertype == (s->v6 ? 0x86dd : 0x0800) &&
	      w->ip_version == (s->v6 ? 6 : 4) && w->l4_proto == proto &&
	      w->flags == lay->flags,
	      "%s %s: l3 %u/%u l4 %u/%u end %u/%u vlans %u proto %u flags %#x/%#x",
	      s->name, what, w->l3_off, lay->l3, w->l4_off, lay->l4, w->l3_end,
	      lay->l3_end, w->n_vlans, w->l4_proto, w->flags, lay->flags);
}

/* DPDK's parser as the independent oracle for offsets and ptypes. */
static void
check_dpdk(const struct shape *s, const uint8_t *p, uint32_t len,
	   const struct csum_walk *w)
{
	struct rte_net_hdr_lens hl = {0};
	struct test_chain c;
	struct rte_mbuf *m;
	uint32_t pt, l3, l4;
	bool frag = w->flags & CSUM_WALK_F_FRAGMENT;

	/* DPDK reads one tag behind 0x8100 and two behind 0x88a8 only. */
	if (s->n_vlans == 2 && s->tpid == 0x8100)
		return;
	m = test_chain_build(&c, p, len, NULL, 0);
	pt = rte_net_get_ptype(m, &hl, RTE_PTYPE_ALL_MASK);
	test_chain_free(&c);
	l3 = pt & RTE_PTYPE_L3_MASK;
	l4 = pt & RTE_PTYPE_L4_MASK;
	CHECK(hl.l2_len == w->l3_off, "%s: DPDK l2_len %u, walker l3_off %u",
	      s->name, hl.l2_len, w->l3_off);
	CHECK((pt & RTE_PTYPE_L2_MASK) == (s->n_vlans == 0 ? RTE_PTYPE_L2_ETHER :
		s->n_vlans == 1 ? RTE_PTYPE_L2_ETHER_VLAN : RTE_PTYPE_L2_ETHER_QINQ),
	      "%s: DPDK L2 %#x", s->name, pt & RTE_PTYPE_L2_MASK);
	if (w->ip_version == 4)
		CHECK(l3 == ((w->flags & CSUM_WALK_F_IP_OPTIONS) ?
			     RTE_PTYPE_L3_IPV4_EXT : RTE_PTYPE_L3_IPV4),
		      "%s: DPDK L3 %#x", s->name, l3);
	else
		CHECK(l3 == ((w->flags & (CSUM_WALK_F_EXT_HDRS | CSUM_WALK_F_FRAGMENT)) ?
			     RTE_PTYPE_L3_IPV6_EXT : RTE_PTYPE_L3_IPV6),
		      "%s: DPDK L3 %#x", s->name, l3);
	/* DPDK's rte_net_skip_ip6_ext() does not know AH: it stops there. */
	if (s->v6 && memchr(s->ext, EXT_AH, s->n_ext) != NULL)
		return;
	if (frag) {
		CHECK(l4 == RTE_PTYPE_L4_FRAG, "%s: DPDK L4 %#x, not FRAG", s->name, l4);
		return;
	}
	CHECK(hl.l2_len + hl.l3_len == w->l4_off, "%s: DPDK l4 at %u, walker %u",
	      s->name, hl.l2_len + hl.l3_len, w->l4_off);
	CHECK(l4 == (w->l4_proto == 6 ? RTE_PTYPE_L4_TCP : w->l4_proto == 17 ?
		     RTE_PTYPE_L4_UDP : RTE_PTYPE_L4_SCTP),
	      "%s: DPDK L4 %#x", s->name, l4);
}

/* A copy of exactly n bytes on the heap, so ASan catches reads past it. */
static uint8_t *
view_of(const uint8_t *p, uint32_t n)
{
	uint8_t *v = malloc(n ? n : 1);

	if (v == NULL)
		abort();
	memcpy(v, p, n);
	return v;
}

static void
test_shapes(void)
{
	static uint8_t pkt[PKT_MAX];
	unsigned int i;

	for (i = 0; i < RTE_DIM(shapes); i++) {
		const struct shape *s = &shapes[i];
		struct layout lay;
		struct csum_walk w;
		uint32_t len = build(pkt, s, 32, &lay), cut;
		enum csum_walk_status st;

		st = csum_walk_eth(pkt, len, len, 0, &w);
		CHECK(st == CSUM_WALK_OK, "%s: %s", s->name, csum_walk_status_name(st));
		check_fields(s, &lay, &w, "whole");
		check_dpdk(s, pkt, len, &w);
		/* Ethernet padding behind the datagram changes nothing. */
		st = csum_walk_eth(pkt, len + 20, len + 20, 0, &w);
		CHECK(st == CSUM_WALK_OK, "%s padded: %s", s->name, csum_walk_status_name(st));
		check_fields(s, &lay, &w, "padded");

		/* A view cut at every byte of a whole packet: truncated until l4_off. */
		for (cut = 0; cut <= lay.l4 + 2; cut++) {
			uint8_t *v = view_of(pkt, cut);

			st = csum_walk_eth(v, cut, len, 0, &w);
			if (cut < lay.l4)
				CHECK(st == CSUM_WALK_TRUNCATED, "%s view %u: %s", s->name,
				      cut, csum_walk_status_name(st));
			else
				check_fields(s, &lay, &w, "view");
			free(v);
		}
		/* The packet itself cut: never OK before the datagram's end. */
		for (cut = 0; cut < len; cut++) {
			uint8_t *v = view_of(pkt, cut);

			st = csum_walk_eth(v, cut, cut, 0, &w);
			CHECK(st == (cut < lay.l3 + (s->v6 ? 40u : 20u) ?
				     CSUM_WALK_TRUNCATED : CSUM_WALK_BAD_LENGTH),
			      "%s packet cut at %u: %s", s->name, cut,
			      csum_walk_status_name(st));
			free(v);
		}
		/* From the IP header, with and without the ethertype. */
		st = csum_walk_ip(pkt, len, len, lay.l3, 0, &w);
		CHECK(st == CSUM_WALK_OK && w.l4_off == lay.l4 && w.flags == lay.flags,
		      "%s from IP: %s", s->name, csum_walk_status_name(st));
		st = csum_walk_ip(pkt, len, len, lay.l3, s->v6 ? 0x0800 : 0x86dd, &w);
		CHECK(st == CSUM_WALK_BAD_VERSION && w.ip_version == 0,
		      "%s from IP, other ethertype: %s", s->name, csum_walk_status_name(st));
	}
}

static void
test_bad(void)
{
	static const struct shape v4 = { "v4", .l4 = 17 };
	static const struct shape v6 = { "v6", .v6 = true, .l4 = 17 };
	static const struct shape v6x = { "v6+dst", .v6 = true, .ext = { EXT_DST },
					  .n_ext = 1, .l4 = 17 };
	static uint8_t pkt[PKT_MAX];
	struct layout lay;
	struct csum_walk w;
	uint32_t len;
	unsigned int v;

	/* Version nibbles that are not the ethertype's, or not IP at all. */
	for (v = 0; v < 16; v++) {
		len = build(pkt, &v4, 16, &lay);
		pkt[14] = (uint8_t)(v << 4 | 5);
		CHECK(csum_walk_eth(pkt, len, len, 0, &w) ==
		      (v == 4 ? CSUM_WALK_OK : CSUM_WALK_BAD_VERSION), "v4 ethertype, version %u", v);
		/* Without an ethertype only the nibble counts (6 reads on as IPv6). */
		if (v != 6)
			CHECK(csum_walk_ip(pkt, len, len, 14, 0, &w) ==
			      (v == 4 ? CSUM_WALK_OK : CSUM_WALK_BAD_VERSION),
			      "from IP, version %u", v);
		len = build(pkt, &v6, 16, &lay);
		pkt[14] = (uint8_t)(v << 4);
		CHECK(csum_walk_eth(pkt, len, len, 0, &w) ==
		      (v == 6 ? CSUM_WALK_OK : CSUM_WALK_BAD_VERSION), "v6 ethertype, version %u", v);
	}
	/* Not IP: ARP, an 802.3 length, MPLS. */
	len = build(pkt, &v4, 16, &lay);
	put16(pkt + 12, 0x0806);
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_NOT_IP &&
	      w.ethertype == 0x0806 && w.l3_off == 14, "arp");
	put16(pkt + 12, 0x0040);
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_NOT_IP, "802.3");
	CHECK(csum_walk_ip(pkt, len, len, 14, 0x8847, &w) == CSUM_WALK_NOT_IP, "mpls");
	/* Three tags. */
	memmove(pkt + 24, pkt + 12, len - 12);
	put16(pkt + 12, 0x88a8);
	put16(pkt + 16, 0x8100);
	put16(pkt + 20, 0x8100);
	put16(pkt + 24, 0x0800);
	CHECK(csum_walk_eth(pkt, len + 12, len + 12, 0, &w) == CSUM_WALK_TOO_MANY_VLANS &&
	      w.n_vlans == 2, "three tags");
	put16(pkt + 20, 0x0800);
	pkt[22] = 0;
	CHECK(csum_walk_eth(pkt, len + 12, len + 12, 0, &w) == CSUM_WALK_BAD_VERSION,
	      "two tags, then the third tag's bytes as IP");
	/* IPv4: ihl below 5, total length below ihl or past the packet. */
	len = build(pkt, &v4, 16, &lay);
	for (v = 0; v < 5; v++) {
		pkt[14] = (uint8_t)(0x40 | v);
		CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_BAD_HEADER, "ihl %u", v);
	}
	pkt[14] = 0x46;
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_OK &&
	      (w.flags & CSUM_WALK_F_IP_OPTIONS) && w.l4_off == 38, "ihl 6");
	pkt[14] = 0x45;
	put16(pkt + 16, 19);
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_BAD_LENGTH, "total 19");
	put16(pkt + 16, (uint16_t)(len - 14 + 1));
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_BAD_LENGTH, "total past end");
	put16(pkt + 16, 20);
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_OK && w.l4_off == 34 &&
	      w.l3_end == 34, "total 20: no L4 bytes, the caller's to check");
	/* IPv6: payload past the packet, extension header past the payload. */
	len = build(pkt, &v6, 16, &lay);
	put16(pkt + 18, (uint16_t)(len - 54 + 1));
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_BAD_LENGTH, "v6 payload past end");
	len = build(pkt, &v6x, 16, &lay);
	put16(pkt + 18, 15);
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_BAD_LENGTH,
	      "16-byte dstopts in a 15-byte payload");
	put16(pkt + 18, 16);
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_OK && w.l4_off == len - 24,
	      "16-byte dstopts in a 16-byte payload");
	put16(pkt + 18, 1);
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_BAD_LENGTH,
	      "dstopts' length byte outside a 1-byte payload");
	/* Jumbogram: payload length 0 with hop-by-hop. */
	{
		static const struct shape j = { "jumbo", .v6 = true, .ext = { EXT_HBH },
						.n_ext = 1, .l4 = 17 };

		len = build(pkt, &j, 16, &lay);
		put16(pkt + 18, 0);
		CHECK(csum_walk_eth(pkt, len, len + 7, 0, &w) == CSUM_WALK_OK &&
		      (w.flags & CSUM_WALK_F_JUMBO) && w.l3_end == len + 7 &&
		      w.l4_off == 62, "jumbogram");
		len = build(pkt, &v6, 16, &lay);
		put16(pkt + 18, 0);
		CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_OK &&
		      !(w.flags & CSUM_WALK_F_JUMBO) && w.l3_end == 54 && w.l4_off == 54,
		      "payload 0 without hop-by-hop: an empty datagram");
	}
	/* NULL views. */
	CHECK(csum_walk_eth(NULL, 0, 100, 0, &w) == CSUM_WALK_TRUNCATED, "NULL eth");
	CHECK(csum_walk_ip(NULL, 0, 100, 0, 0, &w) == CSUM_WALK_TRUNCATED, "NULL ip");
	CHECK(strcmp(csum_walk_status_name(CSUM_WALK_BAD_LENGTH), "bad_length") == 0 &&
	      strcmp(csum_walk_status_name(99), "unknown") == 0, "names");
}

/* A VXLAN-like inner frame and a GUE-like inner IP header, region-bounded. */
static void
test_inner(void)
{
	static const struct shape in = { "inner v6+hbh/tcp", .v6 = true,
					 .ext = { EXT_HBH }, .n_ext = 1, .l4 = 6,
					 .n_vlans = 1, .tpid = 0x8100 };
	static uint8_t pkt[PKT_MAX], inner[PKT_MAX];
	struct layout lay;
	struct csum_walk w;
	uint32_t len = build(inner, &in, 10, &lay), off = 50, end = off + len;

	rng_fill(pkt, sizeof(pkt));
	memcpy(pkt + off, inner, len);
	CHECK(csum_walk_eth(pkt, sizeof(pkt), end, off, &w) == CSUM_WALK_OK &&
	      w.l2_off == off && w.l3_off == off + lay.l3 && w.l4_off == off + lay.l4 &&
	      w.l3_end == end && w.n_vlans == 1 && w.l4_proto == 6,
	      "inner frame at %u: l3 %u l4 %u end %u", off, w.l3_off, w.l4_off, w.l3_end);
	/* The region ends before the inner datagram does. */
	CHECK(csum_walk_eth(pkt, sizeof(pkt), end - 1, off, &w) == CSUM_WALK_BAD_LENGTH,
	      "inner datagram past its region");
	memset(&w, 0, sizeof(w));
	CHECK(csum_walk_ip(pkt, sizeof(pkt), end, off + lay.l3, 0x86dd, &w) == CSUM_WALK_OK &&
	      w.l3_off == off + lay.l3 && w.l4_off == off + lay.l4 && w.n_vlans == 0 &&
	      (w.flags & CSUM_WALK_F_EXT_HDRS), "inner IP at %u", off + lay.l3);
}

/* Good packets with a few random bytes changed and random lengths. */
static void
test_random(void)
{
	static uint8_t pkt[PKT_MAX];
	unsigned int i, ok = 0, bad = 0;

	for (i = 0; i < 200000; i++) {
		const struct shape *s = &shapes[rng_below(RTE_DIM(shapes))];
		struct layout lay;
		uint32_t len = build(pkt, s, rng_below(64), &lay), view, pkt_len, k;
		struct csum_walk w;
		enum csum_walk_status st;
		uint8_t *v;

		for (k = rng_below(4); k > 0; k--)
			pkt[rng_below(lay.l4 + 1)] = (uint8_t)rng();
		pkt_len = len - RTE_MIN(len, rng_below(8)) + rng_below(8);
		view = RTE_MIN(pkt_len, rng_below(lay.l4 + 8));
		v = view_of(pkt, view);
		st = csum_walk_eth(v, view, pkt_len, 0, &w);
		if (st == CSUM_WALK_OK) {
			ok++;
			CHECK(w.l3_off < w.l4_off && w.l4_off <= view &&
			      w.l4_off <= w.l3_end && w.l3_end <= pkt_len,
			      "random %u: l3 %u l4 %u end %u view %u pkt %u", i,
			      w.l3_off, w.l4_off, w.l3_end, view, pkt_len);
		} else {
			bad++;
		}
		free(v);
	}
	CHECK(ok > 10000 && bad > 10000, "random walks: %u ok, %u not", ok, bad);
}

/*
 * Ethernet, IPv6, the given extension headers (each: next header filled
 * in, the rest as given), UDP with 8 payload bytes. Returns the length.
 */
static uint32_t
build_ext(uint8_t *p, const uint8_t *const *ext, const uint32_t *ext_len,
	  unsigned int n)
{
	uint32_t pos = 54, i;

	memset(p, 0, PKT_MAX);
	put16(p + 12, 0x86dd);
	p[14] = 0x60;
	p[20] = n ? 43 : 17;	/* every extension header here is a routing one */
	for (i = 0; i < n; i++) {
		memcpy(p + pos, ext[i], ext_len[i]);
		p[pos] = i + 1 < n ? 43 : 17;
		pos += ext_len[i];
	}
	put16(p + pos + 4, 16);
	put16(p + 18, (uint16_t)(pos + 16 - 54));
	return pos + 16;
}

/* Routing headers: where the final destination is, and what is refused. */
static void
test_routing(void)
{
	static uint8_t pkt[PKT_MAX];
	/* type 0, two addresses (Hdr Ext Len 4) */
	uint8_t rh0[40] = { 0, 4, 0, 2 };
	/* type 2, the home address */
	uint8_t rh2[40] = { 0, 2, 2, 1 };	/* 24 bytes used, 40 for a bad length */
	/* SRH: Last Entry 2, three segments, then an 8-byte TLV (PadN) */
	uint8_t srh[64] = { 0, 7, 4, 3, 2 };
	const uint8_t *one[1];
	const uint8_t *two[2];
	uint32_t len_one[1], len_two[2], len;
	struct csum_walk w;
	enum csum_walk_status st;

#define WALK_ONE(hdr, n) (one[0] = (hdr), len_one[0] = (n), \
	len = build_ext(pkt, one, len_one, 1), csum_walk_eth(pkt, len, len, 0, &w))

	st = WALK_ONE(rh0, 40);
	CHECK(st == CSUM_WALK_OK && (w.flags & CSUM_WALK_F_ROUTED) &&
	      w.final_dst_off == 54 + 8 + 16 && csum_walk_ipv6_dst_off(&w) == 78 &&
	      w.l4_off == 94 && w.l4_proto == 17, "type 0, 2 of 2 left: last address");
	rh0[3] = 1;
	st = WALK_ONE(rh0, 40);
	CHECK(st == CSUM_WALK_OK && w.final_dst_off == 78, "type 0, 1 of 2 left: last address");
	rh0[3] = 0;
	st = WALK_ONE(rh0, 40);
	CHECK(st == CSUM_WALK_OK && !(w.flags & CSUM_WALK_F_ROUTED) &&
	      csum_walk_ipv6_dst_off(&w) == 14 + 24, "type 0, none left: the IPv6 destination");
	rh0[3] = 3;
	CHECK(WALK_ONE(rh0, 40) == CSUM_WALK_BAD_ROUTING, "type 0, 3 left of 2");
	rh0[1] = 3;
	rh0[3] = 1;
	CHECK(WALK_ONE(rh0, 32) == CSUM_WALK_BAD_ROUTING, "type 0, odd length");
	rh0[1] = 0;
	CHECK(WALK_ONE(rh0, 8) == CSUM_WALK_BAD_ROUTING, "type 0, no address, 1 left");

	st = WALK_ONE(rh2, 24);
	CHECK(st == CSUM_WALK_OK && (w.flags & CSUM_WALK_F_ROUTED) &&
	      w.final_dst_off == 62, "type 2: the home address");
	rh2[3] = 2;
	CHECK(WALK_ONE(rh2, 24) == CSUM_WALK_BAD_ROUTING, "type 2, 2 left");
	rh2[3] = 1;
	rh2[1] = 4;
	CHECK(WALK_ONE(rh2, 40) == CSUM_WALK_BAD_ROUTING, "type 2, two addresses");

	st = WALK_ONE(srh, 64);
	CHECK(st == CSUM_WALK_OK && (w.flags & CSUM_WALK_F_ROUTED) &&
	      w.final_dst_off == 62 && w.l4_off == 118, "SRH with a TLV: Segment List[0]");
	srh[3] = 4;
	CHECK(WALK_ONE(srh, 64) == CSUM_WALK_BAD_ROUTING, "SRH, 4 left of 3");
	srh[3] = 1;
	srh[4] = 3;
	srh[1] = 6;
	CHECK(WALK_ONE(srh, 56) == CSUM_WALK_BAD_ROUTING, "SRH, 4 segments in 48 bytes");
	srh[4] = 2;
	st = WALK_ONE(srh, 56);
	CHECK(st == CSUM_WALK_OK && w.final_dst_off == 62, "SRH, 3 segments exactly");

	rh2[1] = 2;
	rh2[2] = 3;	/* RPL (RFC 6554): compressed addresses, not read */
	CHECK(WALK_ONE(rh2, 24) == CSUM_WALK_BAD_ROUTING, "type 3, 1 left");
	rh2[3] = 0;
	st = WALK_ONE(rh2, 24);
	CHECK(st == CSUM_WALK_OK && !(w.flags & CSUM_WALK_F_ROUTED), "type 3, none left");
	rh2[2] = 2;
	rh2[3] = 1;

	/* Two routing headers: one final destination at most. */
	two[0] = rh2;
	two[1] = rh2;
	len_two[0] = len_two[1] = 24;
	len = build_ext(pkt, two, len_two, 2);
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_BAD_ROUTING,
	      "two routing headers with segments left");
	pkt[54 + 24 + 3] = 0;
	CHECK(csum_walk_eth(pkt, len, len, 0, &w) == CSUM_WALK_OK &&
	      w.final_dst_off == 62, "the second one with none left");

	/* A routing header cut by the view is truncated, not malformed. */
	len = build_ext(pkt, one, len_one, 1);
	CHECK(csum_walk_eth(pkt, 54 + 20, len, 0, &w) == CSUM_WALK_TRUNCATED,
	      "cut routing header");
	CHECK(strcmp(csum_walk_status_name(CSUM_WALK_BAD_ROUTING), "bad_routing") == 0,
	      "name");
#undef WALK_ONE
}

int
main(void)
{
	rng_seed_from_env("test_csum_walk");
	test_shapes();
	test_bad();
	test_inner();
	test_routing();
	test_random();
	return harness_summary("test_csum_walk");
}
