/* SPDX-License-Identifier: BSD-3-Clause */
/* Underlay -> inner: classify, verify, strip the outer headers, deliver. */

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_ip.h>
#include <rte_udp.h>

#include <csum.h>
#include <csum_mbuf.h>
#include <csum_walk.h>
#include <udp_tunnel.h>

#include "tunnel.h"

/* A handful of tunnels, read-only while running: a scan is enough. */
static const struct gw_tunnel *
find_tunnel(unsigned int type, int family, uint16_t port, uint32_t vni)
{
	unsigned int i;

	for (i = 0; i < gw_cfg.nb_tunnels; i++) {
		const struct gw_tunnel *t = &gw_cfg.tunnels[i];

		if (t->type == type && t->family == family && t->dst_port == port &&
		    (type == UDP_TUNNEL_TYPE_GUE || t->vni == vni))
			return t;
	}
	return NULL;
}

static bool
is_our_port(uint16_t port)
{
	unsigned int i;

	for (i = 0; i < gw_cfg.nb_tunnels; i++)
		if (gw_cfg.tunnels[i].dst_port == port)
			return true;
	return false;
}

/* Which RX flags carry hwcsum's verdict on a tunnel's outer or inner L4. */
struct l4_verdict_bits {
	uint64_t mask, good, bad;
};
static const struct l4_verdict_bits outer_l4_bits = {
	RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK, RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD,
	RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD,
};
static const struct l4_verdict_bits inner_l4_bits = {
	RTE_MBUF_F_RX_L4_CKSUM_MASK, RTE_MBUF_F_RX_L4_CKSUM_GOOD,
	RTE_MBUF_F_RX_L4_CKSUM_BAD,
};

/* verify_l4() without a verdict from hwcsum: from the COMPLETE sum, or summed. */
static __rte_noinline int
verify_l4_sum(struct gw_worker *w, struct rte_mbuf *m, uint32_t l3_off,
	      uint32_t l4_off, uint8_t proto)
{
	uint32_t sum;
	int ret;

	ret = rte_pmd_hwcsum_rx_verify_l4(&gw_dyn, m, l3_off, l4_off);
	if (ret != -ENODATA) {
		w->stats.verify_hw++;
		return ret;
	}
	w->stats.verify_sw++;
	if (csum_mbuf_complete(m, 0, &sum) < 0)
		return -EINVAL;
	ret = csum_mbuf_verify_l4(m, 0, sum, l3_off, l4_off, proto, 0);
	if (ret < 0)
		return ret;
	return ret == CSUM_L4_GOOD ? 1 : ret == CSUM_L4_BAD ? 0 : 2;
}

/*
 * An L4 checksum of a tunnel hwcsum classified: its verdict when hwcsum's
 * RX already gave one (it verified from its COMPLETE sum, or kept the
 * device's), else from the COMPLETE sum here (headers only), else summed
 * here. 1 good, 0 bad, 2 none, < 0 headers that do not add up. The
 * verdict is the common case: inline; the sums out of line.
 */
static inline int
verify_l4(struct gw_worker *w, struct rte_mbuf *m, uint32_t l3_off,
	  uint32_t l4_off, uint8_t proto, const struct l4_verdict_bits *bits)
{
	uint64_t verdict = m->ol_flags & bits->mask;

	if (verdict == bits->good || verdict == bits->bad) {
		w->stats.verify_flags++;
		return verdict == bits->good;
	}
	return verify_l4_sum(w, m, l3_off, l4_off, proto);
}

/* The inner IP packet at off: its IPv4 header and L4 checksum. */
static int
verify_inner(struct gw_worker *w, struct rte_mbuf *m, uint32_t off,
	     uint16_t ethertype, uint32_t end)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct csum_walk in;
	enum csum_walk_status st;
	int ret;

	memset(&in, 0, sizeof(in));
	if (ethertype == RTE_ETHER_TYPE_TEB)
		st = csum_walk_eth(p, m->data_len, end, off, &in);
	else
		st = csum_walk_ip(p, m->data_len, end, off, ethertype, &in);
	if (st == CSUM_WALK_NOT_IP)
		return ethertype == RTE_ETHER_TYPE_TEB ? -1 : GW_DROP_NOT_IP;
	if (st == CSUM_WALK_BAD_ROUTING)
		return GW_DROP_INNER_ROUTING;
	if (st != CSUM_WALK_OK)
		return GW_DROP_MALFORMED;
	if (in.ip_version == 4 && !csum_ipv4_hdr_ok(p + in.l3_off))
		return GW_DROP_INNER_IP_CSUM;
	/* Behind IPv6 extension headers too: the pseudo-header takes a
	 * routing header's final destination (csum_mbuf_verify_l4()). A
	 * fragment's L4 checksum covers every fragment: not here. */
	if ((in.l4_proto != IPPROTO_UDP && in.l4_proto != IPPROTO_TCP) ||
	    (in.flags & CSUM_WALK_F_FRAGMENT))
		return -1;
	if (in.l4_off + (in.l4_proto == IPPROTO_TCP ? 20 : 8) > m->data_len)
		return GW_DROP_MALFORMED;
	ret = verify_l4(w, m, in.l3_off, in.l4_off, in.l4_proto, &inner_l4_bits);
	if (ret < 0)
		return GW_DROP_MALFORMED;
	return ret == 0 ? GW_DROP_INNER_CSUM : -1;
}

