/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TSO through net_hwcsum (loaded with -d) on a net_ring sub-port, which
 * offers no segmentation: every shape is cut in software by hwcsum_tso.c.
 *
 * For each shape (plain TCP over IPv4/IPv6; VXLAN, GENEVE with and
 * without options and a generic UDP tunnel with no inner Ethernet, GUE's
 * layout, over IPv4/IPv6 outer; outer UDP checksum asked for or not;
 * payloads of several, one or a partial segment; the packet as one mbuf
 * or a chain) a TSO packet goes through rte_eth_tx_prepare() and
 * rte_eth_tx_burst(), and every segment taken off the ring is judged:
 *  - its headers equal the original's with the test's own idea of each
 *    segment's lengths, IDs, sequence and TCP flags (FIN/PSH on the last
 *    only, CWR on the first only), checksum fields aside;
 *  - lib/csum's verifiers: each IPv4 header, the inner TCP checksum, the
 *    outer UDP checksum when asked for (zero when not);
 *  - the payloads, joined, are the original's byte for byte.
 * A 130-segment packet through a 32-entry ring checks the segments left
 * pending between bursts; tx_prepare's refusals are checked with their
 * rte_errno; 2000 packets with a lie in their lengths, flags or header
 * bytes must not crash or lose an mbuf; a packet without mbufs for its
 * segments stays with the caller; segments waiting at stop are freed; at
 * the end the pool has every mbuf back. Then it all again
 * through a second hwcsum port stacked on the first: its sub-port offers
 * TSO, so it hands every packet down whole (tx_tso_hw) and the lower port
 * cuts it (tx_tso_sw), the same segments on the ring.
 *
 * usage: test_tso <librte_net_hwcsum.so> [capture.pcap]
 * With a capture file, every segment is written to it for tshark
 * (tests/pmd/tso.sh checks it with checksum validation on).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "csum_mbuf.h"

#define RING_NAME "tso"
#define SUB_NAME "net_ring_" RING_NAME
#define HW_NAME "net_hwcsum_tso"
#define TOP_NAME "net_hwcsum_tso_top"	/* over HW_NAME: the hand-off */
#define RING_SIZE 32
#define MAX_PKT 70000
#define MAX_SEGS 256
#define TCP_HLEN 32	/* with a timestamp option */
#define TCP_FLAGS_SENT (RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG | \
			RTE_TCP_FIN_FLAG | RTE_TCP_CWR_FLAG)
#define PORT_TX_OFFLOADS (RTE_ETH_TX_OFFLOAD_TCP_TSO | \
			  RTE_ETH_TX_OFFLOAD_VXLAN_TNL_TSO | \
			  RTE_ETH_TX_OFFLOAD_GENEVE_TNL_TSO | \
			  RTE_ETH_TX_OFFLOAD_UDP_TNL_TSO | \
			  RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | \
			  RTE_ETH_TX_OFFLOAD_TCP_CKSUM | \
			  RTE_ETH_TX_OFFLOAD_OUTER_IPV4_CKSUM | \
			  RTE_ETH_TX_OFFLOAD_OUTER_UDP_CKSUM | \
			  RTE_ETH_TX_OFFLOAD_MULTI_SEGS)

/* After MAX_PKT: the port, rings, pool and helpers both tests share. */
#include "seg_test.h"

static int failures, checks;
static uint16_t lower;

