/* SPDX-License-Identifier: Apache-2.0
** lands-on-gpu-pool: a unit that requests no GPU can land on a GPU node pool; the finding
** points at the unit's tolerations when they let it through the pool's taint, else at the unit. */
#include "sdk/rule.h"

/** ## What it does
 * Only when node pools are known (docs/placement.md), reports a placement unit that requests no
 * GPU (no GPU resource in any container, no DRA claim of a GPU device class) but that
 * kube-scheduler's filters let land on a GPU pool: through an untainted GPU pool, or because its
 * tolerations let it through the GPU pool's taint (an `operator: Exists` toleration with no key
 * tolerates everything). It is reported even when pools without GPUs accept it too: the
 * scheduler spreads pods over every node that fits, so some of them take GPU nodes (the message
 * says when no pool without GPUs accepts it at all). A pool whose GPUs are unknown (an instance
 * type the table of docs/instance-types.md does not know, a placeholder) counts as neither, and
 * a landing that a placeholder in the pool's taints or the unit's tolerations leaves undecided
 * does not count. With
 * several clusters (eksctl ClusterConfigs) and no `cluster.name`, the unit is reported only when
 * it can land on a GPU pool in every cluster where it lands at all. The unit is judged merged
 * over its template, like `no-matching-node-pool`; the message names the GPU pools. Where the
 * GPU pool is defined among the files, `gpu-pool-untainted` reports the pool as well.
 *
 * Not reported for DaemonSets (node agents belong on every node), templates (judged where they
 * are used), or a unit with `nodeName`.
 *
 * ## Why is this bad?
 * The scheduler spreads pods over every node that fits: a transformer, a router or a web
 * frontend ends up on a GPU node, takes its CPU and memory, and keeps it from scaling down. On
 * an autoscaled cluster a pending CPU pod may even make Karpenter launch a GPU instance when the
 * GPU NodePool is the one that fits it.
 *
 * ## Example
 * With an untainted GPU pool `gpu-a100`:
 * ```yaml
 * spec:
 *   transformer:
 *     containers:
 *       - name: kserve-container
 *         image: example/tokenizer
 * ```
 * Use instead: taint the GPU pool (`gpu-pool-untainted`), or keep the unit on CPU nodes:
 * ```yaml
 * spec:
 *   transformer:
 *     nodeSelector:
 *       workload-type: general
 *     containers:
 *       - name: kserve-container
 *         image: example/tokenizer
 * ```
 *
 * ## Fix safety
 * No fix: which nodes the unit belongs on is the author's decision.
 *
 * ## Options
 * `cluster.node-pools` and the pool sources, `cluster.gpu-resources`,
 * `cluster.gpu-device-classes`.
 *
 * ## References
 * - kubernetes pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
 * - Karpenter, "Scheduling", https://karpenter.sh/docs/concepts/scheduling/
 */

/* True when, in cluster c (NULL: every pool), u lands on a pool and on a GPU pool. */
static bool gpu_in(const sl_placement *p, const char *c, bool *lands)
{
	bool gpu = false;
	*lands = false;
	for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);) {
		if (!sl_pool_in_cluster(it.pool, c))
			continue;
		*lands = true;
		if (it.fit->unsure)
			continue;
		gpu |= it.pool->gpu == SL_TRI_YES;
	}
	return gpu;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_index *ix = sl_ctx_index(ctx);
	if (sl_gpu_unit_use(ix, u).value != SL_TRI_NO)
		return SL_OK;
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_placement *p = sl_ctx_placement(ctx, u);
	if (!p)
		return SL_OK;
	/* with several clusters, in every one where it lands */
	size_t nc;
	const char *const *clusters = sl_pool_set_clusters(sl_index_pool_set(ix), &nc);
	bool lands;
	for (size_t c = 0; nc > 1 && c < nc; c++)
		if (!gpu_in(p, clusters[c], &lands) && lands)
			return SL_OK;
	const char *names = NULL;
	size_t count = 0;
	bool tainted = false, elsewhere = false;
	for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);) {
		elsewhere |= it.pool->gpu == SL_TRI_NO;
		if (it.pool->gpu != SL_TRI_YES || it.fit->unsure)
			continue;   /* no GPU, or a placeholder taint or toleration: it may not land */
		count++;
		tainted |= it.pool->n_taints > 0;
		if (count <= 3)
			names = sl_arena_list_add(a, names, it.pool->name);
	}
	if (!count)
		return SL_OK;
	if (count > 3)
		names = sl_arena_printf(a, "%s and %zu more", names, count - 3);
	const sl_node *at = tainted && u->tolerations && u->tolerations->parent ? u->tolerations
			  : u->pod && u->pod->parent ? u->pod : u->obj->spec;
	if (!at || !at->parent)
		at = u->obj->root;
	sl_report *r = sl_report_key(ctx, at, "%s requests no GPU but can land on GPU pool%s %s%s",
				     sl_ctx_label(ctx, u), count > 1 ? "s" : "", names,
				     elsewhere ? "" : ", and on no pool without GPUs");
	for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);)
		if (it.pool->gpu == SL_TRI_YES && !it.fit->unsure)
			sl_report_note(ctx, r, "%s (%s): %s.", it.pool->name, it.pool->where,
				       it.pool->n_taints ? "the unit tolerates its taints"
							 : "it has no taint");
	sl_report_note(ctx, r, "Its pods take the CPU and memory of GPU nodes and keep them from "
		       "scaling down%s", elsewhere ? ": the scheduler spreads them over every node "
		       "that fits, GPU nodes included. Keep it on CPU nodes (a nodeSelector or "
		       "required node affinity), or taint the GPU pool." : ".");
	return SL_OK;
}

SL_RULE(lands_on_gpu_pool, .id = "lands-on-gpu-pool", .category = "inventory",
	.summary = "A unit that requests no GPU can land on a GPU node pool",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET), .modes = 0);
