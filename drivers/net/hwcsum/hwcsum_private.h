/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_hwcsum: every type, accessor and prototype of the PMD, one section
 * per file, the way net/failsafe keeps failsafe_private.h.
 */
#ifndef HWCSUM_PRIVATE_H
#define HWCSUM_PRIVATE_H

#include <assert.h>
#include <stddef.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/queue.h>

#include <ethdev_driver.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_spinlock.h>

#include "csum_offload.h"
#include "hwcsum_flow.h"
#include "hwcsum_rx_bare.h"
#include "udp_tunnel.h"

extern int hwcsum_logtype;
#define HWCSUM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, hwcsum_logtype, "net_hwcsum: " fmt "\n", \
		## __VA_ARGS__)

/* ------------------------------------------------------ hwcsum_args.c */

/* tx_engine=: what the hardware under the sub-port can sum. */
enum hwcsum_engine_arg {
	HWCSUM_ENGINE_AUTO = 0,	/* by driver and device ID (hwcsum_sub.c) */
	HWCSUM_ENGINE_ARG_GENERIC,
	HWCSUM_ENGINE_ARG_PARSE,
	HWCSUM_ENGINE_ARG_NONE,
};

/* rx=: receive checksum work. */
enum hwcsum_rx_mode {
	HWCSUM_RX_AUTO = 0,	/* when the application enables an RX checksum offload */
	HWCSUM_RX_ON,		/* always */
	HWCSUM_RX_OFF,		/* never: pure pass-through */
};

/* registry=: which registry the port's tunnel ports live in. */
enum hwcsum_registry_mode {
	HWCSUM_REGISTRY_PORT = 0, /* private to the port (DPDK's per-port view) */
	HWCSUM_REGISTRY_SHARED,	  /* the process-wide one, like a netns */
};

#define HWCSUM_MAX_TUNNEL_PORTS 16
/* tables_shared=<name>: longest name, sets per process. */
#define HWCSUM_SHARED_NAME_MAX 32
#define HWCSUM_MAX_SHARED_SETS 16

/* One tunnel_ports= entry: a user that exists from probe to close. */
struct hwcsum_tunnel_port_arg {
	char type_name[UDP_TUNNEL_NAME_MAX];
	uint16_t port;
};

/* What the devargs asked for. */
struct hwcsum_args {
	char sub_name[RTE_ETH_NAME_MAX_LEN];
	enum hwcsum_engine_arg tx_engine;
	enum hwcsum_rx_mode rx_mode;
	enum hwcsum_registry_mode registry;
	/* tables=: n_entries 0 ends the list; none given means driver default. */
	unsigned int n_tables;
	struct {
		unsigned int n_entries;
		char type_names[UDP_TUNNEL_MAX_TYPES][UDP_TUNNEL_NAME_MAX];
		unsigned int n_types;
	} tables[UDP_TUNNEL_MAX_TABLES];
	unsigned int n_tunnel_ports;
	struct hwcsum_tunnel_port_arg tunnel_ports[HWCSUM_MAX_TUNNEL_PORTS];
	/* What the tables of the hardware underneath do (Linux's info flags). */
	bool tables_open_only;	/* hold ports only while started */
	bool static_iana_vxlan;	/* 4789 is hard-wired VXLAN, takes no entry */
	char tables_shared[HWCSUM_SHARED_NAME_MAX]; /* "": tables of our own */
	/* rx_partial_seed=: auto is on for sub-ports that read packet sockets. */
	enum hwcsum_rx_mode rx_partial_seed;
	/* peer_segment=: auto is on for net_af_packet on a veth. */
	enum hwcsum_rx_mode peer_segment;
};

int hwcsum_args_parse(const char *dev_name, const char *params,
		      struct hwcsum_args *args);
const char *hwcsum_args_help(void);

/* --------------------------------------------------- hwcsum_xstats.c */

/*
 * Counters. Each queue has its own and only its lcore writes them; xstats
 * add the queues up. Names are in hwcsum_xstats.c, in this order.
 */
