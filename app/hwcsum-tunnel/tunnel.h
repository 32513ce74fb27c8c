/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TUNNEL_APP_H
#define HWCSUM_TUNNEL_APP_H

/*
 * hwcsum-tunnel: a tunnel gateway between inner (VM-facing) ports and one
 * underlay port, all net_hwcsum ports. One concern per file:
 * main.c (EAL, lcores, signals, shutdown), config.c (options, tunnel keys,
 * validation), config_file.c (the INI file), ports.c (port setup, the
 * tunnel UDP ports, and the mempool and transmit the data path uses),
 * encap.c, decap.c, pmtu.c (the underlay MTU, ICMP too-big answers to
 * VMs), stats.c, telemetry.c. Tunnel types are lib/udp_tunnel's. Who may
 * call whom: docs/layout.md (nothing calls main.c; ports.c calls no
 * data path file).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include <rte_pmd_hwcsum.h>
#include <udp_tunnel.h>

#define GW_MAX_TUNNELS 16
#define GW_MAX_INNER 16
#define GW_MAX_QUEUES 8
#define GW_MAX_OPTS 252		/* GENEVE option bytes: 6-bit length in words */
#define GW_MAX_HDR (14 + 40 + 8 + 8 + GW_MAX_OPTS)
#define GW_BURST 32
#define GW_GENEVE_F_CRIT 0x40	/* RFC 8926 3.4: C, byte 1 of the header */
#define GW_GENEVE_OPT_CRIT 0x80	/* RFC 8926 3.5: critical bit of an option type */

struct gw_tunnel {
	char name[64];
	unsigned int type;		/* UDP_TUNNEL_TYPE_*, a built-in one */
	uint32_t vni;
	char inner_name[RTE_ETH_NAME_MAX_LEN];
	uint16_t inner_port;
	uint16_t inner_idx;		/* in gw_config.inner_ports */
	int family;			/* AF_INET or AF_INET6 */
	uint8_t local[16], remote[16];	/* IPv4 in the first 4 bytes */
	struct rte_ether_addr remote_mac;
	struct rte_ether_addr local_mac;
	bool local_mac_set;
	/* GUE, and VXLAN-GPE with gpe_payload=ip, carry IP: the Ethernet
	 * header is rebuilt on decapsulation. */
	struct rte_ether_addr inner_dst_mac, inner_src_mac;
	bool gpe_ip;			/* VXLAN-GPE next protocol IPv4/IPv6 */
	uint16_t dst_port;
	uint16_t src_min, src_max;
	uint8_t ttl;
	bool udp_csum;
	bool udp6_zero_csum_rx;		/* RFC 6935: accept a zero IPv6 UDP sum */
	uint8_t opts[GW_MAX_OPTS];
	uint16_t opts_len;
	/* Outer headers built once at start (encap.c). */
	uint8_t hdr[GW_MAX_HDR];
	uint16_t hdr_len, l3_off, l4_off, tun_off;
	uint32_t ip_sum;		/* IPv4 header, length/id/checksum 0 */
	uint32_t pseudo_sum;		/* outer UDP pseudo-header, length 0 */
	/* Largest frame (IP packet for gw_tunnel_carries_ip()) whose outer
	 * packet fits the underlay MTU; pmtu.c sets it, workers read it. */
	uint32_t max_payload;
};

/* GUE, and VXLAN-GPE with gpe_payload=ip: the IP packet, no Ethernet. */
static inline bool
gw_tunnel_carries_ip(const struct gw_tunnel *t)
{
	return t->type == UDP_TUNNEL_TYPE_GUE || t->gpe_ip;
}

/* The type hwcsum's packet type names: VXLAN, GENEVE, VXLAN-GPE; 0 for
 * anything else (DPDK has no RTE_PTYPE_TUNNEL_* for GUE). */
static inline unsigned int
gw_ptype_tunnel_type(uint32_t packet_type)
{
	switch (packet_type & RTE_PTYPE_TUNNEL_MASK) {
	case RTE_PTYPE_TUNNEL_VXLAN:
		return UDP_TUNNEL_TYPE_VXLAN;
	case RTE_PTYPE_TUNNEL_GENEVE:
		return UDP_TUNNEL_TYPE_GENEVE;
	case RTE_PTYPE_TUNNEL_VXLAN_GPE:
		return UDP_TUNNEL_TYPE_VXLAN_GPE;
	default:
		return 0;
	}
}

struct gw_config {
	const char *file;
	char underlay_name[RTE_ETH_NAME_MAX_LEN];
	uint16_t underlay_port;
	unsigned int nb_mbufs;
	unsigned int stats_interval;	/* seconds, 0: no periodic lines */
	unsigned int duration;		/* seconds, 0: until a signal */
	unsigned int idle_sleep_us;	/* sleep when idle (main.c), 0: busy poll */
	struct gw_tunnel tunnels[GW_MAX_TUNNELS];
	unsigned int nb_tunnels;
	uint16_t inner_ports[GW_MAX_INNER];
	unsigned int nb_inner;
	unsigned int nb_queues;
	bool underlay_chains;		/* the underlay takes mbuf chains */
	uint16_t underlay_mtu;		/* as last read from ethdev (pmtu.c) */
	uint16_t underlay_mtu_set;	/* set on the underlay at start, 0: leave it */
	uint64_t underlay_tso;		/* tunnel TSO offloads configured (ports.c) */
};

