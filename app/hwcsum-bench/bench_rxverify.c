/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hwcsum-bench rxverify: ns per packet to verify every checksum of a
 * received VXLAN/IPv4/UDP packet (outer IPv4 header, outer UDP, inner IPv4
 * header, inner UDP) in an mbuf, two ways, on the same packets:
 *
 * - complete: the CHECKSUM_COMPLETE model of lib/csum. One sum over the
 *   packet from the outer IPv4 header to its end (csum_mbuf_complete), then
 *   the outer and the inner UDP checksum verified from it, reading headers
 *   only (csum_mbuf_verify_l4), and both IPv4 headers (csum_mbuf_ipv4_hdr_ok).
 * - rte_verify: DPDK's way, rte_ipv4_udptcp_cksum_verify on the outer and on
 *   the inner UDP (two passes over the inner payload) and rte_ipv4_cksum on
 *   both IPv4 headers.
 * - hwcsum_rx_one (from the PMD's .so, its INTERNAL version node): the
 *   PMD's own per-packet receive work (sum, tunnel lookup in the registry,
 *   classification, verdict flags) on a bare private struct with VXLAN
 *   registered on 4789.
 *
 * Both find the headers with the same few lines (fixed VXLAN layout, IHL
 * read from the packet). SIZE is the inner Ethernet frame, as for the
 * testpmd benchmarks of devtools/bench-pmd.sh: the outer frame is SIZE + 50
 * bytes. A fourth set, "imix", interleaves 64, 570 and 1518-byte inner
 * frames 7:4:1 (its ns are per packet of the mix). Every contender must call every packet good before timing, and a
 * packet with one payload byte changed bad; the packet set (a few hundred
 * KiB at most) stays in cache.
 *
 * The machine is shared: a round is many passes over the packet set, each
 * timed alone, and counts its fastest pass; rounds interleave the
 * contenders and each keeps its best round (the median of the rounds is
 * printed too). Only ratios mean anything; nothing here is pass/fail.
 */
/* rte_ipv4_udptcp_cksum_verify() is still experimental in DPDK 22.11. */
#ifndef ALLOW_EXPERIMENTAL_API
#define ALLOW_EXPERIMENTAL_API
#endif
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "bench.h"
#include "csum.h"
#include "csum_mbuf.h"

#ifdef HWCSUM_BENCH_RX_ONE
#include <sys/socket.h>

#include "hwcsum_rx_bare.h"
#include "udp_tunnel.h"

#include "rxverify_packet.h"
#endif

#ifndef HWCSUM_BENCH_OPT
#define HWCSUM_BENCH_OPT "?"
#endif

#define N_SIZES 4	/* three fixed sizes, then IMIX */
#define N_PKTS 256
#define HEADROOM 128

static const uint32_t sizes[N_SIZES] = { 64, 512, 1500, 0 };

/*
 * IMIX: 7:4:1 of 64/570/1518-byte inner frames, interleaved in one packet
 * set (a pattern of 12, repeated over IMIX_PKTS packets), so that every
 * contender meets the sizes in the order a mixed link delivers them.
 */
#define IMIX_SIZE 0	/* sizes[] entry that stands for the mix */
#define IMIX_PATTERN 12
#define IMIX_PKTS (N_PKTS / IMIX_PATTERN * IMIX_PATTERN)
static const uint32_t imix_pattern[IMIX_PATTERN] = {
	64, 570, 64, 64, 1518, 64, 570, 64, 64, 570, 64, 570,
};

/* Packets in the set being measured (IMIX uses a whole number of patterns). */
static unsigned int n_pkts = N_PKTS;

enum contender_id { C_COMPLETE, C_RTE, C_RX_ONE, N_CONTENDERS };

static const char *const contender_names[N_CONTENDERS] = {
	"complete", "rte_verify", "hwcsum_rx_one",
};

static struct rte_mbuf mbufs[N_PKTS];
static volatile unsigned int sink;
static bool rx_one_usable;	/* built with the PMD's RX and it works */

