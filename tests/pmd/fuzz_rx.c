/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target for the receive classify-and-verify path, hwcsum_rx_one(),
 * on a bare struct hwcsum_private (no ethdev, no EAL) whose registry has
 * VXLAN (4789, 8472), GENEVE (6081), VXLAN-GPE (4790) and GUE (6080) ports.
 *
 * Input: byte 0 picks the mode.
 *  - raw (odd): the packet bytes come from the input;
 *  - structured (even): a well-formed packet (tags, IPv4 options, IPv6
 *    extension header, any of the four tunnels, UDP/TCP/SCTP, Ethernet
 *    padding) with every checksum right, or one of them wrong on purpose,
 *    sometimes damaged afterwards (truncated, GENEVE option length past the
 *    end, a header byte flipped...).
 * Either way any chain, and any checksum flags "from the sub-port's
 * hardware": none, the truth, or lies.
 *
 * Invariants (fuzz_fail() aborts with a reproducer):
 *  - no crash, no access outside a segment (ASan), no UB (UBSan);
 *  - the COMPLETE flag implies the field holds the first byte after the
 *    outer Ethernet/tags and the ones' complement sum from there to the end
 *    of the packet, as a byte-wise reference computes it;
 *  - a GOOD verdict (IP, L4, outer L4) that hwcsum computed implies the
 *    checksum recomputes correctly; a BAD one that it does not;
 *  - structured, undamaged, truthful or silent sub-port: exactly the
 *    verdicts the packet deserves (COMPLETE, GOOD or BAD at each layer,
 *    nothing for SCTP or a zero UDP checksum), tunnels classified.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/socket.h>

#include "csum_walk.h"
#include "hwcsum_private.h"
#include "rte_pmd_hwcsum.h"

#include "fuzz_common.h"

#define TARGET "fuzz_rx"
#define COMPLETE_FLAG (UINT64_C(1) << 31)
#define RX_FLAGS ((uint64_t)(RTE_MBUF_F_RX_IP_CKSUM_MASK | \
			     RTE_MBUF_F_RX_L4_CKSUM_MASK | \
			     RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD | \
			     RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK))
#define IP_MASK ((uint64_t)RTE_MBUF_F_RX_IP_CKSUM_MASK)
#define L4_MASK ((uint64_t)RTE_MBUF_F_RX_L4_CKSUM_MASK)
#define OL4_MASK ((uint64_t)RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK)

struct fuzz_rx_stats {
	unsigned long inputs, structured, expected_checked, complete,
		good_checked, bad_checked, inner_good, outer_good, sub_kept,
		tunnels, disagreements, outer_resolved;
	struct hwcsum_rxq_stats q;
} fuzz_rx_stats;

static struct udp_tunnel_registry *registry;
static uint8_t pkt[FZ_PKT_MAX + 64], rnd[FZ_PKT_MAX], flat[65536 + 256];

/* ------------------------------------------- an independent parser */

/* One IP layer as the reference sees it. */
struct ref_ip {
	bool ok;		/* IP header understood, L4 located */
	uint8_t version, proto;
	bool frag;
	uint32_t l3, l4, l3_end;
	uint32_t l4_end;	/* UDP: by its length; TCP: l3_end; 0: no L4 */
	uint32_t final_dst;	/* IPv6 routing header with segments left: the
				   pseudo-header's destination; 0: none */
};

struct ref_view {
	uint32_t start;		/* first byte after Ethernet and tags, 0: none */
	struct ref_ip outer;
	bool tunnel;		/* registered port, header parsed, inner IP found */
	bool tunnel_port;	/* registered port */
	bool tunnel_hdr;	/* its header parsed (maybe carrying no packet) */
	struct ref_ip inner;
};

static uint32_t
ref_l2(const uint8_t *b, uint32_t len, uint32_t off, uint16_t *et)
{
	unsigned int tags = 0;

	if (off + 14 > len)
		return 0;
	off += 12;
	*et = be16(b + off);
	while (*et == 0x8100 || *et == 0x88a8) {
		if (++tags > 2 || off + 6 > len)
			return 0;
		off += 4;
		*et = be16(b + off);
	}
	return off + 2;
}

/*
 * RFC 8200 8.1: a routing header with segments left gives the final
 * destination (type 0: its last address, type 2: its one address, SRH:
 * Segment List[0]); false where it cannot (a receiver drops those).
 */
