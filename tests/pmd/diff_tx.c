/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Differential test of the transmit fast path: a burst of packets goes
 * through hwcsum_tx_resolve() (what tx_burst does: one plan per run of
 * packets with the same flags and lengths, csum_tx_apply() per packet),
 * through hwcsum_tx_one() packet by packet, and through
 * hwcsum_tx_one_general() (the reference, the code before the fast path).
 * All three must agree on everything the sub-port and the application
 * see: the return value, every byte of the chain, ol_flags, the lengths,
 * the generic request in the dynfield, and every counter. tx_prepare is
 * held to its checks as they were before they were planned per run.
 *
 * The bursts mix packets from a few templates (IPv4/IPv6, tags,
 * VXLAN/GENEVE/GPE/GUE inner, UDP/TCP/SCTP, DPDK flags or the generic
 * request), so runs of equal flags and lengths carry different bytes
 * (payload, addresses, lengths); some packets are corrupted (a header
 * byte, a length, a truncation, odd generic offsets), some are cut into
 * segments. Most inputs use the software-only engine (the fast path),
 * the rest others (both sides then take the general path).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>

#include <rte_errno.h>

#include "csum_tx.h"
#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

#include "fuzz_common.h"

#define TARGET "diff_tx"
#define PARTIAL_FLAG (UINT64_C(1) << 30)
#define BURST_MAX 12
#define TMPL_MAX 3

static struct {
	unsigned long inputs, packets, fast_done, refused, chained, prep_refused;
	unsigned long usual, usual_tunnel;	/* csum_tx_apply_usual() took */
	struct hwcsum_txq_stats q;
} diff_stats;

static uint8_t pkt[FZ_PKT_MAX], rnd[FZ_PKT_MAX];
static uint8_t flat_a[FZ_PKT_MAX + 64], flat_b[FZ_PKT_MAX + 64];
/* Each packet as csum_tx_apply_usual() alone leaves it, where it took it. */
static uint8_t usual_img[BURST_MAX][FZ_PKT_MAX + 64];
static bool usual_took[BURST_MAX];

/*
 * The usual frame's path alone (what the plan of the fast path marks as
 * its work) on the packet's flat bytes: held below to the reference.
 */
static void
usual_try(const struct hwcsum_private *priv, const struct rte_mbuf *m,
	  unsigned int i, uint32_t len)
{
	struct csum_tx_work w;

	usual_took[i] = false;
	if (priv->spec.engine != CSUM_ENGINE_NONE || m->nb_segs != 1 ||
	    !(m->ol_flags & hwcsum_tx_request_mask(priv)) ||
	    !hwcsum_tx_usual_work(priv, m, &w))
		return;
	memcpy(usual_img[i], pkt, len);
	usual_took[i] = csum_tx_apply_usual(usual_img[i], len, &w);
	if (!usual_took[i] && memcmp(usual_img[i], pkt, len) != 0)
		fuzz_fail(TARGET, "packet %u: the usual path declined but wrote", i);
	diff_stats.usual += usual_took[i];
	diff_stats.usual_tunnel += usual_took[i] && (w.ops & CSUM_TX_SEED_OUTER);
}

static struct rte_pmd_hwcsum_csum *
field_of(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, offsetof(struct rte_mbuf, dynfield1),
				 struct rte_pmd_hwcsum_csum *);
}

/* A request as an application (testpmd's csum engine) makes it. */
struct tmpl {
	struct fz_pkt_opts o;
	uint8_t req;		/* bits: l4, generic, ip, outer_ip, outer_udp, folded */
	uint8_t oddity;		/* 0: none */
};

static void
tmpl_from_input(struct fz_in *in, struct tmpl *t)
{
	uint8_t a = fz_u8(in), b = fz_u8(in);

	memset(t, 0, sizeof(*t));
	fz_opts_from_bytes(&t->o, a, b, true);
	t->req = fz_u8(in);
	t->oddity = fz_u8(in);
}

/* The packet's own bytes: a few input bytes stretched (xorshift32). */
static void
rnd_fill(uint32_t x)
{
	size_t i;

	x |= 1;
	for (i = 0; i < sizeof(rnd); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		rnd[i] = (uint8_t)(x >> 7);
	}
}

