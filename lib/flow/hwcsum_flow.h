/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/flow: the receive classifier behind net_hwcsum's rte_flow. The rule,
 * the packet key it is matched on, the tuple-space table (flow_table.c)
 * and what matched rules do to an mbuf (flow_apply.c: COUNT, MARK/FLAG,
 * QUEUE, Toeplitz RSS, DROP). No ethdev and nothing of the driver's
 * private structs: the driver parses rte_flow items into rules and
 * packets into keys, this library matches and applies, and its benchmark
 * and random test drive it directly, against the linear scan it must
 * agree with. A caller keeps its own bookkeeping about a rule (a list,
 * handles elsewhere) in a struct of its own that holds the rule.
 */
#ifndef HWCSUM_FLOW_H
#define HWCSUM_FLOW_H

#include <stdbool.h>
#include <stdint.h>

struct rte_mbuf;

/* Layers a packet has (hwcsum_flow_key.layers); a rule's item requires one. */
#define HWCSUM_FL_ETH		(1u << 0)
#define HWCSUM_FL_VLAN		(1u << 1)
#define HWCSUM_FL_IPV4		(1u << 2)
#define HWCSUM_FL_IPV6		(1u << 3)
#define HWCSUM_FL_UDP		(1u << 4)
#define HWCSUM_FL_TCP		(1u << 5)
#define HWCSUM_FL_TUNNEL	(1u << 6)
/* The same layers behind the tunnel header. */
#define HWCSUM_FL_INNER_SHIFT	8
#define HWCSUM_FL_INNER(f)	((f) << HWCSUM_FL_INNER_SHIFT)

/* One level of headers, as the packet carries them (network order). */
struct hwcsum_flow_hdrs {
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	uint16_t ethertype;	/* after the tags */
	uint16_t vlan_tci;	/* first tag */
	uint8_t proto;		/* IP protocol (IPv6: behind extension headers) */
	uint8_t pad;
	uint8_t src_ip[16];	/* IPv4: the first 4 bytes */
	uint8_t dst_ip[16];
	uint16_t src_port;	/* UDP or TCP */
	uint16_t dst_port;
};

/*
 * What a rule can match, at fixed offsets: a rule is (key & mask) == value,
 * so one masked compare covers any combination of items and field masks.
 */
struct hwcsum_flow_key {
	uint32_t layers;	/* HWCSUM_FL_* */
	uint32_t tunnel_type;	/* registry type bit, 0 when no tunnel */
	uint32_t vni;		/* host order; VXLAN, GENEVE, VXLAN-GPE */
	uint32_t pad;
	struct hwcsum_flow_hdrs outer;
	struct hwcsum_flow_hdrs inner;
} __attribute__((aligned(16)));

#define HWCSUM_FLOW_KEY_WORDS (sizeof(struct hwcsum_flow_key) / sizeof(uint64_t))

/* A GENEVE option to find among the packet's options (not in the key). */
#define HWCSUM_FLOW_GENEVE_OPT_MAX_WORDS 31
struct hwcsum_flow_geneve_opt {
	bool on;
	uint16_t opt_class;	/* network order, masked */
	uint16_t class_mask;
	uint8_t type;
	uint8_t type_mask;
	uint8_t n_words;	/* of data compared (4-byte words) */
	uint32_t data[HWCSUM_FLOW_GENEVE_OPT_MAX_WORDS];
	uint32_t data_mask[HWCSUM_FLOW_GENEVE_OPT_MAX_WORDS];
};

/* The packet as the classifier sees it. */
struct hwcsum_flow_pkt {
	struct hwcsum_flow_key key;
	const uint8_t *tunnel_hdr; /* first byte after the outer UDP header */
	uint32_t tunnel_hdr_len;   /* readable bytes there */
};

enum hwcsum_flow_fate {
	HWCSUM_FLOW_FATE_NONE = 0, /* PASSTHRU: the next rule decides */
	HWCSUM_FLOW_FATE_QUEUE,
	HWCSUM_FLOW_FATE_RSS,
	HWCSUM_FLOW_FATE_DROP,
};

