/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef RTE_PMD_HWCSUM_H
#define RTE_PMD_HWCSUM_H

/**
 * @file
 * net_hwcsum: Linux's generic checksum offload model for DPDK mbufs.
 *
 * Transmit, CHECKSUM_PARTIAL: put the pseudo-header sum (folded, not
 * complemented: the "seed") in the checksum field, then call
 * rte_pmd_hwcsum_tx_partial() with csum_start (offset of the first byte to
 * sum, from the first byte of the packet) and csum_offset (where the
 * checksum goes, from csum_start). The port sums from csum_start to the end
 * of the packet and stores the folded complement at csum_start +
 * csum_offset, 0 written as 0xFFFF: any protocol, any depth of tunnel. The
 * port's hardware does it where it can, software otherwise.
 *
 * Receive, CHECKSUM_COMPLETE: when rte_pmd_hwcsum_rx_complete() says so,
 * the port summed the packet once from the first byte after the
 * Ethernet/VLAN headers to its end; rte_pmd_hwcsum_rx_verify_l4() verifies
 * any UDP or TCP checksum behind it (outer or inner) by reading headers
 * only.
 *
 * Everything here is inline and looks the dynamic field and flags up by
 * name, so an application using it need not link the PMD: it works with
 * the PMD loaded through `-d`. Call rte_pmd_hwcsum_dyn_lookup() once after
 * the hwcsum ports are probed: it also registers and announces the
 * transmit flag, which is what tells a port configured without TX offloads
 * to look for it (a port nobody can ask anything of hands its bursts
 * straight down).
 *
 * Example (the request, on an IPv4/UDP packet with headers in the first
 * segment; tests/pmd/example_partial.c compiles and runs it):
 *
 * @code
 * struct rte_pmd_hwcsum_dyn dyn;
 * if (rte_pmd_hwcsum_dyn_lookup(&dyn) != 0)
 *	rte_exit(EXIT_FAILURE, "no net_hwcsum port\n");
 * // transmit: ip at l3, udp at l4
 * rte_pmd_hwcsum_tx_partial_l4(&dyn, m, l3, l4, IPPROTO_UDP);
 * rte_eth_tx_burst(port, 0, &m, 1);
 * // receive
 * if (rte_pmd_hwcsum_rx_verify_l4(&dyn, m, inner_l3, inner_l4) == 1)
 *	; // inner checksum good, without reading the payload
 * @endcode
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_memzone.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The dynamic field: 4 bytes, struct rte_pmd_hwcsum_csum. */
#define RTE_PMD_HWCSUM_DYNFIELD_NAME "rte_pmd_hwcsum_dynfield_csum"
/** TX: the field holds a CHECKSUM_PARTIAL request. */
#define RTE_PMD_HWCSUM_DYNFLAG_TX_PARTIAL_NAME "rte_pmd_hwcsum_dynflag_tx_partial"
/** RX: the field holds a CHECKSUM_COMPLETE sum. */
#define RTE_PMD_HWCSUM_DYNFLAG_RX_COMPLETE_NAME "rte_pmd_hwcsum_dynflag_rx_complete"
/**
 * A memzone holding one uint64_t: the TX flag's mask once an application
 * asked for it, 0 before. net_hwcsum makes it at probe;
 * rte_pmd_hwcsum_dyn_lookup() writes it, and ports started before that
 * without TX offloads read it on every transmit burst.
 */
#define RTE_PMD_HWCSUM_ANNOUNCE_NAME "rte_pmd_hwcsum_tx_announce"

/** Contents of the dynamic field. */
struct rte_pmd_hwcsum_csum {
	/** TX: csum_start; RX: first byte summed (after Ethernet/VLAN). */
	uint16_t start;
	union {
		/** TX: where the checksum goes, from start. */
		uint16_t offset;
		/**
		 * RX: ones' complement sum from start to the end of the packet,
		 * folded to 16 bits, not complemented, in memory order (the
		 * convention of rte_raw_cksum()).
		 */
		uint16_t sum;
	};
};

/** Where the field and flags are, as looked up by rte_pmd_hwcsum_dyn_lookup(). */
struct rte_pmd_hwcsum_dyn {
	int field_offset;
	uint64_t tx_partial;
	uint64_t rx_complete;
};

/**
 * Look the field and the RX flag up (net_hwcsum registers them at probe),
 * register the TX flag and announce it to every net_hwcsum port, started or
 * not: from then on they look at each packet for it. A port without TX
 * offloads sends bursts straight down until then (DPDK flags of offloads
 * not configured are ignored, as DPDK allows). This is how an application
 * gets the TX flag: registering or looking it up by name announces
 * nothing (ports configured with TX offloads register it for their own
 * requests, so finding it registered says nothing about the application).
 * @return 0, -ENOENT when no net_hwcsum port has been probed, or the
 * negative rte_errno of rte_mbuf_dynflag_register() (-ENOSPC: no flag left).
 */
