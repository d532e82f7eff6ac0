/* SPDX-License-Identifier: Apache-2.0
** gpu-pool-untainted: a GPU node pool among the files (a Karpenter NodePool, an eksctl node
** group, a node dump's pool) carries no NoSchedule taint while another pool could take the pods
** that tolerate nothing; the finding points at the pool's name. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a node pool whose nodes offer a GPU but carry no `NoSchedule` (or `NoExecute`) taint,
 * for the pools among the linted files: a Karpenter `NodePool` (GPU from its requirements on
 * instance types and families, `karpenter.k8s.aws/instance-gpu-*` labels, or `spec.limits`
 * naming a GPU resource), each node group of an eksctl `ClusterConfig` (GPU from its instance
 * types) and each pool of a node dump (GPU from the nodes' allocatable), reported at the first
 * node's name. Instance types are read in the cited table of docs/instance-types.md (AWS p2 to
 * p6, g3 to g6e, g4ad, g5g, gr6; Google a2, a3, g2; Azure NC, ND, NV); a type it does not know
 * leaves the pool's GPUs unknown, and it is not reported; nor is a pool whose taints hold a
 * placeholder (`key: "{{ .Values.gpuTaintKey }}"`: what it keeps off is unknown).
 * `startupTaints` do not count: they are removed before pods schedule. A NodePool that may
 * launch GPU instances but is not restricted to them is not a GPU pool.
 *
 * Not reported when no other pool of its cluster could take the pods that tolerate nothing
 * (system pods, add-ons): when it is its cluster's only pool (an eksctl ClusterConfig with one
 * node group), or every other pool has GPUs or a NoSchedule taint. A taint would leave those
 * pods nowhere. Pools belong to their eksctl ClusterConfig; config pools, NodePools and node
 * dumps to every cluster. Pools from the config (`cluster.node-pools`) are not reported (the
 * config is not a linted file), nor Kueue ResourceFlavors (they describe nodes and often list
 * only the tolerations).
 *
 * ## Why is this bad?
 * Any pod without a GPU request can be scheduled on the pool's nodes. It takes CPU and memory a
 * GPU job needed, and keeps the expensive node from scaling down (Karpenter and the cluster
 * autoscaler do not remove a node that runs pods). NVIDIA's and the cloud providers' guidance is
 * to taint GPU nodes (`nvidia.com/gpu:NoSchedule`) and let GPU pods tolerate it (GKE adds the
 * toleration itself, the ExtendedResourceToleration admission plugin does elsewhere).
 *
 * ## Example
 * ```yaml
 * apiVersion: karpenter.sh/v1
 * kind: NodePool
 * metadata:
 *   name: gpu
 * spec:
 *   template:
 *     spec:
 *       requirements:
 *         - key: karpenter.k8s.aws/instance-family
 *           operator: In
 *           values: ["g5"]
 * ```
 * Use instead:
 * ```yaml
 * apiVersion: karpenter.sh/v1
 * kind: NodePool
 * metadata:
 *   name: gpu
 * spec:
 *   template:
 *     spec:
 *       requirements:
 *         - key: karpenter.k8s.aws/instance-family
 *           operator: In
 *           values: ["g5"]
 *       taints:
 *         - key: nvidia.com/gpu
 *           effect: NoSchedule
 * ```
 *
 * ## Fix safety
 * No fix: a taint keeps away every pod that does not tolerate it, GPU pods included, so the
 * tolerations have to be added first.
 *
 * ## Options
 * `cluster.gpu-resources` (what counts as a GPU in `spec.limits`).
 *
 * ## References
 * - Karpenter, NodePools, "Taints": https://karpenter.sh/docs/concepts/nodepools/
 * - eksctl, "GPU support" and node group taints: https://eksctl.io/usage/gpu-support/
 * - Kubernetes, Taints and Tolerations, "Nodes with Special Hardware",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
 */

static bool repels(const sl_pool *p)
{
	for (size_t i = 0; i < p->n_taints; i++)
		if (sl_k8s_str_is(p->taints[i].effect, "NoSchedule") ||
		    sl_k8s_str_is(p->taints[i].effect, "NoExecute"))
			return true;
	return false;
}

/* True when a pool of p's cluster other than p could take pods that tolerate nothing: one
** without GPUs and without a NoSchedule or NoExecute taint. */
static bool system_pool_beside(const sl_pool_set *set, const sl_pool *p)
{
	size_t n;
	const sl_pool *all = sl_pool_set_pools(set, &n);
	for (size_t i = 0; i < n; i++) {
		const sl_pool *q = &all[i];
		if (q == p || q->origin == SL_POOL_KUEUE || !sl_pool_in_cluster(q, p->cluster))
			continue;
		if (q->gpu != SL_TRI_YES && !repels(q) && !q->taints_unknown)
			return true;
	}
	return false;
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const sl_pool *first;
	const sl_pool_set *set = sl_index_pool_set(sl_ctx_index(ctx));
	size_t n = sl_pool_set_of_object(set, o, &first);
	for (size_t i = 0; i < n; i++) {
		const sl_pool *p = &first[i];
		if (p->gpu != SL_TRI_YES || repels(p) || p->taints_unknown || !p->at ||
		    !system_pool_beside(set, p))
			continue;
		/* "NodePool gpu (pools.yaml:4)": the finding is at the position already */
		const char *paren = strstr(p->where, " (");
		const char *what = paren ? sl_arena_strndup(sl_ctx_arena(ctx), p->where,
							    (size_t)(paren - p->where)) : p->where;
		sl_report *r = sl_report_at(ctx, p->at, "%s offers %s but has no NoSchedule taint: pods "
					    "that request no GPU can take its nodes", what,
					    p->gpu_resource ? p->gpu_resource : "GPUs");
		sl_report_note(ctx, r, "Such pods keep the GPU nodes from scaling down and take the CPU "
			       "and memory GPU work needs. Taint the pool (%s:NoSchedule) and give the "
			       "GPU workloads the toleration.",
			       p->gpu_resource ? sl_gpu_taint_key(p->gpu_resource) : "nvidia.com/gpu");
	}
	return SL_OK;
}

SL_RULE(gpu_pool_untainted, .id = "gpu-pool-untainted", .category = "inventory",
	.summary = "A GPU node pool has no NoSchedule taint: any pod can take its nodes",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_KARPENTER_NODE_POOL) | SL_KIND_BIT(SL_KIND_EKSCTL_CLUSTER_CONFIG) |
		 SL_KIND_BIT(SL_KIND_NODE_LIST),
	.modes = 0);
