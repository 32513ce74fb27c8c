/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TUNNEL_ENCAP_FAST_H
#define HWCSUM_TUNNEL_ENCAP_FAST_H

/*
 * Encapsulation's per-packet shortcuts for the common frame, each exactly
 * what the general code gives (tests/tunnel/test_encap_fast.c compares
 * them on random and crafted frames): the walk of an untagged IPv4 frame
 * without options, and the flow hash of a 4-word key.
 */

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_jhash.h>

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

/* rte_jhash_32b(k, n, 0), unrolled for n == 4 (IPv4 addresses, protocol,
 * ports): the same state, one mix, the same final. */
static inline uint32_t
gw_jhash_32b(const uint32_t *k, uint32_t n)
{
	uint32_t a, b, c;

	if (n != 4)
		return rte_jhash_32b(k, n, 0);
	a = b = c = RTE_JHASH_GOLDEN_RATIO + 16;
	a += k[0];
	b += k[1];
	c += k[2];
	__rte_jhash_mix(a, b, c);
	a += k[3];
	__rte_jhash_final(a, b, c);
	return c;
}

#endif /* HWCSUM_TUNNEL_ENCAP_FAST_H */
