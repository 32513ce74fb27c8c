/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Buffer-level checksum core: every implementation (called directly through
 * the table, and the dispatched one, which HWCSUM_CSUM_IMPL may force)
 * against the byte-wise reference and DPDK's rte_raw_cksum, on random
 * lengths, alignments and seeds; RFC 1071/1624 examples; pseudo-headers and
 * the IPv4 header checksum against DPDK; CRC32c against a bitwise reference,
 * known vectors and rte_hash_crc.
 */
#include <errno.h>
#include <string.h>

#include <rte_hash_crc.h>
#include <rte_ip.h>

#include "csum.h"
#include "test_util.h"

#define MAX_LEN (9216 + 64)
#define BUF_SIZE (70000 + 128)

static uint8_t big[BUF_SIZE];
static uint8_t aligned_copy[BUF_SIZE] __attribute__((aligned(64)));

/* RFC 1071 section 3: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2 (big-endian view). */
static void
test_rfc1071(const struct csum_impl *impl)
{
	static const uint8_t ex[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	uint16_t folded = csum_fold(impl->partial(ex, sizeof(ex), 0));
	const uint8_t *b = (const uint8_t *)&folded;

	CHECK(b[0] == 0xdd && b[1] == 0xf2, "%s: RFC 1071 example gave %02x%02x",
	      impl->name, b[0], b[1]);
	/* Byte order independence: the swapped buffer gives the swapped sum. */
	{
		uint8_t sw[sizeof(ex)];
		unsigned int i;
		uint16_t f2;

		for (i = 0; i < sizeof(ex); i += 2) {
			sw[i] = ex[i + 1];
			sw[i + 1] = ex[i];
		}
		f2 = csum_fold(impl->partial(sw, sizeof(sw), 0));
		CHECK(f2 == (uint16_t)((folded >> 8) | (folded << 8)),
		      "%s: swapped buffer %04x vs %04x", impl->name, f2, folded);
	}
}

static void
test_against_reference(const struct csum_impl *impl, unsigned int rounds)
{
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		uint32_t len = r < 300 ? r : rng_below(MAX_LEN + 1);
		uint32_t align = rng_below(64);
		uint32_t seed = r & 1 ? (uint32_t)rng() : 0;
		uint8_t *p = big + align;
		uint16_t want, got, dpdk;

		rng_fill(p, len);
		/* Some all-0xff and all-zero buffers: the 0/0xffff corner. */
		if (r % 97 == 5)
			memset(p, 0xff, len);
		if (r % 97 == 7)
			memset(p, 0, len);
		want = ref_fold(p, len, seed);
		got = csum_fold(impl->partial(p, len, seed));
		CHECK(got == want, "%s: len %u align %u seed %08x: %04x want %04x",
		      impl->name, len, align, seed, got, want);
		if (seed == 0) {
			dpdk = rte_raw_cksum(p, len);
			CHECK(got == dpdk, "%s: len %u align %u: %04x, rte_raw_cksum %04x",
			      impl->name, len, align, got, dpdk);
		}
	}
	/* Multi-MiB: past every implementation's accumulator widening. */
	{
		size_t huge_len = (5u << 20) + 13;
		uint8_t *huge = malloc(huge_len + 64);
		unsigned int k;

		if (huge == NULL)
			abort();
		for (k = 0; k < 4; k++) {
			uint32_t align = k;

			if (k == 0)
				memset(huge, 0, huge_len + 64);
			else if (k == 1)
				memset(huge, 0xff, huge_len + 64);
			else if (k == 2)
				for (r = 0; r + 1 < huge_len + 64; r += 2) {
					huge[r] = 0x00; /* little-endian 0x8000 words: the bias's worst case */
					huge[r + 1] = 0x80;
				}
			else
				rng_fill(huge, huge_len + 64);
			CHECK(csum_fold(impl->partial(huge + align, huge_len, 0)) ==
			      ref_fold(huge + align, huge_len, 0), "%s: %zu bytes, pattern %u",
			      impl->name, huge_len, k);
		}
		free(huge);
	}
	/* Large buffers: accumulators must not lose carries. */
	for (r = 0; r < 4; r++) {
		uint32_t len = BUF_SIZE - 128 - rng_below(64);
		uint32_t align = rng_below(64);

		if (r == 0)
			memset(big + align, 0xff, len);
		else
			rng_fill(big + align, len);
		CHECK(csum_fold(impl->partial(big + align, len, 0)) ==
		      ref_fold(big + align, len, 0), "%s: big len %u", impl->name, len);
	}
}

