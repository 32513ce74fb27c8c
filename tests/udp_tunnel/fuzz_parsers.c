/* SPDX-License-Identifier: BSD-3-Clause */
/* The contract every parser must keep, whatever the bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_parsers.h"

const struct fuzz_parser fuzz_parsers[4] = {
	{ "vxlan", udp_tunnel_parse_vxlan, 8 },
	{ "geneve", udp_tunnel_parse_geneve, 0 },
	{ "vxlan-gpe", udp_tunnel_parse_vxlan_gpe, 8 },
	{ "gue", udp_tunnel_parse_gue, 0 },
};

static void
broken(const struct fuzz_parser *p, size_t size, const char *what, int rc)
{
	fprintf(stderr, "parser %s, %zu bytes: %s (rc %d)\n", p->name, size,
		what, rc);
	abort();
}

void
fuzz_parser_one(const struct fuzz_parser *p, const uint8_t *data, size_t size)
{
	struct udp_tunnel_parse_result res, again;
	uint8_t *copy;
	int rc, rc2;

	copy = malloc(size != 0 ? size : 1);
	if (copy == NULL)
		abort();
	if (size != 0)
		memcpy(copy, data, size);
	memset(&res, 0xa5, sizeof(res));
	rc = p->parse(copy, size, &res);
	if (rc != 0 && rc != -EBADMSG && rc != -EPROTONOSUPPORT)
		broken(p, size, "unexpected error code", rc);
	if (rc == 0) {
		if (res.inner_offset > size)
			broken(p, size, "inner offset past the end", rc);
		if (p->fixed_offset != 0 && res.inner_offset != p->fixed_offset)
			broken(p, size, "wrong fixed header length", rc);
		if (res.vni > 0xffffff)
			broken(p, size, "VNI wider than 24 bits", rc);
		if (res.inner_ethertype == 0 && res.inner_ipproto == 0 &&
				p->parse != udp_tunnel_parse_gue)
			broken(p, size, "no inner protocol", rc);
	}
	/* Stateless: the same bytes give the same answer. */
	memset(&again, 0x5a, sizeof(again));
	rc2 = p->parse(copy, size, &again);
	if (rc2 != rc || (rc == 0 && memcmp(&res, &again, sizeof(res)) != 0))
		broken(p, size, "not deterministic", rc2);
	free(copy);
}
