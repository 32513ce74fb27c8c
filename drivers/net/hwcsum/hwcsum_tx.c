/* SPDX-License-Identifier: BSD-3-Clause */
/* Transmit (stub until the offload path lands). */
#include "hwcsum_private.h"

uint64_t
hwcsum_tx_request_mask(const struct hwcsum_private *priv)
{
	return priv->tx_partial_flag;
}

uint16_t
hwcsum_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	return hwcsum_tx_burst_raw(queue, pkts, n);
}

uint16_t
hwcsum_tx_prepare(void *queue __rte_unused, struct rte_mbuf **pkts __rte_unused,
		  uint16_t n)
{
	return n;
}

int
hwcsum_tx_one(const struct hwcsum_private *priv __rte_unused,
	      struct rte_mbuf *m __rte_unused,
	      struct hwcsum_txq_stats *st __rte_unused)
{
	return 0;
}