enum hwcsum_tx_counter {
	HWCSUM_TX_REQ_GENERIC = 0, /* packets with the CHECKSUM_PARTIAL dynflag */
	HWCSUM_TX_REQ_DPDK,	   /* packets with DPDK TX checksum flags */
	HWCSUM_TX_L4_HW,	   /* L4 checksums handed to the sub-port */
	HWCSUM_TX_L4_SW,	   /* L4 checksums done here (by reason below) */
	HWCSUM_TX_SW_BYTES,	   /* bytes summed in software for them */
	HWCSUM_TX_LCO,		   /* outer UDP checksums by LCO */
	HWCSUM_TX_OUTER_UDP_HW,	   /* outer UDP checksums handed to the sub-port */
	HWCSUM_TX_IP_HW,	   /* IPv4 header checksums handed to the sub-port */
	HWCSUM_TX_IP_SW,	   /* IPv4 header checksums done here */
	HWCSUM_TX_CRC32C_SW,	   /* SCTP CRC32c done here */
	HWCSUM_TX_BAD_REQUEST,	   /* impossible requests: dropped, freed */
	HWCSUM_TX_PREP_REFUSED,	   /* refused by tx_prepare */
	HWCSUM_TX_DROP_NO_SUB,	   /* sub-port removed: dropped, freed */
	HWCSUM_TX_TSO_SW,	   /* TSO packets segmented here */
	HWCSUM_TX_TSO_SEGS,	   /* segments made of them */
	HWCSUM_TX_TSO_HW,	   /* TSO packets handed to the sub-port */
	HWCSUM_TX_TSO_NOMEM,	   /* no mbufs for segments: left to the caller */
	HWCSUM_TX_TSO_STOP_DROP,   /* segments still pending at stop: freed */
	HWCSUM_TX_TSO_REFUSED_DROP, /* refused by the sub-port 100 ms: freed */
	HWCSUM_TX__COUNT
};

enum hwcsum_rx_counter {
	HWCSUM_RX_COMPLETE = 0,	 /* CHECKSUM_COMPLETE computed */
	HWCSUM_RX_VERDICT_SUB,	 /* verdict taken from the sub-port */
	HWCSUM_RX_IP_BAD,	 /* (inner) IPv4 header checksum wrong */
	HWCSUM_RX_L4_BAD,	 /* (inner) L4 checksum wrong */
	HWCSUM_RX_OUTER_IP_BAD,
	HWCSUM_RX_OUTER_L4_BAD,
	HWCSUM_RX_L4_NONE,	 /* UDP without checksum (0), any depth */
	HWCSUM_RX_OUTER_L4_RESOLVED, /* received partial outer sum made right */
	HWCSUM_RX_L4_SEED_RESOLVED, /* a Linux partial seed completed (af_packet) */
	HWCSUM_RX_UNKNOWN,	 /* headers not understood: verdict UNKNOWN */
	HWCSUM_RX_TUNNEL_MALFORMED, /* registered port, header did not parse */
	HWCSUM_RX_INNER_UNKNOWN, /* tunnel whose inner packet is not IP/Ethernet */
	HWCSUM_RX_FLOW_MATCHED,	 /* packets some rte_flow rule matched */
	HWCSUM_RX_FLOW_STEERED,	 /* handed to another queue (QUEUE, RSS) */
	HWCSUM_RX_FLOW_STEER_FULL, /* that queue's ring was full: dropped */
	HWCSUM_RX_FLOW_DROP,	 /* DROP action */
	HWCSUM_RX_FLOW_ISOLATED, /* isolated mode, no rule matched: dropped */
	HWCSUM_RX__COUNT
};

struct hwcsum_txq_stats {
	uint64_t c[HWCSUM_TX__COUNT];
	uint64_t sw_reason[CSUM_OFFLOAD_R__COUNT]; /* why L4 went to software */
};

struct hwcsum_rxq_stats {
	uint64_t c[HWCSUM_RX__COUNT];
	uint64_t tunnel[UDP_TUNNEL_MAX_TYPES];	/* classified, per type bit */
};

struct rte_eth_xstat;
struct rte_eth_xstat_name;
int hwcsum_xstats_get_names(struct rte_eth_dev *dev,
			    struct rte_eth_xstat_name *names, unsigned int size);
int hwcsum_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats,
		      unsigned int n);
int hwcsum_xstats_reset(struct rte_eth_dev *dev);
/* Totals over every queue (also used by telemetry). */
void hwcsum_tx_totals(struct rte_eth_dev *dev, struct hwcsum_txq_stats *out);
void hwcsum_rx_totals(struct rte_eth_dev *dev, struct hwcsum_rxq_stats *out);
extern const char *const hwcsum_tx_counter_names[HWCSUM_TX__COUNT];
extern const char *const hwcsum_rx_counter_names[HWCSUM_RX__COUNT];