static inline int
rte_pmd_hwcsum_dyn_lookup(struct rte_pmd_hwcsum_dyn *dyn)
{
	static const struct rte_mbuf_dynflag tx_flag = {
		.name = RTE_PMD_HWCSUM_DYNFLAG_TX_PARTIAL_NAME,
	};
	const struct rte_memzone *announce;
	int off, tx, rx;

	off = rte_mbuf_dynfield_lookup(RTE_PMD_HWCSUM_DYNFIELD_NAME, NULL);
	rx = rte_mbuf_dynflag_lookup(RTE_PMD_HWCSUM_DYNFLAG_RX_COMPLETE_NAME, NULL);
	announce = rte_memzone_lookup(RTE_PMD_HWCSUM_ANNOUNCE_NAME);
	if (off < 0 || rx < 0 || announce == NULL)
		return -ENOENT;
	tx = rte_mbuf_dynflag_register(&tx_flag);
	if (tx < 0)
		return rte_errno > 0 ? -rte_errno : -EINVAL;
	dyn->field_offset = off;
	dyn->tx_partial = UINT64_C(1) << tx;
	dyn->rx_complete = UINT64_C(1) << rx;
	/* Before any packet can carry the flag: the caller has only now got it. */
	__atomic_store_n((uint64_t *)announce->addr, dyn->tx_partial,
			 __ATOMIC_RELEASE);
	return 0;
}

static inline struct rte_pmd_hwcsum_csum *
rte_pmd_hwcsum_field(const struct rte_pmd_hwcsum_dyn *dyn, struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, dyn->field_offset, struct rte_pmd_hwcsum_csum *);
}

/**
 * Request CHECKSUM_PARTIAL: the seed must already be in the field at
 * csum_start + csum_offset. No other TX checksum flag is needed.
 */
static inline void
rte_pmd_hwcsum_tx_partial(const struct rte_pmd_hwcsum_dyn *dyn,
			  struct rte_mbuf *m, uint16_t csum_start,
			  uint16_t csum_offset)
{
	struct rte_pmd_hwcsum_csum *f = rte_pmd_hwcsum_field(dyn, m);

	f->start = csum_start;
	f->offset = csum_offset;
	m->ol_flags |= dyn->tx_partial;
}

/**
 * Seed the UDP (17) or TCP (6) checksum of the L4 header at l4_off carried
 * by the IPv4/IPv6 header at l3_off, and request CHECKSUM_PARTIAL for it.
 * The IP header and the checksum field must be in the first segment; the
 * L4 length is the IP datagram's end minus l4_off.
 * @return 0, or -EINVAL (headers not in the first segment, not IPv4/IPv6,
 *   not UDP/TCP).
 */
static inline int
rte_pmd_hwcsum_tx_partial_l4(const struct rte_pmd_hwcsum_dyn *dyn,
			     struct rte_mbuf *m, uint16_t l3_off,
			     uint16_t l4_off, uint8_t l4_proto)
{
	uint8_t *l3 = rte_pktmbuf_mtod_offset(m, uint8_t *, l3_off);
	uint16_t csum_offset = l4_proto == IPPROTO_UDP ? 6 : 16;
	uint32_t sum, l4_len, l3_end;
	uint16_t seed;

	if (l4_proto != IPPROTO_UDP && l4_proto != IPPROTO_TCP)
		return -EINVAL;
	if (l4_off <= l3_off || (uint32_t)l4_off + csum_offset + 2 > m->data_len)
		return -EINVAL;
	if ((l3[0] >> 4) == 4 && l4_off - l3_off >= 20) {
		const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)l3;

		l3_end = l3_off + rte_be_to_cpu_16(ip->total_length);
		if (l3_end < (uint32_t)l4_off + csum_offset + 2)
			return -EINVAL;
		l4_len = l3_end - l4_off;
		sum = rte_raw_cksum(&ip->src_addr, 8);
	} else if ((l3[0] >> 4) == 6 && l4_off - l3_off >= 40) {
		const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)l3;

		l3_end = l3_off + 40 + rte_be_to_cpu_16(ip->payload_len);
		if (l3_end < (uint32_t)l4_off + csum_offset + 2)
			return -EINVAL;
		l4_len = l3_end - l4_off;
		sum = rte_raw_cksum(ip->src_addr, 32);
	} else {
		return -EINVAL;
	}
	/* Length and protocol as 16-bit words in network order. */
	sum += rte_cpu_to_be_16((uint16_t)l4_len) + rte_cpu_to_be_16(l4_len >> 16);
	sum += rte_cpu_to_be_16(l4_proto);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	seed = (uint16_t)sum;
	memcpy(l3 + (l4_off - l3_off) + csum_offset, &seed, sizeof(seed));
	rte_pmd_hwcsum_tx_partial(dyn, m, l4_off, csum_offset);
	return 0;
}

