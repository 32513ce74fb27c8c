/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_flow attributes, patterns and actions into lib/flow's rule and the
 * tunnel reference it needs (struct rte_flow, hwcsum_private.h).
 * Nothing here changes state: validate and create share it, create then
 * takes the registry reference and publishes. Every refusal names the
 * item or action (by type and position) and the field that cannot be had.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_flow.h>

#include "hwcsum_flow.h"
#include "hwcsum_private.h"

/* Messages live until the next error on this thread (testpmd prints at once). */
static __thread char flow_msg[256];

int
hwcsum_flow_error(struct rte_flow_error *error, int code, int type,
		  const void *cause, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(flow_msg, sizeof(flow_msg), fmt, ap);
	va_end(ap);
	HWCSUM_LOG(DEBUG, "rte_flow: %s", flow_msg);
	return rte_flow_error_set(error, code, (enum rte_flow_error_type)type,
				  cause, flow_msg);
}

#define ITEM_ERR(err, item, idx, fmt, ...) \
	hwcsum_flow_error(err, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, item, \
			  "%s item #%u: " fmt, item_name((item)->type), idx, \
			  ## __VA_ARGS__)
#define ACTION_ERR(err, code, act, idx, fmt, ...) \
	hwcsum_flow_error(err, code, RTE_FLOW_ERROR_TYPE_ACTION, act, \
			  "%s action #%u: " fmt, action_name((act)->type), idx, \
			  ## __VA_ARGS__)

static const char *
item_name(enum rte_flow_item_type t)
{
	switch (t) {
	case RTE_FLOW_ITEM_TYPE_ETH: return "ETH";
	case RTE_FLOW_ITEM_TYPE_VLAN: return "VLAN";
	case RTE_FLOW_ITEM_TYPE_IPV4: return "IPV4";
	case RTE_FLOW_ITEM_TYPE_IPV6: return "IPV6";
	case RTE_FLOW_ITEM_TYPE_UDP: return "UDP";
	case RTE_FLOW_ITEM_TYPE_TCP: return "TCP";
	case RTE_FLOW_ITEM_TYPE_VXLAN: return "VXLAN";
	case RTE_FLOW_ITEM_TYPE_GENEVE: return "GENEVE";
	case RTE_FLOW_ITEM_TYPE_GENEVE_OPT: return "GENEVE_OPT";
	case RTE_FLOW_ITEM_TYPE_VXLAN_GPE: return "VXLAN_GPE";
	case RTE_FLOW_ITEM_TYPE_VOID: return "VOID";
	case RTE_FLOW_ITEM_TYPE_END: return "END";
	default: return "this";
	}
}

static const char *
action_name(enum rte_flow_action_type t)
{
	switch (t) {
	case RTE_FLOW_ACTION_TYPE_QUEUE: return "QUEUE";
	case RTE_FLOW_ACTION_TYPE_RSS: return "RSS";
	case RTE_FLOW_ACTION_TYPE_MARK: return "MARK";
	case RTE_FLOW_ACTION_TYPE_FLAG: return "FLAG";
	case RTE_FLOW_ACTION_TYPE_DROP: return "DROP";
	case RTE_FLOW_ACTION_TYPE_COUNT: return "COUNT";
	case RTE_FLOW_ACTION_TYPE_VOID: return "VOID";
	case RTE_FLOW_ACTION_TYPE_PASSTHRU: return "PASSTHRU";
	default: return "this";
	}
}

/* ------------------------------------------------------------ pattern */

struct pattern_state {
	struct hwcsum_flow_rule *r;
	bool inner;		/* past the tunnel item */
	unsigned int l3;	/* HWCSUM_FL_IPV4/6 seen at this level */
	bool udp_dst_set;	/* the outer UDP item fixed the destination port */
	uint16_t udp_dst;	/* host order */
	const struct rte_flow_item *tunnel_item;
};

/*
 * The item's spec and mask (default mask when none), after checking that
 * the mask asks only for the fields in allowed and that last is no range.
 */
static int
item_spec_mask(const struct rte_flow_item *it, unsigned int idx,
	       const void *def_mask, const void *allowed, size_t size,
	       const char *fields, const uint8_t **spec, const uint8_t **mask,
	       struct rte_flow_error *err)
{
	const uint8_t *m = it->mask != NULL ? it->mask : def_mask;
	const uint8_t *a = allowed;
	size_t i;

	*spec = it->spec;
	*mask = m;
	if (it->spec == NULL) {
		if (it->last != NULL || it->mask != NULL)
			return ITEM_ERR(err, it, idx, "mask or last without spec");
		return 0;
	}
	for (i = 0; i < size; i++)
		if (m[i] & ~a[i])
			return ITEM_ERR(err, it, idx, "byte %zu of the mask asks for a field that cannot be matched (only %s)",
					i, fields);
	if (it->last != NULL) {
		const uint8_t *l = it->last, *s = it->spec;

		for (i = 0; i < size; i++)
			if ((l[i] & m[i]) != (s[i] & m[i]))
				return ITEM_ERR(err, it, idx, "ranges (last) are not supported");
	}
	return 0;
}

/* value |= spec & mask, mask |= mask, over n bytes. */
static void
field_set(void *value, void *mask, const void *spec, const void *smask, size_t n)
{
	uint8_t *v = value, *m = mask;
	const uint8_t *s = spec, *sm = smask;
	size_t i;

	for (i = 0; i < n; i++) {
		m[i] |= sm[i];
		v[i] |= s[i] & sm[i];
	}
}

static struct hwcsum_flow_hdrs *
lvl(struct pattern_state *ps, bool value)
{
	struct hwcsum_flow_key *k = value ? &ps->r->value : &ps->r->mask;

	return ps->inner ? &k->inner : &k->outer;
}

/* The item's layer must be present: value and mask bit. */
static void
layer_require(struct pattern_state *ps, uint32_t fl)
{
	uint32_t bit = ps->inner ? HWCSUM_FL_INNER(fl) : fl;

	ps->r->value.layers |= bit;
	ps->r->mask.layers |= bit;
}

#define SET(ps, field, spec, mask) \
	field_set(&lvl(ps, true)->field, &lvl(ps, false)->field, spec, mask, \
		  sizeof(lvl(ps, true)->field))

static int
item_eth(struct pattern_state *ps, const struct rte_flow_item *it,
	 unsigned int idx, struct rte_flow_error *err)
{
	static const struct rte_flow_item_eth allowed = {
		.hdr.dst_addr.addr_bytes = "\xff\xff\xff\xff\xff\xff",
		.hdr.src_addr.addr_bytes = "\xff\xff\xff\xff\xff\xff",
		.hdr.ether_type = RTE_BE16(0xffff),
		.has_vlan = 1,
	};
	const struct rte_flow_item_eth *s, *m;
	int ret;

	ret = item_spec_mask(it, idx, &rte_flow_item_eth_mask, &allowed,
			     sizeof(allowed), "dst, src, type, has_vlan",
			     (const uint8_t **)&s, (const uint8_t **)&m, err);
	if (ret != 0)
		return ret;
	layer_require(ps, HWCSUM_FL_ETH);
	if (s == NULL)
		return 0;
	SET(ps, dst_mac, s->hdr.dst_addr.addr_bytes, m->hdr.dst_addr.addr_bytes);
	SET(ps, src_mac, s->hdr.src_addr.addr_bytes, m->hdr.src_addr.addr_bytes);
	/* The key holds the EtherType behind the tags; a TPID means a tag. */
	if (m->hdr.ether_type != 0) {
		uint16_t t = rte_be_to_cpu_16(s->hdr.ether_type & m->hdr.ether_type);

		if (t == RTE_ETHER_TYPE_VLAN || t == RTE_ETHER_TYPE_QINQ)
			layer_require(ps, HWCSUM_FL_VLAN);
		else
			SET(ps, ethertype, &s->hdr.ether_type, &m->hdr.ether_type);
	}
	if (m->has_vlan) {
		uint32_t bit = ps->inner ? HWCSUM_FL_INNER(HWCSUM_FL_VLAN) :
			HWCSUM_FL_VLAN;

		ps->r->mask.layers |= bit;
		if (s->has_vlan)
			ps->r->value.layers |= bit;
	}
	return 0;
}

static int
item_vlan(struct pattern_state *ps, const struct rte_flow_item *it,
	  unsigned int idx, struct rte_flow_error *err)
{
	static const struct rte_flow_item_vlan allowed = {
		.hdr.vlan_tci = RTE_BE16(0xffff),
		.hdr.eth_proto = RTE_BE16(0xffff),
	};
	const struct rte_flow_item_vlan *s, *m;
	int ret;

	ret = item_spec_mask(it, idx, &rte_flow_item_vlan_mask, &allowed,
			     sizeof(allowed), "tci, inner_type",
			     (const uint8_t **)&s, (const uint8_t **)&m, err);
	if (ret != 0)
		return ret;
	layer_require(ps, HWCSUM_FL_ETH | HWCSUM_FL_VLAN);
	if (s == NULL)
		return 0;
	SET(ps, vlan_tci, &s->hdr.vlan_tci, &m->hdr.vlan_tci);
	SET(ps, ethertype, &s->hdr.eth_proto, &m->hdr.eth_proto);
	return 0;
}

static int
item_ipv4(struct pattern_state *ps, const struct rte_flow_item *it,
	  unsigned int idx, struct rte_flow_error *err)
{
	static const struct rte_flow_item_ipv4 allowed = {
		.hdr.src_addr = RTE_BE32(0xffffffff),
		.hdr.dst_addr = RTE_BE32(0xffffffff),
		.hdr.next_proto_id = 0xff,
	};
	const struct rte_flow_item_ipv4 *s, *m;
	int ret;

	ret = item_spec_mask(it, idx, &rte_flow_item_ipv4_mask, &allowed,
			     sizeof(allowed), "src, dst, proto",
			     (const uint8_t **)&s, (const uint8_t **)&m, err);
	if (ret != 0)
		return ret;
	layer_require(ps, HWCSUM_FL_IPV4);
	ps->l3 = HWCSUM_FL_IPV4;
	if (s == NULL)
		return 0;
	field_set(lvl(ps, true)->src_ip, lvl(ps, false)->src_ip,
		  &s->hdr.src_addr, &m->hdr.src_addr, 4);
	field_set(lvl(ps, true)->dst_ip, lvl(ps, false)->dst_ip,
		  &s->hdr.dst_addr, &m->hdr.dst_addr, 4);
	SET(ps, proto, &s->hdr.next_proto_id, &m->hdr.next_proto_id);
	return 0;
}

static int
item_ipv6(struct pattern_state *ps, const struct rte_flow_item *it,
	  unsigned int idx, struct rte_flow_error *err)
{
	static const struct rte_flow_item_ipv6 allowed = {
		.hdr.src_addr = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
		.hdr.dst_addr = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
		.hdr.proto = 0xff,
	};
	const struct rte_flow_item_ipv6 *s, *m;
	int ret;

	ret = item_spec_mask(it, idx, &rte_flow_item_ipv6_mask, &allowed,
			     sizeof(allowed), "src, dst, proto",
			     (const uint8_t **)&s, (const uint8_t **)&m, err);
	if (ret != 0)
		return ret;
	layer_require(ps, HWCSUM_FL_IPV6);
	ps->l3 = HWCSUM_FL_IPV6;
	if (s == NULL)
		return 0;
	SET(ps, src_ip, s->hdr.src_addr, m->hdr.src_addr);
	SET(ps, dst_ip, s->hdr.dst_addr, m->hdr.dst_addr);
	SET(ps, proto, &s->hdr.proto, &m->hdr.proto);
	return 0;
}

/* UDP and TCP: ports only; the protocol itself is a layer bit. */
static int
item_l4(struct pattern_state *ps, const struct rte_flow_item *it,
	unsigned int idx, struct rte_flow_error *err)
{
	static const struct rte_flow_item_udp udp_allowed = {
		.hdr.src_port = RTE_BE16(0xffff), .hdr.dst_port = RTE_BE16(0xffff),
	};
	static const struct rte_flow_item_tcp tcp_allowed = {
		.hdr.src_port = RTE_BE16(0xffff), .hdr.dst_port = RTE_BE16(0xffff),
	};
	bool udp = it->type == RTE_FLOW_ITEM_TYPE_UDP;
	const rte_be16_t *s, *m;	/* src_port, dst_port lead both headers */
	int ret;

	if (ps->l3 == 0)
		return ITEM_ERR(err, it, idx, "needs an IPV4 or IPV6 item before it");
	ret = udp ? item_spec_mask(it, idx, &rte_flow_item_udp_mask, &udp_allowed,
				   sizeof(udp_allowed), "src, dst ports",
				   (const uint8_t **)&s, (const uint8_t **)&m, err) :
		item_spec_mask(it, idx, &rte_flow_item_tcp_mask, &tcp_allowed,
			       sizeof(tcp_allowed), "src, dst ports",
			       (const uint8_t **)&s, (const uint8_t **)&m, err);
	if (ret != 0)
		return ret;
	layer_require(ps, udp ? HWCSUM_FL_UDP : HWCSUM_FL_TCP);
	if (s == NULL)
		return 0;
	SET(ps, src_port, &s[0], &m[0]);
	SET(ps, dst_port, &s[1], &m[1]);
	if (udp && !ps->inner && m[1] == RTE_BE16(0xffff)) {
		ps->udp_dst_set = true;
		ps->udp_dst = rte_be_to_cpu_16(s[1]);
	}
	return 0;
}

static uint32_t
vni_of(const uint8_t v[3])
{
	return (uint32_t)v[0] << 16 | v[1] << 8 | v[2];
}

/* VXLAN, GENEVE, VXLAN-GPE: the type, the VNI; then the inner level. */
static int
item_tunnel(struct pattern_state *ps, const struct rte_flow_item *it,
	    unsigned int idx, struct rte_flow_error *err)
{
	static const struct rte_flow_item_vxlan vxlan_allowed = {
		.vni = "\xff\xff\xff",
	};
	static const struct rte_flow_item_geneve geneve_allowed = {
		.vni = "\xff\xff\xff",
	};
	static const struct rte_flow_item_vxlan_gpe gpe_allowed = {
		.vni = "\xff\xff\xff",
	};
	const uint8_t *s, *m, *vs = NULL, *vm = NULL;
	unsigned int type;
	int ret;

	if (ps->inner)
		return ITEM_ERR(err, it, idx, "a tunnel inside a tunnel cannot be matched");
	switch (it->type) {
	case RTE_FLOW_ITEM_TYPE_VXLAN:
		type = UDP_TUNNEL_TYPE_VXLAN;
		ret = item_spec_mask(it, idx, &rte_flow_item_vxlan_mask,
				     &vxlan_allowed, sizeof(vxlan_allowed), "vni",
				     &s, &m, err);
		if (ret == 0 && s != NULL) {
			vs = ((const struct rte_flow_item_vxlan *)s)->vni;
			vm = ((const struct rte_flow_item_vxlan *)m)->vni;
		}
		break;
	case RTE_FLOW_ITEM_TYPE_GENEVE:
		type = UDP_TUNNEL_TYPE_GENEVE;
		ret = item_spec_mask(it, idx, &rte_flow_item_geneve_mask,
				     &geneve_allowed, sizeof(geneve_allowed), "vni",
				     &s, &m, err);
		if (ret == 0 && s != NULL) {
			vs = ((const struct rte_flow_item_geneve *)s)->vni;
			vm = ((const struct rte_flow_item_geneve *)m)->vni;
		}
		break;
	default:
		type = UDP_TUNNEL_TYPE_VXLAN_GPE;
		ret = item_spec_mask(it, idx, &rte_flow_item_vxlan_gpe_mask,
				     &gpe_allowed, sizeof(gpe_allowed), "vni",
				     &s, &m, err);
		if (ret == 0 && s != NULL) {
			vs = ((const struct rte_flow_item_vxlan_gpe *)s)->vni;
			vm = ((const struct rte_flow_item_vxlan_gpe *)m)->vni;
		}
		break;
	}
	if (ret != 0)
		return ret;
	/* The outer UDP layer is implied, as in rte_flow's item definitions. */
	if (ps->l3 == 0)
		return ITEM_ERR(err, it, idx, "needs an IPV4 or IPV6 item before it");
	layer_require(ps, HWCSUM_FL_UDP | HWCSUM_FL_TUNNEL);
	ps->r->value.tunnel_type = type;
	ps->r->mask.tunnel_type = UINT32_MAX;
	if (vs != NULL) {
		ps->r->value.vni = vni_of(vs) & vni_of(vm);
		ps->r->mask.vni = vni_of(vm);
	}
	ps->tunnel_item = it;
	ps->inner = true;
	ps->l3 = 0;
	return 0;
}

static int
item_geneve_opt(struct pattern_state *ps, const struct rte_flow_item *it,
		unsigned int idx, struct rte_flow_error *err)
{
	const struct rte_flow_item_geneve_opt *s = it->spec, *m = it->mask;
	struct hwcsum_flow_geneve_opt *o = &ps->r->geneve_opt;
	unsigned int i;

	if (ps->tunnel_item == NULL ||
	    ps->tunnel_item->type != RTE_FLOW_ITEM_TYPE_GENEVE)
		return ITEM_ERR(err, it, idx, "must follow a GENEVE item");
	if (o->on)
		return ITEM_ERR(err, it, idx, "one GENEVE option per rule");
	if (s == NULL)
		return ITEM_ERR(err, it, idx, "needs a spec (class, type, data)");
	if (it->last != NULL)
		return ITEM_ERR(err, it, idx, "ranges (last) are not supported");
	if (m == NULL)
		m = &rte_flow_item_geneve_opt_mask;
	if (s->option_len > HWCSUM_FLOW_GENEVE_OPT_MAX_WORDS)
		return ITEM_ERR(err, it, idx, "length %u words: at most %u",
				s->option_len, HWCSUM_FLOW_GENEVE_OPT_MAX_WORDS);
	if (s->option_len > 0 && s->data == NULL)
		return ITEM_ERR(err, it, idx, "length %u words but no data",
				s->option_len);
	o->on = true;
	o->class_mask = m->option_class;
	o->opt_class = s->option_class & m->option_class;
	o->type_mask = m->option_type;
	o->type = s->option_type & m->option_type;
	o->n_words = s->data != NULL ? s->option_len : 0;
	for (i = 0; i < o->n_words; i++) {
		o->data_mask[i] = m->data != NULL ? m->data[i] : UINT32_MAX;
		o->data[i] = s->data[i] & o->data_mask[i];
	}
	return 0;
}

static int
parse_pattern(const struct rte_flow_item pattern[], struct rte_flow *f,
	      struct rte_flow_error *err)
{
	struct hwcsum_flow_rule *r = &f->rule;
	struct pattern_state ps = { .r = r };
	const struct rte_flow_item *it;
	unsigned int idx = 0;
	int ret = 0;

	if (pattern == NULL)
		return hwcsum_flow_error(err, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_NUM,
					 NULL, "no pattern");
	for (it = pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++, idx++) {
		switch (it->type) {
		case RTE_FLOW_ITEM_TYPE_VOID:
			break;
		case RTE_FLOW_ITEM_TYPE_ETH:
			ret = item_eth(&ps, it, idx, err);
			break;
		case RTE_FLOW_ITEM_TYPE_VLAN:
			ret = item_vlan(&ps, it, idx, err);
			break;
		case RTE_FLOW_ITEM_TYPE_IPV4:
			ret = item_ipv4(&ps, it, idx, err);
			break;
		case RTE_FLOW_ITEM_TYPE_IPV6:
			ret = item_ipv6(&ps, it, idx, err);
			break;
		case RTE_FLOW_ITEM_TYPE_UDP:
		case RTE_FLOW_ITEM_TYPE_TCP:
			ret = item_l4(&ps, it, idx, err);
			break;
		case RTE_FLOW_ITEM_TYPE_VXLAN:
		case RTE_FLOW_ITEM_TYPE_GENEVE:
		case RTE_FLOW_ITEM_TYPE_VXLAN_GPE:
			ret = item_tunnel(&ps, it, idx, err);
			break;
		case RTE_FLOW_ITEM_TYPE_GENEVE_OPT:
			ret = item_geneve_opt(&ps, it, idx, err);
			break;
		default:
			return hwcsum_flow_error(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, it,
				"item #%u (type %d) is not supported: ETH, VLAN, IPV4, IPV6, UDP, TCP, VXLAN, GENEVE, GENEVE_OPT, VXLAN_GPE",
				idx, (int)it->type);
		}
		if (ret != 0)
			return ret;
	}
	if (ps.tunnel_item != NULL) {
		uint16_t port = ps.udp_dst_set ? ps.udp_dst :
			udp_tunnel_type_default_port(r->value.tunnel_type);

		/* rte_flow: a tunnel item without a UDP port means the IANA one. */
		if (!ps.udp_dst_set) {
			r->value.outer.dst_port = rte_cpu_to_be_16(port);
			r->mask.outer.dst_port = RTE_BE16(0xffff);
		}
		f->tunnel_ref_type = r->value.tunnel_type;
		f->tunnel_ref_port = port;
	}
	return 0;
}

/* ------------------------------------------------------------ actions */

/* The Toeplitz key of the Microsoft RSS specification, as most NICs ship. */
static const uint8_t default_rss_key[HWCSUM_FLOW_RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static int
action_rss(const struct rte_eth_dev *dev, const struct rte_flow_action *act,
	   unsigned int idx, struct hwcsum_flow_rule *r,
	   struct rte_flow_error *err)
{
	const struct rte_flow_action_rss *rss = act->conf;
	unsigned int i;

	if (rss == NULL)
		return ACTION_ERR(err, EINVAL, act, idx, "no configuration");
	if (rss->func != RTE_ETH_HASH_FUNCTION_DEFAULT &&
	    rss->func != RTE_ETH_HASH_FUNCTION_TOEPLITZ)
		return ACTION_ERR(err, ENOTSUP, act, idx, "hash function %d: only Toeplitz",
				  (int)rss->func);
	if (rss->level > 2)
		return ACTION_ERR(err, ENOTSUP, act, idx, "level %u: 0 or 1 (outer) and 2 (the tunnel's inner packet)",
				  rss->level);
	if (rss->types & ~HWCSUM_FLOW_RSS_TYPES)
		return ACTION_ERR(err, ENOTSUP, act, idx, "types 0x%" PRIx64 " not supported (IPv4/IPv6 and their UDP/TCP, by addresses and ports)",
				  rss->types & ~HWCSUM_FLOW_RSS_TYPES);
	if (rss->key_len != 0 && rss->key_len != HWCSUM_FLOW_RSS_KEY_LEN)
		return ACTION_ERR(err, EINVAL, act, idx, "key of %u bytes: 40 or none", rss->key_len);
	if (rss->key_len != 0 && rss->key == NULL)
		return ACTION_ERR(err, EINVAL, act, idx, "key_len %u but no key", rss->key_len);
	if (rss->queue_num == 0 || rss->queue == NULL)
		return ACTION_ERR(err, EINVAL, act, idx, "no queues");
	if (rss->queue_num > HWCSUM_FLOW_RETA_SIZE)
		return ACTION_ERR(err, EINVAL, act, idx, "%u queues: at most %u",
				  rss->queue_num, HWCSUM_FLOW_RETA_SIZE);
	for (i = 0; i < rss->queue_num; i++)
		if (rss->queue[i] >= dev->data->nb_rx_queues)
			return ACTION_ERR(err, EINVAL, act, idx, "queue %u: the port has %u RX queues",
					  rss->queue[i], dev->data->nb_rx_queues);
	r->fate = HWCSUM_FLOW_FATE_RSS;
	r->rss.level = rss->level;
	r->rss.types = rss->types != 0 ? rss->types : HWCSUM_FLOW_RSS_TYPES;
	memcpy(r->rss.key, rss->key_len != 0 ? rss->key : default_rss_key,
	       HWCSUM_FLOW_RSS_KEY_LEN);
	r->rss.n_queues = rss->queue_num;
	/* A redirection table, as a NIC's: entry i is queue[i % n]. */
	for (i = 0; i < HWCSUM_FLOW_RETA_SIZE; i++)
		r->rss.reta[i] = rss->queue[i % rss->queue_num];
	return 0;
}

static int
parse_actions(const struct rte_eth_dev *dev, const struct rte_flow_action actions[],
	      struct hwcsum_flow_rule *r, struct rte_flow_error *err)
{
	const struct rte_flow_action *act;
	bool fate = false;
	unsigned int idx = 0;
	int ret;

	if (actions == NULL)
		return hwcsum_flow_error(err, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM,
					 NULL, "no actions");
	for (act = actions; act->type != RTE_FLOW_ACTION_TYPE_END; act++, idx++) {
		bool is_fate = act->type == RTE_FLOW_ACTION_TYPE_QUEUE ||
			act->type == RTE_FLOW_ACTION_TYPE_RSS ||
			act->type == RTE_FLOW_ACTION_TYPE_DROP ||
			act->type == RTE_FLOW_ACTION_TYPE_PASSTHRU;

		if (is_fate && fate)
			return ACTION_ERR(err, EINVAL, act, idx, "a second fate action (QUEUE, RSS, DROP, PASSTHRU)");
		fate |= is_fate;
		switch (act->type) {
		case RTE_FLOW_ACTION_TYPE_VOID:
			break;
		case RTE_FLOW_ACTION_TYPE_PASSTHRU:
			r->fate = HWCSUM_FLOW_FATE_NONE;
			break;
		case RTE_FLOW_ACTION_TYPE_DROP:
			r->fate = HWCSUM_FLOW_FATE_DROP;
			break;
		case RTE_FLOW_ACTION_TYPE_QUEUE: {
			const struct rte_flow_action_queue *q = act->conf;

			if (q == NULL)
				return ACTION_ERR(err, EINVAL, act, idx, "no configuration");
			if (q->index >= dev->data->nb_rx_queues)
				return ACTION_ERR(err, EINVAL, act, idx, "queue %u: the port has %u RX queues",
						  q->index, dev->data->nb_rx_queues);
			r->fate = HWCSUM_FLOW_FATE_QUEUE;
			r->queue = q->index;
			break;
		}
		case RTE_FLOW_ACTION_TYPE_RSS:
			ret = action_rss(dev, act, idx, r, err);
			if (ret != 0)
				return ret;
			break;
		case RTE_FLOW_ACTION_TYPE_MARK: {
			const struct rte_flow_action_mark *mk = act->conf;

			if (mk == NULL)
				return ACTION_ERR(err, EINVAL, act, idx, "no configuration");
			if (r->mark || r->flag)
				return ACTION_ERR(err, EINVAL, act, idx, "MARK or FLAG given already");
			r->mark = true;
			r->mark_id = mk->id;
			break;
		}
		case RTE_FLOW_ACTION_TYPE_FLAG:
			if (r->mark || r->flag)
				return ACTION_ERR(err, EINVAL, act, idx, "MARK or FLAG given already");
			r->flag = true;
			break;
		case RTE_FLOW_ACTION_TYPE_COUNT:
			if (r->count)
				return ACTION_ERR(err, EINVAL, act, idx, "one COUNT per rule");
			r->count = true;
			break;
		default:
			return hwcsum_flow_error(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, act,
				"action #%u (type %d) is not supported: QUEUE, RSS, MARK, FLAG, DROP, COUNT, VOID, PASSTHRU",
				idx, (int)act->type);
		}
	}
	return 0;
}

int
hwcsum_flow_parse(const struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		  const struct rte_flow_item pattern[],
		  const struct rte_flow_action actions[],
		  struct rte_flow *f, struct rte_flow_error *err)
{
	struct hwcsum_flow_rule *r = &f->rule;
	int ret;

	memset(f, 0, sizeof(*f));
	if (attr == NULL)
		return hwcsum_flow_error(err, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
					 "no attributes");
	if (attr->egress || attr->transfer || !attr->ingress)
		return hwcsum_flow_error(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR, attr,
					 "only ingress rules (not egress, not transfer)");
	if (attr->group != 0)
		return hwcsum_flow_error(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
					 "group %u: only group 0", attr->group);
	r->priority = attr->priority;
	ret = parse_pattern(pattern, f, err);
	if (ret == 0)
		ret = parse_actions(dev, actions, r, err);
	return ret;
}
