/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef UDP_TUNNEL_H
#define UDP_TUNNEL_H

/*
 * Generic UDP tunnel port registry, modelled on Linux 6.1 udp_tunnel_nic.
 *
 * - Tunnel types: VXLAN, GENEVE, VXLAN-GPE, GUE built in; more can be
 *   registered at run time (name + header parser). A type is one bit.
 * - Users (tunnel endpoints) add and delete (family, port, type); each
 *   distinct triple is one reference on the devices, as one Linux UDP
 *   tunnel socket is.
 * - Devices declare up to 4 tables and get set_port/unset_port or
 *   sync_table callbacks, slot for slot as Linux would issue them.
 * - The data path maps a UDP destination port to a tunnel type without
 *   taking any lock (udp_tunnel_lookup()).
 *
 * See docs/udp_tunnel.md for a worked example.
 *
 * Every function returning int returns 0 or a negative errno and logs why
 * through the log sink (udp_tunnel_set_log()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Tunnel types are single bits; the first three equal Linux UDP_TUNNEL_TYPE_*. */
#define UDP_TUNNEL_TYPE_VXLAN		(1u << 0)
#define UDP_TUNNEL_TYPE_GENEVE		(1u << 1)
#define UDP_TUNNEL_TYPE_VXLAN_GPE	(1u << 2)
#define UDP_TUNNEL_TYPE_GUE		(1u << 3)
/* Types registered at run time take the next free bits up to bit 31. */
#define UDP_TUNNEL_MAX_TYPES		32

#define UDP_TUNNEL_IANA_VXLAN_PORT	4789
#define UDP_TUNNEL_MAX_TABLES		4
#define UDP_TUNNEL_NAME_MAX		32
/* Largest table a device may declare. */
#define UDP_TUNNEL_TABLE_MAX_ENTRIES	64

struct udp_tunnel_registry;
struct udp_tunnel_dev;
struct udp_tunnel_shared;

/* ---------------------------------------------------------------- log */

enum udp_tunnel_log_level {
	UDP_TUNNEL_LOG_ERR = 3,
	UDP_TUNNEL_LOG_WARNING = 4,
	UDP_TUNNEL_LOG_INFO = 6,
	UDP_TUNNEL_LOG_DEBUG = 7,
};

typedef void (*udp_tunnel_log_fn)(int level, const char *msg, void *arg);

/*
 * Replace the process-wide log sink; NULL restores the default (stderr:
 * warnings and errors). The sink runs under library locks: it must not
 * call back into this library.
 */
void udp_tunnel_set_log(udp_tunnel_log_fn fn, void *arg);

/* ----------------------------------------------------------- registry */

/* A registry is one "network namespace": users, devices and types. */
struct udp_tunnel_registry *udp_tunnel_registry_create(void);
/* Fails with -EBUSY while devices are registered; users are dropped. */
int udp_tunnel_registry_destroy(struct udp_tunnel_registry *reg);
/* The process-wide registry shared by every hwcsum port (never freed). */
struct udp_tunnel_registry *udp_tunnel_registry_default(void);
/* Wait until deferred (MAY_SLEEP) syncs and replays have run. */
void udp_tunnel_registry_drain(struct udp_tunnel_registry *reg);

/* -------------------------------------------------------------- types */

/* What a parser found behind the UDP header. */
struct udp_tunnel_parse_result {
	/* Offset of the inner packet from the first byte after the UDP header. */
	uint16_t inner_offset;
	/*
	 * Inner protocol as an Ethertype: 0x6558 (Ethernet, "transparent
	 * Ethernet bridging"), 0x0800 IPv4, 0x86DD IPv6, 0x894F NSH,
	 * 0x8847 MPLS... 0 when only inner_ipproto is known.
	 */
	uint16_t inner_ethertype;
	/* IP protocol number when the tunnel says so (GUE), otherwise 0. */
	uint8_t inner_ipproto;
	/* Virtual network identifier (VXLAN, GENEVE, VXLAN-GPE), else 0. */
	uint32_t vni;
};

