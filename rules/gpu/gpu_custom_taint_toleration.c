/* SPDX-License-Identifier: Apache-2.0
** gpu-custom-taint-toleration: a GPU workload on GPU nodes tolerates a home-made GPU taint
** (`dedicated=gpu`, `sku=gpu`) instead of the conventional GPU taint key. One finding per such
** toleration, at the toleration entry. */
#include "rule.h"

/** ## What it does
 * Reports, on a placement unit that requests a GPU and is pinned to GPU nodes (its
 * nodeSelector, or every required node-affinity term, selects a GPU node label), each
 * toleration whose key or value mentions `gpu`, `accelerator` or `nvidia` (in any case) while
 * its key is not a GPU taint key: not a configured GPU resource name such as `nvidia.com/gpu`
 * or `amd.com/gpu`. Examples: `dedicated=gpu`, `sku=gpu`, `gpu-pool=true`,
 * `nvidia.com/gpu.present`. Each such toleration is reported, even when the unit also tolerates
 * the conventional key: the custom taint on the nodes is the problem.
 *
 * ## Why is this bad?
 * The toleration says the GPU nodes carry a custom taint. The NVIDIA device plugin DaemonSet
 * (and the GPU Operator's operands) tolerate only `nvidia.com/gpu`; on a node tainted
 * `dedicated=gpu:NoSchedule` they cannot run, the node advertises no `nvidia.com/gpu`
 * capacity, and GPU pods stay Pending with `Insufficient nvidia.com/gpu`. Tainting GPU nodes
 * `nvidia.com/gpu:NoSchedule` keeps CPU pods off them just as well, lets the device plugin run,
 * and is the taint the ExtendedResourceToleration admission plugin tolerates automatically.
 * (AKS documentation suggests `sku=gpu:NoSchedule`; AKS's own device plugin manifest tolerates
 * it, so on AKS this finding may be suppressed.)
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       cloud.google.com/gke-accelerator: nvidia-l4
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
 *       cloud.google.com/gke-accelerator: nvidia-l4
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
 * `cluster.gpu-node-labels` (which selectors pin to GPU nodes), `cluster.gpu-resources` (the
 * resource names that count as GPUs and as GPU taint keys).
 *
 * ## References
 * - NVIDIA k8s-device-plugin deployments/static/nvidia-device-plugin.yml (tolerates
 *   `nvidia.com/gpu` only)
 * - Kubernetes, Taints and Tolerations, "Nodes with Special Hardware",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
 * - AKS, Use GPUs, https://learn.microsoft.com/azure/aks/gpu-cluster
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

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	if (sl_seq_n(u->tolerations) == 0)
		return SL_OK;
	const char *gpu = sl_unit_gpu_resource(cfg, u);
	if (!gpu || !sl_unit_pinned_to_gpu(cfg, u, NULL))
		return SL_OK;
	for (size_t i = 0; i < sl_seq_n(u->tolerations); i++) {
		const sl_node *t = sl_seq_item(u->tolerations, i);
		const char *key = sl_scalar(sl_map_get(t, "key"));
		const char *val = sl_scalar(sl_map_get(t, "value"));
		if (!key || !*key || sl_is_gpu_resource(cfg, key) ||
		    strncmp(key, "node.kubernetes.io/", 19) == 0)
			continue;
		if (!mentions_gpu(key) && !mentions_gpu(val))
			continue;
		const char *shown = val && *val ? sl_arena_printf(sl_ctx_arena(ctx), "%s=%s", key, val)
					       : key;
		sl_report_at(ctx, t,
			     "%s requests %s on GPU nodes but tolerates the custom taint %s: taint GPU "
			     "nodes %s:NoSchedule instead; the NVIDIA device plugin does not tolerate a "
			     "custom taint, so it cannot run on such nodes and they expose no GPUs",
			     sl_ctx_label(ctx, u), gpu, shown ? shown : key, sl_gpu_taint_key(gpu));
	}
	return SL_OK;
}

SL_RULE(gpu_custom_taint_toleration, .id = "gpu-custom-taint-toleration", .category = "gpu",
	.summary = "Tolerates a custom GPU taint instead of the conventional GPU taint key",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check);
