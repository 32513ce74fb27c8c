/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The spread of the gateway's outer UDP source port (encap_fast.h:
 * gw_inner_hash() scaled by gw_src_port(), as encap.c uses them) over
 * synthetic flows that differ in one field only (a port, an address, a
 * MAC), the usual case a linear hash such as CRC32-C can get wrong, and
 * over random ones. Each family of flows is judged against what a random
 * function would give:
 *  - chi-square of the ports over 64 equal buckets of 32768-60999, and
 *    over every port of a 97-port range, below the upper 1e-6 quantile;
 *  - collisions (flows sharing a port with an earlier flow) in 32768-60999
 *    below the upper 1e-6 bound of their Poisson law.
 * The thresholds come from those laws, not from the hash's own results.
 * The judge must also reject deliberately weak hashes (the low bits of one
 * word, an XOR of the key's words, the CRC without its multiply) on some
 * family: a judge that passes them would prove nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encap_fast.h"
#include "../lib/test_harness.h"
#include "../lib/test_rng.h"

#define N_FLOWS 4096
#define N_BUCKETS 64
#define Z_1E6 4.753	/* standard normal upper 1e-6 quantile */

typedef uint32_t (*hash_fn)(const uint8_t *p, const struct csum_walk *w, bool ip_ok);

struct range {
	uint16_t min, max;
};

static const struct range wide = { 32768, 60999 };	/* the default */
static const struct range narrow = { 4000, 4096 };	/* 97 ports */

static uint32_t rng = 2463534242u;

static uint32_t
rnd(void)
{
	return test_xorshift32(&rng);
}

/* Wilson-Hilferty: the chi-square upper quantile for df degrees of freedom. */
static double
chi2_bound(unsigned int df)
{
	double a = 2.0 / (9.0 * df), c = 1.0 - a + Z_1E6 * sqrt(a);

	return df * c * c * c;
}

/* Flow i of a family, as a frame; returns its length. */
typedef uint32_t (*family_fn)(uint8_t *p, uint32_t i);

static uint32_t
eth(uint8_t *p, uint16_t type)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };

	memcpy(p, macs, 12);
	p[12] = type >> 8;
	p[13] = type & 0xff;
	return 14;
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

/* IPv4 at p + off, 20 bytes, then 8 bytes of L4 (ports first). */
static uint32_t
ipv4(uint8_t *p, uint32_t off, uint8_t proto, uint32_t src, uint32_t dst,
     uint16_t sport, uint16_t dport)
{
	memset(p + off, 0, 28);
	p[off] = 0x45;
	put16(p + off + 2, 28);
	p[off + 8] = 64;
	p[off + 9] = proto;
	put32(p + off + 12, src);
	put32(p + off + 16, dst);
	put16(p + off + 20, sport);
	put16(p + off + 22, dport);
	return off + 28;
}

/* IPv6 at p + off, addresses 2001:db8::<src> and 2001:db8::<dst>. */
static uint32_t
ipv6(uint8_t *p, uint32_t off, uint8_t proto, uint32_t src, uint32_t dst,
     uint16_t sport, uint16_t dport)
{
	memset(p + off, 0, 48);
	p[off] = 0x60;
	put16(p + off + 4, 8);
	p[off + 6] = proto;
	p[off + 7] = 64;
	put32(p + off + 8, 0x20010db8);
	put32(p + off + 20, src);
	put32(p + off + 24, 0x20010db8);
	put32(p + off + 36, dst);
	put16(p + off + 40, sport);
	put16(p + off + 42, dport);
	return off + 48;
}

static uint32_t
tcp4_sport(uint8_t *p, uint32_t i)
{
	return ipv4(p, eth(p, 0x0800), IPPROTO_TCP, 0x0a000001, 0x0a000002,
		    32768 + i, 80);
}

static uint32_t
udp4_dport(uint8_t *p, uint32_t i)
{
	return ipv4(p, eth(p, 0x0800), IPPROTO_UDP, 0x0a000001, 0x0a000002,
		    5353, 1024 + i);
}

static uint32_t
tcp4_saddr(uint8_t *p, uint32_t i)
{
	return ipv4(p, eth(p, 0x0800), IPPROTO_TCP, 0x0a000000 + i, 0xc0a80001,
		    40000, 443);
}

static uint32_t
udp4_daddr(uint8_t *p, uint32_t i)
{
	return ipv4(p, eth(p, 0x0800), IPPROTO_UDP, 0xc0a80001, 0x0a000000 + i,
		    53, 53);
}

