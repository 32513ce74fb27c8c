/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive: the one-pass path against the general one. hwcsum_rx_one()
 * takes the one-pass path (every sum from pieces cut where the walk found
 * the headers) only for a packet of one segment; the same bytes in a
 * chain take the general path (COMPLETE over the chain, each L4 checksum
 * verified by lib/csum from it). Both must leave exactly the same mbuf:
 * flags, packet_type, header lengths, the COMPLETE field, the packet
 * bytes, and the same counters.
 *
 * The walk reads the first segment in place when it holds RX_VIEW_MAX
 * bytes, a copy of them otherwise: for both to walk the same bytes, the
 * chain is the whole packet and an empty segment, or, for a packet that
 * fits the copy, cut anywhere.
 *
 * Packets: randomized over the tunnel types of the registry (VXLAN on two
 * ports, GENEVE with options, VXLAN-GPE, GUE with extensions, none),
 * IPv4 with options / IPv6 with a hop-by-hop header, inner and outer,
 * 0-2 tags, UDP/TCP/SCTP, every checksum right or one wrong, zero UDP
 * checksums (outer and inner), odd payload lengths, Ethernet padding,
 * and damage: truncations, length fields that lie (IP and UDP),
 * IPv6 payload length 0, flipped header bytes, tunnel headers broken
 * (after the checksums, or before them, so that only the header is
 * wrong); and the sub-port's checksum flags (none, GOOD/BAD/NONE/UNKNOWN).
 * Half the packets are shaped as the usual frame (hwcsum_rx_usual.h: IPv4
 * or IPv6 without options, plain, VXLAN or GENEVE without options), which
 * a single segment then takes through that path when nothing is wrong;
 * the test requires a share of each IP version, outer and inner, and of
 * each tunnel type to have gone through it.
 *
 * Usage: test_rx_onepass [iterations] (a seed in HWCSUM_TEST_SEED replays).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <sys/socket.h>

#include "hwcsum_private.h"
#include "hwcsum_rx_usual.h"
#include "rte_pmd_hwcsum.h"

#include "fuzz_common.h"

#define COMPLETE_FLAG (UINT64_C(1) << 31)
/* Of every shape of the usual frame, at least 1/this of the packets went
 * through its path (each comes out at three times that or more). */
#define USUAL_SHAPE_SHARE 100
#define RX_FLAGS ((uint64_t)(RTE_MBUF_F_RX_IP_CKSUM_MASK | \
			     RTE_MBUF_F_RX_L4_CKSUM_MASK | \
			     RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD | \
			     RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK))

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t
below(uint32_t n)
{
	return n ? (uint32_t)(rng() % n) : 0;
}

static uint8_t pkt[FZ_PKT_MAX + 64], rnd_bytes[FZ_PKT_MAX];
static uint8_t out_a[FZ_PKT_MAX + 64], out_b[FZ_PKT_MAX + 64];

struct counts {
	unsigned long cases, complete, verdicts, tunnels, inner_good, bad,
		none, unknown, sub, resolved, usual, usual_tunnel, usual_v6,
		usual_inner_v6, usual_geneve;
} counts;

