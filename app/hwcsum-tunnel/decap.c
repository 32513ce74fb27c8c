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

static const unsigned int lib_type[GW_NB_TYPES] = {
	[GW_VXLAN] = UDP_TUNNEL_TYPE_VXLAN,
	[GW_GENEVE] = UDP_TUNNEL_TYPE_GENEVE,
	[GW_VXLAN_GPE] = UDP_TUNNEL_TYPE_VXLAN_GPE,
	[GW_GUE] = UDP_TUNNEL_TYPE_GUE,
};

/* A handful of tunnels, read-only while running: a scan is enough. */
static const struct gw_tunnel *
find_tunnel(unsigned int type, int family, uint16_t port, uint32_t vni)
{
	unsigned int i;

	for (i = 0; i < gw_cfg.nb_tunnels; i++) {
		const struct gw_tunnel *t = &gw_cfg.tunnels[i];

		if (lib_type[t->type] == type && t->family == family &&
		    t->dst_port == port && (t->type == GW_GUE || t->vni == vni))
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

/*
 * An L4 checksum of a tunnel hwcsum classified: its verdict when hwcsum's
 * RX already gave one (it verified from its COMPLETE sum, or kept the
 * device's), else from the COMPLETE sum here (headers only), else summed
 * here. 1 good, 0 bad, 2 none, < 0 headers that do not add up.
 */
static int
verify_l4(struct gw_worker *w, struct rte_mbuf *m, uint32_t l3_off,
	  uint32_t l4_off, uint8_t proto, const struct l4_verdict_bits *bits)
{
	uint64_t verdict = m->ol_flags & bits->mask;
	uint32_t sum;
	int ret;

	if (verdict == bits->good || verdict == bits->bad) {
		w->stats.verify_flags++;
		return verdict == bits->good;
	}
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

/* lib/udp_tunnel's parsers: the same ones hwcsum classified with. */
static int
parse_tunnel(unsigned int type, const uint8_t *hdr, size_t len,
	     struct udp_tunnel_parse_result *res)
{
	switch (type) {
	case UDP_TUNNEL_TYPE_VXLAN:
		return udp_tunnel_parse_vxlan(hdr, len, res);
	case UDP_TUNNEL_TYPE_GENEVE:
		return udp_tunnel_parse_geneve(hdr, len, res);
	case UDP_TUNNEL_TYPE_VXLAN_GPE:
		return udp_tunnel_parse_vxlan_gpe(hdr, len, res);
	case UDP_TUNNEL_TYPE_GUE:
		return udp_tunnel_parse_gue(hdr, len, res);
	default:
		return -EPROTONOSUPPORT;
	}
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
	if (st != CSUM_WALK_OK)
		return GW_DROP_MALFORMED;
	if (in.ip_version == 4 && !csum_ipv4_hdr_ok(p + in.l3_off))
		return GW_DROP_INNER_IP_CSUM;
	if ((in.l4_proto != IPPROTO_UDP && in.l4_proto != IPPROTO_TCP) ||
	    (in.flags & (CSUM_WALK_F_FRAGMENT | CSUM_WALK_F_EXT_HDRS)))
		return -1;
	if (in.l4_off + (in.l4_proto == IPPROTO_TCP ? 20 : 8) > m->data_len)
		return GW_DROP_MALFORMED;
	ret = verify_l4(w, m, in.l3_off, in.l4_off, in.l4_proto, &inner_l4_bits);
	if (ret < 0)
		return GW_DROP_MALFORMED;
	return ret == 0 ? GW_DROP_INNER_CSUM : -1;
}

/* -1 and *out set when m is to be delivered, else the drop reason. */
static int
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
	ret = parse_tunnel(type, p + walk.l4_off + sizeof(*udp),
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

void
gw_decap_burst(struct gw_worker *w, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *out[GW_MAX_INNER][GW_BURST];
	uint16_t nb[GW_MAX_INNER] = { 0 };
	const struct gw_tunnel *t;
	unsigned int i;

	for (i = 0; i < n; i++) {
		int drop = decap_one(w, pkts[i], &t);

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
