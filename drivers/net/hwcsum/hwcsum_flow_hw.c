/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rules offered to the sub-port's own rte_flow ("hardware"). The software
 * classifier keeps every rule and still runs on every packet, so a rule in
 * the sub-port only moves work there; which rules may go is decided so
 * that this never changes what a packet gets:
 *  - QUEUE rules (nothing but a queue, on ETH/VLAN/IP/UDP/TCP items) always:
 *    the packet arrives on its queue instead of being steered there, and
 *    software still decides, so a better rule still wins;
 *  - DROP rules (nothing but DROP) only while every other rule has a worse
 *    priority: then no rule could have given the packet anything else.
 * Nothing with MARK, FLAG, COUNT, RSS or PASSTHRU, nor any tunnel item (the
 * sub-port does not know the registry's tunnels). The set is recomputed on
 * every change, under flow_lock, after the new classifier is published.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_flow.h>

#include "hwcsum_flow.h"
#include "hwcsum_private.h"

static bool
items_offerable(const struct rte_flow_item *it)
{
	for (; it->type != RTE_FLOW_ITEM_TYPE_END; it++)
		switch (it->type) {
		case RTE_FLOW_ITEM_TYPE_ETH:
		case RTE_FLOW_ITEM_TYPE_VLAN:
		case RTE_FLOW_ITEM_TYPE_IPV4:
		case RTE_FLOW_ITEM_TYPE_IPV6:
		case RTE_FLOW_ITEM_TYPE_UDP:
		case RTE_FLOW_ITEM_TYPE_TCP:
		case RTE_FLOW_ITEM_TYPE_VOID:
			break;
		default:
			return false;
		}
	return true;
}

/* QUEUE or DROP alone (VOIDs aside). */
static bool
actions_offerable(const struct rte_flow_action *a)
{
	unsigned int fates = 0;

	for (; a->type != RTE_FLOW_ACTION_TYPE_END; a++)
		switch (a->type) {
		case RTE_FLOW_ACTION_TYPE_QUEUE:
		case RTE_FLOW_ACTION_TYPE_DROP:
			fates++;
			break;
		case RTE_FLOW_ACTION_TYPE_VOID:
			break;
		default:
			return false;
		}
	return fates == 1;
}

int
hwcsum_flow_hw_prepare(struct rte_flow *f,
		       const struct rte_flow_attr *attr,
		       const struct rte_flow_item pattern[],
		       const struct rte_flow_action actions[])
{
	const struct rte_flow_conv_rule src = {
		.attr_ro = attr, .pattern_ro = pattern, .actions_ro = actions,
	};
	int len;

	f->hw_copy = NULL;
	f->hw_flow = NULL;
	f->hw_refused = false;
	if (!items_offerable(pattern) || !actions_offerable(actions))
		return 0;
	/* A deep copy: the application's arrays are gone after create. */
	len = rte_flow_conv(RTE_FLOW_CONV_OP_RULE, NULL, 0, &src, NULL);
	if (len <= 0)
		return 0;
	f->hw_copy = malloc(len);
	if (f->hw_copy == NULL)
		return -ENOMEM;
	if (rte_flow_conv(RTE_FLOW_CONV_OP_RULE, f->hw_copy, len, &src, NULL) != len) {
		free(f->hw_copy);
		f->hw_copy = NULL;
	}
	return 0;
}

/* The priority no DROP rule may reach to go to the sub-port. */
static uint32_t
best_priority_of_others(const struct hwcsum_private *priv)
{
	const struct rte_flow *f;
	uint32_t best = UINT32_MAX;

	TAILQ_FOREACH(f, &priv->flow_rules, next)
		if ((f->hw_copy == NULL || f->rule.fate != HWCSUM_FLOW_FATE_DROP) &&
		    f->rule.priority < best)
			best = f->rule.priority;
	return best;
}

static void
withdraw(struct hwcsum_private *priv, struct rte_flow *f)
{
	struct rte_flow_error e = { 0 };

	if (f->hw_flow == NULL)
		return;
	if (!priv->sub_closed &&
	    rte_flow_destroy(priv->sub_port, f->hw_flow, &e) != 0)
		HWCSUM_LOG(WARNING, "sub-port %u: destroying rule seq %" PRIu64 ": %s",
			   priv->sub_port, f->rule.seq, e.message ? e.message : "?");
	f->hw_flow = NULL;
	priv->n_flow_hw--;
}

static void
offer(struct hwcsum_private *priv, struct rte_flow *f)
{
	const struct rte_flow_conv_rule *c = f->hw_copy;
	struct rte_flow_error e = { 0 };

	if (priv->sub_closed)
		return;
	f->hw_flow = rte_flow_create(priv->sub_port, c->attr, c->pattern,
				     c->actions, &e);
	if (f->hw_flow == NULL) {
		/* Not offered again: the sub-port's answer will not change. */
		f->hw_refused = true;
		priv->n_flow_hw_refused++;
		HWCSUM_LOG(DEBUG, "sub-port %u keeps rule seq %" PRIu64 " in software: %s",
			   priv->sub_port, f->rule.seq, e.message ? e.message : "no rte_flow");
		return;
	}
	priv->n_flow_hw++;
}

void
hwcsum_flow_hw_sync(struct hwcsum_private *priv)
{
	uint32_t others = best_priority_of_others(priv);
	struct rte_flow *f;

	/* Withdraw first: a DROP that is no longer safe goes before anything. */
	TAILQ_FOREACH(f, &priv->flow_rules, next)
		if (f->hw_flow != NULL && f->rule.fate == HWCSUM_FLOW_FATE_DROP &&
		    f->rule.priority >= others)
			withdraw(priv, f);
	TAILQ_FOREACH(f, &priv->flow_rules, next) {
		bool want = f->hw_copy != NULL && !f->hw_refused &&
			(f->rule.fate == HWCSUM_FLOW_FATE_QUEUE ||
			 f->rule.priority < others);

		if (want && f->hw_flow == NULL)
			offer(priv, f);
	}
}

void
hwcsum_flow_hw_release(struct hwcsum_private *priv, struct rte_flow *f)
{
	withdraw(priv, f);
	free(f->hw_copy);
	f->hw_copy = NULL;
}
