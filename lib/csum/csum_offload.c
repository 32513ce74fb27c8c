/* SPDX-License-Identifier: BSD-3-Clause */
/* The offloadability check (Linux 4.5's skb_csum_offload_chk, revisited). */
#include <errno.h>
#include <string.h>

#include "csum_mbuf.h"
#include "csum_offload.h"
#include "csum_proto.h"
#include "csum_walk.h"

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
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

static int
verdict(struct csum_offload_result *res, enum csum_offload_reason reason)
{
	res->reason = reason;
	res->verdict = reason == CSUM_OFFLOAD_OK ? CSUM_OFFLOAD_HW : CSUM_OFFLOAD_SW;
	return 0;
}

/* What the walker saw at the IP layer against what the engine accepts. */
static enum csum_offload_reason
ip_reason(const struct csum_offload_spec *spec, const struct csum_walk *w,
	  bool inner)
{
	if (w->ip_version == 4 && !spec->ipv4_okay)
		return CSUM_OFFLOAD_R_IPV4;
	if (w->ip_version == 6 &&
	    (!spec->ipv6_okay || (inner && spec->no_encapped_ipv6)))
		return CSUM_OFFLOAD_R_IPV6;
	if ((w->flags & CSUM_WALK_F_IP_OPTIONS) && !spec->ip_options_okay)
		return CSUM_OFFLOAD_R_IP_OPTIONS;
	if ((w->flags & CSUM_WALK_F_EXT_HDRS) && !spec->ext_hdrs_okay)
		return CSUM_OFFLOAD_R_EXT_HDRS;
	/* A fragment has no whole L4 datagram to checksum. */
	if (w->flags & CSUM_WALK_F_FRAGMENT)
		return CSUM_OFFLOAD_R_FRAGMENT;
	return CSUM_OFFLOAD_OK;
}

/* Is the L4 header at l4_off one the engine can do, as requested? */
static enum csum_offload_reason
l4_reason(const struct csum_offload_spec *spec,
	  const struct csum_offload_req *req, uint8_t l4_proto)
{
	bool crc = req->flags & CSUM_OFFLOAD_F_CRC32C;

	switch (l4_proto) {
	case IPPROTO_TCP:
		if (crc)
			return CSUM_OFFLOAD_R_CRC32C;
		if (!spec->tcp_okay)
			return CSUM_OFFLOAD_R_L4_PROTO;
		if (req->csum_offset != CSUM_TCP_OFFSET)
			return CSUM_OFFLOAD_R_OFFSET_MISMATCH;
		return CSUM_OFFLOAD_OK;
	case IPPROTO_UDP:
		if (crc)
			return CSUM_OFFLOAD_R_CRC32C;
		if (!spec->udp_okay)
			return CSUM_OFFLOAD_R_L4_PROTO;
		if (req->csum_offset != CSUM_UDP_OFFSET)
			return CSUM_OFFLOAD_R_OFFSET_MISMATCH;
		return CSUM_OFFLOAD_OK;
	case IPPROTO_SCTP:
		if (!crc)
			return CSUM_OFFLOAD_R_L4_PROTO;
		if (!spec->sctp_okay)
			return CSUM_OFFLOAD_R_CRC32C;
		if (req->csum_offset != CSUM_SCTP_OFFSET)
			return CSUM_OFFLOAD_R_OFFSET_MISMATCH;
		return CSUM_OFFLOAD_OK;
	default:
		return crc ? CSUM_OFFLOAD_R_CRC32C : CSUM_OFFLOAD_R_L4_PROTO;
	}
}

/* A parsing engine: the headers as the walker (csum_walk.h) reads them. */
static int
check_parse(const struct csum_offload_spec *spec,
	    const struct csum_offload_req *req, const uint8_t *hdr,
	    uint32_t hdr_len, uint32_t pkt_len, struct csum_offload_result *res)
{
	bool encap = req->flags & CSUM_OFFLOAD_F_ENCAP;
	enum csum_offload_reason r;
	enum csum_walk_status st;
	struct csum_walk w;
	bool natural;
	uint32_t l3;

	/* Ethernet and VLAN tags: a parsing engine reads them first. */
	if (csum_walk_l2(hdr, hdr_len, 0, &w) != CSUM_WALK_OK) {
		res->n_vlans = w.n_vlans;
		return verdict(res, CSUM_OFFLOAD_R_UNPARSED);
	}
	res->n_vlans = w.n_vlans;
	if (w.n_vlans && !spec->vlan_okay)
		return verdict(res, CSUM_OFFLOAD_R_VLAN);
	if (encap) {
		if (!spec->encap_okay)
			return verdict(res, CSUM_OFFLOAD_R_ENCAP);
		l3 = req->l3_off;
	} else {
		if (spec->no_not_encapped)
			return verdict(res, CSUM_OFFLOAD_R_NOT_ENCAP);
		l3 = req->l3_off ? req->l3_off : w.l3_off;
	}
	res->l3_off = l3;
	/* The ethertype must agree when the IP header follows it directly. */
	natural = !encap && l3 == w.l3_off;
	if (natural && w.ethertype != ETHERTYPE_IPV4 && w.ethertype != ETHERTYPE_IPV6)
		return verdict(res, CSUM_OFFLOAD_R_UNPARSED);
	st = csum_walk_ip(hdr, hdr_len, pkt_len, l3, natural ? w.ethertype : 0, &w);
	res->ip_version = w.ip_version;
	if (st != CSUM_WALK_OK)
		return verdict(res, CSUM_OFFLOAD_R_UNPARSED);
	r = ip_reason(spec, &w, encap);
	if (r != CSUM_OFFLOAD_OK)
		return verdict(res, r);
	res->l4_proto = w.l4_proto;
	res->l4_off = w.l4_off;
	if (res->l4_off != req->csum_start)
		return verdict(res, CSUM_OFFLOAD_R_START_MISMATCH);
	return verdict(res, l4_reason(spec, req, w.l4_proto));
}

int
csum_offload_check(const struct csum_offload_spec *spec,
		   const struct csum_offload_req *req, const void *hdr,
		   uint32_t hdr_len, uint32_t pkt_len,
		   struct csum_offload_result *res)
{
	bool crc = req->flags & CSUM_OFFLOAD_F_CRC32C;
	uint32_t view = hdr == NULL ? 0 : hdr_len;

	memset(res, 0, sizeof(*res));
	res->verdict = CSUM_OFFLOAD_SW;
	if (!csum_offload_req_valid(req, pkt_len))
		return -EINVAL;
	if (view > pkt_len)
		view = pkt_len;

	switch (spec->engine) {
	case CSUM_ENGINE_NONE:
		return verdict(res, CSUM_OFFLOAD_R_NO_ENGINE);
	case CSUM_ENGINE_GENERIC:
		/* Offsets only: a generic engine never looks at protocols. */
		if (crc && (!spec->sctp_okay || req->csum_offset != CSUM_SCTP_OFFSET))
			return verdict(res, CSUM_OFFLOAD_R_CRC32C);
		if (req->csum_start > spec->max_csum_start)
			return verdict(res, CSUM_OFFLOAD_R_START_TOO_FAR);
		if ((uint64_t)req->csum_start + req->csum_offset > spec->max_csum_field)
			return verdict(res, CSUM_OFFLOAD_R_FIELD_TOO_FAR);
		return verdict(res, CSUM_OFFLOAD_OK);
	case CSUM_ENGINE_PARSE:
		return check_parse(spec, req, hdr, view, pkt_len, res);
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
