/* SPDX-License-Identifier: Apache-2.0
** invalid-resource-quantity: a requests/limits value that is not a Kubernetes quantity, is
** negative, or is fractional for an integer (extended) resource. One finding per value. */
#include "sdk/rule.h"

/** ## What it does
 * Checks every `requests` and `limits` value of every container (init containers included) and
 * of pod-level `resources`:
 * - the value must parse as a `resource.Quantity` (`1GB`, `2K`, `1.5 Gi` and `500 m` do not:
 *   the suffixes are `Ki Mi Gi Ti Pi Ei`, `n u m k M G T P E` and `e<n>`, with no space);
 * - it must not be negative;
 * - for an integer resource (every extended resource, such as `nvidia.com/gpu`) it must be a
 *   whole number (`nvidia.com/gpu: 0.5` is rejected; GPUs are shared by MIG or time-slicing
 *   resources, not by fractions).
 *
 * A value too long for schedlint to represent (over 128 significant digits) is not reported.
 *
 * ## Why is this bad?
 * The API server rejects the object. A malformed quantity fails decoding (`quantities must
 * match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`, apimachinery
 * `pkg/api/resource/quantity.go` `ParseQuantity`); a negative or fractional one fails
 * validation (`spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "500m": must
 * be an integer`, kubernetes `pkg/apis/core/validation/validation.go`
 * `ValidateResourceQuantityValue`, `validateContainerResourceName`). For KServe and Knative
 * resources the error appears only when the controller creates the Deployment or Revision, so
 * the service never becomes ready.
 *
 * ## Example
 * ```yaml
 * resources:
 *   requests:
 *     memory: 16GB
 *   limits:
 *     memory: 16GB
 *     nvidia.com/gpu: 0.5
 * ```
 * Use instead:
 * ```yaml
 * resources:
 *   requests:
 *     memory: 16Gi
 *   limits:
 *     memory: 16Gi
 *     nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * No fix: `16GB` may mean `16G` or `16Gi`, and rounding a fractional GPU count changes what is
 * requested.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Resource Management for Pods and Containers, "Resource units",
 *   https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
 * - apimachinery `pkg/api/resource/quantity.go`
 */

/* c: the container whose list it is, NULL for the pod-level resources. */
static void check_list(sl_ctx *ctx, const sl_unit *u, const sl_container *c, const sl_node *list,
		       const char *which)
{
	const char *owner = "pod-level resources";
	for (size_t i = 0; i < sl_map_n(list); i++) {
		const sl_pair *p = sl_map_pair(list, i);
		const sl_node *k = sl_node_deref(p->key), *v = sl_node_deref(p->value);
		if (!k || k->type != SL_NODE_SCALAR || !v || v->type != SL_NODE_SCALAR)
			continue;
		if (sl_model_null_or_bool(v))   /* null is no value; a bool is schema-type */
			continue;
		const char *s = v->u.scalar.s;
		size_t n = v->u.scalar.len;
		if (sl_template_in_value(s, n))
			continue;
		/* The API server's JSON decoder trims spaces before parsing. */
		while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
			s++, n--;
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
			n--;
		sl_quantity q;
		sl_quantity_status st = sl_quantity_parse(s, n, &q);
		if (st == SL_QUANTITY_ETOOLONG)
			continue;
		if (st != SL_QUANTITY_OK) {
			if (c)   /* only now: most lists hold no finding */
				owner = sl_ctx_container_label(ctx, c);
			sl_report *r = sl_report_at(ctx, p->value, "%s: %s %s[%s]: \"%s\" is not a "
						    "quantity", sl_ctx_label(ctx, u), owner, which,
						    k->u.scalar.s, v->u.scalar.s);
			sl_report_note(ctx, r, "The API server rejects it: %s.",
				       sl_quantity_strerror(st));
			continue;
		}
		char msg[512];
		if (sl_k8s_check_resource_quantity(k->u.scalar.s, k->u.scalar.len, &q, msg,
						   sizeof msg) == 0)
			continue;
		char shown[160];
		sl_quantity_string(&q, s, n, shown, sizeof shown);
		if (c)
			owner = sl_ctx_container_label(ctx, c);
		sl_report *r = sl_report_at(ctx, p->value, "%s: %s %s[%s]: Invalid value: \"%s\": %s",
					    sl_ctx_label(ctx, u), owner, which, k->u.scalar.s, shown, msg);
		sl_report_note(ctx, r, "The API server rejects it.");
	}
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		check_list(ctx, u, c, c->requests, "requests");
		check_list(ctx, u, c, c->limits, "limits");
	}
	if (u->pod_resources) {
		check_list(ctx, u, NULL, sl_map_get(u->pod_resources, "requests"), "requests");
		check_list(ctx, u, NULL, sl_map_get(u->pod_resources, "limits"), "limits");
	}
	return SL_OK;
}

SL_RULE(invalid_resource_quantity, .id = "invalid-resource-quantity", .category = "validity",
	.summary = "A requests/limits value that is not a quantity, is negative, or a fractional "
		   "extended resource",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
