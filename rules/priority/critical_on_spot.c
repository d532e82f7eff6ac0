/* SPDX-License-Identifier: Apache-2.0
** critical-on-spot: a unit with critical priority can be placed on spot capacity. One finding
** per spot selection, spot preference and spot toleration. */
#include "rule.h"

/** ## What it does
 * Reports a placement unit whose priority is *critical* and that can be placed on spot (or
 * preemptible) capacity. The priority is critical when the unit's `priorityClassName` is listed
 * in `cluster.critical-priority-classes`, or resolves to a value of at least
 * `cluster.critical-priority` (default 1000000) through the built-in classes
 * (`system-cluster-critical`, `system-node-critical`), the PriorityClasses among the linted files,
 * or `cluster.priority-classes`. A unit without `priorityClassName` gets the class marked
 * `globalDefault: true` among the linted files (the lowest-valued one if several are, as the
 * Priority admission plugin picks), else priority 0.
 *
 * One finding per entry that lets the pods onto spot nodes: a nodeSelector pair or required
 * node-affinity expression (In, Exists, Gt, Lt) that admits a spot label from
 * `cluster.spot-labels`; a preferred node-affinity expression that favours one (In with the spot
 * value, or Exists); a toleration of a spot taint (a taint keyed by a spot label's key: the
 * toleration names that key with `Exists`, or `Equal` with the spot value). A toleration with an
 * empty key tolerates every taint; it is not counted, since its intent is "run anywhere", not
 * "run on spot" (node agents use it).
 *
 * ## Why is this bad?
 * Spot capacity is reclaimed by the provider at short notice (often two minutes or less): every
 * pod on the node is evicted at once, whatever its priority. Priority protects a pod from
 * preemption by the scheduler, not from the node disappearing. A critical serving workload that
 * selects, prefers or tolerates spot nodes loses replicas exactly when the provider reclaims
 * capacity, often several nodes together. Label values are case-sensitive (`SPOT` on EKS, `spot`
 * on Karpenter and AKS), so they are matched exactly.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     priorityClassName: inference-critical   # value 1000000
 *     nodeSelector:
 *       karpenter.sh/capacity-type: spot
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     priorityClassName: inference-critical
 *     nodeSelector:
 *       karpenter.sh/capacity-type: on-demand
 * ```
 *
 * ## Fix safety
 * The catalogue's fix (unsafe: remove the spot toleration or the spot preference) arrives with
 * the fix engine; today the finding has no fix. A required spot selector never gets one: which
 * capacity to use instead is the author's decision.
 *
 * ## Options
 * `cluster.spot-labels` (`key=value` pairs; a spot taint is a taint with one of their keys),
 * `cluster.critical-priority`, `cluster.critical-priority-classes`, `cluster.priority-classes`.
 *
 * ## References
 * - Kubernetes, Pod Priority and Preemption:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
 * - kubernetes plugin/pkg/admission/priority/admission.go, `getDefaultPriorityClass` (the
 *   lowest-valued globalDefault class applies to pods without a class)
 * - Karpenter `karpenter.sh/capacity-type`, EKS `eks.amazonaws.com/capacityType`, GKE
 *   `cloud.google.com/gke-spot`, AKS `kubernetes.azure.com/scalesetpriority`
 *   (https://learn.microsoft.com/azure/aks/spot-node-pool)
 */

/* Describes u's priority when it is critical ("priority class x, value 2000000000 >= ..."), else
** returns NULL. */
static const char *critical_reason(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	const sl_index *ix = sl_ctx_index(ctx);
	sl_arena *a = sl_ctx_arena(ctx);
	const char *name = sl_index_unit_priority_class(ix, u);
	const char *how = name ? "priority class" : "no priorityClassName: globalDefault class";
	long long v = 0;
	bool known = sl_index_unit_priority(ix, u, &v, &name);
	if (!name)
		return NULL;   /* neither a class nor a globalDefault one: priority 0 */
	if (sl_strlist_has(&cfg->cluster.critical_priority_classes, name))
		return sl_arena_printf(a, "%s %s, listed in critical-priority-classes", how, name);
	if (known && v >= cfg->cluster.critical_priority)
		return sl_arena_printf(a, "%s %s, value %lld >= critical-priority %lld", how,
				       name, v, cfg->cluster.critical_priority);
	return NULL;
}

