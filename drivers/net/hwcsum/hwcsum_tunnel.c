/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tunnel ports: the hwcsum port is a device of a lib/udp_tunnel registry,
 * as a NIC is a udp_tunnel_nic device in Linux. Its tables are the shape
 * of the hardware underneath (devarg tables=, or the sub-port driver's real
 * limits); entries are pushed to the sub-port when it has the ops, and
 * replayed at every start (udp_tunnel_nic_reset_ntf). The receive path
 * classifies from the registry's lock-free lookup, so changes here reach
 * it without stopping any queue.
 *
 * DPDK's rules sit on top of the registry's: the same ethdev adding the
 * same (type, port) twice is -EEXIST (priv->added[]), an add that lands in
 * no table is rolled back with -ENOSPC, a type no table takes is -ENOTSUP,
 * deleting what this ethdev did not add is -ENOENT. In registry=shared
 * mode two ports adding the same port are two references on one user.
 * DPDK's calls are synchronous: each returns with every device of the
 * registry settled (a freed slot replays on the registry's worker).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

#define ALL_BUILTIN_TYPES (UDP_TUNNEL_TYPE_VXLAN | UDP_TUNNEL_TYPE_GENEVE | \
			   UDP_TUNNEL_TYPE_VXLAN_GPE | UDP_TUNNEL_TYPE_GUE)

