/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The example of rte_pmd_hwcsum.h, compiled and run by the pmd suite:
 * an application asks for CHECKSUM_PARTIAL on transmit and verifies an
 * inner checksum from CHECKSUM_COMPLETE on receive, with nothing but the
 * public header and the PMD loaded through -d.
 *
 *   example_partial -d librte_net_hwcsum.so --vdev net_ring0 \
 *       --vdev net_hwcsum0,sub=net_ring0,rx=on --no-huge -m 256 --no-pci
 *
 * net_ring0 loops what hwcsum sends back to it, so every packet is sent
 * with a request and received with a COMPLETE sum. Exit status 0 when the
 * checksum written on transmit is right (judged by rte_ipv4_udptcp_cksum_verify,
 * which shares no code with hwcsum) and the receive-side verification of
 * the inner checksum agrees, for a plain UDP packet and a VXLAN one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>
#include <rte_vxlan.h>

#include "rte_pmd_hwcsum.h"

#define PAYLOAD 333

/* Ethernet / IPv4 / UDP(dport) / payload at buf; returns the length. */
static uint16_t
put_udp4(uint8_t *buf, uint16_t dport, uint16_t payload)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t i;

	memset(eth, 0, sizeof(*eth));
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + sizeof(*udp) + payload);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(UINT32_C(0xc0000201)); /* 192.0.2.1 */
	ip->dst_addr = rte_cpu_to_be_32(UINT32_C(0xc0000202)); /* 192.0.2.2 */
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(4000);
	udp->dst_port = rte_cpu_to_be_16(dport);
	udp->dgram_len = rte_cpu_to_be_16(sizeof(*udp) + payload);
	udp->dgram_cksum = 0;
	for (i = 0; i < payload; i++)
		((uint8_t *)(udp + 1))[i] = (uint8_t)(i * 7 + 1);
	return sizeof(*eth) + sizeof(*ip) + sizeof(*udp) + payload;
}

