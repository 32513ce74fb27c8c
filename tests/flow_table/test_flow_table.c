/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tuple-space classifier (lib/flow/flow_table.c) against the linear scan
 * of the same rules: random masks drawn from a pool (so the number of
 * distinct masks is controlled), random values and packets from small
 * domains (so rules overlap and most packets match several), priorities,
 * PASSTHRU chains and GENEVE options. Every packet must get the same rules
 * in the same order from both. Also: a 257th mask is refused with E2BIG.
 *
 * usage: test_flow_table [seed]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>

#include "hwcsum_flow.h"

#define MAX_OUT 8

static uint64_t rng_state;

static uint32_t
rnd(uint32_t n)
{
	/* xorshift64*: reproducible from the seed on every libc. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ull) >> 33) % n;
}

/* The fields a mask may cover, each with a full and a partial mask. */
enum field { F_DPORT, F_SPORT, F_SRC, F_DST, F_PROTO, F_VNI, F_TTYPE,
	     F_IN_DST, F_IN_DPORT, F_VLAN, F__COUNT };

static void
set_field(struct hwcsum_flow_key *k, enum field f, uint32_t v)
{
	uint16_t v16 = (uint16_t)v;

	switch (f) {
	case F_DPORT: memcpy(&k->outer.dst_port, &v16, 2); break;
	case F_SPORT: memcpy(&k->outer.src_port, &v16, 2); break;
	case F_SRC: memcpy(k->outer.src_ip, &v, 4); break;
	case F_DST: memcpy(k->outer.dst_ip, &v, 4); break;
	case F_PROTO: k->outer.proto = (uint8_t)v; break;
	case F_VNI: k->vni = v & 0xffffff; break;
	case F_TTYPE: k->tunnel_type = v; break;
	case F_IN_DST: memcpy(k->inner.dst_ip, &v, 4); break;
	case F_IN_DPORT: memcpy(&k->inner.dst_port, &v16, 2); break;
	case F_VLAN: k->outer.vlan_tci = v16; break;
	default: break;
	}
}

/* Small domains: packets and rules collide often. */
static uint32_t
field_value(enum field f)
{
	static const uint32_t ports[] = { 53, 80, 4789, 6081, 0x1234 };

	switch (f) {
	case F_DPORT: case F_SPORT: case F_IN_DPORT:
		return ports[rnd(RTE_DIM(ports))];
	case F_SRC: case F_DST: case F_IN_DST:
		return 0x0a000000u | rnd(4) | rnd(2) << 8;
	case F_PROTO: return rnd(2) ? 17 : 6;
	case F_VNI: return rnd(3);
	case F_TTYPE: return 1u << rnd(2);
	case F_VLAN: return rnd(3);
	default: return 0;
	}
}

static uint32_t
field_mask(enum field f, bool partial)
{
	switch (f) {
	case F_DPORT: case F_SPORT: case F_IN_DPORT: case F_VLAN:
		return partial ? 0x00ff : 0xffff;
	case F_SRC: case F_DST: case F_IN_DST:
		return partial ? 0x00ffffffu : 0xffffffffu;
	case F_PROTO: return 0xff;
	case F_VNI: return partial ? 0xff : 0xffffff;
	case F_TTYPE: return 0xffffffffu;
	default: return 0;
	}
}

struct mask_proto {
	uint32_t layers;
	uint32_t fields;	/* bit per enum field */
	uint32_t partial;	/* bit per field: partial mask */
};

static void
mask_pool(struct mask_proto *pool, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		/* Distinct by construction (i < 512): i's bits choose the fields. */
		pool[i].fields = (i & 0x1ff) << 1 | 1u << F_DPORT;
		pool[i].partial = i & 1 ? 1u << F_DPORT : 0;
		pool[i].layers = HWCSUM_FL_ETH | HWCSUM_FL_IPV4 | HWCSUM_FL_UDP;
		for (j = 0; j < F__COUNT; j++)
			if ((pool[i].fields >> j & 1) && (j == F_VNI || j == F_TTYPE ||
							   j == F_IN_DST || j == F_IN_DPORT))
				pool[i].layers |= HWCSUM_FL_TUNNEL;
	}
}

