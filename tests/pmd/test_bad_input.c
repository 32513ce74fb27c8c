/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bad input through real ports: net_hwcsum (loaded with -d, as an
 * application would) on a net_ring sub-port made with rte_eth_from_rings(),
 * so the test puts crafted mbufs on the sub-port's RX ring and takes what
 * hwcsum transmitted off its TX ring.
 *
 * Every case is checked through the ethdev API (rte_eth_tx_prepare(),
 * rte_eth_tx_burst(), rte_eth_rx_burst(), xstats) and ends with the
 * mempool's in-use count back at 0: nothing leaked, nothing lost.
 *  - transmit: requests that can never be met (csum_start/offset outside
 *    the packet, truncated headers, IPv4 checksum of a non-IPv4 header,
 *    outer UDP without outer_l3_len, zero-length packets, TSO, chains
 *    longer than the sub-port takes) are refused by tx_prepare with
 *    EINVAL/ENOTSUP and dropped, freed and counted by tx_burst
 *    (tx_bad_request_dropped), the good packets around them sent; odd but
 *    legal ones (the field in a later segment, empty segments) are
 *    resolved correctly;
 *  - receive: malformed tunnel headers, a GENEVE option length past the
 *    end, truncated headers, zero-length packets and segments are passed
 *    with the UNKNOWN verdict (or as plain UDP) and counted; good and bad
 *    checksums get GOOD and BAD;
 *  - the sub-port removed (rte_vdev_uninit) while another lcore runs
 *    bursts: from then on tx drops and counts (tx_no_sub_port_dropped) and
 *    rx returns 0.
 *
 * usage: test_bad_input <librte_net_hwcsum.so>
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "csum_mbuf.h"
#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

#include "fuzz_common.h"
#include "../lib/test_eal.h"
#include "../lib/test_harness.h"

#define RING_NAME "bad"
#define SUB_NAME "net_ring_" RING_NAME
#define HW_NAME "net_hwcsum_bad"
#define NB_MBUF 2048

static struct rte_mempool *mp;
static struct harness_rings rings;
static struct rte_pmd_hwcsum_dyn dyn;
static uint16_t port;

static uint64_t
xstat(const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
		CHECK(0, "no xstat %s", name);
	return v;
}

/* The pool is back to empty: every mbuf of the case freed. */
static void
check_no_leak(const char *what)
{
	unsigned int n = rte_mempool_in_use_count(mp);

	CHECK(n == 0, "%s: %u mbufs still in use", what, n);
}

/* flat[0..len) as a chain cut at the given lengths (0: empty segment). */
static struct rte_mbuf *
chain_of(const uint8_t *flat, uint32_t len, const uint32_t *cuts, unsigned int n_cuts)
{
	struct rte_mbuf *head = NULL;
	uint32_t done = 0;
	unsigned int i;

	for (i = 0; i == 0 || done < len || i < n_cuts; i++) {
		struct rte_mbuf *s = rte_pktmbuf_alloc(mp);
		uint32_t n = len - done;
		char *p;

		if (s == NULL)
			rte_exit(EXIT_FAILURE, "mbuf pool empty\n");
		if (i < n_cuts && cuts[i] < n)
			n = cuts[i];
		p = rte_pktmbuf_append(s, (uint16_t)n);
		if (p == NULL && n != 0)
			rte_exit(EXIT_FAILURE, "segment too long\n");
		if (n != 0)
			memcpy(p, flat + done, n);
		done += n;
		if (head == NULL)
			head = s;
		else if (rte_pktmbuf_chain(head, s) != 0)
			rte_exit(EXIT_FAILURE, "chain too long\n");
	}
	return head;
}

static uint8_t pkt[FZ_PKT_MAX], rnd[FZ_PKT_MAX];

