/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transmit: every checksum request becomes one CHECKSUM_PARTIAL request per
 * checksum (Linux's model), then each is either handed to the sub-port's
 * engine or completed here.
 *
 * Requests come as the generic dynflag (start/offset in the dynfield, seed
 * in the field) or as DPDK's flags exactly as testpmd's csum engine sets
 * them (l2_len .. outer_l3_len; DPDK does not seed the field, tx_prepare
 * does, so hwcsum seeds them itself). At most one L4 checksum per packet
 * can go to the hardware (one context descriptor): the inner one where the
 * engine can sum from its start, else the outer UDP one. The other is done
 * here, and the payload is summed at most once in software:
 *  - inner in hardware: outer UDP by LCO (headers only);
 *  - inner in software, outer in hardware: inner first, then the device
 *    sums the outer over the finished inner packet;
 *  - both in software: outer by LCO while the inner field still holds its
 *    seed, then the inner.
 *
 * Retries: a request done here is removed from the mbuf; the one handed to
 * the sub-port is rewritten as the generic request (plus the sub-port's
 * l2_len/l3_len and L4 flag), which needs no re-seeding. So a packet the
 * sub-port did not take comes back unchanged in meaning and is resolved to
 * the same result when the application sends it again.
 */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ip.h>

#include "csum_mbuf.h"
#include "csum_proto.h"
#include "csum_tx.h"
#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

/* Widest l2_len / l3_len an mbuf holds (7 and 9 bits). */
#define MBUF_L2_MAX 127
#define MBUF_L3_MAX 511
/* Packets handed down per sub-port call. */
#define TX_CHUNK 64

#define DPDK_CSUM_FLAGS (RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK | \
			 RTE_MBUF_F_TX_OUTER_IP_CKSUM | RTE_MBUF_F_TX_OUTER_UDP_CKSUM)
/* Everything that describes a request; cleared before the sub-port sees it. */
#define REQUEST_FLAGS (DPDK_CSUM_FLAGS | RTE_MBUF_F_TX_TUNNEL_MASK | \
		       RTE_MBUF_F_TX_OUTER_IPV4 | RTE_MBUF_F_TX_OUTER_IPV6 | \
		       RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6)
#define SEG_FLAGS (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_UDP_SEG)

/* Inline for the per-packet and per-burst looks; exported for the fuzzer. */
static inline uint64_t
request_mask(const struct hwcsum_private *priv)
{
	return hwcsum_tx_partial(priv) | DPDK_CSUM_FLAGS | SEG_FLAGS;
}

uint64_t
hwcsum_tx_request_mask(const struct hwcsum_private *priv)
{
	return request_mask(priv);
}

/* One packet's requests, offsets from its first byte. */
struct tx_plan {
	bool has_l4;		/* the (inner) L4 checksum */
	struct csum_offload_req l4;
	bool has_outer_udp;
	uint32_t outer_l3, outer_l4;
	bool ip_sw, outer_ip_sw; /* IPv4 header checksums */
	uint32_t inner_l3, inner_l3_len;
	bool encap;		/* the L4 header is an inner one */
};

static inline struct rte_pmd_hwcsum_csum *
dynfield(const struct hwcsum_private *priv, struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, priv->dynfield_off, struct rte_pmd_hwcsum_csum *);
}

static inline int
ip_version_at(const struct rte_mbuf *m, uint32_t off)
{
	uint8_t b;

	if (csum_mbuf_read(m, off, 1, &b) < 0)
		return -EINVAL;
	return b >> 4;
}

/*
 * Read the requests off the mbuf. DPDK's flags: outer_l2_len/outer_l3_len
 * describe the outer headers when a tunnel is offloaded; testpmd folds
 * them into l2_len when no outer offload is enabled, and then only the
 * tunnel bits say the L4 header is an inner one.
 */
static int
plan_read(const struct hwcsum_private *priv, struct rte_mbuf *m,
	  struct tx_plan *p)
{
	uint64_t fl = m->ol_flags;
	uint32_t outer_l3 = m->outer_l2_len, outer_l4 = outer_l3 + m->outer_l3_len;
	uint32_t l3 = outer_l4 + m->l2_len, l4 = l3 + m->l3_len;
	bool encap = (fl & RTE_MBUF_F_TX_TUNNEL_MASK) || m->outer_l3_len != 0;
	int ret;

