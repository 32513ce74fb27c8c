/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Registry life cycle and the deferred-work thread. The worker plays the
 * role of Linux's udp_tunnel_nic workqueue: it runs syncs for MAY_SLEEP
 * devices and every replay after a slot has been freed.
 */
#include <errno.h>
#include <stdlib.h>

#include "udp_tunnel_private.h"

struct udp_tunnel_registry *
udp_tunnel_registry_create(void)
{
	struct udp_tunnel_registry *reg;

	reg = calloc(1, sizeof(*reg));
	if (reg == NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR, "registry create: out of memory");
		return NULL;
	}
	pthread_mutex_init(&reg->lock, NULL);
	pthread_cond_init(&reg->work_cond, NULL);
	pthread_cond_init(&reg->idle_cond, NULL);
	ut_types_init(reg);
	if (ut_worker_start(reg) != 0) {
		pthread_cond_destroy(&reg->idle_cond);
		pthread_cond_destroy(&reg->work_cond);
		pthread_mutex_destroy(&reg->lock);
		free(reg);
		return NULL;
	}
	return reg;
}

int
udp_tunnel_registry_destroy(struct udp_tunnel_registry *reg)
{
	if (reg == NULL)
		return -EINVAL;
	pthread_mutex_lock(&reg->lock);
	if (reg->devs != NULL) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"registry destroy: device %s is still registered",
			reg->devs->name);
		pthread_mutex_unlock(&reg->lock);
		return -EBUSY;
	}
	pthread_mutex_unlock(&reg->lock);
	ut_worker_stop(reg);
	ut_users_free(reg);
	pthread_cond_destroy(&reg->idle_cond);
	pthread_cond_destroy(&reg->work_cond);
	pthread_mutex_destroy(&reg->lock);
	free(reg);
	return 0;
}

static struct udp_tunnel_registry *default_reg;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void
default_init(void)
{
	default_reg = udp_tunnel_registry_create();
}

struct udp_tunnel_registry *
udp_tunnel_registry_default(void)
{
	pthread_once(&default_once, default_init);
	return default_reg;
}

/* ------------------------------------------------------- deferred work */

void
ut_work_queue(struct udp_tunnel_registry *reg, struct ut_nic *nic)
{
	if (nic->work_queued)
		return;
	nic->work_queued = true;
	nic->work_next = NULL;
	if (reg->work_tail != NULL)
		reg->work_tail->work_next = nic;
	else
		reg->work_head = nic;
	reg->work_tail = nic;
	pthread_cond_signal(&reg->work_cond);
}

void
ut_work_cancel(struct udp_tunnel_registry *reg, struct ut_nic *nic)
{
	struct ut_nic **pp, *prev = NULL;

	if (!nic->work_queued)
		return;
	for (pp = &reg->work_head; *pp != NULL; pp = &(*pp)->work_next) {
		if (*pp == nic) {
			*pp = nic->work_next;
			if (reg->work_tail == nic)
				reg->work_tail = prev;
			break;
		}
		prev = *pp;
	}
	nic->work_queued = false;
	if (reg->work_head == NULL)
		pthread_cond_broadcast(&reg->idle_cond);
}

static void *
worker_main(void *arg)
{
	struct udp_tunnel_registry *reg = arg;
	struct ut_nic *nic;

	pthread_mutex_lock(&reg->lock);
	while (!reg->worker_stop) {
		nic = reg->work_head;
		if (nic == NULL) {
			pthread_cond_broadcast(&reg->idle_cond);
			pthread_cond_wait(&reg->work_cond, &reg->lock);
			continue;
		}
		reg->work_head = nic->work_next;
		if (reg->work_head == NULL)
			reg->work_tail = NULL;
		nic->work_queued = false;
		/* May queue this nic again (replay of a MAY_SLEEP device). */
		ut_nic_run_work(nic);
	}
	pthread_mutex_unlock(&reg->lock);
	return NULL;
}

int
ut_worker_start(struct udp_tunnel_registry *reg)
{
	int rc;

	rc = pthread_create(&reg->worker, NULL, worker_main, reg);
	if (rc != 0) {
		ut_log(UDP_TUNNEL_LOG_ERR,
			"registry create: cannot start the sync worker: %d", -rc);
		return -rc;
	}
	return 0;
}

void
ut_worker_stop(struct udp_tunnel_registry *reg)
{
	pthread_mutex_lock(&reg->lock);
	reg->worker_stop = true;
	pthread_cond_signal(&reg->work_cond);
	pthread_mutex_unlock(&reg->lock);
	pthread_join(reg->worker, NULL);
}

void
udp_tunnel_registry_drain(struct udp_tunnel_registry *reg)
{
	pthread_mutex_lock(&reg->lock);
	while (reg->work_head != NULL)
		pthread_cond_wait(&reg->idle_cond, &reg->lock);
	pthread_mutex_unlock(&reg->lock);
}
