/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FUZZ_PARSERS_H
#define FUZZ_PARSERS_H

#include <stddef.h>
#include <stdint.h>

#include "udp_tunnel.h"

struct fuzz_parser {
	const char *name;
	udp_tunnel_parse_fn parse;
	size_t fixed_offset;	/* 0: variable length header */
};

extern const struct fuzz_parser fuzz_parsers[4];

/*
 * Run one parser on exactly size bytes (copied into a buffer of that size
 * so ASan sees any read past the end) and abort on a broken contract.
 */
void fuzz_parser_one(const struct fuzz_parser *p, const uint8_t *data,
		size_t size);

#endif
