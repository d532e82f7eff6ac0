/* SPDX-License-Identifier: Apache-2.0
** invalid-node-pool: a node pool defined among the files (a Karpenter NodePool, an eksctl node
** group) with a requirement, a taint or a label its API rejects; the finding points at the
** field at fault. */
#include "sdk/rule.h"

/** ## What it does
 * Validates the parts of a pool definition that placement reads (docs/placement.md), as the
 * API server and the tools do:
 * - a Karpenter `NodePool`'s `spec.template.spec.requirements`: each as a
 *   `NodeSelectorRequirement` (`ValidateNodeSelectorRequirement`: the operator, the value count
 *   per operator, the key as a label name, each value as a label value), and that it builds as
 *   the scheduler builds it (`labels.NewRequirement`: a `Gt`/`Lt` value is an integer);
 * - its `spec.template.spec.taints` and `startupTaints`, and the `taints` of each eksctl
 *   `nodeGroups` / `managedNodeGroups` entry (list form `{key, value, effect}` or map form
 *   `key: "value:Effect"`): the key a qualified name, the value a label value, the effect
 *   `NoSchedule`, `PreferNoSchedule` or `NoExecute`;
 * - the NodePool's `spec.template.metadata.labels` and each node group's `labels`: keys and
 *   values as labels.
 *
 * A pool whose requirement does not build is read without it, and a taint with an unknown
 * effect is left out of the pool, so `schedlint placement` and the `inventory` rules would judge
 * a pool the cluster never has: this rule says so. (Config pools are checked when the config
 * loads: `cluster.node-pools` errors name the file, line and column.)
 *
 * ## Why is this bad?
 * The API server (Karpenter's CRD validation) or eksctl refuses the object: the NodePool is not
 * created, or the node group fails to deploy, and the workloads meant for it stay Pending.
 *
 * ## Example
 * ```yaml
 * spec:
 *   template:
 *     spec:
 *       requirements:
 *         - key: karpenter.sh/capacity-type
 *           operator: in
 *           values: ["spot"]
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   template:
 *     spec:
 *       requirements:
 *         - key: karpenter.sh/capacity-type
 *           operator: In
 *           values: ["spot"]
 * ```
 *
 * ## Fix safety
 * No fix: `invalid-node-affinity` fixes an operator's case in pod specs; a NodePool is owned by
 * the platform team and is left to them.
 *
 * ## Options
 * None.
 *
 * ## References
 * - kubernetes pkg/apis/core/validation/validation.go (`ValidateNodeSelectorRequirement`,
 *   `validateTaintEffect`)
 * - Karpenter, NodePools, https://karpenter.sh/docs/concepts/nodepools/ (requirements, taints)
 * - eksctl config file schema, `taints` and `labels`, https://eksctl.io/usage/schema/
 */

/* The node of the field a requirement problem is about. */
static const sl_node *problem_node(const sl_node *e, const sl_k8s_problem *p)
{
	const sl_node *n = NULL;
	if (p->field == SL_K8S_F_KEY)
		n = sl_map_get(e, "key");
	else if (p->field == SL_K8S_F_OPERATOR)
		n = sl_map_get(e, "operator");
	else if (p->field == SL_K8S_F_VALUES) {
		const sl_node *vals = sl_map_get(e, "values");
		n = p->index >= 0 && (size_t)p->index < sl_seq_n(vals) ? sl_seq_item(vals, (size_t)p->index)
									: vals;
	}
	return n ? n : e;
}

static void requirements(sl_ctx *ctx, const char *label, const sl_node *reqs, const char *path)
{
	sl_arena *a = sl_ctx_arena(ctx);
	for (size_t i = 0; i < sl_seq_n(reqs); i++) {
		const sl_node *e = sl_seq_item(reqs, i);
		sl_requirement r;
		if (!sl_selection_requirement(a, e, &r))
			return;
		sl_k8s_problem probs[8];
		size_t n = sl_k8s_requirement_validate(&r, true, probs, 8);
		char why[SL_K8S_MSG_MAX];
		if (n == 0 && !sl_k8s_requirement_builds(&r, false, why, sizeof why))
			sl_report_rejected(ctx, sl_map_get(e, "values") ? sl_map_get(e, "values") : e, label,
					   sl_arena_printf(a, "%s[%zu]", path, i),
					   why);
		for (size_t j = 0; j < n && j < 8; j++) {
			const sl_k8s_problem *p = &probs[j];
			const char *where = p->api_field == SL_K8S_F_VALUES && p->index >= 0
				? sl_arena_printf(a, "%s[%zu].values[%d]", path, i, p->index)
				: sl_arena_printf(a, "%s[%zu].%s", path, i, sl_k8s_field_name(p->api_field));
			sl_report_rejected(ctx, problem_node(e, p), label, where, p->message);
		}
	}
}

