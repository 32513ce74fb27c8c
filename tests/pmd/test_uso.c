/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * UDP segmentation (RTE_MBUF_F_TX_UDP_SEG, RTE_ETH_TX_OFFLOAD_UDP_TSO)
 * through net_hwcsum (loaded with -d) on a net_ring sub-port, which offers
 * none: every shape is cut in software by hwcsum_tso.c, with Linux's UDP
 * GSO semantics (__udp_gso_segment): each segment a UDP datagram of its
 * own with tso_segsz payload bytes (the last one less), the UDP header
 * copied with its length fixed and a checksum of its own, IPv4 IDs +1 a
 * segment, outer lengths fixed in a tunnel.
 *
 * Shapes: plain UDP over IPv4 (with and without RTE_MBUF_F_TX_IP_CKSUM,
 * as testpmd sends it when the port has no IPV4_CKSUM) and IPv6; VXLAN,
 * GENEVE with options and a GUE-shaped generic UDP tunnel over IPv4/IPv6
 * outer with IPv4/IPv6 inner, outer UDP checksum asked for or not;
 * payloads of several, exactly one and part of one segment; one mbuf or a
 * chain. Every segment: headers against the test's own idea of them
 * (checksum fields aside), lib/csum's verifiers on each IPv4 header, the
 * inner UDP checksum (never 0) and the outer one, the payloads joined
 * byte for byte. tx_prepare's refusals with DPDK's errno, lies that must
 * not crash or lose an mbuf, every mbuf back; then the same through a
 * hwcsum port stacked on this one (handed down whole, cut below).
 *
 * usage: test_uso <librte_net_hwcsum.so> [capture.pcap]
 */
#define SEG_NAME "uso"
#define L4_PROTO IPPROTO_UDP
#define L4_HLEN 8
#define L4_CSUM_OFF 6
#define L4_SEG RTE_MBUF_F_TX_UDP_SEG
#define SEG_DF false
#define PAYLOAD_BYTE(i) ((uint8_t)((i) * 29 + (i) / 253))
#define INNER_SPORT 5001
#define INNER_DPORT 7000
#define PORT_TX_OFFLOADS (RTE_ETH_TX_OFFLOAD_UDP_TSO | \
			  RTE_ETH_TX_OFFLOAD_VXLAN_TNL_TSO | \
			  RTE_ETH_TX_OFFLOAD_GENEVE_TNL_TSO | \
			  RTE_ETH_TX_OFFLOAD_UDP_TNL_TSO | \
			  RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | \
			  RTE_ETH_TX_OFFLOAD_UDP_CKSUM | \
			  RTE_ETH_TX_OFFLOAD_OUTER_IPV4_CKSUM | \
			  RTE_ETH_TX_OFFLOAD_OUTER_UDP_CKSUM | \
			  RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
#define WHAT "UDP_TSO and the tunnel TSO offloads"

/* The shapes, their judge, the refusals, the lies and the port set-up. */
#include "seg_shapes.h"

/* The datagram's UDP header, its checksum wrong: hwcsum must fill it. */
static void
l4_put(uint8_t *p, const struct shape *s)
{
	put_udp(p, INNER_SPORT, INNER_DPORT, L4_HLEN + s->payload, 0x3333);
}

/* Each segment a datagram of its own: its UDP length (__udp_gso_segment). */
static void
l4_expect(uint8_t *h, const struct shape *s, const struct layout *l,
	  uint32_t i, uint32_t n, uint32_t seg_len)
{
	(void)s;
	(void)i;
	(void)n;
	put16(h + l->l4 + 4, seg_len - l->l4);
}

static void
all_shapes(void)
{
	static const struct tunnel_opt tunnels[] = {
		{ T_NONE, 0 }, { T_VXLAN, 0 }, { T_GENEVE, 16 }, { T_GUE, 0 },
	};

	each_shape(tunnels, RTE_DIM(tunnels));
	/* testpmd's IPv4 without IP_CKSUM; 130 segments through a ring of 32. */
	one(&(struct shape){ T_NONE, 4, 4, 0, false, 5000, 1472, false, true });
	one(&(struct shape){ T_VXLAN, 6, 4, 8, true, 64000, 496, true, true });
	one(&(struct shape){ T_NONE, 4, 6, 0, false, 65000, 1452, false, false });
}

