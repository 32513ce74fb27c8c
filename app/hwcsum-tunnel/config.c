/* SPDX-License-Identifier: BSD-3-Clause */
/* Options, tunnel keys and their validation (shared by the INI file). */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include <rte_cfgfile.h>

#include "tunnel.h"

/* lib/udp_tunnel's name of a built-in type; the gateway has no other. */
const char *
gw_type_name(unsigned int type)
{
	const char *name = udp_tunnel_type_name(NULL, type);

	return name != NULL ? name : "?";
}

void
gw_config_defaults(struct gw_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nb_mbufs = 8192;
	cfg->stats_interval = 1;
}

static int
bad(const char *where, const char *key, const char *value, const char *want)
{
	fprintf(stderr, "hwcsum-tunnel: %s: key '%s': bad value '%s' (%s)\n",
		where, key, value, want);
	return -EINVAL;
}

static int
parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (*s == '\0' || *s == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, 0);
	if (errno != 0 || *end != '\0' || *out > max)
		return -EINVAL;
	return 0;
}

static int
parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "on") || !strcmp(s, "yes") || !strcmp(s, "1"))
		*out = true;
	else if (!strcmp(s, "off") || !strcmp(s, "no") || !strcmp(s, "0"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

/* The address family of s, its bytes in addr; 0 if it is no address. */
static int
parse_addr(const char *s, uint8_t addr[16])
{
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, s, addr) == 1)
		return AF_INET;
	if (inet_pton(AF_INET6, s, addr) == 1)
		return AF_INET6;
	return 0;
}

/* class:type:hexdata, data a multiple of 4 bytes (RFC 8926 section 3.5). */
static int
parse_geneve_opt(struct gw_tunnel *t, const char *s)
{
	unsigned long cls, type;
	char buf[CFG_VALUE_LEN], *c, *ty, *hex;
	size_t n, i;
	uint8_t *o;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	c = strtok(buf, ":");
	ty = strtok(NULL, ":");
	hex = strtok(NULL, ":");
	if (c == NULL || ty == NULL || parse_uint(c, 0xffff, &cls) ||
	    parse_uint(ty, 0xff, &type))
		return -EINVAL;
	n = hex != NULL ? strlen(hex) : 0;
	if (n % 8 != 0 || n / 2 > 124 || t->opts_len + 4 + n / 2 > GW_MAX_OPTS)
		return -EINVAL;
	o = t->opts + t->opts_len;
	o[0] = cls >> 8;
	o[1] = cls & 0xff;
	o[2] = type;
	o[3] = n / 8;	/* length in 4-byte words, without this header */
	for (i = 0; i < n / 2; i++) {
		char pair[3] = { hex[2 * i], hex[2 * i + 1], 0 };
		unsigned long v;

		if (!isxdigit((unsigned char)pair[0]) ||
		    !isxdigit((unsigned char)pair[1]))
			return -EINVAL;
		v = strtoul(pair, NULL, 16);
		o[4 + i] = v;
	}
	t->opts_len += 4 + n / 2;
	return 0;
}