	memset(p, 0, sizeof(*p));
	p->inner_l3 = l3;
	p->inner_l3_len = m->l3_len;
	p->outer_l3 = outer_l3;
	p->outer_l4 = outer_l4;
	p->encap = encap;
	if (fl & SEG_FLAGS)
		return -ENOTSUP; /* segmentation is hwcsum_tso.c's, never here */
	if (fl & hwcsum_tx_partial(priv)) {
		/* The generic request wins over any DPDK L4 flag. */
		const struct rte_pmd_hwcsum_csum *f = dynfield(priv, m);

		p->has_l4 = true;
		p->l4.csum_start = f->start;
		p->l4.csum_offset = f->offset;
		if ((uint32_t)f->start + f->offset + 2 > m->pkt_len)
			return -EINVAL;
		/*
		 * Our own hand-off form, retried (or an application that says
		 * the same thing both ways): l2_len is the IP header's offset,
		 * so the retry is judged with the same header as the first try.
		 */
		if ((fl & RTE_MBUF_F_TX_L4_MASK) &&
		    (fl & (RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6)) &&
		    m->outer_l3_len == 0 && m->l2_len != 0 &&
		    (uint32_t)m->l2_len + m->l3_len == f->start)
			p->l4.l3_off = m->l2_len;
	} else if (fl & RTE_MBUF_F_TX_L4_MASK) {
		uint64_t l4f = fl & RTE_MBUF_F_TX_L4_MASK;

		p->has_l4 = true;
		p->l4.csum_start = l4;
		p->l4.l3_off = l3;
		p->l4.flags = encap ? CSUM_OFFLOAD_F_ENCAP : 0;
		if (l4f == RTE_MBUF_F_TX_UDP_CKSUM) {
			p->l4.csum_offset = CSUM_UDP_OFFSET;
			ret = csum_mbuf_seed_l4(m, l3, l4, IPPROTO_UDP);
		} else if (l4f == RTE_MBUF_F_TX_TCP_CKSUM) {
			p->l4.csum_offset = CSUM_TCP_OFFSET;
			ret = csum_mbuf_seed_l4(m, l3, l4, IPPROTO_TCP);
		} else if (l4f == RTE_MBUF_F_TX_SCTP_CKSUM) {
			p->l4.csum_offset = CSUM_SCTP_OFFSET;
			p->l4.flags |= CSUM_OFFLOAD_F_CRC32C;
			ret = l4 + CSUM_SCTP_OFFSET + 4 <= m->pkt_len &&
				m->l3_len != 0 ? 0 : -EINVAL;
		} else {
			ret = -EINVAL;
		}
		if (ret < 0)
			return ret;
	}
	if (fl & RTE_MBUF_F_TX_OUTER_UDP_CKSUM) {
		if (m->outer_l3_len == 0)
			return -EINVAL;
		p->has_outer_udp = true;
		ret = csum_mbuf_seed_l4(m, outer_l3, outer_l4, IPPROTO_UDP);
		if (ret < 0)
			return ret;
		/* LCO and the ordering below need the inner L4 behind it. */
		if (p->has_l4 && p->l4.csum_start <= outer_l4 + CSUM_UDP_OFFSET + 1)
			return -EINVAL;
	}
	if (fl & RTE_MBUF_F_TX_IP_CKSUM) {
		if (csum_mbuf_ipv4_hdr_expected(m, l3, m->l3_len) < 0)
			return -EINVAL;
		p->ip_sw = true;
	}
	if (fl & RTE_MBUF_F_TX_OUTER_IP_CKSUM) {
		if (csum_mbuf_ipv4_hdr_expected(m, outer_l3, m->outer_l3_len) < 0)
			return -EINVAL;
		p->outer_ip_sw = true;
	}
	return 0;
}

/* Can the sub-port be told this request through l2_len + l3_len? */
static enum csum_offload_reason
expressible(const struct hwcsum_private *priv, const struct csum_offload_req *r)
{
	if (!priv->sub.l4_hw)
		return CSUM_OFFLOAD_R_NO_ENGINE;
	if (r->flags & CSUM_OFFLOAD_F_CRC32C)
		return CSUM_OFFLOAD_R_CRC32C;
	if (r->csum_offset != CSUM_UDP_OFFSET && r->csum_offset != CSUM_TCP_OFFSET)
		return CSUM_OFFLOAD_R_OFFSET_MISMATCH;
	if (r->csum_start > MBUF_L2_MAX + MBUF_L3_MAX)
		return CSUM_OFFLOAD_R_START_TOO_FAR;
	return CSUM_OFFLOAD_OK;
}

/* The engine's verdict on r; *reason says why not. */
static bool
hw_can(const struct hwcsum_private *priv, struct rte_mbuf *m,
       const struct csum_offload_req *r, struct csum_offload_result *res,
       enum csum_offload_reason *reason)
{
	uint8_t copy[256];
	const uint8_t *hdr = copy;
	uint32_t hdr_len = 0;

