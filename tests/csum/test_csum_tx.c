/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * csum_tx_apply() (csum_tx.h) against the csum_mbuf.h sequence it stands
 * for (csum_tx_apply_ref()), and against byte-wise references:
 *  - a well-formed packet in one segment is taken, and every checksum
 *    asked for then verifies by the book (RFC 1071 byte by byte);
 *  - whatever it takes, the reference takes too, with the same bytes;
 *  - whatever it declines (chains, truncations, odd offsets, bad headers)
 *    it leaves untouched.
 * The usual frame's path (csum_tx_apply_usual()) is held to the same on
 * its own, and must take a share of every shape it knows.
 * Packets: Ethernet [VLAN] IPv4|IPv6 UDP|TCP, or VXLAN around inner
 * IPv4|IPv6 UDP|TCP, random payload and trailer; any subset of the work.
 */
#include <errno.h>

#include "csum_mbuf.h"
#include "csum_tx.h"
#include "mbuf_build.h"
#include "pkt_build.h"
#include "test_util.h"

#define ITERS 200000
#define PAYLOAD_MAX 1600

static uint8_t pkt[4096], img_a[4096], img_b[4096], img_u[4096];
static unsigned long taken, declined, well_formed;
/* Taken by csum_tx_apply_usual(): all, tunnels, outer IPv6, inner IPv6, TCP. */
static unsigned long usual, usual_tunnel, usual_v6, usual_inner_v6, usual_tcp;

/*
 * csum_tx_apply_usual() alone, on the flat packet, where the plan marks
 * the work as its: what it takes, the reference takes with the same
 * bytes; what it declines it leaves untouched; a well-formed packet of its
 * shape it never declines.
 */
static void
one_usual(const struct csum_tx_work *w, uint32_t len, int ref_ret, bool odd,
	  const struct pkt_layout *lay)
{
	struct csum_tx_work wu = *w;

	if (!csum_tx_work_check(&wu) || !(wu.ops & CSUM_TX_F_USUAL))
		return;
	memcpy(img_u, pkt, len);
	if (!csum_tx_apply_usual(img_u, len, &wu)) {
		CHECK(memcmp(img_u, pkt, len) == 0, "usual: declined, but bytes were written");
		CHECK(odd, "usual: a well-formed packet declined (ops %#x, len %u)",
		      wu.ops, len);
		return;
	}
	usual++;
	usual_tunnel += (wu.ops & CSUM_TX_SEED_OUTER) != 0;
	usual_v6 += (wu.ops & CSUM_TX_SEED_OUTER) && lay->outer.v6;
	usual_inner_v6 += wu.csum_start - wu.l3 == 40;
	usual_tcp += wu.l4_proto == IPPROTO_TCP;
	CHECK(ref_ret == 0, "usual: taken, but the reference returned %d (ops %#x)",
	      ref_ret, wu.ops);
	CHECK(memcmp(img_u, img_b, len) == 0, "usual: bytes differ from the reference "
	      "(ops %#x, len %u)", wu.ops, len);
}

static void
flatten(const struct rte_mbuf *m, uint8_t *out)
{
	for (; m != NULL; m = m->next) {
		memcpy(out, rte_pktmbuf_mtod(m, const uint8_t *), m->data_len);
		out += m->data_len;
	}
}

/* Pseudo-header by the book, summed with the segment: 0xffff when right. */
static uint16_t
ref_l4_fold(const uint8_t *p, const struct pkt_l4 *l)
{
	uint8_t ph[40];
	uint64_t sum;

	if (l->v6) {
		memcpy(ph, p + l->l3 + 8, 32);
		sum = ref_fold(ph, 32, 0);
	} else {
		memcpy(ph, p + l->l3 + 12, 8);
		sum = ref_fold(ph, 8, 0);
	}
	put16(ph, (uint16_t)(l->l4_len >> 16));
	put16(ph + 2, (uint16_t)l->l4_len);
	ph[4] = 0;
	ph[5] = l->proto;
	sum += ref_fold(ph, 6, 0);
	return ref_fold(p + l->l4, l->l4_len, sum);
}

