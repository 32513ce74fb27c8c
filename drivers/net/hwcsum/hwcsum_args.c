/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Devargs:
 *   net_hwcsumN,sub=<ethdev name>
 *     [,tx_engine=auto|generic|parse|none]  what the hardware can sum
 *     [,rx=auto|on|off]                     receive checksum work
 *     [,registry=port|shared]               tunnel ports per port or shared
 *     [,tables=<n>:<type>[+<type>...][/<n>:<types>...]]  tunnel table shape
 *     [,tunnel_ports=<type>:<port>[/<type>:<port>...]]   ports held from probe
 *     [,tables_open_only=0|1]     tables hold ports only while started
 *     [,static_iana_vxlan=0|1]    4789 is hard-wired VXLAN, takes no entry
 *     [,tables_shared=<name>]     ports naming one set share their tables
 *     [,rx_partial_seed=auto|on|off]  complete Linux's partial seeds on RX
 *     [,peer_segment=auto|on|off]     a veth's peer segments its GSO packets
 *
 * The sub-port is any ethdev already probed, named as rte_eth_dev_get_port_by_name
 * knows it (net_ring0, net_af_packet0, 0000:00:04.0, ...). List it before
 * net_hwcsum on the EAL command line: the vdev bus probes in that order.
 * Lists use '/' and '+' because ',' separates devargs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_kvargs.h>

#include "hwcsum_private.h"

#define ARG_SUB "sub"
#define ARG_TX_ENGINE "tx_engine"
#define ARG_RX "rx"
#define ARG_REGISTRY "registry"
#define ARG_TABLES "tables"
#define ARG_TUNNEL_PORTS "tunnel_ports"
#define ARG_OPEN_ONLY "tables_open_only"
#define ARG_STATIC_VXLAN "static_iana_vxlan"
#define ARG_SHARED "tables_shared"
#define ARG_PARTIAL_SEED "rx_partial_seed"
#define ARG_PEER_SEGMENT "peer_segment"

#define VALID_KEYS ARG_SUB ", " ARG_TX_ENGINE ", " ARG_RX ", " ARG_REGISTRY \
	", " ARG_TABLES ", " ARG_TUNNEL_PORTS ", " ARG_OPEN_ONLY ", " \
	ARG_STATIC_VXLAN ", " ARG_SHARED ", " ARG_PARTIAL_SEED ", " \
	ARG_PEER_SEGMENT

const char *
hwcsum_args_help(void)
{
	return "sub=<port name> tx_engine=auto|generic|parse|none rx=auto|on|off "
		"registry=port|shared tables=<n>:<type>[+<type>][/...] "
		"tunnel_ports=<type>:<udp port>[/...] tables_open_only=0|1 "
		"static_iana_vxlan=0|1 tables_shared=<name> "
		"rx_partial_seed=auto|on|off peer_segment=auto|on|off";
}

/* value is one of names[]; *out gets its index. */
static int
parse_choice(const char *dev, const char *key, const char *value,
	     const char *const names[], unsigned int n, unsigned int *out)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strcmp(value, names[i]) == 0) {
			*out = i;
			return 0;
		}
	HWCSUM_LOG(ERR, "%s: devarg %s='%s' is not one of: %s%s%s%s%s%s%s", dev,
		   key, value, names[0], n > 1 ? " " : "", n > 1 ? names[1] : "",
		   n > 2 ? " " : "", n > 2 ? names[2] : "", n > 3 ? " " : "",
		   n > 3 ? names[3] : "");
	return -EINVAL;
}

static int
parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || *out > max)
		return -EINVAL;
	return 0;
}

static int
copy_type_name(const char *dev, const char *key, const char *name, char *dst)
{
	if (name[0] == '\0' || strlen(name) >= UDP_TUNNEL_NAME_MAX) {
		HWCSUM_LOG(ERR, "%s: devarg %s: tunnel type name '%s' is empty or longer than %d characters",
			   dev, key, name, UDP_TUNNEL_NAME_MAX - 1);
		return -EINVAL;
	}
	strcpy(dst, name);
	return 0;
}

