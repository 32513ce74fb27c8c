/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device life cycle: register, link up/down, the offload feature, reset
 * notification, unregister; the events Linux's netdevice notifier feeds
 * into udp_tunnel_nic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "udp_tunnel_private.h"

struct udp_tunnel_shared *
udp_tunnel_shared_create(void)
{
	struct udp_tunnel_shared *shared = calloc(1, sizeof(*shared));

	if (shared == NULL)
		ut_log(UDP_TUNNEL_LOG_ERR, "shared tables: out of memory");
	return shared;
}

int
udp_tunnel_shared_free(struct udp_tunnel_shared *shared)
{
	if (shared == NULL)
		return 0;
	if (shared->devices != NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"shared tables: device %s still uses them",
			shared->devices->name);
		return -EBUSY;
	}
	free(shared);
	return 0;
}

static int
check_info(const char *name, const struct udp_tunnel_dev_info *info,
		unsigned int *n_tables)
{
	unsigned int t, n = 0;

	if ((info->set_port == NULL) != (info->unset_port == NULL)) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"dev %s: set_port and unset_port go together", name);
		return -EINVAL;
	}
	if ((info->set_port == NULL) == (info->sync_table == NULL)) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"dev %s: give either set_port/unset_port or sync_table", name);
		return -EINVAL;
	}
	if (info->shared != NULL && (info->flags & UDP_TUNNEL_DEV_OPEN_ONLY)) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"dev %s: shared tables can't be OPEN_ONLY", name);
		return -EINVAL;
	}
	for (t = 0; t < UDP_TUNNEL_MAX_TABLES; t++) {
		const struct udp_tunnel_table_info *table = &info->tables[t];

		if (table->n_entries == 0)
			continue;
		if (t != n) {
			ut_log(UDP_TUNNEL_LOG_ERR,
				"dev %s: table %u follows an empty table", name, t);
			return -EINVAL;
		}
		if (table->n_entries > UDP_TUNNEL_TABLE_MAX_ENTRIES ||
				table->tunnel_types == 0) {
			ut_log(UDP_TUNNEL_LOG_ERR,
				"dev %s: table %u has %u entries (max %u) of types 0x%x",
				name, t, table->n_entries,
				UDP_TUNNEL_TABLE_MAX_ENTRIES, table->tunnel_types);
			return -EINVAL;
		}
		n++;
	}
	if (n == 0) {
		ut_log(UDP_TUNNEL_LOG_ERR, "dev %s: table 0 has no entries", name);
		return -EINVAL;
	}
	*n_tables = n;
	return 0;
}

static struct udp_tunnel_dev *
dev_find(struct udp_tunnel_registry *reg, const char *name)
{
	struct udp_tunnel_dev *dev;

	for (dev = reg->devs; dev != NULL; dev = dev->next)
		if (strcmp(dev->name, name) == 0)
			return dev;
	return NULL;
}

int
udp_tunnel_dev_register(struct udp_tunnel_registry *reg, const char *name,
		const struct udp_tunnel_dev_info *info, void *priv,
		struct udp_tunnel_dev **dev_out)
{
	struct udp_tunnel_dev *dev, **pp;
	struct udp_tunnel_shared *shared;
	unsigned int n_tables;
	struct ut_nic *nic;
	int rc;

	if (reg == NULL || name == NULL || info == NULL || dev_out == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "dev register %s: missing argument",
			name != NULL ? name : "(null)");
		return -EINVAL;
	}
	if (name[0] == '\0' || strlen(name) >= UDP_TUNNEL_NAME_MAX) {
		ut_log(UDP_TUNNEL_LOG_ERR, "dev register '%s': name length 1-%d",
			name, UDP_TUNNEL_NAME_MAX - 1);
		return -EINVAL;
	}
	rc = check_info(name, info, &n_tables);
	if (rc != 0)
		return rc;

	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "dev %s: out of memory", name);
		return -ENOMEM;
	}
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	dev->reg = reg;
	dev->priv = priv;
	dev->offload = true;
	shared = info->shared;
	dev->shared = shared;

	pthread_mutex_lock(&reg->lock);
	if (dev_find(reg, name) != NULL) {
		pthread_mutex_unlock(&reg->lock);
		ut_log(UDP_TUNNEL_LOG_ERR, "dev %s: already registered", name);
		free(dev);
		return -EEXIST;
	}
	if (shared != NULL && shared->nic != NULL) {
		nic = shared->nic;
		if (nic->dev->reg != reg) {
			pthread_mutex_unlock(&reg->lock);
			ut_log(UDP_TUNNEL_LOG_ERR,
				"dev %s: shared tables belong to another registry",
				name);
			free(dev);
			return -EINVAL;
		}
	} else {
		nic = calloc(1, sizeof(*nic));
		if (nic == NULL) {
			pthread_mutex_unlock(&reg->lock);
			ut_log(UDP_TUNNEL_LOG_ERR, "dev %s: out of memory", name);
			free(dev);
			return -ENOMEM;
		}
		nic->info = *info;
		nic->n_tables = n_tables;
		if (shared != NULL)
			shared->nic = nic;
	}
	if (shared != NULL) {
		for (pp = &shared->devices; *pp != NULL; pp = &(*pp)->shared_next)
			;
		*pp = dev;
	}
	nic->dev = dev;
	dev->nic = nic;
	for (pp = &reg->devs; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = dev;

	if (!(nic->info.flags & UDP_TUNNEL_DEV_OPEN_ONLY))
		ut_users_push(dev, true);
	pthread_mutex_unlock(&reg->lock);
	*dev_out = dev;
	return 0;
}

