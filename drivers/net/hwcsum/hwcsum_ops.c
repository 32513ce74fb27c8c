/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control path: every op is carried out on the sub-port, so the hwcsum
 * port behaves as the device underneath does. Errors from the sub-port are
 * returned unchanged (they already follow the rte_eth_* conventions).
 */
#include <errno.h>
#include <string.h>

#include <ethdev_driver.h>
#include <rte_malloc.h>

#include "hwcsum_private.h"

static inline struct hwcsum_private *
hwcsum_priv(const struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

static int
hwcsum_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_eth_dev_info sub;
	int ret;

	ret = rte_eth_dev_info_get(priv->sub_port, &sub);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: cannot get info of sub-port %s: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
		return ret;
	}
	info->max_rx_queues = sub.max_rx_queues;
	info->max_tx_queues = sub.max_tx_queues;
	info->max_rx_pktlen = sub.max_rx_pktlen;
	info->max_lro_pkt_size = sub.max_lro_pkt_size;
	info->min_rx_bufsize = sub.min_rx_bufsize;
	info->min_mtu = sub.min_mtu;
	info->max_mtu = sub.max_mtu;
	info->max_mac_addrs = 1;
	info->rx_desc_lim = sub.rx_desc_lim;
	info->tx_desc_lim = sub.tx_desc_lim;
	info->speed_capa = sub.speed_capa;
	info->rx_offload_capa = sub.rx_offload_capa;
	info->tx_offload_capa = sub.tx_offload_capa;
	info->rx_queue_offload_capa = sub.rx_queue_offload_capa;
	info->tx_queue_offload_capa = sub.tx_queue_offload_capa;
	info->flow_type_rss_offloads = sub.flow_type_rss_offloads;
	info->hash_key_size = sub.hash_key_size;
	info->reta_size = sub.reta_size;
	info->default_rxconf = sub.default_rxconf;
	info->default_txconf = sub.default_txconf;
	info->default_rxportconf = sub.default_rxportconf;
	info->default_txportconf = sub.default_txportconf;
	return 0;
}

static int
hwcsum_dev_configure(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	ret = rte_eth_dev_configure(priv->sub_port, dev->data->nb_rx_queues,
				    dev->data->nb_tx_queues,
				    &dev->data->dev_conf);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: configuring sub-port %s (%u rxq, %u txq) failed: %s",
			   dev->data->name, priv->sub_name,
			   dev->data->nb_rx_queues, dev->data->nb_tx_queues,
			   rte_strerror(-ret));
	return ret;
}

static struct hwcsum_queue *
hwcsum_queue_new(struct rte_eth_dev *dev, uint16_t queue_id, int socket_id,
		 uint16_t nb_desc, struct rte_mempool *mp)
{
	struct hwcsum_queue *q;

	q = rte_zmalloc_socket("hwcsum_queue", sizeof(*q), RTE_CACHE_LINE_SIZE,
			       socket_id);
	if (q == NULL)
		return NULL;
	q->port_id = dev->data->port_id;
	q->sub_port = hwcsum_priv(dev)->sub_port;
	q->queue_id = queue_id;
	q->nb_desc = nb_desc;
	q->mp = mp;
	return q;
}

static void
hwcsum_rx_queue_release(struct rte_eth_dev *dev, uint16_t queue_id)
{
	rte_free(dev->data->rx_queues[queue_id]);
	dev->data->rx_queues[queue_id] = NULL;
}

static void
hwcsum_tx_queue_release(struct rte_eth_dev *dev, uint16_t queue_id)
{
	rte_free(dev->data->tx_queues[queue_id]);
	dev->data->tx_queues[queue_id] = NULL;
}

static int
hwcsum_rx_queue_setup(struct rte_eth_dev *dev, uint16_t queue_id,
		      uint16_t nb_desc, unsigned int socket_id,
		      const struct rte_eth_rxconf *rx_conf,
		      struct rte_mempool *mb_pool)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct hwcsum_queue *q;
	int ret;

	ret = rte_eth_rx_queue_setup(priv->sub_port, queue_id, nb_desc,
				     socket_id, rx_conf, mb_pool);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: rx queue %u setup on sub-port %s failed: %s",
			   dev->data->name, queue_id, priv->sub_name,
			   rte_strerror(-ret));
		return ret;
	}
	q = hwcsum_queue_new(dev, queue_id, socket_id, nb_desc, mb_pool);
	if (q == NULL) {
		HWCSUM_LOG(ERR, "%s: no memory for rx queue %u",
			   dev->data->name, queue_id);
		return -ENOMEM;
	}
	hwcsum_rx_queue_release(dev, queue_id);
	dev->data->rx_queues[queue_id] = q;
	return 0;
}

