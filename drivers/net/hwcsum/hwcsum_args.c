/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Devargs: net_hwcsumN,sub=<ethdev name>
 *
 * The sub-port is any ethdev already probed, named as rte_eth_dev_get_port_by_name
 * knows it (net_ring0, net_af_packet0, 0000:00:04.0, ...). List it before
 * net_hwcsum on the EAL command line: the vdev bus probes in that order.
 */
#include <errno.h>
#include <string.h>

#include <rte_kvargs.h>

#include "hwcsum_private.h"

#define HWCSUM_ARG_SUB "sub"

static const char * const hwcsum_valid_keys[] = {
	HWCSUM_ARG_SUB,
	NULL,
};

static int
hwcsum_key_is_valid(const char *key)
{
	unsigned int i;

	for (i = 0; hwcsum_valid_keys[i] != NULL; i++)
		if (strcmp(key, hwcsum_valid_keys[i]) == 0)
			return 1;
	return 0;
}

int
hwcsum_args_parse(const char *dev_name, const char *params,
		  struct hwcsum_args *args)
{
	struct rte_kvargs *kvlist;
	const char *sub = NULL;
	unsigned int i;
	int ret = 0;

	memset(args, 0, sizeof(*args));
	if (params == NULL || params[0] == '\0') {
		HWCSUM_LOG(ERR, "%s: missing devarg '%s=<port name>' (e.g. --vdev %s,sub=net_ring0)",
			   dev_name, HWCSUM_ARG_SUB, dev_name);
		return -EINVAL;
	}
	/* Parse without a key list so an unknown key can be named below. */
	kvlist = rte_kvargs_parse(params, NULL);
	if (kvlist == NULL) {
		HWCSUM_LOG(ERR, "%s: cannot parse devargs '%s' (expected key=value[,key=value])",
			   dev_name, params);
		return -EINVAL;
	}
	for (i = 0; i < kvlist->count; i++) {
		const struct rte_kvargs_pair *kv = &kvlist->pairs[i];

		if (!hwcsum_key_is_valid(kv->key)) {
			HWCSUM_LOG(ERR, "%s: unknown devarg '%s' (valid: %s)",
				   dev_name, kv->key, HWCSUM_ARG_SUB);
			ret = -EINVAL;
			goto out;
		}
		if (strcmp(kv->key, HWCSUM_ARG_SUB) == 0) {
			if (sub != NULL) {
				HWCSUM_LOG(ERR, "%s: devarg '%s' given twice ('%s' and '%s'); a hwcsum port has exactly one sub-port",
					   dev_name, HWCSUM_ARG_SUB, sub, kv->value);
				ret = -EINVAL;
				goto out;
			}
			sub = kv->value;
		}
	}
	if (sub == NULL || sub[0] == '\0') {
		HWCSUM_LOG(ERR, "%s: missing devarg '%s=<port name>'",
			   dev_name, HWCSUM_ARG_SUB);
		ret = -EINVAL;
		goto out;
	}
	if (strlen(sub) >= sizeof(args->sub_name)) {
		HWCSUM_LOG(ERR, "%s: sub-port name '%s' longer than %zu characters",
			   dev_name, sub, sizeof(args->sub_name) - 1);
		ret = -ENAMETOOLONG;
		goto out;
	}
	strcpy(args->sub_name, sub);
out:
	rte_kvargs_free(kvlist);
	return ret;
}
