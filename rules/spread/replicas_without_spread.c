/* SPDX-License-Identifier: Apache-2.0
** replicas-without-spread: a unit that runs several replicas with nothing spreading them. One
** finding per unit, at the field that sets the replica count. */
#include "rule.h"

/** ## What it does
 * Reports a placement unit that keeps at least 2 replicas running and has neither
 * `podAntiAffinity` nor `topologySpreadConstraints`. The replica count is the one the workload
 * keeps running: Deployment, StatefulSet and ReplicaSet `replicas` (default 1), InferenceService
 * and InferenceGraph `minReplicas` (default 1), Knative `autoscaling.knative.dev/min-scale` on the
 * revision template (default 0), Seldon Server `replicas` (or `minReplicas` when `replicas` is
 * unset, as Seldon's `GetValidatedScalingSpec` defaults it), LLMInferenceService `replicas`.
 * Skipped: DaemonSets (one pod per node by design), InferenceServices in ModelMesh mode (their
 * pods are the runtime's), and a Seldon Server whose ServerConfig among the linted files spreads
 * its pods (Seldon appends the ServerConfig's topologySpreadConstraints and merges its affinity
 * into the Server's pods), and an InferenceService predictor whose explicitly named runtime
 * (`runtime:` of the implementation) among the linted files sets `podAntiAffinity` (KServe
 * merges the runtime's affinity into the predictor pod). Reported at the field that sets the
 * replica count.
 *
 * ## Why is this bad?
 * Without a spread rule the scheduler is free to put every replica on the same node (its scoring
 * spreads pods of a Service or ReplicaSet only weakly, and bin-packing or a single node with free
 * GPUs easily wins). The replicas then share one failure domain: a node drain, a spot
 * reclamation or a GPU fault takes the whole service down, which is what running several replicas
 * was meant to prevent.
 *
 * ## Example
 * ```yaml
 * kind: Deployment
 * spec:
 *   replicas: 3
 *   template:
 *     metadata:
 *       labels:
 *         app: ranker
 *     spec:
 *       containers:
 *         - name: ranker
 *           image: ranker:1.4
 * ```
 * Use instead:
 * ```yaml
 * kind: Deployment
 * spec:
 *   replicas: 3
 *   template:
 *     metadata:
 *       labels:
 *         app: ranker
 *     spec:
 *       topologySpreadConstraints:
 *         - maxSkew: 1
 *           topologyKey: kubernetes.io/hostname
 *           whenUnsatisfiable: ScheduleAnyway
 *           labelSelector:
 *             matchLabels:
 *               app: ranker
 *       containers:
 *         - name: ranker
 *           image: ranker:1.4
 * ```
 *
 * ## Fix safety
 * The catalogue's fix (unsafe: add a `topologySpreadConstraints` entry on
 * `kubernetes.io/hostname`, `ScheduleAnyway`, selecting the unit's own pod labels) arrives with
 * the fix engine; today the finding has no fix.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes, Pod Topology Spread Constraints:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/
 * - Kubernetes, Assigning Pods to Nodes, inter-pod anti-affinity:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
 * - KServe pkg/constants/constants.go `DefaultMinReplicas` = 1; Knative
 *   pkg/apis/autoscaling/register.go `min-scale` (default 0)
 * - SeldonIO/seldon-core operator/internal/utils.go `GetValidatedScalingSpec`;
 *   operator/controllers/reconcilers/common/patch_utils.go `MergePodSpecs`
 */

/* True when the pod spec fields spread replicas: a non-empty topologySpreadConstraints list or
** a podAntiAffinity with a term. */
static bool spreads(const sl_node *tsc, const sl_node *affinity)
{
	if (sl_seq_n(tsc) > 0)
		return true;
	const sl_node *paa = sl_map_get(affinity, "podAntiAffinity");
	return sl_seq_n(sl_map_get(paa, "requiredDuringSchedulingIgnoredDuringExecution")) > 0 ||
	       sl_seq_n(sl_map_get(paa, "preferredDuringSchedulingIgnoredDuringExecution")) > 0;
}

/* For a Seldon Server: its ServerConfig among the linted files spreads the pods. */
static bool server_config_spreads(const sl_index *ix, const sl_unit *u)
{
	const sl_object *cfg = sl_index_server_config(ix, u->obj);
	return cfg && cfg->n_units > 0 &&
	       spreads(cfg->units[0].topology_spread, cfg->units[0].affinity);
}

/* For an InferenceService predictor: the runtime its implementation names explicitly, among
** the linted files, sets podAntiAffinity. */
static bool runtime_spreads(const sl_index *ix, const sl_unit *u)
{
	for (size_t i = 0; i < u->n_containers; i++) {
		const char *rt = sl_scalar(sl_map_get(u->containers[i].node, "runtime"));
		if (!rt)
			continue;
		const sl_object *r = sl_index_find(ix, SL_KIND_SERVING_RUNTIME, rt);
		if (!r)
			r = sl_index_find(ix, SL_KIND_CLUSTER_SERVING_RUNTIME, rt);
		if (r && spreads(NULL, sl_map_get(r->spec, "affinity")))
			return true;
	}
	return false;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_index *ix = sl_ctx_index(ctx);
	if (u->obj->kind == SL_KIND_DAEMONSET || u->mode == SL_MODE_MODELMESH ||
	    u->min_replicas < 2 || spreads(u->topology_spread, u->affinity))
		return SL_OK;
	if (u->obj->kind == SL_KIND_SELDON_SERVER && server_config_spreads(ix, u))
		return SL_OK;
	if ((u->role == SL_ROLE_PREDICTOR || u->role == SL_ROLE_CANARY) && runtime_spreads(ix, u))
		return SL_OK;
	const char *field = sl_scalar(sl_node_key(u->replicas));
	bool minimum = field && (strstr(field, "min") || strstr(field, "Min"));
	const sl_node *at = sl_node_key(u->replicas);
	if (!at)
		at = u->replicas ? u->replicas : u->pod;
	sl_report_at(ctx, at,
		     "%s %s %lld replicas but has neither podAntiAffinity nor "
		     "topologySpreadConstraints: the scheduler may put every replica on one node, so "
		     "losing that node takes the whole service down",
		     sl_ctx_label(ctx, u), minimum ? "keeps at least" : "runs", u->min_replicas);
	return SL_OK;
}

SL_RULE(replicas_without_spread, .id = "replicas-without-spread", .category = "spread",
	.summary = "Several replicas with neither podAntiAffinity nor topologySpreadConstraints",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check);
