/* SPDX-License-Identifier: Apache-2.0
** gpu-request-limit-mismatch: a container's request and limit of a GPU or other extended
** resource are both set and differ.
** One finding per such request, at the request's value. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a container (init containers included) whose `resources.requests` and
 * `resources.limits` both name the same GPU or other extended resource with different
 * quantities. An extended resource is, as Kubernetes' `IsExtendedResourceName` says, a name
 * outside the `kubernetes.io` namespace (not `cpu`, `memory`, `ephemeral-storage`, `storage` or
 * `hugepages-*`): GPUs, AWS Neuron, TPUs, FPGAs, RDMA devices; the message says "GPU" for the
 * names in `cluster.gpu-resources` and "extended resource" for the others. Not reported for a
 * ModelMesh InferenceService predictor, which builds no pod of its own. Quantities are
 * compared as Kubernetes compares them, so `1`, `"1"` and `1000m` are equal. A request without
 * a limit is `gpu-request-without-limit`, not this rule; a quantity that does not parse is
 * `invalid-resource-quantity`.
 *
 * ## Why is this bad?
 * Extended resources cannot be overcommitted: for every resource that is
 * not a native, non-hugepages one, the API server requires the request to equal the limit and
 * rejects the pod otherwise (`requests[nvidia.com/gpu]: Invalid value: "1": must be equal to
 * nvidia.com/gpu limit of 2`). For a Deployment, Job, Knative Service or InferenceService the
 * error surfaces only when the controller creates the pods, as an event far from the YAML; the
 * KServe webhook does not check it.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       resources:
 *         requests:
 *           nvidia.com/gpu: 1
 *         limits:
 *           nvidia.com/gpu: 2
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       resources:
 *         requests:
 *           nvidia.com/gpu: 2
 *         limits:
 *           nvidia.com/gpu: 2
 * ```
 *
 * ## Fix safety
 * Unsafe: the fix replaces the request's value with the limit's text. It changes how many GPUs
 * the pod asks for (the limit is usually the intended count, but it may be the request that
 * was right), so it is applied only with `--unsafe-fixes`. No fix is offered when either value
 * is a block scalar.
 *
 * ## Options
 * `cluster.gpu-resources`: the resource names the message calls GPUs (every other extended
 * resource is checked too).
 *
 * ## References
 * - kubernetes pkg/apis/core/validation/validation.go, `validateResourceRequirements` ("must
 *   be equal to %s limit of %s" when `!helper.IsOvercommitAllowed`)
 * - kubernetes pkg/apis/core/helper/helpers.go, `IsOvercommitAllowed`, `IsExtendedResourceName`,
 *   `IsNativeResource`
 * - Kubernetes, Schedule GPUs: "If you do specify both limits and requests, they must be equal",
 *   https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/
 */

/* Parses a quantity node (a string or a number); false when it is not a valid quantity. */
static bool parse_quantity(const sl_node *n, sl_quantity *q)
{
	const char *s = sl_scalar(n);
	return s && sl_quantity_parse(s, strlen(s), q) == SL_QUANTITY_OK;
}

/* True when the scalar's text can be copied in place of another scalar's. */
static bool copyable(const sl_node *n)
{
	return n && n->type == SL_NODE_SCALAR &&
	       (n->style == SL_STYLE_PLAIN || n->style == SL_STYLE_SINGLE ||
		n->style == SL_STYLE_DOUBLE);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_source *src = sl_ctx_source(ctx);
	sl_gpu_requests it = sl_gpu_extended_requests(sl_ctx_config(ctx), u);
	for (const sl_pair *p; (p = sl_gpu_requests_next(&it));) {
		const sl_container *c = it.c;
		const char *name = it.name;
		const sl_node *lim = sl_map_get(c->limits, name);
		sl_quantity rq, lq;
		if (!lim || !parse_quantity(p->value, &rq) || !parse_quantity(lim, &lq) ||
		    sl_quantity_cmp(&rq, &lq) == 0)
			continue;
		const char *rs = sl_scalar(p->value), *ls = sl_scalar(lim);
		char rstr[64], lstr[64];
		sl_quantity_string(&rq, rs, strlen(rs), rstr, sizeof rstr);
		sl_quantity_string(&lq, ls, strlen(ls), lstr, sizeof lstr);
		sl_report *r = sl_report_at(ctx, p->value, "%s: %s requests %s %s: %s but limits "
					    "it to %s", sl_ctx_label(ctx, u),
					    sl_ctx_container_label(ctx, c),
					    it.gpu ? "GPU" : "extended resource", name, rstr, lstr);
		sl_report_note(ctx, r, "Extended resources cannot be overcommitted: the API server "
			       "rejects the pod (\"must be equal to %s limit of %s\"), for a "
			       "controller's pods only when it creates them.", name, lstr);
		sl_report_note(ctx, r, "Make the request equal to the limit.");
		const sl_node *rv = sl_node_deref(p->value);
		const sl_node *lv = sl_node_deref(lim);
		if (!r || !src || p->value->type != SL_NODE_SCALAR || !copyable(rv) ||
		    !copyable(lv) || lv->end > src->len || lv->start > lv->end)
			continue;
		char *text = sl_arena_strndup(sl_ctx_arena(ctx), src->data + lv->start,
					     lv->end - lv->start);
		if (!text)
			return SL_ENOMEM;
		sl_err err = sl_fix_replace(ctx, r, p->value->start, p->value->end, text);
		if (!err)
			err = sl_fix_describe(ctx, r, SL_FIX_UNSAFE,
					      "Set the %s request to the limit, %s", name, lstr);
		if (err)
			return err;
	}
	return SL_OK;
}

SL_RULE(gpu_request_limit_mismatch, .id = "gpu-request-limit-mismatch", .category = "gpu",
	.summary = "A container's request and limit of a GPU or other extended resource differ",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_UNSAFE, .check_unit = check);
