/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The read-only queries: udp_tunnel_users_get (users, oldest first, with
 * their reference counts), udp_tunnel_dev_find_port (what a slot holds,
 * confirmed or still queued) and udp_tunnel_dev_not_fitted (users a
 * device would take but holds nowhere: full, wrong type, collision).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "test_common.h"
#include "udp_tunnel.h"

struct qdev {
	int fail;	/* errno the device answers with, 0 for success */
};

static int
q_set(struct udp_tunnel_dev *dev, unsigned int table, unsigned int entry,
		const struct udp_tunnel_port_info *ti)
{
	struct qdev *q = udp_tunnel_dev_priv(dev);

	(void)table;
	(void)entry;
	(void)ti;
	return q->fail;
}

static int
q_unset(struct udp_tunnel_dev *dev, unsigned int table, unsigned int entry,
		const struct udp_tunnel_port_info *ti)
{
	(void)dev;
	(void)table;
	(void)entry;
	(void)ti;
	return 0;
}

static void
quiet(int level, const char *msg, void *arg)
{
	(void)level;
	(void)msg;
	(void)arg;
}

static void
test_users(struct udp_tunnel_registry *reg)
{
	struct udp_tunnel_user_info u[4];

	CHECK_EQ(udp_tunnel_users_get(reg, NULL, 0), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET6, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_users_get(reg, u, 4), 3);
	CHECK_EQ(u[0].family, AF_INET);
	CHECK_EQ(u[0].port, 4789);
	CHECK_EQ(u[0].type, UDP_TUNNEL_TYPE_VXLAN);
	CHECK_EQ(u[0].refcnt, 2);
	CHECK_EQ(u[1].family, AF_INET6);
	CHECK_EQ(u[1].refcnt, 1);
	CHECK_EQ(u[2].port, 6081);
	CHECK_EQ(u[2].type, UDP_TUNNEL_TYPE_GENEVE);
	/* A short buffer still tells how many there are. */
	memset(u, 0xff, sizeof(u));
	CHECK_EQ(udp_tunnel_users_get(reg, u, 1), 3);
	CHECK_EQ(u[0].port, 4789);
	CHECK_EQ(u[1].port, 0xffff);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_users_get(reg, u, 4), 3);
	CHECK_EQ(u[0].refcnt, 1);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET6, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_users_get(reg, u, 4), 0);
	CHECK_EQ(udp_tunnel_users_get(NULL, u, 4), -EINVAL);
	CHECK_EQ(udp_tunnel_users_get(reg, NULL, 4), -EINVAL);
}

/* Table 0: 2 x vxlan; table 1: 1 x geneve. */
static void
test_fit(struct udp_tunnel_registry *reg)
{
	static const struct udp_tunnel_dev_info info = {
		.set_port = q_set,
		.unset_port = q_unset,
		.tables = {
			{ .n_entries = 2, .tunnel_types = UDP_TUNNEL_TYPE_VXLAN },
			{ .n_entries = 1, .tunnel_types = UDP_TUNNEL_TYPE_GENEVE },
		},
	};
	struct qdev q = { 0 };
	struct udp_tunnel_dev *dev;
	struct udp_tunnel_slot s;

	CHECK_EQ(udp_tunnel_dev_register(reg, "q0", &info, &q, &dev), 0);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET6, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE), 0);
	memset(&s, 0, sizeof(s));
	CHECK_EQ(udp_tunnel_dev_find_port(dev, 4789, UDP_TUNNEL_TYPE_VXLAN, &s), 1);
	CHECK_EQ(s.table, 0);
	CHECK_EQ(s.entry, 0);
	CHECK_EQ(s.use_cnt, 2);	/* v4 and v6 users share the slot */
	CHECK(s.confirmed);
	CHECK_EQ(udp_tunnel_dev_find_port(dev, 6081, 0, &s), 1);
	CHECK_EQ(s.table, 1);
	CHECK_EQ(s.type, UDP_TUNNEL_TYPE_GENEVE);
	CHECK_EQ(udp_tunnel_dev_find_port(dev, 4789, UDP_TUNNEL_TYPE_GENEVE, NULL), 0);
	CHECK_EQ(udp_tunnel_dev_find_port(dev, 4790, 0, NULL), 0);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 0);

	/* Full: the second geneve port, in v4 and v6, is one misfit. */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 6082, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET6, 6082, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_dev_find_port(dev, 6082, 0, NULL), 0);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 1);
	/* No table takes GUE. */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 6080, UDP_TUNNEL_TYPE_GUE), 0);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 2);
	/* Collision: 4789 is vxlan in the device, geneve cannot have it. */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 3);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 6080, UDP_TUNNEL_TYPE_GUE), 0);
	/* A freed geneve slot takes the missed port (replay, on the worker). */
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE), 0);
	udp_tunnel_registry_drain(reg);
	CHECK_EQ(udp_tunnel_dev_find_port(dev, 6082, UDP_TUNNEL_TYPE_GENEVE, NULL), 1);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 0);

	/* A refused set: the slot is held but not confirmed, and not a misfit. */
	q.fail = -EIO;
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN), 0);
	memset(&s, 0, sizeof(s));
	CHECK_EQ(udp_tunnel_dev_find_port(dev, 4790, UDP_TUNNEL_TYPE_VXLAN, &s), 1);
	CHECK(!s.confirmed);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 0);
	q.fail = 0;

	/* With the offload off nothing is expected in the tables. */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4791, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 1);
	CHECK_EQ(udp_tunnel_dev_set_offload(dev, false), 0);
	CHECK_EQ(udp_tunnel_dev_not_fitted(dev), 0);
	CHECK_EQ(udp_tunnel_dev_find_port(dev, 4789, 0, NULL), 0);
	CHECK_EQ(udp_tunnel_dev_set_offload(dev, true), 0);

	CHECK_EQ(udp_tunnel_dev_find_port(NULL, 4789, 0, NULL), -ENODEV);
	CHECK_EQ(udp_tunnel_dev_not_fitted(NULL), -ENODEV);
	CHECK_EQ(udp_tunnel_dev_unregister(dev), 0);
}

int
main(void)
{
	struct udp_tunnel_registry *reg;

	udp_tunnel_set_log(quiet, NULL);
	reg = udp_tunnel_registry_create();
	CHECK(reg != NULL);
	if (reg == NULL)
		return 1;
	test_users(reg);
	test_fit(reg);
	CHECK_EQ(udp_tunnel_registry_destroy(reg), 0);
	return harness_summary("query");
}
