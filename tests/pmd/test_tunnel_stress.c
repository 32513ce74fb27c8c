/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tunnel ports under traffic, through the ethdev API only.
 *
 * stress-port | stress-shared: a net_ring sub-port made with
 * rte_eth_from_rings() (so the test feeds its RX rings), a hwcsum port
 * with rx=on and NQ queues, worker lcores that feed, receive, check and
 * forward on every queue while the main lcore adds and removes tunnel
 * ports thousands of times. Every received packet's tunnel ptype must be
 * one its UDP port held at some point during the run (a set the main
 * lcore grows before each add), stable ports must always classify, unused
 * ports never; the per-type RX xstats must equal what the workers saw; the
 * mempools must be full again at the end.
 *
 * push: a sub-port given udp_tunnel_port_add/del and dev_reset (net_ring
 * ops copied and extended) shows what reaches the hardware: pushes and
 * their counters, a refused push retried, replay at start and after a
 * reset, and DPDK's error codes.
 *
 * usage: test_tunnel_stress <librte_net_hwcsum.so | builtin> MODE [ops] [seed]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ethdev_driver.h>
#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "../lib/test_eal.h"
#include "../lib/test_harness.h"

#define NQ 4			/* queues of the hwcsum port */
#define BURST 32
#define POOL_SIZE 1023
#define RING_SIZE 256

/* ------------------------------------------------------------ the ports */

enum ttype { T_NONE = 0, T_VXLAN, T_GENEVE, T_GPE, T__COUNT };

static const uint8_t dpdk_type[T__COUNT] = {
	[T_VXLAN] = RTE_ETH_TUNNEL_TYPE_VXLAN,
	[T_GENEVE] = RTE_ETH_TUNNEL_TYPE_GENEVE,
	[T_GPE] = RTE_ETH_TUNNEL_TYPE_VXLAN_GPE,
};
static const uint32_t type_ptype[T__COUNT] = {
	[T_VXLAN] = RTE_PTYPE_TUNNEL_VXLAN,
	[T_GENEVE] = RTE_PTYPE_TUNNEL_GENEVE,
	[T_GPE] = RTE_PTYPE_TUNNEL_VXLAN_GPE,
};
static const char *const type_xstat[T__COUNT] = {
	[T_VXLAN] = "rx_tunnel_vxlan",
	[T_GENEVE] = "rx_tunnel_geneve",
	[T_GPE] = "rx_tunnel_vxlan-gpe",
};

enum pclass { P_STABLE, P_FLAP, P_ALTERNATE, P_NEVER };

struct tport {
	uint16_t port;
	enum ttype type;	/* the header sent; the type first added */
	enum pclass cls;
	enum ttype held;	/* main lcore only: what is added now */
	/* Types the port had at some point: set before each add. */
	atomic_uint ever;
};

#define N_FLAP 16
static struct tport ports[3 + N_FLAP + 1 + 2];
static unsigned int n_ports;

static void
port_def(uint16_t port, enum ttype type, enum pclass cls)
{
	struct tport *tp = &ports[n_ports++];

	memset(tp, 0, sizeof(*tp));
	tp->port = port;
	tp->type = type;
	tp->cls = cls;
}

static void
ports_init(void)
{
	static const enum ttype cycle[] = { T_VXLAN, T_GENEVE, T_GPE };
	unsigned int i;

	n_ports = 0;
	port_def(4789, T_VXLAN, P_STABLE);
	port_def(6081, T_GENEVE, P_STABLE);
	port_def(4790, T_GPE, P_STABLE);
	for (i = 0; i < N_FLAP; i++)
		port_def(10000 + i, cycle[i % 3], P_FLAP);
	port_def(20000, T_VXLAN, P_ALTERNATE);
	port_def(30000, T_VXLAN, P_NEVER);
	port_def(30001, T_GENEVE, P_NEVER);
}

