/* SPDX-License-Identifier: Apache-2.0
** invalid-node-selector: a nodeSelector key that is not a qualified name or a value that is not a
** label value. One finding per bad key and per bad value. */
#include "sdk/rule.h"

/** ## What it does
 * Checks every `nodeSelector` entry of a placement unit as the API server does
 * (`ValidatePodSpec` → `ValidateLabels`): the key must be a qualified name (`[prefix/]name`, the
 * name at most 63 characters of alphanumerics, `-`, `_`, `.`, starting and ending with an
 * alphanumeric; the prefix a lower-case DNS subdomain) and the value a label value (empty, or
 * at most 63 such characters). A bad key is reported at the key, a bad value at the value.
 *
 * ## Why is this bad?
 * The API server rejects the object: `spec.nodeSelector: Invalid value: "GPU Type": name part
 * must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an
 * alphanumeric character`. No node can carry such a label anyway (node labels are validated the
 * same way), so even where a controller copies the selector without validation the pod could
 * never schedule. Source: apimachinery `pkg/apis/meta/v1/validation` `ValidateLabels`,
 * `pkg/api/validate/content` `IsQualifiedName` / `IsLabelValue`.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       gpu type: a100
 *       cloud.google.com/gke-accelerator: nvidia tesla t4
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       gpu-type: a100
 *       cloud.google.com/gke-accelerator: nvidia-tesla-t4
 * ```
 *
 * ## Fix safety
 * No fix: the intended label cannot be derived from the invalid one.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Labels and Selectors, "Syntax and character set",
 *   https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/
 * - kubernetes/kubernetes `pkg/apis/core/validation/validation.go`, `ValidatePodSpec`
 */

/* Reports a nodeSelector key or value the API server rejects; its message in a note. */
static void rejected(sl_ctx *ctx, const sl_unit *u, const sl_node *at, const char *what,
		     const char *text, const char *msg)
{
	/* a long value (up to 63 characters, or far more when invalid) is cut on the first line */
	size_t len = strlen(text);
	sl_report *r = sl_report_at(ctx, at, "%s: nodeSelector %s \"%.*s%s\" is not a valid label %s",
				    sl_ctx_label(ctx, u), what, len > 48 ? 45 : (int)len, text,
				    len > 48 ? "\u2026" : "", what);
	sl_report_note(ctx, r, "The API server rejects it: \"nodeSelector: Invalid value: \\\"%s\\\": "
		       "%s\".", text, msg);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	for (size_t i = 0; i < sl_map_n(u->node_selector); i++) {
		const sl_pair *p = sl_map_pair(u->node_selector, i);
		const sl_node *k = sl_node_deref(p->key), *v = sl_node_deref(p->value);
		char msg[1024];
		if ((k && k->type == SL_NODE_SCALAR && sl_template_in_value(k->u.scalar.s, k->u.scalar.len)) ||
		    (v && v->type == SL_NODE_SCALAR && sl_template_in_value(v->u.scalar.s, v->u.scalar.len)))
			continue;
		if (k && k->type == SL_NODE_SCALAR &&
		    sl_k8s_check_qualified_name(k->u.scalar.s, k->u.scalar.len, msg, sizeof msg) > 0)
			rejected(ctx, u, p->key, "key", k->u.scalar.s, msg);
		if (v && v->type == SL_NODE_SCALAR && sl_scalar_type(v) != SL_Y_NULL &&
		    sl_k8s_check_label_value(v->u.scalar.s, v->u.scalar.len, msg, sizeof msg) > 0)
			rejected(ctx, u, p->value, "value", v->u.scalar.s, msg);
	}
	return SL_OK;
}

SL_RULE(invalid_node_selector, .id = "invalid-node-selector", .category = "validity",
	.summary = "A nodeSelector key that is not a qualified name or value that is not a label value",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