/* A well-formed packet; every checksum right when fill is set. */
static void
build(const struct fz_pkt_opts *o, struct fz_pkt *l, bool fill)
{
	unsigned int i;

	for (i = 0; i < sizeof(rnd); i++)
		rnd[i] = (uint8_t)(i * 7 + 3);
	fz_pkt_build(pkt, o, rnd, l);
	if (!fill)
		return;
	ref_l4_fill(pkt, l->l3, l->l4, l->l3_end, l->proto);
	if (!l->v6)
		ref_ipv4_fill(pkt + l->l3);
	if (l->encap) {
		ref_l4_fill(pkt, l->outer_l3, l->outer_l4, l->outer_l3_end, IPPROTO_UDP);
		if (!l->outer_v6)
			ref_ipv4_fill(pkt + l->outer_l3);
	}
}

/* Take everything hwcsum handed to the sub-port. */
static unsigned int
take_sent(struct rte_mbuf **out, unsigned int max)
{
	return rte_ring_dequeue_burst(rings.tx, (void **)out, max, NULL);
}

static const struct fz_pkt_opts plain_udp = { .proto = IPPROTO_UDP, .payload = 100 };
static const struct fz_pkt_opts plain_tcp = { .proto = IPPROTO_TCP, .payload = 333 };

/* A generic request for the L4 of l (seed in the field). */
static void
request_partial(struct rte_mbuf *m, const struct fz_pkt *l)
{
	uint16_t seed = ref_fold(ref_pseudo(pkt + l->l3, l->l3_end - l->l4, l->proto));

	csum_mbuf_write(m, l->l4 + fz_csum_off(l->proto), 2, &seed);
	rte_pmd_hwcsum_tx_partial(&dyn, m, (uint16_t)l->l4,
				  (uint16_t)fz_csum_off(l->proto));
}

/*
 * One packet that must be refused: tx_prepare stops at it with rte_errno
 * err, tx_burst takes it (dropped, freed, counted) with good ones around.
 */
static void
expect_refused(const char *what, struct rte_mbuf *bad, int err)
{
	struct rte_mbuf *burst[3], *sent[8];
	struct fz_pkt l;
	uint64_t drop0 = xstat("tx_bad_request_dropped");
	uint64_t prep0 = xstat("tx_prepare_refused");
	uint16_t n;
	unsigned int got, i;

	build(&plain_udp, &l, false);
	burst[0] = chain_of(pkt, l.len, NULL, 0);
	request_partial(burst[0], &l);
	burst[1] = bad;
	burst[2] = chain_of(pkt, l.len, NULL, 0);
	request_partial(burst[2], &l);

	rte_errno = 0;
	n = rte_eth_tx_prepare(port, 0, burst, 3);
	CHECK(n == 1 && rte_errno == err, "%s: tx_prepare returned %u, rte_errno %d (%s), expected 1, %d",
	      what, n, rte_errno, rte_strerror(rte_errno), err);
	CHECK(xstat("tx_prepare_refused") == prep0 + 1, "%s: tx_prepare_refused not counted", what);
	n = rte_eth_tx_burst(port, 0, burst, 3);
	CHECK(n == 3, "%s: tx_burst took %u of 3", what, n);
	rte_pktmbuf_free_bulk(burst + n, 3 - n);
	CHECK(xstat("tx_bad_request_dropped") == drop0 + 1,
	      "%s: tx_bad_request_dropped %" PRIu64 " -> %" PRIu64, what, drop0,
	      xstat("tx_bad_request_dropped"));
	got = take_sent(sent, 8);
	CHECK(got == 2, "%s: %u packets reached the sub-port, expected the 2 good ones", what, got);
	for (i = 0; i < got; i++) {
		uint8_t flat[2048];

		test_chain_flatten(sent[i], flat);
		CHECK(sent[i]->pkt_len == l.len &&
		      ref_l4_ok(flat, l.l3, l.l4, l.l3_end, l.proto),
		      "%s: a good packet next to the bad one went out wrong", what);
	}
	rte_pktmbuf_free_bulk(sent, got);
	check_no_leak(what);
}

