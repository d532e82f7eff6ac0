/* SPDX-License-Identifier: Apache-2.0
** invalid-toleration: a toleration the API server rejects (ValidateTolerations). One finding per
** problem, at the offending field of the toleration. */
#include "sdk/rule.h"

/** ## What it does
 * Validates every toleration of a placement unit as the API server's `ValidateTolerations` does
 * and reports each problem at the field at fault, in the API server's words:
 * - `operator` other than `Equal` or `Exists` (`Lt` and `Gt` are accepted only with
 *   `cluster.toleration-comparison-operators: true`, and then need an integer `value`);
 * - `operator: Exists` with a non-empty `value`;
 * - an empty `key` with an operator other than `Exists`;
 * - `effect` other than `NoSchedule`, `PreferNoSchedule` or `NoExecute`;
 * - `tolerationSeconds` with an effect other than `NoExecute`;
 * - `key` that is not a qualified name, `value` that is not a label value.
 *
 * The API server reports a bad `value` under the path `operator` (the value is checked as part
 * of the operator); the finding is placed on the `value` itself.
 *
 * ## Why is this bad?
 * The API server rejects the whole object (`kubectl apply` fails with
 * `spec.tolerations[0].operator: Unsupported value: "exists": supported values: "Equal",
 * "Exists"`). For a KServe InferenceService or a Knative Service the error surfaces later, when
 * the controller creates the Deployment or Revision, so the service never becomes ready.
 * Validation: kubernetes `pkg/apis/core/validation/validation.go` `ValidateTolerations`;
 * matching: `k8s.io/api` `core/v1/toleration.go` `ToleratesTaint`.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     tolerations:
 *       - key: nvidia.com/gpu
 *         operator: exists
 *         effect: noschedule
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     tolerations:
 *       - key: nvidia.com/gpu
 *         operator: Exists
 *         effect: NoSchedule
 * ```
 *
 * ## Fix safety
 * Safe for an operator or effect that differs from a valid one only in letter case
 * (`exists` → `Exists`, `noschedule` → `NoSchedule`): the object is rejected as written, and the
 * corrected spelling is the only value the author can have meant. Other problems have no fix.
 *
 * ## Options
 * `cluster.toleration-comparison-operators` (default false): accept the `Lt` and `Gt` operators
 * (feature gate `TaintTolerationComparisonOperators`).
 *
 * ## References
 * - Kubernetes, Taints and Tolerations,
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
 * - kubernetes/kubernetes `pkg/apis/core/validation/validation.go`, `ValidateTolerations`
 */

/* The scalar text of a field's value n as Go decodes it: absent or null is "". */
static sl_k8s_str field_str(const sl_node *n)
{
	if (!n || n->type != SL_NODE_SCALAR || sl_scalar_type(n) == SL_Y_NULL)
		return (sl_k8s_str){NULL, 0};
	return (sl_k8s_str){n->u.scalar.s, n->u.scalar.len};
}

/* The node a problem is about; when that field is absent, the closest one that is there. */
static const sl_node *problem_node(const sl_node *t, sl_k8s_field f)
{
	const sl_node *n = sl_map_get(t, sl_k8s_field_name(f));
	if (n && sl_scalar_type(n) != SL_Y_NULL)
		return n;
	if (f == SL_K8S_F_EFFECT && sl_map_get(t, "tolerationSeconds"))
		return sl_map_get(t, "tolerationSeconds");
	if (f == SL_K8S_F_OPERATOR && sl_map_get(t, "key"))
		return sl_map_get(t, "key");
	return n ? n : t;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	bool gate = sl_config_toleration_comparison_operators(sl_ctx_config(ctx));
	for (size_t i = 0; i < sl_seq_n(u->tolerations); i++) {
		const sl_node *t = sl_seq_item(u->tolerations, i);
		if (!t || t->type != SL_NODE_MAP)
			continue;
		static const sl_model_fspec fields[] = {
			SL_FIELD("key", SL_T_ANY), SL_FIELD("operator", SL_T_ANY),
			SL_FIELD("value", SL_T_ANY), SL_FIELD("effect", SL_T_ANY),
			SL_FIELD("tolerationSeconds", SL_T_ANY),
		};
		const sl_node *f[5];
		sl_model_find(t, fields, 5, f);
		sl_toleration tol = {
			.key = field_str(f[0]), .op = field_str(f[1]), .value = field_str(f[2]),
			.effect = field_str(f[3]),
		};
		if (sl_template_in_value(tol.key.s, tol.key.n) || sl_template_in_value(tol.op.s, tol.op.n) ||
		    sl_template_in_value(tol.value.s, tol.value.n) || sl_template_in_value(tol.effect.s, tol.effect.n))
			continue;
		const sl_node *secs = f[4];
		if (secs && sl_scalar_type(secs) != SL_Y_NULL) {
			long long v = 0;
			tol.has_seconds = true;
			if (sl_scalar_int(secs, &v))
				tol.seconds = v;
		}
		sl_k8s_problem probs[8];
		size_t n = sl_k8s_toleration_validate(&tol, gate, probs, 8);
		if (n > 8)
			n = 8;
		for (size_t j = 0; j < n; j++) {
			const sl_k8s_problem *p = &probs[j];
			const sl_node *at = problem_node(t, p->field);
			bool unsupported = strncmp(p->message, "Unsupported value", 17) == 0;
			const char *path = sl_arena_printf(sl_ctx_arena(ctx), "tolerations[%zu].%s", i,
							   sl_k8s_field_name(p->api_field));
			if (!path)
				return SL_ENOMEM;
			sl_report *r = sl_report_rejected(ctx, at, sl_ctx_label(ctx, u), path, p->message);
			if (p->field == SL_K8S_F_OPERATOR && unsupported && !gate &&
			    (sl_k8s_str_is(tol.op, "Lt") || sl_k8s_str_is(tol.op, "Gt")))
				sl_report_note(ctx, r, "Lt and Gt need the TaintTolerationComparisonOperators "
					       "feature gate; set cluster.toleration-comparison-operators: "
					       "true if the cluster enables it.");
			if (!r || !unsupported)
				continue;
			const char *fix = NULL;
			if (p->field == SL_K8S_F_OPERATOR && tol.op.n)
				fix = sl_k8s_toleration_operator_fix(tol.op.s, tol.op.n, gate);
			else if (p->field == SL_K8S_F_EFFECT && tol.effect.n)
				fix = sl_k8s_taint_effect_fix(tol.effect.s, tol.effect.n);
			if (fix && at->type == SL_NODE_SCALAR &&
			    sl_fix_replace_node(ctx, r, at, sl_fix_requote(ctx, at, fix))) {
				sl_err err = sl_fix_describe(ctx, r, SL_FIX_SAFE, "write %s", fix);
				if (err)
					return err;
			}
		}
	}
	return SL_OK;
}

SL_RULE(invalid_toleration, .id = "invalid-toleration", .category = "validity",
	.summary = "A toleration the API server rejects (operator, effect, key, value, tolerationSeconds)",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_SAFE, .check_unit = check);
