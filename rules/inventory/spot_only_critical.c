/* SPDX-License-Identifier: Apache-2.0
** spot-only-critical: a critical unit can land only on spot (or may-be-spot) node pools; the
** finding points at its priorityClassName, else at the unit. */
#include "sdk/rule.h"

/** ## What it does
 * Only when node pools are known (docs/placement.md), reports a unit whose priority is
 * critical (as `critical-on-spot` decides: its PriorityClass, or the globalDefault one, is listed
 * in `cluster.critical-priority-classes` or has a value of at least `cluster.critical-priority`)
 * when every pool it can land on runs on spot capacity, or may: a Karpenter NodePool whose
 * `karpenter.sh/capacity-type` allows `spot` (alone: spot; with `on-demand`: may be spot; not
 * restricted: on-demand, Karpenter's default), an eksctl node group with `spot: true` or an
 * `instancesDistribution` without on-demand capacity, a config pool with `spot: true` or a spot
 * label (`cluster.spot-labels`), nodes with a spot label.
 *
 * A unit that lands on no pool is `no-matching-node-pool`'s. DaemonSets are not judged: they run
 * on every node they match, whatever its capacity type. The unit gets this finding alone:
 * `critical-on-spot` stays quiet on it (one finding for one cause). With several clusters
 * (eksctl ClusterConfigs) and no `cluster.name`, it is reported only when it can land only on
 * spot pools in every cluster where it lands (a pool of no cluster counts in each);
 * `cluster.name` picks one cluster.
 *
 * ## Why is this bad?
 * Spot capacity is reclaimed at short notice, often many nodes at once; priority protects
 * against preemption, not against the node going away. A critical inference service with no
 * on-demand pool to run on loses all its replicas together.
 *
 * ## Example
 * With one pool, a Karpenter NodePool allowing only `spot`:
 * ```yaml
 * spec:
 *   predictor:
 *     priorityClassName: inference-critical   # value 1000000
 * ```
 * Use instead: add an on-demand pool the unit can land on (or allow `on-demand` in the
 * NodePool's `karpenter.sh/capacity-type`).
 *
 * ## Fix safety
 * No fix: the capacity to add is a cluster decision.
 *
 * ## Options
 * `cluster.critical-priority`, `cluster.critical-priority-classes`, `cluster.priority-classes`,
 * `cluster.spot-labels`, `cluster.name`, and the pool sources.
 *
 * ## References
 * - Karpenter, NodePools, `karpenter.sh/capacity-type`: https://karpenter.sh/docs/concepts/nodepools/
 * - eksctl, Spot instances: https://eksctl.io/usage/spot-instances/
 * - Kubernetes, Pod Priority and Preemption:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
 */

/* The unit's priority class when it is critical, else NULL; *why says why. */
static const char *critical(sl_ctx *ctx, const sl_unit *u, const char **why)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	const char *name = NULL;
	long long v = 0;
	bool known = sl_index_unit_priority(sl_ctx_index(ctx), u, &v, &name);
	if (!name)
		return NULL;
	if (sl_config_list_has(sl_config_critical_priority_classes(cfg), name)) {
		*why = "listed in critical-priority-classes";
		return name;
	}
	if (!known || v < sl_config_critical_priority(cfg))
		return NULL;
	*why = sl_arena_printf(sl_ctx_arena(ctx), "value %lld >= critical-priority %lld", v,
			       sl_config_critical_priority(cfg));
	return name;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const char *why = NULL;
	const char *cls = critical(ctx, u, &why);
	if (!cls)
		return SL_OK;
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_placement *p = sl_ctx_placement(ctx, u);
	if (!p)
		return SL_OK;
	const char *names = NULL;
	size_t lands = 0;
	for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);) {
		if (it.pool->spot == SL_TRI_NO)
			return SL_OK;   /* an on-demand pool takes it */
		if (it.fit->unsure)
			continue;   /* a placeholder taint or toleration: it may not land there */
		lands++;
		const char *spot = it.pool->spot == SL_TRI_YES ? "spot" : "may be spot";
		const char *one = sl_arena_printf(a, "%s (%s)", it.pool->name, spot);
		names = sl_arena_list_add(a, names, one);
	}
	if (!lands)
		return SL_OK;
	const sl_node *at = u->priority_class_name && u->priority_class_name->parent
		? u->priority_class_name : NULL;
	sl_report *r = at
		? sl_report_at(ctx, at, "%s has critical priority (%s) but can land only on spot "
			       "pools: %s", sl_ctx_label(ctx, u), cls, names)
		: sl_report_key(ctx, u->pod && u->pod->parent ? u->pod : u->obj->root,
				"%s has critical priority (%s) but can land only on spot pools: %s",
				sl_ctx_label(ctx, u), cls, names);
	sl_report_note(ctx, r, "Its priority is critical: %s %s.", cls, why);
	for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);)
		sl_report_note(ctx, r, "%s: %s.", it.pool->name, it.pool->where);
	sl_report_note(ctx, r, "Spot capacity is reclaimed at short notice, many nodes at once: "
		       "give the unit an on-demand pool to land on.");
	return SL_OK;
}

SL_RULE(spot_only_critical, .id = "spot-only-critical", .category = "inventory",
	.summary = "A unit with critical priority can land only on spot node pools",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET), .modes = 0);
