/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_flow ops of net_hwcsum. Rules run in software on receive: every
 * change builds a new classifier (lib/flow's flow_table.c), publishes it with
 * one release store and waits, through DPDK's QSBR RCU, for the RX queues
 * that may still read the old one (queues are online only inside a burst,
 * so the wait is at most one burst and an idle queue never blocks it).
 *
 * A rule with a tunnel item takes one reference on (UDP port, type) in the
 * registry for its lifetime, beside whatever udp_tunnel_port_add holds:
 * the port is offloaded, classified and replayed as any other user's.
 * Rules the sub-port's own rte_flow can take are also offered to it
 * (hwcsum_flow_hw.c). Both are the driver's business: the handle
 * (struct rte_flow, hwcsum_private.h) holds them beside lib/flow's rule,
 * and the classifier is built from the rules alone.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_flow_driver.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "hwcsum_flow.h"
#include "hwcsum_private.h"

int
hwcsum_flow_init(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	size_t sz = rte_rcu_qsbr_get_memsize(RTE_MAX_QUEUES_PER_PORT);

	TAILQ_INIT(&priv->flow_rules);
	pthread_mutex_init(&priv->flow_lock, NULL);
	priv->flow_qsbr = rte_zmalloc_socket("hwcsum_flow_qsbr", sz,
					     RTE_CACHE_LINE_SIZE,
					     dev->device->numa_node);
	if (priv->flow_qsbr == NULL ||
	    rte_rcu_qsbr_init(priv->flow_qsbr, RTE_MAX_QUEUES_PER_PORT) != 0) {
		rte_free(priv->flow_qsbr);
		priv->flow_qsbr = NULL;
		HWCSUM_LOG(ERR, "%s: no memory for the flow RCU", dev->data->name);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Every RX queue of the port looks at the flow state from now on (they
 * skip that look until then, hwcsum_rxq_flow_path()). Stored before the
 * classifier is: a queue that another queue's burst steers to, having
 * seen the classifier, was told to look first. A burst that read false
 * just before is one that started before the rule, as one that read
 * flow_active false always was.
 */
static void
flow_rxq_look_on(struct hwcsum_private *priv)
{
	const struct rte_eth_dev_data *data = rte_eth_devices[priv->port_id].data;
	struct hwcsum_rxq *q;
	uint16_t i;

	for (i = 0; i < data->nb_rx_queues; i++) {
		q = data->rx_queues[i];
		if (q != NULL)
			__atomic_store_n(&q->flow_look, true, __ATOMIC_RELAXED);
	}
}

/*
 * At start, under the rule lock: a queue skips the look while no rule
 * nor isolated mode is published and its steering ring is empty. Only
 * the first rule after that turns it back on (flow_rxq_look_on()), so
 * after a flush the look stays until the next start.
 */
void
hwcsum_flow_rxq_look(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct hwcsum_rxq *q;
	uint16_t i;

	pthread_mutex_lock(&priv->flow_lock);
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		q = dev->data->rx_queues[i];
		if (q != NULL)
			__atomic_store_n(&q->flow_look, priv->flow_active ||
					 (q->steer != NULL && !rte_ring_empty(q->steer)),
					 __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&priv->flow_lock);
}

/* Publish what the rule list now says; free the table it replaces. */
static int
flow_publish(struct hwcsum_private *priv)
{
	struct hwcsum_flow_rule **v = NULL;
	struct hwcsum_flow_table *t = NULL, *old;
	struct rte_flow *f;
	unsigned int n = 0;

	if (priv->n_flow_rules > 0) {
		v = malloc(priv->n_flow_rules * sizeof(*v));
		if (v == NULL)
			return -ENOMEM;
		TAILQ_FOREACH(f, &priv->flow_rules, next)
			v[n++] = &f->rule;
		t = hwcsum_flow_table_build(v, n);
		free(v);
		if (t == NULL)
			return -rte_errno;
	}
	if (t != NULL || priv->flow_isolated)
		flow_rxq_look_on(priv);
	old = priv->flow_table;
	__atomic_store_n(&priv->flow_table, t, __ATOMIC_RELEASE);
	__atomic_store_n(&priv->flow_active, t != NULL || priv->flow_isolated,
			 __ATOMIC_RELEASE);
	rte_rcu_qsbr_synchronize(priv->flow_qsbr, RTE_QSBR_THRID_INVALID);
	hwcsum_qsbr_writer_synced(priv->flow_qsbr);
	hwcsum_flow_table_free(old);
	return 0;
}

static int
flow_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
	      const struct rte_flow_item pattern[],
	      const struct rte_flow_action actions[], struct rte_flow_error *err)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_flow *f = malloc(sizeof(*f));
	int ret;

	if (f == NULL)
		return hwcsum_flow_error(err, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
					 NULL, "no memory");
	ret = hwcsum_flow_parse(dev, attr, pattern, actions, f, err);
	if (ret == 0 && f->tunnel_ref_type != 0) {
		ret = hwcsum_tunnel_ref_check(dev, f->tunnel_ref_type,
					      f->tunnel_ref_port);
		if (ret != 0)
			ret = hwcsum_flow_error(err, -ret, RTE_FLOW_ERROR_TYPE_ITEM, NULL,
				"tunnel item: UDP port %u cannot be a %s port here: %s",
				f->tunnel_ref_port,
				udp_tunnel_type_name(priv->registry, f->tunnel_ref_type),
				rte_strerror(-ret));
	}
	free(f);
	return ret;
}

static struct rte_flow *
flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
	    const struct rte_flow_item pattern[],
	    const struct rte_flow_action actions[], struct rte_flow_error *err)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_flow *f = calloc(1, sizeof(*f));
	int ret;

	if (f == NULL) {
		hwcsum_flow_error(err, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				  "no memory");
		return NULL;
	}
	if (hwcsum_flow_parse(dev, attr, pattern, actions, f, err) != 0) {
		free(f);
		return NULL;
	}
	if (hwcsum_flow_hw_prepare(f, attr, pattern, actions) != 0) {
		hwcsum_flow_error(err, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				  "no memory");
		free(f);
		return NULL;
	}
	pthread_mutex_lock(&priv->flow_lock);
	if (f->tunnel_ref_type != 0) {
		ret = hwcsum_tunnel_ref_get(dev, f->tunnel_ref_type, f->tunnel_ref_port);
		if (ret != 0) {
			hwcsum_flow_error(err, -ret, RTE_FLOW_ERROR_TYPE_ITEM, NULL,
				"tunnel item: UDP port %u type %s not added to the registry: %s",
				f->tunnel_ref_port,
				udp_tunnel_type_name(priv->registry, f->tunnel_ref_type),
				rte_strerror(-ret));
			goto fail;
		}
	}
	f->rule.seq = priv->flow_seq++;
	TAILQ_INSERT_TAIL(&priv->flow_rules, f, next);
	priv->n_flow_rules++;
	ret = flow_publish(priv);
	if (ret != 0) {
		TAILQ_REMOVE(&priv->flow_rules, f, next);
		priv->n_flow_rules--;
		if (f->tunnel_ref_type != 0)
			hwcsum_tunnel_ref_put(dev, f->tunnel_ref_type, f->tunnel_ref_port);
		hwcsum_flow_error(err, -ret, RTE_FLOW_ERROR_TYPE_HANDLE, NULL,
				  ret == -E2BIG ? "too many distinct masks (at most 256)" :
				  "no memory for the classifier");
		goto fail;
	}
	hwcsum_flow_hw_sync(priv);
	pthread_mutex_unlock(&priv->flow_lock);
	return f;