#define UDP_TUNNEL_ETH_P_TEB	0x6558
#define UDP_TUNNEL_ETH_P_IPV4	0x0800
#define UDP_TUNNEL_ETH_P_IPV6	0x86DD
#define UDP_TUNNEL_ETH_P_NSH	0x894F
#define UDP_TUNNEL_ETH_P_MPLS	0x8847

/*
 * A header parser: hdr points at the first byte after the UDP header and
 * len bytes are readable. Returns 0 and fills res, or -EBADMSG for a
 * malformed header (truncated, option length past the end, bad version or
 * flags), or -EPROTONOSUPPORT for a well-formed header carrying something
 * that is not a packet we know (unknown next protocol, control message).
 * Parsers must not keep state: they run on the data path, in any thread.
 */
typedef int (*udp_tunnel_parse_fn)(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res);

/*
 * The type functions below take reg NULL for "the built-in types only":
 * a program that has no registry at hand (parsing its configuration, say)
 * names and parses them the same way.
 */

/* Register a new type; *type_out gets its bit. -EEXIST, -ENOSPC, -EINVAL. */
int udp_tunnel_type_register(struct udp_tunnel_registry *reg, const char *name,
		udp_tunnel_parse_fn parse, unsigned int *type_out);
/* Name of a type bit ("vxlan", "geneve", "vxlan-gpe", "gue", ...) or NULL. */
const char *udp_tunnel_type_name(const struct udp_tunnel_registry *reg,
		unsigned int type);
/* Type bit by name, or 0 when unknown. */
unsigned int udp_tunnel_type_by_name(const struct udp_tunnel_registry *reg,
		const char *name);
/* Mask of every registered type. */
unsigned int udp_tunnel_type_mask(const struct udp_tunnel_registry *reg);
/*
 * The well-known UDP port of a built-in type: 4789 VXLAN, 6081 GENEVE,
 * 4790 VXLAN-GPE (IANA); GUE has no IANA port, 6080 is the one used for
 * it here. 0 for any other type (a run-time type has no default).
 */
uint16_t udp_tunnel_type_default_port(unsigned int type);
/* Run the parser of a type (lock-free, data-path safe). */
int udp_tunnel_parse(const struct udp_tunnel_registry *reg, unsigned int type,
		const uint8_t *hdr, size_t len, struct udp_tunnel_parse_result *res);

/*
 * Built-in parsers, also usable without a registry. The built-in type bits
 * always run these (a run-time type takes a new bit), so a data path may
 * call them directly instead of going through udp_tunnel_parse().
 */
int udp_tunnel_parse_vxlan(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res);
int udp_tunnel_parse_geneve(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res);
int udp_tunnel_parse_vxlan_gpe(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res);
int udp_tunnel_parse_gue(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res);

/*
 * udp_tunnel_parse_vxlan() inline, for a receive path that meets VXLAN on
 * nearly every packet (RFC 7348: flags 0x08, everything reserved zero, as
 * Linux enforces). The exported function is this one.
 */
static inline int
udp_tunnel_parse_vxlan_inline(const uint8_t *hdr, size_t len,
		struct udp_tunnel_parse_result *res)
{
	if (len < 8 || hdr[0] != 0x08 || hdr[1] != 0 || hdr[2] != 0 ||
			hdr[3] != 0 || hdr[7] != 0)
		return -EBADMSG;
	res->inner_offset = 8;
	res->inner_ethertype = UDP_TUNNEL_ETH_P_TEB;
	res->inner_ipproto = 0;
	res->vni = (uint32_t)hdr[4] << 16 | (uint32_t)hdr[5] << 8 | hdr[6];
	return 0;
}

/* -------------------------------------------------------------- users */

/*
 * A tunnel endpoint starts (add) or stops (del) using a port. family is
 * AF_INET or AF_INET6; port is in host byte order. Each distinct
 * (family, port, type) holds one reference on every device, like a Linux
 * UDP tunnel socket; further adds of the same triple are only counted.
 * del returns -ENOENT when the triple has no user.
 */
int udp_tunnel_port_add(struct udp_tunnel_registry *reg, int family,
		uint16_t port, unsigned int type);
int udp_tunnel_port_del(struct udp_tunnel_registry *reg, int family,
		uint16_t port, unsigned int type);

