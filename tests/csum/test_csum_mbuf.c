/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mbuf layer: sums over random segmentations against rte_raw_cksum_mbuf and
 * the reference; CHECKSUM_PARTIAL applied in software against
 * rte_ipv4/ipv6_udptcp_cksum; verification from a CHECKSUM_COMPLETE sum
 * (good, corrupted, padded, zero UDP checksums); a received partial
 * checksum resolved from that sum; LCO against a full outer
 * computation; SCTP CRC32c; every error path. Runs under whichever
 * implementation HWCSUM_CSUM_IMPL selects.
 */
#include <errno.h>

#include <rte_ip.h>

#include "csum_mbuf.h"
#include "csum_offload.h"
#include "mbuf_build.h"
#include "pkt_build.h"
#include "test_util.h"

#define PAYLOAD_MAX 9100
static uint8_t pkt[18 + 40 + 16 + 14 + 40 + 20 + PAYLOAD_MAX + 64];
static uint8_t flat[sizeof(pkt)];

static unsigned long dpdk_compared, dpdk_wrong;

/* Every segment of even length: where rte_raw_cksum_mbuf is exact. */
static bool
chain_even(const struct rte_mbuf *m)
{
	for (; m != NULL; m = m->next)
		if (m->data_len & 1)
			return false;
	return true;
}

static void
test_sum_ranges(void)
{
	struct test_chain c;
	unsigned int r;

	for (r = 0; r < 4000; r++) {
		uint32_t len = r < 200 ? r : rng_below(sizeof(pkt) + 1);
		uint32_t off = rng_below(len + 1), n = rng_below(len - off + 1);
		struct rte_mbuf *m;
		uint32_t sum;
		uint16_t dpdk = 0;

		rng_fill(pkt, len);
		m = test_chain_build_random(&c, pkt, len, rng);
		CHECK(csum_mbuf_sum(m, off, n, &sum) == 0, "sum %u+%u of %u", off, n, len);
		CHECK(csum_fold(sum) == ref_fold(pkt + off, n, 0),
		      "sum %u+%u of %u in %u segs: %04x want %04x", off, n, len, c.n,
		      csum_fold(sum), ref_fold(pkt + off, n, 0));
		/*
		 * DPDK 22.11's rte_raw_cksum_mbuf truncates the sum of a segment
		 * that starts at an odd position to 16 bits before swapping it
		 * (carries lost), and refuses an empty range at the very end:
		 * compare with it where it is right, count where it is not.
		 */
		if (n > 0 && (off & 1) == 0 && chain_even(m)) {
			CHECK(rte_raw_cksum_mbuf(m, off, n, &dpdk) == 0 &&
			      dpdk == csum_fold(sum), "rte_raw_cksum_mbuf %u+%u: %04x vs %04x",
			      off, n, dpdk, csum_fold(sum));
			dpdk_compared++;
		} else if (n > 0 && rte_raw_cksum_mbuf(m, off, n, &dpdk) == 0 &&
			   dpdk != csum_fold(sum)) {
			dpdk_wrong++;
		}
		CHECK(csum_mbuf_complete(m, off, &sum) == 0 &&
		      csum_fold(sum) == ref_fold(pkt + off, len - off, 0), "complete from %u", off);
		/* Out of range, by one and by a lot (no 32-bit wrap). */
		CHECK(csum_mbuf_sum(m, off, len - off + 1, &sum) == -EINVAL, "sum past end");
		CHECK(csum_mbuf_sum(m, 0xffffffff, 2, &sum) == -EINVAL, "sum wrap");
		CHECK(csum_mbuf_complete(m, len + 1, &sum) == -EINVAL, "complete past end");
		test_chain_free(&c);
	}
	printf("sum ranges: %lu compared with rte_raw_cksum_mbuf; it was wrong on %lu "
	       "of the odd-length segmentations (ours matched the reference)\n",
	       dpdk_compared, dpdk_wrong);
	CHECK(dpdk_compared > 200, "too few comparisons with DPDK: %lu", dpdk_compared);
}

static void
random_opts(struct pkt_opts *o)
{
	o->vlan = rng() & 1;
	o->v6 = rng() & 1;
	o->tcp = rng() & 1;
	o->encap = rng_below(3) == 0;
	o->inner_v6 = rng() & 1;
	o->inner_tcp = rng() & 1;
	o->payload = rng_below(4) == 0 ? rng_below(PAYLOAD_MAX) : rng_below(1500);
	o->trailer = rng_below(4) == 0 ? rng_below(40) : 0;
}

