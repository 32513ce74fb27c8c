/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tunnel header parsers: valid headers give the right inner offset and
 * protocol; truncated headers, options past the end, bad versions and bad
 * flags are rejected; a type registered at run time parses through the
 * registry like a built-in one.
 */
#include <errno.h>
#include <string.h>

#include "test_common.h"
#include "udp_tunnel.h"

static struct udp_tunnel_parse_result res;

static void
test_vxlan(void)
{
	uint8_t h[8] = { 0x08, 0, 0, 0, 0x12, 0x34, 0x56, 0 };

	CHECK_EQ(udp_tunnel_parse_vxlan(h, 8, &res), 0);
	CHECK_EQ(res.inner_offset, 8);
	CHECK_EQ(res.inner_ethertype, UDP_TUNNEL_ETH_P_TEB);
	CHECK_EQ(res.vni, 0x123456);
	CHECK_EQ(udp_tunnel_parse_vxlan(h, 7, &res), -EBADMSG);	/* truncated */
	CHECK_EQ(udp_tunnel_parse_vxlan(h, 0, &res), -EBADMSG);
	h[0] = 0;						/* I flag clear */
	CHECK_EQ(udp_tunnel_parse_vxlan(h, 8, &res), -EBADMSG);
	h[0] = 0x88;						/* reserved flag */
	CHECK_EQ(udp_tunnel_parse_vxlan(h, 8, &res), -EBADMSG);
	h[0] = 0x08;
	h[7] = 1;						/* reserved byte */
	CHECK_EQ(udp_tunnel_parse_vxlan(h, 8, &res), -EBADMSG);
}

static void
test_geneve(void)
{
	uint8_t h[24] = {
		0x03, 0x00, 0x86, 0xdd, 0xab, 0xcd, 0xef, 0,
		0x01, 0x02, 0x03, 0x01, 1, 2, 3, 4,	/* option, 4 data bytes */
		0x01, 0x02, 0x04, 0x00,			/* option, no data */
		0x60, 0, 0, 0,				/* inner IPv6 */
	};

	CHECK_EQ(udp_tunnel_parse_geneve(h, sizeof(h), &res), 0);
	CHECK_EQ(res.inner_offset, 20);
	CHECK_EQ(res.inner_ethertype, UDP_TUNNEL_ETH_P_IPV6);
	CHECK_EQ(res.vni, 0xabcdef);
	/* option length (3 words) goes past the end of the buffer */
	CHECK_EQ(udp_tunnel_parse_geneve(h, 19, &res), -EBADMSG);
	CHECK_EQ(udp_tunnel_parse_geneve(h, 7, &res), -EBADMSG);
	/* an option TLV longer than the options area */
	h[11] = 0x03;
	CHECK_EQ(udp_tunnel_parse_geneve(h, sizeof(h), &res), -EBADMSG);
	h[11] = 0x01;
	/* version 1 */
	h[0] = 0x43;
	CHECK_EQ(udp_tunnel_parse_geneve(h, sizeof(h), &res), -EBADMSG);
	/* no options, Ethernet inside */
	h[0] = 0x00;
	h[2] = 0x65;
	h[3] = 0x58;
	CHECK_EQ(udp_tunnel_parse_geneve(h, 8, &res), 0);
	CHECK_EQ(res.inner_offset, 8);
	CHECK_EQ(res.inner_ethertype, UDP_TUNNEL_ETH_P_TEB);
	/* protocol 0 (found by libFuzzer): an 802.3 length, not a protocol */
	h[2] = 0;
	h[3] = 0;
	CHECK_EQ(udp_tunnel_parse_geneve(h, 8, &res), -EPROTONOSUPPORT);
}

