/* SPDX-License-Identifier: Apache-2.0
** critical-on-spot: a unit with critical priority can be placed on spot capacity. One finding
** per spot selection, spot preference and spot toleration. */
#include "sdk/rule.h"

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
 * The unit is judged as its pods get it: an InferenceService predictor merged over its
 * runtime, a Seldon Server over its ServerConfig (whose priorityClassName it inherits). An entry
 * that comes from the template is reported at the unit (its own field of that name, else its pod
 * spec), naming the template, without a fix; a template used by a unit among the files is not
 * judged itself.
 *
 * One finding per entry that lets the pods onto spot nodes: a nodeSelector pair or required
 * node-affinity expression (In, Exists, Gt, Lt) that admits a spot label from
 * `cluster.spot-labels`; a preferred node-affinity expression that favours one (In with the spot
 * value, or Exists); a toleration of a spot taint (a taint keyed by a spot label's key: the
 * toleration names that key with `Exists`, or `Equal` with the spot value). A toleration with an
 * empty key tolerates every taint; it is not counted, since its intent is "run anywhere", not
 * "run on spot" (node agents use it).
 *
 * Where node pools are known (docs/placement.md), the rule also reports a critical unit that
 * selects, prefers and tolerates nothing spot but can land on a spot-only pool because that pool
 * is untainted: the scheduler will put its pods there whenever that pool has room. The message
 * names the pools. A DaemonSet runs on every node it matches, so its pods on spot nodes are by
 * design.
 *
 * A critical unit that can land only on spot pools (or pools that may be spot) is
 * `spot-only-critical`'s alone: this rule stays quiet on it, its spot selection and tolerations
 * included (one finding for one cause).
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
 * Unsafe (the pods lose access to spot capacity, which may leave them Pending where only spot
 * nodes have room). A spot toleration: the fix removes the toleration entry, or the whole
 * `tolerations:` field when every toleration in it is a spot one. A spot preference: the fix
 * removes the preferred term (weight and preference) when every expression of it favours spot
 * and it has no `matchFields`, else only the spot expression; a
 * `preferredDuringSchedulingIgnoredDuringExecution` list, `nodeAffinity` or `affinity` that would
 * be left empty is removed whole (so findings that share it share one edit). A required spot
 * selector (nodeSelector or required node affinity) never gets a fix: which capacity to use
 * instead is the author's decision. Declined (no fix) when an entry on the way is an alias or
 * anchored (the edit would change other objects) or does not start its own line, for an entry
 * that comes from a template, and when removing the whole `tolerations:` of an InferenceService
 * predictor would hand it its runtime's tolerations instead (KServe replaces the runtime's list
 * only with a non-empty one). Removing a toleration or a preference adds no field, so it cannot
 * make a Knative flag finding or any other.
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
/* Maintainers: issue 30 widened the last sentence of spec/cluster.md §4, which made the
** exception only for the untainted-spot-pool finding. */

/* Describes u's priority when it is critical ("priority class x, value 2000000000 >= ..."), else
** returns NULL. */
static const char *critical_reason(sl_ctx *ctx, const sl_unit *u, const char **cls)
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
	*cls = name;
	if (sl_config_list_has(sl_config_critical_priority_classes(cfg), name))
		return sl_arena_printf(a, "%s %s, listed in critical-priority-classes", how, name);
	long long critical = sl_config_critical_priority(cfg);
	if (known && v >= critical)
		return sl_arena_printf(a, "%s %s, value %lld >= critical-priority %lld", how,
				       name, v, critical);
	return NULL;
}

struct scan {
	sl_ctx *ctx;
	const sl_unit *u;
	const char *why;
	sl_merged m;
	const char *cls;   /* the priority class */    /* the unit merged over its template */
	bool reported;     /* a finding was made (notes() ran) */
};

/* The notes every finding gets: why its priority is critical, why spot is a risk for it. */
static void notes(struct scan *sc, sl_report *r)
{
	sc->reported = true;
	sl_report_note(sc->ctx, r, "Its priority is critical: %s.", sc->why);
	sl_report_note(sc->ctx, r,
		       "Spot capacity is reclaimed by the provider at short notice and every pod on "
		       "the node is evicted at once, whatever its priority: priority protects against "
		       "preemption, not against the node going away.");
}

static bool on_selection(const sl_selection *s, void *payload)
{
	struct scan *sc = payload;
	const sl_config *cfg = sl_ctx_config(sc->ctx);
	for (size_t i = 0; i < sl_config_spot_labels(cfg)->n; i++) {
		const char *v = sl_config_spot_value(cfg, i, s->key);
		if (!v || !sl_selection_allows(s, v))
			continue;
		sl_report *r = sl_report_at(sc->ctx, s->at,
					    "%s is critical (%s) but its %s admits spot nodes (%s=%s)",
					    sl_ctx_label(sc->ctx, sc->u), sc->cls,
					    s->term < 0 ? "nodeSelector" : "required node affinity",
					    s->key, v);
		notes(sc, r);
		sl_report_note(sc->ctx, r, "Which capacity to use instead is the author's decision: "
			       "select on-demand nodes, or drop the spot requirement.");
		break;
	}
	return false;
}

