/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scenario_run: replay plain-text UDP tunnel scenarios (the format is in
 * tests/scenarios/udp_tunnel/README.md) against lib/udp_tunnel with a
 * netdevsim-shaped mock device, asserting the device tables slot by slot.
 *
 * usage: scenario_run [-v] [--dump OUT] FILE...
 * exit 0 only if every check passed. --dump writes the tables each check
 * found to OUT, one line per check in the format all three replayers share
 * (tests/scenarios/udp_tunnel/README.md, "Three ways"):
 *   check <TAB> file <TAB> line <TAB> n <TAB> nic <TAB> table 0 slots
 *         <TAB> table 1 slots <TAB> static entries shown
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mock_nic.h"

#define MAX_TUNNELS	64
/* A dual-stack tunnel (Linux "external" devices): one v6 and one v4 user. */
#define FAMILY_DUAL	(-2)
#define MAX_WORDS	16

struct tunnel {
	char name[32];
	int family;
	uint16_t port;
	unsigned int type;
	bool up;
	bool used;
};

struct run {
	const char *file;
	unsigned int line;
	char msg[512];
	struct mock_bus bus;
	struct tunnel tunnels[MAX_TUNNELS];
	uint32_t expect[MOCK_N_TABLES][MOCK_N_PORTS];
	unsigned int checks;
	unsigned int errors;
	bool verbose;
	bool injected;	/* the file injects device errors */
	FILE *dump;	/* --dump, or NULL */
};

static void
log_sink(int level, const char *msg, void *arg)
{
	struct run *run = arg;

	if (run->verbose || level <= UDP_TUNNEL_LOG_ERR)
		fprintf(stderr, "  [lib %d] %s\n", level, msg);
}

