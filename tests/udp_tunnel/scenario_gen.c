/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scenario_gen: write a random scenario file (format: tests/scenarios/
 * udp_tunnel/README.md) whose expectations are what lib/udp_tunnel with the
 * netdevsim-shaped mock produced. Replaying the file against Linux
 * (replay-netdevsim.sh) then compares the library with the kernel slot by
 * slot on sequences nobody picked by hand.
 *
 * Only sequences Linux can run are generated: one tunnel type per (family,
 * port) at a time (sockets of different tunnel drivers cannot share a
 * port), vxlan-gpe only as a dual-stack ("external") device and at most two
 * of those per port, no gue (no kernel netdev).
 *
 * usage: scenario_gen FLAVOUR STEPS SEED > file.scn
 *   FLAVOUR: plain sync_all open_only ipv4_only static_iana_vxlan shared sleep
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mock_nic.h"

#define N_NICS		2
#define N_POOL		6
#define MAX_TUN		64

static const uint16_t pool[N_POOL] = { 4789, 4790, 6081, 10000, 10001, 10002 };
static const char *const type_names[3] = { "vxlan", "geneve", "vxlan-gpe" };
static const unsigned int type_bits[3] = {
	UDP_TUNNEL_TYPE_VXLAN, UDP_TUNNEL_TYPE_GENEVE, UDP_TUNNEL_TYPE_VXLAN_GPE,
};

struct tun {
	bool exists, up;
	int fam;	/* 0 v4, 1 v6 */
	unsigned int p, t;
};

static struct mock_bus bus;
static struct tun tuns[MAX_TUN];
static unsigned int next_name;
static bool running[N_NICS];
static bool offload[N_NICS] = { true, true };
static uint64_t rng_state;

static uint32_t
rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

#define FAM_DUAL	2	/* Linux external device: a v6 and a v4 socket */
static const char *const fam_names[3] = { "v4", "v6", "dual" };

/* Could tunnel i come up next to the tunnels that are up? */
static bool
can_be_up(unsigned int i)
{
	unsigned int j, same = 0;
	bool overlap;

	for (j = 0; j < MAX_TUN; j++) {
		if (j == i || !tuns[j].exists || !tuns[j].up || tuns[j].p != tuns[i].p)
			continue;
		overlap = tuns[j].fam == tuns[i].fam || tuns[j].fam == FAM_DUAL ||
			tuns[i].fam == FAM_DUAL;
		if (!overlap)
			continue;
		if (tuns[j].t != tuns[i].t)
			return false;	/* one driver per (family, port) */
		if (tuns[j].fam == tuns[i].fam)
			same++;
	}
	/* two external devices per port at most (one v4-, one v6-configured) */
	return same < 2;
}

/*
 * Linux keeps one external device per (port, configured family) whether it
 * is up or not: at most two dual tunnels of a type may exist on a port.
 */
static bool
dual_room(unsigned int i)
{
	unsigned int j, n = 0;

	if (tuns[i].fam != FAM_DUAL)
		return true;
	for (j = 0; j < MAX_TUN; j++)
		if (j != i && tuns[j].exists && tuns[j].fam == FAM_DUAL &&
				tuns[j].p == tuns[i].p && tuns[j].t == tuns[i].t)
			n++;
	return n < 2;
}

static void
user_one(int family, unsigned int i, bool up)
{
	if (up)
		udp_tunnel_port_add(bus.reg, family, pool[tuns[i].p], type_bits[tuns[i].t]);
	else
		udp_tunnel_port_del(bus.reg, family, pool[tuns[i].p], type_bits[tuns[i].t]);
}

static void
user(unsigned int i, bool up)
{
	if (tuns[i].fam == FAM_DUAL) {
		/* Linux opens v6 then v4 and releases v4 first */
		user_one(up ? AF_INET6 : AF_INET, i, up);
		user_one(up ? AF_INET : AF_INET6, i, up);
	} else {
		user_one(tuns[i].fam ? AF_INET6 : AF_INET, i, up);
	}
	tuns[i].up = up;
}

static void
emit_slot(uint32_t v)
{
	unsigned int k;

	if (v == 0) {
		printf(" 0");
		return;
	}
	for (k = 0; k < 3; k++)
		if ((v & 0xffff) == type_bits[k])
			printf(" %u/%s", v >> 16, type_names[k]);
}

static void
emit_checks(void)
{
	unsigned int n, t, i;

	udp_tunnel_registry_drain(bus.reg);
	for (n = 0; n < N_NICS; n++) {
		if (bus.nics[n] == NULL)
			continue;
		for (t = 0; t < MOCK_N_TABLES; t++) {
			printf("expect table %u", t);
			for (i = 0; i < MOCK_N_PORTS; i++)
				emit_slot(bus.nics[n]->ports[t][i]);
			printf("\n");
		}
		printf("check %u\n", n);
	}
}

