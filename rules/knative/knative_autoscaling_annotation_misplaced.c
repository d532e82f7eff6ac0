/* SPDX-License-Identifier: Apache-2.0
** knative-autoscaling-annotation-misplaced: `autoscaling.knative.dev`-prefixed annotation on a Knative Service's
** or Configuration's own metadata, which the webhook rejects. */
#include "sdk/rule.h"

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
 * Safe: the fix moves the annotation, key and value as written, to
 * `spec.template.metadata.annotations` in one fix of two edits: it removes the entry from the
 * object's `metadata.annotations` (the whole `annotations:` field when it held only that
 * entry) and adds it as the last template annotation, creating `annotations:` under the
 * template's `metadata:`, or `metadata:` itself, when missing. When the template already has
 * the annotation with the same value, the fix only removes the misplaced one. Several
 * annotations are moved one at a time (their insertions meet at one place, so the engine
 * applies one fix per round). Declined (no fix) when `spec.template` is absent, not a mapping
 * or a flow mapping; when the template already has the annotation with another value (which
 * one is meant is the author's call); when the key or value is not a one-line scalar; when
 * anything edited is an alias or anchored; and when an edit would put a block into a flow
 * mapping or remove an entry that does not start its own line.
 *
 * Unsafe instead when the moved value would be invalid in the template, by what
 * `knative-autoscaling-annotation-invalid` checks there (with every misplaced annotation moved):
 * a min/max/initial scale that is not a non-negative int32, a max-scale below the min-scale,
 * a `*.knative.dev` class other than kpa/hpa, a metric the resulting class rejects, a target
 * that is not a plain decimal of at least 0.01. A safe fix never introduces a finding; this one
 * would (the webhook rejects the value there too, with another error).
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

/* --- the fix: both edits are checked first, so that a fix is all or nothing --- */

#define AS "autoscaling.knative.dev/"
#define KPA "kpa.autoscaling.knative.dev"
#define HPA "hpa.autoscaling.knative.dev"

/* A non-negative int32 as Knative parses it ([+]digits). */
static bool uint32_text(const char *s, long long *out)
{
	if (!s)
		return false;
	if (*s == '+')
		s++;
	long long v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (*s - '0')) > 2147483647LL)
			return false;
	}
	*out = v;
	return true;
}

/* key's value (or its legacy alias's) in the revision template once every misplaced annotation
** has moved there: the template's own, else the object's. */
static const char *after_move(const sl_node *tann, const sl_node *ann, const char *k1,
			      const char *k2)
{
	const sl_node *maps[2] = {tann, ann};
	for (int m = 0; m < 2; m++) {
		const sl_node *v = sl_map_get(maps[m], k1);
		if (!v && k2)
			v = sl_map_get(maps[m], k2);
		if (v)
			return sl_scalar(v);
	}
	return NULL;
}

/* True when the annotation key: val, moved to the template (whose annotations are tann, NULL
** when none), passes what knative-autoscaling-annotation-invalid checks there, with every other
** misplaced annotation of ann moved too. Anything it does not know is taken as invalid. */
static bool valid_after_move(const char *key, const char *val, const sl_node *tann,
			     const sl_node *ann)
{
	if (!val)
		return false;
	if (strncmp(key, AS, sizeof AS - 1) != 0)
		return true;
	const char *k = key + sizeof AS - 1;
	long long n, min = 0, max = 0;
	if (!strcmp(k, "min-scale") || !strcmp(k, "minScale") || !strcmp(k, "max-scale") ||
	    !strcmp(k, "maxScale")) {
		const char *mins = after_move(tann, ann, AS "min-scale", AS "minScale");
		const char *maxs = after_move(tann, ann, AS "max-scale", AS "maxScale");
		if (!uint32_text(val, &n) || (mins && !uint32_text(mins, &min)) ||
		    (maxs && !uint32_text(maxs, &max)))
			return false;
		return max == 0 || max >= min;
	}
	if (!strcmp(k, "initial-scale") || !strcmp(k, "initialScale"))
		return uint32_text(val, &n);
	const char *cls = after_move(tann, ann, AS "class", NULL);
	if (!cls)
		cls = KPA;
	if (!strcmp(k, "class")) {
		size_t len = strlen(val);
		return len < 12 || strcmp(val + len - 12, ".knative.dev") != 0 || !strcmp(val, KPA) ||
		       !strcmp(val, HPA);
	}
	if (!strcmp(k, "metric")) {
		if (!strcmp(cls, KPA))
			return !strcmp(val, "concurrency") || !strcmp(val, "rps");
		return strcmp(cls, HPA) != 0 || *val;
	}
	if (!strcmp(k, "target")) {
		/* plain decimals only; anything fancier is left to the author */
		double v = 0, scale = 1;
		bool dot = false, digits = false;
		for (const char *c = val; *c; c++) {
			if (*c == '.' && !dot)
				dot = true;
			else if (*c >= '0' && *c <= '9') {
				digits = true;
				if (dot)
					v += (*c - '0') * (scale /= 10);
				else
					v = v * 10 + (*c - '0');
			} else
				return false;
		}
		return digits && v >= 0.01;
	}
	return true;
}

