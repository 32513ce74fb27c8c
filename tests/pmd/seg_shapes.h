/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TEST_SEG_SHAPES_H
#define HWCSUM_TEST_SEG_SHAPES_H

/*
 * The core of the segmentation tests (test_tso.c, test_uso.c), one copy
 * for TCP and UDP: packet shapes (plain, or in VXLAN, GENEVE with or
 * without options, or a generic UDP tunnel with no inner Ethernet, GUE's
 * layout; IPv4/IPv6 outer and inner), each built, offered to the port and
 * every segment judged against the test's own idea of it; tx_prepare's
 * refusals; random lies; the port's set-up and the hand-off port stacked
 * on it.
 *
 * The includer defines first:
 *   SEG_NAME       "tso", "uso": names the pool, rings, ports, EAL prefix
 *   L4_PROTO       IPPROTO_TCP or IPPROTO_UDP, the segmented protocol
 *   L4_HLEN        its header's length; L4_CSUM_OFF its checksum's offset
 *   L4_SEG         the mbuf flag that asks for the segmentation
 *   SEG_DF         whether the IPv4 headers set Don't Fragment
 *   PAYLOAD_BYTE(i) payload byte i
 * and later the two functions under "the includer's part" below.
 */
#define RING_NAME SEG_NAME
#define SUB_NAME "net_ring_" SEG_NAME
#define HW_NAME "net_hwcsum_" SEG_NAME
#define TOP_NAME "net_hwcsum_" SEG_NAME "_top"	/* over HW_NAME: the hand-off */
#define RING_SIZE 32
#define MAX_PKT 70000
#define MAX_SEGS 256

#include <stdlib.h>
#include <unistd.h>

#include <ethdev_driver.h>
#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_udp.h>

/* After MAX_PKT: the port, rings, pool and packet helpers. */
#include "seg_test.h"
#include "../lib/test_harness.h"

static unsigned int n_packets;	/* packets sent whole by one_shape() */
static uint16_t lower;		/* the port under the hand-off port */

enum tunnel { T_NONE, T_VXLAN, T_GENEVE, T_GUE };

struct shape {
	enum tunnel tunnel;
	int outer_ip;		/* 4 or 6, tunnels only */
	int inner_ip;		/* 4 or 6 */
	unsigned int geneve_opt;	/* option bytes, multiple of 4 */
	bool outer_csum;	/* RTE_MBUF_F_TX_OUTER_UDP_CKSUM */
	uint32_t payload, mss;
	bool chain;		/* the packet as a chain of mbufs */
	bool no_ip_cksum;	/* IPv4 without RTE_MBUF_F_TX_IP_CKSUM */
};

/* Offsets of one built packet. */
struct layout {
	uint32_t outer_l3, outer_l4, l3, l4, hdr;
	uint32_t outer_l3_len, l3_len, l2_len;
};

/* The tunnels each_shape() runs, with their GENEVE option bytes. */
struct tunnel_opt {
	enum tunnel t;
	unsigned int opt;
};

/* The includer's part: its L4 header, and what each segment's becomes. */
static void l4_put(uint8_t *p, const struct shape *s);
static void l4_expect(uint8_t *h, const struct shape *s, const struct layout *l,
		      uint32_t i, uint32_t n, uint32_t seg_len);

static void
shape_name(const struct shape *s, char *buf, size_t len)
{
	static const char *const t[] = {
		L4_PROTO == IPPROTO_TCP ? "tcp" : "udp", "vxlan", "geneve", "gue",
	};

	snprintf(buf, len, "%s%s/ip%d%s%s%s payload %u mss %u%s", t[s->tunnel],
		 s->tunnel == T_NONE ? "" : s->outer_ip == 4 ? " over ip4" : " over ip6",
		 s->inner_ip, s->geneve_opt ? " +opts" : "",
		 s->outer_csum ? " outer-csum" : "",
		 s->no_ip_cksum ? " no-IP_CKSUM" : "", s->payload, s->mss,
		 s->chain ? " chained" : "");
}