/* One packet of template t, its own bytes, in m (flat pkt[] first). */
static uint32_t
pkt_from_tmpl(struct fz_in *in, const struct tmpl *t, struct rte_mbuf *h)
{
	struct fz_pkt_opts o = t->o;
	struct fz_pkt l;
	uint8_t r = t->req, odd = t->oddity, c = fz_u8(in);
	bool generic = r >> 1 & 1, folded = r >> 5 & 1;
	bool outer = !folded;
	uint16_t v;

	o.payload = fz_u16(in) % (c & 1 ? 40 : 1400);
	o.trailer = c >> 1 & 1 ? fz_u8(in) % 8 : 0;
	rnd_fill(fz_u32(in));
	fz_pkt_build(pkt, &o, rnd, &l);

	memset(h, 0, sizeof(*h));
	if (l.encap && outer) {
		h->outer_l2_len = l.outer_l3;
		h->outer_l3_len = l.outer_l3_len;
		h->l2_len = l.l3 - l.outer_l4;
		h->ol_flags |= l.outer_v6 ? RTE_MBUF_F_TX_OUTER_IPV6 :
			RTE_MBUF_F_TX_OUTER_IPV4;
	} else {
		h->l2_len = l.l3;
	}
	h->l3_len = l.l3_len;
	if (l.encap && (outer || (r >> 6 & 1)))
		h->ol_flags |= o.tun == FZ_TUN_GENEVE ? RTE_MBUF_F_TX_TUNNEL_GENEVE :
			o.tun == FZ_TUN_VXLAN ? RTE_MBUF_F_TX_TUNNEL_VXLAN :
			RTE_MBUF_F_TX_TUNNEL_UDP;
	h->ol_flags |= l.v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4;
	if ((r >> 2 & 1) && !l.v6)
		h->ol_flags |= RTE_MBUF_F_TX_IP_CKSUM;
	if (l.encap && outer && (r >> 3 & 1) && !l.outer_v6)
		h->ol_flags |= RTE_MBUF_F_TX_OUTER_IP_CKSUM;
	if (l.encap && outer && (r >> 4 & 1))
		h->ol_flags |= RTE_MBUF_F_TX_OUTER_UDP_CKSUM;
	if ((r & 1) && generic && o.proto != IPPROTO_SCTP) {
		uint32_t f = l.l4 + fz_csum_off(o.proto);

		put16(pkt + f, ref_fold(ref_pseudo(pkt + l.l3, l.l3_end - l.l4, o.proto)));
		field_of(h)->start = (uint16_t)l.l4;
		field_of(h)->offset = (uint16_t)fz_csum_off(o.proto);
		h->ol_flags |= PARTIAL_FLAG;
		/* Sometimes also our own hand-off form (a retry). */
		if (r >> 7 & 1)
			h->ol_flags |= o.proto == IPPROTO_TCP ?
				RTE_MBUF_F_TX_TCP_CKSUM : RTE_MBUF_F_TX_UDP_CKSUM;
	} else if (r & 1) {
		h->ol_flags |= o.proto == IPPROTO_TCP ? RTE_MBUF_F_TX_TCP_CKSUM :
			o.proto == IPPROTO_UDP ? RTE_MBUF_F_TX_UDP_CKSUM :
			RTE_MBUF_F_TX_SCTP_CKSUM;
	}

	/* Template-wide oddities keep the runs alike; per-packet ones break bytes. */
	v = fz_u16(in);
	switch (odd % 16) {
	case 0:	/* odd lengths, the same for the whole run */
		h->l2_len = (odd >> 4) * 3 + 1;
		break;
	case 1:
		h->l3_len = (odd >> 4) * 5;
		break;
	case 2:
		h->outer_l2_len = (odd >> 4) * 7;
		break;
	case 3:
		field_of(h)->start = v % (l.len + 8);
		field_of(h)->offset = (v >> 8) % 32;
		h->ol_flags |= PARTIAL_FLAG;
		break;
	default:
		break;
	}
	switch (c >> 2 & 7) {
	case 0:	/* a header byte flipped */
		pkt[v % l.len] ^= (uint8_t)(1u << (v >> 13));
		break;
	case 1:	/* truncated */
		return v % (l.len + 1);
	case 2:	/* an IP length field off by a little */
		pkt[l.l3 + (l.v6 ? 5 : 3)] += (uint8_t)(v % 5) - 2;
		break;
	case 3:	/* an IP header's first byte 0: no version, no length */
		pkt[l.l3] = 0;
		break;
	default:
		break;
	}
	return l.len;
}

