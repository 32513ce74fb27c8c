/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Burst functions: straight through to the same queue of the sub-port.
 * Checksum work is added on top of these by the offload layers.
 */
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "hwcsum_private.h"

uint16_t
hwcsum_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	const struct hwcsum_queue *rxq = queue;
	uint16_t nb_rx, i;

	nb_rx = rte_eth_rx_burst(rxq->sub_port, rxq->queue_id, pkts, n);
	/* Applications must see the port they polled, not the hidden one. */
	for (i = 0; i < nb_rx; i++)
		pkts[i]->port = rxq->port_id;
	return nb_rx;
}

uint16_t
hwcsum_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	const struct hwcsum_queue *txq = queue;

	/* Unsent mbufs stay with the caller, exactly as for any PMD. */
	return rte_eth_tx_burst(txq->sub_port, txq->queue_id, pkts, n);
}
