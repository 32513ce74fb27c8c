/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef HWCSUM_TEST_FUZZ_COMMON_H
#define HWCSUM_TEST_FUZZ_COMMON_H

/*
 * Shared by the PMD fuzz targets (fuzz_tx.c, fuzz_rx.c) and their seeded
 * driver (test_fuzz_seeded_pmd.c):
 *  - an input reader that hands out parameters and then packet bytes,
 *    zeros once the input is exhausted (so every input is valid);
 *  - segment chains built by hand without EAL: every segment's data is its
 *    own heap block of exactly data_len bytes and no headroom, so under
 *    ASan a read or write outside a segment is caught where it happens;
 *  - byte-wise references (ones' complement sum, CRC32c) that share no
 *    code with lib/csum, and an independent header builder for well-formed
 *    packets (Ethernet, tags, IPv4 with options, IPv6 with an extension
 *    header, UDP tunnels, UDP/TCP/SCTP);
 *  - fuzz_fail(): prints why, saves the input as a reproducer, aborts;
 *  - the hooks the seeded driver calls in each target, fz_fill() and
 *    fz_needs() for them.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "csum_proto.h"

#include "../lib/mbuf_chain.h"

/* ---------------------------------------------------------- the input */

struct fz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t
fz_u8(struct fz_in *in)
{
	uint8_t v = 0;

	if (in->n > 0) {
		v = *in->p++;
		in->n--;
	}
	return v;
}

static inline uint16_t
fz_u16(struct fz_in *in)
{
	uint16_t v = fz_u8(in);

	return (uint16_t)(v | fz_u8(in) << 8);
}

static inline uint32_t
fz_u32(struct fz_in *in)
{
	uint32_t v = fz_u16(in);

	return v | (uint32_t)fz_u16(in) << 16;
}

static inline uint64_t
fz_u64(struct fz_in *in)
{
	uint64_t v = fz_u32(in);

	return v | (uint64_t)fz_u32(in) << 32;
}

/* Copy n bytes out (zeros past the end of the input). */
static inline void
fz_bytes(struct fz_in *in, void *dst, size_t n)
{
	size_t k = n < in->n ? n : in->n;

	memcpy(dst, in->p, k);
	memset((uint8_t *)dst + k, 0, n - k);
	in->p += k;
	in->n -= k;
}

/* ------------------------------------------------------ failure report */

/* Set by each target to the input being run, for the reproducer. */
static const uint8_t *fz_cur_data;
static size_t fz_cur_size;
/* What the target was doing, printed with the failure. */
static char fz_ctx[1024];

static inline void __attribute__((noreturn, format(printf, 2, 3)))
fuzz_fail(const char *target, const char *fmt, ...)
{
	char path[128];
	va_list ap;
	FILE *f;

	fprintf(stderr, "%s: INVARIANT BROKEN: ", target);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (fz_ctx[0] != '\0')
		fprintf(stderr, "%s: context: %s\n", target, fz_ctx);
	/* libFuzzer saves crashing inputs itself; the seeded run cannot. */
	snprintf(path, sizeof(path), "%s-failure.bin", target);
	f = fopen(path, "wb");
	if (f != NULL) {
		fwrite(fz_cur_data, 1, fz_cur_size, f);
		fclose(f);
		fprintf(stderr, "%s: input (%zu bytes) saved as %s\n", target,
			fz_cur_size, path);
	}
	abort();
}

/* ------------------------------------------- the chain's cuts (mbuf_chain.h) */

/* The most segments an input asks for (part of how inputs decode). */
#define FZ_MAX_SEGS 40

/* Cuts from the input: none, a few, or many tiny (odd, empty) ones. */
static inline unsigned int
fz_cuts(struct fz_in *in, uint32_t len, uint32_t *cuts)
{
	uint8_t style = fz_u8(in);
	unsigned int n = 0, i;

	switch (style & 3) {
	case 0:
		return 0;
	case 1:
		n = 1 + (style >> 2) % 4;
		break;
	default:
		n = 1 + (style >> 2) % (FZ_MAX_SEGS - 1);
		break;
	}
	for (i = 0; i < n; i++) {
		uint8_t b = fz_u8(in);

		cuts[i] = (style & 3) == 3 ? b % 4 : (b * (len / 2 + 2)) / 256;
	}
	return n;
}

