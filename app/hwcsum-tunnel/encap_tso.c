/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A VM's large TCP frame, encapsulated as one tunnel TSO request.
 *
 * A VM behind virtio-net sends TCP as GSO packets; with
 * RTE_ETH_RX_OFFLOAD_TCP_LRO on the inner port, DPDK's net_virtio hands
 * such a packet over whole: RTE_MBUF_F_RX_LRO, the MSS in tso_segsz, the
 * TCP checksum left partial. It is encapsulated like any frame and then
 * asks the underlay for TCP segmentation inside the tunnel
 * (RTE_MBUF_F_TX_TCP_SEG and the tunnel's flags, tso_segsz kept), which
 * hwcsum hands to its sub-port or cuts itself (docs/pmd.md, TSO): each
 * segment leaves with its own checksums, the outer UDP one by LCO when
 * the tunnel sums it. What must fit the underlay MTU is one segment, not
 * the frame.
 */

#include <sys/socket.h>

#include <rte_ip.h>

#include <csum_walk.h>

#include "tunnel.h"

#define TCP_HDR_MIN 20

/* The ethdev offload and mbuf tunnel flag of a tunnel type. */
static uint64_t
tso_offload(unsigned int type, uint64_t *tunnel_flag)
{
	switch (type) {
	case UDP_TUNNEL_TYPE_VXLAN:
		*tunnel_flag = RTE_MBUF_F_TX_TUNNEL_VXLAN;
		return RTE_ETH_TX_OFFLOAD_VXLAN_TNL_TSO;
	case UDP_TUNNEL_TYPE_GENEVE:
		*tunnel_flag = RTE_MBUF_F_TX_TUNNEL_GENEVE;
		return RTE_ETH_TX_OFFLOAD_GENEVE_TNL_TSO;
	case UDP_TUNNEL_TYPE_VXLAN_GPE:
		*tunnel_flag = RTE_MBUF_F_TX_TUNNEL_VXLAN_GPE;
		return RTE_ETH_TX_OFFLOAD_UDP_TNL_TSO;
	default:	/* GUE and any other UDP tunnel: lengths say it all */
		*tunnel_flag = RTE_MBUF_F_TX_TUNNEL_UDP;
		return RTE_ETH_TX_OFFLOAD_UDP_TNL_TSO;
	}
}

uint32_t
gw_lro_segment_len(const struct gw_tunnel *t, const struct rte_mbuf *m,
		   const struct csum_walk *w, bool ip_ok, uint8_t *tcp_hdr_len)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint64_t tunnel_flag;
	uint32_t tcp_len, first;

	if (!(m->ol_flags & RTE_MBUF_F_RX_LRO) || m->tso_segsz == 0 || !ip_ok ||
	    w->l4_proto != IPPROTO_TCP ||
	    (w->flags & (CSUM_WALK_F_FRAGMENT | CSUM_WALK_F_EXT_HDRS)) ||
	    !(gw_cfg.underlay_tso & tso_offload(t->type, &tunnel_flag)) ||
	    w->l4_off + TCP_HDR_MIN > m->data_len)
		return 0;
	tcp_len = (p[w->l4_off + 12] >> 4) * 4u;
	if (tcp_len < TCP_HDR_MIN || w->l4_off + tcp_len > m->data_len ||
	    w->l3_end <= w->l4_off + tcp_len)
		return 0;
	/* One segment: the headers and at most an MSS of payload. */
	first = w->l4_off + tcp_len +
		RTE_MIN((uint32_t)m->tso_segsz, w->l3_end - w->l4_off - tcp_len);
	*tcp_hdr_len = tcp_len;
	return gw_tunnel_carries_ip(t) ? first - w->l3_off : first;
}

bool
gw_lro_tso_request(const struct gw_tunnel *t, struct rte_mbuf *m,
		   const struct csum_walk *w, uint8_t tcp_hdr_len)
{
	uint32_t inner_l2 = gw_tunnel_carries_ip(t) ? 0 : w->l3_off;
	uint16_t mss = m->tso_segsz;	/* shares the tx_offload word */
	uint64_t tunnel_flag, fl;

	/* Segmentation needs every header in the first mbuf: not so when
	 * the outer ones did not fit its headroom (outer_room()). */
	if (m->data_len < t->hdr_len + w->l4_off - w->l3_off + inner_l2 + tcp_hdr_len)
		return false;

	tso_offload(t->type, &tunnel_flag);
	fl = RTE_MBUF_F_TX_TCP_SEG | tunnel_flag;
	fl |= w->ip_version == 4 ? RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM :
				   RTE_MBUF_F_TX_IPV6;
	fl |= t->family == AF_INET ?
		RTE_MBUF_F_TX_OUTER_IPV4 | RTE_MBUF_F_TX_OUTER_IP_CKSUM :
		RTE_MBUF_F_TX_OUTER_IPV6;
	if (t->udp_csum)
		fl |= RTE_MBUF_F_TX_OUTER_UDP_CKSUM;
	m->ol_flags = fl;
	m->outer_l2_len = t->l3_off;
	m->outer_l3_len = t->l4_off - t->l3_off;
	m->l2_len = t->hdr_len - t->l4_off + inner_l2;
	m->l3_len = w->l4_off - w->l3_off;
	m->l4_len = tcp_hdr_len;
	m->tso_segsz = mss;
	return true;
}
