/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_PRIVATE_H
#define HWCSUM_PRIVATE_H

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_log.h>

extern int hwcsum_logtype;
#define HWCSUM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, hwcsum_logtype, "net_hwcsum: " fmt "\n", \
		## __VA_ARGS__)

/* What the devargs asked for (hwcsum_args.c). */
struct hwcsum_args {
	char sub_name[RTE_ETH_NAME_MAX_LEN];
};

/* A queue of ours maps 1:1 onto the sub-port queue of the same index. */
struct hwcsum_queue {
	uint16_t port_id;	/* ours, written into received mbufs */
	uint16_t sub_port;
	uint16_t queue_id;	/* same index on both ports */
	uint16_t nb_desc;	/* as set up, for queue info */
	struct rte_mempool *mp;	/* rx only */
};

struct hwcsum_private {
	uint16_t sub_port;
	char sub_name[RTE_ETH_NAME_MAX_LEN];
	/* Held from probe to close, so applications see only hwcsum. */
	struct rte_eth_dev_owner owner;
	int sub_closed;
};

int hwcsum_args_parse(const char *dev_name, const char *params,
		      struct hwcsum_args *args);

uint16_t hwcsum_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n);
uint16_t hwcsum_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n);

extern const struct eth_dev_ops hwcsum_dev_ops;

struct rte_eth_dev;
int hwcsum_sub_port_close(struct rte_eth_dev *dev);
void hwcsum_release_ownership(struct rte_eth_dev *dev);

#endif /* HWCSUM_PRIVATE_H */