int
gw_tunnel_set(struct gw_tunnel *t, const char *key, const char *value,
	      const char *where)
{
	unsigned long v, lo, hi;

	if (!strcmp(key, "type")) {
		/* Without a registry: the built-in types, all encapsulated here. */
		unsigned int type = udp_tunnel_type_by_name(NULL, value);

		if (type == 0)
			return bad(where, key, value, "vxlan, geneve, vxlan-gpe or gue");
		t->type = type;
		if (t->dst_port == 0)
			t->dst_port = udp_tunnel_type_default_port(type);
	} else if (!strcmp(key, "vni")) {
		if (parse_uint(value, 0xffffff, &v))
			return bad(where, key, value, "0..16777215");
		t->vni = v;
	} else if (!strcmp(key, "inner_port")) {
		if (strlen(value) == 0 || strlen(value) >= sizeof(t->inner_name))
			return bad(where, key, value, "an ethdev name");
		strcpy(t->inner_name, value);
	} else if (!strcmp(key, "local") || !strcmp(key, "remote")) {
		uint8_t *a = key[0] == 'l' ? t->local : t->remote;
		int fam = parse_addr(value, a);

		if (fam == 0)
			return bad(where, key, value, "an IPv4 or IPv6 address");
		if (t->family != 0 && t->family != fam)
			return bad(where, key, value, "local and remote of one family");
		t->family = fam;
	} else if (!strcmp(key, "remote_mac") || !strcmp(key, "local_mac") ||
		   !strcmp(key, "inner_dst_mac") || !strcmp(key, "inner_src_mac")) {
		struct rte_ether_addr *a = !strcmp(key, "remote_mac") ? &t->remote_mac :
			!strcmp(key, "local_mac") ? &t->local_mac :
			!strcmp(key, "inner_dst_mac") ? &t->inner_dst_mac :
			&t->inner_src_mac;

		if (rte_ether_unformat_addr(value, a) != 0)
			return bad(where, key, value, "a MAC address xx:xx:xx:xx:xx:xx");
		if (a == &t->local_mac)
			t->local_mac_set = true;
	} else if (!strcmp(key, "dst_port")) {
		if (parse_uint(value, 0xffff, &v) || v == 0)
			return bad(where, key, value, "1..65535");
		t->dst_port = v;
	} else if (!strcmp(key, "src_port_range")) {
		char buf[32], *dash;

		snprintf(buf, sizeof(buf), "%s", value);
		dash = strchr(buf, '-');
		if (dash == NULL)
			return bad(where, key, value, "min-max");
		*dash = '\0';
		if (parse_uint(buf, 0xffff, &lo) || parse_uint(dash + 1, 0xffff, &hi) ||
		    lo == 0 || lo > hi)
			return bad(where, key, value, "min-max within 1..65535");
		t->src_min = lo;
		t->src_max = hi;
	} else if (!strcmp(key, "ttl")) {
		if (parse_uint(value, 255, &v) || v == 0)
			return bad(where, key, value, "1..255");
		t->ttl = v;
	} else if (!strcmp(key, "udp_csum")) {
		if (parse_bool(value, &t->udp_csum))
			return bad(where, key, value, "on or off");
	} else if (!strcmp(key, "udp6_zero_csum_rx")) {
		if (parse_bool(value, &t->udp6_zero_csum_rx))
			return bad(where, key, value, "on or off");
	} else if (!strcmp(key, "gpe_payload")) {
		if (strcmp(value, "ethernet") && strcmp(value, "ip"))
			return bad(where, key, value, "ethernet or ip");
		t->gpe_ip = !strcmp(value, "ip");
	} else if (!strcmp(key, "geneve_opt")) {
		if (parse_geneve_opt(t, value))
			return bad(where, key, value,
				   "class:type:hexdata, data a multiple of 4 bytes");
	} else {
		fprintf(stderr, "hwcsum-tunnel: %s: unknown key '%s'\n", where, key);
		return -EINVAL;
	}
	return 0;
}

static int
missing(const char *where, const char *key)
{
	fprintf(stderr, "hwcsum-tunnel: %s: missing required key '%s'\n", where, key);
	return -EINVAL;
}

