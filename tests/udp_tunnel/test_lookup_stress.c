/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Concurrent stress of the lock-free lookup: reader threads look ports up
 * without any lock while writer threads add and delete users, register new
 * tunnel types, flap devices (up/down, offload, reset, dump) with both
 * immediate and deferred (MAY_SLEEP) callbacks. Readers check invariants
 * on every lookup; at the end every port must match the writers' model.
 * Meant to run under ThreadSanitizer as well (see docs/udp_tunnel.md).
 *
 * usage: test_lookup_stress [writer-ops] [seed]
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "udp_tunnel.h"

#define N_READERS	2
#define N_WRITERS	2
#define STABLE_BASE	1000	/* 64 ports, always present */
#define FLAP_BASE	20000	/* per writer 256 ports, added and deleted */
#define N_STABLE	64
#define N_FLAP		256
#define NEVER_BASE	40000	/* never used */

static struct udp_tunnel_registry *reg;
static atomic_bool writers_done;
static atomic_uint failures;
static atomic_ulong total_lookups;
static unsigned long writer_ops = 200000;
static unsigned long seed = 1;

static unsigned int
stable_type(unsigned int i)
{
	return 1u << (i % 4);
}

/* Each flapping port has one designated type. */
static unsigned int
flap_type(unsigned int port)
{
	return port % 2 ? UDP_TUNNEL_TYPE_GENEVE : UDP_TUNNEL_TYPE_VXLAN;
}

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
violation(const char *what, unsigned int port, unsigned int got)
{
	if (atomic_fetch_add(&failures, 1) < 10)
		fprintf(stderr, "FAIL: %s: port %u -> type 0x%x\n", what, port, got);
}

static void *
reader_main(void *arg)
{
	uint64_t s = seed * 7919 + (uintptr_t)arg;
	unsigned long n = 0;
	unsigned int port, type, i;

	while (!atomic_load_explicit(&writers_done, memory_order_acquire)) {
		for (i = 0; i < 1024; i++, n++) {
			port = (unsigned int)(xorshift(&s) % 3);
			if (port == 0) {
				unsigned int k = (unsigned int)(xorshift(&s) % N_STABLE);

				port = STABLE_BASE + k;
				type = udp_tunnel_lookup(reg, (uint16_t)port);
				if (type != stable_type(k))
					violation("stable port lost", port, type);
			} else if (port == 1) {
				port = FLAP_BASE + (unsigned int)(xorshift(&s) %
					(N_WRITERS * N_FLAP));
				/* Every other look through the inline reader. */
				type = (i & 1) ? udp_tunnel_lookup_inline(reg, (uint16_t)port) :
					udp_tunnel_lookup(reg, (uint16_t)port);
				if (type != 0 && type != flap_type(port))
					violation("flapping port has a foreign type",
						port, type);
				/* whatever a reader finds must be a complete type */
				if (type != 0 && udp_tunnel_type_name(reg, type) == NULL)
					violation("type without a name", port, type);
			} else {
				port = NEVER_BASE + (unsigned int)(xorshift(&s) % 1000);
				type = udp_tunnel_lookup(reg, (uint16_t)port);
				if (type != 0)
					violation("unused port found", port, type);
			}
		}
	}
	atomic_fetch_add(&total_lookups, n);
	return NULL;
}

struct writer {
	int id;
	unsigned int refs[N_FLAP][2];	/* model: users per port and family */
	struct udp_tunnel_dev *dev;
};

static int
nop_set(struct udp_tunnel_dev *dev, unsigned int t, unsigned int i,
		const struct udp_tunnel_port_info *ti)
{
	(void)dev; (void)t; (void)i; (void)ti;
	return 0;
}

static int
nop_sync(struct udp_tunnel_dev *dev, unsigned int t)
{
	struct udp_tunnel_port_info ti;

	udp_tunnel_dev_get_port(dev, t, 0, &ti);
	return 0;
}

static int
parse_any(const uint8_t *hdr, size_t len, struct udp_tunnel_parse_result *r)
{
	(void)hdr;
	memset(r, 0, sizeof(*r));
	return len >= 4 ? 0 : -EBADMSG;
}