/* The spot value preferred expression ex favours (In with it, or Exists on a spot key), or
** NULL. */
static const char *spot_preference(const sl_config *cfg, const sl_node *ex)
{
	const char *key = sl_scalar(sl_map_get(ex, "key"));
	const char *op = sl_scalar(sl_map_get(ex, "operator"));
	if (!key || !op)
		return NULL;
	for (size_t i = 0; i < sl_config_spot_labels(cfg)->n; i++) {
		const char *v = sl_config_spot_value(cfg, i, key);
		/* a case-only misspelling as invalid-node-affinity's safe fix writes it */
		if (v && (strcasecmp(op, "Exists") == 0 ||
			  (strcasecmp(op, "In") == 0 && sl_seq_has(sl_map_get(ex, "values"), v))))
			return v;
	}
	return NULL;
}

/* True when toleration tol tolerates a spot taint. */
static bool spot_toleration(const sl_config *cfg, const sl_node *tol)
{
	const char *key = sl_scalar(sl_map_get(tol, "key"));
	const char *op = sl_scalar(sl_map_get(tol, "operator"));
	const char *val = sl_scalar(sl_map_get(tol, "value"));
	if (!key || !*key)
		return false;
	/* a case-only misspelling as invalid-toleration's safe fix writes it */
	bool exists = op && strcasecmp(op, "Exists") == 0;
	for (size_t i = 0; i < sl_config_spot_labels(cfg)->n; i++) {
		const char *v = sl_config_spot_value(cfg, i, key);
		if (v && (exists || (val && strcmp(val, v) == 0)))
			return true;
	}
	return false;
}

/* --- the fix: remove the entry, or the smallest enclosing field that would be left empty --- */

/* True when n is the own child of collection parent (no alias, no merge key, no anchor). */
static bool own_child(const sl_node *parent, const sl_node *n)
{
	if (!parent || !n || n->parent != parent || sl_node_anchor(n) || sl_node_anchor(parent))
		return false;
	if (parent->type == SL_NODE_MAP)
		return n->pos < parent->u.map.n && parent->u.map.pairs[n->pos].value == n;
	return parent->type == SL_NODE_SEQ && n->pos < parent->u.seq.n &&
	       parent->u.seq.items[n->pos] == n;
}

/* True when every expression of preferred term `term` favours spot and it has no matchFields. */
static bool term_all_spot(const sl_config *cfg, const sl_node *term)
{
	const sl_node *pref = sl_map_get(term, "preference");
	const sl_node *exprs = sl_map_get(pref, "matchExpressions");
	if (sl_seq_n(sl_map_get(pref, "matchFields")) > 0 || sl_seq_n(exprs) == 0)
		return false;
	for (size_t i = 0; i < sl_seq_n(exprs); i++)
		if (!spot_preference(cfg, sl_seq_item(exprs, i)))
			return false;
	return true;
}

/* True when every entry of map m but the one whose value is keep would already go, i.e. m has
** exactly one entry, keep. */
static bool only_entry(const sl_node *m, const sl_node *keep)
{
	return m && m->type == SL_NODE_MAP && sl_map_n(m) == 1 && sl_map_pair(m, 0)->value == keep;
}

/* The node to remove for preferred expression ex: the expression, its term, or the first
** enclosing field the removals would leave empty; NULL when an entry on the way is not the
** unit's own. */
static const sl_node *preference_target(const sl_config *cfg, const sl_unit *u, const sl_node *ex)
{
	const sl_node *pod = sl_node_deref(u->pod), *aff = u->affinity;
	const sl_node *na = sl_map_get(aff, "nodeAffinity");
	const sl_node *pref = sl_map_get(na, "preferredDuringSchedulingIgnoredDuringExecution");
	const sl_node *exprs = ex ? ex->parent : NULL;
	const sl_node *match = exprs ? exprs->parent : NULL;
	const sl_node *term = match ? match->parent : NULL;
	if (!own_child(pod, aff) || !own_child(aff, na) || !own_child(na, pref) ||
	    !own_child(pref, term) || !own_child(term, match) || !own_child(match, exprs) ||
	    !own_child(exprs, ex))
		return NULL;
	if (!term_all_spot(cfg, term))
		return ex;
	for (size_t t = 0; t < sl_seq_n(pref); t++)
		if (!term_all_spot(cfg, sl_seq_item(pref, t)))
			return term;
	if (!only_entry(na, pref))
		return pref;
	return only_entry(aff, na) ? aff : na;
}