/* A legal but odd request: sent, and its checksum right. */
static void
expect_sent_ok(const char *what, struct rte_mbuf *m, const struct fz_pkt *l)
{
	bool ip = (m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM) != 0;
	struct rte_mbuf *sent[4];
	static uint8_t flat[65536];
	unsigned int got;
	uint16_t n;

	n = rte_eth_tx_prepare(port, 0, &m, 1);
	CHECK(n == 1, "%s: tx_prepare refused it: %s", what, rte_strerror(rte_errno));
	n = rte_eth_tx_burst(port, 0, &m, 1);
	CHECK(n == 1, "%s: tx_burst did not take it", what);
	if (n == 0)
		rte_pktmbuf_free(m);
	got = take_sent(sent, 4);
	CHECK(got == 1, "%s: %u packets reached the sub-port", what, got);
	if (got == 1) {
		test_chain_flatten(sent[0], flat);
		CHECK(ref_l4_ok(flat, l->l3, l->l4, l->l3_end, l->proto),
		      "%s: L4 checksum wrong on the wire", what);
		if (ip)
			CHECK(ref_ipv4_ok(flat + l->l3), "%s: IPv4 checksum wrong", what);
	}
	rte_pktmbuf_free_bulk(sent, got);
	check_no_leak(what);
}

static void
tx_cases(void)
{
	struct hwcsum_private *priv = rte_eth_devices[port].data->dev_private;
	struct rte_mbuf *m;
	struct fz_pkt l;
	uint32_t cuts[8];
	uint16_t saved;

	build(&plain_udp, &l, false);

	/* csum_start + csum_offset outside the packet. */
	m = chain_of(pkt, l.len, NULL, 0);
	rte_pmd_hwcsum_tx_partial(&dyn, m, (uint16_t)(l.len - 1), 0);
	expect_refused("csum_start at the last byte", m, EINVAL);
	m = chain_of(pkt, l.len, NULL, 0);
	rte_pmd_hwcsum_tx_partial(&dyn, m, 10, (uint16_t)l.len);
	expect_refused("csum_offset past the end", m, EINVAL);
	m = chain_of(pkt, l.len, NULL, 0);
	rte_pmd_hwcsum_tx_partial(&dyn, m, 0xffff, 0xffff);
	expect_refused("csum_start/offset 0xffff", m, EINVAL);

	/* Zero-length packet with a request, and a request on one empty segment. */
	m = chain_of(pkt, 0, NULL, 0);
	rte_pmd_hwcsum_tx_partial(&dyn, m, 0, 6);
	expect_refused("zero-length packet, generic request", m, EINVAL);
	m = chain_of(pkt, 0, NULL, 0);
	m->ol_flags |= RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV4;
	m->l2_len = 14;
	m->l3_len = 20;
	expect_refused("zero-length packet, UDP checksum", m, EINVAL);

	/* Truncated: the UDP header the flags point at is not there. */
	m = chain_of(pkt, l.l4 + 4, NULL, 0);
	m->ol_flags |= RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV4;
	m->l2_len = l.l3;
	m->l3_len = l.l3_len;
	expect_refused("UDP header truncated", m, EINVAL);
	/* IPv4 header checksum of something that is not IPv4. */
	m = chain_of(pkt, l.len, NULL, 0);
	m->ol_flags |= RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_IPV4;
	m->l2_len = 0;
	m->l3_len = 20;
	expect_refused("IPv4 checksum at the Ethernet header", m, EINVAL);
	/* Outer UDP checksum without outer lengths. */
	m = chain_of(pkt, l.len, NULL, 0);
	m->ol_flags |= RTE_MBUF_F_TX_OUTER_UDP_CKSUM | RTE_MBUF_F_TX_OUTER_IPV4;
	m->l2_len = l.l3;
	m->l3_len = l.l3_len;
	expect_refused("outer UDP checksum, outer_l3_len 0", m, EINVAL);

	/* Segmentation is not offered. */
	build(&plain_tcp, &l, false);
	m = chain_of(pkt, l.len, NULL, 0);
	m->ol_flags |= RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	m->l2_len = l.l3;
	m->l3_len = l.l3_len;
	m->l4_len = 20;
	m->tso_segsz = 100;
	expect_refused("TSO", m, ENOTSUP);

	/* A chain longer than the sub-port takes: net_ring takes any, so its
	 * limit (hwcsum_sub_caps_decide() copies nb_seg_max) is set as a
	 * 4-segment device would have it. */
	saved = priv->sub.max_segs;
	priv->sub.max_segs = 4;
	build(&plain_udp, &l, false);
	cuts[0] = 10;
	cuts[1] = 10;
	cuts[2] = 10;
	cuts[3] = 10;
	m = chain_of(pkt, l.len, cuts, 4);
	CHECK(m->nb_segs == 5, "built %u segments", m->nb_segs);
	request_partial(m, &l);
	expect_refused("5 segments, sub-port takes 4", m, EINVAL);
	priv->sub.max_segs = saved;

	/* Legal: the checksum field in a later segment, empty segments. */
	build(&plain_tcp, &l, false);
	cuts[0] = (uint32_t)l.l4 + 3;	/* header split mid-field region */
	cuts[1] = 0;
	cuts[2] = 15;
	cuts[3] = 0;
	cuts[4] = 1;
	m = chain_of(pkt, l.len, cuts, 5);
	request_partial(m, &l);
	expect_sent_ok("TCP field in the 3rd segment, empty segments", m, &l);
	build(&plain_udp, &l, false);
	cuts[0] = 0;
	cuts[1] = 1;
	cuts[2] = (uint32_t)l.l4 - 1;
	m = chain_of(pkt, l.len, cuts, 3);
	m->ol_flags |= RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	m->l2_len = l.l3;
	m->l3_len = l.l3_len;
	expect_sent_ok("DPDK flags, empty first segment, headers split", m, &l);

	/* A zero-length packet without a request passes as it is. */
	{
		struct rte_mbuf *sent[2];
		unsigned int got;

		m = chain_of(pkt, 0, NULL, 0);
		CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "empty packet not taken");
		got = take_sent(sent, 2);
		CHECK(got == 1 && sent[0]->pkt_len == 0, "empty packet not passed on");
		rte_pktmbuf_free_bulk(sent, got);
		check_no_leak("empty packet");
	}
}

