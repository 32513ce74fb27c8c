/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tables as `ethtool --show-tunnels` shows them: only slots the device
 * has confirmed, each with its slot index, plus the static IANA VXLAN
 * pseudo-table. The printed text is ethtool's, without the indexes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "udp_tunnel_private.h"

int
udp_tunnel_dev_dump(struct udp_tunnel_dev *dev, struct udp_tunnel_dump *out)
{
	struct udp_tunnel_dump_table *dt;
	const struct ut_entry *e;
	struct ut_nic *nic;
	unsigned int t, i;

	if (dev == NULL || dev->nic == NULL || out == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "dump %s: missing device or buffer",
			dev != NULL ? dev->name : "(null)");
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->dev_name, sizeof(out->dev_name), "%s", dev->name);
	pthread_mutex_lock(&dev->reg->lock);
	nic = dev->nic;
	for (t = 0; t < nic->n_tables; t++) {
		dt = &out->tables[t];
		dt->size = nic->info.tables[t].n_entries;
		dt->types = nic->info.tables[t].tunnel_types;
		for (i = 0; i < dt->size; i++) {
			e = &nic->entries[t][i];
			if (!ut_nic_entry_is_present(e))
				continue;
			dt->entries[dt->n_entries].port = e->port;
			dt->entries[dt->n_entries].type = e->type;
			dt->entries[dt->n_entries].slot = i;
			dt->n_entries++;
		}
	}
	out->n_tables = nic->n_tables;
	if (nic->info.flags & UDP_TUNNEL_DEV_STATIC_IANA_VXLAN) {
		dt = &out->tables[out->n_tables++];
		dt->size = 1;
		dt->types = 0;
		dt->is_static = true;
		dt->n_entries = 1;
		dt->entries[0].port = UDP_TUNNEL_IANA_VXLAN_PORT;
		dt->entries[0].type = UDP_TUNNEL_TYPE_VXLAN;
		dt->entries[0].slot = 0;
	}
	pthread_mutex_unlock(&dev->reg->lock);
	return 0;
}

static void
print_types(const struct udp_tunnel_registry *reg, unsigned int types, FILE *f)
{
	const char *sep = "";
	unsigned int bit;

	if (types == 0) {
		fprintf(f, "none");
		return;
	}
	for (bit = 0; bit < UDP_TUNNEL_MAX_TYPES; bit++) {
		if (!(types & (1u << bit)))
			continue;
		fprintf(f, "%s%s", sep, ut_type_name_safe(reg, 1u << bit));
		sep = ", ";
	}
}

void
udp_tunnel_dump_print(const struct udp_tunnel_registry *reg,
		const struct udp_tunnel_dump *dump, void *file)
{
	const struct udp_tunnel_dump_table *dt;
	FILE *f = file;
	unsigned int t, i;

	fprintf(f, "Tunnel information for %s:\n", dump->dev_name);
	for (t = 0; t < dump->n_tables; t++) {
		dt = &dump->tables[t];
		fprintf(f, "  UDP port table %u: \n", t);
		fprintf(f, "    Size: %u\n", dt->size);
		fprintf(f, "    Types: ");
		print_types(reg, dt->types, f);
		fprintf(f, "\n");
		if (dt->n_entries == 0) {
			fprintf(f, "    No entries\n");
			continue;
		}
		fprintf(f, "    Entries (%u):\n", dt->n_entries);
		for (i = 0; i < dt->n_entries; i++)
			fprintf(f, "        port %u, %s\n", dt->entries[i].port,
				ut_type_name_safe(reg, dt->entries[i].type));
	}
}