/* DPDK's checksum of one L4 of the flat packet (its field zeroed first). */
static uint16_t
dpdk_l4(uint8_t *p, const struct pkt_l4 *l)
{
	uint8_t save[2];
	uint16_t c;

	memcpy(save, p + l->l4 + l->csum_off, 2);
	memset(p + l->l4 + l->csum_off, 0, 2);
	if (l->v6)
		c = rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)(p + l->l3), p + l->l4);
	else
		c = rte_ipv4_udptcp_cksum((const struct rte_ipv4_hdr *)(p + l->l3), p + l->l4);
	memcpy(p + l->l4 + l->csum_off, save, 2);
	return c;
}

static uint16_t
field(const uint8_t *p, const struct pkt_l4 *l)
{
	uint16_t v;

	memcpy(&v, p + l->l4 + l->csum_off, 2);
	return v;
}

static int
verify(struct rte_mbuf *m, uint32_t start, const struct pkt_l4 *l, uint32_t flags)
{
	uint32_t sum;

	if (csum_mbuf_complete(m, start, &sum) < 0)
		return -1000;
	/* Half the time hand over the folded sum, as the PMD's dynfield does. */
	if (rng() & 1)
		sum = csum_fold(sum);
	return csum_mbuf_verify_l4(m, start, sum, l->l3, l->l4, l->proto, flags);
}

/* Every malformed verification request is refused, none is misjudged. */
static bool
verify_bad_args(struct rte_mbuf *m, const struct pkt_layout *lay)
{
	const struct pkt_l4 *l = &lay->outer;
	uint32_t sum;
	bool ok = true;

	if (csum_mbuf_complete(m, l->l3, &sum) < 0)
		return false;
	ok &= csum_mbuf_verify_l4(m, l->l3, sum, l->l3, l->l4, 50, 0) == -EINVAL;
	ok &= csum_mbuf_verify_l4(m, l->l4 + 1, sum, l->l3, l->l4, l->proto, 0) == -EINVAL;
	ok &= csum_mbuf_verify_l4(m, l->l3, sum, l->l4 + 1, l->l4, l->proto, 0) == -EINVAL;
	ok &= csum_mbuf_verify_l4(m, l->l3, sum, l->l3, l->l3 + 4, l->proto, 0) == -EINVAL;
	ok &= csum_mbuf_verify_l4(m, l->l3, sum, l->l3, m->pkt_len, l->proto, 0) == -EINVAL;
	ok &= csum_mbuf_verify_l4(m, l->l3, sum, 0xfffffff0, 0xfffffff8, l->proto, 0) == -EINVAL;
	/* The L3 header is not IP (an Ethernet MAC address is there). */
	ok &= csum_mbuf_verify_l4(m, 0, sum, 0, l->l4, l->proto, 0) == -EINVAL ||
		(m->buf_addr && (rte_pktmbuf_mtod(m, uint8_t *)[0] >> 4 == 4 ||
				 rte_pktmbuf_mtod(m, uint8_t *)[0] >> 4 == 6));
	if (!l->v6)
		/* IPv4 protocol must match */
		ok &= csum_mbuf_verify_l4(m, l->l3, sum, l->l3, l->l4,
					  l->proto == 6 ? 17 : 6, 0) == -EINVAL;
	return ok;
}