/* Attaches the fix moving pair p of the object's annotations ann to the revision template. */
static void add_fix(sl_ctx *ctx, sl_report *r, const sl_object *o, const sl_node *ann,
		    const sl_pair *p)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *meta = sl_node_deref(o->metadata), *spec = sl_node_deref(o->spec);
	const char *k = sl_ctx_node_one_line(ctx, p->key), *v = sl_ctx_node_one_line(ctx, p->value);
	if (!r || !k || !v || !sl_node_owns(meta, ann) || !sl_node_owns(ann, p->value))
		return;
	/* The removal: the entry, or the annotations field it is alone in. */
	const sl_node *rm_map = sl_map_n(ann) == 1 ? meta : ann;
	const sl_node *rm = sl_map_n(ann) == 1 ? ann : p->value;
	if (!sl_node_owns(rm_map, rm))
		return;
	/* The addition. */
	const sl_node *tmpl = sl_map_get(spec, "template");
	if (!sl_node_owns(spec, tmpl) || tmpl->style)
		return;
	const sl_node *add_map = NULL;
	const char *add_key = NULL, *add_frag = NULL;
	const sl_node *tmeta = sl_map_get(tmpl, "metadata");
	if (!sl_map_get_key(tmpl, "metadata")) {
		add_map = tmpl;
		add_key = "metadata";
		add_frag = sl_arena_printf(a, "annotations:\n  %s: %s", k, v);
	} else if (!sl_node_owns(tmpl, tmeta)) {
		return;
	} else if (!sl_map_get_key(tmeta, "annotations")) {
		add_map = tmeta;
		add_key = "annotations";
		add_frag = sl_arena_printf(a, "%s: %s", k, v);
	} else {
		const sl_node *tann = sl_map_get(tmeta, "annotations");
		if (!sl_node_owns(tmeta, tann))
			return;
		const sl_node *have = sl_map_get(tann, sl_scalar(p->key));
		if (have) {
			/* Already there: with the same value the misplaced copy only goes. */
			if (!sl_scalar(have) || !sl_scalar(p->value) ||
			    strcmp(sl_scalar(have), sl_scalar(p->value)) != 0)
				return;
		} else {
			add_map = tann;
			add_key = k;
			add_frag = v;
		}
	}
	/* an anchored mapping is aliased elsewhere: adding to it would change those places too */
	if (add_map && (!add_frag || sl_node_anchor(add_map)))
		return;
	/* the SDK declines what it cannot do, and the fix then goes whole */
	if (!sl_fix_remove(ctx, r, rm))
		return;
	if (add_map && !sl_fix_add_entry(ctx, r, add_map, add_key, add_frag))
		return;
	if (!add_map)
		sl_fix_describe(ctx, r, SL_FIX_SAFE, "remove %s (spec.template.metadata.annotations "
				"has it already)", sl_scalar(p->key));
	else if (valid_after_move(sl_scalar(p->key), sl_scalar(p->value),
				  sl_map_get(tmeta, "annotations"), ann))
		sl_fix_describe(ctx, r, SL_FIX_SAFE, "move %s to spec.template.metadata.annotations",
				sl_scalar(p->key));
	else
		sl_fix_describe(ctx, r, SL_FIX_UNSAFE, "move %s to spec.template.metadata.annotations, "
				"where its value is invalid too (knative-autoscaling-annotation-invalid "
				"will report it)", sl_scalar(p->key));
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const sl_node *ann = sl_map_get(o->metadata, "annotations");
	for (size_t i = 0; i < sl_map_n(ann); i++) {
		const sl_pair *p = sl_map_pair(ann, i);
		const char *key = sl_scalar(p->key);
		if (!key || strncmp(key, "autoscaling.knative.dev", 23) != 0)
			continue;
		sl_report *r = sl_report_at(ctx, p->key, "%s has %s in its own metadata, where the "
					    "webhook rejects it", sl_object_label(o, sl_ctx_arena(ctx)),
					    key);
		sl_report_note(ctx, r, "Knative reads autoscaling annotations only from the revision "
			       "template; its webhook rejects the %s with: invalid key name \"%s\": "
			       "autoscaling annotations must be put under "
			       "\"spec.template.metadata.annotations\" to work",
			       sl_kind_name(o->kind), key);
		sl_report_note(ctx, r, "Move it to spec.template.metadata.annotations (the fix does).");
		add_fix(ctx, r, o, ann, p);
	}
	return SL_OK;
}

SL_RULE(knative_autoscaling_annotation_misplaced, .id = "knative-autoscaling-annotation-misplaced",
	.category = "knative",
	.summary = "An autoscaling.knative.dev annotation on a Knative Service's own metadata",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_SAFE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_KNATIVE_SERVICE) | SL_KIND_BIT(SL_KIND_KNATIVE_CONFIGURATION));