/** RX: true, with *start and *sum set, when the port computed COMPLETE. */
static inline bool
rte_pmd_hwcsum_rx_complete(const struct rte_pmd_hwcsum_dyn *dyn,
			   struct rte_mbuf *m, uint16_t *start, uint16_t *sum)
{
	const struct rte_pmd_hwcsum_csum *f;

	if (!(m->ol_flags & dyn->rx_complete))
		return false;
	f = rte_pmd_hwcsum_field(dyn, m);
	*start = f->start;
	*sum = f->sum;
	return true;
}

/* Sum of len bytes at off in m, as if they started at an even offset. */
static inline uint32_t
__rte_pmd_hwcsum_range(const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	uint32_t sum = 0, done = 0;

	while (m != NULL && off >= m->data_len) {
		off -= m->data_len;
		m = m->next;
	}
	while (m != NULL && done < len) {
		uint32_t n = RTE_MIN((uint32_t)m->data_len - off, len - done);
		uint32_t s = __rte_raw_cksum(rte_pktmbuf_mtod_offset(m,
				const void *, off), n, 0);

		s = __rte_raw_cksum_reduce(s);
		/* A piece starting at an odd position contributes swapped. */
		if (done & 1)
			s = ((s & 0xff) << 8) | (s >> 8);
		sum += s;
		done += n;
		off = 0;
		m = m->next;
	}
	return sum;
}

static inline uint16_t
__rte_pmd_hwcsum_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/**
 * RX: verify the UDP or TCP checksum at l4_off, carried by the IPv4/IPv6
 * header at l3_off (outer or inner, any depth of tunnel), from the packet's
 * COMPLETE sum: reads only the bytes from the sum's start to l4_off, the
 * pseudo-header, and any trailer after the datagram. Any segmentation: the
 * headers are read in place or copied (rte_pktmbuf_read()), and the answer
 * is lib/csum's csum_mbuf_verify_l4() for the protocol the IP header names.
 * An IPv6 header must be followed directly by the L4 header (extension
 * headers: -EINVAL, the protocol would need a walk). A zero UDP checksum is
 * 2 over IPv4 and 0 (bad, RFC 8200) over IPv6: a tunnel that allows zero
 * there (RFC 6935) decides that itself before calling.
 * @return 1 good, 0 bad, 2 UDP over IPv4 without a checksum; -ENODATA
 *   without a COMPLETE sum; -ENOTSUP for an IPv6 jumbogram; -EINVAL when
 *   the headers do not add up or are not in the packet.
 */
static inline int
rte_pmd_hwcsum_rx_verify_l4(const struct rte_pmd_hwcsum_dyn *dyn,
			    struct rte_mbuf *m, uint32_t l3_off, uint32_t l4_off)
{
	uint8_t l3_buf[40], l4_buf[20];
	const uint8_t *l3, *l4;
	uint16_t start, folded, be16, check;
	uint32_t sum, l3_end, l4_len, l4_end, front, back, pseudo;
	uint8_t proto;

