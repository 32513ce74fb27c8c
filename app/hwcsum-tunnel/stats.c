/* SPDX-License-Identifier: BSD-3-Clause */
/* Counters: summed from the lcores, rates per port, the exit summary. */

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tunnel.h"

static const char *const drop_names[GW_NB_DROPS] = {
	[GW_DROP_NOT_TUNNEL] = "not_tunnel",
	[GW_DROP_MALFORMED] = "malformed",
	[GW_DROP_UNKNOWN_VNI] = "unknown_vni",
	[GW_DROP_OUTER_CSUM] = "outer_csum",
	[GW_DROP_INNER_IP_CSUM] = "inner_ip_csum",
	[GW_DROP_INNER_CSUM] = "inner_csum",
	[GW_DROP_GENEVE_CRITICAL] = "geneve_critical",
	[GW_DROP_NO_HEADROOM] = "no_headroom",
	[GW_DROP_NOT_IP] = "not_ip",
	[GW_DROP_TOO_BIG] = "too_big",
	[GW_DROP_INNER_ROUTING] = "inner_routing",
	[GW_DROP_TX_FULL] = "tx_full",
};

const char *
gw_drop_name(enum gw_drop d)
{
	return drop_names[d];
}

/* Each field is written by one lcore only: plain loads are enough here. */
void
gw_stats_sum(struct gw_lcore_stats *sum)
{
	const uint64_t *src;
	uint64_t *dst = (uint64_t *)sum;
	unsigned int i, j;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < gw_cfg.nb_queues; i++) {
		src = (const uint64_t *)&gw_workers[i].stats;
		for (j = 0; j < offsetof(struct gw_lcore_stats, drops) / 8 +
		     GW_NB_DROPS; j++)
			dst[j] += src[j];
	}
}

uint64_t
gw_xstat(uint16_t port, const char *name)
{
	uint64_t id, value;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &value, 1) != 1)
		return 0;
	return value;
}

static void
port_line(uint16_t port, const char *role, double seconds)
{
	static struct rte_eth_stats prev[RTE_MAX_ETHPORTS];
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_stats s;

	if (rte_eth_stats_get(port, &s) != 0 ||
	    rte_eth_dev_get_name_by_port(port, name) != 0)
		return;
	printf("  %-8s %-14s rx %8.0f pps %9.3f Mbit/s  tx %8.0f pps %9.3f Mbit/s\n",
	       role, name, (s.ipackets - prev[port].ipackets) / seconds,
	       (s.ibytes - prev[port].ibytes) * 8 / seconds / 1e6,
	       (s.opackets - prev[port].opackets) / seconds,
	       (s.obytes - prev[port].obytes) * 8 / seconds / 1e6);
	prev[port] = s;
}

static void
counters_line(const char *prefix)
{
	struct gw_lcore_stats s;
	uint16_t u = gw_cfg.underlay_port;
	unsigned int d;

	gw_stats_sum(&s);
	printf("%sencap %" PRIu64 " decap %" PRIu64 " | tx csum: inner partial %"
	       PRIu64 ", outer lco %" PRIu64 " hwcsum %" PRIu64 " zero %" PRIu64
	       " | rx verify: hwcsum %" PRIu64 " complete %" PRIu64 " sw %" PRIu64
	       " | outer headers chained %" PRIu64 " | decap headers: hwcsum %"
	       PRIu64 " walked %" PRIu64 "\n", prefix, s.encap, s.decap,
	       s.inner_partial, s.outer_lco, s.outer_partial, s.outer_zero,
	       s.verify_flags, s.verify_hw, s.verify_sw, s.outer_chained,
	       s.decap_lengths, s.decap_walked);
	printf("%spmtu: mtu %u icmp %" PRIu64 "\n", prefix, gw_cfg.underlay_mtu,
	       s.pmtu_icmp);
	printf("%stso: lro frames %" PRIu64 " | hwcsum %s: tx_tso_sw %" PRIu64
	       " tx_tso_segments %" PRIu64 " tx_tso_hw %" PRIu64 "\n", prefix,
	       s.tso_requests, gw_cfg.underlay_name, gw_xstat(u, "tx_tso_sw"),
	       gw_xstat(u, "tx_tso_segments"), gw_xstat(u, "tx_tso_hw"));
	printf("%shwcsum %s: tx_l4_hw %" PRIu64 " tx_l4_sw %" PRIu64
	       " tx_outer_udp_lco %" PRIu64 " rx_complete %" PRIu64
	       " rx_l4_bad %" PRIu64 " rx_outer_l4_bad %" PRIu64
	       " rx_l4_partial_seed_resolved %" PRIu64 "\n", prefix,
	       gw_cfg.underlay_name, gw_xstat(u, "tx_l4_hw"), gw_xstat(u, "tx_l4_sw"),
	       gw_xstat(u, "tx_outer_udp_lco"), gw_xstat(u, "rx_complete"),
	       gw_xstat(u, "rx_l4_bad"), gw_xstat(u, "rx_outer_l4_bad"),
	       gw_xstat(u, "rx_l4_partial_seed_resolved"));
	printf("%sdrops:", prefix);
	for (d = 0; d < GW_NB_DROPS; d++)
		printf(" %s %" PRIu64, drop_names[d], s.drops[d]);
	printf("\n");
}

void
gw_stats_tick(double seconds)
{
	unsigned int i;

	printf("--\n");
	port_line(gw_cfg.underlay_port, "underlay", seconds);
	for (i = 0; i < gw_cfg.nb_inner; i++)
		port_line(gw_cfg.inner_ports[i], "inner", seconds);
	counters_line("  ");
	fflush(stdout);
}

void
gw_stats_summary(void)
{
	struct rte_eth_stats s;
	unsigned int i;

	printf("== summary\n");
	for (i = 0; i <= gw_cfg.nb_inner; i++) {
		uint16_t port = i == 0 ? gw_cfg.underlay_port : gw_cfg.inner_ports[i - 1];
		char name[RTE_ETH_NAME_MAX_LEN];

		if (rte_eth_stats_get(port, &s) != 0 ||
		    rte_eth_dev_get_name_by_port(port, name) != 0)
			continue;
		printf("  %-8s %-14s rx %" PRIu64 " pkts %" PRIu64 " bytes, tx %"
		       PRIu64 " pkts %" PRIu64 " bytes, missed %" PRIu64 " errors %"
		       PRIu64 "\n", i == 0 ? "underlay" : "inner", name, s.ipackets,
		       s.ibytes, s.opackets, s.obytes, s.imissed, s.oerrors);
	}
	counters_line("  ");
	fflush(stdout);
}
