/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * /hwcsum_tunnel/stats: the counters of the statistics lines, as JSON.
 * DPDK 22.11 takes only [A-Za-z0-9_/] in command names: no '-' there.
 */

#include <ctype.h>
#include <stdio.h>

#include <rte_telemetry.h>

#include "tunnel.h"

static void
add_port(struct rte_tel_data *ports, uint16_t port)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_tel_data *d;
	struct rte_eth_stats s;
	unsigned int i;

	if (rte_eth_dev_get_name_by_port(port, name) != 0 ||
	    rte_eth_stats_get(port, &s) != 0)
		return;
	d = rte_tel_data_alloc();
	if (d == NULL)
		return;
	/* Telemetry keys take [A-Za-z0-9_/] only. */
	for (i = 0; name[i] != '\0'; i++)
		if (!isalnum((unsigned char)name[i]))
			name[i] = '_';
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "port_id", port);
	rte_tel_data_add_dict_u64(d, "rx_packets", s.ipackets);
	rte_tel_data_add_dict_u64(d, "rx_bytes", s.ibytes);
	rte_tel_data_add_dict_u64(d, "tx_packets", s.opackets);
	rte_tel_data_add_dict_u64(d, "tx_bytes", s.obytes);
	rte_tel_data_add_dict_u64(d, "rx_missed", s.imissed);
	rte_tel_data_add_dict_u64(d, "tx_errors", s.oerrors);
	rte_tel_data_add_dict_container(ports, name, d, 0);
}

static int
stats_cb(const char *cmd __rte_unused, const char *params __rte_unused,
	 struct rte_tel_data *d)
{
	static const char *const xstats[] = { "tx_l4_hw", "tx_l4_sw",
		"tx_outer_udp_lco", "tx_outer_udp_hw", "rx_complete", "rx_l4_bad",
		"rx_outer_l4_bad", "rx_ip_bad" };
	struct rte_tel_data *ports, *drops, *hw;
	struct gw_lcore_stats s;
	unsigned int i;

	gw_stats_sum(&s);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "encap", s.encap);
	rte_tel_data_add_dict_u64(d, "decap", s.decap);
	rte_tel_data_add_dict_u64(d, "inner_partial", s.inner_partial);
	rte_tel_data_add_dict_u64(d, "outer_lco", s.outer_lco);
	rte_tel_data_add_dict_u64(d, "outer_hwcsum", s.outer_partial);
	rte_tel_data_add_dict_u64(d, "outer_zero", s.outer_zero);
	rte_tel_data_add_dict_u64(d, "outer_chained", s.outer_chained);
	rte_tel_data_add_dict_u64(d, "verify_hwcsum", s.verify_flags);
	rte_tel_data_add_dict_u64(d, "verify_complete", s.verify_hw);
	rte_tel_data_add_dict_u64(d, "verify_sw", s.verify_sw);
	rte_tel_data_add_dict_u64(d, "decap_hwcsum_lengths", s.decap_lengths);
	rte_tel_data_add_dict_u64(d, "decap_walked", s.decap_walked);
	rte_tel_data_add_dict_u64(d, "underlay_mtu", gw_cfg.underlay_mtu);
	rte_tel_data_add_dict_u64(d, "pmtu_icmp", s.pmtu_icmp);
	drops = rte_tel_data_alloc();
	if (drops != NULL) {
		rte_tel_data_start_dict(drops);
		for (i = 0; i < GW_NB_DROPS; i++)
			rte_tel_data_add_dict_u64(drops, gw_drop_name(i), s.drops[i]);
		rte_tel_data_add_dict_container(d, "drops", drops, 0);
	}
	hw = rte_tel_data_alloc();
	if (hw != NULL) {
		rte_tel_data_start_dict(hw);
		for (i = 0; i < RTE_DIM(xstats); i++)
			rte_tel_data_add_dict_u64(hw, xstats[i],
				gw_xstat(gw_cfg.underlay_port, xstats[i]));
		rte_tel_data_add_dict_container(d, "hwcsum", hw, 0);
	}
	ports = rte_tel_data_alloc();
	if (ports != NULL) {
		rte_tel_data_start_dict(ports);
		add_port(ports, gw_cfg.underlay_port);
		for (i = 0; i < gw_cfg.nb_inner; i++)
			add_port(ports, gw_cfg.inner_ports[i]);
		rte_tel_data_add_dict_container(d, "ports", ports, 0);
	}
	return 0;
}

int
gw_telemetry_init(void)
{
	return rte_telemetry_register_cmd("/hwcsum_tunnel/stats", stats_cb,
		"Gateway counters: encap, decap, checksums, path MTU, drops, ports");
}
