/* SPDX-License-Identifier: Apache-2.0
** gpu-request-without-limit: a container requests a GPU resource but sets no limit for it.
** One finding per such request, at the request's value. */
#include "rule.h"

/** ## What it does
 * Reports a container (init containers included) that requests a GPU resource under
 * `resources.requests` but sets no limit for the same resource under `resources.limits`.
 * A request with a limit that differs is `gpu-request-limit-mismatch`, not this rule.
 *
 * ## Why is this bad?
 * GPUs are extended resources, which Kubernetes cannot overcommit: the API server rejects a
 * request without a limit (`limits: Required value: Limit must be set for non overcommitable
 * resources`). For a Deployment, Job or InferenceService the error surfaces only when the
 * controller creates the pods, far from the YAML. (The reverse, a limit without a request, is
 * valid: the request defaults to the limit.)
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
 * valid combination for an extended resource, so the fix cannot change what was meant. A
 * container whose `resources` is a flow mapping (`{requests: {...}}`) gets no fix.
 *
 * ## Options
 * `cluster.gpu-resources`: the resource names that count as GPUs (default `nvidia.com/gpu`,
 * `amd.com/gpu`, `intel.com/gpu`, `habana.ai/gaudi`, `nvidia.com/mig-*`).
 *
 * ## References
 * - kubernetes pkg/apis/core/validation/validation.go, `validateResourceRequirements`
 * - Kubernetes, Schedule GPUs: "you can specify GPU limits without specifying requests",
 *   https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/
 */
static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		for (size_t j = 0; j < sl_map_n(c->requests); j++) {
			const sl_pair *p = sl_map_pair(c->requests, j);
			const char *name = sl_scalar(p->key);
			if (!sl_is_gpu_resource(cfg, name) || sl_map_get(c->limits, name))
				continue;
			sl_report *r = sl_report_at(ctx, p->value,
				     "%s: %s requests %s: %s but sets no limit for it; the API server "
				     "rejects it (\"Limit must be set for non overcommitable resources\")",
				     sl_ctx_label(ctx, u), sl_container_label(ctx, c), name,
				     sl_scalar(p->value) ? sl_scalar(p->value) : "?");
			/* the request's value as written, when it is a one-line scalar (a mapping, say,
			** is a schema-type finding, and its text is no limit); the key as a scalar */
			const sl_node *v = sl_deref(p->value);
			const char *q = sl_node_text(ctx, p->value);
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
	}
	return SL_OK;
}

SL_RULE(gpu_request_without_limit, .id = "gpu-request-without-limit", .category = "gpu",
	.summary = "A container requests a GPU without a limit for it",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_SAFE, .check_unit = check);
