/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The libFuzzer target run on a fixed, seeded stream of inputs so that it
 * is part of every test run (and of the ASan+UBSan build): half raw random
 * bytes, half real packets (plain and VXLAN, from pkt_build.h) with
 * offsets near their real headers. Usage: test_fuzz_seeded [iterations].
 */
#include "pkt_build.h"
#include "test_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern struct fuzz_csum_stats {
	unsigned long sum_ok, partial_ok, lco_ok, verify_good, verify_bad,
		verify_none, verify_err, offload_hw, offload_sw;
} fuzz_csum_stats;

static uint8_t input[48 + 20000];

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Complete a CHECKSUM_PARTIAL request on flat bytes (end excludes the trailer). */
static void
fill_l4(uint8_t *p, const struct pkt_l4 *l, uint32_t end)
{
	uint16_t c = csum_finish(csum_partial(p + l->l4, end - l->l4, 0));

	if (c == 0)
		c = 0xffff;
	memcpy(p + l->l4 + l->csum_off, &c, 2);
}

int
main(int argc, char **argv)
{
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000, i;

	rng_seed_from_env("test_fuzz_seeded");
	for (i = 0; i < iters; i++) {
		size_t size;

		rng_fill(input, 48);
		if (i & 1) {
			size = 48 + rng_below(rng_below(8) == 0 ? 20000 : 300);
			rng_fill(input + 48, size - 48);
		} else {
			struct pkt_opts o = {
				.vlan = rng() & 1, .v6 = rng() & 1, .tcp = rng() & 1,
				.encap = rng() & 1, .inner_v6 = rng() & 1,
				.inner_tcp = rng() & 1, .payload = rng_below(1500),
				.trailer = rng_below(3) == 0 ? rng_below(30) : 0,
			};
			struct pkt_layout lay;
			const struct pkt_l4 *l;

			rng_fill(input + 48, pkt_max_len(o.payload));
			pkt_build(input + 48, &o, &lay);
			size = 48 + lay.len;
			/* Usually with the checksums done, so verification can say good. */
			if (rng_below(4) != 0) {
				if (lay.encap)
					fill_l4(input + 48, &lay.inner, lay.len - lay.trailer);
				fill_l4(input + 48, &lay.outer, lay.len - lay.trailer);
			}
			l = rng() & 1 && lay.encap ? &lay.inner : &lay.outer;
			/* Real offsets, each sometimes nudged. */
			put32(input + 12, (rng() & 3 ? 0 : 1) + (rng() & 1 ? l->l3 : l->l4));
			put32(input + 16, rng() & 3 ? l->csum_off : rng_below(64));
			put32(input + 20, l->l3 + (rng_below(8) == 0));
			put32(input + 24, l->l4 - (rng_below(8) == 0));
			input[28] = l->proto == 17;
		}
		LLVMFuzzerTestOneInput(input, size);
	}
	{
		const struct fuzz_csum_stats *st = &fuzz_csum_stats;

		printf("test_fuzz_seeded: %lu inputs, no fault; reached: sum %lu, partial %lu, "
		       "lco %lu, verify good/bad/none/error %lu/%lu/%lu/%lu, offload hw/sw %lu/%lu\n",
		       iters, st->sum_ok, st->partial_ok, st->lco_ok, st->verify_good,
		       st->verify_bad, st->verify_none, st->verify_err, st->offload_hw,
		       st->offload_sw);
		/* A run that never got past the argument checks tested nothing. */
		if (iters >= 10000 && (!st->sum_ok || !st->partial_ok || !st->lco_ok ||
				       !st->verify_good || !st->verify_bad || !st->verify_err ||
				       !st->offload_hw || !st->offload_sw)) {
			printf("test_fuzz_seeded: some path was never reached\n");
			return 1;
		}
	}
	return 0;
}
