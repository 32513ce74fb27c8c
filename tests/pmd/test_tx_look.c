/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transmit look: a burst goes straight down only when no packet in it
 * asks for anything. net_hwcsum (loaded with -d) on a net_ring sub-port
 * from rte_eth_from_rings(): for every burst length 1..40 and every place
 * in it (none, each one), one packet carries a request, a CHECKSUM_PARTIAL
 * one or DPDK's UDP flags, the others none; taken off the sub-port's ring,
 * the requested packet's UDP checksum must be right (rte_ipv4_udptcp_
 * cksum_verify) and every other packet byte for byte as sent, in order.
 * Run with no TX offload configured (the pass-through burst, which looks
 * eight packets at a time) and with the checksum offloads (the offload
 * burst), so a request at any place of the unrolled look is seen by both.
 * First, though, the port runs with TX offloads (which registers the TX
 * flag for hwcsum's own use, announcing nothing), then starts again with
 * none before the application has asked for the flag (the bare burst, no
 * look): DPDK's flags of an offload not configured leave the packet as it
 * was, and once rte_pmd_hwcsum_dyn_lookup() announces the flag with the
 * port running, every CHECKSUM_PARTIAL request from the next burst on is
 * honoured.
 *
 * usage: test_tx_look <librte_net_hwcsum.so>
 */
#include <stdbool.h>
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
#include <rte_udp.h>

#include "rte_pmd_hwcsum.h"
#include "../lib/test_eal.h"
#include "../lib/test_harness.h"

#define RING_NAME "look"
#define SUB_NAME "net_ring_" RING_NAME
#define HW_NAME "net_hwcsum_look"
#define MAX_BURST 40
#define PKT_LEN 98	/* 14 + 20 + 8 + 56 */
#define WRONG_CSUM 0x1234

static struct rte_mempool *mp;
static struct harness_rings rings;
static struct rte_pmd_hwcsum_dyn dyn;
static uint16_t port;

enum request { REQ_NONE, REQ_PARTIAL, REQ_DPDK };

/* Ethernet/IPv4/UDP, IPv4 checksum right, UDP checksum wrong; k in the payload. */
static struct rte_mbuf *
udp_packet(unsigned int k)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *p;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	unsigned int i;

	if (m == NULL || (p = (uint8_t *)rte_pktmbuf_append(m, PKT_LEN)) == NULL)
		rte_exit(EXIT_FAILURE, "no mbuf\n");
	memset(p, 0, 14);
	p[12] = 0x08;
	ip = (struct rte_ipv4_hdr *)(p + 14);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(PKT_LEN - 14);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001 + k);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000101);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(1000 + k);
	udp->dst_port = rte_cpu_to_be_16(2000);
	udp->dgram_len = rte_cpu_to_be_16(PKT_LEN - 34);
	udp->dgram_cksum = WRONG_CSUM;
	for (i = 42; i < PKT_LEN; i++)
		p[i] = (uint8_t)(i * 7 + k);
	return m;
}

static void
ask(struct rte_mbuf *m, enum request req)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	if (req == REQ_PARTIAL) {
		CHECK(rte_pmd_hwcsum_tx_partial_l4(&dyn, m, 14, 34, IPPROTO_UDP) == 0,
		      "partial request refused");
	} else if (req == REQ_DPDK) {
		m->l2_len = 14;
		m->l3_len = 20;
		m->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_UDP_CKSUM;
		udp->dgram_cksum = rte_ipv4_phdr_cksum(ip, m->ol_flags);
	}
}

/* One burst of n, the packet at `at` (n: none) asking req, honoured or not. */
static void
one_burst_as(const char *conf, unsigned int n, unsigned int at,
	     enum request req, bool honoured)
{
	struct rte_mbuf *burst[MAX_BURST], *sent[MAX_BURST + 1];
	uint8_t want[MAX_BURST][PKT_LEN];
	unsigned int i, got;
	uint16_t done;

	for (i = 0; i < n; i++) {
		burst[i] = udp_packet(i);
		if (i == at)
			ask(burst[i], req);
		memcpy(want[i], rte_pktmbuf_mtod(burst[i], void *), PKT_LEN);
	}
	done = rte_eth_tx_burst(port, 0, burst, (uint16_t)n);
	CHECK(done == n, "%s: burst %u, request at %u: %u sent", conf, n, at, done);
	got = rte_ring_dequeue_burst(rings.tx, (void **)sent, MAX_BURST + 1, NULL);
	CHECK(got == done, "%s: burst %u: %u on the ring, %u sent", conf, n, got, done);
	for (i = 0; i < got; i++) {
		const uint8_t *p = rte_pktmbuf_mtod(sent[i], const uint8_t *);
		const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + 14);

