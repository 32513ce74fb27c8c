/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control path: every op is carried out on the sub-port, so the hwcsum
 * port behaves as the device underneath does, except the checksum
 * offloads, which are hwcsum's own (hwcsum_tx.c, hwcsum_rx.c), and the
 * tunnel ports (hwcsum_tunnel.c). Errors from the sub-port are returned
 * unchanged (they already follow the rte_eth_* conventions).
 */
#include <errno.h>
#include <string.h>

#include <ethdev_driver.h>
#include <rte_malloc.h>

#include "hwcsum_private.h"

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
	/*
	 * hwcsum's own checksum set, whatever is underneath; everything else
	 * is the sub-port's and passes through.
	 */
	info->rx_offload_capa = (sub.rx_offload_capa & ~HWCSUM_RX_CSUM_OFFLOADS) |
		HWCSUM_RX_CSUM_OFFLOADS;
	info->tx_offload_capa = (sub.tx_offload_capa & ~HWCSUM_TX_OFFLOADS) |
		HWCSUM_TX_OFFLOADS;
	info->rx_queue_offload_capa = sub.rx_queue_offload_capa &
		~HWCSUM_RX_CSUM_OFFLOADS;
	info->tx_queue_offload_capa = sub.tx_queue_offload_capa &
		~HWCSUM_TX_OFFLOADS;
	info->flow_type_rss_offloads = sub.flow_type_rss_offloads;
	info->hash_key_size = sub.hash_key_size;
	info->reta_size = sub.reta_size;
	info->default_rxconf = sub.default_rxconf;
	info->default_txconf = sub.default_txconf;
	info->default_rxportconf = sub.default_rxportconf;
	info->default_txportconf = sub.default_txportconf;
	info->tx_desc_lim.nb_seg_max = sub.tx_desc_lim.nb_seg_max;
	info->tx_desc_lim.nb_mtu_seg_max = sub.tx_desc_lim.nb_mtu_seg_max;
	return 0;
}

/*
 * The sub-port gets only what it will really be asked to do: the
 * non-checksum offloads the application chose, the L4 checksum bits when
 * its engine is used, and its own RX checksum bits when its verdicts are
 * reused.
 */
static int
hwcsum_dev_configure(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_eth_conf conf = dev->data->dev_conf;
	uint64_t app_rx = conf.rxmode.offloads;
	struct rte_eth_dev_info sub;
	int ret;

	ret = rte_eth_dev_info_get(priv->sub_port, &sub);
	if (ret != 0)
		return ret;
	ret = hwcsum_sub_reclaim(dev);
	if (ret != 0)
		return ret;
	ret = hwcsum_sub_caps_decide(dev, &conf.txmode.offloads);
	if (ret != 0)
		return ret;
	/* The offload burst makes requests of its own (TSO's segments). */
	if (dev->data->dev_conf.txmode.offloads & HWCSUM_TX_CSUM_OFFLOADS) {
		ret = hwcsum_tx_partial_register(priv);
		if (ret != 0)
			return ret;
	}
	priv->rx_work = priv->args.rx_mode == HWCSUM_RX_ON ||
		(priv->args.rx_mode == HWCSUM_RX_AUTO &&
		 (app_rx & HWCSUM_RX_CSUM_OFFLOADS) != 0);
	conf.rxmode.offloads = app_rx & ~HWCSUM_RX_CSUM_OFFLOADS;
	if (priv->rx_work)
		conf.rxmode.offloads |= sub.rx_offload_capa & HWCSUM_RX_CSUM_OFFLOADS;
	/* LRO needs the sub-port's L4 receive checksum: net_virtio asks the
	 * host for GUEST_TSO4/6 without GUEST_CSUM, and a tap (QEMU's
	 * tap_fd_set_offload) hands large frames only with TUN_F_CSUM;
	 * without it the host cuts every frame before the guest sees it.
	 * The flags it adds are the sub-port's and, without rx_work, pass
	 * through unread, as the application did not ask for them. */
	if (app_rx & RTE_ETH_RX_OFFLOAD_TCP_LRO)
		conf.rxmode.offloads |= sub.rx_offload_capa &
			(RTE_ETH_RX_OFFLOAD_TCP_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM);
	ret = rte_eth_dev_configure(priv->sub_port, dev->data->nb_rx_queues,
				    dev->data->nb_tx_queues, &conf);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: configuring sub-port %s (%u rxq, %u txq) failed: %s",
			   dev->data->name, priv->sub_name,
			   dev->data->nb_rx_queues, dev->data->nb_tx_queues,
			   rte_strerror(-ret));
	return ret;
}