static int
send_and_receive(uint16_t port, struct rte_mbuf *m, struct rte_mbuf **back)
{
	int tries;

	if (rte_eth_tx_burst(port, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -1;
	}
	for (tries = 0; tries < 1000; tries++)
		if (rte_eth_rx_burst(port, 0, back, 1) == 1)
			return 0;
	return -1;
}

int
main(int argc, char **argv)
{
	const uint16_t outer = sizeof(struct rte_ether_hdr) +
		sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr) +
		sizeof(struct rte_vxlan_hdr);
	struct rte_eth_udp_tunnel vxlan = { 4789, RTE_ETH_TUNNEL_TYPE_VXLAN };
	struct rte_eth_conf conf = { 0 };
	struct rte_pmd_hwcsum_dyn dyn;
	struct rte_mempool *mp;
	struct rte_mbuf *m, *back;
	const struct rte_ipv4_hdr *ip;
	uint16_t port = RTE_MAX_ETHPORTS, p, len;
	uint8_t *pkt;
	int fails = 0, v;

	if (rte_eal_init(argc, argv) < 0)
		rte_exit(EXIT_FAILURE, "EAL init failed\n");
	RTE_ETH_FOREACH_DEV(p)
		port = p;	/* the only visible port: hwcsum */
	if (port == RTE_MAX_ETHPORTS || rte_pmd_hwcsum_dyn_lookup(&dyn) != 0)
		rte_exit(EXIT_FAILURE, "no net_hwcsum port\n");
	mp = rte_pktmbuf_pool_create("example", 256, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (mp == NULL || rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 64, rte_socket_id(), NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 64, rte_socket_id(), NULL) != 0 ||
	    rte_eth_dev_start(port) != 0)
		rte_exit(EXIT_FAILURE, "cannot set port %u up\n", port);
	/* VXLAN is a tunnel once a user says so, as in Linux. */
	if (rte_eth_dev_udp_tunnel_port_add(port, &vxlan) != 0)
		rte_exit(EXIT_FAILURE, "cannot add VXLAN port 4789\n");

	/* 1. Plain UDP: the request, and the checksum it produced. */
	m = rte_pktmbuf_alloc(mp);
	pkt = rte_pktmbuf_mtod(m, uint8_t *);
	len = put_udp4(pkt, 9999, PAYLOAD);
	rte_pktmbuf_append(m, len);
	rte_pmd_hwcsum_tx_partial_l4(&dyn, m, 14, 34, IPPROTO_UDP);
	if (send_and_receive(port, m, &back) != 0)
		rte_exit(EXIT_FAILURE, "plain packet did not come back\n");
	ip = rte_pktmbuf_mtod_offset(back, const struct rte_ipv4_hdr *, 14);
	if (rte_ipv4_udptcp_cksum_verify(ip, ip + 1) != 0) {
		printf("FAIL: plain UDP checksum wrong on the wire\n");
		fails++;
	}
	v = rte_pmd_hwcsum_rx_verify_l4(&dyn, back, 14, 34);
	printf("plain UDP: verify from COMPLETE = %d (1 = good)\n", v);
	fails += v != 1;
	rte_pktmbuf_free(back);

	/* 2. VXLAN: the inner checksum requested, verified from the outer sum. */
	m = rte_pktmbuf_alloc(mp);
	pkt = rte_pktmbuf_mtod(m, uint8_t *);
	len = sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) +
		sizeof(struct rte_udp_hdr) + PAYLOAD;
	/* Outer first: its payload pattern is then overwritten by the inner. */
	put_udp4(pkt, 4789, sizeof(struct rte_vxlan_hdr) + len);
	put_udp4(pkt + outer, 7777, PAYLOAD);
	((struct rte_vxlan_hdr *)(pkt + outer - 8))->vx_flags = rte_cpu_to_be_32(0x08000000);
	((struct rte_vxlan_hdr *)(pkt + outer - 8))->vx_vni = rte_cpu_to_be_32(42 << 8);
	rte_pktmbuf_append(m, outer + len);
	rte_pmd_hwcsum_tx_partial_l4(&dyn, m, outer + 14, outer + 34, IPPROTO_UDP);
	if (send_and_receive(port, m, &back) != 0)
		rte_exit(EXIT_FAILURE, "VXLAN packet did not come back\n");
	ip = rte_pktmbuf_mtod_offset(back, const struct rte_ipv4_hdr *, outer + 14);
	if (rte_ipv4_udptcp_cksum_verify(ip, ip + 1) != 0) {
		printf("FAIL: inner UDP checksum wrong on the wire\n");
		fails++;
	}
	if ((back->packet_type & RTE_PTYPE_TUNNEL_MASK) != RTE_PTYPE_TUNNEL_VXLAN) {
		printf("FAIL: not classified as VXLAN (packet_type 0x%x)\n",
		       back->packet_type);
		fails++;
	}
	v = rte_pmd_hwcsum_rx_verify_l4(&dyn, back, outer + 14, outer + 34);
	printf("VXLAN inner UDP: verify from COMPLETE = %d (1 = good)\n", v);
	fails += v != 1;
	rte_pktmbuf_free(back);
	/* A corrupted packet through the port must be judged bad. */
	m = rte_pktmbuf_alloc(mp);
	pkt = rte_pktmbuf_mtod(m, uint8_t *);
	len = put_udp4(pkt, 9999, PAYLOAD);
	rte_pktmbuf_append(m, len);
	((struct rte_udp_hdr *)(pkt + 34))->dgram_cksum = rte_cpu_to_be_16(0x1234);
	if (send_and_receive(port, m, &back) != 0)
		rte_exit(EXIT_FAILURE, "corrupted packet did not come back\n");
	v = rte_pmd_hwcsum_rx_verify_l4(&dyn, back, 14, 34);
	printf("corrupted UDP: verify from COMPLETE = %d (0 = bad)\n", v);
	fails += v != 0;
	rte_pktmbuf_free(back);

	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	rte_eal_cleanup();
	printf("%s\n", fails ? "FAILED" : "all checks passed");
	return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
