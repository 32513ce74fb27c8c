/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_flow on net_hwcsum through the ethdev API, over a net_ring sub-port
 * (rte_eth_from_rings(), so the test feeds its RX rings).
 *
 * spread: a tunnel type registered at run time ("testenc", 4-byte header,
 *   inner Ethernet) on the port's registry, one outer flow carrying 1024
 *   inner flows: an RSS rule at level 2 on its UDP port spreads them over
 *   4 queues (chi-square stated and bounded), at level 1 keeps them on
 *   one queue. VXLAN and GENEVE the same way.
 * stress: worker lcores feed and receive on every queue while the main
 *   lcore creates, validates, queries and destroys random rules (tunnel
 *   items, RSS inner and outer, QUEUE, DROP, MARK, PASSTHRU, COUNT)
 *   thousands of times. A marked packet must match the rule whose mark it
 *   carries; validate must not change the registry; COUNT never goes
 *   back; at the end every fed packet is received or counted as dropped,
 *   the registry has only the test's own user, the mempools are full and
 *   the C heap is where it was before the first rule.
 *
 * look: the look at the flow state RX queues skip until the first rule
 *   (rounds of: no rule, a rule created, flushed, steered packets left
 *   over a restart), on the checksum burst or (rx=off) the pass-through.
 * A last argument rx=off runs a mode on the pass-through burst.
 *
 * usage: test_flow_stress <librte_net_hwcsum.so | builtin> spread|stress|look [ops] [seed] [workers] [rx=off]
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <ethdev_driver.h>
#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_flow_driver.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "../lib/test_eal.h"
#include "../lib/test_harness.h"
#include "udp_tunnel.h"

#define NQ 4
#define BURST 32
#define POOL_SIZE 2047
#define RING_SIZE 512
#define MAX_RULES 48

#define PORT_VXLAN 4789
#define PORT_GENEVE 6081
#define PORT_TESTENC 7000
#define PORT_PLAIN 1000		/* 1000..1015: plain UDP */
#define TCACHE_OFF "glibc.malloc.tcache_count=0"

static uint64_t rng_state = 1;

static uint32_t
rnd(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ull) >> 33) % n;
}

/* ------------------------------------------------- the run-time type */

/* "testenc": 0xAB, flags, then the inner Ethertype; Ethernet inside. */
static int
parse_testenc(const uint8_t *hdr, size_t len, struct udp_tunnel_parse_result *res)
{
	if (len < 4 || hdr[0] != 0xab)
		return -EBADMSG;
	memset(res, 0, sizeof(*res));
	res->inner_offset = 4;
	res->inner_ethertype = (uint16_t)(hdr[2] << 8 | hdr[3]);
	return 0;
}

#ifdef HWCSUM_BUILTIN
struct udp_tunnel_registry *rte_pmd_hwcsum_registry(uint16_t port_id);
#endif

static struct udp_tunnel_registry *
port_registry(const char *so, uint16_t port)
{
#ifdef HWCSUM_BUILTIN
	(void)so;
	return rte_pmd_hwcsum_registry(port);
#else
	/* EAL loaded the PMD (-d): find its function there. */
	void *h = dlopen(so, RTLD_NOW | RTLD_NOLOAD);
	struct udp_tunnel_registry *(*get)(uint16_t) = h == NULL ? NULL :
		(struct udp_tunnel_registry *(*)(uint16_t))dlsym(h, "rte_pmd_hwcsum_registry");
	struct udp_tunnel_registry *reg = get != NULL ? get(port) : NULL;

	if (h != NULL)
		dlclose(h);
	return reg;
#endif
}

/* ------------------------------------------------------------ packets */

enum kind { K_VXLAN, K_GENEVE, K_TESTENC, K_PLAIN, K__COUNT };

static uint16_t
kind_port(enum kind k, uint32_t seq)
{
	switch (k) {
	case K_VXLAN: return PORT_VXLAN;
	case K_GENEVE: return PORT_GENEVE;
	case K_TESTENC: return PORT_TESTENC;
	default: return PORT_PLAIN + seq % 16;
	}
}

static void
ipv4_udp(uint8_t *p, uint16_t ip_len, uint32_t src, uint32_t dst,
	 uint16_t sport, uint16_t dport)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(ip_len);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(sport);
	udp->dst_port = rte_cpu_to_be_16(dport);
	udp->dgram_len = rte_cpu_to_be_16(ip_len - 20);
}

/*
 * One outer flow (10.0.0.1:40000 -> 10.0.0.2) whatever the kind; the inner
 * flow (192.168/16 source, source port) and the VNI (seq % 8) vary.
 */
static int
packet_build(struct rte_mbuf *m, enum kind k, uint32_t seq)
{
	const uint16_t inner_len = 14 + 20 + 8 + 16;
	uint16_t thlen = k == K_VXLAN || k == K_GENEVE ? 8 : k == K_TESTENC ? 4 : 0;
	uint16_t len = 14 + 20 + 8 + thlen + (k == K_PLAIN ? 16 : inner_len);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, len), *t;
	uint32_t vni = seq % 8;

	if (p == NULL)
		return -ENOSPC;
	memset(p, 0, len);
	p[12] = 0x08;
	ipv4_udp(p + 14, len - 14, 0x0a000001, 0x0a000002, 40000, kind_port(k, seq));
	t = p + 14 + 20 + 8;
	if (k == K_VXLAN) {
		t[0] = 0x08;
	} else if (k == K_GENEVE) {
		t[2] = 0x65;
		t[3] = 0x58;
	} else if (k == K_TESTENC) {
		t[0] = 0xab;
		t[2] = 0x65;
		t[3] = 0x58;
	}
	if (k == K_VXLAN || k == K_GENEVE) {
		t[4] = (uint8_t)(vni >> 16);
		t[5] = (uint8_t)(vni >> 8);
		t[6] = (uint8_t)vni;
	}
	if (k != K_PLAIN) {
		t += thlen;
		t[12] = 0x08;
		ipv4_udp(t + 14, inner_len - 14, 0xc0a80000 | (seq & 0xffff),
			 0xac100001, (uint16_t)(1024 + seq * 7), 5000);
	}
	return 0;
}