/*
 * Data path: the tunnel type of a UDP destination port (host byte order),
 * or 0. Never locks, never waits, safe against concurrent control-path
 * changes from other threads. With users of several types on one port the
 * oldest user's type wins.
 */
unsigned int udp_tunnel_lookup(const struct udp_tunnel_registry *reg,
		uint16_t port);

/*
 * udp_tunnel_lookup() inline, for a receive path that looks up every
 * packet: the registry starts with its port map, one byte per port (type
 * index + 1, 0 for none), which only this reads outside the library.
 */
static inline unsigned int
udp_tunnel_lookup_inline(const struct udp_tunnel_registry *reg, uint16_t port)
{
	uint8_t val = __atomic_load_n((const uint8_t *)reg + port, __ATOMIC_ACQUIRE);

	return val != 0 ? 1u << (val - 1) : 0;
}

/* ------------------------------------------------------------ devices */

/* Flags of struct udp_tunnel_dev_info, same meaning as Linux's. */
enum udp_tunnel_dev_flags {
	/* Callbacks may sleep: syncs run later from the registry's worker. */
	UDP_TUNNEL_DEV_MAY_SLEEP = 1u << 0,
	/* Ports only while the device is up; flushed on down, replayed on up. */
	UDP_TUNNEL_DEV_OPEN_ONLY = 1u << 1,
	/* Only IPv4 users are offloaded. */
	UDP_TUNNEL_DEV_IPV4_ONLY = 1u << 2,
	/* Port 4789 is hard-wired to VXLAN, never in a table, no callbacks. */
	UDP_TUNNEL_DEV_STATIC_IANA_VXLAN = 1u << 3,
};

/* One port as handed to callbacks (zeroed for an empty slot). */
struct udp_tunnel_port_info {
	uint16_t port;		/* host byte order */
	unsigned int type;	/* one type bit */
	int family;		/* AF_INET / AF_INET6 of the user that made it */
	uint8_t hw_priv;	/* set with udp_tunnel_dev_set_port_priv() */
};

struct udp_tunnel_table_info {
	unsigned int n_entries;	/* 0 ends the list of tables */
	unsigned int tunnel_types;	/* mask of type bits this table takes */
};

/*
 * What a device offers, the analogue of Linux struct udp_tunnel_nic_info.
 * Give either set_port and unset_port, or sync_table. Callbacks run with the
 * registry lock held (the RTNL of this library): they may call only
 * udp_tunnel_dev_priv(), udp_tunnel_dev_name(), udp_tunnel_dev_get_port()
 * and udp_tunnel_dev_set_port_priv(). They return 0 or a negative errno; a
 * failed operation is retried on the next change.
 */
struct udp_tunnel_dev_info {
	int (*set_port)(struct udp_tunnel_dev *dev, unsigned int table,
			unsigned int entry, const struct udp_tunnel_port_info *ti);
	int (*unset_port)(struct udp_tunnel_dev *dev, unsigned int table,
			unsigned int entry, const struct udp_tunnel_port_info *ti);
	int (*sync_table)(struct udp_tunnel_dev *dev, unsigned int table);
	/* Devices sharing one set of tables point at the same object. */
	struct udp_tunnel_shared *shared;
	unsigned int flags;	/* enum udp_tunnel_dev_flags */
	struct udp_tunnel_table_info tables[UDP_TUNNEL_MAX_TABLES];
};

struct udp_tunnel_shared *udp_tunnel_shared_create(void);
/* -EBUSY while a device still uses it. */
int udp_tunnel_shared_free(struct udp_tunnel_shared *shared);

/*
 * Register a device (initially down, offload feature on). The info is
 * copied. Unless OPEN_ONLY, every current user is offered to it at once.
 */
int udp_tunnel_dev_register(struct udp_tunnel_registry *reg, const char *name,
		const struct udp_tunnel_dev_info *info, void *priv,
		struct udp_tunnel_dev **dev_out);
/* Take the device down if needed, drop its ports, free it. */
int udp_tunnel_dev_unregister(struct udp_tunnel_dev *dev);
/* Link state; only OPEN_ONLY devices act on it (replay / flush). */
int udp_tunnel_dev_up(struct udp_tunnel_dev *dev);
int udp_tunnel_dev_down(struct udp_tunnel_dev *dev);
/* Linux's rx-udp_tunnel-port-offload feature. */
int udp_tunnel_dev_set_offload(struct udp_tunnel_dev *dev, bool on);
/* The device lost its tables (reset): push everything again, now. */
int udp_tunnel_dev_reset_ntf(struct udp_tunnel_dev *dev);