static void
make_rule(struct hwcsum_flow_rule *r, const struct mask_proto *mp, uint64_t seq)
{
	unsigned int j;

	memset(r, 0, sizeof(*r));
	r->mask.layers = mp->layers;
	r->value.layers = mp->layers;
	for (j = 0; j < F__COUNT; j++) {
		struct hwcsum_flow_key m, v;
		unsigned int w;

		if (!(mp->fields >> j & 1))
			continue;
		/* memset, not = { 0 }: the key's tail padding is compared too. */
		memset(&m, 0, sizeof(m));
		memset(&v, 0, sizeof(v));
		set_field(&m, j, field_mask(j, mp->partial >> j & 1));
		set_field(&v, j, field_value(j));
		for (w = 0; w < HWCSUM_FLOW_KEY_WORDS; w++) {
			((uint64_t *)&r->mask)[w] |= ((uint64_t *)&m)[w];
			((uint64_t *)&r->value)[w] |=
				((uint64_t *)&v)[w] & ((uint64_t *)&m)[w];
		}
	}
	r->priority = rnd(4);
	r->seq = seq;
	r->fate = rnd(5) == 0 ? HWCSUM_FLOW_FATE_NONE :
		rnd(2) ? HWCSUM_FLOW_FATE_QUEUE : HWCSUM_FLOW_FATE_DROP;
	if (rnd(6) == 0) {
		r->geneve_opt.on = true;
		r->geneve_opt.opt_class = rte_cpu_to_be_16(0x0102);
		r->geneve_opt.class_mask = 0xffff;
		r->geneve_opt.type = (uint8_t)rnd(2);
		r->geneve_opt.type_mask = 0xff;
		r->geneve_opt.n_words = 1;
		r->geneve_opt.data[0] = rnd(2);
		r->geneve_opt.data_mask[0] = 0xffffffff;
	}
}

/* A GENEVE header with one option (class 0x0102, type and data random). */
static void
make_pkt(struct hwcsum_flow_pkt *p, uint8_t *hdr)
{
	unsigned int j;
	uint32_t d = rnd(2);

	memset(p, 0, sizeof(*p));
	p->key.layers = HWCSUM_FL_ETH | HWCSUM_FL_IPV4 |
		(rnd(8) ? HWCSUM_FL_UDP : HWCSUM_FL_TCP) |
		(rnd(3) ? HWCSUM_FL_TUNNEL : 0);
	for (j = 0; j < F__COUNT; j++)
		set_field(&p->key, j, field_value(j));
	memset(hdr, 0, 16);
	hdr[0] = 2;		/* 2 words of options */
	hdr[8] = 0x01;
	hdr[9] = 0x02;
	hdr[10] = (uint8_t)rnd(2);
	hdr[11] = 1;
	memcpy(hdr + 12, &d, 4);
	p->tunnel_hdr = hdr;
	p->tunnel_hdr_len = rnd(10) ? 16 : 8;	/* sometimes truncated */
}

static unsigned int failures;