#define CHECK(cond, ...) do { \
	checks++; \
	if (!(cond)) { \
		failures++; \
		printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

enum tunnel { T_NONE, T_VXLAN, T_GENEVE, T_GUE };

struct shape {
	enum tunnel tunnel;
	int outer_ip;		/* 4 or 6, tunnels only */
	int inner_ip;		/* 4 or 6 */
	unsigned int geneve_opt;	/* option bytes, multiple of 4 */
	bool outer_csum;	/* RTE_MBUF_F_TX_OUTER_UDP_CKSUM */
	uint32_t payload, mss;
	bool chain;		/* the packet as a chain of mbufs */
};

/* Offsets of one built packet. */
struct layout {
	uint32_t outer_l3, outer_l4, l3, l4, hdr;
	uint32_t outer_l3_len, l3_len, l2_len;
};

static const char *
tunnel_name(enum tunnel t)
{
	static const char *const n[] = { "tcp", "vxlan", "geneve", "gue" };

	return n[t];
}

static void
shape_name(const struct shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s/ip%d%s%s payload %u mss %u%s",
		 tunnel_name(s->tunnel),
		 s->tunnel == T_NONE ? "" : s->outer_ip == 4 ? " over ip4" : " over ip6",
		 s->inner_ip, s->geneve_opt ? " +opts" : "",
		 s->outer_csum ? " outer-csum" : "", s->payload, s->mss,
		 s->chain ? " chained" : "");
}