	/* No engine (software only): the answer needs no header and no call. */
	if (priv->spec.engine == CSUM_ENGINE_NONE) {
		memset(res, 0, sizeof(*res));
		res->verdict = CSUM_OFFLOAD_SW;
		res->reason = CSUM_OFFLOAD_R_NO_ENGINE;
		*reason = csum_offload_req_valid(r, m->pkt_len) ?
			CSUM_OFFLOAD_R_NO_ENGINE : CSUM_OFFLOAD_R_UNPARSED;
		return false;
	}
	/* A parse engine reads headers: in place when the first segment has them. */
	if (priv->spec.engine == CSUM_ENGINE_PARSE) {
		hdr_len = RTE_MIN(m->pkt_len, (uint32_t)sizeof(copy));
		if (m->data_len >= hdr_len)
			hdr = rte_pktmbuf_mtod(m, const uint8_t *);
		else if (csum_mbuf_read(m, 0, hdr_len, copy) < 0)
			hdr_len = 0;
	}
	if (csum_offload_check(&priv->spec, r, hdr, hdr_len, m->pkt_len, res) < 0) {
		*reason = CSUM_OFFLOAD_R_UNPARSED;
		return false;
	}
	*reason = res->reason;
	if (res->verdict != CSUM_OFFLOAD_HW)
		return false;
	*reason = expressible(priv, r);
	return *reason == CSUM_OFFLOAD_OK;
}

static void
count_sw(struct hwcsum_txq_stats *st, const struct rte_mbuf *m,
	 uint32_t start, enum csum_offload_reason reason)
{
	st->c[HWCSUM_TX_L4_SW]++;
	st->c[HWCSUM_TX_SW_BYTES] += m->pkt_len - start;
	st->sw_reason[reason]++;
}

/*
 * Hand r to the sub-port: its engine sums from l2_len + l3_len. l2_len is
 * the IP header's offset where that is known and fits, so a driver that
 * also looks at l2_len (e1000's IPCSS) sees the real header.
 */
static void
hand_down(const struct hwcsum_private *priv, struct rte_mbuf *m,
	  const struct csum_offload_req *r, uint32_t l3, uint64_t *flags)
{
	struct rte_pmd_hwcsum_csum *f = dynfield(priv, m);
	uint32_t l2 = l3 != 0 && l3 <= MBUF_L2_MAX && r->csum_start - l3 <= MBUF_L3_MAX ?
		l3 : RTE_MIN(r->csum_start, (uint32_t)MBUF_L2_MAX);
	int ver = l3 != 0 ? ip_version_at(m, l3) : 0;

	m->outer_l2_len = 0;
	m->outer_l3_len = 0;
	m->l2_len = l2;
	m->l3_len = r->csum_start - l2;
	*flags |= r->csum_offset == CSUM_UDP_OFFSET ? RTE_MBUF_F_TX_UDP_CKSUM :
		RTE_MBUF_F_TX_TCP_CKSUM;
	if (ver == 4)
		*flags |= RTE_MBUF_F_TX_IPV4;
	else if (ver == 6)
		*flags |= RTE_MBUF_F_TX_IPV6;
	/* The request stays on the mbuf in generic form, for a retry. */
	f->start = r->csum_start;
	f->offset = r->csum_offset;
	*flags |= hwcsum_tx_partial(priv);
}

static int
l4_sw(struct rte_mbuf *m, const struct csum_offload_req *r)
{
	if (r->flags & CSUM_OFFLOAD_F_CRC32C)
		return csum_mbuf_apply_crc32c(m, r->csum_start, r->csum_offset);
	return csum_mbuf_apply_partial(m, r->csum_start, r->csum_offset);
}

int
hwcsum_tx_one_general(const struct hwcsum_private *priv, struct rte_mbuf *m,
		      struct hwcsum_txq_stats *st)
{
	struct csum_offload_req outer_req = { 0 };
	enum csum_offload_reason l4_why = CSUM_OFFLOAD_OK, outer_why = 0;
	struct csum_offload_result res, l4_res = { 0 };
	uint64_t flags = m->ol_flags;
	bool l4_hw = false, outer_hw = false, ip_hw;
	uint32_t l4_l3;
	struct tx_plan p;
	int ret;

	if (!(flags & request_mask(priv)))
		return 0;
	st->c[flags & hwcsum_tx_partial(priv) ? HWCSUM_TX_REQ_GENERIC :
	      HWCSUM_TX_REQ_DPDK]++;
	if (priv->sub.max_segs != 0 && m->nb_segs > priv->sub.max_segs)
		return -EINVAL;
	ret = plan_read(priv, m, &p);
	if (ret < 0)
		return ret;

	if (p.has_l4)
		l4_hw = hw_can(priv, m, &p.l4, &l4_res, &l4_why);
	/* Where the L4 header's IP header is, if anyone knows. */
	l4_l3 = p.l4.l3_off != 0 ? p.l4.l3_off : l4_res.l3_off;
	if (p.has_outer_udp) {
		outer_req.csum_start = p.outer_l4;
		outer_req.csum_offset = CSUM_UDP_OFFSET;
		outer_req.l3_off = p.outer_l3;
		/* The outer goes down only when the inner cannot. */
		outer_hw = !l4_hw && hw_can(priv, m, &outer_req, &res, &outer_why);
	}

