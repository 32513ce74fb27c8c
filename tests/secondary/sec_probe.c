/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A secondary process on a primary's hwcsum port, through ethdev only:
 *
 *   sec_probe <port name> <received frames> --proc-type=secondary --file-prefix <p> ...
 *
 * Probe attaches (the port is there, named, driven by net_hwcsum); info,
 * link, stats and xstats answer from shared memory and the primary (RX
 * packets as the primary counted them, hwcsum's own xstats by name);
 * what needs the primary's heap or its function pointers is refused
 * cleanly: configure, tunnel ports and rte_flow with their errors, bursts
 * with nothing received, nothing taken and rte_errno ENOTSUP. Exit status
 * 0 when every check holds; every check prints a line (ok: or FAIL),
 * which tools.sh shows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#define HARNESS_PRINT_PASSES 1
#include "../lib/test_harness.h"

/* The value of one xstat by name, -1 when it is not listed. */
static int64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id, value;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &value, 1) != 1)
		return -1;
	return (int64_t)value;
}

static void
check_refused(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_udp_tunnel tunnel = {
		.udp_port = 4789, .prot_type = RTE_ETH_TUNNEL_TYPE_VXLAN,
	};
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_eth_conf conf;
	struct rte_flow_error err;
	struct rte_mbuf *pkts[4] = { NULL };
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	CHECK(ret == -ENOTSUP, "configure refused: %d", ret);
	ret = rte_eth_dev_udp_tunnel_port_add(port, &tunnel);
	CHECK(ret == -ENOTSUP, "udp_tunnel_port_add refused: %d", ret);
	ret = rte_flow_validate(port, &attr, pattern, actions, &err);
	CHECK(ret < 0, "rte_flow_validate refused: %d (%s)", ret,
	      err.message != NULL ? err.message : "no message");

	rte_errno = 0;
	ret = rte_eth_rx_burst(port, 0, pkts, 4);
	CHECK(ret == 0 && rte_errno == ENOTSUP && pkts[0] == NULL,
	      "rx_burst refused: %d, rte_errno %d", ret, rte_errno);
	/* A packet the burst does not take stays the caller's: freed here. */
	pkts[0] = rte_pktmbuf_alloc(mp);
	CHECK(pkts[0] != NULL, "an mbuf of our own pool");
	if (pkts[0] == NULL)
		return;
	rte_pktmbuf_append(pkts[0], 60);
	rte_errno = 0;
	ret = rte_eth_tx_burst(port, 0, pkts, 1);
	CHECK(ret == 0 && rte_errno == ENOTSUP,
	      "tx_burst refused: %d, rte_errno %d", ret, rte_errno);
	if (ret == 0)
		rte_pktmbuf_free(pkts[0]);
}

int
main(int argc, char **argv)
{
	struct rte_eth_dev_info info;
	struct rte_eth_stats stats;
	struct rte_eth_link link;
	struct rte_mempool *mp;
	const char *name;
	uint64_t received;
	uint16_t port;
	int ret, n;

	if (argc < 3) {
		fprintf(stderr, "usage: %s <port name> <received> <EAL args>\n", argv[0]);
		return 2;
	}
	name = argv[1];
	received = strtoull(argv[2], NULL, 10);
	argv[2] = argv[0];
	ret = rte_eal_init(argc - 2, argv + 2);
	if (ret < 0) {
		printf("FAIL: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	CHECK(rte_eal_process_type() == RTE_PROC_SECONDARY, "a secondary process");

	ret = rte_eth_dev_get_port_by_name(name, &port);
	CHECK(ret == 0, "port %s attached: %d", name, ret);
	if (ret != 0)
		goto out;
	ret = rte_eth_dev_info_get(port, &info);
	CHECK(ret == 0 && strcmp(info.driver_name, "net_hwcsum") == 0,
	      "info: driver %s", ret == 0 ? info.driver_name : "?");
	CHECK(ret == 0 && (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_OUTER_UDP_CKSUM),
	      "info: hwcsum's own offloads");
	ret = rte_eth_link_get_nowait(port, &link);
	CHECK(ret == 0, "link: %d", ret);
	ret = rte_eth_stats_get(port, &stats);
	CHECK(ret == 0 && stats.ipackets == received,
	      "stats: ipackets %" PRIu64 ", the primary received %" PRIu64,
	      stats.ipackets, received);
	n = rte_eth_xstats_get_names(port, NULL, 0);
	CHECK(n > 0, "xstats: %d names", n);
	CHECK(xstat(port, "rx_complete") == (int64_t)received,
	      "xstat rx_complete %" PRId64, xstat(port, "rx_complete"));
	mp = rte_pktmbuf_pool_create("sec_probe", 63, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	CHECK(mp != NULL, "a pool in the secondary");
	if (mp != NULL)
		check_refused(port, mp);
	/* A secondary's close frees nothing of the primary's. */
	ret = rte_eth_dev_close(port);
	CHECK(ret == 0, "close: %d", ret);
out:
	rte_eal_cleanup();
	return harness_summary("sec_probe");
}
