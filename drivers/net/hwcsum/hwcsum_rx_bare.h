/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The driver's per-packet receive work without a port, for code outside
 * the driver that times it (hwcsum-bench rxverify): only the types' names,
 * so such code never sees hwcsum_private.h. Exported by the .so in its
 * INTERNAL version node (version.map), not its API: a caller is built
 * with -DALLOW_INTERNAL_API, as DPDK's own internal users are.
 */
#ifndef HWCSUM_RX_BARE_H
#define HWCSUM_RX_BARE_H

#include <rte_compat.h>

struct hwcsum_private;
struct hwcsum_rxq_stats;
struct rte_mbuf;
struct udp_tunnel_registry;

/*
 * One packet: COMPLETE sum, tunnel classification, verdict flags,
 * packet_type; no ethdev call, so a fuzzer can drive it with a bare priv.
 */
__rte_internal
void hwcsum_rx_one(const struct hwcsum_private *priv, struct rte_mbuf *m,
		   struct hwcsum_rxq_stats *st);

/*
 * A private struct as a port with receive work on has it, tunnels looked
 * up in reg (kept by the caller), no COMPLETE dynamic field; and counters
 * for it. 0, or -ENOMEM.
 */
__rte_internal
int hwcsum_rx_bare_create(struct udp_tunnel_registry *reg,
			  struct hwcsum_private **priv,
			  struct hwcsum_rxq_stats **st);
__rte_internal
void hwcsum_rx_bare_free(struct hwcsum_private *priv,
			 struct hwcsum_rxq_stats *st);

#endif /* HWCSUM_RX_BARE_H */