	/*
	 * The IPv4 header goes down only where the device's IP context is
	 * that header (IPCSS = l2_len) and no checksum done here covers it.
	 */
	ip_hw = p.ip_sw && priv->sub.ip_hw && !p.encap && !p.has_outer_udp &&
		p.inner_l3 <= MBUF_L2_MAX && (l4_hw ? l4_l3 == p.inner_l3 : true);
	if (ip_hw)
		p.ip_sw = false;
	/* Headers first: the outer UDP checksum covers the inner IPv4 header. */
	if (p.ip_sw) {
		ret = csum_mbuf_ipv4_hdr_fill(m, p.inner_l3);
		if (ret < 0)
			return ret;
		st->c[HWCSUM_TX_IP_SW]++;
	}
	if (p.outer_ip_sw) {
		ret = csum_mbuf_ipv4_hdr_fill(m, p.outer_l3);
		if (ret < 0)
			return ret;
		st->c[HWCSUM_TX_IP_SW]++;
	}
	if (p.has_outer_udp && !outer_hw) {
		if (p.has_l4 && !(p.l4.flags & CSUM_OFFLOAD_F_CRC32C)) {
			/* The inner field still holds its seed: LCO. */
			ret = csum_mbuf_lco(m, p.outer_l4, CSUM_UDP_OFFSET,
					    p.l4.csum_start, p.l4.csum_offset);
			if (ret < 0)
				return ret;
			st->c[HWCSUM_TX_LCO]++;
		} else if (p.has_l4) {
			/* A CRC32c inner is no ones' complement sum: finish it first. */
			ret = l4_sw(m, &p.l4);
			if (ret < 0)
				return ret;
			st->c[HWCSUM_TX_CRC32C_SW]++;
			p.has_l4 = false;
			ret = csum_mbuf_apply_partial(m, p.outer_l4, CSUM_UDP_OFFSET);
			if (ret < 0)
				return ret;
			count_sw(st, m, p.outer_l4, outer_why);
		} else {
			ret = csum_mbuf_apply_partial(m, p.outer_l4, CSUM_UDP_OFFSET);
			if (ret < 0)
				return ret;
			count_sw(st, m, p.outer_l4, outer_why);
		}
	}
	if (p.has_l4 && !l4_hw) {
		ret = l4_sw(m, &p.l4);
		if (ret < 0)
			return ret;
		if (p.l4.flags & CSUM_OFFLOAD_F_CRC32C)
			st->c[HWCSUM_TX_CRC32C_SW]++;
		else
			count_sw(st, m, p.l4.csum_start, l4_why);
	}

	/* What is left for the sub-port, and nothing else. */
	flags &= ~(REQUEST_FLAGS | hwcsum_tx_partial(priv));
	m->outer_l2_len = 0;
	m->outer_l3_len = 0;
	if (l4_hw) {
		hand_down(priv, m, &p.l4, l4_l3, &flags);
		st->c[HWCSUM_TX_L4_HW]++;
	} else if (outer_hw) {
		hand_down(priv, m, &outer_req, p.outer_l3, &flags);
		st->c[HWCSUM_TX_OUTER_UDP_HW]++;
	}
	if (ip_hw) {
		/* Devices sum the header as it is (e1000's IPCSS..IPCSE): the
		 * field must be 0, which DPDK leaves to tx_prepare. */
		const uint16_t zero = 0;

		if (csum_mbuf_write(m, p.inner_l3 + 10, sizeof(zero), &zero) < 0)
			return -EINVAL;
		if (!l4_hw) {
			m->l2_len = p.inner_l3;
			m->l3_len = p.inner_l3_len;
		}
		flags |= RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_IPV4;
		st->c[HWCSUM_TX_IP_HW]++;
	}
	m->ol_flags = flags;
	return 0;
}

/* ------------------------------------------------------- the fast path */

/*
 * Where no engine takes anything (tx_engine=none), every request is done
 * here, and what is done depends only on ol_flags and the lengths: one
 * plan, kept for as long as the packets of a burst say the same thing.
 * The packet's bytes are never assumed: csum_tx_apply() checks each
 * packet's headers and declines whatever the general path
 * (hwcsum_tx_one_general(), the reference) must judge.
 */
struct tx_fast_plan {
	uint64_t ol_flags, tx_offload;	/* the key */
	bool ok;			/* false: the general path */
	bool generic;			/* start/offset from the dynfield */
	bool lco, outer_sum, l4;
	uint8_t ip_sw;			/* IPv4 headers filled */
	uint8_t l4_why;			/* sw_reason of the L4 checksum */
	uint64_t out_flags_mask;	/* ol_flags kept for the sub-port */
	struct csum_tx_work w;
};

