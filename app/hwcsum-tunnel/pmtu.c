/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Path MTU: what each tunnel carries within the underlay port's MTU.
 * RFC 7348 4.3: a VTEP does not fragment, so a frame beyond it is dropped.
 */

#include <stdio.h>

#include "tunnel.h"

void
gw_pmtu_refresh(struct gw_config *cfg)
{
	unsigned int i;
	uint16_t mtu;

	if (rte_eth_dev_get_mtu(cfg->underlay_port, &mtu) != 0 ||
	    mtu == cfg->underlay_mtu)
		return;
	cfg->underlay_mtu = mtu;
	for (i = 0; i < cfg->nb_tunnels; i++) {
		struct gw_tunnel *t = &cfg->tunnels[i];
		uint32_t overhead = t->hdr_len - t->l3_off;

		/* Workers read it once per burst, without a lock. */
		__atomic_store_n(&t->max_payload, mtu > overhead ? mtu - overhead : 0,
				 __ATOMIC_RELAXED);
	}
	printf("hwcsum-tunnel: underlay MTU %u\n", mtu);
	fflush(stdout);
}
