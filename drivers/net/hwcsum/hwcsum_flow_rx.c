/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive while rte_flow rules exist: each packet parsed as hwcsum_rx.c
 * does (hwcsum_rx_parse.h), its key handed to lib/flow, which matches the
 * rules and applies them (marks, counts, RSS hash) and says which queue it
 * goes to. Packets for another queue go through that queue's steering
 * ring: a multi-producer ring each queue drains at the start of its own
 * burst, so no queue waits on another.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ethdev_driver.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "hwcsum_private.h"
#include "hwcsum_rx_parse.h"

/* Enough for a burst from every other queue before one is drained. */
#define STEER_RING_SIZE 4096

int
hwcsum_flow_rxq_init(struct rte_eth_dev *dev, struct hwcsum_rxq *q)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	char name[RTE_RING_NAMESIZE];

	snprintf(name, sizeof(name), "hwcsum_st_%u_%u", dev->data->port_id,
		 q->queue_id);
	q->steer = rte_ring_create(name, STEER_RING_SIZE, dev->device->numa_node,
				   RING_F_SC_DEQ);
	if (q->steer == NULL) {
		HWCSUM_LOG(ERR, "%s: rx queue %u: no steering ring: %s",
			   dev->data->name, q->queue_id, rte_strerror(rte_errno));
		return -rte_errno;
	}
	if (rte_rcu_qsbr_thread_register(priv->flow_qsbr, q->queue_id) != 0) {
		rte_ring_free(q->steer);
		q->steer = NULL;
		return -EINVAL;
	}
	return 0;
}

