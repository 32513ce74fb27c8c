/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Run-time choice of the csum_partial() implementation: once, at load time,
 * from the CPU's flags or from HWCSUM_CSUM_IMPL.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csum_impl.h"

/* Best first: selection takes the first supported one. */
static const struct csum_impl impls[] = {
#ifdef CSUM_HAVE_X86
	{ "avx512", csum_partial_avx512, csum_avx512_supported },
	{ "avx2", csum_partial_avx2, csum_avx2_supported },
#endif
	{ "scalar", csum_partial_scalar, csum_scalar_supported },
};
#define N_IMPLS (sizeof(impls) / sizeof(impls[0]))

/* Scalar until the constructor ran: correct even in a static link. */
static const struct csum_impl *active = &impls[N_IMPLS - 1];

void
csum_log(const char *fmt, ...)
{
	va_list ap;

	fputs("hwcsum csum: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

uint32_t
csum_partial(const void *buf, size_t len, uint32_t sum)
{
	return active->partial(buf, len, sum);
}

const struct csum_impl *
csum_impl_list(unsigned int *count)
{
	*count = N_IMPLS;
	return impls;
}

const struct csum_impl *
csum_impl_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < N_IMPLS; i++)
		if (strcmp(impls[i].name, name) == 0)
			return &impls[i];
	return NULL;
}

const struct csum_impl *
csum_impl_active(void)
{
	return active;
}

int
csum_impl_select(const char *name)
{
	const struct csum_impl *impl;
	unsigned int i;

	if (name == NULL) {
		for (i = 0; i < N_IMPLS; i++)
			if (impls[i].supported()) {
				active = &impls[i];
				return 0;
			}
		return -ENOTSUP; /* unreachable: scalar always runs */
	}
	impl = csum_impl_find(name);
	if (impl == NULL) {
		csum_log("unknown implementation '%s' (known: %s)", name,
#ifdef CSUM_HAVE_X86
			 "avx512, avx2, scalar"
#else
			 "scalar"
#endif
			 );
		return -EINVAL;
	}
	if (!impl->supported()) {
		csum_log("implementation '%s' is not supported by this CPU", name);
		return -ENOTSUP;
	}
	active = impl;
	return 0;
}

static void __attribute__((constructor))
csum_dispatch_init(void)
{
	const char *forced = getenv(CSUM_IMPL_ENV);

	if (forced == NULL || forced[0] == '\0') {
		csum_impl_select(NULL);
		return;
	}
	if (csum_impl_select(forced) < 0) {
		/* A forced path that silently became another one would fake a test. */
		csum_log("%s=%s cannot be honoured; aborting", CSUM_IMPL_ENV, forced);
		abort();
	}
}