static void
fail(struct run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
fail(struct run *run, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ERROR %s:%u: %s: ", run->file, run->line, run->msg);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	run->errors++;
}

static const char *
type_name(struct run *run, unsigned int type)
{
	const char *n = udp_tunnel_type_name(run->bus.reg, type);

	return n != NULL ? n : "?";
}

static void
format_slot(struct run *run, uint32_t v, char *buf, size_t len)
{
	if (v == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%u/%s", v >> 16, type_name(run, v & 0xffff));
}

/* "0" or "<port>/<type name>" */
static int
parse_slot(struct run *run, const char *word, uint32_t *out)
{
	char copy[64], *slash, *end;
	unsigned long port;
	unsigned int type;

	if (strcmp(word, "0") == 0) {
		*out = 0;
		return 0;
	}
	snprintf(copy, sizeof(copy), "%s", word);
	slash = strchr(copy, '/');
	if (slash == NULL)
		return -EINVAL;
	*slash = '\0';
	port = strtoul(copy, &end, 10);
	if (*end != '\0' || port == 0 || port > 65535)
		return -EINVAL;
	type = udp_tunnel_type_by_name(run->bus.reg, slash + 1);
	if (type == 0)
		return -EINVAL;
	*out = (uint32_t)port << 16 | type;
	return 0;
}

static struct mock_nic *
nic_get(struct run *run, const char *word)
{
	char *end;
	long id = strtol(word, &end, 10);

	if (*end != '\0' || id < 0 || id >= MOCK_MAX_NICS ||
			run->bus.nics[id] == NULL) {
		fail(run, "no nic '%s'", word);
		return NULL;
	}
	return run->bus.nics[id];
}

static struct tunnel *
tunnel_get(struct run *run, const char *name, bool create)
{
	struct tunnel *free_slot = NULL;
	int i;

	for (i = 0; i < MAX_TUNNELS; i++) {
		if (run->tunnels[i].used &&
				strcmp(run->tunnels[i].name, name) == 0)
			return create ? NULL : &run->tunnels[i];
		if (!run->tunnels[i].used && free_slot == NULL)
			free_slot = &run->tunnels[i];
	}
	if (!create || free_slot == NULL)
		return NULL;
	memset(free_slot, 0, sizeof(*free_slot));
	snprintf(free_slot->name, sizeof(free_slot->name), "%s", name);
	free_slot->used = true;
	return free_slot;
}

static void
tunnel_set_up(struct run *run, struct tunnel *t, bool up)
{
	int rc;

	if (t->up == up)
		return;
	if (t->family == FAMILY_DUAL) {
		/* Linux opens the v6 socket first and releases v4 first. */
		if (up)
			rc = udp_tunnel_port_add(run->bus.reg, AF_INET6, t->port, t->type) |
				udp_tunnel_port_add(run->bus.reg, AF_INET, t->port, t->type);
		else
			rc = udp_tunnel_port_del(run->bus.reg, AF_INET, t->port, t->type) |
				udp_tunnel_port_del(run->bus.reg, AF_INET6, t->port, t->type);
	} else if (up) {
		rc = udp_tunnel_port_add(run->bus.reg, t->family, t->port, t->type);
	} else {
		rc = udp_tunnel_port_del(run->bus.reg, t->family, t->port, t->type);
	}
	if (rc != 0)
		fail(run, "tunnel %s %s: %d", t->name, up ? "up" : "down", rc);
	t->up = up;
}

static void
tunnel_delete(struct run *run, struct tunnel *t)
{
	tunnel_set_up(run, t, false);
	t->used = false;
}

/* --dump: the slots this check found, whatever was expected. */
static void
dump_line(struct run *run, const struct mock_nic *nic, unsigned int n_static)
{
	char slot[48];
	unsigned int t, i;

	fprintf(run->dump, "check\t%s\t%u\t%u\t%d", run->file, run->line,
		run->checks, nic->id);
	for (t = 0; t < MOCK_N_TABLES; t++)
		for (i = 0; i < MOCK_N_PORTS; i++) {
			format_slot(run, nic->ports[t][i], slot, sizeof(slot));
			fprintf(run->dump, "%s%s", i == 0 ? "\t" : " ", slot);
		}
	fprintf(run->dump, "\t%u\n", n_static);
}

/* Compare the device tables with the expectations, then the dump. */
static void
check(struct run *run, struct mock_nic *nic)
{
	struct udp_tunnel_dump dump;
	char want[48], have[48];
	unsigned int t, i, j, n_static = 0;
	bool found, ok = true;

	udp_tunnel_registry_drain(run->bus.reg);
	run->checks++;
	if (udp_tunnel_dev_dump(nic->dev, &dump) != 0) {
		fail(run, "nic %d: dump failed", nic->id);
		return;
	}
	for (t = 0; t < dump.n_tables; t++) {
		const struct udp_tunnel_dump_table *dt = &dump.tables[t];

		for (j = 0; dt->is_static && j < dt->n_entries; j++)
			if (dt->entries[j].port == UDP_TUNNEL_IANA_VXLAN_PORT &&
					dt->entries[j].type == UDP_TUNNEL_TYPE_VXLAN)
				n_static++;
	}
	if (run->dump != NULL)
		dump_line(run, nic, n_static);
	for (t = 0; t < MOCK_N_TABLES; t++)
		for (i = 0; i < MOCK_N_PORTS; i++) {
			if (nic->ports[t][i] == run->expect[t][i])
				continue;
			format_slot(run, run->expect[t][i], want, sizeof(want));
			format_slot(run, nic->ports[t][i], have, sizeof(have));
			fail(run, "nic %d table %u entry %u: expected %s, have %s",
				nic->id, t, i, want, have);
			ok = false;
		}
	if (!ok)
		return;

	/* What ethtool shows must be in hardware: confirmed entries only. */
	for (t = 0; t < dump.n_tables; t++) {
		for (j = 0; j < dump.tables[t].n_entries; j++) {
			const struct udp_tunnel_dump_entry *e = &dump.tables[t].entries[j];
			uint32_t v = (uint32_t)e->port << 16 | e->type;

			if (dump.tables[t].is_static)
				continue;
			found = false;
			for (i = 0; i < MOCK_N_PORTS && t < MOCK_N_TABLES; i++)
				if (run->expect[t][i] == v)
					found = true;
			if (!found) {
				format_slot(run, v, have, sizeof(have));
				fail(run, "nic %d: ethtool dump table %u shows %s, not in hardware",
					nic->id, t, have);
			}
		}
	}
	if (run->bus.knobs.static_iana_vxlan && n_static != 1)
		fail(run, "nic %d: ethtool dump shows the static 4789/vxlan %u times",
			nic->id, n_static);
}

static bool
parse_bool(const char *w)
{
	return strcmp(w, "1") == 0 || strcmp(w, "on") == 0;
}

static int
split(char *line, char **words)
{
	int n = 0;
	char *save = NULL, *w;

	for (w = strtok_r(line, " \t\r\n", &save); w != NULL && n < MAX_WORDS;
			w = strtok_r(NULL, " \t\r\n", &save))
		words[n++] = w;
	return n;
}

static void
bus_reset(struct run *run)
{
	mock_bus_cleanup(&run->bus);
	memset(&run->bus.knobs, 0, sizeof(run->bus.knobs));
	memset(run->bus.shared_ports, 0, sizeof(run->bus.shared_ports));
}

static void
cmd_set(struct run *run, char **w, int n)
{
	struct mock_knobs *k = &run->bus.knobs;

	if (n != 3)
		goto usage;
	if (strcmp(w[1], "sync_all") == 0)
		k->sync_all = parse_bool(w[2]);
	else if (strcmp(w[1], "open_only") == 0)
		k->open_only = parse_bool(w[2]);
	else if (strcmp(w[1], "ipv4_only") == 0)
		k->ipv4_only = parse_bool(w[2]);
	else if (strcmp(w[1], "shared") == 0)
		k->shared = parse_bool(w[2]);
	else if (strcmp(w[1], "static_iana_vxlan") == 0)
		k->static_iana_vxlan = parse_bool(w[2]);
	else if (strcmp(w[1], "sleep") == 0)
		k->sleep_ms = (unsigned int)strtoul(w[2], NULL, 10);
	else
		goto usage;
	return;
usage:
	fail(run, "bad 'set' line");
}

static void
cmd_nic(struct run *run, char **w, int n)
{
	struct mock_nic *nic;
	int rc;

	if (n < 3)
		goto usage;
	if (strcmp(w[1], "new") == 0) {
		rc = mock_nic_new(&run->bus, atoi(w[2]));
		if (rc != 0)
			fail(run, "nic new %s: %d", w[2], rc);
		return;
	}
	nic = nic_get(run, w[2]);
	if (nic == NULL)
		return;
	if (strcmp(w[1], "del") == 0)
		rc = mock_nic_del(&run->bus, nic->id);
	else if (strcmp(w[1], "up") == 0)
		rc = udp_tunnel_dev_up(nic->dev);
	else if (strcmp(w[1], "down") == 0)
		rc = udp_tunnel_dev_down(nic->dev);
	else if (strcmp(w[1], "offload") == 0 && n == 4)
		rc = udp_tunnel_dev_set_offload(nic->dev, parse_bool(w[3]));
	else if (strcmp(w[1], "reset") == 0) {
		mock_nic_reset(&run->bus, nic->id);
		rc = 0;
	} else if (strcmp(w[1], "inject_error") == 0 && n == 4) {
		nic->inject_error = atoi(w[3]);
		run->injected = true;
		rc = 0;
	} else
		goto usage;
	if (rc != 0)
		fail(run, "nic %s %s: %d", w[1], w[2], rc);
	return;
usage:
	fail(run, "bad 'nic' line");
}

static void
cmd_tunnel(struct run *run, char **w, int n)
{
	struct tunnel *t;
	int i;

	if (n == 2 && strcmp(w[1], "flush") == 0) {
		for (i = 0; i < MAX_TUNNELS; i++)
			if (run->tunnels[i].used)
				tunnel_delete(run, &run->tunnels[i]);
		return;
	}
	if (n == 6 && strcmp(w[1], "add") == 0) {
		t = tunnel_get(run, w[2], true);
		if (t == NULL) {
			fail(run, "tunnel %s exists (or too many)", w[2]);
			return;
		}
		t->family = strcmp(w[3], "v6") == 0 ? AF_INET6 :
			strcmp(w[3], "v4") == 0 ? AF_INET :
			strcmp(w[3], "dual") == 0 ? FAMILY_DUAL : -1;
		t->port = (uint16_t)strtoul(w[4], NULL, 10);
		t->type = udp_tunnel_type_by_name(run->bus.reg, w[5]);
		if (t->family == -1 || t->port == 0 || t->type == 0) {
			fail(run, "bad tunnel %s", w[2]);
			t->used = false;
			return;
		}
		tunnel_set_up(run, t, true);
		return;
	}
	if (n != 3)
		goto usage;
	t = tunnel_get(run, w[2], false);
	if (t == NULL) {
		fail(run, "no tunnel %s", w[2]);
		return;
	}
	if (strcmp(w[1], "up") == 0)
		tunnel_set_up(run, t, true);
	else if (strcmp(w[1], "down") == 0)
		tunnel_set_up(run, t, false);
	else if (strcmp(w[1], "del") == 0)
		tunnel_delete(run, t);
	else
		goto usage;
	return;
usage:
	fail(run, "bad 'tunnel' line");
}

static void
cmd_expect(struct run *run, char **w, int n)
{
	unsigned long t;
	int i;

	if (n != 3 + MOCK_N_PORTS || strcmp(w[1], "table") != 0)
		goto usage;
	t = strtoul(w[2], NULL, 10);
	if (t >= MOCK_N_TABLES)
		goto usage;
	for (i = 0; i < MOCK_N_PORTS; i++)
		if (parse_slot(run, w[3 + i], &run->expect[t][i]) != 0)
			goto usage;
	return;
usage:
	fail(run, "bad 'expect' line");
}

static int
run_file(const char *path, bool verbose, FILE *dump)
{
	struct run *run;
	char line[512], *w[MAX_WORDS];
	FILE *f;
	int n, rc;

	f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "ERROR %s: %s\n", path, strerror(errno));
		return 1;
	}
	run = calloc(1, sizeof(*run));
	if (run == NULL) {
		fclose(f);
		return 1;
	}
	run->file = path;
	run->verbose = verbose;
	run->dump = dump;
	snprintf(run->msg, sizeof(run->msg), "start");
	udp_tunnel_set_log(log_sink, run);
	run->bus.reg = udp_tunnel_registry_create();
	if (run->bus.reg == NULL) {
		fclose(f);
		free(run);
		return 1;
	}

	while (fgets(line, sizeof(line), f) != NULL) {
		run->line++;
		if (strncmp(line, "msg ", 4) == 0) {
			snprintf(run->msg, sizeof(run->msg), "%s", line + 4);
			run->msg[strcspn(run->msg, "\r\n")] = '\0';
			continue;
		}
		n = split(line, w);
		if (n == 0 || w[0][0] == '#')
			continue;
		if (verbose)
			fprintf(stderr, "%s:%u: %s\n", path, run->line, w[0]);
		if (strcmp(w[0], "set") == 0)
			cmd_set(run, w, n);
		else if (strcmp(w[0], "nic") == 0)
			cmd_nic(run, w, n);
		else if (strcmp(w[0], "tunnel") == 0)
			cmd_tunnel(run, w, n);
		else if (strcmp(w[0], "expect") == 0)
			cmd_expect(run, w, n);
		else if (strcmp(w[0], "check") == 0 && n == 2) {
			struct mock_nic *nic = nic_get(run, w[1]);

			if (nic != NULL)
				check(run, nic);
		} else if (strcmp(w[0], "bus") == 0 && n == 2 &&
				strcmp(w[1], "reset") == 0)
			bus_reset(run);
		else
			fail(run, "unknown command '%s'", w[0]);
	}
	fclose(f);

	cmd_tunnel(run, (char *[]){ "tunnel", "flush" }, 2);
	mock_bus_cleanup(&run->bus);
	/*
	 * After an injected failure Linux retries operations the device may
	 * or may not have done (and netdevsim WARNs): only a file without
	 * injected errors must never make the device complain.
	 */
	if (run->bus.warnings != 0 && !run->injected)
		fail(run, "the device complained %u times (set on a busy slot or unset of a missing one)",
			run->bus.warnings);
	else if (run->bus.warnings != 0)
		printf("%s: %u device complaints after injected errors (as Linux)\n",
			path, run->bus.warnings);
	if (udp_tunnel_registry_destroy(run->bus.reg) != 0)
		fail(run, "registry destroy failed");
	udp_tunnel_set_log(NULL, NULL);
	if (run->checks == 0)
		fail(run, "no check in the file");
	if (run->errors)
		printf("%s: FAILED %u errors in %u checks\n", path, run->errors,
			run->checks);
	else
		printf("%s: PASSED all %u checks\n", path, run->checks);
	rc = run->errors ? 1 : 0;
	free(run);
	return rc;
}

int
main(int argc, char **argv)
{
	bool verbose = false;
	FILE *dump = NULL;
	int i, rc = 0, n_files = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
			continue;
		}
		if (strcmp(argv[i], "--dump") == 0) {
			if (++i == argc || dump != NULL) {
				fprintf(stderr, "scenario_run: --dump takes one file, once\n");
				return 2;
			}
			dump = fopen(argv[i], "w");
			if (dump == NULL) {
				fprintf(stderr, "scenario_run: --dump %s: %s\n", argv[i],
					strerror(errno));
				return 2;
			}
			continue;
		}
		rc |= run_file(argv[i], verbose, dump);
		n_files++;
	}
	if (dump != NULL && fclose(dump) != 0) {
		fprintf(stderr, "scenario_run: writing the dump: %s\n", strerror(errno));
		rc = 1;
	}
	if (n_files == 0) {
		fprintf(stderr, "usage: scenario_run [-v] [--dump OUT] FILE...\n");
		return 2;
	}
	return rc;
}