/* One taint: key, value, effect nodes (value may be NULL). */
static void taint(sl_ctx *ctx, const char *label, const char *path, const sl_node *key,
		  const sl_node *value, const sl_node *effect, const char *effect_text)
{
	char msg[SL_K8S_MSG_MAX];
	sl_k8s_str k = sl_node_str(key), v = sl_node_str(value);
	const char *e = effect_text ? effect_text : sl_scalar(effect);
	if (sl_k8s_check_qualified_name(k.s ? k.s : "", k.n, msg, sizeof msg) > 0)
		sl_report_rejected(ctx, key, label, sl_arena_printf(sl_ctx_arena(ctx), "%s.key", path),
				   sl_arena_printf(sl_ctx_arena(ctx), "Invalid value: \"%.*s\": %s",
						   (int)k.n, k.s ? k.s : "", msg));
	if (value && sl_k8s_check_label_value(v.s ? v.s : "", v.n, msg, sizeof msg) > 0)
		sl_report_rejected(ctx, value, label, sl_arena_printf(sl_ctx_arena(ctx), "%s.value", path),
				   sl_arena_printf(sl_ctx_arena(ctx), "Invalid value: \"%.*s\": %s",
						   (int)v.n, v.s, msg));
	if (!e || !sl_k8s_taint_effect_is_valid(e, strlen(e)))
		sl_report_rejected(ctx, effect, label, sl_arena_printf(sl_ctx_arena(ctx), "%s.effect", path),
				   sl_arena_printf(sl_ctx_arena(ctx), "Unsupported value: \"%s\": supported "
						   "values: \"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"",
						   e ? e : ""));
}

static void taint_list(sl_ctx *ctx, const char *label, const sl_node *list, const char *path)
{
	for (size_t i = 0; i < sl_seq_n(list); i++) {
		const sl_node *t = sl_seq_item(list, i);
		if (!t || sl_node_deref(t)->type != SL_NODE_MAP)
			continue;
		taint(ctx, label, sl_arena_printf(sl_ctx_arena(ctx), "%s[%zu]", path, i),
		      sl_map_get(t, "key") ? sl_map_get(t, "key") : t, sl_map_get(t, "value"),
		      sl_map_get(t, "effect") ? sl_map_get(t, "effect") : t, NULL);
	}
}

static void labels(sl_ctx *ctx, const char *label, const sl_node *map, const char *path)
{
	char msg[SL_K8S_MSG_MAX];
	sl_arena *a = sl_ctx_arena(ctx);
	for (size_t i = 0; i < sl_map_n(map); i++) {
		const sl_pair *p = sl_map_pair(map, i);
		sl_k8s_str k = sl_node_str(p->key), v = sl_node_str(p->value);
		if (sl_k8s_check_qualified_name(k.s ? k.s : "", k.n, msg, sizeof msg) > 0)
			sl_report_rejected(ctx, p->key, label, path, sl_arena_printf(a,
					   "Invalid value: \"%.*s\": %s", (int)k.n, k.s ? k.s : "", msg));
		else if (sl_k8s_check_label_value(v.s ? v.s : "", v.n, msg, sizeof msg) > 0)
			sl_report_rejected(ctx, p->value, label, sl_arena_printf(a, "%s.%.*s", path,
					   (int)k.n, k.s), sl_arena_printf(a, "Invalid value: \"%.*s\": %s",
									    (int)v.n, v.s ? v.s : "", msg));
	}
}

static void node_group(sl_ctx *ctx, const sl_node *ng, const char *path)
{
	const char *name = sl_scalar(sl_map_get(ng, "name"));
	const char *label = sl_arena_printf(sl_ctx_arena(ctx), "node group %s", name ? name : "?");
	labels(ctx, label, sl_map_get(ng, "labels"), sl_arena_printf(sl_ctx_arena(ctx), "%s.labels", path));
	const sl_node *taints = sl_map_get(ng, "taints");
	const char *tp = sl_arena_printf(sl_ctx_arena(ctx), "%s.taints", path);
	if (taints && sl_node_deref(taints)->type == SL_NODE_SEQ) {
		taint_list(ctx, label, taints, tp);
		return;
	}
	for (size_t i = 0; i < sl_map_n(taints); i++) {   /* key: "value:Effect" */
		const sl_pair *p = sl_map_pair(taints, i);
		const char *v = sl_scalar(p->value);
		const char *colon = v ? strrchr(v, ':') : NULL;
		taint(ctx, label, sl_arena_printf(sl_ctx_arena(ctx), "%s.%s", tp, sl_scalar(p->key)),
		      p->key, NULL, p->value, colon ? colon + 1 : "");
	}
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	if (o->kind == SL_KIND_EKSCTL_CLUSTER_CONFIG) {
		static const char *const lists[] = {"nodeGroups", "managedNodeGroups"};
		for (size_t l = 0; l < 2; l++) {
			const sl_node *groups = sl_map_get(o->root, lists[l]);
			for (size_t i = 0; i < sl_seq_n(groups); i++)
				node_group(ctx, sl_seq_item(groups, i),
					   sl_arena_printf(sl_ctx_arena(ctx), "%s[%zu]", lists[l], i));
		}
		return SL_OK;
	}
	const char *label = sl_object_label(o, sl_ctx_arena(ctx));
	const sl_node *tmpl = sl_map_get(o->spec, "template");
	const sl_node *ts = sl_map_get(tmpl, "spec");
	requirements(ctx, label, sl_map_get(ts, "requirements"), "spec.template.spec.requirements");
	taint_list(ctx, label, sl_map_get(ts, "taints"), "spec.template.spec.taints");
	taint_list(ctx, label, sl_map_get(ts, "startupTaints"), "spec.template.spec.startupTaints");
	labels(ctx, label, sl_map_get(sl_map_get(tmpl, "metadata"), "labels"),
	       "spec.template.metadata.labels");
	return SL_OK;
}

SL_RULE(invalid_node_pool, .id = "invalid-node-pool", .category = "validity",
	.summary = "A NodePool or eksctl node group with a requirement, taint or label its API rejects",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_KARPENTER_NODE_POOL) | SL_KIND_BIT(SL_KIND_EKSCTL_CLUSTER_CONFIG),
	.modes = 0);
