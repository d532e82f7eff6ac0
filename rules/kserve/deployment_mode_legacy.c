/* SPDX-License-Identifier: Apache-2.0
** deployment-mode-legacy: serving.kserve.io/deploymentMode uses the pre-0.16 name
** (RawDeployment, Serverless) on a cluster whose KServe is 0.16 or later. */
#include "sdk/rule.h"

/** ## What it does
 * Reports `serving.kserve.io/deploymentMode: RawDeployment` or `Serverless` on an
 * InferenceService or InferenceGraph when the config says the cluster runs KServe 0.16 or later
 * (`cluster.kserve-version`). Without that setting nothing is reported: older KServe releases
 * know only the legacy names. Off by default.
 *
 * ## Why is this bad?
 * KServe 0.16 renamed the modes (PR #4608): `RawDeployment` became `Standard` and `Serverless`
 * became `Knative`. The old names still work, since the defaulting webhook rewrites them
 * (`DefaultInferenceService`) and `GetDeploymentMode` maps them, but they are marked deprecated
 * in `pkg/constants/constants.go` ("deprecated: use Standard", "deprecated: use Knative") and
 * the manifest no longer says what the cluster stores: the defaulting webhook rewrites the
 * annotation to the new name, so tools that compare the manifest with the live object (GitOps
 * diffs) see a difference that never goes away.
 *
 * ## Example
 * ```yaml
 * metadata:
 *   annotations:
 *     serving.kserve.io/deploymentMode: RawDeployment
 * ```
 * Use instead:
 * ```yaml
 * metadata:
 *   annotations:
 *     serving.kserve.io/deploymentMode: Standard
 * ```
 *
 * ## Fix safety
 * Safe: `RawDeployment` becomes `Standard` and `Serverless` becomes `Knative`, written inside the
 * existing quotes. KServe 0.16 and later treat both spellings the same way, and the rule only
 * runs when the config says the cluster has such a KServe.
 *
 * ## Options
 * `cluster.kserve-version` (for instance `"0.16"` or `v0.17.1`): the rule reports only when it
 * is set and at least 0.16.
 *
 * ## References
 * - kserve pkg/constants/constants.go, `LegacyRawDeployment`, `LegacyServerless`
 * - kserve commit 92899a1f6 (PR #4608), first released in v0.16.0
 * - kserve pkg/apis/serving/v1beta1/inference_service_defaults.go, `DefaultInferenceService`
 */

/* Parses "0.16", "v0.16.2", "1": *major, *minor. False when it is not such a version. */
static bool parse_version(const char *v, long *major, long *minor)
{
	if (!v)
		return false;
	if (*v == 'v' || *v == 'V')
		v++;
	long parts[2] = {0, 0};
	for (int i = 0; i < 2; i++) {
		if (*v < '0' || *v > '9')
			return false;
		long n = 0;
		while (*v >= '0' && *v <= '9') {
			if (n > 100000)
				return false;
			n = n * 10 + (*v++ - '0');
		}
		parts[i] = n;
		if (*v != '.')
			break;
		v++;
	}
	*major = parts[0];
	*minor = parts[1];
	return true;
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const sl_node *v = o->mode_annotation;
	if (!v)
		return SL_OK;
	const char *version = sl_config_kserve_version(sl_ctx_config(ctx));
	long major, minor;
	if (!parse_version(version, &major, &minor) ||
	    (major == 0 && minor < 16))
		return SL_OK;
	const char *s = sl_scalar(v);
	if (sl_scalar_type(v) != SL_Y_STR || !s)
		return SL_OK;
	const char *now = strcmp(s, "RawDeployment") == 0 ? "Standard"
			  : strcmp(s, "Serverless") == 0  ? "Knative" : NULL;
	if (!now)
		return SL_OK;
	sl_report *r = sl_report_at(ctx, v,
				    "%s: deployment mode %s is the pre-0.16 name of %s, deprecated since "
				    "KServe 0.16 (cluster.kserve-version: %s)",
				    sl_object_label(o, sl_ctx_arena(ctx)), s, now, version);
	sl_report_note(ctx, r, "KServe still accepts %s, but its defaulting webhook rewrites the "
		       "annotation to %s, so a GitOps diff between this manifest and the live object "
		       "never settles. Write %s (the fix does).", s, now, now);
	size_t start, end;
	if (r && sl_scalar_content_range(sl_ctx_source(ctx), v, &start, &end)) {
		sl_err err = sl_fix_replace(ctx, r, start, end, now);
		if (!err)
			err = sl_fix_describe(ctx, r, SL_FIX_SAFE, "write %s", now);
		return err;
	}
	return SL_OK;
}

SL_RULE(deployment_mode_legacy, .id = "deployment-mode-legacy", .category = "kserve",
	.summary = "A legacy deployment mode name (RawDeployment, Serverless) on KServe 0.16 or later",
	.severity = SL_SEV_INFO, .off_by_default = true, .fix = SL_FIX_SAFE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE) | SL_KIND_BIT(SL_KIND_INFERENCE_GRAPH));
