/* SPDX-License-Identifier: Apache-2.0
** invalid-priority-class: a PriorityClass the API server rejects (value above the user range,
** a reserved system- name, an unknown preemptionPolicy). One finding per problem. */
#include "rule.h"

/** ## What it does
 * Validates each PriorityClass as the API server's `ValidatePriorityClass` does:
 * - a class whose name does not start with `system-` may not have a `value` above 1000000000
 *   (`HighestUserDefinablePriority`); reported at the value;
 * - a name starting with `system-` is reserved. The catalogue says "a custom name starting
 *   `system-`"; the source (`IsKnownSystemPriorityClass`) makes it precise and wins: the name
 *   must be `system-cluster-critical` (value 2000000000) or `system-node-critical` (value
 *   2000001000), with `globalDefault` false. An unknown name is reported at the name, a wrong
 *   value at the value, a `globalDefault: true` at that field. Redeclaring a system class with
 *   its exact value is accepted;
 * - `preemptionPolicy`, when set, must be `PreemptLowerPriority` or `Never` (an empty string is
 *   "Required value").
 *
 * ## Why is this bad?
 * The API server rejects the PriorityClass (`value: Forbidden: maximum allowed value of a user
 * defined priority is 1000000000`; `metadata.name: Forbidden: priority class names with
 * 'system-' prefix are reserved for system use only. error: system-inference is not a known
 * system priority class`). Every pod that names the class is then refused at admission
 * ("no PriorityClass with name ... was found"), so an entire serving fleet can fail to start
 * because of one class. Values above 10^9 are kept for the system classes so that node
 * agents can always preempt user workloads. Sources: kubernetes
 * `pkg/apis/scheduling/validation/validation.go` `ValidatePriorityClass`,
 * `pkg/apis/scheduling/v1/helpers.go` `IsKnownSystemPriorityClass`,
 * `pkg/apis/core/validation/validation.go` `ValidatePreemptionPolicy`.
 *
 * ## Example
 * ```yaml
 * apiVersion: scheduling.k8s.io/v1
 * kind: PriorityClass
 * metadata:
 *   name: system-inference
 * value: 1500000000
 * preemptionPolicy: never
 * ```
 * Use instead:
 * ```yaml
 * apiVersion: scheduling.k8s.io/v1
 * kind: PriorityClass
 * metadata:
 *   name: inference-critical
 * value: 1000000
 * preemptionPolicy: Never
 * ```
 *
 * ## Fix safety
 * No fix: a new name or value changes which pods refer to the class and how they rank.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Pod Priority and Preemption, "PriorityClass",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
 * - kubernetes/kubernetes `pkg/apis/scheduling/validation/validation.go`
 */

#define HIGHEST_USER_PRIORITY 1000000000LL

static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const char *label = sl_object_label(o, sl_ctx_arena(ctx));
	const sl_node *value_n = sl_map_get(o->root, "value");
	long long value = 0;
	bool value_known = !value_n || sl_scalar_type(value_n) == SL_Y_NULL ||
			   sl_scalar_int(value_n, &value);
	const sl_node *def_n = sl_map_get(o->root, "globalDefault");
	const char *name = o->name ? o->name : "";
	if (strncmp(name, "system-", 7) == 0) {
		const sl_node *name_n = sl_map_get(o->metadata, "name");
		long long want = strcmp(name, "system-cluster-critical") == 0 ? 2000000000LL
				 : strcmp(name, "system-node-critical") == 0  ? 2000001000LL : -1;
		const char *pre = "Forbidden: priority class names with 'system-' prefix are reserved "
				  "for system use only. error:";
		sl_arena *a = sl_ctx_arena(ctx);
		sl_report *r = NULL;
		const char *err = NULL;
		if (want < 0) {
			r = sl_report_at(ctx, name_n, "%s: the system- prefix is reserved (only "
					 "system-cluster-critical and system-node-critical)", label);
			err = sl_arena_printf(a, "%s is not a known system priority class", name);
		} else if (value_known && value != want) {
			r = sl_report_at(ctx, value_n ? value_n : name_n, "%s: value must be %lld for the "
					 "built-in class %s", label, want, name);
			err = sl_arena_printf(a, "value of %s PriorityClass must be %lld", name, want);
		} else if (sl_yaml_true(def_n)) {
			r = sl_report_at(ctx, def_n, "%s: globalDefault must be false for the built-in "
					 "class %s", label, name);
			err = sl_arena_printf(a, "globalDefault of %s PriorityClass must be false", name);
		}
		if (r)
			sl_report_note(ctx, r, "The API server rejects it: \"metadata.name: %s %s\".",
				       pre, err ? err : "");
	} else if (value_known && value > HIGHEST_USER_PRIORITY) {
		sl_report *r = sl_report_at(ctx, value_n, "%s: value %lld is above 1000000000, the "
					    "highest a user-defined class may have", label, value);
		sl_report_note(ctx, r, "The API server rejects it: \"value: Forbidden: maximum "
			       "allowed value of a user defined priority is 1000000000\"; higher values "
			       "are reserved for the system- classes.");
	}
	const sl_node *pp = sl_node_deref(sl_map_get(o->root, "preemptionPolicy"));
	if (pp && pp->type == SL_NODE_SCALAR && sl_scalar_type(pp) != SL_Y_NULL) {
		const char *s = pp->u.scalar.s;
		if (sl_template_in_value(s, pp->u.scalar.len))
			return SL_OK;
		if (!*s)
			sl_report_note(ctx, sl_report_rejected(ctx, pp, label, "preemptionPolicy",
							       "Required value"),
				       "Use PreemptLowerPriority or Never.");
		else if (strcmp(s, "PreemptLowerPriority") != 0 && strcmp(s, "Never") != 0)
			sl_report_rejected(ctx, pp, label, "preemptionPolicy",
					   sl_arena_printf(sl_ctx_arena(ctx), "Unsupported value: \"%s\": "
							   "supported values: \"PreemptLowerPriority\", "
							   "\"Never\"", s));
	}
	return SL_OK;
}

SL_RULE(invalid_priority_class, .id = "invalid-priority-class", .category = "validity",
	.summary = "A PriorityClass the API server rejects (value, reserved system- name, "
		   "preemptionPolicy)",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_PRIORITY_CLASS));
