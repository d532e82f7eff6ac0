/* SPDX-License-Identifier: Apache-2.0
** no-matching-node-pool: no known node pool accepts the unit's pods, so they stay Pending; the
** finding points at the field that decides for the first pool (a nodeSelector entry, an
** affinity expression, tolerations, a resource request), else at the unit. */
#include "sdk/rule.h"

/** ## What it does
 * Only when node pools are known (`cluster.node-pools` in the config, Karpenter NodePools,
 * eksctl ClusterConfigs, node dumps or Kueue ResourceFlavors among the linted or project files:
 * docs/placement.md; for a KAITO Workspace, the nodes KAITO provisions for it), reports a
 * placement unit that can land on none of them. Each pool is
 * judged with kube-scheduler's filters, in its order (TaintToleration, NodeAffinity,
 * NodeResourcesFit), on the pod that is really created: the unit merged over its ServingRuntime
 * or Seldon ServerConfig, KServe's `serving.kserve.io/gke-accelerator` annotation turned into
 * its nodeSelector, and the tolerations admission adds (`cluster.extended-resource-toleration`,
 * or GKE).
 *
 * - A Karpenter NodePool is judged with Karpenter's own `Compatible`: a requirement on a key the
 *   NodePool does not define fails unless the key is a well-known label or the operator is
 *   `NotIn` or `DoesNotExist`; deprecated keys (`failure-domain.beta.kubernetes.io/zone`,
 *   `beta.kubernetes.io/arch`, ...) mean their current names, as Karpenter normalises them (so
 *   do config pools and eksctl node groups, whose nodes carry both labels), and so does the EBS
 *   CSI driver's `topology.ebs.csi.aws.com/zone`, as Karpenter's AWS provider adds to that
 *   list (karpenter-provider-aws `pkg/operator/operator.go`, beyond the five of docs/placement.md
 *   keys). A request above the
 *   NodePool's `spec.limits`, or a limit of 0 on CPU, memory or pods, launches nothing ("all
 *   available instance types exceed limits for nodepool").
 * - What one node offers: a node dump's allocatable, a config pool's `allocatable`, else the
 *   most its instance types offer: `karpenter.k8s.aws/instance-gpu-count` In/Gt/Lt, the
 *   instance types or families a NodePool allows, an eksctl node group's `instanceType(s)`, a
 *   `node.kubernetes.io/instance-type` label, read in the cited table of docs/instance-types.md,
 *   or GKE's `cloud.google.com/gke-accelerator-count` label. An instance type the table does not
 *   know is unknown, never "no GPU".
 * - `matchFields` on `metadata.name` is decided against a node dump's node names; elsewhere
 *   node names are unknown.
 * - Unknown is not absent: a placeholder (`$VAR`, `${...}`, `{{ ... }}`) on either side, or a
 *   label node agents add at run time (Node Feature Discovery's `feature.node.kubernetes.io/`,
 *   GPU Feature Discovery's and the GPU operator's `nvidia.com/` labels) on a pool that does not
 *   state it (a node dump states every label), neither matches nor refuses; a placeholder in a
 *   pool's taint or in the unit's tolerations leaves TaintToleration undecided: it refuses
 *   nothing.
 * - A Kueue ResourceFlavor applies to a workload Kueue admits (`kueue.x-k8s.io/queue-name`), as
 *   Kueue's flavor assigner judges it: its `nodeTaints` with the flavor's `tolerations`, then the
 *   selection on its own `nodeLabels` keys.
 * - Pools belong to their eksctl ClusterConfig (config pools, NodePools, dumps and flavors to
 *   every cluster). With several clusters and no `cluster.name`, the unit is reported only when
 *   it lands nowhere in every cluster, and the pools are named `cluster/pool`.
 *
 * The message gives the first three pools, each with the first filter that fails, short (`taint
 * nvidia.com/gpu`, `selector`, `Insufficient cpu`, `exceeds the pool's limits: nvidia.com/gpu 8 >
 * 4`; a word each, as `schedlint placement`'s grid has them, when that is too long for the first
 * line), then a count; a note gives every failing filter of those three in the scheduler's
 * words, with what exactly (`schedlint placement` shows every pool's). The finding points at the
 * field of the unit every pool refuses (a GPU request no pool can take, rather than the first
 * pool's taint).
 *
 * One finding for one cause: when a pool is kept off only by a GPU taint the unit does not
 * tolerate and `gpu-without-toleration` reports that missing toleration for the same unit, this
 * rule yields to it: that finding stays, with this one's message and notes in its notes and this
 * rule's severity (error) when it is the higher. It stays because it names the cause (the
 * missing toleration) and carries the fix (adding it), which also makes the unit land; this
 * rule's finding says only the consequence. A unit also kept off some other way (a selector,
 * too little capacity on every pool) has no such way out and is reported here as well.
 *
 * Every placement unit is judged, the workload kinds' too (a Ray head or worker group, a
 * LeaderWorkerSet's leader and workers, a JobSet's replicated jobs, Kubeflow replica types,
 * Volcano tasks, a SparkApplication driver or executor over its pod template, a KAITO Workspace
 * over the pod KAITO writes: its `labelSelector` as required node affinity, the `nvidia.com/gpu`
 * and `sku=gpu` taints tolerated; docs/domain.md).
 *
 * A KAITO Workspace with `resource.instanceType` is judged on the one pool KAITO provisions for
 * it, and on no pool of the cluster's: nodes of that instance type (its GPUs per node from the
 * table of docs/instance-types.md), labelled with the `labelSelector`'s `matchLabels`, tainted
 * `sku=gpu:NoSchedule` (a Karpenter NodePool or NodeClaim of KAITO's own). So a template that
 * requests more GPUs than the instance type has, or keeps a `nodeSelector` its nodes do not
 * carry, is reported; KAITO's admission checks only a preset's GPU memory. An instance type the
 * table does not know leaves the Workspace unjudged. Without `instanceType` (node
 * auto-provisioning off: the nodes are the user's) the Workspace is judged on the cluster's
 * pools like any unit.
 *
 * Not reported for DaemonSets (their pods run on the nodes they match, none is a valid
 * outcome), templates (ServingRuntimes, ServerConfigs, LLMInferenceServiceConfigs, training
 * runtimes: judged on the units that use them), a unit with `nodeName` (`node-name-set`), a
 * ModelMesh predictor (no pod).
 *
 * ## Why is this bad?
 * The pods stay Pending with the event `0/N nodes are available: ...` and, on an autoscaled
 * cluster, no node is ever added for them (Karpenter logs `incompatible with nodepool ...`).
 * The InferenceService never becomes Ready.
 *
 * ## Example
 * With a pool `gpu-a100` tainted `nvidia.com/gpu=present:NoSchedule` and a pool `cpu`:
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     tolerations:
 *       - key: nvidia.com/gpu
 *         operator: Exists
 *         effect: NoSchedule
 *     model:
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * No fix: which pool the unit should land on, and what to change for it, is the author's
 * decision.
 *
 * ## Options
 * `cluster.node-pools`, `cluster.node-inventory`, `cluster.name`,
 * `cluster.extended-resource-toleration`, `cluster.provider`, `cluster.gpu-resources`,
 * `cluster.toleration-comparison-operators`.
 *
 * ## References
 * - kubernetes pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
 *   (`node(s) had untolerated taint {key: value}`)
 * - kubernetes pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (`ErrReasonPod`:
 *   `node(s) didn't match Pod's node affinity/selector`)
 * - kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go (`Insufficient <resource>`)
 * - kubernetes-sigs/karpenter pkg/scheduling/requirements.go (`Compatible`, `Intersects`),
 *   pkg/apis/v1/labels.go (`NormalizedLabels`), pkg/controllers/provisioning/scheduling/
 *   scheduler.go (`filterByRemainingResources`: "all available instance types exceed limits for
 *   nodepool")
 * - kubernetes/component-helpers scheduling/corev1/nodeaffinity/nodeaffinity.go (matchFields on
 *   `metadata.name`)
 * - kubernetes-sigs/kueue pkg/scheduler/flavorassigner/flavorassigner.go
 *   (`checkFlavorForPodSets`: "untolerated taint ... in flavor ...", "flavor ... doesn't match
 *   node affinity")
 * - The accelerators per instance type: docs/instance-types.md (AWS, Google Cloud and Azure
 *   documentation, cited per row)
 * - kaito-project/kaito pkg/nodeprovision/karpenter/nodepool.go (`generateNodePool`: the
 *   instance-type requirement, the `matchLabels`, the `sku=gpu` taint),
 *   pkg/utils/nodeclaim/nodeclaim.go (`GenerateNodeClaimManifestWithOptions`: the same for a
 *   NodeClaim), api/v1beta1/workspace_validation.go (`validateCreate`: `instanceType` required
 *   with node auto-provisioning, empty without; `validateCreateWithInference`: only a preset's
 *   GPU memory is checked), pkg/workspace/manifests/manifests.go
 *   (`GenerateManifestWithPodTemplate`: a template's affinity replaced, its `nodeSelector` kept)
 */

