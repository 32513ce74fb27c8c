/* SPDX-License-Identifier: BSD-3-Clause */
/* The offloadability check (Linux 4.5's skb_csum_offload_chk, revisited). */
#include <errno.h>
#include <string.h>

#include "csum_mbuf.h"
#include "csum_offload.h"

#define ETH_HLEN 14
#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define ETHERTYPE_VLAN 0x8100
#define ETHERTYPE_QINQ 0x88a8
#define PROTO_HOPOPTS 0
#define PROTO_TCP 6
#define PROTO_UDP 17
#define PROTO_ROUTING 43
#define PROTO_FRAGMENT 44
#define PROTO_AH 51
#define PROTO_DSTOPTS 60
#define PROTO_SCTP 132
#define MAX_VLANS 2
/* Header bytes csum_offload_resolve() looks at: more than any sane stack. */
#define RESOLVE_HDR_MAX 256

static const char *const reason_names[CSUM_OFFLOAD_R__COUNT] = {
	[CSUM_OFFLOAD_OK] = "ok",
	[CSUM_OFFLOAD_R_NO_ENGINE] = "no_engine",
	[CSUM_OFFLOAD_R_START_TOO_FAR] = "start_too_far",
	[CSUM_OFFLOAD_R_FIELD_TOO_FAR] = "field_too_far",
	[CSUM_OFFLOAD_R_CRC32C] = "crc32c",
	[CSUM_OFFLOAD_R_UNPARSED] = "unparsed",
	[CSUM_OFFLOAD_R_VLAN] = "vlan",
	[CSUM_OFFLOAD_R_ENCAP] = "encap",
	[CSUM_OFFLOAD_R_NOT_ENCAP] = "not_encap",
	[CSUM_OFFLOAD_R_IPV4] = "ipv4",
	[CSUM_OFFLOAD_R_IPV6] = "ipv6",
	[CSUM_OFFLOAD_R_IP_OPTIONS] = "ip_options",
	[CSUM_OFFLOAD_R_EXT_HDRS] = "ext_hdrs",
	[CSUM_OFFLOAD_R_FRAGMENT] = "fragment",
	[CSUM_OFFLOAD_R_L4_PROTO] = "l4_proto",
	[CSUM_OFFLOAD_R_START_MISMATCH] = "start_mismatch",
	[CSUM_OFFLOAD_R_OFFSET_MISMATCH] = "offset_mismatch",
};

const char *
csum_offload_reason_name(enum csum_offload_reason reason)
{
	if ((unsigned int)reason >= CSUM_OFFLOAD_R__COUNT)
		return "unknown";
	return reason_names[reason];
}

/* Bounded big-endian reads of the header bytes. */
struct hdr_view {
	const uint8_t *p;
	uint32_t len;
};

static inline bool
have(const struct hdr_view *h, uint32_t off, uint32_t n)
{
	return (uint64_t)off + n <= h->len;
}

static inline uint16_t
be16_at(const struct hdr_view *h, uint32_t off)
{
	return (uint16_t)((h->p[off] << 8) | h->p[off + 1]);
}

static int
verdict(struct csum_offload_result *res, enum csum_offload_reason reason)
{
	res->reason = reason;
	res->verdict = reason == CSUM_OFFLOAD_OK ? CSUM_OFFLOAD_HW : CSUM_OFFLOAD_SW;
	return 0;
}

/* IPv4 at l3: fills ip_version, l4_proto, l4_off, or says why not. */
static enum csum_offload_reason
parse_ipv4(const struct csum_offload_spec *spec, const struct hdr_view *h,
	   uint32_t l3, struct csum_offload_result *res)
{
	uint32_t ihl;

	res->ip_version = 4;
	if (!have(h, l3, 20))
		return CSUM_OFFLOAD_R_UNPARSED;
	if (!spec->ipv4_okay)
		return CSUM_OFFLOAD_R_IPV4;
	ihl = (h->p[l3] & 0xf) * 4u;
	if (ihl < 20)
		return CSUM_OFFLOAD_R_UNPARSED;
	if (ihl > 20 && !spec->ip_options_okay)
		return CSUM_OFFLOAD_R_IP_OPTIONS;
	/* A fragment has no whole L4 datagram to checksum (MF or an offset). */
	if (be16_at(h, l3 + 6) & 0x3fff)
		return CSUM_OFFLOAD_R_FRAGMENT;
	res->l4_proto = h->p[l3 + 9];
	res->l4_off = l3 + ihl;
	return CSUM_OFFLOAD_OK;
}