/* ---------------------------------------------------------- references */

/* RFC 1071 one byte at a time, in memory order (as rte_raw_cksum sums). */
static inline uint64_t
ref_sum(const uint8_t *p, size_t len)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < len; i++)
		sum += (i & 1) ? (uint64_t)p[i] << 8 : p[i];
	return sum;
}

static inline uint16_t
ref_fold(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* Equal as ones' complement numbers (0 and 0xffff are both zero). */
static inline bool
ref_same(uint16_t a, uint16_t b)
{
	return a == b || (a == 0 && b == 0xffff) || (a == 0xffff && b == 0);
}

/* CRC32c bit by bit (reflected 0x82F63B78), as RFC 9260 appendix B. */
static inline uint32_t
ref_crc32c(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xffffffff;
	size_t i;
	int k;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78 : crc >> 1;
	}
	return ~crc;
}

static inline uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void
put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline uint16_t
get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static inline void
put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

/*
 * Pseudo-header sum of the IP header at ip (v4 or v6 by its version) for
 * an L4 of len bytes and protocol proto, built as bytes and summed.
 */
static inline uint64_t
ref_pseudo(const uint8_t *ip, uint32_t len, uint8_t proto)
{
	uint8_t ph[40];

	if ((ip[0] >> 4) == 4) {
		memcpy(ph, ip + 12, 8);
		ph[8] = 0;
		ph[9] = proto;
		put_be16(ph + 10, (uint16_t)len);
		return ref_sum(ph, 12);
	}
	memcpy(ph, ip + 8, 32);
	return ref_sum(ph, 32) + ref_sum((const uint8_t []){
		(uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8),
		(uint8_t)len, 0, 0, 0, proto }, 8);
}

/* IPv4 header at ip is correct: its words sum to 0xffff. */
static inline bool
ref_ipv4_ok(const uint8_t *ip)
{
	return ref_fold(ref_sum(ip, (ip[0] & 0xf) * 4u)) == 0xffff;
}

static inline void
ref_ipv4_fill(uint8_t *ip)
{
	ip[10] = ip[11] = 0;
	put16(ip + 10, (uint16_t)~ref_fold(ref_sum(ip, (ip[0] & 0xf) * 4u)));
}

/* ----------------------------------------------- a well-formed packet */

enum fz_tun {
	FZ_TUN_NONE = 0,
	FZ_TUN_VXLAN,
	FZ_TUN_GENEVE,
	FZ_TUN_GPE,
	FZ_TUN_GUE,
	FZ_TUN__COUNT
};


/* What to build. */
struct fz_pkt_opts {
	unsigned int vlans;	/* 0..2 */
	bool v6;		/* outer (only) IP header */
	unsigned int ip_opt;	/* IPv4 option words 0..2; IPv6: hop-by-hop 8 bytes */
	enum fz_tun tun;
	unsigned int tun_opt;	/* GENEVE option words / GUE extension words, 0..3 */
	bool inner_eth;		/* GPE/GUE: Ethernet inside (GPE 3) or IP */
	bool inner_v6;
	unsigned int inner_ip_opt;
	uint8_t proto;		/* 6, 17, 132 */
	uint16_t udp_dport;	/* outer UDP port of the tunnel */
	uint32_t payload;
	uint32_t trailer;	/* bytes after the IP datagram (Ethernet padding) */
};

/*
 * The shape two input bytes choose: a the outer part (tags, IP version and
 * options, tunnel), b the inner one; b's top value is SCTP where sctp is
 * true, UDP otherwise. The tunnel's port is its IANA one; payload and
 * trailer are the caller's.
 */
