/* SPDX-License-Identifier: Apache-2.0
** multiple-default-priority-classes: more than one PriorityClass with globalDefault: true among
** the linted files. Every default after the first is reported at its globalDefault. */
#include "sdk/rule.h"

/** ## What it does
 * Looks at every PriorityClass among the linted files (in path, then document order) and
 * reports each one after the first that sets `globalDefault: true`, at its `globalDefault`
 * field, naming the first default and where it is.
 *
 * ## Why is this bad?
 * Only one PriorityClass may be the cluster default. The Priority admission plugin refuses the
 * second one: "PriorityClass high is already marked as default. Only one default can exist"
 * (kubernetes `plugin/pkg/admission/priority/admission.go`), so applying the manifests fails
 * half-way, and which class wins depends on the order they were applied in. If several defaults
 * do exist (created concurrently), the plugin uses the one with the lowest value, which is
 * rarely what either author meant: every pod without a `priorityClassName` silently gets it.
 * Linting a single file only sees that file's classes; lint the directory to compare them all.
 *
 * ## Example
 * ```yaml
 * # serving/priority.yaml
 * apiVersion: scheduling.k8s.io/v1
 * kind: PriorityClass
 * metadata:
 *   name: serving-default
 * value: 100000
 * globalDefault: true
 * ---
 * # batch/priority.yaml
 * apiVersion: scheduling.k8s.io/v1
 * kind: PriorityClass
 * metadata:
 *   name: batch-default
 * value: 1000
 * globalDefault: true
 * ```
 * Use instead: keep `globalDefault: true` on one class and name the other explicitly with
 * `priorityClassName` where it is wanted:
 * ```yaml
 * apiVersion: scheduling.k8s.io/v1
 * kind: PriorityClass
 * metadata:
 *   name: batch-default
 * value: 1000
 * globalDefault: false
 * ```
 *
 * ## Fix safety
 * No fix: which class should be the default is a policy decision.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Pod Priority and Preemption, "PriorityClass" (globalDefault),
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
 * - kubernetes/kubernetes `plugin/pkg/admission/priority/admission.go`
 */

/* The globalDefault node of a PriorityClass when it is a YAML boolean true, else NULL. */
static const sl_node *default_node(const sl_object *o)
{
	const sl_node *n = sl_map_get(o->root, "globalDefault");
	const char *s = sl_scalar(n);
	if (!s || sl_scalar_type(n) != SL_Y_BOOL)
		return NULL;
	bool t = s[0] == 't' || s[0] == 'T' || s[0] == 'y' || s[0] == 'Y' ||
		 ((s[0] == 'o' || s[0] == 'O') && (s[1] == 'n' || s[1] == 'N'));
	return t ? n : NULL;
}

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const sl_node *mine = default_node(o);
	if (!mine)
		return SL_OK;
	size_t n = 0;
	const sl_object *const *pcs = sl_index_objects(sl_ctx_index(ctx), SL_KIND_PRIORITY_CLASS, &n);
	const sl_object *first = NULL;
	for (size_t i = 0; i < n && !first; i++)
		if (default_node(pcs[i]))
			first = pcs[i];
	if (!first || sl_object_same(first, o))
		return SL_OK;
	const char *where = "";
	if (first->path && o->path && strcmp(first->path, o->path) != 0) {
		/* Name the other file relative to the directory both share. */
		size_t cut = 0;
		for (size_t i = 0; first->path[i] && first->path[i] == o->path[i]; i++)
			if (first->path[i] == '/')
				cut = i + 1;
		where = sl_arena_printf(sl_ctx_arena(ctx), " (in %s)", first->path + cut);
	}
	const char *fname = first->name ? first->name : "(unnamed)";
	sl_report *r = sl_report_at(ctx, mine, "%s is marked globalDefault, but PriorityClass %s%s "
				    "already is", sl_object_label(o, sl_ctx_arena(ctx)), fname,
				    where ? where : "");
	sl_report_note(ctx, r, "The Priority admission plugin rejects whichever is created second: "
		       "\"PriorityClass %s is already marked as default. Only one default can "
		       "exist\".", fname);
	return SL_OK;
}

SL_RULE(multiple_default_priority_classes, .id = "multiple-default-priority-classes",
	.category = "validity",
	.summary = "More than one PriorityClass has globalDefault: true",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_PRIORITY_CLASS));
