/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sub-port: find it, own it (so applications see only hwcsum, the way
 * net_failsafe owns its sub-devices), notice its removal, close it with us,
 * and know what its hardware can checksum.
 *
 * The TX engine is a property of the hardware, not of the driver: QEMU's
 * e1000 (82540EM) sums from any TUCSS, its e1000e (82574L) parses TCP/UDP
 * itself, and both run net_e1000_em. Defaults therefore go by driver and
 * PCI device ID; tx_engine= overrides.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bus_driver.h>
#include <bus_pci_driver.h>
#include <ethdev_driver.h>
#include <rte_bus.h>

#include "hwcsum_private.h"

/* Offloads that make the sub-port's hardware checksum L4 at l2_len + l3_len. */
#define SUB_L4_OFFLOADS (RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM)
/* What a sub-port that segments needs to fill each segment's checksums. */
#define SUB_TSO_CSUMS (SUB_L4_OFFLOADS | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | \
		       RTE_ETH_TX_OFFLOAD_OUTER_IPV4_CKSUM | \
		       RTE_ETH_TX_OFFLOAD_OUTER_UDP_CKSUM)
/* The mbuf's l2_len (7 bits) + l3_len (9 bits): the farthest csum_start
 * any driver reading them can be told. */
#define MBUF_MAX_CSUM_START (127 + 511)

const char *
hwcsum_engine_name(enum csum_engine engine)
{
	switch (engine) {
	case CSUM_ENGINE_GENERIC:
		return "generic";
	case CSUM_ENGINE_PARSE:
		return "parse";
	default:
		return "none";
	}
}

static int
any_bus(const struct rte_bus *bus __rte_unused, const void *data __rte_unused)
{
	return 0;
}

static int
name_differs(const struct rte_device *dev, const void *name)
{
	return strcmp(rte_dev_name(dev), name);
}

/*
 * Closing a hwcsum port closes its sub-port, and ethdev then releases the
 * sub-port's ethdev while its device stays probed. An application that
 * detaches a port and attaches it again from the same devargs (OVS on
 * del-port/add-port, and after a failed reconfigure) finds no sub-port the
 * second time: the device is probed again from its own devargs, so the
 * second attach finds what the first did.
 */
static int
sub_reprobe(const char *name, const char *sub_name)
{
	char devargs[RTE_DEV_NAME_MAX_LEN + 1024];
	const struct rte_devargs *da;
	struct rte_device *sub = NULL;
	struct rte_bus *bus;
	int ret;

	for (bus = rte_bus_find(NULL, any_bus, NULL); bus != NULL && sub == NULL;
	     bus = rte_bus_find(bus, any_bus, NULL))
		if (bus->find_device != NULL)
			sub = bus->find_device(NULL, name_differs, sub_name);
	if (sub == NULL || !rte_dev_is_probed(sub))
		return -ENODEV;
	da = rte_dev_devargs(sub);
	ret = snprintf(devargs, sizeof(devargs), "%s%s%s", sub_name,
		       da != NULL && da->args != NULL && da->args[0] != '\0' ? "," : "",
		       da != NULL && da->args != NULL ? da->args : "");
	if (ret < 0 || (size_t)ret >= sizeof(devargs))
		return -E2BIG;
	ret = rte_dev_remove(sub);
	if (ret == 0)
		ret = rte_dev_probe(devargs);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: sub-port '%s' was closed with an earlier port; probing '%s' again failed: %s",
			   name, sub_name, devargs, rte_strerror(-ret));
	else
		HWCSUM_LOG(INFO, "%s: sub-port '%s' was closed with an earlier port; probed '%s' again",
			   name, sub_name, devargs);
	return ret;
}

int
hwcsum_sub_find(const char *name, const char *sub_name, uint16_t *sub_port)
{
	struct rte_eth_dev_owner owner;
	int ret;

	if (rte_eth_dev_get_port_by_name(sub_name, sub_port) != 0 &&
	    (sub_reprobe(name, sub_name) != 0 ||
	     rte_eth_dev_get_port_by_name(sub_name, sub_port) != 0)) {
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
sub_destroyed(uint16_t sub_port, enum rte_eth_event_type event, void *cb_arg,
	      void *ret_param __rte_unused)
{
	struct rte_eth_dev *dev = &rte_eth_devices[(uintptr_t)cb_arg];
	struct hwcsum_private *priv;

	if (event != RTE_ETH_EVENT_DESTROY || dev->state == RTE_ETH_DEV_UNUSED ||
	    dev->dev_ops != &hwcsum_dev_ops)
		return 0;
	priv = dev->data->dev_private;
	if (priv->sub_port != sub_port || priv->sub_closed)
		return 0;
	/* Before ethdev frees its queues: bursts read it just before a call. */
	__atomic_store_n(&priv->sub_closed, 1, __ATOMIC_RELEASE);
	dev->data->dev_link.link_status = RTE_ETH_LINK_DOWN;
	/* Bursts see sub_closed and drop (and count) from now on. */
	HWCSUM_LOG(WARNING, "%s: sub-port '%s' was removed; the port is unusable until closed",
		   dev->data->name, priv->sub_name);
	return 0;
}

int
hwcsum_sub_own(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
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
					    sub_destroyed,
					    (void *)(uintptr_t)dev->data->port_id);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: cannot watch sub-port '%s' for removal: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
		rte_eth_dev_owner_unset(priv->sub_port, priv->owner.id);
	}
	return ret;
}

