/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hwcsum-bench lookup: ns per packet of the data-path UDP port -> tunnel
 * type lookup (udp_tunnel_lookup, lock-free) beside the same one-byte-per-
 * port map read under a pthread mutex and under a pthread rwlock, first
 * with no writer, then with a writer thread changing ports about every
 * 10 us (each contender's writer uses that contender's own update path).
 *
 * The machine is shared: every case runs several rounds interleaving the
 * contenders and keeps each one's best round. Only the ratios mean
 * anything; nothing here is pass/fail.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "udp_tunnel.h"

#define N_PKTS		4096	/* destination ports replayed in a loop */
#define N_TUNNEL_PORTS	16
#define WRITER_PAUSE_NS	10000

enum contender_id { C_LOCKFREE, C_MUTEX, C_RWLOCK, N_CONTENDERS };

static const char *const contender_names[N_CONTENDERS] = {
	"lock-free", "mutex", "rwlock",
};

static struct udp_tunnel_registry *reg;
static uint8_t locked_map[65536];
static pthread_mutex_t map_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t map_rwlock = PTHREAD_RWLOCK_INITIALIZER;
static uint16_t pkts[N_PKTS];
static volatile unsigned int sink;

static uint16_t tunnel_ports[N_TUNNEL_PORTS] = {
	4789, 6081, 4790, 6080, 8472, 10000, 10001, 10002,
	20000, 20001, 20002, 30001, 30002, 5555, 7777, 9999,
};

static unsigned int
tunnel_type_of(unsigned int i)
{
	return 1u << (i % 4);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static unsigned int
run_lockfree(unsigned long n)
{
	unsigned int acc = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		acc += udp_tunnel_lookup(reg, pkts[i % N_PKTS]);
	return acc;
}

static unsigned int
run_mutex(unsigned long n)
{
	unsigned int acc = 0;
	unsigned long i;
	uint8_t v;

	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&map_mutex);
		v = locked_map[pkts[i % N_PKTS]];
		pthread_mutex_unlock(&map_mutex);
		acc += v != 0 ? 1u << (v - 1) : 0;
	}
	return acc;
}

static unsigned int
run_rwlock(unsigned long n)
{
	unsigned int acc = 0;
	unsigned long i;
	uint8_t v;

	for (i = 0; i < n; i++) {
		pthread_rwlock_rdlock(&map_rwlock);
		v = locked_map[pkts[i % N_PKTS]];
		pthread_rwlock_unlock(&map_rwlock);
		acc += v != 0 ? 1u << (v - 1) : 0;
	}
	return acc;
}

static unsigned int (*const runners[N_CONTENDERS])(unsigned long) = {
	run_lockfree, run_mutex, run_rwlock,
};

/* Writer: flap one extra port through the contender's own update path. */
static atomic_int writer_target = -1;	/* contender being written, -1 none */
static atomic_bool writer_stop;
static atomic_ulong writer_updates;

static void *
writer_main(void *arg)
{
	struct timespec pause = { 0, WRITER_PAUSE_NS };
	bool present[N_CONTENDERS] = { false };
	bool on = false;
	int target;

	(void)arg;
	while (!atomic_load(&writer_stop)) {
		target = atomic_load(&writer_target);
		if (target >= 0) {
			present[target] = !present[target];
			on = present[target];
		}
		switch (target) {
		case C_LOCKFREE:
			if (on)
				udp_tunnel_port_add(reg, AF_INET, 12345,
					UDP_TUNNEL_TYPE_GENEVE);
			else
				udp_tunnel_port_del(reg, AF_INET, 12345,
					UDP_TUNNEL_TYPE_GENEVE);
			break;
		case C_MUTEX:
			pthread_mutex_lock(&map_mutex);
			locked_map[12345] = on ? 2 : 0;
			pthread_mutex_unlock(&map_mutex);
			break;
		case C_RWLOCK:
			pthread_rwlock_wrlock(&map_rwlock);
			locked_map[12345] = on ? 2 : 0;
			pthread_rwlock_unlock(&map_rwlock);
			break;
		default:
			break;
		}
		if (target >= 0)
			atomic_fetch_add(&writer_updates, 1);
		nanosleep(&pause, NULL);
	}
	if (present[C_LOCKFREE])
		udp_tunnel_port_del(reg, AF_INET, 12345, UDP_TUNNEL_TYPE_GENEVE);
	return NULL;
}