static void
put_udp(uint8_t *p, uint16_t sport, uint16_t dport, uint32_t len, uint16_t cksum)
{
	struct rte_udp_hdr *uh = (struct rte_udp_hdr *)p;

	uh->src_port = rte_cpu_to_be_16(sport);
	uh->dst_port = rte_cpu_to_be_16(dport);
	uh->dgram_len = rte_cpu_to_be_16(len);
	uh->dgram_cksum = cksum;
}

static void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The packet's bytes into buf; its offsets into *l. */
static uint32_t
build(const struct shape *s, uint8_t *buf, struct layout *l)
{
	uint32_t off, inner_len = (s->inner_ip == 4 ? 20 : 40) + L4_HLEN + s->payload;
	uint32_t i;

	memset(l, 0, sizeof(*l));
	if (s->tunnel != T_NONE) {
		uint32_t tun = s->tunnel == T_VXLAN ? 8 : s->tunnel == T_GENEVE ?
			8 + s->geneve_opt : 4;
		uint32_t inner_eth = s->tunnel == T_GUE ? 0 : 14;
		uint32_t udp_len = 8 + tun + inner_eth + inner_len;
		uint8_t *t;

		put_eth(buf, s->outer_ip);
		l->outer_l3 = 14;
		l->outer_l3_len = put_ip(buf + 14, s->outer_ip, udp_len, IPPROTO_UDP,
					 100, SEG_DF);
		l->outer_l4 = l->outer_l3 + l->outer_l3_len;
		/* the checksum 0x7777 is wrong: hwcsum replaces it */
		put_udp(buf + l->outer_l4, 49152 + s->payload % 1000,
			s->tunnel == T_VXLAN ? 4789 : s->tunnel == T_GENEVE ? 6081 : 6080,
			udp_len, 0x7777);
		t = buf + l->outer_l4 + 8;
		memset(t, 0, tun);
		if (s->tunnel == T_VXLAN) {
			t[0] = 0x08;
			t[6] = 42;		/* VNI 42 */
		} else if (s->tunnel == T_GENEVE) {
			t[0] = s->geneve_opt / 4;
			t[2] = 0x65;
			t[3] = 0x58;		/* Ethernet */
			t[6] = 42;
			for (i = 0; i < s->geneve_opt; i += 8) {
				t[8 + i + 1] = 0x42;	/* class, type, length 1 */
				t[8 + i + 3] = 1;
				t[8 + i + 4] = (uint8_t)i;
			}
		} else {
			/* GUE variant 0, no extensions: the inner protocol */
			t[1] = s->inner_ip == 4 ? 4 : 41;
		}
		off = l->outer_l4 + 8 + tun;
		if (inner_eth)
			put_eth(buf + off, s->inner_ip);
		off += inner_eth;
		l->l2_len = off - l->outer_l4;
	} else {
		put_eth(buf, s->inner_ip);
		off = 14;
		l->l2_len = 14;
	}
	l->l3 = off;
	l->l3_len = put_ip(buf + off, s->inner_ip, L4_HLEN + s->payload,
			   L4_PROTO, 200, SEG_DF);
	l->l4 = l->l3 + l->l3_len;
	l4_put(buf + l->l4, s);
	l->hdr = l->l4 + L4_HLEN;
	for (i = 0; i < s->payload; i++)
		buf[l->hdr + i] = PAYLOAD_BYTE(i);
	return l->hdr + s->payload;
}

/* The request as DPDK documents it: lengths, tso_segsz, the flags. */
static void
offload(struct rte_mbuf *m, const struct shape *s, const struct layout *l)
{
	uint64_t fl = L4_SEG;

	if (s->inner_ip == 4)
		fl |= RTE_MBUF_F_TX_IPV4 | (s->no_ip_cksum ? 0 : RTE_MBUF_F_TX_IP_CKSUM);
	else
		fl |= RTE_MBUF_F_TX_IPV6;
	if (s->tunnel != T_NONE) {
		fl |= s->tunnel == T_VXLAN ? RTE_MBUF_F_TX_TUNNEL_VXLAN :
			s->tunnel == T_GENEVE ? RTE_MBUF_F_TX_TUNNEL_GENEVE :
			RTE_MBUF_F_TX_TUNNEL_UDP;
		fl |= s->outer_ip == 4 ? RTE_MBUF_F_TX_OUTER_IPV4 |
			RTE_MBUF_F_TX_OUTER_IP_CKSUM : RTE_MBUF_F_TX_OUTER_IPV6;
		if (s->outer_csum)
			fl |= RTE_MBUF_F_TX_OUTER_UDP_CKSUM;
		m->outer_l2_len = 14;
		m->outer_l3_len = l->outer_l3_len;
	}
	m->ol_flags = fl;
	m->l2_len = l->l2_len;
	m->l3_len = l->l3_len;
	m->l4_len = L4_HLEN;
	m->tso_segsz = s->mss;
}