void
hwcsum_sub_disown(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	rte_eth_dev_callback_unregister(priv->sub_port, RTE_ETH_EVENT_DESTROY,
					sub_destroyed,
					(void *)(uintptr_t)dev->data->port_id);
	rte_eth_dev_owner_unset(priv->sub_port, priv->owner.id);
}

/*
 * The sub-port was handed to us for the life of the hwcsum port: closing
 * hwcsum closes it too, so nothing is left behind that no one can see.
 */
int
hwcsum_sub_close(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	if (priv->sub_closed)
		return 0;
	hwcsum_sub_disown(dev);
	/* Usually stopped with hwcsum already: stopping twice makes ethdev log. */
	if (rte_eth_devices[priv->sub_port].data->dev_started) {
		ret = rte_eth_dev_stop(priv->sub_port);
		if (ret != 0)
			HWCSUM_LOG(WARNING, "%s: stopping sub-port %s: %s",
				   dev->data->name, priv->sub_name, rte_strerror(-ret));
	}
	ret = rte_eth_dev_close(priv->sub_port);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: closing sub-port %s failed: %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
	priv->sub_closed = 1;
	return ret;
}

/* The engine of a known device, or none. *why says where it came from. */
static enum csum_engine
default_engine(const struct hwcsum_private *priv, const char **why)
{
	if (strcmp(priv->sub_driver, "net_e1000_em") == 0) {
		/* 82574L (QEMU e1000e) parses; the 8254x family takes TUCSS. */
		if (priv->sub_device_id == 0x10d3) {
			*why = "net_e1000_em on an 82574L (e1000e): parses TCP/UDP";
			return CSUM_ENGINE_PARSE;
		}
		*why = "net_e1000_em on an 8254x (e1000): TUCSS/TUCSO context";
		return CSUM_ENGINE_GENERIC;
	}
	if (strcmp(priv->sub_driver, "net_virtio") == 0) {
		*why = "net_virtio: VIRTIO_NET_F_CSUM csum_start/csum_offset";
		return CSUM_ENGINE_GENERIC;
	}
	*why = "no checksum engine known for this driver (tx_engine= overrides)";
	return CSUM_ENGINE_NONE;
}

static void
fill_spec(struct hwcsum_private *priv, enum csum_engine engine)
{
	struct csum_offload_spec *s = &priv->spec;

	memset(s, 0, sizeof(*s));
	s->engine = engine;
	if (engine == CSUM_ENGINE_GENERIC) {
		/* e1000's TUCSS and TUCSO are 8-bit fields. */
		bool e1000 = strcmp(priv->sub_driver, "net_e1000_em") == 0;

		s->max_csum_start = e1000 ? 255 : MBUF_MAX_CSUM_START;
		s->max_csum_field = e1000 ? 255 : MBUF_MAX_CSUM_START + 16;
	} else if (engine == CSUM_ENGINE_PARSE) {
		s->ipv4_okay = 1;
		s->ipv6_okay = 1;
		s->tcp_okay = 1;
		s->udp_okay = 1;
		s->vlan_okay = 1;
		s->ip_options_okay = 1;
	}
}

/*
 * Called while the hwcsum port is stopped, so its sub-port must be too. An
 * application that walks port ids 0 .. rte_eth_dev_count_avail() - 1 as if
 * they were contiguous (DPDK 22.11's dpdk-test-flow-perf does) configures
 * and starts the owned sub-port behind our back. The sub-port is ours:
 * take it back to the state we left it in, instead of failing with its
 * EBUSY on every configure that follows.
 */