static bool
ref_routing(const uint8_t *b, uint32_t len, uint32_t off, uint32_t hl,
	    struct ref_ip *r)
{
	uint32_t units = b[off + 1], left = b[off + 3];

	if (off + hl > len || r->final_dst != 0)
		return false;
	if (b[off + 2] == 0 && units % 2 == 0 && left <= units / 2)
		r->final_dst = off + hl - 16;
	else if (b[off + 2] == 2 && units == 2 && left == 1)
		r->final_dst = off + 8;
	else if (b[off + 2] == 4 && 2 * (b[off + 4] + 1u) <= units &&
		 left <= b[off + 4] + 1u)
		r->final_dst = off + 8;
	return r->final_dst != 0;
}

static void
ref_ip_parse(const uint8_t *b, uint32_t len, uint32_t end, uint32_t l3,
	     uint16_t et, struct ref_ip *r)
{
	uint32_t off;
	uint8_t nh;

	memset(r, 0, sizeof(*r));
	r->l3 = l3;
	if (l3 + 20 > len || l3 >= end)
		return;
	r->version = b[l3] >> 4;
	if ((et != 0x0800 && et != 0x86dd) || (et == 0x0800 && r->version != 4) ||
	    (et == 0x86dd && r->version != 6))
		return;
	if (r->version == 4) {
		uint32_t ihl = (b[l3] & 0xf) * 4u, tot = be16(b + l3 + 2);

		if (ihl < 20 || l3 + ihl > len || tot < ihl || l3 + tot > end)
			return;
		r->frag = (be16(b + l3 + 6) & 0x3fff) != 0;
		r->proto = b[l3 + 9];
		r->l4 = l3 + ihl;
		r->l3_end = l3 + tot;
	} else if (r->version == 6) {
		if (l3 + 40 > len || be16(b + l3 + 4) == 0)
			return;
		r->l3_end = l3 + 40 + be16(b + l3 + 4);
		if (r->l3_end > end)
			return;
		nh = b[l3 + 6];
		off = l3 + 40;
		for (;;) {
			if (nh == 0 || nh == 43 || nh == 60 || nh == 51) {
				uint32_t hl;

				if (off + 8 > len || off + 8 > r->l3_end)
					return;
				hl = nh == 51 ? (b[off + 1] + 2u) * 4 : (b[off + 1] + 1u) * 8;
				if (nh == 43 && b[off + 3] != 0 &&
				    !ref_routing(b, len, off, hl, r))
					return;
				nh = b[off];
				off += hl;
				continue;
			}
			if (nh == 44)
				r->frag = true;
			break;
		}
		if (off > r->l3_end)
			return;
		r->proto = nh;
		r->l4 = off;
	} else {
		return;
	}
	r->ok = true;
	if (r->frag)
		return;
	if (r->proto == IPPROTO_UDP && r->l4 + 8 <= r->l3_end && r->l4 + 8 <= len) {
		uint32_t ulen = be16(b + r->l4 + 4);

		if (ulen >= 8 && r->l4 + ulen <= r->l3_end)
			r->l4_end = r->l4 + ulen;
	} else if (r->proto == IPPROTO_TCP && r->l4 + 20 <= r->l3_end) {
		r->l4_end = r->l3_end;
	}
}

static void
ref_parse(const uint8_t *b, uint32_t len, const struct hwcsum_private *priv,
	  struct ref_view *v)
{
	struct udp_tunnel_parse_result res;
	uint32_t hdr, in;
	unsigned int type;
	uint16_t et;
	int ret;

	memset(v, 0, sizeof(*v));
	v->start = ref_l2(b, len, 0, &et);
	if (v->start == 0)
		return;
	ref_ip_parse(b, len, len, v->start, et, &v->outer);
	if (!v->outer.ok || v->outer.proto != IPPROTO_UDP || v->outer.l4_end == 0 ||
	    priv->registry == NULL)
		return;
	type = udp_tunnel_lookup(priv->registry, be16(b + v->outer.l4 + 2));
	if (type == 0)
		return;
	v->tunnel_port = true;
	hdr = v->outer.l4 + 8;
	ret = udp_tunnel_parse(priv->registry, type, b + hdr,
			       RTE_MIN(len, v->outer.l4_end) - hdr, &res);
	if (ret == -EPROTONOSUPPORT)
		v->tunnel_hdr = true;
	if (ret != 0 || hdr + res.inner_offset > v->outer.l4_end)
		return;
	v->tunnel_hdr = true;
	in = hdr + res.inner_offset;
	if (res.inner_ethertype == 0x6558) {
		in = ref_l2(b, v->outer.l4_end, in, &et);
		if (in == 0)
			return;
	} else if (res.inner_ethertype == 0x0800 || res.inner_ipproto == 4) {
		et = 0x0800;
	} else if (res.inner_ethertype == 0x86dd || res.inner_ipproto == 41) {
		et = 0x86dd;
	} else {
		return;
	}
	ref_ip_parse(b, len, v->outer.l4_end, in, et, &v->inner);
	v->tunnel = v->inner.ok;
}

