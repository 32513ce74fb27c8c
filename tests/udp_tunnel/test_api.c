/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * API contract: errors are negative errnos with a log naming port, type and
 * device; per-family reference counting; lookup semantics; dump and its
 * ethtool rendering; hw_priv; deferred (MAY_SLEEP) callbacks run on the
 * worker; unregister with ports in use.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"
#include "udp_tunnel.h"

static char last_log[1024];
static unsigned int n_logs;

static void
capture(int level, const char *msg, void *arg)
{
	(void)level;
	(void)arg;
	snprintf(last_log, sizeof(last_log), "%s", msg);
	n_logs++;
}

#define CHECK_LOG(substr) do { \
	harness_checks++; \
	if (strstr(last_log, (substr)) == NULL) { \
		harness_failures++; \
		fprintf(stderr, "FAIL %s:%d: log '%s' lacks '%s'\n", \
			__FILE__, __LINE__, last_log, (substr)); \
	} \
} while (0)

struct cb_dev {
	unsigned int n_set, n_unset;
	int fail_next;
	pthread_t last_thread;
	struct udp_tunnel_port_info last;
	uint16_t slots[2][4];
};

static int
cb_set(struct udp_tunnel_dev *dev, unsigned int t, unsigned int i,
		const struct udp_tunnel_port_info *ti)
{
	struct cb_dev *d = udp_tunnel_dev_priv(dev);
	int rc = d->fail_next;

	d->fail_next = 0;
	d->n_set++;
	d->last = *ti;
	d->last_thread = pthread_self();
	if (rc == 0) {
		d->slots[t][i] = ti->port;
		udp_tunnel_dev_set_port_priv(dev, t, i, (uint8_t)(0x40 + i));
	}
	return rc;
}

static int
cb_unset(struct udp_tunnel_dev *dev, unsigned int t, unsigned int i,
		const struct udp_tunnel_port_info *ti)
{
	struct cb_dev *d = udp_tunnel_dev_priv(dev);

	d->n_unset++;
	d->last = *ti;
	d->last_thread = pthread_self();
	d->slots[t][i] = 0;
	return 0;
}

static struct udp_tunnel_dev_info
cb_info(unsigned int flags)
{
	struct udp_tunnel_dev_info info;

	memset(&info, 0, sizeof(info));
	info.set_port = cb_set;
	info.unset_port = cb_unset;
	info.flags = flags;
	info.tables[0].n_entries = 4;
	info.tables[0].tunnel_types = UDP_TUNNEL_TYPE_VXLAN;
	info.tables[1].n_entries = 4;
	info.tables[1].tunnel_types = UDP_TUNNEL_TYPE_GENEVE |
		UDP_TUNNEL_TYPE_VXLAN_GPE;
	return info;
}