static void
hwcsum_rx_queue_release(struct rte_eth_dev *dev, uint16_t queue_id)
{
	struct hwcsum_rxq *q = dev->data->rx_queues[queue_id];

	if (q != NULL)
		hwcsum_flow_rxq_fini(dev, q);
	rte_free(q);
	dev->data->rx_queues[queue_id] = NULL;
}

static void
hwcsum_tx_queue_release(struct rte_eth_dev *dev, uint16_t queue_id)
{
	if (dev->data->tx_queues[queue_id] != NULL)
		hwcsum_tso_txq_drop(dev->data->tx_queues[queue_id]);
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
	struct rte_eth_rxconf conf = *rx_conf;
	struct hwcsum_rxq *q;
	int ret;

	/* Checksum offloads are ours; the port-level ones were set at configure. */
	conf.offloads &= ~HWCSUM_RX_CSUM_OFFLOADS;
	ret = rte_eth_rx_queue_setup(priv->sub_port, queue_id, nb_desc,
				     socket_id, &conf, mb_pool);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: rx queue %u setup on sub-port %s failed: %s",
			   dev->data->name, queue_id, priv->sub_name,
			   rte_strerror(-ret));
		return ret;
	}
	q = rte_zmalloc_socket("hwcsum_rxq", sizeof(*q), RTE_CACHE_LINE_SIZE,
			       socket_id);
	if (q == NULL) {
		HWCSUM_LOG(ERR, "%s: no memory for rx queue %u",
			   dev->data->name, queue_id);
		return -ENOMEM;
	}
	q->port_id = dev->data->port_id;
	q->sub_port = priv->sub_port;
	q->queue_id = queue_id;
	q->nb_desc = nb_desc;
	q->mp = mb_pool;
	q->priv = priv;
	hwcsum_sub_rxq_bind(q);	/* again at start, once the sub-port runs */
	hwcsum_rx_queue_release(dev, queue_id);
	ret = hwcsum_flow_rxq_init(dev, q);
	if (ret != 0) {
		rte_free(q);
		return ret;
	}
	dev->data->rx_queues[queue_id] = q;
	return 0;
}

static int
hwcsum_tx_queue_setup(struct rte_eth_dev *dev, uint16_t queue_id,
		      uint16_t nb_desc, unsigned int socket_id,
		      const struct rte_eth_txconf *tx_conf)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_eth_txconf conf = *tx_conf;
	struct hwcsum_txq *q;
	int ret;

	/* Queue-level checksum bits are ours; the sub-port's were set at configure. */
	conf.offloads &= ~HWCSUM_TX_OFFLOADS;
	ret = rte_eth_tx_queue_setup(priv->sub_port, queue_id, nb_desc,
				     socket_id, &conf);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: tx queue %u setup on sub-port %s failed: %s",
			   dev->data->name, queue_id, priv->sub_name,
			   rte_strerror(-ret));
		return ret;
	}
	q = rte_zmalloc_socket("hwcsum_txq", sizeof(*q), RTE_CACHE_LINE_SIZE,
			       socket_id);
	if (q == NULL) {
		HWCSUM_LOG(ERR, "%s: no memory for tx queue %u",
			   dev->data->name, queue_id);
		return -ENOMEM;
	}
	q->port_id = dev->data->port_id;
	q->sub_port = priv->sub_port;
	q->queue_id = queue_id;
	q->nb_desc = nb_desc;
	q->priv = priv;
	hwcsum_sub_txq_bind(q);	/* again at start, once the sub-port runs */
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
	ret = hwcsum_veth_peer_segment(dev);
	if (ret != 0) {
		rte_eth_dev_stop(priv->sub_port);
		return ret;
	}
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	/* The sub-port may have lost its tunnel table while stopped. */
	hwcsum_tunnel_replay(dev);
	hwcsum_set_burst_fn(dev);
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
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
		if (dev->data->tx_queues[i] != NULL)
			hwcsum_tso_txq_drop(dev->data->tx_queues[i]);
	}
	hwcsum_tunnel_stop(dev);
	if (!priv->sub_closed)
		hwcsum_link_update(dev, 0);
	return 0;
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
	/* Rules hold registry references: gone before the registry. */
	hwcsum_flow_uninit(dev);
	hwcsum_tunnel_uninit(dev);
	hwcsum_veth_peer_restore(dev);
	return hwcsum_sub_close(dev);
}

