/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry, readable with usertools/dpdk-telemetry.py:
 *   /hwcsum/list               hwcsum port ids
 *   /hwcsum/tunnels,<port>     the tunnel tables (as `ethtool --show-tunnels`
 *                              shows them, also as text lines, and slot by
 *                              slot), the registry's users and the push
 *                              counters
 *   /hwcsum/offload,<port>     TX engine, RX work and the offload counters
 *   /hwcsum/flows,<port>       rte_flow rules: fate, mark, hits and the
 *                              registry reference each holds
 * A bad parameter answers {"error": "..."}: a reader sees why, where a
 * negative return would only give null. Counter keys are the xstats names
 * with '-' as '_' (telemetry refuses other characters in keys).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "hwcsum_private.h"

#define USERS_SHOWN 128

static bool
is_hwcsum_port(unsigned long port)
{
	return port < RTE_MAX_ETHPORTS && rte_eth_dev_is_valid_port(port) &&
		rte_eth_devices[port].dev_ops == &hwcsum_dev_ops;
}

static int
tel_error(struct rte_tel_data *d, const char *cmd, const char *params,
	  const char *why)
{
	char msg[RTE_TEL_MAX_STRING_LEN];

	snprintf(msg, sizeof(msg), "%s,%s: %s", cmd, params != NULL ? params : "",
		 why);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "error", msg);
	return 0;
}

/* The hwcsum port named by params, or NULL with the error in d. */
static struct rte_eth_dev *
port_from_params(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned long port;
	char *end;

	if (params == NULL || params[0] < '0' || params[0] > '9') {
		tel_error(d, cmd, params, "expected a port id: <command>,<port id> (see /hwcsum/list)");
		return NULL;
	}
	errno = 0;
	port = strtoul(params, &end, 10);
	if (errno != 0 || *end != '\0') {
		tel_error(d, cmd, params, "the port id is not a number");
		return NULL;
	}
	if (!is_hwcsum_port(port)) {
		tel_error(d, cmd, params, "not a net_hwcsum port (see /hwcsum/list)");
		return NULL;
	}
	return &rte_eth_devices[port];
}

static int
tel_list(const char *cmd __rte_unused, const char *params __rte_unused,
	 struct rte_tel_data *d)
{
	unsigned int port;

	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		if (is_hwcsum_port(port))
			rte_tel_data_add_array_int(d, port);
	return 0;
}

/* "vxlan, vxlan-gpe", as ethtool prints a table's types. */
static void
types_string(const struct udp_tunnel_registry *reg, unsigned int types,
	     char *buf, size_t size)
{
	unsigned int bit;
	size_t len = 0;

	buf[0] = '\0';
	if (types == 0)
		snprintf(buf, size, "none");
	for (bit = 0; bit < UDP_TUNNEL_MAX_TYPES && len < size; bit++) {
		const char *name;

		if (!(types & (1u << bit)))
			continue;
		name = udp_tunnel_type_name(reg, 1u << bit);
		len += snprintf(buf + len, size - len, "%s%s",
				len > 0 ? ", " : "", name != NULL ? name : "?");
	}
}

/* table<N>: size, types, n_entries; table<N>_entries: port -> type. */
static void
tel_table(struct rte_tel_data *d, const struct udp_tunnel_registry *reg,
	  const struct udp_tunnel_dump_table *dt, unsigned int t)
{
	struct rte_tel_data *info = rte_tel_data_alloc();
	struct rte_tel_data *entries = rte_tel_data_alloc();
	char key[32], val[RTE_TEL_MAX_STRING_LEN];
	unsigned int i;

	if (info == NULL || entries == NULL) {
		rte_tel_data_free(info);
		rte_tel_data_free(entries);
		return;
	}
	rte_tel_data_start_dict(info);
	rte_tel_data_add_dict_u64(info, "size", dt->size);
	types_string(reg, dt->types, val, sizeof(val));
	rte_tel_data_add_dict_string(info, "types", val);
	rte_tel_data_add_dict_u64(info, "n_entries", dt->n_entries);
	rte_tel_data_add_dict_int(info, "static", dt->is_static);
	rte_tel_data_start_dict(entries);
	for (i = 0; i < dt->n_entries; i++) {
		const char *name = udp_tunnel_type_name(reg, dt->entries[i].type);

		snprintf(key, sizeof(key), "%u", dt->entries[i].port);
		rte_tel_data_add_dict_string(entries, key, name != NULL ? name : "?");
	}
	snprintf(key, sizeof(key), "table%u", t);
	rte_tel_data_add_dict_container(d, key, info, 0);
	snprintf(key, sizeof(key), "table%u_entries", t);
	rte_tel_data_add_dict_container(d, key, entries, 0);
}