/* Put one packet on the sub-port's RX ring and receive it through hwcsum. */
static struct rte_mbuf *
receive(struct rte_mbuf *m)
{
	struct rte_mbuf *rx[4];
	uint16_t n;

	CHECK(rte_ring_enqueue(rings.rx, m) == 0, "rx ring full");
	n = rte_eth_rx_burst(port, 0, rx, 4);
	CHECK(n == 1, "received %u packets, expected 1", n);
	if (n != 1) {
		rte_pktmbuf_free_bulk(rx, n);
		return NULL;
	}
	return rx[0];
}

#define RX_VERDICTS ((uint64_t)(RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK | \
		     RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD | RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK))

/* Receive flat[0..len) cut by cuts; check the verdict flags and one counter. */
static void
rx_case(const char *what, uint32_t len, const uint32_t *cuts, unsigned int n_cuts,
	uint64_t want, bool complete, const char *counter)
{
	uint64_t c0 = counter != NULL ? xstat(counter) : 0;
	struct rte_mbuf *m = receive(chain_of(pkt, len, cuts, n_cuts));

	if (m == NULL)
		return;
	CHECK((m->ol_flags & RX_VERDICTS) == want,
	      "%s: verdict flags %#" PRIx64 ", expected %#" PRIx64, what,
	      m->ol_flags & RX_VERDICTS, (uint64_t)want);
	CHECK(((m->ol_flags & dyn.rx_complete) != 0) == complete,
	      "%s: COMPLETE %s", what, complete ? "missing" : "set");
	if (m->ol_flags & dyn.rx_complete) {
		static uint8_t flat[65536];
		uint16_t start, sum;

		rte_pmd_hwcsum_rx_complete(&dyn, m, &start, &sum);
		test_chain_flatten(m, flat);
		CHECK(start <= m->pkt_len &&
		      ref_same(sum, ref_fold(ref_sum(flat + start, m->pkt_len - start))),
		      "%s: COMPLETE sum wrong", what);
	}
	if (counter != NULL)
		CHECK(xstat(counter) == c0 + 1, "%s: %s not counted", what, counter);
	CHECK(m->port == port, "%s: mbuf port %u", what, m->port);
	rte_pktmbuf_free(m);
	check_no_leak(what);
}