/* -1: no L4 checksum to judge there; 1 right; 0 wrong (or UDP 0 where it is not allowed). */
static int
ref_l4_verdict(const uint8_t *b, const struct ref_ip *r, bool zero_ok)
{
	if (!r->ok || r->frag || r->l4_end == 0)
		return -1;
	if (r->proto == IPPROTO_UDP && get16(b + r->l4 + 6) == 0)
		return r->version == 4 || zero_ok ? -1 : 0;
	if (r->final_dst != 0 && r->proto != IPPROTO_SCTP) {
		uint8_t ip[40];

		memcpy(ip, b + r->l3, 40);
		memcpy(ip + 24, b + r->final_dst, 16);
		return ref_fold(ref_pseudo(ip, r->l4_end - r->l4, r->proto) +
				ref_sum(b + r->l4, r->l4_end - r->l4)) == 0xffff;
	}
	return ref_l4_ok(b, r->l3, r->l4, r->l4_end, r->proto);
}

static int
ref_ip_verdict(const uint8_t *b, const struct ref_ip *r)
{
	if (!r->ok || r->version != 4)
		return -1;
	return ref_ipv4_ok(b + r->l3);
}

/* ----------------------------------------------------- the checks */

/* The truth about the outermost headers, as a sub-port's hardware says it. */
static uint64_t
sub_truth(const uint8_t *b, const struct ref_view *v)
{
	int l4 = ref_l4_verdict(b, &v->outer, v->tunnel_port && v->outer.version == 6);
	int ip = ref_ip_verdict(b, &v->outer);
	uint64_t f = 0;

	if (l4 == 1)
		f |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	else if (l4 == 0)
		f |= RTE_MBUF_F_RX_L4_CKSUM_BAD;
	if (ip == 1)
		f |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	else if (ip == 0)
		f |= RTE_MBUF_F_RX_IP_CKSUM_BAD;
	return f;
}

/* A GOOD or BAD claim against the reference verdict ref (1/0/-1). */
static void
claim(const char *what, uint64_t got, uint64_t good, uint64_t bad, int ref)
{
	if (got == good) {
		if (ref != 1)
			fuzz_fail(TARGET, "%s GOOD, but the reference says %s", what,
				  ref == 0 ? "wrong" : "there is nothing to verify");
		fuzz_rx_stats.good_checked++;
	} else if (got == bad) {
		if (ref != 0)
			fuzz_fail(TARGET, "%s BAD, but the reference says %s", what,
				  ref == 1 ? "right" : "there is nothing to verify");
		fuzz_rx_stats.bad_checked++;
	}
}

