/* SPDX-License-Identifier: Apache-2.0
** predictor-implementation-count: a predictor with no implementation, or with several (framework
** keys, model, kserve-container). One finding per extra implementation, or one at the predictor
** when it has none. */
#include "sdk/rule.h"

/** ## What it does
 * Counts the implementations of each InferenceService predictor (and each canary predictor) the
 * way KServe's `PredictorSpec.GetImplementations` does: every framework key (`sklearn`,
 * `xgboost`, `tensorflow`, `pytorch`, `triton`, `onnx`, `huggingface`, `pmml`, `lightgbm`,
 * `paddle`) and `model` that is set (a mapping, not null), plus every container named `kserve-container`;
 * when none of those is present, a non-empty `containers` list is one custom predictor (its
 * first container). Other containers next to a framework key or `model` are sidecars and do not
 * count. Reports a predictor with no implementation (at its key) and every implementation
 * after the first (at its key, or at the container's name).
 *
 * ## Why is this bad?
 * The webhook rejects the InferenceService unless the count is exactly one: "exactly one of
 * [...] must be specified in PredictorSpec" (`validateExactlyOneImplementation`,
 * `ExactlyOneErrorFor`). One combination is not rejected but is still wrong: on the stable
 * predictor (outside ModelMesh mode) the defaulting webhook converts the first framework key into
 * `model` (`setPredictorModelDefaults`, `assignSKLearnRuntime` and its siblings), overwriting
 * a `model` the author also wrote, so everything under `model` (runtime, resources, storageUri)
 * is silently dropped.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     sklearn:
 *       storageUri: gs://models/iris
 *     containers:
 *       - name: kserve-container
 *         image: example.com/iris-server:1.0
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     sklearn:
 *       storageUri: gs://models/iris
 * ```
 *
 * ## Fix safety
 * No fix: which implementation the author meant is not in the manifest.
 *
 * ## Options
 * None.
 *
 * ## References
 * - kserve pkg/apis/serving/v1beta1/predictor.go, `GetImplementations`
 * - kserve pkg/apis/serving/v1beta1/component.go, `validateExactlyOneImplementation`,
 *   `ExactlyOneErrorFor`
 * - kserve pkg/apis/serving/v1beta1/inference_service_defaults.go, `setPredictorModelDefaults`
 */

#define MAX_IMPLS 32

struct impl {
	const sl_node *at;      /* where to report: the key, or the container's name */
	const char *name;       /* "sklearn", "model", "container \"kserve-container\"" */
	bool framework;         /* a framework key (not model, not a container) */
	bool model;
};

static bool is_impl_key(const char *k)
{
	for (size_t i = 0; k && sl_kserve_implementations[i]; i++)
		if (k[0] == sl_kserve_implementations[i][0] &&   /* most keys differ at once */
		    strcmp(k, sl_kserve_implementations[i]) == 0)
			return true;
	return false;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (!u->component || (u->role != SL_ROLE_PREDICTOR && u->role != SL_ROLE_CANARY))
		return SL_OK;
	const sl_node *comp = u->component;
	struct impl impls[MAX_IMPLS];
	size_t n = 0, n_framework = 0, n_model = 0, n_containers = 0;
	const sl_node *containers = NULL;
	bool malformed = false;   /* an implementation of the wrong type: its count is unknown */
	for (size_t i = 0; i < sl_map_n(comp); i++) {
		const sl_pair *p = sl_map_pair(comp, i);
		const char *k = sl_scalar(p->key);
		if (k && strcmp(k, "containers") == 0) {
			containers = sl_node_deref(p->value);
			continue;
		}
		/* null is an unset pointer; a non-mapping is schema-type's finding */
		const sl_node *v = sl_node_deref(p->value);
		if (!is_impl_key(k) || !v || sl_scalar_type(v) == SL_Y_NULL)
			continue;
		if (v->type != SL_NODE_MAP) {
			malformed = true;
			continue;
		}
		bool model = strcmp(k, "model") == 0;
		n_model += model;
		n_framework += !model;
		if (n < MAX_IMPLS)
			impls[n++] = (struct impl){p->key, k, !model, model};
	}
	if (containers && containers->type == SL_NODE_SEQ) {
		n_containers = sl_seq_n(containers);
		for (size_t i = 0; i < n_containers; i++) {
			const sl_node *name = sl_map_get(sl_seq_item(containers, i), "name");
			if (sl_scalar_is(name, "kserve-container") && n < MAX_IMPLS)
				impls[n++] = (struct impl){name, "container \"kserve-container\"", false,
							   false};
		}
	} else if (containers && sl_scalar_type(containers) != SL_Y_NULL)
		malformed = true;
	if (n == 0 && (n_containers > 0 || malformed))
		return SL_OK;   /* a custom predictor (its first container), or schema-type's case */
	if (n == 0) {
		sl_report *r = sl_report_key(ctx, comp, "%s has no implementation (no framework key, "
					     "model or containers)", sl_ctx_label(ctx, u));
		sl_report_note(ctx, r, "KServe's webhook rejects it: \"exactly one of [...] must be "
			       "specified in PredictorSpec\". Add model (modelFormat and storageUri), a "
			       "framework key such as sklearn, or containers.");
		return SL_OK;
	}
	if (n == 1)
		return SL_OK;
	const char *label = sl_ctx_label(ctx, u);   /* a finding follows, most likely */
	/* The stable predictor outside ModelMesh: the defaulting webhook turns the first framework
	** key into model, replacing the author's model. */
	bool defaulted = u->role == SL_ROLE_PREDICTOR && n_framework > 0 &&
			 !sl_scalar_is(u->obj->mode_annotation, "ModelMesh");
	size_t effective = defaulted ? n - n_model : n;
	const char *framework = NULL;
	for (size_t i = 0; i < n && !framework; i++)
		if (impls[i].framework)
			framework = impls[i].name;
	if (effective == 1) {
		/* Only framework + model: accepted, but model is overwritten. */
		for (size_t i = 0; i < n; i++)
			if (impls[i].model)
			{
				sl_report *r = sl_report_at(ctx, impls[i].at, "%s sets both %s and "
							    "model; everything under model is ignored",
							    label, framework);
				sl_report_note(ctx, r, "KServe's defaulting webhook converts %s into "
					       "model and overwrites this one (setPredictorModelDefaults), "
					       "so its runtime, resources and storageUri are dropped. Keep "
					       "one: model (with modelFormat %s) is the current form.",
					       framework, framework);
			}
		return SL_OK;
	}
	const struct impl *first = NULL;
	for (size_t i = 0; i < n; i++) {
		if (defaulted && impls[i].model)
			continue;   /* overwritten by the framework key, not counted by the webhook */
		if (!first) {
			first = &impls[i];
			continue;
		}
		sl_report *r = sl_report_at(ctx, impls[i].at, "%s has several implementations (%s "
					    "and %s)", label, first->name, impls[i].name);
		sl_report_note(ctx, r, "KServe's webhook rejects it: \"exactly one of [...] must be "
			       "specified in PredictorSpec\". Keep one; containers next to a framework "
			       "key or model are sidecars only when none is named kserve-container.");
	}
	return SL_OK;
}

SL_RULE(predictor_implementation_count, .id = "predictor-implementation-count",
	.category = "kserve",
	.summary = "A predictor with no implementation or several (framework keys, model, containers)",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check, .podless_units = true,
	.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE));