	if (!rte_pmd_hwcsum_rx_complete(dyn, m, &start, &folded))
		return -ENODATA;
	if (l3_off < start || l4_off <= l3_off || l4_off > m->pkt_len)
		return -EINVAL;
	l3 = rte_pktmbuf_read(m, l3_off, 1, l3_buf);
	if (l3 == NULL)
		return -EINVAL;
	if ((l3[0] >> 4) == 4) {
		uint32_t hlen;

		l3 = rte_pktmbuf_read(m, l3_off, 20, l3_buf);
		if (l3 == NULL)
			return -EINVAL;
		hlen = (l3[0] & 0xfu) * 4;
		memcpy(&be16, l3 + 2, 2);
		l3_end = l3_off + rte_be_to_cpu_16(be16);
		if (hlen < 20 || l3_end < l3_off + hlen || l3_off + hlen > l4_off)
			return -EINVAL;
		proto = l3[9];
		pseudo = __rte_raw_cksum(l3 + 12, 8, 0);
	} else if ((l3[0] >> 4) == 6) {
		l3 = rte_pktmbuf_read(m, l3_off, 40, l3_buf);
		if (l3 == NULL)
			return -EINVAL;
		memcpy(&be16, l3 + 4, 2);
		if (be16 == 0)
			return -ENOTSUP; /* jumbogram: the length is in an option */
		if (l4_off != l3_off + 40)
			return -EINVAL;
		l3_end = l3_off + 40 + rte_be_to_cpu_16(be16);
		proto = l3[6];
		pseudo = __rte_raw_cksum(l3 + 8, 32, 0);
	} else {
		return -EINVAL;
	}
	if (l3_end > m->pkt_len || l4_off > l3_end)
		return -EINVAL;
	if (proto == IPPROTO_UDP) {
		l4 = rte_pktmbuf_read(m, l4_off, 8, l4_buf);
		if (l4 == NULL)
			return -EINVAL;
		memcpy(&be16, l4 + 4, 2);
		l4_len = rte_be_to_cpu_16(be16);
		if (l4_len < 8 || l4_off + l4_len > l3_end)
			return -EINVAL;
		memcpy(&check, l4 + 6, 2);
		if (check == 0)
			return (l3[0] >> 4) == 4 ? 2 : 0;
	} else if (proto == IPPROTO_TCP) {
		l4_len = l3_end - l4_off;
		if (l4_len < 20 || rte_pktmbuf_read(m, l4_off, 20, l4_buf) == NULL)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	l4_end = l4_off + l4_len;
	/* COMPLETE minus what is in front of the L4 header and behind it. */
	front = __rte_pmd_hwcsum_range(m, start, l4_off - start);
	back = __rte_pmd_hwcsum_range(m, l4_end, m->pkt_len - l4_end);
	if ((l4_end - start) & 1)
		back = ((__rte_pmd_hwcsum_fold(back) & 0xff) << 8) |
			(__rte_pmd_hwcsum_fold(back) >> 8);
	sum = folded;
	sum += (uint16_t)~__rte_pmd_hwcsum_fold(front);
	sum += (uint16_t)~__rte_pmd_hwcsum_fold(back);
	sum = __rte_pmd_hwcsum_fold(sum);
	/* An L4 header at an odd distance from start was summed swapped. */
	if ((l4_off - start) & 1)
		sum = ((sum & 0xff) << 8) | (sum >> 8);
	sum += pseudo + rte_cpu_to_be_16((uint16_t)l4_len) +
		rte_cpu_to_be_16(l4_len >> 16) + rte_cpu_to_be_16(proto);
	return __rte_pmd_hwcsum_fold(sum) == 0xffff ? 1 : 0;
}

/* ------------------------------------------------------------------------
 * Functions of the PMD itself: link it to call them (pkg-config
 * hwcsum-pmd: -lrte_net_hwcsum, as testpmd links librte_net_ixgbe for
 * rte_pmd_ixgbe_*()). The registry is lib/udp_tunnel's (udp_tunnel.h,
 * pkg-config hwcsum-udp-tunnel), the same library the PMD itself uses.
 */

struct udp_tunnel_registry;

/**
 * The tunnel port registry behind a hwcsum port (lib/udp_tunnel): types
 * registered there at run time are classified on receive.
 * @return the registry, or NULL (rte_errno = ENODEV) for a port that is
 *   not a hwcsum port.
 */
struct udp_tunnel_registry *rte_pmd_hwcsum_registry(uint16_t port_id);

/**
 * The tunnel type (lib/udp_tunnel type bit) of a packet this port
 * received, classified from its outer UDP destination port; 0 if none.
 * Covers types DPDK has no RTE_PTYPE_TUNNEL_* value for (GUE, types
 * registered at run time), whose packets carry only the INNER_* ptypes.
 */
unsigned int rte_pmd_hwcsum_rx_tunnel_type(uint16_t port_id,
					   const struct rte_mbuf *m);

/**
 * ethdev's tunnel type (RTE_ETH_TUNNEL_TYPE_*, the prot_type of struct
 * rte_eth_udp_tunnel) of a lib/udp_tunnel type bit (UDP_TUNNEL_TYPE_*),
 * to add or delete its UDP port with rte_eth_dev_udp_tunnel_port_add().
 * @return RTE_ETH_TUNNEL_TYPE_NONE for a type ethdev has no name for
 *   (GUE, types registered at run time): add those to
 *   rte_pmd_hwcsum_registry() directly.
 */
uint8_t rte_pmd_hwcsum_eth_tunnel_type(unsigned int udp_tunnel_type);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_HWCSUM_H */
