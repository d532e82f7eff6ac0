/* SPDX-License-Identifier: Apache-2.0
** gpu-without-toleration: a GPU-requesting unit does not tolerate the taint GPU nodes carry.
** One finding per missing taint key, at the first GPU request or limit that needs it. */
#include "sdk/rule.h"

#define FLAG "kubernetes.podspec-tolerations"

/** ## What it does
 * Reports a placement unit that uses a GPU while no toleration of the unit tolerates a
 * `NoSchedule` taint on the GPU taint key, **only when the evidence says the GPU nodes are
 * tainted** and nothing adds the toleration at admission:
 * - `gpu-nodes-tainted` is yes: config `cluster.gpu-nodes-tainted: true` (the provider presets
 *   never make it yes where the rule could report: EKS and AKS pools are untainted unless
 *   configured, and GKE, which taints GPU nodes in mixed clusters, adds the toleration too);
 * - the toleration is not added at admission: the unit does not run on GKE (`cluster.provider:
 *   gke`, a GKE accelerator label or the `serving.kserve.io/gke-accelerator` annotation), which
 *   adds it itself, and `extended-resource-toleration` is not yes, or it is but the plugin's
 *   toleration does not match the taint. The ExtendedResourceToleration plugin adds one
 *   toleration per requested extended resource, keyed on the resource's name: it covers
 *   `nvidia.com/gpu` for a pod requesting `nvidia.com/gpu`, but not the `nvidia.com/gpu` taint of
 *   a pod requesting only `nvidia.com/mig-1g.5gb`, and nothing for a DRA claim. When nothing says
 *   whether the plugin is on, the rule assumes it is off (it is not among kube-apiserver's
 *   default plugins) and its notes say so.
 *
 * With no evidence (the default config) the rule never reports. The first note names the
 * evidence (the config key's file:line, the provider preset, or the pools).
 *
 * Where node pools are known (docs/placement.md: `cluster.node-pools`, Karpenter NodePools,
 * eksctl node groups, node dumps) and `cluster.gpu-nodes-tainted` is not set, the pools decide,
 * exactly: the rule reports when no pool accepts the unit and the GPU pools that would accept it
 * but for the taint (every other filter passes: `no-matching-node-pool`'s placement) all carry
 * an untolerated GPU taint, and its first note names those pools. A unit that lands on some pool,
 * or that no GPU pool would take anyway, is not reported (`no-matching-node-pool` says why).
 * `no-matching-node-pool` then reports the same Pending unit for the same cause, and yields to
 * this finding (one finding for one cause): this one names the missing toleration and carries
 * the fix; it takes that rule's message and notes as notes, and its severity (error) when that
 * is the higher.
 *
 * "Uses a GPU": a container requests or limits a GPU resource (`cluster.gpu-resources`), or
 * claims a device through Dynamic Resource Allocation (`resources.claims` naming a pod
 * `resourceClaims` entry) whose ResourceClaim / ResourceClaimTemplate among the linted files
 * asks for a device class in `cluster.gpu-device-classes`. A claim that cannot be resolved is
 * not evidence of a GPU, so it is not reported. The taint key is the resource name
 * (`nvidia.com/gpu`, `amd.com/gpu`, ...), except that nodes serving `nvidia.com/mig-`-prefixed
 * resources carry `nvidia.com/gpu`; for a DRA claim it is `nvidia.com/gpu` for an NVIDIA class
 * and `amd.com/gpu` for an AMD one (other classes have no conventional taint and are not
 * reported). A toleration counts when its key is that key (or it is empty with
 * `operator: Exists`), its operator is `Exists`, or `Equal` / empty with any value (providers
 * taint with `true` or `present`), and its effect is empty or `NoSchedule`. A toleration whose
 * key, operator or effect holds a placeholder (`${GPU_VENDOR}.com/gpu`, `{{ .Values.key }}`)
 * tolerates what its rendered value says: unknown, so it counts (no finding on a guess).
 *
 * An InferenceService predictor with no tolerations of its own takes them from the ServingRuntime
 * its `model.runtime` names (when that runtime is among the linted files: KServe's merge lets a
 * non-empty list replace the runtime's), and a Seldon Server gets its ServerConfig's tolerations
 * after its own (Seldon appends the lists). Likewise every unit merged over a template
 * (sched/merge.h): an LLMInferenceService over the LLMInferenceServiceConfigs of its `baseRefs`,
 * in order (a later non-empty list replaces an earlier one, the service's own last: KServe
 * `combineBaseRefsConfig`); a SparkApplication driver or executor over its pod `template` (the
 * operator appends the SparkPodSpec's tolerations, `addTolerations`); a KAITO Workspace over the
 * pod KAITO writes (`nvidia.com/gpu` and `sku=gpu` tolerated, `GenerateManifestWithPodTemplate`).
 * Every unit of the workload kinds is read: Ray head and worker groups, LeaderWorkerSet leader and
 * workers, JobSet replicated jobs, Kubeflow replica types, Volcano tasks, and a SparkPodSpec's
 * `gpu: {name, quantity}` as the limit the operator sets (docs/domain.md).
 *
 * A TrainJob's units are its (Cluster)TrainingRuntime's replicated jobs, each merged with the
 * TrainJob's patch of it (`runtimePatches`, `podTemplateOverrides`, `podSpecOverrides`: a
 * strategic merge, so a patch's `tolerations` replace the runtime's); a finding about a field of
 * the runtime goes at the TrainJob's `runtimeRef.name`. A template that a unit among the files
 * uses (a ServingRuntime, a ServerConfig, an LLMInferenceServiceConfig, a training runtime) is
 * judged through those units, not alone.
 *
 * Not reported for a ModelMesh InferenceService predictor: ModelMesh builds no pod from it
 * (its placement fields are ignored; `modelmesh-placement-ignored`).
 *
 * ## Why is this bad?
 * A pod that requests a GPU but does not tolerate the GPU nodes' taint fits no node: it stays
 * Pending with `node(s) had untolerated taint {nvidia.com/gpu: ...}`. Kubernetes adds the
 * toleration automatically only when the ExtendedResourceToleration admission plugin is enabled
 * (off in a default kube-apiserver; GKE does the same for its GPU nodes), and that plugin looks
 * only at extended resources in the requests, never at DRA claims.
 *
 * The spec asks for a finding only where the evidence supports it: whether GPU nodes are
 * tainted is a property of the cluster, which a manifest does not say.
 *
 * ## Example
 * With `cluster.gpu-nodes-tainted: true` in `.schedlint.yaml`:
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
 * The fix adds `{key: <taint key>, operator: Exists, effect: NoSchedule}` as the last
 * item of the unit's own `tolerations` list (a `{...}` item when the list is a flow sequence),
 * or adds a `tolerations:` list holding it as the last field of the pod spec (the component
 * of a KServe unit, `spec.podSpec` of a Seldon Server) when the unit has none. Safe: the
 * toleration only permits, and `toleration-without-selector` does not count the GPU taint of a
 * GPU-using unit. Unsafe when the unit runs through Knative (a Knative Service, or an
 * InferenceService in Knative mode) and the Knative flag `kubernetes.podspec-tolerations` is not
 * known to be enabled: Knative's webhook would reject the toleration
 * (`knative-feature-flag-required` reports it), so the fix message says it needs the flag.
 * Declined (no fix) when the unit's tolerations come from a ServingRuntime (adding one of its
 * own would replace that whole list), when `tolerations` is written but is
 * not a sequence, when it or the pod spec is an alias or anchored (the edit would change other
 * objects), and when the pod spec is a flow mapping.
 *
 * ## Options
 * `cluster.gpu-nodes-tainted` (the evidence: true makes the rule report),
 * `cluster.extended-resource-toleration` (true: the admission plugin adds the toleration of each
 * requested extended resource), `cluster.provider` (the presets above), `cluster.gpu-resources` and
 * `cluster.gpu-device-classes` (what counts as a GPU), `cluster.knative-features` (the fix's
 * safety on Knative).
 *
 * ## References
 * - kubernetes staging/src/k8s.io/api/core/v1/toleration.go, `ToleratesTaint`
 * - kubernetes plugin/pkg/admission/extendedresourcetoleration/admission.go (extended
 *   resources of the containers' requests only)
 * - kubernetes cmd/kube-apiserver/app/options (the default admission plugins, without
 *   ExtendedResourceToleration)
 * - NVIDIA k8s-device-plugin deployments/static/nvidia-device-plugin.yml (toleration of
 *   `nvidia.com/gpu`)
 * - knative serving pkg/apis/config/features.go (`kubernetes.podspec-tolerations`)
 * - Kubernetes, Taints and Tolerations, "Nodes with Special Hardware",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
 * - Kubernetes, Dynamic Resource Allocation,
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/dynamic-resource-allocation/
 * - GKE, Run GPUs in Standard node pools, https://cloud.google.com/kubernetes-engine/docs/how-to/gpus
 */

