/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP and UDP segmentation (TSO, USO), plain and in UDP tunnels, on any
 * sub-port.
 *
 * A packet with RTE_MBUF_F_TX_TCP_SEG or RTE_MBUF_F_TX_UDP_SEG is either
 * handed to the sub-port, when it offers that segmentation itself
 * (virtio-net with host TSO; not net_tap, see hwcsum_sub.c), or cut here
 * into segments of tso_segsz payload bytes each. Every segment is a
 * copy, headers and payload, in mbufs of the packet's own pool, and leaves
 * here as a checksum request (DPDK's flags, as testpmd's csum engine sets
 * them) that the ordinary transmit path resolves by docs/pmd.md's rules:
 * the inner TCP or UDP checksum in the engine or here, the outer UDP one
 * by LCO or, without RTE_MBUF_F_TX_OUTER_UDP_CKSUM, zero (Linux's
 * GSO_PARTIAL with and without UDP_TUNNEL_CSUM).
 *
 * Headers, as Linux's tcp_gso_segment() and inet_gso_segment() write
 * them: IPv4 total length and ID (+1 a segment, outer and inner), IPv6
 * payload length, outer UDP length, TCP sequence (+tso_segsz), FIN and
 * PSH on the last segment only, CWR on the first only.
 *
 * UDP as Linux's __udp_gso_segment() (UDP_SEGMENT, SKB_GSO_UDP_L4), not
 * as IP fragmentation (rte_gso's "UDP GSO"): every segment is a UDP
 * datagram of its own with tso_segsz payload bytes (the last one less),
 * the packet's UDP header with its length fixed and a checksum of its own,
 * the IPv4 ID +1 a segment as inet_gso_segment() counts it.
 *
 * Why not rte_gso: in 22.11 it cuts TCP/IPv4 and VXLAN/GRE over IPv4
 * only (no IPv6, no GENEVE, no options through its own parser), needs
 * two mempools of the application's, and leaves the checksums to the
 * caller anyway. One segmenter for every shape keeps one set of header
 * rules and one test.
 *
 * Order: one packet in, many out. Segments the sub-port did not take wait
 * in the queue (txq->tso) and go before anything else of a later burst;
 * the TSO packet itself counts as sent once it is cut, as for hardware
 * that has taken it into its ring.
 *
 * A sub-port returns what it did not take whether its ring is full or it
 * will never take that frame: net_tap 22.11 hands back a frame longer than
 * its MTU + 22 at every call, unfreed. Waiting for that would hold every
 * later packet of the queue until it stops. So when the sub-port has taken
 * none of the waiting segments for HWCSUM_TSO_REFUSED_MS, the rest of that
 * packet is freed and counted (tx_tso_dropped_refused, in oerrors) and the
 * burst goes on: a time, not a number of calls, because a caller that
 * retries in a tight loop makes hundreds of calls while a full NIC ring
 * frees its next batch of descriptors.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "csum_proto.h"
#include "hwcsum_private.h"

#define TCP_HDR_MIN 20
#define IPV6_HDR_LEN 40
#define UDP_HDR_LEN 8
#define TCP_FIN_PSH (RTE_TCP_FIN_FLAG | RTE_TCP_PSH_FLAG)
#define SEG_FLAGS (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_UDP_SEG)

/* Tunnels whose segments are cut by lengths alone: any UDP tunnel. */
#define TSO_UDP_TUNNELS (RTE_MBUF_F_TX_TUNNEL_VXLAN | \
			 RTE_MBUF_F_TX_TUNNEL_GENEVE | \
			 RTE_MBUF_F_TX_TUNNEL_VXLAN_GPE | \
			 RTE_MBUF_F_TX_TUNNEL_UDP)

/* Where a TSO packet's headers are, from its lengths. */
struct tso_shape {
	bool tunnel, outer_v4, v4, udp;
	uint32_t outer_l3, outer_l4;	/* tunnel only */
	uint32_t l3, l4, hdr_len;
	uint32_t payload, mss, n_segs;
	uint64_t offload;		/* the ethdev offloads it needs, all */
};