static void
test_errors(struct udp_tunnel_registry *reg)
{
	struct udp_tunnel_dev_info info = cb_info(0);
	struct udp_tunnel_dev *dev, *dev2;
	struct cb_dev d = { 0 };
	struct udp_tunnel_shared *shared;

	CHECK_EQ(udp_tunnel_port_add(reg, 99, 4789, UDP_TUNNEL_TYPE_VXLAN), -EAFNOSUPPORT);
	CHECK_LOG("4789");
	CHECK_LOG("vxlan");
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, 0x30), -EINVAL);
	CHECK_LOG("4789");
	CHECK_LOG("0x30");
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 0, UDP_TUNNEL_TYPE_GENEVE), -EINVAL);
	CHECK_LOG("geneve");
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET6, 6081, UDP_TUNNEL_TYPE_GENEVE), -ENOENT);
	CHECK_LOG("port del v6 6081 type geneve");

	info.sync_table = NULL;
	info.unset_port = NULL;
	CHECK_EQ(udp_tunnel_dev_register(reg, "bad0", &info, &d, &dev), -EINVAL);
	CHECK_LOG("bad0");
	info = cb_info(0);
	info.tables[0].n_entries = 0;
	CHECK_EQ(udp_tunnel_dev_register(reg, "bad1", &info, &d, &dev), -EINVAL);
	CHECK_LOG("bad1");
	info = cb_info(0);
	info.tables[0].n_entries = UDP_TUNNEL_TABLE_MAX_ENTRIES + 1;
	CHECK_EQ(udp_tunnel_dev_register(reg, "bad2", &info, &d, &dev), -EINVAL);
	CHECK_LOG("bad2");
	shared = udp_tunnel_shared_create();
	info = cb_info(UDP_TUNNEL_DEV_OPEN_ONLY);
	info.shared = shared;
	CHECK_EQ(udp_tunnel_dev_register(reg, "bad3", &info, &d, &dev), -EINVAL);
	CHECK_LOG("bad3");

	info = cb_info(0);
	CHECK_EQ(udp_tunnel_dev_register(reg, "eth0", &info, &d, &dev), 0);
	CHECK_EQ(udp_tunnel_dev_register(reg, "eth0", &info, &d, &dev2), -EEXIST);
	CHECK_LOG("eth0");
	CHECK_EQ(udp_tunnel_registry_destroy(reg), -EBUSY);
	CHECK_LOG("eth0");

	/* a failed device operation is logged with device, port and type */
	d.fail_next = -EIO;
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_LOG("dev eth0");
	CHECK_LOG("port 4790");
	CHECK_LOG("type vxlan");
	CHECK_LOG("-5");
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_dev_unregister(dev), 0);
	CHECK_EQ(udp_tunnel_shared_free(shared), 0);
}

static void
test_refcount_and_lookup(struct udp_tunnel_registry *reg)
{
	struct udp_tunnel_dev_info info = cb_info(0);
	struct udp_tunnel_dev *dev;
	struct udp_tunnel_port_info ti;
	struct cb_dev d = { 0 };

	CHECK_EQ(udp_tunnel_dev_register(reg, "eth1", &info, &d, &dev), 0);
	/* v4 and v6 users of one port: one slot, one set, one unset */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET6, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(d.n_set, 1);
	CHECK_EQ(d.last.family, AF_INET);
	CHECK_EQ(d.slots[0][0], 4789);
	udp_tunnel_dev_get_port(dev, 0, 0, &ti);
	CHECK_EQ(ti.port, 4789);
	CHECK_EQ(ti.hw_priv, 0x40);
	CHECK_EQ(udp_tunnel_lookup(reg, 4789), UDP_TUNNEL_TYPE_VXLAN);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(d.n_unset, 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 4789), UDP_TUNNEL_TYPE_VXLAN);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET6, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(d.n_unset, 1);
	CHECK_EQ(d.slots[0][0], 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 4789), 0);

	/* two types on one port: the oldest user decides the lookup */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 9000, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET6, 9000, UDP_TUNNEL_TYPE_GUE), 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 9000), UDP_TUNNEL_TYPE_GENEVE);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 9000, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 9000), UDP_TUNNEL_TYPE_GUE);
	/* GUE has no table on this device: nothing was programmed for it */
	CHECK_EQ(d.slots[1][0], 0);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET6, 9000, UDP_TUNNEL_TYPE_GUE), 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 9000), 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 0), 0);
	CHECK_EQ(udp_tunnel_lookup(reg, 65535), 0);

	/* unregister with ports in use: the device is emptied */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(d.slots[1][0], 6081);
	CHECK_EQ(d.slots[0][0], 4790);
	d.n_unset = 0;
	CHECK_EQ(udp_tunnel_dev_unregister(dev), 0);
	CHECK_EQ(d.n_unset, 2);
	CHECK_EQ(d.slots[1][0] | d.slots[0][0], 0);
	/* the users remain: a new device gets them at registration */
	memset(&d, 0, sizeof(d));
	CHECK_EQ(udp_tunnel_dev_register(reg, "eth1", &info, &d, &dev), 0);
	CHECK_EQ(d.n_set, 2);
	CHECK_EQ(udp_tunnel_dev_unregister(dev), 0);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN), 0);
}