/* ------------------------------------------------------ the queues */

struct hwcsum_private;
struct hwcsum_shared_set;

/*
 * A queue of ours maps 1:1 onto the sub-port queue of the same index.
 * Everything a pass-through burst reads comes first, in the queue's first
 * cache line (checked below): it is all that burst touches of the queue.
 */
struct hwcsum_rxq {
	uint16_t port_id;	/* ours, written into received mbufs */
	uint16_t sub_port;
	uint16_t queue_id;	/* same index on both ports */
	uint16_t nb_desc;	/* as set up, for queue info */
	struct hwcsum_private *priv;
	/* The sub-port queue's burst, called directly (hwcsum_rxtx.c). */
	eth_rx_burst_t sub_rx_burst;
	void *sub_rxq;
	/* Set when rte_flow may concern this queue (hwcsum_rxq_flow_path()). */
	bool flow_look;
	struct rte_mempool *mp;
	/* Packets other queues' rules sent here (multi-producer, we consume). */
	struct rte_ring *steer;
	struct hwcsum_rxq_stats stats;
} __rte_cache_aligned;
static_assert(offsetof(struct hwcsum_rxq, flow_look) < RTE_CACHE_LINE_SIZE,
	      "pass-through RX reads more than one line of its queue");

/* Most segments one TSO packet may make (tx_prepare refuses more). */
#define HWCSUM_TSO_MAX_SEGS 256

/*
 * How long the sub-port may take none of the waiting segments before they
 * are given up (hwcsum_tso.c): far longer than any ring takes to drain,
 * short enough that a frame it never takes does not hold the queue.
 */
#define HWCSUM_TSO_REFUSED_MS 100

/* Segments of one TSO packet the sub-port has not taken yet. */
struct hwcsum_tso_pending {
	uint16_t head, n;
	/* Timer cycles when the sub-port took none of them first; 0: it
	 * took some at its last call. */
	uint64_t refused_since;
	struct rte_mbuf *segs[HWCSUM_TSO_MAX_SEGS];
};

/* As for hwcsum_rxq, what the pass-through burst reads comes first. */
struct hwcsum_txq {
	uint16_t port_id;
	uint16_t sub_port;
	uint16_t queue_id;
	uint16_t nb_desc;
	struct hwcsum_private *priv;
	/* The sub-port queue's burst, called directly (hwcsum_rxtx.c). */
	eth_tx_burst_t sub_tx_burst;
	void *sub_txq;
	uint64_t request_mask;	/* hwcsum_tx_request_mask(), for the look */
	const uint64_t *tx_partial_announced;	/* the port's, for the bare burst */
	struct hwcsum_txq_stats stats;
	struct hwcsum_tso_pending tso;	/* sent before anything else */
} __rte_cache_aligned;
static_assert(offsetof(struct hwcsum_txq, tx_partial_announced) +
	      sizeof(uint64_t *) <= RTE_CACHE_LINE_SIZE,
	      "pass-through TX reads more than one line of its queue");

/* ------------------------------------------------------- the port */

/*
 * What the sub-port's hardware will be asked to do, decided at configure
 * (hwcsum_sub.c) from the engine and the sub-port's capabilities.
 */
struct hwcsum_sub_caps {
	uint64_t tx_offloads;	/* RTE_ETH_TX_OFFLOAD_* handed down */
	bool l4_hw;		/* UDP/TCP checksums through l2_len/l3_len */
	bool ip_hw;		/* IPv4 header checksum at l2_len */
	bool sctp_hw;
	uint16_t max_segs;	/* the sub-port's nb_seg_max; 0: no limit known */
	uint64_t tso;		/* TSO offloads the application configured */
	uint64_t tso_hw;	/* those the sub-port segments itself */
};

/*
 * What the xstats read from the primary's heap (the registry, the flow
 * table), copied where a secondary process can read it (hwcsum_mp.c).
 */