/* Log prefix naming the device: "net_hwcsum0 (port 1)". */
#define TUN_LOG(level, dev, fmt, ...) \
	HWCSUM_LOG(level, "%s (port %u): " fmt, (dev)->data->name, \
		   (dev)->data->port_id, ## __VA_ARGS__)

/*
 * registry type bit -> DPDK's RTE_ETH_TUNNEL_TYPE_* (what is pushed to the
 * sub-port), or RTE_ETH_TUNNEL_TYPE_NONE. Public (rte_pmd_hwcsum.h): an
 * application holding lib/udp_tunnel types adds their ports through ethdev
 * with it, and there is one copy of the mapping.
 */
uint8_t
rte_pmd_hwcsum_eth_tunnel_type(unsigned int type)
{
	switch (type) {
	case UDP_TUNNEL_TYPE_VXLAN:
		return RTE_ETH_TUNNEL_TYPE_VXLAN;
	case UDP_TUNNEL_TYPE_GENEVE:
		return RTE_ETH_TUNNEL_TYPE_GENEVE;
	case UDP_TUNNEL_TYPE_VXLAN_GPE:
		return RTE_ETH_TUNNEL_TYPE_VXLAN_GPE;
	default:
		return RTE_ETH_TUNNEL_TYPE_NONE;
	}
}

/* Name of a type pushed to the sub-port (no registry call: lock held). */
static const char *
dpdk_type_name(uint8_t prot_type)
{
	switch (prot_type) {
	case RTE_ETH_TUNNEL_TYPE_VXLAN:
		return "vxlan";
	case RTE_ETH_TUNNEL_TYPE_GENEVE:
		return "geneve";
	case RTE_ETH_TUNNEL_TYPE_VXLAN_GPE:
		return "vxlan-gpe";
	default:
		return "?";
	}
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

/* Why a DPDK tunnel type is refused, for the log line. */
static const char *
refused_why(uint8_t prot_type)
{
	switch (prot_type) {
	case RTE_ETH_TUNNEL_TYPE_ECPRI:
		return "ecpri: eCPRI carries radio samples, not an inner packet to classify or checksum";
	case RTE_ETH_TUNNEL_TYPE_NONE:
		return "no tunnel type given";
	default:
		return "not a UDP tunnel type hwcsum knows (vxlan, geneve, vxlan-gpe)";
	}
}

/*
 * The sub-port is itself a hwcsum port of the same registry: it already
 * sees every user, and calling it would take the registry lock we hold.
 */
static bool
sub_shares_registry(const struct hwcsum_private *priv)
{
	const struct rte_eth_dev *sub = &rte_eth_devices[priv->sub_port];

	return sub->dev_ops == &hwcsum_dev_ops &&
		hwcsum_priv(sub)->registry == priv->registry;
}

/*
 * Registry callback: program the sub-port. It runs under the registry
 * lock, possibly on another port's thread or the registry worker (shared
 * mode, replays): no registry call, counters updated atomically.
 */
static int
push_port(struct udp_tunnel_dev *tdev, const struct udp_tunnel_port_info *ti,
	  bool add)
{
	struct hwcsum_private *priv = udp_tunnel_dev_priv(tdev);
	struct rte_eth_udp_tunnel t = {
		.udp_port = ti->port,
		.prot_type = rte_pmd_hwcsum_eth_tunnel_type(ti->type),
	};
	int ret;

	/* Only hwcsum's software sees it: nothing to push. */
	if (!priv->sub_has_tunnel_ops || priv->sub_closed || t.prot_type == RTE_ETH_TUNNEL_TYPE_NONE ||
	    sub_shares_registry(priv))
		return 0;
	ret = add ? rte_eth_dev_udp_tunnel_port_add(priv->sub_port, &t) :
		rte_eth_dev_udp_tunnel_port_delete(priv->sub_port, &t);
	/* A replay re-adds what the sub-port may still hold: that is success. */
	if ((add && ret == -EEXIST) || (!add && ret == -ENOENT))
		ret = 0;
	if (ret != 0) {
		__atomic_fetch_add(&priv->tunnel_push_fail, 1, __ATOMIC_RELAXED);
		HWCSUM_LOG(WARNING, "%s (port %u): sub-port %s refused to %s UDP port %u type %s: %s (retried at the next change)",
			   udp_tunnel_dev_name(tdev), priv->port_id,
			   priv->sub_name, add ? "add" : "delete", ti->port,
			   dpdk_type_name(t.prot_type), rte_strerror(-ret));
		return ret;
	}
	__atomic_fetch_add(&priv->tunnel_push_ok, 1, __ATOMIC_RELAXED);
	return 0;
}

static int
set_port(struct udp_tunnel_dev *tdev, unsigned int table, unsigned int entry,
	 const struct udp_tunnel_port_info *ti)
{
	RTE_SET_USED(table);
	RTE_SET_USED(entry);
	return push_port(tdev, ti, true);
}

static int
unset_port(struct udp_tunnel_dev *tdev, unsigned int table, unsigned int entry,
	   const struct udp_tunnel_port_info *ti)
{
	RTE_SET_USED(table);
	RTE_SET_USED(entry);
	return push_port(tdev, ti, false);
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
					TUN_LOG(ERR, dev, "devarg tables: table %u: unknown tunnel type '%s'",
						t, name);
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

/*
 * tables_shared=<name>: ports of one device sharing its tables (Linux
 * udp_tunnel_nic_shared). One set per name, freed with its last port;
 * every port of a set declares the same tables and flags.
 */
struct hwcsum_shared_set {
	char name[HWCSUM_SHARED_NAME_MAX];
	char first[RTE_ETH_NAME_MAX_LEN];	/* the port that made it */
	struct udp_tunnel_shared *shared;
	struct udp_tunnel_dev_info info;
	unsigned int n_ports;
};

static struct hwcsum_shared_set shared_sets[HWCSUM_MAX_SHARED_SETS];
static pthread_mutex_t shared_sets_lock = PTHREAD_MUTEX_INITIALIZER;

static bool
same_shape(const struct udp_tunnel_dev_info *a,
	   const struct udp_tunnel_dev_info *b)
{
	return a->flags == b->flags &&
		memcmp(a->tables, b->tables, sizeof(a->tables)) == 0;
}

/* Join (or make) the set named by the devarg; info->shared points at it. */
static int
shared_set_join(struct rte_eth_dev *dev, struct udp_tunnel_dev_info *info)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	const char *name = priv->args.tables_shared;
	struct hwcsum_shared_set *set = NULL, *free_set = NULL;
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&shared_sets_lock);
	for (i = 0; i < RTE_DIM(shared_sets) && set == NULL; i++) {
		if (shared_sets[i].n_ports == 0)
			free_set = free_set != NULL ? free_set : &shared_sets[i];
		else if (strcmp(shared_sets[i].name, name) == 0)
			set = &shared_sets[i];
	}
	if (set != NULL && !same_shape(&set->info, info)) {
		TUN_LOG(ERR, dev, "devarg tables_shared=%s: tables or flags differ from those of %s, which shares them",
			name, set->first);
		ret = -EINVAL;
	} else if (set == NULL && free_set == NULL) {
		TUN_LOG(ERR, dev, "devarg tables_shared=%s: %d sets of shared tables exist already",
			name, HWCSUM_MAX_SHARED_SETS);
		ret = -ENOSPC;
	} else if (set == NULL) {
		set = free_set;
		set->shared = udp_tunnel_shared_create();
		if (set->shared == NULL) {
			ret = -ENOMEM;
		} else {
			strcpy(set->name, name);
			strcpy(set->first, dev->data->name);
			set->info = *info;
		}
	}
	if (ret == 0) {
		set->n_ports++;
		info->shared = set->shared;
		priv->shared_set = set;
	}
	pthread_mutex_unlock(&shared_sets_lock);
	return ret;
}

/* After the device left the registry: the last port frees the set. */
static void
shared_set_leave(struct hwcsum_private *priv)
{
	struct hwcsum_shared_set *set = priv->shared_set;

	if (set == NULL)
		return;
	pthread_mutex_lock(&shared_sets_lock);
	if (--set->n_ports == 0) {
		udp_tunnel_shared_free(set->shared);
		memset(set, 0, sizeof(*set));
	}
	pthread_mutex_unlock(&shared_sets_lock);
	priv->shared_set = NULL;
}

static int
registry_attach(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	if (priv->args.registry == HWCSUM_REGISTRY_SHARED) {
		priv->registry = udp_tunnel_registry_default();
		priv->registry_owned = false;
	} else {
		priv->registry = udp_tunnel_registry_create();
		priv->registry_owned = true;
	}
	if (priv->registry == NULL) {
		TUN_LOG(ERR, dev, "cannot create a tunnel port registry");
		return -ENOMEM;
	}
	return 0;
}

static int tunnel_user_add(struct rte_eth_dev *dev, unsigned int type,
			   uint16_t port);

/* Drop the first n users of tunnel_ports=. */
static void
devarg_ports_del(struct rte_eth_dev *dev, unsigned int n)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	while (n-- > 0) {
		const struct hwcsum_tunnel_port_arg *tp = &priv->args.tunnel_ports[n];

		udp_tunnel_port_del(priv->registry, AF_INET, tp->port,
			udp_tunnel_type_by_name(priv->registry, tp->type_name));
	}
}

