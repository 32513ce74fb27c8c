/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * oracle_fill IN.pcap OUT.pcap: the transmit side of the scapy/tshark
 * oracle. Every packet of IN (Ethernet, IPv4/IPv6, UDP/TCP, optionally
 * VXLAN with an inner Ethernet/IP/UDP-or-TCP) arrives with wrong or zero
 * checksums; this program does what a stack plus a generic offload engine
 * would: IPv4 header checksums, pseudo-header seeds, then the inner L4 as a
 * CHECKSUM_PARTIAL request applied in software on a randomly segmented
 * mbuf, and the outer UDP checksum through LCO (plain packets: partial).
 * tshark and scapy then judge OUT independently.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "csum_mbuf.h"
#include "mbuf_build.h"
#include "test_util.h"

#define SNAP 65535
#define VXLAN_PORT 4789

struct l4_info {
	uint32_t l3, l4, l4_len;
	uint8_t proto;
	bool v6;
};

static int
parse_l3(uint8_t *p, uint32_t len, uint32_t l3, struct l4_info *l)
{
	if (l3 + 20 > len || ((p[l3] >> 4) == 6 && l3 + 40 > len))
		return -EINVAL;
	l->l3 = l3;
	if (p[l3] >> 4 == 4) {
		uint32_t ihl = (p[l3] & 0xf) * 4u;
		uint32_t tot = (uint32_t)(p[l3 + 2] << 8 | p[l3 + 3]);

		l->v6 = false;
		l->proto = p[l3 + 9];
		l->l4 = l3 + ihl;
		l->l4_len = tot - ihl;
		/* The stack fills the IPv4 header checksum before anything else. */
		memset(p + l3 + 10, 0, 2);
		{
			uint16_t c = csum_ipv4_hdr(p + l3);

			memcpy(p + l3 + 10, &c, 2);
		}
	} else if (p[l3] >> 4 == 6) {
		l->v6 = true;
		l->proto = p[l3 + 6];
		l->l4 = l3 + 40;
		l->l4_len = (uint32_t)(p[l3 + 4] << 8 | p[l3 + 5]);
	} else {
		return -EINVAL;
	}
	if (l->proto != 6 && l->proto != 17)
		return -EINVAL;
	if (l->l4 + l->l4_len > len)
		return -EINVAL;
	return 0;
}

static uint32_t
csum_field(const struct l4_info *l)
{
	return l->proto == 6 ? 16 : 6;
}

/* Seed: the folded pseudo-header sum, as a stack leaves it for the device. */
static void
seed(uint8_t *p, const struct l4_info *l)
{
	uint32_t s, d, ps;
	uint16_t folded;

	if (l->v6) {
		ps = csum_ipv6_pseudo(p + l->l3 + 8, p + l->l3 + 24, l->l4_len, l->proto, 0);
	} else {
		memcpy(&s, p + l->l3 + 12, 4);
		memcpy(&d, p + l->l3 + 16, 4);
		ps = csum_ipv4_pseudo(s, d, l->l4_len, l->proto, 0);
	}
	folded = csum_fold(ps);
	memcpy(p + l->l4 + csum_field(l), &folded, 2);
}

static int
fill(uint8_t *p, uint32_t len, unsigned long *n_lco)
{
	struct l4_info outer, inner;
	struct test_chain c;
	struct rte_mbuf *m;
	bool encap;
	int ret;

	if (len < 14 + 20)
		return -EINVAL;
	ret = parse_l3(p, len, 14, &outer);
	if (ret < 0)
		return ret;
	encap = outer.proto == 17 &&
		(uint32_t)(p[outer.l4 + 2] << 8 | p[outer.l4 + 3]) == VXLAN_PORT;
	if (encap) {
		ret = parse_l3(p, len, outer.l4 + 8 + 8 + 14, &inner);
		if (ret < 0)
			return ret;
		seed(p, &inner);
	}
	seed(p, &outer);
	m = test_chain_build_random(&c, p, len, rng);
	if (encap) {
		/* Outer through LCO while the inner is still a request... */
		ret = csum_mbuf_lco(m, outer.l4, csum_field(&outer), inner.l4,
				    csum_field(&inner));
		/* ... which the "device" then completes. */
		if (ret == 0)
			ret = csum_mbuf_apply_partial(m, inner.l4, csum_field(&inner));
		(*n_lco)++;
	} else {
		ret = csum_mbuf_apply_partial(m, outer.l4, csum_field(&outer));
	}
	if (ret == 0)
		test_chain_flatten(m, p);
	test_chain_free(&c);
	return ret;
}

int
main(int argc, char **argv)
{
	static uint8_t pkt[SNAP];
	uint8_t ghdr[24], rhdr[16];
	unsigned long n = 0, n_lco = 0;
	FILE *in, *out;
	int ret = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: oracle_fill IN.pcap OUT.pcap\n");
		return 2;
	}
	rng_seed_from_env("oracle_fill");
	in = fopen(argv[1], "rb");
	if (in == NULL) {
		fprintf(stderr, "oracle_fill: cannot open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	out = fopen(argv[2], "wb");
	if (out == NULL) {
		fprintf(stderr, "oracle_fill: cannot create %s: %s\n", argv[2], strerror(errno));
		fclose(in);
		return 1;
	}
	if (fread(ghdr, sizeof(ghdr), 1, in) != 1 ||
	    !(ghdr[0] == 0xd4 && ghdr[1] == 0xc3 && ghdr[2] == 0xb2 && ghdr[3] == 0xa1)) {
		fprintf(stderr, "oracle_fill: %s is not a little-endian microsecond pcap\n", argv[1]);
		ret = 1;
		goto done;
	}
	fwrite(ghdr, sizeof(ghdr), 1, out);
	while (fread(rhdr, sizeof(rhdr), 1, in) == 1) {
		uint32_t incl;

		memcpy(&incl, rhdr + 8, 4);
		if (incl > SNAP || fread(pkt, incl, 1, in) != 1) {
			fprintf(stderr, "oracle_fill: packet %lu truncated\n", n + 1);
			ret = 1;
			goto done;
		}
		if (fill(pkt, incl, &n_lco) < 0) {
			fprintf(stderr, "oracle_fill: packet %lu: not a shape this tool knows\n", n + 1);
			ret = 1;
			goto done;
		}
		fwrite(rhdr, sizeof(rhdr), 1, out);
		fwrite(pkt, incl, 1, out);
		n++;
	}
	printf("oracle_fill: %lu packets filled (%lu through LCO), implementation %s\n",
	       n, n_lco, csum_impl_active()->name);
done:
	fclose(in);
	if (fclose(out) != 0)
		ret = 1;
	return ret;
}