/* Zero every checksum field of a header copy, so the rest compares. */
static void
zero_csums(uint8_t *h, const struct shape *s, const struct layout *l)
{
	if (s->tunnel != T_NONE) {
		if (s->outer_ip == 4)
			memset(h + l->outer_l3 + 10, 0, 2);
		memset(h + l->outer_l4 + 6, 0, 2);
	}
	if (s->inner_ip == 4)
		memset(h + l->l3 + 10, 0, 2);
	memset(h + l->l4 + L4_CSUM_OFF, 0, 2);
}

/* The test's own idea of segment i's headers, checksum fields aside. */
static void
expect_headers(uint8_t *h, const struct shape *s, const struct layout *l,
	       uint32_t i, uint32_t n, uint32_t seg_len)
{
	if (s->tunnel != T_NONE) {
		if (s->outer_ip == 4) {
			put16(h + l->outer_l3 + 2, seg_len - l->outer_l3);
			put16(h + l->outer_l3 + 4, 100 + i);
		} else {
			put16(h + l->outer_l3 + 4, seg_len - l->outer_l3 - 40);
		}
		put16(h + l->outer_l4 + 4, seg_len - l->outer_l4);
	}
	if (s->inner_ip == 4) {
		put16(h + l->l3 + 2, seg_len - l->l3);
		put16(h + l->l3 + 4, 200 + i);
	} else {
		put16(h + l->l3 + 4, seg_len - l->l3 - 40);
	}
	l4_expect(h, s, l, i, n, seg_len);
	zero_csums(h, s, l);
}

/* Every segment of one packet, in order: headers, checksums, payload. */
static void
judge(const char *name, const struct shape *s, const struct layout *l,
      const uint8_t *orig, struct rte_mbuf **segs, uint32_t got)
{
	static uint8_t want[512], have[512], joined[MAX_PKT];
	uint32_t n = s->payload == 0 ? 1 : (s->payload + s->mss - 1) / s->mss;
	uint32_t i, at = 0;

	CHECK(got == n, "%s: %u segments, want %u", name, got, n);
	for (i = 0; i < got && i < n; i++) {
		struct rte_mbuf *m = segs[i];
		uint32_t plen = RTE_MIN(s->mss, s->payload - i * s->mss);
		uint32_t sum;
		uint16_t f;
		int v;

		pcap_write(m);
		CHECK(m->pkt_len == l->hdr + plen, "%s: seg %u: %u bytes, want %u",
		      name, i, m->pkt_len, l->hdr + plen);
		if (m->pkt_len != l->hdr + plen)
			continue;
		memcpy(want, orig, l->hdr);
		expect_headers(want, s, l, i, n, m->pkt_len);
		csum_mbuf_read(m, 0, l->hdr, have);
		zero_csums(have, s, l);
		CHECK(memcmp(want, have, l->hdr) == 0, "%s: seg %u: headers differ", name, i);
		CHECK(!(m->ol_flags & (RTE_MBUF_F_TX_UDP_SEG | RTE_MBUF_F_TX_TCP_SEG |
				       RTE_MBUF_F_TX_L4_MASK)),
		      "%s: seg %u: flags %#" PRIx64 " left for the sub-port", name, i,
		      m->ol_flags);
		CHECK(csum_mbuf_complete(m, 14, &sum) == 0, "%s: seg %u: sum", name, i);
		if (s->tunnel != T_NONE) {
			if (s->outer_ip == 4)
				CHECK(csum_mbuf_ipv4_hdr_ok(m, l->outer_l3) == 1,
				      "%s: seg %u: outer IPv4 checksum", name, i);
			csum_mbuf_read(m, l->outer_l4 + 6, 2, &f);
			if (s->outer_csum) {
				v = csum_mbuf_verify_l4(m, 14, sum, l->outer_l3,
							l->outer_l4, IPPROTO_UDP, 0);
				CHECK(v == CSUM_L4_GOOD && f != 0,
				      "%s: seg %u: outer UDP checksum %d", name, i, v);
			} else {
				CHECK(f == 0, "%s: seg %u: outer UDP checksum %#x, want 0",
				      name, i, f);
			}
		}
		if (s->inner_ip == 4)
			CHECK(csum_mbuf_ipv4_hdr_ok(m, l->l3) == 1,
			      "%s: seg %u: inner IPv4 checksum", name, i);
		/* A UDP checksum of 0 would say "none": it must never be. */
		csum_mbuf_read(m, l->l4 + L4_CSUM_OFF, 2, &f);
		v = csum_mbuf_verify_l4(m, 14, sum, l->l3, l->l4, L4_PROTO, 0);
		CHECK(v == CSUM_L4_GOOD && (L4_PROTO != IPPROTO_UDP || f != 0),
		      "%s: seg %u: inner L4 checksum %d (%#x)", name, i, v, f);
		csum_mbuf_read(m, l->hdr, plen, joined + at);
		at += plen;
	}
	CHECK(at == s->payload && memcmp(joined, orig + l->hdr, at) == 0,
	      "%s: payload not reassembled (%u of %u bytes)", name, at, s->payload);
}