static void
check_verdicts(const struct hwcsum_private *priv, struct rte_mbuf *m,
	       uint32_t len, uint64_t sub, const struct ref_view *v)
{
	uint64_t fl = m->ol_flags;
	bool tun_view = v->tunnel_hdr;
	bool sub_l4 = (sub & L4_MASK) != 0;

	(void)priv;
	if ((fl & RX_FLAGS & ~IP_MASK & ~L4_MASK) && !v->tunnel_hdr) {
		fuzz_rx_stats.disagreements++;
		return;
	}
	if (fl & COMPLETE_FLAG) {
		const struct rte_pmd_hwcsum_csum *f =
			RTE_MBUF_DYNFIELD(m, offsetof(struct rte_mbuf, dynfield1),
					  const struct rte_pmd_hwcsum_csum *);

		if (f->start != v->start)
			fuzz_fail(TARGET, "COMPLETE from %u, the first byte after Ethernet is %u",
				  f->start, v->start);
		if (f->start > len ||
		    !ref_same(f->sum, ref_fold(ref_sum(flat + f->start, len - f->start))))
			fuzz_fail(TARGET, "COMPLETE sum %#x from %u, the reference says %#x",
				  f->sum, f->start, f->start > len ? 0 :
				  ref_fold(ref_sum(flat + f->start, len - f->start)));
		fuzz_rx_stats.complete++;
	}
	if (!tun_view) {
		/* Plain packet: the only headers; the sub-port's word is kept. */
		if (sub_l4) {
			fuzz_rx_stats.sub_kept++;
			if ((fl & L4_MASK) != (sub & L4_MASK))
				fuzz_fail(TARGET, "sub-port's L4 verdict %#" PRIx64 " not kept: %#"
					  PRIx64, sub & L4_MASK, fl & L4_MASK);
			if ((sub & IP_MASK) && (fl & IP_MASK) != (sub & IP_MASK))
				fuzz_fail(TARGET, "sub-port's IP verdict not kept");
			if (fl & COMPLETE_FLAG)
				fuzz_fail(TARGET, "COMPLETE computed though the sub-port judged");
			if (!(sub & IP_MASK))
				claim("IPv4 header (sub L4)", fl & IP_MASK,
				      RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_MBUF_F_RX_IP_CKSUM_BAD,
				      ref_ip_verdict(flat, &v->outer));
			return;
		}
		claim("L4", fl & L4_MASK, RTE_MBUF_F_RX_L4_CKSUM_GOOD,
		      RTE_MBUF_F_RX_L4_CKSUM_BAD, ref_l4_verdict(flat, &v->outer, false));
		claim("IPv4 header", fl & IP_MASK, RTE_MBUF_F_RX_IP_CKSUM_GOOD,
		      RTE_MBUF_F_RX_IP_CKSUM_BAD, ref_ip_verdict(flat, &v->outer));
		return;
	}
	fuzz_rx_stats.tunnels++;
	if (!v->tunnel_port) {
		fuzz_rx_stats.disagreements++;
		return;
	}
	if (!sub_l4)
		claim("outer UDP", fl & OL4_MASK, RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD,
		      RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD,
		      ref_l4_verdict(flat, &v->outer, v->outer.version == 6));
	else if ((fl & OL4_MASK) == RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD &&
		 (sub & L4_MASK) != RTE_MBUF_F_RX_L4_CKSUM_GOOD &&
		 !((sub & L4_MASK) == RTE_MBUF_F_RX_L4_CKSUM_NONE &&
		   ref_l4_verdict(flat, &v->outer, true) == 1))
		fuzz_fail(TARGET, "outer L4 GOOD, neither computed, resolved nor the sub-port's");
	if ((fl & RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD) &&
	    (sub & IP_MASK) != RTE_MBUF_F_RX_IP_CKSUM_BAD &&
	    ref_ip_verdict(flat, &v->outer) != 0)
		fuzz_fail(TARGET, "outer IPv4 BAD, but the reference says right");
	if ((fl & (L4_MASK | IP_MASK)) == 0)
		return;
	if (!v->tunnel) {
		fuzz_rx_stats.disagreements++;
		return;
	}
	claim("inner L4", fl & L4_MASK, RTE_MBUF_F_RX_L4_CKSUM_GOOD,
	      RTE_MBUF_F_RX_L4_CKSUM_BAD, ref_l4_verdict(flat, &v->inner, false));
	claim("inner IPv4 header", fl & IP_MASK, RTE_MBUF_F_RX_IP_CKSUM_GOOD,
	      RTE_MBUF_F_RX_IP_CKSUM_BAD, ref_ip_verdict(flat, &v->inner));
	if ((fl & L4_MASK) == RTE_MBUF_F_RX_L4_CKSUM_GOOD && (fl & COMPLETE_FLAG))
		fuzz_rx_stats.inner_good++;
}

/* Which checksum a structured packet gets wrong on purpose. */
enum wrong { W_NONE = 0, W_L4, W_IP, W_OUTER_UDP, W_OUTER_IP, W__COUNT };

/* A wrong checksum, but never 0 (that would mean "none" for UDP). */
static void
wrong16(uint8_t *p)
{
	p[0] ^= 0x01;
	if (p[0] == 0 && p[1] == 0)
		p[0] = 0x02;
}