/* Splitting a buffer anywhere and joining with csum_block_add is exact. */
static void
test_block_add(void)
{
	unsigned int r;

	for (r = 0; r < 2000; r++) {
		uint32_t len = rng_below(3000), cut = rng_below(len + 1);
		uint32_t a, b, whole;

		rng_fill(big, len);
		whole = csum_partial(big, len, 0);
		a = csum_partial(big, cut, 0);
		b = csum_partial(big + cut, len - cut, 0);
		CHECK(csum_fold(csum_block_add(a, b, cut)) == csum_fold(whole),
		      "block_add len %u cut %u", len, cut);
		CHECK(csum_fold(csum_block_sub(whole, b, cut)) == csum_fold(a) ||
		      (csum_fold(a) == 0 && csum_fold(csum_block_sub(whole, b, cut)) == 0xffff),
		      "block_sub len %u cut %u", len, cut);
	}
}

/* RFC 1624: incremental update equals recomputation, including the RFC 1141 trap. */
static void
test_incremental(void)
{
	uint8_t pkt[64];
	unsigned int r;

	/* RFC 1624 section 4 example: HC 0xdd2f, m 0x5555 -> m' 0x3285 gives 0x0000. */
	{
		uint16_t hc = rte_cpu_to_be_16(0xdd2f);
		uint16_t m0 = rte_cpu_to_be_16(0x5555), m1 = rte_cpu_to_be_16(0x3285);

		CHECK(csum_update16(hc, m0, m1) == 0, "RFC 1624 example gave %04x",
		      rte_be_to_cpu_16(csum_update16(hc, m0, m1)));
	}
	for (r = 0; r < 20000; r++) {
		uint32_t field = rng_below(sizeof(pkt) / 4) * 4;
		uint16_t check, updated, recomputed, oldv, newv;
		uint32_t old32, new32;

		rng_fill(pkt, sizeof(pkt));
		pkt[0] = pkt[1] = 0;          /* the checksum field */
		if (field == 0)
			field = 4;
		check = csum_finish(csum_partial(pkt, sizeof(pkt), 0));
		memcpy(pkt, &check, 2);
		if (r & 1) {
			memcpy(&oldv, pkt + field, 2);
			newv = (uint16_t)rng();
			if (r % 5 == 1) /* force the sum through 0 */
				newv = oldv;
			memcpy(pkt + field, &newv, 2);
			updated = csum_update16(check, oldv, newv);
		} else {
			memcpy(&old32, pkt + field, 4);
			new32 = (uint32_t)rng();
			memcpy(pkt + field, &new32, 4);
			updated = csum_update32(check, old32, new32);
		}
		pkt[0] = pkt[1] = 0;
		recomputed = csum_finish(csum_partial(pkt, sizeof(pkt), 0));
		CHECK(updated == recomputed, "update %04x recomputed %04x", updated,
		      recomputed);
	}
	/* A 16-byte field, as for an IPv6 address rewrite. */
	for (r = 0; r < 2000; r++) {
		uint8_t old[16];
		uint16_t check, recomputed;

		rng_fill(pkt, sizeof(pkt));
		pkt[0] = pkt[1] = 0;
		check = csum_finish(csum_partial(pkt, sizeof(pkt), 0));
		memcpy(old, pkt + 8, 16);
		rng_fill(pkt + 8, 16);
		recomputed = csum_finish(csum_partial(pkt, sizeof(pkt), 0));
		CHECK(csum_update_buf(check, old, pkt + 8, 16) == recomputed,
		      "update_buf");
	}
}

