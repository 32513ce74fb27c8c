/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_CSUM_WALK_H
#define HWCSUM_CSUM_WALK_H

/**
 * @file
 * The one header walker: Ethernet, up to two 802.1Q/802.1ad tags, then
 * IPv4 (options, fragment bits, total length) or IPv6 (hop-by-hop,
 * routing, destination options and AH extension headers; a fragment
 * header ends the walk). A routing header with Segments Left > 0 names the
 * packet's final destination, which the L4 pseudo-header uses (RFC 8200
 * 8.1): the walk records where it is. Receive classification and the transmit
 * offloadability check both use it, so a packet is understood the same way
 * in both directions.
 *
 * It reads a contiguous view of the packet's first bytes: hdr_len bytes at
 * hdr, of a packet (or, for an inner packet, a region) of pkt_len bytes.
 * The view may be shorter than the packet (a copy of the headers); length
 * fields are checked against pkt_len, header bytes against hdr_len. It
 * stops at the first byte after the IP headers: L4 headers are the
 * caller's, who knows which it needs. No DPDK dependency.
 */

#include <stdint.h>

#include "csum_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CSUM_WALK_MAX_VLANS 2

/** Why a walk stopped. Fields are valid as far as the walk got. */
enum csum_walk_status {
	CSUM_WALK_OK = 0,	  /**< every header up to l4_off understood */
	CSUM_WALK_TRUNCATED,	  /**< a header runs past the view (hdr_len) */
	CSUM_WALK_TOO_MANY_VLANS, /**< more than CSUM_WALK_MAX_VLANS tags */
	CSUM_WALK_NOT_IP,	  /**< ethertype neither IPv4 nor IPv6 */
	CSUM_WALK_BAD_VERSION,	  /**< version not 4/6, or not the ethertype's */
	CSUM_WALK_BAD_HEADER,	  /**< IPv4 ihl < 5 */
	CSUM_WALK_BAD_LENGTH,	  /**< IP length shorter than its headers, or past pkt_len */
	CSUM_WALK_BAD_ROUTING,	  /**< IPv6 routing header with Segments Left > 0
				       whose final destination cannot be read:
				       a type other than 0, 2 and 4, a length or
				       Segments Left its type does not allow, or a
				       second such header */
};

/* What the walk saw (flags of struct csum_walk). */
#define CSUM_WALK_F_IP_OPTIONS	(1u << 0) /**< IPv4 header with options (ihl > 5) */
#define CSUM_WALK_F_EXT_HDRS	(1u << 1) /**< IPv6 extension headers before l4_off */
#define CSUM_WALK_F_FRAGMENT	(1u << 2) /**< IPv4 MF or offset, or IPv6 fragment header */
#define CSUM_WALK_F_LATER_FRAG	(1u << 3) /**< fragment offset not 0: no L4 header here */
#define CSUM_WALK_F_JUMBO	(1u << 4) /**< IPv6 payload length 0 with hop-by-hop:
					       l3_end is pkt_len */
#define CSUM_WALK_F_ROUTED	(1u << 5) /**< IPv6 routing header with Segments
					       Left > 0: final_dst_off is valid */

/** Where the headers are (offsets from hdr, like the packet's own). */
struct csum_walk {
	uint32_t l2_off;    /**< Ethernet header */
	uint32_t l3_off;    /**< first byte after Ethernet and tags: the IP header;
				 0 when the Ethernet header and tags did not fit */
	uint32_t l4_off;    /**< first byte after the IP headers */
	uint32_t l3_end;    /**< end of the IP datagram by its length field */
	uint16_t ethertype; /**< after the tags, host order */
	uint16_t outer_tpid; /**< first tag's TPID (0x8100/0x88a8), 0 if untagged */
	uint8_t n_vlans;
	uint8_t ip_version; /**< 4 or 6, once the version nibble was read */
	uint8_t l4_proto;   /**< IPPROTO_* behind the IP headers (fragment: what
				 the fragment carries) */
	uint8_t flags;	    /**< CSUM_WALK_F_* */
	/**
	 * With CSUM_WALK_F_ROUTED only (undefined without it, and
	 * csum_walk_eth_fast() leaves it alone): the 16-byte final destination
	 * in the routing header, which the pseudo-header uses instead of the
	 * IPv6 header's destination (last address of type 0 and type 2,
	 * Segment List[0] of a segment routing header, type 4).
	 */
	uint32_t final_dst_off;
};

/** The pseudo-header's IPv6 destination: the final one (16 bytes at hdr + result). */
static inline uint32_t
csum_walk_ipv6_dst_off(const struct csum_walk *w)
{
	return (w->flags & CSUM_WALK_F_ROUTED) ? w->final_dst_off : w->l3_off + 24;
}

