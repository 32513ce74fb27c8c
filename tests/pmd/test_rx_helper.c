/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_pmd_hwcsum_rx_verify_l4(), the public inline verifier, against
 * lib/csum's csum_mbuf_verify_l4() on the same bytes: one verifier, so
 * both must give the same answer for every packet and every way of
 * cutting it into segments (headers straddling a cut included).
 *
 * Seeded, fixed count: packets from tests/csum/pkt_build.h (plain or
 * VXLAN, IPv4/IPv6, UDP/TCP, trailers) with their checksums filled, then
 * mutated (a byte anywhere, a length field, a zero UDP checksum), cut at
 * random points into up to 6 segments (empty ones too), each asked about
 * the outer and the inner L4 header and about random offsets.
 *
 *   test_rx_helper [iterations] [seed]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "csum_mbuf.h"
#include "mbuf_build.h"
#include "pkt_build.h"
#include "rte_pmd_hwcsum.h"

#define MAX_CUTS 5
/* A flag bit no real mbuf flag uses in these test mbufs. */
#define COMPLETE_FLAG (UINT64_C(1) << 63)

static unsigned int failures, compared, skipped_ext;

static uint32_t
rnd(uint32_t n)
{
	return n ? (uint32_t)random() % n : 0;
}

/* lib/csum's status in the helper's numbering (1 good, 0 bad, 2 none). */
static int
lib_answer(int lib)
{
	switch (lib) {
	case CSUM_L4_GOOD:
		return 1;
	case CSUM_L4_BAD:
		return 0;
	case CSUM_L4_NONE:
		return 2;
	default:
		return lib;
	}
}

/* The protocol the header at l3 names: the helper takes it from there. */
static int
named_proto(const uint8_t *p, uint32_t len, uint32_t l3, uint32_t l4)
{
	if (l3 >= len)
		return -1;
	if (p[l3] >> 4 == 4 && l3 + 20 <= len)
		return p[l3 + 9];
	if (p[l3] >> 4 == 6 && l3 + 40 <= len && l4 == l3 + 40)
		return p[l3 + 6];
	return -1;
}

static void
compare(const struct rte_pmd_hwcsum_dyn *dyn, const uint8_t *p, uint32_t len,
	uint32_t start, uint32_t l3, uint32_t l4, uint64_t iter)
{
	uint32_t cuts[MAX_CUTS], sum;
	unsigned int n_cuts = rnd(MAX_CUTS + 1), i;
	struct test_chain c;
	struct rte_mbuf *m;
	struct rte_pmd_hwcsum_csum *f;
	int proto = named_proto(p, len, l3, l4), lib, helper;

	for (i = 0; i < n_cuts; i++)
		/* Near the headers, where straddling matters, or anywhere. */
		cuts[i] = rnd(2) ? rnd(24) : rnd(len + 1);
	m = test_chain_build(&c, p, len, cuts, n_cuts);
	if (csum_mbuf_complete(m, start, &sum) != 0)
		abort();
	f = RTE_MBUF_DYNFIELD(m, dyn->field_offset, struct rte_pmd_hwcsum_csum *);
	f->start = (uint16_t)start;
	f->sum = csum_fold(sum);
	m->ol_flags |= dyn->rx_complete;

	helper = rte_pmd_hwcsum_rx_verify_l4(dyn, m, l3, l4);
	if (proto == IPPROTO_UDP || proto == IPPROTO_TCP) {
		lib = lib_answer(csum_mbuf_verify_l4(m, start, sum, l3, l4,
						     (uint8_t)proto, 0));
		compared++;
	} else if (l3 < len && p[l3] >> 4 == 6 && l4 > l3 + 40) {
		/* Extension headers: the helper cannot know the protocol. */
		lib = -EINVAL;
		skipped_ext++;
	} else {
		/* No UDP/TCP named (or no header): lib/csum is not asked. */
		lib = helper == 1 || helper == 0 || helper == 2 ? 99 : helper;
	}
	if (helper != lib && !(lib < 0 && helper < 0)) {
		failures++;
		if (failures <= 20)
			fprintf(stderr,
				"FAIL iteration %" PRIu64 ": len %u start %u l3 %u l4 %u, %u cuts (first %u): helper %d, lib/csum %d\n",
				iter, len, start, l3, l4, n_cuts,
				n_cuts ? cuts[0] : 0, helper, lib);
	}
	test_chain_free(&c);
}

