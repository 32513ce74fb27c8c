/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target for the transmit resolve path, hwcsum_tx_one(), on a bare
 * struct hwcsum_private (no ethdev, no EAL): any TX checksum request
 * (DPDK's flags, tunnel bits, the generic CHECKSUM_PARTIAL dynflag), any
 * l2_len..outer_l3_len, any engine spec and sub-port caps, any chain.
 *
 * Input: byte 0 picks the mode.
 *  - raw (odd): everything from the input, packet bytes included.
 *  - structured (even): a well-formed packet (tags, IPv4 options, IPv6
 *    extension header, VXLAN/GENEVE/GPE/GUE, UDP/TCP/SCTP) and a request
 *    an application would make for it, sometimes corrupted on purpose.
 *
 * Invariants (fuzz_fail() aborts with a reproducer):
 *  - no crash, no access outside a segment (ASan), no UB (UBSan);
 *  - 0 or a documented negative errno (-EINVAL, -ENOTSUP);
 *  - a packet without a request comes back untouched;
 *  - only what the sub-port can do is handed to it, in the sub-port's form
 *    (L4 UDP/TCP at l2_len + l3_len, IPv4 header at l2_len), and never to
 *    an engine whose limits it exceeds;
 *  - a retry (hwcsum_tx_one() again on the result) puts the same bytes on
 *    the wire once the sub-port did its part (it may split the work
 *    differently only for engines that need the tunnel context);
 *  - structured, uncorrupted: the request succeeds unless the chain is
 *    longer than the sub-port takes (-EINVAL); after the sub-port did its
 *    part (simulated from the flags), every requested checksum verifies
 *    against byte-wise references, and no other byte changed.
 */
#include <errno.h>
#include <stddef.h>

#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

#include "fuzz_common.h"

#define TARGET "fuzz_tx"
#define PARTIAL_FLAG (UINT64_C(1) << 30)
#define TX_FLAGS_ALL (((UINT64_C(1) << 61) - 1) & ~((UINT64_C(1) << 41) - 1))
#define L4_FLAGS ((uint64_t)RTE_MBUF_F_TX_L4_MASK)
#define SEG_FLAGS (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_UDP_SEG)
/* What the sub-port may still see after hwcsum resolved a request. */
#define LEFT_FLAGS (RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_TCP_CKSUM | \
		    RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_IPV4 | \
		    RTE_MBUF_F_TX_IPV6 | PARTIAL_FLAG)
#define REQ_FLAGS (RTE_MBUF_F_TX_IP_CKSUM | L4_FLAGS | \
		   RTE_MBUF_F_TX_OUTER_IP_CKSUM | RTE_MBUF_F_TX_OUTER_UDP_CKSUM | \
		   RTE_MBUF_F_TX_TUNNEL_MASK | RTE_MBUF_F_TX_OUTER_IPV4 | \
		   RTE_MBUF_F_TX_OUTER_IPV6 | RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6)

/* How far inputs got, so the seeded run can prove it reached the deep paths. */
struct fuzz_tx_stats {
	unsigned long inputs, structured, verified, refused, too_many_segs,
		seg_refused, retried, retry_resplit;
	struct hwcsum_txq_stats q;
} fuzz_tx_stats;

static uint8_t pkt[FZ_PKT_MAX], rnd[FZ_PKT_MAX];
static uint8_t before[65536 + 256], after[65536 + 256], again[65536 + 256];
/* The same two, as the wire sees them once the sub-port did its part. */
static uint8_t after_wire[65536 + 256], again_wire[65536 + 256];

static struct rte_pmd_hwcsum_csum *
field_of(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, offsetof(struct rte_mbuf, dynfield1),
				 struct rte_pmd_hwcsum_csum *);
}

