/* SPDX-License-Identifier: Apache-2.0
** no-matching-node-pool: no known node pool accepts the unit's pods, so they stay Pending; the
** finding points at the field that decides for the first pool (a nodeSelector entry, an
** affinity expression, tolerations, a resource request), else at the unit. */
#include "sdk/rule.h"

/** ## What it does
 * Only when node pools are known (`cluster.node-pools` in the config, Karpenter NodePools,
 * eksctl ClusterConfigs or a node dump among the linted or project files: spec/cluster.md §2),
 * reports a placement unit that can land on none of them. Each pool is judged with
 * kube-scheduler's filters, in its order (TaintToleration, NodeAffinity, NodeResourcesFit), on
 * the pod that is really created: the unit merged over its ServingRuntime or Seldon
 * ServerConfig, KServe's `serving.kserve.io/gke-accelerator` annotation turned into its
 * nodeSelector, and the tolerations admission adds (`cluster.extended-resource-toleration`, or
 * GKE). A Karpenter NodePool is judged with Karpenter's own `Compatible`: a requirement on a key
 * the NodePool does not define fails unless the key is a well-known label or the operator is
 * `NotIn` or `DoesNotExist`. The message gives the first three pools, each with the first filter
 * that fails, short (`taint nvidia.com/gpu`, `selector`, `Insufficient cpu`; a word each, as
 * `schedlint placement`'s grid has them, when that is too long for the first line), then a
 * count; a note gives every failing filter of those three in the scheduler's words, with what
 * exactly (`schedlint placement` shows every pool's).
 *
 * One finding for one cause: when a pool is kept off only by a GPU taint the unit does not
 * tolerate and `gpu-without-toleration` reports that missing toleration for the same unit, this
 * rule yields to it: that finding stays, with this one's message and notes in its notes and this
 * rule's severity (error) when it is the higher. It stays because it names the cause (the
 * missing toleration) and carries the fix (adding it), which also makes the unit land; this
 * rule's finding says only the consequence. A unit also kept off some other way (a selector,
 * too little capacity on every pool) has no such way out and is reported here as well.
 *
 * Every placement unit is judged, the workload kinds' too (a Ray head or worker group, a
 * LeaderWorkerSet's leader and workers, a JobSet's replicated jobs, Kubeflow replica types,
 * Volcano tasks, a SparkApplication driver or executor over its pod template, a KAITO Workspace
 * over the pod KAITO writes: its `labelSelector` as required node affinity, the `nvidia.com/gpu`
 * and `sku=gpu` taints tolerated; docs/domain.md).
 *
 * Not reported for DaemonSets (their pods run on the nodes they match, none is a valid
 * outcome), templates (ServingRuntimes, ServerConfigs, LLMInferenceServiceConfigs, training
 * runtimes: judged on the units that use them), a unit with `nodeName` (`node-name-set`), a
 * ModelMesh predictor (no pod), or a KAITO Workspace with `resource.instanceType` (KAITO
 * provisions nodes of that type for it, labelled as its `labelSelector` asks: no pool of the
 * cluster's is where it lands).
 *
 * ## Why is this bad?
 * The pods stay Pending with the event `0/N nodes are available: ...` and, on an autoscaled
 * cluster, no node is ever added for them (Karpenter logs `incompatible with nodepool ...`).
 * The InferenceService never becomes Ready.
 *
 * ## Example
 * With a pool `gpu-a100` tainted `nvidia.com/gpu=present:NoSchedule` and a pool `cpu`:
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
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
 * No fix: which pool the unit should land on, and what to change for it, is the author's
 * decision.
 *
 * ## Options
 * `cluster.node-pools`, `cluster.node-inventory`, `cluster.extended-resource-toleration`,
 * `cluster.provider`, `cluster.gpu-resources`, `cluster.toleration-comparison-operators`.
 *
 * ## References
 * - kubernetes pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
 *   (`node(s) had untolerated taint {key: value}`)
 * - kubernetes pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (`ErrReasonPod`:
 *   `node(s) didn't match Pod's node affinity/selector`)
 * - kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go (`Insufficient <resource>`)
 * - kubernetes-sigs/karpenter pkg/scheduling/requirements.go (`Compatible`, `Intersects`)
 */

#define MAX_NOTES 3   /* the pools the message names; `schedlint placement` shows all */

