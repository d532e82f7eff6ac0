/* SPDX-License-Identifier: Apache-2.0
** knative-autoscaling-annotation-invalid: an `autoscaling.knative.dev/`-prefixed revision annotation
** whose value Knative's webhook rejects. */
#include "sdk/rule.h"

/** ## What it does
 * Checks the autoscaling annotations Knative reads from a revision template, as its webhook
 * does: `min-scale`, `max-scale`, `initial-scale` (and their legacy aliases `minScale`,
 * `maxScale`, `initialScale`) must be integers ≥ 0 that fit in 32 bits; `max-scale` must not be
 * below `min-scale` unless it is 0 (unlimited); a `class` ending in `.knative.dev` must be
 * `kpa.autoscaling.knative.dev` or `hpa.autoscaling.knative.dev`; `metric` must be
 * `concurrency` or `rps` under KPA (the class annotation, else Knative's default class KPA) and
 * non-empty under HPA; `target` must be a number ≥ 0.01. When a key and its alias are both set,
 * the one Knative reads (the new spelling) is checked. One finding per annotation value.
 *
 * Where: a Knative Service's or Configuration's `spec.template.metadata.annotations`; for an
 * InferenceService or InferenceGraph run through Knative, its metadata annotations and each
 * component's `annotations:`, which KServe copies onto the revision template. There `min-scale`
 * and `max-scale` are not checked (KServe drops them and writes its own from
 * `minReplicas`/`maxReplicas`), nor `metric`/`target` of a component that sets
 * `scaleMetric`/`scaleTarget` (KServe overwrites them). Annotations on a Knative Service's own
 * metadata are `knative-autoscaling-annotation-misplaced`.
 *
 * ## Why is this bad?
 * `ValidateAnnotations` (knative/serving `pkg/apis/autoscaling/annotation_validation.go`) runs
 * on every revision template: the Service or Configuration is rejected ("invalid value",
 * "expected 0 <= v <= 2147483647", "max-scale=1 is less than min-scale=3", "target 0 should be
 * at least 0.01"). For an InferenceService the Knative Service KServe renders is rejected, and
 * the error shows only in the InferenceService's status and events.
 *
 * ## Example
 * ```yaml
 * apiVersion: serving.knative.dev/v1
 * kind: Service
 * metadata:
 *   name: summarizer
 * spec:
 *   template:
 *     metadata:
 *       annotations:
 *         autoscaling.knative.dev/min-scale: "4"
 *         autoscaling.knative.dev/max-scale: "2"
 *         autoscaling.knative.dev/metric: cpu
 *     spec:
 *       containers:
 *         - image: registry.example.com/summarizer:3.1
 * ```
 * Use instead:
 * ```yaml
 * apiVersion: serving.knative.dev/v1
 * kind: Service
 * metadata:
 *   name: summarizer
 * spec:
 *   template:
 *     metadata:
 *       annotations:
 *         autoscaling.knative.dev/min-scale: "2"
 *         autoscaling.knative.dev/max-scale: "4"
 *         autoscaling.knative.dev/metric: concurrency
 *     spec:
 *       containers:
 *         - image: registry.example.com/summarizer:3.1
 * ```
 *
 * ## Fix safety
 * No fix: the intended value is not known.
 *
 * ## Options
 * None (`cluster.kserve-default-deployment-mode` decides which InferenceServices run through
 * Knative). A cluster whose config-autoscaler sets another `pod-autoscaler-class` is not
 * modelled: a missing class annotation is taken as KPA.
 *
 * ## References
 * - knative/serving `pkg/apis/autoscaling/annotation_validation.go`, `register.go`
 * - Knative, Configuring autoscaling: https://knative.dev/docs/serving/autoscaling/
 * - kserve/kserve `pkg/controller/v1alpha1/utils/utils.go` (`SetAutoScalingAnnotations`),
 *   `pkg/constants/constants.go` (`ServiceAnnotationDisallowedList`)
 */

#define AS "autoscaling.knative.dev/"
#define KPA "kpa.autoscaling.knative.dev"
#define HPA "hpa.autoscaling.knative.dev"

/* The value node of the first key present (Knative's key priority), its key in *key. */
static const sl_node *get(const sl_node *ann, const char *k1, const char *k2, const char **key)
{
	const sl_node *v = sl_map_get(ann, k1);
	*key = k1;
	if (!v && k2) {
		v = sl_map_get(ann, k2);
		*key = k2;
	}
	return v;
}

/* The note quoting the error Knative gives for it (err), where users see it. */
static void rejected(sl_ctx *ctx, sl_report *r, const sl_object *o, const char *err)
{
	if (!err)
		return;
	if (o->kind == SL_KIND_KNATIVE_SERVICE || o->kind == SL_KIND_KNATIVE_CONFIGURATION)
		sl_report_note(ctx, r, "Knative's webhook rejects the %s with: %s", sl_kind_name(o->kind),
			       err);
	else
		sl_report_note(ctx, r, "KServe copies it onto the Knative Service it renders, which "
			       "Knative's webhook rejects with \"%s\", an error seen only in the %s's "
			       "status and events.", err, sl_kind_name(o->kind));
}

