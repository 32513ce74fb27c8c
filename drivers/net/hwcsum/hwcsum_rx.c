/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive (stub until the offload path lands). */
#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

uint16_t
hwcsum_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	return hwcsum_rx_burst_raw(queue, pkts, n);
}

const uint32_t *
hwcsum_supported_ptypes(struct rte_eth_dev *dev __rte_unused)
{
	return NULL;
}

uint32_t
hwcsum_tunnel_ptype(const struct udp_tunnel_registry *reg __rte_unused,
		    unsigned int type __rte_unused)
{
	return 0;
}

unsigned int
rte_pmd_hwcsum_rx_tunnel_type(uint16_t port_id __rte_unused,
			      const struct rte_mbuf *m __rte_unused)
{
	return 0;
}

void
hwcsum_rx_one(const struct hwcsum_private *priv __rte_unused,
	      struct rte_mbuf *m __rte_unused,
	      struct hwcsum_rxq_stats *st __rte_unused)
{
}
