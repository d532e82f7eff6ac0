/* SPDX-License-Identifier: Apache-2.0
** gpu-node-without-gpu-request: a unit pinned to GPU nodes whose containers request no GPU.
** One finding per unit, at the selector that pins it (the nodeSelector key, or the first
** required-affinity expression on a GPU node label). */
#include "sdk/rule.h"

/** ## What it does
 * Reports a placement unit that is pinned to GPU nodes (its nodeSelector, or every required
 * node-affinity term, selects a GPU node label such as `nvidia.com/gpu.present` or
 * `cloud.google.com/gke-accelerator`) while none of its containers requests or limits a GPU
 * resource or claims a device through Dynamic Resource Allocation. A container that claims a
 * DRA device is counted as using a GPU when the ResourceClaim / ResourceClaimTemplate among the
 * linted files asks for a GPU device class (`cluster.gpu-device-classes`), and also when the
 * claim cannot be resolved (not among the linted files): the rule cannot tell, so it stays
 * quiet. A selector whose only values are `"false"` or `"0"` keeps pods off GPU nodes and
 * does not count.
 *
 * Skipped: DaemonSets (node agents such as exporters and device plugins pin to GPU nodes by
 * design); ServingRuntimes, ClusterServingRuntimes, Seldon ServerConfigs and
 * LLMInferenceServiceConfigs (templates: the objects that use them bring the container
 * resources); an InferenceService predictor whose `model.runtime` names a runtime among the
 * linted files that requests a GPU (KServe merges the runtime's container into the
 * predictor's); a multi-node InferenceService predictor and its `workerSpec` (the KServe
 * controller writes the GPU count into the head and worker containers); a Seldon Server whose
 * ServerConfig requests a GPU, or whose ServerConfig is not among the linted files (its
 * containers are unknown); an LLMInferenceService whose `baseRefs` are not all among the
 * linted files or one of them requests a GPU; a unit whose pod-level `resources` names a GPU
 * (that is `kserve-pod-level-gpu`).
 *
 * Not reported for a ModelMesh InferenceService predictor: ModelMesh builds no pod from it
 * (its placement fields are ignored; `modelmesh-placement-ignored`).
 *
 * ## Why is this bad?
 * A pod that requests no GPU gets no GPU even on a GPU node: the device plugin only hands
 * devices to containers that request them. The pod still takes a slot on an expensive node,
 * and because it runs there the cluster autoscaler cannot scale that node down. On clusters
 * whose GPU nodes are tainted, the pod also does not receive the GPU toleration that the
 * ExtendedResourceToleration admission plugin adds only for requested extended resources, so
 * it may stay Pending. For an InferenceService transformer or explainer this is usually a copy
 * of the predictor's selector: pre/post-processing belongs on CPU nodes. For a predictor it
 * usually means the GPU limit was forgotten (or put in the pod-level `resources` block).
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       nvidia.com/gpu.present: "true"
 *     model:
 *       modelFormat:
 *         name: huggingface
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       nvidia.com/gpu.present: "true"
 *     model:
 *       modelFormat:
 *         name: huggingface
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * Unsafe, and only for a predictor (an InferenceService predictor or canary predictor, or a
 * worker): the fix adds `nvidia.com/gpu: 1` to the main container's `limits` (the framework key
 * of a KServe predictor such as `model`, else `kserve-container` or the first container),
 * creating `limits:` under `resources:`, or `resources:` itself, when missing. Unsafe because
 * the GPU count, and whether a GPU was meant at all, is the author's decision. No fix for a
 * transformer, an explainer or a plain workload (the selector is more likely the mistake), and
 * none when the container has no mapping of its own, when its `resources` or `limits` is
 * present but not a mapping, when `nvidia.com/gpu` is already written in its requests or limits
 * (as zero), when the mapping to edit is anchored (its aliases would change too), or when the
 * edit would have to put a nested block into a flow mapping.
 *
 * ## Options
 * `cluster.gpu-node-labels` (the node labels that mark GPU nodes), `cluster.gpu-resources` and
 * `cluster.gpu-device-classes` (what counts as a GPU).
 *
 * ## References
 * - Kubernetes, Schedule GPUs, https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/
 * - kubernetes plugin/pkg/admission/extendedresourcetoleration/admission.go (tolerations only
 *   for requested extended resources)
 * - kserve pkg/controller/v1beta1/inferenceservice/utils/utils.go, `MergePodSpec` / runtime
 *   container merge
 * - kserve pkg/controller/v1beta1/inferenceservice/reconcilers/deployment/
 *   deployment_reconciler.go, `addGPUResourceToDeployment` (multi-node GPU count)
 * - Kubernetes, Dynamic Resource Allocation,
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/dynamic-resource-allocation/
 * - KServe, node scheduling,
 *   https://kserve.github.io/website/docs/model-serving/node-scheduling/isvc-node-scheduling
 */