fail:
	pthread_mutex_unlock(&priv->flow_lock);
	hwcsum_flow_hw_release(priv, f);
	free(f);
	return NULL;
}

static bool
flow_owned(const struct hwcsum_private *priv, const struct rte_flow *f)
{
	const struct rte_flow *x;

	TAILQ_FOREACH(x, &priv->flow_rules, next)
		if (x == f)
			return true;
	return false;
}

static int
flow_destroy(struct rte_eth_dev *dev, struct rte_flow *f,
	     struct rte_flow_error *err)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	pthread_mutex_lock(&priv->flow_lock);
	if (f == NULL || !flow_owned(priv, f)) {
		pthread_mutex_unlock(&priv->flow_lock);
		return hwcsum_flow_error(err, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE, f,
					 "no such rule on this port");
	}
	TAILQ_REMOVE(&priv->flow_rules, f, next);
	priv->n_flow_rules--;
	ret = flow_publish(priv);
	if (ret != 0) {
		/* A smaller table could not be built: keep the rule, say so. */
		TAILQ_INSERT_TAIL(&priv->flow_rules, f, next);
		priv->n_flow_rules++;
		pthread_mutex_unlock(&priv->flow_lock);
		return hwcsum_flow_error(err, -ret, RTE_FLOW_ERROR_TYPE_HANDLE, f,
					 "no memory for the classifier; rule kept");
	}
	if (f->tunnel_ref_type != 0)
		hwcsum_tunnel_ref_put(dev, f->tunnel_ref_type, f->tunnel_ref_port);
	hwcsum_flow_hw_release(priv, f);
	hwcsum_flow_hw_sync(priv);	/* a DROP may be safe to offer now */
	pthread_mutex_unlock(&priv->flow_lock);
	free(f);
	return 0;
}