static void
step(unsigned long s, bool shared)
{
	unsigned int i, n = rnd(N_NICS), r = rnd(20);

	printf("\nmsg step %lu\n", s);
	if (r < 8) {		/* new tunnel */
		for (i = 0; i < MAX_TUN && tuns[i].exists; i++)
			;
		if (i == MAX_TUN)
			return;
		tuns[i].fam = (int)rnd(2);
		tuns[i].p = rnd(N_POOL);
		tuns[i].t = rnd(3);
		if (tuns[i].t == 2)
			tuns[i].fam = FAM_DUAL;	/* Linux has GPE external only */
		tuns[i].up = false;
		tuns[i].exists = true;
		if (!can_be_up(i) || !dual_room(i)) {
			tuns[i].exists = false;
			return;
		}
		printf("tunnel add t%u %s %u %s\n", i, fam_names[tuns[i].fam],
			pool[tuns[i].p], type_names[tuns[i].t]);
		user(i, true);
		next_name++;
	} else if (r < 13) {	/* delete, down or up a tunnel */
		i = rnd(MAX_TUN);
		if (!tuns[i].exists)
			return;
		switch (rnd(3)) {
		case 0:
			printf("tunnel del t%u\n", i);
			if (tuns[i].up)
				user(i, false);
			tuns[i].exists = false;
			break;
		case 1:
			if (!tuns[i].up)
				return;
			printf("tunnel down t%u\n", i);
			user(i, false);
			break;
		default:
			if (tuns[i].up || !can_be_up(i))
				return;
			printf("tunnel up t%u\n", i);
			user(i, true);
			break;
		}
	} else if (r == 13) {
		printf("nic %s %u\n", running[n] ? "down" : "up", n);
		if (running[n])
			udp_tunnel_dev_down(bus.nics[n]->dev);
		else
			udp_tunnel_dev_up(bus.nics[n]->dev);
		running[n] = !running[n];
	} else if (r == 14) {
		offload[n] = !offload[n];
		printf("nic offload %u %s\n", n, offload[n] ? "on" : "off");
		udp_tunnel_dev_set_offload(bus.nics[n]->dev, offload[n]);
	} else if (r == 15) {
		printf("nic reset %u\n", n);
		mock_nic_reset(&bus, (int)n);
	} else if (r == 16 && !shared) {
		bus.nics[n]->inject_error = rnd(2) ? ETIMEDOUT : ENOENT;
		printf("nic inject_error %u %d\n", n, bus.nics[n]->inject_error);
	} else if (r == 17) {
		printf("nic del %u\nnic new %u\n", n, n);
		mock_nic_del(&bus, (int)n);
		mock_nic_new(&bus, (int)n);
		running[n] = false;
		offload[n] = true;
	} else {
		return;
	}
	emit_checks();
}

static void
quiet(int level, const char *msg, void *arg)
{
	(void)level;
	(void)msg;
	(void)arg;
}

int
main(int argc, char **argv)
{
	unsigned long steps, s;
	const char *flavour;
	unsigned int n;

	if (argc != 4) {
		fprintf(stderr, "usage: scenario_gen FLAVOUR STEPS SEED\n");
		return 2;
	}
	flavour = argv[1];
	steps = strtoul(argv[2], NULL, 0);
	rng_state = strtoull(argv[3], NULL, 0) | 1;
	udp_tunnel_set_log(quiet, NULL);
	bus.reg = udp_tunnel_registry_create();
	bus.quiet_warnings = true;
	if (bus.reg == NULL)
		return 1;

	printf("# Generated by tests/udp_tunnel/scenario_gen %s %lu %s: random\n"
		"# events; expectations are lib/udp_tunnel's tables, to be replayed\n"
		"# against Linux (replay-netdevsim.sh) as a differential test.\n\n",
		flavour, steps, argv[3]);
	if (strcmp(flavour, "plain") == 0) {
		/* no knob */
	} else if (strcmp(flavour, "sleep") == 0) {
		bus.knobs.sleep_ms = 1;
		printf("set sleep 1\n");
	} else if (strcmp(flavour, "sync_all") == 0) {
		bus.knobs.sync_all = true;
	} else if (strcmp(flavour, "open_only") == 0) {
		bus.knobs.open_only = true;
	} else if (strcmp(flavour, "ipv4_only") == 0) {
		bus.knobs.ipv4_only = true;
	} else if (strcmp(flavour, "static_iana_vxlan") == 0) {
		bus.knobs.static_iana_vxlan = true;
	} else if (strcmp(flavour, "shared") == 0) {
		bus.knobs.shared = true;
		bus.knobs.sleep_ms = 1;	/* as the selftest's sharing section */
		printf("set sleep 1\n");
	} else {
		fprintf(stderr, "unknown flavour %s\n", flavour);
		return 2;
	}
	if (strcmp(flavour, "plain") != 0 && strcmp(flavour, "sleep") != 0)
		printf("set %s 1\n", flavour);
	for (n = 0; n < N_NICS; n++) {
		printf("nic new %u\n", n);
		if (mock_nic_new(&bus, (int)n) != 0)
			return 1;
	}
	emit_checks();
	for (s = 0; s < steps; s++)
		step(s, bus.knobs.shared);
	/* One command per check: deferred work makes batches timing-dependent. */
	printf("\nmsg remove every tunnel\n");
	for (n = 0; n < MAX_TUN; n++) {
		if (!tuns[n].exists)
			continue;
		printf("tunnel del t%u\n", n);
		if (tuns[n].up)
			user(n, false);
		tuns[n].exists = false;
		emit_checks();
	}
	fflush(stdout);
	mock_bus_cleanup(&bus);
	udp_tunnel_registry_destroy(bus.reg);
	return 0;
}