/**
 * Ethernet and tags at off: fills l2_off, n_vlans, outer_tpid, ethertype,
 * l3_off.
 * @return CSUM_WALK_OK, TRUNCATED or TOO_MANY_VLANS.
 */
enum csum_walk_status csum_walk_l2(const void *hdr, uint32_t hdr_len,
				   uint32_t off, struct csum_walk *w);

/**
 * An IP header at off (an inner IP header of GUE or VXLAN-GPE, say):
 * fills ip_version, l3_off, l4_off, l3_end, l4_proto, flags, and leaves
 * the L2 fields alone (zero them first when there was no L2 walk).
 * ethertype 0 takes the version from the header;
 * 0x0800 or 0x86DD require that version (BAD_VERSION otherwise); any other
 * value is NOT_IP.
 */
enum csum_walk_status csum_walk_ip(const void *hdr, uint32_t hdr_len,
				   uint32_t pkt_len, uint32_t off,
				   uint16_t ethertype, struct csum_walk *w);

/**
 * Both: an Ethernet frame at off (outer, or a tunnel's inner frame whose
 * region ends at pkt_len). The IP header must agree with the ethertype.
 */
enum csum_walk_status csum_walk_eth(const void *hdr, uint32_t hdr_len,
				    uint32_t pkt_len, uint32_t off,
				    struct csum_walk *w);

/*
 * csum_walk_eth(), inline for the frames a data path nearly always meets:
 * Ethernet with at most one tag, then IPv4 (any options) or IPv6 without
 * extension headers, every header in view and every length in bounds.
 * Anything else (more tags, extension headers, a truncated or lying
 * header, not IP) is handed to csum_walk_eth(), so the answer is always
 * the same as csum_walk_eth()'s, field for field
 * (tests/csum/test_csum_walk_fast.c checks that).
 */
static inline __attribute__((always_inline)) enum csum_walk_status
csum_walk_eth_fast(const void *hdr, uint32_t hdr_len, uint32_t pkt_len,
		   uint32_t off, struct csum_walk *w)
{
	const uint8_t *p = (const uint8_t *)hdr;
	uint64_t l3 = (uint64_t)off + 14, l4, end;
	uint16_t type, tpid = 0, frag;
	uint8_t n_vlans = 0, version, proto, flags = 0;

	if (hdr_len > pkt_len)
		hdr_len = pkt_len;
	/* Ethernet and the smallest IP header. */
	if (p == NULL || l3 + 20 > hdr_len)
		goto general;
	type = csum_be16(p + l3 - 2);
	if (type == 0x8100 || type == 0x88a8) {
		tpid = type;
		n_vlans = 1;
		l3 += 4;
		if (l3 + 20 > hdr_len)
			goto general;
		type = csum_be16(p + l3 - 2);
	}
	version = p[l3] >> 4;
	if (type == 0x0800 && version == 4) {
		uint32_t ihl = (p[l3] & 0xfu) * 4, total = csum_be16(p + l3 + 2);

		l4 = l3 + ihl;
		end = l3 + total;
		if (ihl < 20 || l4 > hdr_len || total < ihl || end > pkt_len)
			goto general;
		frag = csum_be16(p + l3 + 6);
		if (ihl > 20)
			flags |= CSUM_WALK_F_IP_OPTIONS;
		if (frag & 0x3fff)
			flags |= CSUM_WALK_F_FRAGMENT;
		if (frag & 0x1fff)
			flags |= CSUM_WALK_F_LATER_FRAG;
		proto = p[l3 + 9];
	} else if (type == 0x86dd && version == 6) {
		l4 = l3 + 40;
		if (l4 > hdr_len)
			goto general;
		end = l4 + csum_be16(p + l3 + 4);
		proto = p[l3 + 6];
		/* Hop-by-hop (and a jumbogram), routing, fragment, AH, dest. options. */
		if (end > pkt_len || proto == 0 || proto == 43 || proto == 44 ||
		    proto == 51 || proto == 60)
			goto general;
	} else {
		goto general;
	}
	w->l2_off = off;
	w->l3_off = (uint32_t)l3;
	w->l4_off = (uint32_t)l4;
	w->l3_end = (uint32_t)end;
	w->ethertype = type;
	w->outer_tpid = tpid;
	w->n_vlans = n_vlans;
	w->ip_version = version;
	w->l4_proto = proto;
	w->flags = flags;
	return CSUM_WALK_OK;
general:
	return csum_walk_eth(hdr, hdr_len, pkt_len, off, w);
}

/** Short stable name of a status ("ok", "truncated", ...). */
const char *csum_walk_status_name(enum csum_walk_status status);

#ifdef __cplusplus
}
#endif

#endif
