/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Read-only questions a driver or a monitoring tool asks: who uses which
 * port, and what a device holds or could not take. Each answer is taken
 * under the registry lock, so it is one consistent picture.
 */
#include <errno.h>
#include <string.h>

#include "udp_tunnel_private.h"

int
udp_tunnel_users_get(struct udp_tunnel_registry *reg,
		struct udp_tunnel_user_info *out, unsigned int n)
{
	const struct ut_user *u;
	unsigned int total = 0;

	if (reg == NULL || (out == NULL && n != 0)) {
		ut_log(UDP_TUNNEL_LOG_ERR, "users get: no registry or no buffer");
		return -EINVAL;
	}
	pthread_mutex_lock(&reg->lock);
	for (u = reg->users; u != NULL; u = u->next, total++) {
		if (total >= n)
			continue;
		out[total].family = u->family;
		out[total].port = u->port;
		out[total].type = u->type;
		out[total].refcnt = u->refcnt;
	}
	pthread_mutex_unlock(&reg->lock);
	return (int)total;
}

/* Lock held. The slot holding port (of type, or any type if 0), or NULL. */
static const struct ut_entry *
slot_find(const struct ut_nic *nic, uint16_t port, unsigned int type,
		unsigned int *table, unsigned int *entry)
{
	const struct ut_entry *e;
	unsigned int t, i;

	for (t = 0; t < nic->n_tables; t++)
		for (i = 0; i < nic->info.tables[t].n_entries; i++) {
			e = &nic->entries[t][i];
			/* A slot whose delete is pending holds nothing. */
			if (e->use_cnt == 0 || e->port != port ||
					(type != 0 && e->type != type))
				continue;
			*table = t;
			*entry = i;
			return e;
		}
	return NULL;
}

int
udp_tunnel_dev_find_port(struct udp_tunnel_dev *dev, uint16_t port,
		unsigned int type, struct udp_tunnel_slot *slot)
{
	const struct ut_entry *e;
	unsigned int t = 0, i = 0;

	if (dev == NULL || dev->nic == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "find port %u: no such device", port);
		return -ENODEV;
	}
	pthread_mutex_lock(&dev->reg->lock);
	e = slot_find(dev->nic, port, type, &t, &i);
	if (e != NULL && slot != NULL) {
		slot->table = t;
		slot->entry = i;
		slot->port = e->port;
		slot->type = e->type;
		slot->family = e->family;
		slot->use_cnt = e->use_cnt;
		slot->confirmed = ut_nic_entry_is_present(e);
	}
	pthread_mutex_unlock(&dev->reg->lock);
	return e != NULL;
}

/* Lock held. Would the device take this user at all (flags, types)? */
static bool
user_wanted(const struct udp_tunnel_dev *dev, const struct ut_user *u)
{
	unsigned int flags = dev->nic->info.flags;

	if ((flags & UDP_TUNNEL_DEV_IPV4_ONLY) && u->family != AF_INET)
		return false;
	/* Hard-wired in the device: it fits without a slot. */
	if ((flags & UDP_TUNNEL_DEV_STATIC_IANA_VXLAN) &&
			u->port == UDP_TUNNEL_IANA_VXLAN_PORT &&
			u->type == UDP_TUNNEL_TYPE_VXLAN)
		return false;
	return true;
}

/* Lock held. An older user with the same (port, type) was counted already. */
static bool
seen_before(const struct udp_tunnel_registry *reg, const struct ut_user *u)
{
	const struct ut_user *o;

	for (o = reg->users; o != u; o = o->next)
		if (o->port == u->port && o->type == u->type)
			return true;
	return false;
}

int
udp_tunnel_dev_not_fitted(struct udp_tunnel_dev *dev)
{
	const struct ut_user *u;
	unsigned int t, i;
	int n = 0;

	if (dev == NULL || dev->nic == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "not fitted: no such device");
		return -ENODEV;
	}
	pthread_mutex_lock(&dev->reg->lock);
	/*
	 * With the offload off, or an OPEN_ONLY device down, nothing is
	 * meant to be in the tables: nothing is a misfit.
	 */
	if (!dev->offload || (!dev->running &&
			(dev->nic->info.flags & UDP_TUNNEL_DEV_OPEN_ONLY)))
		goto out;
	for (u = dev->reg->users; u != NULL; u = u->next) {
		if (!user_wanted(dev, u) || seen_before(dev->reg, u))
			continue;
		if (slot_find(dev->nic, u->port, u->type, &t, &i) == NULL)
			n++;
	}
out:
	pthread_mutex_unlock(&dev->reg->lock);
	return n;
}