/* True when toleration t tolerates a NoSchedule taint on key with some value. */
static bool tolerates_gpu_taint(const sl_node *t, const char *key)
{
	const sl_node *kn = sl_map_get(t, "key");
	const char *k = kn ? sl_scalar(kn) : "";
	const char *op = sl_scalar(sl_map_get(t, "operator"));
	const sl_node *en = sl_map_get(t, "effect");
	const char *eff = en ? sl_scalar(en) : "";
	if (!k || !eff)
		return false;
	if (sl_template_in_value(k, strlen(k)) || sl_template_in_value(eff, strlen(eff)) ||
	    (op && sl_template_in_value(op, strlen(op))))
		return true;   /* a placeholder: what it tolerates is unknown */
	if (*eff && strcmp(eff, "NoSchedule") != 0)
		return false;
	bool exists = op && strcmp(op, "Exists") == 0;
	if (!*k)
		return exists;
	if (strcmp(k, key) != 0)
		return false;
	return exists || !op || !*op || strcmp(op, "Equal") == 0;
}

/* True when the tolerations u's pods end up with tolerate the GPU taint key: u merged over its
** templates (merge.h: a ServingRuntime's list replaced by a non-empty one of the unit's, a
** ServerConfig's appended, LLMInferenceServiceConfigs in baseRefs order, a TrainJob's runtime, a
** SparkApplication's pod template, the pod KAITO writes). */
static bool unit_tolerates(sl_ctx *ctx, const sl_unit *u, const char *key)
{
	sl_merged m = sl_ctx_merged(ctx, u);
	sl_items it = sl_merged_tolerations(&m);
	for (const sl_node *t; (t = sl_merge_items_next(&it));)
		if (tolerates_gpu_taint(t, key))
			return true;
	return false;
}

