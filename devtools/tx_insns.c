/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Instructions per packet of hwcsum's TX software path, for callgrind: the
 * bench's traffic (devtools/bench-pmd.sh: VXLAN/IPv4/UDP, 16 flows, SIZE is
 * the inner frame) with the flags testpmd's csum engine sets in hw mode
 * (parse-tunnel on, ip/udp/outer-ip/outer-udp hw), through tx_prepare and
 * the per-chunk resolve of tx_burst, on a bare private struct with no
 * engine (tx_engine=none over net_null). No EAL, no sub-port call.
 *
 * Build (objects of a build dir B; -DTX_INSNS_BEFORE for a tree without
 * hwcsum_tx_resolve(), which calls hwcsum_tx_one() per packet as its
 * send_chunk() did):
 *   cc -O2 -o tx_insns devtools/tx_insns.c B/drivers/net/hwcsum/librte_net_hwcsum.so.0.1.0.p/*.o \
 *      -Idrivers/net/hwcsum -Ilib/csum -Ilib/udp_tunnel -Ilib/flow -I/usr/include/dpdk \
 *      -include rte_config.h -march=corei7 -DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API \
 *      -isystem /var/cache/hwcsum/dpdk-sdk-*\/include \
 *      -LB/lib -lhwcsum_csum -lhwcsum_udp_tunnel -lhwcsum_flow \
 *      $(pkg-config --libs libdpdk) -Wl,-rpath,B/lib
 * Run:
 *   valgrind --tool=callgrind --toggle-collect=hwcsum_tx_prepare \
 *      --toggle-collect=hwcsum_tx_resolve --toggle-collect=hwcsum_tx_one ./tx_insns 64
 * and divide the collected Ir by the packet count it prints.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwcsum_private.h"

#define BURST 32
#define FLOWS 16
#define BURSTS 2000

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
ipv4(uint8_t *p, uint16_t total, uint8_t proto, uint32_t flow)
{
	p[0] = 0x45;
	put16(p + 2, total);
	p[8] = 64;
	p[9] = proto;
	p[12] = 10;
	p[15] = (uint8_t)flow;
	p[16] = 10;
	p[17] = 1;
	p[19] = (uint8_t)(flow + 1);
	p[10] = 0xde;	/* wrong on purpose, as the bench's input is */
	p[11] = 0xad;
}

int
main(int argc, char **argv)
{
	uint32_t size = argc > 1 ? (uint32_t)atoi(argv[1]) : 64, len = size + 50;
	static struct hwcsum_private priv;
	static struct hwcsum_txq txq;
	static struct rte_mbuf mb[FLOWS * 2];
	struct rte_mbuf *pkts[BURST];
	int ret[BURST];
	unsigned long b, packets = 0;
	unsigned int i;

	priv.dynfield_off = offsetof(struct rte_mbuf, dynfield1);
	priv.tx_partial_flag = UINT64_C(1) << 30;
	priv.spec.engine = CSUM_ENGINE_NONE;
	txq.priv = &priv;
	for (i = 0; i < FLOWS * 2; i++) {
		struct rte_mbuf *m = &mb[i];
		uint8_t *p = aligned_alloc(64, 2048 + 128);

		memset(p, 0, 2048 + 128);
		m->buf_addr = p;
		m->buf_len = 2048 + 128;
		m->data_off = 128;
		p += 128;
		put16(p + 12, 0x0800);
		ipv4(p + 14, (uint16_t)(len - 14), 17, i % FLOWS);
		put16(p + 34, 1024 + i % FLOWS);
		put16(p + 36, 4789);
		put16(p + 38, (uint16_t)(len - 34));
		p[42] = 0x08;
		put16(p + 50 + 12, 0x0800);
		ipv4(p + 64, (uint16_t)(size - 14), 17, i % FLOWS);
		put16(p + 84, 5000);
		put16(p + 86, 6000);
		put16(p + 88, (uint16_t)(size - 34));
		m->data_len = (uint16_t)len;
		m->pkt_len = len;
		m->nb_segs = 1;
	}
	for (b = 0; b < BURSTS; b++) {
		for (i = 0; i < BURST; i++) {
			struct rte_mbuf *m = &mb[(b * BURST + i) % (FLOWS * 2)];

			m->ol_flags = RTE_MBUF_F_TX_TUNNEL_VXLAN | RTE_MBUF_F_TX_OUTER_IPV4 |
				RTE_MBUF_F_TX_OUTER_IP_CKSUM | RTE_MBUF_F_TX_OUTER_UDP_CKSUM |
				RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
				RTE_MBUF_F_TX_UDP_CKSUM;
			m->outer_l2_len = 14;
			m->outer_l3_len = 20;
			m->l2_len = 8 + 8 + 14;
			m->l3_len = 20;
			pkts[i] = m;
		}
		if (hwcsum_tx_prepare(&txq, pkts, BURST) != BURST)
			return 1;
#ifdef TX_INSNS_BEFORE
		for (i = 0; i < BURST; i++)
			ret[i] = hwcsum_tx_one(&priv, pkts[i], &txq.stats);
#else
		hwcsum_tx_resolve(&priv, pkts, BURST, &txq.stats, ret);
#endif
		for (i = 0; i < BURST; i++)
			if (ret[i] != 0)
				return 1;
		packets += BURST;
	}
	printf("%lu packets of %u bytes (frame %u): tx_l4_sw %lu lco %lu ip_sw %lu\n",
	       packets, size, len, (unsigned long)txq.stats.c[HWCSUM_TX_L4_SW],
	       (unsigned long)txq.stats.c[HWCSUM_TX_LCO],
	       (unsigned long)txq.stats.c[HWCSUM_TX_IP_SW]);
	return 0;
}
