/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Seeded random fuzz run of every parser, for the normal suite: valid
 * headers as seeds, then random bytes, truncations, bit flips and option
 * length mutations. A fixed seed (argv[1], default 1) makes a failure
 * reproducible; the run takes a few seconds at most.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_parsers.h"

static uint64_t rng_state;

static uint32_t
rng(void)
{
	/* xorshift64*: deterministic, seedable, no libc state */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static const uint8_t seed_vxlan[] = {
	0x08, 0, 0, 0, 0x12, 0x34, 0x56, 0, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};
static const uint8_t seed_geneve[] = {
	0x02, 0x00, 0x65, 0x58, 0, 0, 1, 0,		/* 2 words of options */
	0x01, 0x02, 0x03, 0x01, 0xde, 0xad, 0xbe, 0xef,	/* one 8-byte option */
	0x00, 0x11, 0x22,
};
static const uint8_t seed_gpe[] = {
	0x0c, 0, 0, 0x01, 0, 0, 7, 0, 0x45, 0, 0, 20,
};
static const uint8_t seed_gue[] = {
	0x01, 0x04, 0, 0, 0xaa, 0xbb, 0xcc, 0xdd, 0x45, 0,
};

static const struct {
	const uint8_t *bytes;
	size_t len;
} seeds[4] = {
	{ seed_vxlan, sizeof(seed_vxlan) },
	{ seed_geneve, sizeof(seed_geneve) },
	{ seed_gpe, sizeof(seed_gpe) },
	{ seed_gue, sizeof(seed_gue) },
};

#define ROUNDS 1000000

int
main(int argc, char **argv)
{
	uint8_t buf[96];
	unsigned int p, i, j, flips;
	size_t len;

	rng_state = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	if (rng_state == 0)
		rng_state = 1;
	printf("seed %llu, %u rounds per parser\n",
		(unsigned long long)rng_state, ROUNDS);
	for (p = 0; p < 4; p++) {
		for (i = 0; i < ROUNDS; i++) {
			switch (i % 3) {
			case 0:		/* random bytes, random length */
				len = rng() % sizeof(buf);
				for (j = 0; j < len; j++)
					buf[j] = (uint8_t)rng();
				break;
			default:	/* mutate a valid header */
				len = seeds[p].len;
				memcpy(buf, seeds[p].bytes, len);
				flips = 1 + rng() % 3;
				for (j = 0; j < flips; j++)
					buf[rng() % len] ^= (uint8_t)(1u << (rng() % 8));
				if (rng() % 4 == 0)
					len = rng() % (len + 1);	/* truncate */
				break;
			}
			fuzz_parser_one(&fuzz_parsers[p], buf, len);
		}
		printf("%s: %u inputs, contract kept\n", fuzz_parsers[p].name,
			ROUNDS);
	}
	return 0;
}
