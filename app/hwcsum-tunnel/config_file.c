/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The INI file, read with rte_cfgfile. rte_cfgfile keeps no line numbers,
 * so errors find theirs by reading the file again: a message names
 * file:line, the section and the key.
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_cfgfile.h>

#include "tunnel.h"

#define GW_MAX_SECTIONS (GW_MAX_TUNNELS + 2)
#define GW_MAX_ENTRIES 64

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * Line of key in section (or of the section header when key is NULL);
 * 0 if not found. A repeated key (geneve_opt) gets its first line.
 */
static unsigned int
find_line(const char *path, const char *section, const char *key)
{
	unsigned int n = 0, found = 0;
	bool inside = false;
	char line[512];
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	while (found == 0 && fgets(line, sizeof(line), f) != NULL) {
		char *s = trim(line), *eq;

		n++;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (end != NULL)
				*end = '\0';
			inside = !strcmp(trim(s + 1), section);
			if (inside && key == NULL)
				found = n;
			continue;
		}
		eq = strchr(s, '=');
		if (inside && key != NULL && eq != NULL) {
			*eq = '\0';
			if (!strcmp(trim(s), key))
				found = n;
		}
	}
	fclose(f);
	return found;
}

/* rte_cfgfile says only "failed": name the line it could not take. */
static int
check_syntax(const char *path)
{
	unsigned int n = 0;
	char line[512];
	struct stat st;
	int ret = 0;
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "hwcsum-tunnel: %s: cannot open: %s\n", path,
			strerror(errno));
		return -errno;
	}
	/* fopen() takes a directory; reading it fails, rte_cfgfile loads nothing. */
	if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "hwcsum-tunnel: %s: is %s, not a configuration file\n",
			path, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		fclose(f);
		return -EINVAL;
	}
	while (ret == 0 && fgets(line, sizeof(line), f) != NULL) {
		char *s = trim(line);

		n++;
		if (*s == '\0' || *s == ';' || *s == '#')
			continue;
		if (*s != '[' && strchr(s, '=') != NULL && *s != '=' &&
		    strlen(trim(strchr(s, '=') + 1)) >= CFG_VALUE_LEN) {
			/* rte_cfgfile would cut it short without a word. */
			fprintf(stderr, "hwcsum-tunnel: %s:%u: value of %zu characters, "
				"rte_cfgfile keeps at most %d (split a long "
				"geneve_opt into several)\n", path, n,
				strlen(trim(strchr(s, '=') + 1)), CFG_VALUE_LEN - 1);
			ret = -EINVAL;
			continue;
		}
		if ((*s == '[' && strchr(s, ']') != NULL) ||
		    (*s != '[' && strchr(s, '=') != NULL && *s != '='))
			continue;
		fprintf(stderr, "hwcsum-tunnel: %s:%u: not a [section], "
			"key = value or ; comment: '%s'\n", path, n, s);
		ret = -EINVAL;
	}
	if (ret == 0 && ferror(f)) {
		fprintf(stderr, "hwcsum-tunnel: %s: cannot read: %s\n", path,
			strerror(errno));
		ret = -EIO;
	}
	fclose(f);
	return ret;
}

static void
where_of(char *buf, size_t len, const char *path, const char *section,
	 const char *key)
{
	snprintf(buf, len, "%s:%u [%s]", path, find_line(path, section, key),
		 section);
}

static int
load_section(struct gw_config *cfg, struct rte_cfgfile *file, const char *path,
	     const char *section)
{
	struct rte_cfgfile_entry entries[GW_MAX_ENTRIES];
	bool is_tunnel = !strncmp(section, "tunnel:", 7);
	struct gw_tunnel t;
	char where[CFG_NAME_LEN + 300];
	int n, i;

	if (!is_tunnel && strcmp(section, "global") != 0) {
		where_of(where, sizeof(where), path, section, NULL);
		fprintf(stderr, "hwcsum-tunnel: %s: unknown section (want [global] "
			"or [tunnel:NAME])\n", where);
		return -EINVAL;
	}
	n = rte_cfgfile_section_entries(file, section, entries, GW_MAX_ENTRIES);
	if (n < 0 || n == GW_MAX_ENTRIES) {
		where_of(where, sizeof(where), path, section, NULL);
		fprintf(stderr, "hwcsum-tunnel: %s: cannot read its keys\n", where);
		return -EINVAL;
	}
	if (is_tunnel) {
		if (section[7] == '\0') {
			where_of(where, sizeof(where), path, section, NULL);
			fprintf(stderr, "hwcsum-tunnel: %s: tunnel without a name\n", where);
			return -EINVAL;
		}
		gw_tunnel_init(&t, section + 7);
	}
	for (i = 0; i < n; i++) {
		int ret;

		where_of(where, sizeof(where), path, section, entries[i].name);
		if (is_tunnel)
			ret = gw_tunnel_set(&t, entries[i].name, entries[i].value, where);
		else
			ret = gw_global_set(cfg, entries[i].name, entries[i].value, where);
		if (ret < 0)
			return ret;
	}
	if (!is_tunnel)
		return 0;
	where_of(where, sizeof(where), path, section, NULL);
	if (gw_tunnel_check(cfg, &t, where) < 0)
		return -EINVAL;
	cfg->tunnels[cfg->nb_tunnels++] = t;
	return 0;
}

int
gw_config_file_load(struct gw_config *cfg, const char *path)
{
	char *sections[GW_MAX_SECTIONS];
	char names[GW_MAX_SECTIONS][CFG_NAME_LEN];
	struct rte_cfgfile *file;
	int n, i, ret = 0;

	if (check_syntax(path) < 0)
		return -EINVAL;
	file = rte_cfgfile_load(path, 0);
	if (file == NULL) {
		fprintf(stderr, "hwcsum-tunnel: %s: rte_cfgfile cannot parse it\n", path);
		return -EINVAL;
	}
	for (i = 0; i < GW_MAX_SECTIONS; i++)
		sections[i] = names[i];
	n = rte_cfgfile_sections(file, sections, GW_MAX_SECTIONS);
	if (n < 0 || n > GW_MAX_SECTIONS - 1) {
		fprintf(stderr, "hwcsum-tunnel: %s: more than %d sections\n", path,
			GW_MAX_SECTIONS - 1);
		ret = -EINVAL;
	}
	for (i = 0; ret == 0 && i < n; i++)
		ret = load_section(cfg, file, path, sections[i]);
	rte_cfgfile_close(file);
	return ret;
}
