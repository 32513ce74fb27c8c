/* SPDX-License-Identifier: BSD-3-Clause */
/* Inner -> underlay: put the tunnel's outer headers in front of a frame. */

#include <string.h>
#include <sys/socket.h>

#include <rte_ip.h>
#include <rte_udp.h>

#include <csum.h>
#include <csum_mbuf.h>
#include <csum_proto.h>
#include <csum_walk.h>

#include "encap_fast.h"
#include "tunnel.h"

/* RFC 8926 3.4: C must be set when any option has the critical type bit. */
static bool
geneve_opts_critical(const struct gw_tunnel *t)
{
	uint16_t off;

	for (off = 0; off + 4 <= t->opts_len; off += 4 + 4 * (t->opts[off + 3] & 0x1f))
		if (t->opts[off + 2] & GW_GENEVE_OPT_CRIT)
			return true;
	return false;
}

/* Outer headers that do not change per packet, built once. */
void
gw_encap_prepare(struct gw_tunnel *t)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)t->hdr;
	struct rte_udp_hdr *udp;
	uint8_t *tun;

	memset(t->hdr, 0, sizeof(t->hdr));
	eth->dst_addr = t->remote_mac;
	eth->src_addr = t->local_mac;
	t->l3_off = sizeof(*eth);
	if (t->family == AF_INET) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(t->hdr + t->l3_off);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->time_to_live = t->ttl;
		ip->next_proto_id = IPPROTO_UDP;
		memcpy(&ip->src_addr, t->local, 4);
		memcpy(&ip->dst_addr, t->remote, 4);
		t->l4_off = t->l3_off + sizeof(*ip);
	} else {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(t->hdr + t->l3_off);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
		ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip->proto = IPPROTO_UDP;
		ip->hop_limits = t->ttl;
		memcpy(ip->src_addr, t->local, 16);
		memcpy(ip->dst_addr, t->remote, 16);
		t->l4_off = t->l3_off + sizeof(*ip);
	}
	udp = (struct rte_udp_hdr *)(t->hdr + t->l4_off);
	udp->dst_port = rte_cpu_to_be_16(t->dst_port);
	t->tun_off = t->l4_off + sizeof(*udp);
	tun = t->hdr + t->tun_off;
	switch (t->type) {
	case UDP_TUNNEL_TYPE_VXLAN:	/* RFC 7348: I flag, VNI */
		tun[0] = 0x08;
		t->hdr_len = t->tun_off + 8;
		break;
	case UDP_TUNNEL_TYPE_GENEVE:	/* RFC 8926: options, Ethernet payload */
		tun[0] = t->opts_len / 4;
		tun[1] = geneve_opts_critical(t) ? GW_GENEVE_F_CRIT : 0;
		tun[2] = RTE_ETHER_TYPE_TEB >> 8;
		tun[3] = RTE_ETHER_TYPE_TEB & 0xff;
		memcpy(tun + 8, t->opts, t->opts_len);
		t->hdr_len = t->tun_off + 8 + t->opts_len;
		break;
	case UDP_TUNNEL_TYPE_VXLAN_GPE:	/* I and P flags; next protocol
					 * Ethernet, or IPv4/IPv6 filled
					 * per packet */
		tun[0] = 0x0c;
		tun[3] = t->gpe_ip ? 0 : 0x03;
		t->hdr_len = t->tun_off + 8;
		break;
	default:		/* GUE version 0: protocol filled per packet */
		t->hdr_len = t->tun_off + 4;
		break;
	}
	if (t->type != UDP_TUNNEL_TYPE_GUE) {
		tun[4] = t->vni >> 16;
		tun[5] = t->vni >> 8;
		tun[6] = t->vni;
	}
	/* What does not change per packet of the two outer sums: the IPv4
	 * header with length, id and checksum 0; the UDP pseudo-header
	 * without its length. */
	if (t->family == AF_INET) {
		t->ip_sum = csum_partial_small(t->hdr + t->l3_off, 20, 0);
		t->pseudo_sum = csum_partial_small(t->hdr + t->l3_off + 12, 8, 0);
	} else {
		t->ip_sum = 0;
		t->pseudo_sum = csum_partial_small(t->hdr + t->l3_off + 8, 32, 0);
	}
	t->pseudo_sum = csum_add(t->pseudo_sum, rte_cpu_to_be_16(IPPROTO_UDP));
}

/*
 * A frame from a VM may carry CHECKSUM_PARTIAL: what virtio's NEEDS_CSUM
 * or an AF_PACKET socket on a veth hands over is the pseudo-header seed in
 * the L4 checksum field. Recognise it by that seed. A complete checksum
 * that happens to equal the seed is harmless: completing it gives it back.
 */
