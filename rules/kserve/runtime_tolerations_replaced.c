/* SPDX-License-Identifier: Apache-2.0
** runtime-tolerations-replaced: an InferenceService predictor sets tolerations and names (via
** model.runtime) a runtime among the linted files that has tolerations of its own: the list
** replaces the runtime's. One finding per predictor, at its tolerations key. */
#include "sdk/rule.h"

/** ## What it does
 * Reports an InferenceService predictor (or canary predictor) that sets `tolerations` and whose
 * `model.runtime` names a ServingRuntime (same namespace, or either namespace unset) or else a
 * ClusterServingRuntime among the linted files that has `tolerations` too, when at least one of
 * the runtime's tolerations is missing from the predictor's list. The message names the
 * tolerations that are lost.
 *
 * ## Why is this bad?
 * KServe builds the predictor's pod with `MergePodSpec`, a strategic merge patch of the
 * predictor's PodSpec onto the runtime's. `tolerations` has no patch strategy in
 * `corev1.PodSpec`, so a non-empty list in the InferenceService replaces the runtime's list
 * instead of adding to it (nodeSelector, by contrast, is merged key by key). A runtime that
 * tolerates its GPU pool's taint loses that toleration as soon as an InferenceService adds one
 * of its own, and the pod stays Pending on the tainted nodes it was meant for.
 *
 * ## Example
 * ```yaml
 * kind: ServingRuntime
 * metadata:
 *   name: vllm-gpu
 * spec:
 *   tolerations:
 *     - key: nvidia.com/gpu
 *       operator: Exists
 *       effect: NoSchedule
 * ---
 * kind: InferenceService
 * spec:
 *   predictor:
 *     tolerations:
 *       - key: team
 *         value: nlp
 *         effect: NoSchedule
 *     model:
 *       runtime: vllm-gpu
 * ```
 * Use instead (repeat the runtime's tolerations in the InferenceService):
 * ```yaml
 * spec:
 *   predictor:
 *     tolerations:
 *       - key: team
 *         value: nlp
 *         effect: NoSchedule
 *       - key: nvidia.com/gpu
 *         operator: Exists
 *         effect: NoSchedule
 *     model:
 *       runtime: vllm-gpu
 * ```
 *
 * ## Fix safety
 * No fix: copying the runtime's tolerations may or may not be what the author wants.
 *
 * ## Options
 * None.
 *
 * ## References
 * - kserve pkg/controller/v1beta1/inferenceservice/utils/utils.go, `MergePodSpec`,
 *   `GetServingRuntime` (namespace ServingRuntime first, then ClusterServingRuntime)
 * - kubernetes/api core/v1 types.go, `PodSpec.Tolerations` (no patchStrategy)
 * - Kubernetes, Update API Objects in Place Using kubectl patch: lists without a patch strategy
 *   are replaced
 */

static bool same_scalar(const sl_node *a, const sl_node *b, const char *dflt)
{
	const char *x = sl_scalar(a), *y = sl_scalar(b);
	if (!x || sl_scalar_type(a) == SL_Y_NULL)
		x = dflt;
	if (!y || sl_scalar_type(b) == SL_Y_NULL)
		y = dflt;
	return strcmp(x, y) == 0;
}

static bool same_toleration(const sl_node *a, const sl_node *b)
{
	static const char *const keys[] = {"key", "value", "effect", "tolerationSeconds", NULL};
	for (size_t i = 0; keys[i]; i++)
		if (!same_scalar(sl_map_get(a, keys[i]), sl_map_get(b, keys[i]), ""))
			return false;
	return same_scalar(sl_map_get(a, "operator"), sl_map_get(b, "operator"), "Equal");
}

static const sl_node *runtime_tolerations(const sl_object *rt)
{
	for (size_t i = 0; i < rt->n_units; i++)
		if (rt->units[i].role == SL_ROLE_RUNTIME)
			return rt->units[i].tolerations;
	return NULL;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (!u->component || (u->role != SL_ROLE_PREDICTOR && u->role != SL_ROLE_CANARY) ||
	    sl_seq_n(u->tolerations) == 0)
		return SL_OK;
	const sl_node *model = sl_map_get(u->component, "model");
	const sl_node *rn = sl_map_get(model, "runtime");
	const char *name = sl_scalar(rn);
	if (!name || sl_scalar_type(rn) != SL_Y_STR || !*name)
		return SL_OK;
	const sl_object *rt = sl_index_runtime(sl_ctx_index(ctx), u->obj, name);
	if (!rt)
		return SL_OK;
	const sl_node *rtol = runtime_tolerations(rt);
	char lost[512] = "";
	size_t n_lost = 0;
	for (size_t i = 0; i < sl_seq_n(rtol); i++) {
		const sl_node *t = sl_seq_item(rtol, i);
		bool kept = false;
		for (size_t j = 0; j < sl_seq_n(u->tolerations) && !kept; j++)
			kept = same_toleration(t, sl_seq_item(u->tolerations, j));
		if (kept)
			continue;
		n_lost++;
		const char *key = sl_scalar(sl_map_get(t, "key"));
		const char *shown = key && *key ? key : "every taint";
		if (!strstr(lost, shown) && strlen(lost) + strlen(shown) + 3 < sizeof lost) {
			if (*lost)
				strcat(lost, ", ");
			strcat(lost, shown);
		}
	}
	if (n_lost == 0)
		return SL_OK;
	sl_report *r = sl_report_key(ctx, u->tolerations, "%s: its tolerations replace runtime %s's, "
				     "so its pods lose the toleration%s of %s",
				     sl_ctx_label(ctx, u), rt->name, n_lost > 1 ? "s" : "", lost);
	sl_report_note(ctx, r, "KServe builds the pod with MergePodSpec, a strategic merge of the "
		       "predictor's PodSpec onto the runtime's; tolerations has no patch strategy in "
		       "corev1.PodSpec, so a non-empty list replaces the runtime's instead of adding to "
		       "it (nodeSelector, by contrast, is merged key by key).");
	sl_report_note(ctx, r, "If the pods still need to run where the runtime's tolerations let "
		       "them, copy those tolerations into this list.");
	return SL_OK;
}

SL_RULE(runtime_tolerations_replaced, .id = "runtime-tolerations-replaced", .category = "kserve",
	.summary = "InferenceService tolerations replace those of its serving runtime",
	.severity = SL_SEV_INFO, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE));