static uint32_t
tcp4_ports(uint8_t *p, uint32_t i)	/* 64 source x 64 destination ports */
{
	return ipv4(p, eth(p, 0x0800), IPPROTO_TCP, 0x0a000001, 0x0a000002,
		    49152 + i % 64, 8000 + i / 64);
}

static uint32_t
icmp4_saddr(uint8_t *p, uint32_t i)	/* no ports: a 3-word key */
{
	return ipv4(p, eth(p, 0x0800), IPPROTO_ICMP, 0x0a000000 + i, 0x0a0000fe,
		    0x0800, 0);
}

static uint32_t
vlan_udp4_sport(uint8_t *p, uint32_t i)	/* tagged: the general walk */
{
	eth(p, 0x8100);
	put16(p + 14, 5);
	put16(p + 16, 0x0800);
	return ipv4(p, 18, IPPROTO_UDP, 0x0a000001, 0x0a000002, 1024 + i, 4789);
}

static uint32_t
tcp6_sport(uint8_t *p, uint32_t i)
{
	return ipv6(p, eth(p, 0x86dd), IPPROTO_TCP, 1, 2, 32768 + i, 443);
}

static uint32_t
udp6_saddr(uint8_t *p, uint32_t i)
{
	return ipv6(p, eth(p, 0x86dd), IPPROTO_UDP, 0x1000 + i, 2, 5000, 5001);
}

static uint32_t
arp_smac(uint8_t *p, uint32_t i)	/* not IP: the MAC header */
{
	uint32_t len = eth(p, 0x0806);

	put32(p + 8, i);
	memset(p + len, 0, 28);
	return len + 28;
}

static uint32_t
random_v4(uint8_t *p, uint32_t i)
{
	(void)i;
	return ipv4(p, eth(p, 0x0800), rnd() & 1 ? IPPROTO_TCP : IPPROTO_UDP,
		    rnd(), rnd(), rnd(), rnd());
}

static const struct {
	const char *name;
	family_fn make;
} families[] = {
	{ "TCP/IPv4, source port", tcp4_sport },
	{ "UDP/IPv4, destination port", udp4_dport },
	{ "TCP/IPv4, source address", tcp4_saddr },
	{ "UDP/IPv4, destination address", udp4_daddr },
	{ "TCP/IPv4, both ports", tcp4_ports },
	{ "ICMP/IPv4, source address", icmp4_saddr },
	{ "VLAN UDP/IPv4, source port", vlan_udp4_sport },
	{ "TCP/IPv6, source port", tcp6_sport },
	{ "UDP/IPv6, source address", udp6_saddr },
	{ "ARP, source MAC", arp_smac },
	{ "random IPv4 5-tuples", random_v4 },
};

#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

/* The port of every flow of a family, as encap.c picks it. */
static void
ports_of(family_fn make, hash_fn hash, struct range r, uint16_t *ports)
{
	uint8_t p[128];
	struct csum_walk w;
	uint32_t i, len;
	bool ip_ok;

	for (i = 0; i < N_FLOWS; i++) {
		len = make(p, i);
		ip_ok = gw_walk_eth(p, len, len, &w) == CSUM_WALK_OK;
		ports[i] = gw_src_port(hash(p, &w, ip_ok), r.min, r.max);
	}
}

struct verdict {
	double chi2_wide, chi2_narrow, bound_wide, bound_narrow;
	unsigned int collisions, out_of_range;
	double collisions_expected, collisions_bound;
	bool ok;
};

static double
chi2(const unsigned int *count, unsigned int n_cells, double expected)
{
	double s = 0;
	unsigned int c;

	for (c = 0; c < n_cells; c++)
		s += (count[c] - expected) * (count[c] - expected) / expected;
	return s;
}

