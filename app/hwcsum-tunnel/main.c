/* SPDX-License-Identifier: BSD-3-Clause */
/* hwcsum-tunnel: EAL, lcores, signals and an orderly shutdown. */

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "tunnel.h"

struct gw_config gw_cfg;
struct rte_pmd_hwcsum_dyn gw_dyn;
volatile bool gw_quit;
struct gw_worker gw_workers[GW_MAX_QUEUES];

static void
on_signal(int sig __rte_unused)
{
	gw_quit = true;
}

/* One queue of every port per lcore: nothing on the data path is shared.
 * Returns how many packets it took in.
 */
static unsigned int
poll_once(struct gw_worker *w)
{
	struct rte_mbuf *pkts[GW_BURST];
	unsigned int i, total;
	uint16_t n;

	n = rte_eth_rx_burst(gw_cfg.underlay_port, w->queue, pkts, GW_BURST);
	if (n > 0)
		gw_decap_burst(w, pkts, n);
	total = n;
	for (i = 0; i < gw_cfg.nb_tunnels; i++) {
		const struct gw_tunnel *t = &gw_cfg.tunnels[i];

		n = rte_eth_rx_burst(t->inner_port, w->queue, pkts, GW_BURST);
		if (n > 0)
			gw_encap_burst(w, t, pkts, n);
		total += n;
	}
	return total;
}

/* --idle-sleep: after this many empty rounds in a row the lcore sleeps
 * between rounds, until a round brings a packet. Under load it never
 * sleeps; idle, it gives the CPU back (a shared core, a TCG guest).
 */
#define GW_IDLE_ROUNDS 1024

static void
poll_or_sleep(struct gw_worker *w, unsigned int *empty_rounds)
{
	if (poll_once(w) > 0) {
		*empty_rounds = 0;
		return;
	}
	if (gw_cfg.idle_sleep_us == 0)
		return;
	if (*empty_rounds < GW_IDLE_ROUNDS)
		(*empty_rounds)++;
	else
		rte_delay_us_sleep(gw_cfg.idle_sleep_us);
}

static int
worker_main(void *arg)
{
	struct gw_worker *w = arg;
	unsigned int empty_rounds = 0;

	while (!gw_quit)
		poll_or_sleep(w, &empty_rounds);
	return 0;
}

/* The main lcore: statistics, the duration, and forwarding if alone. */
static void
main_loop(struct gw_worker *self)
{
	uint64_t hz = rte_get_timer_hz(), start = rte_get_timer_cycles();
	uint64_t last = start, mtu_read = start, now;
	unsigned int empty_rounds = 0;

	while (!gw_quit) {
		if (self != NULL)
			poll_or_sleep(self, &empty_rounds);
		else
			rte_delay_us_sleep(10000);
		now = rte_get_timer_cycles();
		/* ethdev tells no one of an MTU change: look every 100 ms. */
		if (now - mtu_read >= hz / 10) {
			gw_pmtu_refresh(&gw_cfg);
			mtu_read = now;
		}
		if (gw_cfg.stats_interval != 0 &&
		    now - last >= gw_cfg.stats_interval * hz) {
			gw_stats_tick((double)(now - last) / hz);
			last = now;
		}
		if (gw_cfg.duration != 0 && now - start >= gw_cfg.duration * hz)
			gw_quit = true;
	}
}

/* What the workers read, once the ports are up: each tunnel's outer
 * headers, what fits the underlay MTU, the decapsulation keys. */
static void
datapath_prepare(struct gw_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_tunnels; i++)
		gw_encap_prepare(&cfg->tunnels[i]);
	gw_pmtu_refresh(cfg);	/* the headers' lengths are known now */
	gw_decap_prepare(cfg);
}

/* Index of the "--" ending the EAL options, or 0. */
static int
app_args_start(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return i;
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned int lcore, i;
	int k, ret, in_use, status = EXIT_SUCCESS;

	/* The configuration first: a mistake in it needs no EAL to be told. */
	k = app_args_start(argc, argv);
	if (k == 0 && argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		gw_usage(argv[0]);
		return EXIT_SUCCESS;
	}
	gw_config_defaults(&gw_cfg);
	if (k > 0) {
		char *saved = argv[k];

		argv[k] = argv[0];
		ret = gw_parse_args(&gw_cfg, argc - k, argv + k);
		argv[k] = saved;
		optind = 1;	/* EAL's getopt starts afresh */
	} else {
		ret = gw_parse_args(&gw_cfg, 1, argv);
	}
	if (ret < 0)
		return EXIT_FAILURE;
	ret = rte_eal_init(k > 0 ? k + 1 : argc, argv);
	if (ret < 0) {
		fprintf(stderr, "hwcsum-tunnel: EAL init failed: %s\n",
			rte_strerror(rte_errno));
		return EXIT_FAILURE;
	}
	if (rte_pmd_hwcsum_dyn_lookup(&gw_dyn) < 0) {
		fprintf(stderr, "hwcsum-tunnel: no net_hwcsum port probed (give one: "
			"--vdev net_hwcsumN,sub=...)\n");
		goto fail;
	}
	gw_cfg.nb_queues = RTE_MAX(rte_lcore_count() - 1, 1u);
	if (gw_cfg.nb_queues > GW_MAX_QUEUES) {
		fprintf(stderr, "hwcsum-tunnel: at most %u worker lcores\n", GW_MAX_QUEUES);
		goto fail;
	}
	if (gw_ports_init(&gw_cfg) < 0)
		goto fail_ports;
	datapath_prepare(&gw_cfg);
	if (gw_tunnel_ports_add(&gw_cfg) < 0)
		goto fail_ports;
	ret = gw_telemetry_init();
	if (ret < 0)
		fprintf(stderr, "hwcsum-tunnel: telemetry command not registered: %s\n",
			rte_strerror(-ret));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("hwcsum-tunnel: %u tunnel(s), underlay %s, %u queue(s)\n",
	       gw_cfg.nb_tunnels, gw_cfg.underlay_name, gw_cfg.nb_queues);
	for (i = 0; i < gw_cfg.nb_tunnels; i++) {
		const struct gw_tunnel *t = &gw_cfg.tunnels[i];

		printf("  tunnel %s: %s vni %u udp %u %s, inner %s, outer udp csum %s, "
		       "at most %u bytes of %s\n", t->name, gw_type_name(t->type),
		       t->vni, t->dst_port, t->family == AF_INET ? "ipv4" : "ipv6",
		       t->inner_name, t->udp_csum ? "on" : "off", t->max_payload,
		       gw_tunnel_carries_ip(t) ? "IP packet" : "frame");
	}
	fflush(stdout);
	i = 0;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		gw_workers[i].lcore_id = lcore;
		gw_workers[i].queue = i;
		rte_eal_remote_launch(worker_main, &gw_workers[i], lcore);
		i++;
	}
	main_loop(i == 0 ? &gw_workers[0] : NULL);
	rte_eal_mp_wait_lcore();
	gw_tunnel_ports_del(&gw_cfg);
	gw_stats_summary();
	gw_ports_close();
	in_use = gw_pool_in_use();
	printf("mempool: %d mbuf(s) in use at exit%s\n", in_use,
	       in_use == 0 ? ", none leaked" : ": LEAKED");
	if (in_use != 0)
		status = 2;
	gw_pool_free();
	rte_eal_cleanup();
	return status;

fail_ports:
	gw_tunnel_ports_del(&gw_cfg);
	gw_ports_close();
	gw_pool_free();
fail:
	rte_eal_cleanup();
	return EXIT_FAILURE;
}