/* True when the pod-level resources name a GPU. */
static bool pod_level_gpu(const sl_config *cfg, const sl_unit *u)
{
	const char *lists[2] = {"requests", "limits"};
	for (int l = 0; l < 2; l++) {
		const sl_node *m = sl_map_get(u->pod_resources, lists[l]);
		for (size_t i = 0; i < sl_map_n(m); i++)
			if (sl_config_is_gpu_resource(cfg, sl_scalar(sl_map_pair(m, i)->key)))
				return true;
	}
	return false;
}

/* True when some unit of o may use a GPU (a GPU resource, a GPU or unresolved DRA claim). */
static bool object_requests_gpu(const sl_index *ix, const sl_object *o)
{
	for (size_t i = 0; o && i < o->n_units; i++)
		if (sl_gpu_unit_use(ix, &o->units[i]).value != SL_TRI_NO)
			return true;
	return false;
}

/* True when the GPU request may come from an object the unit's containers are merged with
** (a named ServingRuntime, the Seldon ServerConfig, the LLMInferenceService baseRefs). */
static bool gpu_from_elsewhere(const sl_index *ix, const sl_unit *u)
{
	const sl_object *o = u->obj;
	/* Multi-node: the KServe controller sets the GPU count on the head and worker containers. */
	if (o->kind == SL_KIND_INFERENCE_SERVICE &&
	    (u->role == SL_ROLE_WORKER || sl_map_get(u->component, "workerSpec")))
		return true;
	if (o->kind == SL_KIND_INFERENCE_SERVICE &&
	    (u->role == SL_ROLE_PREDICTOR || u->role == SL_ROLE_CANARY)) {
		const char *rt = sl_scalar(sl_map_get(sl_map_get(u->component, "model"), "runtime"));
		if (!rt)
			return false;
		return object_requests_gpu(ix, sl_index_find(ix, SL_KIND_SERVING_RUNTIME, rt)) ||
		       object_requests_gpu(ix, sl_index_find(ix, SL_KIND_CLUSTER_SERVING_RUNTIME, rt));
	}
	if (o->kind == SL_KIND_SELDON_SERVER) {
		const sl_object *cfgobj = sl_index_server_config(ix, o);
		return !cfgobj || object_requests_gpu(ix, cfgobj);
	}
	if (o->kind == SL_KIND_LLM_INFERENCE_SERVICE) {
		const sl_node *refs = sl_map_get(o->spec, "baseRefs");
		for (size_t i = 0; i < sl_seq_n(refs); i++) {
			const char *name = sl_scalar(sl_map_get(sl_seq_item(refs, i), "name"));
			const sl_object *base =
				name ? sl_index_find(ix, SL_KIND_LLM_INFERENCE_SERVICE_CONFIG, name) : NULL;
			if (!base || object_requests_gpu(ix, base))
				return true;
		}
	}
	return false;
}

#define FIX_GPU "nvidia.com/gpu"

