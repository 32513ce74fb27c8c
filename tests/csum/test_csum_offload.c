/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The offloadability check, case by case: each row is a packet shape, a
 * request and a device spec, with the verdict and the reason expected.
 * Then csum_offload_resolve() on mbufs: software fallbacks produce exactly
 * the checksum DPDK computes, hardware verdicts leave the packet untouched.
 */
#include <errno.h>

#include <rte_ip.h>

#include "csum_mbuf.h"
#include "csum_offload.h"
#include "mbuf_build.h"
#include "pkt_build.h"
#include "test_util.h"

enum shape {
	V4_UDP, V4_TCP, V6_UDP, V6_TCP, VLAN_V4_TCP, QINQ_V4_UDP, V4_OPT_TCP,
	V6_EXT_UDP, V6_FRAG_UDP, V4_FRAG_UDP, V4_SCTP, V4_GRE, VXLAN_V4_TCP,
	VXLAN_V6_UDP, ARP, V6_AH_TCP,
};

static const char *const shape_names[] = {
	"v4/udp", "v4/tcp", "v6/udp", "v6/tcp", "vlan/v4/tcp", "qinq/v4/udp",
	"v4+opt/tcp", "v6+hbh+dst/udp", "v6+frag/udp", "v4-frag/udp",
	"v4/sctp", "v4/gre", "vxlan/v4/tcp", "vxlan/v6/udp", "arp", "v6+ah/tcp",
};

/* Build a packet of that shape; fill the natural request for it. */
static uint32_t
build(enum shape s, uint8_t *p, struct csum_offload_req *req)
{
	struct pkt_opts o = { .payload = 64 };
	struct pkt_layout lay;
	uint32_t len;

	memset(p, 0, 400);
	memset(req, 0, sizeof(*req));
	switch (s) {
	case V4_UDP: break;
	case V4_TCP: o.tcp = true; break;
	case V6_UDP: case V6_EXT_UDP: case V6_FRAG_UDP: o.v6 = true; break;
	case V6_TCP: case V6_AH_TCP: o.v6 = o.tcp = true; break;
	case VLAN_V4_TCP: o.vlan = o.tcp = true; break;
	case VXLAN_V4_TCP: o.encap = o.inner_tcp = true; break;
	case VXLAN_V6_UDP: o.encap = o.inner_v6 = true; o.v6 = true; break;
	default: break;
	}
	pkt_build(p, &o, &lay);
	len = lay.len;
	req->csum_start = lay.outer.l4;
	req->csum_offset = lay.outer.csum_off;
	if (lay.encap) {
		req->csum_start = lay.inner.l4;
		req->csum_offset = lay.inner.csum_off;
		req->flags = CSUM_OFFLOAD_F_ENCAP;
		req->l3_off = lay.inner.l3;
	}
	switch (s) {
	case QINQ_V4_UDP:
		/* Insert an 802.1ad and an 802.1Q tag in front of the ethertype. */
		memmove(p + 20, p + 12, len - 12);
		put16(p + 12, 0x88a8);
		put16(p + 16, 0x8100);
		len += 8;
		req->csum_start += 8;
		break;
	case V4_OPT_TCP:
		/* 8 bytes of options (NOPs) after the 20-byte header. */
		memmove(p + 14 + 28, p + 14 + 20, len - 34);
		memset(p + 34, 1, 8);
		p[14] = 0x47;
		len += 8;
		req->csum_start += 8;
		break;
	case V6_EXT_UDP:
		/* Hop-by-hop (8 bytes) then destination options (16 bytes). */
		memmove(p + 54 + 24, p + 54, len - 54);
		p[20] = 0;            /* next: hop-by-hop */
		p[54] = 60;           /* hbh next: dstopts */
		p[55] = 0;            /* 8 bytes */
		memset(p + 56, 0, 6);
		p[62] = 17;           /* dstopts next: udp */
		p[63] = 1;            /* 16 bytes */
		memset(p + 64, 0, 14);
		len += 24;
		req->csum_start += 24;
		break;
	case V6_AH_TCP:
		/* AH with a 12-byte ICV: 24 bytes, length field 24 / 4 - 2 = 4. */
		memmove(p + 54 + 24, p + 54, len - 54);
		p[20] = 51;
		p[54] = 6;
		p[55] = 4;
		memset(p + 56, 0, 22);
		len += 24;
		req->csum_start += 24;
		break;
	case V6_FRAG_UDP:
		memmove(p + 54 + 8, p + 54, len - 54);
		p[20] = 44;
		p[54] = 17;
		memset(p + 55, 0, 7);
		len += 8;
		req->csum_start += 8;
		break;
	case V4_FRAG_UDP:
		put16(p + 14 + 6, 0x2000); /* MF */
		break;
	case V4_SCTP:
		p[14 + 9] = 132;
		req->csum_offset = 8;
		req->flags = CSUM_OFFLOAD_F_CRC32C;
		break;
	case V4_GRE:
		p[14 + 9] = 47;
		req->csum_offset = 4;
		break;
	case ARP:
		put16(p + 12, 0x0806);
		break;
	default:
		break;
	}
	return len;
}

