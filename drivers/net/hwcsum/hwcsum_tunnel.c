/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tunnel ports: the hwcsum port is a device of a lib/udp_tunnel registry,
 * as a NIC is a udp_tunnel_nic device in Linux. Its tables are the shape
 * of the hardware underneath (devarg tables=, or the sub-port driver's real
 * limits); entries are pushed to the sub-port when it has the ops. The
 * receive path classifies from the registry's lock-free lookup, so a port
 * that did not fit a table is still recognised in software.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

#define ALL_BUILTIN_TYPES (UDP_TUNNEL_TYPE_VXLAN | UDP_TUNNEL_TYPE_GENEVE | \
			   UDP_TUNNEL_TYPE_VXLAN_GPE | UDP_TUNNEL_TYPE_GUE)

/* registry type bit -> DPDK's RTE_ETH_TUNNEL_TYPE_* for the sub-port, or 0. */
static uint8_t
dpdk_tunnel_type(unsigned int type)
{
	switch (type) {
	case UDP_TUNNEL_TYPE_VXLAN:
		return RTE_ETH_TUNNEL_TYPE_VXLAN;
	case UDP_TUNNEL_TYPE_GENEVE:
		return RTE_ETH_TUNNEL_TYPE_GENEVE;
	case UDP_TUNNEL_TYPE_VXLAN_GPE:
		return RTE_ETH_TUNNEL_TYPE_VXLAN_GPE;
	default:
		return 0;
	}
}

/* Registry callback: program the sub-port (runs under the registry lock). */
static int
push_port(struct udp_tunnel_dev *tdev, unsigned int table, unsigned int entry,
	  const struct udp_tunnel_port_info *ti, bool add)
{
	struct hwcsum_private *priv = udp_tunnel_dev_priv(tdev);
	struct rte_eth_udp_tunnel t = {
		.udp_port = ti->port,
		.prot_type = dpdk_tunnel_type(ti->type),
	};
	int ret;

	RTE_SET_USED(table);
	RTE_SET_USED(entry);
	/* Only hwcsum's software sees it: nothing to push. */
	if (!priv->sub_has_tunnel_ops || priv->sub_closed || t.prot_type == 0)
		return 0;
	ret = add ? rte_eth_dev_udp_tunnel_port_add(priv->sub_port, &t) :
		rte_eth_dev_udp_tunnel_port_delete(priv->sub_port, &t);
	if (ret != 0) {
		priv->tunnel_push_fail++;
		HWCSUM_LOG(WARNING, "port %u: sub-port %s: %s UDP port %u type %u: %s",
			   priv->port_id, priv->sub_name, add ? "add" : "del",
			   ti->port, t.prot_type, rte_strerror(-ret));
		return ret;
	}
	priv->tunnel_push_ok++;
	return 0;
}

static int
set_port(struct udp_tunnel_dev *tdev, unsigned int table, unsigned int entry,
	 const struct udp_tunnel_port_info *ti)
{
	return push_port(tdev, table, entry, ti, true);
}

static int
unset_port(struct udp_tunnel_dev *tdev, unsigned int table, unsigned int entry,
	   const struct udp_tunnel_port_info *ti)
{
	return push_port(tdev, table, entry, ti, false);
}