static void
priv_from_input(struct fz_in *in, struct hwcsum_private *priv)
{
	uint8_t e = fz_u8(in), c = fz_u8(in);
	struct csum_offload_spec *s = &priv->spec;

	memset(priv, 0, sizeof(*priv));
	priv->dynfield_off = offsetof(struct rte_mbuf, dynfield1);
	priv->tx_partial_flag = PARTIAL_FLAG;
	priv->rx_complete_flag = UINT64_C(1) << 31;
	/* Three in four: no engine, the fast path's case. */
	s->engine = e % 4 != 0 ? CSUM_ENGINE_NONE :
		(e >> 2) % 2 ? CSUM_ENGINE_GENERIC : CSUM_ENGINE_PARSE;
	if (s->engine == CSUM_ENGINE_GENERIC) {
		s->max_csum_start = 255;
		s->max_csum_field = 255;
	} else if (s->engine == CSUM_ENGINE_PARSE) {
		s->ipv4_okay = s->ipv6_okay = s->udp_okay = s->tcp_okay = true;
		s->encap_okay = e >> 3 & 1;
		s->vlan_okay = true;
	}
	priv->sub.l4_hw = s->engine != CSUM_ENGINE_NONE;
	priv->sub.ip_hw = c & 1;
	priv->sub.max_segs = (c >> 1) % 4 == 0 ? 2 : 0;
}

static void
diff_fail_pkt(unsigned int i, const char *what, const struct rte_mbuf *a,
	      const struct rte_mbuf *b)
{
	fuzz_fail(TARGET, "packet %u: %s differs: flags %#" PRIx64 "/%#" PRIx64
		  " lens %u/%u/%u/%u vs %u/%u/%u/%u", i, what, a->ol_flags,
		  b->ol_flags, a->outer_l2_len, a->outer_l3_len, a->l2_len,
		  a->l3_len, b->outer_l2_len, b->outer_l3_len, b->l2_len, b->l3_len);
}

static void
compare_pkt(unsigned int i, int ra, int rb, struct rte_mbuf *a,
	    struct rte_mbuf *b, uint32_t len)
{
	if (ra != rb)
		fuzz_fail(TARGET, "packet %u: returned %d, reference %d", i, ra, rb);
	if (a->ol_flags != b->ol_flags)
		diff_fail_pkt(i, "ol_flags", a, b);
	if (a->tx_offload != b->tx_offload)
		diff_fail_pkt(i, "tx_offload", a, b);
	if (memcmp(field_of(a), field_of(b), sizeof(struct rte_pmd_hwcsum_csum)))
		diff_fail_pkt(i, "dynfield", a, b);
	test_chain_flatten(a, flat_a);
	test_chain_flatten(b, flat_b);
	if (memcmp(flat_a, flat_b, len) != 0) {
		uint32_t k;

		for (k = 0; flat_a[k] == flat_b[k]; k++)
			;
		fuzz_fail(TARGET, "packet %u: byte %u differs (%#x, reference %#x), ret %d",
			  i, k, flat_a[k], flat_b[k], ra);
	}
}

/*
 * tx_prepare's checks as they were before they were planned per run
 * (b7c8712), the reference for hwcsum_tx_prepare().
 */
static int
ref_ipv4_expected(const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	const struct rte_mbuf *s = m;
	uint32_t o = off;

	if (len < 20 || (uint64_t)off + len > m->pkt_len)
		return -EINVAL;
	while (s != NULL && o >= s->data_len) {
		o -= s->data_len;
		s = s->next;
	}
	if (s == NULL)
		return -EINVAL;
	return (rte_pktmbuf_mtod(s, const uint8_t *)[o] >> 4 == 4 &&
		(rte_pktmbuf_mtod(s, const uint8_t *)[o] & 0xf) * 4u == len) ?
		0 : -EINVAL;
}

