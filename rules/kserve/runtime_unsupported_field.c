/* SPDX-License-Identifier: Apache-2.0
** runtime-unsupported-field: a ServingRuntime or ClusterServingRuntime sets a PodSpec field its
** ServingRuntimePodSpec does not have. One finding per field, at its key. */
#include "sdk/rule.h"

/** ## What it does
 * Reports `priorityClassName`, `topologySpreadConstraints` or `runtimeClassName` in the pod
 * spec of a ServingRuntime or ClusterServingRuntime (`spec`) or of its `spec.workerSpec`.
 *
 * ## Why is this bad?
 * A runtime's pod fields are not a Kubernetes PodSpec but KServe's `ServingRuntimePodSpec`, which
 * holds only containers, volumes, imagePullSecrets, nodeSelector, affinity, tolerations,
 * schedulerName, hostIPC, resourceClaims, labels and annotations; the CRD schema has no
 * `priorityClassName`, `topologySpreadConstraints` or `runtimeClassName` either. `kubectl apply`
 * with its default strict field validation rejects the object (`unknown field
 * "spec.priorityClassName"`), and clients that do not ask for strict validation (many GitOps and
 * Helm setups) have the field silently pruned, so the runtime's pods never get the priority,
 * spread or runtime class the author wrote. Even if it were stored, KServe's `MergePodSpec`
 * copies only nodeSelector, affinity, tolerations, volumes, imagePullSecrets, schedulerName and
 * resourceClaims from the runtime into the predictor's pod.
 *
 * ## Example
 * ```yaml
 * kind: ClusterServingRuntime
 * spec:
 *   priorityClassName: inference-critical
 *   containers:
 *     - name: kserve-container
 *       image: example.com/server:1.0
 * ```
 * Use instead (on each InferenceService predictor, whose inline PodSpec has the field):
 * ```yaml
 * kind: InferenceService
 * spec:
 *   predictor:
 *     priorityClassName: inference-critical
 *     model:
 *       runtime: my-runtime
 * ```
 *
 * ## Fix safety
 * No fix: the field belongs on the InferenceServices that use the runtime, which schedlint
 * cannot enumerate.
 *
 * ## Options
 * None.
 *
 * ## References
 * - kserve pkg/apis/serving/v1alpha1/servingruntime_types.go, `ServingRuntimePodSpec`
 * - kserve pkg/controller/v1beta1/inferenceservice/utils/utils.go, `MergePodSpec`
 * - Kubernetes, Field validation (`kubectl --validate=strict`, the default since 1.27)
 */

static const char *const fields[] = {
	"priorityClassName", "topologySpreadConstraints", "runtimeClassName", NULL
};

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (u->role != SL_ROLE_RUNTIME && u->role != SL_ROLE_WORKER)
		return SL_OK;
	bool worker = u->role == SL_ROLE_WORKER;
	for (size_t i = 0; fields[i]; i++) {
		const sl_node *key = sl_map_get_key(u->pod, fields[i]);
		if (!key)
			continue;
		sl_report *r = sl_report_at(ctx, key, "%s: %s is not a field of a serving runtime's pod "
					    "spec, so the runtime's pods never get it",
					    sl_ctx_label(ctx, u), fields[i]);
		sl_report_note(ctx, r, "KServe's ServingRuntimePodSpec has no %s: kubectl rejects it "
			       "(unknown field \"spec.%s%s\") or, without strict field validation, the "
			       "API server drops it; MergePodSpec would not copy it into the predictor's "
			       "pod either.", fields[i], worker ? "workerSpec." : "", fields[i]);
		sl_report_note(ctx, r, "Set it on each InferenceService that uses the runtime (%s) "
			       "instead; a ModelMesh runtime's pods cannot get it.",
			       worker ? "predictor.workerSpec" : "predictor");
	}
	return SL_OK;
}

SL_RULE(runtime_unsupported_field, .id = "runtime-unsupported-field", .category = "kserve",
	.summary = "A serving runtime sets priorityClassName, topologySpreadConstraints or "
		   "runtimeClassName, which its pod spec does not have",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = SL_KIND_BIT(SL_KIND_SERVING_RUNTIME) | SL_KIND_BIT(SL_KIND_CLUSTER_SERVING_RUNTIME));