#define MAX_NOTES 3   /* the pools the message names; `schedlint placement` shows all */

/* The node the finding points at: a field of the unit every pool refuses (the first, in filter
** order, of the first pool's that all the others refuse too), else the first failing reason's
** field, else the unit's key. */
static const sl_node *anchor(const sl_unit *u, const sl_placement_pod *pod, const sl_pool *pools,
			     const size_t *idx, size_t n, const sl_placement_verdict *v, size_t nw)
{
	sl_placement_verdict first = sl_placement_eval_all(pod, &pools[idx[0]]);
	for (size_t r = 0; r < first.n_refused; r++) {
		bool everywhere = true;
		for (size_t i = 1; i < n && everywhere; i++) {
			sl_placement_verdict o = sl_placement_eval_all(pod, &pools[idx[i]]);
			bool has = false;
			for (size_t k = 0; k < o.n_refused && !has; k++)
				has = o.refused[k] == first.refused[r];
			everywhere = has;
		}
		if (everywhere)
			return first.refused[r];
	}
	for (size_t i = 0; i < nw; i++)
		for (size_t r = 0; r < v[i].n_reasons; r++)
			if (v[i].reasons[r].at)
				return v[i].reasons[r].at;
	if (u->pod && u->pod->parent)
		return u->pod;
	return u->obj->spec && u->obj->spec->parent ? u->obj->spec : u->obj->root;
}

