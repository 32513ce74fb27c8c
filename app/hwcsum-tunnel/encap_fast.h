/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TUNNEL_ENCAP_FAST_H
#define HWCSUM_TUNNEL_ENCAP_FAST_H

/*
 * Encapsulation's per-packet shortcuts for the common frame, each exactly
 * what the general code gives (tests/tunnel/test_encap_fast.c compares
 * them on random and crafted frames): the walk of an untagged IPv4 frame
 * without options, and the flow hash of an IPv4 frame with ports. The
 * flow hash and the source port are here too, for the tests to judge them
 * as the gateway uses them.
 */

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_hash_crc.h>

#include <csum_walk.h>

/*
 * csum_walk_eth(p, hdr_len, pkt_len, 0, w) for an untagged IPv4 frame with
 * a 20-byte header; anything else goes to csum_walk_eth().
 */
static inline enum csum_walk_status
gw_walk_eth(const uint8_t *p, uint32_t hdr_len, uint32_t pkt_len,
	    struct csum_walk *w)
{
	uint16_t type, total, frag;

	if (hdr_len > pkt_len)
		hdr_len = pkt_len;
	if (hdr_len < 14 + 20)
		return csum_walk_eth(p, hdr_len, pkt_len, 0, w);
	memcpy(&type, p + 12, 2);
	memcpy(&total, p + 16, 2);
	total = rte_be_to_cpu_16(total);
	if (type != RTE_BE16(0x0800) || p[14] != 0x45 || total < 20 ||
	    14u + total > pkt_len)
		return csum_walk_eth(p, hdr_len, pkt_len, 0, w);
	memcpy(&frag, p + 20, 2);
	frag = rte_be_to_cpu_16(frag);
	memset(w, 0, sizeof(*w));
	w->l3_off = 14;
	w->l4_off = 34;
	w->l3_end = 14u + total;
	w->ethertype = 0x0800;
	w->ip_version = 4;
	w->l4_proto = p[23];
	w->flags = ((frag & 0x3fff) ? CSUM_WALK_F_FRAGMENT : 0) |
		((frag & 0x1fff) ? CSUM_WALK_F_LATER_FRAG : 0);
	return CSUM_WALK_OK;
}

/* rte_hash_crc_8byte()/_4byte() without their run-time choice where the
 * build's baseline has the instruction (Debian's DPDK: -march=corei7). */
#if defined(RTE_ARCH_X86_64) && defined(__SSE4_2__)
#include <nmmintrin.h>
#define gw_crc_8byte(data, crc) ((uint32_t)_mm_crc32_u64(crc, data))
#define gw_crc_4byte(data, crc) _mm_crc32_u32(crc, data)
#else
#define gw_crc_8byte(data, crc) rte_hash_crc_8byte(data, crc)
#define gw_crc_4byte(data, crc) rte_hash_crc_4byte(data, crc)
#endif

#define GW_FLOW_HASH_SEED 0xffffffffu
#define GW_FLOW_HASH_MUL 0x9e3779b1u	/* odd: 2^32 / golden ratio */

/*
 * The flow hash of a key of n 32-bit words: rte_hash_crc(k, 4 * n,
 * GW_FLOW_HASH_SEED), one crc32 instruction per 8 bytes, times an odd
 * constant. CRC32-C is linear: flows that differ only in a port or an
 * address hash onto an affine subspace, whose high bits, which the source
 * port is taken from, collide more often than chance would have them. The
 * multiply carries every bit into the high ones. docs/decisions.md says
 * why not jhash or Linux's siphash.
 */
static inline uint32_t
gw_flow_hash_key(const uint32_t *k, uint32_t n)
{
	uint32_t crc = GW_FLOW_HASH_SEED, i;
	uint64_t d;

	for (i = 0; i + 2 <= n; i += 2) {
		memcpy(&d, k + i, 8);
		crc = gw_crc_8byte(d, crc);
	}
	if (i < n)
		crc = gw_crc_4byte(k[i], crc);
	return crc * GW_FLOW_HASH_MUL;
}

/*
 * Flow hash of the inner frame, as Linux's udp_flow_src_port() hashes the
 * flow: addresses, protocol and ports when known, else the MAC header.
 * The key, in words: addresses, protocol, then the ports when the frame
 * has them whole (TCP or UDP, not a fragment). An IPv4 frame with ports is
 * hashed from the frame in two steps, the same bytes as its key.
 */
static inline uint32_t
gw_inner_hash(const uint8_t *p, const struct csum_walk *w, bool ip_ok)
{
	uint32_t k[10], n;
	bool ports = (w->l4_proto == IPPROTO_UDP || w->l4_proto == IPPROTO_TCP) &&
		!(w->flags & CSUM_WALK_F_FRAGMENT);

	if (!ip_ok) {
		k[3] = 0;
		memcpy(k, p, RTE_ETHER_HDR_LEN);
		return gw_flow_hash_key(k, 4);
	}
	if (w->ip_version == 4 && ports) {
		uint64_t addrs, rest;
		uint32_t h;

		memcpy(&addrs, p + w->l3_off + 12, 8);
		k[0] = w->l4_proto;
		memcpy(&k[1], p + w->l4_off, 4);
		memcpy(&rest, k, 8);
		h = gw_crc_8byte(addrs, GW_FLOW_HASH_SEED);
		return gw_crc_8byte(rest, h) * GW_FLOW_HASH_MUL;
	}
	if (w->ip_version == 4) {
		memcpy(k, p + w->l3_off + 12, 8);
		n = 2;
	} else {
		memcpy(k, p + w->l3_off + 8, 32);
		n = 8;
	}
	k[n++] = w->l4_proto;
	if (ports)
		memcpy(&k[n++], p + w->l4_off, 4);
	return gw_flow_hash_key(k, n);
}

/* Linux's udp_flow_src_port(): the hash scaled into [min, max]. */
static inline uint16_t
gw_src_port(uint32_t hash, uint16_t min, uint16_t max)
{
	return min + (uint16_t)(((uint64_t)hash * (uint32_t)(max - min + 1)) >> 32);
}

#endif /* HWCSUM_TUNNEL_ENCAP_FAST_H */
