/* SPDX-License-Identifier: Apache-2.0
** invalid-spread-constraint: a topologySpreadConstraints entry the API server rejects, or whose
** topologyKey no node can carry. One finding per problem, at the offending field. */
#include "sdk/rule.h"

/** ## What it does
 * Checks each `topologySpreadConstraints` entry of a placement unit as the API server's
 * `validateTopologySpreadConstraints` does:
 * - `maxSkew` must be at least 1 (a missing one is 0);
 * - `topologyKey` must be set ("can not be empty");
 * - `whenUnsatisfiable` must be `DoNotSchedule` or `ScheduleAnyway`;
 * - a `{topologyKey, whenUnsatisfiable}` pair may appear once: each later duplicate is reported;
 * - `minDomains`, when set, must be at least 1, and needs `whenUnsatisfiable: DoNotSchedule`.
 *
 * It also reports a `topologyKey` that is not a valid label key. The catalogue lists this with
 * the API server's checks, but the source disagrees and wins: `ValidateTopologyKey` only
 * requires the key to be non-empty, so the object is accepted. No node can carry such a label
 * though (node labels are validated), so with `DoNotSchedule` every node fails the filter
 * ("node(s) didn't match pod topology spread constraints (missing required label)") and the
 * pod never schedules; with `ScheduleAnyway` the constraint does nothing.
 *
 * ## Why is this bad?
 * The API server rejects the object (`spec.topologySpreadConstraints[0].whenUnsatisfiable:
 * Unsupported value: "DoNotScheduled": supported values: "DoNotSchedule", "ScheduleAnyway"`);
 * for KServe and Knative resources the generated Deployment or Revision is rejected, so the
 * service never becomes ready. Source: kubernetes `pkg/apis/core/validation/validation.go`
 * (`validateTopologySpreadConstraints`, `ValidateMaxSkew`, `ValidateTopologyKey`,
 * `ValidateWhenUnsatisfiable`, `ValidateSpreadConstraintNotRepeat`, `validateMinDomains`);
 * `pkg/scheduler/framework/plugins/podtopologyspread/filtering.go` for the missing label.
 *
 * ## Example
 * ```yaml
 * topologySpreadConstraints:
 *   - maxSkew: 0
 *     topologyKey: topology.kubernetes.io/zone
 *     whenUnsatisfiable: ScheduleAnyway
 *     minDomains: 3
 * ```
 * Use instead:
 * ```yaml
 * topologySpreadConstraints:
 *   - maxSkew: 1
 *     topologyKey: topology.kubernetes.io/zone
 *     whenUnsatisfiable: DoNotSchedule
 *     minDomains: 3
 * ```
 *
 * ## Fix safety
 * No fix: each problem has several plausible corrections.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Pod Topology Spread Constraints,
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/
 * - kubernetes/kubernetes `pkg/apis/core/validation/validation.go`
 */

/* The scalar text of a field as Go decodes it ("" when absent or null); *at gets the node
** when it holds a value. */
static const char *field_str(const sl_node *map, const char *key, const sl_node **at)
{
	const sl_node *n = sl_node_deref(sl_map_get(map, key));
	*at = NULL;
	if (!n || n->type != SL_NODE_SCALAR || sl_scalar_type(n) == SL_Y_NULL)
		return "";
	*at = n;
	return n->u.scalar.s;
}