static void
test_headers(void)
{
	unsigned int r;

	for (r = 0; r < 5000; r++) {
		uint8_t raw[60 + 40] __attribute__((aligned(8)));
		struct rte_ipv4_hdr *ip4 = (struct rte_ipv4_hdr *)raw;
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)raw;
		uint32_t l4_len = rng_below(65536 - 60);
		uint8_t proto = (uint8_t)rng();
		uint16_t ours, dpdk;
		unsigned int ihl = 5 + rng_below(11);

		rng_fill(raw, sizeof(raw));
		ip4->version_ihl = (uint8_t)(0x40 | ihl);
		ip4->next_proto_id = proto;
		ip4->total_length = rte_cpu_to_be_16(l4_len + ihl * 4);
		ours = csum_fold(csum_ipv4_pseudo(ip4->src_addr, ip4->dst_addr,
						  l4_len, proto, 0));
		/* DPDK's pseudo-header uses total_length - ihl * 4. */
		dpdk = rte_ipv4_phdr_cksum(ip4, 0);
		CHECK(ours == dpdk, "ipv4 pseudo %04x dpdk %04x", ours, dpdk);
		ours = csum_ipv4_hdr(ip4); /* ignores the field's current value */
		ip4->hdr_checksum = 0;     /* DPDK wants it zeroed */
		dpdk = rte_ipv4_cksum(ip4);
		CHECK(ours == dpdk, "ipv4 header ihl %u %04x dpdk %04x", ihl, ours, dpdk);
		ip4->hdr_checksum = ours;
		CHECK(csum_ipv4_hdr_ok(ip4), "ipv4 header just filled is not ok");
		raw[rng_below(ihl * 4)] ^= (uint8_t)(1 + rng_below(255));
		CHECK(!csum_ipv4_hdr_ok(ip4), "corrupted ipv4 header is ok");

		rng_fill(raw, sizeof(raw));
		ip6->proto = proto;
		ip6->payload_len = rte_cpu_to_be_16(l4_len);
		ours = csum_fold(csum_ipv6_pseudo(ip6->src_addr, ip6->dst_addr,
						  l4_len, proto, 0));
		/* DPDK shifts the protocol into an int: undefined from 128 up. */
		if (proto < 128) {
			dpdk = rte_ipv6_phdr_cksum(ip6, 0);
			CHECK(ours == dpdk, "ipv6 pseudo %04x dpdk %04x", ours, dpdk);
		}
	}
	/* A 32-bit IPv6 length (jumbogram) still sums right. */
	{
		uint8_t a[16] = { 0 }, b[16] = { 0 };
		uint16_t f = csum_fold(csum_ipv6_pseudo(a, b, 0x12345678, 6, 0));

		CHECK(rte_be_to_cpu_16(f) == ((0x1234 + 0x5678 + 6) & 0xffff),
		      "ipv6 pseudo 32-bit length: %04x", rte_be_to_cpu_16(f));
	}
}

static uint32_t
crc32c_bitwise(const uint8_t *p, size_t len, uint32_t crc)
{
	unsigned int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1)));
	}
	return crc;
}

static void
test_crc32c(void)
{
	static const char check9[] = "123456789";
	uint8_t zeros[32] = { 0 };
	unsigned int r;

	/* Well-known check value and RFC 3720 B.4 (32 bytes of zero). */
	CHECK(~csum_crc32c(check9, 9, 0xffffffff) == 0xe3069283, "crc32c check value");
	CHECK(~csum_crc32c(zeros, 32, 0xffffffff) == 0x8a9136aa, "crc32c RFC 3720 zeros");
	CHECK(~csum_crc32c_sw(check9, 9, 0xffffffff) == 0xe3069283, "sw check value");
	for (r = 0; r < 3000; r++) {
		uint32_t len = r < 1200 ? r : rng_below(40000);
		uint32_t align = rng_below(16), init = (uint32_t)rng();
		uint32_t want, got;

		rng_fill(big + align, len);
		want = crc32c_bitwise(big + align, len, init);
		got = csum_crc32c(big + align, len, init);
		CHECK(got == want, "crc32c len %u: %08x want %08x", len, got, want);
		CHECK(csum_crc32c_sw(big + align, len, init) == want, "crc32c_sw len %u", len);
		/* rte_hash_crc loads through typed pointers: give it aligned data. */
		memcpy(aligned_copy, big + align, len);
		CHECK(rte_hash_crc(aligned_copy, len, init) == want,
		      "rte_hash_crc disagrees at len %u (reference itself?)", len);
	}
}