/* True when u's pods take their tolerations from a template whose list a list of u's own would
** replace (an InferenceService predictor over its ServingRuntime). */
static bool tolerations_from_template(sl_ctx *ctx, const sl_unit *u)
{
	sl_merged m = sl_ctx_merged(ctx, u);
	sl_items it = sl_merged_tolerations(&m);
	return !m.append && sl_seq_n(u->tolerations) == 0 && sl_merge_items_next(&it) != NULL;
}

/* Attaches the fix: the toleration of taint key `taint` added to u's own tolerations. Unsafe
** when u runs through Knative and the tolerations flag is not known to be enabled. */
static void add_fix(sl_ctx *ctx, sl_report *r, const sl_unit *u, const char *taint)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *pod = sl_node_deref(u->pod);
	const sl_node *own = u->tolerations;
	if (!r || !pod || pod->type != SL_NODE_MAP || sl_node_anchor(pod))
		return;
	/* Taken from a runtime: a list of the unit's own would replace it. */
	if (tolerations_from_template(ctx, u))
		return;
	bool ok;
	if (own) {
		if (own->parent != pod || sl_node_anchor(own))
			return;   /* an alias or an anchor: other objects share the list */
		if (own->style)
			ok = sl_fix_add_item(ctx, r, own,
					     sl_arena_printf(a, "key: %s, operator: Exists, effect: NoSchedule",
							     taint));
		else
			ok = sl_fix_add_item(ctx, r, own,
					     sl_arena_printf(a, "key: %s\noperator: Exists\neffect: NoSchedule",
							     taint));
	} else if (sl_map_get_key(pod, "tolerations")) {
		return;   /* written, but not a sequence (schema-type) or null */
	} else {
		ok = sl_fix_add_entry(ctx, r, pod, "tolerations",
				      sl_arena_printf(a, "- key: %s\n  operator: Exists\n  effect: NoSchedule",
						      taint));
	}
	if (!ok)
		return;
	if (u->mode == SL_MODE_KNATIVE &&
	    sl_index_knative_flag(sl_ctx_index(ctx), FLAG, NULL) != SL_FLAG_ENABLED)
		sl_fix_describe(ctx, r, SL_FIX_UNSAFE,
				"add the toleration {key: %s, operator: Exists, effect: NoSchedule}; it needs "
				"the Knative flag " FLAG " enabled, else Knative rejects it", taint);
	else
		sl_fix_describe(ctx, r, SL_FIX_SAFE,
				"add the toleration {key: %s, operator: Exists, effect: NoSchedule}", taint);
}