/* Outer UDP and IPv4 checksums right over whatever the tunnel holds. */
static void
fill_outer(const struct fz_pkt *l)
{
	ref_l4_fill(pkt, l->outer_l3, l->outer_l4, l->outer_l3_end, IPPROTO_UDP);
	if (!l->outer_v6)
		ref_ipv4_fill(pkt + l->outer_l3);
}

static void
rx_cases(void)
{
	struct fz_pkt_opts vx = { .tun = FZ_TUN_VXLAN, .udp_dport = 4789,
				  .proto = IPPROTO_TCP, .payload = 200 };
	struct fz_pkt_opts gn = { .tun = FZ_TUN_GENEVE, .udp_dport = 6081, .tun_opt = 2,
				  .v6 = true, .proto = IPPROTO_UDP, .payload = 64 };
	uint64_t tun_good = RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD |
		RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	uint32_t cuts[6];
	struct fz_pkt l;

	build(&vx, &l, true);
	rx_case("VXLAN, all good", l.len, NULL, 0, tun_good, true, "rx_complete");
	cuts[0] = 0;
	cuts[1] = 7;
	cuts[2] = 0;
	cuts[3] = 40;
	cuts[4] = 0;
	rx_case("VXLAN, empty and tiny segments", l.len, cuts, 5, tun_good, true, NULL);

	/* Inner checksum wrong, outer right over it. */
	build(&vx, &l, false);
	ref_l4_fill(pkt, l.l3, l.l4, l.l3_end, l.proto);
	pkt[l.l4 + 17] ^= 1;
	ref_ipv4_fill(pkt + l.l3);
	ref_l4_fill(pkt, l.outer_l3, l.outer_l4, l.outer_l3_end, IPPROTO_UDP);
	ref_ipv4_fill(pkt + l.outer_l3);
	rx_case("VXLAN, inner TCP wrong", l.len, NULL, 0,
		RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_BAD |
		RTE_MBUF_F_RX_IP_CKSUM_GOOD, true, "rx_l4_bad");

	/* Malformed VXLAN header (reserved flags): plain UDP, counted. */
	build(&vx, &l, false);
	pkt[l.tun_hdr] = 0x0c;
	fill_outer(&l);
	rx_case("VXLAN header malformed", l.len, NULL, 0,
		RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_IP_CKSUM_GOOD, true,
		"rx_tunnel_malformed");
	/* GENEVE option length (63 words) past the end of the packet. */
	build(&gn, &l, false);
	pkt[l.tun_hdr] = 0x3f;
	fill_outer(&l);
	rx_case("GENEVE option length past the end", l.len, NULL, 0,
		RTE_MBUF_F_RX_L4_CKSUM_GOOD, true, "rx_tunnel_malformed");
	/* GENEVE option TLV running past the options. */
	build(&gn, &l, false);
	pkt[l.tun_hdr + 8 + 3] = 0x1f;
	fill_outer(&l);
	rx_case("GENEVE option TLV past the options", l.len, NULL, 0,
		RTE_MBUF_F_RX_L4_CKSUM_GOOD, true, "rx_tunnel_malformed");

	/* GENEVE good over IPv6 (outer: no IPv4 header to judge). */
	build(&gn, &l, true);
	rx_case("GENEVE with options, all good", l.len, NULL, 0,
		RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD |
		RTE_MBUF_F_RX_IP_CKSUM_GOOD, true, NULL);
	/* Truncated inside the inner IP header: inner UNKNOWN, outer judged. */
	/* Truncated inside the inner IP header: the lengths no longer add up. */
	rx_case("GENEVE, truncated in the inner header", l.l3 + 10, NULL, 0, 0, true,
		"rx_unknown");

	/* Truncated outer IPv4 header: nothing judged, UNKNOWN. */
	build(&plain_udp, &l, true);
	rx_case("IPv4 header truncated", l.l3 + 12, NULL, 0, 0, true, "rx_unknown");
	/* Only part of the Ethernet header: no COMPLETE either. */
	rx_case("Ethernet header truncated", 9, NULL, 0, 0, false, "rx_unknown");
	rx_case("zero-length packet", 0, NULL, 0, 0, false, "rx_unknown");
	cuts[0] = 0;
	cuts[1] = 0;
	rx_case("zero-length packet of 2 empty segments", 0, cuts, 2, 0, false,
		"rx_unknown");
	rx_case("plain UDP, good", l.len, NULL, 0,
		RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_IP_CKSUM_GOOD, true, NULL);
	pkt[l.l3 + 10] ^= 0x40;
	rx_case("plain UDP, IPv4 header checksum wrong", l.len, NULL, 0,
		RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_IP_CKSUM_BAD, true,
		"rx_ip_bad");
}