static void
priv_from_input(struct fz_in *in, struct hwcsum_private *priv)
{
	uint8_t e = fz_u8(in), c = fz_u8(in);
	uint16_t bits = fz_u16(in), a = fz_u16(in), b = fz_u16(in);
	struct csum_offload_spec *s = &priv->spec;

	memset(priv, 0, sizeof(*priv));
	priv->dynfield_off = offsetof(struct rte_mbuf, dynfield1);
	priv->tx_partial_flag = PARTIAL_FLAG;
	priv->rx_complete_flag = UINT64_C(1) << 31;
	s->engine = e % 3;
	if (s->engine == CSUM_ENGINE_GENERIC) {
		switch ((e >> 2) & 3) {
		case 0:	/* e1000: 8-bit TUCSS/TUCSO */
			s->max_csum_start = 255;
			s->max_csum_field = 255;
			break;
		case 1:	/* what l2_len + l3_len can say */
			s->max_csum_start = 638;
			s->max_csum_field = 654;
			break;
		case 2:
			s->max_csum_start = a % 128;
			s->max_csum_field = b % 160;
			break;
		default:
			s->max_csum_start = a;
			s->max_csum_field = b;
			break;
		}
	} else if (s->engine == CSUM_ENGINE_PARSE) {
		if ((e >> 2) & 1) {
			bits = 0x00ff;	/* hwcsum_sub.c's parse default, roughly */
		}
		s->ipv4_okay = bits & 1;
		s->ipv6_okay = bits >> 1 & 1;
		s->encap_okay = bits >> 2 & 1;
		s->ip_options_okay = bits >> 3 & 1;
		s->ext_hdrs_okay = bits >> 4 & 1;
		s->tcp_okay = bits >> 5 & 1;
		s->udp_okay = bits >> 6 & 1;
		s->vlan_okay = bits >> 7 & 1;
		s->no_encapped_ipv6 = bits >> 8 & 1;
		s->no_not_encapped = bits >> 9 & 1;
	}
	s->sctp_okay = bits >> 10 & 1;
	/* As hwcsum_sub_caps_decide() sets them, or (c bit 0) anything. */
	if (c & 1) {
		priv->sub.l4_hw = c >> 1 & 1;
		priv->sub.ip_hw = c >> 2 & 1;
	} else {
		priv->sub.l4_hw = s->engine != CSUM_ENGINE_NONE;
		priv->sub.ip_hw = priv->sub.l4_hw && (c >> 2 & 1);
	}
	priv->sub.max_segs = (c >> 3) < 24 ? 0 : (c >> 3) - 23; /* 0, or 1..8 */
}

/* Bytes the chain really holds (pkt_len may lie). */
static uint32_t chain_len;