static void
test_dispatch(void)
{
	const struct csum_impl *impls, *active = csum_impl_active();
	const char *forced = getenv(CSUM_IMPL_ENV);
	unsigned int n, i;

	impls = csum_impl_list(&n);
	CHECK(n >= 1 && strcmp(impls[n - 1].name, "scalar") == 0, "scalar is last");
	if (forced != NULL && forced[0] != '\0')
		CHECK(strcmp(active->name, forced) == 0, "forced %s, active %s",
		      forced, active->name);
	else
		for (i = 0; i < n; i++)
			if (impls[i].supported()) {
				CHECK(active == &impls[i], "best supported is %s, active %s",
				      impls[i].name, active->name);
				break;
			}
	CHECK(csum_impl_select("no-such-impl") == -EINVAL, "unknown name");
	CHECK(csum_impl_active() == active, "failed select changed the active impl");
	CHECK(csum_impl_find("scalar") != NULL, "find scalar");
	printf("active implementation: %s\n", active->name);
}

/* The inline header-sized sum against the dispatched one, every length. */
static void
test_small(void)
{
	uint8_t buf[256 + 16];
	unsigned int len, align, i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rng();
	for (len = 0; len <= 200; len++)
		for (align = 0; align < 16; align++) {
			uint32_t seed = (uint32_t)rng();
			uint16_t got = csum_fold(csum_partial_small(buf + align, len, seed));
			uint16_t want = csum_fold(csum_partial(buf + align, len, seed));

			CHECK(got == want, "csum_partial_small len %u align %u: %04x, csum_partial %04x",
			      len, align, got, want);
		}
	printf("csum_partial_small: checked against csum_partial, lengths 0-200\n");
}

/*
 * 64-bit piece sums added as integers and folded once, against the
 * 32-bit sum of the whole: a buffer cut at every pair of points, the
 * pieces at odd offsets moved with csum_rotate64().
 */
static void
test_pieces64(void)
{
	uint8_t buf[300];
	unsigned int len, a, b, i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rng();
	for (len = 0; len <= sizeof(buf); len += len < 64 ? 1 : 37)
		for (a = 0; a <= len; a += 1 + a / 16)
			for (b = a; b <= len; b += 1 + b / 16) {
				uint64_t s = csum_partial_small64(buf, a);
				uint64_t m = csum_partial_small64(buf + a, b - a);
				uint64_t e = csum_partial_small64(buf + b, len - b);
				uint16_t got, want;

				s += (a & 1) ? csum_rotate64(m) : m;
				s += (b & 1) ? csum_rotate64(e) : e;
				got = csum_fold(csum_fold64(s));
				want = csum_fold(csum_partial(buf, len, 0));
				CHECK(got == want, "pieces64 len %u cut %u %u: %04x, csum_partial %04x",
				      len, a, b, got, want);
			}
	printf("csum_partial_small64 pieces: checked against csum_partial\n");
}

int
main(void)
{
	const struct csum_impl *impls;
	unsigned int n, i;

	rng_seed_from_env("test_csum_core");
	test_dispatch();
	test_small();
	test_pieces64();
	impls = csum_impl_list(&n);
	for (i = 0; i < n; i++) {
		if (!impls[i].supported()) {
			printf("%s: not supported by this CPU, not tested\n", impls[i].name);
			continue;
		}
		test_rfc1071(&impls[i]);
		test_against_reference(&impls[i], 20000);
		printf("%s: checked\n", impls[i].name);
	}
	/* The dispatched entry point, whichever it is (forced or not). */
	{
		struct csum_impl dispatched = { "dispatched", csum_partial, NULL };

		test_rfc1071(&dispatched);
		test_against_reference(&dispatched, 5000);
	}
	test_block_add();
	test_incremental();
	test_headers();
	test_crc32c();
	return harness_summary("test_csum_core");
}