static enum kind
packet_kind(const struct rte_mbuf *m, uint32_t *vni)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t dport = (uint16_t)(p[14 + 20 + 2] << 8 | p[14 + 20 + 3]);
	const uint8_t *t = p + 14 + 20 + 8;

	*vni = (uint32_t)t[4] << 16 | t[5] << 8 | t[6];
	return dport == PORT_VXLAN ? K_VXLAN : dport == PORT_GENEVE ? K_GENEVE :
		dport == PORT_TESTENC ? K_TESTENC : K_PLAIN;
}

/* ------------------------------------------------------------ the ports */

struct queue {
	uint16_t id;
	struct rte_ring *rx, *tx;	/* the sub-port's rings */
	struct rte_mempool *mp;
};

static struct queue queues[NQ];
static uint16_t hw_port;
static const char *pmd_so;

static int
sub_create(const char *name)
{
	struct rte_ring *rx[NQ], *tx[NQ];
	char rname[RTE_RING_NAMESIZE];
	unsigned int i;

	for (i = 0; i < NQ; i++) {
		snprintf(rname, sizeof(rname), "%s_rx%u", name, i);
		rx[i] = rte_ring_create(rname, RING_SIZE, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(rname, sizeof(rname), "%s_tx%u", name, i);
		tx[i] = rte_ring_create(rname, RING_SIZE, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(rname, sizeof(rname), "%s_mp%u", name, i);
		queues[i].mp = rte_pktmbuf_pool_create(rname, POOL_SIZE, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, 0);
		if (rx[i] == NULL || tx[i] == NULL || queues[i].mp == NULL)
			return -ENOMEM;
		queues[i].id = i;
		queues[i].rx = rx[i];
		queues[i].tx = tx[i];
	}
	return rte_eth_from_rings(name, rx, NQ, tx, NQ, 0);
}

/* push mode: gives the sub-port an rte_flow before hwcsum takes it. */
static void (*sub_hook)(uint16_t sub_port);
/* rx= of the port: checksum work (on) or the pass-through burst (off). */
static const char *hw_rx = "on";

static int
hw_start(void)
{
	struct rte_eth_conf conf;
	unsigned int i;
	int ret, sub;
	char args[64];

	sub = sub_create("fst");
	if (sub < 0)
		return -ENOMEM;
	if (sub_hook != NULL)
		sub_hook((uint16_t)sub);
	snprintf(args, sizeof(args), "sub=net_ring_fst,rx=%s", hw_rx);
	ret = rte_vdev_init("net_hwcsum0", args);
	if (ret == 0)
		ret = rte_eth_dev_get_port_by_name("net_hwcsum0", &hw_port);
	memset(&conf, 0, sizeof(conf));
	if (ret == 0)
		ret = rte_eth_dev_configure(hw_port, NQ, NQ, &conf);
	for (i = 0; ret == 0 && i < NQ; i++) {
		ret = rte_eth_rx_queue_setup(hw_port, i, RING_SIZE, 0, NULL, queues[i].mp);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(hw_port, i, RING_SIZE, 0, NULL);
	}
	if (ret == 0)
		ret = rte_eth_dev_start(hw_port);
	CHECK(ret == 0, "hwcsum port set-up: %s", rte_strerror(-ret));
	return ret;
}

static void
hw_stop(void)
{
	unsigned int i;

	CHECK(rte_eth_dev_stop(hw_port) == 0, "stop");
	CHECK(rte_eth_dev_close(hw_port) == 0, "close");
	rte_vdev_uninit("net_hwcsum0");
	for (i = 0; i < NQ; i++) {
		struct rte_mbuf *m = NULL;

		while (rte_ring_dequeue(queues[i].rx, (void **)&m) == 0)
			rte_pktmbuf_free(m);
		while (rte_ring_dequeue(queues[i].tx, (void **)&m) == 0)
			rte_pktmbuf_free(m);
		CHECK(rte_mempool_in_use_count(queues[i].mp) == 0,
		      "queue %u: %u mbufs still in use", i,
		      rte_mempool_in_use_count(queues[i].mp));
	}
	for (i = 0; i < NQ; i++) {
		rte_ring_free(queues[i].rx);
		rte_ring_free(queues[i].tx);
		rte_mempool_free(queues[i].mp);
	}
}

static uint64_t
xstat(const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(hw_port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(hw_port, &id, &v, 1) != 1)
		CHECK(0, "no xstat %s", name);
	return v;
}

/* ------------------------------------------------------------- rules */

/* What a rule is built from; the MARK id says which, to check packets. */
enum tmpl { R_VXLAN_QUEUE, R_VXLAN_RSS, R_GENEVE_DROP, R_PLAIN_QUEUE,
	    R_TESTENC_RSS, R_VXLAN_PASSTHRU, R_IPV4_FLAG, R_GENEVE_RSS,
	    R__RANDOM,	/* the stress mode draws from those above */
	    /* bare QUEUE / DROP rules, the kind a sub-port's rte_flow takes */
	    R_PLAIN_QUEUE_ONLY = R__RANDOM, R_TCP_QUEUE_ONLY, R_PLAIN_DROP_ONLY };

struct rule_def {
	enum tmpl t;
	uint32_t param;		/* VNI, or plain port offset */
	uint16_t queue;
	uint32_t level;
	uint32_t priority;
};

static uint32_t
mark_of(const struct rule_def *d)
{
	return (uint32_t)d->t << 16 | d->param;
}

/* Could a packet of this kind and VNI carry the mark of this template? */
static bool
mark_fits(uint32_t mark, enum kind k, uint32_t vni, uint16_t dport)
{
	uint32_t param = mark & 0xffff;

	switch (mark >> 16) {
	case R_VXLAN_QUEUE:
	case R_VXLAN_PASSTHRU:
		return k == K_VXLAN && vni == param;
	case R_VXLAN_RSS:
		return k == K_VXLAN;
	case R_PLAIN_QUEUE:
		return k == K_PLAIN && dport == PORT_PLAIN + param;
	case R_TESTENC_RSS:
		return k == K_TESTENC;
	case R_GENEVE_RSS:
		return k == K_GENEVE;
	default:
		return false;	/* DROP and FLAG rules carry no mark */
	}
}

/* A rule as rte_flow takes it, with the storage its items point into. */
struct rule_spec {
	struct rte_flow_attr attr;
	struct rte_flow_item pat[8];
	struct rte_flow_action act[6];
	struct rte_flow_item_udp udp, udp_m;
	struct rte_flow_item_vxlan vx, vx_m;
	struct rte_flow_item_geneve gn, gn_m;
	uint16_t queues[NQ];
	struct rte_flow_action_rss rss;
	struct rte_flow_action_queue q;
	struct rte_flow_action_mark mark;
};

static void
spec_pattern(const struct rule_def *d, struct rule_spec *s)
{
	unsigned int np = 0;

	s->pat[np++].type = RTE_FLOW_ITEM_TYPE_ETH;
	s->pat[np++].type = RTE_FLOW_ITEM_TYPE_IPV4;
	if (d->t == R_TCP_QUEUE_ONLY) {
		s->pat[np++].type = RTE_FLOW_ITEM_TYPE_TCP;
	} else if (d->t != R_IPV4_FLAG) {
		s->pat[np].type = RTE_FLOW_ITEM_TYPE_UDP;
		if (d->t == R_PLAIN_QUEUE || d->t == R_TESTENC_RSS ||
		    d->t == R_PLAIN_QUEUE_ONLY || d->t == R_PLAIN_DROP_ONLY) {
			s->udp.hdr.dst_port = rte_cpu_to_be_16(d->t == R_TESTENC_RSS ?
				PORT_TESTENC : PORT_PLAIN + d->param);
			s->udp_m.hdr.dst_port = RTE_BE16(0xffff);
			s->pat[np].spec = &s->udp;
			s->pat[np].mask = &s->udp_m;
		}
		np++;
	}
	if (d->t == R_VXLAN_QUEUE || d->t == R_VXLAN_RSS || d->t == R_VXLAN_PASSTHRU) {
		s->pat[np].type = RTE_FLOW_ITEM_TYPE_VXLAN;
		if (d->t != R_VXLAN_RSS) {
			s->vx.vni[2] = (uint8_t)d->param;
			memset(s->vx_m.vni, 0xff, 3);
			s->pat[np].spec = &s->vx;
			s->pat[np].mask = &s->vx_m;
		}
		np++;
	} else if (d->t == R_GENEVE_RSS) {
		s->pat[np++].type = RTE_FLOW_ITEM_TYPE_GENEVE;
	} else if (d->t == R_GENEVE_DROP) {
		s->gn.vni[2] = (uint8_t)d->param;
		memset(s->gn_m.vni, 0xff, 3);
		s->pat[np].type = RTE_FLOW_ITEM_TYPE_GENEVE;
		s->pat[np].spec = &s->gn;
		s->pat[np++].mask = &s->gn_m;
	}
	s->pat[np].type = RTE_FLOW_ITEM_TYPE_END;
}

static void
spec_actions(const struct rule_def *d, struct rule_spec *s)
{
	unsigned int na = 0, i;

	for (i = 0; i < NQ; i++)
		s->queues[i] = (uint16_t)i;
	s->rss = (struct rte_flow_action_rss){
		.level = d->level, .types = RTE_ETH_RSS_NONFRAG_IPV4_UDP,
		.queue_num = NQ, .queue = s->queues,
	};
	s->q.index = d->queue;
	s->mark.id = mark_of(d);
	switch (d->t) {
	case R_VXLAN_QUEUE:
	case R_PLAIN_QUEUE:
	case R_PLAIN_QUEUE_ONLY:
	case R_TCP_QUEUE_ONLY:
		s->act[na].type = RTE_FLOW_ACTION_TYPE_QUEUE;
		s->act[na++].conf = &s->q;
		break;
	case R_VXLAN_RSS:
	case R_TESTENC_RSS:
	case R_GENEVE_RSS:
		s->act[na].type = RTE_FLOW_ACTION_TYPE_RSS;
		s->act[na++].conf = &s->rss;
		break;
	case R_GENEVE_DROP:
	case R_PLAIN_DROP_ONLY:
		s->act[na++].type = RTE_FLOW_ACTION_TYPE_DROP;
		break;
	case R_VXLAN_PASSTHRU:
		s->act[na++].type = RTE_FLOW_ACTION_TYPE_PASSTHRU;
		break;
	default:
		s->act[na++].type = RTE_FLOW_ACTION_TYPE_FLAG;
		break;
	}
	if (d->t >= R__RANDOM) {
		s->act[na].type = RTE_FLOW_ACTION_TYPE_END;
		return;
	}
	if (d->t != R_GENEVE_DROP && d->t != R_IPV4_FLAG) {
		s->act[na].type = RTE_FLOW_ACTION_TYPE_MARK;
		s->act[na++].conf = &s->mark;
	}
	s->act[na++].type = RTE_FLOW_ACTION_TYPE_COUNT;
	s->act[na].type = RTE_FLOW_ACTION_TYPE_END;
}

static void
spec_fill(const struct rule_def *d, struct rule_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->attr.ingress = 1;
	s->attr.priority = d->priority;
	spec_pattern(d, s);
	spec_actions(d, s);
}

static struct rte_flow *
rule_create(const struct rule_def *d, struct rte_flow_error *err)
{
	struct rule_spec s;

	spec_fill(d, &s);
	return rte_flow_create(hw_port, &s.attr, s.pat, s.act, err);
}

static bool
rule_validate(const struct rule_def *d, struct rte_flow_error *err)
{
	struct rule_spec s;

	spec_fill(d, &s);
	return rte_flow_validate(hw_port, &s.attr, s.pat, s.act, err) == 0;
}

static uint64_t
rule_hits(struct rte_flow *f)
{
	struct rte_flow_action act[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_query_count c = { 0 };
	struct rte_flow_error err;

	if (rte_flow_query(hw_port, f, act, &c, &err) != 0) {
		CHECK(0, "query: %s", err.message ? err.message : "?");
		return 0;
	}
	CHECK(c.hits_set, "query: no hits");
	return c.hits;
}

/* ---------------------------------------------------------- spread */

static void
feed(uint16_t q, enum kind k, uint32_t first, uint32_t n)
{
	struct rte_mbuf *m;
	uint32_t i;

	for (i = first; i < first + n; i++) {
		m = rte_pktmbuf_alloc(queues[q].mp);
		if (m == NULL || packet_build(m, k, i) != 0 ||
		    rte_ring_enqueue(queues[q].rx, m) != 0) {
			CHECK(0, "feed queue %u packet %u", q, i);
			rte_pktmbuf_free(m);
			return;
		}
	}
}

/* Receive on every queue until all are empty; count per queue. */
static void
drain(uint64_t per_queue[NQ], uint32_t *marked, uint32_t *hashed)
{
	struct rte_mbuf *pkts[BURST];
	unsigned int q, idle = 0, i, n;

	while (idle < 4) {
		unsigned int got = 0;

		for (q = 0; q < NQ; q++) {
			n = rte_eth_rx_burst(hw_port, q, pkts, BURST);
			got += n;
			per_queue[q] += n;
			for (i = 0; i < n; i++) {
				*marked += !!(pkts[i]->ol_flags & RTE_MBUF_F_RX_FDIR_ID);
				*hashed += !!(pkts[i]->ol_flags & RTE_MBUF_F_RX_RSS_HASH);
			}
			rte_pktmbuf_free_bulk(pkts, n);
		}
		idle = got ? 0 : idle + 1;
	}
}

static void
spread_one(const char *name, enum kind k, struct rule_def d, uint32_t n)
{
	uint64_t per_queue[NQ] = { 0 };
	struct rte_flow_error err;
	struct rte_flow *f;
	uint32_t marked = 0, hashed = 0;
	unsigned int q, used = 0, lo = UINT32_MAX, hi = 0;
	double chi2 = 0, exp = (double)n / NQ;

	f = rule_create(&d, &err);
	CHECK(f != NULL, "%s rule: %s", name, err.message ? err.message : "?");
	if (f == NULL)
		return;
	for (uint32_t done = 0; done < n; done += 256) {
		feed(0, k, done, 256);
		drain(per_queue, &marked, &hashed);
	}
	for (q = 0; q < NQ; q++) {
		chi2 += (per_queue[q] - exp) * (per_queue[q] - exp) / exp;
		used += per_queue[q] > 0;
		lo = RTE_MIN(lo, (unsigned int)per_queue[q]);
		hi = RTE_MAX(hi, (unsigned int)per_queue[q]);
	}
	CHECK(marked == n && hashed == n, "%s: %u marked, %u hashed of %u",
	      name, marked, hashed, n);
	CHECK(rule_hits(f) == n, "%s: rule counted %" PRIu64 " of %u", name,
	      rule_hits(f), n);
	if (d.level >= 2) {
		/* 3 degrees of freedom: 16.27 is the 0.1% point. */
		CHECK(chi2 < 16.27 && lo > 0, "%s: chi-square %.2f", name, chi2);
		printf("%s, inner RSS: %u inner flows over queues [%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "]: max/min %.2f, chi-square %.2f\n",
		       name, n, per_queue[0], per_queue[1], per_queue[2], per_queue[3],
		       lo ? (double)hi / lo : 0.0, chi2);
	} else {
		CHECK(used == 1, "%s: outer RSS used %u queues for one outer flow", name, used);
		printf("%s, outer RSS: one outer flow stays on %u queue\n", name, used);
	}
	CHECK(rte_flow_destroy(hw_port, f, &err) == 0, "destroy %s", name);
}

/*
 * Packets steered to a queue just before the last rule goes must still
 * arrive there, not wait for the next rule.
 */
static void
steered_survive_last_rule(void)
{
	struct rule_def d = { .t = R_VXLAN_QUEUE, .param = 3, .queue = 3 };
	struct rte_mbuf *pkts[BURST];
	struct rte_flow_error err;
	struct rte_flow *f = rule_create(&d, &err);
	unsigned int n0, n3 = 0, i;

	CHECK(f != NULL, "VXLAN VNI 3 to queue 3: %s", f ? "" : err.message);
	if (f == NULL)
		return;
	/* VNI = seq % 8: packets 3, 11, 19, ... carry VNI 3. */
	for (i = 0; i < BURST; i++)
		feed(0, K_VXLAN, 3 + 8 * i, 1);
	n0 = rte_eth_rx_burst(hw_port, 0, pkts, BURST);
	rte_pktmbuf_free_bulk(pkts, n0);
	CHECK(rte_flow_destroy(hw_port, f, &err) == 0, "destroy");
	for (i = 0; i < 4; i++) {
		unsigned int n = rte_eth_rx_burst(hw_port, 3, pkts, BURST);

		n3 += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	CHECK(n0 == 0 && n3 == BURST,
	      "steered before the last rule went: %u on queue 0, %u of %u on queue 3",
	      n0, n3, BURST);
	printf("%u packets steered to queue 3 arrive after the last rule is gone\n", n3);
}

static void
run_spread(void)
{
	struct udp_tunnel_registry *reg;
	unsigned int type = 0;

	if (hw_start() != 0)
		return;
	reg = port_registry(pmd_so, hw_port);
	CHECK(reg != NULL, "no registry behind port %u", hw_port);
	if (reg == NULL)
		return;
	CHECK(udp_tunnel_type_register(reg, "testenc", parse_testenc, &type) == 0,
	      "register testenc");
	CHECK(udp_tunnel_port_add(reg, AF_INET, PORT_TESTENC, type) == 0,
	      "add the testenc port");
	spread_one("testenc (registered at run time)", K_TESTENC,
		   (struct rule_def){ .t = R_TESTENC_RSS, .level = 2 }, 1024);
	spread_one("testenc (registered at run time)", K_TESTENC,
		   (struct rule_def){ .t = R_TESTENC_RSS, .level = 1 }, 256);
	spread_one("vxlan", K_VXLAN, (struct rule_def){ .t = R_VXLAN_RSS, .level = 2 }, 1024);
	spread_one("vxlan", K_VXLAN, (struct rule_def){ .t = R_VXLAN_RSS, .level = 1 }, 256);
	spread_one("geneve", K_GENEVE, (struct rule_def){ .t = R_GENEVE_RSS, .level = 2 }, 1024);
	steered_survive_last_rule();
	udp_tunnel_port_del(reg, AF_INET, PORT_TESTENC, type);
	hw_stop();
}

/* ---------------------------------------------------------- stress */

struct worker {
	struct queue *q[NQ];
	unsigned int nq;
	uint32_t seq;
	uint64_t fed, rx, bad_mark;
	atomic_ulong rounds;
	atomic_int done;
};

static struct worker workers[RTE_MAX_LCORE];
static atomic_int stop_feeding, stop_workers;

static void
worker_round(struct worker *w, struct queue *q)
{
	struct rte_mbuf *pkts[BURST];
	unsigned int i, n;

	if (!atomic_load_explicit(&stop_feeding, memory_order_acquire) &&
	    rte_pktmbuf_alloc_bulk(q->mp, pkts, BURST / 2) == 0) {
		for (i = 0; i < BURST / 2; i++, w->seq++)
			packet_build(pkts[i], (enum kind)(w->seq % K__COUNT), w->seq / K__COUNT);
		n = rte_ring_enqueue_burst(q->rx, (void **)pkts, BURST / 2, NULL);
		w->fed += n;
		rte_pktmbuf_free_bulk(pkts + n, BURST / 2 - n);
	}
	n = rte_eth_rx_burst(hw_port, q->id, pkts, BURST);
	w->rx += n;
	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
		uint16_t dport = (uint16_t)(p[14 + 20 + 2] << 8 | p[14 + 20 + 3]);
		uint32_t vni;
		enum kind k = packet_kind(m, &vni);

		if ((m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) &&
		    !mark_fits(m->hash.fdir.hi, k, vni, dport))
			w->bad_mark++;
	}
	rte_pktmbuf_free_bulk(pkts, n);
}

static int
worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	while (!atomic_load_explicit(&stop_workers, memory_order_acquire)) {
		for (i = 0; i < w->nq; i++)
			worker_round(w, w->q[i]);
		atomic_fetch_add_explicit(&w->rounds, 1, memory_order_release);
	}
	atomic_store_explicit(&w->done, 1, memory_order_release);
	return 0;
}

static void
workers_wait(unsigned int n)
{
	unsigned long start[RTE_MAX_LCORE];
	unsigned int lc;

	RTE_LCORE_FOREACH_WORKER(lc)
		start[lc] = atomic_load(&workers[lc].rounds);
	RTE_LCORE_FOREACH_WORKER(lc)
		while (workers[lc].nq > 0 &&
		       atomic_load_explicit(&workers[lc].rounds,
					    memory_order_acquire) < start[lc] + n)
			rte_pause();
}

/*
 * The workers have stopped, the rules are gone: poll every queue from
 * here until a whole pass brings nothing. No fixed number of worker
 * rounds is enough: a queue whose worker was descheduled while the other
 * fed and steered to it holds up to 511 packets in its sub-port ring and
 * 4096 in its steering ring, 32 taken per round (on a loaded machine:
 * 2900 waiting at the last flush, 842 of them still there after 64
 * rounds). With no rule left nothing is steered again, so an empty pass
 * means empty rings.
 */
static uint64_t
drain_left(void)
{
	struct worker d = { .nq = NQ };
	uint64_t before;
	unsigned int i;

	do {
		before = d.rx;
		for (i = 0; i < NQ; i++)
			worker_round(&d, &queues[i]);
	} while (d.rx != before);
	CHECK(d.bad_mark == 0, "%" PRIu64 " packets left in the rings carried a wrong mark",
	      d.bad_mark);
	return d.rx;
}

static struct rule_def
random_def(void)
{
	struct rule_def d = { .t = (enum tmpl)rnd(R__RANDOM) };

	d.param = d.t == R_PLAIN_QUEUE ? rnd(16) : rnd(8);
	d.queue = (uint16_t)rnd(NQ);
	d.level = rnd(2) ? 2 : 1;
	d.priority = d.t == R_IPV4_FLAG ? 3 : rnd(3);
	return d;
}

struct live {
	struct rte_flow *f;
	uint64_t hits;
};

static unsigned int
registry_users(struct udp_tunnel_registry *reg)
{
	struct udp_tunnel_user_info u[64];
	int n = udp_tunnel_users_get(reg, u, RTE_DIM(u));
	unsigned int sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += u[i].refcnt;
	return sum;
}

static void
run_stress(unsigned int n_ops, unsigned int n_workers)
{
	struct live live[MAX_RULES];
	unsigned int n_live = 0, i, lc, w = 0, type = 0;
	uint64_t fed = 0, rx, left, bad_mark = 0, dropped;
	unsigned int created = 0, destroyed = 0, refused = 0, validated = 0;
	struct udp_tunnel_registry *reg;
	struct rte_flow_error err;
	struct mallinfo2 heap0, heap1;

	if (hw_start() != 0)
		return;
	reg = port_registry(pmd_so, hw_port);
	if (reg == NULL || udp_tunnel_type_register(reg, "testenc", parse_testenc, &type) != 0 ||
	    udp_tunnel_port_add(reg, AF_INET, PORT_TESTENC, type) != 0) {
		CHECK(0, "the testenc type on port %u's registry", hw_port);
		return;
	}
	RTE_LCORE_FOREACH_WORKER(lc) {
		if (w == n_workers)
			break;
		for (i = w; i < NQ; i += n_workers)
			workers[lc].q[workers[lc].nq++] = &queues[i];
		w++;
	}
	CHECK(w == n_workers, "%u worker lcores, %u wanted", w, n_workers);
	printf("stress: %u ops, seed %" PRIu64 "\n", n_ops, rng_state);
	heap0 = mallinfo2();
	RTE_LCORE_FOREACH_WORKER(lc)
		if (workers[lc].nq > 0)
			rte_eal_remote_launch(worker_main, &workers[lc], lc);
	for (i = 0; i < n_ops; i++) {
		unsigned int op = rnd(100), k;

		if (op < 45 && n_live < MAX_RULES) {
			struct rule_def d = random_def();

			live[n_live].f = rule_create(&d, &err);
			if (live[n_live].f != NULL) {
				live[n_live++].hits = 0;
				created++;
			} else {
				refused++;
			}
		} else if (op < 80 && n_live > 0) {
			k = rnd(n_live);
			CHECK(rte_flow_destroy(hw_port, live[k].f, &err) == 0,
			      "destroy: %s", err.message ? err.message : "?");
			live[k] = live[--n_live];
			destroyed++;
		} else if (op < 83) {
			CHECK(rte_flow_flush(hw_port, &err) == 0, "flush");
			destroyed += n_live;
			n_live = 0;
		} else if (op < 93) {
			struct rule_def d = random_def();
			unsigned int before = registry_users(reg);

			validated += rule_validate(&d, &err);
			CHECK(registry_users(reg) == before,
			      "validate changed the registry: %u users, %u before",
			      registry_users(reg), before);
		} else if (n_live > 0) {
			uint64_t h;

			k = rnd(n_live);
			h = rule_hits(live[k].f);
			CHECK(h >= live[k].hits, "COUNT went back: %" PRIu64 " after %" PRIu64,
			      h, live[k].hits);
			live[k].hits = h;
		}
		if (i % 256 == 0)
			workers_wait(1);
	}
	workers_wait(4);
	/*
	 * Stop feeding and remove every rule at once, while steered packets
	 * may still wait in steering rings: they must arrive all the same.
	 */
	atomic_store_explicit(&stop_feeding, 1, memory_order_release);
	CHECK(rte_flow_flush(hw_port, &err) == 0, "final flush");
	workers_wait(64);
	atomic_store_explicit(&stop_workers, 1, memory_order_release);
	RTE_LCORE_FOREACH_WORKER(lc)
		while (workers[lc].nq > 0 &&
		       !atomic_load_explicit(&workers[lc].done, memory_order_acquire))
			rte_pause();
	rte_eal_mp_wait_lcore();
	left = drain_left();
	udp_tunnel_registry_drain(reg);
	heap1 = mallinfo2();
	rx = left;
	RTE_LCORE_FOREACH_WORKER(lc) {
		fed += workers[lc].fed;
		rx += workers[lc].rx;
		bad_mark += workers[lc].bad_mark;
	}
	dropped = xstat("rx_flow_drop_action") + xstat("rx_flow_steer_full_dropped") +
		xstat("rx_flow_isolated_dropped");
	printf("stress: %u ops with %u workers: %u rules created, %u destroyed, %u refused, %u validated; %" PRIu64 " packets fed, %" PRIu64 " received (%" PRIu64 " after the workers stopped), %" PRIu64 " dropped by rules (%" PRIu64 " for a full steering ring)\n",
	       n_ops, n_workers, created, destroyed, refused, validated, fed, rx,
	       left, dropped, xstat("rx_flow_steer_full_dropped"));
	CHECK(created > n_ops / 4, "only %u rules created", created);
	CHECK(fed > 0 && fed == rx + dropped,
	      "packets: %" PRIu64 " fed, %" PRIu64 " received + %" PRIu64 " dropped",
	      fed, rx, dropped);
	CHECK(bad_mark == 0, "%" PRIu64 " packets carried the mark of a rule they do not match",
	      bad_mark);
	CHECK(xstat("flow_rules_sw") == 0, "rules left: %" PRIu64, xstat("flow_rules_sw"));
	CHECK(registry_users(reg) == 1, "registry: %u users left, the test's own is 1",
	      registry_users(reg));
	CHECK(heap1.uordblks == heap0.uordblks,
	      "C heap: %zu bytes in use after the last rule, %zu before the first",
	      heap1.uordblks, heap0.uordblks);
	udp_tunnel_port_del(reg, AF_INET, PORT_TESTENC, type);
	hw_stop();
}

/* ---------------------------------------------------------- push */

/*
 * A sub-port with an rte_flow of its own: net_ring's ops plus flow_ops_get.
 * Its "hardware" takes rules on ETH/IPV4/UDP with a destination port and
 * QUEUE or DROP, refuses TCP, and places fed packets by those rules.
 */
static struct eth_dev_ops fake_ops;
static struct rte_flow_ops fake_flow_ops;
static struct {
	struct { bool used, drop; uint16_t dport, queue; } e[32];
	unsigned int creates, destroys, refusals;
} sub_hw;

static struct rte_flow *
fake_flow_create(struct rte_eth_dev *dev __rte_unused,
		 const struct rte_flow_attr *attr __rte_unused,
		 const struct rte_flow_item pattern[],
		 const struct rte_flow_action actions[], struct rte_flow_error *err)
{
	uint16_t dport = 0, queue = 0;
	bool drop = false;
	unsigned int i;

	for (; pattern->type != RTE_FLOW_ITEM_TYPE_END; pattern++) {
		if (pattern->type == RTE_FLOW_ITEM_TYPE_TCP) {
			sub_hw.refusals++;
			rte_flow_error_set(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM,
					   pattern, "no TCP in this hardware");
			return NULL;
		}
		if (pattern->type == RTE_FLOW_ITEM_TYPE_UDP && pattern->spec != NULL)
			dport = rte_be_to_cpu_16(((const struct rte_flow_item_udp *)
						  pattern->spec)->hdr.dst_port);
	}
	for (; actions->type != RTE_FLOW_ACTION_TYPE_END; actions++) {
		if (actions->type == RTE_FLOW_ACTION_TYPE_QUEUE)
			queue = ((const struct rte_flow_action_queue *)actions->conf)->index;
		drop |= actions->type == RTE_FLOW_ACTION_TYPE_DROP;
	}
	for (i = 0; i < RTE_DIM(sub_hw.e); i++)
		if (!sub_hw.e[i].used) {
			sub_hw.e[i].used = true;
			sub_hw.e[i].drop = drop;
			sub_hw.e[i].dport = dport;
			sub_hw.e[i].queue = queue;
			sub_hw.creates++;
			return (struct rte_flow *)&sub_hw.e[i];
		}
	rte_flow_error_set(err, ENOSPC, RTE_FLOW_ERROR_TYPE_HANDLE, NULL, "full");
	return NULL;
}

static int
fake_flow_destroy(struct rte_eth_dev *dev __rte_unused, struct rte_flow *f,
		  struct rte_flow_error *err __rte_unused)
{
	((typeof(&sub_hw.e[0]))f)->used = false;
	sub_hw.destroys++;
	return 0;
}

static int
fake_flow_ops_get(struct rte_eth_dev *dev __rte_unused, const struct rte_flow_ops **ops)
{
	*ops = &fake_flow_ops;
	return 0;
}

static void
fake_flow_install(uint16_t sub)
{
	fake_flow_ops.create = fake_flow_create;
	fake_flow_ops.destroy = fake_flow_destroy;
	fake_ops = *rte_eth_devices[sub].dev_ops;
	fake_ops.flow_ops_get = fake_flow_ops_get;
	rte_eth_devices[sub].dev_ops = &fake_ops;
}

/* The sub-port's entry for a UDP destination port, or NULL. */
static const typeof(sub_hw.e[0]) *
sub_entry(uint16_t dport)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(sub_hw.e); i++)
		if (sub_hw.e[i].used && sub_hw.e[i].dport == dport)
			return &sub_hw.e[i];
	return NULL;
}