/* tables=16:vxlan+vxlan-gpe/4:geneve */
static int
parse_tables(const char *dev, char *value, struct hwcsum_args *args)
{
	char *save_t = NULL, *table;

	for (table = strtok_r(value, "/", &save_t); table != NULL;
	     table = strtok_r(NULL, "/", &save_t)) {
		char *colon = strchr(table, ':'), *save_n = NULL, *name;
		unsigned long n;
		int ret;

		if (args->n_tables == UDP_TUNNEL_MAX_TABLES) {
			HWCSUM_LOG(ERR, "%s: devarg %s: more than %d tables",
				   dev, ARG_TABLES, UDP_TUNNEL_MAX_TABLES);
			return -EINVAL;
		}
		if (colon == NULL) {
			HWCSUM_LOG(ERR, "%s: devarg %s: table '%s' is not <entries>:<type>[+<type>...]",
				   dev, ARG_TABLES, table);
			return -EINVAL;
		}
		*colon = '\0';
		if (parse_uint(table, UDP_TUNNEL_TABLE_MAX_ENTRIES, &n) != 0 || n == 0) {
			HWCSUM_LOG(ERR, "%s: devarg %s: table size '%s' is not 1..%d",
				   dev, ARG_TABLES, table, UDP_TUNNEL_TABLE_MAX_ENTRIES);
			return -EINVAL;
		}
		args->tables[args->n_tables].n_entries = n;
		for (name = strtok_r(colon + 1, "+", &save_n); name != NULL;
		     name = strtok_r(NULL, "+", &save_n)) {
			unsigned int *nt = &args->tables[args->n_tables].n_types;

			if (*nt == UDP_TUNNEL_MAX_TYPES)
				return -EINVAL;
			ret = copy_type_name(dev, ARG_TABLES, name,
				args->tables[args->n_tables].type_names[*nt]);
			if (ret != 0)
				return ret;
			(*nt)++;
		}
		if (args->tables[args->n_tables].n_types == 0) {
			HWCSUM_LOG(ERR, "%s: devarg %s: table %u names no tunnel type",
				   dev, ARG_TABLES, args->n_tables);
			return -EINVAL;
		}
		args->n_tables++;
	}
	return 0;
}

/* tunnel_ports=gue:6080/vxlan:8472 */
static int
parse_tunnel_ports(const char *dev, char *value, struct hwcsum_args *args)
{
	char *save = NULL, *item;

	for (item = strtok_r(value, "/", &save); item != NULL;
	     item = strtok_r(NULL, "/", &save)) {
		struct hwcsum_tunnel_port_arg *tp;
		char *colon = strchr(item, ':');
		unsigned long port;
		int ret;

		if (args->n_tunnel_ports == HWCSUM_MAX_TUNNEL_PORTS) {
			HWCSUM_LOG(ERR, "%s: devarg %s: more than %d ports",
				   dev, ARG_TUNNEL_PORTS, HWCSUM_MAX_TUNNEL_PORTS);
			return -EINVAL;
		}
		if (colon == NULL || parse_uint(colon + 1, 65535, &port) != 0 ||
		    port == 0) {
			HWCSUM_LOG(ERR, "%s: devarg %s: '%s' is not <type>:<udp port 1..65535>",
				   dev, ARG_TUNNEL_PORTS, item);
			return -EINVAL;
		}
		*colon = '\0';
		tp = &args->tunnel_ports[args->n_tunnel_ports];
		ret = copy_type_name(dev, ARG_TUNNEL_PORTS, item, tp->type_name);
		if (ret != 0)
			return ret;
		tp->port = port;
		args->n_tunnel_ports++;
	}
	return 0;
}

static int
parse_pair(const char *dev, const struct rte_kvargs_pair *kv,
	   struct hwcsum_args *args, unsigned int *seen)
{
	static const char *const engines[] = { "auto", "generic", "parse", "none" };
	static const char *const rx_modes[] = { "auto", "on", "off" };
	static const char *const registries[] = { "port", "shared" };
	static const char *const bools[] = { "0", "1" };
	static const char *const keys[] = { ARG_SUB, ARG_TX_ENGINE, ARG_RX,
		ARG_REGISTRY, ARG_TABLES, ARG_TUNNEL_PORTS, ARG_OPEN_ONLY,
		ARG_STATIC_VXLAN, ARG_SHARED, ARG_PARTIAL_SEED,
		ARG_PEER_SEGMENT };
	char buf[512];
	unsigned int k, v = 0;
	int ret;

