/* SPDX-License-Identifier: Apache-2.0
** dedicated-node-no-scale-down: a Knative-mode InferenceService component on dedicated nodes
** (selects a pool and tolerates its taint) keeps at least one replica, so the pool never
** scales down. One finding per component, at minReplicas (or the component's key). */
#include "sdk/rule.h"

/** ## What it does
 * Reports an InferenceService predictor, transformer or explainer running in Knative mode that
 * uses the dedicated-node pattern, a node selection (nodeSelector or a required node-affinity
 * In/Exists/Gt/Lt expression) plus a toleration of the pool's taint, and leaves `minReplicas`
 * unset, so KServe's default of 1 applies. When `cluster.node-pools` is declared, the component
 * must select one of those pools (a selection that matches one of its labels) and tolerate one
 * of that pool's taints; otherwise any selection plus a toleration of a taint that marks a pool
 * is taken as the pattern. Tolerations that say "may run anywhere" rather than "runs on this
 * pool" do not count: the taints Kubernetes and cloud providers set (`node.kubernetes.io/...`,
 * `node.cloudprovider.kubernetes.io/...`), startup, readiness and agent taints (`*not-ready`,
 * `karpenter.sh/...`, `CriticalAddonsOnly`), control-plane taints, and spot taints (GKE spot and
 * preemptible, AKS `kubernetes.azure.com/scalesetpriority`). The message names the component
 * (and the pool, when declared); the notes name the selection and the toleration, explain why
 * one pod stays, and the trade of scaling to zero.
 *
 * Not reported: a written `minReplicas`, even 1 or more (a warm pod is then the author's
 * choice; the spec row says "minReplicas ≥ 1", but a written value is a decision, and the
 * finding is about the default the author may not know); Standard-mode components (which never
 * scale to zero, see `raw-scale-to-zero`); Knative Services, whose min-scale defaults to 0;
 * canary predictors, which KServe runs only in Standard mode.
 *
 * ## Why is this bad?
 * KServe's node-scheduling guide presents this pattern as the way to let the cluster
 * autoscaler "scale down a node back to zero after the inference": the taint keeps other pods
 * off the costly node and the selector keeps the component on it, so once the component scales
 * to zero the node is empty and can be removed. That only happens when the pod itself can scale
 * to zero. KServe writes `minReplicas` into `autoscaling.knative.dev/min-scale` and uses 1 when
 * it is not set (`SetAutoScalingAnnotations`), so the revision keeps one pod and the pool keeps
 * at least one node, often a GPU node (it can still shrink to that one node). Whether that is
 * worth the cold starts is the author's trade, hence info.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     nodeSelector:
 *       pool: gpu-a100
 *     tolerations:
 *       - key: dedicated
 *         operator: Equal
 *         value: gpu-a100
 *         effect: NoSchedule
 *     model:
 *       modelFormat:
 *         name: pytorch
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     minReplicas: 0
 *     nodeSelector:
 *       pool: gpu-a100
 *     tolerations:
 *       - key: dedicated
 *         operator: Equal
 *         value: gpu-a100
 *         effect: NoSchedule
 *     model:
 *       modelFormat:
 *         name: pytorch
 * ```
 *
 * ## Fix safety
 * Unsafe: setting `minReplicas: 0` adds cold starts (the first request after idle waits for a
 * node and a pod), a latency trade the author must accept. The fix adds `minReplicas: 0` as the
 * component's last field (an inline `, minReplicas: 0` in a flow mapping). It introduces no
 * finding: `raw-scale-to-zero` is about Standard mode only.
 *
 * ## Options
 * `cluster.kserve-default-deployment-mode` (the mode of objects without the annotation when no
 * `inferenceservice-config` ConfigMap is linted; default Knative), `cluster.node-pools` (labels and taints of the dedicated pools, when declared).
 *
 * ## References
 * - KServe docs, Node Scheduling Overview: scaling a node "back to zero after the inference",
 *   https://kserve.github.io/website/docs/model-serving/node-scheduling/overview
 * - kserve pkg/controller/v1alpha1/utils/utils.go, `SetAutoScalingAnnotations` (min-scale
 *   from `minReplicas`, default `constants.DefaultMinReplicas` = 1)
 * - Kubernetes, Taints and Tolerations: "Dedicated Nodes"
 */