/* The packet's bytes into buf; its offsets into *l. */
static uint32_t
build(const struct shape *s, uint8_t *buf, struct layout *l)
{
	uint32_t off = 0, inner_len = (s->inner_ip == 4 ? 20 : 40) + TCP_HLEN + s->payload;
	struct rte_tcp_hdr *th;
	uint32_t i;

	memset(l, 0, sizeof(*l));
	if (s->tunnel != T_NONE) {
		uint32_t tun = s->tunnel == T_VXLAN ? 8 : s->tunnel == T_GENEVE ?
			8 + s->geneve_opt : 4;
		uint32_t inner_eth = s->tunnel == T_GUE ? 0 : 14;
		uint32_t udp_len = 8 + tun + inner_eth + inner_len;
		struct rte_udp_hdr *uh;
		uint8_t *t;

		put_eth(buf, s->outer_ip);
		l->outer_l3 = 14;
		l->outer_l3_len = put_ip(buf + 14, s->outer_ip, udp_len, IPPROTO_UDP, 100, true);
		l->outer_l4 = l->outer_l3 + l->outer_l3_len;
		uh = (struct rte_udp_hdr *)(buf + l->outer_l4);
		uh->src_port = rte_cpu_to_be_16(49152 + s->payload % 1000);
		uh->dst_port = rte_cpu_to_be_16(s->tunnel == T_VXLAN ? 4789 :
						s->tunnel == T_GENEVE ? 6081 : 6080);
		uh->dgram_len = rte_cpu_to_be_16(udp_len);
		uh->dgram_cksum = 0x7777;	/* replaced by hwcsum */
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
	l->l3_len = put_ip(buf + off, s->inner_ip, TCP_HLEN + s->payload,
			   IPPROTO_TCP, 200, true);
	l->l4 = l->l3 + l->l3_len;
	th = (struct rte_tcp_hdr *)(buf + l->l4);
	memset(th, 0, TCP_HLEN);
	th->src_port = rte_cpu_to_be_16(5001);
	th->dst_port = rte_cpu_to_be_16(80);
	th->sent_seq = rte_cpu_to_be_32(0xfffff000u);	/* wraps */
	th->recv_ack = rte_cpu_to_be_32(1);
	th->data_off = (TCP_HLEN / 4) << 4;
	th->tcp_flags = TCP_FLAGS_SENT;
	th->rx_win = rte_cpu_to_be_16(512);
	buf[l->l4 + 20] = 1;	/* NOP NOP timestamp */
	buf[l->l4 + 21] = 1;
	buf[l->l4 + 22] = 8;
	buf[l->l4 + 23] = 10;
	buf[l->l4 + 27] = 7;
	th->cksum = 0x3333;
	l->hdr = l->l4 + TCP_HLEN;
	for (i = 0; i < s->payload; i++)
		buf[l->hdr + i] = (uint8_t)(i * 31 + i / 251);
	return l->hdr + s->payload;
}

static void
offload(struct rte_mbuf *m, const struct shape *s, const struct layout *l)
{
	uint64_t fl = RTE_MBUF_F_TX_TCP_SEG;

	fl |= s->inner_ip == 4 ? RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM :
		RTE_MBUF_F_TX_IPV6;
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
	m->l4_len = TCP_HLEN;
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
	memset(h + l->l4 + 16, 0, 2);
}

/* The test's own idea of segment i's headers. */
static void
expect_headers(uint8_t *h, const struct shape *s, const struct layout *l,
	       uint32_t i, uint32_t n, uint32_t seg_len)
{
	struct rte_tcp_hdr *th = (struct rte_tcp_hdr *)(h + l->l4);
	uint16_t v;

	if (s->tunnel != T_NONE) {
		if (s->outer_ip == 4) {
			v = rte_cpu_to_be_16(seg_len - l->outer_l3);
			memcpy(h + l->outer_l3 + 2, &v, 2);
			v = rte_cpu_to_be_16(100 + i);
			memcpy(h + l->outer_l3 + 4, &v, 2);
		} else {
			v = rte_cpu_to_be_16(seg_len - l->outer_l3 - 40);
			memcpy(h + l->outer_l3 + 4, &v, 2);
		}
		v = rte_cpu_to_be_16(seg_len - l->outer_l4);
		memcpy(h + l->outer_l4 + 4, &v, 2);
	}
	if (s->inner_ip == 4) {
		v = rte_cpu_to_be_16(seg_len - l->l3);
		memcpy(h + l->l3 + 2, &v, 2);
		v = rte_cpu_to_be_16(200 + i);
		memcpy(h + l->l3 + 4, &v, 2);
	} else {
		v = rte_cpu_to_be_16(seg_len - l->l3 - 40);
		memcpy(h + l->l3 + 4, &v, 2);
	}
	th->sent_seq = rte_cpu_to_be_32(0xfffff000u + i * s->mss);
	if (i + 1 != n)
		th->tcp_flags &= ~(RTE_TCP_FIN_FLAG | RTE_TCP_PSH_FLAG);
	if (i != 0)
		th->tcp_flags &= ~RTE_TCP_CWR_FLAG;
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
		CHECK(!(m->ol_flags & (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_L4_MASK)),
		      "%s: seg %u: flags %#lx left for the sub-port", name, i,
		      (unsigned long)m->ol_flags);
		CHECK(csum_mbuf_complete(m, 14, &sum) == 0, "%s: seg %u: sum", name, i);
		if (s->tunnel != T_NONE) {
			uint16_t f;

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
		v = csum_mbuf_verify_l4(m, 14, sum, l->l3, l->l4, IPPROTO_TCP, 0);
		CHECK(v == CSUM_L4_GOOD, "%s: seg %u: TCP checksum %d", name, i, v);
		csum_mbuf_read(m, l->hdr, plen, joined + at);
		at += plen;
	}
	CHECK(at == s->payload && memcmp(joined, orig + l->hdr, at) == 0,
	      "%s: payload not reassembled (%u of %u bytes)", name, at, s->payload);
}

/* Send one TSO packet; take its segments as the ring lets them through. */
static void
one(const struct shape *s)
{
	static uint8_t orig[MAX_PKT];
	struct rte_mbuf *segs[MAX_SEGS + 1], *m;
	struct layout l;
	char name[128];
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
	/* The ring holds 32: the rest waits in hwcsum for the next bursts. */
	got = drain(segs, MAX_SEGS + 1);
	judge(name, s, &l, orig, segs, got);
	rte_pktmbuf_free_bulk(segs, got);
}

static void
all_shapes(void)
{
	static const uint32_t payloads[][2] = {
		{ 10000, 1400 }, { 1400, 1400 }, { 100, 1400 }, { 4001, 1000 },
	};
	static const struct { enum tunnel t; unsigned int opt; } tunnels[] = {
		{ T_NONE, 0 }, { T_VXLAN, 0 }, { T_GENEVE, 0 }, { T_GENEVE, 16 },
		{ T_GUE, 0 },
	};
	unsigned int t, o, in, cs, p;

	for (t = 0; t < RTE_DIM(tunnels); t++)
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

						/* Plain TCP has no outer. */
						if (s.tunnel == T_NONE && (o == 6 || cs))
							continue;
						one(&s);
					}
	/* 130 segments through a ring of 32; an input chain of 64 KiB. */
	one(&(struct shape){ T_VXLAN, 6, 4, 8, true, 64000, 496, true });
	one(&(struct shape){ T_NONE, 4, 6, 0, false, 65000, 1448, false });
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

static void spoil_segsz(struct rte_mbuf *m, const struct layout *l)
{ (void)l; m->tso_segsz = 0; }
static void spoil_gre(struct rte_mbuf *m, const struct layout *l)
{
	(void)l;
	m->ol_flags = (m->ol_flags & ~RTE_MBUF_F_TX_TUNNEL_MASK) |
		RTE_MBUF_F_TX_TUNNEL_GRE;
}
static void spoil_ufo(struct rte_mbuf *m, const struct layout *l)
{
	(void)l;
	m->ol_flags = (m->ol_flags & ~RTE_MBUF_F_TX_TCP_SEG) | RTE_MBUF_F_TX_UDP_SEG;
}
static void spoil_nothing(struct rte_mbuf *m, const struct layout *l)
{ (void)m; (void)l; }
static void spoil_not_tcp(struct rte_mbuf *m, const struct layout *l)
{ rte_pktmbuf_mtod(m, uint8_t *)[l->l3 + 9] = IPPROTO_UDP; }
static void spoil_tiny_mss(struct rte_mbuf *m, const struct layout *l)
{ (void)l; m->tso_segsz = 100; }	/* 650 segments */

/*
 * Lies: shapes with random lengths, flags and header bytes. Whatever
 * tx_prepare says, tx_burst takes every packet (sent or dropped), and
 * what reaches the ring is freed: no crash, no mbuf lost (ASan, UBSan and
 * the in-use count at the end judge).
 */
static void
lies(unsigned int n)
{
	static uint8_t buf[MAX_PKT];
	static const uint64_t bits[] = {
		RTE_MBUF_F_TX_IPV4, RTE_MBUF_F_TX_IPV6, RTE_MBUF_F_TX_IP_CKSUM,
		RTE_MBUF_F_TX_OUTER_IPV4, RTE_MBUF_F_TX_OUTER_IPV6,
		RTE_MBUF_F_TX_OUTER_IP_CKSUM, RTE_MBUF_F_TX_OUTER_UDP_CKSUM,
		RTE_MBUF_F_TX_TUNNEL_VXLAN, RTE_MBUF_F_TX_TUNNEL_GENEVE,
		RTE_MBUF_F_TX_TUNNEL_GRE, RTE_MBUF_F_TX_TUNNEL_UDP,
		RTE_MBUF_F_TX_UDP_CKSUM, RTE_MBUF_F_TX_UDP_SEG,
	};
	struct rte_mbuf *out[RING_SIZE];
	unsigned int i, k, accepted = 0;

	srand(29);
	for (i = 0; i < n; i++) {
		struct shape s = {
			.tunnel = rand() % 4, .outer_ip = rand() % 2 ? 4 : 6,
			.inner_ip = rand() % 2 ? 4 : 6, .geneve_opt = 4 * (rand() % 4),
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
		case 4: m->ol_flags ^= bits[rand() % RTE_DIM(bits)]; break;
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

/*
 * No mbufs for the segments: the packet stays with the caller, unchanged,
 * every segment made so far goes back, and a retry with mbufs sends it.
 */
static void
no_mbufs(void)
{
	static const struct shape s = { T_VXLAN, 4, 4, 0, true, 10000, 1400, false };
	static struct rte_mbuf *hold[8192];
	static uint8_t buf[MAX_PKT];
	struct rte_mbuf *m, *segs[MAX_SEGS];
	uint64_t nomem0 = xstat(port, "tx_tso_no_mbufs");
	unsigned int n_hold = 0;
	struct layout l;
	uint32_t len = build(&s, buf, &l), got;

	m = to_mbuf(buf, len, l.hdr, false);
	offload(m, &s, &l);
	while (rte_mempool_avail_count(mp) > 3)	/* 8 segments need more */
		hold[n_hold++] = rte_pktmbuf_alloc(mp);
	CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 0, "no mbufs: sent anyway");
	CHECK(xstat(port, "tx_tso_no_mbufs") == nomem0 + 1, "no mbufs: not counted");
	CHECK(rte_mempool_avail_count(mp) == 3, "no mbufs: %u free, want 3 back",
	      rte_mempool_avail_count(mp));
	CHECK((m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) && m->pkt_len == len,
	      "no mbufs: the packet changed");
	rte_pktmbuf_free_bulk(hold, n_hold);
	CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "no mbufs: the retry not sent");
	got = drain(segs, MAX_SEGS);
	judge("retry after no mbufs", &s, &l, buf, segs, got);
	rte_pktmbuf_free_bulk(segs, got);
}

/* Segments still waiting at stop are freed and counted. */
static void
stop_with_segments_waiting(void)
{
	static const struct shape s = { T_NONE, 4, 4, 0, false, 64000, 496, true };
	static uint8_t buf[MAX_PKT];
	struct rte_mbuf *m, *segs[RING_SIZE];
	uint64_t dropped0 = xstat(port, "tx_tso_dropped_at_stop");
	struct layout l;
	uint32_t len = build(&s, buf, &l);
	unsigned int k;

	m = to_mbuf(buf, len, l.hdr, s.chain);
	offload(m, &s, &l);
	CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "waiting: not sent");
	rte_eth_dev_stop(port);	/* 32 on the ring, 98 in hwcsum */
	CHECK(xstat(port, "tx_tso_dropped_at_stop") - dropped0 == 130 - RING_SIZE,
	      "waiting: %" PRIu64 " dropped at stop, want %u",
	      xstat(port, "tx_tso_dropped_at_stop") - dropped0, 130 - RING_SIZE);
	k = rte_ring_dequeue_burst(tx_ring, (void **)segs, RING_SIZE, NULL);
	CHECK(k == RING_SIZE, "waiting: %u on the ring", k);
	rte_pktmbuf_free_bulk(segs, k);
	if (rte_eth_dev_start(port) != 0)
		rte_exit(EXIT_FAILURE, "restart failed\n");
}

static void
refusals(void)
{
	struct shape plain = { T_NONE, 4, 4, 0, false, 5000, 1400, false };
	struct shape vx = { T_VXLAN, 4, 4, 0, true, 5000, 1400, false };
	struct shape split = plain;

	split.chain = true;
	split.payload = 64000;
	refused("tso_segsz 0", &plain, EINVAL, spoil_segsz);
	refused("GRE tunnel", &vx, ENOTSUP, spoil_gre);
	refused("UDP segmentation", &plain, ENOTSUP, spoil_ufo);
	refused("not TCP", &plain, EINVAL, spoil_not_tcp);
	refused("more than 256 segments", &split, EINVAL, spoil_tiny_mss);
	/* Headers across the first two mbufs. */
	{
		static uint8_t buf[MAX_PKT];
		struct layout l;
		uint32_t len = build(&plain, buf, &l);
		struct rte_mbuf *m = to_mbuf(buf, len, l.hdr - 10, true);

		offload(m, &plain, &l);
		rte_errno = 0;
		CHECK(rte_eth_tx_prepare(port, 0, &m, 1) == 0 && rte_errno == EINVAL,
		      "headers not in the first mbuf: errno %d", rte_errno);
		rte_pktmbuf_free(m);
	}
	(void)spoil_nothing;
}

int
main(int argc, char **argv)
{
	char *eal_args[] = {
		argv[0], "--no-huge", "-m", "256", "--no-pci", "-l", "0",
		"--file-prefix", NULL, "-d", NULL, NULL,
	};
	static const uint32_t pcap_hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };
	char prefix[64];
	uint64_t sw0;
	int sub;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s <librte_net_hwcsum.so> [capture.pcap]\n", argv[0]);
		return 2;
	}
	snprintf(prefix, sizeof(prefix), "hwcsum-tso-%d", (int)getpid());
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
	/* No per-lcore cache: the in-use count is exact. */
	mp = rte_pktmbuf_pool_create("tso", 4096, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	rx_ring = rte_ring_create("tso_rx", RING_SIZE, 0, RING_F_EXACT_SZ);
	tx_ring = rte_ring_create("tso_tx", RING_SIZE, 0, RING_F_EXACT_SZ);
	if (mp == NULL || rx_ring == NULL || tx_ring == NULL)
		rte_exit(EXIT_FAILURE, "pool or rings: %s\n", rte_strerror(rte_errno));
	sub = rte_eth_from_rings(RING_NAME, &rx_ring, 1, &tx_ring, 1, 0);
	if (sub < 0)
		rte_exit(EXIT_FAILURE, "rte_eth_from_rings: %s\n", rte_strerror(rte_errno));
	if (rte_vdev_init(HW_NAME, "sub=" SUB_NAME ",tx_engine=none") != 0 ||
	    rte_eth_dev_get_port_by_name(HW_NAME, &port) != 0)
		rte_exit(EXIT_FAILURE, "probe %s on %s failed\n", HW_NAME, SUB_NAME);

	configure(PORT_TX_OFFLOADS, PORT_TX_OFFLOADS,
		  "the TSO offloads");
	all_shapes();
	refusals();
	lies(2000);
	no_mbufs();
	stop_with_segments_waiting();
	CHECK(rte_mempool_in_use_count(mp) == 0, "%u mbufs not back",
	      rte_mempool_in_use_count(mp));
	rte_eth_dev_stop(port);

	/* TSO not enabled: refused as not supported. */
	configure(RTE_ETH_TX_OFFLOAD_TCP_CKSUM, PORT_TX_OFFLOADS,
		  "the TSO offloads");
	refused("TSO not enabled", &(struct shape){ T_NONE, 4, 4, 0, false, 5000,
		1400, false }, ENOTSUP, spoil_nothing);
	CHECK(rte_mempool_in_use_count(mp) == 0, "%u mbufs not back",
	      rte_mempool_in_use_count(mp));
	rte_eth_dev_stop(port);

	/*
	 * The hand-off: a hwcsum port over this one sees a sub-port that
	 * offers every TSO offload, so it gives each packet down whole
	 * (through the lower port's tx_prepare) and the lower one cuts it.
	 */
	lower = port;
	if (rte_vdev_init(TOP_NAME, "sub=" HW_NAME ",tx_engine=none") != 0 ||
	    rte_eth_dev_get_port_by_name(TOP_NAME, &port) != 0)
		rte_exit(EXIT_FAILURE, "probe %s on %s failed\n", TOP_NAME, HW_NAME);
	sw0 = xstat(lower, "tx_tso_sw");
	configure(PORT_TX_OFFLOADS, PORT_TX_OFFLOADS,
		  "the TSO offloads");
	all_shapes();
	refusals();
	CHECK(xstat(port, "tx_tso_hw") == 138 && xstat(port, "tx_tso_sw") == 0,
	      "top: %" PRIu64 " handed down, %" PRIu64 " cut, want 138 and 0",
	      xstat(port, "tx_tso_hw"), xstat(port, "tx_tso_sw"));
	CHECK(xstat(lower, "tx_tso_sw") - sw0 == 138, "lower: %" PRIu64 " cut, want 138",
	      xstat(lower, "tx_tso_sw") - sw0);
	CHECK(rte_mempool_in_use_count(mp) == 0, "%u mbufs not back",
	      rte_mempool_in_use_count(mp));
	rte_eth_dev_stop(port);

	rte_eth_dev_close(port);
	if (pcap != NULL)
		fclose(pcap);
	rte_ring_free(rx_ring);
	rte_ring_free(tx_ring);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	printf("%s: %d checks, %d failure(s)\n", failures ? "FAIL" : "PASS", checks,
	       failures);
	return failures ? 1 : 0;
}
