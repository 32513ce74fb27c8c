/* SPDX-License-Identifier: BSD-3-Clause */
/* Tunnel ports (stub until the registry device lands). */
#include <errno.h>

#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

int
hwcsum_tunnel_init(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

void
hwcsum_tunnel_uninit(struct rte_eth_dev *dev __rte_unused)
{
}

int
hwcsum_tunnel_replay(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

int
hwcsum_udp_tunnel_port_add(struct rte_eth_dev *dev __rte_unused,
			   struct rte_eth_udp_tunnel *tunnel __rte_unused)
{
	return -ENOTSUP;
}

int
hwcsum_udp_tunnel_port_del(struct rte_eth_dev *dev __rte_unused,
			   struct rte_eth_udp_tunnel *tunnel __rte_unused)
{
	return -ENOTSUP;
}

unsigned int
hwcsum_tunnel_not_fitted(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

struct udp_tunnel_registry *
rte_pmd_hwcsum_registry(uint16_t port_id __rte_unused)
{
	return NULL;
}

unsigned int
rte_pmd_hwcsum_rx_tunnel_type(uint16_t port_id __rte_unused,
			      const struct rte_mbuf *m __rte_unused)
{
	return 0;
}