/* Send one packet; take its segments as the ring lets them through. */
static void
one(const struct shape *s)
{
	static uint8_t orig[MAX_PKT];
	struct rte_mbuf *segs[MAX_SEGS + 1], *m;
	struct layout l;
	char name[160];
	uint32_t len, got;
	uint16_t sent;

	shape_name(s, name, sizeof(name));
	len = build(s, orig, &l);
	m = to_mbuf(orig, len, l.hdr, s->chain);
	offload(m, s, &l);
	CHECK(rte_eth_tx_prepare(port, 0, &m, 1) == 1, "%s: tx_prepare: %s",
	      name, rte_strerror(rte_errno));
	sent = rte_eth_tx_burst(port, 0, &m, 1);
	CHECK(sent == 1, "%s: not sent", name);
	if (sent != 1) {
		rte_pktmbuf_free(m);
		return;
	}
	n_packets++;
	/* The ring holds 32: the rest waits in hwcsum for the next bursts. */
	got = drain(segs, MAX_SEGS + 1);
	judge(name, s, &l, orig, segs, got);
	rte_pktmbuf_free_bulk(segs, got);
}

/*
 * Each of the tunnels over IPv4/IPv6 outer, IPv4/IPv6 inner, outer UDP
 * checksum asked for or not; payloads of several, one and part of one
 * segment, the last as a chain. Counts n_packets from zero.
 */
static void
each_shape(const struct tunnel_opt *tunnels, unsigned int n_tunnels)
{
	static const uint32_t payloads[][2] = {
		{ 10000, 1400 }, { 1400, 1400 }, { 100, 1400 }, { 4001, 1000 },
	};
	unsigned int t, o, in, cs, p;

	n_packets = 0;
	for (t = 0; t < n_tunnels; t++)
		for (o = 4; o <= 6; o += 2)
			for (in = 4; in <= 6; in += 2)
				for (cs = 0; cs < 2; cs++)
					for (p = 0; p < RTE_DIM(payloads); p++) {
						struct shape s = {
							.tunnel = tunnels[t].t,
							.geneve_opt = tunnels[t].opt,
							.outer_ip = o, .inner_ip = in,
							.outer_csum = cs,
							.payload = payloads[p][0],
							.mss = payloads[p][1],
							.chain = p == 3,
						};

						/* No outer without a tunnel. */
						if (s.tunnel == T_NONE && (o == 6 || cs))
							continue;
						one(&s);
					}
}

