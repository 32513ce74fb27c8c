/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tunnel types: a bit each, a name and a parser. The table only grows,
 * and a slot is complete before n_types publishes it (release), so the
 * data path reads it without a lock and nothing is ever reclaimed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "udp_tunnel_private.h"

/*
 * The built-in types, at the bits the API fixes (the first three are
 * Linux's), and their well-known UDP ports: IANA's for VXLAN, GENEVE and
 * VXLAN-GPE; GUE has none, 6080 is the one used for it here. A registry
 * starts with these; without a registry (NULL) they are all there is.
 */
static const struct ut_type builtin_types[] = {
	{ "vxlan", udp_tunnel_parse_vxlan },
	{ "geneve", udp_tunnel_parse_geneve },
	{ "vxlan-gpe", udp_tunnel_parse_vxlan_gpe },
	{ "gue", udp_tunnel_parse_gue },
};
static const uint16_t builtin_ports[] = {
	UDP_TUNNEL_IANA_VXLAN_PORT, 6081, 4790, 6080,
};
#define UT_NB_BUILTIN (sizeof(builtin_types) / sizeof(builtin_types[0]))

static void
type_fill(struct udp_tunnel_registry *reg, unsigned int idx, const char *name,
		udp_tunnel_parse_fn parse)
{
	snprintf(reg->types[idx].name, sizeof(reg->types[idx].name), "%s", name);
	reg->types[idx].parse = parse;
}

void
ut_types_init(struct udp_tunnel_registry *reg)
{
	unsigned int i;

	for (i = 0; i < UT_NB_BUILTIN; i++)
		reg->types[i] = builtin_types[i];
	atomic_store_explicit(&reg->n_types, UT_NB_BUILTIN, memory_order_release);
}

int
ut_type_index(unsigned int type)
{
	if (type == 0 || (type & (type - 1)) != 0)
		return -1;
	return __builtin_ctz(type);
}

/* The types of reg, or the built-in ones when reg is NULL. */
static const struct ut_type *
types_get(const struct udp_tunnel_registry *reg, unsigned int *n)
{
	if (reg == NULL) {
		*n = UT_NB_BUILTIN;
		return builtin_types;
	}
	*n = atomic_load_explicit(&((struct udp_tunnel_registry *)reg)->n_types,
			memory_order_acquire);
	return reg->types;
}

static const struct ut_type *
type_get(const struct udp_tunnel_registry *reg, unsigned int type)
{
	const struct ut_type *types;
	int idx = ut_type_index(type);
	unsigned int n;

	if (idx < 0)
		return NULL;
	types = types_get(reg, &n);
	if ((unsigned int)idx >= n)
		return NULL;
	return &types[idx];
}

const char *
udp_tunnel_type_name(const struct udp_tunnel_registry *reg, unsigned int type)
{
	const struct ut_type *t = type_get(reg, type);

	return t != NULL ? t->name : NULL;
}

/* For log messages: never NULL. */
const char *
ut_type_name_safe(const struct udp_tunnel_registry *reg, unsigned int type)
{
	const char *name = udp_tunnel_type_name(reg, type);

	return name != NULL ? name : "unknown-type";
}

unsigned int
udp_tunnel_type_by_name(const struct udp_tunnel_registry *reg, const char *name)
{
	const struct ut_type *types;
	unsigned int i, n;

	if (name == NULL)
		return 0;
	types = types_get(reg, &n);
	for (i = 0; i < n; i++)
		if (strcmp(types[i].name, name) == 0)
			return 1u << i;
	return 0;
}

uint16_t
udp_tunnel_type_default_port(unsigned int type)
{
	int idx = ut_type_index(type);

	return idx >= 0 && (unsigned int)idx < UT_NB_BUILTIN ? builtin_ports[idx] : 0;
}

unsigned int
udp_tunnel_type_mask(const struct udp_tunnel_registry *reg)
{
	unsigned int n;

	types_get(reg, &n);
	return n >= 32 ? ~0u : (1u << n) - 1;
}

static bool
name_is_valid(const char *name)
{
	size_t i, len = strlen(name);

	if (len == 0 || len >= UDP_TUNNEL_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!islower((unsigned char)name[i]) &&
				!isdigit((unsigned char)name[i]) &&
				name[i] != '-' && name[i] != '_')
			return false;
	return true;
}

int
udp_tunnel_type_register(struct udp_tunnel_registry *reg, const char *name,
		udp_tunnel_parse_fn parse, unsigned int *type_out)
{
	unsigned int n;

	if (reg == NULL || name == NULL || parse == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "type register %s: %s missing",
			name != NULL ? name : "(null)",
			reg == NULL ? "registry" : name == NULL ? "name" : "parser");
		return -EINVAL;
	}
	if (!name_is_valid(name)) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"type register '%s': name must be 1-%d chars of [a-z0-9_-]",
			name, UDP_TUNNEL_NAME_MAX - 1);
		return -EINVAL;
	}
	pthread_mutex_lock(&reg->lock);
	if (udp_tunnel_type_by_name(reg, name) != 0) {
		pthread_mutex_unlock(&reg->lock);
		ut_log(UDP_TUNNEL_LOG_ERR, "type register %s: name already taken",
			name);
		return -EEXIST;
	}
	n = atomic_load_explicit(&reg->n_types, memory_order_relaxed);
	if (n >= UDP_TUNNEL_MAX_TYPES) {
		pthread_mutex_unlock(&reg->lock);
		ut_log(UDP_TUNNEL_LOG_ERR,
			"type register %s: all %d type bits are taken",
			name, UDP_TUNNEL_MAX_TYPES);
		return -ENOSPC;
	}
	type_fill(reg, n, name, parse);
	atomic_store_explicit(&reg->n_types, n + 1, memory_order_release);
	pthread_mutex_unlock(&reg->lock);
	if (type_out != NULL)
		*type_out = 1u << n;
	ut_log(UDP_TUNNEL_LOG_INFO, "type %s registered as bit %u", name, n);
	return 0;
}

int
udp_tunnel_parse(const struct udp_tunnel_registry *reg, unsigned int type,
		const uint8_t *hdr, size_t len, struct udp_tunnel_parse_result *res)
{
	const struct ut_type *t = type_get(reg, type);

	/* Data path: no log for malformed packets, only the errno. */
	if (t == NULL || hdr == NULL || res == NULL)
		return -EINVAL;
	return t->parse(hdr, len, res);
}