/* The ethdev offload a TCP packet's tunnel asks for; 0: none we can do. */
static uint64_t
tunnel_offload(uint64_t fl)
{
	switch (fl & RTE_MBUF_F_TX_TUNNEL_MASK) {
	case 0:
		return RTE_ETH_TX_OFFLOAD_TCP_TSO;
	case RTE_MBUF_F_TX_TUNNEL_VXLAN:
		return RTE_ETH_TX_OFFLOAD_VXLAN_TNL_TSO;
	case RTE_MBUF_F_TX_TUNNEL_GENEVE:
		return RTE_ETH_TX_OFFLOAD_GENEVE_TNL_TSO;
	case RTE_MBUF_F_TX_TUNNEL_VXLAN_GPE:
	case RTE_MBUF_F_TX_TUNNEL_UDP:
		/* Run-time types (GUE, ...): DPDK's generic UDP tunnel. */
		return RTE_ETH_TX_OFFLOAD_UDP_TNL_TSO;
	default:
		return 0;	/* GRE, IPIP, ESP, MPLS, GTP: not UDP */
	}
}

/*
 * The ethdev offloads a segmentation request needs, every one of them; 0:
 * none we can do. UDP inside a tunnel needs the tunnel's TSO and UDP_TSO,
 * as rte_gso asks of VXLAN/UDP (there is no tunnel USO offload bit).
 */
static uint64_t
seg_offloads(uint64_t fl)
{
	uint64_t tnl = tunnel_offload(fl);

	if (!(fl & RTE_MBUF_F_TX_UDP_SEG) || tnl == 0)
		return tnl;
	if (!(fl & RTE_MBUF_F_TX_TUNNEL_MASK))
		return RTE_ETH_TX_OFFLOAD_UDP_TSO;
	return tnl | RTE_ETH_TX_OFFLOAD_UDP_TSO;
}

/* IP header of this version and length at off, carrying proto next. */
static bool
ip_hdr_ok(const uint8_t *p, bool v4, uint32_t len, uint8_t proto)
{
	if (v4)
		return p[0] >> 4 == 4 && (p[0] & 0xf) * 4u == len &&
			p[9] == proto;
	/* No extension headers: the next header must be proto itself. */
	return p[0] >> 4 == 6 && len == IPV6_HDR_LEN && p[6] == proto;
}

/* Read and check the packet's shape; 0, -EINVAL or -ENOTSUP. */
static int
tso_shape_get(const struct hwcsum_private *priv, const struct rte_mbuf *m,
	      struct tso_shape *s)
{
	uint64_t fl = m->ol_flags;
	const uint8_t *p;

	memset(s, 0, sizeof(*s));
	if ((fl & SEG_FLAGS) == SEG_FLAGS)
		return -EINVAL;	/* TCP and UDP at once */
	s->udp = fl & RTE_MBUF_F_TX_UDP_SEG;
	s->offload = seg_offloads(fl);
	if (s->offload == 0 || (priv->sub.tso & s->offload) != s->offload)
		return -ENOTSUP;	/* a tunnel we cannot cut, or not enabled */
	/* tso_segsz 0, IPv4 without IP_CKSUM, no IP type: DPDK's rules for
	 * TCP. rte_validate_tx_offload() has none for UDP: tso_segsz and the
	 * IP type are checked here, and IPv4 without IP_CKSUM is taken (the
	 * segments' IPv4 checksums are made anyway: their lengths changed). */
	if (s->udp) {
		if (m->tso_segsz == 0 ||
		    !(fl & (RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6)) ||
		    ((fl & RTE_MBUF_F_TX_IP_CKSUM) && !(fl & RTE_MBUF_F_TX_IPV4)))
			return -EINVAL;
	} else if (rte_validate_tx_offload(m) != 0) {
		return -EINVAL;
	}
	s->tunnel = (fl & TSO_UDP_TUNNELS) != 0;
	s->v4 = fl & RTE_MBUF_F_TX_IPV4;
	if (s->tunnel) {
		if (m->outer_l3_len == 0 ||
		    !(fl & (RTE_MBUF_F_TX_OUTER_IPV4 | RTE_MBUF_F_TX_OUTER_IPV6)))
			return -EINVAL;
		s->outer_v4 = fl & RTE_MBUF_F_TX_OUTER_IPV4;
		s->outer_l3 = m->outer_l2_len;
		s->outer_l4 = s->outer_l3 + m->outer_l3_len;
		/* The inner headers sit behind the outer UDP header. */
		if (m->l2_len < sizeof(struct rte_udp_hdr))
			return -EINVAL;
	} else if (m->outer_l3_len != 0) {
		return -EINVAL;	/* outer headers but no tunnel named */
	}
	s->l3 = m->outer_l2_len + m->outer_l3_len + m->l2_len;
	s->l4 = s->l3 + m->l3_len;
	s->hdr_len = s->l4 + m->l4_len;
	s->mss = m->tso_segsz;
	if ((s->udp ? m->l4_len != UDP_HDR_LEN : m->l4_len < TCP_HDR_MIN) ||
	    m->l3_len == 0 ||
	    s->hdr_len > m->data_len || s->hdr_len > m->pkt_len)
		return -EINVAL;	/* every header in the first segment */
	s->payload = m->pkt_len - s->hdr_len;
	s->n_segs = s->payload == 0 ? 1 : (s->payload + s->mss - 1) / s->mss;
	if (s->n_segs > HWCSUM_TSO_MAX_SEGS)
		return -EINVAL;
	/* The bytes must say what the lengths and flags say. */
	p = rte_pktmbuf_mtod(m, const uint8_t *);
	if (s->tunnel && !ip_hdr_ok(p + s->outer_l3, s->outer_v4,
				    m->outer_l3_len, IPPROTO_UDP))
		return -EINVAL;
	if (!ip_hdr_ok(p + s->l3, s->v4, m->l3_len,
		       s->udp ? IPPROTO_UDP : IPPROTO_TCP) ||
	    (!s->udp && (p[s->l4 + 12] >> 4) * 4u != m->l4_len))
		return -EINVAL;
	return 0;
}