static unsigned int
sub_rules(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < RTE_DIM(sub_hw.e); i++)
		n += sub_hw.e[i].used;
	return n;
}

/* Feed n plain packets to UDP port dport, placed as the "hardware" says. */
static void
feed_placed(uint16_t dport, unsigned int n)
{
	const typeof(sub_hw.e[0]) *e = sub_entry(dport);
	unsigned int i;

	if (e != NULL && e->drop)
		return;
	/* The plain port is PORT_PLAIN + seq % 16. */
	for (i = 0; i < n; i++)
		feed(e != NULL ? e->queue : 0, K_PLAIN, dport - PORT_PLAIN + 16 * i, 1);
}

static unsigned int
received_on(uint16_t q, uint32_t *marked)
{
	uint64_t per_queue[NQ] = { 0 };
	uint32_t hashed = 0;

	drain(per_queue, marked, &hashed);
	return (unsigned int)per_queue[q];
}

static struct rte_flow *
push_rule(struct rule_def d)
{
	struct rte_flow_error err;
	struct rte_flow *f = rule_create(&d, &err);

	CHECK(f != NULL, "rule %u: %s", d.t, f ? "" : err.message);
	return f;
}

static void
run_push(void)
{
	struct rte_flow *a, *c, *d, *e, *t;
	struct rte_flow_error err;
	uint64_t steered0;
	uint32_t marked = 0;

	sub_hook = fake_flow_install;
	if (hw_start() != 0)
		return;
	/* QUEUE only: offered. TCP: refused. With MARK: kept in software. */
	a = push_rule((struct rule_def){ .t = R_PLAIN_QUEUE_ONLY, .param = 1, .queue = 2, .priority = 1 });
	CHECK(sub_entry(PORT_PLAIN + 1) != NULL && sub_entry(PORT_PLAIN + 1)->queue == 2,
	      "a QUEUE rule reached the sub-port");
	t = push_rule((struct rule_def){ .t = R_TCP_QUEUE_ONLY, .queue = 1, .priority = 1 });
	CHECK(sub_hw.refusals == 1 && xstat("flow_rules_hw_refused") == 1,
	      "the sub-port refused the TCP rule: %u, xstat %" PRIu64, sub_hw.refusals,
	      xstat("flow_rules_hw_refused"));
	c = push_rule((struct rule_def){ .t = R_PLAIN_QUEUE, .param = 2, .queue = 3, .priority = 1 });
	CHECK(sub_entry(PORT_PLAIN + 2) == NULL, "a rule with MARK stayed in software");
	CHECK(xstat("flow_rules_hw") == 1 && xstat("flow_rules_sw") == 3,
	      "xstats: %" PRIu64 " in the sub-port, %" PRIu64 " in software",
	      xstat("flow_rules_hw"), xstat("flow_rules_sw"));

	/* A DROP goes only while every other rule has a worse priority. */
	d = push_rule((struct rule_def){ .t = R_PLAIN_DROP_ONLY, .param = 3, .priority = 0 });
	CHECK(sub_entry(PORT_PLAIN + 3) != NULL && sub_entry(PORT_PLAIN + 3)->drop,
	      "a DROP better than every other rule reached the sub-port");
	e = push_rule((struct rule_def){ .t = R_PLAIN_QUEUE, .param = 3, .queue = 1, .priority = 0 });
	CHECK(sub_entry(PORT_PLAIN + 3) == NULL || !sub_entry(PORT_PLAIN + 3)->drop,
	      "the DROP left the sub-port when a rule as good as it came");
	CHECK(rte_flow_destroy(hw_port, e, &err) == 0, "destroy");
	CHECK(sub_entry(PORT_PLAIN + 3) != NULL && sub_entry(PORT_PLAIN + 3)->drop,
	      "and came back when that rule went");

	/* Traffic: placed by the sub-port, or steered by software. */
	steered0 = xstat("rx_flow_steered");
	feed_placed(PORT_PLAIN + 1, 32);
	CHECK(received_on(2, &marked) == 32, "rule in the sub-port: all 32 on queue 2");
	CHECK(xstat("rx_flow_steered") == steered0,
	      "the sub-port placed them: %" PRIu64 " steered in software",
	      xstat("rx_flow_steered") - steered0);
	feed_placed(PORT_PLAIN + 2, 32);
	CHECK(received_on(3, &marked) == 32 && marked == 32,
	      "rule in software: 32 steered to queue 3 and marked (%u)", marked);
	CHECK(xstat("rx_flow_steered") == steered0 + 32, "software steered %" PRIu64,
	      xstat("rx_flow_steered") - steered0);

	CHECK(rte_flow_destroy(hw_port, a, &err) == 0, "destroy");
	CHECK(sub_entry(PORT_PLAIN + 1) == NULL, "destroy reached the sub-port");
	CHECK(rte_flow_flush(hw_port, &err) == 0, "flush");
	CHECK(sub_rules() == 0 && xstat("flow_rules_hw") == 0,
	      "flush emptied the sub-port: %u rules left", sub_rules());
	(void)c;
	(void)t;
	d = push_rule((struct rule_def){ .t = R_PLAIN_QUEUE_ONLY, .param = 4, .queue = 1 });
	CHECK(d != NULL && sub_rules() == 1, "one rule in the sub-port before close");
	hw_stop();
	CHECK(sub_rules() == 0, "close emptied the sub-port: %u rules left", sub_rules());
	printf("push: %u rules created in the sub-port, %u destroyed, %u refused\n",
	       sub_hw.creates, sub_hw.destroys, sub_hw.refusals);
}

