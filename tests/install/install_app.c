/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An out-of-tree application, built by install.sh against the installed
 * pkg-config files only (nothing from the source or build tree), linked
 * with the installed libhwcsum_csum and libhwcsum_udp_tunnel.
 *
 *   install_app                 call lib/csum and lib/udp_tunnel, say which
 *                               files the calls ran in
 *   install_app --eal <EAL args>  also start EAL (the PMD comes from -d),
 *                               check a net_hwcsum port was probed, use
 *                               rte_pmd_hwcsum.h on it, say which file the
 *                               PMD was loaded from
 *
 * Prints "lib <name> <path>" lines for install.sh to check, and "OK" last.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int
find_pmd(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char *base = strrchr(info->dlpi_name, '/');

	(void)size;
	if (base != NULL && strcmp(base + 1, "librte_net_hwcsum.so") == 0) {
		printf("lib pmd %s\n", info->dlpi_name);
		++*(int *)arg;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	/* RFC 1071's example bytes: folded sum 0xddf2 in network order. */
	static const uint8_t rfc1071[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	struct udp_tunnel_registry *reg;
	struct rte_pmd_hwcsum_dyn dyn;
	uint16_t port, hwcsum_ports = 0;
	uint16_t folded;
	int pmds = 0;

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

	if (argc < 2 || strcmp(argv[1], "--eal") != 0) {
		printf("OK\n");
		return 0;
	}

	/* The PMD, through EAL: -d names its directory, not the .so. */
	argv[1] = argv[0];
	if (rte_eal_init(argc - 1, argv + 1) < 0)
		return fail("rte_eal_init failed");
	dl_iterate_phdr(find_pmd, &pmds);
	if (pmds != 1) {
		rte_eal_cleanup();
		return fail("librte_net_hwcsum.so is not loaded exactly once");
	}
	RTE_ETH_FOREACH_DEV(port) {
		struct rte_eth_dev_info info;

		if (rte_eth_dev_info_get(port, &info) == 0 &&
		    strcmp(info.driver_name, "net_hwcsum") == 0) {
			char name[RTE_ETH_NAME_MAX_LEN];

			rte_eth_dev_get_name_by_port(port, name);
			printf("port %u %s driver %s\n", port, name, info.driver_name);
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
	RTE_ETH_FOREACH_DEV(port)
		rte_eth_dev_close(port);
	rte_eal_cleanup();
	printf("OK\n");
	return 0;
}