/*
 * Counters of a run of fast packets, added to the queue's once. A plan
 * without a generic request counts the same for each of its packets but
 * the bytes: those count only how many and how long (run_n, run_len) and
 * become counters when the plan changes (fast_run_end()).
 */
struct tx_fast_counts {
	uint64_t req_dpdk, req_generic, ip_sw, lco, l4_sw, sw_bytes;
	uint64_t why[2];	/* NO_ENGINE, UNPARSED */
	uint64_t run_n, run_len;
};

/* csum_offload_req_valid()'s verdict as hw_can() turns it into a reason. */
static inline uint8_t
no_engine_why(bool valid)
{
	return valid ? 0 : 1;
}

static void
fast_plan(const struct hwcsum_private *priv, const struct rte_mbuf *m,
	  struct tx_fast_plan *fp)
{
	uint64_t fl = m->ol_flags, l4f = fl & RTE_MBUF_F_TX_L4_MASK;
	uint32_t outer_l3 = m->outer_l2_len, outer_l4 = outer_l3 + m->outer_l3_len;
	uint32_t l3 = outer_l4 + m->l2_len, l4 = l3 + m->l3_len;
	bool encap = (fl & RTE_MBUF_F_TX_TUNNEL_MASK) || m->outer_l3_len != 0;
	bool outer_udp = fl & RTE_MBUF_F_TX_OUTER_UDP_CKSUM;
	struct csum_tx_work *w = &fp->w;

	memset(fp, 0, sizeof(*fp));
	fp->ol_flags = fl;
	fp->tx_offload = m->tx_offload;
	fp->out_flags_mask = ~(REQUEST_FLAGS | hwcsum_tx_partial(priv));
	if (priv->spec.engine != CSUM_ENGINE_NONE || (fl & SEG_FLAGS))
		return;
	if (outer_udp && m->outer_l3_len == 0)
		return;
	/* An IPv4 header the sub-port would fill: the general path's case. */
	if ((fl & RTE_MBUF_F_TX_IP_CKSUM) && priv->sub.ip_hw && !encap &&
	    !outer_udp && l3 <= MBUF_L2_MAX)
		return;
	w->outer_l3 = outer_l3;
	w->outer_l3_len = m->outer_l3_len;
	w->outer_l4 = outer_l4;
	w->l3 = l3;
	w->l3_len = m->l3_len;
	if (fl & hwcsum_tx_partial(priv)) {
		fp->generic = true;
		fp->l4 = true;
		w->ops |= CSUM_TX_L4;
	} else if (l4f == RTE_MBUF_F_TX_UDP_CKSUM || l4f == RTE_MBUF_F_TX_TCP_CKSUM) {
		bool udp = l4f == RTE_MBUF_F_TX_UDP_CKSUM;

		fp->l4 = true;
		w->ops |= CSUM_TX_SEED_L4 | CSUM_TX_L4;
		w->l4_proto = udp ? IPPROTO_UDP : IPPROTO_TCP;
		w->csum_start = l4;
		w->csum_offset = udp ? CSUM_UDP_OFFSET : CSUM_TCP_OFFSET;
		/* csum_offload_req_valid() on { l4, l3, encap }: the field is
		 * inside the packet whenever the seed could be written. */
		fp->l4_why = no_engine_why(!(encap && l3 == 0) &&
					   (l3 == 0 || l3 < l4));
	} else if (l4f != 0) {
		return;	/* SCTP's CRC32c, or no L4 type at all */
	}
	if (outer_udp) {
		w->ops |= CSUM_TX_SEED_OUTER;
		if (fp->l4) {
			w->ops |= CSUM_TX_OUTER_LCO;
			fp->lco = true;
		} else {
			w->ops |= CSUM_TX_OUTER_SUM;
			fp->outer_sum = true;
		}
	}
	if (fl & RTE_MBUF_F_TX_IP_CKSUM) {
		w->ops |= CSUM_TX_IP;
		fp->ip_sw++;
	}
	if (fl & RTE_MBUF_F_TX_OUTER_IP_CKSUM) {
		w->ops |= CSUM_TX_OUTER_IP;
		fp->ip_sw++;
	}
	/* The offsets are the run's: checked here once (a generic request
	 * brings its own per packet, checked with it). */
	fp->ok = fp->generic || csum_tx_work_check(w);
}

/*
 * The packet's own part of a generic request: start/offset, and the
 * reason hw_can() would give (l3_off known only in the hand-off form).
 */
static inline void
fast_generic(const struct hwcsum_private *priv, const struct rte_mbuf *m,
	     struct tx_fast_plan *fp)
{
	const struct rte_pmd_hwcsum_csum *f =
		RTE_MBUF_DYNFIELD(m, priv->dynfield_off,
				  const struct rte_pmd_hwcsum_csum *);
	uint64_t fl = m->ol_flags;
	uint32_t l3_off = 0;

