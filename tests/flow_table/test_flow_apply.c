/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/flow's apply step on its own: the RSS hash it writes is judged by
 * Microsoft's published Toeplitz verification vectors ("Verifying the RSS
 * Hash Calculation": the 40-byte key and the IPv4 / IPv4+TCP hashes of
 * five flows), taken from the outer headers (level 0) and from a tunnel's
 * inner headers (level 2) with garbage in the other level; the queue is
 * the indirection table's entry for that hash. Then MARK, COUNT, DROP,
 * PASSTHRU and isolated mode, with the counters they bump.
 * No EAL: the mbuf is a zeroed struct.
 */
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "hwcsum_flow.h"

static const uint8_t ms_key[HWCSUM_FLOW_RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static const struct {
	uint8_t src[4], dst[4];
	uint16_t sport, dport;
	uint32_t ip_only, ip_tcp;
} ms_v4[] = {
	{ { 66, 9, 149, 187 }, { 161, 142, 100, 80 }, 2794, 1766,
	  0x323e8fc2, 0x51ccc178 },
	{ { 199, 92, 111, 2 }, { 65, 69, 140, 83 }, 14230, 4739,
	  0xd718262a, 0xc626b0ea },
	{ { 24, 19, 198, 95 }, { 12, 22, 207, 184 }, 12898, 38024,
	  0xd2d0a5de, 0x5c2b394a },
	{ { 38, 27, 205, 30 }, { 209, 142, 163, 6 }, 48228, 2217,
	  0x82989176, 0xafc7327f },
	{ { 153, 39, 163, 191 }, { 202, 188, 127, 2 }, 44251, 1303,
	  0x5d1809c5, 0x10e828a2 },
};

static unsigned int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		failures++; \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

static void
set_v4(struct hwcsum_flow_hdrs *h, const uint8_t *src, const uint8_t *dst,
       uint16_t sport, uint16_t dport)
{
	memcpy(h->src_ip, src, 4);
	memcpy(h->dst_ip, dst, 4);
	h->proto = 6;
	h->src_port = rte_cpu_to_be_16(sport);
	h->dst_port = rte_cpu_to_be_16(dport);
}

/* A VXLAN packet: the vector's flow in `level`'s headers, another flow in the other. */
static void
make_pkt(struct hwcsum_flow_pkt *fp, unsigned int i, bool inner)
{
	static const uint8_t other_a[4] = { 10, 0, 0, 1 }, other_b[4] = { 10, 0, 0, 2 };
	struct hwcsum_flow_hdrs *v = inner ? &fp->key.inner : &fp->key.outer;
	struct hwcsum_flow_hdrs *o = inner ? &fp->key.outer : &fp->key.inner;
	uint32_t l = HWCSUM_FL_ETH | HWCSUM_FL_IPV4 | HWCSUM_FL_TCP;

	memset(fp, 0, sizeof(*fp));
	set_v4(v, ms_v4[i].src, ms_v4[i].dst, ms_v4[i].sport, ms_v4[i].dport);
	set_v4(o, other_a, other_b, 1000 + i, 4789);
	fp->key.layers = l | HWCSUM_FL_TUNNEL | HWCSUM_FL_INNER(l);
	fp->key.tunnel_type = 1;
	fp->key.vni = 42;
}

static struct hwcsum_flow_rule *
rule_at(struct hwcsum_flow_rule *r, uint32_t priority, uint64_t seq)
{
	memset(r, 0, sizeof(*r));
	r->priority = priority;
	r->seq = seq;
	return r;
}

static struct hwcsum_flow_table *
table_of(struct hwcsum_flow_rule **rules, unsigned int n)
{
	struct hwcsum_flow_table *t = hwcsum_flow_table_build(rules, n);

	if (t == NULL) {
		fprintf(stderr, "FAIL: hwcsum_flow_table_build\n");
		failures++;
	}
	return t;
}

static void
test_rss(void)
{
	struct hwcsum_flow_rule rule, *rp = &rule;
	uint64_t matched = 0, isolated = 0, dropped = 0;
	struct hwcsum_flow_counters ctr = { &matched, &isolated, &dropped };
	struct hwcsum_flow_table *t;
	unsigned int i, level, types, j;

	rule_at(&rule, 0, 1);	/* empty mask: every packet */
	rule.fate = HWCSUM_FLOW_FATE_RSS;
	memcpy(rule.rss.key, ms_key, sizeof(ms_key));
	rule.rss.n_queues = 3;
	for (j = 0; j < HWCSUM_FLOW_RETA_SIZE; j++)
		rule.rss.reta[j] = (uint16_t)(j % 3);
	for (level = 0; level <= 2; level += 2) {
		for (types = 0; types < 2; types++) {
			rule.rss.level = level;
			rule.rss.types = types ? RTE_ETH_RSS_IPV4 |
				RTE_ETH_RSS_NONFRAG_IPV4_TCP : RTE_ETH_RSS_IPV4;
			t = table_of(&rp, 1);
			if (t == NULL)
				return;
			for (i = 0; i < RTE_DIM(ms_v4); i++) {
				struct hwcsum_flow_pkt fp;
				struct rte_mbuf m;
				uint32_t want = types ? ms_v4[i].ip_tcp : ms_v4[i].ip_only;
				int q;

				memset(&m, 0, sizeof(m));
				make_pkt(&fp, i, level == 2);
				q = hwcsum_flow_apply(t, false, &m, &fp, 0, &ctr);
				CHECK(m.hash.rss == want,
				      "level %u %s, vector %u: hash %#x, want %#x",
				      level, types ? "ipv4-tcp" : "ipv4", i,
				      m.hash.rss, want);
				CHECK(m.ol_flags & RTE_MBUF_F_RX_RSS_HASH,
				      "vector %u: no RSS_HASH flag", i);
				CHECK(q == (int)(want % HWCSUM_FLOW_RETA_SIZE % 3),
				      "vector %u: queue %d, want %u", i, q,
				      want % HWCSUM_FLOW_RETA_SIZE % 3);
			}
			hwcsum_flow_table_free(t);
		}
	}
	CHECK(matched == 4 * RTE_DIM(ms_v4) && isolated == 0 && dropped == 0,
	      "counters matched %lu isolated %lu dropped %lu",
	      (unsigned long)matched, (unsigned long)isolated,
	      (unsigned long)dropped);
}

/* MARK+COUNT PASSTHRU, then DROP for VNI 42 only; isolated mode. */
static void
test_actions(void)
{
	struct hwcsum_flow_rule mark, drop, *rules[2] = { &mark, &drop };
	uint64_t matched = 0, isolated = 0, dropped = 0;
	struct hwcsum_flow_counters ctr = { &matched, &isolated, &dropped };
	struct hwcsum_flow_table *t;
	struct hwcsum_flow_pkt fp;
	struct rte_mbuf m;
	int q;

	rule_at(&mark, 0, 1);
	mark.mark = true;
	mark.mark_id = 0xabc;
	mark.count = true;
	rule_at(&drop, 1, 2);
	drop.fate = HWCSUM_FLOW_FATE_DROP;
	drop.mask.vni = UINT32_MAX;
	drop.value.vni = 42;
	t = table_of(rules, 2);
	if (t == NULL)
		return;

	memset(&m, 0, sizeof(m));
	m.pkt_len = 100;
	make_pkt(&fp, 0, false);
	q = hwcsum_flow_apply(t, false, &m, &fp, 5, &ctr);
	CHECK(q == HWCSUM_FLOW_DROP, "VNI 42: queue %d, want DROP", q);
	CHECK((m.ol_flags & (RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID)) ==
	      (RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID) &&
	      m.hash.fdir.hi == 0xabc, "MARK before the DROP not applied");

	memset(&m, 0, sizeof(m));
	m.pkt_len = 60;
	fp.key.vni = 7;
	q = hwcsum_flow_apply(t, false, &m, &fp, 5, &ctr);
	CHECK(q == 5, "VNI 7: queue %d, want the receiving queue 5", q);
	CHECK(mark.hits == 2 && mark.bytes == 160,
	      "COUNT: %lu hits %lu bytes, want 2 and 160",
	      (unsigned long)mark.hits, (unsigned long)mark.bytes);
	CHECK(matched == 2 && dropped == 1 && isolated == 0,
	      "counters matched %lu dropped %lu isolated %lu",
	      (unsigned long)matched, (unsigned long)dropped,
	      (unsigned long)isolated);
	hwcsum_flow_table_free(t);

	/* No rules: delivered, unless the port is isolated. */
	memset(&m, 0, sizeof(m));
	q = hwcsum_flow_apply(NULL, false, &m, &fp, 3, &ctr);
	CHECK(q == 3 && m.ol_flags == 0, "no rules: queue %d", q);
	q = hwcsum_flow_apply(NULL, true, &m, &fp, 3, &ctr);
	CHECK(q == HWCSUM_FLOW_DROP && isolated == 1,
	      "isolated, no rule: queue %d, isolated %lu", q,
	      (unsigned long)isolated);
}

int
main(void)
{
	test_rss();
	test_actions();
	if (failures != 0) {
		fprintf(stderr, "%u failures\n", failures);
		return 1;
	}
	printf("flow apply: Microsoft RSS vectors (outer, inner), actions, counters: ok\n");
	return 0;
}
