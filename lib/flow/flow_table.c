/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive classifier: tuple space search, as Open vSwitch's megaflow
 * cache does it. Rules are grouped by mask; each group is an open-
 * addressed hash table on the masked key whose slots hold the run of rules
 * with that key, best first. A lookup masks the packet's key once per
 * group (16 ANDs), hashes it with the CPU's CRC32 and probes: the cost
 * grows with the number of distinct masks, not with the number of rules.
 * Groups are visited best priority first, and once a rule with a fate has
 * matched, groups that cannot beat it are skipped.
 *
 * Tables are immutable: the control path builds a new one for every
 * change and publishes it (hwcsum_flow.c), so readers need no lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_hash_crc.h>

#include "hwcsum_flow.h"

/* A run of rules with one masked key: rules[first .. first + n). */
struct ft_slot {
	uint32_t hash;
	uint32_t first;
	uint32_t n;		/* 0: empty slot */
};

struct ft_group {
	struct hwcsum_flow_key mask;
	uint32_t best_priority;
	uint32_t slot_mask;
	struct ft_slot *slots;
};

struct hwcsum_flow_table {
	unsigned int n_groups;
	struct ft_group *groups;	/* best priority first */
	const struct hwcsum_flow_rule **rules;
};

/* At most one run per group can match: chains merged by the lookup. */
#define FT_MAX_GROUPS 256

static inline void
key_and(const struct hwcsum_flow_key *k, const struct hwcsum_flow_key *m,
	struct hwcsum_flow_key *out)
{
	const uint64_t *a = (const uint64_t *)k, *b = (const uint64_t *)m;
	uint64_t *o = (uint64_t *)out;
	unsigned int i;

	for (i = 0; i < HWCSUM_FLOW_KEY_WORDS; i++)
		o[i] = a[i] & b[i];
}

static inline bool
key_masked_eq(const struct hwcsum_flow_key *k, const struct hwcsum_flow_key *m,
	      const struct hwcsum_flow_key *v)
{
	const uint64_t *a = (const uint64_t *)k, *b = (const uint64_t *)m,
		*c = (const uint64_t *)v;
	uint64_t d = 0;
	unsigned int i;

	for (i = 0; i < HWCSUM_FLOW_KEY_WORDS; i++)
		d |= (a[i] & b[i]) ^ c[i];
	return d == 0;
}

static inline uint32_t
key_hash(const struct hwcsum_flow_key *k)
{
	return rte_hash_crc(k, sizeof(*k), 0x9e3779b9);
}

/* GENEVE: 8-byte header, options of (class, type, length in words, data). */
static bool
geneve_opt_found(const struct hwcsum_flow_geneve_opt *o, const uint8_t *h,
		 uint32_t len)
{
	uint32_t off = 8, end;

	if (len < 8)
		return false;
	end = 8 + (uint32_t)(h[0] & 0x3f) * 4;
	if (end > len)
		return false;
	while (off + 4 <= end) {
		uint16_t cls = (uint16_t)(h[off] << 8 | h[off + 1]);
		uint8_t type = h[off + 2];
		uint32_t words = h[off + 3] & 0x1f;
		unsigned int i;
		bool eq;

		if (off + 4 + words * 4 > end)
			return false;
		eq = (cls & rte_be_to_cpu_16(o->class_mask)) ==
			rte_be_to_cpu_16(o->opt_class) &&
			(type & o->type_mask) == o->type && words >= o->n_words;
		for (i = 0; eq && i < o->n_words; i++) {
			uint32_t w;

			memcpy(&w, h + off + 4 + 4 * i, 4);
			eq = (w & o->data_mask[i]) == o->data[i];
		}
		if (eq)
			return true;
		off += 4 + words * 4;
	}
	return false;
}

bool
hwcsum_flow_rule_matches(const struct hwcsum_flow_rule *r,
			 const struct hwcsum_flow_pkt *pkt)
{
	if (!key_masked_eq(&pkt->key, &r->mask, &r->value))
		return false;
	return !r->geneve_opt.on ||
		geneve_opt_found(&r->geneve_opt, pkt->tunnel_hdr,
				 pkt->tunnel_hdr_len);
}