static inline void
fz_opts_from_bytes(struct fz_pkt_opts *o, uint8_t a, uint8_t b, bool sctp)
{
	static const uint16_t iana_port[FZ_TUN__COUNT] = { 0, 4789, 6081, 4790, 6080 };

	memset(o, 0, sizeof(*o));
	o->vlans = a % 3;
	o->v6 = a >> 2 & 1;
	o->ip_opt = (a >> 3) % 3;
	o->tun = (a >> 5) % FZ_TUN__COUNT;
	o->tun_opt = b % 4;
	o->inner_eth = b >> 2 & 1;
	o->inner_v6 = b >> 3 & 1;
	o->inner_ip_opt = (b >> 4) % 3;
	o->proto = (b >> 6) == 0 ? IPPROTO_TCP : (b >> 6) == 3 && sctp ?
		IPPROTO_SCTP : IPPROTO_UDP;
	o->udp_dport = iana_port[o->tun];
}

/* Where everything is. Offsets from the first byte. */
struct fz_pkt {
	uint32_t len;
	uint32_t l3, l3_len, l4;	/* the (inner) L3/L4 */
	uint32_t l3_end;		/* end of the (inner) IP datagram */
	uint8_t proto;
	bool v6;
	bool encap;
	uint32_t outer_l3, outer_l3_len, outer_l4, outer_l3_end;
	bool outer_v6;
	uint32_t start;			/* first byte after outer Ethernet/tags */
	uint32_t tun_hdr;		/* first byte after the outer UDP header */
};

#define FZ_PKT_MAX (14 + 8 + 60 + 8 + 8 + 16 + 14 + 60 + 32 + 2048 + 64)

static inline uint32_t
fz_ip_build(uint8_t *p, bool v6, unsigned int opt, uint32_t datagram_len,
	    uint8_t proto, const uint8_t *rnd)
{
	uint32_t hl;

	if (!v6) {
		hl = 20 + 4 * opt;
		memcpy(p, rnd, hl);
		p[0] = (uint8_t)(0x40 | (hl / 4));
		put_be16(p + 2, (uint16_t)(hl + datagram_len));
		p[6] &= 0x40;	/* DF only: not a fragment */
		p[7] = 0;
		p[8] |= 1;	/* TTL */
		p[9] = proto;
		memset(p + 20, 1, hl - 20); /* NOP options */
		return hl;
	}
	hl = 40 + (opt ? 8 : 0);
	memcpy(p, rnd, hl);
	p[0] = 0x60 | (p[0] & 0x0f);
	put_be16(p + 4, (uint16_t)(hl - 40 + datagram_len));
	p[6] = opt ? 0 : proto;	/* hop-by-hop */
	p[7] |= 1;
	if (opt) {
		p[40] = proto;
		p[41] = 0;
		/* PadN filling the 6 bytes of options. */
		p[42] = 1;
		p[43] = 4;
		memset(p + 44, 0, 4);
	}
	return hl;
}

static inline uint32_t
fz_l4_hdr_len(uint8_t proto)
{
	return proto == IPPROTO_TCP ? 20 : proto == IPPROTO_UDP ? 8 : 12;
}

/*
 * Build into buf (FZ_PKT_MAX bytes) from random bytes rnd (FZ_PKT_MAX too):
 * every length field right, checksum fields left as rnd has them.
 */
static inline void
fz_pkt_build(uint8_t *buf, const struct fz_pkt_opts *o, const uint8_t *rnd,
	     struct fz_pkt *l)
{
	uint32_t off, l4_len, inner_len, tun_len = 0, i;
	uint16_t ethertype;