static void
structured_build(struct fz_in *in, struct fz_pkt_opts *o, struct fz_pkt *l,
		 enum wrong *w, bool *outer_zero)
{
	uint8_t a = fz_u8(in), b = fz_u8(in), c = fz_u8(in);
	uint16_t pl = fz_u16(in);

	fz_opts_from_bytes(o, a, b, c & 1);
	if (o->tun == FZ_TUN_VXLAN && (c & 0x80))
		o->udp_dport = 8472;	/* the VXLAN port Linux uses by default */
	o->payload = pl % (c & 2 ? 64 : 1500);
	o->trailer = c & 4 ? (c >> 3) % 8 : 0;
	*w = (c >> 3) % 8 < W__COUNT ? (c >> 3) % 8 : W_NONE;
	*outer_zero = (c & 0x40) && o->tun != FZ_TUN_NONE;
	fz_bytes(in, rnd, sizeof(rnd));
	fz_pkt_build(pkt, o, rnd, l);
	/* Inside out: the outer UDP checksum covers the finished inner packet. */
	ref_l4_fill(pkt, l->l3, l->l4, l->l3_end, l->proto);
	if (*w == W_L4)
		wrong16(pkt + l->l4 + fz_csum_off(l->proto));
	if (!l->v6) {
		ref_ipv4_fill(pkt + l->l3);
		if (*w == W_IP)
			pkt[l->l3 + 10] ^= 0x10;
	}
	if (l->encap) {
		if (*outer_zero) {
			put16(pkt + l->outer_l4 + 6, 0);
		} else {
			ref_l4_fill(pkt, l->outer_l3, l->outer_l4, l->outer_l3_end,
				    IPPROTO_UDP);
			if (*w == W_OUTER_UDP)
				wrong16(pkt + l->outer_l4 + 6);
		}
		if (!l->outer_v6) {
			ref_ipv4_fill(pkt + l->outer_l3);
			if (*w == W_OUTER_IP)
				pkt[l->outer_l3 + 11] ^= 0x04;
		}
	}
	/* A wrong field that is not there (IPv6) is no wrong field. */
	if ((*w == W_IP && l->v6) || (*w == W_OUTER_IP && (!l->encap || l->outer_v6)) ||
	    (*w == W_OUTER_UDP && (!l->encap || *outer_zero)))
		*w = W_NONE;
}