static int
rule_order(const struct hwcsum_flow_rule *a, const struct hwcsum_flow_rule *b)
{
	if (a->priority != b->priority)
		return a->priority < b->priority ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int
cmp_best_first(const void *pa, const void *pb)
{
	return rule_order(*(const struct hwcsum_flow_rule *const *)pa,
			  *(const struct hwcsum_flow_rule *const *)pb);
}

void
hwcsum_flow_rules_sort(struct hwcsum_flow_rule **rules, unsigned int n)
{
	qsort(rules, n, sizeof(*rules), cmp_best_first);
}

/* Build order: by mask, then masked key, then best first. */
static int
cmp_build(const void *pa, const void *pb)
{
	const struct hwcsum_flow_rule *a = *(const struct hwcsum_flow_rule *const *)pa;
	const struct hwcsum_flow_rule *b = *(const struct hwcsum_flow_rule *const *)pb;
	int c = memcmp(&a->mask, &b->mask, sizeof(a->mask));

	if (c == 0)
		c = memcmp(&a->value, &b->value, sizeof(a->value));
	return c != 0 ? c : rule_order(a, b);
}

static int
cmp_group(const void *pa, const void *pb)
{
	const struct ft_group *a = pa, *b = pb;

	return a->best_priority < b->best_priority ? -1 :
		a->best_priority > b->best_priority;
}

void
hwcsum_flow_table_free(struct hwcsum_flow_table *t)
{
	unsigned int g;

	if (t == NULL)
		return;
	for (g = 0; g < t->n_groups; g++)
		free(t->groups[g].slots);
	free(t->groups);
	free(t->rules);
	free(t);
}

static void
slot_insert(struct ft_group *g, const struct hwcsum_flow_rule *const *rules,
	    uint32_t first, uint32_t n)
{
	uint32_t h = key_hash(&rules[first]->value), i = h & g->slot_mask;

	while (g->slots[i].n != 0)
		i = (i + 1) & g->slot_mask;
	g->slots[i] = (struct ft_slot){ .hash = h, .first = first, .n = n };
}

/* Slots for the runs of rules[lo, hi), all of one mask. */
static int
group_fill(struct ft_group *g, const struct hwcsum_flow_rule **rules,
	   uint32_t lo, uint32_t hi)
{
	uint32_t runs = 0, size = 2, i, start;

	for (i = lo; i < hi; i++)
		if (i == lo || memcmp(&rules[i]->value, &rules[i - 1]->value,
				      sizeof(rules[i]->value)) != 0)
			runs++;
	while (size < 2 * runs)
		size <<= 1;
	g->slots = calloc(size, sizeof(*g->slots));
	if (g->slots == NULL)
		return -ENOMEM;
	g->slot_mask = size - 1;
	g->mask = rules[lo]->mask;
	g->best_priority = UINT32_MAX;
	for (start = lo, i = lo; i <= hi; i++) {
		if (i < hi && rules[i]->priority < g->best_priority)
			g->best_priority = rules[i]->priority;
		if (i > lo && (i == hi || memcmp(&rules[i]->value,
				&rules[i - 1]->value, sizeof(rules[i]->value)) != 0)) {
			slot_insert(g, rules, start, i - start);
			start = i;
		}
	}
	return 0;
}

struct hwcsum_flow_table *
hwcsum_flow_table_build(struct hwcsum_flow_rule *const *rules, unsigned int n)
{
	struct hwcsum_flow_table *t = calloc(1, sizeof(*t));
	unsigned int i, lo, n_groups = 0;

	if (t == NULL)
		goto nomem;
	t->rules = calloc(n + 1, sizeof(*t->rules));
	if (t->rules == NULL)
		goto nomem;
	memcpy(t->rules, rules, n * sizeof(*rules));
	qsort(t->rules, n, sizeof(*t->rules), cmp_build);
	for (i = 0; i < n; i++)
		if (i == 0 || memcmp(&t->rules[i]->mask, &t->rules[i - 1]->mask,
				     sizeof(t->rules[i]->mask)) != 0)
			n_groups++;
	if (n_groups > FT_MAX_GROUPS) {
		hwcsum_flow_table_free(t);
		rte_errno = E2BIG;
		return NULL;
	}
	t->groups = calloc(n_groups + 1, sizeof(*t->groups));
	if (t->groups == NULL)
		goto nomem;
	for (lo = 0, i = 1; i <= n; i++) {
		if (i < n && memcmp(&t->rules[i]->mask, &t->rules[lo]->mask,
				    sizeof(t->rules[i]->mask)) == 0)
			continue;
		if (group_fill(&t->groups[t->n_groups++], t->rules, lo, i) != 0)
			goto nomem;
		lo = i;
	}
	qsort(t->groups, t->n_groups, sizeof(*t->groups), cmp_group);
	return t;
nomem:
	hwcsum_flow_table_free(t);
	rte_errno = ENOMEM;
	return NULL;
}

unsigned int
hwcsum_flow_table_n_masks(const struct hwcsum_flow_table *t)
{
	return t != NULL ? t->n_groups : 0;
}

/* The run of g with pkt's masked key, or NULL. */
static const struct ft_slot *
group_probe(const struct ft_group *g, const struct hwcsum_flow_rule **rules,
	    const struct hwcsum_flow_key *key)
{
	struct hwcsum_flow_key mk;
	uint32_t h, i;

	key_and(key, &g->mask, &mk);
	h = key_hash(&mk);
	for (i = h & g->slot_mask; g->slots[i].n != 0; i = (i + 1) & g->slot_mask)
		if (g->slots[i].hash == h &&
		    memcmp(&rules[g->slots[i].first]->value, &mk, sizeof(mk)) == 0)
			return &g->slots[i];
	return NULL;
}

unsigned int
hwcsum_flow_table_match(const struct hwcsum_flow_table *t,
			const struct hwcsum_flow_pkt *pkt,
			const struct hwcsum_flow_rule **out, unsigned int max)
{
	uint32_t pos[FT_MAX_GROUPS], end[FT_MAX_GROUPS];
	uint32_t fate_priority = UINT32_MAX;
	unsigned int g, n_runs = 0, n_out = 0;

	if (t == NULL)
		return 0;
	for (g = 0; g < t->n_groups; g++) {
		const struct ft_group *grp = &t->groups[g];
		const struct ft_slot *s;
		uint32_t i;

		if (grp->best_priority > fate_priority)
			break;
		s = group_probe(grp, t->rules, &pkt->key);
		if (s == NULL)
			continue;
		pos[n_runs] = s->first;
		end[n_runs++] = s->first + s->n;
		/*
		 * The best rule here that has a fate and really matches (its
		 * GENEVE option too) bounds the groups still worth a probe.
		 */
		for (i = s->first; i < s->first + s->n; i++) {
			const struct hwcsum_flow_rule *r = t->rules[i];

			if (r->fate == HWCSUM_FLOW_FATE_NONE ||
			    (r->geneve_opt.on &&
			     !geneve_opt_found(&r->geneve_opt, pkt->tunnel_hdr,
					       pkt->tunnel_hdr_len)))
				continue;
			if (r->priority < fate_priority)
				fate_priority = r->priority;
			break;
		}
	}
	/* Merge the runs best first, up to the first rule with a fate. */
	while (n_out < max) {
		const struct hwcsum_flow_rule *best = NULL;
		unsigned int r, best_r = 0;

		for (r = 0; r < n_runs; r++)
			if (pos[r] < end[r] && (best == NULL ||
			    rule_order(t->rules[pos[r]], best) < 0)) {
				best = t->rules[pos[r]];
				best_r = r;
			}
		if (best == NULL)
			break;
		pos[best_r]++;
		if (best->geneve_opt.on &&
		    !geneve_opt_found(&best->geneve_opt, pkt->tunnel_hdr,
				      pkt->tunnel_hdr_len))
			continue;
		out[n_out++] = best;
		if (best->fate != HWCSUM_FLOW_FATE_NONE)
			break;
	}
	return n_out;
}

unsigned int
hwcsum_flow_linear_match(struct hwcsum_flow_rule *const *sorted, unsigned int n,
			 const struct hwcsum_flow_pkt *pkt,
			 const struct hwcsum_flow_rule **out, unsigned int max)
{
	unsigned int i, n_out = 0;

	for (i = 0; i < n && n_out < max; i++) {
		if (!hwcsum_flow_rule_matches(sorted[i], pkt))
			continue;
		out[n_out++] = sorted[i];
		if (sorted[i]->fate != HWCSUM_FLOW_FATE_NONE)
			break;
	}
	return n_out;
}
