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
#include <rte_tcp.h>

#define SEG_NAME "tso"
#define L4_PROTO IPPROTO_TCP
#define L4_HLEN 32	/* with a timestamp option */
#define L4_CSUM_OFF 16
#define L4_SEG RTE_MBUF_F_TX_TCP_SEG
#define SEG_DF true
#define PAYLOAD_BYTE(i) ((uint8_t)((i) * 31 + (i) / 251))
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

/* The shapes, their judge, the refusals, the lies and the port set-up. */
#include "seg_shapes.h"

/* A TCP header with a timestamp option, every flag the test follows set. */
static void
l4_put(uint8_t *p, const struct shape *s)
{
	struct rte_tcp_hdr *th = (struct rte_tcp_hdr *)p;

	(void)s;
	memset(th, 0, L4_HLEN);
	th->src_port = rte_cpu_to_be_16(5001);
	th->dst_port = rte_cpu_to_be_16(80);
	th->sent_seq = rte_cpu_to_be_32(0xfffff000u);	/* wraps */
	th->recv_ack = rte_cpu_to_be_32(1);
	th->data_off = (L4_HLEN / 4) << 4;
	th->tcp_flags = TCP_FLAGS_SENT;
	th->rx_win = rte_cpu_to_be_16(512);
	p[20] = 1;	/* NOP NOP timestamp */
	p[21] = 1;
	p[22] = 8;
	p[23] = 10;
	p[27] = 7;
	th->cksum = 0x3333;
}

/* Segment i of n: its sequence, FIN/PSH on the last only, CWR on the first. */
static void
l4_expect(uint8_t *h, const struct shape *s, const struct layout *l,
	  uint32_t i, uint32_t n, uint32_t seg_len)
{
	struct rte_tcp_hdr *th = (struct rte_tcp_hdr *)(h + l->l4);

	(void)seg_len;
	th->sent_seq = rte_cpu_to_be_32(0xfffff000u + i * s->mss);
	if (i + 1 != n)
		th->tcp_flags &= ~(RTE_TCP_FIN_FLAG | RTE_TCP_PSH_FLAG);
	if (i != 0)
		th->tcp_flags &= ~RTE_TCP_CWR_FLAG;
}

static void
all_shapes(void)
{
	static const struct tunnel_opt tunnels[] = {
		{ T_NONE, 0 }, { T_VXLAN, 0 }, { T_GENEVE, 0 }, { T_GENEVE, 16 },
		{ T_GUE, 0 },
	};

	each_shape(tunnels, RTE_DIM(tunnels));
	/* 130 segments through a ring of 32; an input chain of 64 KiB. */
	one(&(struct shape){ T_VXLAN, 6, 4, 8, true, 64000, 496, true, false });
	one(&(struct shape){ T_NONE, 4, 6, 0, false, 65000, 1448, false, false });
}

static void spoil_ufo(struct rte_mbuf *m, const struct layout *l)
{
	(void)l;
	m->ol_flags = (m->ol_flags & ~RTE_MBUF_F_TX_TCP_SEG) | RTE_MBUF_F_TX_UDP_SEG;
}
static void spoil_not_tcp(struct rte_mbuf *m, const struct layout *l)
{ rte_pktmbuf_mtod(m, uint8_t *)[l->l3 + 9] = IPPROTO_UDP; }

/*
 * No mbufs for the segments: the packet stays with the caller, unchanged,
 * every segment made so far goes back, and a retry with mbufs sends it.
 */
static void
no_mbufs(void)
{
	static const struct shape s = { T_VXLAN, 4, 4, 0, true, 10000, 1400, false, false };
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
	static const struct shape s = { T_NONE, 4, 4, 0, false, 64000, 496, true, false };
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
	struct shape plain = { T_NONE, 4, 4, 0, false, 5000, 1400, false, false };
	struct shape vx = { T_VXLAN, 4, 4, 0, true, 5000, 1400, false, false };
	struct shape split = plain;

	split.chain = true;
	split.payload = 64000;
	refused("tso_segsz 0", &plain, EINVAL, spoil_segsz);
	refused("GRE tunnel", &vx, ENOTSUP, spoil_gre);
	refused("UDP segmentation", &plain, ENOTSUP, spoil_ufo);
	refused("not TCP", &plain, EINVAL, spoil_not_tcp);
	refused("more than 256 segments", &split, EINVAL, spoil_tiny_mss);
	refused_split_headers(&plain, 10);
}

/* lies()'s flags: one of them flipped a packet. */
static const uint64_t lie_bits[] = {
	RTE_MBUF_F_TX_IPV4, RTE_MBUF_F_TX_IPV6, RTE_MBUF_F_TX_IP_CKSUM,
	RTE_MBUF_F_TX_OUTER_IPV4, RTE_MBUF_F_TX_OUTER_IPV6,
	RTE_MBUF_F_TX_OUTER_IP_CKSUM, RTE_MBUF_F_TX_OUTER_UDP_CKSUM,
	RTE_MBUF_F_TX_TUNNEL_VXLAN, RTE_MBUF_F_TX_TUNNEL_GENEVE,
	RTE_MBUF_F_TX_TUNNEL_GRE, RTE_MBUF_F_TX_TUNNEL_UDP,
	RTE_MBUF_F_TX_UDP_CKSUM, RTE_MBUF_F_TX_UDP_SEG,
};

int
main(int argc, char **argv)
{
	uint64_t sw0;
	int rc = seg_open(argc, argv);

	if (rc != 0)
		return rc;
	configure(PORT_TX_OFFLOADS, PORT_TX_OFFLOADS,
		  "the TSO offloads");
	all_shapes();
	refusals();
	lies(2000, 29, lie_bits, RTE_DIM(lie_bits), 4, 4);
	no_mbufs();
	stop_with_segments_waiting();
	refused_by_sub();
	in_use_zero("software");
	rte_eth_dev_stop(port);

	/* TSO not enabled: refused as not supported. */
	configure(RTE_ETH_TX_OFFLOAD_TCP_CKSUM, PORT_TX_OFFLOADS,
		  "the TSO offloads");
	refused("TSO not enabled", &(struct shape){ T_NONE, 4, 4, 0, false, 5000,
		1400, false, false }, ENOTSUP, spoil_nothing);
	in_use_zero("not enabled");
	rte_eth_dev_stop(port);

	seg_stack_top();
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
	in_use_zero("hand-off");
	rte_eth_dev_stop(port);
	return seg_close();
}
