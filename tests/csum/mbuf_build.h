/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TEST_MBUF_BUILD_H
#define HWCSUM_TEST_MBUF_BUILD_H

/*
 * Chains cut at random places for the tests/csum suites; the chain itself
 * is tests/lib/mbuf_chain.h's.
 */
#include "../lib/mbuf_chain.h"

/* Random cuts: none, a few, or many tiny (odd) ones. */
static inline struct rte_mbuf *
test_chain_build_random(struct test_chain *c, const uint8_t *pkt, uint32_t len,
			uint64_t (*rnd)(void))
{
	uint32_t cuts[TEST_CHAIN_MAX_SEGS];
	unsigned int n = 0, i, style = (unsigned int)(rnd() % 4);

	if (style == 1)
		n = 1 + (unsigned int)(rnd() % 4);
	else if (style >= 2)
		n = 1 + (unsigned int)(rnd() % (TEST_CHAIN_MAX_SEGS - 1));
	for (i = 0; i < n; i++)
		cuts[i] = style == 3 ? (uint32_t)(rnd() % 4) : (uint32_t)(rnd() % (len / 2 + 2));
	return test_chain_build(c, pkt, len, cuts, n);
}

#endif