int
hwcsum_tso_validate(const struct hwcsum_private *priv, const struct rte_mbuf *m)
{
	struct tso_shape s;

	/* Any chain will do: segments cut here are fresh mbufs, and one the
	 * sub-port could not take whole is cut here instead. */
	return tso_shape_get(priv, m, &s);
}

/* A copy of the headers and payload [off, off + len) of m, from mp. */
static struct rte_mbuf *
seg_copy(struct rte_mempool *mp, const struct rte_mbuf *m, uint32_t hdr_len,
	 uint32_t off, uint32_t len)
{
	struct rte_mbuf *head = rte_pktmbuf_alloc(mp), *cur = head;

	if (head == NULL)
		return NULL;
	if (rte_pktmbuf_tailroom(head) < hdr_len) {
		rte_pktmbuf_free(head);
		return NULL;
	}
	rte_memcpy(rte_pktmbuf_mtod(head, void *),
		   rte_pktmbuf_mtod(m, const void *), hdr_len);
	head->data_len = hdr_len;
	head->pkt_len = hdr_len + len;
	while (len > 0) {
		uint32_t chunk = RTE_MIN(len, (uint32_t)rte_pktmbuf_tailroom(cur));
		uint8_t *dst = rte_pktmbuf_mtod_offset(cur, uint8_t *, cur->data_len);
		const void *src;

		if (chunk == 0) {	/* longer than one buffer: chain */
			cur->next = rte_pktmbuf_alloc(mp);
			if (cur->next == NULL) {
				rte_pktmbuf_free(head);
				return NULL;
			}
			cur = cur->next;
			head->nb_segs++;
			continue;
		}
		src = rte_pktmbuf_read(m, off, chunk, dst);
		if (src != dst)
			rte_memcpy(dst, src, chunk);
		cur->data_len += chunk;
		off += chunk;
		len -= chunk;
	}
	return head;
}