/* The node to remove for spot toleration tol: it, or the whole list when it is all spot. */
static const sl_node *toleration_target(const sl_config *cfg, const sl_unit *u, const sl_node *tol)
{
	const sl_node *tols = u->tolerations;
	if (!own_child(sl_node_deref(u->pod), tols) || !own_child(tols, tol))
		return NULL;
	for (size_t i = 0; i < sl_seq_n(tols); i++)
		if (!spot_toleration(cfg, sl_seq_item(tols, i)))
			return tol;
	return tols;
}

static void add_fix(sl_ctx *ctx, sl_report *r, const sl_node *target, const char *what)
{
	if (r && target && sl_fix_remove(ctx, r, target))
		sl_fix_describe(ctx, r, SL_FIX_UNSAFE, "remove %s", what);
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
			const char *v = spot_preference(cfg, ex);
			if (!v)
				continue;
			const char *key = sl_scalar(sl_map_get(ex, "key"));
			sl_report *r = sl_report_at(sc->ctx, ex,
				     "%s is critical (%s) but its preferred node affinity "
				     "favours spot nodes (%s=%s)", sl_ctx_label(sc->ctx, sc->u), sc->cls,
				     key, v);
			notes(sc, r);
			sl_report_note(sc->ctx, r, "The scheduler places the pods on spot capacity "
				       "whenever it can.");
			const sl_node *target = r ? preference_target(cfg, sc->u, ex) : NULL;
			add_fix(sc->ctx, r, target,
				target == ex ? "the spot expression of the preferred term"
					     : "the preferred spot node affinity");
		}
	}
}

static void check_tolerations(struct scan *sc)
{
	const sl_config *cfg = sl_ctx_config(sc->ctx);
	for (size_t t = 0; t < sl_seq_n(sc->u->tolerations); t++) {
		const sl_node *tol = sl_seq_item(sc->u->tolerations, t);
		if (!spot_toleration(cfg, tol))
			continue;
		const char *key = sl_scalar(sl_map_get(tol, "key"));
		sl_report *r = sl_report_at(sc->ctx, tol,
			     "%s is critical (%s) but tolerates the spot taint %s",
			     sl_ctx_label(sc->ctx, sc->u), sc->cls, key);
		notes(sc, r);
		const sl_node *target = r ? toleration_target(cfg, sc->u, tol) : NULL;
		/* KServe: without a list of its own the unit gets its runtime's (atomic lists) */
		if (target == sc->u->tolerations && sc->m.base && !sc->m.append &&
		    sl_seq_n(sc->m.base->tolerations) > 0)
			target = NULL;
		add_fix(sc->ctx, r, target,
			target == tol ? "the spot toleration" : "the tolerations (all of spot taints)");
	}
}

/* Where a finding about the template's entry goes: the unit's own field of that name, else the
** key of its pod spec, else its spec. */
static const sl_node *template_anchor(const sl_unit *u, const sl_node *own)
{
	if (own && own->parent)
		return own;
	if (u->pod && u->pod->parent)
		return u->pod;
	return u->obj->spec && u->obj->spec->parent ? u->obj->spec : NULL;
}

/* Entries the unit gets from its template (runtime, ServerConfig) that admit spot: reported at
** the unit, naming the template; no fix (the entry is in another object). */
static void check_template(struct scan *sc)
{
	const sl_merged *m = &sc->m;
	if (!m->base)
		return;
	const sl_config *cfg = sl_ctx_config(sc->ctx);
	const char *label = sl_ctx_label(sc->ctx, sc->u);
	/* "its ServerConfig mlserver", "its runtime triton" */
	const sl_object *bo = m->base->obj;
	const char *tl = sl_arena_printf(sl_ctx_arena(sc->ctx), "its %s %s",
					 bo->kind == SL_KIND_SELDON_SERVER_CONFIG ? "ServerConfig"
					 : bo->kind == SL_KIND_LLM_INFERENCE_SERVICE_CONFIG ? "config"
					 : "runtime", bo->name ? bo->name : "(unnamed)");
	sl_pairs ps = sl_merged_node_selector(m);
	for (const sl_pair *p; (p = sl_merge_pairs_next(&ps));) {
		const char *key = sl_scalar(p->key);
		for (size_t i = 0; key && ps.from_base && i < sl_config_spot_labels(cfg)->n; i++) {
			const char *v = sl_config_spot_value(cfg, i, key);
			const sl_node *at = template_anchor(sc->u, sc->u->node_selector);
			if (!v || !sl_scalar_is(p->value, v) || !at)
				continue;
			notes(sc, sl_report_key(sc->ctx, at,
						"%s is critical but the nodeSelector of %s selects "
						"spot nodes (%s=%s)", label, tl, key, v));
			break;
		}
	}
	sl_items pref = sl_merged_affinity_list(
		m, "nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution");
	for (const sl_node *t; (t = sl_merge_items_next(&pref));) {
		const sl_node *exprs = sl_map_get(sl_map_get(t, "preference"), "matchExpressions");
		for (size_t e = 0; pref.from_base && e < sl_seq_n(exprs); e++) {
			const char *v = spot_preference(cfg, sl_seq_item(exprs, e));
			const sl_node *at = template_anchor(sc->u, sc->u->affinity);
			if (!v || !at)
				continue;
			notes(sc, sl_report_key(sc->ctx, at,
						"%s is critical but the preferred node affinity of %s "
						"favours spot nodes (%s=%s)", label, tl,
						sl_scalar(sl_map_get(sl_seq_item(exprs, e), "key")), v));
		}
	}
	sl_items tols = sl_merged_tolerations(m);
	for (const sl_node *t; (t = sl_merge_items_next(&tols));) {
		const sl_node *at = template_anchor(sc->u, sc->u->tolerations);
		if (!tols.from_base || !spot_toleration(cfg, t) || !at)
			continue;
		notes(sc, sl_report_key(sc->ctx, at,
					"%s is critical but tolerates the spot taint %s (from %s)",
					label, sl_scalar(sl_map_get(t, "key")), tl));
	}
}