/* Table shape: devarg, else the sub-port driver's real limits, else ours. */
static int
tables_fill(struct rte_eth_dev *dev, struct udp_tunnel_dev_info *info)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	const struct hwcsum_args *a = &priv->args;
	unsigned int t, i;

	if (a->n_tables > 0) {
		for (t = 0; t < a->n_tables; t++) {
			info->tables[t].n_entries = a->tables[t].n_entries;
			for (i = 0; i < a->tables[t].n_types; i++) {
				const char *name = a->tables[t].type_names[i];
				unsigned int type = udp_tunnel_type_by_name(
					priv->registry, name);

				if (type == 0) {
					HWCSUM_LOG(ERR, "%s: devarg tables: unknown tunnel type '%s'",
						   dev->data->name, name);
					return -EINVAL;
				}
				info->tables[t].tunnel_types |= type;
			}
		}
		return 0;
	}
	if (strcmp(priv->sub_driver, "net_i40e") == 0) {
		/* I40E_MAX_PF_UDP_OFFLOAD_PORTS, VXLAN and VXLAN-GPE only. */
		info->tables[0].n_entries = 16;
		info->tables[0].tunnel_types = UDP_TUNNEL_TYPE_VXLAN |
			UDP_TUNNEL_TYPE_VXLAN_GPE;
		return 0;
	}
	if (strcmp(priv->sub_driver, "net_ixgbe") == 0) {
		/* X550's one VXLANCTRL port register. */
		info->tables[0].n_entries = 1;
		info->tables[0].tunnel_types = UDP_TUNNEL_TYPE_VXLAN;
		return 0;
	}
	/* hwcsum itself classifies in software: the largest table, every type. */
	info->tables[0].n_entries = UDP_TUNNEL_TABLE_MAX_ENTRIES;
	info->tables[0].tunnel_types = ALL_BUILTIN_TYPES;
	return 0;
}

int
hwcsum_tunnel_init(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct udp_tunnel_dev_info *info = &priv->tunnel_info;
	struct rte_eth_dev_info sub;
	unsigned int i;
	int ret;

	if (priv->args.registry == HWCSUM_REGISTRY_SHARED) {
		priv->registry = udp_tunnel_registry_default();
		priv->registry_owned = false;
	} else {
		priv->registry = udp_tunnel_registry_create();
		priv->registry_owned = true;
	}
	if (priv->registry == NULL) {
		HWCSUM_LOG(ERR, "%s: cannot create a tunnel port registry",
			   dev->data->name);
		return -ENOMEM;
	}
	ret = rte_eth_dev_info_get(priv->sub_port, &sub);
	priv->sub_has_tunnel_ops = ret == 0 &&
		rte_eth_devices[priv->sub_port].dev_ops->udp_tunnel_port_add != NULL;
	memset(info, 0, sizeof(*info));
	info->set_port = set_port;
	info->unset_port = unset_port;
	ret = tables_fill(dev, info);
	if (ret == 0)
		ret = udp_tunnel_dev_register(priv->registry, dev->data->name,
					      info, priv, &priv->tunnel_dev);
	if (ret != 0)
		goto err;
	for (i = 0; i < priv->args.n_tunnel_ports; i++) {
		const struct hwcsum_tunnel_port_arg *tp = &priv->args.tunnel_ports[i];
		unsigned int type = udp_tunnel_type_by_name(priv->registry,
							    tp->type_name);

		if (type == 0) {
			HWCSUM_LOG(ERR, "%s: devarg tunnel_ports: unknown tunnel type '%s'",
				   dev->data->name, tp->type_name);
			ret = -EINVAL;
			goto err;
		}
		ret = hwcsum_udp_tunnel_port_add_type(dev, type, tp->port);
		if (ret != 0)
			goto err;
	}
	return 0;
err:
	hwcsum_tunnel_uninit(dev);
	return ret;
}

void
hwcsum_tunnel_uninit(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	/* Our users leave the registry with us (a shared one lives on). */
	while (priv->n_added > 0) {
		priv->n_added--;
		udp_tunnel_port_del(priv->registry, AF_INET,
				    priv->added[priv->n_added].port,
				    priv->added[priv->n_added].type);
	}
	if (priv->tunnel_dev != NULL) {
		udp_tunnel_dev_unregister(priv->tunnel_dev);
		priv->tunnel_dev = NULL;
	}
	if (priv->registry_owned && priv->registry != NULL)
		udp_tunnel_registry_destroy(priv->registry);
	priv->registry = NULL;
}

int
hwcsum_tunnel_replay(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	if (priv->tunnel_dev == NULL)
		return 0;
	priv->tunnel_replays++;
	return udp_tunnel_dev_reset_ntf(priv->tunnel_dev);
}