static void
test_packets(void)
{
	struct test_chain c;
	struct pkt_layout lay;
	struct pkt_opts o;
	unsigned int r;

	for (r = 0; r < 3000; r++) {
		struct rte_mbuf *m;
		uint32_t start, where;
		int ret;

		random_opts(&o);
		rng_fill(pkt, sizeof(pkt));
		pkt_build(pkt, &o, &lay);
		/* Transmit: no trailer yet (padding comes after the device). */
		m = test_chain_build_random(&c, pkt, lay.len - lay.trailer, rng);

		if (lay.encap) {
			/* LCO on the outer first, then the inner in "hardware". */
			ret = csum_mbuf_lco(m, lay.outer.l4, lay.outer.csum_off,
					    lay.inner.l4, lay.inner.csum_off);
			CHECK(ret == 0, "lco: %d", ret);
			ret = csum_mbuf_apply_partial(m, lay.inner.l4, lay.inner.csum_off);
			CHECK(ret == 0, "inner partial: %d", ret);
			test_chain_flatten(m, flat);
			CHECK(field(flat, &lay.inner) == dpdk_l4(flat, &lay.inner),
			      "inner %04x dpdk %04x", field(flat, &lay.inner),
			      dpdk_l4(flat, &lay.inner));
			CHECK(field(flat, &lay.outer) == dpdk_l4(flat, &lay.outer),
			      "LCO outer %04x dpdk %04x (payload %u)", field(flat, &lay.outer),
			      dpdk_l4(flat, &lay.outer), o.payload);
		} else {
			ret = csum_mbuf_apply_partial(m, lay.outer.l4, lay.outer.csum_off);
			CHECK(ret == 0, "partial: %d", ret);
			test_chain_flatten(m, flat);
			CHECK(field(flat, &lay.outer) == dpdk_l4(flat, &lay.outer),
			      "%s/%s payload %u segs %u: %04x dpdk %04x", o.v6 ? "v6" : "v4",
			      o.tcp ? "tcp" : "udp", o.payload, c.n,
			      field(flat, &lay.outer), dpdk_l4(flat, &lay.outer));
		}
		/* Nothing but the checksum fields changed. */
		{
			uint8_t expect[sizeof(pkt)];

			memcpy(expect, pkt, lay.len);
			memcpy(expect + lay.outer.l4 + lay.outer.csum_off,
			       flat + lay.outer.l4 + lay.outer.csum_off, 2);
			if (lay.encap)
				memcpy(expect + lay.inner.l4 + lay.inner.csum_off,
				       flat + lay.inner.l4 + lay.inner.csum_off, 2);
			CHECK(memcmp(expect, flat, lay.len - lay.trailer) == 0,
			      "bytes besides the fields changed");
		}
		/* Receive the same bytes, padded, segmented another way. */
		memcpy(flat + lay.len - lay.trailer, pkt + lay.len - lay.trailer, lay.trailer);
		test_chain_free(&c);
		m = test_chain_build_random(&c, flat, lay.len, rng);

		/* Receive side: COMPLETE from after L2 (or anywhere before L3). */
		start = rng() & 1 ? lay.outer.l3 : rng_below(lay.outer.l3 + 1);
		CHECK(verify(m, start, &lay.outer, 0) == CSUM_L4_GOOD, "outer verify from %u", start);
		if (lay.encap)
			CHECK(verify(m, start, &lay.inner, 0) == CSUM_L4_GOOD, "inner verify");

		/* Corrupt one byte of the L4 datagram (not in the trailer): bad. */
		where = lay.outer.l4 + rng_below(lay.outer.l4_len);
		{
			uint8_t b, nb;

			csum_mbuf_read(m, where, 1, &b);
			nb = b ^ (uint8_t)(1 + rng_below(255));
			csum_mbuf_write(m, where, 1, &nb);
			ret = verify(m, start, &lay.outer, 0);
			CHECK(ret == CSUM_L4_BAD ||
			      /* the byte hit was the UDP checksum, now 0 */
			      (ret == CSUM_L4_NONE && !lay.outer.v6 && lay.outer.proto == 17) ||
			      /* the UDP length no longer fits the IP length */
			      (ret == -EINVAL && lay.outer.proto == 17 &&
			       (where == lay.outer.l4 + 4 || where == lay.outer.l4 + 5)),
			      "corrupt byte %u: %d", where, ret);
			csum_mbuf_write(m, where, 1, &b);
		}
		/* Trailer bytes never matter. */
		if (lay.trailer) {
			uint8_t junk = (uint8_t)rng();

			csum_mbuf_write(m, lay.len - 1, 1, &junk);
			CHECK(verify(m, start, &lay.outer, 0) == CSUM_L4_GOOD, "trailer");
		}
		/* Zero UDP checksum rules. */
		if (lay.outer.proto == 17) {
			const uint16_t zero = 0;

			csum_mbuf_write(m, lay.outer.l4 + 6, 2, &zero);
			ret = verify(m, start, &lay.outer, 0);
			CHECK(ret == (lay.outer.v6 ? CSUM_L4_BAD : CSUM_L4_NONE),
			      "zero udp over %s: %d", lay.outer.v6 ? "v6" : "v4", ret);
			ret = verify(m, start, &lay.outer, CSUM_VERIFY_F_IPV6_UDP_ZERO);
			CHECK(ret == CSUM_L4_NONE, "zero udp with the flag: %d", ret);
		}
		/* Wrong protocol, offsets that do not fit. */
		CHECK(verify_bad_args(m, &lay), "argument checks");
		test_chain_free(&c);
	}
}