	memset(l, 0, sizeof(*l));
	memcpy(buf, rnd, FZ_PKT_MAX);
	buf[0] &= 0xfe;	/* unicast */
	off = 12;
	for (i = 0; i < o->vlans; i++) {
		put_be16(buf + off, i == 0 && o->vlans == 2 ? 0x88a8 : 0x8100);
		off += 4;
	}
	put_be16(buf + off, o->v6 ? 0x86dd : 0x0800);
	off += 2;
	l->start = off;
	l4_len = fz_l4_hdr_len(o->proto) + o->payload;
	if (o->tun != FZ_TUN_NONE) {
		bool ieth = o->tun == FZ_TUN_VXLAN || o->tun == FZ_TUN_GENEVE ||
			o->inner_eth;
		uint32_t ihl = o->inner_v6 ? 40 + (o->inner_ip_opt ? 8 : 0) :
			20 + 4 * o->inner_ip_opt;

		tun_len = 8 + 4 * o->tun_opt;
		if (o->tun == FZ_TUN_VXLAN || o->tun == FZ_TUN_GPE)
			tun_len = 8;
		if (o->tun == FZ_TUN_GUE)
			tun_len = 4 + 4 * o->tun_opt;
		inner_len = tun_len + (ieth ? 14 : 0) + ihl + l4_len;
		l->encap = true;
		l->outer_v6 = o->v6;
		l->outer_l3 = off;
		l->outer_l3_len = fz_ip_build(buf + off, o->v6, o->ip_opt,
					      8 + inner_len, IPPROTO_UDP, rnd + off);
		l->outer_l4 = off + l->outer_l3_len;
		l->outer_l3_end = l->outer_l4 + 8 + inner_len;
		off = l->outer_l4;
		put_be16(buf + off + 2, o->udp_dport);
		put_be16(buf + off + 4, (uint16_t)(8 + inner_len));
		off += 8;
		l->tun_hdr = off;
		ethertype = o->inner_v6 ? 0x86dd : 0x0800;
		switch (o->tun) {
		case FZ_TUN_VXLAN:
			memset(buf + off, 0, 8);
			buf[off] = 0x08;
			memcpy(buf + off + 4, rnd + off, 3);
			break;
		case FZ_TUN_GENEVE:
			buf[off] = (uint8_t)o->tun_opt;
			buf[off + 1] &= 0x3f;
			put_be16(buf + off + 2, 0x6558);
			/* One option TLV covering all option words. */
			if (o->tun_opt)
				buf[off + 8 + 3] = (uint8_t)((buf[off + 8 + 3] & 0xe0) |
							     (o->tun_opt - 1));
			break;
		case FZ_TUN_GPE:
			buf[off] = 0x0c;
			buf[off + 1] = buf[off + 2] = 0;
			buf[off + 3] = ieth ? 3 : o->inner_v6 ? 2 : 1;
			buf[off + 7] = 0;
			break;
		default:
			if (ieth) {
				/* GUE carries IP only: Ethernet over GUE is
				 * proto 97 (EtherIP), unknown to the parser. */
				buf[off] = (uint8_t)o->tun_opt;
				buf[off + 1] = 97;
			} else {
				buf[off] = (uint8_t)o->tun_opt;
				buf[off + 1] = o->inner_v6 ? 41 : 4;
			}
			break;
		}
		off += tun_len;
		if (ieth) {
			put_be16(buf + off + 12, ethertype);
			off += 14;
		}
		l->l3 = off;
		l->l3_len = fz_ip_build(buf + off, o->inner_v6, o->inner_ip_opt,
					l4_len, o->proto, rnd + off);
		l->v6 = o->inner_v6;
	} else {
		l->l3 = off;
		l->l3_len = fz_ip_build(buf + off, o->v6, o->ip_opt, l4_len,
					o->proto, rnd + off);
		l->v6 = o->v6;
	}
	l->l4 = l->l3 + l->l3_len;
	l->l3_end = l->l4 + l4_len;
	l->proto = o->proto;
	if (o->proto == IPPROTO_UDP)
		put_be16(buf + l->l4 + 4, (uint16_t)l4_len);
	else if (o->proto == IPPROTO_TCP)
		buf[l->l4 + 12] = 0x50 | (buf[l->l4 + 12] & 0x0f);
	if (!l->encap) {
		l->outer_l3_end = l->l3_end;
		/* Not a registered tunnel port by chance. */
		if (o->proto == IPPROTO_UDP)
			put_be16(buf + l->l4 + 2, 9);
	}
	l->len = l->l3_end + o->trailer;
}

