/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_BENCH_RXVERIFY_PACKET_H
#define HWCSUM_BENCH_RXVERIFY_PACKET_H

/*
 * The packets of `hwcsum-bench rxverify`, in one place for the bench and
 * devtools/rx_insns.c (its instruction counts): VXLAN on 4789 over
 * IPv4/UDP, an inner Ethernet/IPv4/UDP frame, all four checksums right;
 * for rx_insns.c also VXLAN over IPv6 with IPv6 inside, and GENEVE.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <netinet/in.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>

#define OUTER_OVERHEAD 50	/* Ethernet 14 + IPv4 20 + UDP 8 + VXLAN 8 */
#define VXLAN_PORT 4789
#define GENEVE_PORT 6081

/* xorshift64: the same payload bytes from the same state, every run. */
static inline uint64_t
rxverify_rnd(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static inline void
rxverify_ipv4(uint8_t *p, uint16_t total_len, uint32_t src, uint32_t dst)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(total_len);
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

/* The tunnels rx_insns.c can measure (the bench uses the first). */
enum rxverify_shape {
	RXVERIFY_VXLAN4,	/* VXLAN over IPv4, Ethernet/IPv4/UDP inside */
	RXVERIFY_VXLAN6,	/* VXLAN over IPv6, Ethernet/IPv6/UDP inside */
	RXVERIFY_GENEVE4,	/* GENEVE (6081, no options) over IPv4, IPv4 inside */
};

static inline void
rxverify_ipv6(uint8_t *p, uint16_t payload_len, uint8_t src_last, uint8_t dst_last)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;

	memset(ip, 0, sizeof(*ip));
	ip->vtc_flow = rte_cpu_to_be_32(UINT32_C(6) << 28);
	ip->payload_len = rte_cpu_to_be_16(payload_len);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	ip->src_addr[0] = 0xfd;
	ip->src_addr[15] = src_last;
	ip->dst_addr[0] = 0xfd;
	ip->dst_addr[15] = dst_last;
}

/* One IP header of the shape at p, its datagram ending at end (of len). */
static inline void
rxverify_ip(uint8_t *p, bool v6, uint32_t hlen, uint32_t to_end,
	    uint32_t src, uint32_t dst)
{
	if (v6)
		rxverify_ipv6(p, (uint16_t)(to_end - hlen), (uint8_t)src, (uint8_t)dst);
	else
		rxverify_ipv4(p, (uint16_t)to_end, src, dst);
}

static inline uint16_t
rxverify_udp_cksum(const uint8_t *ip, bool v6, const struct rte_udp_hdr *udp)
{
	return v6 ? rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)ip, udp) :
		rte_ipv4_udptcp_cksum((const struct rte_ipv4_hdr *)ip, udp);
}

/* A frame of the shape around an inner frame of size bytes, flow-th of
 * its set; returns the length. */
static inline uint32_t
rxverify_packet_shaped(uint8_t *p, uint64_t *rnd_state, uint32_t size,
		       unsigned int flow, enum rxverify_shape shape)
{
	bool v6 = shape == RXVERIFY_VXLAN6;
	uint32_t ihl = v6 ? 40 : 20, tun = 14 + ihl + 8;
	uint32_t inner_l3 = tun + 8 + 14, inner_l4 = inner_l3 + ihl;
	uint32_t len = size + tun + 8, i;
	struct rte_udp_hdr *oudp = (struct rte_udp_hdr *)(p + 14 + ihl);
	struct rte_udp_hdr *iudp = (struct rte_udp_hdr *)(p + inner_l4);

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rxverify_rnd(rnd_state);
	/* outer Ethernet */
	memset(p, 0x02, 12);
	p[12] = v6 ? 0x86 : 0x08;
	p[13] = v6 ? 0xdd : 0x00;
	rxverify_ip(p + 14, v6, ihl, len - 14, 0xc0a80001, 0xc0a80002);
	oudp->src_port = rte_cpu_to_be_16((uint16_t)(40000 + flow));
	oudp->dst_port = rte_cpu_to_be_16(shape == RXVERIFY_GENEVE4 ? GENEVE_PORT :
					  VXLAN_PORT);
	oudp->dgram_len = rte_cpu_to_be_16((uint16_t)(len - 14 - ihl));
	/* VXLAN: flags I, VNI 42; GENEVE: version 0, no options, TEB, VNI 42 */
	memset(p + tun, 0, 8);
	if (shape == RXVERIFY_GENEVE4) {
		p[tun + 2] = 0x65;
		p[tun + 3] = 0x58;
	} else {
		p[tun] = 0x08;
	}
	p[tun + 6] = 42;
	/* inner Ethernet */
	memset(p + tun + 8, 0x02, 12);
	p[inner_l3 - 2] = p[12];
	p[inner_l3 - 1] = p[13];
	rxverify_ip(p + inner_l3, v6, ihl, len - inner_l3, 0x0a010001 + flow,
		    0x0a020001);
	iudp->src_port = rte_cpu_to_be_16((uint16_t)(1000 + flow));
	iudp->dst_port = rte_cpu_to_be_16(2000);
	iudp->dgram_len = rte_cpu_to_be_16((uint16_t)(len - inner_l4));
	/* inner first: the outer checksum covers the inner one */
	iudp->dgram_cksum = 0;
	iudp->dgram_cksum = rxverify_udp_cksum(p + inner_l3, v6, iudp);
	oudp->dgram_cksum = 0;
	oudp->dgram_cksum = rxverify_udp_cksum(p + 14, v6, oudp);
	return len;
}

/* An inner frame of size bytes, flow-th of its set; returns the length. */
static inline uint32_t
rxverify_packet(uint8_t *p, uint64_t *rnd_state, uint32_t size, unsigned int flow)
{
	return rxverify_packet_shaped(p, rnd_state, size, flow, RXVERIFY_VXLAN4);
}

#endif
