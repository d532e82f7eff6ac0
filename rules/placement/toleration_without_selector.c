/* SPDX-License-Identifier: Apache-2.0
** toleration-without-selector: a unit tolerates a taint but nothing keeps it on the tainted
** nodes. One finding per unit, at its `tolerations:` key, naming the tolerated taint keys. */
#include "rule.h"

/** ## What it does
 * Reports a placement unit that tolerates a taint but has no nodeSelector and no required node
 * affinity. Not counted: tolerations of `node.kubernetes.io/`-prefixed and
 * `node.cloudprovider.kubernetes.io/`-prefixed taints (set by Kubernetes itself), the GPU taint on a unit
 * that requests or claims (DRA) that GPU (the request already confines it to GPU nodes), and spot taints ("may
 * use spot" is the intent; `critical-on-spot` covers the risk). DaemonSets are node agents and
 * are skipped. Reported once per unit, at `tolerations:`.
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
 * - KServe node scheduling, selector plus tolerations
 */

/* True when the unit has a non-empty nodeSelector or required node affinity terms. */
static bool has_selector(const sl_unit *u)
{
	if (sl_map_n(u->node_selector) > 0)
		return true;
	const sl_node *na = sl_map_get(u->affinity, "nodeAffinity");
	const sl_node *req = sl_map_get(na, "requiredDuringSchedulingIgnoredDuringExecution");
	return sl_seq_n(sl_map_get(req, "nodeSelectorTerms")) > 0;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	if (u->obj->kind == SL_KIND_DAEMONSET || sl_seq_n(u->tolerations) == 0 || has_selector(u))
		return SL_OK;
	char keys[512] = "";
	size_t counted = 0;
	for (size_t i = 0; i < sl_seq_n(u->tolerations); i++) {
		const sl_node *t = sl_seq_item(u->tolerations, i);
		const char *key = sl_scalar(sl_map_get(t, "key"));
		const char *op = sl_scalar(sl_map_get(t, "operator"));
		if (!key)
			key = "";
		if (strncmp(key, "node.kubernetes.io/", 19) == 0 ||
		    strncmp(key, "node.cloudprovider.kubernetes.io/", 33) == 0)
			continue;
		if (sl_unit_gpu_taint(sl_ctx_index(ctx), u, key))
			continue;   /* the taint of a GPU the unit requests or claims */
		if (*key && sl_config_is_spot_key(cfg, key))
			continue;
		const char *shown = *key ? key : (op && strcmp(op, "Exists") == 0) ? "every taint" : "\"\"";
		if (strstr(keys, shown) == NULL && strlen(keys) + strlen(shown) + 3 < sizeof keys) {
			if (*keys)
				strcat(keys, ", ");
			strcat(keys, shown);
		}
		counted++;
	}
	if (counted == 0)
		return SL_OK;
	sl_report_key(ctx, u->tolerations,
		      "%s tolerates %s but has no nodeSelector or required node affinity: a toleration "
		      "only permits, so the pod may land on any untainted node",
		      sl_ctx_label(ctx, u), keys);
	return SL_OK;
}

SL_RULE(toleration_without_selector, .id = "toleration-without-selector", .category = "placement",
	.summary = "Tolerates a taint but has no nodeSelector or required node affinity",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check);
