/* SPDX-License-Identifier: Apache-2.0
** lands-on-gpu-pool: a unit that requests no GPU can land on a GPU node pool; the finding
** points at the unit's tolerations when they let it through the pool's taint, else at the unit. */
#include "sdk/rule.h"

/** ## What it does
 * Only when node pools are known (docs/placement.md), reports a placement unit that requests no
 * GPU (no GPU resource in any container, no DRA claim of a GPU device class) but that
 * kube-scheduler's filters let land on a GPU pool, when the unit is the cause or has no choice:
 * its tolerations let it through the GPU pool's taint (an `operator: Exists` toleration with no
 * key tolerates everything), or no pool without GPUs accepts it (too large for the CPU pools, or
 * selected away from them). A unit that could land on an untainted GPU pool but also on CPU
 * pools is not reported: the pool is at fault, and `gpu-pool-untainted` reports it once rather
 * than every unit of the cluster. The unit is judged merged over its template, like
 * `no-matching-node-pool`; the message names the GPU pools.
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

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_index *ix = sl_ctx_index(ctx);
	if (sl_gpu_unit_use(ix, u).value != SL_TRI_NO)
		return SL_OK;
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_placement *p = sl_ctx_placement(ctx, u);
	if (!p)
		return SL_OK;
	const char *names = NULL;
	size_t count = 0;
	bool tainted = false, elsewhere = false;
	for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);) {
		elsewhere |= it.pool->gpu == SL_TRI_NO;
		if (it.pool->gpu != SL_TRI_YES)
			continue;
		count++;
		tainted |= it.pool->n_taints > 0;
		if (count <= 3)
			names = sl_arena_list_add(a, names, it.pool->name);
	}
	if (!count || (!tainted && elsewhere))
		return SL_OK;   /* an untainted GPU pool among others: gpu-pool-untainted's */
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
		if (it.pool->gpu == SL_TRI_YES)
			sl_report_note(ctx, r, "%s (%s): %s.", it.pool->name, it.pool->where,
				       it.pool->n_taints ? "the unit tolerates its taints"
							 : "it has no taint");
	sl_report_note(ctx, r, "Its pods take the CPU and memory of GPU nodes and keep them from "
		       "scaling down.");
	return SL_OK;
}

SL_RULE(lands_on_gpu_pool, .id = "lands-on-gpu-pool", .category = "inventory",
	.summary = "A unit that requests no GPU can land on a GPU node pool",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET), .modes = 0);