/* A packet as fuzz_rx.c builds it: every checksum right, then spoiled. */
static uint32_t
make_packet(void)
{
	static const uint16_t ports[FZ_TUN__COUNT] = { 0, 4789, 6081, 4790, 6080 };
	struct fz_pkt_opts o;
	struct fz_pkt l;
	uint32_t len, i, damage = below(16);
	bool outer_zero, inner_zero;

	memset(&o, 0, sizeof(o));
	o.vlans = below(3);
	o.v6 = below(2);
	o.ip_opt = below(4) == 0 ? 1 + below(2) : 0;
	o.tun = (enum fz_tun)below(FZ_TUN__COUNT + 2) % FZ_TUN__COUNT;
	o.tun_opt = below(4);
	o.inner_eth = below(2);
	o.inner_v6 = below(2);
	o.inner_ip_opt = below(4) == 0 ? 1 + below(2) : 0;
	o.proto = below(8) == 0 ? IPPROTO_SCTP : below(3) == 0 ? IPPROTO_TCP :
		IPPROTO_UDP;
	/* Half of them in the usual frame's shape (hwcsum_rx_usual.h), so that
	 * its path sees every damage below too. */
	if (below(2)) {
		o.vlans = below(2);
		o.v6 = below(3) == 0;
		o.ip_opt = 0;
		o.tun = below(3) == 0 ? FZ_TUN_NONE :
			below(3) == 0 ? FZ_TUN_GENEVE : FZ_TUN_VXLAN;
		o.tun_opt = 0;
		o.inner_v6 = below(3) == 0;
		o.inner_ip_opt = 0;
		o.proto = below(3) == 0 ? IPPROTO_TCP : IPPROTO_UDP;
	}
	o.udp_dport = o.tun == FZ_TUN_VXLAN && below(2) ? 8472 : ports[o.tun];
	o.payload = below(2) ? below(64) : below(1500);
	o.trailer = below(3) == 0 ? below(24) : 0;
	for (i = 0; i < sizeof(rnd_bytes); i++)
		rnd_bytes[i] = (uint8_t)rng();
	fz_pkt_build(pkt, &o, rnd_bytes, &l);
	len = l.len;
	inner_zero = l.proto == IPPROTO_UDP && below(8) == 0;
	outer_zero = l.encap && below(6) == 0;
	/* A tunnel header that is wrong with every checksum right: only the
	 * header can tell (GENEVE options or a C bit, VXLAN flags). */
	if (damage == 9 && l.encap)
		pkt[l.tun_hdr + below(4)] ^= (uint8_t)(1u << below(8));
	ref_l4_fill(pkt, l.l3, l.l4, l.l3_end, l.proto);
	if (inner_zero)
		put16(pkt + l.l4 + 6, 0);
	if (!l.v6)
		ref_ipv4_fill(pkt + l.l3);
	if (l.encap) {
		if (outer_zero)
			put16(pkt + l.outer_l4 + 6, 0);
		else
			ref_l4_fill(pkt, l.outer_l3, l.outer_l4, l.outer_l3_end,
				    IPPROTO_UDP);
		if (!l.outer_v6)
			ref_ipv4_fill(pkt + l.outer_l3);
	}
	/* Spoil: a checksum, a length, a header byte, the end. */
	switch (damage) {
	case 0:
		pkt[l.l4 + fz_csum_off(l.proto)] ^= 0x01;
		break;
	case 1:
		pkt[(l.encap ? l.outer_l4 : l.l4) + 6] ^= 0x40;
		break;
	case 2:
		pkt[(l.encap && below(2) ? l.outer_l3 : l.l3) + (l.v6 ? 7 : 10)] ^= 0x10;
		break;
	case 3:	/* a UDP length that lies (odd, short, long) */
		put_be16(pkt + (l.encap && below(2) ? l.outer_l4 : l.l4) + 4,
			 (uint16_t)(below(2) ? below(len + 16) : rng()));
		break;
	case 4:	/* an IP length that lies */
		if (below(2) && !l.v6)
			put_be16(pkt + l.l3 + 2, (uint16_t)below(len + 16));
		else if (l.encap && !l.outer_v6)
			put_be16(pkt + l.outer_l3 + 2, (uint16_t)below(len + 16));
		else
			put_be16(pkt + (l.encap ? l.outer_l3 : l.l3) + 4,
				 (uint16_t)(below(2) ? 0 : below(len)));
		break;
	case 5:	/* truncated anywhere */
		len = below(len + 1);
		break;
	case 6:	/* any byte of the headers */
		pkt[below(l.l4 + 8 < len ? l.l4 + 8 : len)] ^= (uint8_t)(1u << below(8));
		break;
	case 7:
		if (l.encap)
			pkt[l.tun_hdr + below(4)] = (uint8_t)rng();
		break;
	case 8:	/* a fragment */
		if (!l.v6)
			pkt[l.l3 + 6] |= below(2) ? 0x20 : 0x01;
		break;
	default:
		break;
	}
	return len;
}

/* The sub-port's checksum flags, as a NIC could set them (or nonsense). */
static uint64_t
sub_flags(void)
{
	static const uint64_t l4[] = { 0, RTE_MBUF_F_RX_L4_CKSUM_GOOD,
		RTE_MBUF_F_RX_L4_CKSUM_BAD, RTE_MBUF_F_RX_L4_CKSUM_NONE,
		RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN };
	static const uint64_t ip[] = { 0, RTE_MBUF_F_RX_IP_CKSUM_GOOD,
		RTE_MBUF_F_RX_IP_CKSUM_BAD, RTE_MBUF_F_RX_IP_CKSUM_NONE };

	if (below(2))
		return 0;
	return l4[below(5)] | ip[below(4)] |
		(below(8) == 0 ? RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD : 0);
}

static void
mbuf_prime(struct rte_mbuf *m, uint64_t flags, uint32_t ptype, uint64_t lens)
{
	m->ol_flags = flags;
	m->packet_type = ptype;
	m->tx_offload = lens;
	memset(&m->dynfield1, 0x77, sizeof(m->dynfield1));
}