void *udp_tunnel_dev_priv(const struct udp_tunnel_dev *dev);
const char *udp_tunnel_dev_name(const struct udp_tunnel_dev *dev);
/* From sync_table: what slot (table, idx) should hold; zeroed if empty. */
void udp_tunnel_dev_get_port(const struct udp_tunnel_dev *dev,
		unsigned int table, unsigned int idx,
		struct udp_tunnel_port_info *ti);
/* From set_port: remember a driver byte with the slot. */
void udp_tunnel_dev_set_port_priv(struct udp_tunnel_dev *dev,
		unsigned int table, unsigned int idx, uint8_t priv);

/* ------------------------------------------------------------- queries */

/* One user as udp_tunnel_users_get() reports it. */
struct udp_tunnel_user_info {
	int family;
	uint16_t port;		/* host byte order */
	unsigned int type;	/* one type bit */
	unsigned int refcnt;	/* adds of this triple not yet deleted */
};

/*
 * Copy up to n users, oldest first, into out (out may be NULL when n is
 * 0). Returns how many users there are, which may be more than n, or a
 * negative errno.
 */
int udp_tunnel_users_get(struct udp_tunnel_registry *reg,
		struct udp_tunnel_user_info *out, unsigned int n);

/* One table slot as udp_tunnel_dev_find_port() reports it. */
struct udp_tunnel_slot {
	unsigned int table;
	unsigned int entry;
	uint16_t port;
	unsigned int type;
	int family;
	uint32_t use_cnt;
	bool confirmed;		/* the device said yes (what the dump shows) */
};

/*
 * Does a slot of the device hold port (of type, or of any type when type
 * is 0), confirmed by the device or still queued for it? 1 (and *slot
 * filled if not NULL), 0, or a negative errno.
 */
int udp_tunnel_dev_find_port(struct udp_tunnel_dev *dev, uint16_t port,
		unsigned int type, struct udp_tunnel_slot *slot);

/*
 * Distinct (port, type) of the registry's users that the device would
 * offload (offload on, family and flags allow it) but that no slot of it
 * holds: no table takes the type, the tables were full, or the port is
 * held by another type. A negative errno for a bad device.
 */
int udp_tunnel_dev_not_fitted(struct udp_tunnel_dev *dev);

/* ---------------------------------------------------------------- dump */

/* What `ethtool --show-tunnels` shows for one device. */
struct udp_tunnel_dump_entry {
	uint16_t port;
	unsigned int type;
	/*
	 * Index of the entry in its table (0 in the static table). Entries
	 * are listed without the empty slots; the index shows where the
	 * holes are, as netdevsim's debugfs tables do (ethtool's text does
	 * not print it).
	 */
	unsigned int slot;
};

struct udp_tunnel_dump_table {
	unsigned int size;	/* n_entries (1 for the static IANA table) */
	unsigned int types;	/* accepted type mask (0 for the static table) */
	unsigned int n_entries;	/* entries present in hardware, in slot order */
	struct udp_tunnel_dump_entry entries[UDP_TUNNEL_TABLE_MAX_ENTRIES];
	bool is_static;		/* the STATIC_IANA_VXLAN pseudo-table */
};

struct udp_tunnel_dump {
	char dev_name[UDP_TUNNEL_NAME_MAX];
	unsigned int n_tables;	/* device tables plus the static one */
	struct udp_tunnel_dump_table tables[UDP_TUNNEL_MAX_TABLES + 1];
};

int udp_tunnel_dev_dump(struct udp_tunnel_dev *dev, struct udp_tunnel_dump *out);
/* Print a dump in ethtool's layout. */
void udp_tunnel_dump_print(const struct udp_tunnel_registry *reg,
		const struct udp_tunnel_dump *dump, void *file /* FILE * */);

#ifdef __cplusplus
}
#endif

#endif /* UDP_TUNNEL_H */
