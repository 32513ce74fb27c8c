/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_CSUM_OFFLOAD_H
#define HWCSUM_CSUM_OFFLOAD_H

/**
 * @file
 * Can this device compute this packet's checksum, or must software do it?
 *
 * A modern form of Linux 4.5-4.8's skb_csum_offload_chk() and struct
 * skb_csum_offl_spec. A device's transmit checksum engine is one of:
 *
 * - generic: sums from any csum_start to the end of the packet and stores at
 *   csum_start + csum_offset, whatever the protocols (virtio-net
 *   VIRTIO_NET_F_CSUM, the e1000 TCP/UDP context with its 8-bit offsets);
 *   only the offsets are limited.
 * - parse: finds the headers itself and only knows some protocols (e1000e,
 *   rtl8139, most NICs' "IP/TCP/UDP checksum" bits); the "okay" bits say
 *   which.
 * - none.
 *
 * csum_offload_check() is a pure function of the spec, the request and the
 * packet's header bytes: it parses, decides, and says why.
 * csum_offload_resolve() applies that decision to an mbuf: it leaves a
 * request the device can do untouched and completes any other in software.
 *
 * SCTP's checksum is a CRC32c, not a ones' complement sum (Linux renamed
 * NETIF_F_SCTP_CSUM to NETIF_F_SCTP_CRC for that reason): a request for it
 * is marked CSUM_OFFLOAD_F_CRC32C and is only ever given to a device whose
 * spec has sctp_okay.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

enum csum_engine {
	CSUM_ENGINE_NONE = 0,
	CSUM_ENGINE_GENERIC,
	CSUM_ENGINE_PARSE,
};

/** What a device's transmit checksum engine accepts. */
struct csum_offload_spec {
	enum csum_engine engine;
	/** generic: largest csum_start the engine takes (e.g. 255 for e1000). */
	uint16_t max_csum_start;
	/** generic: largest csum_start + csum_offset (where the field lies). */
	uint16_t max_csum_field;
	/* parse: the "okay" bits of skb_csum_offl_spec. */
	uint16_t ipv4_okay:1;       /**< L4 over IPv4 */
	uint16_t ipv6_okay:1;       /**< L4 over IPv6 */
	uint16_t encap_okay:1;      /**< inner headers of a tunnel */
	uint16_t ip_options_okay:1; /**< IPv4 header with options (ihl > 5) */
	uint16_t ext_hdrs_okay:1;   /**< IPv6 extension headers before the L4 */
	uint16_t tcp_okay:1;
	uint16_t udp_okay:1;
	uint16_t vlan_okay:1;       /**< 802.1Q/802.1ad tags in front of the IP header */
	uint16_t no_encapped_ipv6:1; /**< inner IPv6 not supported even if ipv6_okay */
	uint16_t no_not_encapped:1; /**< only inner checksums (tunnel-only engine) */
	/** SCTP CRC32c (either engine; checked apart from the rest). */
	uint16_t sctp_okay:1;
};

/** Request flags. */
#define CSUM_OFFLOAD_F_CRC32C (1u << 0) /**< SCTP CRC32c, not a ones' complement sum */
#define CSUM_OFFLOAD_F_ENCAP  (1u << 1) /**< checksum of an inner L4 header */

/** One packet's CHECKSUM_PARTIAL request (offsets from the packet's first byte). */
struct csum_offload_req {
	uint32_t csum_start;
	uint32_t csum_offset;
	uint32_t flags;     /**< CSUM_OFFLOAD_F_* */
	/**
	 * Offset of the IP header carrying the L4 header at csum_start; needed
	 * (non-zero) with CSUM_OFFLOAD_F_ENCAP. Without it, 0 means: parse
	 * Ethernet and VLAN tags from byte 0 to find it.
	 */
	uint32_t l3_off;
};

enum csum_offload_verdict {
	CSUM_OFFLOAD_SW = 0, /**< software must (or did) compute it */
	CSUM_OFFLOAD_HW = 1, /**< the device can: give it the request */
};

