/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Path MTU: what each tunnel carries within the underlay port's MTU, and
 * the ICMP "fragmentation needed" / ICMPv6 "packet too big" a VM gets back
 * for a frame beyond it. RFC 7348 4.3: a VTEP does not fragment. The
 * answer is the one Linux 6.1 builds for a bridged VXLAN or GENEVE device
 * (skb_tunnel_check_pmtu() in net/ipv4/ip_tunnel_core.c): from the
 * original destination to the original source, same Ethernet header with
 * the addresses swapped. Unlike Linux, it quotes only what RFC 792 asks of
 * IPv4 (IP header + 8 bytes); IPv6 quotes what fits in 1280 bytes.
 */

#include <stdio.h>
#include <string.h>

#include <rte_ip.h>

#include <csum.h>
#include <csum_walk.h>

#include "tunnel.h"

/* Enough of the frame to walk: Ethernet, two tags, IPv6, extension headers. */
#define PMTU_PEEK 256
#define PMTU_IPV4_MIN 576u	/* Linux answers no IPv4 path below this */
#define PMTU_IPV6_MIN 1280u	/* RFC 8200 section 5 */

void
gw_pmtu_refresh(struct gw_config *cfg)
{
	unsigned int i;
	uint16_t mtu;

	if (rte_eth_dev_get_mtu(cfg->underlay_port, &mtu) != 0 ||
	    mtu == cfg->underlay_mtu)
		return;
	cfg->underlay_mtu = mtu;
	for (i = 0; i < cfg->nb_tunnels; i++) {
		struct gw_tunnel *t = &cfg->tunnels[i];
		uint32_t overhead = t->hdr_len - t->l3_off;

		/* Workers read it once per burst, without a lock. */
		__atomic_store_n(&t->max_payload, mtu > overhead ? mtu - overhead : 0,
				 __ATOMIC_RELAXED);
	}
	printf("hwcsum-tunnel: underlay MTU %u\n", mtu);
	fflush(stdout);
}

/* Bytes of the packet at off into dst, across segments. */
static void
copy_out(const struct rte_mbuf *m, uint32_t off, uint32_t len, uint8_t *dst)
{
	const void *src = rte_pktmbuf_read(m, off, len, dst);

	if (src != dst)
		memcpy(dst, src, len);
}

/*
 * A reply frame with room for l3_len bytes of IP: the original Ethernet
 * header, tags included, its addresses swapped. *l3 points at the IP part.
 */
static struct rte_mbuf *
reply_alloc(const uint8_t *p, const struct csum_walk *w, uint32_t l3_len,
	    uint8_t **l3)
{
	struct rte_mbuf *r = rte_pktmbuf_alloc(gw_pool());
	uint8_t *e;

	if (r == NULL)
		return NULL;
	e = (uint8_t *)rte_pktmbuf_append(r, w->l3_off + l3_len);
	if (e == NULL) {
		rte_pktmbuf_free(r);
		return NULL;
	}
	memcpy(e, p + 6, 6);
	memcpy(e + 6, p, 6);
	memcpy(e + 12, p + 12, w->l3_off - 12);
	*l3 = e + w->l3_off;
	return r;
}

/* Linux icmp_is_err(): never answer an error with an error (RFC 1122). */
static bool
icmp_is_error(uint8_t type)
{
	return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
}

/* Linux iptunnel_pmtud_check_icmp(): a unicast exchange only. */
static bool
ipv4_unicast_pair(const uint8_t *src, const uint8_t *dst)
{
	static const uint8_t bcast[4] = { 255, 255, 255, 255 };

	return !(memcmp(dst, bcast, 4) == 0 || (dst[0] & 0xf0) == 0xe0 ||
		 src[0] == 0 || src[0] == 127 || memcmp(src, bcast, 4) == 0 ||
		 (src[0] & 0xf0) == 0xe0);
}