static int
tunnel_op(uint16_t port_id, uint16_t udp_port, enum ttype type, bool add)
{
	struct rte_eth_udp_tunnel t = {
		.udp_port = udp_port,
		.prot_type = dpdk_type[type],
	};

	return add ? rte_eth_dev_udp_tunnel_port_add(port_id, &t) :
		rte_eth_dev_udp_tunnel_port_delete(port_id, &t);
}

static uint64_t
xstat(uint16_t port_id, const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(port_id, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port_id, &id, &v, 1) != 1)
		CHECK(0, "port %u: no xstat %s", port_id, name);
	return v;
}

/* ------------------------------------------------------------ packets */

/* Ether / IPv4 / UDP(dst) / tunnel header / Ether / IPv4 / UDP / 16 bytes. */
static int
packet_build(struct rte_mbuf *m, const struct tport *tp, uint16_t seq)
{
	static const uint8_t vxlan[8] = { 0x08, 0, 0, 0, 0, 0, 42, 0 };
	static const uint8_t geneve[8] = { 0, 0, 0x65, 0x58, 0, 0, 42, 0 };
	static const uint8_t gpe[8] = { 0x0c, 0, 0, 0x03, 0, 0, 42, 0 };
	const uint16_t inner_len = 14 + 20 + 8 + 16;
	const uint16_t len = 14 + 20 + 8 + 8 + inner_len;
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, len);
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	unsigned int depth;
	uint8_t *l3 = NULL;

	if (p == NULL)
		return -ENOSPC;
	memset(p, 0, len);
	m->packet_type = 0;
	m->ol_flags = 0;
	for (depth = 0; depth < 2; depth++) {
		uint16_t ip_len = depth == 0 ? len - 14 : inner_len - 14;

		p[12] = 0x08;	/* IPv4 */
		ip = (struct rte_ipv4_hdr *)(p + 14);
		ip->version_ihl = 0x45;
		ip->total_length = rte_cpu_to_be_16(ip_len);
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_UDP;
		ip->src_addr = rte_cpu_to_be_32(0x0a000001);
		ip->dst_addr = rte_cpu_to_be_32(0x0a000002 + depth);
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		udp = (struct rte_udp_hdr *)(ip + 1);
		udp->src_port = rte_cpu_to_be_16(1024 + seq % 512);
		udp->dst_port = rte_cpu_to_be_16(depth == 0 ? tp->port : 9);
		udp->dgram_len = rte_cpu_to_be_16(ip_len - 20);
		if (depth == 0) {
			l3 = (uint8_t *)(udp + 1);
			memcpy(l3, tp->type == T_GENEVE ? geneve :
			       tp->type == T_GPE ? gpe : vxlan, 8);
			p = l3 + 8;
		}
	}
	return 0;
}

/* --------------------------------------------------------- the workers */

struct queue {
	uint16_t id;
	struct rte_ring *rx, *tx;	/* the sub-port's rings */
	struct rte_mempool *mp;
};

struct worker {
	struct queue *q[NQ];
	unsigned int nq;
	atomic_ulong bursts;
	atomic_int done;	/* release: its counters are final */
	uint64_t seen[T__COUNT];	/* received, by classification */
	uint64_t bad;
	uint64_t rx, tx_sent;
	uint16_t seq;
};

static uint16_t hw_port;
static atomic_int stop_workers;
static struct worker workers[RTE_MAX_LCORE];

static enum ttype
ptype_type(uint32_t ptype)
{
	unsigned int t;

	for (t = T_VXLAN; t < T__COUNT; t++)
		if ((ptype & RTE_PTYPE_TUNNEL_MASK) == type_ptype[t])
			return t;
	return T_NONE;
}

static const struct tport *
tport_of(const struct rte_mbuf *m)
{
	const struct rte_udp_hdr *udp = rte_pktmbuf_mtod_offset(m,
		const struct rte_udp_hdr *, 14 + 20);
	uint16_t dst = rte_be_to_cpu_16(udp->dst_port);
	unsigned int i;

	for (i = 0; i < n_ports; i++)
		if (ports[i].port == dst)
			return &ports[i];
	return NULL;
}

