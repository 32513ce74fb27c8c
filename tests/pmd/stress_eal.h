/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL for the stress tests (test_tunnel_stress, test_flow_stress): no
 * hugepages, main + two workers on whatever two CPUs there are, a runtime
 * directory of their own (meson runs tests in parallel), and the PMD by -d
 * unless it is compiled in ("builtin", the ThreadSanitizer variants).
 */
#ifndef HWCSUM_STRESS_EAL_H
#define HWCSUM_STRESS_EAL_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

static inline int
stress_eal_init(char *argv0, char *pmd, const char *name)
{
	char prefix[64];
	char *eal_args[16];
	int n = 0;

	snprintf(prefix, sizeof(prefix), "--file-prefix=hwcsum-%s-%d", name, getpid());
	eal_args[n++] = argv0;
	eal_args[n++] = "--no-huge";
	eal_args[n++] = "-m";
	eal_args[n++] = "256";
	eal_args[n++] = "--no-pci";
	eal_args[n++] = "--no-telemetry";
	eal_args[n++] = "--lcores=0@(0-1),1@(0-1),2@(0-1)";
	eal_args[n++] = prefix;
	if (strcmp(pmd, "builtin") != 0) {
		eal_args[n++] = "-d";
		eal_args[n++] = pmd;
	}
	eal_args[n] = NULL;
	if (rte_eal_init(n, eal_args) < 0) {
		fprintf(stderr, "FAIL: rte_eal_init: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

#endif /* HWCSUM_STRESS_EAL_H */
