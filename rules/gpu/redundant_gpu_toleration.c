/* SPDX-License-Identifier: Apache-2.0
** redundant-gpu-toleration: with the ExtendedResourceToleration admission plugin on, an explicit
** toleration of a requested GPU resource's taint is added anyway. One finding per such
** toleration, at the toleration entry. */
#include "sdk/rule.h"

/** ## What it does
 * Only when the cluster model says GPU-requesting pods get their toleration at admission
 * (`extended-resource-toleration` is yes: config `cluster.extended-resource-toleration: true`,
 * or GKE, by `cluster.provider: gke` or because the unit selects a GKE accelerator label or
 * carries `serving.kserve.io/gke-accelerator`): reports an explicit toleration whose key is a
 * GPU resource that a container of the unit requests or limits, whose effect is `NoSchedule`
 * and whose operator is `Exists`, or `Equal` / empty with any value. The plugin adds
 * `{key: <resource>, operator: Exists, effect: NoSchedule}` for such a pod, which tolerates
 * everything this entry does.
 *
 * Not reported: a toleration with an empty effect (it also tolerates `NoExecute` and
 * `PreferNoSchedule` taints, which the added toleration does not), and the `nvidia.com/gpu`
 * toleration of a unit that requests only `nvidia.com/mig-`-prefixed resources (the plugin adds
 * a toleration keyed on the MIG resource name, while MIG nodes carry the `nvidia.com/gpu`
 * taint, so the explicit entry is the one that matters).
 *
 * Not reported for a ModelMesh InferenceService predictor: ModelMesh builds no pod from it
 * (its placement fields are ignored; `modelmesh-placement-ignored`).
 *
 * ## Why is this bad?
 * It is harmless but noise: the same toleration is written in every GPU manifest while the
 * cluster already adds it, and copies of it drift (a wrong effect, a stale key) without anyone
 * noticing. Removing it keeps manifests portable only if every target cluster runs the plugin,
 * which is why this rule is informational and depends on the config. A note names the
 * evidence (the config key's file:line, or why the unit runs on GKE).
 *
 * ## Example
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
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * Safe, given the evidence that the toleration is added at admission: the fix removes the toleration entry
 * (its lines in a block sequence, the item and a comma in a flow one). When every toleration of
 * the list is such a redundant entry, it removes the whole `tolerations:` field instead, so no
 * empty list is left behind. Declined (no fix) when the entry or the list is an alias or
 * anchored (the edit would change other objects), or when the item does not start its own line.
 *
 * ## Options
 * `cluster.extended-resource-toleration` (the rule reports only when it is true, or on GKE),
 * `cluster.provider`,
 * `cluster.gpu-resources` (the resource names that count as GPUs).
 *
 * ## References
 * - kubernetes plugin/pkg/admission/extendedresourcetoleration/admission.go (`Admit`: one
 *   toleration per extended resource in the requests of containers and init containers)
 * - kubernetes pkg/apis/core/v1/defaults.go, `SetDefaults_Pod` (limits become requests)
 * - Kubernetes, Admission controllers, ExtendedResourceToleration,
 *   https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/
 * - GKE, Run GPUs in Standard node pools (GKE adds the toleration to GPU pods),
 *   https://cloud.google.com/kubernetes-engine/docs/how-to/gpus
 */

/* True when some container of u requests or limits resource name (any quantity: the plugin
** adds the toleration for every extended resource in the requests). */
static bool unit_names_resource(const sl_unit *u, const char *name)
{
	for (size_t i = 0; i < u->n_containers; i++)
		if (sl_map_get(u->containers[i].requests, name) || sl_map_get(u->containers[i].limits, name))
			return true;
	return false;
}

/* The GPU resource toleration t redundantly tolerates, or NULL. */
static const char *redundant(const sl_config *cfg, const sl_unit *u, const sl_node *t)
{
	const char *key = sl_scalar(sl_map_get(t, "key"));
	const char *op = sl_scalar(sl_map_get(t, "operator"));
	const char *eff = sl_scalar(sl_map_get(t, "effect"));
	if (!key || !sl_config_is_gpu_resource(cfg, key) || !eff || strcmp(eff, "NoSchedule") != 0)
		return NULL;
	if (op && *op && strcmp(op, "Exists") != 0 && strcmp(op, "Equal") != 0)
		return NULL;
	return unit_names_resource(u, key) ? key : NULL;
}

/* Attaches the fix: removes t, or the whole list when every item of it is redundant. */
static void add_fix(sl_ctx *ctx, sl_report *r, const sl_unit *u, const sl_node *t)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	const sl_node *tols = u->tolerations;
	if (!r || !t || t->parent != tols || sl_node_anchor(t) || sl_node_anchor(tols) ||
	    tols->parent != sl_node_deref(u->pod))
		return;
	bool all = true;
	for (size_t i = 0; all && i < sl_seq_n(tols); i++)
		all = redundant(cfg, u, sl_seq_item(tols, i)) != NULL;
	if (sl_fix_remove(ctx, r, all ? tols : t))
		sl_fix_describe(ctx, r, SL_FIX_SAFE, all ? "remove the tolerations (the admission "
				"plugin adds them)" : "remove the toleration (the admission plugin adds it)");
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	sl_fact added = sl_cluster_extended_resource_toleration(sl_ctx_index(ctx), u,
								sl_ctx_arena(ctx));
	if (added.value != SL_TRI_YES)
		return SL_OK;
	for (size_t i = 0; i < sl_seq_n(u->tolerations); i++) {
		const sl_node *t = sl_seq_item(u->tolerations, i);
		const char *key = redundant(cfg, u, t);
		if (!key)
			continue;
		sl_report *r = sl_report_at(ctx, t,
			     "%s tolerates %s:NoSchedule, which the cluster adds at admission",
			     sl_ctx_label(ctx, u), key);
		sl_report_note(ctx, r, "Tolerations are added at admission: %s.", added.source);
		sl_report_note(ctx, r, "The unit requests %s, and the ExtendedResourceToleration "
			       "admission plugin (or GKE) adds {key: %s, operator: Exists, effect: "
			       "NoSchedule} to such pods: the explicit entry repeats it.", key, key);
		sl_report_note(ctx, r, "Keep it if the manifest must also run on clusters that do not add "
			       "the toleration (or disable this rule).");
		add_fix(ctx, r, u, t);
	}
	return SL_OK;
}

SL_RULE(redundant_gpu_toleration, .id = "redundant-gpu-toleration", .category = "gpu",
	.summary = "Explicit GPU toleration that the ExtendedResourceToleration plugin adds anyway",
	.severity = SL_SEV_INFO, .fix = SL_FIX_SAFE, .check_unit = check);