	fp->w.csum_start = f->start;
	fp->w.csum_offset = f->offset;
	if ((fl & RTE_MBUF_F_TX_L4_MASK) &&
	    (fl & (RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6)) &&
	    m->outer_l3_len == 0 && m->l2_len != 0 &&
	    (uint32_t)m->l2_len + m->l3_len == f->start)
		l3_off = m->l2_len;
	fp->l4_why = no_engine_why(l3_off == 0 || l3_off < f->start);
}

/* One packet by the plan; false: nothing done, the general path's turn. */
static __rte_always_inline bool
fast_one(const struct hwcsum_private *priv, struct rte_mbuf *m,
	 struct tx_fast_plan *fp, struct tx_fast_counts *fc)
{
	if (fp->generic)
		fast_generic(priv, m, fp);
	if (!csum_tx_apply(m, &fp->w))
		return false;
	if (!fp->generic) {
		fc->run_n++;
		fc->run_len += m->pkt_len;
		goto done;
	}
	fc->req_generic++;
	fc->ip_sw += fp->ip_sw;
	fc->lco += fp->lco;
	if (fp->outer_sum) {
		fc->l4_sw++;
		fc->sw_bytes += m->pkt_len - fp->w.outer_l4;
		fc->why[0]++;	/* the outer request is always valid here */
	}
	if (fp->l4) {
		fc->l4_sw++;
		fc->sw_bytes += m->pkt_len - fp->w.csum_start;
		fc->why[fp->l4_why]++;
	}
done:
	m->ol_flags &= fp->out_flags_mask;
	m->outer_l2_len = 0;
	m->outer_l3_len = 0;
	return true;
}

/* The run of fp's packets (without a generic request) into the counters. */
static inline void
fast_run_end(const struct tx_fast_plan *fp, struct tx_fast_counts *fc)
{
	uint64_t n = fc->run_n;

	if (n == 0)
		return;
	fc->req_dpdk += n;
	fc->ip_sw += n * fp->ip_sw;
	fc->lco += n * fp->lco;
	if (fp->outer_sum) {
		fc->l4_sw += n;
		fc->sw_bytes += fc->run_len - n * fp->w.outer_l4;
		fc->why[0] += n;	/* the outer request is always valid here */
	}
	if (fp->l4) {
		fc->l4_sw += n;
		fc->sw_bytes += fc->run_len - n * fp->w.csum_start;
		fc->why[fp->l4_why] += n;
	}
	fc->run_n = 0;
	fc->run_len = 0;
}

static inline void
fast_counts_add(struct hwcsum_txq_stats *st, const struct tx_fast_counts *fc)
{
	st->c[HWCSUM_TX_REQ_DPDK] += fc->req_dpdk;
	st->c[HWCSUM_TX_REQ_GENERIC] += fc->req_generic;
	st->c[HWCSUM_TX_IP_SW] += fc->ip_sw;
	st->c[HWCSUM_TX_LCO] += fc->lco;
	st->c[HWCSUM_TX_L4_SW] += fc->l4_sw;
	st->c[HWCSUM_TX_SW_BYTES] += fc->sw_bytes;
	st->sw_reason[CSUM_OFFLOAD_R_NO_ENGINE] += fc->why[0];
	st->sw_reason[CSUM_OFFLOAD_R_UNPARSED] += fc->why[1];
}

/* The chain limit comes first, as in the general path. */
static inline bool
fast_segs_ok(const struct hwcsum_private *priv, const struct rte_mbuf *m)
{
	return priv->sub.max_segs == 0 || m->nb_segs <= priv->sub.max_segs;
}

int
hwcsum_tx_one(const struct hwcsum_private *priv, struct rte_mbuf *m,
	      struct hwcsum_txq_stats *st)
{
	struct tx_fast_counts fc = { 0 };
	struct tx_fast_plan fp;

	if (!(m->ol_flags & request_mask(priv)))
		return 0;
	if (priv->spec.engine == CSUM_ENGINE_NONE && fast_segs_ok(priv, m)) {
		fast_plan(priv, m, &fp);
		if (fp.ok && fast_one(priv, m, &fp, &fc)) {
			fast_run_end(&fp, &fc);
			fast_counts_add(st, &fc);
			return 0;
		}
	}
	return hwcsum_tx_one_general(priv, m, st);
}

bool
hwcsum_tx_usual_work(const struct hwcsum_private *priv, const struct rte_mbuf *m,
		     struct csum_tx_work *w)
{
	struct tx_fast_plan fp;

	fast_plan(priv, m, &fp);
	*w = fp.w;
	return fp.ok && !fp.generic && (fp.w.ops & CSUM_TX_F_USUAL);
}

/*
 * Resolve pkts[0..n): ret[i] as hwcsum_tx_one() would return it, the
 * plan made once per run of packets with the same flags and lengths, the
 * counters added once.
 */
