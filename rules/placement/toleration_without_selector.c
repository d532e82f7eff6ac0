/* SPDX-License-Identifier: Apache-2.0
** toleration-without-selector: a unit tolerates a taint but nothing keeps it on the tainted
** nodes, judged on the unit merged over its template. One finding per unit, at its
** `tolerations:` key, naming the tolerated taint keys. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a placement unit that tolerates a taint but has no nodeSelector and no required node
 * affinity, judged on the unit as its pods really get it: an InferenceService predictor merged
 * over the ServingRuntime its `model.runtime` names, a Seldon Server over its ServerConfig (a
 * selector or toleration that comes from the template counts). Not counted:
 * - tolerations of `node.kubernetes.io/`-prefixed and `node.cloudprovider.kubernetes.io/`-prefixed taints (set
 *   by Kubernetes itself);
 * - startup, readiness and agent taints that the node's own agents remove (keys ending `/not-ready`,
 *   or `agent-not-ready`, `karpenter.sh/`-prefixed keys, `CriticalAddonsOnly`,
 *   `node-role.kubernetes.io/control-plane`, `node-role.kubernetes.io/master`): tolerating them
 *   means "run anywhere", which is the intent;
 * - accelerator taints: the GPU taint on a unit that requests or claims (DRA) that GPU, itself
 *   or through its template (the request already confines it to GPU nodes), and the taint of any
 *   GPU or accelerator resource (`cluster.gpu-resources`, `cluster.accelerator-resources`:
 *   `nvidia.com/gpu`, `google.com/tpu`, ...) on a unit that requests none: it means "may also
 *   run on the accelerator nodes" (a controller or a validator that runs anywhere, a pod whose
 *   DRA claim schedlint cannot resolve), like the spot taints. Whether a CPU unit can take an
 *   accelerator node is `lands-on-gpu-pool`'s question, on the pools' evidence. (Real
 *   repositories bear this out: every GPU-taint toleration on a unit without a GPU request that
 *   a review of nine ML-platform repositories found was of the second kind.)
 * - spot taints ("may use spot" is the intent; `critical-on-spot` covers the risk);
 * - the `kubernetes.io/arch` taint: GKE taints its Arm nodes `kubernetes.io/arch=arm64:NoSchedule`
 *   so that single-architecture images stay off them, and tolerating it means "may also run on
 *   Arm" (a multi-architecture image), like the spot taints: nothing to select.
 *
 * A template (ServingRuntime, ClusterServingRuntime, Seldon ServerConfig,
 * LLMInferenceServiceConfig) is judged through the units among the files that use it, and on
 * its own only when none does. DaemonSets are node agents and are skipped. Reported once per
 * unit, at `tolerations:` (at the unit's pod spec when every counted toleration comes from its
 * template); the message names the tolerated keys.
 *
 * ## Why is this bad?
 * A toleration only *permits* a pod onto tainted nodes; it does not attract it there. Without a
 * selector the scheduler may place the pod on any untainted node, so the dedicated pool the
 * taint protects is not where the workload runs, and pods meant for it compete with everything
 * else. Dedicated nodes need both halves: the taint keeps others off, the selector keeps these
 * pods on.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     tolerations:
 *       - key: dedicated
 *         operator: Equal
 *         value: inference
 *         effect: NoSchedule
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       dedicated: inference
 *     tolerations:
 *       - key: dedicated
 *         operator: Equal
 *         value: inference
 *         effect: NoSchedule
 * ```
 *
 * ## Fix safety
 * No fix: the node label that selects the pool is not in the manifest. The message names the
 * tolerated taint keys.
 *
 * ## Options
 * `cluster.gpu-resources` (which requests confine a unit), `cluster.spot-labels` (which taint
 * keys are spot taints).
 *
 * ## References
 * - Kubernetes, Taints and Tolerations: "Dedicated Nodes",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
 * - Kubernetes, well-known taints (`node.kubernetes.io/not-ready`, `node.kubernetes.io/unreachable`
 *   ...): https://kubernetes.io/docs/reference/labels-annotations-taints/
 * - Karpenter startup taints (`karpenter.sh/`-prefixed keys) and `CriticalAddonsOnly`:
 *   https://karpenter.sh/docs/concepts/nodepools/#spectaints
 * - GKE, Prepare an Arm workload for deployment (the `kubernetes.io/arch=arm64:NoSchedule`
 *   taint of Arm nodes, and a toleration for it to let a multi-architecture workload use them):
 *   https://cloud.google.com/kubernetes-engine/docs/how-to/prepare-arm-workloads-for-deployment
 * - KServe `MergePodSpec` (pkg/controller/v1beta1/inferenceservice/utils/utils.go) and Seldon
 *   `MergePodSpecs` (operator/controllers/reconcilers/common/patch_utils.go): how a unit is merged
 *   over its template.
 */
