/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive path's per-packet parse, shared by the checksum work
 * (hwcsum_rx.c) and the rte_flow burst (hwcsum_flow_rx.c), which builds
 * its classifier key from the same walk: the packet's first bytes as one
 * contiguous view, the outer headers, and a registered tunnel's header and
 * inner headers. Inline: it is the heart of every received packet.
 */
#ifndef HWCSUM_RX_PARSE_H
#define HWCSUM_RX_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "csum_mbuf.h"
#include "csum_proto.h"
#include "csum_walk.h"
#include "hwcsum_private.h"
#include "udp_tunnel.h"

/* Header bytes looked at: outer headers, a GENEVE header with the largest
 * options (260 bytes), inner headers. */
#define RX_VIEW_MAX 512
#define UDP_HLEN 8
#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd

/* The packet's first bytes, contiguous. */
struct rx_view {
	const uint8_t *p;
	uint32_t len;
	uint8_t copy[RX_VIEW_MAX];
};

enum rx_tunnel {
	RX_TUNNEL_NONE = 0,	/* not UDP, port not registered, no registry */
	RX_TUNNEL_MALFORMED,	/* registered port, header did not parse */
	RX_TUNNEL_INNER_UNKNOWN, /* parsed; carries neither Ethernet nor IP */
	RX_TUNNEL_OK,		/* parsed; inner Ethernet or IP (walked below) */
};

/* What the headers say, before any checksum is looked at. */
struct rx_pkt {
	const struct rx_view *view; /* the bytes the walks read */
	struct csum_walk outer;	/* l3_off 0: Ethernet and tags did not fit */
	enum csum_walk_status outer_st;
	uint32_t udp_end;	/* end of the outer UDP datagram */
	enum rx_tunnel tunnel;
	unsigned int type;	/* registry type bit when tunnel >= INNER_UNKNOWN */
	struct udp_tunnel_parse_result tun;
	struct csum_walk inner;
	bool inner_l2;		/* the inner packet starts with Ethernet */
	enum csum_walk_status inner_st;
};

static __rte_always_inline void
view_get(const struct rte_mbuf *m, struct rx_view *v)
{
	uint32_t want = RTE_MIN(m->pkt_len, (uint32_t)RX_VIEW_MAX);

	if (m->data_len >= want) {
		v->p = rte_pktmbuf_mtod(m, const uint8_t *);
		v->len = RTE_MIN((uint32_t)m->data_len, m->pkt_len);
		return;
	}
	/* Headers split across segments: a copy (a short chain gives none). */
	v->p = v->copy;
	v->len = csum_mbuf_read(m, 0, want, v->copy) == 0 ? want : 0;
}

/* Walk the inner packet the tunnel header announced (region: the UDP datagram). */
static __rte_always_inline void
rx_walk_inner(const struct rx_view *v, struct rx_pkt *pk)
{
	uint32_t off = pk->outer.l4_off + UDP_HLEN + pk->tun.inner_offset;
	uint16_t type = pk->tun.inner_ethertype;

	if (type == 0 && pk->tun.inner_ipproto == IPPROTO_IPIP)
		type = ETHERTYPE_IPV4;
	else if (type == 0 && pk->tun.inner_ipproto == IPPROTO_IPV6)
		type = ETHERTYPE_IPV6;
	if (type == UDP_TUNNEL_ETH_P_TEB) {
		pk->inner_l2 = true;
		pk->inner_st = csum_walk_eth_fast(v->p, v->len, pk->udp_end,
						  off, &pk->inner);
	} else if (type == ETHERTYPE_IPV4 || type == ETHERTYPE_IPV6) {
		memset(&pk->inner, 0, sizeof(pk->inner));
		pk->inner_st = csum_walk_ip(v->p, v->len, pk->udp_end, off, type,
					    &pk->inner);
	} else {
		pk->tunnel = RX_TUNNEL_INNER_UNKNOWN;
		return;
	}
	/* Ethernet carrying something else (ARP, MPLS...). */
	if (pk->inner_st == CSUM_WALK_NOT_IP)
		pk->tunnel = RX_TUNNEL_INNER_UNKNOWN;
}

/*
 * A registered UDP port: run the type's parser on the bytes behind the
 * UDP header (the datagram's, as far as the view holds them).
 */
static __rte_always_inline void
rx_tunnel(const struct udp_tunnel_registry *reg, const struct rx_view *v,
	  struct rx_pkt *pk)
{
	uint32_t hdr = pk->outer.l4_off + UDP_HLEN;
	uint32_t end = RTE_MIN(v->len, pk->udp_end);
	int ret;

	pk->type = udp_tunnel_lookup_inline(reg, csum_be16(v->p + pk->outer.l4_off + 2));
	if (pk->type == 0)
		return;
	/* The built-in VXLAN bit always runs the built-in parser: inline. */
	if (pk->type == UDP_TUNNEL_TYPE_VXLAN)
		ret = udp_tunnel_parse_vxlan_inline(v->p + hdr, end - hdr, &pk->tun);
	else
		ret = udp_tunnel_parse(reg, pk->type, v->p + hdr, end - hdr,
				       &pk->tun);
	if (ret == -EPROTONOSUPPORT) {
		pk->tunnel = RX_TUNNEL_INNER_UNKNOWN;
		return;
	}
	if (ret != 0 || (uint64_t)hdr + pk->tun.inner_offset > pk->udp_end) {
		pk->type = 0;
		pk->tunnel = RX_TUNNEL_MALFORMED;
		return;
	}
	pk->tunnel = RX_TUNNEL_OK;
	rx_walk_inner(v, pk);
}

/* Outer headers, then the tunnel if the UDP destination port is registered. */
static __rte_always_inline void
rx_parse(const struct hwcsum_private *priv, const struct rx_view *v,
	 uint32_t pkt_len, struct rx_pkt *pk)
{
	const struct csum_walk *o = &pk->outer;
	uint32_t ulen;

	pk->view = v;
	pk->tunnel = RX_TUNNEL_NONE;
	pk->type = 0;
	pk->inner_l2 = false;
	pk->outer_st = csum_walk_eth_fast(v->p, v->len, pkt_len, 0, &pk->outer);
	if (pk->outer_st != CSUM_WALK_OK || o->l4_proto != IPPROTO_UDP ||
	    (o->flags & CSUM_WALK_F_FRAGMENT) ||
	    (uint64_t)o->l4_off + UDP_HLEN > v->len)
		return;
	ulen = csum_be16(v->p + o->l4_off + 4);
	if (ulen < UDP_HLEN || (uint64_t)o->l4_off + ulen > o->l3_end)
		return; /* verification says so, below */
	pk->udp_end = o->l4_off + ulen;
	if (priv->registry != NULL)
		rx_tunnel(priv->registry, v, pk);
}

/*
 * One packet's checksum work (hwcsum_rx.c, past the usual-frame shortcut),
 * leaving its parse in the caller's v and pk for the classifier.
 */
void hwcsum_rx_one_parsed(const struct hwcsum_private *priv, struct rte_mbuf *m,
			  struct hwcsum_rxq_stats *st, struct rx_view *v,
			  struct rx_pkt *pk);

#endif /* HWCSUM_RX_PARSE_H */