static void
compare(unsigned int n_rules, unsigned int n_masks, unsigned int n_pkts)
{
	struct mask_proto *pool = calloc(n_masks, sizeof(*pool));
	struct hwcsum_flow_rule *rules = calloc(n_rules, sizeof(*rules));
	struct hwcsum_flow_rule **ptrs = calloc(n_rules, sizeof(*ptrs));
	struct hwcsum_flow_table *t;
	unsigned int i, matched = 0, chained = 0, bad = 0;

	if (pool == NULL || rules == NULL || ptrs == NULL) {
		fprintf(stderr, "FAIL: no memory\n");
		exit(1);
	}
	mask_pool(pool, n_masks);
	for (i = 0; i < n_rules; i++) {
		make_rule(&rules[i], &pool[i % n_masks], i + 1);
		ptrs[i] = &rules[i];
	}
	t = hwcsum_flow_table_build(ptrs, n_rules);
	if (t == NULL) {
		printf("FAIL: %u rules, %u masks: build: %s\n", n_rules, n_masks,
		       strerror(rte_errno));
		failures++;
		goto out;
	}
	if (hwcsum_flow_table_n_masks(t) != RTE_MIN(n_masks, n_rules)) {
		printf("FAIL: %u masks counted, %u made\n",
		       hwcsum_flow_table_n_masks(t), RTE_MIN(n_masks, n_rules));
		failures++;
	}
	hwcsum_flow_rules_sort(ptrs, n_rules);
	for (i = 0; i < n_pkts; i++) {
		const struct hwcsum_flow_rule *a[MAX_OUT], *b[MAX_OUT];
		struct hwcsum_flow_pkt p;
		uint8_t hdr[16];
		unsigned int na, nb;

		make_pkt(&p, hdr);
		na = hwcsum_flow_table_match(t, &p, a, MAX_OUT);
		nb = hwcsum_flow_linear_match(ptrs, n_rules, &p, b, MAX_OUT);
		matched += nb > 0;
		chained += nb > 1;
		if (na == nb && memcmp(a, b, na * sizeof(a[0])) == 0)
			continue;
		if (bad++ < 3)
			printf("FAIL: %u rules, %u masks, packet %u: table gave %u rules (first seq %" PRIu64 "), linear %u (first seq %" PRIu64 ")\n",
			       n_rules, n_masks, i, na, na ? a[0]->seq : 0, nb,
			       nb ? b[0]->seq : 0);
	}
	failures += bad;
	printf("%s: %4u rules, %3u masks: %u packets, %u matched, %u through PASSTHRU chains, %u disagreements\n",
	       bad ? "FAIL" : "ok", n_rules, n_masks, n_pkts, matched, chained, bad);
	hwcsum_flow_table_free(t);
out:
	free(pool);
	free(rules);
	free(ptrs);
}

static void
too_many_masks(void)
{
	unsigned int n = 257, i;
	struct mask_proto *pool = calloc(n, sizeof(*pool));
	struct hwcsum_flow_rule *rules = calloc(n, sizeof(*rules));
	struct hwcsum_flow_rule **ptrs = calloc(n, sizeof(*ptrs));
	struct hwcsum_flow_table *t;

	mask_pool(pool, n);
	for (i = 0; i < n; i++) {
		make_rule(&rules[i], &pool[i], i + 1);
		ptrs[i] = &rules[i];
	}
	rte_errno = 0;
	t = hwcsum_flow_table_build(ptrs, n);
	if (t == NULL && rte_errno == E2BIG) {
		printf("ok: 257 distinct masks refused with E2BIG\n");
	} else {
		printf("FAIL: 257 masks: table %p, rte_errno %d\n", (void *)t, rte_errno);
		failures++;
		hwcsum_flow_table_free(t);
	}
	free(pool);
	free(rules);
	free(ptrs);
}

int
main(int argc, char **argv)
{
	static const unsigned int shapes[][3] = {
		{ 1, 1, 20000 }, { 16, 1, 20000 }, { 16, 16, 20000 },
		{ 256, 8, 20000 }, { 256, 64, 20000 }, { 4096, 8, 5000 },
		{ 4096, 256, 2000 }, { 600, 3, 20000 },
	};
	unsigned int i;

	rng_state = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	if (rng_state == 0)
		rng_state = 1;
	printf("seed %s\n", argc > 1 ? argv[1] : "1");
	for (i = 0; i < RTE_DIM(shapes); i++)
		compare(shapes[i][0], shapes[i][1], shapes[i][2]);
	too_many_masks();
	if (hwcsum_flow_table_match(NULL, NULL, NULL, 0) != 0) {
		printf("FAIL: an empty table matched\n");
		failures++;
	}
	printf("%u failure(s)\n", failures);
	return failures ? 1 : 0;
}