#define HWCSUM_FLOW_RETA_SIZE 128
#define HWCSUM_FLOW_RSS_KEY_LEN 40

struct hwcsum_flow_rss {
	uint32_t level;		/* 0/1 outer, 2 innermost */
	uint64_t types;		/* RTE_ETH_RSS_* */
	uint8_t key[HWCSUM_FLOW_RSS_KEY_LEN];
	uint16_t n_queues;
	uint16_t reta[HWCSUM_FLOW_RETA_SIZE];
};

/* One rule: what it matches, what it does, what it counted. */
struct hwcsum_flow_rule {
	struct hwcsum_flow_key value;	/* already masked */
	struct hwcsum_flow_key mask;
	struct hwcsum_flow_geneve_opt geneve_opt;
	uint32_t priority;	/* lower first, as rte_flow */
	uint64_t seq;		/* creation order breaks ties */

	enum hwcsum_flow_fate fate;
	uint16_t queue;
	struct hwcsum_flow_rss rss;
	bool mark;
	bool flag;
	uint32_t mark_id;
	bool count;
	uint64_t hits;		/* relaxed atomics: several queues add */
	uint64_t bytes;
};

/* ---------------------------------------------------------- flow_table.c */

struct hwcsum_flow_table;

/*
 * An immutable classifier over n rules: rules with one mask share a hash
 * table on the masked key (tuple space search), so a lookup costs one
 * hash probe per distinct mask, whatever the number of rules. NULL and
 * rte_errno ENOMEM on failure. The rules must outlive the table.
 */
struct hwcsum_flow_table *
hwcsum_flow_table_build(struct hwcsum_flow_rule *const *rules, unsigned int n);
void hwcsum_flow_table_free(struct hwcsum_flow_table *t);
unsigned int hwcsum_flow_table_n_masks(const struct hwcsum_flow_table *t);

/*
 * The rules matching pkt, best first (priority, then creation), at most
 * max of them: the caller applies them up to the first with a fate.
 */
unsigned int hwcsum_flow_table_match(const struct hwcsum_flow_table *t,
				     const struct hwcsum_flow_pkt *pkt,
				     const struct hwcsum_flow_rule **out,
				     unsigned int max);

/* The same answer by trying every rule in order: the reference. */
unsigned int hwcsum_flow_linear_match(struct hwcsum_flow_rule *const *sorted,
				      unsigned int n,
				      const struct hwcsum_flow_pkt *pkt,
				      const struct hwcsum_flow_rule **out,
				      unsigned int max);
/* Sort rules best first, as hwcsum_flow_linear_match() wants them. */
void hwcsum_flow_rules_sort(struct hwcsum_flow_rule **rules, unsigned int n);

/* One rule against one packet (key and GENEVE option). */
bool hwcsum_flow_rule_matches(const struct hwcsum_flow_rule *r,
			      const struct hwcsum_flow_pkt *pkt);

/* ---------------------------------------------------------- flow_apply.c */

#define HWCSUM_FLOW_DROP (-1)

/*
 * Where hwcsum_flow_apply() counts (plain increments: one queue's
 * counters, one writer). The caller points them at its own statistics.
 */
struct hwcsum_flow_counters {
	uint64_t *matched;	/* some rule matched */
	uint64_t *isolated;	/* isolated mode, no rule matched: dropped */
	uint64_t *dropped;	/* a DROP action */
};

/*
 * The rules of t (NULL: none) on one received packet: marks, counts, RSS
 * hash; returns the queue it goes to (queue when no rule decides), or
 * HWCSUM_FLOW_DROP.
 */
int hwcsum_flow_apply(const struct hwcsum_flow_table *t, bool isolated,
		      struct rte_mbuf *m, const struct hwcsum_flow_pkt *fp,
		      uint16_t queue, const struct hwcsum_flow_counters *ctr);

#endif /* HWCSUM_FLOW_H */