/* LCO gives exactly what a full outer computation over the final inner gives. */
static void
test_lco_equals_full(void)
{
	struct test_chain c;
	struct pkt_layout lay;
	struct pkt_opts o;
	unsigned int r;

	for (r = 0; r < 1000; r++) {
		struct rte_mbuf *m;
		uint16_t lco, full, seed;

		random_opts(&o);
		o.encap = true;
		rng_fill(pkt, sizeof(pkt));
		pkt_build(pkt, &o, &lay);
		m = test_chain_build_random(&c, pkt, lay.len, rng);
		memcpy(&seed, pkt + lay.outer.l4 + 6, 2);
		CHECK(csum_mbuf_lco(m, lay.outer.l4, 6, lay.inner.l4, lay.inner.csum_off) == 0, "lco");
		csum_mbuf_read(m, lay.outer.l4 + 6, 2, &lco);
		CHECK(csum_mbuf_apply_partial(m, lay.inner.l4, lay.inner.csum_off) == 0, "inner");
		csum_mbuf_write(m, lay.outer.l4 + 6, 2, &seed);
		CHECK(csum_mbuf_apply_partial(m, lay.outer.l4, 6) == 0, "outer full");
		csum_mbuf_read(m, lay.outer.l4 + 6, 2, &full);
		CHECK(lco == full, "lco %04x full %04x", lco, full);
		test_chain_free(&c);
	}
}

static void
test_errors(void)
{
	struct test_chain c;
	struct rte_mbuf *m;
	uint32_t cut = 40, sum;
	uint8_t b[16];
	struct pkt_layout lay;
	struct pkt_opts o = { .v6 = true, .payload = 100 };

	rng_fill(pkt, 200);
	m = test_chain_build(&c, pkt, 200, &cut, 1);
	CHECK(csum_mbuf_apply_partial(m, 200, 0) == -EINVAL, "start at end");
	CHECK(csum_mbuf_apply_partial(m, 190, 9) == -EINVAL, "field straddles end");
	CHECK(csum_mbuf_apply_partial(m, 0xffffffff, 0xffffffff) == -EINVAL, "wrap");
	CHECK(csum_mbuf_apply_partial(m, 10, 188) == 0, "field ends at end");
	CHECK(csum_mbuf_lco(m, 10, 6, 14, 6) == -EINVAL, "inner start inside outer field");
	CHECK(csum_mbuf_lco(m, 10, 6, 18, 190) == -EINVAL, "inner field past end");
	CHECK(csum_mbuf_lco(m, 10, 6, 18, 6) == 0, "lco minimal");
	CHECK(csum_mbuf_read(m, 199, 2, b) == -EINVAL, "read past end");
	CHECK(csum_mbuf_write(m, 199, 2, b) == -EINVAL, "write past end");
	CHECK(csum_mbuf_apply_crc32c(m, 190, 8) == -EINVAL, "crc field past end");
	/* A chain shorter than pkt_len: an error everywhere, never a crash. */
	m->pkt_len = 300;
	CHECK(csum_mbuf_sum(m, 0, 300, &sum) == -EINVAL, "short chain sum");
	CHECK(csum_mbuf_sum(m, 250, 10, &sum) == -EINVAL, "short chain sum far");
	CHECK(csum_mbuf_apply_partial(m, 10, 6) == -EINVAL, "short chain partial");
	CHECK(csum_mbuf_apply_partial(m, 10, 260) == -EINVAL, "short chain write");
	CHECK(csum_mbuf_read(m, 195, 10, b) == -EINVAL, "short chain read");
	CHECK(csum_mbuf_complete(m, 0, &sum) == -EINVAL, "short chain complete");
	test_chain_free(&c);

	/* IPv6 jumbogram (payload length 0) is refused as unsupported. */
	rng_fill(pkt, sizeof(pkt));
	pkt_build(pkt, &o, &lay);
	pkt[lay.outer.l3 + 4] = pkt[lay.outer.l3 + 5] = 0;
	m = test_chain_build(&c, pkt, lay.len, NULL, 0);
	csum_mbuf_complete(m, lay.outer.l3, &sum);
	CHECK(csum_mbuf_verify_l4(m, lay.outer.l3, sum, lay.outer.l3, lay.outer.l4, 17, 0)
	      == -ENOTSUP, "jumbogram");
	test_chain_free(&c);
	/* Bad IPv4 header checksum is seen. */
	o.v6 = false;
	pkt_build(pkt, &o, &lay);
	m = test_chain_build(&c, pkt, lay.len, NULL, 0);
	CHECK(csum_mbuf_ipv4_hdr_ok(m, lay.outer.l3) == 1, "ipv4 hdr ok");
	CHECK(csum_mbuf_ipv4_hdr_ok(m, 0) == -EINVAL, "not ipv4");
	CHECK(csum_mbuf_ipv4_hdr_ok(m, lay.len - 4) == -EINVAL, "ipv4 hdr beyond packet");
	test_chain_free(&c);
	pkt[lay.outer.l3 + 8]--;
	m = test_chain_build(&c, pkt, lay.len, NULL, 0);
	CHECK(csum_mbuf_ipv4_hdr_ok(m, lay.outer.l3) == 0, "ipv4 hdr bad");
	test_chain_free(&c);
}