/* What a finding names, made only when one is reported (most units have none): the unit's
** label and the constraint's path. */
#define LABEL sl_ctx_label(ctx, u)
#define FIELD(f) sl_arena_printf(a, "topologySpreadConstraints[%zu]." f, i)

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	size_t n = sl_seq_n(u->topology_spread);
	for (size_t i = 0; i < n; i++) {
		const sl_node *c = sl_seq_item(u->topology_spread, i);
		if (!c || c->type != SL_NODE_MAP)
			continue;
		const sl_node *skew_n, *key_n, *when_n, *min_n;
		field_str(c, "maxSkew", &skew_n);
		const char *key = field_str(c, "topologyKey", &key_n);
		const char *when = field_str(c, "whenUnsatisfiable", &when_n);
		field_str(c, "minDomains", &min_n);
		if (sl_template_in_value(key, strlen(key)) || sl_template_in_value(when, strlen(when)))
			continue;
		long long v = 0;
		sl_arena *a = sl_ctx_arena(ctx);
		if (!skew_n || (sl_scalar_int(skew_n, &v) && v <= 0)) {
			sl_report *r = sl_report_rejected(
				ctx, skew_n ? skew_n : c, LABEL, FIELD("maxSkew"),
				sl_arena_printf(a, "Invalid value: %lld: must be greater than zero", v));
			if (!skew_n)
				sl_report_note(ctx, r, "maxSkew is missing, so it is 0.");
		}
		char msg[1024];
		if (!*key) {
			sl_report_rejected(ctx, key_n ? key_n : c, LABEL, FIELD("topologyKey"),
					   "Required value: can not be empty");
		} else if (sl_k8s_check_qualified_name(key, strlen(key), msg, sizeof msg) > 0) {
			bool hard = strcmp(when, "DoNotSchedule") == 0;
			sl_report *r = sl_report_at(ctx, key_n, "%s: topologySpreadConstraints[%zu].topologyKey "
						    "\"%s\" is not a valid label key, so %s", LABEL, i, key,
						    hard ? "the pod never schedules"
							 : "the constraint has no effect");
			sl_report_note(ctx, r, "The API server accepts it, but no node can carry that "
				       "label (%s)%s.", msg,
				       hard ? ": every node fails the spread filter" : "");
		}
		if (strcmp(when, "DoNotSchedule") != 0 && strcmp(when, "ScheduleAnyway") != 0)
			sl_report_rejected(ctx, when_n ? when_n : c, LABEL, FIELD("whenUnsatisfiable"),
					   sl_arena_printf(a, "Unsupported value: \"%s\": supported values: "
							   "\"DoNotSchedule\", \"ScheduleAnyway\"", when));
		for (size_t j = 0; j < i; j++) {
			const sl_node *e = sl_seq_item(u->topology_spread, j);
			if (!e || e->type != SL_NODE_MAP)
				continue;
			const sl_node *ek, *ew;
			if (strcmp(field_str(e, "topologyKey", &ek), key) == 0 &&
			    strcmp(field_str(e, "whenUnsatisfiable", &ew), when) == 0) {
				sl_report *r = sl_report_at(ctx, key_n ? key_n : c, "%s: "
							    "topologySpreadConstraints[%zu] repeats "
							    "topologySpreadConstraints[%zu] ({%s, %s})",
							    LABEL, i, j, key, when);
				sl_report_note(ctx, r, "The API server rejects it: \"topologySpreadConstraints"
					       "[%zu]: {topologyKey, whenUnsatisfiable}: Duplicate value: "
					       "\\\"{%s, %s}\\\"\".", i, key, when);
				break;
			}
		}
		if (min_n && sl_scalar_int(min_n, &v)) {
			if (v <= 0)
				sl_report_rejected(ctx, min_n, LABEL, FIELD("minDomains"),
						   sl_arena_printf(a, "Invalid value: %lld: must be greater "
								   "than zero", v));
			if (strcmp(when, "DoNotSchedule") != 0)
				sl_report_rejected(ctx, min_n, LABEL, FIELD("minDomains"),
						   sl_arena_printf(a, "Invalid value: %lld: can only use "
								   "minDomains if whenUnsatisfiable="
								   "DoNotSchedule, not %s", v, when));
		}
	}
	return SL_OK;
}
#undef FIELD
#undef LABEL

SL_RULE(invalid_spread_constraint, .id = "invalid-spread-constraint", .category = "validity",
	.summary = "A topologySpreadConstraints entry the API server rejects or no node can satisfy",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