/* What a tunnel needs once all its keys are in; t is not in cfg yet. */
int
gw_tunnel_check(const struct gw_config *cfg, const struct gw_tunnel *t,
		const char *where)
{
	static const uint8_t zero[16];
	unsigned int i;

	/* A dst_port alone does not make a type. */
	if (t->type == 0)
		return missing(where, "type");
	if (t->inner_name[0] == '\0')
		return missing(where, "inner_port");
	if (!memcmp(t->local, zero, 16))
		return missing(where, "local");
	if (!memcmp(t->remote, zero, 16))
		return missing(where, "remote");
	if (rte_is_zero_ether_addr(&t->remote_mac))
		return missing(where, "remote_mac");
	if (t->type != UDP_TUNNEL_TYPE_GUE && t->vni == UINT32_MAX)
		return missing(where, "vni");
	if (t->type != UDP_TUNNEL_TYPE_GENEVE && t->opts_len != 0) {
		fprintf(stderr, "hwcsum-tunnel: %s: key 'geneve_opt': only for type geneve\n",
			where);
		return -EINVAL;
	}
	if (t->type != UDP_TUNNEL_TYPE_VXLAN_GPE && t->gpe_ip) {
		fprintf(stderr, "hwcsum-tunnel: %s: key 'gpe_payload': only for type vxlan-gpe\n",
			where);
		return -EINVAL;
	}
	/* RFC 8200: an IPv6 UDP datagram always carries a checksum. */
	if (t->family == AF_INET6 && !t->udp_csum) {
		fprintf(stderr, "hwcsum-tunnel: %s: key 'udp_csum': must be on over IPv6\n",
			where);
		return -EINVAL;
	}
	for (i = 0; i < cfg->nb_tunnels; i++) {
		const struct gw_tunnel *o = &cfg->tunnels[i];

		if (!strcmp(o->name, t->name)) {
			fprintf(stderr, "hwcsum-tunnel: %s: tunnel name '%s' used twice\n",
				where, t->name);
			return -EINVAL;
		}
		/* Decapsulation finds a tunnel by these: they must be unique. */
		if (o->type == t->type && o->family == t->family &&
		    o->dst_port == t->dst_port &&
		    (t->type == UDP_TUNNEL_TYPE_GUE || o->vni == t->vni)) {
			fprintf(stderr, "hwcsum-tunnel: %s: key 'vni': duplicate VNI %u "
				"(%s port %u, already tunnel '%s')\n", where,
				t->vni, gw_type_name(t->type), t->dst_port, o->name);
			return -EINVAL;
		}
		/* Encapsulation finds the tunnel by its inner port. */
		if (!strcmp(o->inner_name, t->inner_name)) {
			fprintf(stderr, "hwcsum-tunnel: %s: key 'inner_port': '%s' "
				"already belongs to tunnel '%s'\n", where,
				t->inner_name, o->name);
			return -EINVAL;
		}
	}
	if (cfg->nb_tunnels == GW_MAX_TUNNELS) {
		fprintf(stderr, "hwcsum-tunnel: %s: more than %u tunnels\n", where,
			GW_MAX_TUNNELS);
		return -ENOSPC;
	}
	return 0;
}

int
gw_global_set(struct gw_config *cfg, const char *key, const char *value,
	      const char *where)
{
	unsigned long v;

	if (!strcmp(key, "underlay")) {
		if (strlen(value) == 0 || strlen(value) >= sizeof(cfg->underlay_name))
			return bad(where, key, value, "an ethdev name");
		strcpy(cfg->underlay_name, value);
	} else if (!strcmp(key, "mbufs")) {
		if (parse_uint(value, 1u << 24, &v) || v < 64)
			return bad(where, key, value, "64..16777216");
		cfg->nb_mbufs = v;
	} else if (!strcmp(key, "stats_interval")) {
		if (parse_uint(value, 3600, &v))
			return bad(where, key, value, "0..3600 seconds");
		cfg->stats_interval = v;
	} else if (!strcmp(key, "duration")) {
		if (parse_uint(value, 1u << 30, &v))
			return bad(where, key, value, "seconds");
		cfg->duration = v;
	} else if (!strcmp(key, "underlay_mtu")) {
		if (parse_uint(value, UINT16_MAX, &v) || v < RTE_ETHER_MIN_MTU)
			return bad(where, key, value, "68..65535 bytes");
		cfg->underlay_mtu_set = v;
	} else if (!strcmp(key, "idle_sleep")) {
		if (parse_uint(value, 100000, &v))
			return bad(where, key, value, "0..100000 microseconds");
		cfg->idle_sleep_us = v;
	} else {
		fprintf(stderr, "hwcsum-tunnel: %s: unknown key '%s'\n", where, key);
		return -EINVAL;
	}
	return 0;
}

void
gw_tunnel_init(struct gw_tunnel *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->vni = UINT32_MAX;
	t->src_min = 32768;	/* Linux's default ip_local_port_range */
	t->src_max = 60999;
	t->ttl = 64;
	t->udp_csum = true;
}