static bool
inner_partial(struct rte_mbuf *m, const struct csum_walk *w, uint16_t *start,
	      uint16_t *offset)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t l4_len, sum;
	uint16_t field, off;

	if (m->ol_flags & gw_dyn.tx_partial) {
		const struct rte_pmd_hwcsum_csum *f = rte_pmd_hwcsum_field(&gw_dyn, m);

		*start = f->start;
		*offset = f->offset;
		return true;
	}
	if (w->l4_proto == IPPROTO_UDP)
		off = CSUM_UDP_OFFSET;
	else if (w->l4_proto == IPPROTO_TCP)
		off = CSUM_TCP_OFFSET;
	else
		return false;
	/* A fragment carries no whole datagram to sum. */
	if ((w->flags & CSUM_WALK_F_FRAGMENT) || w->l4_off + off + 2 > m->data_len)
		return false;
	l4_len = w->l3_end - w->l4_off;
	if (w->ip_version == 4) {
		uint32_t src, dst;

		memcpy(&src, p + w->l3_off + 12, 4);
		memcpy(&dst, p + w->l3_off + 16, 4);
		/* csum_ipv4_pseudo(src, dst, l4_len, proto, 0) written out: on
		 * every frame, its call cost as much as its three adds. */
		sum = csum_add(csum_add(src, dst),
			       rte_cpu_to_be_32((uint32_t)w->l4_proto << 16 |
						(l4_len & 0xffff)));
	} else {
		/* The final destination of a routing header (RFC 8200 8.1),
		 * which may lie beyond the first segment. Only here: an IPv4
		 * frame may be shorter than an IPv6 header. */
		if (csum_walk_ipv6_dst_off(w) + 16 > m->data_len)
			return false;
		sum = csum_ipv6_pseudo(p + w->l3_off + 8, p + csum_walk_ipv6_dst_off(w),
				       l4_len, w->l4_proto, 0);
	}
	memcpy(&field, p + w->l4_off + off, 2);
	/* UDP 0 means "no checksum", never a request. */
	if (field == 0 || field != csum_fold(sum))
		return false;
	*start = w->l4_off;
	*offset = off;
	return true;
}

/*
 * Room for len bytes of outer headers in front of *mp: its headroom, or,
 * when that is too small (long GENEVE options), an mbuf of their own
 * chained in front, which becomes *mp. NULL when there is neither.
 */
static uint8_t *
outer_room(struct gw_worker *w, struct rte_mbuf **mp, uint16_t len)
{
	struct rte_mbuf *head;
	uint8_t *hdr;

	hdr = (uint8_t *)rte_pktmbuf_prepend(*mp, len);
	if (hdr != NULL || !gw_cfg.underlay_chains)
		return hdr;
	head = rte_pktmbuf_alloc(gw_pool());
	if (head == NULL)
		return NULL;
	hdr = (uint8_t *)rte_pktmbuf_append(head, len);
	if (hdr == NULL || rte_pktmbuf_chain(head, *mp) != 0) {
		rte_pktmbuf_free(head);
		return NULL;
	}
	*mp = head;
	w->stats.outer_chained++;
	return hdr;
}