static void spoil_l4_len(struct rte_mbuf *m, const struct layout *l)
{ (void)l; m->l4_len = 20; }
static void spoil_not_udp(struct rte_mbuf *m, const struct layout *l)
{ rte_pktmbuf_mtod(m, uint8_t *)[l->l3 + 9] = IPPROTO_TCP; }
static void spoil_both(struct rte_mbuf *m, const struct layout *l)
{ (void)l; m->ol_flags |= RTE_MBUF_F_TX_TCP_SEG; }
static void spoil_no_ip_type(struct rte_mbuf *m, const struct layout *l)
{ (void)l; m->ol_flags &= ~(RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6 | RTE_MBUF_F_TX_IP_CKSUM); }
static void spoil_ip_cksum_v6(struct rte_mbuf *m, const struct layout *l)
{ (void)l; m->ol_flags |= RTE_MBUF_F_TX_IP_CKSUM; }

static const struct shape plain = { T_NONE, 4, 4, 0, false, 5000, 1400, false, false };
static const struct shape vx = { T_VXLAN, 4, 4, 0, true, 5000, 1400, false, false };

static void
refusals(void)
{
	struct shape v6 = plain;
	struct shape big = plain;

	v6.inner_ip = 6;
	big.chain = true;
	big.payload = 64000;
	refused("tso_segsz 0", &plain, EINVAL, spoil_segsz);
	refused("l4_len not a UDP header", &plain, EINVAL, spoil_l4_len);
	refused("not UDP", &plain, EINVAL, spoil_not_udp);
	refused("TCP and UDP segmentation at once", &plain, EINVAL, spoil_both);
	refused("no IP type", &plain, EINVAL, spoil_no_ip_type);
	refused("IP_CKSUM on IPv6", &v6, EINVAL, spoil_ip_cksum_v6);
	refused("GRE tunnel", &vx, ENOTSUP, spoil_gre);
	refused("more than 256 segments", &big, EINVAL, spoil_tiny_mss);
	refused_split_headers(&plain, 4);
}

/* lies()'s flags: one of them flipped a packet. */
static const uint64_t lie_bits[] = {
	RTE_MBUF_F_TX_IPV4, RTE_MBUF_F_TX_IPV6, RTE_MBUF_F_TX_IP_CKSUM,
	RTE_MBUF_F_TX_OUTER_IPV4, RTE_MBUF_F_TX_OUTER_IPV6,
	RTE_MBUF_F_TX_OUTER_UDP_CKSUM, RTE_MBUF_F_TX_TUNNEL_VXLAN,
	RTE_MBUF_F_TX_TUNNEL_GENEVE, RTE_MBUF_F_TX_TUNNEL_UDP,
	RTE_MBUF_F_TX_UDP_CKSUM, RTE_MBUF_F_TX_TCP_SEG, RTE_MBUF_F_TX_UDP_SEG,
};

int
main(int argc, char **argv)
{
	uint64_t sw0;
	int rc = seg_open(argc, argv);

	if (rc != 0)
		return rc;
	configure(PORT_TX_OFFLOADS, PORT_TX_OFFLOADS, WHAT);
	all_shapes();
	refusals();
	lies(1000, 2929, lie_bits, RTE_DIM(lie_bits), 8, 3);
	refused_by_sub();
	in_use_zero("software");
	rte_eth_dev_stop(port);

	/* UDP_TSO not enabled: refused as not supported, plain and tunnelled;
	 * a tunnel's TSO without UDP_TSO does not cut UDP either. */
	configure(PORT_TX_OFFLOADS & ~RTE_ETH_TX_OFFLOAD_UDP_TSO, PORT_TX_OFFLOADS, WHAT);
	refused("UDP_TSO not enabled", &plain, ENOTSUP, spoil_nothing);
	refused("VXLAN_TNL_TSO without UDP_TSO", &vx, ENOTSUP, spoil_nothing);
	rte_eth_dev_stop(port);
	configure(PORT_TX_OFFLOADS & ~RTE_ETH_TX_OFFLOAD_VXLAN_TNL_TSO, PORT_TX_OFFLOADS,
		  WHAT);
	refused("UDP_TSO without VXLAN_TNL_TSO, in VXLAN", &vx, ENOTSUP, spoil_nothing);
	in_use_zero("not enabled");
	rte_eth_dev_stop(port);

	seg_stack_top();
	sw0 = xstat(lower, "tx_tso_sw");
	configure(PORT_TX_OFFLOADS, PORT_TX_OFFLOADS, WHAT);
	all_shapes();
	refusals();
	CHECK(xstat(port, "tx_tso_hw") == n_packets && xstat(port, "tx_tso_sw") == 0,
	      "top: %" PRIu64 " handed down, %" PRIu64 " cut, want %u and 0",
	      xstat(port, "tx_tso_hw"), xstat(port, "tx_tso_sw"), n_packets);
	CHECK(xstat(lower, "tx_tso_sw") - sw0 == n_packets,
	      "lower: %" PRIu64 " cut, want %u", xstat(lower, "tx_tso_sw") - sw0,
	      n_packets);
	in_use_zero("hand-off");
	rte_eth_dev_stop(port);
	return seg_close();
}