/* ---------------------------------------- the sub-port removed under traffic */

static volatile int removed, stop;
static unsigned long after_tx, after_tx_refused, after_rx_got, bursts_before;

static int
worker(void *arg __rte_unused)
{
	struct fz_pkt l;
	uint8_t flat[256];

	build(&plain_udp, &l, false);
	memcpy(flat, pkt, l.len);
	while (!stop) {
		struct rte_mbuf *tx[8], *rx[8];
		int seen = removed;
		uint16_t n, i;

		for (i = 0; i < 8; i++) {
			tx[i] = rte_pktmbuf_alloc(mp);
			if (tx[i] == NULL)
				break;
			memcpy(rte_pktmbuf_append(tx[i], (uint16_t)l.len), flat, l.len);
			if (i & 1) {
				uint16_t seed = ref_fold(ref_pseudo(flat + l.l3,
					l.l3_end - l.l4, l.proto));

				memcpy(rte_pktmbuf_mtod_offset(tx[i], uint8_t *,
							       l.l4 + 6), &seed, 2);
				rte_pmd_hwcsum_tx_partial(&dyn, tx[i], (uint16_t)l.l4, 6);
			}
		}
		n = rte_eth_tx_burst(port, 0, tx, i);
		/* Once removed, every packet is taken (dropped and counted). */
		if (seen && n != i)
			after_tx_refused += i - n;
		rte_pktmbuf_free_bulk(tx + n, i - n);
		/* Feed the receive side too (the ring outlives the port). */
		if (!seen) {
			struct rte_mbuf *in = rte_pktmbuf_alloc(mp);

			if (in != NULL) {
				memcpy(rte_pktmbuf_append(in, (uint16_t)l.len), flat, l.len);
				if (rte_ring_enqueue(rings.rx, in) != 0)
					rte_pktmbuf_free(in);
			}
		}
		n = rte_eth_rx_burst(port, 0, rx, 8);
		rte_pktmbuf_free_bulk(rx, n);
		if (seen) {
			after_tx += i;
			after_rx_got += n;
		} else {
			bursts_before++;
		}
		/* Keep the sub-port's TX ring from filling. */
		if (!seen) {
			struct rte_mbuf *sent[16];
			unsigned int got = take_sent(sent, 16);

			rte_pktmbuf_free_bulk(sent, got);
		}
	}
	return 0;
}

static void
drain_rings(void)
{
	struct rte_mbuf *m[64];
	unsigned int n;

	while ((n = rte_ring_dequeue_burst(rings.tx, (void **)m, 64, NULL)) != 0)
		rte_pktmbuf_free_bulk(m, n);
	while ((n = rte_ring_dequeue_burst(rings.rx, (void **)m, 64, NULL)) != 0)
		rte_pktmbuf_free_bulk(m, n);
}