/* Why a packet was dropped (every dropped mbuf is freed and counted). */
enum gw_drop {
	GW_DROP_NOT_TUNNEL,	/* underlay packet of no registered tunnel */
	GW_DROP_MALFORMED,	/* headers that do not parse or add up */
	GW_DROP_UNKNOWN_VNI,
	GW_DROP_OUTER_CSUM,
	GW_DROP_INNER_IP_CSUM,
	GW_DROP_INNER_CSUM,
	GW_DROP_GENEVE_CRITICAL,	/* GENEVE C flag: options we do not process */
	GW_DROP_NO_HEADROOM,
	GW_DROP_NOT_IP,		/* GUE carries only IP */
	GW_DROP_TOO_BIG,	/* outer packet beyond the underlay MTU */
	GW_DROP_INNER_ROUTING,	/* inner IPv6 routing header whose final
				   destination cannot be read (csum_walk) */
	GW_DROP_TX_FULL,
	GW_NB_DROPS
};

/* Per lcore, written by its lcore only, read by the stats lcore. */
struct gw_lcore_stats {
	uint64_t encap, decap;
	uint64_t inner_partial;		/* inner checksum left CHECKSUM_PARTIAL */
	uint64_t outer_lco;		/* outer UDP checksum by LCO */
	uint64_t outer_partial;		/* outer UDP checksum asked of hwcsum */
	uint64_t outer_zero;
	uint64_t outer_chained;		/* outer headers in an mbuf of their own */
	uint64_t verify_flags;		/* hwcsum's RX verdict taken */
	uint64_t verify_hw;		/* verified from the COMPLETE sum */
	uint64_t verify_sw;		/* no COMPLETE sum: summed here */
	uint64_t decap_lengths;		/* decapsulated from hwcsum's lengths */
	uint64_t decap_walked;		/* decapsulated after our own walk */
	uint64_t pmtu_icmp;		/* ICMP too-big answers sent to VMs */
	uint64_t tso_requests;		/* LRO frames sent as tunnel TSO (encap_tso.c) */
	uint64_t drops[GW_NB_DROPS];
} __rte_cache_aligned;

struct gw_worker {
	unsigned int lcore_id;
	uint16_t queue;
	uint16_t ip_id;
	struct gw_lcore_stats stats;
} __rte_cache_aligned;

extern struct gw_config gw_cfg;
extern struct rte_pmd_hwcsum_dyn gw_dyn;
extern volatile bool gw_quit;
extern struct gw_worker gw_workers[GW_MAX_QUEUES];

/* config.c */
void gw_config_defaults(struct gw_config *cfg);
int gw_parse_args(struct gw_config *cfg, int argc, char **argv);
void gw_tunnel_init(struct gw_tunnel *t, const char *name);
int gw_tunnel_set(struct gw_tunnel *t, const char *key, const char *value,
		  const char *where);
int gw_tunnel_check(const struct gw_config *cfg, const struct gw_tunnel *t,
		    const char *where);
int gw_global_set(struct gw_config *cfg, const char *key, const char *value,
		  const char *where);
void gw_usage(const char *prog);
const char *gw_type_name(unsigned int type);

/* config_file.c */
int gw_config_file_load(struct gw_config *cfg, const char *path);

/* ports.c */
int gw_ports_init(struct gw_config *cfg);
int gw_tunnel_ports_add(struct gw_config *cfg);
void gw_tunnel_ports_del(struct gw_config *cfg);
void gw_ports_close(void);
int gw_pool_in_use(void);
struct rte_mempool *gw_pool(void);
void gw_pool_free(void);
unsigned int gw_rx_tunnel_type(uint16_t port, const struct rte_mbuf *m);
void gw_tx(struct gw_worker *w, uint16_t port, struct rte_mbuf **pkts,
	   uint16_t n);

/* encap.c */
void gw_encap_prepare(struct gw_tunnel *t);
void gw_encap_burst(struct gw_worker *w, const struct gw_tunnel *t,
		    struct rte_mbuf **pkts, uint16_t n);

/* encap_tso.c: a VM's LRO frame (RTE_MBUF_F_RX_LRO, tso_segsz) out as one
 * tunnel TSO request. gw_lro_segment_len: 0 when m is no such frame or
 * the underlay was not configured to segment in this tunnel, else the
 * length of its first segment as max_payload counts it (and the TCP
 * header's). gw_lro_tso_request: after the outer headers are in place;
 * false when they are not in the first mbuf with the inner ones. */
struct csum_walk;
uint32_t gw_lro_segment_len(const struct gw_tunnel *t, const struct rte_mbuf *m,
			    const struct csum_walk *w, bool ip_ok, uint8_t *tcp_hdr_len);
bool gw_lro_tso_request(const struct gw_tunnel *t, struct rte_mbuf *m,
			const struct csum_walk *w, uint8_t tcp_hdr_len);

/* pmtu.c */
void gw_pmtu_refresh(struct gw_config *cfg);
struct rte_mbuf *gw_pmtu_reply(const struct gw_tunnel *t, const struct rte_mbuf *m,
			       uint32_t max_payload);

/* decap.c */
void gw_decap_prepare(const struct gw_config *cfg);
void gw_decap_burst(struct gw_worker *w, struct rte_mbuf **pkts, uint16_t n);

/* stats.c */
void gw_stats_sum(struct gw_lcore_stats *sum);
const char *gw_drop_name(enum gw_drop d);
void gw_stats_tick(double seconds);
void gw_stats_summary(void);
uint64_t gw_xstat(uint16_t port, const char *name);

/* telemetry.c */
int gw_telemetry_init(void);

#endif /* HWCSUM_TUNNEL_APP_H */