/* The CRC value as the number ~crc32c, whatever order it is stored in. */
static uint32_t
crc_host_order(uint32_t stored)
{
	return rte_le_to_cpu_32(stored);
}

static void
test_crc32c_mbuf(void)
{
	struct test_chain c;
	unsigned int r;

	for (r = 0; r < 500; r++) {
		uint32_t len = 12 + rng_below(3000), start = rng_below(60), crc;
		struct rte_mbuf *m;

		rng_fill(pkt, len + start);
		m = test_chain_build_random(&c, pkt, len + start, rng);
		CHECK(csum_mbuf_apply_crc32c(m, start, 8) == 0, "crc32c mbuf");
		test_chain_flatten(m, flat);
		memset(pkt + start + 8, 0, 4);
		crc = csum_sctp_crc32c(pkt + start, len);
		CHECK(memcmp(flat + start + 8, &crc, 4) == 0, "crc32c mbuf value");
		/* RFC 9260: little-endian on the wire. */
		CHECK(flat[start + 8] == (uint8_t)crc_host_order(crc), "crc32c byte order");
		test_chain_free(&c);
	}
}

/*
 * A region that sums to 0xFFFF gives a checksum of 0, which must be stored
 * as 0xFFFF (for UDP, 0 would mean "no checksum"); also through LCO.
 */
static void
test_mangled_zero(void)
{
	struct test_chain c;
	struct pkt_layout lay;
	struct pkt_opts o = { .payload = 10 };
	unsigned int r;

	for (r = 0; r < 8; r++) {
		struct rte_mbuf *m;
		uint32_t last;
		uint16_t fix, got;

		o.v6 = r & 1;
		o.tcp = r & 2;
		o.encap = r & 4;
		rng_fill(pkt, sizeof(pkt));
		pkt_build(pkt, &o, &lay);
		/* Choose the last two payload bytes so the L4 region sums to 0xFFFF. */
		last = lay.len - 2;
		memset(pkt + last, 0, 2);
		if (lay.encap) {
			/* inner region sums to ~seed once filled: outer sees only that */
			uint16_t iseed;

			/* the payload is inside the inner region: use the last two
			 * VXLAN header bytes instead, which only the outer covers */
			memset(pkt + lay.outer.l4 + 8 + 6, 0, 2);
			memcpy(&iseed, pkt + lay.inner.l4 + lay.inner.csum_off, 2);
			fix = csum_finish(csum_block_add(csum_partial(pkt + lay.outer.l4,
				lay.inner.l4 - lay.outer.l4, 0), (uint16_t)~iseed,
				lay.inner.l4 - lay.outer.l4));
			memcpy(pkt + lay.outer.l4 + 8 + 6, &fix, 2);
		} else {
			fix = csum_finish(csum_partial(pkt + lay.outer.l4, lay.len - lay.outer.l4, 0));
			memcpy(pkt + last, &fix, 2);
		}
		m = test_chain_build_random(&c, pkt, lay.len, rng);
		if (lay.encap)
			CHECK(csum_mbuf_lco(m, lay.outer.l4, 6, lay.inner.l4,
					    lay.inner.csum_off) == 0, "lco");
		else
			CHECK(csum_mbuf_apply_partial(m, lay.outer.l4, lay.outer.csum_off) == 0,
			      "partial");
		csum_mbuf_read(m, lay.outer.l4 + lay.outer.csum_off, 2, &got);
		CHECK(got == 0xffff, "%s %s: sum 0 stored as %04x, want ffff",
		      lay.encap ? "lco" : "partial", o.tcp ? "tcp" : "udp", got);
		test_chain_free(&c);
	}
}

