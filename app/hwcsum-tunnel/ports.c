/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ports: find, configure, start, close; the tunnel UDP ports they listen
 * on; and what the data path needs of them: the mempool, transmit, the
 * PMD's tunnel type of a received packet.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_pmd_hwcsum.h>

#include <udp_tunnel.h>

#include "tunnel.h"

#define GW_RXD 256
#define GW_TXD 256
#define GW_CACHE 128

static struct rte_mempool *pool;

/* What was registered, to take exactly that back at shutdown. */
static struct {
	unsigned int type;
	int family;
	uint16_t port;
} added[GW_MAX_TUNNELS];
static unsigned int nb_added;

/* Ports configured so far: closed at exit, whatever else failed. */
static uint16_t opened[GW_MAX_INNER + 1];
static unsigned int nb_opened;

/* The lib/udp_tunnel type of a packet the underlay received, or 0. */
unsigned int
gw_rx_tunnel_type(uint16_t port, const struct rte_mbuf *m)
{
	unsigned int type = gw_ptype_tunnel_type(m->packet_type);

	if (type == 0)
		type = rte_pmd_hwcsum_rx_tunnel_type(port, m);	/* GUE, run-time types */
	return type;
}

static int
lookup_port(const char *name, const char *what, uint16_t *port)
{
	uint16_t p;

	if (rte_eth_dev_get_port_by_name(name, port) == 0)
		return 0;
	fprintf(stderr, "hwcsum-tunnel: %s port '%s' not found; ports are:", what, name);
	RTE_ETH_FOREACH_DEV(p) {
		char n[RTE_ETH_NAME_MAX_LEN];

		if (rte_eth_dev_get_name_by_port(p, n) == 0)
			fprintf(stderr, " %s", n);
	}
	fprintf(stderr, "\n");
	return -ENODEV;
}

/* Does any inner port hand over large TCP frames whole (LRO)? */
static bool
inner_lro(void)
{
	struct rte_eth_dev_info info;
	unsigned int i;

	for (i = 0; i < gw_cfg.nb_tunnels; i++)
		if (rte_eth_dev_info_get(gw_cfg.tunnels[i].inner_port, &info) == 0 &&
		    (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TCP_LRO))
			return true;
	return false;
}

static int
port_setup(uint16_t port, const char *name, uint16_t nq, bool underlay)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	uint16_t q, rxd = GW_RXD, txd = GW_TXD;
	int ret;

	ret = rte_eth_dev_info_get(port, &info);
	if (ret < 0)
		goto fail;
	if (underlay && strcmp(info.driver_name, "net_hwcsum") != 0) {
		fprintf(stderr, "hwcsum-tunnel: underlay port '%s' is %s, not a "
			"net_hwcsum port\n", name, info.driver_name);
		return -EINVAL;
	}
	if (info.max_rx_queues < nq || info.max_tx_queues < nq) {
		fprintf(stderr, "hwcsum-tunnel: port '%s' has %u/%u queues, %u lcores "
			"need one each\n", name, info.max_rx_queues,
			info.max_tx_queues, nq);
		return -EINVAL;
	}
	/* Outer headers longer than the headroom (GENEVE options) go in an
	 * mbuf chained in front: only where the port takes chains. */
	if (underlay && (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)) {
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
		gw_cfg.underlay_chains = true;
	}
	/* Asking for RX checksums is what turns hwcsum's receive work on. */
	if (underlay)
		conf.rxmode.offloads = info.rx_offload_capa &
			(RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
			 RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
			 RTE_ETH_RX_OFFLOAD_OUTER_UDP_CKSUM |
			 RTE_ETH_RX_OFFLOAD_OUTER_IPV4_CKSUM);
	/* A VM's GSO frames come whole from an inner port that can (virtio:
	 * LRO) and leave as tunnel TSO requests, segmented by the underlay
	 * (encap_tso.c). Only then: a TSO offload the sub-port has is
	 * configured on it too, which changes what it negotiates. */
	if (underlay && inner_lro()) {
		gw_cfg.underlay_tso = info.tx_offload_capa &
			(RTE_ETH_TX_OFFLOAD_VXLAN_TNL_TSO |
			 RTE_ETH_TX_OFFLOAD_GENEVE_TNL_TSO |
			 RTE_ETH_TX_OFFLOAD_UDP_TNL_TSO);
		conf.txmode.offloads |= gw_cfg.underlay_tso;
	} else if (gw_cfg.underlay_tso != 0) {
		conf.rxmode.offloads |= info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TCP_LRO;
	}
	if (nq > 1) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = info.flow_type_rss_offloads &
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP);
	}
	ret = rte_eth_dev_configure(port, nq, nq, &conf);
	if (ret == 0)
		opened[nb_opened++] = port;
	if (ret == 0 && underlay && gw_cfg.underlay_mtu_set != 0) {
		ret = rte_eth_dev_set_mtu(port, gw_cfg.underlay_mtu_set);
		if (ret < 0) {
			fprintf(stderr, "hwcsum-tunnel: underlay port '%s' refuses MTU "
				"%u (its range %u..%u): %s\n", name,
				gw_cfg.underlay_mtu_set, info.min_mtu, info.max_mtu,
				rte_strerror(-ret));
			return ret;
		}
	}
	if (ret == 0)
		ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &rxd, &txd);
	for (q = 0; ret == 0 && q < nq; q++) {
		ret = rte_eth_rx_queue_setup(port, q, rxd, rte_eth_dev_socket_id(port),
					     NULL, pool);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(port, q, txd,
						     rte_eth_dev_socket_id(port), NULL);
	}
	if (ret == -ENOMEM) {
		fprintf(stderr, "hwcsum-tunnel: port '%s': mempool exhausted filling "
			"its queues (--mbufs %u)\n", name, gw_cfg.nb_mbufs);
		return ret;
	}
	if (ret == 0)
		ret = rte_eth_promiscuous_enable(port);
	if (ret == -ENOTSUP)
		ret = 0;
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0)
		return 0;