struct hwcsum_view {
	unsigned int type_mask;	/* the registry's tunnel types, by bit */
	char type_names[UDP_TUNNEL_MAX_TYPES][UDP_TUNNEL_NAME_MAX];
	uint64_t not_fitted;	/* hwcsum_tunnel_not_fitted() */
	uint64_t flow_masks;	/* hwcsum_flow_n_masks() */
};

struct rte_flow_conv_rule;

/*
 * A rule of the port, as rte_flow hands it back: lib/flow's rule, which is
 * all the classifier reads, and what the driver keeps about it besides
 * (hwcsum_flow.c). Control path only, under flow_lock.
 */
struct rte_flow {
	struct hwcsum_flow_rule rule;
	TAILQ_ENTRY(rte_flow) next;	/* the port's list, creation order */

	/* The registry reference a tunnel item took (type 0: none). */
	unsigned int tunnel_ref_type;
	uint16_t tunnel_ref_port;

	/* The sub-port's copy (hwcsum_flow_hw.c): the rule as given, when it
	 * could go there; the sub-port's handle while it is there. */
	struct rte_flow_conv_rule *hw_copy;
	struct rte_flow *hw_flow;
	bool hw_refused;
};

TAILQ_HEAD(hwcsum_flow_list, rte_flow);

struct hwcsum_private {
	uint16_t port_id;
	uint16_t sub_port;
	char sub_name[RTE_ETH_NAME_MAX_LEN];
	char sub_driver[RTE_DEV_NAME_MAX_LEN];
	uint16_t sub_device_id;	/* PCI device ID, 0 if not PCI */
	/* Held from probe to close, so applications see only hwcsum. */
	struct rte_eth_dev_owner owner;
	int sub_closed;

	struct hwcsum_args args;
	/* The TX engine of the hardware underneath and how it is reached. */
	struct csum_offload_spec spec;
	const char *engine_source; /* "devarg", or why the default was taken */
	struct hwcsum_sub_caps sub;
	/* oerrors at the last stats reset (hwcsum's own drops). */
	uint64_t oerrors_base;
	/* RX work on (decided at configure from rx= and rxmode.offloads). */
	bool rx_work;
	/* Fields holding Linux's partial seed are completed (hwcsum_sub.c). */
	bool rx_partial_seed;
	/* The BPF link of our XDP_PASS on the sub-port's veth, -1 if none
	 * (hwcsum_veth.c). */
	int xdp_link;
	/* The mbuf contract (hwcsum_ethdev.c). The TX flag is 0 until the
	 * application announces it or TX offloads need it; read it with
	 * hwcsum_tx_partial(). */
	int dynfield_off;
	uint64_t tx_partial_flag;
	uint64_t rx_complete_flag;
	/* Where rte_pmd_hwcsum_dyn_lookup() announces the TX flag: a word in
	 * the memzone RTE_PMD_HWCSUM_ANNOUNCE_NAME, shared by every port. */
	uint64_t *tx_partial_announced;

	/* Tunnel ports (hwcsum_tunnel.c). */
	struct udp_tunnel_registry *registry;
	bool registry_owned;	/* a private registry, destroyed at close */
	struct udp_tunnel_dev *tunnel_dev;
	struct udp_tunnel_dev_info tunnel_info;
	struct hwcsum_shared_set *shared_set;	/* tables_shared=, or NULL */
	bool sub_has_tunnel_ops;
	/* (type bit, port) pairs this ethdev added, for DPDK's duplicate rule. */
	unsigned int n_added;
	struct { unsigned int type; uint16_t port; } added[UDP_TUNNEL_MAX_TABLES *
						  UDP_TUNNEL_TABLE_MAX_ENTRIES];
	uint64_t tunnel_push_ok;
	uint64_t tunnel_push_fail;
	uint64_t tunnel_replays;

	/* rte_flow (hwcsum_flow.c): the list under flow_lock, the published
	 * classifier read by RX queues inside a QSBR read-side section. */
	pthread_mutex_t flow_lock;
	struct hwcsum_flow_list flow_rules;
	unsigned int n_flow_rules;
	uint64_t flow_seq;
	bool flow_isolated;
	bool flow_active;	/* a table or isolated mode: RX classifies */
	struct hwcsum_flow_table *flow_table;
	struct rte_rcu_qsbr *flow_qsbr;
	unsigned int n_flow_hw;		/* rules also in the sub-port */
	unsigned int n_flow_hw_refused;	/* offered, refused by the sub-port */