/* seed_l4 writes what pkt_build wrote; ipv4_hdr_fill what csum_ipv4_hdr gives. */
static void
test_seed_and_hdr(void)
{
	struct test_chain c;
	struct pkt_layout lay;
	struct pkt_opts o;
	unsigned int r;

	for (r = 0; r < 500; r++) {
		struct rte_mbuf *m;
		uint8_t want[2], got[2];
		const struct pkt_l4 *l;

		random_opts(&o);
		o.trailer = 0;
		rng_fill(pkt, sizeof(pkt));
		pkt_build(pkt, &o, &lay);
		l = lay.encap && (r & 1) ? &lay.inner : &lay.outer;
		memcpy(want, pkt + l->l4 + l->csum_off, 2);
		memset(pkt + l->l4 + l->csum_off, 0xa5, 2);
		if (!l->v6)
			memset(pkt + l->l3 + 10, 0x5a, 2);
		m = test_chain_build_random(&c, pkt, lay.len, rng);
		CHECK(csum_mbuf_seed_l4(m, l->l3, l->l4, l->proto) == 0, "seed_l4");
		csum_mbuf_read(m, l->l4 + l->csum_off, 2, got);
		CHECK(memcmp(want, got, 2) == 0, "seed %02x%02x want %02x%02x",
		      got[0], got[1], want[0], want[1]);
		if (!l->v6) {
			CHECK(csum_mbuf_ipv4_hdr_ok(m, l->l3) == 0, "header still bad");
			CHECK(csum_mbuf_ipv4_hdr_fill(m, l->l3) == 0, "ipv4 fill");
			CHECK(csum_mbuf_ipv4_hdr_ok(m, l->l3) == 1, "ipv4 fill result");
		} else {
			CHECK(csum_mbuf_ipv4_hdr_fill(m, l->l3) == -EINVAL, "ipv4 fill on v6");
		}
		CHECK(csum_mbuf_seed_l4(m, l->l3, l->l4, 1) == -EINVAL, "seed icmp");
		CHECK(csum_mbuf_seed_l4(m, l->l4, l->l3, l->proto) == -EINVAL, "seed order");
		CHECK(csum_mbuf_seed_l4(m, l->l3, lay.len - 4, l->proto) == -EINVAL, "seed short");
		test_chain_free(&c);
	}
}

/*
 * A random packet with every checksum right, in flat (trailer included);
 * returns DPDK's own value of its outer L4 checksum.
 */
static uint16_t
build_all_right(struct pkt_opts *o, struct pkt_layout *lay)
{
	struct test_chain c;
	struct rte_mbuf *m;

	random_opts(o);
	rng_fill(pkt, sizeof(pkt));
	pkt_build(pkt, o, lay);
	m = test_chain_build_random(&c, pkt, lay->len - lay->trailer, rng);
	if (lay->encap)
		csum_mbuf_lco(m, lay->outer.l4, lay->outer.csum_off,
			      lay->inner.l4, lay->inner.csum_off);
	csum_mbuf_apply_partial(m, lay->encap ? lay->inner.l4 : lay->outer.l4,
				lay->encap ? lay->inner.csum_off : lay->outer.csum_off);
	test_chain_flatten(m, flat);
	test_chain_free(&c);
	memcpy(flat + lay->len - lay->trailer, pkt + lay->len - lay->trailer,
	       lay->trailer);
	return dpdk_l4(flat, &lay->outer);
}

/*
 * A received partial checksum (virtio-net's NEEDS_CSUM: the field holds the
 * pseudo-header seed) is made right from the COMPLETE sum, and the sum
 * follows: the field equals DPDK's own computation, the updated sum a
 * fresh one, the inner checksum still verifies, a second pass changes
 * nothing, an IPv4 UDP "no checksum" stays.
 */
static void
test_resolve_received_partial(void)
{
	struct test_chain c;
	struct pkt_layout lay;
	struct pkt_opts o;
	unsigned int r;

	for (r = 0; r < 2000; r++) {
		struct rte_mbuf *m;
		uint32_t start, sum, fresh;
		uint16_t want;
		int ret;

		/* Every checksum right, then the outer one back to its seed. */
		want = build_all_right(&o, &lay);
		pkt_seed(flat, &lay.outer);
		m = test_chain_build_random(&c, flat, lay.len, rng);

		start = rng() & 1 ? lay.outer.l3 : rng_below(lay.outer.l3 + 1);
		CHECK(csum_mbuf_complete(m, start, &sum) == 0, "complete");
		if (rng() & 1)
			sum = csum_fold(sum);
		ret = csum_mbuf_resolve_l4(m, start, &sum, lay.outer.l3, lay.outer.l4,
					   lay.outer.proto);
		test_chain_flatten(m, flat);
		CHECK(ret == CSUM_L4_GOOD, "resolve: %d", ret);
		CHECK(field(flat, &lay.outer) == want, "%s/%s%s: resolved %04x want %04x",
		      o.v6 ? "v6" : "v4", o.tcp ? "tcp" : "udp", o.encap ? " encap" : "",
		      field(flat, &lay.outer), want);
		CHECK(csum_mbuf_complete(m, start, &fresh) == 0 &&
		      csum_fold(fresh) == csum_fold(sum), "the sum follows the field");
		if (lay.encap)
			CHECK(csum_mbuf_verify_l4(m, start, sum, lay.inner.l3, lay.inner.l4,
						  lay.inner.proto, 0) == CSUM_L4_GOOD,
			      "inner verify after resolve");
		{
			uint8_t again[sizeof(pkt)];

			CHECK(csum_mbuf_resolve_l4(m, start, &sum, lay.outer.l3, lay.outer.l4,
						   lay.outer.proto) == CSUM_L4_GOOD, "second resolve");
			test_chain_flatten(m, again);
			CHECK(memcmp(again, flat, lay.len) == 0, "a right field is left as it is");
		}
		if (lay.outer.proto == 17 && !lay.outer.v6) {
			const uint16_t zero = 0;
			uint16_t after;

			csum_mbuf_write(m, lay.outer.l4 + 6, 2, &zero);
			csum_mbuf_complete(m, start, &sum);
			CHECK(csum_mbuf_resolve_l4(m, start, &sum, lay.outer.l3,
						   lay.outer.l4, 17) == CSUM_L4_NONE, "zero UDP");
			csum_mbuf_read(m, lay.outer.l4 + 6, 2, &after);
			CHECK(after == 0, "an IPv4 UDP without checksum keeps none");
		}
		CHECK(csum_mbuf_resolve_l4(m, start, &sum, lay.outer.l3, lay.outer.l4,
					   50) == -EINVAL, "protocol 50 refused");
		test_chain_free(&c);
	}
}