/* Is this classification one the port's registry entry ever had? */
static void
packet_check(struct worker *w, const struct rte_mbuf *m)
{
	const struct tport *tp = tport_of(m);
	enum ttype got = ptype_type(m->packet_type);
	unsigned int ever;

	w->seen[got]++;
	if (tp == NULL) {
		w->bad++;
		return;
	}
	ever = atomic_load_explicit(&((struct tport *)tp)->ever,
				    memory_order_acquire);
	switch (tp->cls) {
	case P_STABLE:
		if (got != tp->type)
			w->bad++;
		break;
	case P_NEVER:
		if (got != T_NONE)
			w->bad++;
		break;
	default:
		if (got != T_NONE && !(ever & (1u << got)))
			w->bad++;
		break;
	}
}

/* One burst on one queue: feed the sub-port's RX ring, receive, forward. */
static void
queue_burst(struct worker *w, struct queue *q)
{
	struct rte_mbuf *pkts[BURST];
	unsigned int n, i, sent;

	if (rte_pktmbuf_alloc_bulk(q->mp, pkts, BURST) == 0) {
		for (i = 0; i < BURST; i++, w->seq++)
			packet_build(pkts[i], &ports[w->seq % n_ports], w->seq);
		n = rte_ring_enqueue_burst(q->rx, (void **)pkts, BURST, NULL);
		rte_pktmbuf_free_bulk(pkts + n, BURST - n);
	}
	n = rte_eth_rx_burst(hw_port, q->id, pkts, BURST);
	w->rx += n;
	for (i = 0; i < n; i++)
		packet_check(w, pkts[i]);
	sent = rte_eth_tx_burst(hw_port, q->id, pkts, n);
	w->tx_sent += sent;
	rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	/* The sub-port's TX ring is the wire: drain it. */
	n = rte_ring_dequeue_burst(q->tx, (void **)pkts, BURST, NULL);
	rte_pktmbuf_free_bulk(pkts, n);
}

static int
worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	while (!atomic_load_explicit(&stop_workers, memory_order_acquire)) {
		for (i = 0; i < w->nq; i++)
			queue_burst(w, w->q[i]);
		atomic_fetch_add_explicit(&w->bursts, 1, memory_order_release);
	}
	atomic_store_explicit(&w->done, 1, memory_order_release);
	return 0;
}

/*
 * Join the workers with an edge ThreadSanitizer sees (EAL's wait is in
 * uninstrumented code), so their counters can be read.
 */
static void
workers_join(void)
{
	unsigned int lc;

	atomic_store_explicit(&stop_workers, 1, memory_order_release);
	RTE_LCORE_FOREACH_WORKER(lc)
		while (!atomic_load_explicit(&workers[lc].done,
					     memory_order_acquire))
			rte_pause();
	rte_eal_mp_wait_lcore();
}

/* Every worker did at least n more rounds over its queues. */
static void
workers_wait(unsigned int n)
{
	unsigned long start[RTE_MAX_LCORE];
	unsigned int lc;

	RTE_LCORE_FOREACH_WORKER(lc)
		start[lc] = atomic_load(&workers[lc].bursts);
	RTE_LCORE_FOREACH_WORKER(lc)
		while (atomic_load_explicit(&workers[lc].bursts,
					    memory_order_acquire) < start[lc] + n)
			rte_pause();
}

/* ------------------------------------------------------------ set-up */

static struct queue queues[NQ];