/** Why: one value per decision, for counters (csum_offload_reason_name()). */
enum csum_offload_reason {
	CSUM_OFFLOAD_OK = 0,           /**< device can do it */
	CSUM_OFFLOAD_R_NO_ENGINE,      /**< device has no checksum engine */
	CSUM_OFFLOAD_R_START_TOO_FAR,  /**< generic: csum_start above max_csum_start */
	CSUM_OFFLOAD_R_FIELD_TOO_FAR,  /**< generic: field above max_csum_field */
	CSUM_OFFLOAD_R_CRC32C,         /**< SCTP CRC32c not supported (or not SCTP-shaped) */
	CSUM_OFFLOAD_R_UNPARSED,       /**< parse: headers not understood or not in reach */
	CSUM_OFFLOAD_R_VLAN,
	CSUM_OFFLOAD_R_ENCAP,
	CSUM_OFFLOAD_R_NOT_ENCAP,      /**< no_not_encapped */
	CSUM_OFFLOAD_R_IPV4,
	CSUM_OFFLOAD_R_IPV6,
	CSUM_OFFLOAD_R_IP_OPTIONS,
	CSUM_OFFLOAD_R_EXT_HDRS,
	CSUM_OFFLOAD_R_FRAGMENT,       /**< non-first fragment or fragment header */
	CSUM_OFFLOAD_R_L4_PROTO,       /**< not TCP/UDP (or tcp/udp not okay) */
	CSUM_OFFLOAD_R_START_MISMATCH, /**< csum_start is not the L4 header */
	CSUM_OFFLOAD_R_OFFSET_MISMATCH,/**< csum_offset is not the protocol's field */
	CSUM_OFFLOAD_R__COUNT
};

/** Outcome of csum_offload_check(): the verdict, the reason, what was parsed. */
struct csum_offload_result {
	enum csum_offload_verdict verdict;
	enum csum_offload_reason reason;
	/* Filled by a parse-engine check as far as it got (0 if unknown), so a
	 * driver can program a parsing NIC (l2/l3 lengths, L4 type). */
	uint8_t ip_version;  /**< 4 or 6 */
	uint8_t l4_proto;    /**< IPPROTO_* */
	uint8_t n_vlans;
	uint32_t l3_off;
	uint32_t l4_off;
};

/**
 * Decide whether the device described by spec can satisfy req.
 *
 * @param hdr      the packet's first bytes, contiguous (may be NULL if
 *                 hdr_len is 0: then a parse engine always says software).
 * @param hdr_len  how many bytes hdr holds.
 * @param pkt_len  the packet's full length.
 * @param res      filled on success.
 * @return 0; -EINVAL when req itself is impossible (field not within the
 *   packet behind csum_start, ENCAP without l3_off, l3_off beyond
 *   csum_start).
 */
int csum_offload_check(const struct csum_offload_spec *spec,
		       const struct csum_offload_req *req, const void *hdr,
		       uint32_t hdr_len, uint32_t pkt_len,
		       struct csum_offload_result *res);

/**
 * The request itself is possible: the field within the packet behind
 * csum_start, ENCAP with its l3_off, l3_off in front of csum_start. The
 * first thing csum_offload_check() asks (inline, for callers that know the
 * engine's answer without asking it).
 */
static inline bool
csum_offload_req_valid(const struct csum_offload_req *req, uint32_t pkt_len)
{
	uint32_t field = req->flags & CSUM_OFFLOAD_F_CRC32C ? 4 : 2;

	if ((uint64_t)req->csum_start + req->csum_offset + field > pkt_len)
		return false;
	if ((req->flags & CSUM_OFFLOAD_F_ENCAP) && req->l3_off == 0)
		return false;
	return req->l3_off == 0 || req->l3_off < req->csum_start;
}

/**
 * csum_offload_check() on an mbuf, then resolve in software whatever the
 * device cannot do (csum_mbuf_apply_partial() or the SCTP CRC32c).
 * @return CSUM_OFFLOAD_HW (1): untouched, give the request to the device;
 *   CSUM_OFFLOAD_SW (0): checksum written; negative errno as
 *   csum_offload_check() or the mbuf functions. res may be NULL.
 */
int csum_offload_resolve(struct rte_mbuf *m,
			 const struct csum_offload_spec *spec,
			 const struct csum_offload_req *req,
			 struct csum_offload_result *res);

/**
 * SCTP CRC32c in software over m from csum_start to the end, stored at
 * csum_start + csum_offset (the field is zeroed first, as RFC 9260 says).
 */
int csum_mbuf_apply_crc32c(struct rte_mbuf *m, uint32_t csum_start,
			   uint32_t csum_offset);

/** Short stable name of a reason ("ok", "no_engine", ...), for xstats. */
const char *csum_offload_reason_name(enum csum_offload_reason reason);

#ifdef __cplusplus
}
#endif

#endif