/* ------------------------------------------------------------- packets */

static uint64_t rnd_state = 88172645463325252ull;

static int
build_mbufs(uint32_t size)
{
	unsigned int i;

	n_pkts = size == IMIX_SIZE ? IMIX_PKTS : N_PKTS;
	for (i = 0; i < n_pkts; i++) {
		struct rte_mbuf *m = &mbufs[i];
		uint8_t *buf = m->buf_addr;

		if (buf == NULL) {
			buf = aligned_alloc(64, HEADROOM + 2048);
			if (buf == NULL)
				return -ENOMEM;
		}
		memset(m, 0, sizeof(*m));
		m->buf_addr = buf;
		m->buf_len = HEADROOM + 2048;
		m->data_off = HEADROOM;
		m->nb_segs = 1;
		m->data_len = (uint16_t)rxverify_packet(buf + HEADROOM, &rnd_state, size == IMIX_SIZE ?
						     imix_pattern[i % IMIX_PATTERN] : size, i);
		m->pkt_len = m->data_len;
		rte_mbuf_refcnt_set(m, 1);
	}
	return 0;
}

static void
free_mbufs(void)
{
	unsigned int i;

	for (i = 0; i < N_PKTS; i++)
		free(mbufs[i].buf_addr);
}

/* ------------------------------------------------------- contenders */

struct offsets {
	uint32_t outer_l3, outer_l4, inner_l3, inner_l4;
};

/* The same header walk for every contender: fixed VXLAN layout, IHL read. */
static inline int
find_headers(const struct rte_mbuf *m, struct offsets *o)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

	if (m->data_len < 14 + 20 + 8 + 8 + 14 + 20 + 8)
		return -EINVAL;
	o->outer_l3 = 14;
	o->outer_l4 = o->outer_l3 + (p[o->outer_l3] & 0xf) * 4u;
	o->inner_l3 = o->outer_l4 + 8 + 8 + 14;
	if (o->inner_l3 + 20 > m->data_len)
		return -EINVAL;
	o->inner_l4 = o->inner_l3 + (p[o->inner_l3] & 0xf) * 4u;
	if (o->inner_l4 + 8 > m->data_len)
		return -EINVAL;
	return 0;
}

/* 1 when all four checksums are right, 0 otherwise. */
static inline int
verify_complete(struct rte_mbuf *m)
{
	struct offsets o;
	uint32_t sum;

	if (find_headers(m, &o) < 0 || csum_mbuf_complete(m, o.outer_l3, &sum) < 0)
		return 0;
	return csum_mbuf_ipv4_hdr_ok(m, o.outer_l3) == 1 &&
		csum_mbuf_verify_l4(m, o.outer_l3, sum, o.outer_l3, o.outer_l4,
				    IPPROTO_UDP, 0) == CSUM_L4_GOOD &&
		csum_mbuf_ipv4_hdr_ok(m, o.inner_l3) == 1 &&
		csum_mbuf_verify_l4(m, o.outer_l3, sum, o.inner_l3, o.inner_l4,
				    IPPROTO_UDP, 0) == CSUM_L4_GOOD;
}

static inline int
verify_rte(struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *oip, *iip;
	struct offsets o;

	if (find_headers(m, &o) < 0)
		return 0;
	oip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, o.outer_l3);
	iip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, o.inner_l3);
	return rte_ipv4_cksum(oip) == 0 &&
		rte_ipv4_udptcp_cksum_verify(oip, rte_pktmbuf_mtod_offset(m,
				const void *, o.outer_l4)) == 0 &&
		rte_ipv4_cksum(iip) == 0 &&
		rte_ipv4_udptcp_cksum_verify(iip, rte_pktmbuf_mtod_offset(m,
				const void *, o.inner_l4)) == 0;
}

#ifdef HWCSUM_BENCH_RX_ONE
static struct udp_tunnel_registry *rx_registry;
static struct hwcsum_private *rx_priv;
static struct hwcsum_rxq_stats *rx_stats;

static const uint64_t rx_good_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
	RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
