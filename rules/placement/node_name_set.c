/* SPDX-License-Identifier: Apache-2.0
** node-name-set: a pod template sets nodeName, which bypasses the scheduler.
** One finding per unit, at the `nodeName:` key. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a placement unit whose pod spec sets a non-empty `nodeName`.
 *
 * ## Why is this bad?
 * `nodeName` binds the pod to a node directly: the scheduler never sees it, so nothing checks
 * taints, nodeSelector, node affinity, spread constraints or whether the node has room. The
 * kubelet on that node admits or rejects the pod itself (`OutOfcpu`, `OutOfmemory`,
 * `NodeAffinity` failures), the pod does not move when the node is drained or gone, and a
 * misspelt or recycled node name leaves it Pending forever. The Kubernetes API documents the
 * field as one that "should not be used to express a desire for the pod to be scheduled on a
 * specific node". Knative drops the field from every revision template and rejects it:
 * `must not set the field(s): spec.template.spec.nodeName` (for an InferenceService in Knative
 * mode this shows up as a reconcile error on the InferenceService).
 *
 * ## Example
 * ```yaml
 * spec:
 *   template:
 *     spec:
 *       nodeName: gpu-node-7
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   template:
 *     spec:
 *       nodeSelector:
 *         kubernetes.io/hostname: gpu-node-7
 * ```
 *
 * ## Fix safety
 * No fix: whether a hostname selector, a node-pool label or no constraint at all was meant is
 * not in the manifest.
 *
 * ## Options
 * None.
 *
 * ## References
 * - kubernetes api core/v1/types.go, `PodSpec.NodeName`
 * - Kubernetes, Assigning Pods to Nodes, "nodeName",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename
 * - knative serving pkg/apis/serving/fieldmask.go, `PodSpecMask` (`NodeName` is disallowed)
 */
static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const char *name = sl_scalar(u->node_name);
	if (!name || !*name)
		return SL_OK;
	sl_report *r = sl_report_key(ctx, u->node_name, "%s sets nodeName: %s, bypassing the "
				     "scheduler%s", sl_ctx_label(ctx, u), name,
				     u->mode == SL_MODE_KNATIVE ? " (and Knative rejects it)" : "");
	if (u->mode == SL_MODE_KNATIVE)
		sl_report_note(ctx, r, "Knative's webhook rejects the field: \"must not set the "
			       "field(s): spec.template.spec.nodeName\".");
	sl_report_note(ctx, r, "With nodeName the scheduler never sees the pod: taints, affinity and "
		       "resource fit are not checked, and the pod never moves to another node.");
	sl_report_note(ctx, r, "Use a nodeSelector on kubernetes.io/hostname, or on a pool label.");
	return SL_OK;
}

SL_RULE(node_name_set, .id = "node-name-set", .category = "placement",
	.summary = "nodeName bypasses the scheduler",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check);
