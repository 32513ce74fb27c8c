/* SPDX-License-Identifier: BSD-3-Clause */
/* The one header walker: Ethernet, tags, IPv4/IPv6 (csum_walk.h). */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "csum_walk.h"
#include "csum_proto.h"

#define ETH_HLEN 14
#define ETH_TYPE_OFF 12
#define VLAN_HLEN 4
#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define ETHERTYPE_VLAN 0x8100
#define ETHERTYPE_QINQ 0x88a8
#define IPV4_HLEN 20
#define IPV4_MF_OFFSET 0x3fff	/* MF flag and fragment offset */
#define IPV4_OFFSET 0x1fff
#define IPV6_HLEN 40
#define IPV6_FRAG_HLEN 8
#define IPV6_FRAG_OFFSET 0xfff8
#define RH_TYPE0 0	/* RFC 2460 (deprecated by RFC 5095, still parsed) */
#define RH_TYPE2 2	/* RFC 6275: one address, the home address */
#define RH_SRH 4	/* RFC 8754 */
#define IPV6_ADDR_LEN 16

static const char *const status_names[] = {
	[CSUM_WALK_OK] = "ok",
	[CSUM_WALK_TRUNCATED] = "truncated",
	[CSUM_WALK_TOO_MANY_VLANS] = "too_many_vlans",
	[CSUM_WALK_NOT_IP] = "not_ip",
	[CSUM_WALK_BAD_VERSION] = "bad_version",
	[CSUM_WALK_BAD_HEADER] = "bad_header",
	[CSUM_WALK_BAD_LENGTH] = "bad_length",
	[CSUM_WALK_BAD_ROUTING] = "bad_routing",
};

const char *
csum_walk_status_name(enum csum_walk_status status)
{
	if ((unsigned int)status >= sizeof(status_names) / sizeof(status_names[0]))
		return "unknown";
	return status_names[status];
}

/* off + n within len, without 32-bit overflow. */
static inline bool
fits(uint32_t off, uint32_t n, uint32_t len)
{
	return (uint64_t)off + n <= len;
}

enum csum_walk_status
csum_walk_l2(const void *hdr, uint32_t hdr_len, uint32_t off,
	     struct csum_walk *w)
{
	const uint8_t *p = hdr;
	uint32_t type_off = off + ETH_TYPE_OFF;
	uint16_t type;

	memset(w, 0, sizeof(*w));
	w->l2_off = off;
	if (p == NULL || !fits(off, ETH_HLEN, hdr_len))
		return CSUM_WALK_TRUNCATED;
	type = csum_be16(p + type_off);
	while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ) {
		if (w->n_vlans == CSUM_WALK_MAX_VLANS)
			return CSUM_WALK_TOO_MANY_VLANS;
		if (w->n_vlans++ == 0)
			w->outer_tpid = type;
		type_off += VLAN_HLEN;
		if (!fits(type_off, 2, hdr_len))
			return CSUM_WALK_TRUNCATED;
		type = csum_be16(p + type_off);
	}
	w->ethertype = type;
	w->l3_off = type_off + 2;
	return CSUM_WALK_OK;
}

static enum csum_walk_status
walk_ipv4(const uint8_t *p, uint32_t hdr_len, uint32_t pkt_len, uint32_t off,
	  struct csum_walk *w)
{
	uint32_t ihl, total;
	uint16_t frag;

	if (!fits(off, IPV4_HLEN, hdr_len))
		return CSUM_WALK_TRUNCATED;
	ihl = (p[off] & 0xf) * 4u;
	if (ihl < IPV4_HLEN)
		return CSUM_WALK_BAD_HEADER;
	if (ihl > IPV4_HLEN)
		w->flags |= CSUM_WALK_F_IP_OPTIONS;
	frag = csum_be16(p + off + 6);
	if (frag & IPV4_MF_OFFSET)
		w->flags |= CSUM_WALK_F_FRAGMENT;
	if (frag & IPV4_OFFSET)
		w->flags |= CSUM_WALK_F_LATER_FRAG;
	w->l4_proto = p[off + 9];
	total = csum_be16(p + off + 2);
	if (total < ihl || !fits(off, total, pkt_len))
		return CSUM_WALK_BAD_LENGTH;
	w->l3_end = off + total;
	if (!fits(off, ihl, hdr_len))
		return CSUM_WALK_TRUNCATED;
	w->l4_off = off + ihl;
	return CSUM_WALK_OK;
}

/*
 * A routing header of len bytes at pos, wholly in view, whose Segments Left
 * is not 0: where its final destination is (RFC 8200 8.1 and 4.4: the
 * pseudo-header of a packet still on its way uses the last hop's address).
 * Only what the type's RFC allows is read; anything else is BAD_ROUTING
 * (a receiver would answer it with an ICMPv6 Parameter Problem).
 */
static enum csum_walk_status
routing_final_dst(const uint8_t *p, uint32_t pos, uint32_t len,
		  struct csum_walk *w)
{
	uint32_t units = p[pos + 1], left = p[pos + 3], n;

	if (w->flags & CSUM_WALK_F_ROUTED)
		return CSUM_WALK_BAD_ROUTING; /* two final destinations */
	switch (p[pos + 2]) {
	case RH_TYPE0:
		/* 4 reserved bytes, then n = units / 2 addresses. */
		n = units / 2;
		if ((units & 1) || left > n)
			return CSUM_WALK_BAD_ROUTING;
		w->final_dst_off = pos + len - IPV6_ADDR_LEN;
		break;
	case RH_TYPE2:
		if (units != 2 || left != 1)
			return CSUM_WALK_BAD_ROUTING;
		w->final_dst_off = pos + 8;
		break;
	case RH_SRH:
		/* Last Entry + 1 segments from byte 8, Segment List[0] first;
		 * TLVs may follow them. */
		n = p[pos + 4] + 1u;
		if (2 * n > units || left > n)
			return CSUM_WALK_BAD_ROUTING;
		w->final_dst_off = pos + 8;
		break;
	default:
		return CSUM_WALK_BAD_ROUTING;
	}
	w->flags |= CSUM_WALK_F_ROUTED;
	return CSUM_WALK_OK;
}