/* ------------------------------------------------------------ look */

/* n plain UDP packets to PORT_PLAIN + 3 into the sub-port ring of q. */
static void
look_feed(struct queue *q, unsigned int n)
{
	struct rte_mbuf *pkts[BURST];
	unsigned int i;

	if (rte_pktmbuf_alloc_bulk(q->mp, pkts, n) != 0) {
		CHECK(0, "queue %u: no mbufs", q->id);
		return;
	}
	for (i = 0; i < n; i++)
		packet_build(pkts[i], K_PLAIN, 3);
	i = rte_ring_enqueue_burst(q->rx, (void **)pkts, n, NULL);
	CHECK(i == n, "queue %u: %u of %u packets fed", q->id, i, n);
	rte_pktmbuf_free_bulk(pkts + i, n - i);
}

/* Poll q until a burst brings nothing; *marked counts those with mark. */
static unsigned int
look_poll(struct queue *q, uint32_t mark, unsigned int *marked)
{
	struct rte_mbuf *pkts[BURST];
	unsigned int n, got = 0, i;

	do {
		n = rte_eth_rx_burst(hw_port, q->id, pkts, BURST);
		for (i = 0; i < n; i++) {
			CHECK(pkts[i]->port == hw_port, "queue %u: port %u on a packet",
			      q->id, pkts[i]->port);
			if ((pkts[i]->ol_flags & RTE_MBUF_F_RX_FDIR_ID) &&
			    pkts[i]->hash.fdir.hi == mark)
				(*marked)++;
		}
		got += n;
		rte_pktmbuf_free_bulk(pkts, n);
	} while (n > 0);
	return got;
}