	for (k = 0; k < RTE_DIM(keys); k++)
		if (strcmp(kv->key, keys[k]) == 0)
			break;
	if (k == RTE_DIM(keys)) {
		HWCSUM_LOG(ERR, "%s: unknown devarg '%s' (valid: %s)", dev,
			   kv->key, VALID_KEYS);
		return -EINVAL;
	}
	if (*seen & (1u << k)) {
		HWCSUM_LOG(ERR, "%s: devarg '%s' given twice%s", dev, kv->key,
			   k == 0 ? "; a hwcsum port has exactly one sub-port" : "");
		return -EINVAL;
	}
	*seen |= 1u << k;
	if (kv->value == NULL || kv->value[0] == '\0') {
		if (k == 0)
			HWCSUM_LOG(ERR, "%s: missing devarg '%s=<port name>'",
				   dev, ARG_SUB);
		else
			HWCSUM_LOG(ERR, "%s: devarg '%s' has no value", dev, kv->key);
		return -EINVAL;
	}
	switch (k) {
	case 0:
		if (strlen(kv->value) >= sizeof(args->sub_name)) {
			HWCSUM_LOG(ERR, "%s: sub-port name '%s' longer than %zu characters",
				   dev, kv->value, sizeof(args->sub_name) - 1);
			return -ENAMETOOLONG;
		}
		strcpy(args->sub_name, kv->value);
		return 0;
	case 1:
		ret = parse_choice(dev, kv->key, kv->value, engines, 4, &v);
		args->tx_engine = v;
		return ret;
	case 2:
		ret = parse_choice(dev, kv->key, kv->value, rx_modes, 3, &v);
		args->rx_mode = v;
		return ret;
	case 3:
		ret = parse_choice(dev, kv->key, kv->value, registries, 2, &v);
		args->registry = v;
		return ret;
	case 6:
		ret = parse_choice(dev, kv->key, kv->value, bools, 2, &v);
		args->tables_open_only = v;
		return ret;
	case 7:
		ret = parse_choice(dev, kv->key, kv->value, bools, 2, &v);
		args->static_iana_vxlan = v;
		return ret;
	case 8:
		if (strlen(kv->value) >= sizeof(args->tables_shared)) {
			HWCSUM_LOG(ERR, "%s: devarg %s: name '%s' longer than %zu characters",
				   dev, kv->key, kv->value,
				   sizeof(args->tables_shared) - 1);
			return -EINVAL;
		}
		strcpy(args->tables_shared, kv->value);
		return 0;
	case 9:
		ret = parse_choice(dev, kv->key, kv->value, rx_modes, 3, &v);
		args->rx_partial_seed = v;
		return ret;
	case 10:
		ret = parse_choice(dev, kv->key, kv->value, rx_modes, 3, &v);
		args->peer_segment = v;
		return ret;
	}
	if (strlen(kv->value) >= sizeof(buf)) {
		HWCSUM_LOG(ERR, "%s: devarg '%s' longer than %zu characters", dev,
			   kv->key, sizeof(buf) - 1);
		return -EINVAL;
	}
	strcpy(buf, kv->value);
	return k == 4 ? parse_tables(dev, buf, args) :
		parse_tunnel_ports(dev, buf, args);
}

/* Linux's rules for shared tables (udp_tunnel_nic_register). */
static int
check_shared(const char *dev, const struct hwcsum_args *args)
{
	if (args->tables_shared[0] == '\0')
		return 0;
	if (args->registry != HWCSUM_REGISTRY_SHARED) {
		HWCSUM_LOG(ERR, "%s: devarg %s=%s needs registry=shared: ports sharing tables see the same tunnel ports",
			   dev, ARG_SHARED, args->tables_shared);
		return -EINVAL;
	}
	if (args->tables_open_only) {
		HWCSUM_LOG(ERR, "%s: devargs %s and %s=1 exclude each other: one port's stop cannot flush tables other ports use",
			   dev, ARG_SHARED, ARG_OPEN_ONLY);
		return -EINVAL;
	}
	return 0;
}

int
hwcsum_args_parse(const char *dev_name, const char *params,
		  struct hwcsum_args *args)
{
	struct rte_kvargs *kvlist;
	unsigned int i, seen = 0;
	int ret = 0;

	memset(args, 0, sizeof(*args));
	if (params == NULL || params[0] == '\0') {
		HWCSUM_LOG(ERR, "%s: missing devarg '%s=<port name>' (e.g. --vdev %s,sub=net_ring0)",
			   dev_name, ARG_SUB, dev_name);
		return -EINVAL;
	}
	/* Parse without a key list so an unknown key can be named below. */
	kvlist = rte_kvargs_parse(params, NULL);
	if (kvlist == NULL) {
		HWCSUM_LOG(ERR, "%s: cannot parse devargs '%s' (expected key=value[,key=value])",
			   dev_name, params);
		return -EINVAL;
	}
	for (i = 0; i < kvlist->count && ret == 0; i++)
		ret = parse_pair(dev_name, &kvlist->pairs[i], args, &seen);
	if (ret == 0 && args->sub_name[0] == '\0') {
		HWCSUM_LOG(ERR, "%s: missing devarg '%s=<port name>'",
			   dev_name, ARG_SUB);
		ret = -EINVAL;
	}
	if (ret == 0)
		ret = check_shared(dev_name, args);
	rte_kvargs_free(kvlist);
	return ret;
}
