/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hwcsum-bench flow: ns per packet to classify against 1, 16, 256 and 4096
 * rules with lib/flow's tuple-space table (what net_hwcsum's rte_flow runs
 * on) beside a linear scan of the same rules, sorted the same way, in the
 * same run, through lib/flow alone (nothing of ethdev or the driver). Two
 * rule sets: every rule with one mask (a VNI and a UDP port, exact), and
 * rules spread over 8 masks (VNI, ports, addresses, prefixes).
 * Packets: a fixed mix where about half match some rule.
 *
 * The machine is shared: rounds interleave the contenders and keep each
 * one's best. Only the ratios mean anything; nothing here is pass/fail.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "bench.h"
#include "hwcsum_flow.h"

#define N_PKTS 4096
#define MAX_OUT 8

static const unsigned int rule_counts[] = { 1, 16, 256, 4096 };
static const unsigned int mask_counts[] = { 1, 8 };

static uint64_t seed;

static uint32_t
next_rand(void)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(seed >> 33);
}

/* Rule i of a set with n_masks masks: mask i % n_masks, values from i. */
static void
rule_fill(struct hwcsum_flow_rule *r, unsigned int i, unsigned int n_masks)
{
	unsigned int shape = i % n_masks;
	uint32_t v = i / n_masks;
	uint16_t port = rte_cpu_to_be_16((uint16_t)(1024 + v));
	uint32_t ip = rte_cpu_to_be_32(0x0a000000 | v);

	memset(r, 0, sizeof(*r));
	r->mask.layers = r->value.layers = HWCSUM_FL_ETH | HWCSUM_FL_IPV4 |
		HWCSUM_FL_UDP | HWCSUM_FL_TUNNEL;
	r->mask.vni = 0xffffff;
	r->value.vni = v & 0xffffff;
	switch (shape) {
	case 0:	/* VNI + inner destination port */
		r->mask.inner.dst_port = 0xffff;
		r->value.inner.dst_port = port;
		break;
	case 1:	/* VNI + outer source address */
		memset(r->mask.outer.src_ip, 0xff, 4);
		memcpy(r->value.outer.src_ip, &ip, 4);
		break;
	case 2:	/* VNI + inner destination /24 */
		memset(r->mask.inner.dst_ip, 0xff, 3);
		memcpy(r->value.inner.dst_ip, &ip, 3);
		break;
	case 3:	/* VNI only */
		break;
	case 4:	/* VNI + inner source port */
		r->mask.inner.src_port = 0xffff;
		r->value.inner.src_port = port;
		break;
	case 5:	/* VNI + inner protocol */
		r->mask.inner.proto = 0xff;
		r->value.inner.proto = 17;
		r->mask.layers |= HWCSUM_FL_INNER(HWCSUM_FL_IPV4);
		r->value.layers |= HWCSUM_FL_INNER(HWCSUM_FL_IPV4);
		break;
	case 6:	/* VNI + outer destination address */
		memset(r->mask.outer.dst_ip, 0xff, 4);
		memcpy(r->value.outer.dst_ip, &ip, 4);
		break;
	default: /* VNI + tunnel type */
		r->mask.tunnel_type = 0xffffffff;
		r->value.tunnel_type = 1;
		break;
	}
	r->priority = i % 3;
	r->seq = i + 1;
	r->fate = HWCSUM_FLOW_FATE_QUEUE;
}

/* Half the packets aim at a rule's values, half at nothing. */
static void
pkt_fill(struct hwcsum_flow_pkt *p, unsigned int n_rules, unsigned int n_masks)
{
	uint32_t v = next_rand() % (RTE_MAX(n_rules / n_masks, 1u) * 2);
	uint16_t port = rte_cpu_to_be_16((uint16_t)(1024 + v));
	uint32_t ip = rte_cpu_to_be_32(0x0a000000 | v);

	memset(p, 0, sizeof(*p));
	p->key.layers = HWCSUM_FL_ETH | HWCSUM_FL_IPV4 | HWCSUM_FL_UDP |
		HWCSUM_FL_TUNNEL | HWCSUM_FL_INNER(HWCSUM_FL_ETH | HWCSUM_FL_IPV4 |
						   HWCSUM_FL_UDP);
	p->key.tunnel_type = 1;
	p->key.vni = v % 4096;
	p->key.inner.proto = 17;
	p->key.inner.dst_port = port;
	p->key.inner.src_port = port;
	memcpy(p->key.outer.src_ip, &ip, 4);
	memcpy(p->key.outer.dst_ip, &ip, 4);
	memcpy(p->key.inner.dst_ip, &ip, 4);
}

struct result {
	unsigned int rules, masks, matched;
	double table_ns, linear_ns;
};

static volatile unsigned int sink;

static double
time_table(const struct hwcsum_flow_table *t, const struct hwcsum_flow_pkt *pkts,
	   unsigned long n, unsigned int *matched)
{
	const struct hwcsum_flow_rule *out[MAX_OUT];
	unsigned int acc = 0;
	unsigned long i;
	double t0 = bench_now();

	for (i = 0; i < n; i++)
		acc += hwcsum_flow_table_match(t, &pkts[i % N_PKTS], out, MAX_OUT) > 0;
	*matched = acc;
	return (bench_now() - t0) * 1e9 / (double)n;
}

static double
time_linear(struct hwcsum_flow_rule *const *sorted, unsigned int n_rules,
	    const struct hwcsum_flow_pkt *pkts, unsigned long n, unsigned int *matched)
{
	const struct hwcsum_flow_rule *out[MAX_OUT];
	unsigned int acc = 0;
	unsigned long i;
	double t0 = bench_now();

	for (i = 0; i < n; i++)
		acc += hwcsum_flow_linear_match(sorted, n_rules, &pkts[i % N_PKTS],
						out, MAX_OUT) > 0;
	*matched = acc;
	return (bench_now() - t0) * 1e9 / (double)n;
}