static const struct csum_offload_spec spec_none = { .engine = CSUM_ENGINE_NONE };
static const struct csum_offload_spec spec_virtio = {
	.engine = CSUM_ENGINE_GENERIC, .max_csum_start = 0xffff, .max_csum_field = 0xffff,
};
static const struct csum_offload_spec spec_e1000 = {
	.engine = CSUM_ENGINE_GENERIC, .max_csum_start = 255, .max_csum_field = 255,
};
/* A plain parsing NIC: v4/v6, TCP/UDP, VLAN, nothing fancy. */
static const struct csum_offload_spec spec_parse = {
	.engine = CSUM_ENGINE_PARSE, .ipv4_okay = 1, .ipv6_okay = 1,
	.tcp_okay = 1, .udp_okay = 1, .vlan_okay = 1,
};
/* A rich one: also options, extension headers, tunnels, SCTP. */
static const struct csum_offload_spec spec_rich = {
	.engine = CSUM_ENGINE_PARSE, .ipv4_okay = 1, .ipv6_okay = 1,
	.tcp_okay = 1, .udp_okay = 1, .vlan_okay = 1, .ip_options_okay = 1,
	.ext_hdrs_okay = 1, .encap_okay = 1, .sctp_okay = 1,
};
/* IPv4-only TCP-only, no VLAN (an rtl8139-like engine). */
static const struct csum_offload_spec spec_v4tcp = {
	.engine = CSUM_ENGINE_PARSE, .ipv4_okay = 1, .tcp_okay = 1, .udp_okay = 0,
};
/* Tunnel-only engine that cannot do inner IPv6. */
static const struct csum_offload_spec spec_tunnel = {
	.engine = CSUM_ENGINE_PARSE, .ipv4_okay = 1, .ipv6_okay = 1,
	.tcp_okay = 1, .udp_okay = 1, .encap_okay = 1, .no_not_encapped = 1,
	.no_encapped_ipv6 = 1,
};

struct row {
	enum shape shape;
	const struct csum_offload_spec *spec;
	const char *spec_name;
	enum csum_offload_reason want;
};

#define R(s, sp, w) { s, &spec_##sp, #sp, CSUM_OFFLOAD_##w }

static const struct row rows[] = {
	R(V4_UDP, none, R_NO_ENGINE),
	R(V4_TCP, virtio, OK),
	R(VXLAN_V6_UDP, virtio, OK),
	R(V4_GRE, virtio, OK),          /* generic engines do not care what it is */
	R(V4_SCTP, virtio, R_CRC32C),   /* ... but cannot do a CRC */
	R(V4_TCP, e1000, OK),
	R(VXLAN_V6_UDP, e1000, OK),     /* inner L4 at 14+40+16+14+40 = 124 */
	R(V4_UDP, parse, OK),
	R(V4_TCP, parse, OK),
	R(V6_UDP, parse, OK),
	R(V6_TCP, parse, OK),
	R(VLAN_V4_TCP, parse, OK),
	R(QINQ_V4_UDP, parse, OK),
	R(V4_OPT_TCP, parse, R_IP_OPTIONS),
	R(V4_OPT_TCP, rich, OK),
	R(V6_EXT_UDP, parse, R_EXT_HDRS),
	R(V6_EXT_UDP, rich, OK),
	R(V6_AH_TCP, parse, R_EXT_HDRS),
	R(V6_AH_TCP, rich, OK),
	R(V6_FRAG_UDP, rich, R_FRAGMENT),
	R(V4_FRAG_UDP, rich, R_FRAGMENT),
	R(V4_SCTP, parse, R_CRC32C),
	R(V4_SCTP, rich, OK),
	R(V4_GRE, rich, R_L4_PROTO),
	R(ARP, rich, R_UNPARSED),
	R(VXLAN_V4_TCP, parse, R_ENCAP),
	R(VXLAN_V4_TCP, rich, OK),
	R(VXLAN_V6_UDP, rich, OK),
	R(V4_UDP, v4tcp, R_L4_PROTO),
	R(V4_TCP, v4tcp, OK),
	R(V6_TCP, v4tcp, R_IPV6),
	R(VLAN_V4_TCP, v4tcp, R_VLAN),
	R(V4_TCP, tunnel, R_NOT_ENCAP),
	R(VXLAN_V4_TCP, tunnel, OK),
	R(VXLAN_V6_UDP, tunnel, R_IPV6),
};