static void
one(void)
{
	struct pkt_opts o = { 0 };
	struct pkt_layout lay;
	struct csum_tx_work w = { 0 };
	struct test_chain ca, cb;
	struct rte_mbuf *ma, *mb;
	uint32_t cuts[4], n_cuts = 0, len, r = (uint32_t)rng();
	const struct pkt_l4 *in;
	bool odd = rng_below(4) == 0, ok;
	int ret;

	o.vlan = r & 1;
	o.v6 = r >> 1 & 1;
	o.tcp = r >> 2 & 1;
	o.encap = r >> 3 & 1;
	o.inner_v6 = r >> 4 & 1;
	o.inner_tcp = r >> 5 & 1;
	o.payload = r >> 6 & 1 ? rng_below(40) : rng_below(PAYLOAD_MAX);
	o.trailer = r >> 7 & 1 ? rng_below(8) : 0;
	rng_fill(pkt, sizeof(pkt));
	pkt_build(pkt, &o, &lay);
	len = lay.len;
	in = lay.encap ? &lay.inner : &lay.outer;

	/* What testpmd's csum engine in hw mode leaves: seeds are ours to write. */
	w.l3 = in->l3;
	w.l3_len = in->v6 ? 40 : 20;
	w.csum_start = in->l4;
	w.csum_offset = in->csum_off;
	w.l4_proto = in->proto;
	if (r >> 8 & 1)
		w.ops |= CSUM_TX_SEED_L4 | CSUM_TX_L4;
	else if (r >> 9 & 1)
		w.ops |= CSUM_TX_L4;	/* generic: the seed is there already */
	if (!in->v6 && (r >> 10 & 1))
		w.ops |= CSUM_TX_IP;
	if (lay.encap) {
		w.outer_l3 = lay.outer.l3;
		w.outer_l3_len = lay.outer.v6 ? 40 : 20;
		w.outer_l4 = lay.outer.l4;
		if (r >> 11 & 1)
			w.ops |= CSUM_TX_SEED_OUTER |
				(w.ops & CSUM_TX_L4 ? CSUM_TX_OUTER_LCO :
				 CSUM_TX_OUTER_SUM);
		if (!lay.outer.v6 && (r >> 12 & 1))
			w.ops |= CSUM_TX_OUTER_IP;
	}
	/* Fields start out wrong, as the bench's input does. */
	pkt[in->l4 + in->csum_off] ^= (w.ops & CSUM_TX_SEED_L4) ? 0x5a : 0;
	if (!in->v6)
		pkt[in->l3 + 10] ^= 0xa5;
	if (lay.encap && !lay.outer.v6)
		pkt[lay.outer.l3 + 10] ^= 0x3c;
	if (w.ops & CSUM_TX_SEED_OUTER)
		pkt[lay.outer.l4 + 6] ^= 0x77;

	if (odd) {
		uint32_t v = (uint32_t)rng();

		switch (v % 7) {
		case 0:
			len = rng_below(len + 1);
			break;
		case 1:
			pkt[rng_below(len)] ^= (uint8_t)(1u << (v >> 8) % 8);
			break;
		case 2:
			w.csum_start = rng_below(len + 8);
			w.csum_offset = rng_below(32);
			break;
		case 3:
			w.l3 = rng_below(len);
			w.l3_len = rng_below(64);
			break;
		case 4:
			w.outer_l3 = rng_below(64);
			w.outer_l4 = w.outer_l3 + rng_below(64);
			break;
		case 5: {
			/* An IP length field of either level set small. */
			const struct pkt_l4 *l = lay.encap && (v >> 8 & 1) ? &lay.outer : in;
			uint32_t f = l->l3 + (l->v6 ? 4 : 2);

			pkt[f] = 0;
			pkt[f + 1] = (uint8_t)rng_below(72);
			break;
		}
		default:
			n_cuts = 1 + rng_below(4);
			for (uint32_t i = 0; i < n_cuts; i++)
				cuts[i] = rng_below(len / 2 + 2);
			break;
		}
	}
	if (!odd)
		well_formed++;
	ma = test_chain_build(&ca, pkt, len, cuts, n_cuts);
	mb = test_chain_build(&cb, pkt, len, cuts, n_cuts);

	/* Half the time the offsets are checked first, as for a plan. */
	if (rng_below(2) == 0) {
		struct csum_tx_work wc = w;
		bool layout = csum_tx_work_check(&wc);

		ok = layout && csum_tx_apply(ma, &wc);
		CHECK(layout == !!(wc.ops & CSUM_TX_F_LAYOUT_OK), "layout flag");
		if (!layout) {
			struct test_chain cc;
			struct rte_mbuf *mc = test_chain_build(&cc, pkt, len, cuts, n_cuts);

			CHECK(!csum_tx_apply(mc, &w), "offsets refused by the check taken");
			for (unsigned int i = 0; i < cc.n; i++)
				free(cc.seg[i].buf_addr);
		}
	} else {
		ok = csum_tx_apply(ma, &w);
	}
	ret = csum_tx_apply_ref(mb, &w);
	flatten(ma, img_a);
	flatten(mb, img_b);
	one_usual(&w, len, ret, odd, &lay);
	if (ok) {
		taken++;
		CHECK(ret == 0, "taken, but the reference returned %d (ops %#x)", ret, w.ops);
		CHECK(memcmp(img_a, img_b, len) == 0, "bytes differ from the reference (ops %#x)",
		      w.ops);
	} else {
		declined++;
		CHECK(memcmp(img_a, pkt, len) == 0, "declined, but bytes were written");
		CHECK(odd, "a well-formed packet declined (ops %#x, len %u)", w.ops, len);
	}
	/* (A trailer is summed too, as CHECKSUM_PARTIAL sums to the end.) */
	if (ok && !odd && lay.trailer == 0) {
		if (w.ops & CSUM_TX_L4)
			CHECK(ref_l4_fold(img_a, in) == 0xffff, "L4 checksum wrong");
		if (w.ops & CSUM_TX_IP)
			CHECK(ref_fold(img_a + in->l3, 20, 0) == 0xffff, "IPv4 header wrong");
		if (w.ops & CSUM_TX_OUTER_IP)
			CHECK(ref_fold(img_a + lay.outer.l3, 20, 0) == 0xffff,
			      "outer IPv4 header wrong");
		/* LCO's outer checksum is right once the inner one is in. */
		if ((w.ops & CSUM_TX_SEED_OUTER) && (w.ops & CSUM_TX_L4))
			CHECK(ref_l4_fold(img_a, &lay.outer) == 0xffff,
			      "outer UDP checksum wrong");
		if ((w.ops & CSUM_TX_OUTER_SUM))
			CHECK(ref_l4_fold(img_a, &lay.outer) == 0xffff,
			      "outer UDP checksum wrong (summed)");
	}
	for (unsigned int i = 0; i < ca.n; i++)
		free(ca.seg[i].buf_addr);
	for (unsigned int i = 0; i < cb.n; i++)
		free(cb.seg[i].buf_addr);
}