/* Segment i of n: lengths, IDs, sequence and flags; checksums requested. */
static void
seg_headers(const struct hwcsum_private *priv, const struct rte_mbuf *m,
	    const struct tso_shape *s, struct rte_mbuf *seg, uint32_t i)
{
	uint8_t *p = rte_pktmbuf_mtod(seg, uint8_t *);
	uint32_t len = seg->pkt_len;
	struct rte_tcp_hdr *th = (struct rte_tcp_hdr *)(p + s->l4);
	uint64_t fl = m->ol_flags;

	if (s->tunnel) {
		struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(p + s->outer_l4);

		if (s->outer_v4) {
			struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + s->outer_l3);

			ip->total_length = rte_cpu_to_be_16(len - s->outer_l3);
			ip->packet_id = rte_cpu_to_be_16(rte_be_to_cpu_16(ip->packet_id) + i);
		} else {
			struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(p + s->outer_l3);

			ip->payload_len = rte_cpu_to_be_16(len - s->outer_l3 - IPV6_HDR_LEN);
		}
		uh->dgram_len = rte_cpu_to_be_16(len - s->outer_l4);
		/* Seeded by the checksum path when asked for; zero otherwise. */
		uh->dgram_cksum = 0;
	}
	if (s->v4) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + s->l3);

		ip->total_length = rte_cpu_to_be_16(len - s->l3);
		ip->packet_id = rte_cpu_to_be_16(rte_be_to_cpu_16(ip->packet_id) + i);
	} else {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(p + s->l3);

		ip->payload_len = rte_cpu_to_be_16(len - s->l3 - IPV6_HDR_LEN);
	}
	if (s->udp) {
		struct rte_udp_hdr *uh = (struct rte_udp_hdr *)(p + s->l4);

		/* A datagram of its own: its length, its checksum (below). */
		uh->dgram_len = rte_cpu_to_be_16(len - s->l4);
		uh->dgram_cksum = 0;
	} else {
		th->sent_seq = rte_cpu_to_be_32(rte_be_to_cpu_32(th->sent_seq) +
						i * s->mss);
		if (i + 1 != s->n_segs)
			th->tcp_flags &= ~TCP_FIN_PSH;
		if (i != 0)
			th->tcp_flags &= ~RTE_TCP_CWR_FLAG;
	}

	/* A checksum request, as testpmd's csum engine would make it. */
	fl &= ~(SEG_FLAGS | RTE_MBUF_F_TX_L4_MASK |
		RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_OUTER_IP_CKSUM |
		hwcsum_tx_partial(priv));
	fl |= s->udp ? RTE_MBUF_F_TX_UDP_CKSUM : RTE_MBUF_F_TX_TCP_CKSUM;
	if (s->v4)	/* the lengths changed: every IPv4 header is summed */
		fl |= RTE_MBUF_F_TX_IP_CKSUM;
	if (s->tunnel && s->outer_v4)
		fl |= RTE_MBUF_F_TX_OUTER_IP_CKSUM;
	seg->ol_flags = fl;
	seg->tx_offload = m->tx_offload;
	seg->tso_segsz = 0;
	seg->vlan_tci = m->vlan_tci;
	seg->vlan_tci_outer = m->vlan_tci_outer;
	seg->port = m->port;
}

/* Cut m into txq->tso (empty); 0, or -ENOMEM with nothing kept. */
static int
tso_cut(struct hwcsum_txq *txq, struct rte_mbuf *m, const struct tso_shape *s)
{
	struct hwcsum_tso_pending *pd = &txq->tso;
	int ret[HWCSUM_TSO_MAX_SEGS];
	uint32_t i, off = s->hdr_len;

	for (i = 0; i < s->n_segs; i++) {
		uint32_t len = RTE_MIN(s->mss, s->payload - i * s->mss);
		struct rte_mbuf *seg = seg_copy(m->pool, m, s->hdr_len, off, len);

		if (seg == NULL) {
			rte_pktmbuf_free_bulk(pd->segs, i);
			return -ENOMEM;
		}
		seg_headers(txq->priv, m, s, seg, i);
		pd->segs[i] = seg;
		off += len;
	}
	/* Each segment's checksums, by the ordinary transmit path's rules. */
	hwcsum_tx_resolve(txq->priv, pd->segs, s->n_segs, &txq->stats, ret);
	for (i = 0; i < s->n_segs; i++)
		if (ret[i] != 0) {	/* a shape tso_shape_get() let through */
			rte_pktmbuf_free_bulk(pd->segs, s->n_segs);
			return -EINVAL;
		}
	pd->head = 0;
	pd->n = s->n_segs;
	return 0;
}