/* Whether the usual frame's path alone takes the packet (counted only). */
static void
usual_count(const struct hwcsum_private *priv, uint64_t flags, uint32_t ptype,
	    uint64_t lens, uint32_t len)
{
	struct test_chain *c = malloc(sizeof(*c));
	struct hwcsum_rxq_stats st;
	struct rte_mbuf *m;

	if (c == NULL)
		abort();
	m = test_chain_build(c, pkt, len, NULL, 0);
	mbuf_prime(m, flags, ptype, lens);
	memset(&st, 0, sizeof(st));
	if (hwcsum_rx_usual(priv, m, flags & HWCSUM_RX_CKSUM_FLAGS, &st)) {
		counts.usual++;
		counts.usual_tunnel += (m->packet_type & RTE_PTYPE_TUNNEL_MASK) != 0;
		counts.usual_v6 += (m->packet_type & RTE_PTYPE_L3_MASK) ==
			RTE_PTYPE_L3_IPV6;
		counts.usual_inner_v6 += (m->packet_type & RTE_PTYPE_INNER_L3_MASK) ==
			RTE_PTYPE_INNER_L3_IPV6;
		counts.usual_geneve += (m->packet_type & RTE_PTYPE_TUNNEL_MASK) ==
			RTE_PTYPE_TUNNEL_GENEVE;
	}
	test_chain_free(c);
	free(c);
}