/*
 * Every queue fed 5 + its index packets, then polled: each must bring
 * back exactly want[q], marked[q] of them with the mark.
 */
static void
look_round(const char *what, uint32_t mark, const unsigned int *want,
	   const unsigned int *want_marked)
{
	unsigned int q, got, marked;

	for (q = 0; q < NQ; q++)
		look_feed(&queues[q], 5 + q);
	/* The highest queue first: what is steered to 0 waits in its ring. */
	for (q = NQ; q-- > 0;) {
		marked = 0;
		got = look_poll(&queues[q], mark, &marked);
		CHECK(got == want[q] && marked == want_marked[q],
		      "%s, rx=%s: queue %u brought %u packets, %u marked; %u and %u wanted",
		      what, hw_rx, q, got, marked, want[q], want_marked[q]);
	}
}

/*
 * RX queues skip the look at the flow state until the first rule since
 * the port's start (hwcsum_rxq_flow_path()): with no rule, each packet
 * is delivered on its queue unmarked; once rte_flow_create() returned,
 * every queue classifies; after a flush the look stays (plain delivery
 * again) until a restart turns it off, unless the queue's steering ring
 * still holds packets then. Several rounds, on the burst rx= chooses.
 */
static void
run_look(unsigned int rounds)
{
	unsigned int own[NQ], none[NQ] = { 0 }, all[NQ] = { 0 }, left[NQ] = { 0 };
	struct rule_def d = { .t = R_PLAIN_QUEUE, .param = 3, .queue = 0 };
	struct rule_def to1 = { .t = R_PLAIN_QUEUE, .param = 3, .queue = 1 };
	struct rte_flow_error err;
	unsigned int r, q, marked;

	for (q = 0; q < NQ; q++) {
		own[q] = 5 + q;
		all[0] += 5 + q;
	}
	left[1] = 9;
	if (hw_start() != 0) {
		CHECK(0, "port set-up");
		return;
	}
	for (r = 0; r < rounds; r++) {
		look_round("no rule", mark_of(&d), own, none);
		CHECK(rule_create(&d, &err) != NULL, "create: %s", err.message);
		look_round("a rule to queue 0", mark_of(&d), all, all);
		CHECK(rte_flow_flush(hw_port, &err) == 0, "flush");
		look_round("flushed", mark_of(&d), own, none);
		/* Steered to queue 1 and left in its ring over a restart. */
		CHECK(rule_create(&to1, &err) != NULL, "create: %s", err.message);
		look_feed(&queues[0], 9);
		marked = 0;
		CHECK(look_poll(&queues[0], mark_of(&to1), &marked) == 0,
		      "rx=%s: queue 0 kept packets of a rule to queue 1", hw_rx);
		CHECK(rte_flow_flush(hw_port, &err) == 0, "flush");
		CHECK(rte_eth_dev_stop(hw_port) == 0, "stop");
		CHECK(rte_eth_dev_start(hw_port) == 0, "start");
		for (q = 0; q < NQ; q++) {
			marked = 0;
			CHECK(look_poll(&queues[q], mark_of(&to1), &marked) == left[q] &&
			      marked == left[q],
			      "rx=%s: queue %u after a restart: not the %u steered packets",
			      hw_rx, q, left[q]);
		}
		/* Restarted with an empty ring: no look again. */
		CHECK(rte_eth_dev_stop(hw_port) == 0, "stop");
		CHECK(rte_eth_dev_start(hw_port) == 0, "start");
	}
	hw_stop();
	printf("look: %u rounds, rx=%s\n", rounds, hw_rx);
}

