/* SPDX-License-Identifier: Apache-2.0
** anti-affinity-exceeds-nodes: required hostname anti-affinity between a unit's own pods, with
** more replicas than the nodes of the pools it can land on; the finding points at the replica
** count, else at the anti-affinity term. */
#include "sdk/rule.h"

#define HOSTNAME "kubernetes.io/hostname"

/** ## What it does
 * Only when node pools are known (docs/placement.md) and the size of every pool the unit can
 * land on is known (config `nodes:` (`4` or `2-10`: the maximum counts), an eksctl node group's
 * `maxSize` / `desiredCapacity`, the node count of a dump; a Karpenter NodePool's size is not
 * known, so a unit that can land on one is not judged), reports a unit with a required
 * `podAntiAffinity` term on `kubernetes.io/hostname` whose label selector matches the unit's own
 * pods, when the replicas it keeps running (`replicas`, `minReplicas`, `min-scale`) exceed the
 * number of those nodes. The unit's pod labels are its template's, plus the ones KServe adds to
 * an InferenceService's pods (`serving.kserve.io/inferenceservice`, `component`) and the ones
 * Seldon's operator gives a Server's pods (`seldon-server-name: <Server name>`,
 * `app.kubernetes.io/name: seldon-server`, the Server's and its ServerConfig's metadata labels:
 * seldon-core `operator/controllers/reconcilers/server/statefulset_reconciler.go`). With several
 * clusters (eksctl ClusterConfigs) and no `cluster.name`, the nodes are counted per cluster and
 * the unit is reported only when its replicas exceed them in every cluster where it lands.
 *
 * ## Why is this bad?
 * One pod per node: the replicas beyond the node count stay Pending with `node(s) didn't match
 * pod anti-affinity rules`, and a rolling update that needs a surge pod cannot proceed.
 *
 * ## Example
 * With one pool of 2 nodes:
 * ```yaml
 * spec:
 *   replicas: 3
 *   template:
 *     metadata:
 *       labels: {app: web}
 *     spec:
 *       affinity:
 *         podAntiAffinity:
 *           requiredDuringSchedulingIgnoredDuringExecution:
 *             - labelSelector: {matchLabels: {app: web}}
 *               topologyKey: kubernetes.io/hostname
 * ```
 * Use instead: `preferredDuringSchedulingIgnoredDuringExecution`, a topology spread constraint
 * with `whenUnsatisfiable: ScheduleAnyway`, or fewer replicas.
 *
 * ## Fix safety
 * No fix: the replica count and the spreading policy are the author's.
 *
 * ## Options
 * `cluster.node-pools` (`nodes:`) and the pool sources.
 *
 * ## References
 * - kubernetes pkg/scheduler/framework/plugins/interpodaffinity/filtering.go
 *   (`node(s) didn't match pod anti-affinity rules`)
 * - Kubernetes, Assigning Pods to Nodes, "Inter-pod affinity and anti-affinity":
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
 */

/* The value of label key on u's pods, or NULL. */
static const char *pod_label(sl_ctx *ctx, const sl_unit *u, const char *key)
{
	const char *v = sl_scalar(sl_map_get(sl_map_get(u->meta, "labels"), key));
	if (!v && u->obj->kind == SL_KIND_SELDON_SERVER) {
		if (strcmp(key, "app.kubernetes.io/name") == 0)
			return "seldon-server";
		if (strcmp(key, "seldon-server-name") == 0)
			return u->obj->name;
		sl_merged m = sl_ctx_merged(ctx, u);   /* the ServerConfig's labels win */
		v = m.base ? sl_scalar(sl_map_get(m.base->obj->labels, key)) : NULL;
		return v ? v : sl_scalar(sl_map_get(u->obj->labels, key));
	}
	if (v || u->obj->kind != SL_KIND_INFERENCE_SERVICE)
		return v;
	if (strcmp(key, "serving.kserve.io/inferenceservice") == 0)
		return u->obj->name;
	if (strcmp(key, "component") == 0 && u->role == SL_ROLE_PREDICTOR)
		return "predictor";
	if (strcmp(key, "component") == 0 && u->role == SL_ROLE_TRANSFORMER)
		return "transformer";
	return NULL;
}

