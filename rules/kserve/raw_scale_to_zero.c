/* SPDX-License-Identifier: Apache-2.0
** raw-scale-to-zero: a Standard (RawDeployment) mode component asks for minReplicas: 0, which
** only Knative, KEDA or an external autoscaler can honour. One finding per component, at its
** minReplicas value. */
#include "sdk/rule.h"

/** ## What it does
 * Reports an InferenceService component (predictor, transformer, explainer, canary predictor)
 * or InferenceGraph router that runs in Standard mode (`serving.kserve.io/deploymentMode:
 * Standard` or `RawDeployment`, or no annotation and `cluster.kserve-default-deployment-mode`
 * Standard) with `minReplicas: 0`, unless the object's `serving.kserve.io/autoscalerClass` is
 * `keda` or `external`.
 *
 * ## Why is this bad?
 * Standard mode renders a plain Deployment; only Knative scales a component to zero on idle.
 * With the default autoscaler class `hpa`, KServe's `createHPA` raises any `minReplicas` below
 * 1 to 1 (`constants.DefaultMinReplicas`), so the pod keeps running and its node never frees up.
 * With `autoscalerClass: none` it is worse: the Deployment gets `replicas: 0` and nothing ever
 * scales it up, so no pod serves at all. KEDA's ScaledObject accepts `minReplicaCount: 0`, and an
 * external autoscaler is the user's own, so those classes are not reported.
 *
 * ## Example
 * ```yaml
 * metadata:
 *   annotations:
 *     serving.kserve.io/deploymentMode: Standard
 * spec:
 *   predictor:
 *     minReplicas: 0
 * ```
 * Use instead (scale to zero through KEDA, or deploy in Knative mode):
 * ```yaml
 * metadata:
 *   annotations:
 *     serving.kserve.io/deploymentMode: Standard
 *     serving.kserve.io/autoscalerClass: keda
 * spec:
 *   predictor:
 *     minReplicas: 0
 * ```
 *
 * ## Fix safety
 * No fix: whether to use KEDA, Knative mode or one replica is the author's choice.
 *
 * ## Options
 * `cluster.kserve-default-deployment-mode`: the mode of objects without the annotation
 * (default `Knative`).
 *
 * ## References
 * - kserve pkg/controller/v1beta1/inferenceservice/reconcilers/hpa/hpa_reconciler.go, `createHPA`
 * - kserve pkg/controller/v1beta1/inferenceservice/reconcilers/deployment/deployment_reconciler.go
 *   (`replicas` = `minReplicas` for autoscaler class `none`)
 * - kserve pkg/controller/v1beta1/inferenceservice/reconcilers/keda/keda_reconciler.go
 * - KServe docs, InferenceService Node Scheduling: Standard deployment "doesn't provide
 *   scale-to-zero capabilities"
 */
static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_object *o = u->obj;
	if (!u->component || !u->replicas || u->min_replicas != 0)
		return SL_OK;
	const char *cls = sl_scalar(sl_map_get(o->annotations, "serving.kserve.io/autoscalerClass"));
	if (cls && (strcmp(cls, "keda") == 0 || strcmp(cls, "external") == 0))
		return SL_OK;
	const char *label = sl_ctx_label(ctx, u);
	sl_report *r;
	if (cls && strcmp(cls, "none") == 0) {
		r = sl_report_at(ctx, u->replicas, "%s: minReplicas 0 in Standard mode with "
					    "autoscalerClass none: no pod ever serves", label);
		sl_report_note(ctx, r, "The Deployment gets replicas: 0 and nothing scales it up: "
			       "Standard mode does not scale from zero on requests.");
		sl_report_note(ctx, r, "Set minReplicas to 1 or more, or use "
			       "serving.kserve.io/autoscalerClass: keda (scale to zero with KEDA).");
	} else {
		r = sl_report_at(ctx, u->replicas, "%s: minReplicas 0 in Standard mode does "
					    "not scale to zero; one pod stays", label);
		sl_report_note(ctx, r, "Raw (Standard) deployments have no activator: KServe's HPA "
			       "keeps at least one replica, so the pod keeps its node.");
		sl_report_note(ctx, r, "To scale to zero, use serving.kserve.io/autoscalerClass: keda "
			       "(or external), or Knative mode; else write minReplicas: 1 to say what "
			       "happens.");
	}
	sl_report_note_default_mode(ctx, r, o);
	return SL_OK;
}

SL_RULE(raw_scale_to_zero, .id = "raw-scale-to-zero", .category = "kserve",
	.summary = "minReplicas 0 in Standard (RawDeployment) mode, which does not scale to zero",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE) | SL_KIND_BIT(SL_KIND_INFERENCE_GRAPH),
	.modes = SL_MODE_BIT(SL_MODE_STANDARD));