/*
 * The users of tunnel_ports=: held from probe to close, apart from what
 * the application adds (which counts as a second reference).
 */
static int
devarg_ports_add(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	unsigned int i, type;
	int ret;

	for (i = 0; i < priv->args.n_tunnel_ports; i++) {
		const struct hwcsum_tunnel_port_arg *tp = &priv->args.tunnel_ports[i];

		type = udp_tunnel_type_by_name(priv->registry, tp->type_name);
		ret = type != 0 ? tunnel_user_add(dev, type, tp->port) : -EINVAL;
		if (ret != 0) {
			TUN_LOG(ERR, dev, "devarg tunnel_ports: UDP port %u type '%s': %s",
				tp->port, tp->type_name, type != 0 ?
				rte_strerror(-ret) : "unknown tunnel type");
			devarg_ports_del(dev, i);
			return ret;
		}
	}
	return 0;
}

/* Leave the registry: our users (n_devarg of tunnel_ports=), the device. */
static void
tunnel_teardown(struct rte_eth_dev *dev, unsigned int n_devarg)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	if (priv->registry == NULL)
		return;
	/* A shared registry lives on: take back every reference we hold. */
	while (priv->n_added > 0) {
		priv->n_added--;
		udp_tunnel_port_del(priv->registry, AF_INET,
				    priv->added[priv->n_added].port,
				    priv->added[priv->n_added].type);
	}
	devarg_ports_del(dev, n_devarg);
	if (priv->tunnel_dev != NULL) {
		udp_tunnel_dev_unregister(priv->tunnel_dev);
		priv->tunnel_dev = NULL;
	}
	shared_set_leave(priv);
	if (priv->registry_owned)
		udp_tunnel_registry_destroy(priv->registry);
	priv->registry = NULL;
}

int
hwcsum_tunnel_init(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct udp_tunnel_dev_info *info = &priv->tunnel_info;
	const struct rte_eth_dev *sub = &rte_eth_devices[priv->sub_port];
	int ret;

	ret = registry_attach(dev);
	if (ret != 0)
		return ret;
	priv->sub_has_tunnel_ops = sub->dev_ops != NULL &&
		sub->dev_ops->udp_tunnel_port_add != NULL &&
		sub->dev_ops->udp_tunnel_port_del != NULL;
	memset(info, 0, sizeof(*info));
	info->set_port = set_port;
	info->unset_port = unset_port;
	if (priv->args.tables_open_only)
		info->flags |= UDP_TUNNEL_DEV_OPEN_ONLY;
	if (priv->args.static_iana_vxlan)
		info->flags |= UDP_TUNNEL_DEV_STATIC_IANA_VXLAN;
	ret = tables_fill(dev, info);
	if (ret == 0 && priv->args.tables_shared[0] != '\0')
		ret = shared_set_join(dev, info);
	if (ret == 0)
		ret = udp_tunnel_dev_register(priv->registry, dev->data->name,
					      info, priv, &priv->tunnel_dev);
	if (ret == 0)
		ret = devarg_ports_add(dev);
	if (ret != 0) {
		tunnel_teardown(dev, 0);
		return ret;
	}
	udp_tunnel_registry_drain(priv->registry);
	return 0;
}

