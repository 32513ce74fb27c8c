/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one header walker rule for its inline variant: csum_walk_eth_fast()
 * must give csum_walk_eth()'s answer, status and every field, on any
 * input. Plausible frames (0-3 tags of any TPID, IPv4 with any ihl,
 * fragment bits and lengths that fit or lie, IPv6 with every next header
 * the walker treats apart, views and packet lengths cut anywhere, walks
 * from an inner offset) and plain random bytes; each view is a heap block
 * of exactly its size, so ASan sees a read past it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csum_walk.h"
#include "test_util.h"

#define BUF_MAX 256
#define ROUNDS 400000

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* One of a few values most of the time, anything sometimes. */
static uint16_t
pick16(const uint16_t *v, unsigned int n)
{
	uint64_t r = rng();

	return r % 8 == 0 ? (uint16_t)(r >> 8) : v[(r >> 8) % n];
}

/* A frame at off in buf; returns the bytes written. */
static uint32_t
build(uint8_t *buf, uint32_t off)
{
	static const uint16_t tpids[] = { 0x8100, 0x88a8, 0x0800 };
	static const uint16_t types[] = { 0x0800, 0x86dd, 0x0800, 0x86dd, 0x0806 };
	static const uint16_t nexts[] = { 17, 6, 0, 43, 44, 51, 60, 58, 17, 6 };
	uint32_t p = off + 12, n_tags = rng() % 8 < 5 ? 0 : rng() % 4, i, ihl, len;
	uint16_t type = pick16(types, 5);

	for (i = 0; i < BUF_MAX; i++)
		buf[i] = (uint8_t)rng();
	for (i = 0; i < n_tags; i++, p += 4)
		put16(buf + p, pick16(tpids, 3));
	put16(buf + p, type);
	p += 2;
	len = (uint32_t)(rng() % 120);
	if (rng() % 4 != 0) {
		if (type == 0x0800 || (type != 0x86dd && rng() % 2)) {
			ihl = rng() % 4 == 0 ? rng() % 16 : 5 + rng() % 3 * (rng() % 2);
			buf[p] = (uint8_t)((rng() % 8 == 0 ? rng() % 16 : 4) << 4 | ihl);
			put16(buf + p + 2, (uint16_t)(rng() % 8 == 0 ? rng() :
						      ihl * 4 + len - rng() % 2));
			buf[p + 6] &= rng() % 2 ? 0x40 : 0xff;
			if (rng() % 2)
				buf[p + 7] = 0;
		} else {
			buf[p] = (uint8_t)((rng() % 8 == 0 ? rng() % 16 : 6) << 4 |
					   (buf[p] & 0xf));
			put16(buf + p + 4, (uint16_t)(rng() % 8 == 0 ? rng() % 4 == 0 ?
						      0 : rng() : len - rng() % 2));
			buf[p + 6] = (uint8_t)pick16(nexts, 10);
		}
	}
	p += 40 + len;
	return p > BUF_MAX ? BUF_MAX : p;
}

static uint8_t *
view_of(const uint8_t *p, uint32_t n)
{
	uint8_t *v = malloc(n ? n : 1);

	if (v == NULL)
		abort();
	memcpy(v, p, n);
	return v;
}

static unsigned long n_fast_ok, n_checked;

static void
compare(const uint8_t *buf, uint32_t hdr_len, uint32_t pkt_len, uint32_t off)
{
	uint8_t *v = view_of(buf, hdr_len);
	struct csum_walk a, b;
	enum csum_walk_status sa, sb;

	/* Different garbage in each: a field one of them leaves alone shows. */
	memset(&a, 0xa5, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	sa = csum_walk_eth(v, hdr_len, pkt_len, off, &a);
	sb = csum_walk_eth_fast(v, hdr_len, pkt_len, off, &b);
	/* final_dst_off means something only with CSUM_WALK_F_ROUTED, which
	 * the fast walk never sets (a routing header goes to csum_walk_eth()). */
	if (!((a.flags | b.flags) & CSUM_WALK_F_ROUTED))
		a.final_dst_off = b.final_dst_off = 0;
	CHECK(sa == sb && memcmp(&a, &b, sizeof(a)) == 0,
	      "view %u, packet %u, from %u: csum_walk_eth %s (l3 %u l4 %u end %u flags %#x), "
	      "fast %s (l3 %u l4 %u end %u flags %#x)", hdr_len, pkt_len, off,
	      csum_walk_status_name(sa), a.l3_off, a.l4_off, a.l3_end, a.flags,
	      csum_walk_status_name(sb), b.l3_off, b.l4_off, b.l3_end, b.flags);
	n_checked++;
	n_fast_ok += sa == CSUM_WALK_OK;
	free(v);
	/* And without any bytes at all. */
	if (hdr_len == 0) {
		sa = csum_walk_eth(NULL, 0, pkt_len, off, &a);
		sb = csum_walk_eth_fast(NULL, 0, pkt_len, off, &b);
		a.final_dst_off = b.final_dst_off = 0;
		CHECK(sa == sb && memcmp(&a, &b, sizeof(a)) == 0, "NULL view");
	}
}

int
main(void)
{
	static uint8_t buf[BUF_MAX];
	unsigned long r;
	uint32_t len, off, cut;

	rng_seed_from_env("csum-walk-fast");
	for (r = 0; r < ROUNDS; r++) {
		off = rng() % 4 == 0 ? (uint32_t)(rng() % 64) : 0;
		if (rng() % 16 == 0) {
			for (len = 0; len < BUF_MAX; len++)
				buf[len] = (uint8_t)rng();
			len = (uint32_t)(rng() % BUF_MAX);
		} else {
			len = build(buf, off);
		}
		switch (rng() % 4) {
		case 0:	/* the view shorter than the packet */
			cut = (uint32_t)(rng() % (len + 1));
			compare(buf, cut, len, off);
			break;
		case 1:	/* the packet shorter than its headers say */
			cut = (uint32_t)(rng() % (len + 1));
			compare(buf, cut, cut, off);
			break;
		case 2:	/* a view longer than the packet (it is clamped) */
			cut = (uint32_t)(rng() % (len + 1));
			compare(buf, len, cut, off);
			break;
		default:
			compare(buf, len, len + (uint32_t)(rng() % 3 == 0 ? rng() % 64 : 0), off);
			break;
		}
	}
	/* Every view and packet cut of a few whole frames. */
	for (r = 0; r < 64; r++) {
		len = build(buf, 0);
		for (cut = 0; cut <= len; cut++) {
			compare(buf, cut, len, 0);
			compare(buf, cut, cut, 0);
		}
	}
	printf("csum_walk_eth_fast: %lu walks compared, %lu of them ok\n",
	       n_checked, n_fast_ok);
	CHECK(n_fast_ok > n_checked / 20, "too few whole walks: %lu", n_fast_ok);
	return harness_summary("csum-walk-fast");
}
