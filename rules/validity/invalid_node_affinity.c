/* SPDX-License-Identifier: Apache-2.0
** invalid-node-affinity: node affinity the API server rejects, or that the scheduler cannot parse.
** One finding per problem, at the offending key, operator, value or weight. */
#include "sdk/rule.h"

/** ## What it does
 * Validates `affinity.nodeAffinity` of a placement unit as the API server does
 * (`ValidateNodeSelector`, `ValidateNodeSelectorRequirement`,
 * `validateNodeFieldSelectorRequirement`, `ValidatePreferredSchedulingTerms`) and reports:
 * - an operator that is not `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt` or `Lt`;
 * - `In`/`NotIn` without values, `Exists`/`DoesNotExist` with values, `Gt`/`Lt` without exactly
 *   one value;
 * - a key that is not a qualified name, and (required terms only) a value that is not a label
 *   value;
 * - `requiredDuringSchedulingIgnoredDuringExecution` with no `nodeSelectorTerms`;
 * - a `matchFields` key other than `metadata.name`, an operator other than `In`/`NotIn`, or not
 *   exactly one value (which must be a node name);
 * - a preferred term's `weight` outside 1..100 (a missing weight is 0);
 * - a `Gt`/`Lt` value that is not an integer. The API server accepts it, but the scheduler fails
 *   to parse the requirement (`labels.NewRequirement`: "for 'Gt', 'Lt' operators, the value must
 *   be an integer"): a required term holding it never matches a node, and a preferred one makes
 *   the NodeAffinity plugin's PreScore return an error, failing every scheduling attempt.
 *
 * Each problem is reported at the field at fault (the operator, the key, the values item, the
 * weight); a required value that is missing is reported at the operator that requires it.
 * Empty terms are `empty-node-selector-term`; terms that contradict each other are
 * `selector-conflict`.
 *
 * ## Why is this bad?
 * The API server rejects the object (`spec.affinity.nodeAffinity.requiredDuringScheduling...
 * .matchExpressions[0].operator: Invalid value: "in": not a valid selector operator`); for a
 * KServe or Knative resource the controller's Deployment or Revision is rejected instead, and
 * the service never becomes ready. Sources: kubernetes `pkg/apis/core/validation/validation.go`;
 * apimachinery `pkg/labels/selector.go` `NewRequirement`; component-helpers
 * `scheduling/corev1/nodeaffinity/nodeaffinity.go`; kubernetes
 * `pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go` `PreScore`.
 *
 * ## Example
 * ```yaml
 * affinity:
 *   nodeAffinity:
 *     requiredDuringSchedulingIgnoredDuringExecution:
 *       nodeSelectorTerms:
 *         - matchExpressions:
 *             - key: nvidia.com/gpu.memory
 *               operator: gt
 *               values: ["40Gi"]
 * ```
 * Use instead:
 * ```yaml
 * affinity:
 *   nodeAffinity:
 *     requiredDuringSchedulingIgnoredDuringExecution:
 *       nodeSelectorTerms:
 *         - matchExpressions:
 *             - key: nvidia.com/gpu.memory
 *               operator: Gt
 *               values: ["40000"]
 * ```
 *
 * ## Fix safety
 * Safe for an operator that differs from a valid one only in letter case (`in` → `In`,
 * `notin` → `NotIn`): the object is rejected as written and the corrected operator is the only
 * one the author can have meant. Other problems have no fix.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Assigning Pods to Nodes, "Node affinity",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#node-affinity
 * - kubernetes/kubernetes `pkg/apis/core/validation/validation.go`, `ValidateNodeSelector`
 */

/* True when the requirement holds a template placeholder anywhere. */
static bool req_templated(const sl_requirement *r)
{
	if (sl_template_in_value(r->key.s, r->key.n) || sl_template_in_value(r->op.s, r->op.n))
		return true;
	for (size_t i = 0; i < r->n_values; i++)
		if (sl_template_in_value(r->values[i].s, r->values[i].n))
			return true;
	return false;
}

