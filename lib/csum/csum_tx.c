/* SPDX-License-Identifier: BSD-3-Clause */
/* The reference csum_tx_apply() stands for: the csum_mbuf.h calls, in order. */
#include <errno.h>

#include "csum_mbuf.h"
#include "csum_tx.h"

int
csum_tx_apply_ref(struct rte_mbuf *m, const struct csum_tx_work *w)
{
	uint32_t ops = w->ops;
	int ret;

	if (ops & CSUM_TX_SEED_L4) {
		if (w->csum_offset != (w->l4_proto == IPPROTO_UDP ?
				       CSUM_UDP_OFFSET : CSUM_TCP_OFFSET))
			return -EINVAL;
		ret = csum_mbuf_seed_l4(m, w->l3, w->csum_start, w->l4_proto);
		if (ret < 0)
			return ret;
	}
	if (ops & CSUM_TX_SEED_OUTER) {
		ret = csum_mbuf_seed_l4(m, w->outer_l3, w->outer_l4, 17);
		if (ret < 0)
			return ret;
	}
	if ((ops & CSUM_TX_IP) && csum_mbuf_ipv4_hdr_expected(m, w->l3, w->l3_len) < 0)
		return -EINVAL;
	if ((ops & CSUM_TX_OUTER_IP) &&
	    csum_mbuf_ipv4_hdr_expected(m, w->outer_l3, w->outer_l3_len) < 0)
		return -EINVAL;
	if (ops & CSUM_TX_IP) {
		ret = csum_mbuf_ipv4_hdr_fill(m, w->l3);
		if (ret < 0)
			return ret;
	}
	if (ops & CSUM_TX_OUTER_IP) {
		ret = csum_mbuf_ipv4_hdr_fill(m, w->outer_l3);
		if (ret < 0)
			return ret;
	}
	if (ops & CSUM_TX_OUTER_LCO)
		ret = csum_mbuf_lco(m, w->outer_l4, CSUM_UDP_OFFSET, w->csum_start,
				    w->csum_offset);
	else if (ops & CSUM_TX_OUTER_SUM)
		ret = csum_mbuf_apply_partial(m, w->outer_l4, CSUM_UDP_OFFSET);
	else
		ret = 0;
	if (ret < 0)
		return ret;
	if (ops & CSUM_TX_L4)
		return csum_mbuf_apply_partial(m, w->csum_start, w->csum_offset);
	return 0;
}
