/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC32c for SCTP: kept apart from the ones' complement code because it is
 * a different function of the bytes (hence NETIF_F_SCTP_CRC in Linux).
 *
 * The SSE4.2 crc32 instruction has a latency of 3 cycles and a throughput
 * of 1 per cycle, so one dependent chain (what rte_hash_crc does) uses a
 * third of it. Three chains over three adjacent blocks run in parallel and
 * are then joined: for the raw CRC (no inversions), which is linear,
 *   crc(A || B) = shift_|B|(crc(A)) ^ crc_0(B)
 * where shift_n multiplies by x^(8n) modulo the polynomial. shift_n is a
 * 32x32 GF(2) matrix, applied through four 256-entry tables built at load
 * time for the two block sizes used.
 */
#include <string.h>

#include "csum_impl.h"

#define CRC32C_POLY 0x82f63b78u /* reflected Castagnoli */

/* Block sizes of the three-way loop: long for bulk, mid and short for packets. */
#define CRC_LONG 2048
#define CRC_MID 256
#define CRC_SHORT 64

static uint32_t byte_table[256];
static uint32_t shift_long[4][256];
static uint32_t shift_mid[4][256];
static uint32_t shift_short[4][256];
static bool have_sse42;
static bool tables_ready;

static void csum_crc32c_init(void);

uint32_t
csum_crc32c_sw(const void *buf, size_t len, uint32_t crc)
{
	const uint8_t *p = buf;

	/* Only before the constructor ran (static link); the tables are
	 * deterministic, so a racing double build writes the same values. */
	if (__builtin_expect(!tables_ready, 0))
		csum_crc32c_init();

	while (len--)
		crc = byte_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

static uint32_t
gf2_times(const uint32_t mat[32], uint32_t vec)
{
	uint32_t r = 0;
	int i;

	for (i = 0; vec != 0; i++, vec >>= 1)
		if (vec & 1)
			r ^= mat[i];
	return r;
}

static void
gf2_square(uint32_t sq[32], const uint32_t mat[32])
{
	int i;

	for (i = 0; i < 32; i++)
		sq[i] = gf2_times(mat, mat[i]);
}

/* Tables applying shift_n, the effect of n zero bytes on a raw CRC. */
static void
build_shift_tables(uint32_t tab[4][256], size_t n)
{
	uint32_t op[32], sq[32], res[32];
	size_t bits = n * 8;
	int i, k;
	bool have_res = false;

	/* op: one zero bit. Column i is the image of bit i. */
	op[0] = CRC32C_POLY;
	for (i = 1; i < 32; i++)
		op[i] = 1u << (i - 1);
	/* res = op^bits by square and multiply. */
	while (bits) {
		if (bits & 1) {
			if (!have_res) {
				memcpy(res, op, sizeof(res));
				have_res = true;
			} else {
				for (i = 0; i < 32; i++)
					sq[i] = gf2_times(op, res[i]);
				memcpy(res, sq, sizeof(res));
			}
		}
		bits >>= 1;
		if (bits) {
			gf2_square(sq, op);
			memcpy(op, sq, sizeof(op));
		}
	}
	for (k = 0; k < 4; k++)
		for (i = 0; i < 256; i++)
			tab[k][i] = gf2_times(res, (uint32_t)i << (8 * k));
}

static inline uint32_t
shift(const uint32_t tab[4][256], uint32_t crc)
{
	return tab[0][crc & 0xff] ^ tab[1][(crc >> 8) & 0xff] ^
		tab[2][(crc >> 16) & 0xff] ^ tab[3][crc >> 24];
}

#ifdef CSUM_HAVE_X86
#include <nmmintrin.h>

#define SSE42 __attribute__((target("sse4.2")))

static inline SSE42 uint64_t
load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Three chains over blocks of blk bytes (a multiple of 8), then joined. */
static inline SSE42 const uint8_t *
crc3(const uint8_t *p, size_t blk, const uint32_t tab[4][256], uint32_t *crcp)
{
	uint64_t c0 = *crcp, c1 = 0, c2 = 0;
	const uint8_t *end = p + blk;

	while (p < end) {
		c0 = _mm_crc32_u64(c0, load64(p));
		c1 = _mm_crc32_u64(c1, load64(p + blk));
		c2 = _mm_crc32_u64(c2, load64(p + 2 * blk));
		p += 8;
	}
	c0 = shift(tab, (uint32_t)c0) ^ (uint32_t)c1;
	*crcp = shift(tab, (uint32_t)c0) ^ (uint32_t)c2;
	return p + 2 * blk;
}

static SSE42 uint32_t
crc32c_sse42(const uint8_t *p, size_t len, uint32_t crc)
{
	uint64_t c;

	while (len >= 3 * CRC_LONG) {
		p = crc3(p, CRC_LONG, shift_long, &crc);
		len -= 3 * CRC_LONG;
	}
	while (len >= 3 * CRC_MID) {
		p = crc3(p, CRC_MID, shift_mid, &crc);
		len -= 3 * CRC_MID;
	}
	while (len >= 3 * CRC_SHORT) {
		p = crc3(p, CRC_SHORT, shift_short, &crc);
		len -= 3 * CRC_SHORT;
	}
	c = crc;
	while (len >= 8) {
		c = _mm_crc32_u64(c, load64(p));
		p += 8;
		len -= 8;
	}
	crc = (uint32_t)c;
	if (len >= 4) {
		uint32_t w;

		memcpy(&w, p, 4);
		crc = _mm_crc32_u32(crc, w);
		p += 4;
		len -= 4;
	}
	while (len--)
		crc = _mm_crc32_u8(crc, *p++);
	return crc;
}
#endif

uint32_t
csum_crc32c(const void *buf, size_t len, uint32_t crc)
{
	if (__builtin_expect(!tables_ready, 0))
		csum_crc32c_init();
#ifdef CSUM_HAVE_X86
	if (have_sse42)
		return crc32c_sse42(buf, len, crc);
#endif
	return csum_crc32c_sw(buf, len, crc);
}

static void __attribute__((constructor))
csum_crc32c_init(void)
{
	if (tables_ready)
		return;
	uint32_t i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ ((c & 1) ? CRC32C_POLY : 0);
		byte_table[i] = c;
	}
	build_shift_tables(shift_long, CRC_LONG);
	build_shift_tables(shift_mid, CRC_MID);
	build_shift_tables(shift_short, CRC_SHORT);
#ifdef CSUM_HAVE_X86
	__builtin_cpu_init();
	have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
	tables_ready = true;
}