static int
flow_flush_locked(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct hwcsum_flow_list gone;
	struct rte_flow *f;
	int ret;

	/* Unpublish first: no reader may see a rule once it is freed. */
	TAILQ_INIT(&gone);
	TAILQ_CONCAT(&gone, &priv->flow_rules, next);
	priv->n_flow_rules = 0;
	ret = flow_publish(priv);
	while ((f = TAILQ_FIRST(&gone)) != NULL) {
		TAILQ_REMOVE(&gone, f, next);
		if (f->tunnel_ref_type != 0)
			hwcsum_tunnel_ref_put(dev, f->tunnel_ref_type, f->tunnel_ref_port);
		hwcsum_flow_hw_release(priv, f);
		free(f);
	}
	return ret;
}

static int
flow_flush(struct rte_eth_dev *dev, struct rte_flow_error *err)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	pthread_mutex_lock(&priv->flow_lock);
	ret = flow_flush_locked(dev);
	pthread_mutex_unlock(&priv->flow_lock);
	if (ret != 0)
		return hwcsum_flow_error(err, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
					 NULL, "flushing: %s", rte_strerror(-ret));
	return 0;
}

static int
flow_query(struct rte_eth_dev *dev, struct rte_flow *f,
	   const struct rte_flow_action *action, void *data,
	   struct rte_flow_error *err)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	struct rte_flow_query_count *qc = data;
	struct hwcsum_flow_rule *r;
	int ret = 0;

	pthread_mutex_lock(&priv->flow_lock);
	if (f == NULL || !flow_owned(priv, f))
		ret = hwcsum_flow_error(err, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE, f,
					"no such rule on this port");
	else if (action == NULL || action->type != RTE_FLOW_ACTION_TYPE_COUNT)
		ret = hwcsum_flow_error(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
					"only COUNT can be queried");
	else if (!f->rule.count)
		ret = hwcsum_flow_error(err, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, action,
					"the rule has no COUNT action");
	else if (qc == NULL)
		ret = hwcsum_flow_error(err, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					"no place for the counts");
	if (ret == 0) {
		r = &f->rule;
		/* Exchange, so no hit between the read and the reset is lost. */
		if (qc->reset) {
			qc->hits = __atomic_exchange_n(&r->hits, 0, __ATOMIC_RELAXED);
			qc->bytes = __atomic_exchange_n(&r->bytes, 0, __ATOMIC_RELAXED);
		} else {
			qc->hits = __atomic_load_n(&r->hits, __ATOMIC_RELAXED);
			qc->bytes = __atomic_load_n(&r->bytes, __ATOMIC_RELAXED);
		}
		qc->hits_set = 1;
		qc->bytes_set = 1;
	}
	pthread_mutex_unlock(&priv->flow_lock);
	return ret;
}

static int
flow_isolate(struct rte_eth_dev *dev, int set, struct rte_flow_error *err)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	int ret;

	if (dev->data->dev_started)
		return hwcsum_flow_error(err, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
					 NULL, "stop the port before changing isolated mode");
	pthread_mutex_lock(&priv->flow_lock);
	priv->flow_isolated = set != 0;
	ret = flow_publish(priv);
	pthread_mutex_unlock(&priv->flow_lock);
	if (ret != 0)
		return hwcsum_flow_error(err, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
					 NULL, "%s", rte_strerror(-ret));
	return 0;
}

static const struct rte_flow_ops hwcsum_flow_ops = {
	.validate = flow_validate,
	.create = flow_create,
	.destroy = flow_destroy,
	.flush = flow_flush,
	.query = flow_query,
	.isolate = flow_isolate,
};

int
hwcsum_flow_ops_get(struct rte_eth_dev *dev __rte_unused,
		    const struct rte_flow_ops **ops)
{
	*ops = &hwcsum_flow_ops;
	return 0;
}

void
hwcsum_flow_uninit(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	if (priv->flow_qsbr == NULL)
		return;
	pthread_mutex_lock(&priv->flow_lock);
	priv->flow_isolated = false;
	flow_flush_locked(dev);
	pthread_mutex_unlock(&priv->flow_lock);
	rte_free(priv->flow_qsbr);
	priv->flow_qsbr = NULL;
}

unsigned int
hwcsum_flow_n_masks(const struct hwcsum_private *priv)
{
	return hwcsum_flow_table_n_masks(
		__atomic_load_n(&priv->flow_table, __ATOMIC_ACQUIRE));
}