/* Damage on purpose: the packet is no longer well-formed. */
static uint32_t
damage(struct fz_in *in, uint8_t how, const struct fz_pkt *l, uint32_t len)
{
	uint16_t v = fz_u16(in);

	switch (how % 6) {
	case 0:	/* truncated anywhere, headers included */
		return v % (len + 1);
	case 1:	/* GENEVE/GUE option length past the end, or any */
		if (l->encap)
			pkt[l->tun_hdr] = (uint8_t)v;
		break;
	case 2:
		pkt[v % len] ^= (uint8_t)(1u << (v >> 13));
		break;
	case 3:	/* length fields lie */
		put_be16(pkt + (l->encap ? l->outer_l4 + 4 : l->l3 + 2), v);
		break;
	case 4:
		if (l->encap)
			memset(pkt + l->tun_hdr, (uint8_t)v, 1 + (v >> 8) % 16);
		break;
	default:	/* a third tag, or tags to the end */
		put_be16(pkt + 12 + 4 * ((v >> 8) % 3), 0x8100);
		break;
	}
	return len;
}

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	registry = udp_tunnel_registry_create();
	if (registry == NULL ||
	    udp_tunnel_port_add(registry, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN) != 0 ||
	    udp_tunnel_port_add(registry, AF_INET, 8472, UDP_TUNNEL_TYPE_VXLAN) != 0 ||
	    udp_tunnel_port_add(registry, AF_INET6, 6081, UDP_TUNNEL_TYPE_GENEVE) != 0 ||
	    udp_tunnel_port_add(registry, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN_GPE) != 0 ||
	    udp_tunnel_port_add(registry, AF_INET, 6080, UDP_TUNNEL_TYPE_GUE) != 0) {
		fprintf(stderr, "%s: cannot set up the registry\n", TARGET);
		abort();
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct hwcsum_private *priv;
	struct test_chain *c;
	struct fz_pkt_opts o;
	struct fz_pkt l;
	struct ref_view v;
	struct rte_mbuf *m;
	uint32_t cuts[FZ_MAX_SEGS], n_cuts, len;
	enum wrong w = W_NONE;
	bool structured, clean = false, outer_zero = false;
	uint8_t mode, subm;
	uint64_t sub = 0, junk;

	if (registry == NULL)
		LLVMFuzzerInitialize(NULL, NULL);
	fz_cur_data = data;
	fz_cur_size = size;
	fz_ctx[0] = '\0';
	fuzz_rx_stats.inputs++;
	c = malloc(sizeof(*c));
	priv = calloc(1, sizeof(*priv));
	if (c == NULL || priv == NULL)
		abort();
	mode = fz_u8(&in);
	subm = fz_u8(&in);
	junk = fz_u64(&in);
	structured = !(mode & 1);
	priv->dynfield_off = offsetof(struct rte_mbuf, dynfield1);
	priv->rx_complete_flag = COMPLETE_FLAG;
	priv->registry = (mode & 0x0e) == 0x0e ? NULL : registry;
	if (structured) {
		uint8_t how = fz_u8(&in);

		fuzz_rx_stats.structured++;
		structured_build(&in, &o, &l, &w, &outer_zero);
		len = l.len;
		clean = how >= 64;
		if (!clean)
			len = damage(&in, how, &l, len);
	} else {
		len = (uint32_t)RTE_MIN(in.n, sizeof(pkt));
		memcpy(pkt, in.p, len);
		in.n -= len;
		in.p += len;
	}
	n_cuts = fz_cuts(&in, len, cuts);
	if (!structured) {
		/* The cuts came after the bytes: take them from the junk. */
		n_cuts = 0;
		while (n_cuts < 8 && (junk >> (8 * n_cuts)) & 0xff) {
			cuts[n_cuts] = ((junk >> (8 * n_cuts)) & 0xff) % (len / 2 + 2);
			if (mode & 0x10)
				cuts[n_cuts] %= 4;
			n_cuts++;
		}
	}
	m = test_chain_build(c, pkt, len, cuts, n_cuts);
	test_chain_flatten(m, flat);
	ref_parse(flat, len, priv, &v);
	switch (subm & 3) {
	case 0:
		break;
	case 1:
		sub = sub_truth(flat, &v);
		break;
	default:
		sub = junk & RX_FLAGS;
		break;
	}
	/* Whatever was in the mbuf before: hwcsum's flags replace it. */
	m->ol_flags = sub | (subm & 4 ? COMPLETE_FLAG : 0) |
		(junk & ~(RX_FLAGS | COMPLETE_FLAG) & ((UINT64_C(1) << 23) - 1));
	m->packet_type = (uint32_t)(junk >> 32);
	snprintf(fz_ctx, sizeof(fz_ctx), "len %u segs %u sub %#" PRIx64 " registry %s; "
		 "ref: start %u outer ok %u v%u proto %u l4 %u..%u tunnel port %u hdr %u inner ok %u "
		 "v%u proto %u l4 %u..%u", len, m->nb_segs, sub,
		 priv->registry ? "yes" : "no", v.start, v.outer.ok, v.outer.version,
		 v.outer.proto, v.outer.l4, v.outer.l4_end, v.tunnel_port, v.tunnel_hdr, v.inner.ok,
		 v.inner.version, v.inner.proto, v.inner.l4, v.inner.l4_end);

	{
		struct csum_walk cw;
		enum csum_walk_status cst = csum_walk_eth(flat, len, len, 0, &cw);
		size_t n = strlen(fz_ctx);

		snprintf(fz_ctx + n, sizeof(fz_ctx) - n, "; walker: %s l3 %u l4 %u",
			 csum_walk_status_name(cst), cw.l3_off, cw.l4_off);
	}
	hwcsum_rx_one(priv, m, &fuzz_rx_stats.q);

	{
		size_t n = strlen(fz_ctx);

		snprintf(fz_ctx + n, sizeof(fz_ctx) - n, "; out flags %#" PRIx64
			 " ptype %#x", m->ol_flags, m->packet_type);
	}
	/*
	 * Packet bytes are never written on receive, but for one case: the
	 * sub-port said "data verified, field not" (L4_CKSUM_NONE) of a
	 * tunnel's outer UDP header, whose checksum hwcsum then makes right.
	 * The checks below judge the bytes as they left.
	 */
	test_chain_flatten(m, flat + 65536 - len);
	if (memcmp(flat, flat + 65536 - len, len) != 0) {
		const uint8_t *out = flat + 65536 - len;
		uint32_t field = v.outer.l4 + 6, i;

		if ((sub & L4_MASK) != RTE_MBUF_F_RX_L4_CKSUM_NONE || !v.tunnel_hdr ||
		    !v.outer.ok || v.outer.proto != IPPROTO_UDP)
			fuzz_fail(TARGET, "receive changed the packet");
		for (i = 0; i < len; i++)
			if (out[i] != flat[i] && i != field && i != field + 1)
				fuzz_fail(TARGET, "receive changed byte %u, not the outer UDP checksum", i);
		if (ref_l4_verdict(out, &v.outer, true) != 1 ||
		    (m->ol_flags & OL4_MASK) != RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD)
			fuzz_fail(TARGET, "outer UDP checksum rewritten, but not right or not GOOD");
		fuzz_rx_stats.outer_resolved++;
		memcpy(flat, out, len);
	}
	if ((m->ol_flags & ~(RX_FLAGS | COMPLETE_FLAG)) !=
	    ((junk & ~(RX_FLAGS | COMPLETE_FLAG) & ((UINT64_C(1) << 23) - 1))))
		fuzz_fail(TARGET, "flags other than checksum verdicts changed");
	check_verdicts(priv, m, len, sub, &v);

	if (structured && clean && (subm & 3) < 2 && priv->registry != NULL) {
		/* Exactly what the packet deserves. */
		uint64_t fl = m->ol_flags, want_l4 = 0, want_ip = 0, want_ol4 = 0;
		bool tun = l.encap && !(o.tun == FZ_TUN_GUE && o.inner_eth);
		bool sub_kept = (sub & L4_MASK) && !l.encap;

		fuzz_rx_stats.expected_checked++;
		if (l.proto != IPPROTO_SCTP)
			want_l4 = w == W_L4 ? RTE_MBUF_F_RX_L4_CKSUM_BAD :
				RTE_MBUF_F_RX_L4_CKSUM_GOOD;
		if (!l.v6)
			want_ip = w == W_IP ? RTE_MBUF_F_RX_IP_CKSUM_BAD :
				RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		if (l.encap && !tun) {
			/* GUE carrying Ethernet: inner unknown, outer judged. */
			want_l4 = 0;
			want_ip = 0;
		}
		/* (A wrong inner field was in place when the outer one was computed.) */
		if (l.encap && !outer_zero)
			want_ol4 = w == W_OUTER_UDP ? RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD :
				RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD;
		/* An inner GOOD over a bad outer header is UNKNOWN (docs/ovs.md). */
		if (tun && (fl & OL4_MASK) == RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD &&
		    want_l4 == RTE_MBUF_F_RX_L4_CKSUM_GOOD)
			want_l4 = 0;
		if (tun && (fl & RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD) &&
		    want_ip == RTE_MBUF_F_RX_IP_CKSUM_GOOD)
			want_ip = 0;
		if (!sub_kept && !(fl & COMPLETE_FLAG))
			fuzz_fail(TARGET, "well-formed packet without COMPLETE");
		if (!sub_kept && (fl & L4_MASK) != want_l4)
			fuzz_fail(TARGET, "well-formed packet: L4 verdict %#" PRIx64 ", expected %#"
				  PRIx64 " (wrong: %d)", fl & L4_MASK, want_l4, w);
		if ((fl & IP_MASK) != want_ip)
			fuzz_fail(TARGET, "well-formed packet: IP verdict %#" PRIx64 ", expected %#"
				  PRIx64 " (wrong: %d)", fl & IP_MASK, want_ip, w);
		if (l.encap && !(sub & L4_MASK) && (fl & OL4_MASK) != want_ol4)
			fuzz_fail(TARGET, "well-formed packet: outer L4 verdict %#" PRIx64
				  ", expected %#" PRIx64 " (wrong: %d)", fl & OL4_MASK,
				  want_ol4, w);
		if (l.encap && ((fl & RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD) != 0) !=
		    (w == W_OUTER_IP))
			fuzz_fail(TARGET, "well-formed packet: outer IP verdict wrong");
		if (tun && !(m->packet_type & RTE_PTYPE_INNER_L3_MASK))
			fuzz_fail(TARGET, "tunnel not classified: ptype %#x", m->packet_type);
		if (tun && o.tun != FZ_TUN_GUE &&
		    !(m->packet_type & RTE_PTYPE_TUNNEL_MASK))
			fuzz_fail(TARGET, "tunnel type not in ptype %#x", m->packet_type);
	}
	test_chain_free(c);
	free(c);
	free(priv);
	return 0;
}