/*
 * The packet-socket form: the field is completed only when it holds the
 * seed. A seed is made right (DPDK's own value) and the sum follows; any
 * other wrong value is BAD and not written; a right field is GOOD as it is.
 */
static void
test_resolve_seed_only(void)
{
	struct test_chain c;
	struct pkt_layout lay;
	struct pkt_opts o;
	unsigned int r;

	for (r = 0; r < 2000; r++) {
		uint8_t before[sizeof(pkt)];
		struct rte_mbuf *m;
		uint32_t start, sum, fresh;
		uint16_t want, wrong;
		int ret;

		want = build_all_right(&o, &lay);
		start = rng() & 1 ? lay.outer.l3 : rng_below(lay.outer.l3 + 1);

		/* Right already: GOOD, nothing written. */
		m = test_chain_build_random(&c, flat, lay.len, rng);
		CHECK(csum_mbuf_complete(m, start, &sum) == 0, "complete");
		CHECK(csum_mbuf_resolve_l4_seed(m, start, &sum, lay.outer.l3, lay.outer.l4,
						lay.outer.proto) == CSUM_L4_GOOD, "right field");
		test_chain_flatten(m, before);
		CHECK(memcmp(before, flat, lay.len) == 0, "a right field is left as it is");
		test_chain_free(&c);

		/* Wrong, but not the seed: BAD, nothing written. */
		pkt_seed(flat, &lay.outer);
		wrong = field(flat, &lay.outer) ^ (uint16_t)(1 + rng_below(0xfffe));
		memcpy(flat + lay.outer.l4 + lay.outer.csum_off, &wrong, 2);
		if (wrong != want && !(lay.outer.proto == 17 && wrong == 0)) {
			m = test_chain_build_random(&c, flat, lay.len, rng);
			CHECK(csum_mbuf_complete(m, start, &sum) == 0, "complete");
			ret = csum_mbuf_resolve_l4_seed(m, start, &sum, lay.outer.l3,
							lay.outer.l4, lay.outer.proto);
			CHECK(ret == CSUM_L4_BAD, "a wrong field that is no seed: %d", ret);
			test_chain_flatten(m, before);
			CHECK(memcmp(before, flat, lay.len) == 0, "nothing written");
			test_chain_free(&c);
		}

		/* The seed: made right, and the sum follows. */
		pkt_seed(flat, &lay.outer);
		m = test_chain_build_random(&c, flat, lay.len, rng);
		CHECK(csum_mbuf_complete(m, start, &sum) == 0, "complete");
		ret = csum_mbuf_resolve_l4_seed(m, start, &sum, lay.outer.l3, lay.outer.l4,
						lay.outer.proto);
		test_chain_flatten(m, before);
		CHECK(ret == CSUM_L4_GOOD, "seed resolve: %d", ret);
		CHECK(field(before, &lay.outer) == want, "%s/%s%s: resolved %04x want %04x",
		      o.v6 ? "v6" : "v4", o.tcp ? "tcp" : "udp", o.encap ? " encap" : "",
		      field(before, &lay.outer), want);
		CHECK(csum_mbuf_complete(m, start, &fresh) == 0 &&
		      csum_fold(fresh) == csum_fold(sum), "the sum follows the field");
		test_chain_free(&c);
	}
}

/*
 * IPv6 with a routing header that has segments left (RFC 8200 8.1): the
 * seed, the filled checksum and the verdict use the final destination
 * (type 0: the last address; SRH: Segment List[0]), with the headers cut
 * into segments at every byte; a malformed one is refused.
 */
