/* SPDX-License-Identifier: Apache-2.0
** gpu-custom-taint-toleration: a GPU workload on GPU nodes tolerates a home-made GPU taint
** (`dedicated=gpu`, `sku=gpu`) instead of the conventional GPU taint key. One finding per such
** toleration, at the toleration entry. */
#include "sdk/rule.h"

/** ## What it does
 * Reports, on a placement unit that requests a GPU (a GPU resource, or a DRA claim for a GPU
 * device class) and is pinned to GPU nodes (its nodeSelector, or every required node-affinity
 * term, selects a GPU node label), each
 * toleration whose key or value mentions `gpu`, `accelerator` or `nvidia` (in any case) while
 * its key is not a GPU taint key: not a configured GPU resource name such as `nvidia.com/gpu`
 * or `amd.com/gpu`. Examples: `dedicated=gpu`, `sku=gpu`, `gpu-pool=true`,
 * `nvidia.com/gpu.present`. Each such toleration is reported, even when the unit also tolerates
 * the conventional key: the custom taint on the nodes is the problem.
 *
 * Not on AKS: when `cluster.provider` is `aks`, or the unit selects the AKS accelerator label
 * `kubernetes.azure.com/accelerator`. Microsoft recommends tainting AKS GPU pools
 * `sku=gpu:NoSchedule`, and the AKS-managed NVIDIA device plugin tolerates it. Not on GKE either
 * (`cluster.provider: gke`, a GKE accelerator label, or the `serving.kserve.io/gke-accelerator`
 * annotation): GKE installs the device plugin itself, and its DaemonSet tolerates every
 * `NoSchedule` and `NoExecute` taint (`operator: Exists`), so a custom taint does not keep it off
 * the node. The spec's row names only AKS; the GKE exception follows the source cited below.
 *
 * Not reported for a ModelMesh InferenceService predictor: ModelMesh builds no pod from it
 * (its placement fields are ignored; `modelmesh-placement-ignored`).
 *
 * ## Why is this bad?
 * The toleration says the GPU nodes carry a custom taint. The NVIDIA device plugin DaemonSet
 * (and the GPU Operator's operands) tolerate only `nvidia.com/gpu`; on a node tainted
 * `dedicated=gpu:NoSchedule` they cannot run, the node advertises no `nvidia.com/gpu`
 * capacity, and GPU pods stay Pending with `Insufficient nvidia.com/gpu`. Tainting GPU nodes
 * `nvidia.com/gpu:NoSchedule` keeps CPU pods off them just as well, lets the device plugin run,
 * and is the taint the ExtendedResourceToleration admission plugin tolerates automatically.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       nvidia.com/gpu.product: NVIDIA-L4
 *     tolerations:
 *       - key: dedicated
 *         operator: Equal
 *         value: gpu
 *         effect: NoSchedule
 *     model:
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 * Use instead (and taint the nodes `nvidia.com/gpu:NoSchedule`):
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       nvidia.com/gpu.product: NVIDIA-L4
 *     tolerations:
 *       - key: nvidia.com/gpu
 *         operator: Exists
 *         effect: NoSchedule
 *     model:
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * No fix: the taint lives on the nodes, which the manifest does not describe.
 *
 * ## Options
 * `cluster.gpu-node-labels` (which selectors pin to GPU nodes), `cluster.gpu-resources` and
 * `cluster.gpu-device-classes` (what counts as a GPU, and the GPU taint keys),
 * `cluster.provider` (`aks`: the rule does not report).
 *
 * ## References
 * - NVIDIA k8s-device-plugin deployments/static/nvidia-device-plugin.yml (tolerates
 *   `nvidia.com/gpu` only)
 * - Kubernetes, Taints and Tolerations, "Nodes with Special Hardware",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
 * - kubernetes cluster/addons/device-plugins/nvidia-gpu/daemonset.yaml (GKE's device plugin:
 *   affinity on `cloud.google.com/gke-accelerator`, tolerations `operator: Exists`)
 * - AKS, Use GPUs for compute-intensive workloads (the `sku=gpu:NoSchedule` taint and the
 *   managed device plugin that tolerates it), https://learn.microsoft.com/azure/aks/gpu-cluster
 */