/* Go's strconv.ParseInt(v, 10, 32): 1 ok, 0 not a number, -1 out of range. */
static int parse_int32(const char *s, long long *out)
{
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	if (!*p)
		return 0;
	long long v = 0;
	bool big = false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		if (v < 10000000000LL)
			v = v * 10 + (*p - '0');
		else
			big = true;
	}
	if (s[0] == '-')
		v = -v;
	if (big || v > 2147483647LL || v < -2147483648LL)
		return -1;
	*out = v;
	return 1;
}

/* A decimal number as Go's ParseFloat reads it ([+-]digits[.digits][e[+-]digits]); *out gets
** its value. The "inf" and "nan" spellings parse too (NaN as 1: Knative's comparison with the
** minimum never fails for it). */
static bool parse_float(const char *s, double *out)
{
	double sign = 1;
	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? -1 : 1;
	if (strcasecmp(s, "inf") == 0 || strcasecmp(s, "infinity") == 0 || strcasecmp(s, "nan") == 0) {
		*out = strcasecmp(s, "nan") == 0 ? 1 : sign;
		return true;
	}
	double v = 0, scale = 1;
	bool digits = false;
	for (; *s >= '0' && *s <= '9'; s++, digits = true)
		v = v * 10 + (*s - '0');
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits = true) {
			scale /= 10;
			v += (*s - '0') * scale;
		}
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		int es = 1, e = 0;
		if (*s == '+' || *s == '-')
			es = *s++ == '-' ? -1 : 1;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		for (; *s >= '0' && *s <= '9'; s++)
			if (e < 1000)
				e = e * 10 + (*s - '0');
		for (int i = 0; i < e && v != 0; i++)
			v = es > 0 ? v * 10 : v / 10;
	}
	if (*s)
		return false;
	*out = sign * v;
	return true;
}

/* o's label, made for a finding only: most objects get none. */
static const char *label(sl_ctx *ctx, const sl_object *o)
{
	return sl_object_label(o, sl_ctx_arena(ctx));
}

/* Checks an integer ≥ 0 annotation; *ok and *val get the parsed value. */
static void check_int(sl_ctx *ctx, const sl_object *o, const sl_node *v, const char *key,
		      long long *val, bool *ok)
{
	*ok = false;
	const char *s = sl_scalar(v);
	if (!v || !s)
		return;
	long long n = 0;
	int r = parse_int32(s, &n);
	if (r == 0) {
		sl_report *r = sl_report_at(ctx, v, "%s: %s \"%s\" is not an integer",
					    label(ctx, o), key, s);
		rejected(ctx, r, o, sl_arena_printf(sl_ctx_arena(ctx), "invalid value: %s: %s", s, key));
		return;
	}
	if (r < 0 || n < 0) {
		sl_report *r = sl_report_at(ctx, v, "%s: %s \"%s\" is not a non-negative 32-bit integer",
					    label(ctx, o), key, s);
		rejected(ctx, r, o, sl_arena_printf(sl_ctx_arena(ctx), "expected 0 <= %s <= 2147483647: %s", s, key));
		return;
	}
	*val = n;
	*ok = true;
}

