/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Instructions per packet of hwcsum's receive work, for callgrind: the
 * packets of `hwcsum-bench rxverify` (VXLAN/IPv4/UDP on 4789, all four
 * checksums right, SIZE the inner frame, 16 flows: rxverify_packet.h)
 * through hwcsum_rx_one() on a bare private struct with VXLAN registered,
 * as the bench drives it; or, with a SHAPE after SIZE, the same over IPv6
 * with IPv6 inside (vxlan6) or GENEVE on 6081 over IPv4 (geneve4). No EAL,
 * no sub-port.
 *
 * Build (against the PMD's shared library of a build dir B, as hwcsum-bench
 * links it: hwcsum_rx_one() is in its INTERNAL version node; -fno-plt, as
 * the bench is built, so the call is one `call *GOT`):
 *   cc -O2 -fno-plt -o rx_insns devtools/rx_insns.c \
 *      -Idrivers/net/hwcsum -Iapp/hwcsum-bench -Ilib/csum -Ilib/udp_tunnel -Ilib/flow \
 *      $(pkg-config --cflags libdpdk) -DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API \
 *      -isystem /var/cache/hwcsum/dpdk-sdk-*\/include \
 *      -LB/drivers/net/hwcsum -LB/lib -lrte_net_hwcsum -lhwcsum_udp_tunnel \
 *      $(pkg-config --libs libdpdk) -Wl,-rpath,B/drivers/net/hwcsum:B/lib
 * (hwcsum_private.h only gives the bare struct's layout, the one the .so
 * of the same tree was built with.)
 * Run:
 *   valgrind --tool=callgrind --toggle-collect=hwcsum_rx_one ./rx_insns 64 [SHAPE]
 * and divide the collected Ir by the packet count it prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "hwcsum_private.h"
#include "rxverify_packet.h"

#define FLOWS 16
#define ROUNDS 1000

/* One mbuf around a packet of the bench's (a 128-byte headroom). */
static void
packet(struct rte_mbuf *m, uint32_t size, unsigned int flow,
       enum rxverify_shape shape)
{
	static uint64_t rnd_state = 88172645463325252ull;
	uint8_t *p = aligned_alloc(64, 2048 + 128);

	m->buf_addr = p;
	m->buf_len = 2048 + 128;
	m->data_off = 128;
	m->data_len = (uint16_t)rxverify_packet_shaped(p + 128, &rnd_state, size,
							      flow, shape);
	m->pkt_len = m->data_len;
	m->nb_segs = 1;
}

int
main(int argc, char **argv)
{
	static const char *const shapes[] = { "vxlan4", "vxlan6", "geneve4" };
	uint32_t size = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
	enum rxverify_shape shape = RXVERIFY_VXLAN4;
	uint64_t good = RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
	static struct hwcsum_private priv;
	static struct hwcsum_rxq_stats st;
	static struct rte_mbuf mb[FLOWS];
	unsigned long r, packets = 0;
	unsigned int i;

	if (argc > 2) {
		for (i = 0; i < RTE_DIM(shapes) && strcmp(argv[2], shapes[i]) != 0; i++)
			;
		if (i == RTE_DIM(shapes)) {
			fprintf(stderr, "rx_insns: unknown shape %s (vxlan4, vxlan6, geneve4)\n",
				argv[2]);
			return 1;
		}
		shape = (enum rxverify_shape)i;
	}
	/* No IPv4 header inside IPv6 to call good. */
	if (shape != RXVERIFY_VXLAN6)
		good |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	priv.rx_work = true;
	priv.dynfield_off = -1;	/* as the bench: flags, ptype, lengths */
	priv.registry = udp_tunnel_registry_create();
	if (priv.registry == NULL ||
	    udp_tunnel_port_add(priv.registry, AF_INET, VXLAN_PORT, UDP_TUNNEL_TYPE_VXLAN) < 0 ||
	    udp_tunnel_port_add(priv.registry, AF_INET, GENEVE_PORT, UDP_TUNNEL_TYPE_GENEVE) < 0)
		return 1;
	for (i = 0; i < FLOWS; i++)
		packet(&mb[i], size, i, shape);
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
	printf("%lu packets of %u bytes (%s, frame %u): complete %lu\n", packets, size,
	       shapes[shape], mb[0].pkt_len, (unsigned long)st.c[HWCSUM_RX_COMPLETE]);
	return 0;
}
