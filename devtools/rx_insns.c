/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Instructions per packet of hwcsum's receive work, for callgrind: the
 * packets of `hwcsum-bench rxverify` (VXLAN/IPv4/UDP on 4789, all four
 * checksums right, SIZE the inner frame, 16 flows, random payload)
 * through hwcsum_rx_one() on a bare private struct with VXLAN registered,
 * as the bench drives it. No EAL, no sub-port.
 *
 * Build (objects of a build dir B, as for tx_insns.c):
 *   cc -O2 -o rx_insns devtools/rx_insns.c B/drivers/net/hwcsum/librte_net_hwcsum.so.p/*.o \
 *      -Idrivers/net/hwcsum -Ilib/csum -Ilib/udp_tunnel -I/usr/include/dpdk \
 *      -include rte_config.h -march=corei7 -DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API \
 *      -isystem /var/cache/hwcsum/dpdk-sdk-*\/include \
 *      -LB/lib/csum -LB/lib/udp_tunnel -lhwcsum_csum -lhwcsum_udp_tunnel \
 *      $(pkg-config --libs libdpdk) -Wl,-rpath,B/lib/csum:B/lib/udp_tunnel
 * Run:
 *   valgrind --tool=callgrind --toggle-collect=hwcsum_rx_one ./rx_insns 64
 * and divide the collected Ir by the packet count it prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_ip.h>
#include <rte_udp.h>

#include "hwcsum_private.h"

#define FLOWS 16
#define ROUNDS 1000

static void
ipv4(uint8_t *p, uint16_t total, uint32_t src, uint32_t dst)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(total);
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

static void
udp(uint8_t *p, uint16_t sport, uint16_t dport, uint16_t len)
{
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)p;

	u->src_port = rte_cpu_to_be_16(sport);
	u->dst_port = rte_cpu_to_be_16(dport);
	u->dgram_len = rte_cpu_to_be_16(len);
	u->dgram_cksum = 0;
}

static void
packet(struct rte_mbuf *m, uint32_t size, unsigned int flow)
{
	uint32_t len = size + 50, i;
	uint8_t *p = aligned_alloc(64, 2048 + 128);
	struct rte_ipv4_hdr *oip, *iip;

	for (i = 0; i < 2048 + 128; i++)
		p[i] = (uint8_t)rand();
	m->buf_addr = p;
	m->buf_len = 2048 + 128;
	m->data_off = 128;
	p += 128;
	memset(p, 0x02, 12);
	p[12] = 0x08;
	p[13] = 0x00;
	ipv4(p + 14, (uint16_t)(len - 14), 0xc0a80001, 0xc0a80002);
	udp(p + 34, (uint16_t)(40000 + flow), 4789, (uint16_t)(len - 34));
	memset(p + 42, 0, 8);
	p[42] = 0x08;
	p[48] = 42;
	memset(p + 50, 0x02, 12);
	p[62] = 0x08;
	p[63] = 0x00;
	ipv4(p + 64, (uint16_t)(len - 64), 0x0a010001 + flow, 0x0a020001);
	udp(p + 84, (uint16_t)(1000 + flow), 2000, (uint16_t)(len - 84));
	oip = (struct rte_ipv4_hdr *)(p + 14);
	iip = (struct rte_ipv4_hdr *)(p + 64);
	((struct rte_udp_hdr *)(p + 84))->dgram_cksum = rte_ipv4_udptcp_cksum(iip, p + 84);
	((struct rte_udp_hdr *)(p + 34))->dgram_cksum = rte_ipv4_udptcp_cksum(oip, p + 34);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	m->nb_segs = 1;
}

int
main(int argc, char **argv)
{
	uint32_t size = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
	const uint64_t good = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD |
		RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
	static struct hwcsum_private priv;
	static struct hwcsum_rxq_stats st;
	static struct rte_mbuf mb[FLOWS];
	unsigned long r, packets = 0;
	unsigned int i;

	priv.rx_work = true;
	priv.dynfield_off = -1;	/* as the bench: flags, ptype, lengths */
	priv.registry = udp_tunnel_registry_create();
	if (priv.registry == NULL ||
	    udp_tunnel_port_add(priv.registry, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN) < 0)
		return 1;
	for (i = 0; i < FLOWS; i++)
		packet(&mb[i], size, i);
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < FLOWS; i++) {
			struct rte_mbuf *m = &mb[i];

			m->ol_flags = 0;
			m->packet_type = 0;
			hwcsum_rx_one(&priv, m, &st);
			if ((m->ol_flags & good) != good)
				return 2;
		}
		packets += FLOWS;
	}
	printf("%lu packets of %u bytes (frame %u): complete %lu\n", packets, size,
	       size + 50, (unsigned long)st.c[HWCSUM_RX_COMPLETE]);
	return 0;
}
