/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Burst selection, the way failsafe_set_burst_fn() does it: straight
 * through to the same queue of the sub-port when nothing is asked of
 * hwcsum on receive; the offload bursts (hwcsum_rx.c, hwcsum_tx.c)
 * otherwise. Transmit looks at packets' flags only where a request can
 * come (docs/decisions.md, "Transmit looks only where a request can
 * come"): a CHECKSUM_PARTIAL request needs no ethdev offload bit, only the
 * TX flag. With no TX offload configured, a burst goes straight down
 * (hwcsum_tx_burst_bare) until the application asks for the flag
 * (rte_pmd_hwcsum_dyn_lookup() announces it); from then on the look is
 * done here at its cheapest (hwcsum_tx_burst_pass) and only a burst with a
 * request goes to hwcsum_tx_burst(); with offloads configured, most bursts
 * carry requests and go there directly.
 *
 * The sub-port's queue is reached as failsafe reaches its sub-devices:
 * its burst function and queue pointer, taken once the sub-port has
 * started (some PMDs choose their burst in dev_start) and called directly.
 * rte_eth_rx/tx_burst() on the sub-port id would add, per burst:
 * - the lookups in ethdev's fast-path table (rte_eth_fp_ops), which
 *   rte_eth_dev_start() fills with exactly these two pointers and
 *   rte_eth_dev_stop() points at dummies. The sub-port starts and stops
 *   only with hwcsum (dev_start/dev_stop/close here), and our own table
 *   entry is a dummy whenever hwcsum is stopped, so the copy taken at
 *   start is what the table holds whenever these bursts can run. A sub-port
 *   stopped or reconfigured by someone else behind its owner is outside
 *   the ownership contract, as for failsafe; every start re-takes both.
 * - the RX/TX callbacks of the sub-port. Ownership does not stop
 *   rte_eth_add_rx/tx_callback() (nor pdump, which finds a port by name)
 *   on an owned port, so such callbacks are NOT run: they belong on the
 *   hwcsum port, whose callbacks ethdev runs around these bursts.
 * - its debug checks and trace point (compiled out in release DPDK).
 * Queue structs live in shared memory and these pointers are the primary's
 * (each process loads drivers at addresses of its own): only the primary
 * bursts. A secondary process gets bursts that refuse (hwcsum_mp.c).
 */
#include <ethdev_driver.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "hwcsum_private.h"

uint16_t
hwcsum_rx_burst_raw(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_rxq *rxq = queue;
	struct rte_mbuf **p = pkts, **end4, **end;
	uint16_t nb_rx, port = rxq->port_id;

	/* Rules need the headers parsed, checksum work or not. */
	if (hwcsum_rxq_flow_path(rxq))
		return hwcsum_rx_burst_flow_raw(queue, pkts, n);
	nb_rx = hwcsum_sub_rx(rxq, pkts, n);	/* 0 once the sub-port is gone */
	/*
	 * Applications must see the port they polled, not the hidden one.
	 * Four a step: the loop's own instructions are most of this burst's.
	 */
	end4 = pkts + (nb_rx & ~3u);
	end = pkts + nb_rx;
	for (; p != end4; p += 4) {
		p[0]->port = port;
		p[1]->port = port;
		p[2]->port = port;
		p[3]->port = port;
	}
	for (; p != end; p++)
		(*p)->port = port;
	return nb_rx;
}

uint16_t
hwcsum_tx_burst_raw(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_txq *txq = queue;

	if (unlikely(txq->priv->sub_closed)) {
		/* Nobody can ever send them: drop, free and count. */
		rte_pktmbuf_free_bulk(pkts, n);
		txq->stats.c[HWCSUM_TX_DROP_NO_SUB] += n;
		return n;
	}
	/* Unsent mbufs stay with the caller, exactly as for any PMD. */
	return hwcsum_sub_tx(txq, pkts, n);
}

/*
 * Two OR chains of four, so that the loads of eight packets are in flight
 * at once and the loop's own instructions are spread over eight: about 2.6
 * instructions a packet (one pointer load, one OR from memory). "Nothing
 * asked" is hwcsum_tx_burst()'s own test (hwcsum_tx_request_mask()).
 */
uint16_t
hwcsum_tx_burst_pass(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_txq *txq = queue;
	struct rte_mbuf *const *p = pkts;
	struct rte_mbuf *const *end8 = pkts + (n & ~7u), *const *end = pkts + n;
	uint64_t a = 0, b = 0;

	for (; p != end8; p += 8) {
		a |= p[0]->ol_flags | p[1]->ol_flags | p[2]->ol_flags |
			p[3]->ol_flags;
		b |= p[4]->ol_flags | p[5]->ol_flags | p[6]->ol_flags |
			p[7]->ol_flags;
	}
	for (; p != end; p++)
		a |= (*p)->ol_flags;
	/*
	 * A request, or no sub-port: the offload burst knows what to do.
	 * Nothing runs between this look at sub_closed and the call, so it
	 * is the last one hwcsum_sub_tx() would take again.
	 */
	if (unlikely(((a | b) & txq->request_mask) || hwcsum_sub_gone(txq->priv)))
		return hwcsum_tx_burst(queue, pkts, n);
	return txq->sub_tx_burst(txq->sub_txq, pkts, n);
}

/*
 * No TX offload configured and, at start, the TX flag not asked for by the
 * application: no packet can ask anything of hwcsum (DPDK's flags of
 * offloads not configured are ignored, as DPDK lets drivers do), so the
 * burst goes straight down. One word says whether the application has
 * asked since (rte_pmd_hwcsum_dyn_lookup()); then this queue adopts the
 * flag (acquire, in hwcsum_tx_partial_adopt()) and looks, from this burst
 * on, until the next start chooses hwcsum_tx_burst_pass(). The application
 * got the flag only after it was announced, so no packet carrying it is
 * sent without the look.
 */
uint16_t
hwcsum_tx_burst_bare(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_txq *txq = queue;

	if (unlikely(__atomic_load_n(txq->tx_partial_announced,
				     __ATOMIC_RELAXED) != 0)) {
		hwcsum_tx_partial_adopt(txq->priv);
		txq->request_mask = hwcsum_tx_request_mask(txq->priv);
		return hwcsum_tx_burst_pass(queue, pkts, n);
	}
	if (unlikely(hwcsum_sub_gone(txq->priv)))
		return hwcsum_tx_burst(queue, pkts, n);
	return txq->sub_tx_burst(txq->sub_txq, pkts, n);
}

void
hwcsum_sub_rxq_bind(struct hwcsum_rxq *rxq)
{
	const struct rte_eth_dev *sub = &rte_eth_devices[rxq->sub_port];

	rxq->sub_rx_burst = sub->rx_pkt_burst;
	rxq->sub_rxq = sub->data->rx_queues[rxq->queue_id];
}

void
hwcsum_sub_txq_bind(struct hwcsum_txq *txq)
{
	const struct rte_eth_dev *sub = &rte_eth_devices[txq->sub_port];

	txq->sub_tx_burst = sub->tx_pkt_burst;
	txq->sub_txq = sub->data->tx_queues[txq->queue_id];
	txq->request_mask = hwcsum_tx_request_mask(txq->priv);
	txq->tx_partial_announced = txq->priv->tx_partial_announced;
}

void
hwcsum_set_burst_fn(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	bool tx_pass, tx_announced;
	uint16_t i;

	/* Before the binds: each queue's request mask has the flag if known. */
	tx_announced = hwcsum_tx_partial_adopt(priv);
	/* After the sub-port's start: its bursts and queues as it runs them. */
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		if (dev->data->rx_queues[i] != NULL)
			hwcsum_sub_rxq_bind(dev->data->rx_queues[i]);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		if (dev->data->tx_queues[i] != NULL)
			hwcsum_sub_txq_bind(dev->data->tx_queues[i]);
	hwcsum_flow_rxq_look(dev);
	dev->rx_pkt_burst = priv->rx_work ? hwcsum_rx_burst : hwcsum_rx_burst_raw;
	/* Each is right for any packet that may ask it; only the cost differs. */
	tx_pass = !(dev->data->dev_conf.txmode.offloads & HWCSUM_TX_CSUM_OFFLOADS);
	dev->tx_pkt_burst = !tx_pass ? hwcsum_tx_burst :
		tx_announced ? hwcsum_tx_burst_pass : hwcsum_tx_burst_bare;
	dev->tx_pkt_prepare = hwcsum_tx_prepare;
	HWCSUM_LOG(DEBUG, "%s: rx %s, tx %s", dev->data->name,
		   priv->rx_work ? "checksum burst" : "pass-through",
		   !tx_pass ? "offload burst" :
		   tx_announced ? "pass-through (looks for requests)" :
		   "pass-through (until the application asks for the TX flag)");
}