/* tx_prepare refuses with rte_errno; tx_burst drops, frees and counts. */
static void
refused(const char *what, const struct shape *s, int err,
	void (*spoil)(struct rte_mbuf *m, const struct layout *l))
{
	static uint8_t buf[MAX_PKT];
	struct layout l;
	struct rte_mbuf *m;
	uint32_t len = build(s, buf, &l);

	m = to_mbuf(buf, len, l.hdr, s->chain);
	offload(m, s, &l);
	spoil(m, &l);
	rte_errno = 0;
	CHECK(rte_eth_tx_prepare(port, 0, &m, 1) == 0 && rte_errno == err,
	      "%s: tx_prepare: errno %d, want %d", what, rte_errno, err);
	CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "%s: not consumed", what);
	CHECK(rte_ring_count(tx_ring) == 0, "%s: sent anyway", what);
}

/* tx_prepare refuses headers that end short_by bytes into the second mbuf. */
static void
refused_split_headers(const struct shape *s, uint32_t short_by)
{
	static uint8_t buf[MAX_PKT];
	struct layout l;
	uint32_t len = build(s, buf, &l);
	struct rte_mbuf *m = to_mbuf(buf, len, l.hdr - short_by, true);

	offload(m, s, &l);
	rte_errno = 0;
	CHECK(rte_eth_tx_prepare(port, 0, &m, 1) == 0 && rte_errno == EINVAL,
	      "headers not in the first mbuf: errno %d", rte_errno);
	rte_pktmbuf_free(m);
}

static void spoil_nothing(struct rte_mbuf *m, const struct layout *l)
{ (void)m; (void)l; }
static void spoil_segsz(struct rte_mbuf *m, const struct layout *l)
{ (void)l; m->tso_segsz = 0; }
static void spoil_gre(struct rte_mbuf *m, const struct layout *l)
{
	(void)l;
	m->ol_flags = (m->ol_flags & ~RTE_MBUF_F_TX_TUNNEL_MASK) |
		RTE_MBUF_F_TX_TUNNEL_GRE;
}
static void spoil_tiny_mss(struct rte_mbuf *m, const struct layout *l)
{ (void)l; m->tso_segsz = 100; }	/* 650 segments of 64000 bytes */

/*
 * Lies: shapes with random lengths, flags (one of bits flipped) and header
 * bytes, GENEVE options of opt_unit times 0 to opt_kinds - 1 bytes.
 * Whatever tx_prepare says, tx_burst takes every packet (sent or
 * dropped), and what reaches the ring is freed: no crash, no mbuf lost
 * (ASan, UBSan and the in-use count at the end judge).
 */
static void
lies(unsigned int n, unsigned int seed, const uint64_t *bits, unsigned int n_bits,
     unsigned int opt_unit, unsigned int opt_kinds)
{
	static uint8_t buf[MAX_PKT];
	struct rte_mbuf *out[RING_SIZE];
	unsigned int i, k, accepted = 0;

	srand(seed);
	for (i = 0; i < n; i++) {
		struct shape s = {
			.tunnel = rand() % 4, .outer_ip = rand() % 2 ? 4 : 6,
			.inner_ip = rand() % 2 ? 4 : 6,
			.geneve_opt = opt_unit * (rand() % opt_kinds),
			.outer_csum = rand() % 2, .payload = rand() % 9000,
			.mss = 1 + rand() % 3000, .chain = rand() % 2,
		};
		struct layout l;
		uint32_t len = build(&s, buf, &l);
		struct rte_mbuf *m;
		uint16_t r;

		for (k = rand() % 4; k > 0; k--)	/* a few header bytes */
			buf[rand() % l.hdr] = (uint8_t)rand();
		m = to_mbuf(buf, len, l.hdr - (rand() % 8 == 0 ? rand() % l.hdr : 0),
			    s.chain);
		offload(m, &s, &l);
		switch (rand() % 6) {	/* one lie among the lengths and flags */
		case 0: m->l2_len = rand(); break;
		case 1: m->l3_len = rand(); break;
		case 2: m->l4_len = rand(); break;
		case 3: m->outer_l3_len = rand(); break;
		case 4: m->ol_flags ^= bits[rand() % n_bits]; break;
		default: m->tso_segsz = rand() % 64; break;
		}
		accepted += rte_eth_tx_prepare(port, 0, &m, 1);
		r = rte_eth_tx_burst(port, 0, &m, 1);
		CHECK(r == 1, "lie %u: not taken", i);
		if (r != 1)
			rte_pktmbuf_free(m);
		do {	/* the ring, and whatever hwcsum still holds */
			k = rte_ring_dequeue_burst(tx_ring, (void **)out, RING_SIZE, NULL);
			rte_pktmbuf_free_bulk(out, k);
			rte_eth_tx_burst(port, 0, NULL, 0);
		} while (k != 0);
	}
	printf("lies: %u of %u accepted by tx_prepare\n", accepted, n);
}