static int
ref_tx_validate(const struct hwcsum_private *priv, struct rte_mbuf *m)
{
	uint64_t fl = m->ol_flags;
	uint32_t outer_l3 = m->outer_l2_len, outer_l4 = outer_l3 + m->outer_l3_len;
	uint32_t l3 = outer_l4 + m->l2_len, l4 = l3 + m->l3_len;

	if (fl & (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_UDP_SEG))
		return -ENOTSUP;
	if (priv->sub.max_segs != 0 && m->nb_segs > priv->sub.max_segs)
		return -EINVAL;
	if (rte_validate_tx_offload(m) != 0 && !(fl & PARTIAL_FLAG))
		return -EINVAL;
	if (fl & PARTIAL_FLAG) {
		if ((uint32_t)field_of(m)->start + field_of(m)->offset + 2 > m->pkt_len)
			return -EINVAL;
	} else if ((fl & RTE_MBUF_F_TX_L4_MASK) && l4 + 8 > m->pkt_len) {
		return -EINVAL;
	}
	if ((fl & RTE_MBUF_F_TX_OUTER_UDP_CKSUM) &&
	    (m->outer_l3_len == 0 || outer_l4 + 8 > m->pkt_len))
		return -EINVAL;
	if ((fl & RTE_MBUF_F_TX_IP_CKSUM) && ref_ipv4_expected(m, l3, m->l3_len) < 0)
		return -EINVAL;
	if ((fl & RTE_MBUF_F_TX_OUTER_IP_CKSUM) &&
	    ref_ipv4_expected(m, outer_l3, m->outer_l3_len) < 0)
		return -EINVAL;
	return 0;
}

/* hwcsum_tx_prepare() on the burst and on every tail of it. */
static void
compare_prepare(struct hwcsum_private *priv, struct rte_mbuf **m, unsigned int n)
{
	static struct hwcsum_txq txq;
	uint64_t mask = hwcsum_tx_request_mask(priv);
	unsigned int from, i;

	txq.priv = priv;
	for (from = 0; from < n; from++) {
		uint16_t got;
		int want_err = 0;

		for (i = from; i < n; i++) {
			if (!(m[i]->ol_flags & mask))
				continue;
			want_err = ref_tx_validate(priv, m[i]);
			if (want_err < 0)
				break;
		}
		rte_errno = 0;
		got = hwcsum_tx_prepare(&txq, m + from, (uint16_t)(n - from));
		if (got != i - from)
			fuzz_fail(TARGET, "tx_prepare from %u took %u, reference %u",
				  from, got, i - from);
		if (i < n && rte_errno != -want_err)
			fuzz_fail(TARGET, "tx_prepare errno %d, reference %d",
				  rte_errno, -want_err);
		diff_stats.prep_refused += i < n;
	}
}

static void
copy_meta(struct rte_mbuf *dst, const struct rte_mbuf *src)
{
	dst->ol_flags = src->ol_flags;
	dst->tx_offload = src->tx_offload;
	*field_of(dst) = *field_of((struct rte_mbuf *)(uintptr_t)src);
}

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct hwcsum_private priv;
	struct hwcsum_txq_stats st_a, st_b, st_c;
	struct tmpl t[TMPL_MAX];
	struct test_chain *ca, *cb, *cc;
	struct rte_mbuf *ma[BURST_MAX], *mb[BURST_MAX], *mc[BURST_MAX];
	uint32_t len[BURST_MAX];
	int ra[BURST_MAX], rb, rc;
	unsigned int n, nt, i, k = 0;

	fz_cur_data = data;
	fz_cur_size = size;
	diff_stats.inputs++;
	ca = calloc(BURST_MAX, sizeof(*ca));
	cb = calloc(BURST_MAX, sizeof(*cb));
	cc = calloc(BURST_MAX, sizeof(*cc));
	if (ca == NULL || cb == NULL || cc == NULL)
		abort();
	priv_from_input(&in, &priv);
	n = 1 + fz_u8(&in) % BURST_MAX;
	nt = 1 + fz_u8(&in) % TMPL_MAX;
	for (i = 0; i < nt; i++)
		tmpl_from_input(&in, &t[i]);
	for (i = 0; i < n; i++) {
		struct rte_mbuf h;
		uint32_t cuts[FZ_MAX_SEGS], n_cuts;
		uint8_t pick = fz_u8(&in);

		/* Mostly the template before: runs of alike packets. */
		if (pick % 4 == 0)
			k = (k + 1) % nt;
		len[i] = pkt_from_tmpl(&in, &t[k], &h);
		n_cuts = pick >> 2 & 1 ? fz_cuts(&in, len[i], cuts) : 0;
		ma[i] = test_chain_build(&ca[i], pkt, len[i], cuts, n_cuts);
		mb[i] = test_chain_build(&cb[i], pkt, len[i], cuts, n_cuts);
		mc[i] = test_chain_build(&cc[i], pkt, len[i], cuts, n_cuts);
		copy_meta(ma[i], &h);
		copy_meta(mb[i], &h);
		copy_meta(mc[i], &h);
		usual_try(&priv, ma[i], i, len[i]);
		diff_stats.chained += ma[i]->nb_segs > 1;
	}
	diff_stats.packets += n;

	compare_prepare(&priv, mb, n);
	memset(&st_a, 0, sizeof(st_a));
	memset(&st_b, 0, sizeof(st_b));
	memset(&st_c, 0, sizeof(st_c));
	hwcsum_tx_resolve(&priv, ma, (uint16_t)n, &st_a, ra);
	for (i = 0; i < n; i++) {
		bool fast_case = priv.spec.engine == CSUM_ENGINE_NONE &&
			mb[i]->nb_segs == 1 &&
			(mb[i]->ol_flags & hwcsum_tx_request_mask(&priv));

		rb = hwcsum_tx_one_general(&priv, mb[i], &st_b);
		diff_stats.fast_done += fast_case && rb == 0;
		rc = hwcsum_tx_one(&priv, mc[i], &st_c);
		compare_pkt(i, ra[i], rb, ma[i], mb[i], len[i]);
		compare_pkt(i, rc, rb, mc[i], mb[i], len[i]);
		if (usual_took[i] && (rb != 0 || memcmp(usual_img[i], flat_b, len[i]) != 0))
			fuzz_fail(TARGET, "packet %u: the usual path differs from the "
				  "reference (ret %d)", i, rb);
		diff_stats.refused += rb < 0;
	}
	if (memcmp(&st_a, &st_b, sizeof(st_a)) != 0)
		fuzz_fail(TARGET, "burst counters differ from the reference");
	if (memcmp(&st_c, &st_b, sizeof(st_c)) != 0)
		fuzz_fail(TARGET, "per-packet counters differ from the reference");
	for (i = 0; i < HWCSUM_TX__COUNT; i++)
		diff_stats.q.c[i] += st_b.c[i];
	for (i = 0; i < n; i++) {
		test_chain_free(&ca[i]);
		test_chain_free(&cb[i]);
		test_chain_free(&cc[i]);
	}
	free(ca);
	free(cb);
	free(cc);
	return 0;
}