static int
hwcsum_tx_queue_setup(struct rte_eth_dev *dev, uint16_t queue_id,
		      uint16_t nb_desc, unsigned int socket_id,
		      const struct rte_eth_txconf *tx_conf)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct hwcsum_queue *q;
	int ret;

	ret = rte_eth_tx_queue_setup(priv->sub_port, queue_id, nb_desc,
				     socket_id, tx_conf);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: tx queue %u setup on sub-port %s failed: %s",
			   dev->data->name, queue_id, priv->sub_name,
			   rte_strerror(-ret));
		return ret;
	}
	q = hwcsum_queue_new(dev, queue_id, socket_id, nb_desc, NULL);
	if (q == NULL) {
		HWCSUM_LOG(ERR, "%s: no memory for tx queue %u",
			   dev->data->name, queue_id);
		return -ENOMEM;
	}
	hwcsum_tx_queue_release(dev, queue_id);
	dev->data->tx_queues[queue_id] = q;
	return 0;
}

static int
hwcsum_link_update(struct rte_eth_dev *dev, int wait_to_complete)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_eth_link link;
	int ret;

	ret = wait_to_complete ? rte_eth_link_get(priv->sub_port, &link) :
		rte_eth_link_get_nowait(priv->sub_port, &link);
	if (ret != 0)
		return ret;
	return rte_eth_linkstatus_set(dev, &link);
}

static int
hwcsum_dev_start(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	uint16_t i;
	int ret;

	if (priv->sub_closed) {
		HWCSUM_LOG(ERR, "%s: sub-port %s was removed; close this port",
			   dev->data->name, priv->sub_name);
		return -ENODEV;
	}
	ret = rte_eth_dev_start(priv->sub_port);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: starting sub-port %s failed: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
		return ret;
	}
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	hwcsum_link_update(dev, 0);
	return 0;
}

static int
hwcsum_dev_stop(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	uint16_t i;
	int ret;

	/* A removed sub-port has nothing left to stop. */
	ret = priv->sub_closed ? 0 : rte_eth_dev_stop(priv->sub_port);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: stopping sub-port %s failed: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
		return ret;
	}
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	if (!priv->sub_closed)
		hwcsum_link_update(dev, 0);
	return 0;
}

/*
 * The sub-port was handed to us for the life of the hwcsum port: closing
 * hwcsum closes it too, so nothing is left behind that no one can see.
 */
int
hwcsum_sub_port_close(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	if (priv->sub_closed)
		return 0;
	hwcsum_release_ownership(dev);
	ret = rte_eth_dev_stop(priv->sub_port);
	if (ret != 0)
		HWCSUM_LOG(WARNING, "%s: stopping sub-port %s: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
	ret = rte_eth_dev_close(priv->sub_port);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: closing sub-port %s failed: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
	priv->sub_closed = 1;
	return ret;
}

static int
hwcsum_dev_close(struct rte_eth_dev *dev)
{
	uint16_t i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		hwcsum_rx_queue_release(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		hwcsum_tx_queue_release(dev, i);
	return hwcsum_sub_port_close(dev);
}

static int
hwcsum_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *stats)
{
	return rte_eth_stats_get(hwcsum_priv(dev)->sub_port, stats);
}

static int
hwcsum_stats_reset(struct rte_eth_dev *dev)
{
	return rte_eth_stats_reset(hwcsum_priv(dev)->sub_port);
}

static int
hwcsum_promiscuous_enable(struct rte_eth_dev *dev)
{
	return rte_eth_promiscuous_enable(hwcsum_priv(dev)->sub_port);
}

static int
hwcsum_promiscuous_disable(struct rte_eth_dev *dev)
{
	return rte_eth_promiscuous_disable(hwcsum_priv(dev)->sub_port);
}

static int
hwcsum_allmulticast_enable(struct rte_eth_dev *dev)
{
	return rte_eth_allmulticast_enable(hwcsum_priv(dev)->sub_port);
}

static int
hwcsum_allmulticast_disable(struct rte_eth_dev *dev)
{
	return rte_eth_allmulticast_disable(hwcsum_priv(dev)->sub_port);
}

static int
hwcsum_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	ret = rte_eth_dev_set_mtu(priv->sub_port, mtu);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: setting MTU %u on sub-port %s failed: %s",
			   dev->data->name, mtu, priv->sub_name,
			   rte_strerror(-ret));
	return ret;
}