void
hwcsum_tunnel_uninit(struct rte_eth_dev *dev)
{
	tunnel_teardown(dev, hwcsum_priv(dev)->args.n_tunnel_ports);
}

int
hwcsum_tunnel_replay(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	if (priv->tunnel_dev == NULL)
		return 0;
	/* Up pushes every port to tables_open_only tables; others replay. */
	ret = udp_tunnel_dev_up(priv->tunnel_dev);
	if (ret == 0 && !priv->args.tables_open_only)
		ret = udp_tunnel_dev_reset_ntf(priv->tunnel_dev);
	udp_tunnel_registry_drain(priv->registry);
	if (ret != 0) {
		TUN_LOG(ERR, dev, "replaying the tunnel ports to sub-port %s: %s",
			priv->sub_name, rte_strerror(-ret));
		return ret;
	}
	__atomic_fetch_add(&priv->tunnel_replays, 1, __ATOMIC_RELAXED);
	return 0;
}

void
hwcsum_tunnel_stop(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	if (priv->tunnel_dev == NULL)
		return;
	udp_tunnel_dev_down(priv->tunnel_dev);
	udp_tunnel_registry_drain(priv->registry);
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

/* Mask of the types some table of this port takes. */
static unsigned int
tables_types(const struct hwcsum_private *priv)
{
	unsigned int t, mask = 0;

	for (t = 0; t < UDP_TUNNEL_MAX_TABLES; t++)
		mask |= priv->tunnel_info.tables[t].tunnel_types;
	return mask;
}

/* Entries of the tables that take type, for the "full" log line. */
static unsigned int
tables_room(const struct hwcsum_private *priv, unsigned int type)
{
	unsigned int t, n = 0;

	for (t = 0; t < UDP_TUNNEL_MAX_TABLES; t++)
		if (priv->tunnel_info.tables[t].tunnel_types & type)
			n += priv->tunnel_info.tables[t].n_entries;
	return n;
}

/* What stops (type, port) before the registry is touched, or 0. */
static int
add_precheck(struct rte_eth_dev *dev, unsigned int type, uint16_t port)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	const char *name = udp_tunnel_type_name(priv->registry, type);
	unsigned int other;

	if (name == NULL) {
		TUN_LOG(ERR, dev, "UDP port %u: tunnel type 0x%x is not registered",
			port, type);
		return -EINVAL;
	}
	if (!(tables_types(priv) & type)) {
		TUN_LOG(ERR, dev, "UDP port %u type %s: no tunnel table of this port takes %s",
			port, name, name);
		return -ENOTSUP;
	}
	/* One UDP port carries one tunnel type, as one socket owns it. */
	other = udp_tunnel_lookup(priv->registry, port);
	if (other != 0 && other != type) {
		TUN_LOG(ERR, dev, "UDP port %u type %s: the port is already used by type %s",
			port, name, udp_tunnel_type_name(priv->registry, other));
		return -EEXIST;
	}
	return 0;
}

static bool
needs_no_entry(const struct rte_eth_dev *dev, unsigned int type, uint16_t port)
{
	const struct hwcsum_private *priv = hwcsum_priv(dev);

	if (priv->args.static_iana_vxlan && type == UDP_TUNNEL_TYPE_VXLAN &&
	    port == UDP_TUNNEL_IANA_VXLAN_PORT)
		return true;
	return priv->args.tables_open_only && !dev->data->dev_started;
}