/* ------------------------------------------- the seeded run's hooks */

const char *const fuzz_seeded_name = TARGET;

size_t
fuzz_seeded_input(uint8_t *buf, size_t cap, uint64_t (*next)(void))
{
	fz_fill(buf, cap, next);
	return cap;
}

int
fuzz_seeded_report(unsigned long iters)
{
	const uint64_t *q = diff_stats.q.c;
	const struct fz_need need[] = {
		FZ_NEED(diff_stats.fast_done), FZ_NEED(diff_stats.refused),
		FZ_NEED(diff_stats.usual), FZ_NEED(diff_stats.usual_tunnel),
		FZ_NEED(diff_stats.prep_refused), FZ_NEED(diff_stats.chained),
		FZ_NEED(q[HWCSUM_TX_REQ_GENERIC]),
		FZ_NEED(q[HWCSUM_TX_REQ_DPDK]), FZ_NEED(q[HWCSUM_TX_LCO]),
		FZ_NEED(q[HWCSUM_TX_IP_SW]), FZ_NEED(q[HWCSUM_TX_IP_HW]),
		FZ_NEED(q[HWCSUM_TX_L4_SW]),
	};

	printf("%s: %lu bursts, %lu packets (%lu chained), %lu refused, "
	       "%lu done in one segment without an engine\n", TARGET,
	       diff_stats.inputs, diff_stats.packets, diff_stats.chained,
	       diff_stats.refused, diff_stats.fast_done);
	printf("%s: the usual frame's path took %lu (tunnels %lu)\n", TARGET,
	       diff_stats.usual, diff_stats.usual_tunnel);
	printf("%s: tx_prepare refused %lu bursts' tails\n", TARGET,
	       diff_stats.prep_refused);
	printf("%s: counters: req generic %" PRIu64 " dpdk %" PRIu64 ", L4 sw %"
	       PRIu64 ", LCO %" PRIu64 ", IP sw %" PRIu64 " hw %" PRIu64 "\n", TARGET,
	       q[HWCSUM_TX_REQ_GENERIC], q[HWCSUM_TX_REQ_DPDK], q[HWCSUM_TX_L4_SW],
	       q[HWCSUM_TX_LCO], q[HWCSUM_TX_IP_SW], q[HWCSUM_TX_IP_HW]);
	if (iters < 1000)
		return 0;
	return fz_needs(need, RTE_DIM(need));
}
