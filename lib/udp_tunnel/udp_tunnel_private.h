/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef UDP_TUNNEL_PRIVATE_H
#define UDP_TUNNEL_PRIVATE_H

#include <pthread.h>
#include <stdatomic.h>

#include "udp_tunnel.h"

#define UT_PORTS 65536

/* Per-slot state flags, the same life cycle as Linux's table entries. */
enum ut_entry_flags {
	UT_ENTRY_ADD = 1u << 0,		/* must be pushed to the device */
	UT_ENTRY_DEL = 1u << 1,		/* must be removed from the device */
	UT_ENTRY_OP_FAIL = 1u << 2,	/* last operation failed: retry */
	UT_ENTRY_FROZEN = 1u << 3,	/* replay in progress: don't count */
};

struct ut_entry {
	uint16_t port;
	uint8_t flags;
	uint8_t hw_priv;
	unsigned int type;
	int family;		/* family of the user that created the slot */
	uint32_t use_cnt;
};

/* Table state of one device, or of every device sharing it. */
struct ut_nic {
	struct udp_tunnel_dev_info info;
	struct udp_tunnel_dev *dev;	/* device used for callbacks */
	unsigned int n_tables;
	unsigned int missed;		/* bitmap of tables that overflowed */
	bool need_sync;
	bool need_replay;
	bool work_queued;
	struct ut_nic *work_next;
	struct ut_entry entries[UDP_TUNNEL_MAX_TABLES][UDP_TUNNEL_TABLE_MAX_ENTRIES];
};

struct udp_tunnel_shared {
	struct ut_nic *nic;
	struct udp_tunnel_dev *devices;	/* in order of registration */
};

struct udp_tunnel_dev {
	struct udp_tunnel_registry *reg;
	char name[UDP_TUNNEL_NAME_MAX];
	void *priv;
	bool running;
	bool offload;
	struct ut_nic *nic;
	struct udp_tunnel_shared *shared;
	struct udp_tunnel_dev *next;		/* registry list */
	struct udp_tunnel_dev *shared_next;	/* shared->devices list */
};

/* One distinct (family, port, type): a Linux UDP tunnel socket. */
struct ut_user {
	int family;
	uint16_t port;
	unsigned int type;
	unsigned int refcnt;
	uint64_t seq;		/* creation order, for Linux's push order */
	struct ut_user *next;	/* oldest first */
};

struct ut_type {
	char name[UDP_TUNNEL_NAME_MAX];
	udp_tunnel_parse_fn parse;
};

struct udp_tunnel_registry {
	/*
	 * Data path: port -> type index + 1 (0 = no tunnel). One byte per
	 * port, written only under the lock, read without it. First, so that
	 * udp_tunnel_lookup_inline() (udp_tunnel.h) finds it at the
	 * registry's address.
	 */
	_Atomic uint8_t port_map[UT_PORTS];

	/* The control-path lock: every change and every callback under it. */
	pthread_mutex_t lock;

	/* Types are append-only: readers see a slot only after n_types. */
	struct ut_type types[UDP_TUNNEL_MAX_TYPES];
	atomic_uint n_types;

	struct ut_user *users;
	uint64_t user_seq;
	struct udp_tunnel_dev *devs;

	/* Deferred work (MAY_SLEEP syncs, replays), run by one worker. */
	pthread_t worker;
	pthread_cond_t work_cond;	/* work queued or stop */
	pthread_cond_t idle_cond;	/* queue became empty */
	struct ut_nic *work_head;
	struct ut_nic *work_tail;
	bool worker_stop;

};

/* log */
void ut_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *ut_family_name(int family);

/* types */
void ut_types_init(struct udp_tunnel_registry *reg);
int ut_type_index(unsigned int type);
const char *ut_type_name_safe(const struct udp_tunnel_registry *reg,
		unsigned int type);

/* users + data-path map */
void ut_users_free(struct udp_tunnel_registry *reg);
void ut_users_push(struct udp_tunnel_dev *dev, bool add);

/* tables (the Linux udp_tunnel_nic state machine), lock held */
void ut_nic_add_port(struct udp_tunnel_dev *dev,
		const struct udp_tunnel_port_info *ti);
void ut_nic_del_port(struct udp_tunnel_dev *dev,
		const struct udp_tunnel_port_info *ti);
void ut_nic_flush(struct udp_tunnel_dev *dev, struct ut_nic *nic);
void ut_nic_reset_ntf(struct udp_tunnel_dev *dev);
void ut_nic_run_work(struct ut_nic *nic);
bool ut_nic_entry_is_present(const struct ut_entry *e);

/* deferred work, lock held */
void ut_work_queue(struct udp_tunnel_registry *reg, struct ut_nic *nic);
void ut_work_cancel(struct udp_tunnel_registry *reg, struct ut_nic *nic);
int ut_worker_start(struct udp_tunnel_registry *reg);
void ut_worker_stop(struct udp_tunnel_registry *reg);

#endif