/* One more reference on (AF_INET, port, type), only if this device holds it. */
static int
tunnel_user_add(struct rte_eth_dev *dev, unsigned int type, uint16_t port)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	const char *name;
	int ret;

	ret = add_precheck(dev, type, port);
	if (ret != 0)
		return ret;
	name = udp_tunnel_type_name(priv->registry, type);
	ret = udp_tunnel_port_add(priv->registry, AF_INET, port, type);
	if (ret != 0) {
		TUN_LOG(ERR, dev, "adding UDP port %u type %s: %s", port, name,
			rte_strerror(-ret));
		return ret;
	}
	/*
	 * Full: leave the registry as it was (one reference less). Nothing
	 * to judge where no entry is taken: a stopped tables_open_only port
	 * (placed at start), 4789/vxlan on a static_iana_vxlan port.
	 */
	if (!needs_no_entry(dev, type, port) &&
	    udp_tunnel_dev_find_port(priv->tunnel_dev, port, type, NULL) != 1) {
		udp_tunnel_port_del(priv->registry, AF_INET, port, type);
		TUN_LOG(ERR, dev, "UDP port %u type %s: no free entry in the tables that take %s (%u entries); not added",
			port, name, name, tables_room(priv, type));
		return -ENOSPC;
	}
	return 0;
}

int
hwcsum_udp_tunnel_port_add_type(struct rte_eth_dev *dev, unsigned int type,
				uint16_t port)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	if (added_find(priv, type, port) >= 0) {
		TUN_LOG(ERR, dev, "UDP port %u type %s is already added on this port",
			port, udp_tunnel_type_name(priv->registry, type));
		return -EEXIST;
	}
	if (priv->n_added == RTE_DIM(priv->added)) {
		TUN_LOG(ERR, dev, "UDP port %u type %s: %u ports added already",
			port, udp_tunnel_type_name(priv->registry, type),
			priv->n_added);
		return -ENOSPC;
	}
	ret = tunnel_user_add(dev, type, port);
	udp_tunnel_registry_drain(priv->registry);
	if (ret != 0)
		return ret;
	priv->added[priv->n_added].type = type;
	priv->added[priv->n_added].port = port;
	priv->n_added++;
	return 0;
}

int
hwcsum_udp_tunnel_port_add(struct rte_eth_dev *dev,
			   struct rte_eth_udp_tunnel *tunnel)
{
	unsigned int type = registry_type(tunnel);

	if (type == 0) {
		TUN_LOG(ERR, dev, "UDP port %u: tunnel type %u refused: %s",
			tunnel->udp_port, tunnel->prot_type,
			refused_why(tunnel->prot_type));
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
	const char *name;
	int i, ret;

	if (type == 0) {
		TUN_LOG(ERR, dev, "UDP port %u: tunnel type %u refused: %s",
			tunnel->udp_port, tunnel->prot_type,
			refused_why(tunnel->prot_type));
		return -ENOTSUP;
	}
	name = udp_tunnel_type_name(priv->registry, type);
	i = added_find(priv, type, tunnel->udp_port);
	if (i < 0) {
		TUN_LOG(ERR, dev, "UDP port %u type %s was not added on this port",
			tunnel->udp_port, name);
		return -ENOENT;
	}
	ret = udp_tunnel_port_del(priv->registry, AF_INET, tunnel->udp_port,
				  type);
	udp_tunnel_registry_drain(priv->registry);
	if (ret != 0) {
		TUN_LOG(ERR, dev, "deleting UDP port %u type %s: %s",
			tunnel->udp_port, name, rte_strerror(-ret));
		return ret;
	}
	priv->added[i] = priv->added[--priv->n_added];
	return 0;
}

int
hwcsum_tunnel_ref_check(struct rte_eth_dev *dev, unsigned int type,
			uint16_t port)
{
	return add_precheck(dev, type, port);
}

/* A counted reference: rules never hit DPDK's once-per-ethdev rule. */
int
hwcsum_tunnel_ref_get(struct rte_eth_dev *dev, unsigned int type, uint16_t port)
{
	return tunnel_user_add(dev, type, port);
}

void
hwcsum_tunnel_ref_put(struct rte_eth_dev *dev, unsigned int type, uint16_t port)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret = udp_tunnel_port_del(priv->registry, AF_INET, port, type);

	if (ret != 0)
		TUN_LOG(ERR, dev, "dropping a rule's reference on UDP port %u type %s: %s",
			port, udp_tunnel_type_name(priv->registry, type),
			rte_strerror(-ret));
}

unsigned int
hwcsum_tunnel_not_fitted(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int n;

	if (priv->tunnel_dev == NULL)
		return 0;
	n = udp_tunnel_dev_not_fitted(priv->tunnel_dev);
	return n > 0 ? (unsigned int)n : 0;
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