static struct verdict
judge(family_fn make, hash_fn hash)
{
	static uint16_t ports[N_FLOWS];
	static uint8_t seen[65536];
	unsigned int buckets[N_BUCKETS] = { 0 }, per_port[97] = { 0 }, i;
	uint32_t span = wide.max - wide.min + 1;
	struct verdict v = { 0 };

	rng = 2463534242u;
	ports_of(make, hash, wide, ports);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < N_FLOWS; i++) {
		if (ports[i] < wide.min || ports[i] > wide.max) {
			v.out_of_range++;
			continue;
		}
		buckets[(ports[i] - wide.min) * N_BUCKETS / span]++;
		v.collisions += seen[ports[i]];
		seen[ports[i]] = 1;
	}
	v.chi2_wide = chi2(buckets, N_BUCKETS, (double)N_FLOWS / N_BUCKETS);
	v.bound_wide = chi2_bound(N_BUCKETS - 1);
	/* Flows minus occupied ports; nearly Poisson at this load (0.15). */
	v.collisions_expected = N_FLOWS - span * (1.0 - pow(1.0 - 1.0 / span, N_FLOWS));
	v.collisions_bound = v.collisions_expected + Z_1E6 * sqrt(v.collisions_expected);

	rng = 2463534242u;
	ports_of(make, hash, narrow, ports);
	for (i = 0; i < N_FLOWS; i++) {
		if (ports[i] < narrow.min || ports[i] > narrow.max)
			v.out_of_range++;
		else
			per_port[ports[i] - narrow.min]++;
	}
	v.chi2_narrow = chi2(per_port, 97, (double)N_FLOWS / 97);
	v.bound_narrow = chi2_bound(96);
	v.ok = v.out_of_range == 0 && v.chi2_wide <= v.bound_wide &&
		v.chi2_narrow <= v.bound_narrow && v.collisions <= v.collisions_bound;
	return v;
}

/* Weak hashes the judge must catch. */
static uint32_t
weak_low_bits(const uint8_t *p, const struct csum_walk *w, bool ip_ok)
{
	uint32_t x;

	if (!ip_ok) {
		memcpy(&x, p + 8, 4);	/* the source MAC's low bytes */
		return x & 0xffff;
	}
	memcpy(&x, p + w->l4_off, 4);	/* the ports word */
	return x & 0xffff;
}

static uint32_t
weak_xor(const uint8_t *p, const struct csum_walk *w, bool ip_ok)
{
	uint32_t a, b, c = 0;

	if (!ip_ok) {
		memcpy(&a, p, 4);
		memcpy(&b, p + 8, 4);
		return a ^ b;
	}
	memcpy(&a, p + w->l3_off + (w->ip_version == 4 ? 12 : 20), 4);
	memcpy(&b, p + w->l3_off + (w->ip_version == 4 ? 16 : 36), 4);
	if (w->l4_proto == IPPROTO_UDP || w->l4_proto == IPPROTO_TCP)
		memcpy(&c, p + w->l4_off, 4);
	return a ^ b ^ c ^ w->l4_proto;
}

/* The inverse of GW_FLOW_HASH_MUL modulo 2^32 (Newton). */
static uint32_t
mul_inverse(void)
{
	uint32_t x = GW_FLOW_HASH_MUL, i;

	for (i = 0; i < 5; i++)
		x *= 2 - GW_FLOW_HASH_MUL * x;
	return x;
}

static uint32_t
weak_crc_alone(const uint8_t *p, const struct csum_walk *w, bool ip_ok)
{
	return gw_inner_hash(p, w, ip_ok) * mul_inverse();
}

static const struct {
	const char *name;
	hash_fn fn;
} weak[] = {
	{ "low 16 bits of the ports word", weak_low_bits },
	{ "XOR of the key's words", weak_xor },
	{ "CRC32-C without the multiply", weak_crc_alone },
};

static void
print(const char *family, const struct verdict *v)
{
	printf("  %-32s chi2 %6.1f (<= %.1f)  97 ports %6.1f (<= %.1f)  "
	       "collisions %4u (%.0f expected, <= %.0f)%s  %s\n", family,
	       v->chi2_wide, v->bound_wide, v->chi2_narrow, v->bound_narrow,
	       v->collisions, v->collisions_expected, v->collisions_bound,
	       v->out_of_range ? "  OUT OF RANGE" : "", v->ok ? "ok" : "REJECTED");
}

int
main(void)
{
	unsigned int f, k, rejected;
	struct verdict v;

	printf("gw_inner_hash, %u flows a family:\n", N_FLOWS);
	for (f = 0; f < N_FAMILIES; f++) {
		v = judge(families[f].make, gw_inner_hash);
		print(families[f].name, &v);
		CHECK(v.ok, "the source port is well spread: %s", families[f].name);
	}
	for (k = 0; k < sizeof(weak) / sizeof(weak[0]); k++) {
		printf("weak hash, %s:\n", weak[k].name);
		rejected = 0;
		for (f = 0; f < N_FAMILIES; f++) {
			v = judge(families[f].make, weak[k].fn);
			print(families[f].name, &v);
			rejected += !v.ok;
		}
		CHECK(rejected > 0, "the judge rejects a weak hash: %s", weak[k].name);
	}
	return harness_summary("test_src_port_spread");
}