/* A taint whose toleration says "may run anywhere", not "runs on a dedicated pool": the ones
** Kubernetes and cloud providers set themselves, startup/readiness/agent taints that node
** agents remove, control-plane taints, and spot taints ("may use spot"). */
static bool is_system_key(const char *key)
{
	static const char *const prefixes[] = {
		"node.kubernetes.io/", "node.cloudprovider.kubernetes.io/", "karpenter.sh/",
		"node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master",
		"cloud.google.com/gke-spot", "cloud.google.com/gke-preemptible",
		"kubernetes.azure.com/scalesetpriority", "eks.amazonaws.com/capacityType", NULL
	};
	for (size_t i = 0; prefixes[i]; i++)
		if (strncmp(key, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	size_t n = strlen(key);
	return strcmp(key, "CriticalAddonsOnly") == 0 ||
	       (n >= 9 && strcmp(key + n - 9, "not-ready") == 0);
}

/* True when toleration t tolerates the taint "key[=value]:Effect" (kubectl syntax). */
static bool tolerates(const sl_node *t, const char *taint)
{
	const char *colon = strrchr(taint, ':');
	size_t klen = colon ? (size_t)(colon - taint) : strlen(taint);
	const char *eq = memchr(taint, '=', klen);
	size_t vlen = eq ? klen - (size_t)(eq - taint) - 1 : 0;
	const char *tval = eq ? eq + 1 : "";
	if (eq)
		klen = (size_t)(eq - taint);
	const char *teff = colon ? colon + 1 : "";
	const char *key = sl_scalar(sl_map_get(t, "key"));
	const char *op = sl_scalar(sl_map_get(t, "operator"));
	const char *val = sl_scalar(sl_map_get(t, "value"));
	const char *eff = sl_scalar(sl_map_get(t, "effect"));
	bool exists = op && strcmp(op, "Exists") == 0;
	if (eff && *eff && strcmp(eff, teff) != 0)
		return false;
	if (!key || !*key)
		return exists;
	if (strlen(key) != klen || strncmp(key, taint, klen) != 0)
		return false;
	if (exists)
		return true;
	if (op && *op && strcmp(op, "Equal") != 0)
		return false;
	if (!val)
		val = "";
	return strlen(val) == vlen && strncmp(val, tval, vlen) == 0;
}

/* The first toleration of u that is not of a Kubernetes-set taint and, when taint is not NULL,
** tolerates it; NULL when none. */
static const sl_node *find_toleration(const sl_unit *u, const char *taint)
{
	for (size_t i = 0; i < sl_seq_n(u->tolerations); i++) {
		const sl_node *t = sl_seq_item(u->tolerations, i);
		const char *key = sl_scalar(sl_map_get(t, "key"));
		if (key && is_system_key(key))
			continue;
		if (!taint || tolerates(t, taint))
			return t;
	}
	return NULL;
}

struct pool_match {
	const struct sl_node_pool *pool;
	const char *key;
};

static bool first_selection(const sl_selection *s, void *payload)
{
	struct pool_match *m = payload;
	m->key = s->key;
	return true;
}

/* True when s matches one of the pool's labels. */
static bool selects_pool(const sl_selection *s, void *payload)
{
	struct pool_match *m = payload;
	if (!s->key)
		return false;
	size_t kn = strlen(s->key);
	for (size_t i = 0; i < m->pool->labels.n; i++) {
		const char *l = m->pool->labels.v[i];
		if (strncmp(l, s->key, kn) != 0 || (l[kn] != '=' && l[kn] != '\0'))
			continue;
		if (sl_selection_allows(s, l[kn] == '=' ? l + kn + 1 : "")) {
			m->key = s->key;
			return true;
		}
	}
	return false;
}

static const char *toleration_name(const sl_node *t)
{
	const char *key = sl_scalar(sl_map_get(t, "key"));
	return key && *key ? key : "every taint";
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	/* only the default minReplicas: a written one is the author's choice of warm pods */
	if (!u->component || u->replicas || sl_map_get_key(u->component, "minReplicas") ||
	    (u->role != SL_ROLE_PREDICTOR && u->role != SL_ROLE_TRANSFORMER &&
	     u->role != SL_ROLE_EXPLAINER))
		return SL_OK;
	if (sl_seq_n(u->tolerations) == 0)
		return SL_OK;
	size_t n_pools;
	const struct sl_node_pool *pools = sl_config_node_pools(sl_ctx_config(ctx), &n_pools);
	struct pool_match m = {0};
	const sl_node *tol = NULL;
	const char *pool_name = NULL;
	if (n_pools > 0) {
		for (size_t p = 0; p < n_pools && !tol; p++) {
			m.pool = &pools[p];
			m.key = NULL;
			if (!sl_selection_each(u, selects_pool, &m))
				continue;
			for (size_t i = 0; i < m.pool->taints.n && !tol; i++)
				tol = find_toleration(u, m.pool->taints.v[i]);
			if (tol)
				pool_name = m.pool->name;
		}
	} else if (sl_selection_each(u, first_selection, &m)) {
		tol = find_toleration(u, NULL);
	}
	if (!tol)
		return SL_OK;
	sl_arena *a = sl_ctx_arena(ctx);
	const char *pool = pool_name ? sl_arena_printf(a, " of pool %s", pool_name) : "";
	if (!pool)
		return SL_ENOMEM;
	sl_report *r = sl_report_key(ctx, u->component, "%s keeps its default minReplicas (1) on "
				     "dedicated nodes%s: the pool always keeps a node",
				     sl_ctx_label(ctx, u), pool);
	sl_report_note(ctx, r, "It selects %s and tolerates %s: the dedicated-node pattern.",
		       m.key ? m.key : "?", toleration_name(tol));
	sl_report_note(ctx, r, "The selector keeps the pods on the pool and the taint keeps other "
		       "pods off, so once the component's pods scale to zero the cluster autoscaler "
		       "can remove the pool's last node (KServe's node-scheduling guide). KServe writes "
		       "minReplicas into autoscaling.knative.dev/min-scale, 1 when it is not set "
		       "(SetAutoScalingAnnotations), so one pod, and the node under it, always stays; "
		       "the pool can still shrink to that one node.");
	sl_report_note(ctx, r, "The trade: minReplicas: 0 frees that node while the model is idle, "
		       "but the first request after idle waits for a node and a pod (a cold start, "
		       "minutes for a new GPU node). To keep a warm pod, write minReplicas: 1.");
	sl_report_note_default_mode(ctx, r, u->obj);
	/* add minReplicas: 0 as the component's last field (declined into a flow mapping) */
	if (r && sl_fix_add_entry(ctx, r, u->component, "minReplicas", "0"))
		return sl_fix_describe(ctx, r, SL_FIX_UNSAFE,
				       "add minReplicas: 0 (requests after idle wait for a node and a "
				       "pod)");
	return SL_OK;
}

SL_RULE(dedicated_node_no_scale_down, .id = "dedicated-node-no-scale-down", .category = "kserve",
	.summary = "A Knative-mode component on dedicated nodes keeps its default replica, so the "
		   "pool keeps a node",
	.severity = SL_SEV_INFO, .fix = SL_FIX_UNSAFE, .check_unit = check,
	.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE), .modes = SL_MODE_BIT(SL_MODE_KNATIVE));
