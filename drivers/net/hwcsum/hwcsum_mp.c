/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Secondary processes (dpdk-proc-info, dpdk-dumpcap, dpdk-pdump...).
 *
 * A secondary attaches to the port the primary probed: the ethdev data,
 * dev_private and the queue structs are in shared memory, but much of
 * what dev_private points at is not. The registry, its devices, the flow
 * rules and tables are the primary's malloc() heap; function pointers
 * (dev_ops, the sub-port bursts cached in the queues) are the primary's
 * addresses, since EAL loads every driver at an address of its own in
 * each process. So a secondary gets:
 * - its own dev_ops (hwcsum_secondary_ops): information, statistics,
 *   promiscuous mode, close; no configuration, tunnel ports or rte_flow,
 *   which need the primary's heap (ethdev answers -ENOTSUP);
 * - bursts that refuse: nothing received, nothing taken, rte_errno
 *   ENOTSUP, as ethdev's dummy bursts answer. Receive work reads the
 *   registry and the flow table, and the cached sub-port bursts are not
 *   callable here. Capture needs no burst of its own: pdump's callbacks
 *   run in the primary;
 * - the xstats that come from the primary's heap (tunnel type names, the
 *   registry and classifier counters) through a view in dev_private that
 *   the primary fills on request over EAL's IPC channel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_spinlock.h>
#include <rte_string_fns.h>

#include "hwcsum_private.h"

#define HWCSUM_MP_VIEW "net_hwcsum_view"
#define HWCSUM_MP_TIMEOUT_S 5

struct hwcsum_mp_param {
	uint16_t port_id;
	int32_t result;
};

/* In the primary: the heap state the view holds, computed now. */
static void
hwcsum_view_compute(struct rte_eth_dev *dev, struct hwcsum_view *v)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	unsigned int mask, i;

	mask = priv->registry != NULL ? udp_tunnel_type_mask(priv->registry) : 0;
	memset(v, 0, sizeof(*v));
	v->type_mask = mask;
	for (i = 0; i < UDP_TUNNEL_MAX_TYPES; i++)
		if (mask & (1u << i))
			strlcpy(v->type_names[i],
				udp_tunnel_type_name(priv->registry, 1u << i),
				sizeof(v->type_names[i]));
	v->not_fitted = hwcsum_tunnel_not_fitted(dev);
	v->flow_masks = hwcsum_flow_n_masks(priv);
}

/* In the primary: a secondary asks for a fresh view of one port. */
static int
hwcsum_mp_view_action(const struct rte_mp_msg *msg, const void *peer)
{
	struct hwcsum_mp_param *p;
	struct rte_mp_msg reply;

	memset(&reply, 0, sizeof(reply));
	strlcpy(reply.name, msg->name, sizeof(reply.name));
	reply.len_param = sizeof(*p);
	p = (struct hwcsum_mp_param *)reply.param;
	memcpy(p, msg->param, RTE_MIN((size_t)msg->len_param, sizeof(*p)));
	if (msg->len_param != sizeof(*p) || !rte_eth_dev_is_valid_port(p->port_id) ||
	    rte_eth_devices[p->port_id].dev_ops != &hwcsum_dev_ops) {
		p->result = -ENODEV;
	} else {
		struct rte_eth_dev *dev = &rte_eth_devices[p->port_id];
		struct hwcsum_private *priv = hwcsum_priv(dev);
		struct hwcsum_view v;

		/* Computed first: the spinlock is held for the copy only. */
		hwcsum_view_compute(dev, &v);
		rte_spinlock_lock(&priv->view_lock);
		priv->view = v;
		rte_spinlock_unlock(&priv->view_lock);
		p->result = 0;
	}
	return rte_mp_reply(&reply, peer);
}

int
hwcsum_mp_init(void)
{
	static bool registered;
	int ret;

	/* Once per process, however many ports are probed. */
	if (registered)
		return 0;
	ret = rte_mp_action_register(HWCSUM_MP_VIEW, hwcsum_mp_view_action);
	if (ret != 0 && rte_errno != EEXIST && rte_errno != ENOTSUP) {
		HWCSUM_LOG(ERR, "cannot register IPC action %s: %s",
			   HWCSUM_MP_VIEW, rte_strerror(rte_errno));
		return -rte_errno;
	}
	registered = true;
	return 0;
}

/* In a secondary: have the primary refresh the view, then copy it. */
static int
hwcsum_view_request(struct rte_eth_dev *dev)
{
	struct timespec ts = { .tv_sec = HWCSUM_MP_TIMEOUT_S, .tv_nsec = 0 };
	struct rte_mp_reply replies = { 0 };
	struct hwcsum_mp_param *p;
	struct rte_mp_msg req;
	int ret = -EIO;

	memset(&req, 0, sizeof(req));
	strlcpy(req.name, HWCSUM_MP_VIEW, sizeof(req.name));
	req.len_param = sizeof(*p);
	p = (struct hwcsum_mp_param *)req.param;
	p->port_id = dev->data->port_id;
	if (rte_mp_request_sync(&req, &replies, &ts) == 0 &&
	    replies.nb_received == 1 &&
	    replies.msgs[0].len_param == sizeof(*p)) {
		p = (struct hwcsum_mp_param *)replies.msgs[0].param;
		ret = p->result;
	}
	free(replies.msgs);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: the primary did not answer %s: %s",
			   dev->data->name, HWCSUM_MP_VIEW, rte_strerror(-ret));
	return ret;
}

int
hwcsum_view_get(struct rte_eth_dev *dev, struct hwcsum_view *out)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	if (rte_eal_process_type() == RTE_PROC_PRIMARY) {
		hwcsum_view_compute(dev, out);
		return 0;
	}
	ret = hwcsum_view_request(dev);
	if (ret != 0)
		return ret;
	rte_spinlock_lock(&priv->view_lock);
	*out = priv->view;
	rte_spinlock_unlock(&priv->view_lock);
	return 0;
}

static uint16_t
hwcsum_burst_refused(void *queue __rte_unused, struct rte_mbuf **pkts __rte_unused,
		     uint16_t n __rte_unused)
{
	rte_errno = ENOTSUP;
	return 0;
}

int
hwcsum_probe_secondary(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct hwcsum_private *priv;
	struct rte_eth_dev *dev;

	dev = rte_eth_dev_attach_secondary(name);
	if (dev == NULL) {
		HWCSUM_LOG(ERR, "%s: the primary process has no such port", name);
		return -ENODEV;
	}
	priv = hwcsum_priv(dev);
	/* Statistics and information are the sub-port's, as seen from here. */
	if (!rte_eth_dev_is_valid_port(priv->sub_port)) {
		HWCSUM_LOG(ERR, "%s: sub-port '%s' (port %u) is not attached in this process; is its driver loaded?",
			   name, priv->sub_name, priv->sub_port);
		rte_eth_dev_release_port(dev);
		return -ENODEV;
	}
	dev->device = &vdev->device;
	dev->dev_ops = &hwcsum_secondary_ops;
	dev->rx_pkt_burst = hwcsum_burst_refused;
	dev->tx_pkt_burst = hwcsum_burst_refused;
	dev->tx_pkt_prepare = NULL;
	rte_eth_dev_probing_finish(dev);
	HWCSUM_LOG(INFO, "%s: port %u attached in a secondary process (bursts refused)",
		   name, dev->data->port_id);
	return 0;
}