/* With node pools known: a unit that asks for no spot capacity but lands on an untainted spot
** pool (nothing keeps it off), reported at its key, naming the pools. Only spot-only pools
** (spot-only-critical judges a unit whose every pool is spot). */
static sl_err check_pools(struct scan *sc)
{
	sl_ctx *ctx = sc->ctx;
	sl_arena *a = sl_ctx_arena(ctx);
	if (sc->u->obj->kind == SL_KIND_DAEMONSET)
		return SL_OK;   /* it runs on every node it matches, spot ones included by design */
	const sl_placement *p = sl_ctx_placement(ctx, sc->u);
	if (!p)
		return SL_OK;
	const char *names = NULL, *wheres = NULL;
	bool on_demand = false;   /* else every pool it lands on is spot: spot-only-critical's */
	for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);)
		on_demand |= it.pool->spot == SL_TRI_NO;
	size_t found = 0;
	for (sl_placement_iter it = sl_placement_pools(p, true); on_demand && sl_placement_next(&it);) {
		if (it.pool->spot != SL_TRI_YES || it.pool->n_taints > 0 || it.fit->unsure)
			continue;
		names = sl_arena_list_add(a, names, it.pool->name);
		wheres = sl_arena_list_add(a, wheres, sl_arena_printf(a, "%s (%s)", it.pool->name,
								      it.pool->where));
		found++;
	}
	const sl_node *at = sc->u->pod && sc->u->pod->parent ? sc->u->pod : NULL;
	if (!names || !at)
		return SL_OK;
	sl_report *r = sl_report_key(ctx, at, "%s is critical (%s) and nothing keeps it off the "
				     "untainted spot pool%s %s", sl_ctx_label(ctx, sc->u), sc->cls,
				     found > 1 ? "s" : "", names);
	sl_report_note(ctx, r, "The untainted spot pool%s: %s.", found > 1 ? "s" : "", wheres);
	notes(sc, r);
	sl_report_note(ctx, r, "Taint the spot pool (its spot label as a NoSchedule taint, as AKS "
		       "does) or select on-demand nodes.");
	return SL_OK;
}

/* True when pools are known and every pool u can land on is spot or may be: spot-only-critical
** reports u, alone. */
static bool spot_only(sl_ctx *ctx, const sl_unit *u)
{
	const sl_placement *p = u->obj->kind == SL_KIND_DAEMONSET ? NULL : sl_ctx_placement(ctx, u);
	bool lands = false;
	for (sl_placement_iter it = sl_placement_pools(p, true); p && sl_placement_next(&it);) {
		if (it.pool->spot == SL_TRI_NO)
			return false;
		lands |= !it.fit->unsure;
	}
	return lands;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (sl_ctx_unit_is_used_template(ctx, u))
		return SL_OK;   /* judged on the units that use it */
	const char *cls = NULL;
	const char *why = critical_reason(ctx, u, &cls);
	if (!why || spot_only(ctx, u))
		return SL_OK;
	struct scan sc = {ctx, u, why, sl_ctx_merged(ctx, u), cls, false};
	sl_selection_each(u, on_selection, &sc);
	check_preferred(&sc);
	check_tolerations(&sc);
	check_template(&sc);
	if (!sc.reported)
		return check_pools(&sc);
	return SL_OK;
}

SL_RULE(critical_on_spot, .id = "critical-on-spot", .category = "priority",
	.summary = "A unit with critical priority can be placed on spot capacity",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_UNSAFE, .check_unit = check);
