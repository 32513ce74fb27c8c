/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Extended statistics: one counter per decision, added up over the queues,
 * then the sub-port's own xstats under the prefix "sub_" (the way
 * net_failsafe merges its sub-devices').
 *
 * Order: TX counters, TX software reasons, RX counters, RX per tunnel type
 * (every type the registry knows, by bit), registry counters, checksum
 * error totals, sub-port.
 */
#include <stdio.h>
#include <string.h>

#include <ethdev_driver.h>
#include <rte_malloc.h>

#include "hwcsum_private.h"

const char *const hwcsum_tx_counter_names[HWCSUM_TX__COUNT] = {
	[HWCSUM_TX_REQ_GENERIC] = "tx_req_partial",
	[HWCSUM_TX_REQ_DPDK] = "tx_req_dpdk_flags",
	[HWCSUM_TX_L4_HW] = "tx_l4_hw",
	[HWCSUM_TX_L4_SW] = "tx_l4_sw",
	[HWCSUM_TX_SW_BYTES] = "tx_l4_sw_bytes",
	[HWCSUM_TX_LCO] = "tx_outer_udp_lco",
	[HWCSUM_TX_OUTER_UDP_HW] = "tx_outer_udp_hw",
	[HWCSUM_TX_IP_HW] = "tx_ip_hw",
	[HWCSUM_TX_IP_SW] = "tx_ip_sw",
	[HWCSUM_TX_CRC32C_SW] = "tx_sctp_crc32c_sw",
	[HWCSUM_TX_BAD_REQUEST] = "tx_bad_request_dropped",
	[HWCSUM_TX_PREP_REFUSED] = "tx_prepare_refused",
	[HWCSUM_TX_DROP_NO_SUB] = "tx_no_sub_port_dropped",
	[HWCSUM_TX_TSO_SW] = "tx_tso_sw",
	[HWCSUM_TX_TSO_SEGS] = "tx_tso_segments",
	[HWCSUM_TX_TSO_HW] = "tx_tso_hw",
	[HWCSUM_TX_TSO_NOMEM] = "tx_tso_no_mbufs",
	[HWCSUM_TX_TSO_STOP_DROP] = "tx_tso_dropped_at_stop",
	[HWCSUM_TX_TSO_REFUSED_DROP] = "tx_tso_dropped_refused",
};

const char *const hwcsum_rx_counter_names[HWCSUM_RX__COUNT] = {
	[HWCSUM_RX_COMPLETE] = "rx_complete",
	[HWCSUM_RX_VERDICT_SUB] = "rx_verdict_from_sub",
	[HWCSUM_RX_IP_BAD] = "rx_ip_bad",
	[HWCSUM_RX_L4_BAD] = "rx_l4_bad",
	[HWCSUM_RX_OUTER_IP_BAD] = "rx_outer_ip_bad",
	[HWCSUM_RX_OUTER_L4_BAD] = "rx_outer_l4_bad",
	[HWCSUM_RX_L4_NONE] = "rx_l4_none",
	[HWCSUM_RX_OUTER_L4_RESOLVED] = "rx_outer_l4_partial_resolved",
	[HWCSUM_RX_L4_SEED_RESOLVED] = "rx_l4_partial_seed_resolved",
	[HWCSUM_RX_UNKNOWN] = "rx_unknown",
	[HWCSUM_RX_TUNNEL_MALFORMED] = "rx_tunnel_malformed",
	[HWCSUM_RX_INNER_UNKNOWN] = "rx_tunnel_inner_unknown",
	[HWCSUM_RX_FLOW_MATCHED] = "rx_flow_matched",
	[HWCSUM_RX_FLOW_STEERED] = "rx_flow_steered",
	[HWCSUM_RX_FLOW_STEER_FULL] = "rx_flow_steer_full_dropped",
	[HWCSUM_RX_FLOW_DROP] = "rx_flow_drop_action",
	[HWCSUM_RX_FLOW_ISOLATED] = "rx_flow_isolated_dropped",
};

static const char *const registry_names[] = {
	"tunnel_entries_not_fitted",
	"tunnel_push_ok",
	"tunnel_push_failed",
	"tunnel_replays",
	"flow_rules_sw",
	"flow_rules_hw",
	"flow_rules_hw_refused",
	"flow_masks",
};

/*
 * Bad checksums at any depth, IP headers and L4. Applications that show
 * only some xstats pick them by name: Open vSwitch 3.1 shows those ending
 * in "_errors" or "_dropped", and would show none of rx_*_bad.
 */
static const char *const error_total_names[] = {
	"rx_ip_csum_errors",
	"rx_l4_csum_errors",
};

/* The software reasons: every csum_offload_reason but "ok". */
#define N_REASONS (CSUM_OFFLOAD_R__COUNT - 1)

void
hwcsum_tx_totals(struct rte_eth_dev *dev, struct hwcsum_txq_stats *out)
{
	uint16_t q;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		const struct hwcsum_txq *txq = dev->data->tx_queues[q];

		if (txq == NULL)
			continue;
		for (i = 0; i < HWCSUM_TX__COUNT; i++)
			out->c[i] += txq->stats.c[i];
		for (i = 0; i < CSUM_OFFLOAD_R__COUNT; i++)
			out->sw_reason[i] += txq->stats.sw_reason[i];
	}
}

void
hwcsum_rx_totals(struct rte_eth_dev *dev, struct hwcsum_rxq_stats *out)
{
	uint16_t q;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct hwcsum_rxq *rxq = dev->data->rx_queues[q];

		if (rxq == NULL)
			continue;
		for (i = 0; i < HWCSUM_RX__COUNT; i++)
			out->c[i] += rxq->stats.c[i];
		for (i = 0; i < UDP_TUNNEL_MAX_TYPES; i++)
			out->tunnel[i] += rxq->stats.tunnel[i];
	}
}