static int
run_case(unsigned int n_rules, unsigned int n_masks, unsigned int rounds,
	 unsigned long packets, struct result *res)
{
	struct hwcsum_flow_rule *rules = calloc(n_rules, sizeof(*rules));
	struct hwcsum_flow_rule **v = calloc(n_rules, sizeof(*v));
	struct hwcsum_flow_pkt *pkts = calloc(N_PKTS, sizeof(*pkts));
	struct hwcsum_flow_table *t = NULL;
	unsigned int i, r, m_table = 0, m_linear = 0;
	/* A linear scan of 4096 rules is slow: fewer packets, same ns/packet. */
	unsigned long lin_packets = packets / (n_rules >= 256 ? n_rules / 16 : 1);

	if (rules == NULL || v == NULL || pkts == NULL)
		goto fail;
	for (i = 0; i < n_rules; i++) {
		rule_fill(&rules[i], i, n_masks);
		v[i] = &rules[i];
	}
	seed = 42;
	for (i = 0; i < N_PKTS; i++)
		pkt_fill(&pkts[i], n_rules, n_masks);
	t = hwcsum_flow_table_build(v, n_rules);
	if (t == NULL)
		goto fail;
	hwcsum_flow_rules_sort(v, n_rules);
	res->rules = n_rules;
	res->masks = hwcsum_flow_table_n_masks(t);
	res->table_ns = res->linear_ns = 1e30;
	for (r = 0; r < rounds; r++) {
		double a = time_table(t, pkts, packets, &m_table);
		double b = time_linear(v, n_rules, pkts, RTE_MAX(lin_packets, 4096ul),
				       &m_linear);

		res->table_ns = a < res->table_ns ? a : res->table_ns;
		res->linear_ns = b < res->linear_ns ? b : res->linear_ns;
	}
	/* Same answers, or the comparison means nothing. */
	time_table(t, pkts, N_PKTS, &m_table);
	time_linear(v, n_rules, pkts, N_PKTS, &m_linear);
	res->matched = m_table;
	sink += m_table;
	hwcsum_flow_table_free(t);
	free(rules);
	free(v);
	free(pkts);
	if (m_table != m_linear) {
		fprintf(stderr, "bench flow: %u rules, %u masks: table matched %u packets, linear %u\n",
			n_rules, n_masks, m_table, m_linear);
		return -1;
	}
	return 0;
fail:
	fprintf(stderr, "bench flow: %u rules, %u masks: no memory\n", n_rules, n_masks);
	hwcsum_flow_table_free(t);
	free(rules);
	free(v);
	free(pkts);
	return -1;
}

static void
usage(void)
{
	printf("usage: hwcsum-bench flow [--json PATH] [--rounds N] [--packets N]\n"
	       "  --json PATH    write results there (default build/bench/flow.json)\n"
	       "  --rounds N     rounds per case, best kept (default 5)\n"
	       "  --packets N    classifications per round (default 2000000)\n");
}

static int
bench_flow_main(int argc, char **argv)
{
	struct result res[RTE_DIM(rule_counts) * RTE_DIM(mask_counts)];
	struct bench_opts bo = { "build/bench/flow.json", 5, 2000000 };
	const char *json_path;
	unsigned long packets;
	unsigned int rounds, n = 0, i, j;
	FILE *out;
	int ret;

	ret = bench_parse_opts(argc, argv, &bo, UINT_MAX, usage);
	if (ret >= 0)
		return ret;
	json_path = bo.json;
	rounds = bo.rounds;
	packets = bo.packets;
	printf("rte_flow classification on net_hwcsum: tuple-space table vs linear scan, best of %u rounds\n",
	       rounds);
	printf("%6s %6s %9s %10s %10s %12s\n", "rules", "masks", "matched",
	       "table ns", "linear ns", "linear/table");
	for (j = 0; j < RTE_DIM(mask_counts); j++)
		for (i = 0; i < RTE_DIM(rule_counts); i++, n++) {
			if (run_case(rule_counts[i], mask_counts[j], rounds, packets,
				     &res[n]) != 0)
				return 1;
			printf("%6u %6u %8.0f%% %10.1f %10.1f %11.1fx\n", res[n].rules,
			       res[n].masks, 100.0 * res[n].matched / N_PKTS,
			       res[n].table_ns, res[n].linear_ns,
			       res[n].linear_ns / res[n].table_ns);
			fflush(stdout);
		}
	out = bench_json_open("flow", json_path);
	if (out == NULL)
		return 1;
	fprintf(out, "{\n  \"bench\": \"flow\",\n  \"unit\": \"ns/packet\",\n"
		"  \"packets_per_round\": %lu,\n  \"rounds\": %u,\n  \"cases\": [\n",
		packets, rounds);
	for (i = 0; i < n; i++)
		fprintf(out, "    {\"rules\": %u, \"masks\": %u, \"matched_share\": %.3f, \"table\": %.2f, \"linear\": %.2f, \"linear_over_table\": %.2f}%s\n",
			res[i].rules, res[i].masks, (double)res[i].matched / N_PKTS,
			res[i].table_ns, res[i].linear_ns,
			res[i].linear_ns / res[i].table_ns, i + 1 < n ? "," : "");
	return bench_json_close("flow", out, json_path);
}

BENCH_REGISTER(flow,
	       "rte_flow classification: tuple-space table vs linear scan, 1-4096 rules",
	       bench_flow_main)
