/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Probe/remove of net_hwcsum through the vdev bus, the way EAL does it for
 * --vdev: good and bad devargs, ownership, removal in either order, and many
 * cycles so that ASan/LSan (make asan) sees any leak.
 *
 * usage: test_probe <path to librte_net_hwcsum.so>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "../lib/test_eal.h"
#include "../lib/test_harness.h"

static char *log_buf;
static size_t log_len;
static FILE *log_stream;

/* Capture DPDK's log so error messages can be checked for what they name. */
static void
log_capture_start(void)
{
	fflush(log_stream);
	if (log_stream != NULL)
		fclose(log_stream);
	free(log_buf);
	log_buf = NULL;
	log_stream = open_memstream(&log_buf, &log_len);
	rte_openlog_stream(log_stream);
}

static const char *
log_captured(void)
{
	fflush(log_stream);
	return log_buf != NULL ? log_buf : "";
}

static void
expect_probe_fails(const char *name, const char *args, int err,
		   const char *message)
{
	int ret;

	log_capture_start();
	ret = rte_vdev_init(name, args);
	CHECK(ret == err, "%s,%s: probe returned %d, expected %d", name,
	      args ? args : "", ret, err);
	CHECK(strstr(log_captured(), message) != NULL,
	      "%s,%s: log does not say \"%s\"; it says:\n%s", name,
	      args ? args : "", message, log_captured());
	CHECK(rte_eth_dev_get_port_by_name(name, &(uint16_t){0}) != 0,
	      "%s: a port exists after a failed probe", name);
}

static uint16_t
port_of(const char *name)
{
	uint16_t port = RTE_MAX_ETHPORTS;

	CHECK(rte_eth_dev_get_port_by_name(name, &port) == 0, "no port %s", name);
	return port;
}

/* net_ring loops tx back to rx: what goes out through hwcsum comes back. */
static void
check_loopback(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf = {0};
	struct rte_mbuf *pkts[32], *rx[64];
	uint16_t sent, got = 0, i;
	int tries;

	CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure");
	CHECK(rte_eth_rx_queue_setup(port, 0, 128, 0, NULL, mp) == 0, "rxq");
	CHECK(rte_eth_tx_queue_setup(port, 0, 128, 0, NULL) == 0, "txq");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	CHECK(rte_pktmbuf_alloc_bulk(mp, pkts, 32) == 0, "alloc");
	for (i = 0; i < 32; i++) {
		char *p = rte_pktmbuf_append(pkts[i], 60);

		memset(p, i, 60);
	}
	sent = rte_eth_tx_burst(port, 0, pkts, 32);
	CHECK(sent == 32, "sent %u of 32", sent);
	for (tries = 0; tries < 100 && got < sent; tries++)
		got += rte_eth_rx_burst(port, 0, rx + got, 64 - got);
	CHECK(got == sent, "received %u of %u", got, sent);
	for (i = 0; i < got; i++) {
		CHECK(rx[i]->port == port, "mbuf port %u, expected %u",
		      rx[i]->port, port);
		CHECK(rte_pktmbuf_mtod(rx[i], uint8_t *)[59] == i,
		      "packet %u reordered or corrupted", i);
	}
	rte_pktmbuf_free_bulk(rx, got);
	rte_pktmbuf_free_bulk(pkts + sent, 32 - sent);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
}