/* The node a problem is about; the closest present one when that field is absent. */
static const sl_node *problem_node(const sl_node *e, const sl_k8s_problem *p)
{
	const sl_node *n = NULL;
	switch (p->field) {
	case SL_K8S_F_KEY: n = sl_map_get(e, "key"); break;
	case SL_K8S_F_OPERATOR: n = sl_map_get(e, "operator"); break;
	case SL_K8S_F_VALUES: {
		const sl_node *vals = sl_map_get(e, "values");
		if (p->index >= 0 && (size_t)p->index < sl_seq_n(vals))
			n = sl_seq_item(vals, (size_t)p->index);
		else if (vals && sl_scalar_type(vals) != SL_Y_NULL)
			n = vals;
		else
			n = sl_map_get(e, "operator");   /* values required: the operator asks for them */
		break;
	}
	default: break;
	}
	return n ? n : e;
}

/* The message path of a problem: "<prefix>.<field>" or "<prefix>.values[i]". */
static const char *problem_path(sl_ctx *ctx, const char *prefix, const sl_k8s_problem *p)
{
	if (p->api_field == SL_K8S_F_VALUES && p->index >= 0)
		return sl_arena_printf(sl_ctx_arena(ctx), "%s.values[%d]", prefix, p->index);
	return sl_arena_printf(sl_ctx_arena(ctx), "%s.%s", prefix, sl_k8s_field_name(p->api_field));
}

/* The path of term i of the required terms or of the preferred ones, for a finding's message
** (made only then: most terms have none). */
static const char *term_path(sl_ctx *ctx, bool required, size_t i)
{
	return required ? sl_arena_printf(sl_ctx_arena(ctx), "nodeSelectorTerms[%zu]", i)
			: sl_arena_printf(sl_ctx_arena(ctx), "preferredDuringSchedulingIgnoredDuring"
					  "Execution[%zu].preference", i);
}