fail:
	fprintf(stderr, "hwcsum-tunnel: port '%s': setup failed: %s\n", name,
		rte_strerror(-ret));
	return ret;
}

int
gw_ports_init(struct gw_config *cfg)
{
	unsigned int i, j, need;
	struct rte_ether_addr mac;
	int ret;

	if (lookup_port(cfg->underlay_name, "underlay", &cfg->underlay_port) < 0)
		return -ENODEV;
	for (i = 0; i < cfg->nb_tunnels; i++) {
		struct gw_tunnel *t = &cfg->tunnels[i];
		char what[96];

		snprintf(what, sizeof(what), "tunnel '%s' inner", t->name);
		if (lookup_port(t->inner_name, what, &t->inner_port) < 0)
			return -ENODEV;
		if (t->inner_port == cfg->underlay_port) {
			fprintf(stderr, "hwcsum-tunnel: tunnel '%s': inner port '%s' is "
				"the underlay\n", t->name, t->inner_name);
			return -EINVAL;
		}
		for (j = 0; j < cfg->nb_inner; j++)
			if (cfg->inner_ports[j] == t->inner_port)
				break;
		if (j == cfg->nb_inner)
			cfg->inner_ports[cfg->nb_inner++] = t->inner_port;
		t->inner_idx = j;
	}
	/* Every descriptor can hold an mbuf, plus each lcore's cache and burst. */
	need = (cfg->nb_inner + 1) * cfg->nb_queues * (GW_RXD + GW_TXD) +
		(cfg->nb_queues + 1) * (GW_CACHE * 3 / 2 + GW_BURST);
	if (cfg->nb_mbufs < need) {
		fprintf(stderr, "hwcsum-tunnel: mempool too small: %u mbufs, %u ports "
			"x %u queues need at least %u (--mbufs or [global] mbufs)\n",
			cfg->nb_mbufs, cfg->nb_inner + 1, cfg->nb_queues, need);
		return -ENOMEM;
	}
	pool = rte_pktmbuf_pool_create("gw_pool", cfg->nb_mbufs, GW_CACHE, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (pool == NULL) {
		fprintf(stderr, "hwcsum-tunnel: cannot create a pool of %u mbufs: %s\n",
			cfg->nb_mbufs, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	ret = port_setup(cfg->underlay_port, cfg->underlay_name, cfg->nb_queues, true);
	for (i = 0; ret == 0 && i < cfg->nb_tunnels; i++) {
		struct gw_tunnel *t = &cfg->tunnels[i];

		for (j = 0; j < i; j++)
			if (cfg->tunnels[j].inner_port == t->inner_port)
				break;
		if (j == i)
			ret = port_setup(t->inner_port, t->inner_name, cfg->nb_queues,
					 false);
	}
	if (ret < 0)
		return ret;
	ret = rte_eth_macaddr_get(cfg->underlay_port, &mac);
	for (i = 0; ret == 0 && i < cfg->nb_tunnels; i++)
		if (!cfg->tunnels[i].local_mac_set)
			cfg->tunnels[i].local_mac = mac;
	return ret;
}

static int
tunnel_port_op(const struct gw_config *cfg, unsigned int type, int family,
	       uint16_t udp_port, bool add)
{
	struct rte_eth_udp_tunnel ut = { .udp_port = udp_port };
	struct udp_tunnel_registry *reg;

	/* GUE has no RTE_ETH_TUNNEL_TYPE_*: its port goes into the registry. */
	if (type != UDP_TUNNEL_TYPE_GUE) {
		ut.prot_type = rte_pmd_hwcsum_eth_tunnel_type(type);
		return add ? rte_eth_dev_udp_tunnel_port_add(cfg->underlay_port, &ut) :
			rte_eth_dev_udp_tunnel_port_delete(cfg->underlay_port, &ut);
	}
	reg = rte_pmd_hwcsum_registry(cfg->underlay_port);
	if (reg == NULL)
		return -rte_errno;
	return add ? udp_tunnel_port_add(reg, family, udp_port, type) :
		udp_tunnel_port_del(reg, family, udp_port, type);
}

/*
 * ethdev knows no family: one add per (UDP port, type). The registry
 * counts users per family, as Linux sockets do: GUE adds per family.
 */
int
gw_tunnel_ports_add(struct gw_config *cfg)
{
	unsigned int i, j;
	int ret;

	for (i = 0; i < cfg->nb_tunnels; i++) {
		const struct gw_tunnel *t = &cfg->tunnels[i];
		int family = t->type == UDP_TUNNEL_TYPE_GUE ? t->family : 0;

		for (j = 0; j < nb_added; j++)
			if (added[j].type == t->type && added[j].port == t->dst_port &&
			    added[j].family == family)
				break;
		if (j < nb_added)
			continue;
		ret = tunnel_port_op(cfg, t->type, family, t->dst_port, true);
		if (ret < 0) {
			fprintf(stderr, "hwcsum-tunnel: tunnel '%s': cannot register "
				"%s UDP port %u on '%s': %s\n", t->name,
				gw_type_name(t->type), t->dst_port, cfg->underlay_name,
				rte_strerror(-ret));
			return ret;
		}
		added[nb_added].type = t->type;
		added[nb_added].family = family;
		added[nb_added].port = t->dst_port;
		nb_added++;
	}
	return 0;
}

void
gw_tunnel_ports_del(struct gw_config *cfg)
{
	while (nb_added > 0) {
		int ret;

		nb_added--;
		ret = tunnel_port_op(cfg, added[nb_added].type, added[nb_added].family,
				     added[nb_added].port, false);
		if (ret < 0)
			fprintf(stderr, "hwcsum-tunnel: removing %s UDP port %u: %s\n",
				gw_type_name(added[nb_added].type),
				added[nb_added].port, rte_strerror(-ret));
	}
}

static void
port_close(uint16_t port)
{
	int ret = rte_eth_dev_stop(port);

	if (ret < 0 && ret != -EINVAL)
		fprintf(stderr, "hwcsum-tunnel: stopping port %u: %s\n", port,
			rte_strerror(-ret));
	rte_eth_dev_close(port);
}

/* Close every port we configured (their queues give their mbufs back). */
void
gw_ports_close(void)
{
	while (nb_opened > 0)
		port_close(opened[--nb_opened]);
}

/* Send n packets to port/queue; what the queue does not take is dropped. */
void
gw_tx(struct gw_worker *w, uint16_t port, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t sent = 0;
	int tries = 3;

	/* A short retry absorbs a momentarily full ring (AF_PACKET). */
	while (sent < n && tries-- > 0)
		sent += rte_eth_tx_burst(port, w->queue, pkts + sent, n - sent);
	if (sent < n) {
		w->stats.drops[GW_DROP_TX_FULL] += n - sent;
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	}
}

struct rte_mempool *
gw_pool(void)
{
	return pool;
}

/* mbufs not in the pool (caches included); -1 without a pool. */
int
gw_pool_in_use(void)
{
	return pool != NULL ? (int)rte_mempool_in_use_count(pool) : -1;
}

void
gw_pool_free(void)
{
	rte_mempool_free(pool);
	pool = NULL;
}