/* Checks one annotation map. kserve: KServe drops min/max-scale; skip_metric/skip_target: KServe
** overwrites them. fallback_class: the class when the map sets none. */
static void check_map(sl_ctx *ctx, const sl_object *o, const sl_node *ann, bool kserve,
		      bool skip_metric, bool skip_target, const char *fallback_class)
{
	const char *key;
	const sl_node *cv = get(ann, AS "class", NULL, &key);
	const char *cls = sl_scalar(cv);
	if (cls) {
		size_t n = strlen(cls);
		if (n >= 12 && strcmp(cls + n - 12, ".knative.dev") == 0 && strcmp(cls, KPA) != 0 &&
		    strcmp(cls, HPA) != 0)
		{
			sl_report *r = sl_report_at(ctx, cv, "%s: %s \"%s\" is not a Knative autoscaler "
						    "class", label(ctx, o), key, cls);
			rejected(ctx, r, o, sl_arena_printf(sl_ctx_arena(ctx), "invalid value: %s: %s", cls, key));
			sl_report_note(ctx, r, "A class ending in .knative.dev must be %s or %s; other "
				       "autoscalers use their own class names.", KPA, HPA);
		}
	} else {
		cls = fallback_class;
	}
	long long min = 0, max = 0;
	bool min_ok = false, max_ok = false;
	const char *max_key = NULL;
	const sl_node *maxv = NULL;
	if (!kserve) {
		const sl_node *v = get(ann, AS "min-scale", AS "minScale", &key);
		check_int(ctx, o, v, key, &min, &min_ok);
		maxv = get(ann, AS "max-scale", AS "maxScale", &max_key);
		check_int(ctx, o, maxv, max_key, &max, &max_ok);
		if (max_ok && max != 0 && max < (min_ok ? min : 0))
		{
			sl_report *r = sl_report_at(ctx, maxv, "%s: max-scale=%lld is less than "
						    "min-scale=%lld", label(ctx, o), max, min);
			rejected(ctx, r, o, sl_arena_printf(sl_ctx_arena(ctx), "max-scale=%lld is less than min-scale=%lld", max, min));
			sl_report_note(ctx, r, "Raise max-scale, or set it to 0 (no limit).");
		}
	}
	long long init;
	bool init_ok;
	const sl_node *iv = get(ann, AS "initial-scale", AS "initialScale", &key);
	check_int(ctx, o, iv, key, &init, &init_ok);
	const sl_node *mv = get(ann, AS "metric", NULL, &key);
	const char *metric = sl_scalar(mv);
	if (mv && metric && !skip_metric) {
		if (cls && strcmp(cls, KPA) == 0 && strcmp(metric, "concurrency") != 0 &&
		    strcmp(metric, "rps") != 0)
		{
			sl_report *r = sl_report_at(ctx, mv, "%s: %s \"%s\" is not a metric the KPA "
						    "autoscaler supports (concurrency or rps)", label(ctx, o),
						    key, metric);
			rejected(ctx, r, o, sl_arena_printf(sl_ctx_arena(ctx), "invalid value: %s: %s", metric, key));
			sl_report_note(ctx, r, "cpu and memory need class %s.", HPA);
		}
		else if (cls && strcmp(cls, HPA) == 0 && !*metric)
		{
			sl_report *r = sl_report_at(ctx, mv, "%s: %s is empty under the HPA class",
						    label(ctx, o), key);
			rejected(ctx, r, o, sl_arena_printf(sl_ctx_arena(ctx), "invalid value: : %s", key));
		}
	}
	const sl_node *tv = get(ann, AS "target", NULL, &key);
	const char *ts = sl_scalar(tv);
	if (tv && ts && !skip_target) {
		double t;
		if (!parse_float(ts, &t))
		{
			sl_report *r = sl_report_at(ctx, tv, "%s: %s \"%s\" is not a number", label(ctx, o),
						    key, ts);
			rejected(ctx, r, o, sl_arena_printf(sl_ctx_arena(ctx), "invalid value: %s: %s", ts, key));
		}
		else if (!(t >= 0.01))
		{
			sl_report *r = sl_report_at(ctx, tv, "%s: %s \"%s\" is below the minimum 0.01",
						    label(ctx, o), key, ts);
			rejected(ctx, r, o, sl_arena_printf(sl_ctx_arena(ctx), "target %s should be at least 0.01", ts));
		}
	}
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	if (o->kind == SL_KIND_KNATIVE_SERVICE || o->kind == SL_KIND_KNATIVE_CONFIGURATION) {
		for (size_t i = 0; i < o->n_units; i++)
			check_map(ctx, o, sl_map_get(o->units[i].meta, "annotations"), false, false, false,
				  KPA);
		return SL_OK;
	}
	if ((o->kind != SL_KIND_INFERENCE_SERVICE && o->kind != SL_KIND_INFERENCE_GRAPH) ||
	    o->mode != SL_MODE_KNATIVE)
		return SL_OK;
	const sl_node *top = sl_map_get(o->metadata, "annotations");
	const char *top_class = sl_scalar(sl_map_get(top, AS "class"));
	if (!top_class)
		top_class = KPA;   /* KServe's default (SetAutoScalingAnnotations) */
	bool all_metric = true, all_target = true, any = false;
	for (size_t i = 0; i < o->n_units; i++) {
		const sl_unit *u = &o->units[i];
		if (u->role == SL_ROLE_WORKER || !u->component)
			continue;
		any = true;
		bool sm = sl_map_get(u->component, "scaleMetric") != NULL;
		bool st = sl_map_get(u->component, "scaleTarget") != NULL;
		all_metric = all_metric && sm;
		all_target = all_target && st;
		const sl_node *ann = sl_map_get(u->component, "annotations");
		if (ann && ann != top)
			check_map(ctx, o, ann, true, sm, st, top_class);
	}
	check_map(ctx, o, top, true, any && all_metric, any && all_target, KPA);
	return SL_OK;
}

SL_RULE(knative_autoscaling_annotation_invalid, .id = "knative-autoscaling-annotation-invalid",
	.category = "knative",
	.summary = "An autoscaling.knative.dev revision annotation with a value Knative rejects",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_object = check);
