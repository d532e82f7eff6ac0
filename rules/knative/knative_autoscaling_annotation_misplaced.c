/* SPDX-License-Identifier: Apache-2.0
** knative-autoscaling-annotation-misplaced: `autoscaling.knative.dev`-prefixed annotation on a Knative Service's
** or Configuration's own metadata, which the webhook rejects. */
#include "rule.h"

/** ## What it does
 * Reports each annotation whose key starts with `autoscaling.knative.dev` in the own
 * `metadata.annotations` of a Knative Service or Configuration, at its key. InferenceServices
 * and InferenceGraphs are not reported: KServe copies their metadata annotations onto the
 * revision template of the Knative Service it renders, which is where Knative reads them.
 *
 * ## Why is this bad?
 * Autoscaling annotations are read only from the revision template,
 * `spec.template.metadata.annotations`. On a Service or Configuration's own metadata Knative's
 * webhook rejects every such key (`ValidateHasNoAutoscalingAnnotation`, knative/serving
 * `pkg/apis/serving/metadata_validation.go`): `invalid key name
 * "autoscaling.knative.dev/min-scale"` with `autoscaling annotations must be put under
 * "spec.template.metadata.annotations" to work`.
 *
 * KServe is different: `buildPredictorResources` (kserve/kserve
 * `pkg/controller/v1beta1/inferenceservice/components/predictor.go`) passes the
 * InferenceService's metadata annotations, minus `ServiceAnnotationDisallowedList`
 * (`pkg/constants/constants.go`), into the component's annotations, and `createKnativeService`
 * (`reconcilers/knative/ksvc_reconciler.go`) puts them on `spec.template.metadata`. So an
 * `autoscaling.knative.dev/class` or `target` on an InferenceService is in the right place.
 *
 * ## Example
 * ```yaml
 * apiVersion: serving.knative.dev/v1
 * kind: Service
 * metadata:
 *   name: reranker
 *   annotations:
 *     autoscaling.knative.dev/min-scale: "1"
 * spec:
 *   template:
 *     spec:
 *       containers:
 *         - image: registry.example.com/reranker:0.9
 * ```
 * Use instead:
 * ```yaml
 * apiVersion: serving.knative.dev/v1
 * kind: Service
 * metadata:
 *   name: reranker
 * spec:
 *   template:
 *     metadata:
 *       annotations:
 *         autoscaling.knative.dev/min-scale: "1"
 *     spec:
 *       containers:
 *         - image: registry.example.com/reranker:0.9
 * ```
 *
 * ## Fix safety
 * No fix yet. The catalogue's fix (safe: move the annotation to
 * `spec.template.metadata.annotations`, creating the mapping when needed) arrives with the fix
 * engine; today the finding has no fix.
 *
 * ## Options
 * None.
 *
 * ## References
 * - knative/serving `pkg/apis/serving/metadata_validation.go` (`ValidateObjectMetadata`,
 *   `ValidateHasNoAutoscalingAnnotation`)
 * - Knative, Configuring autoscaling: https://knative.dev/docs/serving/autoscaling/
 * - kserve/kserve `pkg/controller/v1beta1/inferenceservice/reconcilers/knative/ksvc_reconciler.go`
 */

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	if (o->kind != SL_KIND_KNATIVE_SERVICE && o->kind != SL_KIND_KNATIVE_CONFIGURATION)
		return SL_OK;
	const sl_node *ann = sl_map_get(o->metadata, "annotations");
	for (size_t i = 0; i < sl_map_n(ann); i++) {
		const sl_pair *p = sl_map_pair(ann, i);
		const char *key = sl_scalar(p->key);
		if (!key || strncmp(key, "autoscaling.knative.dev", 23) != 0)
			continue;
		sl_report_at(ctx, p->key,
			     "%s has %s in its own metadata: the webhook rejects it (invalid key name \"%s\": "
			     "autoscaling annotations must be put under \"spec.template.metadata.annotations\" "
			     "to work)",
			     sl_object_label(o, sl_ctx_arena(ctx)), key, key);
	}
	return SL_OK;
}

SL_RULE(knative_autoscaling_annotation_misplaced, .id = "knative-autoscaling-annotation-misplaced",
	.category = "knative",
	.summary = "An autoscaling.knative.dev annotation on a Knative Service's own metadata",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_object = check);