static int
sub_create(const char *name, unsigned int nq)
{
	struct rte_ring *rx[NQ], *tx[NQ];
	char rname[RTE_RING_NAMESIZE];
	unsigned int i;

	for (i = 0; i < nq; i++) {
		snprintf(rname, sizeof(rname), "%s_rx%u", name, i);
		rx[i] = rte_ring_create(rname, RING_SIZE, 0,
					RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(rname, sizeof(rname), "%s_tx%u", name, i);
		tx[i] = rte_ring_create(rname, RING_SIZE, 0,
					RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (rx[i] == NULL || tx[i] == NULL)
			return -ENOMEM;
		queues[i].id = i;
		queues[i].rx = rx[i];
		queues[i].tx = tx[i];
		snprintf(rname, sizeof(rname), "%s_mp%u", name, i);
		/* One pool per queue: mbufs never cross lcores (TSan). */
		queues[i].mp = rte_pktmbuf_pool_create(rname, POOL_SIZE, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, 0);
		if (queues[i].mp == NULL)
			return -ENOMEM;
	}
	/* The ethdev is named "net_ring_<name>". */
	return rte_eth_from_rings(name, rx, nq, tx, nq, 0);
}

static int
hw_setup(uint16_t port, unsigned int nq)
{
	struct rte_eth_conf conf;
	unsigned int i;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, nq, nq, &conf);
	for (i = 0; ret == 0 && i < nq; i++) {
		ret = rte_eth_rx_queue_setup(port, i, RING_SIZE, 0, NULL,
					     queues[i].mp);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(port, i, RING_SIZE, 0, NULL);
	}
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	CHECK(ret == 0, "port %u: set-up with %u queues: %s", port, nq,
	      rte_strerror(-ret));
	return ret;
}

static int
hw_create(const char *devargs)
{
	uint16_t port;
	int ret;

	ret = rte_vdev_init("net_hwcsum0", devargs);
	if (ret == 0)
		ret = rte_eth_dev_get_port_by_name("net_hwcsum0", &port);
	CHECK(ret == 0, "net_hwcsum0,%s: %s", devargs, rte_strerror(-ret));
	return ret == 0 ? port : ret;
}

static void
pools_check(unsigned int nq)
{
	unsigned int i;

	for (i = 0; i < nq; i++)
		CHECK(rte_mempool_in_use_count(queues[i].mp) == 0,
		      "queue %u: %u mbufs still in use", i,
		      rte_mempool_in_use_count(queues[i].mp));
}

static void
teardown(uint16_t port, unsigned int nq)
{
	unsigned int i;

	CHECK(rte_eth_dev_stop(port) == 0, "stop port %u", port);
	CHECK(rte_eth_dev_close(port) == 0, "close port %u", port);
	rte_vdev_uninit("net_hwcsum0");
	for (i = 0; i < nq; i++) {
		struct rte_mbuf *m = NULL;

		while (rte_ring_dequeue(queues[i].rx, (void **)&m) == 0)
			rte_pktmbuf_free(m);
		while (rte_ring_dequeue(queues[i].tx, (void **)&m) == 0)
			rte_pktmbuf_free(m);
	}
	pools_check(nq);
	for (i = 0; i < nq; i++) {
		rte_ring_free(queues[i].rx);
		rte_ring_free(queues[i].tx);
		rte_mempool_free(queues[i].mp);
	}
}

/* ------------------------------------------------------------ stress */

static void
mark_and_add(struct tport *tp, enum ttype type)
{
	int ret;

	/* The set grows before the add: a reader never sees a type outside. */
	atomic_fetch_or_explicit(&tp->ever, 1u << type, memory_order_release);
	ret = tunnel_op(hw_port, tp->port, type, true);
	CHECK(ret == 0, "add %u type %d: %s", tp->port, type, rte_strerror(-ret));
	tp->held = type;
}

static void
del(struct tport *tp)
{
	int ret = tunnel_op(hw_port, tp->port, tp->held, false);

	CHECK(ret == 0, "del %u type %d: %s", tp->port, tp->held,
	      rte_strerror(-ret));
	tp->held = T_NONE;
}

/* One random change, with DPDK's error codes checked now and then. */
static void
stress_op(unsigned int i)
{
	struct tport *tp = &ports[3 + rand() % (N_FLAP + 1)];
	int ret;

	if (i % 97 == 0 && tp->held != T_NONE) {
		ret = tunnel_op(hw_port, tp->port, tp->held, true);
		CHECK(ret == -EEXIST, "duplicate add %u: %d", tp->port, ret);
		return;
	}
	if (i % 89 == 0 && tp->held == T_NONE) {
		ret = tunnel_op(hw_port, tp->port, tp->type, false);
		CHECK(ret == -ENOENT, "del of %u not added: %d", tp->port, ret);
		return;
	}
	if (tp->held != T_NONE) {
		del(tp);
		return;
	}
	if (tp->cls == P_ALTERNATE)
		mark_and_add(tp, i & 1 ? T_GENEVE : T_VXLAN);
	else
		mark_and_add(tp, tp->type);
}

static void
counters_check(void)
{
	uint64_t seen[T__COUNT] = { 0 }, bad = 0, rx = 0;
	unsigned int lc, t;

	RTE_LCORE_FOREACH_WORKER(lc) {
		for (t = 0; t < T__COUNT; t++)
			seen[t] += workers[lc].seen[t];
		bad += workers[lc].bad;
		rx += workers[lc].rx;
		CHECK(workers[lc].rx > 0, "lcore %u received nothing", lc);
	}
	printf("received %" PRIu64 ": none %" PRIu64 " vxlan %" PRIu64
	       " geneve %" PRIu64 " vxlan-gpe %" PRIu64 "; %" PRIu64 " misclassified\n",
	       rx, seen[T_NONE], seen[T_VXLAN], seen[T_GENEVE], seen[T_GPE], bad);
	CHECK(bad == 0, "%" PRIu64 " packets classified as a type their port never had",
	      bad);
	for (t = T_VXLAN; t < T__COUNT; t++) {
		CHECK(seen[t] > 0, "no packet classified %s", type_xstat[t]);
		CHECK(xstat(hw_port, type_xstat[t]) == seen[t],
		      "xstat %s %" PRIu64 ", workers saw %" PRIu64, type_xstat[t],
		      xstat(hw_port, type_xstat[t]), seen[t]);
	}
}

static int
run_stress(bool shared, unsigned int n_ops)
{
	char devargs[128];
	unsigned int lc, i, nw = 0;
	int sub;

	ports_init();
	sub = sub_create("tst", NQ);
	CHECK(sub >= 0, "sub-port: %d", sub);
	if (sub < 0)
		return 1;
	snprintf(devargs, sizeof(devargs), "sub=net_ring_tst,rx=on%s",
		 shared ? ",registry=shared" : "");
	if (hw_create(devargs) < 0)
		return 1;
	rte_eth_dev_get_port_by_name("net_hwcsum0", &hw_port);
	if (hw_setup(hw_port, NQ) != 0)
		return 1;
	for (i = 0; i < 3; i++)
		mark_and_add(&ports[i], ports[i].type);
	RTE_LCORE_FOREACH_WORKER(lc)
		nw++;
	CHECK(nw >= 2, "need two worker lcores, have %u", nw);
	i = 0;
	RTE_LCORE_FOREACH_WORKER(lc) {
		unsigned int q;

		for (q = i; q < NQ; q += nw)
			workers[lc].q[workers[lc].nq++] = &queues[q];
		i++;
	}
	RTE_LCORE_FOREACH_WORKER(lc)
		rte_eal_remote_launch(worker_main, &workers[lc], lc);
	workers_wait(8);
	for (i = 0; i < n_ops; i++) {
		stress_op(i);
		/* Let traffic run between changes now and then. */
		if (i % 1024 == 0)
			workers_wait(1);
	}
	workers_wait(8);
	workers_join();
	counters_check();
	for (i = 0; i < n_ports; i++)
		if (ports[i].held != T_NONE)
			del(&ports[i]);
	teardown(hw_port, NQ);
	return 0;
}

/* -------------------------------------------------------------- push */

/* A sub-port with a tunnel port table: net_ring's ops plus three. */
static struct eth_dev_ops fake_ops;
static struct {
	unsigned int n;
	struct { uint16_t port; uint8_t type; } e[64];
	int fail_next;		/* errno for the next add */
	unsigned int adds, dels, resets;
} hw;

static int
fake_find(uint16_t port, uint8_t type)
{
	unsigned int i;

	for (i = 0; i < hw.n; i++)
		if (hw.e[i].port == port && hw.e[i].type == type)
			return i;
	return -1;
}

static int
fake_add(struct rte_eth_dev *dev __rte_unused, struct rte_eth_udp_tunnel *t)
{
	if (hw.fail_next != 0) {
		int ret = -hw.fail_next;

		hw.fail_next = 0;
		return ret;
	}
	if (fake_find(t->udp_port, t->prot_type) >= 0)
		return -EEXIST;
	hw.e[hw.n].port = t->udp_port;
	hw.e[hw.n].type = t->prot_type;
	hw.n++;
	hw.adds++;
	return 0;
}

static int
fake_del(struct rte_eth_dev *dev __rte_unused, struct rte_eth_udp_tunnel *t)
{
	int i = fake_find(t->udp_port, t->prot_type);

	if (i < 0)
		return -ENOENT;
	hw.e[i] = hw.e[--hw.n];
	hw.dels++;
	return 0;
}

static int
fake_reset(struct rte_eth_dev *dev __rte_unused)
{
	hw.n = 0;	/* the hardware forgets its table */
	hw.resets++;
	return 0;
}

static bool
hw_has(uint16_t port, enum ttype type)
{
	return fake_find(port, dpdk_type[type]) >= 0;
}

static void
push_errors(void)
{
	struct rte_eth_udp_tunnel ecpri = {
		.udp_port = 5000, .prot_type = RTE_ETH_TUNNEL_TYPE_ECPRI,
	};

	CHECK(tunnel_op(hw_port, 4789, T_VXLAN, true) == -EEXIST, "duplicate");
	CHECK(tunnel_op(hw_port, 4788, T_VXLAN, false) == -ENOENT, "unknown del");
	CHECK(tunnel_op(hw_port, 4790, T_GPE, true) == -ENOTSUP,
	      "vxlan-gpe on a vxlan+geneve table");
	CHECK(rte_eth_dev_udp_tunnel_port_add(hw_port, &ecpri) == -ENOTSUP,
	      "ecpri");
	CHECK(tunnel_op(hw_port, 4789, T_GENEVE, true) == -EEXIST,
	      "4789 is vxlan already");
}

static int
run_push(void)
{
	uint64_t ok0;
	int sub, ret;

	sub = sub_create("psh", 1);
	CHECK(sub >= 0, "sub-port: %d", sub);
	if (sub < 0)
		return 1;
	fake_ops = *rte_eth_devices[sub].dev_ops;
	fake_ops.udp_tunnel_port_add = fake_add;
	fake_ops.udp_tunnel_port_del = fake_del;
	fake_ops.dev_reset = fake_reset;
	rte_eth_devices[sub].dev_ops = &fake_ops;
	if (hw_create("sub=net_ring_psh,tables=3:vxlan+geneve") < 0)
		return 1;
	rte_eth_dev_get_port_by_name("net_hwcsum0", &hw_port);
	if (hw_setup(hw_port, 1) != 0)
		return 1;
	CHECK(xstat(hw_port, "tunnel_replays") == 1, "one replay at start");

	CHECK(tunnel_op(hw_port, 4789, T_VXLAN, true) == 0, "add vxlan");
	CHECK(tunnel_op(hw_port, 6081, T_GENEVE, true) == 0, "add geneve");
	CHECK(hw_has(4789, T_VXLAN) && hw_has(6081, T_GENEVE) && hw.n == 2,
	      "pushed: %u entries", hw.n);
	CHECK(xstat(hw_port, "tunnel_push_ok") == 2, "push_ok");
	push_errors();
	CHECK(hw.n == 2, "refused adds reach no hardware: %u", hw.n);

	/* A refused push is counted and retried at the next change. */
	hw.fail_next = EIO;
	CHECK(tunnel_op(hw_port, 8472, T_VXLAN, true) == 0, "add, push fails");
	CHECK(!hw_has(8472, T_VXLAN), "not in hardware yet");
	CHECK(xstat(hw_port, "tunnel_push_failed") == 1, "push_failed");
	CHECK(tunnel_op(hw_port, 6081, T_GENEVE, false) == 0, "del geneve");
	CHECK(hw_has(8472, T_VXLAN) && !hw_has(6081, T_GENEVE) && hw.n == 2,
	      "retried: %u entries", hw.n);
	CHECK(tunnel_op(hw_port, 6082, T_GENEVE, true) == 0, "third entry");
	CHECK(tunnel_op(hw_port, 6083, T_GENEVE, true) == -ENOSPC, "full");
	CHECK(!hw_has(6083, T_GENEVE) && hw.n == 3, "full: nothing pushed");
	CHECK(xstat(hw_port, "tunnel_entries_not_fitted") == 0,
	      "the full add was rolled back");

	/* Replay at start: what the sub-port kept is not an error. */
	ok0 = xstat(hw_port, "tunnel_push_ok");
	CHECK(rte_eth_dev_stop(hw_port) == 0, "stop");
	CHECK(rte_eth_dev_start(hw_port) == 0, "start");
	CHECK(xstat(hw_port, "tunnel_replays") == 2, "replay at start");
	CHECK(xstat(hw_port, "tunnel_push_ok") == ok0 + 3, "three re-pushed");
	CHECK(xstat(hw_port, "tunnel_push_failed") == 1, "re-push is no failure");

	/* A reset loses the hardware table; the next start replays it. */
	CHECK(rte_eth_dev_stop(hw_port) == 0, "stop");
	ret = rte_eth_dev_reset(hw_port);
	CHECK(ret == 0, "reset: %s", rte_strerror(-ret));
	CHECK(hw.resets == 1 && hw.n == 0, "sub-port reset, table lost");
	hw_setup(hw_port, 1);
	CHECK(xstat(hw_port, "tunnel_replays") == 3, "replay after reset");
	CHECK(hw_has(4789, T_VXLAN) && hw_has(8472, T_VXLAN) &&
	      hw_has(6082, T_GENEVE) && hw.n == 3, "table back: %u", hw.n);

	CHECK(tunnel_op(hw_port, 4789, T_VXLAN, false) == 0, "del");
	CHECK(!hw_has(4789, T_VXLAN) && hw.n == 2, "deleted from hardware");
	/* Close drops the rest from the hardware too. */
	teardown(hw_port, 1);
	CHECK(hw.n == 0, "%u entries left in the sub-port at close", hw.n);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned int n_ops;
	const char *mode;

	if (argc < 3) {
		fprintf(stderr, "usage: %s <librte_net_hwcsum.so | builtin> stress-port|stress-shared|push [ops] [seed]\n",
			argv[0]);
		return 2;
	}
	mode = argv[2];
	n_ops = argc > 3 ? strtoul(argv[3], NULL, 0) : 20000;
	srand(argc > 4 ? strtoul(argv[4], NULL, 0) : 1);
	/* Main and two workers on whatever two CPUs there are. */
	if (harness_eal_init(argv[0], &(struct harness_eal){ .name = "tstress",
			.pmd = argv[1], .lcores = "0@(0-1),1@(0-1),2@(0-1)",
			.no_telemetry = true }) != 0)
		return 1;
	if (strcmp(mode, "push") == 0)
		run_push();
	else if (strcmp(mode, "stress-port") == 0)
		run_stress(false, n_ops);
	else if (strcmp(mode, "stress-shared") == 0)
		run_stress(true, n_ops);
	else
		CHECK(0, "unknown mode %s", mode);
	rte_eal_cleanup();
	return harness_summary(mode);
}
