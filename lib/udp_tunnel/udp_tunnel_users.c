/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Users of tunnel ports, their fan-out to devices, and the data-path map.
 *
 * The map is one byte per UDP port (64 KiB): the index + 1 of the tunnel
 * type owning the port, 0 for none. Writers change single bytes under the
 * registry lock with release stores; readers do one acquire load. A byte
 * is never freed or moved, so there is nothing to reclaim and no reader
 * registration: a lookup sees either the value before or after a change,
 * never a torn or dangling one. The type slot it names is published before
 * any port can refer to it (types only grow), so the name and parser a
 * reader finds through it are complete.
 */
#include <errno.h>
#include <stdlib.h>

#include "udp_tunnel_private.h"

static struct ut_user *
user_find(struct udp_tunnel_registry *reg, int family, uint16_t port,
		unsigned int type)
{
	struct ut_user *u;

	for (u = reg->users; u != NULL; u = u->next)
		if (u->family == family && u->port == port && u->type == type)
			return u;
	return NULL;
}

/* The oldest user of a port decides what the data path sees. */
static void
map_update(struct udp_tunnel_registry *reg, uint16_t port)
{
	struct ut_user *u;
	uint8_t val = 0;

	for (u = reg->users; u != NULL; u = u->next)
		if (u->port == port) {
			val = (uint8_t)(ut_type_index(u->type) + 1);
			break;
		}
	atomic_store_explicit(&reg->port_map[port], val, memory_order_release);
}

/* udp_tunnel_lookup_inline() reads the map at the registry's address. */
_Static_assert(offsetof(struct udp_tunnel_registry, port_map) == 0,
	       "the port map must come first");

unsigned int
udp_tunnel_lookup(const struct udp_tunnel_registry *reg, uint16_t port)
{
	uint8_t val;

	val = atomic_load_explicit(&((struct udp_tunnel_registry *)reg)->port_map[port],
			memory_order_acquire);
	return val != 0 ? 1u << (val - 1) : 0;
}

static void
user_info(const struct ut_user *u, struct udp_tunnel_port_info *ti)
{
	ti->port = u->port;
	ti->type = u->type;
	ti->family = u->family;
	ti->hw_priv = 0;
}

static void
fan_out(struct udp_tunnel_registry *reg, const struct ut_user *u, bool add)
{
	struct udp_tunnel_port_info ti;
	struct udp_tunnel_dev *dev;

	user_info(u, &ti);
	for (dev = reg->devs; dev != NULL; dev = dev->next) {
		if (!dev->offload)
			continue;
		if (add)
			ut_nic_add_port(dev, &ti);
		else
			ut_nic_del_port(dev, &ti);
	}
}

/*
 * The order in which Linux 6.1 offers the existing sockets to a device
 * (udp_tunnel_get_rx_info / drop_rx_info): each tunnel driver's netdevice
 * notifier in turn, vxlan first (VXLAN and VXLAN-GPE sockets), then
 * geneve; vxlan walks its 256 port hash buckets, hash_32(port, 8), each
 * bucket newest socket first; geneve walks its socket list newest first.
 * When a replay finds fewer free slots than ports, this order decides
 * which port gets in and where, so the registry follows it. GUE and types
 * registered at run time come after geneve, newest first.
 */
static unsigned int
push_rank(unsigned int type)
{
	if (type == UDP_TUNNEL_TYPE_VXLAN || type == UDP_TUNNEL_TYPE_VXLAN_GPE)
		return 0;
	if (type == UDP_TUNNEL_TYPE_GENEVE)
		return 1;
	return 2 + (unsigned int)ut_type_index(type);
}

static unsigned int
push_bucket(const struct ut_user *u)
{
	/* Linux hash_32(port, PORT_HASH_BITS = 8), generic x86 flavour */
	if (push_rank(u->type) != 0)
		return 0;
	return ((uint32_t)u->port * 0x61C88647u) >> 24;
}

static int
push_cmp(const void *a, const void *b)
{
	const struct ut_user *ua = *(const struct ut_user *const *)a;
	const struct ut_user *ub = *(const struct ut_user *const *)b;
	unsigned int ra = push_rank(ua->type), rb = push_rank(ub->type);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (push_bucket(ua) != push_bucket(ub))
		return push_bucket(ua) < push_bucket(ub) ? -1 : 1;
	return ua->seq > ub->seq ? -1 : ua->seq < ub->seq;	/* newest first */
}