/* LabelSelector.Matches on u's pod labels; a missing selector matches nothing. */
static bool selects_own(sl_ctx *ctx, const sl_unit *u, const sl_node *sel)
{
	const sl_node *ml = sl_map_get(sel, "matchLabels");
	const sl_node *me = sl_map_get(sel, "matchExpressions");
	if (!sel || (sl_map_n(ml) == 0 && sl_seq_n(me) == 0))
		return false;
	for (size_t i = 0; i < sl_map_n(ml); i++) {
		const sl_pair *p = sl_map_pair(ml, i);
		const char *v = sl_scalar(p->key) ? pod_label(ctx, u, sl_scalar(p->key)) : NULL;
		if (!v || !sl_scalar_is(p->value, v))
			return false;
	}
	for (size_t i = 0; i < sl_seq_n(me); i++) {
		const sl_node *e = sl_seq_item(me, i);
		const char *key = sl_scalar(sl_map_get(e, "key"));
		const char *op = sl_scalar(sl_map_get(e, "operator"));
		const char *v = key ? pod_label(ctx, u, key) : NULL;
		if (!op)
			return false;
		bool in = v && sl_seq_has(sl_map_get(e, "values"), v);
		if ((strcmp(op, "In") == 0 && !in) || (strcmp(op, "NotIn") == 0 && in) ||
		    (strcmp(op, "Exists") == 0 && !v) || (strcmp(op, "DoesNotExist") == 0 && v))
			return false;
	}
	return true;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (u->min_replicas < 2)
		return SL_OK;
	const sl_node *terms = sl_map_get(sl_map_get(u->affinity, "podAntiAffinity"),
					  "requiredDuringSchedulingIgnoredDuringExecution");
	const sl_node *term = NULL;
	for (size_t i = 0; i < sl_seq_n(terms) && !term; i++) {
		const sl_node *t = sl_seq_item(terms, i);
		if (sl_scalar_is(sl_map_get(t, "topologyKey"), HOSTNAME) &&
		    selects_own(ctx, u, sl_map_get(t, "labelSelector")))
			term = t;
	}
	if (!term)
		return SL_OK;
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_placement *p = sl_ctx_placement(ctx, u);
	if (!p)
		return SL_OK;
	/* the nodes it can land on, per cluster (one pass over every pool with one cluster) */
	size_t nc;
	const char *const *clusters = sl_pool_set_clusters(sl_index_pool_set(sl_ctx_index(ctx)), &nc);
	long long nodes = 0;
	const char *names = NULL;
	for (size_t c = 0; c < (nc > 1 ? nc : 1); c++) {
		const char *cl = nc > 1 ? clusters[c] : NULL;
		long long in = 0;
		bool lands = false;
		for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);) {
			const sl_pool *pool = it.pool;
			if (!sl_pool_in_cluster(pool, cl))
				continue;
			if (pool->max_nodes < 0)
				return SL_OK;   /* a pool of unknown size */
			lands = true;
			in += pool->max_nodes;
			const char *one = cl && pool->cluster
				? sl_arena_printf(a, "%s/%s: %ld", cl, pool->name, pool->max_nodes)
				: sl_arena_printf(a, "%s: %ld", pool->name, pool->max_nodes);
			if (!names || !strstr(names, one))
				names = sl_arena_list_add(a, names, one);
		}
		if (lands && u->min_replicas <= in)
			return SL_OK;   /* a cluster where they all fit */
		if (in > nodes)
			nodes = in;
	}
	if (!names)
		return SL_OK;
	const sl_node *at = u->replicas && u->replicas->parent ? u->replicas : term;
	sl_report *r = sl_report_at(ctx, at, "%s keeps %lld replicas with required anti-affinity on "
				    HOSTNAME ", but the pools it can land on have %lld node%s",
				    sl_ctx_label(ctx, u), u->min_replicas, nodes, nodes == 1 ? "" : "s");
	sl_report_note(ctx, r, "The pools it can land on, with their largest sizes: %s.", names);
	sl_report_note(ctx, r, "%lld replica%s stay Pending: \"node(s) didn't match pod anti-affinity "
		       "rules\".", u->min_replicas - nodes, u->min_replicas - nodes == 1 ? "" : "s");
	sl_report_note(ctx, r, "Use preferredDuringSchedulingIgnoredDuringExecution or a topology "
		       "spread constraint with whenUnsatisfiable: ScheduleAnyway, or fewer replicas.");
	return SL_OK;
}

SL_RULE(anti_affinity_exceeds_nodes, .id = "anti-affinity-exceeds-nodes", .category = "inventory",
	.summary = "Required hostname anti-affinity with more replicas than the pools' nodes",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET), .modes = 0);
