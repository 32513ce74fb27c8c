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
#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

#define PROTO_TCP 6
#define PROTO_UDP 17
#define PROTO_SCTP 132
#define UDP_CSUM_OFF 6
#define TCP_CSUM_OFF 16
#define SCTP_CSUM_OFF 8
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
	return priv->tx_partial_flag | DPDK_CSUM_FLAGS | SEG_FLAGS;
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
 * An IPv4 header at off whose checksum the flags ask for: len (l3_len) is
 * its whole header, options included, and it lies within the packet, so a
 * device told IPCSS/IPCSE from it stays inside the packet too.
 */
static inline int
ipv4_expected(const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	uint8_t b;

	if (len < 20 || (uint64_t)off + len > m->pkt_len ||
	    csum_mbuf_read(m, off, 1, &b) < 0)
		return -EINVAL;
	return b >> 4 == 4 && (b & 0xf) * 4u == len ? 0 : -EINVAL;
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
		return -ENOTSUP; /* hwcsum offers no segmentation offload */
	if (fl & priv->tx_partial_flag) {
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
			p->l4.csum_offset = UDP_CSUM_OFF;
			ret = csum_mbuf_seed_l4(m, l3, l4, PROTO_UDP);
		} else if (l4f == RTE_MBUF_F_TX_TCP_CKSUM) {
			p->l4.csum_offset = TCP_CSUM_OFF;
			ret = csum_mbuf_seed_l4(m, l3, l4, PROTO_TCP);
		} else if (l4f == RTE_MBUF_F_TX_SCTP_CKSUM) {
			p->l4.csum_offset = SCTP_CSUM_OFF;
			p->l4.flags |= CSUM_OFFLOAD_F_CRC32C;
			ret = l4 + SCTP_CSUM_OFF + 4 <= m->pkt_len &&
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
		ret = csum_mbuf_seed_l4(m, outer_l3, outer_l4, PROTO_UDP);
		if (ret < 0)
			return ret;
		/* LCO and the ordering below need the inner L4 behind it. */
		if (p->has_l4 && p->l4.csum_start <= outer_l4 + UDP_CSUM_OFF + 1)
			return -EINVAL;
	}
	if (fl & RTE_MBUF_F_TX_IP_CKSUM) {
		if (ipv4_expected(m, l3, m->l3_len) < 0)
			return -EINVAL;
		p->ip_sw = true;
	}
	if (fl & RTE_MBUF_F_TX_OUTER_IP_CKSUM) {
		if (ipv4_expected(m, outer_l3, m->outer_l3_len) < 0)
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
	if (r->csum_offset != UDP_CSUM_OFF && r->csum_offset != TCP_CSUM_OFF)
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
	*flags |= r->csum_offset == UDP_CSUM_OFF ? RTE_MBUF_F_TX_UDP_CKSUM :
		RTE_MBUF_F_TX_TCP_CKSUM;
	if (ver == 4)
		*flags |= RTE_MBUF_F_TX_IPV4;
	else if (ver == 6)
		*flags |= RTE_MBUF_F_TX_IPV6;
	/* The request stays on the mbuf in generic form, for a retry. */
	f->start = r->csum_start;
	f->offset = r->csum_offset;
	*flags |= priv->tx_partial_flag;
}

static int
l4_sw(struct rte_mbuf *m, const struct csum_offload_req *r)
{
	if (r->flags & CSUM_OFFLOAD_F_CRC32C)
		return csum_mbuf_apply_crc32c(m, r->csum_start, r->csum_offset);
	return csum_mbuf_apply_partial(m, r->csum_start, r->csum_offset);
}

int
hwcsum_tx_one(const struct hwcsum_private *priv, struct rte_mbuf *m,
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
	st->c[flags & priv->tx_partial_flag ? HWCSUM_TX_REQ_GENERIC :
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
		outer_req.csum_offset = UDP_CSUM_OFF;
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
			ret = csum_mbuf_lco(m, p.outer_l4, UDP_CSUM_OFF,
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
			ret = csum_mbuf_apply_partial(m, p.outer_l4, UDP_CSUM_OFF);
			if (ret < 0)
				return ret;
			count_sw(st, m, p.outer_l4, outer_why);
		} else {
			ret = csum_mbuf_apply_partial(m, p.outer_l4, UDP_CSUM_OFF);
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
	flags &= ~(REQUEST_FLAGS | priv->tx_partial_flag);
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

/* Keep pkts[0..n) as the caller must see it: the first `done` consumed. */
static uint16_t
send_chunk(struct hwcsum_txq *txq, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *good[TX_CHUNK];
	uint16_t ng = 0, sent, i, left;

	for (i = 0; i < n; i++) {
		int ret = hwcsum_tx_one(txq->priv, pkts[i], &txq->stats);

		if (likely(ret == 0)) {
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
	if (likely(!(any & request_mask(priv))))	/* nothing asked of us */
		return hwcsum_sub_tx(txq, pkts, n);
	return tx_burst_requests(txq, pkts, n);
}

/* tx_prepare: what tx_burst would refuse, refused early with DPDK's errno. */
static int
tx_validate(const struct hwcsum_private *priv, const struct rte_mbuf *m)
{
	uint64_t fl = m->ol_flags;
	uint32_t outer_l3 = m->outer_l2_len, outer_l4 = outer_l3 + m->outer_l3_len;
	uint32_t l3 = outer_l4 + m->l2_len, l4 = l3 + m->l3_len;

	if (fl & SEG_FLAGS)
		return -ENOTSUP;
	if (priv->sub.max_segs != 0 && m->nb_segs > priv->sub.max_segs)
		return -EINVAL;
	if (rte_validate_tx_offload(m) != 0 && !(fl & priv->tx_partial_flag))
		return -EINVAL;
	if (fl & priv->tx_partial_flag) {
		const struct rte_pmd_hwcsum_csum *f =
			RTE_MBUF_DYNFIELD(m, priv->dynfield_off,
					  const struct rte_pmd_hwcsum_csum *);

		if ((uint32_t)f->start + f->offset + 2 > m->pkt_len)
			return -EINVAL;
	} else if ((fl & RTE_MBUF_F_TX_L4_MASK) && l4 + 8 > m->pkt_len) {
		return -EINVAL;
	}
	if ((fl & RTE_MBUF_F_TX_OUTER_UDP_CKSUM) &&
	    (m->outer_l3_len == 0 || outer_l4 + 8 > m->pkt_len))
		return -EINVAL;
	if ((fl & RTE_MBUF_F_TX_IP_CKSUM) && ipv4_expected(m, l3, m->l3_len) < 0)
		return -EINVAL;
	if ((fl & RTE_MBUF_F_TX_OUTER_IP_CKSUM) &&
	    ipv4_expected(m, outer_l3, m->outer_l3_len) < 0)
		return -EINVAL;
	return 0;
}

uint16_t
hwcsum_tx_prepare(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct hwcsum_txq *txq = queue;
	uint64_t mask = request_mask(txq->priv);
	uint16_t i;

	for (i = 0; i < n; i++) {
		int ret;

		if (!(pkts[i]->ol_flags & mask))
			continue;
		ret = tx_validate(txq->priv, pkts[i]);
		if (ret < 0) {
			txq->stats.c[HWCSUM_TX_PREP_REFUSED]++;
			rte_errno = -ret;
			return i;
		}
	}
	return n;
}