/* Maintainers: spec/rules.md exempts only the first case (a unit that requests the resource);
** the corpus review of issue 25 found every GPU-taint finding on a unit without a GPU request to
** be of the second kind. */

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

/* Taints Kubernetes, the cloud provider or the node's own agents set and remove: tolerating
** them means "run anywhere". */
static bool is_system_taint(const char *key)
{
	static const char *const exact[] = {
		"CriticalAddonsOnly", "node-role.kubernetes.io/control-plane",
		"node-role.kubernetes.io/master", NULL,
	};
	for (size_t i = 0; exact[i]; i++)
		if (strcmp(key, exact[i]) == 0)
			return true;
	return has_prefix(key, "node.kubernetes.io/") ||
	       has_prefix(key, "node.cloudprovider.kubernetes.io/") || has_prefix(key, "karpenter.sh/") ||
	       has_suffix(key, "/not-ready") || has_suffix(key, "agent-not-ready");
}

/* The GPU the merged unit requests (its own containers, else its template's), or NULL. */
static const char *merged_gpu(const sl_config *cfg, const sl_merged *m)
{
	const char *g = sl_gpu_unit_resource(cfg, m->unit);
	return g ? g : m->base ? sl_gpu_unit_resource(cfg, m->base) : NULL;
}

/* Where to report: the unit's own `tolerations:`, else the key of its pod spec (the counted
** tolerations all come from its template). */
static sl_report *report_at(sl_ctx *ctx, const sl_unit *u, const char *keys, const char *from)
{
	const char *label = sl_ctx_label(ctx, u);
	const char *fmt = "%s tolerates %s%s but has no nodeSelector or required node affinity";
	if (sl_seq_n(u->tolerations) > 0)
		return sl_report_key(ctx, u->tolerations, fmt, label, keys, from);
	const sl_node *at = u->pod && u->pod->parent ? u->pod : u->obj->spec;
	if (at && at->parent)
		return sl_report_key(ctx, at, fmt, label, keys, from);
	return sl_report_at(ctx, u->obj->root, fmt, label, keys, from);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	if (sl_ctx_unit_is_used_template(ctx, u))
		return SL_OK;
	sl_merged m = sl_ctx_merged(ctx, u);
	if (sl_merged_has_node_selection(&m))
		return SL_OK;
	const char *gpu = merged_gpu(cfg, &m);
	const char *gpu_taint = gpu ? sl_gpu_taint_key(gpu) : NULL;
	char keys[512] = "";
	size_t counted = 0, from_base = 0;
	sl_items it = sl_merged_tolerations(&m);
	for (const sl_node *t; (t = sl_merge_items_next(&it));) {
		const char *key = sl_scalar(sl_map_get(t, "key"));
		const char *op = sl_scalar(sl_map_get(t, "operator"));
		if (!key)
			key = "";
		if (is_system_taint(key))
			continue;
		if ((gpu_taint && strcmp(key, gpu_taint) == 0) ||
		    sl_gpu_unit_taint(sl_ctx_index(ctx), u, key))
			continue;   /* the taint of a GPU the (merged) unit requests or claims */
		if (*key && sl_config_is_accelerator_resource(cfg, key))
			continue;   /* "may also run on the accelerator nodes" */
		if (*key && sl_config_is_spot_key(cfg, key))
			continue;
		if (strcmp(key, "kubernetes.io/arch") == 0)
			continue;   /* "may also run on Arm" (GKE's Arm node taint) */
		const char *shown = *key ? key : (op && strcmp(op, "Exists") == 0) ? "every taint" : "\"\"";
		if (strstr(keys, shown) == NULL && strlen(keys) + strlen(shown) + 3 < sizeof keys) {
			if (*keys)
				strcat(keys, ", ");
			strcat(keys, shown);
		}
		counted++;
		from_base += it.from_base;
	}
	if (counted == 0)
		return SL_OK;
	const char *from = "";
	if (from_base) {
		const char *tl = sl_object_label(m.base->obj, sl_ctx_arena(ctx));
		from = sl_arena_printf(sl_ctx_arena(ctx), " (from %s)", tl ? tl : "its template");
		if (!from)
			return SL_ENOMEM;
	}
	sl_report *r = report_at(ctx, u, keys, from);
	sl_report_note(ctx, r,
		       "A toleration only permits the pod onto tainted nodes; it does not attract it "
		       "there, so the scheduler may place it on any untainted node.");
	sl_report_note(ctx, r,
		       "To keep the pods on the tainted pool, add a nodeSelector (or a required node "
		       "affinity) on the label those nodes carry.");
	return SL_OK;
}

SL_RULE(toleration_without_selector, .id = "toleration-without-selector", .category = "placement",
	.summary = "Tolerates a taint but has no nodeSelector or required node affinity",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET));   /* node agents */
