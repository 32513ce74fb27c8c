/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An out-of-tree application, built by install.sh against the installed
 * pkg-config files only (nothing from the source or build tree), linked
 * with the installed libhwcsum_csum, libhwcsum_udp_tunnel and the PMD
 * itself (hwcsum-pmd.pc: -lrte_net_hwcsum, as testpmd links
 * librte_net_ixgbe to call rte_pmd_ixgbe_*()).
 *
 *   install_app                 call lib/csum, lib/udp_tunnel and the PMD,
 *                               say which files the calls ran in
 *   install_app --eal <EAL args>  also start EAL (with -d naming the plugin
 *                               directory: EAL must find the PMD already
 *                               loaded, not load a second one), check a
 *                               net_hwcsum port was probed, use
 *                               rte_pmd_hwcsum.h on it, and a tunnel port
 *                               added through the port's registry with
 *                               the application's own lib/udp_tunnel calls
 *                               is seen by the PMD's: one library, one copy
 *
 * Prints "lib <name> <path>" lines for install.sh to check, and "OK" last.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_pmd_hwcsum.h>

#include <csum.h>
#include <udp_tunnel.h>

static int
fail(const char *what)
{
	fprintf(stderr, "install_app: %s\n", what);
	return 1;
}

/* The file a function was loaded from. */
static void
print_lib(const char *name, void *fn)
{
	Dl_info info;

	if (dladdr(fn, &info) != 0 && info.dli_fname != NULL)
		printf("lib %s %s\n", name, info.dli_fname);
	else
		printf("lib %s ?\n", name);
}

/* How many objects named <prefix>* are mapped, each printed as "map <path>". */
struct mapped {
	const char *prefix;
	int n;
};

static int
count_mapped(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct mapped *m = arg;
	const char *base = strrchr(info->dlpi_name, '/');

	(void)size;
	if (base != NULL && strncmp(base + 1, m->prefix, strlen(m->prefix)) == 0) {
		printf("map %s\n", info->dlpi_name);
		m->n++;
	}
	return 0;
}

static int
mapped_once(const char *prefix)
{
	struct mapped m = { prefix, 0 };

	dl_iterate_phdr(count_mapped, &m);
	return m.n == 1;
}

int
main(int argc, char **argv)
{
	/* RFC 1071's example bytes: folded sum 0xddf2 in network order. */
	static const uint8_t rfc1071[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	struct udp_tunnel_registry *reg;
	struct rte_pmd_hwcsum_dyn dyn;
	uint16_t port, hwcsum_ports = 0, hwcsum_port = 0;
	uint16_t folded;
	int ret;

	/* lib/csum */
	folded = csum_fold(csum_partial(rfc1071, sizeof(rfc1071), 0));
	if (rte_be_to_cpu_16(folded) != 0xddf2)
		return fail("csum_partial: wrong sum of RFC 1071's example");
	print_lib("csum", (void *)csum_partial);

	/* lib/udp_tunnel */
	reg = udp_tunnel_registry_create();
	if (reg == NULL)
		return fail("udp_tunnel_registry_create failed");
	if (udp_tunnel_type_by_name(reg, "geneve") != UDP_TUNNEL_TYPE_GENEVE)
		return fail("udp_tunnel_type_by_name(geneve) is not UDP_TUNNEL_TYPE_GENEVE");
	if (udp_tunnel_registry_destroy(reg) != 0)
		return fail("udp_tunnel_registry_destroy failed");
	print_lib("udp_tunnel", (void *)udp_tunnel_registry_create);

	/* The PMD, linked: its functions are plain calls. */
	if (rte_pmd_hwcsum_eth_tunnel_type(UDP_TUNNEL_TYPE_GENEVE) != RTE_ETH_TUNNEL_TYPE_GENEVE ||
	    rte_pmd_hwcsum_eth_tunnel_type(UDP_TUNNEL_TYPE_GUE) != RTE_ETH_TUNNEL_TYPE_NONE)
		return fail("rte_pmd_hwcsum_eth_tunnel_type: wrong ethdev type");
	print_lib("pmd", (void *)rte_pmd_hwcsum_registry);
	if (!mapped_once("librte_net_hwcsum.so") || !mapped_once("libhwcsum_udp_tunnel.so"))
		return fail("the PMD or lib/udp_tunnel is not mapped exactly once");

	if (argc < 2 || strcmp(argv[1], "--eal") != 0) {
		printf("OK\n");
		return 0;
	}

	/* The PMD, through EAL: -d names its directory, not the .so. */
	argv[1] = argv[0];
	if (rte_eal_init(argc - 1, argv + 1) < 0)
		return fail("rte_eal_init failed");
	/* -d named the installed plugin: the same file as the one linked. */
	if (!mapped_once("librte_net_hwcsum.so") || !mapped_once("libhwcsum_udp_tunnel.so")) {
		rte_eal_cleanup();
		return fail("with -d, the PMD or lib/udp_tunnel is not mapped exactly once");
	}
	RTE_ETH_FOREACH_DEV(port) {
		struct rte_eth_dev_info info;

		if (rte_eth_dev_info_get(port, &info) == 0 &&
		    strcmp(info.driver_name, "net_hwcsum") == 0) {
			char name[RTE_ETH_NAME_MAX_LEN];

			rte_eth_dev_get_name_by_port(port, name);
			printf("port %u %s driver %s\n", port, name, info.driver_name);
			hwcsum_port = port;
			hwcsum_ports++;
		}
	}
	if (hwcsum_ports == 0) {
		rte_eal_cleanup();
		return fail("no net_hwcsum port was probed");
	}
	/* rte_pmd_hwcsum.h: the dynamic field and flags the probed port registered. */
	if (rte_pmd_hwcsum_dyn_lookup(&dyn) != 0) {
		rte_eal_cleanup();
		return fail("rte_pmd_hwcsum_dyn_lookup failed with a net_hwcsum port probed");
	}
	printf("dynfield offset %d\n", dyn.field_offset);
	/*
	 * GUE (no ethdev type) through the port's registry with our
	 * udp_tunnel_port_add(); the PMD's own lookup classifies with it. The
	 * registry is the PMD's, the code acting on it the one library.
	 */
	reg = rte_pmd_hwcsum_registry(hwcsum_port);
	if (reg == NULL) {
		rte_eal_cleanup();
		return fail("rte_pmd_hwcsum_registry: NULL for a net_hwcsum port");
	}
	ret = udp_tunnel_port_add(reg, AF_INET, 6080, UDP_TUNNEL_TYPE_GUE);
	if (ret < 0 || udp_tunnel_lookup(reg, 6080) != UDP_TUNNEL_TYPE_GUE ||
	    udp_tunnel_port_del(reg, AF_INET, 6080, UDP_TUNNEL_TYPE_GUE) < 0) {
		rte_eal_cleanup();
		return fail("GUE port 6080 through rte_pmd_hwcsum_registry() failed");
	}
	printf("registry of port %u: GUE 6080 added, looked up, deleted\n", hwcsum_port);
	RTE_ETH_FOREACH_DEV(port)
		rte_eth_dev_close(port);
	rte_eal_cleanup();
	printf("OK\n");
	return 0;
}