/* ------------------------------------------- the seeded run's hooks */

const char *const fuzz_seeded_name = TARGET;

size_t
fuzz_seeded_input(uint8_t *buf, size_t cap, uint64_t (*next)(void))
{
	fz_fill(buf, cap, next);
	if (next() % 4 != 0) {
		buf[0] &= 0xfe;
		return RTE_MIN(cap, 16 + FZ_PKT_MAX + FZ_MAX_SEGS);
	}
	buf[0] |= 1;
	/* Raw bytes that start like Ethernet + IPv4/IPv6 + UDP half the time. */
	if (next() & 1) {
		buf[10 + 12] = next() & 1 ? 0x08 : 0x86;
		buf[10 + 13] = buf[10 + 12] == 0x08 ? 0x00 : 0xdd;
		buf[10 + 14] = buf[10 + 12] == 0x08 ? 0x45 : 0x60;
		buf[10 + 14 + (buf[10 + 12] == 0x08 ? 9 : 6)] = 17;
		buf[10 + 14 + (buf[10 + 12] == 0x08 ? 22 : 42)] = 0x12;
		buf[10 + 14 + (buf[10 + 12] == 0x08 ? 23 : 43)] = 0xb5; /* 4789 */
	}
	return 10 + 20 + next() % 400;
}