/* --tunnel name=x,type=vxlan,vni=42,...: the keys of an INI section. */
static int
parse_tunnel_arg(struct gw_config *cfg, const char *arg, unsigned int idx)
{
	char buf[1024], where[48], *tok, *save, *eq;
	struct gw_tunnel t;
	char name[16];

	snprintf(where, sizeof(where), "--tunnel #%u", idx);
	if (strlen(arg) >= sizeof(buf)) {
		fprintf(stderr, "hwcsum-tunnel: %s: too long\n", where);
		return -EINVAL;
	}
	strcpy(buf, arg);
	snprintf(name, sizeof(name), "cli%u", idx);
	gw_tunnel_init(&t, name);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (eq == NULL) {
			fprintf(stderr, "hwcsum-tunnel: %s: '%s' is not key=value\n",
				where, tok);
			return -EINVAL;
		}
		*eq = '\0';
		if (!strcmp(tok, "name")) {
			snprintf(t.name, sizeof(t.name), "%s", eq + 1);
			continue;
		}
		if (gw_tunnel_set(&t, tok, eq + 1, where) < 0)
			return -EINVAL;
	}
	if (gw_tunnel_check(cfg, &t, where) < 0)
		return -EINVAL;
	cfg->tunnels[cfg->nb_tunnels++] = t;
	return 0;
}

/* The long name of option opt, for messages. */
static const char *
long_name(const struct option *opts, int opt)
{
	for (; opts->name != NULL; opts++)
		if (opts->val == opt)
			return opts->name;
	return "?";
}

/* The [global] key of a long option: its name with '_' for '-'. */
static void
global_key(const char *option, char *key, size_t size)
{
	char *c;

	snprintf(key, size, "%s", option);
	for (c = key; *c != '\0'; c++)
		if (*c == '-')
			*c = '_';
}

int
gw_parse_args(struct gw_config *cfg, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'f' },
		{ "underlay", required_argument, NULL, 'u' },
		{ "tunnel", required_argument, NULL, 't' },
		{ "mbufs", required_argument, NULL, 'n' },
		{ "stats-interval", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "idle-sleep", required_argument, NULL, 'i' },
		{ "underlay-mtu", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char shortopts[] = "f:u:t:n:s:d:i:m:h";
	unsigned int nb_cli = 0;
	int opt;

	/* The file first, so that options given on the command line win. */
	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == 'h') {
			gw_usage(argv[0]);
			exit(EXIT_SUCCESS);
		}
		if (opt == '?')
			return -EINVAL;
		if (opt == 'f')
			cfg->file = optarg;
	}
	if (optind != argc) {
		fprintf(stderr, "hwcsum-tunnel: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (cfg->file != NULL && gw_config_file_load(cfg, cfg->file) < 0)
		return -EINVAL;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		char where[32], key[32];

		snprintf(where, sizeof(where), "--%s", long_name(longopts, opt));
		switch (opt) {
		case 't':
			if (parse_tunnel_arg(cfg, optarg, ++nb_cli) < 0)
				return -EINVAL;
			break;
		case 'u': case 'n': case 's': case 'd': case 'i': case 'm':
			global_key(where + 2, key, sizeof(key));
			if (gw_global_set(cfg, key, optarg, where) < 0)
				return -EINVAL;
			break;
		default:
			break;
		}
	}
	if (cfg->underlay_name[0] == '\0') {
		fprintf(stderr, "hwcsum-tunnel: no underlay port (--underlay or "
			"'underlay' in [global])\n");
		return -EINVAL;
	}
	if (cfg->nb_tunnels == 0) {
		fprintf(stderr, "hwcsum-tunnel: no tunnel configured (--tunnel or a "
			"[tunnel:NAME] section)\n");
		return -EINVAL;
	}
	return 0;
}