/* Case-insensitive: does s mention one of the GPU words? */
static bool mentions_gpu(const char *s)
{
	static const char *const words[] = {"gpu", "accelerator", "nvidia"};
	for (const char *p = s; p && *p; p++)
		for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
			size_t n = strlen(words[w]), k = 0;
			while (k < n && p[k] && (p[k] | 0x20) == words[w][k])
				k++;
			if (k == n)
				return true;
		}
	return false;
}

/* True when u selects the AKS accelerator label (a nodeSelector key or a required expression). */
static bool selects_aks_accelerator(const sl_selection *sel, void *payload)
{
	(void)payload;
	return sel->key && strcmp(sel->key, "kubernetes.azure.com/accelerator") == 0;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	const sl_index *ix = sl_ctx_index(ctx);
	if (sl_seq_n(u->tolerations) == 0)
		return SL_OK;
	sl_gpu_use g = sl_gpu_unit_use(ix, u);
	if (g.value != SL_TRI_YES || !sl_selection_pinned_to_gpu(cfg, u, NULL))
		return SL_OK;
	/* AKS: the managed device plugin tolerates the recommended sku=gpu taint; GKE: its device
	** plugin tolerates every taint */
	sl_provider pv = sl_cluster_provider(ix, u, sl_ctx_arena(ctx), NULL);
	if (pv == SL_PROVIDER_AKS || pv == SL_PROVIDER_GKE ||
	    sl_selection_each(u, selects_aks_accelerator, NULL))
		return SL_OK;
	const char *gpu = g.resource ? g.resource : g.device_class;
	const char *taint = g.resource ? sl_gpu_taint_key(g.resource)
				       : sl_gpu_class_taint_key(g.device_class);
	if (!taint)
		taint = "nvidia.com/gpu";
	for (size_t i = 0; i < sl_seq_n(u->tolerations); i++) {
		const sl_node *t = sl_seq_item(u->tolerations, i);
		const char *key = sl_scalar(sl_map_get(t, "key"));
		const char *val = sl_scalar(sl_map_get(t, "value"));
		if (!key || !*key || sl_config_is_gpu_resource(cfg, key) || sl_gpu_unit_taint(ix, u, key) ||
		    strncmp(key, "node.kubernetes.io/", 19) == 0)
			continue;
		if (!mentions_gpu(key) && !mentions_gpu(val))
			continue;
		const char *shown = val && *val ? sl_arena_printf(sl_ctx_arena(ctx), "%s=%s", key, val)
					       : key;
		sl_report *r = sl_report_at(ctx, t, "%s tolerates the custom GPU taint %s: taint the GPU "
					    "nodes %s:NoSchedule instead", sl_ctx_label(ctx, u),
					    shown ? shown : key, taint);
		sl_report_note(ctx, r, "The unit uses %s on GPU nodes. The NVIDIA device plugin and the "
			       "GPU Operator's DaemonSets tolerate only nvidia.com/gpu by default: on "
			       "nodes with a custom taint they do not run unless their tolerations were "
			       "extended, the nodes advertise no GPUs, and GPU pods stay Pending with "
			       "\"Insufficient nvidia.com/gpu\".", gpu);
		sl_report_note(ctx, r, "On AKS or GKE, whose managed device plugins tolerate such "
			       "taints, set cluster.provider.");
	}
	return SL_OK;
}

SL_RULE(gpu_custom_taint_toleration, .id = "gpu-custom-taint-toleration", .category = "gpu",
	.summary = "Tolerates a custom GPU taint instead of the conventional GPU taint key",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check);