static int
added_find(const struct hwcsum_private *priv, unsigned int type, uint16_t port)
{
	unsigned int i;

	for (i = 0; i < priv->n_added; i++)
		if (priv->added[i].type == type && priv->added[i].port == port)
			return i;
	return -1;
}

int
hwcsum_udp_tunnel_port_add_type(struct rte_eth_dev *dev, unsigned int type,
				uint16_t port)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	const char *name = udp_tunnel_type_name(priv->registry, type);
	int ret;

	if (added_find(priv, type, port) >= 0) {
		HWCSUM_LOG(ERR, "%s: UDP port %u type %s is already added on this port",
			   dev->data->name, port, name);
		return -EEXIST;
	}
	if (priv->n_added == RTE_DIM(priv->added))
		return -ENOSPC;
	ret = udp_tunnel_port_add(priv->registry, AF_INET, port, type);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: adding UDP port %u type %s: %s",
			   dev->data->name, port, name, rte_strerror(-ret));
		return ret;
	}
	priv->added[priv->n_added].type = type;
	priv->added[priv->n_added].port = port;
	priv->n_added++;
	return 0;
}

/* DPDK's tunnel types as registry bits; 0 for the ones hwcsum refuses. */
static unsigned int
registry_type(const struct rte_eth_udp_tunnel *t)
{
	switch (t->prot_type) {
	case RTE_ETH_TUNNEL_TYPE_VXLAN:
		return UDP_TUNNEL_TYPE_VXLAN;
	case RTE_ETH_TUNNEL_TYPE_GENEVE:
		return UDP_TUNNEL_TYPE_GENEVE;
	case RTE_ETH_TUNNEL_TYPE_VXLAN_GPE:
		return UDP_TUNNEL_TYPE_VXLAN_GPE;
	default:
		return 0;
	}
}

int
hwcsum_udp_tunnel_port_add(struct rte_eth_dev *dev,
			   struct rte_eth_udp_tunnel *tunnel)
{
	unsigned int type = registry_type(tunnel);

	if (type == 0) {
		HWCSUM_LOG(ERR, "%s: UDP port %u: tunnel type %u is not supported (%s)",
			   dev->data->name, tunnel->udp_port, tunnel->prot_type,
			   tunnel->prot_type == RTE_ETH_TUNNEL_TYPE_ECPRI ?
			   "eCPRI carries no inner packet to classify or checksum" :
			   "not a UDP tunnel hwcsum knows");
		return -ENOTSUP;
	}
	return hwcsum_udp_tunnel_port_add_type(dev, type, tunnel->udp_port);
}

int
hwcsum_udp_tunnel_port_del(struct rte_eth_dev *dev,
			   struct rte_eth_udp_tunnel *tunnel)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	unsigned int type = registry_type(tunnel);
	int i;

	if (type == 0) {
		HWCSUM_LOG(ERR, "%s: UDP port %u: tunnel type %u is not supported",
			   dev->data->name, tunnel->udp_port, tunnel->prot_type);
		return -ENOTSUP;
	}
	i = added_find(priv, type, tunnel->udp_port);
	if (i < 0) {
		HWCSUM_LOG(ERR, "%s: UDP port %u type %s was not added on this port",
			   dev->data->name, tunnel->udp_port,
			   udp_tunnel_type_name(priv->registry, type));
		return -ENOENT;
	}
	udp_tunnel_port_del(priv->registry, AF_INET, tunnel->udp_port, type);
	priv->added[i] = priv->added[--priv->n_added];
	return 0;
}

unsigned int
hwcsum_tunnel_not_fitted(struct rte_eth_dev *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

struct udp_tunnel_registry *
rte_pmd_hwcsum_registry(uint16_t port_id)
{
	if (!rte_eth_dev_is_valid_port(port_id) ||
	    rte_eth_devices[port_id].dev_ops != &hwcsum_dev_ops) {
		rte_errno = ENODEV;
		return NULL;
	}
	return hwcsum_priv(&rte_eth_devices[port_id])->registry;
}
