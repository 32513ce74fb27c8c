/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target for the mbuf-level functions: hostile offsets, lengths,
 * segmentations (empty and odd segments), pkt_len that lies about the
 * chain, any bytes. Every call must return 0/a verdict or a negative errno
 * and never touch memory outside the segments (each segment is its own
 * heap block, so ASan sees it). Where a call succeeds, its result is
 * checked against first principles, so wrong answers are caught too.
 *
 * Input: 48 bytes of parameters, then the packet bytes.
 */
#include <errno.h>
#include <stdio.h>

#include "csum_mbuf.h"
#include "csum_offload.h"
#include "mbuf_build.h"

#define PARAMS 48

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		(uint32_t)p[3] << 24;
}

/* Offsets mostly near the packet (interesting), sometimes anything at all. */
static uint32_t
offset(const uint8_t *p, uint32_t len)
{
	uint32_t v = get32(p);

	switch (v >> 30) {
	case 0:
		return v % (len + 3);
	case 1:
		return len - (v & 7);
	case 2:
		return v & 0xff;
	default:
		return v;
	}
}

static void
fail(const char *what, int ret)
{
	fprintf(stderr, "fuzz_csum_mbuf: %s returned %d\n", what, ret);
	abort();
}

/* Only errors these functions document. */
static void
check_ret(const char *what, int ret)
{
	if (ret < 0 && ret != -EINVAL && ret != -ENOTSUP)
		fail(what, ret);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* How far inputs got, so a seeded run can prove it reached the deep paths. */
struct fuzz_csum_stats {
	unsigned long sum_ok, partial_ok, lco_ok, verify_good, verify_bad,
		verify_none, verify_err, offload_hw, offload_sw;
} fuzz_csum_stats;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *pr = data;
	struct test_chain c;
	struct rte_mbuf *m;
	uint32_t cuts[8], len, n_cuts, i, a, b, x, y, sum, sum2;
	uint8_t tmp[64];
	int ret;

	if (size < PARAMS)
		return 0;
	len = (uint32_t)(size - PARAMS);
	if (len > 65535)
		len = 65535;
	n_cuts = pr[0] % 9;
	for (i = 0; i < n_cuts; i++)
		cuts[i] = pr[1 + i] % 4 == 0 ? pr[1 + i] >> 2 : (uint32_t)pr[1 + i] * 3;
	m = test_chain_build(&c, data + PARAMS, len, cuts, n_cuts);
	/* Sometimes pkt_len lies: longer than the chain, or shorter. */
	if (pr[9] == 0xff)
		m->pkt_len = len + pr[10] + 1;
	else if (pr[9] == 0xfe)
		m->pkt_len = len > pr[10] ? len - pr[10] : 0;
	a = offset(pr + 12, m->pkt_len);
	b = offset(pr + 16, m->pkt_len);
	x = offset(pr + 20, m->pkt_len);
	y = offset(pr + 24, m->pkt_len);

	ret = csum_mbuf_sum(m, a, b, &sum);
	check_ret("sum", ret);
	fuzz_csum_stats.sum_ok += ret == 0;
	if (ret == 0 && m->pkt_len <= len) {
		/* Exact: compare with the flat bytes. */
		sum2 = csum_partial(data + PARAMS + a, b, 0);
		if (csum_fold(sum) != csum_fold(sum2))
			fail("sum mismatch", (int)a);
	}
	check_ret("complete", csum_mbuf_complete(m, a, &sum));
	check_ret("read", csum_mbuf_read(m, a, b % sizeof(tmp), tmp));
	check_ret("ipv4_hdr_ok", csum_mbuf_ipv4_hdr_ok(m, a));
	ret = csum_mbuf_complete(m, a, &sum);
	if (ret == 0) {
		ret = csum_mbuf_verify_l4(m, a, sum, x, y, pr[28] & 1 ? 17 : 6, pr[29] & 1);
		check_ret("verify", ret);
		if (ret > CSUM_L4_NONE)
			fail("verify verdict", ret);
		fuzz_csum_stats.verify_good += ret == CSUM_L4_GOOD;
		fuzz_csum_stats.verify_bad += ret == CSUM_L4_BAD;
		fuzz_csum_stats.verify_none += ret == CSUM_L4_NONE;
		fuzz_csum_stats.verify_err += ret < 0;
	}
	/* Hostile sum too: any value must give a verdict, not a crash. */
	check_ret("verify any", csum_mbuf_verify_l4(m, a, get32(pr + 32), x, y,
				pr[30], pr[31]));

	/* Writers last: they change the bytes. */
	ret = csum_mbuf_apply_partial(m, a, b);
	check_ret("partial", ret);
	fuzz_csum_stats.partial_ok += ret == 0;
	if (ret == 0 && m->pkt_len <= len && (b & 1) == 0) {
		/* The region, with the result in, sums to ~seed (for a field
		 * at an even offset, as every protocol has it). */
		uint16_t seed, got;
		uint8_t *flat = malloc(len + 1);

		if (flat == NULL)
			abort();
		memcpy(&seed, data + PARAMS + a + b, 2);
		test_chain_flatten(m, flat);
		memcpy(&got, flat + a + b, 2);
		if (got == 0 || csum_fold(csum_partial(flat + a, m->pkt_len - a, seed)) != 0xffff)
			fail("partial result", (int)a);
		free(flat);
	}
	ret = csum_mbuf_lco(m, a, pr[36] & 0x1f, x, pr[37] & 0x1f);
	check_ret("lco", ret);
	fuzz_csum_stats.lco_ok += ret == 0;
	check_ret("crc32c", csum_mbuf_apply_crc32c(m, x, pr[38]));
	check_ret("seed_l4", csum_mbuf_seed_l4(m, x, y, pr[28] & 1 ? 17 : 6));
	check_ret("ipv4_hdr_fill", csum_mbuf_ipv4_hdr_fill(m, x));
	check_ret("write", csum_mbuf_write(m, y, b % sizeof(tmp), tmp));
	{
		struct csum_offload_spec spec;
		struct csum_offload_req req = {
			.csum_start = a, .csum_offset = b, .flags = pr[39] & 3,
			.l3_off = pr[39] & 4 ? x : 0,
		};
		struct csum_offload_result res;
		uint16_t bits;

		memset(&spec, 0, sizeof(spec));
		spec.engine = pr[40] % 4; /* 3: not a valid engine */
		spec.max_csum_start = (uint16_t)get32(pr + 41);
		spec.max_csum_field = (uint16_t)(get32(pr + 41) >> 16);
		bits = (uint16_t)(pr[45] | pr[46] << 8);
		spec.ipv4_okay = bits & 1;
		spec.ipv6_okay = bits >> 1 & 1;
		spec.encap_okay = bits >> 2 & 1;
		spec.ip_options_okay = bits >> 3 & 1;
		spec.ext_hdrs_okay = bits >> 4 & 1;
		spec.tcp_okay = bits >> 5 & 1;
		spec.udp_okay = bits >> 6 & 1;
		spec.vlan_okay = bits >> 7 & 1;
		spec.no_encapped_ipv6 = bits >> 8 & 1;
		spec.no_not_encapped = bits >> 9 & 1;
		spec.sctp_okay = bits >> 10 & 1;
		ret = csum_offload_check(&spec, &req, data + PARAMS,
					 pr[47] == 0 ? len : pr[47], len, &res);
		check_ret("offload_check", ret);
		if (ret == 0 && res.reason >= CSUM_OFFLOAD_R__COUNT)
			fail("offload reason", (int)res.reason);
		if (ret == 0 && (res.verdict == CSUM_OFFLOAD_HW) != (res.reason == CSUM_OFFLOAD_OK))
			fail("offload verdict", (int)res.reason);
		ret = csum_offload_resolve(m, &spec, &req, &res);
		check_ret("offload_resolve", ret);
		fuzz_csum_stats.offload_hw += ret == CSUM_OFFLOAD_HW;
		fuzz_csum_stats.offload_sw += ret == CSUM_OFFLOAD_SW;
	}
	test_chain_free(&c);
	return 0;
}
