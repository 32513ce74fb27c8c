/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_hwcsum: a vdev stacked on one sub-port (see hwcsum_args.c for the
 * devargs). Probe owns the sub-port (hwcsum_sub.c), registers the mbuf
 * contract of rte_pmd_hwcsum.h and the port's tunnel registry device
 * (hwcsum_tunnel.c). A secondary process attaches to the primary's port
 * (hwcsum_mp.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>

#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

RTE_LOG_REGISTER_DEFAULT(hwcsum_logtype, NOTICE);

/*
 * The mbuf contract of rte_pmd_hwcsum.h: one 4-byte field, two flags.
 * Registration is idempotent, so every port gets the same offsets. The TX
 * flag is the application's to ask for, through rte_pmd_hwcsum_dyn_lookup(),
 * which registers it and announces it in a memzone word: until then no
 * packet of the application carries it, and a port without TX offloads
 * need not look for it. A port configured with TX offloads registers it
 * for its own requests (TSO's segments, a DPDK request kept for a retry)
 * without announcing it: finding the flag registered says nothing about
 * the application.
 */
static const struct rte_mbuf_dynflag hwcsum_tx_flag = {
	.name = RTE_PMD_HWCSUM_DYNFLAG_TX_PARTIAL_NAME,
};

int
hwcsum_dyn_register(struct hwcsum_private *priv)
{
	static const struct rte_mbuf_dynfield field = {
		.name = RTE_PMD_HWCSUM_DYNFIELD_NAME,
		.size = sizeof(struct rte_pmd_hwcsum_csum),
		.align = __alignof__(struct rte_pmd_hwcsum_csum),
	};
	static const struct rte_mbuf_dynflag rx_flag = {
		.name = RTE_PMD_HWCSUM_DYNFLAG_RX_COMPLETE_NAME,
	};
	const struct rte_memzone *announce;
	int off, rx;

	off = rte_mbuf_dynfield_register(&field);
	rx = rte_mbuf_dynflag_register(&rx_flag);
	if (off < 0 || rx < 0) {
		HWCSUM_LOG(ERR, "cannot register the mbuf dynamic field and flag (%s, %s): %s",
			   field.name, rx_flag.name, rte_strerror(rte_errno));
		return -rte_errno;
	}
	/* One word for every port; it lives as long as the EAL's memory. */
	announce = rte_memzone_lookup(RTE_PMD_HWCSUM_ANNOUNCE_NAME);
	if (announce == NULL)
		announce = rte_memzone_reserve(RTE_PMD_HWCSUM_ANNOUNCE_NAME,
					       sizeof(uint64_t), SOCKET_ID_ANY, 0);
	if (announce == NULL) {
		HWCSUM_LOG(ERR, "cannot reserve the memzone %s: %s",
			   RTE_PMD_HWCSUM_ANNOUNCE_NAME, rte_strerror(rte_errno));
		return -rte_errno;
	}
	priv->dynfield_off = off;
	priv->rx_complete_flag = UINT64_C(1) << rx;
	priv->tx_partial_announced = announce->addr;
	hwcsum_tx_partial_adopt(priv);
	return 0;
}

int
hwcsum_tx_partial_register(struct hwcsum_private *priv)
{
	int tx = rte_mbuf_dynflag_register(&hwcsum_tx_flag);

	if (tx < 0) {
		HWCSUM_LOG(ERR, "cannot register the mbuf dynamic flag %s: %s",
			   hwcsum_tx_flag.name, rte_strerror(rte_errno));
		return -rte_errno;
	}
	__atomic_store_n(&priv->tx_partial_flag, UINT64_C(1) << tx,
			 __ATOMIC_RELAXED);
	return 0;
}

/* From any lcore: the flag, once the application has it. */
bool
hwcsum_tx_partial_adopt(struct hwcsum_private *priv)
{
	uint64_t flag = __atomic_load_n(priv->tx_partial_announced,
					__ATOMIC_ACQUIRE);

	if (flag == 0)
		return false;
	if (hwcsum_tx_partial(priv) != flag)
		__atomic_store_n(&priv->tx_partial_flag, flag, __ATOMIC_RELAXED);
	return true;
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

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return hwcsum_probe_secondary(vdev);
	ret = hwcsum_args_parse(name, rte_vdev_device_args(vdev), &args);
	if (ret != 0)
		return ret;
	ret = hwcsum_sub_find(name, args.sub_name, &sub_port);
	if (ret != 0)
		return ret;

	dev = rte_eth_vdev_allocate(vdev, sizeof(*priv));
	if (dev == NULL) {
		HWCSUM_LOG(ERR, "%s: cannot allocate an ethdev", name);
		return -ENOMEM;
	}
	priv = dev->data->dev_private;
	priv->port_id = dev->data->port_id;
	priv->sub_port = sub_port;
	priv->args = args;
	priv->xdp_link = -1;
	strcpy(priv->sub_name, args.sub_name);

	ret = hwcsum_sub_own(dev);
	if (ret != 0)
		goto err_release;
	ret = hwcsum_sub_identify(dev);
	if (ret != 0)
		goto err_unown;
	ret = hwcsum_dyn_register(priv);
	if (ret != 0)
		goto err_unown;
	ret = hwcsum_copy_mac(dev);
	if (ret != 0)
		goto err_unown;
	dev->dev_ops = &hwcsum_dev_ops;
	ret = hwcsum_tunnel_init(dev);
	if (ret != 0)
		goto err_unown;
	ret = hwcsum_flow_init(dev);
	if (ret != 0) {
		hwcsum_tunnel_uninit(dev);
		goto err_unown;
	}
	hwcsum_telemetry_register();
	ret = hwcsum_mp_init();
	if (ret != 0) {
		hwcsum_flow_uninit(dev);
		hwcsum_tunnel_uninit(dev);
		goto err_unown;
	}

	hwcsum_set_burst_fn(dev);
	rte_eth_dev_probing_finish(dev);
	HWCSUM_LOG(INFO, "%s: port %u on sub-port '%s' (port %u)", name,
		   dev->data->port_id, priv->sub_name, sub_port);
	return 0;

err_unown:
	hwcsum_sub_disown(dev);
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
/* The devargs as "key=values" words, as DPDK's drivers give them. */
#define HWCSUM_PARAM_STRING \
	"sub=<port name> " \
	"tx_engine=auto|generic|parse|none " \
	"rx=auto|on|off " \
	"registry=port|shared " \
	"tables=<n>:<type>[+<type>...][/...] " \
	"tunnel_ports=<type>:<udp port>[/...] " \
	"tables_open_only=0|1 " \
	"static_iana_vxlan=0|1 " \
	"tables_shared=<name> " \
	"rx_partial_seed=auto|on|off " \
	"peer_segment=auto|on|off"
RTE_PMD_REGISTER_PARAM_STRING(net_hwcsum, HWCSUM_PARAM_STRING);
/*
 * What dpdk-pmdinfo.py reads. DPDK's own build generates it from the two
 * registrations above with buildtools/pmdinfogen.py, which Debian does not
 * ship; the parameter string holds no character JSON would escape. The
 * script wants "pci_ids" in every entry, a vdev's too.
 */
static const char hwcsum_pmd_info[] __rte_used =
	"PMD_INFO_STRING= {\"name\": \"net_hwcsum\", \"params\": \""
	HWCSUM_PARAM_STRING "\", \"pci_ids\": []}";