static void
test_gpe(void)
{
	uint8_t h[8] = { 0x0c, 0, 0, 0x03, 0, 0, 9, 0 };
	static const struct {
		uint8_t np;
		uint16_t ethertype;
	} next[] = {
		{ 1, UDP_TUNNEL_ETH_P_IPV4 }, { 2, UDP_TUNNEL_ETH_P_IPV6 },
		{ 3, UDP_TUNNEL_ETH_P_TEB }, { 4, UDP_TUNNEL_ETH_P_NSH },
		{ 5, UDP_TUNNEL_ETH_P_MPLS },
	};
	unsigned int i;

	for (i = 0; i < sizeof(next) / sizeof(next[0]); i++) {
		h[3] = next[i].np;
		CHECK_EQ(udp_tunnel_parse_vxlan_gpe(h, 8, &res), 0);
		CHECK_EQ(res.inner_ethertype, next[i].ethertype);
		CHECK_EQ(res.inner_offset, 8);
		CHECK_EQ(res.vni, 9);
	}
	h[3] = 99;
	CHECK_EQ(udp_tunnel_parse_vxlan_gpe(h, 8, &res), -EPROTONOSUPPORT);
	h[3] = 1;
	CHECK_EQ(udp_tunnel_parse_vxlan_gpe(h, 5, &res), -EBADMSG);	/* truncated */
	h[0] = 0x1c;							/* version 1 */
	CHECK_EQ(udp_tunnel_parse_vxlan_gpe(h, 8, &res), -EBADMSG);
	h[0] = 0x08;							/* P clear */
	CHECK_EQ(udp_tunnel_parse_vxlan_gpe(h, 8, &res), -EBADMSG);
	h[0] = 0x04;							/* I clear */
	CHECK_EQ(udp_tunnel_parse_vxlan_gpe(h, 8, &res), -EBADMSG);
	h[0] = 0x0d;							/* OAM */
	CHECK_EQ(udp_tunnel_parse_vxlan_gpe(h, 8, &res), -EPROTONOSUPPORT);
}

static void
test_gue(void)
{
	uint8_t h[16] = { 0x02, 41, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0x60, 0, 0, 0 };

	CHECK_EQ(udp_tunnel_parse_gue(h, sizeof(h), &res), 0);
	CHECK_EQ(res.inner_offset, 12);
	CHECK_EQ(res.inner_ipproto, 41);
	CHECK_EQ(res.inner_ethertype, UDP_TUNNEL_ETH_P_IPV6);
	/* extension length past the end */
	CHECK_EQ(udp_tunnel_parse_gue(h, 11, &res), -EBADMSG);
	CHECK_EQ(udp_tunnel_parse_gue(h, 3, &res), -EBADMSG);
	/* control message */
	h[0] = 0x20;
	CHECK_EQ(udp_tunnel_parse_gue(h, sizeof(h), &res), -EPROTONOSUPPORT);
	/* GRE inside: only the IP protocol is known */
	h[0] = 0x00;
	h[1] = 47;
	CHECK_EQ(udp_tunnel_parse_gue(h, sizeof(h), &res), 0);
	CHECK_EQ(res.inner_offset, 4);
	CHECK_EQ(res.inner_ipproto, 47);
	CHECK_EQ(res.inner_ethertype, 0);
	/* version 1: bare IPv4 / IPv6 */
	h[0] = 0x45;
	CHECK_EQ(udp_tunnel_parse_gue(h, 1, &res), 0);
	CHECK_EQ(res.inner_offset, 0);
	CHECK_EQ(res.inner_ethertype, UDP_TUNNEL_ETH_P_IPV4);
	h[0] = 0x60;
	CHECK_EQ(udp_tunnel_parse_gue(h, 1, &res), 0);
	CHECK_EQ(res.inner_ethertype, UDP_TUNNEL_ETH_P_IPV6);
	h[0] = 0x50;					/* version 1, not IP */
	CHECK_EQ(udp_tunnel_parse_gue(h, 1, &res), -EBADMSG);
	h[0] = 0x80;					/* version 2 */
	CHECK_EQ(udp_tunnel_parse_gue(h, sizeof(h), &res), -EBADMSG);
	CHECK_EQ(udp_tunnel_parse_gue(h, 0, &res), -EBADMSG);
}

/* A made-up tunnel: 4 bytes "MT" magic, version 1, inner Ethertype byte. */
static int
parse_mytun(const uint8_t *hdr, size_t len, struct udp_tunnel_parse_result *r)
{
	if (len < 4 || hdr[0] != 'M' || hdr[1] != 'T' || hdr[2] != 1)
		return -EBADMSG;
	memset(r, 0, sizeof(*r));
	r->inner_offset = 4;
	r->inner_ethertype = hdr[3] == 4 ? UDP_TUNNEL_ETH_P_IPV4 :
		UDP_TUNNEL_ETH_P_IPV6;
	return 0;
}

