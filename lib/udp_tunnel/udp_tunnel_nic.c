/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The table state machine of Linux 6.1 net/ipv4/udp_tunnel_nic.c, so that
 * the same sequence of events gives the same slots and the same callbacks:
 * placement in the first free slot of the first capable table, collisions
 * and overflows remembered in "missed" and replayed once a slot frees,
 * failed operations retried on the next change, and a slot whose delete
 * failed kept busy until the device confirms.
 * Everything here runs with the registry lock held.
 */
#include <errno.h>
#include <string.h>

#include "udp_tunnel_private.h"

static bool
entry_is_free(const struct ut_entry *e)
{
	return e->use_cnt == 0 && e->flags == 0;
}

bool
ut_nic_entry_is_present(const struct ut_entry *e)
{
	return e->use_cnt != 0 && (e->flags & ~UT_ENTRY_FROZEN) == 0;
}

static bool
entry_is_queued(const struct ut_entry *e)
{
	return (e->flags & (UT_ENTRY_ADD | UT_ENTRY_DEL)) != 0;
}

static void
entry_queue(struct ut_nic *nic, struct ut_entry *e, unsigned int flag)
{
	e->flags |= flag;
	nic->need_sync = true;
}

static unsigned int
table_size(const struct ut_nic *nic, unsigned int t)
{
	return nic->info.tables[t].n_entries;
}

static void
info_from_entry(const struct ut_entry *e, struct udp_tunnel_port_info *ti)
{
	memset(ti, 0, sizeof(*ti));
	ti->port = e->port;
	ti->type = e->type;
	ti->family = e->family;
	ti->hw_priv = e->hw_priv;
}

/* Fold a device answer into the slot flags (Linux entry_update_done). */
static void
entry_update_done(struct ut_entry *e, int err)
{
	bool dodgy = e->flags & UT_ENTRY_OP_FAIL;

	/* After a failure the device may have done it anyway: accept that. */
	if ((e->flags & UT_ENTRY_ADD) && (err == 0 || (err == -EEXIST && dodgy)))
		e->flags &= ~UT_ENTRY_ADD;
	if ((e->flags & UT_ENTRY_DEL) && (err == 0 || (err == -ENOENT && dodgy)))
		e->flags &= ~UT_ENTRY_DEL;
	if (err == 0)
		e->flags &= ~UT_ENTRY_OP_FAIL;
	else
		e->flags |= UT_ENTRY_OP_FAIL;
}

static void
sync_one(struct udp_tunnel_dev *dev, struct ut_nic *nic, unsigned int t,
		unsigned int i)
{
	struct ut_entry *e = &nic->entries[t][i];
	struct udp_tunnel_port_info ti;
	bool add;
	int err;

	if (!entry_is_queued(e))
		return;
	info_from_entry(e, &ti);
	add = e->flags & UT_ENTRY_ADD;
	if (add)
		err = nic->info.set_port(dev, t, i, &ti);
	else
		err = nic->info.unset_port(dev, t, i, &ti);
	entry_update_done(e, err);
	if (err != 0)
		ut_log(UDP_TUNNEL_LOG_WARNING,
			"dev %s: UDP tunnel port sync failed: %s port %u type %s table %u entry %u: %d",
			dev->name, add ? "set" : "unset", e->port,
			ut_type_name_safe(dev->reg, e->type), t, i, err);
}

static void
sync_by_port(struct udp_tunnel_dev *dev, struct ut_nic *nic)
{
	unsigned int t, i;

	for (t = 0; t < nic->n_tables; t++)
		for (i = 0; i < table_size(nic, t); i++)
			sync_one(dev, nic, t, i);
}

static void
sync_by_table(struct udp_tunnel_dev *dev, struct ut_nic *nic)
{
	unsigned int t, i;
	int err;

	for (t = 0; t < nic->n_tables; t++) {
		for (i = 0; i < table_size(nic, t); i++)
			if (entry_is_queued(&nic->entries[t][i]))
				break;
		if (i == table_size(nic, t))
			continue;

		err = nic->info.sync_table(dev, t);
		if (err != 0)
			ut_log(UDP_TUNNEL_LOG_WARNING,
				"dev %s: UDP tunnel port sync failed for table %u (types 0x%x): %d",
				dev->name, t, nic->info.tables[t].tunnel_types, err);
		for (i = 0; i < table_size(nic, t); i++)
			if (entry_is_queued(&nic->entries[t][i]))
				entry_update_done(&nic->entries[t][i], err);
	}
}

