/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worked example of docs/udp_tunnel.md, checked: the calls the driver
 * gets, the lookup, the parse result and the dump text are what the
 * document says they are.
 */
#include <stdio.h>
#include <string.h>

#include "test_common.h"
#include "udp_tunnel.h"

struct my_port {
	uint16_t hw_vxlan[4];
	uint16_t hw_geneve[2];
	unsigned int calls;
};

static int
my_set(struct udp_tunnel_dev *dev, unsigned int table, unsigned int entry,
		const struct udp_tunnel_port_info *ti)
{
	struct my_port *p = udp_tunnel_dev_priv(dev);

	p->calls++;
	if (table == 0)
		p->hw_vxlan[entry] = ti->port;
	else
		p->hw_geneve[entry] = ti->port;
	return 0;
}

static int
my_unset(struct udp_tunnel_dev *dev, unsigned int table, unsigned int entry,
		const struct udp_tunnel_port_info *ti)
{
	struct my_port *p = udp_tunnel_dev_priv(dev);

	(void)ti;
	p->calls++;
	if (table == 0)
		p->hw_vxlan[entry] = 0;
	else
		p->hw_geneve[entry] = 0;
	return 0;
}

static const struct udp_tunnel_dev_info my_info = {
	.set_port = my_set,
	.unset_port = my_unset,
	.flags = UDP_TUNNEL_DEV_OPEN_ONLY,
	.tables = {
		{ .n_entries = 4, .tunnel_types = UDP_TUNNEL_TYPE_VXLAN },
		{ .n_entries = 2, .tunnel_types = UDP_TUNNEL_TYPE_GENEVE },
	},
};

int
main(void)
{
	struct udp_tunnel_registry *reg = udp_tunnel_registry_default();
	const uint8_t hdr[8] = { 0, 0, 0x65, 0x58, 0, 0, 42, 0 };
	struct udp_tunnel_parse_result res;
	struct my_port port = { { 0 }, { 0 }, 0 };
	struct udp_tunnel_dump dump;
	struct udp_tunnel_dev *dev;
	char text[1024] = "";
	FILE *f;

	CHECK_EQ(udp_tunnel_dev_register(reg, "port0", &my_info, &port, &dev), 0);
	CHECK_EQ(udp_tunnel_dev_up(dev), 0);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(port.hw_vxlan[0], 4789);
	CHECK_EQ(port.calls, 1);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET6, 4789, UDP_TUNNEL_TYPE_VXLAN), 0);
	CHECK_EQ(port.calls, 1);
	CHECK_EQ(udp_tunnel_port_add(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE), 0);
	CHECK_EQ(port.hw_geneve[0], 6081);

	CHECK_EQ(udp_tunnel_lookup(reg, 6081), UDP_TUNNEL_TYPE_GENEVE);
	CHECK_EQ(udp_tunnel_parse(reg, UDP_TUNNEL_TYPE_GENEVE, hdr, sizeof(hdr), &res), 0);
	CHECK_EQ(res.inner_offset, 8);
	CHECK_EQ(res.inner_ethertype, 0x6558);
	CHECK_EQ(res.vni, 42);

	CHECK_EQ(udp_tunnel_dev_dump(dev, &dump), 0);
	f = fmemopen(text, sizeof(text), "w");
	udp_tunnel_dump_print(reg, &dump, f);
	fclose(f);
	CHECK(strncmp(text, "Tunnel information for port0:\n"
		"  UDP port table 0: \n"
		"    Size: 4\n"
		"    Types: vxlan\n"
		"    Entries (1):\n"
		"        port 4789, vxlan\n"
		"  UDP port table 1: \n", strlen("Tunnel information for port0:\n"
		"  UDP port table 0: \n"
		"    Size: 4\n"
		"    Types: vxlan\n"
		"    Entries (1):\n"
		"        port 4789, vxlan\n"
		"  UDP port table 1: \n")) == 0);

	CHECK_EQ(udp_tunnel_dev_down(dev), 0);
	CHECK_EQ(port.hw_vxlan[0] | port.hw_geneve[0], 0);
	CHECK_EQ(port.calls, 4);
	CHECK_EQ(udp_tunnel_dev_unregister(dev), 0);
	/* the default registry keeps its users; tidy up */
	udp_tunnel_port_del(reg, AF_INET, 4789, UDP_TUNNEL_TYPE_VXLAN);
	udp_tunnel_port_del(reg, AF_INET6, 4789, UDP_TUNNEL_TYPE_VXLAN);
	udp_tunnel_port_del(reg, AF_INET, 6081, UDP_TUNNEL_TYPE_GENEVE);
	CHECK_EQ(udp_tunnel_lookup(reg, 4789), 0);
	return harness_summary("test_doc_example");
}