static void
setup_data(void)
{
	uint64_t s = 88172645463325252ull;
	unsigned int i;

	for (i = 0; i < N_TUNNEL_PORTS; i++) {
		udp_tunnel_port_add(reg, AF_INET, tunnel_ports[i], tunnel_type_of(i));
		locked_map[tunnel_ports[i]] = (uint8_t)(i % 4 + 1);
	}
	/* half tunnel traffic, half other UDP ports */
	for (i = 0; i < N_PKTS; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		pkts[i] = i % 2 ? tunnel_ports[s % N_TUNNEL_PORTS] :
			(uint16_t)(1024 + s % 60000);
	}
}

static void
usage(void)
{
	printf("usage: hwcsum-bench lookup [--json PATH] [--rounds N] [--packets N]\n"
	       "  --json PATH    write results there (default build/bench/lookup.json)\n"
	       "  --rounds N     rounds per case, best kept (default 7)\n"
	       "  --packets N    lookups per round and contender (default 4000000)\n");
}

int bench_lookup_main(int argc, char **argv);

int
bench_lookup_main(int argc, char **argv)
{
	struct bench_opts bo = { "build/bench/lookup.json", 7, 4000000 };
	const char *json_path;
	double best[2][N_CONTENDERS];
	unsigned long packets, updates[2] = { 0, 0 };
	unsigned int rounds, r, c, w;
	pthread_t writer;
	uint64_t t0, t1;
	double ns;
	FILE *out;
	int ret;

	ret = bench_parse_opts(argc, argv, &bo, UINT_MAX, usage);
	if (ret >= 0)
		return ret;
	json_path = bo.json;
	rounds = bo.rounds;
	packets = bo.packets;
	reg = udp_tunnel_registry_create();
	if (reg == NULL)
		return 1;
	setup_data();
	if (pthread_create(&writer, NULL, writer_main, NULL) != 0) {
		fprintf(stderr, "bench lookup: cannot start the writer thread\n");
		udp_tunnel_registry_destroy(reg);
		return 1;
	}

	for (w = 0; w < 2; w++) {
		for (c = 0; c < N_CONTENDERS; c++)
			best[w][c] = 1e30;
		atomic_store(&writer_updates, 0);
		for (r = 0; r < rounds; r++)
			for (c = 0; c < N_CONTENDERS; c++) {
				atomic_store(&writer_target, w ? (int)c : -1);
				t0 = now_ns();
				sink += runners[c](packets);
				t1 = now_ns();
				ns = (double)(t1 - t0) / (double)packets;
				if (ns < best[w][c])
					best[w][c] = ns;
			}
		atomic_store(&writer_target, -1);
		updates[w] = atomic_load(&writer_updates);
	}
	atomic_store(&writer_stop, true);
	pthread_join(writer, NULL);

	printf("UDP port -> tunnel type lookup, %lu lookups per round, best of %u rounds\n",
		packets, rounds);
	printf("%-26s %12s %12s %12s %10s %10s\n", "case", "lock-free ns",
		"mutex ns", "rwlock ns", "mutex/lf", "rwlock/lf");
	for (w = 0; w < 2; w++)
		printf("%-26s %12.2f %12.2f %12.2f %9.1fx %9.1fx\n",
			w ? "writer every ~10us" : "no writer",
			best[w][C_LOCKFREE], best[w][C_MUTEX], best[w][C_RWLOCK],
			best[w][C_MUTEX] / best[w][C_LOCKFREE],
			best[w][C_RWLOCK] / best[w][C_LOCKFREE]);
	printf("(writer made %lu updates during the writer case)\n", updates[1]);

	out = bench_json_open("lookup", json_path);
	if (out == NULL) {
		udp_tunnel_registry_destroy(reg);
		return 1;
	}
	fprintf(out, "{\n  \"bench\": \"lookup\",\n  \"unit\": \"ns/packet\",\n"
		"  \"packets_per_round\": %lu,\n  \"rounds\": %u,\n  \"cases\": [\n",
		packets, rounds);
	for (w = 0; w < 2; w++) {
		fprintf(out, "    {\"case\": \"%s\"", w ? "writer" : "no-writer");
		for (c = 0; c < N_CONTENDERS; c++)
			fprintf(out, ", \"%s\": %.3f", contender_names[c], best[w][c]);
		fprintf(out, ", \"mutex_over_lockfree\": %.2f, \"rwlock_over_lockfree\": %.2f}%s\n",
			best[w][C_MUTEX] / best[w][C_LOCKFREE],
			best[w][C_RWLOCK] / best[w][C_LOCKFREE], w ? "" : ",");
	}
	udp_tunnel_registry_destroy(reg);
	return bench_json_close("lookup", out, json_path);
}

BENCH_REGISTER(lookup,
	       "UDP port -> tunnel type: lock-free vs mutex vs rwlock, ns/packet",
	       bench_lookup_main)
