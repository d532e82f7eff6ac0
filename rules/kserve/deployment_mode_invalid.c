/* SPDX-License-Identifier: Apache-2.0
** deployment-mode-invalid: serving.kserve.io/deploymentMode is not a mode KServe knows, so it
** silently falls back to the cluster default. One finding per annotation, at its value. */
#include "sdk/rule.h"

/** ## What it does
 * Reports an InferenceService or InferenceGraph whose `serving.kserve.io/deploymentMode`
 * annotation is not exactly one of `Standard`, `Knative`, `ModelMesh` or the legacy
 * `RawDeployment` and `Serverless` (KServe compares the text exactly, case included). An empty
 * value is reported too.
 *
 * ## Why is this bad?
 * KServe does not reject an unknown mode: `GetDeploymentMode` returns the annotation only when,
 * after mapping `RawDeployment` to `Standard` and `Serverless` to `Knative`, it equals one of
 * `Standard`, `Knative` or `ModelMesh`, and otherwise returns `deploy.defaultDeploymentMode` of
 * `inferenceservice-config` (the shipped default is Knative). A typo such as `rawdeployment` or
 * `raw-deployment` therefore deploys the model as a Knative Service, with Knative's feature
 * flags, scale-to-zero and routing, instead of the plain Deployment the author asked for; the
 * mode is then recorded in the status and cannot be changed later ("update rejected:
 * deploymentMode cannot be changed"). schedlint's other rules treat such an object as running in
 * the configured default mode, as KServe does.
 *
 * ## Example
 * ```yaml
 * metadata:
 *   name: sklearn-iris
 *   annotations:
 *     serving.kserve.io/deploymentMode: raw-deployment
 * ```
 * Use instead:
 * ```yaml
 * metadata:
 *   name: sklearn-iris
 *   annotations:
 *     serving.kserve.io/deploymentMode: RawDeployment
 * ```
 *
 * The message names the mode KServe falls back to, and a note where that default comes from:
 * an `inferenceservice-config` ConfigMap among the linted files (`data.deploy`,
 * `defaultDeploymentMode`), else config `cluster.kserve-default-deployment-mode`, else KServe's
 * shipped default (Serverless, that is Knative). The notes list the modes and suggest the one
 * the value resembles.
 *
 * ## Fix safety
 * When the value equals one of the five modes once case, dashes, underscores and spaces are
 * ignored (`rawdeployment`, `raw-deployment`, `KNATIVE`), the fix writes that mode's exact
 * spelling inside the existing quotes, the only reading of the author's intent. Safe when that
 * mode is the one KServe falls back to anyway (nothing changes but the spelling); unsafe
 * otherwise: the object then runs in another mode, so other rules may report what they did not
 * (a Knative-only or Standard-only finding), and on an InferenceService that already exists
 * KServe refuses the change ("deploymentMode cannot be changed"). The spec calls this fix safe
 * without that distinction; a safe fix must never introduce a finding, so the mode-changing one
 * is unsafe. Whether a legacy name should become its new one is `deployment-mode-legacy`'s
 * business. Other values have no fix.
 *
 * ## Options
 * `cluster.kserve-default-deployment-mode`: the mode KServe falls back to when no
 * `inferenceservice-config` ConfigMap is linted.
 *
 * ## References
 * - kserve pkg/controller/v1beta1/inferenceservice/utils/utils.go, `GetDeploymentMode`
 * - kserve pkg/apis/serving/v1beta1/configmap.go, `NewDeployConfig` (`defaultDeploymentMode`)
 * - kserve pkg/apis/serving/v1beta1/inference_service_validation.go, `validateDeploymentMode`
 * - kserve pkg/constants/constants.go, `DeploymentModeType` (Standard, Knative, ModelMesh and
 *   the deprecated RawDeployment, Serverless)
 * - KServe docs, Deployment modes: https://kserve.github.io/website/docs/admin-guide/overview
 */

static const char *const modes[] = {
	"Standard", "Knative", "ModelMesh", "RawDeployment", "Serverless", NULL
};

static const char *mode_name(sl_mode m)
{
	return m == SL_MODE_STANDARD ? "Standard" : m == SL_MODE_MODELMESH ? "ModelMesh" : "Knative";
}

static char fold(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool is_separator(char c)
{
	return c == '-' || c == '_' || c == ' ';
}

/* True when s equals mode once case and separators are ignored. */
static bool loose_equal(const char *s, size_t n, const char *mode)
{
	size_t i = 0;
	for (;;) {
		while (i < n && is_separator(s[i]))
			i++;
		if (i == n || *mode == '\0')
			return i == n && *mode == '\0';
		if (fold(s[i]) != fold(*mode))
			return false;
		i++;
		mode++;
	}
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const sl_node *v = o->mode_annotation;
	if (!v)
		return SL_OK;
	sl_yaml_type t = sl_scalar_type(v);
	const char *s = sl_scalar(v);
	if (!s || (t != SL_Y_STR && t != SL_Y_NULL))
		return SL_OK;   /* not a string: schema-type reports it */
	if (t == SL_Y_NULL)
		s = "";
	sl_mode m;
	if (sl_kserve_mode_parse(s, &m))
		return SL_OK;
	const char *src = NULL;
	const char *def = mode_name(sl_cluster_kserve_default_mode(sl_ctx_index(ctx), &src));
	const char *match = NULL;
	for (size_t i = 0; modes[i] && *s; i++)
		if (loose_equal(s, strlen(s), modes[i]))
			match = modes[i];
	sl_arena *a = sl_ctx_arena(ctx);
	const char *shown = *s ? sl_arena_printf(a, "\"%s\"", s) : "is empty and";
	if (!shown)
		return SL_ENOMEM;
	sl_report *r = sl_report_at(ctx, v, "%s: serving.kserve.io/deploymentMode %s is not a "
				    "deployment mode; KServe falls back to %s, %s",
				    sl_object_label(o, a), shown, def,
				    src ? "the cluster's default" : "its shipped default");
	sl_report_note(ctx, r, "The modes are Standard, Knative, ModelMesh and the legacy "
		       "RawDeployment and Serverless, compared case and all. KServe does not reject "
		       "another value: GetDeploymentMode ignores it and uses the cluster's default, "
		       "records that mode in the status, and refuses to change it later; schedlint's "
		       "other rules judge the object in that mode too.");
	if (src)
		sl_report_note(ctx, r, "The cluster's default mode, %s, comes from %s.", def, src);
	if (match)
		sl_report_note(ctx, r, "Did you mean %s?", match);
	size_t start, end;
	if (!r || !match || !sl_scalar_content_range(sl_ctx_source(ctx), v, &start, &end))
		return SL_OK;
	sl_err err = sl_fix_replace(ctx, r, start, end, match);
	sl_mode mm = m;
	sl_kserve_mode_parse(match, &mm);
	if (!err && mm == o->mode)
		err = sl_fix_describe(ctx, r, SL_FIX_SAFE, "write %s", match);
	else if (!err)
		err = sl_fix_describe(ctx, r, SL_FIX_UNSAFE, "write %s, which changes the mode from %s "
				      "(the fallback) to %s: other rules then judge it in %s, and KServe "
				      "rejects the change on an object that already exists", match, def,
				      mode_name(mm), mode_name(mm));
	return err;
}

SL_RULE(deployment_mode_invalid, .id = "deployment-mode-invalid", .category = "kserve",
	.summary = "serving.kserve.io/deploymentMode is not a KServe deployment mode",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_SAFE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE) | SL_KIND_BIT(SL_KIND_INFERENCE_GRAPH));
