/* SPDX-License-Identifier: Apache-2.0
** empty-node-selector-term: a required node selector term with no requirement, which matches no
** node. One finding per empty term, at the term. */
#include "sdk/rule.h"

/** ## What it does
 * Reports each `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms` entry that
 * has neither `matchExpressions` nor `matchFields`, or only empty lists (`- {}`,
 * `- matchExpressions: []`). The message says when every term is empty, so the pod can never
 * schedule. An empty `nodeSelectorTerms: []` list is rejected by the API server and reported
 * by `invalid-node-affinity` instead; preferred terms are not checked (the scheduler skips an
 * empty preference, which only costs its weight).
 *
 * ## Why is this bad?
 * Intuition says an empty term matches everything; the scheduler says the opposite. Terms are
 * ORed, and `nodeSelectorTerm.match` / `newLazyErrorNodeSelector` skip an empty term, so it
 * matches **no** node (component-helpers `scheduling/corev1/nodeaffinity/nodeaffinity.go`,
 * `isEmptyNodeSelectorTerm`). The API server accepts it (`ValidateNodeSelectorTerm` has nothing
 * to reject), so the mistake shows up only as a Pending pod: when every term is empty, no node
 * ever satisfies the affinity ("node(s) didn't match Pod's node affinity/selector"). It usually
 * comes from a templating tool rendering an empty list, or from a term meant to be deleted.
 *
 * ## Example
 * ```yaml
 * affinity:
 *   nodeAffinity:
 *     requiredDuringSchedulingIgnoredDuringExecution:
 *       nodeSelectorTerms:
 *         - matchExpressions: []
 * ```
 * Use instead (or remove the node affinity):
 * ```yaml
 * affinity:
 *   nodeAffinity:
 *     requiredDuringSchedulingIgnoredDuringExecution:
 *       nodeSelectorTerms:
 *         - matchExpressions:
 *             - key: node.kubernetes.io/instance-type
 *               operator: In
 *               values: [g5.xlarge]
 * ```
 *
 * ## Fix safety
 * No fix: removing the term changes which nodes match, and what the term was meant to say is
 * not in the manifest.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Assigning Pods to Nodes, "Node affinity" (terms are ORed; an empty term
 *   matches no objects), https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
 * - kubernetes/component-helpers `scheduling/corev1/nodeaffinity/nodeaffinity.go`
 */

/* True when the term has no requirement at all (a null item decodes as an empty term). */
static bool is_empty(const sl_node *t)
{
	t = sl_node_deref(t);
	if (!t)
		return true;
	if (t->type == SL_NODE_SCALAR)
		return sl_scalar_type(t) == SL_Y_NULL;
	if (t->type != SL_NODE_MAP)
		return false;
	const sl_node *e = sl_map_get(t, "matchExpressions"), *f = sl_map_get(t, "matchFields");
	/* A list of the wrong type is schema-type's: not empty here. */
	bool e_empty = !e || sl_scalar_type(e) == SL_Y_NULL ||
		       (e->type == SL_NODE_SEQ && sl_seq_n(e) == 0);
	bool f_empty = !f || sl_scalar_type(f) == SL_Y_NULL ||
		       (f->type == SL_NODE_SEQ && sl_seq_n(f) == 0);
	return e_empty && f_empty;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_node *terms = sl_selection_required_terms(u);
	size_t n = sl_seq_n(terms), empty = 0;
	for (size_t i = 0; i < n; i++)
		empty += is_empty(sl_seq_item(terms, i));
	for (size_t i = 0; i < n; i++) {
		const sl_node *t = sl_seq_item(terms, i);
		if (!is_empty(t))
			continue;
		const char *consequence =
			empty < n ? "Terms are ORed, so only the others count."
			: n == 1  ? "It is the only term: the pod can never schedule."
				  : "Every term is empty: the pod can never schedule.";
		sl_report *r = sl_report_at(ctx, t, "%s: nodeSelectorTerms[%zu] is empty, so it matches "
					    "no node", sl_ctx_label(ctx, u), i);
		sl_report_note(ctx, r, "The term has no matchExpressions or matchFields entries. %s",
			       consequence);
	}
	return SL_OK;
}

SL_RULE(empty_node_selector_term, .id = "empty-node-selector-term", .category = "validity",
	.summary = "A required node selector term with no requirements, which matches no node",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