	/* Filled by the primary when a secondary asks (hwcsum_mp.c). */
	rte_spinlock_t view_lock;
	struct hwcsum_view view;
};

static inline struct hwcsum_private *
hwcsum_priv(const struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

/*
 * ThreadSanitizer does not model the fence QSBR's online state relies on,
 * so it cannot see that a reader's last look at a table happens before
 * the writer's rte_rcu_qsbr_synchronize() returns: say so where both sit.
 * A table freed before synchronize would still be reported.
 */
#if defined(__SANITIZE_THREAD__)	/* gcc */
#define HWCSUM_TSAN 1
#elif defined(__has_feature)		/* clang */
#if __has_feature(thread_sanitizer)
#define HWCSUM_TSAN 1
#endif
#endif
#ifdef HWCSUM_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define hwcsum_qsbr_reader_done(v) __tsan_release(v)
#define hwcsum_qsbr_writer_synced(v) __tsan_acquire(v)
#else
#define hwcsum_qsbr_reader_done(v) ((void)(v))
#define hwcsum_qsbr_writer_synced(v) ((void)(v))
#endif

/*
 * RX goes through the classifier while rules exist, and after the last
 * one is gone until the queue's steering ring is empty: packets other
 * queues steered here just before must not wait for the next rule.
 * Until the first rule (or isolated mode) since the port's start, none
 * of that can hold and flow_look, next to the sub-port's burst pointer,
 * is the only look: no read of the port's flow state nor of the ring's
 * two cache lines (hwcsum_flow_rxq_look()).
 */
static inline bool
hwcsum_rxq_flow_path(const struct hwcsum_rxq *rxq)
{
	const struct rte_ring *r = rxq->steer;

	if (likely(!__atomic_load_n(&rxq->flow_look, __ATOMIC_RELAXED)))
		return false;
	/* rte_ring_empty() reads the tails other queues write non-atomically. */
	return __atomic_load_n(&rxq->priv->flow_active, __ATOMIC_RELAXED) ||
		(r != NULL && __atomic_load_n(&r->prod.tail, __ATOMIC_RELAXED) !=
		 __atomic_load_n(&r->cons.tail, __ATOMIC_RELAXED));
}

/* ---------------------------------------------------- hwcsum_ethdev.c */

/* The dynamic field, the RX flag and the announcement word (idempotent). */
int hwcsum_dyn_register(struct hwcsum_private *priv);
/* Register the TX flag for this port's own requests (TX offloads). */
int hwcsum_tx_partial_register(struct hwcsum_private *priv);
/* Take the TX flag once the application has it (any lcore): true then. */
bool hwcsum_tx_partial_adopt(struct hwcsum_private *priv);

/*
 * The TX flag as this port knows it. A started port may adopt it from a
 * transmit burst (hwcsum_tx_burst_bare()) while other queues read it:
 * one value, written the same by whoever writes it.
 */
static inline uint64_t
hwcsum_tx_partial(const struct hwcsum_private *priv)
{
	return __atomic_load_n(&priv->tx_partial_flag, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------- hwcsum_mp.c */

struct rte_vdev_device;
/* Attach to the primary's port: read-only ops, refused bursts. */
int hwcsum_probe_secondary(struct rte_vdev_device *vdev);
/* In the primary: answer secondaries' view requests (once per process). */
int hwcsum_mp_init(void);
/* The view, fresh: filled here in the primary, asked of it in a secondary. */
int hwcsum_view_get(struct rte_eth_dev *dev, struct hwcsum_view *out);

/* ------------------------------------------------------ hwcsum_sub.c */

int hwcsum_sub_find(const char *name, const char *sub_name, uint16_t *sub_port);
int hwcsum_sub_own(struct rte_eth_dev *dev);
void hwcsum_sub_disown(struct rte_eth_dev *dev);
int hwcsum_sub_close(struct rte_eth_dev *dev);
/* Driver name and PCI ID of the sub-port; the engine default or devarg. */
int hwcsum_sub_identify(struct rte_eth_dev *dev);
int hwcsum_sub_reclaim(struct rte_eth_dev *dev);
/* From the configured offloads: what the sub-port is given (priv->sub). */
int hwcsum_sub_caps_decide(struct rte_eth_dev *dev, uint64_t *sub_tx_offloads);
const char *hwcsum_engine_name(enum csum_engine engine);

/* ----------------------------------------------------- hwcsum_veth.c */

/* At start: a veth sub-port's peer segments its GSO packets (peer_segment). */
int hwcsum_veth_peer_segment(struct rte_eth_dev *dev);
/* At close: the peer's offloads as they were. */
void hwcsum_veth_peer_restore(struct rte_eth_dev *dev);

/* ------------------------------------------------------ hwcsum_ops.c */

extern const struct eth_dev_ops hwcsum_dev_ops;
/* What a secondary process may do: read, count, promiscuous mode, close. */
extern const struct eth_dev_ops hwcsum_secondary_ops;
/* Offloads hwcsum itself offers, whatever is underneath. */
#define HWCSUM_TX_OFFLOADS (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_UDP_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_TCP_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_SCTP_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_OUTER_IPV4_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_OUTER_UDP_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_MULTI_SEGS | \
			    HWCSUM_TX_TSO_OFFLOADS)
/* Segmentation: in software here, or by a sub-port that offers it. */
#define HWCSUM_TX_TSO_OFFLOADS (RTE_ETH_TX_OFFLOAD_TCP_TSO | \
				RTE_ETH_TX_OFFLOAD_UDP_TSO | \
				RTE_ETH_TX_OFFLOAD_VXLAN_TNL_TSO | \
				RTE_ETH_TX_OFFLOAD_GENEVE_TNL_TSO | \
				RTE_ETH_TX_OFFLOAD_UDP_TNL_TSO)
/* The part the application will ask of TX bursts (checksums, TSO). */
#define HWCSUM_TX_CSUM_OFFLOADS (HWCSUM_TX_OFFLOADS & \
				 ~RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
/* Every checksum flag a sub-port may set on RX: ours once we look at a packet. */
#define HWCSUM_RX_CKSUM_FLAGS (RTE_MBUF_F_RX_IP_CKSUM_MASK | \
			       RTE_MBUF_F_RX_L4_CKSUM_MASK | \
			       RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD | \
			       RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK)