static uint8_t pkt[2048];

static void
test_rows(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rows); i++) {
		const struct row *r = &rows[i];
		struct csum_offload_req req;
		struct csum_offload_result res;
		uint32_t len = build(r->shape, pkt, &req);
		int ret = csum_offload_check(r->spec, &req, pkt, len, len, &res);

		CHECK(ret == 0 && res.reason == r->want &&
		      res.verdict == (r->want == CSUM_OFFLOAD_OK ? CSUM_OFFLOAD_HW : CSUM_OFFLOAD_SW),
		      "%s on %s: ret %d reason %s, want %s", shape_names[r->shape],
		      r->spec_name, ret, csum_offload_reason_name(res.reason),
		      csum_offload_reason_name(r->want));
	}
}

/* Cases that need a tweak to a natural request. */
static void
test_special(void)
{
	struct csum_offload_req req;
	struct csum_offload_result res;
	uint32_t len;

	/* e1000: csum_start 8 bits. */
	len = build(V4_TCP, pkt, &req);
	req.csum_start = 256;
	req.csum_offset = 0;
	len = 1000; /* a generic engine reads no header: only the length matters */
	CHECK(csum_offload_check(&spec_e1000, &req, pkt, len, len, &res) == 0 &&
	      res.reason == CSUM_OFFLOAD_R_START_TOO_FAR, "e1000 start 256: %s",
	      csum_offload_reason_name(res.reason));
	req.csum_start = 250;
	req.csum_offset = 6;
	CHECK(csum_offload_check(&spec_e1000, &req, pkt, len, len, &res) == 0 &&
	      res.reason == CSUM_OFFLOAD_R_FIELD_TOO_FAR, "e1000 field 256");
	/* Parse engine: start that is not the L4 header, offset not the field. */
	len = build(V4_TCP, pkt, &req);
	req.csum_start += 2;
	CHECK(csum_offload_check(&spec_parse, &req, pkt, len, len, &res) == 0 &&
	      res.reason == CSUM_OFFLOAD_R_START_MISMATCH, "start mismatch");
	len = build(V4_UDP, pkt, &req);
	req.csum_offset = 16;
	CHECK(csum_offload_check(&spec_parse, &req, pkt, len, len, &res) == 0 &&
	      res.reason == CSUM_OFFLOAD_R_OFFSET_MISMATCH, "offset mismatch");
	/* CRC requested on a TCP packet. */
	len = build(V4_TCP, pkt, &req);
	req.flags = CSUM_OFFLOAD_F_CRC32C;
	CHECK(csum_offload_check(&spec_rich, &req, pkt, len, len, &res) == 0 &&
	      res.reason == CSUM_OFFLOAD_R_CRC32C, "crc on tcp");
	/* Headers not all in reach: a parse engine says software. */
	len = build(V6_TCP, pkt, &req);
	CHECK(csum_offload_check(&spec_parse, &req, pkt, 30, len, &res) == 0 &&
	      res.reason == CSUM_OFFLOAD_R_UNPARSED, "short header view");
	CHECK(csum_offload_check(&spec_parse, &req, NULL, 0, len, &res) == 0 &&
	      res.reason == CSUM_OFFLOAD_R_UNPARSED, "no header view");
	/* Ethertype says IPv4 but the version nibble says 6. */
	len = build(V4_TCP, pkt, &req);
	pkt[14] = 0x65;
	CHECK(csum_offload_check(&spec_parse, &req, pkt, len, len, &res) == 0 &&
	      res.reason == CSUM_OFFLOAD_R_UNPARSED, "ethertype/version mismatch");
	/* What was parsed is reported, for programming a parsing NIC. */
	len = build(VLAN_V4_TCP, pkt, &req);
	CHECK(csum_offload_check(&spec_parse, &req, pkt, len, len, &res) == 0 &&
	      res.n_vlans == 1 && res.ip_version == 4 && res.l4_proto == 6 &&
	      res.l3_off == 18 && res.l4_off == 38, "parse results");
	/* Impossible requests. */
	CHECK(csum_offload_check(&spec_parse, &(struct csum_offload_req){
		.csum_start = len - 1, .csum_offset = 0 }, pkt, len, len, &res) == -EINVAL,
	      "field past end");
	CHECK(csum_offload_check(&spec_parse, &(struct csum_offload_req){
		.csum_start = 0xfffffff0, .csum_offset = 0x20 }, pkt, len, len, &res) == -EINVAL,
	      "wrap");
	CHECK(csum_offload_check(&spec_parse, &(struct csum_offload_req){
		.csum_start = 40, .csum_offset = 6, .flags = CSUM_OFFLOAD_F_ENCAP },
		pkt, len, len, &res) == -EINVAL, "encap without l3_off");
	CHECK(csum_offload_check(&spec_parse, &(struct csum_offload_req){
		.csum_start = 40, .csum_offset = 6, .l3_off = 41 },
		pkt, len, len, &res) == -EINVAL, "l3 behind l4");
	CHECK(strcmp(csum_offload_reason_name(CSUM_OFFLOAD_R__COUNT), "unknown") == 0 &&
	      strcmp(csum_offload_reason_name(CSUM_OFFLOAD_R_VLAN), "vlan") == 0, "names");
	{
		unsigned int i;

		for (i = 0; i < CSUM_OFFLOAD_R__COUNT; i++)
			CHECK(strcmp(csum_offload_reason_name(i), "unknown") != 0,
			      "reason %u has no name", i);
	}
}