/* -1 and *out set when m is to be delivered, else the drop reason: the
 * slow path, which walks and parses every header itself. */
static __rte_noinline int
decap_one(struct gw_worker *w, struct rte_mbuf *m, const struct gw_tunnel **out)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct udp_tunnel_parse_result res;
	const struct rte_udp_hdr *udp;
	const struct gw_tunnel *t;
	uint32_t udp_end, inner_off;
	struct csum_walk walk;
	unsigned int type;
	int ret, family;

	if (csum_walk_eth(p, m->data_len, m->pkt_len, 0, &walk) != CSUM_WALK_OK ||
	    walk.l4_proto != IPPROTO_UDP || (walk.flags & CSUM_WALK_F_FRAGMENT) ||
	    walk.l4_off + sizeof(*udp) > m->data_len)
		return GW_DROP_NOT_TUNNEL;
	udp = (const struct rte_udp_hdr *)(p + walk.l4_off);
	type = gw_rx_tunnel_type(gw_cfg.underlay_port, m);
	/* hwcsum classifies a header that does not parse as plain UDP. */
	if (type == 0)
		return is_our_port(rte_be_to_cpu_16(udp->dst_port)) ?
			GW_DROP_MALFORMED : GW_DROP_NOT_TUNNEL;
	udp_end = walk.l4_off + rte_be_to_cpu_16(udp->dgram_len);
	if (udp_end > walk.l3_end || udp_end < walk.l4_off + sizeof(*udp))
		return GW_DROP_MALFORMED;
	/* lib/udp_tunnel's parsers, the ones hwcsum classified with; a type
	 * registered at run time is none of ours (-EINVAL). */
	ret = udp_tunnel_parse(NULL, type, p + walk.l4_off + sizeof(*udp),
			       RTE_MIN(udp_end, m->data_len) - walk.l4_off - sizeof(*udp),
			       &res);
	if (ret < 0)
		return GW_DROP_MALFORMED;
	family = walk.ip_version == 4 ? AF_INET : AF_INET6;
	t = find_tunnel(type, family, rte_be_to_cpu_16(udp->dst_port), res.vni);
	if (t == NULL)
		return GW_DROP_UNKNOWN_VNI;
	if (walk.ip_version == 4 && !csum_ipv4_hdr_ok(p + walk.l3_off))
		return GW_DROP_OUTER_CSUM;
	if (udp->dgram_cksum != 0) {
		ret = verify_l4(w, m, walk.l3_off, walk.l4_off, IPPROTO_UDP,
				&outer_l4_bits);
		if (ret < 0)
			return GW_DROP_MALFORMED;
		if (ret == 0)
			return GW_DROP_OUTER_CSUM;
	} else if (family == AF_INET6 && !t->udp6_zero_csum_rx) {
		return GW_DROP_OUTER_CSUM;	/* RFC 8200, unless RFC 6935 allowed */
	}
	/* RFC 8926 3.4: we process no option, so a critical one is a drop
	 * (as Linux geneve_rx(), after the checksum and the VNI lookup). */
	if (type == UDP_TUNNEL_TYPE_GENEVE &&
	    (p[walk.l4_off + sizeof(*udp) + 1] & GW_GENEVE_F_CRIT))
		return GW_DROP_GENEVE_CRITICAL;
	inner_off = walk.l4_off + sizeof(*udp) + res.inner_offset;
	ret = verify_inner(w, m, inner_off, res.inner_ethertype, udp_end);
	if (ret >= 0)
		return ret;
	/* The outer trailer (Ethernet padding) is not the inner frame's. */
	rte_pktmbuf_trim(m, m->pkt_len - udp_end);
	if (res.inner_ethertype == RTE_ETHER_TYPE_TEB) {
		rte_pktmbuf_adj(m, inner_off);
	} else {
		struct rte_ether_hdr *eth;

		/* GUE and VXLAN-GPE carrying IP: an Ethernet header from the
		 * tunnel's keys. */
		eth = (struct rte_ether_hdr *)rte_pktmbuf_adj(m,
				inner_off - RTE_ETHER_HDR_LEN);
		eth->dst_addr = t->inner_dst_mac;
		eth->src_addr = t->inner_src_mac;
		eth->ether_type = rte_cpu_to_be_16(res.inner_ethertype);
	}
	m->ol_flags = 0;
	m->packet_type = 0;
	*out = t;
	return -1;
}