void
gw_usage(const char *prog)
{
	printf(
"NAME\n"
"    hwcsum-tunnel - VXLAN, GENEVE, VXLAN-GPE and GUE gateway over net_hwcsum\n"
"\n"
"SYNOPSIS\n"
"    %s [EAL options] -- [-f FILE] [--underlay PORT] [--tunnel SPEC]...\n"
"        [--mbufs N] [--stats-interval S] [--duration S] [--idle-sleep US]\n"
"        [--underlay-mtu N]\n"
"\n"
"DESCRIPTION\n"
"    Frames received on an inner port are encapsulated in the tunnel of\n"
"    that port and sent on the underlay port; tunnel packets received on\n"
"    the underlay are classified by hwcsum's tunnel registry, their inner\n"
"    checksums verified from the CHECKSUM_COMPLETE sum, decapsulated and\n"
"    sent to the inner port of their VNI. Every port is a net_hwcsum port\n"
"    (--vdev net_hwcsumN,sub=...), named by its ethdev name. The tunnel\n"
"    UDP ports are registered on the underlay port for the run.\n"
"    A frame whose outer packet would exceed the underlay port's MTU is\n"
"    dropped (too_big), and the VM gets ICMP fragmentation needed (IPv4\n"
"    with DF) or ICMPv6 packet too big, as from a bridged Linux vxlan.\n"
"\n"
"OPTIONS\n"
"    -f, --config FILE     INI file (rte_cfgfile): a [global] section and\n"
"                          one [tunnel:NAME] section per tunnel\n"
"    -u, --underlay PORT   the underlay port ([global] underlay)\n"
"    -t, --tunnel SPEC     a tunnel as key=value[,key=value...] with the\n"
"                          keys of a [tunnel:NAME] section (and name=)\n"
"    -n, --mbufs N         mbufs in the pool (default 8192)\n"
"    -s, --stats-interval S  seconds between statistics lines, 0: none\n"
"                          (default 1)\n"
"    -d, --duration S      stop after S seconds (default: at SIGINT/SIGTERM)\n"
"    -i, --idle-sleep US   after 1024 empty polling rounds in a row, sleep\n"
"                          US microseconds between rounds until a packet\n"
"                          comes ([global] idle_sleep; default 0: busy\n"
"                          poll). For shared cores and emulated guests.\n"
"    -m, --underlay-mtu N  set the underlay port's MTU to N at start\n"
"                          ([global] underlay_mtu; default: leave it as\n"
"                          the port has it). Tunnels carry frames up to\n"
"                          the MTU minus their overhead (50 bytes for\n"
"                          VXLAN over IPv4): 1550 for 1500-byte VM frames.\n"
"    -h, --help            this text\n"
"\n"
"TUNNEL KEYS\n"
"    type         vxlan | geneve | vxlan-gpe | gue           (required)\n"
"    vni          0..16777215                  (required, except for gue)\n"
"    inner_port   ethdev name of the inner port               (required)\n"
"    local        local underlay IPv4 or IPv6 address         (required)\n"
"    remote       remote underlay address, same family        (required)\n"
"    remote_mac   next hop MAC on the underlay                (required)\n"
"    local_mac    source MAC (default: the underlay port's)\n"
"    dst_port     UDP port (default %u, %u, %u, %u)\n"
"    src_port_range  min-max of the entropy source port (32768-60999)\n"
"    udp_csum     on | off: outer UDP checksum (default on; must be on\n"
"                 over IPv6). With an inner CHECKSUM_PARTIAL it is LCO.\n"
"    udp6_zero_csum_rx  on | off: accept a zero outer IPv6 UDP checksum\n"
"    ttl          outer TTL / hop limit (default 64)\n"
"    geneve_opt   class:type:hexdata, repeatable (geneve only)\n"
"    gpe_payload  ethernet | ip: what VXLAN-GPE carries (default ethernet;\n"
"                 ip is what Linux's vxlan gpe devices send)\n"
"    inner_dst_mac, inner_src_mac  Ethernet header rebuilt for gue and\n"
"                 for vxlan-gpe with gpe_payload=ip\n"
"\n"
"STATISTICS\n"
"    Once per interval: pps and bit/s per port, encapsulated, decapsulated,\n"
"    checksums in hardware and software, the underlay MTU and the ICMP\n"
"    too-big answers, drops by reason. The same through\n"
"    telemetry: /hwcsum_tunnel/stats. At exit a summary and the mempool\n"
"    in-use count (a leak is an error).\n"
"\n"
"EXIT STATUS\n"
"    0 on a clean run; 1 for bad configuration, a missing port, too few\n"
"    mbufs or another start-up error; 2 when mbufs leaked.\n"
"\n"
"SEE ALSO\n"
"    docs/tunnel.md, rte_pmd_hwcsum.h\n", prog,
	udp_tunnel_type_default_port(UDP_TUNNEL_TYPE_VXLAN),
	udp_tunnel_type_default_port(UDP_TUNNEL_TYPE_GENEVE),
	udp_tunnel_type_default_port(UDP_TUNNEL_TYPE_VXLAN_GPE),
	udp_tunnel_type_default_port(UDP_TUNNEL_TYPE_GUE));
}