#define HWCSUM_RX_CSUM_OFFLOADS (RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | \
				 RTE_ETH_RX_OFFLOAD_UDP_CKSUM | \
				 RTE_ETH_RX_OFFLOAD_TCP_CKSUM | \
				 RTE_ETH_RX_OFFLOAD_OUTER_IPV4_CKSUM | \
				 RTE_ETH_RX_OFFLOAD_OUTER_UDP_CKSUM)

/* ---------------------------------------------------- hwcsum_rxtx.c */

/*
 * The sub-port's own burst on the same queue, called directly as
 * net_failsafe does (not through rte_eth_rx/tx_burst on its port id):
 * hwcsum_rxtx.c says what that skips and why it is right.
 *
 * sub_closed is read again right before the call, even where the caller
 * looked at the start of the burst: a removed sub-port's queues are freed
 * just after its DESTROY event sets the flag, and a burst that resolved
 * requests in between (or was preempted) must not call into them. Through
 * ethdev, the dummy bursts it installs before freeing covered that window;
 * the answer is the same as theirs: nothing received, nothing taken.
 */
static inline bool
hwcsum_sub_gone(const struct hwcsum_private *priv)
{
	return __atomic_load_n(&priv->sub_closed, __ATOMIC_ACQUIRE) != 0;
}

static inline uint16_t
hwcsum_sub_rx(struct hwcsum_rxq *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	if (unlikely(hwcsum_sub_gone(rxq->priv)))
		return 0;
	return rxq->sub_rx_burst(rxq->sub_rxq, pkts, n);
}

static inline uint16_t
hwcsum_sub_tx(struct hwcsum_txq *txq, struct rte_mbuf **pkts, uint16_t n)
{
	if (unlikely(hwcsum_sub_gone(txq->priv)))
		return 0;
	return txq->sub_tx_burst(txq->sub_txq, pkts, n);
}

/* Take the sub-port's burst functions and queues (setup, start). */
void hwcsum_sub_rxq_bind(struct hwcsum_rxq *rxq);
void hwcsum_sub_txq_bind(struct hwcsum_txq *txq);