static void
removal_case(unsigned int worker_lcore)
{
	uint64_t dropped0 = xstat("tx_no_sub_port_dropped"), dropped;
	uint64_t tsc_hz = rte_get_tsc_hz();
	uint64_t t;

	removed = 0;
	stop = 0;
	CHECK(rte_eal_remote_launch(worker, NULL, worker_lcore) == 0, "launch worker");
	t = rte_get_tsc_cycles();
	while (bursts_before < 1000 && rte_get_tsc_cycles() - t < 5 * tsc_hz)
		rte_pause();
	CHECK(bursts_before >= 1000, "worker made only %lu bursts", bursts_before);
	CHECK(rte_vdev_uninit(SUB_NAME) == 0, "remove the sub-port under traffic");
	removed = 1;
	/* Let the worker make bursts against the removed port, however busy
	 * the machine is. */
	t = rte_get_tsc_cycles();
	while (__atomic_load_n(&after_tx, __ATOMIC_RELAXED) < 1000 &&
	       rte_get_tsc_cycles() - t < 10 * tsc_hz)
		rte_delay_ms(1);
	stop = 1;
	rte_eal_wait_lcore(worker_lcore);
	dropped = xstat("tx_no_sub_port_dropped") - dropped0;
	CHECK(after_tx > 0, "no burst after the removal");
	CHECK(after_tx_refused == 0, "tx_burst left %lu packets to the caller after the removal",
	      after_tx_refused);
	CHECK(after_rx_got == 0, "rx returned %lu packets after the sub-port was removed",
	      after_rx_got);
	CHECK(dropped >= after_tx, "tx_no_sub_port_dropped %" PRIu64 " < %lu sent after removal",
	      dropped, after_tx);
	CHECK(rte_eth_tx_burst(port, 0, NULL, 0) == 0, "empty burst");
	{
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);

		CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "tx after removal did not take it");
		CHECK(rte_eth_rx_burst(port, 0, &m, 1) == 0, "rx after removal returned a packet");
	}
	printf("removal: %lu bursts before, %lu packets after (all dropped, %" PRIu64
	       " counted)\n", bursts_before, after_tx, dropped + 1);
	drain_rings();
	check_no_leak("sub-port removed under traffic");
	CHECK(rte_vdev_uninit(HW_NAME) == 0, "remove hwcsum after its sub-port");
	check_no_leak("after close");
}

int
main(int argc, char **argv)
{
	struct rte_eth_conf conf = {
		.rxmode.offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM,
		.txmode.offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			RTE_ETH_TX_OFFLOAD_OUTER_UDP_CKSUM |
			RTE_ETH_TX_OFFLOAD_OUTER_IPV4_CKSUM |
			RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	};
	unsigned int worker_lcore;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <librte_net_hwcsum.so>\n", argv[0]);
		return 2;
	}
	if (harness_eal_init(argv[0], &(struct harness_eal){ .name = "bad",
			.pmd = argv[1], .lcores = "0-1", .memory = "128",
			.pmd_log_info = true }) != 0)
		return 1;
	worker_lcore = rte_get_next_lcore(-1, 1, 0);
	/* No per-lcore cache: the in-use count is exact. */
	mp = rte_pktmbuf_pool_create("bad_input", NB_MBUF, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL)
		rte_exit(EXIT_FAILURE, "pool: %s\n", rte_strerror(rte_errno));
	port = harness_ring_hwcsum(RING_NAME, 1024, 0, HW_NAME,
				   "rx=on,tunnel_ports=vxlan:4789/geneve:6081", &rings);
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 256, 0, NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 256, 0, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0)
		rte_exit(EXIT_FAILURE, "port setup failed\n");
	if (rte_pmd_hwcsum_dyn_lookup(&dyn) != 0)
		rte_exit(EXIT_FAILURE, "no hwcsum dynfield\n");

	tx_cases();
	rx_cases();
	if (worker_lcore < RTE_MAX_LCORE)
		removal_case(worker_lcore);
	else
		CHECK(0, "no second lcore for the removal case");

	harness_rings_free(&rings);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return harness_summary("test_bad_input");
}