/*
 * The fast path: hwcsum's receive work already walked every header and
 * left the lengths in the mbuf (docs/pmd.md, Receive, points 5 and 6), and
 * its verdicts in the RX flags. Nothing is walked or parsed again: the
 * tunnel is found by the outer UDP destination port (one type per port in
 * the registry) and the VNI read at the offset the lengths give.
 */

/* What decapsulation matches a packet on, packed (gw_decap_prepare). */
struct decap_key {
	unsigned int type;	/* gw_ptype_tunnel_type() of its packets: 0 for GUE */
	uint32_t vni;		/* 0 for GUE */
	uint16_t port;		/* UDP destination, host order */
	uint8_t ip_version;	/* outer, 4 or 6 */
	const struct gw_tunnel *t;
};
static struct decap_key keys[GW_MAX_TUNNELS];
static unsigned int nb_keys;

void
gw_decap_prepare(const struct gw_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_tunnels; i++) {
		const struct gw_tunnel *t = &cfg->tunnels[i];

		keys[i].type = t->type == UDP_TUNNEL_TYPE_GUE ? 0 : t->type;
		keys[i].vni = t->type == UDP_TUNNEL_TYPE_GUE ? 0 : t->vni;
		keys[i].port = t->dst_port;
		keys[i].ip_version = t->family == AF_INET ? 4 : 6;
		keys[i].t = t;
	}
	nb_keys = cfg->nb_tunnels;
}

/* Returned by decap_fast() for a packet the slow path must look at. */
#define DECAP_SLOW (-2)

static const uint8_t inner_vlans[16] = {
	[RTE_PTYPE_INNER_L2_ETHER >> 16] = 0,
	[RTE_PTYPE_INNER_L2_ETHER_VLAN >> 16] = 1,
	[RTE_PTYPE_INNER_L2_ETHER_QINQ >> 16] = 2,
};

/* decap_one() for a packet hwcsum classified: the same verdicts, in the same
 * order, from what hwcsum left in the mbuf; DECAP_SLOW when it left too
 * little (no COMPLETE sum, lengths 0, headers outside the first segment,
 * no tunnel of ours). */