/* True when the cluster adds a toleration of taint at admission: ExtendedResourceToleration is
** on and a container requests (or limits: the request defaults to it) the resource so named. */
static bool added_at_admission(const sl_unit *u, sl_fact ert, const char *taint)
{
	for (size_t i = 0; ert.value == SL_TRI_YES && i < u->n_containers; i++)
		if (sl_map_get(u->containers[i].requests, taint) ||
		    sl_map_get(u->containers[i].limits, taint))
			return true;
	return false;
}

/* The notes every finding gets: why, what admission adds, the way out. other is the requested
** name when the taint key differs from it (a MIG resource, or a DRA device class), else NULL. */
static void add_notes(sl_ctx *ctx, sl_report *r, const sl_unit *u, sl_fact ert, const char *other,
		      const char *taint)
{
	sl_report_note(ctx, r, "Pods that do not tolerate the taint fit no tainted GPU node and stay "
		       "Pending: \"node(s) had untolerated taint {%s: ...}\".", taint);
	if (other && ert.value == SL_TRI_YES)
		sl_report_note(ctx, r, "The ExtendedResourceToleration admission plugin (%s) adds one "
			       "toleration per requested extended resource, keyed on its name: none for "
			       "the %s taint of the nodes that offer %s.", ert.source, taint, other);
	else if (ert.value == SL_TRI_NO)
		sl_report_note(ctx, r, "Tolerations are not added at admission "
			       "(extended-resource-toleration: false, %s).", ert.source);
	else if (ert.value == SL_TRI_UNKNOWN)
		sl_report_note(ctx, r, "The rule assumes the ExtendedResourceToleration admission plugin "
			       "is off, as in a default kube-apiserver; if your cluster enables it, set "
			       "cluster.extended-resource-toleration: true.");
	sl_report_note(ctx, r, "Add {key: %s, operator: Exists, effect: NoSchedule} to the unit's "
		       "tolerations.", taint);
	if (u->mode == SL_MODE_KNATIVE &&
	    sl_index_knative_flag(sl_ctx_index(ctx), FLAG, NULL) != SL_FLAG_ENABLED)
		sl_report_note(ctx, r, "The unit runs through Knative: a toleration needs the flag "
			       FLAG " enabled in config-features.");
}

/* True when taint was handled already (and records it otherwise). */
static bool once(const char **done, size_t *n_done, size_t cap, const char *taint)
{
	for (size_t d = 0; d < *n_done; d++)
		if (strcmp(done[d], taint) == 0)
			return true;
	if (*n_done < cap)
		done[(*n_done)++] = taint;
	return false;
}