/* A table overflowed and now has room: every port must be offered again. */
static bool
should_replay(const struct ut_nic *nic)
{
	unsigned int t, i;

	if (nic->missed == 0)
		return false;
	for (t = 0; t < nic->n_tables; t++) {
		if (!(nic->missed & (1u << t)))
			continue;
		for (i = 0; i < table_size(nic, t); i++)
			if (entry_is_free(&nic->entries[t][i]))
				return true;
	}
	return false;
}

static void
sync_now(struct udp_tunnel_dev *dev, struct ut_nic *nic)
{
	if (!nic->need_sync)
		return;
	if (nic->info.sync_table != NULL)
		sync_by_table(dev, nic);
	else
		sync_by_port(dev, nic);
	nic->need_sync = false;
	/* Replay from the worker: we may be inside a user's add or del. */
	nic->need_replay = should_replay(nic);
}

static void
device_sync(struct udp_tunnel_dev *dev, struct ut_nic *nic)
{
	bool may_sleep = nic->info.flags & UDP_TUNNEL_DEV_MAY_SLEEP;

	if (!nic->need_sync)
		return;
	if (!may_sleep)
		sync_now(dev, nic);
	if (may_sleep || nic->need_replay)
		ut_work_queue(dev->reg, nic);
}

static bool
table_is_capable(const struct udp_tunnel_table_info *table,
		const struct udp_tunnel_port_info *ti)
{
	return (table->tunnel_types & ti->type) != 0;
}

static bool
nic_is_capable(const struct ut_nic *nic, const struct udp_tunnel_port_info *ti)
{
	unsigned int t;

	if ((nic->info.flags & UDP_TUNNEL_DEV_IPV4_ONLY) && ti->family != AF_INET)
		return false;
	for (t = 0; t < nic->n_tables; t++)
		if (table_is_capable(&nic->info.tables[t], ti))
			return true;
	return false;
}

/*
 * The port is still held by another type (its delete not yet confirmed):
 * remember the table as missed so the port is re-offered later.
 */
static bool
has_collision(struct ut_nic *nic, const struct udp_tunnel_port_info *ti)
{
	unsigned int t, i;
	const struct ut_entry *e;

	for (t = 0; t < nic->n_tables; t++)
		for (i = 0; i < table_size(nic, t); i++) {
			e = &nic->entries[t][i];
			if (!entry_is_free(e) && e->port == ti->port &&
					e->type != ti->type) {
				nic->missed |= 1u << t;
				return true;
			}
		}
	return false;
}

static void
entry_adj(struct ut_nic *nic, struct ut_entry *e, int adj)
{
	bool dodgy = e->flags & UT_ENTRY_OP_FAIL;
	uint32_t old = e->use_cnt;
	unsigned int from, to;

	e->use_cnt += adj;
	/* No transition between used and unused: done, unless retrying. */
	if (!dodgy && (e->use_cnt == 0) == (old == 0))
		return;

	if (adj < 0) {
		from = UT_ENTRY_ADD;
		to = UT_ENTRY_DEL;
	} else {
		from = UT_ENTRY_DEL;
		to = UT_ENTRY_ADD;
	}
	/* Cancel an operation the device has not seen yet. */
	if (e->flags & from) {
		e->flags &= ~from;
		if (!dodgy)
			return;
	}
	entry_queue(nic, e, to);
}

static bool
try_existing(struct ut_nic *nic, const struct udp_tunnel_port_info *ti,
		int adj)
{
	unsigned int t, i;
	struct ut_entry *e;

	for (t = 0; t < nic->n_tables; t++) {
		if (!table_is_capable(&nic->info.tables[t], ti))
			continue;
		for (i = 0; i < table_size(nic, t); i++) {
			e = &nic->entries[t][i];
			if (entry_is_free(e) || e->port != ti->port ||
					e->type != ti->type)
				continue;
			/* A replay re-offers what is tracked: don't count it. */
			if (!(e->flags & UT_ENTRY_FROZEN))
				entry_adj(nic, e, adj);
			return true;
		}
	}
	return false;
}