/* The sub-port segments: its own tx_prepare seeds what it needs. */
static int
tso_hand_down(struct hwcsum_txq *txq, struct rte_mbuf *m)
{
	const struct rte_eth_dev *sub = &rte_eth_devices[txq->sub_port];

	if (txq->priv->sub.max_segs != 0 && m->nb_segs > txq->priv->sub.max_segs)
		return -EINVAL;
	m->ol_flags &= ~hwcsum_tx_partial(txq->priv);
	if (sub->tx_pkt_prepare != NULL &&
	    sub->tx_pkt_prepare(txq->sub_txq, &m, 1) != 1)
		return -EINVAL;
	txq->tso.segs[0] = m;
	txq->tso.head = 0;
	txq->tso.n = 1;
	return 0;
}

/* One TSO packet into txq->tso; <0: nothing kept, m untouched or bad. */
static int
tso_one(struct hwcsum_txq *txq, struct rte_mbuf *m)
{
	struct tso_shape s;
	int ret;

	ret = tso_shape_get(txq->priv, m, &s);
	if (ret < 0)
		return ret;
	if ((txq->priv->sub.tso_hw & s.offload) == s.offload &&
	    tso_hand_down(txq, m) == 0) {
		txq->stats.c[HWCSUM_TX_TSO_HW]++;
		return 0;
	}
	ret = tso_cut(txq, m, &s);
	if (ret < 0)
		return ret;
	txq->stats.c[HWCSUM_TX_TSO_SW]++;
	txq->stats.c[HWCSUM_TX_TSO_SEGS] += s.n_segs;
	rte_pktmbuf_free(m);
	return 0;
}

/* Free what is waiting, counted in c; nothing waits after. */
static void
tso_drop(struct hwcsum_txq *txq, enum hwcsum_tx_counter c)
{
	struct hwcsum_tso_pending *pd = &txq->tso;

	rte_pktmbuf_free_bulk(pd->segs + pd->head, pd->n);
	txq->stats.c[c] += pd->n;
	pd->head = 0;
	pd->n = 0;
	pd->refused_since = 0;
}

/*
 * The sub-port took none of the waiting segments: true when they have
 * been refused for HWCSUM_TSO_REFUSED_MS and are now given up.
 */
static bool
tso_refused(struct hwcsum_txq *txq)
{
	struct hwcsum_tso_pending *pd = &txq->tso;
	uint64_t now = rte_get_timer_cycles();

	if (pd->refused_since == 0) {
		pd->refused_since = now != 0 ? now : 1;
		return false;
	}
	if (now - pd->refused_since <
	    rte_get_timer_hz() / 1000 * HWCSUM_TSO_REFUSED_MS)
		return false;
	tso_drop(txq, HWCSUM_TX_TSO_REFUSED_DROP);
	return true;
}

/* Send what is pending; true when nothing is left. */
static bool
tso_flush(struct hwcsum_txq *txq)
{
	struct hwcsum_tso_pending *pd = &txq->tso;

	while (pd->n != 0) {
		uint16_t sent = hwcsum_sub_tx(txq, pd->segs + pd->head, pd->n);

		if (sent == 0)
			return tso_refused(txq);
		pd->head += sent;
		pd->n -= sent;
		pd->refused_since = 0;
	}
	pd->head = 0;
	return true;
}

uint16_t
hwcsum_tso_burst(struct hwcsum_txq *txq, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t done = 0;

	if (!tso_flush(txq))
		return 0;
	while (done < n) {
		uint16_t run = 0, took;
		int ret;

		/* Packets without segmentation: the ordinary burst. */
		while (done + run < n && !(pkts[done + run]->ol_flags & SEG_FLAGS))
			run++;
		if (run != 0) {
			took = hwcsum_tx_burst(txq, pkts + done, run);
			done += took;
			if (took < run)
				break;
			continue;
		}
		ret = tso_one(txq, pkts[done]);
		if (ret == -ENOMEM) {
			/* The caller keeps it and may retry. */
			txq->stats.c[HWCSUM_TX_TSO_NOMEM]++;
			break;
		}
		if (ret < 0) {
			/* Never possible: dropped, freed, counted (as tx_burst does). */
			txq->stats.c[HWCSUM_TX_BAD_REQUEST]++;
			rte_pktmbuf_free(pkts[done]);
		}
		done++;
		if (!tso_flush(txq))
			break;
	}
	return done;
}

void
hwcsum_tso_txq_drop(struct hwcsum_txq *txq)
{
	if (txq->tso.n != 0)
		tso_drop(txq, HWCSUM_TX_TSO_STOP_DROP);
}
