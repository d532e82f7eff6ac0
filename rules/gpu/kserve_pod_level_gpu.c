/* SPDX-License-Identifier: Apache-2.0
** kserve-pod-level-gpu: a GPU named in the pod-level `resources` directly under an
** InferenceService component. One finding per GPU entry, at its resource name. */
#include "rule.h"

/** ## What it does
 * Reports each GPU resource named under `requests` or `limits` of the `resources` block that
 * sits directly under an InferenceService component (`spec.predictor`, `spec.transformer`,
 * `spec.explainer`, `spec.predictor.workerSpec`, `spec.canary[].predictor`). The message
 * names where the entry belongs: the implementation's container resources
 * (`model.resources`, `triton.resources`, `art.resources`, `containers[0].resources`).
 *
 * ## Why is this bad?
 * A component is an inline PodSpec, so since KServe 0.15 (commit `e5b7919bc`) the `resources`
 * key directly under it is the pod-level `PodSpec.resources` (Kubernetes' PodLevelResources
 * feature), not the container's. Kubernetes honours only `cpu`, `memory` and hugepages at pod
 * level (component-helpers `IsSupportedPodLevelResource`), KServe documents the field as "cpu"
 * and "memory" only, and Knative rejects pod-level `resources` outright. Whatever happens to
 * the entry, no container requests the GPU: the device plugin hands out none and the model
 * server starts on CPU or fails. Before 0.15 the key was unknown to KServe and silently pruned.
 * Container resources of a framework predictor go under the framework key; for a custom
 * container under `containers[i].resources`.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     resources:
 *       limits:
 *         nvidia.com/gpu: 1
 *     model:
 *       modelFormat:
 *         name: huggingface
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       modelFormat:
 *         name: huggingface
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * The catalogue's fix (unsafe: move the GPU entries to the implementation's container
 * resources when there is exactly one implementation) arrives with the fix engine; today the
 * finding has no fix.
 *
 * ## Options
 * `cluster.gpu-resources`: the resource names that count as GPUs.
 *
 * ## References
 * - kserve pkg/apis/serving/v1beta1/podspec.go, `Resources` ("supports specifying Requests
 *   and Limits for \"cpu\" and \"memory\" resource names only")
 * - kserve pkg/apis/serving/v1beta1/predictor.go, `PredictorExtensionSpec` (inlined
 *   `corev1.Container`: the framework key holds the container's `resources`)
 * - kubernetes staging/src/k8s.io/component-helpers/resource/helpers.go,
 *   `IsSupportedPodLevelResource`
 * - knative serving pkg/apis/serving/fieldmask.go, `PodSpecMask` (pod-level resources not
 *   allowed)
 */

static const char *const explainer_keys[] = {"art", "alibi", NULL};

/* Where the container resources of component u belong, for the message. */
static const char *container_resources_path(sl_ctx *ctx, const sl_unit *u)
{
	const char *const *impls = NULL;
	if (u->role == SL_ROLE_PREDICTOR || u->role == SL_ROLE_CANARY)
		impls = sl_kserve_implementations;
	else if (u->role == SL_ROLE_EXPLAINER)
		impls = explainer_keys;
	const char *found = NULL;
	size_t n = 0;
	for (size_t i = 0; impls && impls[i]; i++)
		if (sl_map_get(u->component, impls[i])) {
			if (!found)
				found = impls[i];
			n++;
		}
	if (n == 1)
		return sl_arena_printf(sl_ctx_arena(ctx), "%s.resources", found);
	if (n > 1)
		return "the implementation's container resources";
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		if (c->main && !c->init && c->node->parent && c->node->parent->type == SL_NODE_SEQ)
			return sl_arena_printf(sl_ctx_arena(ctx), "containers[%u].resources",
					       c->node->pos);
	}
	return "containers[0].resources";
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	if (u->obj->kind != SL_KIND_INFERENCE_SERVICE || !u->component || !u->pod_resources)
		return SL_OK;
	const char *lists[2] = {"requests", "limits"};
	for (int l = 0; l < 2; l++) {
		const sl_node *m = sl_map_get(u->pod_resources, lists[l]);
		for (size_t i = 0; i < sl_map_n(m); i++) {
			const sl_pair *p = sl_map_pair(m, i);
			const char *name = sl_scalar(p->key);
			if (!sl_is_gpu_resource(cfg, name))
				continue;
			const char *where = container_resources_path(ctx, u);
			sl_report_at(ctx, p->key,
				     "%s: resources.%s names %s directly under the component, where "
				     "`resources` is pod-level (cpu and memory only since KServe 0.15): "
				     "no container gets the GPU; put it under %s.%s",
				     sl_ctx_label(ctx, u), lists[l], name,
				     where ? where : "the container's resources", lists[l]);
		}
	}
	return SL_OK;
}

SL_RULE(kserve_pod_level_gpu, .id = "kserve-pod-level-gpu", .category = "gpu",
	.summary = "A GPU in the pod-level resources directly under an InferenceService component",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