static struct rte_mbuf *
reply_ipv4(const struct rte_mbuf *m, const uint8_t *p, uint32_t n,
	   const struct csum_walk *w, uint32_t mtu)
{
	const uint8_t *ip = p + w->l3_off;
	uint32_t quote = RTE_MIN((ip[0] & 0xfu) * 4 + 8, w->l3_end - w->l3_off);
	struct rte_ipv4_hdr *nip;
	struct rte_mbuf *r;
	uint8_t *l3, *icmp;
	rte_be16_t frag, sum;

	/* DF alone: a fragment, or a packet a router may fragment, gets no
	 * answer (Linux sends it on, fragmented in the outer IP; see
	 * docs/tunnel.md). */
	memcpy(&frag, ip + 6, 2);
	if (frag != RTE_BE16(RTE_IPV4_HDR_DF_FLAG) || mtu < PMTU_IPV4_MIN ||
	    !ipv4_unicast_pair(ip + 12, ip + 16))
		return NULL;
	if (w->l4_proto == IPPROTO_ICMP &&
	    (w->l4_off >= n || icmp_is_error(p[w->l4_off])))
		return NULL;
	r = reply_alloc(p, w, 20 + 8 + quote, &l3);
	if (r == NULL)
		return NULL;
	nip = (struct rte_ipv4_hdr *)l3;
	memset(nip, 0, 20 + 8);
	nip->version_ihl = RTE_IPV4_VHL_DEF;
	nip->total_length = rte_cpu_to_be_16(20 + 8 + quote);
	nip->fragment_offset = RTE_BE16(RTE_IPV4_HDR_DF_FLAG);
	nip->time_to_live = ip[8];		/* as Linux does */
	nip->next_proto_id = IPPROTO_ICMP;
	memcpy(&nip->src_addr, ip + 16, 4);
	memcpy(&nip->dst_addr, ip + 12, 4);
	nip->hdr_checksum = csum_ipv4_hdr(nip);
	/* RFC 1191: type 3 code 4, next-hop MTU in the low 16 bits. */
	icmp = l3 + 20;
	icmp[0] = 3;
	icmp[1] = 4;
	icmp[6] = mtu >> 8;
	icmp[7] = mtu;
	copy_out(m, w->l3_off, quote, icmp + 8);
	sum = csum_finish(csum_partial(icmp, 8 + quote, 0));
	memcpy(icmp + 2, &sum, 2);
	return r;
}

/* Linux iptunnel_pmtud_check_icmpv6(): not from ::, ::1 or multicast. */
static bool
ipv6_source_ok(const uint8_t *src)
{
	static const uint8_t any[16], loop[16] = { [15] = 1 };

	return src[0] != 0xff && memcmp(src, any, 16) != 0 &&
		memcmp(src, loop, 16) != 0;
}

static struct rte_mbuf *
reply_ipv6(const struct rte_mbuf *m, const uint8_t *p, uint32_t n,
	   const struct csum_walk *w, uint32_t mtu)
{
	const uint8_t *ip = p + w->l3_off;
	uint32_t quote = RTE_MIN(PMTU_IPV6_MIN - 40 - 8, w->l3_end - w->l3_off);
	struct rte_ipv6_hdr *nip;
	struct rte_mbuf *r;
	uint8_t *l3, *icmp;
	rte_be16_t sum;

	if (mtu < PMTU_IPV6_MIN || !ipv6_source_ok(ip + 8) ||
	    (w->flags & CSUM_WALK_F_LATER_FRAG))
		return NULL;
	/* RFC 4443 2.4: no answer to an error, nor (Linux) to a redirect. */
	if (w->l4_proto == IPPROTO_ICMPV6 &&
	    (w->l4_off >= n || p[w->l4_off] < 128 || p[w->l4_off] == 137))
		return NULL;
	r = reply_alloc(p, w, 40 + 8 + quote, &l3);
	if (r == NULL)
		return NULL;
	nip = (struct rte_ipv6_hdr *)l3;
	memset(nip, 0, 40 + 8);
	nip->vtc_flow = RTE_BE32(6u << 28);
	nip->payload_len = rte_cpu_to_be_16(8 + quote);
	nip->proto = IPPROTO_ICMPV6;
	nip->hop_limits = ip[7];		/* as Linux does */
	memcpy(nip->src_addr, ip + 24, 16);
	memcpy(nip->dst_addr, ip + 8, 16);
	/* RFC 4443 3.2: type 2 code 0, the MTU in 32 bits. */
	icmp = l3 + 40;
	icmp[0] = 2;
	icmp[4] = mtu >> 24;
	icmp[5] = mtu >> 16;
	icmp[6] = mtu >> 8;
	icmp[7] = mtu;
	copy_out(m, w->l3_off, quote, icmp + 8);
	sum = csum_finish(csum_ipv6_pseudo(nip->src_addr, nip->dst_addr, 8 + quote,
			IPPROTO_ICMPV6, csum_partial(icmp, 8 + quote, 0)));
	memcpy(icmp + 2, &sum, 2);
	return r;
}

struct rte_mbuf *
gw_pmtu_reply(const struct gw_tunnel *t, const struct rte_mbuf *m,
	      uint32_t max_payload)
{
	uint8_t buf[PMTU_PEEK];
	uint32_t n = RTE_MIN(m->pkt_len, sizeof(buf)), l2, mtu;
	const uint8_t *p = rte_pktmbuf_read(m, 0, n, buf);
	struct csum_walk w;

	if (p == NULL || csum_walk_eth(p, n, m->pkt_len, 0, &w) != CSUM_WALK_OK)
		return NULL;
	/* The next-hop MTU is the IP packet's: a tunnel carrying Ethernet
	 * carries the VM's Ethernet header and tags too. */
	l2 = gw_tunnel_carries_ip(t) ? 0 : w.l3_off;
	if (max_payload <= l2)
		return NULL;
	mtu = max_payload - l2;
	if (w.ip_version == 4)
		return reply_ipv4(m, p, n, &w, mtu);
	return reply_ipv6(m, p, n, &w, mtu);
}