static unsigned int
own_count(const struct hwcsum_view *view)
{
	return HWCSUM_TX__COUNT + N_REASONS + HWCSUM_RX__COUNT +
		__builtin_popcount(view->type_mask) + RTE_DIM(registry_names) +
		RTE_DIM(error_total_names);
}

static int
sub_count(const struct hwcsum_private *priv)
{
	if (priv->sub_closed)
		return 0;
	return RTE_MAX(rte_eth_xstats_get_names(priv->sub_port, NULL, 0), 0);
}

int
hwcsum_xstats_get_names(struct rte_eth_dev *dev,
			struct rte_eth_xstat_name *names, unsigned int size)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_eth_xstat_name *sub;
	struct hwcsum_view view;
	unsigned int own, n = 0, i;
	int nsub = sub_count(priv), got;

	/* Type names live in the registry: a secondary asks the primary. */
	got = hwcsum_view_get(dev, &view);
	if (got != 0)
		return got;
	own = own_count(&view);
	if (names == NULL || size < own + (unsigned int)nsub)
		return own + nsub;
#define NAME(...) snprintf(names[n++].name, RTE_ETH_XSTATS_NAME_SIZE, __VA_ARGS__)
	for (i = 0; i < HWCSUM_TX__COUNT; i++)
		NAME("%s", hwcsum_tx_counter_names[i]);
	for (i = 1; i < CSUM_OFFLOAD_R__COUNT; i++)
		NAME("tx_l4_sw_%s", csum_offload_reason_name(i));
	for (i = 0; i < HWCSUM_RX__COUNT; i++)
		NAME("%s", hwcsum_rx_counter_names[i]);
	for (i = 0; i < UDP_TUNNEL_MAX_TYPES; i++)
		if (view.type_mask & (1u << i))
			NAME("rx_tunnel_%s", view.type_names[i]);
	for (i = 0; i < RTE_DIM(registry_names); i++)
		NAME("%s", registry_names[i]);
	for (i = 0; i < RTE_DIM(error_total_names); i++)
		NAME("%s", error_total_names[i]);
#undef NAME
	if (nsub == 0)
		return n;
	sub = rte_malloc(NULL, sizeof(*sub) * nsub, 0);
	if (sub == NULL)
		return -ENOMEM;
	got = rte_eth_xstats_get_names(priv->sub_port, sub, nsub);
	for (i = 0; got > 0 && i < (unsigned int)RTE_MIN(got, nsub); i++)
		snprintf(names[n++].name, RTE_ETH_XSTATS_NAME_SIZE, "sub_%s",
			 sub[i].name);
	rte_free(sub);
	return n;
}

int
hwcsum_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats,
		  unsigned int size)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct hwcsum_txq_stats tx;
	struct hwcsum_rxq_stats rx;
	struct hwcsum_view view;
	unsigned int own, n = 0, i;
	int nsub = sub_count(priv), got;

	got = hwcsum_view_get(dev, &view);
	if (got != 0)
		return got;
	own = own_count(&view);
	if (xstats == NULL || size < own + (unsigned int)nsub)
		return own + nsub;
	hwcsum_tx_totals(dev, &tx);
	hwcsum_rx_totals(dev, &rx);
#define VALUE(v) do { xstats[n].id = n; xstats[n].value = (v); n++; } while (0)
	for (i = 0; i < HWCSUM_TX__COUNT; i++)
		VALUE(tx.c[i]);
	for (i = 1; i < CSUM_OFFLOAD_R__COUNT; i++)
		VALUE(tx.sw_reason[i]);
	for (i = 0; i < HWCSUM_RX__COUNT; i++)
		VALUE(rx.c[i]);
	for (i = 0; i < UDP_TUNNEL_MAX_TYPES; i++)
		if (view.type_mask & (1u << i))
			VALUE(rx.tunnel[i]);
	VALUE(view.not_fitted);
	VALUE(priv->tunnel_push_ok);
	VALUE(priv->tunnel_push_fail);
	VALUE(priv->tunnel_replays);
	VALUE(priv->n_flow_rules);
	VALUE(priv->n_flow_hw);
	VALUE(priv->n_flow_hw_refused);
	VALUE(view.flow_masks);
	VALUE(rx.c[HWCSUM_RX_IP_BAD] + rx.c[HWCSUM_RX_OUTER_IP_BAD]);
	VALUE(rx.c[HWCSUM_RX_L4_BAD] + rx.c[HWCSUM_RX_OUTER_L4_BAD]);
#undef VALUE
	if (nsub == 0)
		return n;
	got = rte_eth_xstats_get(priv->sub_port, xstats + n, nsub);
	for (i = 0; got > 0 && i < (unsigned int)RTE_MIN(got, nsub); i++)
		xstats[n + i].id = n + i;
	return n + RTE_MAX(RTE_MIN(got, nsub), 0);
}

int
hwcsum_xstats_reset(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	uint16_t q;

	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct hwcsum_txq *txq = dev->data->tx_queues[q];

		if (txq != NULL)
			memset(&txq->stats, 0, sizeof(txq->stats));
	}
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct hwcsum_rxq *rxq = dev->data->rx_queues[q];

		if (rxq != NULL)
			memset(&rxq->stats, 0, sizeof(rxq->stats));
	}
	priv->oerrors_base = 0;
	priv->tunnel_push_ok = 0;
	priv->tunnel_push_fail = 0;
	priv->tunnel_replays = 0;
	if (!priv->sub_closed)
		rte_eth_xstats_reset(priv->sub_port);
	return 0;
}
