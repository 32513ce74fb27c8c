/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The gateway's encapsulation shortcuts (app/hwcsum-tunnel/encap_fast.h)
 * against the general code they stand in for: gw_walk_eth() against
 * csum_walk_eth() (status and every field) and gw_jhash_32b() against
 * rte_jhash_32b(), on crafted frames around each condition of the
 * shortcut and on random ones. Any difference fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encap_fast.h"

static unsigned int fails, checks;

static uint32_t rng = 12345;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void
check_walk(const uint8_t *p, uint32_t hdr_len, uint32_t pkt_len, const char *what)
{
	struct csum_walk a, b;
	enum csum_walk_status sa, sb;

	memset(&a, 0xa5, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	sa = csum_walk_eth(p, hdr_len, pkt_len, 0, &a);
	sb = gw_walk_eth(p, hdr_len, pkt_len, &b);
	checks++;
	if (sa != sb || (sa == CSUM_WALK_OK && memcmp(&a, &b, sizeof(a)) != 0)) {
		fails++;
		printf("FAIL: walk %s (hdr_len %u pkt_len %u): status %d/%d\n", what,
		       hdr_len, pkt_len, sa, sb);
	}
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

static void
hashes(void)
{
	uint32_t k[10], i, n;

	for (i = 0; i < 200000; i++) {
		for (n = 0; n < 10; n++)
			k[n] = rnd();
		n = 1 + i % 9;
		checks++;
		if (gw_jhash_32b(k, n) != rte_jhash_32b(k, n, 0)) {
			fails++;
			printf("FAIL: jhash of %u words differs\n", n);
		}
	}
}

int
main(void)
{
	walks();
	hashes();
	printf("%u checks, %u failed\n", checks, fails);
	return fails == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