/* csum_tx__finish64() against csum_finish(csum_fold64()): the low values,
 * the top ones, and a random sample of the rest. */
static void
finish64_sample(void)
{
	unsigned long bad = 0, i;

	for (i = 0; i < (1ul << 22); i++) {
		uint64_t v = i < (1ul << 20) ? i : i < (1ul << 21) ?
			UINT64_MAX - (i - (1ul << 20)) : rng();

		if (i >= (1ul << 21) && (i & 1))
			v >>= 32;	/* 32-bit values too */
		bad += csum_tx__finish64(v) != csum_finish(csum_fold64(v));
	}
	CHECK(bad == 0, "csum_tx__finish64 differs from csum_finish in %lu values", bad);
}

int
main(void)
{
	unsigned long i;

	rng_seed_from_env("test_csum_tx");
	finish64_sample();
	for (i = 0; i < ITERS; i++)
		one();
	printf("test_csum_tx: %lu packets, %lu well-formed, %lu taken, %lu declined\n",
	       (unsigned long)ITERS, well_formed, taken, declined);
	printf("test_csum_tx: the usual frame's path took %lu (tunnels %lu, outer IPv6 %lu, "
	       "inner IPv6 %lu, TCP %lu)\n", usual, usual_tunnel, usual_v6, usual_inner_v6,
	       usual_tcp);
	CHECK(taken > ITERS / 2 && declined > 0, "coverage: taken %lu declined %lu",
	      taken, declined);
	CHECK(usual > ITERS / 10 && usual_tunnel > ITERS / 50 && usual_v6 > ITERS / 100 &&
	      usual_inner_v6 > ITERS / 50 && usual_tcp > ITERS / 50,
	      "coverage of the usual frame's path");
	return harness_summary("test_csum_tx");
}
