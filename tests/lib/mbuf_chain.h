/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TEST_MBUF_CHAIN_H
#define HWCSUM_TEST_MBUF_CHAIN_H

/*
 * Segmented mbufs built by hand, without EAL, for every C test and fuzzer:
 * each segment's data is its own heap block of exactly data_len bytes and
 * starts at the block's first byte (no headroom), so under ASan a read or
 * write past either end of a segment is caught where it happens.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#define TEST_CHAIN_MAX_SEGS 64

struct test_chain {
	struct rte_mbuf seg[TEST_CHAIN_MAX_SEGS];
	unsigned int n;
};

/*
 * pkt[0..len) cut into segments of the given lengths (n_cuts of them; the
 * last segment takes what is left). A cut may be 0, even after the last
 * byte: empty segments are legal in a chain. Returns the head.
 */
static inline struct rte_mbuf *
test_chain_build(struct test_chain *c, const uint8_t *pkt, uint32_t len,
		 const uint32_t *cuts, unsigned int n_cuts)
{
	uint32_t done = 0;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < TEST_CHAIN_MAX_SEGS && (i == 0 || done < len ||
						(i < n_cuts && cuts[i] == 0)); i++) {
		struct rte_mbuf *s = &c->seg[i];
		uint32_t n = len - done;
		uint8_t *data;

		if (i < n_cuts && cuts[i] < n && i + 1 < TEST_CHAIN_MAX_SEGS)
			n = cuts[i];
		data = malloc(n ? n : 1);	/* malloc(0) may be NULL */
		if (data == NULL)
			abort();
		memcpy(data, pkt + done, n);
		s->buf_addr = data;
		s->buf_len = (uint16_t)n;
		s->data_off = 0;
		s->data_len = (uint16_t)n;
		s->nb_segs = 1;
		rte_mbuf_refcnt_set(s, 1);
		if (i > 0)
			c->seg[i - 1].next = s;
		done += n;
	}
	c->n = i;
	c->seg[0].nb_segs = (uint16_t)c->n;
	c->seg[0].pkt_len = len;
	return &c->seg[0];
}

/* Copy the chain's bytes back out (to compare with what was written). */
static inline void
test_chain_flatten(const struct rte_mbuf *m, uint8_t *out)
{
	for (; m != NULL; m = m->next) {
		memcpy(out, rte_pktmbuf_mtod(m, const uint8_t *), m->data_len);
		out += m->data_len;
	}
}

static inline void
test_chain_free(struct test_chain *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		free(c->seg[i].buf_addr);
	c->n = 0;
}

#endif