static inline int
decap_fast(struct gw_worker *w, struct rte_mbuf *m, const struct gw_tunnel **out)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t pt = m->packet_type, tun_pt = pt & RTE_PTYPE_TUNNEL_MASK;
	uint32_t l3, l4, in_l3, in_l4, in_l4_hlen, udp_end, inner_off, vni = 0;
	const struct rte_udp_hdr *udp;
	const struct gw_tunnel *t = NULL;
	uint32_t in_l3_pt = pt & RTE_PTYPE_INNER_L3_MASK;
	bool l4_check, in_ipv4;
	uint8_t version;
	unsigned int i, type;
	uint16_t port;
	int ret;

	/* outer_l3_len is set only for a tunnel whose inner IP hwcsum walked;
	 * the COMPLETE flag says its receive work ran on this packet. */
	if (!(m->ol_flags & gw_dyn.rx_complete) || m->outer_l3_len == 0)
		return DECAP_SLOW;
	l3 = m->outer_l2_len;
	l4 = l3 + m->outer_l3_len;
	in_l3 = l4 + m->l2_len;
	in_l4 = in_l3 + m->l3_len;
	in_ipv4 = in_l3_pt == RTE_PTYPE_INNER_L3_IPV4 ||
		in_l3_pt == RTE_PTYPE_INNER_L3_IPV4_EXT ||
		in_l3_pt == RTE_PTYPE_INNER_L3_IPV4_EXT_UNKNOWN;
	/* As the slow path: UDP and TCP, behind IPv6 extension headers too
	 * (hwcsum's verdict uses a routing header's final destination); a
	 * fragment's L4 type is FRAG, never checked. */
	l4_check = (pt & RTE_PTYPE_INNER_L4_MASK) == RTE_PTYPE_INNER_L4_UDP ||
		(pt & RTE_PTYPE_INNER_L4_MASK) == RTE_PTYPE_INNER_L4_TCP;
	in_l4_hlen = !l4_check ? 0 :
		(pt & RTE_PTYPE_INNER_L4_MASK) == RTE_PTYPE_INNER_L4_TCP ? 20 : 8;
	if (in_l4 + in_l4_hlen > m->data_len || l4 + 16 > m->data_len)
		return DECAP_SLOW;
	udp = (const struct rte_udp_hdr *)(p + l4);
	port = rte_be_to_cpu_16(udp->dst_port);
	version = p[l3] >> 4;
	type = gw_ptype_tunnel_type(pt);
	if (type == 0 && tun_pt != 0)
		return DECAP_SLOW;	/* a tunnel type none of ours is */
	if (type != 0)		/* VXLAN, GENEVE, VXLAN-GPE: bytes 4-6 */
		vni = (uint32_t)p[l4 + 12] << 16 | p[l4 + 13] << 8 | p[l4 + 14];
	for (i = 0; i < nb_keys; i++) {
		const struct decap_key *k = &keys[i];

		if (k->port == port && k->type == type && k->vni == vni &&
		    k->ip_version == version) {
			t = k->t;
			break;
		}
	}
	if (t == NULL)
		return DECAP_SLOW;	/* unknown VNI, or a type we did not expect */
	/* hwcsum checked the outer IPv4 header unless the device judged it. */
	if (m->ol_flags & RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD)
		return GW_DROP_OUTER_CSUM;
	if (udp->dgram_cksum != 0) {
		ret = verify_l4(w, m, l3, l4, IPPROTO_UDP, &outer_l4_bits);
		if (ret < 0)
			return GW_DROP_MALFORMED;
		if (ret == 0)
			return GW_DROP_OUTER_CSUM;
	} else if (version == 6 && !t->udp6_zero_csum_rx) {
		return GW_DROP_OUTER_CSUM;
	}
	if (tun_pt == RTE_PTYPE_TUNNEL_GENEVE && (p[l4 + 9] & GW_GENEVE_F_CRIT))
		return GW_DROP_GENEVE_CRITICAL;	/* as decap_one() */
	if (in_ipv4) {
		uint64_t ip = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;

		if (ip == RTE_MBUF_F_RX_IP_CKSUM_BAD ||
		    (ip != RTE_MBUF_F_RX_IP_CKSUM_GOOD && !csum_ipv4_hdr_ok(p + in_l3)))
			return GW_DROP_INNER_IP_CSUM;
	}
	if (l4_check) {
		ret = verify_l4(w, m, in_l3, in_l4,
				(pt & RTE_PTYPE_INNER_L4_MASK) == RTE_PTYPE_INNER_L4_TCP ?
				IPPROTO_TCP : IPPROTO_UDP, &inner_l4_bits);
		if (ret < 0)
			return GW_DROP_MALFORMED;
		if (ret == 0)
			return GW_DROP_INNER_CSUM;
	}
	udp_end = l4 + rte_be_to_cpu_16(udp->dgram_len);
	rte_pktmbuf_trim(m, m->pkt_len - udp_end);
	if (pt & RTE_PTYPE_INNER_L2_MASK) {
		inner_off = in_l3 - RTE_ETHER_HDR_LEN -
			4 * inner_vlans[(pt & RTE_PTYPE_INNER_L2_MASK) >> 16];
		rte_pktmbuf_adj(m, inner_off);
	} else {
		struct rte_ether_hdr *eth;

		eth = (struct rte_ether_hdr *)rte_pktmbuf_adj(m,
				in_l3 - RTE_ETHER_HDR_LEN);
		eth->dst_addr = t->inner_dst_mac;
		eth->src_addr = t->inner_src_mac;
		eth->ether_type = rte_cpu_to_be_16(in_ipv4 ?
				RTE_ETHER_TYPE_IPV4 : RTE_ETHER_TYPE_IPV6);
	}
	m->ol_flags = 0;
	m->packet_type = 0;
	*out = t;
	return -1;
}

void
gw_decap_burst(struct gw_worker *w, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *out[GW_MAX_INNER][GW_BURST];
	uint16_t nb[GW_MAX_INNER] = { 0 };
	const struct gw_tunnel *t = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		int drop = decap_fast(w, pkts[i], &t);

		if (drop == DECAP_SLOW) {
			drop = decap_one(w, pkts[i], &t);
			w->stats.decap_walked++;
		} else {
			w->stats.decap_lengths++;
		}
		if (drop >= 0) {
			w->stats.drops[drop]++;
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		out[t->inner_idx][nb[t->inner_idx]++] = pkts[i];
	}
	for (i = 0; i < gw_cfg.nb_inner; i++) {
		if (nb[i] == 0)
			continue;
		w->stats.decap += nb[i];
		gw_tx(w, gw_cfg.inner_ports[i], out[i], nb[i]);
	}
}