/* Offset of the L4 checksum field in its header. */
static inline uint32_t
fz_csum_off(uint8_t proto)
{
	return proto == IPPROTO_TCP ? 16 : proto == IPPROTO_UDP ? 6 : 8;
}

/* Fill the L4 checksum at l4 (IP header at l3) over [l4, end): correct. */
static inline void
ref_l4_fill(uint8_t *buf, uint32_t l3, uint32_t l4, uint32_t end, uint8_t proto)
{
	uint32_t f = l4 + fz_csum_off(proto);
	uint16_t c;

	if (proto == IPPROTO_SCTP) {
		uint32_t crc;

		memset(buf + f, 0, 4);
		crc = ref_crc32c(buf + l4, end - l4);
		buf[f] = (uint8_t)crc;
		buf[f + 1] = (uint8_t)(crc >> 8);
		buf[f + 2] = (uint8_t)(crc >> 16);
		buf[f + 3] = (uint8_t)(crc >> 24);
		return;
	}
	buf[f] = buf[f + 1] = 0;
	c = (uint16_t)~ref_fold(ref_pseudo(buf + l3, end - l4, proto) +
				ref_sum(buf + l4, end - l4));
	if (c == 0 && proto == IPPROTO_UDP)
		c = 0xffff;
	put16(buf + f, c);
}

/* The L4 checksum at l4 over [l4, end) verifies (UDP 0 does not). */
static inline bool
ref_l4_ok(const uint8_t *buf, uint32_t l3, uint32_t l4, uint32_t end,
	  uint8_t proto)
{
	uint32_t f = l4 + fz_csum_off(proto);

	if (proto == IPPROTO_SCTP) {
		uint8_t tmp[4];
		uint32_t crc, got;
		uint8_t *copy = malloc(end - l4);
		bool ok;

		if (copy == NULL)
			abort();
		memcpy(copy, buf + l4, end - l4);
		memset(copy + 8, 0, 4);
		crc = ref_crc32c(copy, end - l4);
		memcpy(tmp, buf + f, 4);
		got = (uint32_t)tmp[0] | (uint32_t)tmp[1] << 8 |
			(uint32_t)tmp[2] << 16 | (uint32_t)tmp[3] << 24;
		ok = crc == got;
		free(copy);
		return ok;
	}
	if (proto == IPPROTO_UDP && get16(buf + f) == 0)
		return false;
	return ref_fold(ref_pseudo(buf + l3, end - l4, proto) +
			ref_sum(buf + l4, end - l4)) == 0xffff;
}

/* ------------------------------------ the entry points and the hooks */

/* libFuzzer's entry points, which each target defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * Each target defines these for test_fuzz_seeded_pmd.c: one input of at
 * most cap bytes from the random source next, and the report after iters
 * inputs (non-zero: a long run never reached a path it exists for).
 */
size_t fuzz_seeded_input(uint8_t *buf, size_t cap, uint64_t (*next)(void));
int fuzz_seeded_report(unsigned long iters);
extern const char *const fuzz_seeded_name;

/* cap random bytes from next into buf. */
static inline void
fz_fill(uint8_t *buf, size_t cap, uint64_t (*next)(void))
{
	size_t i;

	for (i = 0; i < cap; i++)
		buf[i] = (uint8_t)next();
}

/* A path a long seeded run must reach: its name and how often it was. */
struct fz_need {
	const char *what;
	uint64_t reached;
};
#define FZ_NEED(x) { #x, (uint64_t)(x) }

/* The report's verdict: 1, naming each, when a needed path was never reached. */
static inline int
fz_needs(const struct fz_need *need, size_t n)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (need[i].reached == 0) {
			printf("%s: never reached: %s\n", fuzz_seeded_name, need[i].what);
			bad = 1;
		}
	return bad;
}

#endif