static const uint64_t rx_bad_flags = RTE_MBUF_F_RX_IP_CKSUM_BAD |
	RTE_MBUF_F_RX_L4_CKSUM_BAD | RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD |
	RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD;

static int
rx_one_setup(void)
{
	rx_registry = udp_tunnel_registry_create();
	if (rx_registry == NULL)
		return -ENOMEM;
	if (udp_tunnel_port_add(rx_registry, AF_INET, VXLAN_PORT,
				UDP_TUNNEL_TYPE_VXLAN) < 0)
		return -EINVAL;
	if (hwcsum_rx_bare_create(rx_registry, &rx_priv, &rx_stats) != 0)
		return -ENOMEM;
	rx_one_usable = true;
	return 0;
}

static void
rx_one_teardown(void)
{
	hwcsum_rx_bare_free(rx_priv, rx_stats);
	rx_priv = NULL;
	rx_stats = NULL;
	if (rx_registry != NULL)
		udp_tunnel_registry_destroy(rx_registry);
	rx_registry = NULL;
}

static inline int
verify_rx_one(struct rte_mbuf *m)
{
	m->ol_flags = 0;
	m->packet_type = 0;
	hwcsum_rx_one(rx_priv, m, rx_stats);
	return (m->ol_flags & rx_good_flags) == rx_good_flags &&
		!(m->ol_flags & rx_bad_flags);
}
#endif

static bool
contender_available(enum contender_id c)
{
	return c != C_RX_ONE || rx_one_usable;
}

static int
verify_one(enum contender_id c, struct rte_mbuf *m)
{
	switch (c) {
	case C_COMPLETE: return verify_complete(m);
	case C_RTE: return verify_rte(m);
#ifdef HWCSUM_BENCH_RX_ONE
	case C_RX_ONE: return verify_rx_one(m);
#endif
	default: return 0;
	}
}

/*
 * One round: passes over every packet, each pass (N_PKTS packets, a few to
 * some tens of microseconds) timed on its own; the fastest pass is the
 * round's value in ns per packet, i.e. a pass no neighbour interrupted.
 */