static void
test_registry_types(void)
{
	struct udp_tunnel_registry *reg = udp_tunnel_registry_create();
	uint8_t pkt[8] = { 'M', 'T', 1, 4, 0x45, 0, 0, 0 };
	uint8_t vx[8] = { 0x08, 0, 0, 0, 0, 0, 1, 0 };
	unsigned int type = 0, t2;
	char name[16];
	int i, rc;

	CHECK(reg != NULL);
	CHECK_EQ(udp_tunnel_type_by_name(reg, "vxlan"), UDP_TUNNEL_TYPE_VXLAN);
	CHECK_EQ(udp_tunnel_type_by_name(reg, "geneve"), UDP_TUNNEL_TYPE_GENEVE);
	CHECK_EQ(udp_tunnel_type_by_name(reg, "vxlan-gpe"), UDP_TUNNEL_TYPE_VXLAN_GPE);
	CHECK_EQ(udp_tunnel_type_by_name(reg, "gue"), UDP_TUNNEL_TYPE_GUE);
	CHECK_EQ(udp_tunnel_parse(reg, UDP_TUNNEL_TYPE_VXLAN, vx, 8, &res), 0);
	CHECK_EQ(res.vni, 1);

	CHECK_EQ(udp_tunnel_type_register(reg, "mytun", parse_mytun, &type), 0);
	CHECK_EQ(type, 1u << 4);
	CHECK(strcmp(udp_tunnel_type_name(reg, type), "mytun") == 0);
	CHECK_EQ(udp_tunnel_parse(reg, type, pkt, sizeof(pkt), &res), 0);
	CHECK_EQ(res.inner_offset, 4);
	CHECK_EQ(res.inner_ethertype, UDP_TUNNEL_ETH_P_IPV4);
	CHECK_EQ(udp_tunnel_parse(reg, type, pkt, 3, &res), -EBADMSG);
	CHECK_EQ(udp_tunnel_type_register(reg, "mytun", parse_mytun, &t2), -EEXIST);
	CHECK_EQ(udp_tunnel_type_register(reg, "Bad Name", parse_mytun, &t2), -EINVAL);
	CHECK_EQ(udp_tunnel_type_register(reg, "nop", NULL, &t2), -EINVAL);
	/* the new type works end to end: port add, lookup */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 7777, type), 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 7777), type);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 7777, type), 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 7777), 0);
	/* fill every bit: the 33rd type has no room */
	for (i = 5, rc = 0; i < UDP_TUNNEL_MAX_TYPES; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		rc |= udp_tunnel_type_register(reg, name, parse_mytun, &t2);
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(t2, 1u << 31);
	CHECK_EQ(udp_tunnel_type_mask(reg), 0xffffffffu);
	CHECK_EQ(udp_tunnel_type_register(reg, "full", parse_mytun, &t2), -ENOSPC);
	CHECK_EQ(udp_tunnel_parse(reg, 3, vx, 8, &res), -EINVAL);	/* two bits */
	CHECK_EQ(udp_tunnel_registry_destroy(reg), 0);
}

/* Without a registry: the built-in types, their parsers and ports. */
static void
test_builtin_types(void)
{
	static const char *const names[] = { "vxlan", "geneve", "vxlan-gpe", "gue" };
	static const uint16_t ports[] = { 4789, 6081, 4790, 6080 };
	uint8_t vx[8] = { 0x08, 0, 0, 0, 0, 0, 7, 0 };
	struct udp_tunnel_parse_result res;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		CHECK_EQ(udp_tunnel_type_by_name(NULL, names[i]), 1u << i);
		CHECK(strcmp(udp_tunnel_type_name(NULL, 1u << i), names[i]) == 0);
		CHECK_EQ(udp_tunnel_type_default_port(1u << i), ports[i]);
	}
	CHECK_EQ(udp_tunnel_type_by_name(NULL, "mytun"), 0);
	CHECK(udp_tunnel_type_name(NULL, 1u << 4) == NULL);
	CHECK_EQ(udp_tunnel_type_mask(NULL), 0xfu);
	CHECK_EQ(udp_tunnel_type_default_port(1u << 4), 0);	/* run-time: none */
	CHECK_EQ(udp_tunnel_type_default_port(0), 0);
	CHECK_EQ(udp_tunnel_type_default_port(3), 0);		/* two bits */
	CHECK_EQ(udp_tunnel_parse(NULL, UDP_TUNNEL_TYPE_VXLAN, vx, 8, &res), 0);
	CHECK_EQ(res.vni, 7);
	CHECK_EQ(udp_tunnel_parse(NULL, UDP_TUNNEL_TYPE_VXLAN, vx, 7, &res), -EBADMSG);
	CHECK_EQ(udp_tunnel_parse(NULL, 1u << 4, vx, 8, &res), -EINVAL);
}

static void
quiet(int level, const char *msg, void *arg)
{
	(void)level;
	(void)msg;
	(void)arg;
}

int
main(void)
{
	udp_tunnel_set_log(quiet, NULL);
	test_vxlan();
	test_geneve();
	test_gpe();
	test_gue();
	test_registry_types();
	test_builtin_types();
	return harness_summary("test_parsers");
}
