/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_BENCH_RXVERIFY_PACKET_H
#define HWCSUM_BENCH_RXVERIFY_PACKET_H

/*
 * The packets of `hwcsum-bench rxverify`, in one place for the bench and
 * devtools/rx_insns.c (its instruction counts): VXLAN on 4789 over
 * IPv4/UDP, an inner Ethernet/IPv4/UDP frame, all four checksums right.
 */
#include <stdint.h>
#include <string.h>
#include <netinet/in.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>

#define OUTER_OVERHEAD 50	/* Ethernet 14 + IPv4 20 + UDP 8 + VXLAN 8 */
#define VXLAN_PORT 4789

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

/* An inner frame of size bytes, flow-th of its set; returns the length. */
static inline uint32_t
rxverify_packet(uint8_t *p, uint64_t *rnd_state, uint32_t size, unsigned int flow)
{
	uint32_t inner_l3 = 14 + 20 + 8 + 8 + 14, inner_l4 = inner_l3 + 20;
	uint32_t len = size + OUTER_OVERHEAD, i;
	struct rte_ipv4_hdr *oip = (struct rte_ipv4_hdr *)(p + 14);
	struct rte_ipv4_hdr *iip = (struct rte_ipv4_hdr *)(p + inner_l3);
	struct rte_udp_hdr *oudp = (struct rte_udp_hdr *)(p + 34);
	struct rte_udp_hdr *iudp = (struct rte_udp_hdr *)(p + inner_l4);

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rxverify_rnd(rnd_state);
	/* outer Ethernet */
	memset(p, 0x02, 12);
	p[12] = 0x08;
	p[13] = 0x00;
	rxverify_ipv4(p + 14, (uint16_t)(len - 14), 0xc0a80001, 0xc0a80002);
	oudp->src_port = rte_cpu_to_be_16((uint16_t)(40000 + flow));
	oudp->dst_port = rte_cpu_to_be_16(VXLAN_PORT);
	oudp->dgram_len = rte_cpu_to_be_16((uint16_t)(len - 34));
	/* VXLAN: flags I, VNI 42 */
	memset(p + 42, 0, 8);
	p[42] = 0x08;
	p[48] = 42;
	/* inner Ethernet */
	memset(p + 50, 0x02, 12);
	p[62] = 0x08;
	p[63] = 0x00;
	rxverify_ipv4(p + inner_l3, (uint16_t)(len - inner_l3), 0x0a010001 + flow,
		      0x0a020001);
	iudp->src_port = rte_cpu_to_be_16((uint16_t)(1000 + flow));
	iudp->dst_port = rte_cpu_to_be_16(2000);
	iudp->dgram_len = rte_cpu_to_be_16((uint16_t)(len - inner_l4));
	/* inner first: the outer checksum covers the inner one */
	iudp->dgram_cksum = 0;
	iudp->dgram_cksum = rte_ipv4_udptcp_cksum(iip, iudp);
	oudp->dgram_cksum = 0;
	oudp->dgram_cksum = rte_ipv4_udptcp_cksum(oip, oudp);
	return len;
}

#endif
