/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What matched rules do to a received packet: COUNT, MARK/FLAG (the FDIR
 * flags testpmd and applications read), then the fate: the queue it is
 * delivered on, a Toeplitz RSS hash over the outer or the tunnel's inner
 * addresses and ports (any tunnel type, since the key holds what the
 * type's parser found), or DROP. Delivering to another queue is the
 * caller's business.
 */
#include <stdbool.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_thash.h>

#include "hwcsum_flow.h"

static inline uint32_t
load_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t
rss_hash(const struct hwcsum_flow_rss *rss, const struct hwcsum_flow_key *k)
{
	bool inner = rss->level >= 2 && (k->layers & HWCSUM_FL_TUNNEL) &&
		(k->layers & HWCSUM_FL_INNER(HWCSUM_FL_IPV4 | HWCSUM_FL_IPV6));
	const struct hwcsum_flow_hdrs *h = inner ? &k->inner : &k->outer;
	uint32_t layers = inner ? k->layers >> HWCSUM_FL_INNER_SHIFT : k->layers;
	uint32_t tuple[9];
	uint64_t l4_type, l3_type;
	unsigned int n = 0, i, addr_words;

	if (layers & HWCSUM_FL_IPV4) {
		addr_words = 1;
		l3_type = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 |
			RTE_ETH_RSS_NONFRAG_IPV4_OTHER;
		l4_type = (layers & HWCSUM_FL_UDP) ? RTE_ETH_RSS_NONFRAG_IPV4_UDP :
			(layers & HWCSUM_FL_TCP) ? RTE_ETH_RSS_NONFRAG_IPV4_TCP : 0;
	} else if (layers & HWCSUM_FL_IPV6) {
		addr_words = 4;
		l3_type = RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 |
			RTE_ETH_RSS_NONFRAG_IPV6_OTHER | RTE_ETH_RSS_IPV6_EX;
		l4_type = (layers & HWCSUM_FL_UDP) ? (RTE_ETH_RSS_NONFRAG_IPV6_UDP |
						      RTE_ETH_RSS_IPV6_UDP_EX) :
			(layers & HWCSUM_FL_TCP) ? (RTE_ETH_RSS_NONFRAG_IPV6_TCP |
						    RTE_ETH_RSS_IPV6_TCP_EX) : 0;
	} else {
		return 0;
	}
	if (!(rss->types & (l3_type | l4_type)))
		return 0;
	/*
	 * rte_softrss() wants host-order words: addresses, then the ports.
	 * The addresses sit at 2-byte alignment in the key: copy, not cast.
	 */
	for (i = 0; i < addr_words; i++)
		tuple[n++] = rte_be_to_cpu_32(load_u32(h->src_ip + 4 * i));
	for (i = 0; i < addr_words; i++)
		tuple[n++] = rte_be_to_cpu_32(load_u32(h->dst_ip + 4 * i));
	if (rss->types & l4_type)
		tuple[n++] = (uint32_t)rte_be_to_cpu_16(h->src_port) << 16 |
			rte_be_to_cpu_16(h->dst_port);
	return rte_softrss(tuple, n, rss->key);
}

int
hwcsum_flow_apply(const struct hwcsum_flow_table *t, bool isolated,
		  struct rte_mbuf *m, const struct hwcsum_flow_pkt *fp,
		  uint16_t queue, const struct hwcsum_flow_counters *ctr)
{
	const struct hwcsum_flow_rule *hit[8];
	unsigned int n, i;
	uint32_t h;

	n = hwcsum_flow_table_match(t, fp, hit, RTE_DIM(hit));
	if (n == 0) {
		if (!isolated)
			return queue;
		(*ctr->isolated)++;
		return HWCSUM_FLOW_DROP;
	}
	(*ctr->matched)++;
	for (i = 0; i < n; i++) {
		const struct hwcsum_flow_rule *r = hit[i];

		if (r->count) {
			/* The rule is immutable but for its counters. */
			__atomic_fetch_add((uint64_t *)&r->hits, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add((uint64_t *)&r->bytes, m->pkt_len,
					   __ATOMIC_RELAXED);
		}
		if (r->mark) {
			m->ol_flags |= RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID;
			m->hash.fdir.hi = r->mark_id;
		} else if (r->flag) {
			m->ol_flags |= RTE_MBUF_F_RX_FDIR;
		}
		switch (r->fate) {
		case HWCSUM_FLOW_FATE_NONE:
			continue;
		case HWCSUM_FLOW_FATE_QUEUE:
			return r->queue;
		case HWCSUM_FLOW_FATE_RSS:
			h = rss_hash(&r->rss, &fp->key);
			m->hash.rss = h;
			m->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
			return r->rss.reta[h % HWCSUM_FLOW_RETA_SIZE];
		case HWCSUM_FLOW_FATE_DROP:
			(*ctr->dropped)++;
			return HWCSUM_FLOW_DROP;
		}
	}
	return queue;
}