/* resolve(): every row again on an mbuf; software rows end with a right checksum. */
static void
test_resolve(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rows); i++) {
		const struct row *r = &rows[i];
		struct csum_offload_req req;
		struct csum_offload_result res;
		struct test_chain c;
		uint8_t before[2048], after[2048];
		uint32_t len = build(r->shape, pkt, &req), cut = 1 + rng_below(len - 1);
		struct rte_mbuf *m = test_chain_build(&c, pkt, len, &cut, 1);
		int ret = csum_offload_resolve(m, r->spec, &req, &res);

		memcpy(before, pkt, len);
		test_chain_flatten(m, after);
		if (r->want == CSUM_OFFLOAD_OK) {
			CHECK(ret == CSUM_OFFLOAD_HW && memcmp(before, after, len) == 0,
			      "%s on %s: resolve %d / touched", shape_names[r->shape],
			      r->spec_name, ret);
		} else if (req.flags & CSUM_OFFLOAD_F_CRC32C) {
			uint32_t crc;

			memset(before + req.csum_start + 8, 0, 4);
			crc = csum_sctp_crc32c(before + req.csum_start, len - req.csum_start);
			CHECK(ret == CSUM_OFFLOAD_SW &&
			      memcmp(after + req.csum_start + 8, &crc, 4) == 0,
			      "%s on %s: sctp crc in software", shape_names[r->shape], r->spec_name);
		} else {
			/*
			 * CHECKSUM_PARTIAL done right: the region with the final
			 * checksum in place sums to the complement of the seed.
			 */
			uint16_t seed, got;

			memcpy(&seed, before + req.csum_start + req.csum_offset, 2);
			memcpy(&got, after + req.csum_start + req.csum_offset, 2);
			CHECK(ret == CSUM_OFFLOAD_SW && got != 0 &&
			      csum_fold(csum_partial(after + req.csum_start, len - req.csum_start,
						     seed)) == 0xffff,
			      "%s on %s: resolve %d", shape_names[r->shape], r->spec_name, ret);
		}
		test_chain_free(&c);
	}
}

int
main(void)
{
	rng_seed_from_env("test_csum_offload");
	test_rows();
	test_special();
	test_resolve();
	return harness_summary("test_csum_offload");
}
