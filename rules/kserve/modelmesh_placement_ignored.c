/* SPDX-License-Identifier: Apache-2.0
** modelmesh-placement-ignored: a ModelMesh InferenceService sets scheduling fields on its
** predictor, which builds no pod. One finding per field, at its key. */
#include "sdk/rule.h"

/** ## What it does
 * Reports the scheduling fields of the predictor of an InferenceService whose deployment mode
 * is ModelMesh (its annotation, else the cluster's default mode): `nodeSelector`, `affinity`,
 * `tolerations`, `priorityClassName`, `topologySpreadConstraints`, and a container's
 * `resources` that ask for a GPU. The same holds for a canary predictor and
 * `predictor.workerSpec`. One finding per field, at its key. Empty values (`nodeSelector: {}`)
 * are not reported.
 *
 * No other placement rule runs on such a predictor (the engine skips the placement units that
 * build no pod): what they would say about its tolerations or GPU requests has no pod to apply
 * to. Rules about the manifest itself (`predictor-implementation-count`) still run.
 *
 * The transformer and explainer are not reported: KServe's controller still reconciles an
 * InferenceService with a transformer in ModelMesh mode, and builds the transformer's pods.
 *
 * ## Why is this bad?
 * KServe's controller skips a ModelMesh InferenceService ("Skipping reconciliation for
 * InferenceService", kserve `pkg/controller/v1beta1/inferenceservice/controller.go`); the
 * ModelMesh controller loads the predictor's model into the pods of a ServingRuntime, whose
 * Deployment is built from the runtime's own spec. Nothing reads the predictor's PodSpec fields,
 * so the author's node pool, taint toleration, spread or GPU request never reaches a pod, and
 * the model runs wherever the runtime's pods run.
 *
 * ## Example
 * ```yaml
 * apiVersion: serving.kserve.io/v1beta1
 * kind: InferenceService
 * metadata:
 *   name: mnist
 *   annotations:
 *     serving.kserve.io/deploymentMode: ModelMesh
 * spec:
 *   predictor:
 *     nodeSelector:
 *       pool: inference
 *     model:
 *       modelFormat:
 *         name: onnx
 *       runtime: triton-mm
 * ```
 * Use instead (on the runtime, whose pods serve the model):
 * ```yaml
 * apiVersion: serving.kserve.io/v1alpha1
 * kind: ServingRuntime
 * metadata:
 *   name: triton-mm
 * spec:
 *   multiModel: true
 *   nodeSelector:
 *     pool: inference
 *   containers:
 *     - name: triton
 *       image: nvcr.io/nvidia/tritonserver:23.04-py3
 * ```
 *
 * ## Fix safety
 * No fix: the field belongs on the ServingRuntime (nodeSelector, affinity, tolerations, the
 * containers' resources), which serves other models too; a ServingRuntime has no
 * `priorityClassName` or `topologySpreadConstraints` (`runtime-unsupported-field`).
 *
 * ## Options
 * `cluster.kserve-default-deployment-mode` (or an `inferenceservice-config` ConfigMap among the
 * linted files) decides the mode of an InferenceService without the annotation.
 *
 * ## References
 * - kserve `pkg/controller/v1beta1/inferenceservice/controller.go` (`Reconcile`: ModelMesh
 *   InferenceServices are skipped unless they have a transformer)
 * - kserve/modelmesh-serving `docs/inference/inferenceservice.md` (only the predictor is served by
 *   ModelMesh) and `docs/developer.md` (one Deployment per ServingRuntime)
 * - kserve `pkg/apis/serving/v1alpha1/servingruntime_types.go`, `ServingRuntimePodSpec`
 */

/* "the ServingRuntime triton-mm" when the predictor names it, else "its ServingRuntime". */
static const char *runtime_name(sl_ctx *ctx, const sl_unit *u)
{
	const sl_node *pred = sl_map_get(u->obj->spec, "predictor");
	const char *rt = sl_scalar(sl_map_get(sl_map_get(pred, "model"), "runtime"));
	if (rt && *rt)
		return sl_arena_printf(sl_ctx_arena(ctx), "ServingRuntime %s", rt);
	return "the ServingRuntime ModelMesh picks for the model format";
}

static void report(sl_ctx *ctx, const sl_unit *u, const sl_node *value, const char *what,
		   const char *runtime_key)
{
	sl_report *r = sl_report_key(ctx, value, "%s sets %s, which ModelMesh ignores: the predictor "
				     "builds no pod", sl_ctx_label(ctx, u), what);
	sl_report_note(ctx, r, "In ModelMesh mode KServe's controller does not reconcile the "
		       "predictor (\"Skipping reconciliation for InferenceService\", kserve "
		       "controller.go); ModelMesh loads the model into the pods of %s, built from "
		       "the runtime's spec, so %s never reaches a pod.", runtime_name(ctx, u), what);
	sl_report_note_default_mode(ctx, r, u->obj);
	if (runtime_key)
		sl_report_note(ctx, r, "Set it on the ServingRuntime instead (%s); it then applies to "
			       "every model that runtime serves.", runtime_key);
	else
		sl_report_note(ctx, r, "A ServingRuntime has no %s either (ServingRuntimePodSpec): "
			       "remove it here.", what);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (!sl_unit_builds_no_pod(u))
		return SL_OK;
	static const struct {
		const char *field, *runtime_key;
		bool ptr;
	} fields[] = {
		{"nodeSelector", "spec.nodeSelector", false},
		{"affinity", "spec.affinity", true},
		{"tolerations", "spec.tolerations", false},
		{"priorityClassName", NULL, false},
		{"topologySpreadConstraints", NULL, false},
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const sl_node *v = sl_map_get(u->pod, fields[i].field);
		if (sl_node_is_set(v, fields[i].ptr))
			report(ctx, u, v, fields[i].field, fields[i].runtime_key);
	}
	const sl_config *cfg = sl_ctx_config(ctx);
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		const char *gpu = sl_gpu_container_resource(cfg, c);
		if (gpu)
			report(ctx, u, c->resources,
			       sl_arena_printf(sl_ctx_arena(ctx), "%s resources in %s", gpu,
					       sl_ctx_container_label(ctx, c)),
			       "its containers' resources, spec.containers[].resources");
	}
	return SL_OK;
}

SL_RULE(modelmesh_placement_ignored, .id = "modelmesh-placement-ignored", .category = "kserve",
	.summary = "A ModelMesh InferenceService sets scheduling fields on its predictor, which builds no pod",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check, .podless_units = true,
	.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE));