static void
one_case(struct hwcsum_private *priv, unsigned long iter)
{
	struct test_chain *one = malloc(sizeof(*one)), *two = malloc(sizeof(*two));
	struct hwcsum_rxq_stats sa, sb;
	uint32_t len = make_packet(), cut[2];
	unsigned int n_cuts;
	uint64_t flags = sub_flags() | (below(4) == 0 ? COMPLETE_FLAG : 0) |
		(rng() & RTE_MBUF_F_RX_VLAN);
	uint64_t lens = rng();
	uint32_t ptype = (uint32_t)rng();
	struct rte_mbuf *a, *b;

	if (one == NULL || two == NULL)
		abort();
	if (len < 2) {
		free(one);
		free(two);
		return;
	}
	/* RX_VIEW_MAX (512) bytes are copied for the walk from a chain. */
	if (len <= 512 && below(2)) {
		cut[0] = below(2) ? below(len < 128 ? len : 128) : below(len);
		n_cuts = 1;
	} else {
		cut[0] = len;	/* then an empty segment */
		cut[1] = 0;
		n_cuts = 2;
	}
	a = test_chain_build(one, pkt, len, NULL, 0);
	b = test_chain_build(two, pkt, len, cut, n_cuts);
	if (b->nb_segs < 2)
		abort();
	fz_cur_data = pkt;	/* saved by fuzz_fail() as the reproducer */
	fz_cur_size = len;
	mbuf_prime(a, flags, ptype, lens);
	mbuf_prime(b, flags, ptype, lens);
	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	snprintf(fz_ctx, sizeof(fz_ctx), "iteration %lu, len %u, chain cut at %u, "
		 "sub-port flags %#" PRIx64 ", registry %s", iter, len, cut[0],
		 flags & RX_FLAGS, priv->registry ? "yes" : "no");
	usual_count(priv, flags, ptype, lens, len);
	hwcsum_rx_one(priv, a, &sa);
	hwcsum_rx_one(priv, b, &sb);

	if (a->ol_flags != b->ol_flags)
		fuzz_fail("rx_onepass", "flags: one segment %#" PRIx64 ", chain %#" PRIx64,
			  a->ol_flags, b->ol_flags);
	if (a->packet_type != b->packet_type)
		fuzz_fail("rx_onepass", "packet_type: %#x, chain %#x", a->packet_type,
			  b->packet_type);
	if (a->tx_offload != b->tx_offload)
		fuzz_fail("rx_onepass", "header lengths: %#" PRIx64 ", chain %#" PRIx64,
			  a->tx_offload, b->tx_offload);
	if (memcmp(&a->dynfield1, &b->dynfield1, sizeof(a->dynfield1)) != 0) {
		const struct rte_pmd_hwcsum_csum *fa = (const void *)&a->dynfield1,
			*fb = (const void *)&b->dynfield1;

		fuzz_fail("rx_onepass", "COMPLETE field: start %u sum %#x, chain start %u sum %#x",
			  fa->start, fa->sum, fb->start, fb->sum);
	}
	if (memcmp(&sa, &sb, sizeof(sa)) != 0) {
		unsigned int i;

		for (i = 0; i < HWCSUM_RX__COUNT; i++)
			if (sa.c[i] != sb.c[i])
				fuzz_fail("rx_onepass", "counter %s: %" PRIu64 ", chain %" PRIu64,
					  hwcsum_rx_counter_names[i], sa.c[i], sb.c[i]);
		fuzz_fail("rx_onepass", "tunnel counters differ");
	}
	test_chain_flatten(a, out_a);
	test_chain_flatten(b, out_b);
	if (memcmp(out_a, out_b, len) != 0)
		fuzz_fail("rx_onepass", "packet bytes differ after receive");

	counts.cases++;
	counts.complete += (a->ol_flags & COMPLETE_FLAG) != 0;
	counts.verdicts += (a->ol_flags & RX_FLAGS) != 0;
	counts.tunnels += (a->packet_type & RTE_PTYPE_INNER_L3_MASK) != 0;
	counts.inner_good += (a->packet_type & RTE_PTYPE_INNER_L3_MASK) &&
		(a->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_GOOD &&
		(a->ol_flags & RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK) ==
		RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
	counts.bad += sa.c[HWCSUM_RX_L4_BAD] + sa.c[HWCSUM_RX_OUTER_L4_BAD] +
		sa.c[HWCSUM_RX_IP_BAD] + sa.c[HWCSUM_RX_OUTER_IP_BAD] != 0;
	counts.none += sa.c[HWCSUM_RX_L4_NONE] != 0;
	counts.unknown += sa.c[HWCSUM_RX_UNKNOWN] != 0;
	counts.sub += sa.c[HWCSUM_RX_VERDICT_SUB] != 0;
	counts.resolved += sa.c[HWCSUM_RX_OUTER_L4_RESOLVED] != 0;
	test_chain_free(one);
	test_chain_free(two);
	free(one);
	free(two);
}

int
main(int argc, char **argv)
{
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000, i;
	const char *seed = getenv("HWCSUM_TEST_SEED");
	struct udp_tunnel_registry *reg = udp_tunnel_registry_create();
	struct hwcsum_private *priv = calloc(1, sizeof(*priv));

	if (seed != NULL)
		rng_state = strtoull(seed, NULL, 0) | 1;
	printf("test_rx_onepass: seed %#" PRIx64 " (HWCSUM_TEST_SEED replays), %lu packets\n",
	       rng_state, iters);
	if (reg == NULL || priv == NULL ||
	    udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN) != 0 ||
	    udp_tunnel_port_add(reg, AF_INET, 8472, UDP_TUNNEL_TYPE_VXLAN) != 0 ||
	    udp_tunnel_port_add(reg, AF_INET6, 6081, UDP_TUNNEL_TYPE_GENEVE) != 0 ||
	    udp_tunnel_port_add(reg, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN_GPE) != 0 ||
	    udp_tunnel_port_add(reg, AF_INET, 6080, UDP_TUNNEL_TYPE_GUE) != 0) {
		fprintf(stderr, "test_rx_onepass: cannot set up the registry\n");
		return 1;
	}
	priv->dynfield_off = offsetof(struct rte_mbuf, dynfield1);
	priv->rx_complete_flag = COMPLETE_FLAG;
	for (i = 0; i < iters; i++) {
		priv->registry = below(16) == 0 ? NULL : reg;
		one_case(priv, i);
	}
	printf("test_rx_onepass: %lu packets the same both ways: COMPLETE %lu, with "
	       "verdicts %lu, tunnels %lu (inner and outer L4 GOOD %lu), a BAD verdict %lu, "
	       "a zero UDP checksum %lu, unknown %lu, sub-port's verdict %lu, outer partial "
	       "resolved %lu; the usual frame's path took %lu (tunnels %lu, outer IPv6 %lu, "
	       "inner IPv6 %lu, GENEVE %lu)\n",
	       counts.cases, counts.complete, counts.verdicts,
	       counts.tunnels, counts.inner_good, counts.bad, counts.none, counts.unknown,
	       counts.sub, counts.resolved, counts.usual, counts.usual_tunnel,
	       counts.usual_v6, counts.usual_inner_v6, counts.usual_geneve);
	free(priv);
	udp_tunnel_registry_destroy(reg);
	/* Every case must have been reached, or the test proves little. */
	if (iters >= 10000 && (counts.inner_good == 0 || counts.bad == 0 ||
			       counts.none == 0 || counts.unknown == 0 ||
			       counts.sub == 0 || counts.resolved == 0)) {
		fprintf(stderr, "test_rx_onepass: a case was never reached\n");
		return 1;
	}
	if (iters >= 10000 && (counts.usual < iters / 20 ||
			       counts.usual_tunnel < iters / 40 ||
			       counts.usual_v6 < iters / USUAL_SHAPE_SHARE ||
			       counts.usual_inner_v6 < iters / USUAL_SHAPE_SHARE ||
			       counts.usual_geneve < iters / USUAL_SHAPE_SHARE)) {
		fprintf(stderr, "test_rx_onepass: the usual frame's path took too few "
			"packets of a shape (counts above; at least %lu in all, %lu "
			"tunnels, %lu of each of outer IPv6, inner IPv6, GENEVE)\n",
			iters / 20, iters / 40, iters / USUAL_SHAPE_SHARE);
		return 1;
	}
	return 0;
}
