/* SPDX-License-Identifier: Apache-2.0
** priority-class-not-found: priorityClassName names a class that is nowhere defined. One
** finding per unit, at the priorityClassName value. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a `priorityClassName` that names a class that is neither built in
 * (`system-cluster-critical`, `system-node-critical`) nor defined among the linted files (a
 * PriorityClass object) nor declared in the config (`cluster.priority-classes`,
 * `cluster.critical-priority-classes`). The rule runs only when at least one non-built-in class
 * is known that way: with no PriorityClass in sight, the linter cannot tell a missing class from
 * one defined elsewhere in the cluster.
 *
 * ## Why is this bad?
 * The Priority admission plugin resolves the class when the pod is created and rejects the pod
 * when it does not exist: `pods "…" is forbidden: no PriorityClass with name … was found`. For a
 * Deployment, Job, InferenceService or Seldon Server the object itself is accepted, and the error
 * shows up only in the controller's events while no pod ever starts. Pod-spec validation checks
 * only the name's format, so nothing catches a typo earlier.
 *
 * ## Example
 * ```yaml
 * apiVersion: scheduling.k8s.io/v1
 * kind: PriorityClass
 * metadata:
 *   name: inference-high
 * value: 100000
 * ---
 * spec:
 *   predictor:
 *     priorityClassName: inference-hgih
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     priorityClassName: inference-high
 * ```
 *
 * ## Fix safety
 * No fix: the intended class cannot be known for certain.
 *
 * ## Options
 * `cluster.priority-classes` (`name=value`) and `cluster.critical-priority-classes`: classes
 * that exist in the cluster although no linted file defines them.
 *
 * ## References
 * - kubernetes plugin/pkg/admission/priority/admission.go, `admitPod`: "no PriorityClass with
 *   name %v was found"
 * - kubernetes pkg/apis/scheduling/types.go: `system-cluster-critical`, `system-node-critical`
 * - Kubernetes, Pod Priority and Preemption:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
 */

/* True when entry (a "name=value" pair, or a bare name) is for name. */
static bool entry_is(const char *entry, const char *name)
{
	size_t n = strlen(name);
	return strncmp(entry, name, n) == 0 && (entry[n] == '=' || entry[n] == '\0');
}

static bool in_config(const sl_config *cfg, const char *name)
{
	const sl_strlist *classes = sl_config_priority_classes(cfg);
	for (size_t i = 0; i < classes->n; i++)
		if (entry_is(classes->v[i], name))
			return true;
	return sl_config_list_has(sl_config_critical_priority_classes(cfg), name);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const char *name = sl_scalar(u->priority_class_name);
	if (!name || !*name || strcmp(name, "system-cluster-critical") == 0 ||
	    strcmp(name, "system-node-critical") == 0)
		return SL_OK;
	const sl_config *cfg = sl_ctx_config(ctx);
	const sl_index *ix = sl_ctx_index(ctx);
	if (sl_index_count(ix, SL_KIND_PRIORITY_CLASS) == 0 && sl_config_priority_classes(cfg)->n == 0 &&
	    sl_config_critical_priority_classes(cfg)->n == 0)
		return SL_OK;   /* nothing known: the class may be defined elsewhere */
	if (sl_index_find(ix, SL_KIND_PRIORITY_CLASS, name) || in_config(cfg, name))
		return SL_OK;
	sl_report *r = sl_report_at(ctx, u->priority_class_name,
				    "%s: PriorityClass %s is not defined among the linted files or the "
				    "config", sl_ctx_label(ctx, u), name);
	sl_report_note(ctx, r, "Admission rejects the pods: \"no PriorityClass with name %s was "
		       "found\".", name);
	sl_report_note(ctx, r, "Define the class (a PriorityClass among the linted files, or config "
		       "cluster.priority-classes: [\"%s=<value>\"] when it lives elsewhere), or fix "
		       "the name.", name);
	return SL_OK;
}

SL_RULE(priority_class_not_found, .id = "priority-class-not-found", .category = "priority",
	.summary = "priorityClassName names a PriorityClass that is not defined",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