/* n bytes at pos: inside the datagram first (a lie), then in the view. */
static inline enum csum_walk_status
ext_fits(uint32_t pos, uint32_t n, uint32_t end, uint32_t hdr_len)
{
	if (!fits(pos, n, end))
		return CSUM_WALK_BAD_LENGTH;
	if (!fits(pos, n, hdr_len))
		return CSUM_WALK_TRUNCATED;
	return CSUM_WALK_OK;
}

static enum csum_walk_status
walk_ipv6(const uint8_t *p, uint32_t hdr_len, uint32_t pkt_len, uint32_t off,
	  struct csum_walk *w)
{
	enum csum_walk_status st;
	uint32_t pos = off + IPV6_HLEN, end, len;
	uint16_t payload;
	uint8_t next;

	if (!fits(off, IPV6_HLEN, hdr_len))
		return CSUM_WALK_TRUNCATED;
	payload = csum_be16(p + off + 4);
	next = p[off + 6];
	if (payload == 0 && next == IPPROTO_HOPOPTS) {
		/* RFC 2675 jumbogram: the length is in an option; trust pkt_len. */
		w->flags |= CSUM_WALK_F_JUMBO;
		end = pkt_len;
	} else {
		if (!fits(pos, payload, pkt_len))
			return CSUM_WALK_BAD_LENGTH;
		end = pos + payload;
	}
	w->l3_end = end;
	for (;;) {
		switch (next) {
		case IPPROTO_HOPOPTS:
		case IPPROTO_ROUTING:
		case IPPROTO_DSTOPTS:
		case IPPROTO_AH:
			w->flags |= CSUM_WALK_F_EXT_HDRS;
			st = ext_fits(pos, 2, end, hdr_len);
			if (st != CSUM_WALK_OK)
				return st;
			/* AH counts 4-byte units minus 2, the others 8-byte units minus 1. */
			len = next == IPPROTO_AH ? (p[pos + 1] + 2u) * 4 :
				(p[pos + 1] + 1u) * 8;
			st = ext_fits(pos, len, end, hdr_len);
			if (st != CSUM_WALK_OK)
				return st;
			if (next == IPPROTO_ROUTING && p[pos + 3] != 0) {
				st = routing_final_dst(p, pos, len, w);
				if (st != CSUM_WALK_OK)
					return st;
			}
			next = p[pos];
			pos += len;
			break;
		case IPPROTO_FRAGMENT:
			/* The walk ends here: what follows may be in another fragment. */
			w->flags |= CSUM_WALK_F_FRAGMENT;
			st = ext_fits(pos, IPV6_FRAG_HLEN, end, hdr_len);
			if (st != CSUM_WALK_OK)
				return st;
			if (csum_be16(p + pos + 2) & IPV6_FRAG_OFFSET)
				w->flags |= CSUM_WALK_F_LATER_FRAG;
			w->l4_proto = p[pos];
			w->l4_off = pos + IPV6_FRAG_HLEN;
			return CSUM_WALK_OK;
		default:
			w->l4_proto = next;
			w->l4_off = pos;
			return CSUM_WALK_OK;
		}
	}
}

enum csum_walk_status
csum_walk_ip(const void *hdr, uint32_t hdr_len, uint32_t pkt_len,
	     uint32_t off, uint16_t ethertype, struct csum_walk *w)
{
	const uint8_t *p = hdr;
	uint8_t version;

	w->l3_off = off;
	w->l4_off = 0;
	w->l3_end = 0;
	w->ip_version = 0;
	w->l4_proto = 0;
	w->flags = 0;
	w->final_dst_off = 0;
	if (hdr_len > pkt_len)
		hdr_len = pkt_len;
	if (ethertype != 0 && ethertype != ETHERTYPE_IPV4 &&
	    ethertype != ETHERTYPE_IPV6)
		return CSUM_WALK_NOT_IP;
	if (p == NULL || !fits(off, 1, hdr_len))
		return CSUM_WALK_TRUNCATED;
	version = p[off] >> 4;
	if ((version != 4 && version != 6) ||
	    (ethertype == ETHERTYPE_IPV4 && version != 4) ||
	    (ethertype == ETHERTYPE_IPV6 && version != 6))
		return CSUM_WALK_BAD_VERSION;
	w->ip_version = version;
	if (version == 4)
		return walk_ipv4(p, hdr_len, pkt_len, off, w);
	return walk_ipv6(p, hdr_len, pkt_len, off, w);
}

enum csum_walk_status
csum_walk_eth(const void *hdr, uint32_t hdr_len, uint32_t pkt_len,
	      uint32_t off, struct csum_walk *w)
{
	enum csum_walk_status st;

	if (hdr_len > pkt_len)
		hdr_len = pkt_len;
	st = csum_walk_l2(hdr, hdr_len, off, w);
	if (st != CSUM_WALK_OK)
		return st;
	if (w->ethertype != ETHERTYPE_IPV4 && w->ethertype != ETHERTYPE_IPV6)
		return CSUM_WALK_NOT_IP;
	return csum_walk_ip(hdr, hdr_len, pkt_len, w->l3_off, w->ethertype, w);
}