static void
mutate(uint8_t *p, const struct pkt_layout *lay)
{
	const struct pkt_l4 *l = lay->encap && rnd(2) ? &lay->inner : &lay->outer;

	switch (rnd(6)) {
	case 0: /* any byte */
		p[rnd(lay->len)] ^= (uint8_t)(1 + rnd(255));
		break;
	case 1: /* a length field */
		if (l->v6)
			p[l->l3 + 5] += (uint8_t)(1 + rnd(8));
		else
			p[l->l3 + 3] += (uint8_t)(1 + rnd(8));
		break;
	case 2: /* a zero UDP checksum */
		if (l->proto == IPPROTO_UDP)
			p[l->l4 + 6] = p[l->l4 + 7] = 0;
		break;
	case 3: /* the UDP length */
		if (l->proto == IPPROTO_UDP)
			p[l->l4 + 5] ^= (uint8_t)(1 + rnd(16));
		break;
	default: /* left as it is: both must say good */
		break;
	}
}

int
main(int argc, char **argv)
{
	uint64_t iters = argc > 1 ? strtoull(argv[1], NULL, 0) : 200000, it;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 0) : 28;
	struct rte_pmd_hwcsum_dyn dyn = {
		.field_offset = offsetof(struct rte_mbuf, dynfield1),
		.rx_complete = COMPLETE_FLAG,
	};
	static uint8_t p[2048];

	srandom(seed);
	for (it = 0; it < iters; it++) {
		struct pkt_opts o = {
			.vlan = rnd(2), .v6 = rnd(2), .tcp = rnd(2), .encap = rnd(2),
			.inner_v6 = rnd(2), .inner_tcp = rnd(2),
			.payload = rnd(4) ? rnd(80) : rnd(1400), .trailer = rnd(3) ? 0 : rnd(40),
		};
		struct pkt_layout lay;
		struct test_chain c;
		uint32_t i, start;

		for (i = 0; i < sizeof(p); i++)
			p[i] = (uint8_t)random();
		pkt_build(p, &o, &lay);
		/* Fill the checksums (inner first: the outer covers it). */
		test_chain_build(&c, p, lay.len, NULL, 0);
		if (lay.encap && csum_mbuf_apply_partial(&c.seg[0], lay.inner.l4,
							 lay.inner.csum_off) != 0)
			abort();
		if (csum_mbuf_apply_partial(&c.seg[0], lay.outer.l4,
					    lay.outer.csum_off) != 0)
			abort();
		memcpy(p, rte_pktmbuf_mtod(&c.seg[0], uint8_t *), lay.len);
		test_chain_free(&c);
		if (rnd(2))
			mutate(p, &lay);

		start = lay.outer.l3;
		compare(&dyn, p, lay.len, start, lay.outer.l3, lay.outer.l4, it);
		if (lay.encap)
			compare(&dyn, p, lay.len, start, lay.inner.l3, lay.inner.l4, it);
		/* Offsets that are not where the headers are. */
		compare(&dyn, p, lay.len, start, start + rnd(lay.len - start),
			start + rnd(lay.len - start + 8), it);
	}
	printf("%s: %u answers compared with lib/csum, %u IPv6 extension cases refused, %u failure(s) (%" PRIu64 " packets, seed %lu)\n",
	       failures ? "FAIL" : "PASS", compared, skipped_ext, failures, iters, seed);
	return failures ? 1 : 0;
}