/* Checks the matchExpressions (fields false) or matchFields (fields true) of term, the
** term_i-th required or preferred one. */
static sl_err check_list(sl_ctx *ctx, const sl_unit *u, const sl_node *term, bool fields,
			 bool required, size_t term_i)
{
	const char *list = fields ? "matchFields" : "matchExpressions";
	const sl_node *exprs = sl_map_get(term, list);
	for (size_t i = 0; i < sl_seq_n(exprs); i++) {
		const sl_node *e = sl_seq_item(exprs, i);
		if (!e || e->type != SL_NODE_MAP)
			continue;
		sl_requirement r;
		if (!sl_selection_requirement(sl_ctx_arena(ctx), e, &r))
			return SL_ENOMEM;
		if (req_templated(&r))
			continue;
#define PREFIX sl_arena_printf(sl_ctx_arena(ctx), "%s.%s[%zu]", term_path(ctx, required, term_i), \
			       list, i)
		sl_k8s_problem probs[8];
		size_t n = fields ? sl_k8s_field_requirement_validate(&r, probs, 8)
				  : sl_k8s_requirement_validate(&r, required, probs, 8);
		if (n > 8)
			n = 8;
		for (size_t j = 0; j < n; j++) {
			const sl_k8s_problem *p = &probs[j];
			const sl_node *at = problem_node(e, p);
			sl_report *rep = sl_report_rejected(ctx, at, sl_ctx_label(ctx, u),
							    problem_path(ctx, PREFIX, p), p->message);
			if (!rep || p->field != SL_K8S_F_OPERATOR || !r.op.n ||
			    at->type != SL_NODE_SCALAR)
				continue;
			const char *fix = sl_k8s_selector_operator_fix(r.op.s, r.op.n);
			if (fix && fields && strcmp(fix, "In") != 0 && strcmp(fix, "NotIn") != 0)
				fix = NULL;
			if (fix && sl_fix_replace_node(ctx, rep, at, sl_fix_requote(ctx, at, fix))) {
				sl_err err = sl_fix_describe(ctx, rep, SL_FIX_SAFE, "write %s", fix);
				if (err)
					return err;
			}
		}
		if (n > 0)
			continue;
		char msg[SL_K8S_MSG_MAX];
		if (sl_k8s_requirement_builds(&r, fields, msg, sizeof msg))
			continue;
		/* Accepted by the API server, refused by the scheduler (Gt/Lt "abc", or a value
		** that is not a label value in a preferred term). */
		const sl_node *vals = sl_map_get(e, "values");
		const sl_node *at = sl_seq_n(vals) == 1 ? sl_seq_item(vals, 0) : vals ? vals : e;
		sl_report *rep = sl_report_at(ctx, at, "%s: %s: the scheduler cannot parse this "
					      "requirement%s", sl_ctx_label(ctx, u), PREFIX,
					      required ? ", so the term never matches a node" : "");
		sl_report_note(ctx, rep, "The API server accepts it, but the scheduler's parser says: "
			       "\"%s\".", msg);
		sl_report_note(ctx, rep, "%s", required
			       ? "The term never matches any node."
			       : "The NodeAffinity plugin's PreScore fails, and with it every "
				 "scheduling attempt of the pod.");
	}
	return SL_OK;
}
#undef PREFIX

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_node *na = sl_map_get(u->affinity, "nodeAffinity");
	if (!na || na->type != SL_NODE_MAP)
		return SL_OK;
	const sl_node *req = sl_map_get(na, "requiredDuringSchedulingIgnoredDuringExecution");
	if (req && req->type == SL_NODE_MAP) {
		const sl_node *terms = sl_map_get(req, "nodeSelectorTerms");
		if (sl_seq_n(terms) == 0 && (!terms || terms->type == SL_NODE_SEQ ||
					     sl_scalar_type(terms) == SL_Y_NULL)) {
			sl_report_rejected(ctx, terms ? terms : sl_node_key(req), sl_ctx_label(ctx, u),
					   "nodeSelectorTerms", "Required value: must have at least one "
					   "node selector term");
		}
		for (size_t i = 0; i < sl_seq_n(terms); i++) {
			const sl_node *t = sl_seq_item(terms, i);
			sl_err err = check_list(ctx, u, t, false, true, i);
			if (!err)
				err = check_list(ctx, u, t, true, true, i);
			if (err)
				return err;
		}
	}
	const sl_node *pref = sl_map_get(na, "preferredDuringSchedulingIgnoredDuringExecution");
	for (size_t i = 0; i < sl_seq_n(pref); i++) {
		const sl_node *w = sl_seq_item(pref, i);
		if (!w || w->type != SL_NODE_MAP)
			continue;
		const sl_node *wn = sl_map_get(w, "weight");
		long long weight = 0;
		bool known = !wn || sl_scalar_type(wn) == SL_Y_NULL || sl_scalar_int(wn, &weight);
		if (known && (weight < 1 || weight > 100)) {
			sl_report *r = sl_report_rejected(
				ctx, wn && sl_scalar_type(wn) != SL_Y_NULL ? wn : w, sl_ctx_label(ctx, u),
				sl_arena_printf(sl_ctx_arena(ctx), "preferredDuringSchedulingIgnoredDuring"
						"Execution[%zu].weight", i),
				sl_arena_printf(sl_ctx_arena(ctx), "Invalid value: %lld: must be in the "
						"range 1-100", weight));
			if (!wn || sl_scalar_type(wn) == SL_Y_NULL)
				sl_report_note(ctx, r, "weight is missing, so it is 0.");
		}
		const sl_node *p = sl_map_get(w, "preference");
		sl_err err = check_list(ctx, u, p, false, false, i);
		if (!err)
			err = check_list(ctx, u, p, true, false, i);
		if (err)
			return err;
	}
	return SL_OK;
}

SL_RULE(invalid_node_affinity, .id = "invalid-node-affinity", .category = "validity",
	.summary = "Node affinity the API server rejects or the scheduler cannot parse",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_SAFE, .check_unit = check);