static void
test_dump(struct udp_tunnel_registry *reg)
{
	struct udp_tunnel_dev_info info = cb_info(UDP_TUNNEL_DEV_STATIC_IANA_VXLAN);
	static const char want[] =
		"Tunnel information for eth2:\n"
		"  UDP port table 0: \n"
		"    Size: 4\n"
		"    Types: vxlan\n"
		"    No entries\n"
		"  UDP port table 1: \n"
		"    Size: 4\n"
		"    Types: geneve, vxlan-gpe\n"
		"    Entries (2):\n"
		"        port 6081, geneve\n"
		"        port 1230, vxlan-gpe\n"
		"  UDP port table 2: \n"
		"    Size: 1\n"
		"    Types: none\n"
		"    Entries (1):\n"
		"        port 4789, vxlan\n";
	struct udp_tunnel_dump dump;
	struct udp_tunnel_dev *dev;
	struct cb_dev d = { 0 };
	char text[1024] = "";
	FILE *f;

	CHECK_EQ(udp_tunnel_dev_register(reg, "eth2", &info, &d, &dev), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET6, 1230, UDP_TUNNEL_TYPE_VXLAN_GPE), 0);
	CHECK_EQ(d.n_set, 2);	/* 4789 is static: no callback */
	CHECK_EQ(udp_tunnel_dev_dump(dev, &dump), 0);
	CHECK_EQ(dump.n_tables, 3);
	CHECK_EQ(dump.tables[1].n_entries, 2);
	CHECK(dump.tables[2].is_static);
	f = fmemopen(text, sizeof(text), "w");
	udp_tunnel_dump_print(reg, &dump, f);
	fclose(f);
	CHECK(strcmp(text, want) == 0);
	if (strcmp(text, want) != 0)
		fprintf(stderr, "dump:\n%s", text);
	CHECK_EQ(udp_tunnel_dev_unregister(dev), 0);
	udp_tunnel_port_del(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN);
	udp_tunnel_port_del(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE);
	udp_tunnel_port_del(reg, AF_INET6, 1230, UDP_TUNNEL_TYPE_VXLAN_GPE);
}

/*
 * The dump lists present entries without the empty slots; each carries its
 * slot index, so a hole before an entry is visible (the ethtool text, which
 * has no index, stays as it was).
 */