int
fuzz_seeded_report(unsigned long iters)
{
	const struct fuzz_rx_stats *s = &fuzz_rx_stats;
	const uint64_t *q = s->q.c;
	const struct fz_need need[] = {
		FZ_NEED(s->expected_checked), FZ_NEED(s->complete),
		FZ_NEED(s->outer_resolved), FZ_NEED(s->good_checked),
		FZ_NEED(s->bad_checked), FZ_NEED(s->inner_good),
		FZ_NEED(s->sub_kept), FZ_NEED(q[HWCSUM_RX_VERDICT_SUB]),
		FZ_NEED(q[HWCSUM_RX_OUTER_L4_BAD]),
		FZ_NEED(q[HWCSUM_RX_OUTER_IP_BAD]),
		FZ_NEED(q[HWCSUM_RX_L4_NONE]), FZ_NEED(q[HWCSUM_RX_UNKNOWN]),
		FZ_NEED(q[HWCSUM_RX_TUNNEL_MALFORMED]),
		FZ_NEED(q[HWCSUM_RX_INNER_UNKNOWN]),
	};

	printf("%s: %lu inputs (%lu structured, %lu checked against expected verdicts), "
	       "COMPLETE checked %lu, GOOD/BAD claims checked %lu/%lu, COMPLETE + good "
	       "inner %lu, sub-port verdict kept %lu, tunnels %lu, outer partial "
	       "resolved %lu, classification disagreements %lu\n", TARGET, s->inputs,
	       s->structured, s->expected_checked, s->complete, s->good_checked,
	       s->bad_checked, s->inner_good, s->sub_kept, s->tunnels,
	       s->outer_resolved, s->disagreements);
	printf("%s: counters: complete %" PRIu64 " verdict_sub %" PRIu64 " ip_bad %"
	       PRIu64 " l4_bad %" PRIu64 " outer_ip_bad %" PRIu64 " outer_l4_bad %"
	       PRIu64 " l4_none %" PRIu64 " unknown %" PRIu64 " tunnel_malformed %"
	       PRIu64 " inner_unknown %" PRIu64 "\n", TARGET, q[HWCSUM_RX_COMPLETE],
	       q[HWCSUM_RX_VERDICT_SUB], q[HWCSUM_RX_IP_BAD], q[HWCSUM_RX_L4_BAD],
	       q[HWCSUM_RX_OUTER_IP_BAD], q[HWCSUM_RX_OUTER_L4_BAD], q[HWCSUM_RX_L4_NONE],
	       q[HWCSUM_RX_UNKNOWN], q[HWCSUM_RX_TUNNEL_MALFORMED],
	       q[HWCSUM_RX_INNER_UNKNOWN]);
	if (iters < 10000)
		return 0;
	return fz_needs(need, RTE_DIM(need));
}
