/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The gateway's encapsulation shortcuts (app/hwcsum-tunnel/encap_fast.h)
 * against the general code they stand in for: gw_walk_eth() against
 * csum_walk_eth() (status and every field), gw_inner_hash() against the
 * flow key built word by word and hashed by rte_hash_crc() (times
 * GW_FLOW_HASH_MUL), gw_flow_hash_key() against rte_hash_crc() (its
 * crc32 instruction and its table path), on crafted frames around each
 * condition of the shortcuts and on random ones. Any difference fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encap_fast.h"
#include "../lib/test_harness.h"
#include "../lib/test_rng.h"

static uint32_t rng = 12345;

static uint32_t
rnd(void)
{
	return test_xorshift32(&rng);
}

/* The flow key as encap.c has always built it, hashed by rte_hash_crc(). */
static uint32_t
ref_inner_hash(const uint8_t *p, const struct csum_walk *w, bool ip_ok)
{
	uint64_t key[5] = { 0 };	/* rte_hash_crc() reads 8 bytes at a time */
	uint8_t *k = (uint8_t *)key;
	uint32_t n, proto = w->l4_proto;

	if (!ip_ok) {
		memcpy(k, p, RTE_ETHER_HDR_LEN);
		n = 16;
	} else {
		n = w->ip_version == 4 ? 8 : 32;
		memcpy(k, p + w->l3_off + (w->ip_version == 4 ? 12 : 8), n);
		memcpy(k + n, &proto, 4);
		n += 4;
		if ((proto == IPPROTO_UDP || proto == IPPROTO_TCP) &&
		    !(w->flags & CSUM_WALK_F_FRAGMENT)) {
			memcpy(k + n, p + w->l4_off, 4);
			n += 4;
		}
	}
	return rte_hash_crc(key, n, GW_FLOW_HASH_SEED) * GW_FLOW_HASH_MUL;
}

static void
check_hash(const uint8_t *p, const struct csum_walk *ref, bool ref_ok,
	   const struct csum_walk *w, bool ok, const char *what)
{
	CHECK(gw_inner_hash(p, w, ok) == ref_inner_hash(p, ref, ref_ok),
	      "flow hash %s", what);
}

