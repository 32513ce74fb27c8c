/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * netdevsim-like device for the scenario runner: behaves as
 * drivers/net/netdevsim/udp_tunnels.c does, including its complaints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mock_nic.h"

static struct mock_bus *the_bus;	/* for WARN accounting */

static void
mock_sleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	if (ms != 0)
		nanosleep(&ts, NULL);
}

static int
take_error(struct mock_nic *nic)
{
	int ret = -nic->inject_error;

	nic->inject_error = 0;
	return ret;
}

static uint32_t
encode(const struct udp_tunnel_port_info *ti)
{
	return (uint32_t)ti->port << 16 | ti->type;
}

static int
mock_set_port(struct udp_tunnel_dev *dev, unsigned int table,
		unsigned int entry, const struct udp_tunnel_port_info *ti)
{
	struct mock_nic *nic = udp_tunnel_dev_priv(dev);
	int ret = take_error(nic);

	mock_sleep(nic->sleep_ms);
	if (ret == 0) {
		if (nic->ports[table][entry] != 0) {
			if (!the_bus->quiet_warnings)
				fprintf(stderr, "WARN %s: set [%u, %u]: entry already in use\n",
					udp_tunnel_dev_name(dev), table, entry);
			the_bus->warnings++;
			ret = -EBUSY;
		} else {
			nic->ports[table][entry] = encode(ti);
		}
	}
	return ret;
}

static int
mock_unset_port(struct udp_tunnel_dev *dev, unsigned int table,
		unsigned int entry, const struct udp_tunnel_port_info *ti)
{
	struct mock_nic *nic = udp_tunnel_dev_priv(dev);
	int ret = take_error(nic);

	mock_sleep(nic->sleep_ms);
	if (ret == 0) {
		if (nic->ports[table][entry] == encode(ti)) {
			nic->ports[table][entry] = 0;
		} else {
			if (!the_bus->quiet_warnings)
				fprintf(stderr, "WARN %s: unset [%u, %u]: entry not installed %x vs %x\n",
					udp_tunnel_dev_name(dev), table, entry,
					encode(ti), nic->ports[table][entry]);
			the_bus->warnings++;
			ret = -ENOENT;
		}
	}
	return ret;
}

static int
mock_sync_table(struct udp_tunnel_dev *dev, unsigned int table)
{
	struct mock_nic *nic = udp_tunnel_dev_priv(dev);
	struct udp_tunnel_port_info ti;
	int ret = take_error(nic);
	unsigned int i;

	/* netdevsim writes the table even when it reports an error. */
	for (i = 0; i < MOCK_N_PORTS; i++) {
		udp_tunnel_dev_get_port(dev, table, i, &ti);
		nic->ports[table][i] = encode(&ti);
	}
	return ret;
}

int
mock_nic_new(struct mock_bus *bus, int id)
{
	struct udp_tunnel_dev_info info;
	struct mock_nic *nic;
	char name[32];
	int rc;

	the_bus = bus;
	if (id < 0 || id >= MOCK_MAX_NICS || bus->nics[id] != NULL)
		return -EEXIST;
	nic = calloc(1, sizeof(*nic));
	if (nic == NULL)
		return -ENOMEM;
	nic->id = id;
	nic->sleep_ms = bus->knobs.sleep_ms;
	nic->ports = bus->knobs.shared ? bus->shared_ports : nic->own_ports;

	memset(&info, 0, sizeof(info));
	info.tables[0].n_entries = MOCK_N_PORTS;
	info.tables[0].tunnel_types = UDP_TUNNEL_TYPE_VXLAN;
	info.tables[1].n_entries = MOCK_N_PORTS;
	info.tables[1].tunnel_types = UDP_TUNNEL_TYPE_GENEVE |
		UDP_TUNNEL_TYPE_VXLAN_GPE;
	if (bus->knobs.sync_all) {
		info.sync_table = mock_sync_table;
	} else {
		info.set_port = mock_set_port;
		info.unset_port = mock_unset_port;
	}
	if (nic->sleep_ms != 0)
		info.flags |= UDP_TUNNEL_DEV_MAY_SLEEP;
	if (bus->knobs.open_only)
		info.flags |= UDP_TUNNEL_DEV_OPEN_ONLY;
	if (bus->knobs.ipv4_only)
		info.flags |= UDP_TUNNEL_DEV_IPV4_ONLY;
	if (bus->knobs.static_iana_vxlan)
		info.flags |= UDP_TUNNEL_DEV_STATIC_IANA_VXLAN;
	if (bus->knobs.shared) {
		if (bus->shared == NULL)
			bus->shared = udp_tunnel_shared_create();
		if (bus->shared == NULL) {
			free(nic);
			return -ENOMEM;
		}
		info.shared = bus->shared;
	}
	snprintf(name, sizeof(name), "nsim%d", id);
	bus->nics[id] = nic;
	rc = udp_tunnel_dev_register(bus->reg, name, &info, nic, &nic->dev);
	if (rc != 0) {
		bus->nics[id] = NULL;
		free(nic);
	}
	return rc;
}

int
mock_nic_del(struct mock_bus *bus, int id)
{
	struct mock_nic *nic;
	int rc;

	if (id < 0 || id >= MOCK_MAX_NICS || bus->nics[id] == NULL)
		return -ENODEV;
	nic = bus->nics[id];
	rc = udp_tunnel_dev_unregister(nic->dev);
	if (rc != 0)
		return rc;
	bus->nics[id] = NULL;
	free(nic);
	return 0;
}

void
mock_nic_reset(struct mock_bus *bus, int id)
{
	struct mock_nic *nic = bus->nics[id];

	memset(nic->ports, 0, sizeof(uint32_t) * MOCK_N_TABLES * MOCK_N_PORTS);
	udp_tunnel_dev_reset_ntf(nic->dev);
}

void
mock_bus_cleanup(struct mock_bus *bus)
{
	int id;

	for (id = 0; id < MOCK_MAX_NICS; id++)
		if (bus->nics[id] != NULL)
			mock_nic_del(bus, id);
	udp_tunnel_shared_free(bus->shared);
	bus->shared = NULL;
}