static enum csum_offload_reason
parse_ipv6(const struct csum_offload_spec *spec, const struct hdr_view *h,
	   uint32_t l3, bool inner, struct csum_offload_result *res)
{
	uint32_t off = l3 + 40;
	uint8_t next;

	res->ip_version = 6;
	if (!have(h, l3, 40))
		return CSUM_OFFLOAD_R_UNPARSED;
	if (!spec->ipv6_okay || (inner && spec->no_encapped_ipv6))
		return CSUM_OFFLOAD_R_IPV6;
	next = h->p[l3 + 6];
	for (;;) {
		switch (next) {
		case PROTO_HOPOPTS:
		case PROTO_ROUTING:
		case PROTO_DSTOPTS:
		case PROTO_AH: {
			uint8_t cur = next;

			if (!spec->ext_hdrs_okay)
				return CSUM_OFFLOAD_R_EXT_HDRS;
			if (!have(h, off, 2))
				return CSUM_OFFLOAD_R_UNPARSED;
			next = h->p[off];
			/* AH counts 4-byte units minus 2, the others 8-byte units minus 1. */
			off += cur == PROTO_AH ? (h->p[off + 1] + 2u) * 4 :
				(h->p[off + 1] + 1u) * 8;
			break;
		}
		case PROTO_FRAGMENT:
			return CSUM_OFFLOAD_R_FRAGMENT;
		default:
			res->l4_proto = next;
			res->l4_off = off;
			return CSUM_OFFLOAD_OK;
		}
	}
}

static int
check_parse(const struct csum_offload_spec *spec,
	    const struct csum_offload_req *req, const struct hdr_view *h,
	    struct csum_offload_result *res)
{
	bool encap = req->flags & CSUM_OFFLOAD_F_ENCAP;
	bool crc = req->flags & CSUM_OFFLOAD_F_CRC32C;
	enum csum_offload_reason r;
	uint32_t off = 12, l3;
	uint16_t type;

	/* Ethernet and VLAN tags: a parsing engine reads them first. */
	if (!have(h, 0, ETH_HLEN))
		return verdict(res, CSUM_OFFLOAD_R_UNPARSED);
	type = be16_at(h, off);
	while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ) {
		if (++res->n_vlans > MAX_VLANS || !have(h, off + 4, 2))
			return verdict(res, CSUM_OFFLOAD_R_UNPARSED);
		off += 4;
		type = be16_at(h, off);
	}
	if (res->n_vlans && !spec->vlan_okay)
		return verdict(res, CSUM_OFFLOAD_R_VLAN);
	if (encap) {
		if (!spec->encap_okay)
			return verdict(res, CSUM_OFFLOAD_R_ENCAP);
		l3 = req->l3_off;
	} else {
		if (spec->no_not_encapped)
			return verdict(res, CSUM_OFFLOAD_R_NOT_ENCAP);
		l3 = req->l3_off ? req->l3_off : off + 2;
	}
	res->l3_off = l3;
	if (!have(h, l3, 1))
		return verdict(res, CSUM_OFFLOAD_R_UNPARSED);
	/* The ethertype must agree when the IP header follows it directly. */
	if (!encap && l3 == off + 2u &&
	    !((type == ETHERTYPE_IPV4 && h->p[l3] >> 4 == 4) ||
	      (type == ETHERTYPE_IPV6 && h->p[l3] >> 4 == 6)))
		return verdict(res, CSUM_OFFLOAD_R_UNPARSED);
	switch (h->p[l3] >> 4) {
	case 4:
		r = parse_ipv4(spec, h, l3, res);
		break;
	case 6:
		r = parse_ipv6(spec, h, l3, encap, res);
		break;
	default:
		r = CSUM_OFFLOAD_R_UNPARSED;
		break;
	}
	if (r != CSUM_OFFLOAD_OK)
		return verdict(res, r);
	if (res->l4_off != req->csum_start)
		return verdict(res, CSUM_OFFLOAD_R_START_MISMATCH);
	switch (res->l4_proto) {
	case PROTO_TCP:
		if (crc)
			return verdict(res, CSUM_OFFLOAD_R_CRC32C);
		if (!spec->tcp_okay)
			return verdict(res, CSUM_OFFLOAD_R_L4_PROTO);
		if (req->csum_offset != 16)
			return verdict(res, CSUM_OFFLOAD_R_OFFSET_MISMATCH);
		break;
	case PROTO_UDP:
		if (crc)
			return verdict(res, CSUM_OFFLOAD_R_CRC32C);
		if (!spec->udp_okay)
			return verdict(res, CSUM_OFFLOAD_R_L4_PROTO);
		if (req->csum_offset != 6)
			return verdict(res, CSUM_OFFLOAD_R_OFFSET_MISMATCH);
		break;
	case PROTO_SCTP:
		if (!crc)
			return verdict(res, CSUM_OFFLOAD_R_L4_PROTO);
		if (!spec->sctp_okay)
			return verdict(res, CSUM_OFFLOAD_R_CRC32C);
		if (req->csum_offset != 8)
			return verdict(res, CSUM_OFFLOAD_R_OFFSET_MISMATCH);
		break;
	default:
		return verdict(res, crc ? CSUM_OFFLOAD_R_CRC32C : CSUM_OFFLOAD_R_L4_PROTO);
	}
	return verdict(res, CSUM_OFFLOAD_OK);
}

