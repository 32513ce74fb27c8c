/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Burst selection, the way failsafe_set_burst_fn() does it: straight
 * through to the same queue of the sub-port when nothing is asked of
 * hwcsum on receive; the offload bursts (hwcsum_rx.c, hwcsum_tx.c)
 * otherwise. Transmit always goes through hwcsum_tx_burst(), which hands a
 * burst without requests straight down after one look at the flags: a
 * CHECKSUM_PARTIAL request needs no ethdev offload bit, so it can come at
 * any time.
 */
#include <ethdev_driver.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "hwcsum_private.h"

uint16_t
hwcsum_rx_burst_raw(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_rxq *rxq = queue;
	uint16_t nb_rx, i;

	/* Rules need the headers parsed, checksum work or not. */
	if (hwcsum_rxq_flow_path(rxq))
		return hwcsum_rx_burst_flow_raw(queue, pkts, n);
	if (unlikely(rxq->priv->sub_closed))
		return 0;
	nb_rx = rte_eth_rx_burst(rxq->sub_port, rxq->queue_id, pkts, n);
	/* Applications must see the port they polled, not the hidden one. */
	for (i = 0; i < nb_rx; i++)
		pkts[i]->port = rxq->port_id;
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
	return rte_eth_tx_burst(txq->sub_port, txq->queue_id, pkts, n);
}

void
hwcsum_set_burst_fn(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	dev->rx_pkt_burst = priv->rx_work ? hwcsum_rx_burst : hwcsum_rx_burst_raw;
	dev->tx_pkt_burst = hwcsum_tx_burst;
	dev->tx_pkt_prepare = hwcsum_tx_prepare;
	HWCSUM_LOG(DEBUG, "%s: rx %s, tx offload burst", dev->data->name,
		   priv->rx_work ? "checksum burst" : "pass-through");
}