/* The node the finding points at: the first failing reason's field, else the unit's key. */
static const sl_node *anchor(const sl_unit *u, const sl_placement_verdict *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t r = 0; r < v[i].n_reasons; r++)
			if (v[i].reasons[r].at)
				return v[i].reasons[r].at;
	if (u->pod && u->pod->parent)
		return u->pod;
	return u->obj->spec && u->obj->spec->parent ? u->obj->spec : u->obj->root;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_placement *p = sl_ctx_placement(ctx, u);
	sl_placement_iter lands = sl_placement_pools(p, true);
	if (!p || sl_placement_next(&lands))
		return SL_OK;
	/* it lands nowhere: now the reasons in words, of the pools the finding names */
	const sl_pool *pools = p->pools;
	size_t n = p->n, nw = n < MAX_NOTES ? n : MAX_NOTES;
	sl_placement_verdict *v = sl_arena_alloc(a, nw * sizeof *v);
	if (!v)
		return SL_ENOMEM;
	/* the first line: each pool's first reason, short (the note: the scheduler's words); a
	** word each when that is too long */
	const char *list = "", *words = "";
	for (size_t i = 0; i < nw; i++) {
		v[i] = sl_placement_eval(p->pod, &pools[i], a);
		const sl_placement_reason *re = &v[i].reasons[0];
		const char *why = re->taint ? sl_arena_printf(a, "taint %.*s", (int)re->taint->key.n,
							       re->taint->key.s ? re->taint->key.s : "")
			: re->filter == SL_PLACEMENT_RESOURCES ? re->text : re->brief;
		list = sl_arena_printf(a, "%s%s%s: %s", list, i ? "; " : "", pools[i].name, why);
		words = sl_arena_printf(a, "%s%s%s: %s", words, i ? "; " : "", pools[i].name,
					re->brief);
	}
	if (n > nw) {
		list = sl_arena_printf(a, "%s; and %zu more", list, n - nw);
		words = sl_arena_printf(a, "%s; and %zu more", words, n - nw);
	}
	if (list && strlen(list) + strlen(sl_ctx_label(ctx, u)) > 130)
		list = words;
	const sl_node *at = anchor(u, v, nw);
	sl_report *r = at == u->pod || at == u->obj->spec || at == u->obj->root
		? sl_report_key(ctx, at, "%s fits no node pool (%s)", sl_ctx_label(ctx, u), list)
		: sl_report_at(ctx, at, "%s fits no node pool (%s)", sl_ctx_label(ctx, u), list);
	/* one note: a line per pool the message names, built in one buffer */
	char buf[8192];
	size_t len = 0;
	for (size_t i = 0; i < nw && len < sizeof buf; i++) {
		int k = snprintf(buf + len, sizeof buf - len, "%s%s, %s:", i ? "\n" : "", pools[i].name,
				 pools[i].where);
		for (size_t j = 0; k > 0 && j < v[i].n_reasons && len + (size_t)k < sizeof buf; j++) {
			const sl_placement_reason *re = &v[i].reasons[j];
			len += (size_t)k;
			k = snprintf(buf + len, sizeof buf - len, "%s %s%s%s%s", j ? ";" : "", re->text,
				     re->detail ? " (" : "", re->detail ? re->detail : "",
				     re->detail ? ")" : "");
		}
		if (k > 0)
			len += (size_t)k;
	}
	if (len >= sizeof buf)
		len = sizeof buf - 1;
	buf[len] = '\0';
	sl_report_note(ctx, r, "%s", buf);
	if (n > MAX_NOTES)
		sl_report_note(ctx, r, "And %zu more pools: `schedlint placement` shows every one.",
			       n - MAX_NOTES);
	sl_report_note(ctx, r, "The pods stay Pending: \"0/N nodes are available\", and no "
		       "autoscaler adds a node for them.");
	/* a pool kept off by one untolerated taint alone: tolerating it is a way out */
	for (size_t i = 0; i < n; i++) {
		sl_placement_verdict all = sl_placement_eval_all(p->pod, &pools[i]);
		const sl_taint *t = all.n_reasons == 1 ? all.reasons[0].taint : NULL;
		if (t)
			sl_report_cause(ctx, r, "untolerated taint %.*s", (int)t->key.n,
					t->key.s ? t->key.s : "");
	}
	return SL_OK;
}

static const char *const yields[] = {"gpu-without-toleration", NULL};

SL_RULE(no_matching_node_pool, .id = "no-matching-node-pool", .category = "inventory",
	.summary = "No known node pool accepts the unit's pods: they stay Pending",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET), .modes = 0, .yields_to = yields);