/* Pass-through bursts, chosen when nothing is asked of hwcsum. */
uint16_t hwcsum_rx_burst_raw(void *queue, struct rte_mbuf **pkts, uint16_t n);
uint16_t hwcsum_tx_burst_raw(void *queue, struct rte_mbuf **pkts, uint16_t n);
/* Transmit with no TX checksum offload configured: the look, then down. */
uint16_t hwcsum_tx_burst_pass(void *queue, struct rte_mbuf **pkts, uint16_t n);
/* The same before anyone registered the TX flag: straight down, no look. */
uint16_t hwcsum_tx_burst_bare(void *queue, struct rte_mbuf **pkts, uint16_t n);
/* Pick the burst functions for the current configuration and bind every
 * queue to the sub-port's (at start, after the sub-port's: ethdev copies
 * ours into its fast-path table after dev_start). */
void hwcsum_set_burst_fn(struct rte_eth_dev *dev);

/* ------------------------------------------------------ hwcsum_tx.c */

/* Mask of ol_flags that make a packet need TX work. */
uint64_t hwcsum_tx_request_mask(const struct hwcsum_private *priv);
uint16_t hwcsum_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n);
/*
 * One packet's requests: checked, handed to the sub-port (flags and
 * l2_len/l3_len rewritten for it) or completed in software; no ethdev
 * call, so a fuzzer can drive it with a bare priv. 0, or a negative errno
 * for a request that cannot be done (the caller drops and counts it).
 */
int hwcsum_tx_one(const struct hwcsum_private *priv, struct rte_mbuf *m,
		  struct hwcsum_txq_stats *st);
/*
 * The same result, always through the general path (the reference the
 * fast path of hwcsum_tx_one() is tested against).
 */
int hwcsum_tx_one_general(const struct hwcsum_private *priv,
			  struct rte_mbuf *m, struct hwcsum_txq_stats *st);
/*
 * hwcsum_tx_one() over pkts[0..n), ret[i] its result for pkts[i]: what
 * tx_burst does per chunk (one plan per run of alike packets).
 */
void hwcsum_tx_resolve(const struct hwcsum_private *priv,
		       struct rte_mbuf **pkts, uint16_t n,
		       struct hwcsum_txq_stats *st, int *ret);
uint16_t hwcsum_tx_prepare(void *queue, struct rte_mbuf **pkts, uint16_t n);
/*
 * For tests: whether the fast path's plan for m's flags and lengths marks
 * its work for csum_tx_apply_usual() (csum_tx.h), and that work in *w.
 */
struct csum_tx_work;
bool hwcsum_tx_usual_work(const struct hwcsum_private *priv,
			  const struct rte_mbuf *m, struct csum_tx_work *w);

/* ------------------------------------------------------ hwcsum_tso.c */

/* A burst with a TSO packet, or with segments still pending. */
uint16_t hwcsum_tso_burst(struct hwcsum_txq *txq, struct rte_mbuf **pkts,
			  uint16_t n);
/* tx_prepare's verdict on one TSO packet: 0, -EINVAL or -ENOTSUP. */
int hwcsum_tso_validate(const struct hwcsum_private *priv,
			const struct rte_mbuf *m);
/* Free the segments a stopped or released queue still holds. */
void hwcsum_tso_txq_drop(struct hwcsum_txq *txq);

/* ------------------------------------------------------ hwcsum_rx.c */

uint16_t hwcsum_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n);
/* hwcsum_rx_one() and a bare priv for it: hwcsum_rx_bare.h. */
const uint32_t *hwcsum_supported_ptypes(struct rte_eth_dev *dev);
/* Registry type bit -> RTE_PTYPE_TUNNEL_* (0 when DPDK has none). */
uint32_t hwcsum_tunnel_ptype(const struct udp_tunnel_registry *reg,
			     unsigned int type);

/* --------------------------------------------------- hwcsum_tunnel.c */

/* Registry and device at probe; users of tunnel_ports=. */
int hwcsum_tunnel_init(struct rte_eth_dev *dev);
void hwcsum_tunnel_uninit(struct rte_eth_dev *dev);
/* Replay every entry to the sub-port (start, reset). */
int hwcsum_tunnel_replay(struct rte_eth_dev *dev);
/* The port stopped: tables_open_only tables are flushed. */
void hwcsum_tunnel_stop(struct rte_eth_dev *dev);
int hwcsum_udp_tunnel_port_add(struct rte_eth_dev *dev,
			       struct rte_eth_udp_tunnel *tunnel);
