/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Log sink: one process-wide function so tests can capture messages and
 * a PMD can route them into rte_log.
 */
#include <stdarg.h>
#include <stdio.h>

#include "udp_tunnel_private.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static udp_tunnel_log_fn log_fn;
static void *log_arg;

void
udp_tunnel_set_log(udp_tunnel_log_fn fn, void *arg)
{
	pthread_mutex_lock(&log_lock);
	log_fn = fn;
	log_arg = arg;
	pthread_mutex_unlock(&log_lock);
}

void
ut_log(int level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	pthread_mutex_lock(&log_lock);
	if (log_fn != NULL)
		log_fn(level, msg, log_arg);
	else if (level <= UDP_TUNNEL_LOG_WARNING)
		fprintf(stderr, "udp_tunnel: %s\n", msg);
	pthread_mutex_unlock(&log_lock);
}

const char *
ut_family_name(int family)
{
	switch (family) {
	case AF_INET:
		return "v4";
	case AF_INET6:
		return "v6";
	default:
		return "unknown-family";
	}
}
