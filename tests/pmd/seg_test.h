/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TEST_SEG_H
#define HWCSUM_TEST_SEG_H

/*
 * What the segmentation tests (test_tso.c, test_uso.c) share: one hwcsum
 * port over a net_ring sub-port whose TX ring the test drains, packets
 * built into an mbuf or a chain, segments written to a pcap for tshark,
 * xstats read by name. The includer defines MAX_PKT (its largest packet).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "csum_mbuf.h"

static struct rte_mempool *mp;
static struct rte_ring *rx_ring, *tx_ring;
static uint16_t port;
static FILE *pcap;

static void
put_eth(uint8_t *p, int ver)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };

	memcpy(p, macs, 12);
	p[12] = ver == 4 ? 0x08 : 0x86;
	p[13] = ver == 4 ? 0x00 : 0xdd;
}

/* An IPv4 (df: Don't Fragment set) or IPv6 header; returns its length. */
static uint32_t
put_ip(uint8_t *p, int ver, uint32_t payload_len, uint8_t proto, uint16_t id,
       bool df)
{
	if (ver == 4) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;

		memset(ip, 0, sizeof(*ip));
		ip->version_ihl = 0x45;
		ip->total_length = rte_cpu_to_be_16(20 + payload_len);
		ip->packet_id = rte_cpu_to_be_16(id);
		if (df)
			ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
		ip->time_to_live = 64;
		ip->next_proto_id = proto;
		ip->src_addr = rte_cpu_to_be_32(0x0a000001 + id);
		ip->dst_addr = rte_cpu_to_be_32(0x0a000102);
		ip->hdr_checksum = 0x5555;	/* wrong: hwcsum must fill it */
		return 20;
	}
	struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)p;

	memset(ip6, 0, sizeof(*ip6));
	ip6->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip6->payload_len = rte_cpu_to_be_16(payload_len);
	ip6->proto = proto;
	ip6->hop_limits = 64;
	ip6->src_addr[0] = 0xfd;
	ip6->src_addr[15] = (uint8_t)id;
	ip6->dst_addr[0] = 0xfd;
	ip6->dst_addr[15] = 2;
	return 40;
}

/* One mbuf, or a chain: the headers alone first, then 1000-byte pieces. */
static struct rte_mbuf *
to_mbuf(const uint8_t *buf, uint32_t len, uint32_t hdr, bool chain)
{
	struct rte_mbuf *head = NULL;
	uint32_t off = 0;

	while (off < len) {
		uint32_t room = chain ? (off == 0 ? hdr : 1000) : len;
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
		uint32_t n;

		if (m == NULL)
			rte_exit(EXIT_FAILURE, "no mbuf\n");
		n = RTE_MIN(RTE_MIN(room, len - off), (uint32_t)rte_pktmbuf_tailroom(m));
		memcpy(rte_pktmbuf_append(m, n), buf + off, n);
		off += n;
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			rte_exit(EXIT_FAILURE, "chain too long\n");
	}
	return head;
}

/* A pcap record of m, when the test writes a capture. */
static void
pcap_write(const struct rte_mbuf *m)
{
	static uint8_t buf[MAX_PKT];
	static uint32_t ts;
	uint32_t rec[4] = { ++ts, 0, m->pkt_len, m->pkt_len };

	if (pcap == NULL || csum_mbuf_read(m, 0, m->pkt_len, buf) != 0)
		return;
	fwrite(rec, sizeof(rec), 1, pcap);
	fwrite(buf, m->pkt_len, 1, pcap);
}

static uint64_t
xstat(uint16_t pid, const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(pid, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(pid, &id, &v, 1) != 1)
		return UINT64_MAX;
	return v;
}

/* Take what the ring got and what hwcsum still holds, in order. */
static uint32_t
drain(struct rte_mbuf **segs, uint32_t max)
{
	uint32_t got = 0, idle = 0;

	while (idle < 3 && got < max) {
		unsigned int k = rte_ring_dequeue_burst(tx_ring, (void **)segs + got,
							max - got, NULL);

		got += k;
		idle = k == 0 ? idle + 1 : 0;
		rte_eth_tx_burst(port, 0, NULL, 0);
	}
	return got;
}

/* The port (re)configured with tx_offloads; it must offer all of need. */
static void
configure(uint64_t tx_offloads, uint64_t need, const char *what)
{
	struct rte_eth_conf conf = { .txmode.offloads = tx_offloads };
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(port, &info) != 0 ||
	    (info.tx_offload_capa & need) != need)
		rte_exit(EXIT_FAILURE, "hwcsum does not offer %s (capa %#" PRIx64 ")\n",
			 what, info.tx_offload_capa);
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 64, 0, NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 64, 0, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0)
		rte_exit(EXIT_FAILURE, "port setup failed\n");
}

#endif