int
main(int argc, char **argv)
{
	struct rte_eth_dev_owner owner;
	struct rte_mempool *mp;
	int cycle;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <librte_net_hwcsum.so>\n", argv[0]);
		return 2;
	}
	if (harness_eal_init(argv[0], &(struct harness_eal){ .name = "probe",
			.pmd = argv[1], .memory = "128", .pmd_log_info = true }) != 0)
		return 1;
	mp = rte_pktmbuf_pool_create("test_probe", 512, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	CHECK(mp != NULL, "mbuf pool");

	CHECK(rte_vdev_init("net_ring0", NULL) == 0, "net_ring0");
	expect_probe_fails("net_hwcsum0", NULL, -EINVAL, "missing devarg 'sub=");
	expect_probe_fails("net_hwcsum0", "sub=", -EINVAL, "missing devarg 'sub=");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,bogus=1", -EINVAL,
			   "unknown devarg 'bogus'");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,sub=net_ring0", -EINVAL,
			   "given twice");
	expect_probe_fails("net_hwcsum0", "sub=net_nothere", -ENODEV,
			   "sub-port 'net_nothere' does not exist");
	/* Every devarg names what was wrong with it. */
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tx_engine=fast", -EINVAL,
			   "tx_engine='fast' is not one of: auto generic parse none");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,rx=maybe", -EINVAL,
			   "rx='maybe' is not one of: auto on off");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,registry=netns", -EINVAL,
			   "registry='netns' is not one of: port shared");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tx_engine=generic", -ENOTSUP,
			   "offers no UDP/TCP checksum offload");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tables=4", -EINVAL,
			   "table '4' is not <entries>:<type>");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tables=0:vxlan", -EINVAL,
			   "table size '0' is not 1..64");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tables=65:vxlan", -EINVAL,
			   "table size '65' is not 1..64");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tables=4:vxlan+nvgre", -EINVAL,
			   "unknown tunnel type 'nvgre'");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tables=1:a/1:b/1:c/1:d/1:e",
			   -EINVAL, "more than 4 tables");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tunnel_ports=gue", -EINVAL,
			   "'gue' is not <type>:<udp port 1..65535>");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tunnel_ports=gue:70000", -EINVAL,
			   "'gue:70000' is not <type>:<udp port 1..65535>");
	expect_probe_fails("net_hwcsum0", "sub=net_ring0,tunnel_ports=mytun:5000", -EINVAL,
			   "'mytun': unknown tunnel type");

	/* Good probe: the sub-port disappears from the application's view. */
	CHECK(rte_vdev_init("net_hwcsum0", "sub=net_ring0") == 0, "probe");
	CHECK(rte_eth_dev_count_avail() == 1, "%u ports visible, expected 1",
	      rte_eth_dev_count_avail());
	CHECK(rte_eth_dev_owner_get(port_of("net_ring0"), &owner) == 0 &&
	      strcmp(owner.name, "net_hwcsum0") == 0, "owner is '%s'", owner.name);
	expect_probe_fails("net_hwcsum1", "sub=net_ring0", -EBUSY,
			   "sub-port 'net_ring0' is already owned by 'net_hwcsum0'");
	check_loopback(port_of("net_hwcsum0"), mp);

	/* Removing hwcsum closes the sub-port it owned. */
	CHECK(rte_vdev_uninit("net_hwcsum0") == 0, "remove");
	CHECK(rte_eth_dev_get_port_by_name("net_ring0", &(uint16_t){0}) != 0,
	      "sub-port still open after hwcsum was removed");
	/* Probed again over it (OVS's del-port/add-port): the sub-port's
	 * device is probed again too, and works. */
	CHECK(rte_vdev_init("net_hwcsum0", "sub=net_ring0") == 0,
	      "probe again over the closed sub-port");
	CHECK(rte_eth_dev_owner_get(port_of("net_ring0"), &owner) == 0 &&
	      strcmp(owner.name, "net_hwcsum0") == 0, "owner is '%s'", owner.name);
	check_loopback(port_of("net_hwcsum0"), mp);
	CHECK(rte_vdev_uninit("net_hwcsum0") == 0, "remove again");
	CHECK(rte_vdev_uninit("net_ring0") == 0, "remove ring");

	/* The sub-port removed first: hwcsum must notice, not touch it. */
	CHECK(rte_vdev_init("net_ring1", NULL) == 0, "net_ring1");
	CHECK(rte_vdev_init("net_hwcsum1", "sub=net_ring1") == 0, "probe 1");
	log_capture_start();
	CHECK(rte_vdev_uninit("net_ring1") == 0, "remove ring first");
	CHECK(strstr(log_captured(), "sub-port 'net_ring1' was removed") != NULL,
	      "removal not noticed: %s", log_captured());
	CHECK(rte_eth_dev_configure(port_of("net_hwcsum1"), 1, 1,
				    &(struct rte_eth_conf){0}) == -ENODEV,
	      "configure on a port whose sub-port is gone must fail with -ENODEV");
	CHECK(rte_vdev_uninit("net_hwcsum1") == 0, "remove hwcsum after ring");

	/* Cycles for the leak checker. */
	for (cycle = 0; cycle < 50; cycle++) {
		CHECK(rte_vdev_init("net_ring2", NULL) == 0, "cycle %d ring", cycle);
		CHECK(rte_vdev_init("net_hwcsum2", "sub=net_ring2") == 0,
		      "cycle %d probe", cycle);
		CHECK(rte_vdev_uninit("net_hwcsum2") == 0, "cycle %d remove", cycle);
		CHECK(rte_vdev_uninit("net_ring2") == 0, "cycle %d ring rm", cycle);
	}

	rte_openlog_stream(stderr);
	fclose(log_stream);
	free(log_buf);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return harness_summary("test_probe");
}