int hwcsum_udp_tunnel_port_del(struct rte_eth_dev *dev,
			       struct rte_eth_udp_tunnel *tunnel);
/* Add a (type bit, UDP port) user on behalf of this ethdev. */
int hwcsum_udp_tunnel_port_add_type(struct rte_eth_dev *dev, unsigned int type,
				    uint16_t port);
/* Entries users asked for that no table of this device holds. */
unsigned int hwcsum_tunnel_not_fitted(struct rte_eth_dev *dev);

/* References a rule's tunnel item holds: checked (validate), taken, dropped. */
int hwcsum_tunnel_ref_check(struct rte_eth_dev *dev, unsigned int type,
			    uint16_t port);
int hwcsum_tunnel_ref_get(struct rte_eth_dev *dev, unsigned int type,
			  uint16_t port);
void hwcsum_tunnel_ref_put(struct rte_eth_dev *dev, unsigned int type,
			   uint16_t port);

/* ----------------------------------------- hwcsum_flow.c, _parse.c, _rx.c */

struct rte_flow_ops;
struct rte_flow_attr;
struct rte_flow_item;
struct rte_flow_action;
struct rte_flow_error;

int hwcsum_flow_init(struct rte_eth_dev *dev);
void hwcsum_flow_uninit(struct rte_eth_dev *dev);
int hwcsum_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops);
unsigned int hwcsum_flow_n_masks(const struct hwcsum_private *priv);
/* Fill err with a formatted message; returns -code, as rte_flow_error_set. */
int hwcsum_flow_error(struct rte_flow_error *err, int code, int type,
		      const void *cause, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* hwcsum_flow_hw.c: rules offered to the sub-port's own rte_flow. */
int hwcsum_flow_hw_prepare(struct rte_flow *f,
			   const struct rte_flow_attr *attr,
			   const struct rte_flow_item pattern[],
			   const struct rte_flow_action actions[]);
void hwcsum_flow_hw_sync(struct hwcsum_private *priv);
void hwcsum_flow_hw_release(struct hwcsum_private *priv, struct rte_flow *f);
/*
 * The rule an rte_flow description asks for and the tunnel reference it
 * needs, into f (zeroed first); no state is touched.
 */
int hwcsum_flow_parse(const struct rte_eth_dev *dev,
		      const struct rte_flow_attr *attr,
		      const struct rte_flow_item pattern[],
		      const struct rte_flow_action actions[],
		      struct rte_flow *f, struct rte_flow_error *err);
/* RSS types the RSS action takes (addresses and ports of IPv4/IPv6). */
#define HWCSUM_FLOW_RSS_TYPES (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | \
	RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP | \
	RTE_ETH_RSS_NONFRAG_IPV4_OTHER | RTE_ETH_RSS_IPV6 | \
	RTE_ETH_RSS_FRAG_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_TCP | \
	RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_NONFRAG_IPV6_OTHER | \
	RTE_ETH_RSS_IPV6_EX | RTE_ETH_RSS_IPV6_TCP_EX | RTE_ETH_RSS_IPV6_UDP_EX)
/* ---------------------------------------------------- hwcsum_flow_rx.c */

/*
 * A receive burst while rules exist (or the port is isolated): parse,
 * classify (lib/flow), deliver, steer or drop; checksum work when work.
 */
uint16_t hwcsum_rx_burst_flow(struct hwcsum_rxq *rxq, struct rte_mbuf **pkts,
			      uint16_t n, bool work);
/* The pass-through burst's form while rte_flow rules exist. */
uint16_t hwcsum_rx_burst_flow_raw(void *queue, struct rte_mbuf **pkts,
				  uint16_t n);
/* The steering ring of an RX queue, created at setup, drained at release. */
int hwcsum_flow_rxq_init(struct rte_eth_dev *dev, struct hwcsum_rxq *q);
/* At start: each RX queue's flow_look from the rules and its ring. */
void hwcsum_flow_rxq_look(struct rte_eth_dev *dev);
void hwcsum_flow_rxq_fini(struct rte_eth_dev *dev, struct hwcsum_rxq *q);

/* ------------------------------------------------ hwcsum_telemetry.c */

/* Registered once, at the first probe. */
void hwcsum_telemetry_register(void);

#endif /* HWCSUM_PRIVATE_H */