static void
test_routed_pseudo(void)
{
	static const uint8_t src[16] = { 0x20, 0x01, 0x0d, 0xb8, 1, [15] = 2 };
	static const uint8_t dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 1, [15] = 1 };
	static uint8_t p[14 + 40 + 56 + 20 + 21];
	unsigned int type, tcp, cut;

	for (type = 0; type < 2; type++) {
		for (tcp = 0; tcp < 2; tcp++) {
			uint32_t rh = type == 0 ? 40 : 56, l4 = 54 + rh;
			uint32_t l4_len = (tcp ? 20 : 8) + 21, len = l4 + l4_len;
			uint32_t off = tcp ? 16 : 6, i, sum;
			const uint8_t *final;
			uint16_t want, fixed, got;

			memset(p, 0, sizeof(p));
			p[12] = 0x86;
			p[13] = 0xdd;
			p[14] = 0x60;
			p[18] = (uint8_t)((len - 54) >> 8);
			p[19] = (uint8_t)(len - 54);
			p[20] = 43;
			memcpy(p + 22, src, 16);
			memcpy(p + 38, dst, 16);
			p[54] = tcp ? 6 : 17;
			if (type == 0) {	/* two addresses, both left */
				p[55] = 4;
				p[57] = 2;
			} else {		/* SRH: three segments, two left */
				p[55] = 6;
				p[56] = 4;
				p[57] = 2;
				p[58] = 2;
			}
			for (i = 62; i < l4; i++)
				p[i] = (uint8_t)(i * 7);
			final = type == 0 ? p + l4 - 16 : p + 62;
			for (i = l4; i < len; i++)
				p[i] = (uint8_t)(i * 13);
			if (!tcp) {
				p[l4 + 4] = 0;
				p[l4 + 5] = (uint8_t)l4_len;
			} else {
				p[l4 + 12] = 0x50;
			}
			memset(p + l4 + off, 0, 2);
			sum = csum_partial(p + l4, l4_len, 0);
			want = csum_finish(csum_ipv6_pseudo(src, final, l4_len, p[54], sum));
			fixed = csum_finish(csum_ipv6_pseudo(src, dst, l4_len, p[54], sum));
			CHECK(want != fixed, "the two destinations give one checksum");
			for (cut = 1; cut < len; cut++) {
				struct test_chain c;
				struct rte_mbuf *m = test_chain_build(&c, p, len, &cut, 1);
				uint32_t complete;

				CHECK(csum_mbuf_seed_l4(m, 14, l4, p[54]) == 0 &&
				      csum_mbuf_apply_partial(m, l4, off) == 0,
				      "type %u tcp %u cut %u: seed and fill", type, tcp, cut);
				csum_mbuf_read(m, l4 + off, 2, &got);
				CHECK(got == want, "type %u tcp %u cut %u: filled %04x, final %04x, fixed %04x",
				      type, tcp, cut, got, want, fixed);
				csum_mbuf_complete(m, 14, &complete);
				CHECK(csum_mbuf_verify_l4(m, 14, complete, 14, l4, p[54], 0) ==
				      CSUM_L4_GOOD, "type %u tcp %u cut %u: verify", type, tcp, cut);
				csum_mbuf_write(m, l4 + off, 2, &fixed);
				csum_mbuf_complete(m, 14, &complete);
				CHECK(csum_mbuf_verify_l4(m, 14, complete, 14, l4, p[54], 0) ==
				      CSUM_L4_BAD, "type %u tcp %u cut %u: the fixed header's", type,
				      tcp, cut);
				/* l4_off inside the routing header: refused. */
				CHECK(csum_mbuf_verify_l4(m, 14, complete, 14, l4 - 8, p[54], 0) ==
				      -EINVAL, "type %u cut %u: l4_off not where the headers end",
				      type, cut);
				/* Segments left beyond the list: no final destination. */
				p[57] = 3 + type;
				test_chain_free(&c);
				m = test_chain_build(&c, p, len, &cut, 1);
				CHECK(csum_mbuf_seed_l4(m, 14, l4, p[54]) == -EINVAL &&
				      csum_mbuf_verify_l4(m, 14, complete, 14, l4, p[54], 0) == -EINVAL,
				      "type %u tcp %u cut %u: malformed", type, tcp, cut);
				p[57] = 2;
				test_chain_free(&c);
			}
		}
	}
}

int
main(void)
{
	rng_seed_from_env("test_csum_mbuf");
	printf("implementation: %s\n", csum_impl_active()->name);
	test_sum_ranges();
	test_packets();
	test_lco_equals_full();
	test_errors();
	test_crc32c_mbuf();
	test_mangled_zero();
	test_seed_and_hdr();
	test_resolve_received_partial();
	test_resolve_seed_only();
	test_routed_pseudo();
	return harness_summary("test_csum_mbuf");
}
