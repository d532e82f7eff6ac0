/* SPDX-License-Identifier: Apache-2.0
** invalid-pod-affinity: a pod (anti-)affinity term without a valid topologyKey, or a preferred
** weight outside 1..100. One finding per problem, at the offending field. */
#include "rule.h"

/** ## What it does
 * Checks `affinity.podAffinity` and `affinity.podAntiAffinity` of a placement unit as the API
 * server's `validatePodAffinityTerm` and `validateWeightedPodAffinityTerms` do:
 * - every required term and every preferred `podAffinityTerm` needs a `topologyKey` ("can not
 *   be empty") that is a valid label key;
 * - a preferred term's `weight` must be from 1 to 100 (a missing weight is 0).
 *
 * ## Why is this bad?
 * The API server rejects the object:
 * `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey:
 * Required value: can not be empty`. The topology key is what gives (anti-)affinity its
 * meaning ("not on the same *node*", "in the same *zone*"); a term without one is usually a
 * `labelSelector` whose `topologyKey` was indented one level too deep. For KServe and Knative
 * resources the error appears only when the controller creates the Deployment or Revision.
 * Source: kubernetes `pkg/apis/core/validation/validation.go` (`validatePodAffinityTerm`,
 * `validateWeightedPodAffinityTerms`).
 *
 * ## Example
 * ```yaml
 * affinity:
 *   podAntiAffinity:
 *     preferredDuringSchedulingIgnoredDuringExecution:
 *       - weight: 0
 *         podAffinityTerm:
 *           labelSelector:
 *             matchLabels:
 *               app: llm-server
 * ```
 * Use instead:
 * ```yaml
 * affinity:
 *   podAntiAffinity:
 *     preferredDuringSchedulingIgnoredDuringExecution:
 *       - weight: 100
 *         podAffinityTerm:
 *           labelSelector:
 *             matchLabels:
 *               app: llm-server
 *           topologyKey: kubernetes.io/hostname
 * ```
 *
 * ## Fix safety
 * No fix: the intended topology (node, zone, region) is not in the manifest.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Assigning Pods to Nodes, "Inter-pod affinity and anti-affinity",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
 * - kubernetes/kubernetes `pkg/apis/core/validation/validation.go`
 */

static void check_term(sl_ctx *ctx, const sl_unit *u, const sl_node *term, const char *path)
{
	if (!term || term->type != SL_NODE_MAP)
		return;
	const sl_node *k = sl_node_deref(sl_map_get(term, "topologyKey"));
	const char *key = k && k->type == SL_NODE_SCALAR && sl_scalar_type(k) != SL_Y_NULL
			  ? k->u.scalar.s : "";
	if (!*key) {
		bool nested = sl_map_get(sl_map_get(term, "labelSelector"), "topologyKey") != NULL;
		sl_report *r = sl_report_rejected(ctx, k ? k : term, sl_ctx_label(ctx, u),
						  sl_arena_printf(sl_ctx_arena(ctx), "%s.topologyKey",
								  path),
						  "Required value: can not be empty");
		if (nested)
			sl_report_note(ctx, r, "The topologyKey written here is indented under "
				       "labelSelector.");
		return;
	}
	char msg[1024];
	if (sl_template_in_value(key, k->u.scalar.len))
		return;
	if (sl_k8s_check_qualified_name(key, k->u.scalar.len, msg, sizeof msg) > 0)
		sl_report_rejected(ctx, k, sl_ctx_label(ctx, u),
				   sl_arena_printf(sl_ctx_arena(ctx), "%s.topologyKey", path),
				   sl_arena_printf(sl_ctx_arena(ctx), "Invalid value: \"%s\": %s", key,
						   msg));
}

static sl_err check_kind(sl_ctx *ctx, const sl_unit *u, const char *kind)
{
	const sl_node *pa = sl_map_get(u->affinity, kind);
	if (!pa || pa->type != SL_NODE_MAP)
		return SL_OK;
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *req = sl_map_get(pa, "requiredDuringSchedulingIgnoredDuringExecution");
	for (size_t i = 0; i < sl_seq_n(req); i++) {
		const char *path = sl_arena_printf(a, "%s.requiredDuringSchedulingIgnoredDuringExecution"
						   "[%zu]", kind, i);
		if (!path)
			return SL_ENOMEM;
		check_term(ctx, u, sl_seq_item(req, i), path);
	}
	const sl_node *pref = sl_map_get(pa, "preferredDuringSchedulingIgnoredDuringExecution");
	for (size_t i = 0; i < sl_seq_n(pref); i++) {
		const sl_node *w = sl_seq_item(pref, i);
		if (!w || w->type != SL_NODE_MAP)
			continue;
		const char *path = sl_arena_printf(a, "%s.preferredDuringSchedulingIgnoredDuringExecution"
						   "[%zu]", kind, i);
		if (!path)
			return SL_ENOMEM;
		const sl_node *wn = sl_map_get(w, "weight");
		long long weight = 0;
		bool missing = !wn || sl_scalar_type(wn) == SL_Y_NULL;
		if (missing || (sl_scalar_int(wn, &weight) && (weight < 1 || weight > 100))) {
			sl_report *r = sl_report_rejected(
				ctx, missing ? w : wn, sl_ctx_label(ctx, u),
				sl_arena_printf(a, "%s.weight", path),
				sl_arena_printf(a, "Invalid value: %lld: must be in the range 1-100",
						weight));
			if (missing)
				sl_report_note(ctx, r, "weight is missing, so it is 0.");
		}
		const sl_node *t = sl_map_get(w, "podAffinityTerm");
		const char *tpath = sl_arena_printf(a, "%s.podAffinityTerm", path);
		if (!tpath)
			return SL_ENOMEM;
		if (t && t->type == SL_NODE_MAP)
			check_term(ctx, u, t, tpath);
		else if (!t || sl_scalar_type(t) == SL_Y_NULL)
			sl_report_note(ctx, sl_report_rejected(ctx, w, sl_ctx_label(ctx, u),
							       sl_arena_printf(a, "%s.topologyKey", tpath),
							       "Required value: can not be empty"),
				       "podAffinityTerm is missing.");
	}
	return SL_OK;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	sl_err err = check_kind(ctx, u, "podAffinity");
	return err ? err : check_kind(ctx, u, "podAntiAffinity");
}

SL_RULE(invalid_pod_affinity, .id = "invalid-pod-affinity", .category = "validity",
	.summary = "A pod (anti-)affinity term without a valid topologyKey, or a weight outside 1..100",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
