/* SPDX-License-Identifier: Apache-2.0
** knative-feature-annotation-ineffective: a `features.knative.dev/podspec-*` annotation, which
** Knative never reads. */
#include "sdk/rule.h"

/** ## What it does
 * Reports each annotation whose key starts with `features.knative.dev/podspec-` (or
 * `features.knative.dev/kubernetes.podspec-`), on any linted object's metadata, on a pod
 * template's metadata, or in a KServe component's `annotations:`. One finding per annotation,
 * at its key.
 *
 * ## Why is this bad?
 * The `kubernetes.podspec-*` flags are cluster-wide: Knative reads them only from the
 * `config-features` ConfigMap in `knative-serving` (or the operator's `KnativeServing`
 * `spec.config.features`). The only per-object `features.knative.dev/`-prefixed annotations are
 * `features.knative.dev/queueproxy-podinfo` and `features.knative.dev/http-full-duplex`
 * (knative/serving `pkg/apis/config/features.go`). An annotation such as
 * `features.knative.dev/podspec-nodeselector: enabled` does nothing (knative/serving issue
 * 11388): the author believes the field is allowed, and the webhook still rejects it with
 * "must not set the field(s)".
 *
 * ## Example
 * ```yaml
 * apiVersion: serving.knative.dev/v1
 * kind: Service
 * metadata:
 *   name: embedder
 *   annotations:
 *     features.knative.dev/podspec-nodeselector: enabled
 * spec:
 *   template:
 *     spec:
 *       nodeSelector:
 *         pool: cpu-large
 *       containers:
 *         - image: registry.example.com/embedder:2.0
 * ```
 * Use instead (in the cluster's `config-features` ConfigMap):
 * ```yaml
 * apiVersion: v1
 * kind: ConfigMap
 * metadata:
 *   name: config-features
 *   namespace: knative-serving
 * data:
 *   kubernetes.podspec-nodeselector: "enabled"
 * ```
 *
 * ## Fix safety
 * No fix: deleting the annotation does not enable the flag; the notes say where the flag
 * belongs.
 *
 * ## Options
 * None.
 *
 * ## References
 * - knative/serving `pkg/apis/config/features.go` (the `features.knative.dev/`-prefixed keys)
 * - knative/serving issue 11388
 * - Knative, Feature and extension flags: https://knative.dev/docs/serving/configuration/feature-flags/
 */

#define PREFIX "features.knative.dev/"

/* The flag the annotation imitates ("kubernetes.podspec-nodeselector"), or NULL. */
static const char *imitated_flag(sl_ctx *ctx, const char *key)
{
	if (strncmp(key, PREFIX, sizeof PREFIX - 1) != 0)
		return NULL;
	const char *rest = key + sizeof PREFIX - 1;
	if (strncmp(rest, "kubernetes.podspec-", 19) == 0)
		return rest;
	if (strncmp(rest, "podspec-", 8) == 0)
		return sl_arena_printf(sl_ctx_arena(ctx), "kubernetes.%s", rest);
	return NULL;
}

static void check_map(sl_ctx *ctx, const sl_object *o, const sl_node *ann)
{
	for (size_t i = 0; i < sl_map_n(ann); i++) {
		const sl_pair *p = sl_map_pair(ann, i);
		const char *key = sl_scalar(p->key);
		const char *flag = key ? imitated_flag(ctx, key) : NULL;
		if (!flag)
			continue;
		sl_report *r = sl_report_at(ctx, p->key, "%s: annotation %s does nothing; Knative's "
					    "feature flags are cluster-wide",
					    sl_object_label(o, sl_ctx_arena(ctx)), key);
		sl_report_note(ctx, r, "Knative reads %s only from the config-features ConfigMap in "
			       "knative-serving (or a KnativeServing CR's spec.config.features); the only "
			       "per-object features.knative.dev annotations are queueproxy-podinfo and "
			       "http-full-duplex (knative/serving features.go, issue 11388).", flag);
		sl_report_note(ctx, r, "Remove it; if the object sets fields the flag gates, enable the "
			       "flag in config-features (knative-feature-flag-required reports those "
			       "fields).");
	}
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const sl_node *seen[64];
	size_t n_seen = 0;
	const sl_node *top = sl_node_deref(sl_map_get(o->metadata, "annotations"));
	check_map(ctx, o, top);
	for (size_t i = 0; i < o->n_units; i++) {
		const sl_unit *u = &o->units[i];
		const sl_node *maps[2] = {
			sl_node_deref(sl_map_get(u->meta, "annotations")),
			sl_node_deref(sl_map_get(u->component, "annotations")),
		};
		for (int m = 0; m < 2; m++) {
			const sl_node *ann = maps[m];
			bool dup = !ann || ann == top;
			for (size_t s = 0; !dup && s < n_seen; s++)
				dup = seen[s] == ann;
			if (dup)
				continue;
			if (n_seen < sizeof seen / sizeof seen[0])
				seen[n_seen++] = ann;
			check_map(ctx, o, ann);
		}
	}
	return SL_OK;
}

SL_RULE(knative_feature_annotation_ineffective, .id = "knative-feature-annotation-ineffective",
	.category = "knative",
	.summary = "A features.knative.dev/podspec-* annotation, which Knative ignores",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_object = check);
