/* SPDX-License-Identifier: Apache-2.0
** selector-conflict: nodeSelector and required node affinity that no node can satisfy together.
** One finding per unit, at the conflicting nodeSelector key or at the required affinity. */
#include "sdk/rule.h"

/** ## What it does
 * Decides whether any node at all could satisfy a unit's `nodeSelector` together with its
 * required node affinity (`requiredDuringSchedulingIgnoredDuringExecution`): the selector pairs
 * AND at least one `nodeSelectorTerm`, the expressions of a term ANDed. It reports the unit when
 * none can, because:
 * - the nodeSelector contradicts every term (`nodeSelector: {zone: a}` with `zone In [b]`,
 *   `k=v` with `k NotIn [v]` or `k DoesNotExist`), or
 * - every term contradicts itself (`k In [a]` with `k In [b]`, `k Exists` with
 *   `k DoesNotExist`, `k Gt 8` with `k Lt 4`, In values all outside a Gt/Lt bound, `k Lt 0`:
 *   label values cannot be negative numbers).
 *
 * Reported once per unit with the explanation of each term: at the nodeSelector key that rules
 * the terms out when the terms are satisfiable on their own, else at
 * `requiredDuringSchedulingIgnoredDuringExecution`. Terms that are empty
 * (`empty-node-selector-term`) or invalid (`invalid-node-affinity`), and nodeSelector entries
 * that are invalid (`invalid-node-selector`), are left to those rules: when they are all that is
 * left, nothing is reported here.
 *
 * ## Why is this bad?
 * The scheduler requires the nodeSelector and one matching term (`RequiredNodeAffinity.Match`,
 * component-helpers `scheduling/corev1/nodeaffinity/nodeaffinity.go`; requirement semantics from
 * apimachinery `pkg/labels/selector.go`). When they contradict, no node of any cluster matches:
 * the pod stays Pending with "node(s) didn't match Pod's node affinity/selector", and cluster
 * autoscalers cannot help because no node template matches either. This usually comes from a
 * merge: a KServe ServingRuntime and an InferenceService, or a base and an overlay, each pinning
 * the same label to a different value.
 *
 * ## Example
 * ```yaml
 * nodeSelector:
 *   karpenter.sh/capacity-type: spot
 * affinity:
 *   nodeAffinity:
 *     requiredDuringSchedulingIgnoredDuringExecution:
 *       nodeSelectorTerms:
 *         - matchExpressions:
 *             - key: karpenter.sh/capacity-type
 *               operator: In
 *               values: [on-demand]
 * ```
 * Use instead (one source of truth):
 * ```yaml
 * affinity:
 *   nodeAffinity:
 *     requiredDuringSchedulingIgnoredDuringExecution:
 *       nodeSelectorTerms:
 *         - matchExpressions:
 *             - key: karpenter.sh/capacity-type
 *               operator: In
 *               values: [on-demand]
 * ```
 *
 * ## Fix safety
 * No fix: which side of the contradiction is intended is not in the manifest.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Assigning Pods to Nodes, "Node affinity" (both nodeSelector and
 *   nodeAffinity must be satisfied),
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
 * - kubernetes/component-helpers `scheduling/corev1/nodeaffinity/nodeaffinity.go`
 */

/* Builds the requirements of list (matchExpressions or matchFields) into *out; false when one
** of them is invalid or never builds (invalid-node-affinity reports it) or memory ran out. */
static bool build_list(sl_ctx *ctx, const sl_node *list, bool fields, const sl_requirement **out,
		       size_t *n_out)
{
	sl_arena *a = sl_ctx_arena(ctx);
	size_t n = sl_seq_n(list);
	sl_requirement *rs = n ? sl_arena_alloc(a, n * sizeof *rs) : NULL;
	if (n && !rs)
		return false;
	for (size_t i = 0; i < n; i++) {
		const sl_node *e = sl_seq_item(list, i);
		if (!e || e->type != SL_NODE_MAP || !sl_selection_requirement(a, e, &rs[i]))
			return false;
		if (sl_template_in_value(rs[i].key.s, rs[i].key.n) || sl_template_in_value(rs[i].op.s, rs[i].op.n))
			return false;
		/* a case-only misspelling ("in") as invalid-node-affinity's safe fix writes it, so
		** that fix never makes a finding of this rule appear */
		const char *fixed = sl_k8s_selector_operator_fix(rs[i].op.s, rs[i].op.n);
		if (fixed && (!fields || strcmp(fixed, "In") == 0 || strcmp(fixed, "NotIn") == 0))
			rs[i].op = (sl_k8s_str){fixed, strlen(fixed)};
		for (size_t j = 0; j < rs[i].n_values; j++)
			if (sl_template_in_value(rs[i].values[j].s, rs[i].values[j].n))
				return false;
		sl_k8s_problem p;
		size_t np = fields ? sl_k8s_field_requirement_validate(&rs[i], &p, 1)
				   : sl_k8s_requirement_validate(&rs[i], true, &p, 1);
		if (np > 0 || !sl_k8s_requirement_builds(&rs[i], fields, NULL, 0))
			return false;
	}
	*out = rs;
	*n_out = n;
	return true;
}