static void
check_walk(const uint8_t *p, uint32_t hdr_len, uint32_t pkt_len, const char *what)
{
	struct csum_walk a, b;
	enum csum_walk_status sa, sb;
	bool same;

	memset(&a, 0xa5, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	sa = csum_walk_eth(p, hdr_len, pkt_len, 0, &a);
	sb = gw_walk_eth(p, hdr_len, pkt_len, &b);
	same = sa == sb && (sa != CSUM_WALK_OK || memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(same, "walk %s (hdr_len %u pkt_len %u): status %d/%d", what,
	      hdr_len, pkt_len, sa, sb);
	if (!same)
		return;
	check_hash(p, &a, sa == CSUM_WALK_OK, &b, sb == CSUM_WALK_OK, what);
}

/* An untagged IPv4 frame of len bytes, 20-byte header, protocol proto. */
static void
ipv4_frame(uint8_t *p, uint32_t len, uint8_t proto)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rnd();
	p[12] = 0x08;
	p[13] = 0x00;
	p[14] = 0x45;
	p[16] = (uint8_t)((len - 14) >> 8);
	p[17] = (uint8_t)(len - 14);
	p[20] = 0;
	p[21] = 0;
	p[23] = proto;
}

static void
walks(void)
{
	static const uint8_t protos[] = { 6, 17, 1, 47, 132 };
	uint8_t p[256], q[256];
	uint32_t len, i, k;

	for (len = 0; len < 120; len++) {
		for (k = 0; k < sizeof(protos); k++) {
			ipv4_frame(p, sizeof(p), protos[k]);
			p[16] = (uint8_t)((len - 14) >> 8);
			p[17] = (uint8_t)(len - 14);
			/* as built, then each condition of the shortcut broken */
			check_walk(p, len, len, "ipv4");
			check_walk(p, len + 10, len, "ipv4, view past the packet");
			check_walk(p, len > 4 ? len - 4 : 0, len, "ipv4, short view");
			check_walk(p, len, len > 6 ? len - 6 : 0, "ipv4, short packet");
			check_walk(p, sizeof(p), sizeof(p), "ipv4, padded");
			memcpy(q, p, sizeof(q));
			q[14] = 0x46;
			check_walk(q, len, len, "ipv4 options");
			q[14] = 0x44;
			check_walk(q, len, len, "ihl 4");
			q[14] = 0x65;
			check_walk(q, len, len, "version 6 in an IPv4 ethertype");
			memcpy(q, p, sizeof(q));
			q[16] = 0;
			q[17] = 19;
			check_walk(q, len, len, "total length 19");
			q[17] = 0;
			check_walk(q, len, len, "total length 0");
			memcpy(q, p, sizeof(q));
			q[20] = 0x20;	/* MF */
			check_walk(q, len, len, "first fragment");
			q[20] = 0x00;
			q[21] = 0x08;	/* offset */
			check_walk(q, len, len, "later fragment");
			q[20] = 0x40;	/* DF only */
			q[21] = 0;
			check_walk(q, len, len, "DF");
			memcpy(q, p, sizeof(q));
			q[12] = 0x81;	/* VLAN */
			check_walk(q, len, len, "VLAN tag");
			q[12] = 0x86;
			q[13] = 0xdd;
			check_walk(q, len, len, "IPv6 ethertype");
			q[12] = 0x08;
			q[13] = 0x06;
			check_walk(q, len, len, "ARP");
		}
	}
	for (i = 0; i < 200000; i++) {
		len = rnd() % sizeof(p);
		ipv4_frame(p, sizeof(p), (uint8_t)rnd());
		/* flip a few bytes of the headers at random */
		for (k = rnd() % 4; k > 0; k--)
			p[rnd() % 40] ^= (uint8_t)(1u << (rnd() % 8));
		check_walk(p, rnd() % (sizeof(p) + 1), len, "random");
	}
}

/* With DPDK's table path too (what a build without SSE4.2 runs): i >= 100000. */
static void
hashes(void)
{
	uint64_t key[5];
	uint32_t *k = (uint32_t *)key, i, n;

	for (i = 0; i < 200000; i++) {
		if (i == 100000)
			rte_hash_crc_set_alg(CRC32_SW);
		for (n = 0; n < 10; n++)
			k[n] = rnd();
		n = 1 + i % 10;
		CHECK(gw_flow_hash_key(k, n) ==
		      rte_hash_crc(key, 4 * n, GW_FLOW_HASH_SEED) * GW_FLOW_HASH_MUL,
		      "flow hash of %u words", n);
	}
}

/* IPv6 and tagged frames: the general key, through the same check. */
static void
other_hashes(void)
{
	static const uint8_t protos[] = { 6, 17, 58, 44 };
	uint8_t p[128];
	uint32_t i, len;

	for (i = 0; i < 20000; i++) {
		ipv4_frame(p, sizeof(p), protos[i % 4]);
		p[12] = 0x86;
		p[13] = 0xdd;
		p[14] = 0x60;
		p[18] = 0;
		p[19] = 40;
		p[20] = protos[i % 4];
		len = 14 + 40 + 40;
		check_walk(p, len, len, "IPv6");
		ipv4_frame(p + 4, sizeof(p) - 4, protos[i % 4]);
		memmove(p, p + 4, 12);
		p[12] = 0x81;
		p[13] = 0x00;
		p[14] = 0;
		p[15] = 5;
		check_walk(p, sizeof(p), sizeof(p), "VLAN-tagged IPv4");
	}
}

int
main(void)
{
	walks();
	other_hashes();
	hashes();
	return harness_summary("test_encap_fast");
}
