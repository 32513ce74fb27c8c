/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef MOCK_NIC_H
#define MOCK_NIC_H

/*
 * A device shaped like Linux netdevsim's UDP tunnel support: two tables of
 * four (VXLAN; GENEVE|VXLAN-GPE), each slot holding port << 16 | type as
 * the "hardware" sees it, one-shot error injection, reset, and the device
 * knobs of the kernel selftest (sync_all, open_only, ipv4_only, shared,
 * static_iana_vxlan, sleep).
 */
#include <stdbool.h>
#include <stdint.h>

#include "udp_tunnel.h"

#define MOCK_N_TABLES	2
#define MOCK_N_PORTS	4
#define MOCK_MAX_NICS	8

/* The knobs of one netdevsim device, read when a port is created. */
struct mock_knobs {
	bool sync_all;
	bool open_only;
	bool ipv4_only;
	bool shared;
	bool static_iana_vxlan;
	unsigned int sleep_ms;
};

struct mock_nic {
	int id;
	struct udp_tunnel_dev *dev;
	uint32_t (*ports)[MOCK_N_PORTS];	/* own or shared "hardware" */
	uint32_t own_ports[MOCK_N_TABLES][MOCK_N_PORTS];
	int inject_error;			/* positive errno, one shot */
	unsigned int sleep_ms;
};

/* One netdevsim "bus device": knobs plus the tables its ports may share. */
struct mock_bus {
	struct udp_tunnel_registry *reg;
	struct mock_knobs knobs;
	uint32_t shared_ports[MOCK_N_TABLES][MOCK_N_PORTS];
	struct udp_tunnel_shared *shared;
	struct mock_nic *nics[MOCK_MAX_NICS];
	unsigned int warnings;	/* netdevsim would WARN() */
	bool quiet_warnings;	/* count them without printing */
};

int mock_nic_new(struct mock_bus *bus, int id);
int mock_nic_del(struct mock_bus *bus, int id);
void mock_nic_reset(struct mock_bus *bus, int id);
void mock_bus_cleanup(struct mock_bus *bus);

#endif