/* With node pools known and the config silent: the GPU pools that would accept u but for an
** untolerated GPU taint (their other filters pass), when no pool accepts it; *names gets them
** with their definitions. False when the pools do not say the unit is kept off by a GPU taint
** (it lands somewhere, or fails for other reasons: no-matching-node-pool's). */
static bool pools_tainted(sl_ctx *ctx, const sl_unit *u, const sl_placement *p,
			  const char **names)
{
	sl_arena *a = sl_ctx_arena(ctx);
	size_t found = 0;
	*names = NULL;
	sl_placement_iter lands = sl_placement_pools(p, true);
	if (sl_placement_next(&lands))
		return false;
	for (sl_placement_iter it = sl_placement_pools(p, false); sl_placement_next(&it);) {
		const sl_pool *pool = it.pool;
		if (pool->gpu == SL_TRI_NO || !it.fit->brief || strcmp(it.fit->brief, "taint") != 0)
			continue;
		sl_placement_verdict v = sl_placement_eval_all(p->pod, pool);
		if (v.n_reasons != 1 || !v.reasons[0].taint)
			continue;   /* kept off for other reasons too */
		/* the untolerated taint is a GPU taint of what u uses */
		const sl_taint *tt = v.reasons[0].taint;
		const char *key = sl_arena_strndup(a, tt->key.s ? tt->key.s : "", tt->key.n);
		if (!key || !sl_gpu_unit_taint(sl_ctx_index(ctx), u, key))
			continue;
		const char *one = sl_arena_printf(a, "%s (%s)", pool->name, pool->where);
		*names = sl_arena_list_add(a, *names, one);
		found++;
	}
	if (found)
		*names = sl_arena_printf(a, "GPU pool%s %s", found > 1 ? "s" : "", *names);
	return found > 0;
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (sl_ctx_unit_is_used_template(ctx, u))
		return SL_OK;   /* judged through the units merged over it */
	const sl_config *cfg = sl_ctx_config(ctx);
	const sl_index *ix = sl_ctx_index(ctx);
	sl_arena *a = sl_ctx_arena(ctx);
	sl_fact tainted = sl_cluster_gpu_nodes_tainted(ix, u, a);
	const sl_placement *p = sl_cluster_gpu_taint_configured(ix) ? NULL
								      : sl_ctx_placement(ctx, u);
	if (p) {   /* the pools decide: their taints, per unit */
		const char *names;
		if (!pools_tainted(ctx, u, p, &names))
			return SL_OK;
		tainted = (sl_fact){SL_TRI_YES, names};
	}
	if (tainted.value != SL_TRI_YES)
		return SL_OK;
	if (sl_cluster_provider(ix, u, a, NULL) == SL_PROVIDER_GKE)
		return SL_OK;   /* GKE adds the toleration to GPU pods itself */
	sl_fact ert = sl_cluster_extended_resource_toleration(ix, u, a);
	if (sl_gpu_unit_use(ix, u).value != SL_TRI_YES)
		return SL_OK;   /* no GPU, or only a claim nothing among the files resolves */
	const char *label = sl_ctx_label(ctx, u);
	/* Each GPU taint key once, at the first request, limit or claim that needs it. */
	const char *done[8];
	size_t n_done = 0;
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		sl_gpu_entries it = sl_gpu_container_entries(cfg, c);
		for (const sl_pair *p; (p = sl_gpu_entries_next(&it));) {
			const char *name = sl_scalar(p->key);
			const char *taint = sl_gpu_taint_key(name);
			if (once(done, &n_done, sizeof done / sizeof *done, taint) ||
			    unit_tolerates(ctx, u, taint) || added_at_admission(u, ert, taint))
				continue;
			sl_report *r = sl_report_at(ctx, p->value,
				"%s: %s %s %s but does not tolerate the %s:NoSchedule taint", label,
				sl_ctx_container_label(ctx, c), it.limit ? "limits" : "requests", name,
				taint);
			sl_report_note(ctx, r, "GPU nodes are tainted: %s.", tainted.source);
			add_notes(ctx, r, u, ert, strcmp(taint, name) != 0 ? name : NULL, taint);
			add_fix(ctx, r, u, taint);
			sl_report_cause(ctx, r, "untolerated taint %s", taint);
		}
	}
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		const sl_node *claims = sl_map_get(c->resources, "claims");
		for (size_t j = 0; j < sl_seq_n(claims); j++) {
			bool resolved;
			const sl_node *e = sl_seq_item(claims, j);
			const char *cls = sl_gpu_claim_class(ix, u, e, &resolved);
			const char *taint = sl_gpu_class_taint_key(cls);
			if (!taint || once(done, &n_done, sizeof done / sizeof *done, taint) ||
			    unit_tolerates(ctx, u, taint))
				continue;
			sl_report *r = sl_report_at(ctx, e,
				"%s: %s claims a %s device but does not tolerate the %s:NoSchedule taint",
				label, sl_ctx_container_label(ctx, c), cls, taint);
			sl_report_note(ctx, r, "GPU nodes are tainted: %s.", tainted.source);
			add_notes(ctx, r, u, ert, cls, taint);
			add_fix(ctx, r, u, taint);
			sl_report_cause(ctx, r, "untolerated taint %s", taint);
		}
	}
	return SL_OK;
}

SL_RULE(gpu_without_toleration, .id = "gpu-without-toleration", .category = "gpu",
	.summary = "Requests a GPU but does not tolerate the GPU node taint",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_SAFE, .check_unit = check);