/*
 * table<N>_slots: one string per slot of table N, "0" when empty and
 * "<port>/<type>" otherwise, the way netdevsim's debugfs tables and the
 * scenario files write them: table<N>_entries and the text leave the empty
 * slots out, so only this shows where an entry sits behind a hole.
 */
static void
tel_slots(struct rte_tel_data *d, const struct udp_tunnel_registry *reg,
	  const struct udp_tunnel_dump_table *dt, unsigned int t)
{
	struct rte_tel_data *slots = rte_tel_data_alloc();
	char key[32], val[RTE_TEL_MAX_STRING_LEN];
	unsigned int i, j = 0;

	if (slots == NULL)
		return;
	rte_tel_data_start_array(slots, RTE_TEL_STRING_VAL);
	for (i = 0; i < dt->size; i++) {
		const struct udp_tunnel_dump_entry *e = &dt->entries[j];
		const char *name;

		/* entries come in slot order */
		if (j >= dt->n_entries || e->slot != i) {
			rte_tel_data_add_array_string(slots, "0");
			continue;
		}
		name = udp_tunnel_type_name(reg, e->type);
		snprintf(val, sizeof(val), "%u/%s", e->port,
			 name != NULL ? name : "?");
		rte_tel_data_add_array_string(slots, val);
		j++;
	}
	snprintf(key, sizeof(key), "table%u_slots", t);
	rte_tel_data_add_dict_container(d, key, slots, 0);
}

/* The dump printed by the library, one array element per line. */
static void
tel_text(struct rte_tel_data *d, const struct udp_tunnel_registry *reg,
	 const struct udp_tunnel_dump *dump)
{
	struct rte_tel_data *text;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (f == NULL)
		return;
	udp_tunnel_dump_print(reg, dump, f);
	fclose(f);
	text = rte_tel_data_alloc();
	if (text != NULL) {
		rte_tel_data_start_array(text, RTE_TEL_STRING_VAL);
		for (line = strtok_r(buf, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save))
			rte_tel_data_add_array_string(text, line);
		rte_tel_data_add_dict_container(d, "text", text, 0);
	}
	free(buf);
}

/* Every user of the registry: "v4 4789 vxlan refcnt 2", oldest first. */
static void
tel_users(struct rte_tel_data *d, struct udp_tunnel_registry *reg)
{
	struct udp_tunnel_user_info users[USERS_SHOWN];
	struct rte_tel_data *a;
	char line[RTE_TEL_MAX_STRING_LEN];
	int n, i;

	n = udp_tunnel_users_get(reg, users, RTE_DIM(users));
	if (n < 0)
		return;
	rte_tel_data_add_dict_u64(d, "n_users", n);
	a = rte_tel_data_alloc();
	if (a == NULL)
		return;
	rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
	for (i = 0; i < RTE_MIN(n, USERS_SHOWN); i++) {
		const char *name = udp_tunnel_type_name(reg, users[i].type);

		snprintf(line, sizeof(line), "%s %u %s refcnt %u",
			 users[i].family == AF_INET ? "v4" : "v6", users[i].port,
			 name != NULL ? name : "?", users[i].refcnt);
		rte_tel_data_add_array_string(a, line);
	}
	rte_tel_data_add_dict_container(d, "users", a, 0);
}

static int
tel_tunnels(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_eth_dev *dev = port_from_params(cmd, params, d);
	struct hwcsum_private *priv;
	struct udp_tunnel_dump dump;
	unsigned int t;

	if (dev == NULL)
		return 0;
	priv = hwcsum_priv(dev);
	if (priv->tunnel_dev == NULL ||
	    udp_tunnel_dev_dump(priv->tunnel_dev, &dump) != 0)
		return tel_error(d, cmd, params, "the port has no tunnel tables");
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", dev->data->port_id);
	rte_tel_data_add_dict_string(d, "name", dev->data->name);
	rte_tel_data_add_dict_string(d, "sub_port", priv->sub_name);
	rte_tel_data_add_dict_string(d, "registry",
		priv->args.registry == HWCSUM_REGISTRY_SHARED ? "shared" : "port");
	rte_tel_data_add_dict_int(d, "sub_has_tunnel_ops", priv->sub_has_tunnel_ops);
	rte_tel_data_add_dict_u64(d, "n_tables", dump.n_tables);
	for (t = 0; t < dump.n_tables; t++)
		tel_table(d, priv->registry, &dump.tables[t], t);
	rte_tel_data_add_dict_u64(d, "added_here", priv->n_added);
	tel_users(d, priv->registry);
	rte_tel_data_add_dict_u64(d, "tunnel_entries_not_fitted",
				  hwcsum_tunnel_not_fitted(dev));
	rte_tel_data_add_dict_u64(d, "tunnel_push_ok",
		__atomic_load_n(&priv->tunnel_push_ok, __ATOMIC_RELAXED));
	rte_tel_data_add_dict_u64(d, "tunnel_push_failed",
		__atomic_load_n(&priv->tunnel_push_fail, __ATOMIC_RELAXED));
	rte_tel_data_add_dict_u64(d, "tunnel_replays",
		__atomic_load_n(&priv->tunnel_replays, __ATOMIC_RELAXED));
	tel_text(d, priv->registry, &dump);
	/*
	 * Last, so that the keys readers had before keep their place when a
	 * very large set of tables comes near telemetry's 16 KB reply.
	 */
	for (t = 0; t < dump.n_tables; t++)
		tel_slots(d, priv->registry, &dump.tables[t], t);
	return 0;
}