static bool
add_new(struct ut_nic *nic, const struct udp_tunnel_port_info *ti)
{
	unsigned int t, i;
	struct ut_entry *e;

	for (t = 0; t < nic->n_tables; t++) {
		if (!table_is_capable(&nic->info.tables[t], ti))
			continue;
		for (i = 0; i < table_size(nic, t); i++) {
			e = &nic->entries[t][i];
			if (!entry_is_free(e))
				continue;
			e->port = ti->port;
			e->type = ti->type;
			e->family = ti->family;
			e->hw_priv = 0;
			e->use_cnt = 1;
			entry_queue(nic, e, UT_ENTRY_ADD);
			return true;
		}
		/* Another capable table might fit it; Linux settles for this. */
		nic->missed |= 1u << t;
	}
	return false;
}

void
ut_nic_add_port(struct udp_tunnel_dev *dev, const struct udp_tunnel_port_info *ti)
{
	struct ut_nic *nic = dev->nic;

	if (nic == NULL)
		return;
	if (!dev->running && (nic->info.flags & UDP_TUNNEL_DEV_OPEN_ONLY))
		return;
	if ((nic->info.flags & UDP_TUNNEL_DEV_STATIC_IANA_VXLAN) &&
			ti->port == UDP_TUNNEL_IANA_VXLAN_PORT) {
		if (ti->type != UDP_TUNNEL_TYPE_VXLAN)
			ut_log(UDP_TUNNEL_LOG_WARNING,
				"dev %s: port %u type %s not offloaded: the device assumes port %u is vxlan",
				dev->name, ti->port,
				ut_type_name_safe(dev->reg, ti->type),
				UDP_TUNNEL_IANA_VXLAN_PORT);
		return;
	}
	if (!nic_is_capable(nic, ti))
		return;
	if (has_collision(nic, ti))
		return;
	if (!try_existing(nic, ti, +1))
		add_new(nic, ti);
	device_sync(dev, nic);
}

void
ut_nic_del_port(struct udp_tunnel_dev *dev, const struct udp_tunnel_port_info *ti)
{
	struct ut_nic *nic = dev->nic;

	if (nic == NULL)
		return;
	if (!nic_is_capable(nic, ti))
		return;
	try_existing(nic, ti, -1);
	device_sync(dev, nic);
}

void
ut_nic_reset_ntf(struct udp_tunnel_dev *dev)
{
	struct ut_nic *nic = dev->nic;
	struct ut_entry *e;
	unsigned int t, i;

	nic->need_sync = false;
	for (t = 0; t < nic->n_tables; t++)
		for (i = 0; i < table_size(nic, t); i++) {
			e = &nic->entries[t][i];
			/* The device forgot everything: nothing left to delete. */
			e->flags &= ~(UT_ENTRY_DEL | UT_ENTRY_OP_FAIL);
			if (e->use_cnt != 0)
				entry_queue(nic, e, UT_ENTRY_ADD);
		}
	sync_now(dev, nic);
}

void
ut_nic_flush(struct udp_tunnel_dev *dev, struct ut_nic *nic)
{
	unsigned int t, i;
	struct ut_entry *e;

	for (t = 0; t < nic->n_tables; t++)
		for (i = 0; i < table_size(nic, t); i++) {
			e = &nic->entries[t][i];
			if (e->use_cnt != 0)
				entry_adj(nic, e, -(int)e->use_cnt);
		}
	sync_now(dev, nic);
	memset(nic->entries, 0, sizeof(nic->entries));
	nic->need_sync = false;
	nic->need_replay = false;
}

/* Offer every user again without counting the ports already tracked. */
static void
replay(struct udp_tunnel_dev *dev, struct ut_nic *nic)
{
	struct udp_tunnel_dev *d;
	unsigned int t, i;
	struct ut_entry *e;

	for (t = 0; t < nic->n_tables; t++)
		for (i = 0; i < table_size(nic, t); i++) {
			e = &nic->entries[t][i];
			if (!entry_is_free(e))
				e->flags |= UT_ENTRY_FROZEN;
		}
	nic->missed = 0;
	nic->need_replay = false;

	if (dev->shared == NULL)
		ut_users_push(dev, true);
	else
		for (d = dev->shared->devices; d != NULL; d = d->shared_next)
			ut_users_push(d, true);

	for (t = 0; t < nic->n_tables; t++)
		for (i = 0; i < table_size(nic, t); i++)
			nic->entries[t][i].flags &= ~UT_ENTRY_FROZEN;
}

void
ut_nic_run_work(struct ut_nic *nic)
{
	sync_now(nic->dev, nic);
	if (nic->need_replay)
		replay(nic->dev, nic);
}