/* Packets hwcsum itself dropped, for oerrors. */
static uint64_t
own_drops(struct rte_eth_dev *dev)
{
	struct hwcsum_txq_stats tx;

	hwcsum_tx_totals(dev, &tx);
	return tx.c[HWCSUM_TX_BAD_REQUEST] + tx.c[HWCSUM_TX_DROP_NO_SUB] +
		tx.c[HWCSUM_TX_TSO_STOP_DROP] + tx.c[HWCSUM_TX_TSO_REFUSED_DROP];
}

/* The sub-port's counters, plus what hwcsum dropped since the last reset. */
static int
hwcsum_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *stats)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret = 0;

	if (!priv->sub_closed)
		ret = rte_eth_stats_get(priv->sub_port, stats);
	if (ret != 0)
		return ret;
	stats->oerrors += own_drops(dev) - priv->oerrors_base;
	return 0;
}

/* xstats keep counting: a reset of the basic stats only moves the base. */
static int
hwcsum_stats_reset(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	priv->oerrors_base = own_drops(dev);
	return priv->sub_closed ? 0 : rte_eth_stats_reset(priv->sub_port);
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
	/*
	 * A sub-port with no MTU of its own (net_pcap, net_ring, net_null
	 * have no mtu_set) carries what it is given, up to the max_mtu its
	 * dev_info gives, which ethdev checked this MTU against (hwcsum
	 * reports the sub-port's limits): the MTU is hwcsum's alone.
	 */
	if (ret == -ENOTSUP) {
		HWCSUM_LOG(INFO, "%s: sub-port %s has no MTU setting: MTU %u is hwcsum's",
			   dev->data->name, priv->sub_name, mtu);
		return 0;
	}
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
	const struct hwcsum_rxq *q = dev->data->rx_queues[queue_id];

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
	const struct hwcsum_txq *q = dev->data->tx_queues[queue_id];

	if (rte_eth_tx_queue_info_get(hwcsum_priv(dev)->sub_port, queue_id,
				      qinfo) == 0)
		return;
	memset(qinfo, 0, sizeof(*qinfo));
	qinfo->nb_desc = q->nb_desc;
	qinfo->conf.offloads = dev->data->dev_conf.txmode.offloads;
}

/*
 * A reset of the sub-port loses its tunnel table: the application
 * reconfigures and starts again, and start replays the table.
 */
static int
hwcsum_dev_reset(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	if (priv->sub_closed)
		return -ENODEV;
	ret = rte_eth_dev_reset(priv->sub_port);
	/* No vdev has a reset: nothing underneath to do, the next start replays. */
	if (ret == -ENOTSUP)
		ret = 0;
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: resetting sub-port %s failed: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
		return ret;
	}
	return 0;
}

static const uint32_t *
hwcsum_dev_supported_ptypes_get(struct rte_eth_dev *dev)
{
	return hwcsum_supported_ptypes(dev);
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
	.dev_reset = hwcsum_dev_reset,
	.dev_supported_ptypes_get = hwcsum_dev_supported_ptypes_get,
	.xstats_get = hwcsum_xstats_get,
	.xstats_get_names = hwcsum_xstats_get_names,
	.xstats_reset = hwcsum_xstats_reset,
	.udp_tunnel_port_add = hwcsum_udp_tunnel_port_add,
	.udp_tunnel_port_del = hwcsum_udp_tunnel_port_del,
	.flow_ops_get = hwcsum_flow_ops_get,
};

/* Nothing of a secondary's own to free: the primary closes the port. */
static int
hwcsum_secondary_close(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

/*
 * A secondary process's ops (hwcsum_mp.c): those that read shared data or
 * ask the sub-port, whose own ops in this process are its driver's.
 */
const struct eth_dev_ops hwcsum_secondary_ops = {
	.dev_close = hwcsum_secondary_close,
	.dev_infos_get = hwcsum_dev_infos_get,
	.rxq_info_get = hwcsum_rxq_info_get,
	.txq_info_get = hwcsum_txq_info_get,
	.link_update = hwcsum_link_update,
	.stats_get = hwcsum_stats_get,
	.stats_reset = hwcsum_stats_reset,
	.promiscuous_enable = hwcsum_promiscuous_enable,
	.promiscuous_disable = hwcsum_promiscuous_disable,
	.dev_supported_ptypes_get = hwcsum_dev_supported_ptypes_get,
	.xstats_get = hwcsum_xstats_get,
	.xstats_get_names = hwcsum_xstats_get_names,
	.xstats_reset = hwcsum_xstats_reset,
};