void
hwcsum_tx_resolve(const struct hwcsum_private *priv, struct rte_mbuf **pkts,
		  uint16_t n, struct hwcsum_txq_stats *st, int *ret)
{
	uint64_t mask = request_mask(priv);
	struct tx_fast_counts fc = { 0 };
	struct tx_fast_plan fp;
	bool fast = priv->spec.engine == CSUM_ENGINE_NONE;
	uint16_t i;

	fp.ok = false;
	fp.ol_flags = 0;
	fp.tx_offload = 0;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		ret[i] = 0;
		if (!(m->ol_flags & mask))
			continue;
		if (fast && fast_segs_ok(priv, m)) {
			if (m->ol_flags != fp.ol_flags || m->tx_offload != fp.tx_offload) {
				fast_run_end(&fp, &fc);
				fast_plan(priv, m, &fp);
			}
			if (fp.ok && fast_one(priv, m, &fp, &fc))
				continue;
		}
		ret[i] = hwcsum_tx_one_general(priv, m, st);
	}
	fast_run_end(&fp, &fc);
	fast_counts_add(st, &fc);
}

/* Keep pkts[0..n) as the caller must see it: the first `done` consumed. */
static uint16_t
send_chunk(struct hwcsum_txq *txq, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *good[TX_CHUNK];
	int ret[TX_CHUNK];
	uint16_t ng = 0, sent, i, left;

	hwcsum_tx_resolve(txq->priv, pkts, n, &txq->stats, ret);
	for (i = 0; i < n; i++) {
		if (likely(ret[i] == 0)) {
			good[ng++] = pkts[i];
			continue;
		}
		/* A request that can never be met: dropped, freed, counted. */
		txq->stats.c[HWCSUM_TX_BAD_REQUEST]++;
		rte_pktmbuf_free(pkts[i]);
	}
	sent = ng ? hwcsum_sub_tx(txq, good, ng) : 0;
	left = ng - sent;
	/* Unsent packets go to the tail, where the caller retries from. */
	for (i = 0; i < left; i++)
		pkts[n - left + i] = good[sent + i];
	return n - left;
}

/* A burst with requests: resolved and handed down chunk by chunk. */
static __rte_noinline uint16_t
tx_burst_requests(struct hwcsum_txq *txq, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t done = 0;

	while (done < n) {
		uint16_t chunk = RTE_MIN(n - done, TX_CHUNK);
		uint16_t took = send_chunk(txq, pkts + done, chunk);

		done += took;
		if (took < chunk)
			break;
	}
	return done;
}

/*
 * Kept small for pass-through: one look at every packet, without a branch
 * per packet, then straight down; the work is out of line.
 */
uint16_t
hwcsum_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_txq *txq = queue;
	const struct hwcsum_private *priv = txq->priv;
	uint64_t any = 0;
	unsigned int i;

	if (unlikely(priv->sub_closed))
		return hwcsum_tx_burst_raw(queue, pkts, n);
	for (i = 0; i + 4 <= n; i += 4)
		any |= pkts[i]->ol_flags | pkts[i + 1]->ol_flags |
			pkts[i + 2]->ol_flags | pkts[i + 3]->ol_flags;
	for (; i < n; i++)
		any |= pkts[i]->ol_flags;
	/* One packet in, many out: segments keep their order (hwcsum_tso.c). */
	if (unlikely((any & SEG_FLAGS) || txq->tso.n != 0))
		return hwcsum_tso_burst(txq, pkts, n);
	if (likely(!(any & request_mask(priv))))	/* nothing asked of us */
		return hwcsum_sub_tx(txq, pkts, n);
	return tx_burst_requests(txq, pkts, n);
}

/*
 * tx_prepare: what tx_burst would refuse, refused early with DPDK's errno.
 * What the flags and lengths alone decide (segmentation,
 * rte_validate_tx_offload(), which looks at nothing else once segmentation
 * is refused, the header lengths, how long the packet must be) is taken
 * once per run of packets with the same ol_flags and lengths; the rest
 * (the packet's length, chain and IPv4 version bytes) per packet.
 */
struct prep_plan {
	uint64_t ol_flags, tx_offload;	/* the key */
	int verdict;			/* of the flags and lengths */
	uint32_t min_len;		/* the packet must be this long */
	uint32_t l3, l3_len, outer_l3, outer_l3_len;
	bool ip, outer_ip;
	/* The one first byte an IPv4 header of l3_len / outer_l3_len has. */
	uint8_t ip_byte, outer_ip_byte;
};

/* 0x45 for 20 bytes; 0 for a length no IPv4 header has (refused). */
static inline uint8_t
ipv4_first_byte(uint32_t len)
{
	return len % 4 == 0 && len / 4 <= 15 ? (uint8_t)(0x40 | len / 4) : 0;
}