void
hwcsum_flow_rxq_fini(struct rte_eth_dev *dev, struct hwcsum_rxq *q)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_mbuf *m;

	if (q->steer == NULL)
		return;
	rte_rcu_qsbr_thread_unregister(priv->flow_qsbr, q->queue_id);
	/* Steered packets nobody polled: freed, never leaked. */
	while (rte_ring_sc_dequeue(q->steer, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	rte_ring_free(q->steer);
	q->steer = NULL;
}

/* ------------------------------------------------------------ the burst */

/* One level of headers into the rule key; layer bits at shift. */
static void
flow_hdrs(const struct rx_view *v, const struct csum_walk *w,
	  enum csum_walk_status st, bool l2, struct hwcsum_flow_hdrs *h,
	  uint32_t *layers, unsigned int shift)
{
	const uint8_t *p = v->p;
	uint32_t fl = 0;

	if (w->l3_off == 0)
		return;
	if (l2) {
		fl |= HWCSUM_FL_ETH;
		memcpy(h->dst_mac, p + w->l2_off, 6);
		memcpy(h->src_mac, p + w->l2_off + 6, 6);
		if (w->n_vlans > 0) {
			fl |= HWCSUM_FL_VLAN;
			memcpy(&h->vlan_tci, p + w->l2_off + 14, 2);
		}
	}
	h->ethertype = rte_cpu_to_be_16(w->ethertype);
	if (st == CSUM_WALK_OK || st == CSUM_WALK_BAD_LENGTH) {
		if (w->ip_version == 4 && w->l3_off + 20 <= v->len) {
			fl |= HWCSUM_FL_IPV4;
			memcpy(h->src_ip, p + w->l3_off + 12, 4);
			memcpy(h->dst_ip, p + w->l3_off + 16, 4);
		} else if (w->ip_version == 6 && w->l3_off + 40 <= v->len) {
			fl |= HWCSUM_FL_IPV6;
			memcpy(h->src_ip, p + w->l3_off + 8, 16);
			memcpy(h->dst_ip, p + w->l3_off + 24, 16);
		}
	}
	if (st == CSUM_WALK_OK) {
		h->proto = w->l4_proto;
		/* Ports of whole datagrams only, as NICs hash NONFRAG types. */
		if (!(w->flags & CSUM_WALK_F_FRAGMENT) && w->l4_off + 4 <= v->len &&
		    (w->l4_proto == IPPROTO_UDP || w->l4_proto == IPPROTO_TCP)) {
			fl |= w->l4_proto == IPPROTO_UDP ? HWCSUM_FL_UDP : HWCSUM_FL_TCP;
			memcpy(&h->src_port, p + w->l4_off, 2);
			memcpy(&h->dst_port, p + w->l4_off + 2, 2);
		}
	}
	*layers |= fl << shift;
}

static void
rx_flow_pkt(const struct rx_pkt *pk, struct hwcsum_flow_pkt *fp)
{
	const struct rx_view *v = pk->view;
	uint32_t hdr;

	memset(&fp->key, 0, sizeof(fp->key));
	fp->tunnel_hdr = NULL;
	fp->tunnel_hdr_len = 0;
	flow_hdrs(v, &pk->outer, pk->outer_st, true, &fp->key.outer,
		  &fp->key.layers, 0);
	if (pk->tunnel < RX_TUNNEL_INNER_UNKNOWN)
		return;
	hdr = pk->outer.l4_off + UDP_HLEN;
	fp->key.layers |= HWCSUM_FL_TUNNEL;
	fp->key.tunnel_type = pk->type;
	fp->key.vni = pk->tun.vni;
	fp->tunnel_hdr = v->p + hdr;
	fp->tunnel_hdr_len = RTE_MIN(v->len, pk->udp_end) - hdr;
	if (pk->tunnel == RX_TUNNEL_OK)
		flow_hdrs(v, &pk->inner, pk->inner_st, pk->inner_l2,
			  &fp->key.inner, &fp->key.layers, HWCSUM_FL_INNER_SHIFT);
}

/*
 * A burst while rules exist (or the port is isolated): first what other
 * queues steered here, then the sub-port's packets, each parsed (with
 * checksum work when work), classified and delivered, steered or dropped.
 */
uint16_t
hwcsum_rx_burst_flow(struct hwcsum_rxq *rxq, struct rte_mbuf **pkts, uint16_t n,
	      bool work)
{
	struct hwcsum_private *priv = rxq->priv;
	struct rte_eth_dev_data *data = rte_eth_devices[rxq->port_id].data;
	const struct hwcsum_flow_table *t;
	struct hwcsum_flow_counters ctr;
	uint16_t k, nb, i, out;
	bool isolated;

	k = (uint16_t)rte_ring_sc_dequeue_burst(rxq->steer, (void **)pkts, n, NULL);
	nb = priv->sub_closed ? 0 :
		hwcsum_sub_rx(rxq, pkts + k, n - k);
	if (nb == 0)
		return k;
	rte_rcu_qsbr_thread_online(priv->flow_qsbr, rxq->queue_id);
	t = __atomic_load_n(&priv->flow_table, __ATOMIC_ACQUIRE);
	isolated = __atomic_load_n(&priv->flow_isolated, __ATOMIC_RELAXED);
	ctr = (struct hwcsum_flow_counters){
		.matched = &rxq->stats.c[HWCSUM_RX_FLOW_MATCHED],
		.isolated = &rxq->stats.c[HWCSUM_RX_FLOW_ISOLATED],
		.dropped = &rxq->stats.c[HWCSUM_RX_FLOW_DROP],
	};
	for (i = k, out = k; i < k + nb; i++) {
		struct rte_mbuf *m = pkts[i];
		struct hwcsum_flow_pkt fp;
		struct hwcsum_rxq *to;
		struct rx_view v;
		struct rx_pkt pk;
		int q;

		m->port = rxq->port_id;
		if (work) {
			hwcsum_rx_one_parsed(priv, m, &rxq->stats, &v, &pk);
		} else {
			view_get(m, &v);
			rx_parse(priv, &v, m->pkt_len, &pk);
		}
		rx_flow_pkt(&pk, &fp);
		q = hwcsum_flow_apply(t, isolated, m, &fp, rxq->queue_id, &ctr);
		if (q == rxq->queue_id) {
			pkts[out++] = m;
			continue;
		}
		to = q >= 0 && q < data->nb_rx_queues ? data->rx_queues[q] : NULL;
		if (q != HWCSUM_FLOW_DROP && to != NULL &&
		    rte_ring_mp_enqueue(to->steer, m) == 0) {
			rxq->stats.c[HWCSUM_RX_FLOW_STEERED]++;
			continue;
		}
		if (q != HWCSUM_FLOW_DROP)
			rxq->stats.c[HWCSUM_RX_FLOW_STEER_FULL]++;
		rte_pktmbuf_free(m);
	}
	hwcsum_qsbr_reader_done(priv->flow_qsbr);
	rte_rcu_qsbr_thread_offline(priv->flow_qsbr, rxq->queue_id);
	return out;
}

uint16_t
hwcsum_rx_burst_flow_raw(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	return hwcsum_rx_burst_flow(queue, pkts, n, false);
}