static int
hwcsum_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_ether_addr current;
	int ret;

	/*
	 * ethdev re-applies our MAC on every start; a sub-port without a
	 * settable MAC (net_ring) must not fail that no-op.
	 */
	if (rte_eth_macaddr_get(priv->sub_port, &current) == 0 &&
	    rte_is_same_ether_addr(&current, addr))
		return 0;
	ret = rte_eth_dev_default_mac_addr_set(priv->sub_port, addr);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: setting MAC on sub-port %s failed: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
	return ret;
}

static int
hwcsum_set_link_up(struct rte_eth_dev *dev)
{
	return rte_eth_dev_set_link_up(hwcsum_priv(dev)->sub_port);
}

static int
hwcsum_set_link_down(struct rte_eth_dev *dev)
{
	return rte_eth_dev_set_link_down(hwcsum_priv(dev)->sub_port);
}

/* The sub-port's own view where it has one, else what was set up here. */
static void
hwcsum_rxq_info_get(struct rte_eth_dev *dev, uint16_t queue_id,
		    struct rte_eth_rxq_info *qinfo)
{
	const struct hwcsum_queue *q = dev->data->rx_queues[queue_id];

	if (rte_eth_rx_queue_info_get(hwcsum_priv(dev)->sub_port, queue_id,
				      qinfo) == 0)
		return;
	memset(qinfo, 0, sizeof(*qinfo));
	qinfo->mp = q->mp;
	qinfo->nb_desc = q->nb_desc;
	qinfo->conf.offloads = dev->data->dev_conf.rxmode.offloads;
}

static void
hwcsum_txq_info_get(struct rte_eth_dev *dev, uint16_t queue_id,
		    struct rte_eth_txq_info *qinfo)
{
	const struct hwcsum_queue *q = dev->data->tx_queues[queue_id];

	if (rte_eth_tx_queue_info_get(hwcsum_priv(dev)->sub_port, queue_id,
				      qinfo) == 0)
		return;
	memset(qinfo, 0, sizeof(*qinfo));
	qinfo->nb_desc = q->nb_desc;
	qinfo->conf.offloads = dev->data->dev_conf.txmode.offloads;
}

const struct eth_dev_ops hwcsum_dev_ops = {
	.dev_configure = hwcsum_dev_configure,
	.dev_start = hwcsum_dev_start,
	.dev_stop = hwcsum_dev_stop,
	.dev_close = hwcsum_dev_close,
	.dev_set_link_up = hwcsum_set_link_up,
	.dev_set_link_down = hwcsum_set_link_down,
	.dev_infos_get = hwcsum_dev_infos_get,
	.rx_queue_setup = hwcsum_rx_queue_setup,
	.tx_queue_setup = hwcsum_tx_queue_setup,
	.rx_queue_release = hwcsum_rx_queue_release,
	.tx_queue_release = hwcsum_tx_queue_release,
	.rxq_info_get = hwcsum_rxq_info_get,
	.txq_info_get = hwcsum_txq_info_get,
	.link_update = hwcsum_link_update,
	.stats_get = hwcsum_stats_get,
	.stats_reset = hwcsum_stats_reset,
	.promiscuous_enable = hwcsum_promiscuous_enable,
	.promiscuous_disable = hwcsum_promiscuous_disable,
	.allmulticast_enable = hwcsum_allmulticast_enable,
	.allmulticast_disable = hwcsum_allmulticast_disable,
	.mtu_set = hwcsum_mtu_set,
	.mac_addr_set = hwcsum_mac_addr_set,
};