static void
prep_plan_make(const struct hwcsum_private *priv, const struct rte_mbuf *m,
	       struct prep_plan *pp)
{
	uint64_t fl = m->ol_flags;
	uint32_t outer_l3 = m->outer_l2_len, outer_l4 = outer_l3 + m->outer_l3_len;
	uint32_t l3 = outer_l4 + m->l2_len, l4 = l3 + m->l3_len;

	memset(pp, 0, sizeof(*pp));
	pp->ol_flags = fl;
	pp->tx_offload = m->tx_offload;
	pp->l3 = l3;
	pp->l3_len = m->l3_len;
	pp->outer_l3 = outer_l3;
	pp->outer_l3_len = m->outer_l3_len;
	if (fl & SEG_FLAGS) {
		pp->verdict = -ENOTSUP;
		return;
	}
	pp->verdict = -EINVAL;
	if (rte_validate_tx_offload(m) != 0 && !(fl & hwcsum_tx_partial(priv)))
		return;
	if (!(fl & hwcsum_tx_partial(priv)) && (fl & RTE_MBUF_F_TX_L4_MASK))
		pp->min_len = l4 + 8;
	if (fl & RTE_MBUF_F_TX_OUTER_UDP_CKSUM) {
		if (m->outer_l3_len == 0)
			return;
		pp->min_len = RTE_MAX(pp->min_len, outer_l4 + 8);
	}
	if (fl & RTE_MBUF_F_TX_IP_CKSUM) {
		if (m->l3_len < 20)
			return;
		pp->ip = true;
		pp->ip_byte = ipv4_first_byte(m->l3_len);
		if (pp->ip_byte == 0)
			return;
		pp->min_len = RTE_MAX(pp->min_len, l3 + m->l3_len);
	}
	if (fl & RTE_MBUF_F_TX_OUTER_IP_CKSUM) {
		if (m->outer_l3_len < 20)
			return;
		pp->outer_ip = true;
		pp->outer_ip_byte = ipv4_first_byte(m->outer_l3_len);
		if (pp->outer_ip_byte == 0)
			return;
		pp->min_len = RTE_MAX(pp->min_len, outer_l4);
	}
	pp->verdict = 0;
}

/* The version byte of an IPv4 header of exactly len bytes at off, in a chain. */
static inline bool
ipv4_byte_ok(const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	uint8_t b;

	if (csum_mbuf_read(m, off, 1, &b) < 0)
		return false;
	return b >> 4 == 4 && (b & 0xf) * 4u == len;
}

static inline int
tx_validate(const struct hwcsum_private *priv, const struct rte_mbuf *m,
	    const struct prep_plan *pp)
{
	if (pp->verdict != 0)
		return pp->verdict;
	if (priv->sub.max_segs != 0 && m->nb_segs > priv->sub.max_segs)
		return -EINVAL;
	if (m->pkt_len < pp->min_len)
		return -EINVAL;
	if (pp->ol_flags & hwcsum_tx_partial(priv)) {
		const struct rte_pmd_hwcsum_csum *f =
			RTE_MBUF_DYNFIELD(m, priv->dynfield_off,
					  const struct rte_pmd_hwcsum_csum *);

		if ((uint32_t)f->start + f->offset + 2 > m->pkt_len)
			return -EINVAL;
	}
	if (!pp->ip && !pp->outer_ip)
		return 0;
	/* In place when the first segment holds the packet (each header is
	 * within pkt_len already): the byte the plan expects. */
	if (likely(m->pkt_len <= m->data_len)) {
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

		if ((pp->ip && p[pp->l3] != pp->ip_byte) ||
		    (pp->outer_ip && p[pp->outer_l3] != pp->outer_ip_byte))
			return -EINVAL;
		return 0;
	}
	if (pp->ip && !ipv4_byte_ok(m, pp->l3, pp->l3_len))
		return -EINVAL;
	if (pp->outer_ip && !ipv4_byte_ok(m, pp->outer_l3, pp->outer_l3_len))
		return -EINVAL;
	return 0;
}

uint16_t
hwcsum_tx_prepare(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_txq *txq = queue;
	const struct hwcsum_private *priv = txq->priv;
	uint64_t mask = request_mask(priv);
	struct prep_plan pp = { .ol_flags = 0 };
	uint16_t i;

	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];
		int ret;

		if (!(m->ol_flags & mask))
			continue;
		if (unlikely(m->ol_flags & SEG_FLAGS)) {
			ret = hwcsum_tso_validate(priv, m);
		} else {
			if (m->ol_flags != pp.ol_flags ||
			    m->tx_offload != pp.tx_offload)
				prep_plan_make(priv, m, &pp);
			ret = tx_validate(priv, m, &pp);
		}
		if (ret < 0) {
			txq->stats.c[HWCSUM_TX_PREP_REFUSED]++;
			rte_errno = -ret;
			return i;
		}
	}
	return n;
}