int
csum_offload_check(const struct csum_offload_spec *spec,
		   const struct csum_offload_req *req, const void *hdr,
		   uint32_t hdr_len, uint32_t pkt_len,
		   struct csum_offload_result *res)
{
	bool crc = req->flags & CSUM_OFFLOAD_F_CRC32C;
	struct hdr_view h = { hdr, hdr == NULL ? 0 : hdr_len };

	memset(res, 0, sizeof(*res));
	res->verdict = CSUM_OFFLOAD_SW;
	if ((uint64_t)req->csum_start + req->csum_offset +
	    (crc ? sizeof(uint32_t) : sizeof(uint16_t)) > pkt_len)
		return -EINVAL;
	if ((req->flags & CSUM_OFFLOAD_F_ENCAP) && req->l3_off == 0)
		return -EINVAL;
	if (req->l3_off >= req->csum_start && req->l3_off != 0)
		return -EINVAL;
	if (h.len > pkt_len)
		h.len = pkt_len;

	switch (spec->engine) {
	case CSUM_ENGINE_NONE:
		return verdict(res, CSUM_OFFLOAD_R_NO_ENGINE);
	case CSUM_ENGINE_GENERIC:
		/* Offsets only: a generic engine never looks at protocols. */
		if (crc && (!spec->sctp_okay || req->csum_offset != 8))
			return verdict(res, CSUM_OFFLOAD_R_CRC32C);
		if (req->csum_start > spec->max_csum_start)
			return verdict(res, CSUM_OFFLOAD_R_START_TOO_FAR);
		if ((uint64_t)req->csum_start + req->csum_offset > spec->max_csum_field)
			return verdict(res, CSUM_OFFLOAD_R_FIELD_TOO_FAR);
		return verdict(res, CSUM_OFFLOAD_OK);
	case CSUM_ENGINE_PARSE:
		return check_parse(spec, req, &h, res);
	}
	return -EINVAL;
}

int
csum_mbuf_apply_crc32c(struct rte_mbuf *m, uint32_t csum_start,
		       uint32_t csum_offset)
{
	const struct rte_mbuf *seg;
	uint32_t off = csum_start, left, crc = 0xffffffff;
	const uint32_t zero = 0;
	int ret;

	if ((uint64_t)csum_start + csum_offset + sizeof(uint32_t) > m->pkt_len)
		return -EINVAL;
	ret = csum_mbuf_write(m, csum_start + csum_offset, sizeof(zero), &zero);
	if (ret < 0)
		return ret;
	left = m->pkt_len - csum_start;
	for (seg = m; seg != NULL && off >= seg->data_len; seg = seg->next)
		off -= seg->data_len;
	while (left) {
		uint32_t n;

		if (seg == NULL)
			return -EINVAL;
		n = RTE_MIN((uint32_t)seg->data_len - off, left);
		crc = csum_crc32c(rte_pktmbuf_mtod_offset(seg, const uint8_t *, off),
				  n, crc);
		left -= n;
		off = 0;
		seg = seg->next;
	}
	crc = ~crc;
	/* SCTP stores the CRC32c little-endian (RFC 9260 appendix A). */
	crc = rte_cpu_to_le_32(crc);
	return csum_mbuf_write(m, csum_start + csum_offset, sizeof(crc), &crc);
}

int
csum_offload_resolve(struct rte_mbuf *m, const struct csum_offload_spec *spec,
		     const struct csum_offload_req *req,
		     struct csum_offload_result *res)
{
	struct csum_offload_result local;
	uint8_t hdr[RESOLVE_HDR_MAX];
	uint32_t hdr_len = 0;
	int ret;

	if (res == NULL)
		res = &local;
	if (spec->engine == CSUM_ENGINE_PARSE) {
		hdr_len = RTE_MIN(m->pkt_len, (uint32_t)RESOLVE_HDR_MAX);
		ret = csum_mbuf_read(m, 0, hdr_len, hdr);
		if (ret < 0)
			return ret;
	}
	ret = csum_offload_check(spec, req, hdr, hdr_len, m->pkt_len, res);
	if (ret < 0)
		return ret;
	if (res->verdict == CSUM_OFFLOAD_HW)
		return CSUM_OFFLOAD_HW;
	if (req->flags & CSUM_OFFLOAD_F_CRC32C)
		ret = csum_mbuf_apply_crc32c(m, req->csum_start, req->csum_offset);
	else
		ret = csum_mbuf_apply_partial(m, req->csum_start, req->csum_offset);
	return ret < 0 ? ret : CSUM_OFFLOAD_SW;
}