/* max_payload: t->max_payload, read once per burst. */
static int
encap_one(struct gw_worker *w, const struct gw_tunnel *t, struct rte_mbuf **mp,
	  uint32_t max_payload)
{
	struct rte_mbuf *m = *mp;
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint16_t in_start = 0, in_offset = 0, udp_len;
	struct csum_walk walk;
	struct rte_udp_hdr *udp;
	bool ip_ok, partial;
	uint32_t hash, payload = m->pkt_len, lro_seg = 0;
	uint8_t *hdr, tcp_hdr_len = 0;

	ip_ok = gw_walk_eth(p, m->data_len, m->pkt_len, &walk) == CSUM_WALK_OK;
	if (gw_tunnel_carries_ip(t)) {
		/* The IP packet, without its Ethernet header. */
		if (!ip_ok || walk.n_vlans != 0)
			return GW_DROP_NOT_IP;
		payload = walk.l3_end - walk.l3_off;
	}
	/* A VM's GSO frame leaves as segments (encap_tso.c): each must fit. */
	if (unlikely(m->ol_flags & RTE_MBUF_F_RX_LRO)) {
		lro_seg = gw_lro_segment_len(t, m, &walk, ip_ok, &tcp_hdr_len);
		if (lro_seg != 0)
			payload = lro_seg;
	}
	/* RFC 7348 4.3: a VTEP does not fragment; the caller answers the VM
	 * (pmtu.c) from the frame as it came. */
	if (unlikely(payload > max_payload))
		return GW_DROP_TOO_BIG;
	hash = gw_inner_hash(p, &walk, ip_ok);
	partial = ip_ok && inner_partial(m, &walk, &in_start, &in_offset);
	if (gw_tunnel_carries_ip(t)) {
		/* The VM's Ethernet padding is not part of the IP packet: the
		 * tunnel carries its IP length only. Padding spread over more
		 * than the last segment is not worth a walk: dropped. */
		if (m->pkt_len > walk.l3_end &&
		    rte_pktmbuf_trim(m, m->pkt_len - walk.l3_end) != 0)
			return GW_DROP_MALFORMED;
		rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
		in_start -= RTE_ETHER_HDR_LEN;
	}
	hdr = outer_room(w, mp, t->hdr_len);
	if (hdr == NULL)
		return GW_DROP_NO_HEADROOM;
	m = *mp;
	memcpy(hdr, t->hdr, t->hdr_len);
	if (t->type == UDP_TUNNEL_TYPE_GUE)
		hdr[t->tun_off + 1] = walk.ip_version == 4 ? IPPROTO_IPIP : IPPROTO_IPV6;
	else if (t->gpe_ip)	/* draft-ietf-nvo3-vxlan-gpe: 1 IPv4, 2 IPv6 */
		hdr[t->tun_off + 3] = walk.ip_version == 4 ? 0x01 : 0x02;
	udp_len = m->pkt_len - t->l4_off;
	if (t->family == AF_INET) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(hdr + t->l3_off);

		ip->total_length = rte_cpu_to_be_16(m->pkt_len - t->l3_off);
		ip->packet_id = rte_cpu_to_be_16(w->ip_id++);
		/* csum_ipv4_hdr(ip), from the sum of what did not change. */
		ip->hdr_checksum = csum_finish(csum_add(t->ip_sum,
				(uint32_t)ip->total_length + ip->packet_id));
	} else {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(hdr + t->l3_off);

		ip->payload_len = rte_cpu_to_be_16(udp_len);
		ip->vtc_flow = rte_cpu_to_be_32(6u << 28 | (hash & 0xfffff));
	}
	udp = (struct rte_udp_hdr *)(hdr + t->l4_off);
	udp->dgram_len = rte_cpu_to_be_16(udp_len);
	/* Linux udp_flow_src_port(): the hash scaled into the range. */
	udp->src_port = rte_cpu_to_be_16(gw_src_port(hash, t->src_min, t->src_max));
	if (lro_seg != 0) {
		if (!gw_lro_tso_request(t, m, &walk, tcp_hdr_len))
			return GW_DROP_NO_HEADROOM;
		w->stats.tso_requests++;
		return -1;
	}
	m->ol_flags = 0;
	if (!t->udp_csum) {
		w->stats.outer_zero++;
	} else if (partial) {
		/* The inner request stays; the outer sum needs headers only. */
		csum_mbuf_seed_l4(m, t->l3_off, t->l4_off, IPPROTO_UDP);
		if (csum_mbuf_lco(m, t->l4_off, CSUM_UDP_OFFSET, in_start + t->hdr_len,
				  in_offset) < 0)
			return GW_DROP_MALFORMED;
		w->stats.outer_lco++;
	} else {
		/* rte_pmd_hwcsum_tx_partial_l4(), its pseudo-header from the
		 * sum of what did not change. */
		udp->dgram_cksum = csum_fold(csum_add(t->pseudo_sum,
				rte_cpu_to_be_16(udp_len)));
		rte_pmd_hwcsum_tx_partial(&gw_dyn, m, t->l4_off, CSUM_UDP_OFFSET);
		w->stats.outer_partial++;
	}
	if (partial) {
		rte_pmd_hwcsum_tx_partial(&gw_dyn, m, in_start + t->hdr_len, in_offset);
		w->stats.inner_partial++;
	}
	return -1;
}

void
gw_encap_burst(struct gw_worker *w, const struct gw_tunnel *t,
	       struct rte_mbuf **pkts, uint16_t n)
{
	/* The control path may change it (pmtu.c): once per burst is enough. */
	uint32_t max_payload = __atomic_load_n(&t->max_payload, __ATOMIC_RELAXED);
	struct rte_mbuf *out[GW_BURST], *icmp[GW_BURST];
	uint16_t i, nb = 0, nb_icmp = 0;

	for (i = 0; i < n; i++) {
		int drop = encap_one(w, t, &pkts[i], max_payload);

		if (drop >= 0) {
			if (drop == GW_DROP_TOO_BIG) {
				icmp[nb_icmp] = gw_pmtu_reply(t, pkts[i], max_payload);
				nb_icmp += icmp[nb_icmp] != NULL;
			}
			w->stats.drops[drop]++;
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		out[nb++] = pkts[i];
	}
	w->stats.encap += nb;
	gw_tx(w, gw_cfg.underlay_port, out, nb);
	if (nb_icmp > 0) {
		w->stats.pmtu_icmp += nb_icmp;
		gw_tx(w, t->inner_port, icmp, nb_icmp);
	}
}