static const char *
fate_name(const struct hwcsum_flow_rule *r)
{
	switch (r->fate) {
	case HWCSUM_FLOW_FATE_QUEUE:
		return "queue";
	case HWCSUM_FLOW_FATE_RSS:
		return r->rss.level >= 2 ? "rss-inner" : "rss-outer";
	case HWCSUM_FLOW_FATE_DROP:
		return "drop";
	default:
		return "passthru";
	}
}

#define FLOWS_SHOWN 128

/* One line per rule, oldest first: "seq 3 prio 0 queue 2 mark 7 hits 10 ref v4 4789 vxlan". */
static void
flow_line(const struct hwcsum_private *priv, const struct rte_flow *f,
	  char *line, size_t size)
{
	const struct hwcsum_flow_rule *r = &f->rule;
	char ref[64] = "", mark[24] = "", fate[48];

	if (f->tunnel_ref_type != 0)
		snprintf(ref, sizeof(ref), " ref v4 %u %s", f->tunnel_ref_port,
			 udp_tunnel_type_name(priv->registry, f->tunnel_ref_type));
	if (r->mark)
		snprintf(mark, sizeof(mark), " mark %u", r->mark_id);
	else if (r->flag)
		snprintf(mark, sizeof(mark), " flag");
	if (r->fate == HWCSUM_FLOW_FATE_QUEUE)
		snprintf(fate, sizeof(fate), "queue %u", r->queue);
	else if (r->fate == HWCSUM_FLOW_FATE_RSS)
		snprintf(fate, sizeof(fate), "%s over %u queues", fate_name(r),
			 r->rss.n_queues);
	else
		snprintf(fate, sizeof(fate), "%s", fate_name(r));
	snprintf(line, size, "seq %" PRIu64 " prio %u %s%s hits %" PRIu64 "%s%s",
		 r->seq, r->priority, fate, mark,
		 r->count ? __atomic_load_n(&r->hits, __ATOMIC_RELAXED) : 0, ref,
		 f->hw_flow != NULL ? " in sub-port" : "");
}

static int
tel_flows(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_eth_dev *dev = port_from_params(cmd, params, d);
	const struct rte_flow *f;
	struct hwcsum_private *priv;
	struct rte_tel_data *a;
	unsigned int n = 0;

	if (dev == NULL)
		return 0;
	priv = hwcsum_priv(dev);
	a = rte_tel_data_alloc();
	if (a == NULL)
		return tel_error(d, cmd, params, "no memory");
	rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", dev->data->port_id);
	pthread_mutex_lock(&priv->flow_lock);
	rte_tel_data_add_dict_u64(d, "n_rules", priv->n_flow_rules);
	rte_tel_data_add_dict_u64(d, "n_masks", hwcsum_flow_n_masks(priv));
	rte_tel_data_add_dict_int(d, "isolated", priv->flow_isolated);
	rte_tel_data_add_dict_u64(d, "rules_in_sub_port", priv->n_flow_hw);
	rte_tel_data_add_dict_u64(d, "rules_refused_by_sub_port", priv->n_flow_hw_refused);
	TAILQ_FOREACH(f, &priv->flow_rules, next) {
		char line[RTE_TEL_MAX_STRING_LEN];

		if (n++ == FLOWS_SHOWN)
			break;
		flow_line(priv, f, line, sizeof(line));
		rte_tel_data_add_array_string(a, line);
	}
	pthread_mutex_unlock(&priv->flow_lock);
	rte_tel_data_add_dict_container(d, "rules", a, 0);
	return 0;
}

