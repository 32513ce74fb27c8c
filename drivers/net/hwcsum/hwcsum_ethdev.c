/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_hwcsum: a vdev stacked on one sub-port (see hwcsum_args.c for the
 * devargs). Probe takes ownership of the sub-port, the way net_failsafe
 * owns its sub-devices, so applications iterating ports see only hwcsum.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_malloc.h>

#include "hwcsum_private.h"

RTE_LOG_REGISTER_DEFAULT(hwcsum_logtype, NOTICE);

/* The sub-port must exist and belong to nobody yet. */
static int
hwcsum_find_sub_port(const char *name, const char *sub_name, uint16_t *sub_port)
{
	struct rte_eth_dev_owner owner;
	int ret;

	if (rte_eth_dev_get_port_by_name(sub_name, sub_port) != 0) {
		HWCSUM_LOG(ERR, "%s: sub-port '%s' does not exist (probe it first: put its --vdev or -a before %s)",
			   name, sub_name, name);
		return -ENODEV;
	}
	ret = rte_eth_dev_owner_get(*sub_port, &owner);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: cannot read the owner of sub-port '%s': %s",
			   name, sub_name, rte_strerror(-ret));
		return ret;
	}
	if (owner.id != RTE_ETH_DEV_NO_OWNER) {
		HWCSUM_LOG(ERR, "%s: sub-port '%s' is already owned by '%s'",
			   name, sub_name, owner.name);
		return -EBUSY;
	}
	return 0;
}

/*
 * The sub-port can be removed under us (its vdev uninit, EAL cleanup
 * removing vdevs in probe order). cb_arg is our port id, not a pointer:
 * a callback cannot be unregistered once its port is gone, so it must stay
 * harmless if it ever fires for a later device on the same port id.
 */
static int
hwcsum_sub_port_destroyed(uint16_t sub_port, enum rte_eth_event_type event,
			  void *cb_arg, void *ret_param __rte_unused)
{
	struct rte_eth_dev *dev = &rte_eth_devices[(uintptr_t)cb_arg];
	struct hwcsum_private *priv;

	if (event != RTE_ETH_EVENT_DESTROY || dev->state == RTE_ETH_DEV_UNUSED ||
	    dev->dev_ops != &hwcsum_dev_ops)
		return 0;
	priv = dev->data->dev_private;
	if (priv->sub_port != sub_port || priv->sub_closed)
		return 0;
	priv->sub_closed = 1;
	dev->data->dev_link.link_status = RTE_ETH_LINK_DOWN;
	HWCSUM_LOG(WARNING, "%s: sub-port '%s' was removed; the port is unusable until closed",
		   dev->data->name, priv->sub_name);
	return 0;
}

static int
hwcsum_take_ownership(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = dev->data->dev_private;
	int ret;

	ret = rte_eth_dev_owner_new(&priv->owner.id);
	if (ret != 0)
		return ret;
	snprintf(priv->owner.name, sizeof(priv->owner.name), "%s",
		 dev->data->name);
	ret = rte_eth_dev_owner_set(priv->sub_port, &priv->owner);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: cannot take ownership of sub-port '%s': %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_callback_register(priv->sub_port, RTE_ETH_EVENT_DESTROY,
					    hwcsum_sub_port_destroyed,
					    (void *)(uintptr_t)dev->data->port_id);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: cannot watch sub-port '%s' for removal: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
		rte_eth_dev_owner_unset(priv->sub_port, priv->owner.id);
	}
	return ret;
}

void
hwcsum_release_ownership(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = dev->data->dev_private;

	rte_eth_dev_callback_unregister(priv->sub_port, RTE_ETH_EVENT_DESTROY,
					hwcsum_sub_port_destroyed,
					(void *)(uintptr_t)dev->data->port_id);
	rte_eth_dev_owner_unset(priv->sub_port, priv->owner.id);
}

static int
hwcsum_copy_mac(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = dev->data->dev_private;
	int ret;

	dev->data->mac_addrs = rte_zmalloc_socket(dev->data->name,
		sizeof(struct rte_ether_addr), 0, dev->device->numa_node);
	if (dev->data->mac_addrs == NULL)
		return -ENOMEM;
	ret = rte_eth_macaddr_get(priv->sub_port, dev->data->mac_addrs);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: cannot read MAC of sub-port '%s': %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
	return ret;
}

static int
hwcsum_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct hwcsum_private *priv;
	struct hwcsum_args args;
	struct rte_eth_dev *dev;
	uint16_t sub_port;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		HWCSUM_LOG(ERR, "%s: secondary processes are not supported", name);
		return -ENOTSUP;
	}
	ret = hwcsum_args_parse(name, rte_vdev_device_args(vdev), &args);
	if (ret != 0)
		return ret;
	ret = hwcsum_find_sub_port(name, args.sub_name, &sub_port);
	if (ret != 0)
		return ret;

	dev = rte_eth_vdev_allocate(vdev, sizeof(*priv));
	if (dev == NULL) {
		HWCSUM_LOG(ERR, "%s: cannot allocate an ethdev", name);
		return -ENOMEM;
	}
	priv = dev->data->dev_private;
	priv->sub_port = sub_port;
	strcpy(priv->sub_name, args.sub_name);

	ret = hwcsum_take_ownership(dev);
	if (ret != 0)
		goto err_release;
	ret = hwcsum_copy_mac(dev);
	if (ret != 0)
		goto err_unown;

	dev->dev_ops = &hwcsum_dev_ops;
	dev->rx_pkt_burst = hwcsum_rx_burst;
	dev->tx_pkt_burst = hwcsum_tx_burst;
	rte_eth_dev_probing_finish(dev);
	HWCSUM_LOG(INFO, "%s: port %u on sub-port '%s' (port %u)", name,
		   dev->data->port_id, priv->sub_name, sub_port);
	return 0;

err_unown:
	hwcsum_release_ownership(dev);
err_release:
	/* Frees dev_private and mac_addrs. */
	rte_eth_dev_release_port(dev);
	return ret;
}

static int
hwcsum_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev;
	int ret;

	dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));
	if (dev == NULL)
		return 0; /* already closed by the application */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return rte_eth_dev_release_port(dev);
	ret = rte_eth_dev_stop(dev->data->port_id);
	if (ret != 0)
		HWCSUM_LOG(WARNING, "%s: stop before remove: %s",
			   dev->data->name, rte_strerror(-ret));
	return rte_eth_dev_close(dev->data->port_id);
}

static struct rte_vdev_driver hwcsum_vdev_driver = {
	.probe = hwcsum_probe,
	.remove = hwcsum_remove,
};

RTE_PMD_REGISTER_VDEV(net_hwcsum, hwcsum_vdev_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_hwcsum, "sub=<port name>");