static void
in_use_zero(const char *when)
{
	CHECK(rte_mempool_in_use_count(mp) == 0, "%s: %u mbufs not back", when,
	      rte_mempool_in_use_count(mp));
}

/*
 * A sub-port that never takes a frame longer than refuse_over and hands it
 * back unfreed, as net_tap 22.11 does with one longer than its MTU + 22:
 * the ring's burst behind a length check. hwcsum takes the sub-port's
 * burst function when it starts, so the port is restarted around it.
 */
static eth_tx_burst_t ring_tx;
static uint32_t refuse_over;

static uint16_t
refusing_tx(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t ok = 0;

	while (ok < n && pkts[ok]->pkt_len <= refuse_over)
		ok++;
	return ok != 0 ? ring_tx(q, pkts, ok) : 0;
}

/*
 * The sub-port refuses a TSO packet's full-sized segments for good (the
 * last, short one would pass) while it takes a whole frame sent behind
 * them. tx_burst owns the TSO packet once cut and leaves the frame with
 * the caller while the segments wait; once they have been refused for
 * HWCSUM_TSO_REFUSED_MS hwcsum frees and counts them
 * (tx_tso_dropped_refused, oerrors), and the caller's retry sends the
 * frame, whole and alone. Before that rule the segments held the queue
 * until it stopped and no retry ever went through.
 */
static void
refused_by_sub(void)
{
	static const struct shape s = { T_GENEVE, 6, 4, 16, false, 4321, 1400,
					false, false };
	static const struct shape small = { T_NONE, 4, 4, 0, false, 900, 1400,
					    false, false };
	static uint8_t buf[MAX_PKT], small_buf[MAX_PKT];
	struct rte_eth_dev *sub;
	struct rte_mbuf *pkts[2], *out[RING_SIZE];
	struct rte_eth_stats st0, st1;
	uint64_t refused0 = xstat(port, "tx_tso_dropped_refused");
	struct layout l, sl;
	uint32_t len = build(&s, buf, &l), small_len = build(&small, small_buf, &sl);
	unsigned int tries = 0, k;
	uint16_t sub_port, sent;

	if (rte_eth_dev_get_port_by_name(SUB_NAME, &sub_port) != 0)
		rte_exit(EXIT_FAILURE, "no %s\n", SUB_NAME);
	sub = &rte_eth_devices[sub_port];
	refuse_over = l.hdr + s.mss - 1;
	rte_eth_dev_stop(port);
	ring_tx = sub->tx_pkt_burst;
	sub->tx_pkt_burst = refusing_tx;
	if (rte_eth_dev_start(port) != 0)
		rte_exit(EXIT_FAILURE, "restart failed\n");
	rte_eth_stats_get(port, &st0);

	pkts[0] = to_mbuf(buf, len, l.hdr, false);
	offload(pkts[0], &s, &l);
	pkts[1] = to_mbuf(small_buf, small_len, sl.hdr, false);	/* no offload */
	sent = rte_eth_tx_burst(port, 0, pkts, 2);
	CHECK(sent == 1, "refused: %u of the TSO packet and the frame taken, want 1",
	      sent);
	CHECK(rte_ring_count(tx_ring) == 0, "refused: %u on the ring, want none",
	      rte_ring_count(tx_ring));
	/* The caller retries the frame, 1 ms apart, for up to 2 s. */
	while (rte_eth_tx_burst(port, 0, &pkts[1], 1) == 0 && ++tries < 2000)
		rte_delay_us_block(1000);
	CHECK(tries < 2000, "refused: the frame behind the segments never sent");
	if (tries >= 2000)
		rte_pktmbuf_free(pkts[1]);
	CHECK(xstat(port, "tx_tso_dropped_refused") - refused0 == 4,
	      "refused: tx_tso_dropped_refused +%" PRIu64 ", want 4",
	      xstat(port, "tx_tso_dropped_refused") - refused0);
	rte_eth_stats_get(port, &st1);
	CHECK(st1.oerrors - st0.oerrors == 4, "refused: oerrors +%" PRIu64 ", want 4",
	      st1.oerrors - st0.oerrors);
	k = rte_ring_dequeue_burst(tx_ring, (void **)out, RING_SIZE, NULL);
	CHECK(k == (tries < 2000) && (k == 0 || (out[0]->pkt_len == small_len &&
	      rte_pktmbuf_mtod(out[0], uint8_t *)[small_len - 1] ==
	      small_buf[small_len - 1])),
	      "refused: %u on the ring, want the frame alone", k);
	rte_pktmbuf_free_bulk(out, k);

	rte_eth_dev_stop(port);
	sub->tx_pkt_burst = ring_tx;
	if (rte_eth_dev_start(port) != 0)
		rte_exit(EXIT_FAILURE, "restart failed\n");
	in_use_zero("refused by the sub-port");
}

