/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL and ports for the C tests that run the PMD: EAL with no hugepages,
 * no PCI and a runtime directory of the test's own (meson runs tests in
 * parallel), the PMD loaded by -d unless it is compiled into the test
 * ("builtin", the ThreadSanitizer variants); and a net_ring sub-port over
 * two rte_rings the test feeds and drains, with a hwcsum port on it.
 */
#ifndef HWCSUM_TEST_EAL_H
#define HWCSUM_TEST_EAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_debug.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ring.h>

struct harness_eal {
	const char *name;	/* runtime directory hwcsum-<name>-<pid> */
	const char *pmd;	/* librte_net_hwcsum.so, or "builtin" */
	const char *lcores;	/* --lcores; "0" when NULL */
	const char *memory;	/* -m, in MB; "256" when NULL */
	bool pmd_log_info;	/* the PMD's info messages (test_probe reads them) */
	bool no_telemetry;
};

/* rte_eal_init() as described above; 0, or -1 with the reason printed. */
static inline int
harness_eal_init(const char *argv0, const struct harness_eal *e)
{
	char prefix[64], lcores[64];
	char *args[16];
	int n = 0;

	snprintf(prefix, sizeof(prefix), "--file-prefix=hwcsum-%s-%d", e->name,
		 (int)getpid());
	snprintf(lcores, sizeof(lcores), "--lcores=%s", e->lcores ? e->lcores : "0");
	args[n++] = (char *)(uintptr_t)argv0;
	args[n++] = "--no-huge";
	args[n++] = "-m";
	args[n++] = (char *)(uintptr_t)(e->memory ? e->memory : "256");
	args[n++] = "--no-pci";
	args[n++] = lcores;
	args[n++] = prefix;
	if (e->pmd_log_info) {
		args[n++] = "--log-level";
		args[n++] = "pmd.net.hwcsum:info";
	}
	if (e->no_telemetry)
		args[n++] = "--no-telemetry";
	if (strcmp(e->pmd, "builtin") != 0) {
		args[n++] = "-d";
		args[n++] = (char *)(uintptr_t)e->pmd;
	}
	args[n] = NULL;
	if (rte_eal_init(n, args) < 0) {
		printf("FAIL: rte_eal_init (%s): %s\n", e->name, rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

/* The two rings of a net_ring sub-port: what the test puts in rx, the
 * port receives; what the port sends, the test takes from tx. */
struct harness_rings {
	struct rte_ring *rx, *tx;
};

/*
 * A net_ring sub-port "net_ring_<ring>" over two new rings of `size`
 * entries (rte_ring_create flags), and hwcsum port `hw_name` on it with
 * devargs "sub=net_ring_<ring>[,<devargs>]". Returns the hwcsum port id;
 * exits naming what failed, since no test can go on without its port.
 */
static inline uint16_t
harness_ring_hwcsum(const char *ring, unsigned int size, unsigned int flags,
		    const char *hw_name, const char *devargs,
		    struct harness_rings *rings)
{
	char name[RTE_RING_NAMESIZE], args[256];
	uint16_t port;

	snprintf(name, sizeof(name), "%s_rx", ring);
	rings->rx = rte_ring_create(name, size, SOCKET_ID_ANY, flags);
	snprintf(name, sizeof(name), "%s_tx", ring);
	rings->tx = rte_ring_create(name, size, SOCKET_ID_ANY, flags);
	if (rings->rx == NULL || rings->tx == NULL)
		rte_exit(EXIT_FAILURE, "rings of %s: %s\n", ring, rte_strerror(rte_errno));
	if (rte_eth_from_rings(ring, &rings->rx, 1, &rings->tx, 1, SOCKET_ID_ANY) < 0)
		rte_exit(EXIT_FAILURE, "rte_eth_from_rings(%s): %s\n", ring,
			 rte_strerror(rte_errno));
	snprintf(args, sizeof(args), "sub=net_ring_%s%s%s", ring,
		 devargs && devargs[0] ? "," : "", devargs ? devargs : "");
	if (rte_vdev_init(hw_name, args) != 0 ||
	    rte_eth_dev_get_port_by_name(hw_name, &port) != 0)
		rte_exit(EXIT_FAILURE, "probe %s,%s failed\n", hw_name, args);
	return port;
}

/* Free what harness_ring_hwcsum() made besides the ports. */
static inline void
harness_rings_free(struct harness_rings *rings)
{
	rte_ring_free(rings->rx);
	rte_ring_free(rings->tx);
}

#endif /* HWCSUM_TEST_EAL_H */
