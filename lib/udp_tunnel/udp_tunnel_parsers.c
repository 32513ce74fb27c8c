/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Header parsers of the built-in tunnel types. Each reads only inside
 * [hdr, hdr + len) and rejects what the receive path of Linux rejects.
 */
#include <errno.h>
#include <string.h>

#include "udp_tunnel.h"

#define VXLAN_HLEN		8

#define GENEVE_HLEN		8
#define GENEVE_VER_SHIFT	6
#define GENEVE_OPTLEN_MASK	0x3f
#define GENEVE_OPT_HLEN		4
#define GENEVE_OPT_LEN_MASK	0x1f
#define GENEVE_MIN_ETHERTYPE	0x0600

#define GPE_FLAG_RSVD		0xc0
#define GPE_VER_MASK		0x30
#define GPE_FLAG_I		0x08
#define GPE_FLAG_P		0x04
#define GPE_FLAG_O		0x01

#define GUE_HLEN		4
#define GUE_VER_SHIFT		6
#define GUE_FLAG_C		0x20
#define GUE_HLEN_MASK		0x1f

static uint32_t
read_vni(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static void
result_set(struct udp_tunnel_parse_result *res, uint16_t offset,
		uint16_t ethertype, uint8_t ipproto, uint32_t vni)
{
	memset(res, 0, sizeof(*res));
	res->inner_offset = offset;
	res->inner_ethertype = ethertype;
	res->inner_ipproto = ipproto;
	res->vni = vni;
}

/* RFC 7348: the parser is inline in udp_tunnel.h, for the data path. */
int
udp_tunnel_parse_vxlan(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res)
{
	struct udp_tunnel_parse_result r;
	int ret;

	memset(&r, 0, sizeof(r));	/* padding too, as result_set() leaves it */
	ret = udp_tunnel_parse_vxlan_inline(hdr, len, &r);
	if (ret == 0)
		*res = r;
	return ret;
}

/* RFC 8926: version 0, options as TLVs that must end exactly at opt_len. */
int
udp_tunnel_parse_geneve(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res)
{
	size_t opts_len, off, opt_len;
	uint16_t proto;

	if (len < GENEVE_HLEN)
		return -EBADMSG;
	if ((hdr[0] >> GENEVE_VER_SHIFT) != 0)
		return -EBADMSG;
	opts_len = (size_t)(hdr[0] & GENEVE_OPTLEN_MASK) * 4;
	if (GENEVE_HLEN + opts_len > len)
		return -EBADMSG;
	for (off = GENEVE_HLEN; off < GENEVE_HLEN + opts_len; off += opt_len) {
		if (off + GENEVE_OPT_HLEN > GENEVE_HLEN + opts_len)
			return -EBADMSG;
		opt_len = GENEVE_OPT_HLEN +
			(size_t)(hdr[off + 3] & GENEVE_OPT_LEN_MASK) * 4;
		if (off + opt_len > GENEVE_HLEN + opts_len)
			return -EBADMSG;
	}
	proto = (uint16_t)(hdr[2] << 8 | hdr[3]);
	/* Values below 0x0600 are 802.3 lengths, not protocols. */
	if (proto < GENEVE_MIN_ETHERTYPE)
		return -EPROTONOSUPPORT;
	result_set(res, (uint16_t)(GENEVE_HLEN + opts_len), proto, 0,
		read_vni(hdr + 4));
	return 0;
}

/* draft-ietf-nvo3-vxlan-gpe: version 0, I and P set, known next protocol. */
int
udp_tunnel_parse_vxlan_gpe(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res)
{
	uint16_t ethertype;

	if (len < VXLAN_HLEN)
		return -EBADMSG;
	if ((hdr[0] & (GPE_FLAG_RSVD | GPE_VER_MASK)) != 0 ||
			!(hdr[0] & GPE_FLAG_I) || !(hdr[0] & GPE_FLAG_P) ||
			hdr[7] != 0)
		return -EBADMSG;
	if (hdr[0] & GPE_FLAG_O)
		return -EPROTONOSUPPORT;	/* OAM, not a packet */
	switch (hdr[3]) {
	case 1:
		ethertype = UDP_TUNNEL_ETH_P_IPV4;
		break;
	case 2:
		ethertype = UDP_TUNNEL_ETH_P_IPV6;
		break;
	case 3:
		ethertype = UDP_TUNNEL_ETH_P_TEB;
		break;
	case 4:
		ethertype = UDP_TUNNEL_ETH_P_NSH;
		break;
	case 5:
		ethertype = UDP_TUNNEL_ETH_P_MPLS;
		break;
	default:
		return -EPROTONOSUPPORT;
	}
	result_set(res, VXLAN_HLEN, ethertype, 0, read_vni(hdr + 4));
	return 0;
}

static uint16_t
ipproto_to_ethertype(uint8_t proto)
{
	switch (proto) {
	case 4:
		return UDP_TUNNEL_ETH_P_IPV4;
	case 41:
		return UDP_TUNNEL_ETH_P_IPV6;
	case 137:
		return UDP_TUNNEL_ETH_P_MPLS;
	default:
		return 0;
	}
}

/*
 * draft-ietf-intarea-gue: version 0 has a 4-byte header plus hlen words of
 * extensions; version 1 is bare IPv4/IPv6 (the first nibble is 4 or 6).
 */
int
udp_tunnel_parse_gue(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res)
{
	size_t hlen;
	uint8_t proto;

	if (len < 1)
		return -EBADMSG;
	switch (hdr[0] >> GUE_VER_SHIFT) {
	case 0:
		if (len < GUE_HLEN)
			return -EBADMSG;
		hlen = GUE_HLEN + (size_t)(hdr[0] & GUE_HLEN_MASK) * 4;
		if (hlen > len)
			return -EBADMSG;
		if (hdr[0] & GUE_FLAG_C)
			return -EPROTONOSUPPORT;	/* control message */
		proto = hdr[1];
		result_set(res, (uint16_t)hlen, ipproto_to_ethertype(proto),
			proto, 0);
		return 0;
	case 1:
		if ((hdr[0] >> 4) == 4)
			result_set(res, 0, UDP_TUNNEL_ETH_P_IPV4, 4, 0);
		else if ((hdr[0] >> 4) == 6)
			result_set(res, 0, UDP_TUNNEL_ETH_P_IPV6, 41, 0);
		else
			return -EBADMSG;
		return 0;
	default:
		return -EBADMSG;
	}
}