static void
test_dump_slots(struct udp_tunnel_registry *reg)
{
	struct udp_tunnel_dev_info info = cb_info(UDP_TUNNEL_DEV_STATIC_IANA_VXLAN);
	static const char want[] =
		"Tunnel information for eth4:\n"
		"  UDP port table 0: \n"
		"    Size: 4\n"
		"    Types: vxlan\n"
		"    Entries (1):\n"
		"        port 4791, vxlan\n"
		"  UDP port table 1: \n"
		"    Size: 4\n"
		"    Types: geneve, vxlan-gpe\n"
		"    No entries\n"
		"  UDP port table 2: \n"
		"    Size: 1\n"
		"    Types: none\n"
		"    Entries (1):\n"
		"        port 4789, vxlan\n";
	const struct udp_tunnel_dump_table *t0;
	struct udp_tunnel_dump dump;
	struct udp_tunnel_dev *dev;
	struct cb_dev d = { 0 };
	char text[1024] = "";
	FILE *f;

	CHECK_EQ(udp_tunnel_dev_register(reg, "eth4", &info, &d, &dev), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4791, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4792, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(d.slots[0][0], 4790);
	CHECK_EQ(d.slots[0][1], 4791);
	CHECK_EQ(d.slots[0][2], 4792);
	/* slots 0 and 2 emptied: one entry, behind a hole */
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4790, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 4792, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(d.slots[0][0] | d.slots[0][2], 0);
	CHECK_EQ(udp_tunnel_dev_dump(dev, &dump), 0);
	t0 = &dump.tables[0];
	CHECK_EQ(t0->n_entries, 1);
	CHECK_EQ(t0->entries[0].port, 4791);
	CHECK_EQ(t0->entries[0].type, UDP_TUNNEL_TYPE_VXLAN);
	CHECK_EQ(t0->entries[0].slot, 1);
	CHECK_EQ(dump.tables[1].n_entries, 0);
	CHECK_EQ(dump.n_tables, 3);
	CHECK(dump.tables[2].is_static);
	CHECK_EQ(dump.tables[2].entries[0].slot, 0);
	f = fmemopen(text, sizeof(text), "w");
	udp_tunnel_dump_print(reg, &dump, f);
	fclose(f);
	CHECK(strcmp(text, want) == 0);
	if (strcmp(text, want) != 0)
		fprintf(stderr, "dump:\n%s", text);

	/* the hole is filled first; entries stay in slot order */
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4793, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(d.slots[0][0], 4793);
	CHECK_EQ(udp_tunnel_dev_dump(dev, &dump), 0);
	CHECK_EQ(t0->n_entries, 2);
	CHECK_EQ(t0->entries[0].port, 4793);
	CHECK_EQ(t0->entries[0].slot, 0);
	CHECK_EQ(t0->entries[1].port, 4791);
	CHECK_EQ(t0->entries[1].slot, 1);

	CHECK_EQ(udp_tunnel_dev_unregister(dev), 0);
	udp_tunnel_port_del(reg, AF_INET, 4791, UDP_TUNNEL_TYPE_VXLAN);
	udp_tunnel_port_del(reg, AF_INET, 4793, UDP_TUNNEL_TYPE_VXLAN);
}

static void
test_may_sleep(struct udp_tunnel_registry *reg)
{
	struct udp_tunnel_dev_info info = cb_info(UDP_TUNNEL_DEV_MAY_SLEEP);
	struct udp_tunnel_dev *dev;
	struct cb_dev d = { 0 };

	CHECK_EQ(udp_tunnel_dev_register(reg, "eth3", &info, &d, &dev), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 5555, UDP_TUNNEL_TYPE_VXLAN), 0);
	udp_tunnel_registry_drain(reg);
	CHECK_EQ(d.n_set, 1);
	CHECK(!pthread_equal(d.last_thread, pthread_self()));
	/* reset notification is synchronous, as in Linux */
	CHECK_EQ(udp_tunnel_dev_reset_ntf(dev), 0);
	CHECK_EQ(d.n_set, 2);
	CHECK(pthread_equal(d.last_thread, pthread_self()));
	CHECK_EQ(udp_tunnel_port_del(reg, AF_INET, 5555, UDP_TUNNEL_TYPE_VXLAN), 0);
	udp_tunnel_registry_drain(reg);
	CHECK_EQ(d.n_unset, 1);
	CHECK_EQ(udp_tunnel_dev_unregister(dev), 0);
	CHECK_EQ(udp_tunnel_dev_up(NULL), -ENODEV);
}

int
main(void)
{
	struct udp_tunnel_registry *reg;

	udp_tunnel_set_log(capture, NULL);
	reg = udp_tunnel_registry_create();
	CHECK(reg != NULL);
	CHECK(udp_tunnel_registry_default() != NULL);
	CHECK(udp_tunnel_registry_default() == udp_tunnel_registry_default());
	test_errors(reg);
	test_refcount_and_lookup(reg);
	test_dump(reg);
	test_dump_slots(reg);
	test_may_sleep(reg);
	CHECK_EQ(udp_tunnel_registry_destroy(reg), 0);
	CHECK(n_logs > 0);
	return harness_summary("test_api");
}