/*
 * EAL with the plugin argv[1], the capture argv[2] if given, the pool (no
 * per-lcore cache: the in-use count is exact), the rings, and HW_NAME on
 * the ring port; port is HW_NAME's. Returns 0, or main's exit code.
 */
static int
seg_open(int argc, char **argv)
{
	char *eal_args[] = {
		argv[0], "--no-huge", "-m", "256", "--no-pci", "-l", "0",
		"--file-prefix", NULL, "-d", NULL, NULL,
	};
	static const uint32_t pcap_hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };
	static char prefix[64];

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s <librte_net_hwcsum.so> [capture.pcap]\n", argv[0]);
		return 2;
	}
	snprintf(prefix, sizeof(prefix), "hwcsum-" SEG_NAME "-%d", (int)getpid());
	eal_args[8] = prefix;
	eal_args[10] = argv[1];
	if (rte_eal_init(11, eal_args) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	if (argc == 3) {
		pcap = fopen(argv[2], "wb");
		if (pcap == NULL)
			rte_exit(EXIT_FAILURE, "cannot write %s\n", argv[2]);
		fwrite(pcap_hdr, sizeof(pcap_hdr), 1, pcap);
	}
	mp = rte_pktmbuf_pool_create(SEG_NAME, 4096, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	rx_ring = rte_ring_create(SEG_NAME "_rx", RING_SIZE, 0, RING_F_EXACT_SZ);
	tx_ring = rte_ring_create(SEG_NAME "_tx", RING_SIZE, 0, RING_F_EXACT_SZ);
	if (mp == NULL || rx_ring == NULL || tx_ring == NULL)
		rte_exit(EXIT_FAILURE, "pool or rings: %s\n", rte_strerror(rte_errno));
	if (rte_eth_from_rings(RING_NAME, &rx_ring, 1, &tx_ring, 1, 0) < 0)
		rte_exit(EXIT_FAILURE, "rte_eth_from_rings: %s\n", rte_strerror(rte_errno));
	if (rte_vdev_init(HW_NAME, "sub=" SUB_NAME ",tx_engine=none") != 0 ||
	    rte_eth_dev_get_port_by_name(HW_NAME, &port) != 0)
		rte_exit(EXIT_FAILURE, "probe %s on %s failed\n", HW_NAME, SUB_NAME);
	return 0;
}

/*
 * The hand-off: TOP_NAME over HW_NAME sees a sub-port that offers every
 * segmentation offload, so it gives each packet down whole (through the
 * lower port's tx_prepare) and the lower one cuts it. port becomes
 * TOP_NAME's, lower HW_NAME's.
 */
static void
seg_stack_top(void)
{
	lower = port;
	if (rte_vdev_init(TOP_NAME, "sub=" HW_NAME ",tx_engine=none") != 0 ||
	    rte_eth_dev_get_port_by_name(TOP_NAME, &port) != 0)
		rte_exit(EXIT_FAILURE, "probe %s on %s failed\n", TOP_NAME, HW_NAME);
}

/* Close it all; the result line and main's exit code. */
static int
seg_close(void)
{
	rte_eth_dev_close(port);
	if (pcap != NULL)
		fclose(pcap);
	rte_ring_free(rx_ring);
	rte_ring_free(tx_ring);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return harness_summary("test_" SEG_NAME);
}

#endif
