/* SPDX-License-Identifier: Apache-2.0
** gpu-request-without-limit: a container requests a GPU or other extended resource but sets no
** limit for it.
** One finding per such request, at the request's value. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a container (init containers included) that requests a GPU or any other extended
 * resource under `resources.requests` but sets no limit for the same resource under
 * `resources.limits`. An extended resource is, as Kubernetes' `IsExtendedResourceName` says, a
 * resource name outside the `kubernetes.io` namespace (so not `cpu`, `memory`,
 * `ephemeral-storage`, `storage` or `hugepages-*`): GPUs (`nvidia.com/gpu`, `amd.com/gpu`,
 * `gpu.intel.com/i915`, ...), AWS Neuron (`aws.amazon.com/neuron`), TPUs (`google.com/tpu`),
 * FPGAs, RDMA devices and so on. The message says "GPU" for the names in `cluster.gpu-resources`
 * and "extended resource" for the others. A request with a limit that differs is
 * `gpu-request-limit-mismatch`, not this rule. Not reported for a ModelMesh InferenceService
 * predictor: it builds no pod of its own (`modelmesh-placement-ignored`).
 *
 * ## Why is this bad?
 * Extended resources cannot be overcommitted: the API server rejects a request without a limit
 * (`limits: Required value: Limit must be set for non overcommitable resources`). For a
 * Deployment, Job or InferenceService the error surfaces only when the controller creates the
 * pods, far from the YAML. (The reverse, a limit without a request, is valid: the request
 * defaults to the limit.)
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       resources:
 *         requests:
 *           nvidia.com/gpu: 1
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       resources:
 *         requests:
 *           nvidia.com/gpu: 1
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * Safe: the fix adds the same quantity, as written, under `limits` (creating `limits:` in the
 * file's indentation style when the container has none). Equal request and limit is the only
 * valid combination for an extended resource, so the fix cannot change what was meant, and a
 * limit adds nothing the request did not already ask for (the GPU rules count requests and
 * limits alike). In a flow mapping the limit is written in flow style
 * (`resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 1}}`). No fix for a
 * request that is not a valid quantity for the resource (`0.5` GPUs, `1GB`): a copy would
 * repeat `invalid-resource-quantity` at the limit.
 *
 * ## Options
 * `cluster.gpu-resources`: the resource names the message calls GPUs (every other extended
 * resource is checked too).
 *
 * ## References
 * - kubernetes pkg/apis/core/validation/validation.go, `validateResourceRequirements` ("Limit
 *   must be set for non overcommitable resources" when `!helper.IsOvercommitAllowed`)
 * - kubernetes pkg/apis/core/helper/helpers.go, `IsExtendedResourceName`, `IsNativeResource`,
 *   `IsOvercommitAllowed` (also staging/src/k8s.io/component-helpers/resource/helpers.go)
 * - Kubernetes, Schedule GPUs: "you can specify GPU limits without specifying requests",
 *   https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/
 * - Kubernetes, Managing Resources for Containers, "Extended resources",
 *   https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/#extended-resources
 */
/* True when the quantity node is one the API server accepts for resource name (a quantity, not
** negative, an integer for an extended resource). */
static bool valid_quantity(const char *name, const sl_node *v)
{
	const char *s = sl_scalar(v);
	sl_quantity q;
	char msg[256];
	return s && sl_quantity_parse(s, strlen(s), &q) == SL_QUANTITY_OK &&
	       sl_k8s_check_resource_quantity(name, strlen(name), &q, msg, sizeof msg) == 0;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	sl_gpu_requests it = sl_gpu_extended_requests(sl_ctx_config(ctx), u);
	for (const sl_pair *p; (p = sl_gpu_requests_next(&it));) {
		const sl_container *c = it.c;
		const char *name = it.name;
		if (sl_map_get(c->limits, name))
			continue;
		sl_report *r = sl_report_at(ctx, p->value,
			     "%s: %s requests %s %s: %s but sets no limit for it",
			     sl_ctx_label(ctx, u), sl_ctx_container_label(ctx, c),
			     it.gpu ? "GPU" : "extended resource", name,
			     sl_scalar(p->value) ? sl_scalar(p->value) : "?");
		sl_report_note(ctx, r, "Extended resources cannot be overcommitted: the API server "
			       "rejects the pod (\"Limit must be set for non overcommitable "
			       "resources\"), for a controller's pods only when it creates them.");
		sl_report_note(ctx, r, "Set limits.%s to the same quantity (a limit alone is "
			       "enough: the request defaults to it).", name);
		if (!valid_quantity(name, p->value))
			continue;   /* a copy would repeat invalid-resource-quantity at the limit */
		/* the request's value as written, when it is a one-line scalar (a mapping, say,
		** is a schema-type finding, and its text is no limit); the key as a scalar */
		const sl_node *v = sl_node_deref(p->value);
		const char *q = sl_ctx_node_text(ctx, p->value);
		const char *key = sl_fix_scalar(ctx, p->key, name);
		bool ok = v && v->type == SL_NODE_SCALAR && v == p->value && key &&
			  !strpbrk(q, "\r\n") && !sl_node_anchor(v) && !sl_node_tag(v);
		ok = ok && (c->limits
			? sl_fix_add_entry(ctx, r, c->limits, name, q)
			: sl_fix_add_entry(ctx, r, c->resources, "limits",
					   sl_arena_printf(sl_ctx_arena(ctx), "%s: %s", key, q)));
		if (ok)
			sl_fix_describe(ctx, r, SL_FIX_SAFE, "add limits.%s: %s", name, q);
	}
	return SL_OK;
}

SL_RULE(gpu_request_without_limit, .id = "gpu-request-without-limit", .category = "gpu",
	.summary = "A container requests a GPU or other extended resource without a limit for it",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_SAFE, .check_unit = check);