		if (i != at || req == REQ_NONE || !honoured) {
			CHECK(memcmp(p, want[i], PKT_LEN) == 0,
			      "%s: burst %u, request at %u: packet %u changed",
			      conf, n, at, i);
			continue;
		}
		CHECK(rte_ipv4_udptcp_cksum_verify(ip, ip + 1) == 0,
		      "%s: burst %u, request at %u: UDP checksum wrong", conf, n, at);
		CHECK(memcmp(p + 42, want[i] + 42, PKT_LEN - 42) == 0,
		      "%s: burst %u: payload changed", conf, n);
	}
	rte_pktmbuf_free_bulk(sent, got);
}

static void
one_burst(const char *conf, unsigned int n, unsigned int at, enum request req)
{
	one_burst_as(conf, n, at, req, true);
}

static void
port_start(const char *conf, uint64_t tx_offloads)
{
	struct rte_eth_conf ec = { .txmode.offloads = tx_offloads };

	if (rte_eth_dev_configure(port, 1, 1, &ec) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 256, 0, NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 256, 0, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0)
		rte_exit(EXIT_FAILURE, "%s: port setup failed\n", conf);
}

static void
port_stop(const char *conf)
{
	CHECK(rte_mempool_in_use_count(mp) == 0, "%s: mbufs leaked", conf);
	if (rte_eth_dev_stop(port) != 0)
		rte_exit(EXIT_FAILURE, "%s: stop failed\n", conf);
}

/* Started before the application asks for the TX flag; asked while it runs. */
static void
registered_while_running(void)
{
	const char *conf = "before the TX flag";
	unsigned int n, at;

	CHECK(rte_mbuf_dynflag_lookup(RTE_PMD_HWCSUM_DYNFLAG_TX_PARTIAL_NAME,
				      NULL) < 0,
	      "the TX flag is registered before anyone asked for it");
	port_start("TX offloads, flag not announced", RTE_ETH_TX_OFFLOAD_UDP_CKSUM);
	one_burst("TX offloads, flag not announced", 1, 0, REQ_DPDK);
	port_stop("TX offloads, flag not announced");
	CHECK(rte_mbuf_dynflag_lookup(RTE_PMD_HWCSUM_DYNFLAG_TX_PARTIAL_NAME,
				      NULL) >= 0,
	      "a port with TX offloads did not register the TX flag");
	port_start(conf, 0);
	for (n = 1; n <= MAX_BURST; n++) {
		one_burst(conf, n, n, REQ_NONE);
		for (at = 0; at < n; at++)
			one_burst_as(conf, n, at, REQ_DPDK, false);
	}
	if (rte_pmd_hwcsum_dyn_lookup(&dyn) != 0)
		rte_exit(EXIT_FAILURE, "no hwcsum dynfield\n");
	conf = "TX flag registered while running";
	for (n = 1; n <= MAX_BURST; n++)
		for (at = 0; at < n; at++) {
			one_burst(conf, n, at, REQ_PARTIAL);
			one_burst(conf, n, at, REQ_DPDK);
		}
	port_stop(conf);
}

static void
all_bursts(const char *conf, uint64_t tx_offloads)
{
	unsigned int n, at;

	port_start(conf, tx_offloads);
	for (n = 1; n <= MAX_BURST; n++) {
		one_burst(conf, n, n, REQ_NONE);
		for (at = 0; at < n; at++) {
			one_burst(conf, n, at, REQ_PARTIAL);
			one_burst(conf, n, at, REQ_DPDK);
		}
	}
	port_stop(conf);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s <librte_net_hwcsum.so>\n", argv[0]);
		return 2;
	}
	if (harness_eal_init(argv[0], &(struct harness_eal){ .name = "look",
			.pmd = argv[1], .memory = "128" }) != 0)
		return 1;
	/* No per-lcore cache: the in-use count is exact. */
	mp = rte_pktmbuf_pool_create("look", 1024, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL)
		rte_exit(EXIT_FAILURE, "pool: %s\n", rte_strerror(rte_errno));
	port = harness_ring_hwcsum(RING_NAME, 256, 0, HW_NAME, "tx_engine=none", &rings);
	registered_while_running();
	all_bursts("no TX offload", 0);
	all_bursts("TX checksum offloads", RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		   RTE_ETH_TX_OFFLOAD_UDP_CKSUM);
	all_bursts("no TX offload again", 0);

	rte_eth_dev_close(port);
	harness_rings_free(&rings);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return harness_summary("test_tx_look");
}