/* Linux udp_tunnel_get_rx_info / drop_rx_info for one device. */
void
ut_users_push(struct udp_tunnel_dev *dev, bool add)
{
	struct udp_tunnel_port_info ti;
	struct ut_user *u, **order;
	size_t n = 0, i;

	if (!dev->offload)
		return;
	for (u = dev->reg->users; u != NULL; u = u->next)
		n++;
	if (n == 0)
		return;
	order = malloc(n * sizeof(*order));
	if (order == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"dev %s: out of memory ordering %zu ports for %s; using creation order",
			dev->name, n, add ? "replay" : "removal");
		for (u = dev->reg->users; u != NULL; u = u->next) {
			user_info(u, &ti);
			if (add)
				ut_nic_add_port(dev, &ti);
			else
				ut_nic_del_port(dev, &ti);
		}
		return;
	}
	i = 0;
	for (u = dev->reg->users; u != NULL; u = u->next)
		order[i++] = u;
	qsort(order, n, sizeof(*order), push_cmp);
	/* Callbacks cannot touch the user list: the lock is held throughout. */
	for (i = 0; i < n; i++) {
		user_info(order[i], &ti);
		if (add)
			ut_nic_add_port(dev, &ti);
		else
			ut_nic_del_port(dev, &ti);
	}
	free(order);
}

static int
check_user(const struct udp_tunnel_registry *reg, const char *op, int family,
		uint16_t port, unsigned int type)
{
	if (reg == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "port %s %u type 0x%x: no registry",
			op, port, type);
		return -EINVAL;
	}
	if (family != AF_INET && family != AF_INET6) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"port %s %u type %s: family %d is neither AF_INET nor AF_INET6",
			op, port, ut_type_name_safe(reg, type), family);
		return -EAFNOSUPPORT;
	}
	if (port == 0) {
		ut_log(UDP_TUNNEL_LOG_ERR, "port %s %s 0 type %s: port 0 is not a port",
			op, ut_family_name(family), ut_type_name_safe(reg, type));
		return -EINVAL;
	}
	if (udp_tunnel_type_name(reg, type) == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"port %s %s %u type 0x%x: not one registered tunnel type",
			op, ut_family_name(family), port, type);
		return -EINVAL;
	}
	return 0;
}

int
udp_tunnel_port_add(struct udp_tunnel_registry *reg, int family, uint16_t port,
		unsigned int type)
{
	struct ut_user *u, **tail;
	int rc;

	rc = check_user(reg, "add", family, port, type);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&reg->lock);
	u = user_find(reg, family, port, type);
	if (u != NULL) {
		if (u->refcnt == UINT32_MAX) {
			pthread_mutex_unlock(&reg->lock);
			ut_log(UDP_TUNNEL_LOG_ERR,
				"port add %s %u type %s: too many users",
				ut_family_name(family), port,
				ut_type_name_safe(reg, type));
			return -EOVERFLOW;
		}
		u->refcnt++;
		pthread_mutex_unlock(&reg->lock);
		return 0;
	}
	u = calloc(1, sizeof(*u));
	if (u == NULL) {
		pthread_mutex_unlock(&reg->lock);
		ut_log(UDP_TUNNEL_LOG_ERR, "port add %s %u type %s: out of memory",
			ut_family_name(family), port, ut_type_name_safe(reg, type));
		return -ENOMEM;
	}
	u->family = family;
	u->port = port;
	u->type = type;
	u->refcnt = 1;
	u->seq = reg->user_seq++;
	for (tail = &reg->users; *tail != NULL; tail = &(*tail)->next)
		;
	*tail = u;
	map_update(reg, port);
	fan_out(reg, u, true);
	pthread_mutex_unlock(&reg->lock);
	return 0;
}

int
udp_tunnel_port_del(struct udp_tunnel_registry *reg, int family, uint16_t port,
		unsigned int type)
{
	struct ut_user *u, **pp;
	int rc;

	rc = check_user(reg, "del", family, port, type);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&reg->lock);
	u = user_find(reg, family, port, type);
	if (u == NULL) {
		pthread_mutex_unlock(&reg->lock);
		ut_log(UDP_TUNNEL_LOG_ERR, "port del %s %u type %s: no such user",
			ut_family_name(family), port, ut_type_name_safe(reg, type));
		return -ENOENT;
	}
	if (--u->refcnt > 0) {
		pthread_mutex_unlock(&reg->lock);
		return 0;
	}
	for (pp = &reg->users; *pp != u; pp = &(*pp)->next)
		;
	*pp = u->next;
	map_update(reg, port);
	fan_out(reg, u, false);
	pthread_mutex_unlock(&reg->lock);
	free(u);
	return 0;
}

void
ut_users_free(struct udp_tunnel_registry *reg)
{
	struct ut_user *u, *next;

	for (u = reg->users; u != NULL; u = next) {
		next = u->next;
		free(u);
	}
	reg->users = NULL;
}