/* Attaches the fix for a predictor: nvidia.com/gpu: 1 in the main container's limits. */
static void add_fix(sl_ctx *ctx, sl_report *r, const sl_unit *u)
{
	const sl_container *c = NULL;
	for (size_t i = 0; i < u->n_containers && !c; i++)
		if (u->containers[i].main && !u->containers[i].init)
			c = &u->containers[i];
	const sl_node *cn = c ? sl_node_deref(c->node) : NULL;
	if (!r || !cn || cn->type != SL_NODE_MAP || sl_node_anchor(cn) ||
	    (c->resources && sl_node_anchor(c->resources)) || (c->limits && sl_node_anchor(c->limits)))
		return;   /* an anchored mapping: the edit would change its aliases too */
	/* A zero GPU written already: adding the key again would duplicate it. */
	if (sl_map_get_key(c->limits, FIX_GPU) || sl_map_get_key(c->requests, FIX_GPU))
		return;
	const sl_node *res = sl_map_get_key(cn, "resources");
	bool ok;
	if (!res)
		ok = sl_fix_add_entry(ctx, r, cn, "resources", "limits:\n  " FIX_GPU ": 1");
	else if (!c->resources)
		return;   /* present but not a mapping */
	else if (!sl_map_get_key(c->resources, "limits"))
		ok = sl_fix_add_entry(ctx, r, c->resources, "limits", FIX_GPU ": 1");
	else if (c->limits)
		ok = sl_fix_add_entry(ctx, r, c->limits, FIX_GPU, "1");
	else
		return;
	if (ok)
		sl_fix_describe(ctx, r, SL_FIX_UNSAFE, "add limits." FIX_GPU ": 1 to %s",
				sl_ctx_container_label(ctx, c));
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	const sl_node *at = NULL;
	if (!sl_selection_pinned_to_gpu(cfg, u, &at) || !at)
		return SL_OK;
	if (sl_gpu_unit_use(sl_ctx_index(ctx), u).value != SL_TRI_NO || pod_level_gpu(cfg, u) ||
	    gpu_from_elsewhere(sl_ctx_index(ctx), u))
		return SL_OK;
	const char *key = at->is_key ? sl_scalar(at) : sl_scalar(sl_map_get(at, "key"));
	if (!key)
		key = "a GPU node label";
	const char *label = sl_ctx_label(ctx, u);
	sl_report *r;
	if (u->role == SL_ROLE_TRANSFORMER || u->role == SL_ROLE_EXPLAINER) {
		r = sl_report_at(ctx, at, "%s is pinned to GPU nodes (%s) but requests no GPU", label,
				 key);
		sl_report_note(ctx, r, "Pre- and post-processing belong on CPU nodes: drop the GPU "
			       "selector (it is often copied from the predictor).");
	} else if (u->role == SL_ROLE_PREDICTOR || u->role == SL_ROLE_CANARY ||
		   u->role == SL_ROLE_WORKER) {
		r = sl_report_at(ctx, at, "%s is pinned to GPU nodes (%s) but requests no GPU: add a "
				 "GPU limit", label, key);
		sl_report_note(ctx, r, "Add a GPU limit (for example nvidia.com/gpu: 1) to the main "
			       "container, or drop the GPU selector.");
		add_fix(ctx, r, u);
	} else {
		r = sl_report_at(ctx, at, "%s is pinned to GPU nodes (%s) but requests no GPU", label, key);
		sl_report_note(ctx, r, "Request a GPU, or drop the GPU selector.");
	}
	sl_report_note(ctx, r, "The device plugin gives GPUs only to containers that request them: "
		       "the pod gets none, yet takes a place on an expensive node and keeps the "
		       "autoscaler from scaling that node down.");
	return SL_OK;
}

SL_RULE(gpu_node_without_gpu_request, .id = "gpu-node-without-gpu-request", .category = "gpu",
	.summary = "Pinned to GPU nodes but no container requests a GPU",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_UNSAFE, .check_unit = check,
	/* node agents, and templates (the objects that use them bring the container) */
	.kinds = ~(SL_KIND_BIT(SL_KIND_DAEMONSET) | SL_KIND_BIT(SL_KIND_SERVING_RUNTIME) |
		   SL_KIND_BIT(SL_KIND_CLUSTER_SERVING_RUNTIME) |
		   SL_KIND_BIT(SL_KIND_SELDON_SERVER_CONFIG) |
		   SL_KIND_BIT(SL_KIND_LLM_INFERENCE_SERVICE_CONFIG)));