static void *
writer_main(void *arg)
{
	struct writer *w = arg;
	struct udp_tunnel_dev_info info;
	struct udp_tunnel_dump dump;
	uint64_t s = seed * 104729 + (uint64_t)w->id;
	unsigned long op;
	unsigned int k, port, fam, type_bit;
	char name[32];
	int rc;

	memset(&info, 0, sizeof(info));
	if (w->id == 0) {
		info.set_port = nop_set;
		info.unset_port = nop_set;
	} else {
		info.sync_table = nop_sync;
		info.flags = UDP_TUNNEL_DEV_MAY_SLEEP;
	}
	info.tables[0].n_entries = 4;
	info.tables[0].tunnel_types = UDP_TUNNEL_TYPE_VXLAN;
	info.tables[1].n_entries = 4;
	info.tables[1].tunnel_types = UDP_TUNNEL_TYPE_GENEVE;
	snprintf(name, sizeof(name), "stress%d", w->id);
	if (udp_tunnel_dev_register(reg, name, &info, NULL, &w->dev) != 0) {
		violation("register", 0, 0);
		return NULL;
	}

	for (op = 0; op < writer_ops; op++) {
		k = (unsigned int)(xorshift(&s) % N_FLAP);
		port = FLAP_BASE + (unsigned int)w->id * N_FLAP + k;
		fam = (unsigned int)(xorshift(&s) % 2);
		if (w->refs[k][fam] == 0 || xorshift(&s) % 2) {
			rc = udp_tunnel_port_add(reg, fam ? AF_INET6 : AF_INET,
				(uint16_t)port, flap_type(port));
			if (rc == 0)
				w->refs[k][fam]++;
		} else {
			rc = udp_tunnel_port_del(reg, fam ? AF_INET6 : AF_INET,
				(uint16_t)port, flap_type(port));
			if (rc == 0)
				w->refs[k][fam]--;
		}
		if (rc != 0)
			violation("control path error", port, (unsigned int)-rc);

		switch (op % 997) {
		case 0:
			udp_tunnel_dev_set_offload(w->dev, false);
			break;
		case 100:
			udp_tunnel_dev_set_offload(w->dev, true);
			break;
		case 200:
			udp_tunnel_dev_reset_ntf(w->dev);
			break;
		case 300:
			udp_tunnel_dev_dump(w->dev, &dump);
			break;
		case 400:
			udp_tunnel_dev_up(w->dev);
			break;
		case 500:
			udp_tunnel_dev_down(w->dev);
			break;
		}
		/* new types appear while readers run */
		if (op % (writer_ops / 8 + 1) == 0 && w->id == 0) {
			snprintf(name, sizeof(name), "stress-t%lu", op);
			udp_tunnel_type_register(reg, name, parse_any, &type_bit);
		}
	}
	udp_tunnel_registry_drain(reg);
	return NULL;
}

static void
quiet(int level, const char *msg, void *arg)
{
	(void)arg;
	if (level <= UDP_TUNNEL_LOG_ERR)
		fprintf(stderr, "log: %s\n", msg);
}

int
main(int argc, char **argv)
{
	pthread_t readers[N_READERS], writers[N_WRITERS];
	static struct writer w[N_WRITERS];
	unsigned int i, k, fam, port, type, want;
	unsigned long checked = 0;

	if (argc > 1)
		writer_ops = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		seed = strtoul(argv[2], NULL, 0);
	udp_tunnel_set_log(quiet, NULL);
	reg = udp_tunnel_registry_create();
	if (reg == NULL)
		return 1;
	for (i = 0; i < N_STABLE; i++)
		if (udp_tunnel_port_add(reg, AF_INET, (uint16_t)(STABLE_BASE + i),
				stable_type(i)) != 0)
			return 1;

	for (i = 0; i < N_READERS; i++)
		pthread_create(&readers[i], NULL, reader_main, (void *)(uintptr_t)i);
	for (i = 0; i < N_WRITERS; i++) {
		w[i].id = (int)i;
		pthread_create(&writers[i], NULL, writer_main, &w[i]);
	}
	for (i = 0; i < N_WRITERS; i++)
		pthread_join(writers[i], NULL);
	atomic_store_explicit(&writers_done, true, memory_order_release);
	for (i = 0; i < N_READERS; i++)
		pthread_join(readers[i], NULL);

	/* Quiescent now: the map must equal the model exactly. */
	/* The inline reader sees the same map as udp_tunnel_lookup(). */
	for (i = 0; i < 65536; i++)
		if (udp_tunnel_lookup_inline(reg, (uint16_t)i) !=
		    udp_tunnel_lookup(reg, (uint16_t)i))
			violation("inline lookup differs", i,
				  udp_tunnel_lookup_inline(reg, (uint16_t)i));
	for (i = 0; i < N_WRITERS; i++)
		for (k = 0; k < N_FLAP; k++) {
			port = FLAP_BASE + i * N_FLAP + k;
			want = 0;
			for (fam = 0; fam < 2; fam++)
				if (w[i].refs[k][fam] != 0)
					want = flap_type(port);
			type = udp_tunnel_lookup(reg, (uint16_t)port);
			if (type != want)
				violation("final state differs from the model", port, type);
			checked++;
			for (fam = 0; fam < 2; fam++)
				while (w[i].refs[k][fam]-- > 0)
					udp_tunnel_port_del(reg, fam ? AF_INET6 : AF_INET,
						(uint16_t)port, flap_type(port));
		}
	for (i = 0; i < N_WRITERS; i++)
		udp_tunnel_dev_unregister(w[i].dev);
	for (i = 0; i < N_STABLE; i++)
		udp_tunnel_port_del(reg, AF_INET, (uint16_t)(STABLE_BASE + i),
			stable_type(i));
	for (i = 0; i < 65536; i++)
		if (udp_tunnel_lookup(reg, (uint16_t)i) != 0)
			violation("port left after every user left", i, 0);
	if (udp_tunnel_registry_destroy(reg) != 0)
		violation("destroy", 0, 0);

	printf("writers %d x %lu ops, readers %d: %lu lookups, %lu ports checked at the end, %u violations\n",
		N_WRITERS, writer_ops, N_READERS,
		(unsigned long)atomic_load(&total_lookups), checked,
		atomic_load(&failures));
	return atomic_load(&failures) != 0;
}