static double
run(enum contender_id c, unsigned long packets)
{
	unsigned long passes = (packets + n_pkts - 1) / n_pkts, p;
	unsigned int i, good = 0;
	double t0, t1, best = 1e30;

	for (p = 0; p < passes; p++) {
		t0 = bench_now();
		switch (c) {
		case C_COMPLETE:
			for (i = 0; i < n_pkts; i++)
				good += verify_complete(&mbufs[i]);
			break;
		case C_RTE:
			for (i = 0; i < n_pkts; i++)
				good += verify_rte(&mbufs[i]);
			break;
#ifdef HWCSUM_BENCH_RX_ONE
		case C_RX_ONE:
			for (i = 0; i < n_pkts; i++)
				good += verify_rx_one(&mbufs[i]);
			break;
#endif
		default:
			break;
		}
		t1 = bench_now();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	sink += good;
	return best * 1e9 / n_pkts;
}

/* "64", ..., or "imix": how the table and the JSON name a packet set. */
static const char *
size_label(uint32_t size)
{
	static char buf[16];

	if (size == IMIX_SIZE)
		return "imix";
	snprintf(buf, sizeof(buf), "%u", size);
	return buf;
}

/* Mean outer frame of a set (IMIX: of its pattern). */
static double
outer_frame_len(uint32_t size)
{
	double sum = 0;
	unsigned int i;

	if (size != IMIX_SIZE)
		return size + OUTER_OVERHEAD;
	for (i = 0; i < IMIX_PATTERN; i++)
		sum += imix_pattern[i] + OUTER_OVERHEAD;
	return sum / IMIX_PATTERN;
}

/* Every packet good for everyone, and one changed payload byte bad. */
static int
check_contenders(uint32_t size)
{
	unsigned int c, i, good;
	uint8_t *byte;

	for (c = 0; c < N_CONTENDERS; c++) {
		if (!contender_available(c))
			continue;
		for (i = 0, good = 0; i < n_pkts; i++)
			good += verify_one(c, &mbufs[i]) == 1;
		if (good != n_pkts && c == C_RX_ONE) {
			/* optional: the PMD's RX may not be there yet */
			printf("hwcsum_rx_one skipped: it calls %u of %u good %s-byte packets good\n",
			       good, n_pkts, size_label(size));
			rx_one_usable = false;
			continue;
		}
		if (good != n_pkts) {
			fprintf(stderr, "bench rxverify: %s calls %u of %u good %s-byte packets good\n",
				contender_names[c], good, n_pkts, size_label(size));
			return -1;
		}
		byte = rte_pktmbuf_mtod_offset(&mbufs[0], uint8_t *, mbufs[0].data_len - 1);
		*byte ^= 0x01;
		good = verify_one(c, &mbufs[0]);
		*byte ^= 0x01;
		if (good) {
			fprintf(stderr, "bench rxverify: %s calls a corrupted %s-byte packet good\n",
				contender_names[c], size_label(size));
			return -1;
		}
	}
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
usage(void)
{
	printf("usage: hwcsum-bench rxverify [--json PATH] [--rounds N] [--packets N]\n"
	       "  --json PATH    write results there (default build/bench/rxverify.json)\n"
	       "  --rounds N     rounds per size, interleaving contenders (default 15)\n"
	       "  --packets N    packets per round and contender (default 100000)\n");
}

#define MAX_ROUNDS 101

int bench_rxverify_main(int argc, char **argv);

int
bench_rxverify_main(int argc, char **argv)
{
	struct bench_opts bo = { "build/bench/rxverify.json", 15, 100000 };
	const char *json_path;
	static double ns[N_SIZES][N_CONTENDERS][MAX_ROUNDS];
	double best[N_SIZES][N_CONTENDERS], median[N_SIZES][N_CONTENDERS];
	double sorted[MAX_ROUNDS];
	unsigned long packets;
	unsigned int rounds, r, c, s, k;
	int ret;
	FILE *out;

	ret = bench_parse_opts(argc, argv, &bo, MAX_ROUNDS, usage);
	if (ret >= 0)
		return ret;
	json_path = bo.json;
	rounds = bo.rounds;
	packets = bo.packets;
	ret = 1;
#ifdef HWCSUM_BENCH_RX_ONE
	if (rx_one_setup() < 0) {
		fprintf(stderr, "bench rxverify: cannot set up the hwcsum_rx_one contender\n");
		goto out;
	}
#endif

	printf("RX verification of VXLAN/IPv4/UDP (outer + inner IPv4 header and UDP), "
	       "%u packets in cache, %lu per round (the fastest pass over the %u counts), %u rounds; checksum implementation %s, built -O%s\n",
	       N_PKTS, packets, N_PKTS, rounds, csum_impl_active()->name, HWCSUM_BENCH_OPT);
	for (s = 0; s < N_SIZES; s++) {
		if (build_mbufs(sizes[s]) < 0) {
			fprintf(stderr, "bench rxverify: out of memory\n");
			goto out;
		}
		if (check_contenders(sizes[s]) < 0)
			goto out;
		for (r = 0; r < rounds; r++)
			for (k = 0; k < N_CONTENDERS; k++) {
				/* rotate who goes first */
				c = (k + r) % N_CONTENDERS;
				if (contender_available(c))
					ns[s][c][r] = run(c, packets);
			}
		for (c = 0; c < N_CONTENDERS; c++) {
			if (!contender_available(c))
				continue;
			memcpy(sorted, ns[s][c], rounds * sizeof(double));
			qsort(sorted, rounds, sizeof(double), cmp_double);
			best[s][c] = sorted[0];
			median[s][c] = rounds % 2 ? sorted[rounds / 2] :
				(sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
		}
	}

	printf("%-6s %-6s %22s %22s %10s %10s", "size", "frame", "complete ns best/med",
	       "rte_verify ns best/med", "best", "median");
	if (contender_available(C_RX_ONE))
		printf(" %22s", "hwcsum_rx_one best/med");
	printf("\n");
	for (s = 0; s < N_SIZES; s++) {
		printf("%-6s %-6.0f %11.1f / %8.1f %11.1f / %8.1f %9.2fx %9.2fx",
		       size_label(sizes[s]), outer_frame_len(sizes[s]),
		       best[s][C_COMPLETE], median[s][C_COMPLETE],
		       best[s][C_RTE], median[s][C_RTE], best[s][C_RTE] / best[s][C_COMPLETE],
		       median[s][C_RTE] / median[s][C_COMPLETE]);
		if (contender_available(C_RX_ONE))
			printf(" %11.1f / %8.1f (%.2fx)", best[s][C_RX_ONE], median[s][C_RX_ONE],
			       best[s][C_RTE] / best[s][C_RX_ONE]);
		printf("\n");
	}
	printf("(ratio = rte_verify ns / complete ns: how many times faster the "
	       "CHECKSUM_COMPLETE verification is; target >= 2x at 1500; imix: "
	       "7:4:1 of 64/570/1518-byte inner frames interleaved, %u packets, "
	       "frame = mean outer frame)\n", IMIX_PKTS);

	out = bench_json_open("rxverify", json_path);
	if (out == NULL)
		goto out;
	fprintf(out, "{\n  \"bench\": \"rxverify\",\n  \"unit\": \"ns/packet\",\n"
		"  \"impl\": \"%s\",\n  \"optimization\": \"%s\",\n  \"packets_in_set\": %u,\n"
		"  \"packets_per_round\": %lu,\n  \"rounds\": %u,\n"
		"  \"size_definition\": \"inner Ethernet frame bytes; outer frame = size + %u\",\n"
		"  \"imix\": \"7:4:1 of 64/570/1518-byte inner frames, interleaved, %u packets\",\n"
		"  \"peer\": \"rte_verify\",\n  \"target_ratio_1500\": 2.0,\n  \"cases\": [\n",
		csum_impl_active()->name, HWCSUM_BENCH_OPT, N_PKTS, packets, rounds,
		OUTER_OVERHEAD, IMIX_PKTS);
	for (s = 0; s < N_SIZES; s++) {
		if (sizes[s] == IMIX_SIZE)
			fprintf(out, "    {\"size\": \"imix\", \"outer_frame_len\": %.1f",
				outer_frame_len(sizes[s]));
		else
			fprintf(out, "    {\"size\": %u, \"outer_frame_len\": %u", sizes[s],
				sizes[s] + OUTER_OVERHEAD);
		for (c = 0; c < N_CONTENDERS; c++) {
			if (!contender_available(c))
				continue;
			fprintf(out, ", \"%s\": {\"best\": %.2f, \"median\": %.2f, \"rounds\": [",
				contender_names[c], best[s][c], median[s][c]);
			for (r = 0; r < rounds; r++)
				fprintf(out, "%s%.2f", r ? ", " : "", ns[s][c][r]);
			fprintf(out, "]}");
		}
		fprintf(out, ", \"ratio_best\": %.3f, \"ratio_median\": %.3f",
			best[s][C_RTE] / best[s][C_COMPLETE],
			median[s][C_RTE] / median[s][C_COMPLETE]);
		if (contender_available(C_RX_ONE))
			fprintf(out, ", \"ratio_rx_one_best\": %.3f",
				best[s][C_RTE] / best[s][C_RX_ONE]);
		fprintf(out, "}%s\n", s + 1 < N_SIZES ? "," : "");
	}
	ret = bench_json_close("rxverify", out, json_path);
out:
#ifdef HWCSUM_BENCH_RX_ONE
	rx_one_teardown();
#endif
	free_mbufs();
	return ret;
}

BENCH_REGISTER(rxverify,
	       "RX checksum verification, VXLAN: CHECKSUM_COMPLETE vs rte_ipv4_udptcp_cksum_verify",
	       bench_rxverify_main)