int
hwcsum_sub_reclaim(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	if (!rte_eth_devices[priv->sub_port].data->dev_started)
		return 0;
	HWCSUM_LOG(WARNING, "%s: sub-port '%s' (port %u) was started by someone else (it belongs to %s); stopping it",
		   dev->data->name, priv->sub_name, priv->sub_port,
		   dev->data->name);
	ret = rte_eth_dev_stop(priv->sub_port);
	if (ret != 0)
		HWCSUM_LOG(ERR, "%s: cannot stop sub-port '%s': %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
	return ret;
}

int
hwcsum_sub_identify(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_eth_dev_info info;
	enum csum_engine engine;
	const char *why;
	int ret;

	ret = rte_eth_dev_info_get(priv->sub_port, &info);
	if (ret != 0) {
		HWCSUM_LOG(ERR, "%s: cannot get info of sub-port '%s': %s",
			   dev->data->name, priv->sub_name, rte_strerror(-ret));
		return ret;
	}
	snprintf(priv->sub_driver, sizeof(priv->sub_driver), "%s",
		 info.driver_name != NULL ? info.driver_name : "");
	priv->sub_device_id = 0;
	if (info.device != NULL && rte_dev_bus(info.device) != NULL &&
	    strcmp(rte_bus_name(rte_dev_bus(info.device)), "pci") == 0)
		priv->sub_device_id = RTE_DEV_TO_PCI(info.device)->id.device_id;

	switch (priv->args.tx_engine) {
	case HWCSUM_ENGINE_ARG_GENERIC:
		engine = CSUM_ENGINE_GENERIC;
		why = "devarg tx_engine=generic";
		break;
	case HWCSUM_ENGINE_ARG_PARSE:
		engine = CSUM_ENGINE_PARSE;
		why = "devarg tx_engine=parse";
		break;
	case HWCSUM_ENGINE_ARG_NONE:
		engine = CSUM_ENGINE_NONE;
		why = "devarg tx_engine=none";
		break;
	default:
		engine = default_engine(priv, &why);
		break;
	}
	/* An engine is only reachable through the sub-port's L4 offload bits. */
	if (engine != CSUM_ENGINE_NONE &&
	    (info.tx_offload_capa & SUB_L4_OFFLOADS) != SUB_L4_OFFLOADS) {
		if (priv->args.tx_engine != HWCSUM_ENGINE_AUTO) {
			HWCSUM_LOG(ERR, "%s: tx_engine=%s, but sub-port '%s' (%s) offers no UDP/TCP checksum offload to reach it",
				   dev->data->name, hwcsum_engine_name(engine),
				   priv->sub_name, priv->sub_driver);
			return -ENOTSUP;
		}
		engine = CSUM_ENGINE_NONE;
		why = "the sub-port offers no UDP/TCP checksum offload (e.g. virtio-net without VIRTIO_NET_F_CSUM)";
	}
	fill_spec(priv, engine);
	priv->engine_source = why;
	/*
	 * A packet socket on a veth hands over the peer's CHECKSUM_PARTIAL
	 * packets (Linux's default offloads) with the seed in the field, and
	 * net_af_packet drops the TP_STATUS_CSUMNOTREADY that says so.
	 */
	priv->rx_partial_seed = priv->args.rx_partial_seed == HWCSUM_RX_ON ||
		(priv->args.rx_partial_seed == HWCSUM_RX_AUTO &&
		 strcmp(priv->sub_driver, "net_af_packet") == 0);
	HWCSUM_LOG(INFO, "%s: sub-port '%s' (%s, device 0x%04x): TX engine %s: %s",
		   dev->data->name, priv->sub_name, priv->sub_driver,
		   priv->sub_device_id, hwcsum_engine_name(engine), why);
	return 0;
}

int
hwcsum_sub_caps_decide(struct rte_eth_dev *dev, uint64_t *sub_tx_offloads)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	uint64_t app = dev->data->dev_conf.txmode.offloads;
	struct hwcsum_sub_caps *c = &priv->sub;
	struct rte_eth_dev_info info;
	int ret;

	ret = rte_eth_dev_info_get(priv->sub_port, &info);
	if (ret != 0)
		return ret;
	memset(c, 0, sizeof(*c));
	/* Whatever is not a checksum passes through as the application asked. */
	c->tx_offloads = app & ~HWCSUM_TX_OFFLOADS;
	/* A generic request can come without any ethdev offload bit, so the
	 * engine is armed whenever there is one. */
	if (priv->spec.engine != CSUM_ENGINE_NONE) {
		c->l4_hw = true;
		c->tx_offloads |= SUB_L4_OFFLOADS;
		if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM) {
			c->ip_hw = true;
			c->tx_offloads |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
		}
	}
	/* Chains: passed on where the sub-port offers it; longer chains than
	 * its nb_seg_max are refused by hwcsum itself (tx_prepare, tx_burst). */
	if ((app & RTE_ETH_TX_OFFLOAD_MULTI_SEGS) &&
	    (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS))
		c->tx_offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	c->max_segs = info.tx_desc_lim.nb_seg_max;
	/* Segmentation the sub-port offers is its own (with the checksums a
	 * segment needs); the rest is done in hwcsum_tso.c. */
	c->tso = app & HWCSUM_TX_TSO_OFFLOADS;
	c->tso_hw = c->tso & info.tx_offload_capa;
	/* net_tap's TSO is rte_gso in software, which cuts TCP over IPv4
	 * only and does not send the rest: ours does every shape. */
	if (strcmp(priv->sub_driver, "net_tap") == 0)
		c->tso_hw = 0;
	if (c->tso_hw != 0)
		c->tx_offloads |= c->tso_hw | (info.tx_offload_capa & SUB_TSO_CSUMS);
	*sub_tx_offloads = c->tx_offloads;
	return 0;
}