/* "training/gpu" when the pools belong to several clusters, else "gpu". */
static const char *pool_label(sl_arena *a, const sl_pool *p, bool clusters)
{
	return clusters && p->cluster ? sl_arena_printf(a, "%s/%s", p->cluster, p->name) : p->name;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_placement *p = sl_ctx_placement(ctx, u);
	if (!p)
		return SL_OK;
	const sl_pool *pools = p->pools;
	/* the pools that apply to it (a ResourceFlavor only to what Kueue admits) */
	size_t *idx = sl_arena_alloc(a, p->n * sizeof *idx), na = 0;
	if (!idx)
		return SL_ENOMEM;
	for (sl_placement_iter it = sl_placement_pools(p, false); sl_placement_next(&it);) {
		if (it.fit->lands)
			return SL_OK;
		if (it.fit->applies)
			idx[na++] = it.i;
	}
	if (!na)
		return SL_OK;   /* no pool says where it runs */
	size_t n_clusters;
	sl_pool_set_clusters(sl_index_pool_set(sl_ctx_index(ctx)), &n_clusters);
	bool clusters = n_clusters > 1;
	const char *where = clusters ? " in any cluster" : "";
	/* it lands nowhere: now the reasons in words, of the pools the finding names */
	size_t nw = na < MAX_NOTES ? na : MAX_NOTES;
	sl_placement_verdict *v = sl_arena_alloc(a, nw * sizeof *v);
	if (!v)
		return SL_ENOMEM;
	/* the first line: each pool's first reason, short (the note: the scheduler's words); a
	** word each when that is too long */
	const char *list = "", *words = "";
	for (size_t i = 0; i < nw; i++) {
		const sl_pool *pl = &pools[idx[i]];
		v[i] = sl_placement_eval(p->pod, pl, a);
		const sl_placement_reason *re = &v[i].reasons[0];
		const char *why = re->taint ? sl_arena_printf(a, "taint %.*s", (int)re->taint->key.n,
							       re->taint->key.s ? re->taint->key.s : "")
			: re->filter == SL_PLACEMENT_RESOURCES || re->filter == SL_PLACEMENT_LIMITS
			? re->text : re->brief;
		const char *name = pool_label(a, pl, clusters);
		list = sl_arena_printf(a, "%s%s%s: %s", list, i ? "; " : "", name, why);
		words = sl_arena_printf(a, "%s%s%s: %s", words, i ? "; " : "", name, re->brief);
	}
	if (na > nw) {
		list = sl_arena_printf(a, "%s; and %zu more", list, na - nw);
		words = sl_arena_printf(a, "%s; and %zu more", words, na - nw);
	}
	if (list && strlen(list) + strlen(where) + strlen(sl_ctx_label(ctx, u)) > 130)
		list = words;
	const sl_node *at = anchor(u, p->pod, pools, idx, na, v, nw);
	sl_report *r = at == u->pod || at == u->obj->spec || at == u->obj->root
		? sl_report_key(ctx, at, "%s fits no node pool%s (%s)", sl_ctx_label(ctx, u), where, list)
		: sl_report_at(ctx, at, "%s fits no node pool%s (%s)", sl_ctx_label(ctx, u), where, list);
	/* one note: a line per pool the message names, built in one buffer */
	char buf[8192];
	size_t len = 0;
	for (size_t i = 0; i < nw && len < sizeof buf; i++) {
		const sl_pool *pl = &pools[idx[i]];
		int k = snprintf(buf + len, sizeof buf - len, "%s%s, %s:", i ? "\n" : "",
				 pool_label(a, pl, clusters), pl->where);
		for (size_t j = 0; k > 0 && j < v[i].n_reasons && len + (size_t)k < sizeof buf; j++) {
			const sl_placement_reason *re = &v[i].reasons[j];
			len += (size_t)k;
			k = snprintf(buf + len, sizeof buf - len, "%s %s%s%s%s", j ? ";" : "", re->text,
				     re->detail ? " (" : "", re->detail ? re->detail : "",
				     re->detail ? ")" : "");
		}
		if (k > 0)
			len += (size_t)k;
	}
	if (len >= sizeof buf)
		len = sizeof buf - 1;
	buf[len] = '\0';
	sl_report_note(ctx, r, "%s", buf);
	if (na > MAX_NOTES)
		sl_report_note(ctx, r, "And %zu more pools: `schedlint placement` shows every one.",
			       na - MAX_NOTES);
	sl_report_note(ctx, r, clusters
		       ? "The pods stay Pending in every cluster: \"0/N nodes are available\", and no "
			 "autoscaler adds a node for them."
		       : "The pods stay Pending: \"0/N nodes are available\", and no autoscaler adds a "
			 "node for them.");
	/* a pool kept off by one untolerated taint alone: tolerating it is a way out */
	for (size_t i = 0; i < na; i++) {
		sl_placement_verdict all = sl_placement_eval_all(p->pod, &pools[idx[i]]);
		const sl_taint *t = all.n_reasons == 1 ? all.reasons[0].taint : NULL;
		if (t)
			sl_report_cause(ctx, r, "untolerated taint %.*s", (int)t->key.n,
					t->key.s ? t->key.s : "");
	}
	return SL_OK;
}

static const char *const yields[] = {"gpu-without-toleration", NULL};

SL_RULE(no_matching_node_pool, .id = "no-matching-node-pool", .category = "inventory",
	.summary = "No known node pool accepts the unit's pods: they stay Pending",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET), .modes = 0, .yields_to = yields);