/* The why (the contradiction the core found) and the consequence. */
static void notes(sl_ctx *ctx, sl_report *r, const char *why)
{
	sl_report_note(ctx, r, "Why: %s.", why);
	sl_report_note(ctx, r, "No node matches, so the pod can never schedule: it stays Pending "
		       "(\"didn't match Pod's node affinity/selector\") on any cluster.");
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_node *terms = sl_selection_required_terms(u);
	if (sl_seq_n(terms) == 0)
		return SL_OK;   /* no required affinity; an empty list is invalid-node-affinity */
	sl_arena *a = sl_ctx_arena(ctx);
	/* The valid nodeSelector pairs. */
	size_t ns = sl_map_n(u->node_selector), nsel = 0;
	sl_label *sel = ns ? sl_arena_alloc(a, ns * sizeof *sel) : NULL;
	const sl_node **sel_keys = ns ? sl_arena_alloc(a, ns * sizeof *sel_keys) : NULL;
	if (ns && (!sel || !sel_keys))
		return SL_ENOMEM;
	for (size_t i = 0; i < ns; i++) {
		const sl_pair *p = sl_map_pair(u->node_selector, i);
		sl_label l = {sl_node_str(p->key), sl_node_str(p->value)};
		if (!l.key.n || sl_template_in_value(l.key.s, l.key.n) || sl_template_in_value(l.value.s, l.value.n) ||
		    !sl_k8s_is_qualified_name(l.key.s, l.key.n) ||
		    !sl_k8s_is_label_value(l.value.s, l.value.n))
			continue;
		sel_keys[nsel] = p->key;
		sel[nsel++] = l;
	}
	/* The usable terms: not empty, every requirement valid. The others stay in place as empty
	** terms, which the core skips, so the explanation numbers terms as the manifest does. */
	size_t nt = sl_seq_n(terms), nuse = 0;
	sl_selector_term *ts = sl_arena_zalloc(a, nt * sizeof *ts);
	if (!ts)
		return SL_ENOMEM;
	for (size_t i = 0; i < nt; i++) {
		const sl_node *t = sl_seq_item(terms, i);
		if (!t || t->type != SL_NODE_MAP)
			continue;
		sl_selector_term st = {0};
		if (!build_list(ctx, sl_map_get(t, "matchExpressions"), false, &st.exprs, &st.n_exprs) ||
		    !build_list(ctx, sl_map_get(t, "matchFields"), true, &st.fields, &st.n_fields))
			continue;
		if (st.n_exprs + st.n_fields == 0)
			continue;   /* empty-node-selector-term */
		ts[i] = st;
		nuse++;
	}
	if (nuse == 0)
		return SL_OK;
	sl_node_affinity na = {.selector = sel, .n_selector = nsel, .has_required = true,
			       .terms = ts, .n_terms = nt};
	char why[1024];
	if (sl_k8s_node_affinity_satisfiable(&na, why, sizeof why))
		return SL_OK;
	const char *label = sl_ctx_label(ctx, u);
	const sl_node *req = sl_map_get(sl_map_get(u->affinity, "nodeAffinity"),
					"requiredDuringSchedulingIgnoredDuringExecution");
	sl_node_affinity alone = na;
	alone.selector = NULL;
	alone.n_selector = 0;
	if (!sl_k8s_node_affinity_satisfiable(&alone, NULL, 0)) {
		notes(ctx, sl_report_key(ctx, req, "%s: %s: no node can match", label,
					 nuse == 1 ? "the required node-affinity term contradicts itself"
						   : "every required node-affinity term contradicts "
						     "itself"), why);
		return SL_OK;
	}
	/* The terms hold on their own: the nodeSelector rules them out. Report at the first key
	** that does so by itself, else at the required affinity. */
	const sl_node *key_at = NULL;
	for (size_t i = 0; i < nsel && !key_at; i++) {
		sl_node_affinity one = alone;
		one.selector = &sel[i];
		one.n_selector = 1;
		if (!sl_k8s_node_affinity_satisfiable(&one, NULL, 0))
			key_at = sel_keys[i];
	}
	const char *msg = "nodeSelector and required node affinity can never hold together";
	if (key_at)
		notes(ctx, sl_report_at(ctx, key_at, "%s: %s", label, msg), why);
	else
		notes(ctx, sl_report_key(ctx, req, "%s: %s", label, msg), why);
	return SL_OK;
}

SL_RULE(selector_conflict, .id = "selector-conflict", .category = "placement",
	.summary = "nodeSelector and required node affinity that no node can satisfy",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
