/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TEST_PKT_BUILD_H
#define HWCSUM_TEST_PKT_BUILD_H

/*
 * Test packets: Ethernet [VLAN] IPv4|IPv6 UDP|TCP, optionally VXLAN with an
 * inner Ethernet IPv4|IPv6 UDP|TCP, random payload, optional trailer
 * (Ethernet padding after the IP datagram). Checksum fields are left
 * holding the CHECKSUM_PARTIAL seed (folded pseudo-header sum).
 */
#include <string.h>

#include <rte_byteorder.h>

#include "csum.h"

struct pkt_l4 {
	uint32_t l3, l4, l4_len;
	uint8_t proto;
	bool v6;
	uint32_t csum_off; /* offset of the field within the L4 header */
};

struct pkt_layout {
	uint32_t len;      /* whole frame, trailer included */
	uint32_t trailer;
	bool encap;
	struct pkt_l4 outer, inner;
};

struct pkt_opts {
	bool vlan, v6, tcp, encap, inner_v6, inner_tcp;
	uint32_t payload, trailer;
};

static inline void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
pkt_seed(uint8_t *pkt, const struct pkt_l4 *l)
{
	uint32_t ps;
	uint16_t seed;

	if (l->v6)
		ps = csum_ipv6_pseudo(pkt + l->l3 + 8, pkt + l->l3 + 24, l->l4_len, l->proto, 0);
	else {
		uint32_t s, d;

		memcpy(&s, pkt + l->l3 + 12, 4);
		memcpy(&d, pkt + l->l3 + 16, 4);
		ps = csum_ipv4_pseudo(s, d, l->l4_len, l->proto, 0);
	}
	seed = csum_fold(ps);
	memcpy(pkt + l->l4 + l->csum_off, &seed, 2);
}

/* Writes IP + L4 header for an L4 datagram of l4_len bytes at off; returns l4 offset. */
static inline uint32_t
pkt_put_l3l4(uint8_t *pkt, uint32_t off, bool v6, bool tcp, uint32_t l4_len,
	     struct pkt_l4 *l)
{
	uint32_t hl = v6 ? 40 : 20;

	l->l3 = off;
	l->l4 = off + hl;
	l->l4_len = l4_len;
	l->proto = tcp ? 6 : 17;
	l->v6 = v6;
	l->csum_off = tcp ? 16 : 6;
	if (v6) {
		pkt[off] = 0x60;
		put16(pkt + off + 4, (uint16_t)l4_len);
		pkt[off + 6] = l->proto;
		pkt[off + 7] = 64;
	} else {
		pkt[off] = 0x45;
		pkt[off + 1] = 0;
		put16(pkt + off + 2, (uint16_t)(l4_len + 20));
		put16(pkt + off + 6, 0x4000); /* DF, no fragment */
		pkt[off + 8] = 64;
		pkt[off + 9] = l->proto;
		pkt[off + 10] = pkt[off + 11] = 0;
		{
			uint16_t c = csum_ipv4_hdr(pkt + off);

			memcpy(pkt + off + 10, &c, 2);
		}
	}
	if (tcp) {
		pkt[l->l4 + 12] = 0x50; /* data offset 5 */
		pkt[l->l4 + 13] = 0x18;
		pkt[l->l4 + 18] = pkt[l->l4 + 19] = 0; /* urgent pointer */
	} else {
		put16(pkt + l->l4 + 4, (uint16_t)l4_len);
	}
	return l->l4;
}

/* pkt must hold at least pkt_max_len(o) bytes; random bytes are expected there. */
static inline void
pkt_build(uint8_t *pkt, const struct pkt_opts *o, struct pkt_layout *lay)
{
	uint32_t off = 12, inner_l4_len = 0, l4_len;
	uint32_t in_hdr = 0;

	memset(lay, 0, sizeof(*lay));
	if (o->vlan) {
		put16(pkt + off, 0x8100);
		off += 4;
	}
	put16(pkt + off, o->v6 ? 0x86dd : 0x0800);
	off += 2;
	if (o->encap) {
		/* UDP 8 + VXLAN 8 + inner Ethernet 14 + inner IP + inner L4. */
		in_hdr = (o->inner_v6 ? 40 : 20) + (o->inner_tcp ? 20 : 8);
		inner_l4_len = (o->inner_tcp ? 20 : 8) + o->payload;
		l4_len = 8 + 8 + 14 + in_hdr + o->payload;
		pkt_put_l3l4(pkt, off, o->v6, false, l4_len, &lay->outer);
		put16(pkt + lay->outer.l4 + 2, 4789);
		off = lay->outer.l4 + 8;
		pkt[off] = 0x08; /* VXLAN flags: VNI valid */
		off += 8;
		put16(pkt + off + 12, o->inner_v6 ? 0x86dd : 0x0800);
		off += 14;
		pkt_put_l3l4(pkt, off, o->inner_v6, o->inner_tcp, inner_l4_len, &lay->inner);
		lay->encap = true;
		lay->len = lay->inner.l4 + inner_l4_len;
	} else {
		l4_len = (o->tcp ? 20 : 8) + o->payload;
		pkt_put_l3l4(pkt, off, o->v6, o->tcp, l4_len, &lay->outer);
		lay->len = lay->outer.l4 + l4_len;
	}
	lay->trailer = o->trailer;
	lay->len += o->trailer;
	if (lay->encap)
		pkt_seed(pkt, &lay->inner);
	pkt_seed(pkt, &lay->outer);
}

static inline uint32_t
pkt_max_len(uint32_t payload)
{
	return 18 + 40 + 16 + 14 + 40 + 20 + payload + 64;
}

#endif