static bool
ranges_meet(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * A request whose checksum field lies in a header the same request has
 * hwcsum check (an L4 field inside the IPv4 header it asks to fill): the
 * software write breaks that header, so a retry may refuse the packet.
 * Garbage in, garbage out; only memory safety is asked of those.
 */
static bool
self_overlapping(const struct rte_mbuf *m)
{
	uint64_t fl = m->ol_flags;
	uint32_t outer_l3 = m->outer_l2_len, outer_l4 = outer_l3 + m->outer_l3_len;
	uint32_t l3 = outer_l4 + m->l2_len;
	const struct rte_pmd_hwcsum_csum *f = field_of((struct rte_mbuf *)(uintptr_t)m);
	uint32_t fields[2], n = 0, i;

	if (fl & PARTIAL_FLAG)
		fields[n++] = (uint32_t)f->start + f->offset;
	if (fl & RTE_MBUF_F_TX_OUTER_UDP_CKSUM)
		fields[n++] = outer_l4 + 6;
	for (i = 0; i < n; i++) {
		if ((fl & RTE_MBUF_F_TX_IP_CKSUM) && ranges_meet(fields[i], 2, l3, 60))
			return true;
		if ((fl & RTE_MBUF_F_TX_OUTER_IP_CKSUM) &&
		    ranges_meet(fields[i], 2, outer_l3, 60))
			return true;
	}
	return false;
}

/* What the sub-port is asked to do, to compare a retry with the first try. */
struct hw_work {
	uint64_t l4, ip;
	uint32_t l4_start, ip_at;
};

static struct hw_work
hw_work_of(const struct rte_mbuf *m)
{
	struct hw_work w = { .l4 = m->ol_flags & L4_FLAGS,
			     .ip = m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM };

	if (w.l4)
		w.l4_start = m->l2_len + m->l3_len;
	if (w.ip)
		w.ip_at = m->l2_len;
	return w;
}

/* Only what the sub-port can do, in its form. */
static void
check_handed_down(const struct hwcsum_private *priv, struct rte_mbuf *m,
		  uint64_t flags_in, const uint8_t *img)
{
	uint64_t fl = m->ol_flags;
	const struct rte_pmd_hwcsum_csum *f = field_of(m);

	if ((fl ^ flags_in) & ~(REQ_FLAGS | PARTIAL_FLAG))
		fuzz_fail(TARGET, "flags outside the request changed: %#" PRIx64
			  " -> %#" PRIx64, flags_in, fl);
	if (fl & REQ_FLAGS & ~LEFT_FLAGS)
		fuzz_fail(TARGET, "request flags left for the sub-port: %#" PRIx64, fl);
	if (m->outer_l2_len != 0 || m->outer_l3_len != 0)
		fuzz_fail(TARGET, "outer lengths left for the sub-port");
	if ((fl & L4_FLAGS) != 0) {
		uint32_t start = m->l2_len + m->l3_len;
		uint32_t off = (fl & L4_FLAGS) == RTE_MBUF_F_TX_UDP_CKSUM ? 6 : 16;

		if ((fl & L4_FLAGS) != RTE_MBUF_F_TX_UDP_CKSUM &&
		    (fl & L4_FLAGS) != RTE_MBUF_F_TX_TCP_CKSUM)
			fuzz_fail(TARGET, "L4 flag %#" PRIx64 " handed down", fl & L4_FLAGS);
		if (!priv->sub.l4_hw || priv->spec.engine == CSUM_ENGINE_NONE)
			fuzz_fail(TARGET, "L4 handed to a sub-port without an engine");
		if (!(fl & PARTIAL_FLAG) || f->start != start || f->offset != off)
			fuzz_fail(TARGET, "handed-down L4 (%u+%u) not kept as the generic request (%u/%u)",
				  start, off, f->start, f->offset);
		if (start + off + 2 > m->pkt_len)
			fuzz_fail(TARGET, "handed-down L4 field outside the packet");
		if (priv->spec.engine == CSUM_ENGINE_GENERIC &&
		    (start > priv->spec.max_csum_start ||
		     start + off > priv->spec.max_csum_field))
			fuzz_fail(TARGET, "engine limits %u/%u exceeded by %u+%u",
				  priv->spec.max_csum_start, priv->spec.max_csum_field,
				  start, off);
	} else if (fl & PARTIAL_FLAG) {
		fuzz_fail(TARGET, "generic request left without an L4 flag");
	}
	if (fl & RTE_MBUF_F_TX_IP_CKSUM) {
		uint8_t b;

		if (!priv->sub.ip_hw)
			fuzz_fail(TARGET, "IPv4 checksum handed to a sub-port without it");
		/* As it was when hwcsum looked (a request may overwrite it). */
		if (m->l2_len + 20u > chain_len || m->l3_len < 20)
			fuzz_fail(TARGET, "IPv4 checksum handed down outside the packet");
		b = img[m->l2_len];
		if ((b >> 4) != 4 || (b & 0xf) < 5)
			fuzz_fail(TARGET, "IPv4 checksum handed down at l2_len %u: not IPv4",
				  m->l2_len);
		if (m->l2_len + (b & 0xfu) * 4 > chain_len)
			fuzz_fail(TARGET, "IPv4 header with options handed down past the packet");
	}
}

/* The sub-port's hardware, on the flat bytes: IPv4 header, then L4. */
static void
hw_simulate(const struct rte_mbuf *m, uint8_t *buf)
{
	uint64_t fl = m->ol_flags;

	/* As e1000 does: the header summed as it is, so the field must be 0. */
	if (fl & RTE_MBUF_F_TX_IP_CKSUM) {
		uint8_t *ip = buf + m->l2_len;

		put16(ip + 10, (uint16_t)~ref_fold(ref_sum(ip, m->l3_len)));
	}
	if (fl & L4_FLAGS) {
		uint32_t start = m->l2_len + m->l3_len;
		uint32_t f = start + ((fl & L4_FLAGS) == RTE_MBUF_F_TX_UDP_CKSUM ? 6 : 16);
		uint16_t c = (uint16_t)~ref_fold(ref_sum(buf + start, m->pkt_len - start));

		put16(buf + f, c == 0 ? 0xffff : c);
	}
}

/* A request an application makes for a well-formed packet. */
struct sreq {
	bool generic, ip, outer_ip, outer_udp, l4, folded;
	bool verifiable;
};

static void
structured_build(struct fz_in *in, struct fz_pkt_opts *o, struct fz_pkt *l,
		 struct sreq *r, struct rte_mbuf *m_tmpl)
{
	uint8_t a = fz_u8(in), b = fz_u8(in), c = fz_u8(in), d = fz_u8(in);
	uint16_t pl = fz_u16(in);

	fz_opts_from_bytes(o, a, b, c & 1);
	o->payload = pl % (c & 2 ? 64 : 1500);
	fz_bytes(in, rnd, sizeof(rnd));
	fz_pkt_build(pkt, o, rnd, l);

	memset(r, 0, sizeof(*r));
	r->verifiable = true;
	r->l4 = !(d & 1) || (d & 0x80);
	r->generic = (d >> 1 & 1) && o->proto != IPPROTO_SCTP;
	r->ip = (d >> 2 & 1) && !l->v6;
	r->folded = l->encap && (d >> 3 & 1);
	r->outer_udp = l->encap && !r->folded && (d >> 4 & 1);
	r->outer_ip = l->encap && !r->folded && (d >> 5 & 1) && !l->outer_v6;

	m_tmpl->ol_flags = 0;
	if (l->encap && !r->folded) {
		m_tmpl->outer_l2_len = l->outer_l3;
		m_tmpl->outer_l3_len = l->outer_l3_len;
		m_tmpl->l2_len = l->l3 - l->outer_l4;
		m_tmpl->ol_flags |= l->outer_v6 ? RTE_MBUF_F_TX_OUTER_IPV6 :
			RTE_MBUF_F_TX_OUTER_IPV4;
	} else {
		m_tmpl->outer_l2_len = 0;
		m_tmpl->outer_l3_len = 0;
		m_tmpl->l2_len = l->l3;
	}
	if (l->l3 - (r->folded || !l->encap ? 0 : l->outer_l4) > 127)
		r->verifiable = false; /* l2_len cannot say it */
	m_tmpl->l3_len = l->l3_len;
	if (l->encap && (!r->folded || (d >> 6 & 1)))
		m_tmpl->ol_flags |= o->tun == FZ_TUN_GENEVE ? RTE_MBUF_F_TX_TUNNEL_GENEVE :
			o->tun == FZ_TUN_VXLAN ? RTE_MBUF_F_TX_TUNNEL_VXLAN :
			o->tun == FZ_TUN_GPE ? RTE_MBUF_F_TX_TUNNEL_VXLAN_GPE :
			RTE_MBUF_F_TX_TUNNEL_UDP;
	m_tmpl->ol_flags |= l->v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4;
	if (r->ip)
		m_tmpl->ol_flags |= RTE_MBUF_F_TX_IP_CKSUM;
	if (r->outer_ip)
		m_tmpl->ol_flags |= RTE_MBUF_F_TX_OUTER_IP_CKSUM;
	if (r->outer_udp)
		m_tmpl->ol_flags |= RTE_MBUF_F_TX_OUTER_UDP_CKSUM;
	if (r->l4 && r->generic) {
		/* The application seeds, as a stack does for CHECKSUM_PARTIAL. */
		uint32_t f = l->l4 + fz_csum_off(o->proto);

		put16(pkt + f, ref_fold(ref_pseudo(pkt + l->l3, l->l3_end - l->l4,
						   o->proto)));
		field_of(m_tmpl)->start = (uint16_t)l->l4;
		field_of(m_tmpl)->offset = (uint16_t)fz_csum_off(o->proto);
		m_tmpl->ol_flags |= PARTIAL_FLAG;
	} else if (r->l4) {
		m_tmpl->ol_flags |= o->proto == IPPROTO_TCP ? RTE_MBUF_F_TX_TCP_CKSUM :
			o->proto == IPPROTO_UDP ? RTE_MBUF_F_TX_UDP_CKSUM :
			RTE_MBUF_F_TX_SCTP_CKSUM;
	}
	/* The outer UDP checksum, when not asked for, is "none" (0) as VXLAN
	 * senders do, or anything. */
	if (l->encap && !r->outer_udp && (d >> 7 & 1))
		put16(pkt + l->outer_l4 + 6, 0);
}

/* Apply one deliberate defect; the request is then no longer verifiable. */
static uint32_t
corrupt(struct fz_in *in, uint8_t how, struct rte_mbuf *tmpl, uint32_t len)
{
	uint16_t v = fz_u16(in);

	switch (how % 8) {
	case 0:
		tmpl->l2_len = v & 0x7f;
		tmpl->l3_len = v >> 7;
		break;
	case 1:
		tmpl->outer_l2_len = v & 0x7f;
		tmpl->outer_l3_len = v >> 7;
		break;
	case 2:
		field_of(tmpl)->start = v % (len + 8);
		field_of(tmpl)->offset = fz_u8(in) % 32;
		tmpl->ol_flags |= PARTIAL_FLAG;
		break;
	case 3:	/* truncated: headers cut off */
		return len ? v % len : 0;
	case 4:
		tmpl->ol_flags |= v & 1 ? RTE_MBUF_F_TX_TCP_SEG : RTE_MBUF_F_TX_UDP_SEG;
		break;
	case 5:
		pkt[v % (len ? len : 1)] ^= (uint8_t)(1u << (v >> 13));
		break;
	case 6:
		tmpl->ol_flags ^= (uint64_t)1 << (41 + v % 20);
		break;
	default:
		tmpl->ol_flags = (tmpl->ol_flags & ~L4_FLAGS) | ((uint64_t)(v & 3) << 52);
		break;
	}
	return len;
}

static void
verify_structured(const struct fz_pkt *l, const struct sreq *r,
		  const uint8_t *pre, const uint8_t *fin, uint32_t len)
{
	static uint8_t mask[FZ_PKT_MAX];
	uint32_t i;

	memset(mask, 0, len);
	if (r->ip) {
		if (!ref_ipv4_ok(fin + l->l3))
			fuzz_fail(TARGET, "IPv4 header checksum at %u wrong", l->l3);
		mask[l->l3 + 10] = mask[l->l3 + 11] = 1;
	}
	if (r->outer_ip) {
		if (!ref_ipv4_ok(fin + l->outer_l3))
			fuzz_fail(TARGET, "outer IPv4 header checksum at %u wrong",
				  l->outer_l3);
		mask[l->outer_l3 + 10] = mask[l->outer_l3 + 11] = 1;
	}
	if (r->l4) {
		uint32_t f = l->l4 + fz_csum_off(l->proto);

		if (!ref_l4_ok(fin, l->l3, l->l4, len, l->proto))
			fuzz_fail(TARGET, "L4 (proto %u) checksum at %u wrong", l->proto, f);
		mask[f] = mask[f + 1] = 1;
		if (l->proto == IPPROTO_SCTP)
			mask[f + 2] = mask[f + 3] = 1;
	}
	if (r->outer_udp) {
		if (!ref_l4_ok(fin, l->outer_l3, l->outer_l4, len, IPPROTO_UDP))
			fuzz_fail(TARGET, "outer UDP checksum at %u wrong", l->outer_l4 + 6);
		mask[l->outer_l4 + 6] = mask[l->outer_l4 + 7] = 1;
	}
	for (i = 0; i < len; i++)
		if (!mask[i] && pre[i] != fin[i])
			fuzz_fail(TARGET, "byte %u changed (%#x -> %#x), not a requested field",
				  i, pre[i], fin[i]);
}

/* Request and state, for a failure message. */
static void
ctx_add(const struct hwcsum_private *priv, struct rte_mbuf *m,
	const struct fz_pkt *l, const char *what)
{
	size_t n = what[0] == 'i' ? 0 : strlen(fz_ctx);

	n += snprintf(fz_ctx + n, sizeof(fz_ctx) - n,
		      "%s: flags %#" PRIx64 " lens %u/%u/%u/%u field %u/%u pkt_len %u segs %u; ",
		      what, m->ol_flags, m->outer_l2_len, m->outer_l3_len, m->l2_len,
		      m->l3_len, field_of(m)->start, field_of(m)->offset, m->pkt_len,
		      m->nb_segs);
	if (what[0] == 'i')
		n += snprintf(fz_ctx + n, sizeof(fz_ctx) - n,
			      "engine %u max %u/%u l4_hw %u ip_hw %u max_segs %u; ",
			      priv->spec.engine, priv->spec.max_csum_start,
			      priv->spec.max_csum_field, priv->sub.l4_hw,
			      priv->sub.ip_hw, priv->sub.max_segs);
	if (l != NULL && n < sizeof(fz_ctx))
		snprintf(fz_ctx + n, sizeof(fz_ctx) - n,
			 "pkt: outer l3 %u+%u l4 %u, l3 %u+%u l4 %u proto %u encap %u; ",
			 l->outer_l3, l->outer_l3_len, l->outer_l4, l->l3, l->l3_len,
			 l->l4, l->proto, l->encap);
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
	struct hwcsum_txq_stats *st = &fuzz_tx_stats.q;
	struct rte_mbuf tmpl, *m;
	struct test_chain *c;
	struct fz_pkt_opts o;
	struct fz_pkt l;
	struct sreq r = { 0 };
	uint32_t cuts[FZ_MAX_SEGS], n_cuts, len, lie = 0;
	uint8_t mode;
	bool structured, has_req, overlap;
	uint64_t flags_in;
	struct hw_work w1, w2;
	int ret;

	fz_cur_data = data;
	fz_cur_size = size;
	fuzz_tx_stats.inputs++;
	c = malloc(sizeof(*c));
	if (c == NULL)
		abort();
	mode = fz_u8(&in);
	structured = !(mode & 1);
	priv_from_input(&in, &priv);
	memset(&tmpl, 0, sizeof(tmpl));
	if (structured) {
		uint8_t how = fz_u8(&in);

		fuzz_tx_stats.structured++;
		structured_build(&in, &o, &l, &r, &tmpl);
		len = l.len;
		if (how < 64) {
			r.verifiable = false;
			len = corrupt(&in, how, &tmpl, len);
		}
		n_cuts = fz_cuts(&in, len, cuts);
		m = test_chain_build(c, pkt, len, cuts, n_cuts);
	} else {
		uint64_t f1 = fz_u64(&in), f2 = fz_u64(&in);
		uint8_t lies = fz_u8(&in);

		tmpl.ol_flags = f1 & (mode & 2 ? f2 : ~UINT64_C(0)) &
			(TX_FLAGS_ALL | PARTIAL_FLAG);
		tmpl.l2_len = fz_u8(&in);
		tmpl.l3_len = fz_u16(&in);
		tmpl.outer_l2_len = fz_u8(&in);
		tmpl.outer_l3_len = fz_u16(&in);
		field_of(&tmpl)->start = fz_u16(&in);
		field_of(&tmpl)->offset = fz_u16(&in);
		if (mode & 4)	/* near the packet: more interesting */
			field_of(&tmpl)->offset &= 0x1f;
		n_cuts = fz_cuts(&in, (uint32_t)in.n, cuts);
		len = (uint32_t)RTE_MIN(in.n, sizeof(pkt));
		memcpy(pkt, in.p, len);
		if (mode & 4)
			field_of(&tmpl)->start %= len + 4;
		m = test_chain_build(c, pkt, len, cuts, n_cuts);
		/* Sometimes pkt_len lies about the chain (longer: a short chain). */
		if ((lies & 0xf) == 0xf)
			lie = 1 + (lies >> 4);
	}
	m->ol_flags = tmpl.ol_flags;
	m->l2_len = tmpl.l2_len;
	m->l3_len = tmpl.l3_len;
	m->outer_l2_len = tmpl.outer_l2_len;
	m->outer_l3_len = tmpl.outer_l3_len;
	*field_of(m) = *field_of(&tmpl);
	m->pkt_len += lie;
	chain_len = m->pkt_len - lie;
	overlap = self_overlapping(m);
	flags_in = m->ol_flags;
	has_req = (flags_in & hwcsum_tx_request_mask(&priv)) != 0;
	test_chain_flatten(m, before);

	ctx_add(&priv, m, structured ? &l : NULL, "in");
	ret = hwcsum_tx_one(&priv, m, st);
	if (ret != 0 && ret != -EINVAL && ret != -ENOTSUP)
		fuzz_fail(TARGET, "returned %d", ret);
	if (ret < 0) {
		fuzz_tx_stats.refused++;
		if ((flags_in & SEG_FLAGS) &&
		    !(priv.sub.max_segs != 0 && m->nb_segs > priv.sub.max_segs)) {
			if (ret != -ENOTSUP)
				fuzz_fail(TARGET, "segmentation refused with %d, not -ENOTSUP", ret);
			fuzz_tx_stats.seg_refused++;
		}
		if (priv.sub.max_segs != 0 && m->nb_segs > priv.sub.max_segs)
			fuzz_tx_stats.too_many_segs++;
		if (structured && r.verifiable &&
		    !(priv.sub.max_segs != 0 && m->nb_segs > priv.sub.max_segs))
			fuzz_fail(TARGET, "well-formed request refused: %d (flags %#" PRIx64
				  ", lens %u/%u/%u/%u, generic %u/%u, pkt %u, l3 %u l4 %u proto %u)",
				  ret, flags_in, tmpl.outer_l2_len, tmpl.outer_l3_len,
				  tmpl.l2_len, tmpl.l3_len, field_of(&tmpl)->start,
				  field_of(&tmpl)->offset, len, l.l3, l.l4, l.proto);
		goto out;
	}
	if (!has_req) {
		test_chain_flatten(m, after);
		if (m->ol_flags != flags_in || memcmp(before, after, m->pkt_len - lie) != 0)
			fuzz_fail(TARGET, "a packet without a request was changed");
		goto out;
	}
	if (flags_in & SEG_FLAGS)
		fuzz_fail(TARGET, "segmentation request accepted");
	if (priv.sub.max_segs != 0 && m->nb_segs > priv.sub.max_segs)
		fuzz_fail(TARGET, "%u segments accepted for a sub-port taking %u",
			  m->nb_segs, priv.sub.max_segs);
	check_handed_down(&priv, m, flags_in, before);
	test_chain_flatten(m, after);
	w1 = hw_work_of(m);
	ctx_add(&priv, m, NULL, "out");

	/* A retry: the sub-port did not take it, the application sends it again. */
	memcpy(after_wire, after, chain_len);
	hw_simulate(m, after_wire);
	ret = hwcsum_tx_one(&priv, m, st);
	if (ret != 0 && overlap)
		goto out; /* it broke the header it asked for: anything goes */
	if (ret != 0)
		fuzz_fail(TARGET, "retry of a resolved packet returned %d", ret);
	fuzz_tx_stats.retried++;
	test_chain_flatten(m, again);
	memcpy(again_wire, again, chain_len);
	hw_simulate(m, again_wire);
	/*
	 * The retry must put the same bytes on the wire. It may split the
	 * work differently: the hand-off form keeps no tunnel context, so an
	 * engine that takes only inner checksums (no_not_encapped) or needs
	 * the tunnel to say so (encap_okay) may now leave it to software.
	 */
	if (memcmp(after_wire, again_wire, chain_len) != 0 && !overlap) {
		uint32_t i;

		for (i = 0; after_wire[i] == again_wire[i]; i++)
			;
		fuzz_fail(TARGET, "retry put different bytes on the wire: byte %u (%#x -> %#x)",
			  i, after_wire[i], again_wire[i]);
	}
	w2 = hw_work_of(m);
	if (memcmp(&w1, &w2, sizeof(w1)) != 0)
		fuzz_tx_stats.retry_resplit++;
	check_handed_down(&priv, m, flags_in, after);

	if (structured && r.verifiable) {
		hw_simulate(m, again);
		verify_structured(&l, &r, before, again, m->pkt_len);
		fuzz_tx_stats.verified++;
	}
out:
	test_chain_free(c);
	free(c);
	return 0;
}

/* ------------------------------------------- the seeded run's hooks */

const char *const fuzz_seeded_name = TARGET;

/* Random bytes; three in four inputs structured (even first byte). */
size_t
fuzz_seeded_input(uint8_t *buf, size_t cap, uint64_t (*next)(void))
{
	size_t size;

	fz_fill(buf, cap, next);
	if (next() % 4 != 0) {
		buf[0] &= 0xfe;
		size = 64 + FZ_PKT_MAX + FZ_MAX_SEGS;
	} else {
		buf[0] |= 1;
		size = next() % 8 == 0 ? cap : 40 + next() % 200;
	}
	return RTE_MIN(size, cap);
}

int
fuzz_seeded_report(unsigned long iters)
{
	const struct fuzz_tx_stats *s = &fuzz_tx_stats;
	const uint64_t *q = s->q.c;
	const struct fz_need need[] = {
		FZ_NEED(s->verified), FZ_NEED(s->retried),
		FZ_NEED(s->too_many_segs), FZ_NEED(s->seg_refused),
		FZ_NEED(q[HWCSUM_TX_REQ_GENERIC]),
		FZ_NEED(q[HWCSUM_TX_REQ_DPDK]), FZ_NEED(q[HWCSUM_TX_L4_HW]),
		FZ_NEED(q[HWCSUM_TX_L4_SW]), FZ_NEED(q[HWCSUM_TX_LCO]),
		FZ_NEED(q[HWCSUM_TX_OUTER_UDP_HW]),
		FZ_NEED(q[HWCSUM_TX_IP_HW]), FZ_NEED(q[HWCSUM_TX_IP_SW]),
		FZ_NEED(q[HWCSUM_TX_CRC32C_SW]),
	};

	printf("%s: %lu inputs (%lu structured), %lu verified end to end, "
	       "%lu retried (%lu split differently, same wire bytes), "
	       "%lu refused (%lu chains too long, %lu segmentation)\n",
	       TARGET, s->inputs, s->structured, s->verified, s->retried,
	       s->retry_resplit, s->refused, s->too_many_segs, s->seg_refused);
	printf("%s: counters: req generic %" PRIu64 " dpdk %" PRIu64 ", L4 hw %"
	       PRIu64 " sw %" PRIu64 ", LCO %" PRIu64 ", outer UDP hw %" PRIu64
	       ", IP hw %" PRIu64 " sw %" PRIu64 ", CRC32c sw %" PRIu64 "\n", TARGET,
	       q[HWCSUM_TX_REQ_GENERIC], q[HWCSUM_TX_REQ_DPDK], q[HWCSUM_TX_L4_HW],
	       q[HWCSUM_TX_L4_SW], q[HWCSUM_TX_LCO], q[HWCSUM_TX_OUTER_UDP_HW],
	       q[HWCSUM_TX_IP_HW], q[HWCSUM_TX_IP_SW], q[HWCSUM_TX_CRC32C_SW]);
	if (iters < 10000)
		return 0;
	return fz_needs(need, RTE_DIM(need));
}