struct scan {
	sl_ctx *ctx;
	const sl_unit *u;
	const char *why;
};

static bool on_selection(const sl_selection *s, void *payload)
{
	struct scan *sc = payload;
	const sl_config *cfg = sl_ctx_config(sc->ctx);
	for (size_t i = 0; i < cfg->cluster.spot_labels.n; i++) {
		const char *v = sl_config_spot_value(cfg, i, s->key);
		if (!v || !sl_selection_allows(s, v))
			continue;
		sl_report_at(sc->ctx, s->at,
			     "%s has critical priority (%s) but its %s admits spot nodes (%s=%s): "
			     "spot capacity is reclaimed at short notice and evicts every pod on the node, "
			     "whatever its priority",
			     sl_ctx_label(sc->ctx, sc->u), sc->why,
			     s->term < 0 ? "nodeSelector" : "required node affinity", s->key, v);
		break;
	}
	return false;
}

/* True when the values sequence holds v. */
static bool values_hold(const sl_node *values, const char *v)
{
	for (size_t i = 0; i < sl_seq_n(values); i++)
		if (sl_scalar_is(sl_seq_item(values, i), v))
			return true;
	return false;
}

static void check_preferred(struct scan *sc)
{
	const sl_config *cfg = sl_ctx_config(sc->ctx);
	const sl_node *na = sl_map_get(sc->u->affinity, "nodeAffinity");
	const sl_node *pref = sl_map_get(na, "preferredDuringSchedulingIgnoredDuringExecution");
	for (size_t t = 0; t < sl_seq_n(pref); t++) {
		const sl_node *exprs = sl_map_get(sl_map_get(sl_seq_item(pref, t), "preference"),
						  "matchExpressions");
		for (size_t e = 0; e < sl_seq_n(exprs); e++) {
			const sl_node *ex = sl_seq_item(exprs, e);
			const char *key = sl_scalar(sl_map_get(ex, "key"));
			const char *op = sl_scalar(sl_map_get(ex, "operator"));
			if (!key || !op)
				continue;
			for (size_t i = 0; i < cfg->cluster.spot_labels.n; i++) {
				const char *v = sl_config_spot_value(cfg, i, key);
				if (!v || !(strcmp(op, "Exists") == 0 ||
					    (strcmp(op, "In") == 0 &&
					     values_hold(sl_map_get(ex, "values"), v))))
					continue;
				sl_report_at(sc->ctx, ex,
					     "%s has critical priority (%s) but its preferred node affinity "
					     "favours spot nodes (%s=%s): the scheduler places it on spot "
					     "capacity whenever it can, where it is evicted at short notice",
					     sl_ctx_label(sc->ctx, sc->u), sc->why, key, v);
				break;
			}
		}
	}
}

static void check_tolerations(struct scan *sc)
{
	const sl_config *cfg = sl_ctx_config(sc->ctx);
	for (size_t t = 0; t < sl_seq_n(sc->u->tolerations); t++) {
		const sl_node *tol = sl_seq_item(sc->u->tolerations, t);
		const char *key = sl_scalar(sl_map_get(tol, "key"));
		const char *op = sl_scalar(sl_map_get(tol, "operator"));
		const char *val = sl_scalar(sl_map_get(tol, "value"));
		if (!key || !*key)
			continue;
		bool exists = op && strcmp(op, "Exists") == 0;
		for (size_t i = 0; i < cfg->cluster.spot_labels.n; i++) {
			const char *v = sl_config_spot_value(cfg, i, key);
			if (!v || !(exists || (val && strcmp(val, v) == 0)))
				continue;
			sl_report_at(sc->ctx, tol,
				     "%s has critical priority (%s) but tolerates the spot taint %s: "
				     "its pods may run on spot capacity, which is reclaimed at short notice",
				     sl_ctx_label(sc->ctx, sc->u), sc->why, key);
			break;
		}
	}
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const char *why = critical_reason(ctx, u);
	if (!why)
		return SL_OK;
	struct scan sc = {ctx, u, why};
	sl_unit_each_selection(u, on_selection, &sc);
	check_preferred(&sc);
	check_tolerations(&sc);
	return SL_OK;
}

SL_RULE(critical_on_spot, .id = "critical-on-spot", .category = "priority",
	.summary = "A unit with critical priority can be placed on spot capacity",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