int
main(int argc, char **argv)
{
	unsigned int n_ops, n_workers;
	const char *mode;

	if (argc < 3) {
		fprintf(stderr, "usage: %s <librte_net_hwcsum.so | builtin> spread|stress|look [ops] [seed] [workers] [rx=off]\n",
			argv[0]);
		return 2;
	}
	/*
	 * glibc's per-thread cache keeps freed chunks counted as in use, so
	 * the heap comparison needs it off: tunables are read at start-up.
	 */
	if (strstr(getenv("GLIBC_TUNABLES") ?: "", TCACHE_OFF) == NULL) {
		setenv("GLIBC_TUNABLES", TCACHE_OFF, 1);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "FAIL: re-exec with %s: %s\n", TCACHE_OFF, strerror(errno));
		return 1;
	}
	pmd_so = argv[1];
	mode = argv[2];
	n_ops = argc > 3 ? strtoul(argv[3], NULL, 0) : 5000;
	rng_state = argc > 4 ? strtoull(argv[4], NULL, 0) | 1 : 1;
	n_workers = argc > 5 ? strtoul(argv[5], NULL, 0) : 2;
	if (argc > 6 && strcmp(argv[6], "rx=off") == 0)
		hw_rx = "off";
	/* Main and two workers on whatever two CPUs there are. */
	if (harness_eal_init(argv[0], &(struct harness_eal){ .name = "fstress",
			.pmd = argv[1], .lcores = "0@(0-1),1@(0-1),2@(0-1)",
			.no_telemetry = true }) != 0)
		return 1;
	if (strcmp(mode, "spread") == 0)
		run_spread();
	else if (strcmp(mode, "push") == 0)
		run_push();
	else if (strcmp(mode, "stress") == 0)
		run_stress(n_ops, n_workers);
	else if (strcmp(mode, "look") == 0)
		run_look(n_ops);
	else
		CHECK(0, "unknown mode %s", mode);
	rte_eal_cleanup();
	return harness_summary(mode);
}