/*
 * Telemetry keys take only [A-Za-z0-9_/]: an xstats name such as
 * rx_tunnel_vxlan-gpe is given as rx_tunnel_vxlan_gpe.
 */
static void
key_sanitize(char *key)
{
	for (; *key != '\0'; key++)
		if (!isalnum((unsigned char)*key) && *key != '_' && *key != '/')
			*key = '_';
}

/* A dict of counters under their xstats names (key_sanitize()d). */
static void
tel_counters(struct rte_tel_data *d, const char *key, const char *prefix,
	     const char *const *names, const uint64_t *values, unsigned int n)
{
	struct rte_tel_data *c = rte_tel_data_alloc();
	char name[RTE_TEL_MAX_STRING_LEN];
	unsigned int i;

	if (c == NULL)
		return;
	rte_tel_data_start_dict(c);
	for (i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		snprintf(name, sizeof(name), "%s%s", prefix, names[i]);
		key_sanitize(name);
		rte_tel_data_add_dict_u64(c, name, values[i]);
	}
	rte_tel_data_add_dict_container(d, key, c, 0);
}

static void
tel_tx(struct rte_tel_data *d, struct rte_eth_dev *dev)
{
	const char *reasons[CSUM_OFFLOAD_R__COUNT];
	struct hwcsum_txq_stats tx;
	unsigned int i;

	hwcsum_tx_totals(dev, &tx);
	tel_counters(d, "tx", "", hwcsum_tx_counter_names, tx.c,
		     HWCSUM_TX__COUNT);
	/* Reason 0 is "ok": the hardware did it, not a software reason. */
	reasons[0] = NULL;
	for (i = 1; i < CSUM_OFFLOAD_R__COUNT; i++)
		reasons[i] = csum_offload_reason_name(i);
	tel_counters(d, "tx_l4_sw_reasons", "tx_l4_sw_", reasons, tx.sw_reason,
		     CSUM_OFFLOAD_R__COUNT);
}

static void
tel_rx(struct rte_tel_data *d, struct rte_eth_dev *dev)
{
	const struct hwcsum_private *priv = hwcsum_priv(dev);
	const char *types[UDP_TUNNEL_MAX_TYPES];
	unsigned int mask = priv->registry != NULL ?
		udp_tunnel_type_mask(priv->registry) : 0;
	struct hwcsum_rxq_stats rx;
	unsigned int i;

	hwcsum_rx_totals(dev, &rx);
	tel_counters(d, "rx", "", hwcsum_rx_counter_names, rx.c,
		     HWCSUM_RX__COUNT);
	for (i = 0; i < UDP_TUNNEL_MAX_TYPES; i++)
		types[i] = (mask & (1u << i)) ?
			udp_tunnel_type_name(priv->registry, 1u << i) : NULL;
	tel_counters(d, "rx_tunnel", "rx_tunnel_", types, rx.tunnel,
		     UDP_TUNNEL_MAX_TYPES);
}

static int
tel_offload(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_eth_dev *dev = port_from_params(cmd, params, d);
	const struct hwcsum_private *priv;

	if (dev == NULL)
		return 0;
	priv = hwcsum_priv(dev);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", dev->data->port_id);
	rte_tel_data_add_dict_string(d, "name", dev->data->name);
	rte_tel_data_add_dict_string(d, "sub_port", priv->sub_name);
	rte_tel_data_add_dict_string(d, "sub_driver", priv->sub_driver);
	rte_tel_data_add_dict_string(d, "engine",
				     hwcsum_engine_name(priv->spec.engine));
	rte_tel_data_add_dict_string(d, "engine_source",
		priv->engine_source != NULL ? priv->engine_source : "");
	rte_tel_data_add_dict_int(d, "rx_work", priv->rx_work);
	tel_tx(d, dev);
	tel_rx(d, dev);
	return 0;
}

void
hwcsum_telemetry_register(void)
{
	static bool registered;

	/* Once per process, however many ports are probed. */
	if (registered)
		return;
	registered = true;
	rte_telemetry_register_cmd("/hwcsum/list", tel_list,
		"Returns the net_hwcsum port ids. No parameters");
	rte_telemetry_register_cmd("/hwcsum/tunnels", tel_tunnels,
		"Returns the UDP tunnel tables of a port, as ethtool --show-tunnels. Parameters: int port_id");
	rte_telemetry_register_cmd("/hwcsum/offload", tel_offload,
		"Returns the checksum engine and offload counters of a port. Parameters: int port_id");
	rte_telemetry_register_cmd("/hwcsum/flows", tel_flows,
		"Returns the rte_flow rules of a port and the registry reference each holds. Parameters: int port_id");
}