static int
check_dev(const struct udp_tunnel_dev *dev, const char *op)
{
	if (dev == NULL || dev->nic == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "dev %s: no such device", op);
		return -ENODEV;
	}
	return 0;
}

/* Lock held. Linux NETDEV_GOING_DOWN. */
static void
dev_down_locked(struct udp_tunnel_dev *dev)
{
	if (!dev->running)
		return;
	if (dev->nic->info.flags & UDP_TUNNEL_DEV_OPEN_ONLY)
		ut_nic_flush(dev, dev->nic);
	dev->running = false;
}

int
udp_tunnel_dev_unregister(struct udp_tunnel_dev *dev)
{
	struct udp_tunnel_registry *reg;
	struct udp_tunnel_dev **pp;
	struct ut_nic *nic;
	int rc;

	rc = check_dev(dev, "unregister");
	if (rc != 0)
		return rc;
	reg = dev->reg;
	nic = dev->nic;
	pthread_mutex_lock(&reg->lock);
	/* Linux closes a device before unregistering it. */
	dev_down_locked(dev);

	if (dev->shared != NULL) {
		for (pp = &dev->shared->devices; *pp != dev; pp = &(*pp)->shared_next)
			;
		*pp = dev->shared_next;
		if (dev->shared->devices != NULL) {
			/* Others keep the tables: just take our ports out. */
			ut_users_push(dev, false);
			nic->dev = dev->shared->devices;
			nic = NULL;
		} else {
			dev->shared->nic = NULL;
		}
	}
	if (nic != NULL) {
		ut_nic_flush(dev, nic);
		ut_work_cancel(reg, nic);
		free(nic);
	}
	for (pp = &reg->devs; *pp != dev; pp = &(*pp)->next)
		;
	*pp = dev->next;
	pthread_mutex_unlock(&reg->lock);
	free(dev);
	return 0;
}

int
udp_tunnel_dev_up(struct udp_tunnel_dev *dev)
{
	int rc = check_dev(dev, "up");

	if (rc != 0)
		return rc;
	pthread_mutex_lock(&dev->reg->lock);
	if (!dev->running) {
		dev->running = true;
		if (dev->nic->info.flags & UDP_TUNNEL_DEV_OPEN_ONLY)
			ut_users_push(dev, true);
	}
	pthread_mutex_unlock(&dev->reg->lock);
	return 0;
}

int
udp_tunnel_dev_down(struct udp_tunnel_dev *dev)
{
	int rc = check_dev(dev, "down");

	if (rc != 0)
		return rc;
	pthread_mutex_lock(&dev->reg->lock);
	dev_down_locked(dev);
	pthread_mutex_unlock(&dev->reg->lock);
	return 0;
}

int
udp_tunnel_dev_set_offload(struct udp_tunnel_dev *dev, bool on)
{
	int rc = check_dev(dev, "offload");

	if (rc != 0)
		return rc;
	pthread_mutex_lock(&dev->reg->lock);
	if (on && !dev->offload) {
		dev->offload = true;
		ut_users_push(dev, true);
	} else if (!on && dev->offload) {
		/* Drop while the feature still counts as on, as Linux does. */
		ut_users_push(dev, false);
		dev->offload = false;
	}
	pthread_mutex_unlock(&dev->reg->lock);
	return 0;
}

int
udp_tunnel_dev_reset_ntf(struct udp_tunnel_dev *dev)
{
	int rc = check_dev(dev, "reset");

	if (rc != 0)
		return rc;
	pthread_mutex_lock(&dev->reg->lock);
	ut_nic_reset_ntf(dev);
	pthread_mutex_unlock(&dev->reg->lock);
	return 0;
}

void *
udp_tunnel_dev_priv(const struct udp_tunnel_dev *dev)
{
	return dev != NULL ? dev->priv : NULL;
}

const char *
udp_tunnel_dev_name(const struct udp_tunnel_dev *dev)
{
	return dev != NULL ? dev->name : NULL;
}

void
udp_tunnel_dev_get_port(const struct udp_tunnel_dev *dev, unsigned int table,
		unsigned int idx, struct udp_tunnel_port_info *ti)
{
	const struct ut_entry *e;

	memset(ti, 0, sizeof(*ti));
	if (dev == NULL || dev->nic == NULL || table >= dev->nic->n_tables ||
			idx >= dev->nic->info.tables[table].n_entries)
		return;
	e = &dev->nic->entries[table][idx];
	if (e->use_cnt == 0)
		return;
	ti->port = e->port;
	ti->type = e->type;
	ti->family = e->family;
	ti->hw_priv = e->hw_priv;
}

void
udp_tunnel_dev_set_port_priv(struct udp_tunnel_dev *dev, unsigned int table,
		unsigned int idx, uint8_t priv)
{
	if (dev == NULL || dev->nic == NULL || table >= dev->nic->n_tables ||
			idx >= dev->nic->info.tables[table].n_entries)
		return;
	dev->nic->entries[table][idx].hw_priv = priv;
}
