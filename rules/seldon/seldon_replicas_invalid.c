/* SPDX-License-Identifier: Apache-2.0
** seldon-replicas-invalid: a Seldon Model or Server whose replicas, minReplicas and maxReplicas
** contradict each other. One finding per violated bound, at the field that breaks it. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a Seldon Core 2 Model or Server whose scaling fields fail Seldon's own check,
 * `GetValidatedScalingSpec`, evaluated as Seldon does it:
 * - the effective replicas are `replicas` when set and not negative; else `minReplicas` when it
 *   is above 0 (a negative `replicas` with such a `minReplicas` fails: "number of replicas %d
 *   cannot be less than minimum replica %d"); else 1;
 * - with `minReplicas` above 0: replicas below it fail ("number of replicas %d must be >= min
 *   replicas %d"), reported at `replicas`;
 * - with `maxReplicas` above 0: `minReplicas` above it fails ("min number of replicas %d must be
 *   <= max number of replicas %d"), reported at `minReplicas`; replicas above it fail ("number
 *   of replicas %d must be <= max replicas %d"), reported at `replicas`.
 * A `minReplicas` or `maxReplicas` of 0 or less means "unset" to Seldon and is not checked.
 * Seldon stops at the first failure; this rule reports every one (one finding per offending
 * field), so fixing one does not reveal the next.
 *
 * ## Why is this bad?
 * Nothing rejects these values when the object is applied (the CRDs carry no such validation).
 * The operator finds the error only when it reconciles: a Server's reconcile fails terminally and
 * no StatefulSet is created or updated; a Model's load request is never sent to the scheduler.
 * Either way the error appears only in the object's status and the operator's log, with the
 * messages quoted above prefixed by "scaling spec is invalid:".
 *
 * ## Example
 * ```yaml
 * kind: Server
 * spec:
 *   serverConfig: mlserver
 *   replicas: 1
 *   minReplicas: 2
 *   maxReplicas: 4
 * ```
 * Use instead:
 * ```yaml
 * kind: Server
 * spec:
 *   serverConfig: mlserver
 *   replicas: 2
 *   minReplicas: 2
 *   maxReplicas: 4
 * ```
 *
 * ## Fix safety
 * No fix: which bound is wrong is the author's decision.
 *
 * ## Options
 * None.
 *
 * ## References
 * - SeldonIO/seldon-core operator/internal/utils.go, `GetValidatedScalingSpec`
 * - SeldonIO/seldon-core operator/controllers/mlops/server_controller.go (terminal error on an
 *   invalid scaling spec), operator/apis/mlops/v1alpha1/model_types.go
 *   (`AsSchedulerModel` scaling spec)
 */

/* The integer value of spec[key]; false when absent or not an integer. */
static bool int_field(const sl_node *spec, const char *key, const sl_node **node, long long *v)
{
	*node = sl_map_get(spec, key);
	return *node && sl_scalar_type(*node) == SL_Y_INT && sl_scalar_int(*node, v);
}

/* o's label, made for a finding only: most objects get none. */
static const char *label(sl_ctx *ctx, const sl_object *o)
{
	return sl_object_label(o, sl_ctx_arena(ctx));
}

/* The operator's error, quoted in a note (fmt gives its text after "scaling spec is invalid: "). */
static void operator_note(sl_ctx *ctx, sl_report *r, const char *fmt, long long a, long long b)
	__attribute__((format(printf, 3, 0)));
static void operator_note(sl_ctx *ctx, sl_report *r, const char *fmt, long long a, long long b)
{
	const char *err = sl_arena_printf(sl_ctx_arena(ctx), fmt, a, b);
	sl_report_note(ctx, r, "The Seldon operator rejects it: \"scaling spec is invalid: %s\".",
		       err ? err : "");
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const sl_node *rn, *minn, *maxn;
	long long r = 0, mn = 0, mx = 0;
	bool has_r = int_field(o->spec, "replicas", &rn, &r);
	bool has_min = int_field(o->spec, "minReplicas", &minn, &mn) && mn > 0;
	bool has_max = int_field(o->spec, "maxReplicas", &maxn, &mx) && mx > 0;
	long long eff = 1;
	if (has_r && r >= 0) {
		eff = r;
	} else if (has_min) {
		if (has_r) {
			operator_note(ctx, sl_report_at(ctx, rn, "%s: replicas %lld is below minReplicas "
							"%lld", label(ctx, o), r, mn),
				      "number of replicas %lld cannot be less than minimum replica %lld",
				      r, mn);
			return SL_OK;   /* no effective replicas to check further */
		}
		eff = mn;
	}
	if (has_min && eff < mn)
		operator_note(ctx, sl_report_at(ctx, rn, "%s: replicas %lld is below minReplicas %lld",
						label(ctx, o), eff, mn),
			      "number of replicas %lld must be >= min replicas %lld", eff, mn);
	if (has_max && has_min && mn > mx)
		operator_note(ctx, sl_report_at(ctx, minn, "%s: minReplicas %lld is above maxReplicas "
						"%lld", label(ctx, o), mn, mx),
			      "min number of replicas %lld must be <= max number of replicas %lld", mn,
			      mx);
	if (has_max && eff > mx && has_r)
		operator_note(ctx, sl_report_at(ctx, rn, "%s: replicas %lld is above maxReplicas %lld",
						label(ctx, o), eff, mx),
			      "number of replicas %lld must be <= max replicas %lld", eff, mx);
	return SL_OK;
}

SL_RULE(seldon_replicas_invalid, .id = "seldon-replicas-invalid", .category = "seldon",
	.summary = "A Seldon Model or Server has replicas outside minReplicas..maxReplicas",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_SELDON_MODEL) | SL_KIND_BIT(SL_KIND_SELDON_SERVER));
