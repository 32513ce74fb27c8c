/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Instructions of one io-forwarding iteration as testpmd's io engine does
 * it (devtools/bench-pmd.sh, pass-through rows), for callgrind: receive a
 * burst of 64-byte packets from a generating net_null, send it to the port
 * under test, then poll the port under test (empty) for the way back.
 * The port under test is net_hwcsum over net_null (no offload) or, with
 * "bare", a net_null of its own; the difference is hwcsum's cost.
 *
 * Build (B a build dir):
 *   cc -O2 -o io_insns devtools/io_insns.c $(pkg-config --cflags --libs libdpdk) \
 *      -lrte_bus_vdev
 * Run:
 *   valgrind --tool=callgrind --toggle-collect=io_iteration \
 *      ./io_insns hwcsum|bare B/drivers/net/hwcsum/librte_net_hwcsum.so
 * and divide the collected Ir by the iteration count it prints.
 */
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#define BURST 32
#define ITERATIONS 20000

static __attribute__((noinline)) void
io_iteration(uint16_t src, uint16_t dut)
{
	struct rte_mbuf *pkts[BURST];
	uint16_t n, sent;

	n = rte_eth_rx_burst(src, 0, pkts, BURST);
	if (n != 0) {
		sent = rte_eth_tx_burst(dut, 0, pkts, n);
		if (sent < n)
			rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	}
	n = rte_eth_rx_burst(dut, 0, pkts, BURST);
	if (n != 0) {
		sent = rte_eth_tx_burst(src, 0, pkts, n);
		if (sent < n)
			rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	}
}

static int
port_up(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 256, 0, NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 256, 0, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0)
		return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	char plugin[4096];
	char *eal[] = { "io_insns", "--no-huge", "-m", "128", "--no-pci",
		"-l", "0", "--log-level", "error", "-d", plugin,
		"--vdev", "net_null_src,size=64",
		"--vdev", "net_null_bare,no-rx=1",
		"--vdev", "net_null_dut,no-rx=1",
		"--vdev", "net_hwcsum_dut,sub=net_null_dut", NULL };
	struct rte_mempool *mp;
	uint16_t src, dut;
	int i;

	if (argc != 3 || (strcmp(mode, "hwcsum") != 0 && strcmp(mode, "bare") != 0)) {
		fprintf(stderr, "usage: io_insns hwcsum|bare PLUGIN.so\n");
		return 2;
	}
	snprintf(plugin, sizeof(plugin), "%s", argv[2]);
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0)
		return 1;
	mp = rte_pktmbuf_pool_create("io_insns", 4096, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL || rte_eth_dev_get_port_by_name("net_null_src", &src) != 0 ||
	    rte_eth_dev_get_port_by_name(strcmp(mode, "bare") == 0 ?
					 "net_null_bare" : "net_hwcsum_dut", &dut) != 0) {
		fprintf(stderr, "io_insns: no pool or ports\n");
		return 1;
	}
	if (port_up(src, mp) != 0 || port_up(dut, mp) != 0) {
		fprintf(stderr, "io_insns: cannot start the ports\n");
		return 1;
	}
	for (i = 0; i < ITERATIONS; i++)
		io_iteration(src, dut);
	printf("iterations %d\n", ITERATIONS);
	return 0;
}
