/* SPDX-License-Identifier: Apache-2.0
** replicas-without-spread: a unit that runs several replicas with nothing spreading them. One
** finding per unit, at the field that sets the replica count. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a unit that keeps at least 2 replicas running, whose replicas could share a node, and
 * that has neither `podAntiAffinity` nor `topologySpreadConstraints`, judged on the unit as its
 * pods get it (an InferenceService predictor merged over the runtime its `runtime:` names, a
 * Seldon Server over its ServerConfig: spreading that comes from the template counts). It applies
 * to:
 * - serving units: InferenceService components, InferenceGraph routers, LLMInferenceService
 *   workloads, Knative Services and Configurations, Seldon Servers, RayService head and worker
 *   groups, LeaderWorkerSets;
 * - workloads (Deployment, StatefulSet, ReplicaSet) whose pods request an accelerator — a
 *   resource of `cluster.gpu-resources` or `cluster.accelerator-resources` (by default
 *   `google.com/tpu` and the names starting `aws.amazon.com/neuron`, `habana.ai/`,
 *   `gpu.intel.com/`, `cloud-tpus.google.com/`), or a GPU claimed through Dynamic Resource
 *   Allocation — and serve: a container declares `ports` or a `readinessProbe` (what a Service
 *   sends traffic to).
 * A LeaderWorkerSet is judged once, at its first unit, when a pod of it requests an accelerator
 * (a LeaderWorkerSet of web servers is a generic workload): its replicas are its groups (leader
 * and workers together), spread when any of its templates spreads or the
 * `leaderworkerset.sigs.k8s.io/exclusive-topology` annotation gives each group a topology domain
 * of its own (lws `SetExclusiveAffinities`). Batch kinds (`cluster.batch-kinds`: RayJob, JobSet,
 * TrainJob, the Kubeflow v1 jobs, SparkApplication, Volcano Job...) keep no replicas running and
 * are not judged (training wants its workers together), nor is a bare RayCluster (a compute
 * cluster whose workers Ray packs). A generic workload (a web app, a controller) is not judged: whether it needs spreading is not
 * an ML-serving placement question, and the scheduler's default spreading is often what its
 * author wants. Nor is an accelerator workload that serves nothing (a test pod that runs
 * `nvidia-smi` and sleeps, a queue worker): losing a node delays its work but takes no service
 * down. (The issue that scoped this rule names "workloads whose pods request an accelerator";
 * the serving condition is this rule's, from the corpus review: every accelerator workload
 * without a port there was a device-plugin or DRA test pod.)
 *
 * The replica count is the one the unit keeps running: Deployment, StatefulSet and ReplicaSet
 * `replicas` (default 1), InferenceService and InferenceGraph `minReplicas` (default 1), Knative
 * `autoscaling.knative.dev/min-scale` on the revision template (default 0), Seldon Server
 * `minReplicas` when set (Seldon's server autoscaling keeps a Server between `minReplicas` and
 * `maxReplicas`; `replicas` is where it starts, `GetValidatedScalingSpec`), else `replicas`
 * (default 1), LLMInferenceService `replicas`, a RayService worker group's `replicas` within
 * `minReplicas`..`maxReplicas` (`minReplicas` with in-tree autoscaling, 0 when suspended; KubeRay
 * `GetWorkerGroupDesiredReplicas`, each replica `numOfHosts` pods), a LeaderWorkerSet's
 * `replicas` (groups); for a workload, a LeaderWorkerSet or a Seldon Server that a
 * HorizontalPodAutoscaler (autoscaling/v1 or v2) or KEDA ScaledObject among the linted or
 * project files scales (`scaleTargetRef`: kind, name, API group, in the same namespace), the
 * autoscaler's minimum instead: `minReplicas` (default 1), `minReplicaCount` (default 0).
 *
 * Not reported when a replica needs every accelerator of the node it runs on, since two
 * replicas can then never share a node:
 * - `google.com/tpu` equal to the chips of one host of the GKE TPU slice the unit selects
 *   (`cloud.google.com/gke-tpu-topology`, with `cloud.google.com/gke-tpu-accelerator` when set):
 *   a single-host slice has every chip of its topology on its host (up to `2x4` for v5e and v6e,
 *   `2x2x1` for v4, v5p and TPU7x), a multi-host slice 4 per host;
 * - a GPU (or other accelerator) request equal to what one node offers on every node pool the
 *   unit can land on (`cluster.node-pools` allocatable, a node dump's nodes, an eksctl node group
 *   of one instance type, a Karpenter NodePool's `karpenter.k8s.aws/instance-gpu-count`
 *   requirement or instance types of one GPU count), or on the nodes the unit itself selects
 *   (`karpenter.k8s.aws/instance-gpu-count`, `cloud.google.com/gke-accelerator-count`,
 *   `nvidia.com/gpu.count`, or an AWS instance type whose GPU count is known). With no such
 *   evidence, no whole-node replica is assumed;
 * - a GPU request of 8 or more: the GPU nodes in general use hold at most 8 (AWS p4d, p5 and p6,
 *   GCP A3 and A4, Azure ND), so two such replicas never share one; only GCP's 16-GPU
 *   a2-megagpu-16g could hold two, and a finding true on so few clusters is not stated as fact
 *   (the lws tree's 405B vLLM sample: 8 GPUs and 1124Gi a pod).
 *
 * A unit run through Knative (a Knative Service or Configuration, an InferenceService or
 * InferenceGraph in Knative mode) is reported only when the Knative flag
 * `kubernetes.podspec-affinity` or `kubernetes.podspec-topologyspreadconstraints` is known to be
 * enabled (a KnativeServing CR or `config-features` ConfigMap among the files, or config
 * `cluster.knative-features`): both are off in a default Knative install, where the webhook
 * rejects any spreading the manifest could add, so the manifest's author has nothing to change.
 * (A claim about what the author should write, which the cluster forbids by default, needs
 * the evidence that it is allowed.)
 *
 * Skipped: KAITO Workspaces (KAITO places their pods: a preset's pod takes every GPU of a node
 * it provisions, and a template's `affinity` is replaced by the `labelSelector`'s,
 * `GenerateManifestWithPodTemplate`, so an anti-affinity the author adds is dropped); units whose
 * pods Kueue's Topology Aware Scheduling places (the pod template's
 * `kueue.x-k8s.io/podset-required-topology` or `podset-preferred-topology` annotation: Kueue
 * assigns each pod's topology domain, packing the pod set as asked; a LeaderWorkerSet sample of
 * the kueue tree), DaemonSets (one pod per node by design), InferenceServices in ModelMesh mode (their
 * pods are the runtime's), templates used by a unit among the files, workloads without a pod
 * spec (a fragment: no pods to spread), and units with `nodeName` (every replica on that node;
 * `node-name-set` reports it). Reported at the field that sets the replica count (at the pod
 * spec when an autoscaler sets it and the workload writes none); a note names the autoscaler.
 *
 * ## Why is this bad?
 * Only kube-scheduler's default spreading applies then: the PodTopologySpread plugin's system
 * default constraints, hostname `maxSkew: 3` and zone `maxSkew: 5`, both `ScheduleAnyway` — a
 * soft score, weighed against bin-packing and free GPUs, and applied only to pods a Service,
 * ReplicaSet or StatefulSet selects. Several or all replicas may still share one node: a node
 * drain, a spot reclamation or a GPU fault then takes the whole service down, which is what
 * running several replicas was meant to prevent. Accelerator nodes make it likelier: the
 * scheduler packs replicas onto the one node whose accelerators are free.
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
 *           resources:
 *             limits:
 *               nvidia.com/gpu: 1
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
 *       affinity:
 *         podAntiAffinity:
 *           preferredDuringSchedulingIgnoredDuringExecution:
 *             - weight: 100
 *               podAffinityTerm:
 *                 topologyKey: kubernetes.io/hostname
 *                 labelSelector:
 *                   matchLabels:
 *                     app: ranker
 *       containers:
 *         - name: ranker
 *           image: ranker:1.4
 *           resources:
 *             limits:
 *               nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * Unsafe (it changes where the scheduler puts the pods): the fix adds a preferred
 * `podAntiAffinity` term (`weight: 100`) on `kubernetes.io/hostname` selecting the unit's own
 * pods — as `affinity:` at the end of the pod spec, as `podAntiAffinity:` in an existing
 * `affinity` mapping without one, or as `preferredDuringSchedulingIgnoredDuringExecution:` in a
 * `podAntiAffinity` mapping without one. It is preferred, so it never leaves a pod Pending, and
 * it keeps the scheduler's default zone spreading, which any `topologySpreadConstraints` entry
 * would replace (the defaults apply only to pods that set none). The `matchLabels` are labels the
 * unit's own pods are known to carry: a Deployment's, StatefulSet's or ReplicaSet's pod template
 * labels, all of them (a single label such as `app` is often shared with other workloads' pods,
 * which the term would then repel too); `serving.knative.dev/service: <name>` for a Knative
 * Service (`serving.knative.dev/configuration: <name>` for a Configuration), which Knative puts
 * on every revision's pods; `serving.kserve.io/inferenceservice: <name>` and `component:
 * <predictor|transformer|explainer>` for an InferenceService component, which KServe puts on the
 * component's pods in both modes; values are quoted when YAML would read them as something else
 * than a string. Declined (no fix) when those labels are unknown or empty (Seldon Servers,
 * LLMInferenceServices, InferenceGraph routers, canary predictors, workers, a workload without
 * template labels or with more than 16); for a unit run through Knative unless the
 * `kubernetes.podspec-affinity` flag is known to be on (the webhook would reject `affinity`, and
 * the fix would add a `knative-feature-flag-required` finding); when a label is not a one-line
 * scalar, or an alias; when the mapping it would go into is a flow mapping, an alias or
 * anchored, or already has the key.
 *
 * ## Options
 * `cluster.gpu-resources` and `cluster.accelerator-resources` (which workloads are judged);
 * `cluster.gpu-device-classes` (DRA); `cluster.node-pools` and the pools among the files (what
 * one node offers).
 *
 * ## References
 * - kubernetes/kubernetes pkg/scheduler/framework/plugins/podtopologyspread/plugin.go,
 *   `systemDefaultConstraints` (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway); the
 *   defaults apply only to a pod without constraints of its own:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/#internal-default-constraints
 * - Kubernetes, Assigning Pods to Nodes, inter-pod anti-affinity:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
 * - Kubernetes, HorizontalPodAutoscaler `minReplicas` (default 1), `scaleTargetRef`:
 *   https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/horizontal-pod-autoscaler-v2/;
 *   KEDA ScaledObject `minReplicaCount` (default 0), `scaleTargetRef` (kind default Deployment):
 *   https://keda.sh/docs/latest/reference/scaledobject-spec/
 * - GKE, Plan TPUs in GKE (single-host and multi-host slices, topologies and machine types:
 *   ct5lp-hightpu-1t/4t/8t and ct6e-standard-1t/4t/8t hosts of 1, 4, 8 chips; multi-host slices
 *   of 4-chip hosts): https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus; Cloud
 *   TPU configurations (v5p: 2x2x1 is one host, 2x2x2 two; v5e: 2x4 one host):
 *   https://cloud.google.com/tpu/docs/supported-tpu-configurations
 * - KServe pkg/constants/constants.go `DefaultMinReplicas` = 1; Knative
 *   pkg/apis/autoscaling/register.go `min-scale` (default 0)
 * - ray-project/kuberay ray-operator/controllers/ray/utils/util.go
 *   `GetWorkerGroupDesiredReplicas`; kubernetes-sigs/lws pkg/webhooks/pod_webhook.go
 *   `SetExclusiveAffinities` (docs/domain.md §1, §2)
 * - SeldonIO/seldon-core operator/internal/utils.go `GetValidatedScalingSpec`;
 *   operator/controllers/reconcilers/common/patch_utils.go `MergePodSpecs`
 */
/* Maintainers: the issue that scoped this rule lists Knative Services among the serving units
** without the Knative condition; the rule follows spec/rules.md "Evidence first". */

/* True when the merged unit spreads its replicas: a topologySpreadConstraints entry or a
** podAntiAffinity term, its own or its template's, or an exclusive-topology annotation (each
** LeaderWorkerSet group or JobSet Job on a topology domain of its own). */
static bool spreads(const sl_merged *m)
{
	return m->unit->exclusive_topology ||
	       sl_merge_items_count(sl_merged_spread(m)) > 0 ||
	       sl_merge_items_count(sl_merged_affinity_list(
		       m, "podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution")) > 0 ||
	       sl_merge_items_count(sl_merged_affinity_list(
		       m, "podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution")) > 0;
}

/* True when Kueue's Topology Aware Scheduling places u's pods (a podset topology annotation on
** its pod template): Kueue assigns each pod's topology domain, packing the pod set as the
** annotation asks; the author chose the placement. */
static bool kueue_topology(const sl_unit *u)
{
	const sl_node *ann = sl_map_get(u->meta, "annotations");
	return sl_map_get(ann, "kueue.x-k8s.io/podset-required-topology") ||
	       sl_map_get(ann, "kueue.x-k8s.io/podset-preferred-topology");
}

/* --- the fix --- */

#define MAX_LABELS 16

struct labels {
	const char *k[MAX_LABELS], *v[MAX_LABELS];   /* as YAML scalars (sl_fix_scalar) */
	size_t n;
};

/* Adds label k: v, each rendered as a YAML scalar valid in flow and block context. */
static bool add_label(sl_ctx *ctx, struct labels *l, const char *k, const char *v, const sl_node *at)
{
	if (!k || !v || l->n == MAX_LABELS)
		return false;
	l->k[l->n] = sl_fix_scalar(ctx, at, k);
	l->v[l->n++] = sl_fix_scalar(ctx, at, v);
	return l->k[l->n - 1] && l->v[l->n - 1];
}

/* Copies the pairs of label mapping m (as written); false when one cannot be copied. */
static bool add_map(sl_ctx *ctx, struct labels *l, const sl_node *m)
{
	if (!m || m->type != SL_NODE_MAP || sl_node_anchor(m))
		return false;
	for (size_t i = 0; i < sl_map_n(m); i++) {
		const sl_pair *p = sl_map_pair(m, i);
		/* the values, not the text as written: "web]" is a plain scalar in a block mapping
		** but ends a flow one */
		if (!sl_ctx_node_one_line(ctx, p->key) || !sl_ctx_node_one_line(ctx, p->value) ||
		    p->key->parent != m ||
		    !add_label(ctx, l, sl_scalar(p->key), sl_scalar(p->value), m))
			return false;
	}
	return l->n > 0;
}

/* The labels the unit's own pods are known to carry, selecting them; false when unknown. */
static bool pod_labels(sl_ctx *ctx, const sl_unit *u, struct labels *l)
{
	const sl_object *o = u->obj;
	memset(l, 0, sizeof *l);
	switch (o->kind) {
	case SL_KIND_DEPLOYMENT:
	case SL_KIND_STATEFULSET:
	case SL_KIND_REPLICASET:
		/* every label of the template: its selector's (often one `app`) may be shared */
		return add_map(ctx, l, sl_map_get(u->meta, "labels"));
	case SL_KIND_KNATIVE_SERVICE:
		return add_label(ctx, l, "serving.knative.dev/service", o->name, o->root);
	case SL_KIND_KNATIVE_CONFIGURATION:
		return add_label(ctx, l, "serving.knative.dev/configuration", o->name, o->root);
	case SL_KIND_INFERENCE_SERVICE: {
		const char *comp = u->role == SL_ROLE_PREDICTOR     ? "predictor"
				 : u->role == SL_ROLE_TRANSFORMER ? "transformer"
				 : u->role == SL_ROLE_EXPLAINER   ? "explainer"
								  : NULL;
		return comp && add_label(ctx, l, "serving.kserve.io/inferenceservice", o->name, o->root) &&
		       add_label(ctx, l, "component", comp, o->root);
	}
	default:
		return false;
	}
}

/* The mapping key of map may get a new entry: written as a block mapping of its own. */
static bool editable_map(const sl_node *parent, const sl_node *map)
{
	return map && map->type == SL_NODE_MAP && !map->style && !sl_node_anchor(map) &&
	       (!parent || sl_node_owns(parent, map));
}

/* The preferred podAntiAffinity term on kubernetes.io/hostname selecting labels l, as an item of
** preferredDuringSchedulingIgnoredDuringExecution with every line indented by n spaces (arena),
** NULL when out of memory. */
static const char *term_at(sl_arena *a, const struct labels *l, int n)
{
	const char *labels = "";
	for (size_t i = 0; labels && i < l->n; i++)
		labels = sl_arena_printf(a, "%s\n%*s%s: %s", labels, n + 8, "", l->k[i], l->v[i]);
	if (!labels)
		return NULL;
	return sl_arena_printf(a, "%*s- weight: 100\n%*s  podAffinityTerm:\n%*s    topologyKey: "
			       "kubernetes.io/hostname\n%*s    labelSelector:\n%*s      matchLabels:%s",
			       n, "", n, "", n, "", n, "", n, "", labels);
}

/* Attaches the fix: a preferred podAntiAffinity term on kubernetes.io/hostname selecting the
** unit's own pods. */
static void add_fix(sl_ctx *ctx, sl_report *r, const sl_unit *u)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *pod = sl_node_deref(u->pod);
	struct labels l;
	if (!r || !pod || pod->type != SL_NODE_MAP || sl_node_anchor(pod) || !pod_labels(ctx, u, &l))
		return;
	if (u->mode == SL_MODE_KNATIVE &&
	    sl_index_knative_flag(sl_ctx_index(ctx), "kubernetes.podspec-affinity", NULL) !=
		    SL_FLAG_ENABLED)
		return;
	const char *flow = "";
	for (size_t i = 0; flow && i < l.n; i++)
		flow = sl_arena_printf(a, "%s%s%s: %s", flow, i ? ", " : "", l.k[i], l.v[i]);
	if (!flow)
		return;
	/* the term goes in where the pod spec's affinity first lacks a level */
	const sl_node *aff = u->affinity, *paa = sl_map_get(aff, "podAntiAffinity");
	const char *term;
	bool ok;
	if (!sl_map_get_key(pod, "affinity")) {
		ok = (term = term_at(a, &l, 4)) &&
		     sl_fix_add_entry(ctx, r, pod, "affinity",
				      sl_arena_printf(a, "podAntiAffinity:\n  preferredDuringScheduling"
						      "IgnoredDuringExecution:\n%s", term));
	} else if (!editable_map(pod, aff)) {
		return;
	} else if (!sl_map_get_key(aff, "podAntiAffinity")) {
		ok = (term = term_at(a, &l, 2)) &&
		     sl_fix_add_entry(ctx, r, aff, "podAntiAffinity",
				      sl_arena_printf(a, "preferredDuringSchedulingIgnoredDuring"
						      "Execution:\n%s", term));
	} else if (editable_map(aff, paa) &&
		   !sl_map_get_key(paa, "preferredDuringSchedulingIgnoredDuringExecution")) {
		ok = (term = term_at(a, &l, 0)) &&
		     sl_fix_add_entry(ctx, r, paa, "preferredDuringSchedulingIgnoredDuringExecution",
				      term);
	} else {
		return;
	}
	if (ok)
		sl_fix_describe(ctx, r, SL_FIX_UNSAFE,
				"add a preferred podAntiAffinity term on kubernetes.io/hostname selecting "
				"{%s}", flow);
}

/* --- who is judged, and whose replicas need a whole node --- */

/* True when the pod requests an accelerator, or u claims a GPU through DRA. */
static bool accelerated(sl_ctx *ctx, const sl_unit *u, const sl_placement_pod *pod)
{
	int64_t milli;
	const char *name;
	for (size_t i = 0; (name = sl_placement_pod_request(pod, i, &milli)); i++)
		if (sl_config_is_accelerator_resource(sl_ctx_config(ctx), name))
			return true;
	return sl_gpu_unit_use(sl_ctx_index(ctx), u).value == SL_TRI_YES;
}

/* True when a unit of o (a LeaderWorkerSet's leader or workers) requests an accelerator. */
static bool group_accelerated(sl_ctx *ctx, const sl_object *o)
{
	for (size_t i = 0; i < o->n_units; i++) {
		sl_placement_pod *p;
		if (sl_placement_pod_of(sl_ctx_index(ctx), &o->units[i], sl_ctx_arena(ctx), &p) ==
			    SL_OK && p && accelerated(ctx, &o->units[i], p))
			return true;
	}
	return false;
}

/* True when a container of u declares ports or a readiness probe: its pods serve traffic. */
static bool serves(const sl_unit *u)
{
	for (size_t i = 0; i < u->n_containers; i++)
		if (!u->containers[i].init &&
		    (sl_seq_n(sl_map_get(u->containers[i].node, "ports")) > 0 ||
		     sl_map_get(u->containers[i].node, "readinessProbe")))
			return true;
	return false;
}

/* The count a node label the pod pins says (a whole number), or -1. */
static long long pinned_count(const sl_placement_pod *pod, const char *key, sl_arena *a)
{
	const char *v = sl_placement_pod_label(pod, key, a);
	long long n = 0;
	for (const char *c = v; c && *c; c++) {
		if (*c < '0' || *c > '9' || n > 100000)
			return -1;
		n = n * 10 + (*c - '0');
	}
	return v && *v ? n : -1;
}

/* True when milli of accelerator name is all a node offers on the nodes the pod itself selects:
** their GPU count label, or an AWS instance type whose GPU count is known. */
static bool fills_selected_nodes(sl_ctx *ctx, const sl_placement_pod *pod, const char *name,
				 int64_t milli)
{
	static const char *const count_labels[] = {
		"karpenter.k8s.aws/instance-gpu-count", "cloud.google.com/gke-accelerator-count",
		"nvidia.com/gpu.count",
	};
	sl_arena *a = sl_ctx_arena(ctx);
	if (!sl_config_is_gpu_resource(sl_ctx_config(ctx), name))
		return false;
	for (size_t i = 0; i < sizeof count_labels / sizeof *count_labels; i++) {
		long long n = pinned_count(pod, count_labels[i], a);
		if (n > 0 && milli >= n * 1000)
			return true;
	}
	const char *type = sl_placement_pod_label(pod, "node.kubernetes.io/instance-type", a);
	if (!type)
		type = sl_placement_pod_label(pod, "beta.kubernetes.io/instance-type", a);
	const char *res;
	int count;
	return type && sl_pool_aws_gpu(type, &res, &count) && count > 0 && strcmp(res, name) == 0 &&
	       milli >= (int64_t)count * 1000;
}

/* True when milli of accelerator name is all one node offers on every pool the unit can land
** on (at least one; none when no pool is known). */
static bool fills_every_pool(sl_ctx *ctx, const sl_unit *u, const char *name, int64_t milli)
{
	const sl_placement *p = sl_ctx_placement(ctx, u);
	size_t lands = 0;
	if (!p)
		return false;
	for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);) {
		int64_t per;
		if (!sl_pool_per_node(it.pool, name, &per) || milli < per)
			return false;
		lands++;
	}
	return lands > 0;
}

/* True when one replica takes every accelerator of the node it runs on, so that no two share a
** node: a GKE TPU host's chips, or a GPU count that fills a node of every pool it can use. */
static bool whole_node(sl_ctx *ctx, const sl_unit *u, const sl_placement_pod *pod)
{
	sl_arena *a = sl_ctx_arena(ctx);
	int64_t milli;
	const char *name;
	for (size_t i = 0; (name = sl_placement_pod_request(pod, i, &milli)); i++) {
		if (!sl_config_is_accelerator_resource(sl_ctx_config(ctx), name))
			continue;
		if (strcmp(name, "google.com/tpu") == 0) {
			int chips = sl_gpu_tpu_chips_per_host(
				sl_placement_pod_label(pod, "cloud.google.com/gke-tpu-topology", a),
				sl_placement_pod_label(pod, "cloud.google.com/gke-tpu-accelerator", a));
			if (chips > 0 && milli >= (int64_t)chips * 1000)
				return true;
			continue;
		}
		if (fills_selected_nodes(ctx, pod, name, milli) ||
		    fills_every_pool(ctx, u, name, milli))
			return true;
		/* 8 GPUs: every node of 8 (AWS p4d, p5, p6; GCP A3, A4; Azure ND) is full; only a node
		** of 16 (GCP a2-megagpu-16g) could hold two, so a finding would hold on few clusters */
		if (sl_config_is_gpu_resource(sl_ctx_config(ctx), name) && milli >= 8000)
			return true;
	}
	return false;
}

/* For a unit run through Knative: the flag that lets its manifest set spreading, when one is
** known to be enabled; NULL when neither is. */
static const char *knative_spread_flag(sl_ctx *ctx)
{
	static const char *const flags[] = {"kubernetes.podspec-affinity",
					    "kubernetes.podspec-topologyspreadconstraints"};
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (sl_index_knative_flag(sl_ctx_index(ctx), flags[i], NULL) == SL_FLAG_ENABLED)
			return flags[i];
	return NULL;
}

/* "HorizontalPodAutoscaler web (deploy/hpa.yaml:12)": the autoscaler and the line of its minimum
** (else of its document). */
static const char *autoscaler_at(sl_ctx *ctx, const sl_object *scaler, const sl_node *at)
{
	uint32_t line = 0, col = 0;
	const sl_doc *d = scaler->doc;
	if (d && d->src)
		sl_source_position(d->src, at ? at->start : d->start, &line, &col);
	return sl_arena_printf(sl_ctx_arena(ctx), "%s (%s:%u)",
			       sl_object_label(scaler, sl_ctx_arena(ctx)), scaler->path ? scaler->path : "-",
			       (unsigned)line);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (sl_ctx_unit_is_used_template(ctx, u) || u->obj->kind == SL_KIND_KAITO_WORKSPACE)
		return SL_OK;   /* a KAITO Workspace's placement is KAITO's (docs/domain.md §6) */
	/* a workload without a pod spec makes no pods (the API server rejects it); a Seldon
	** Server without podSpec still runs its ServerConfig's */
	if (!u->pod && u->obj->kind != SL_KIND_SELDON_SERVER)
		return SL_OK;
	const sl_object *scaler;
	const sl_node *count_at;
	long long replicas = sl_index_unit_replicas(sl_ctx_index(ctx), u, &scaler, &count_at);
	if (replicas < 2)
		return SL_OK;
	/* a LeaderWorkerSet's replicas are its groups, leader and workers together: one judgement
	** per set, at its first unit, spread when any of its templates spreads */
	const sl_object *o = u->obj;
	bool grouped = o->kind == SL_KIND_LEADER_WORKER_SET;
	if (grouped && u != &o->units[0])
		return SL_OK;
	for (size_t i = 0; i < (grouped ? o->n_units : 1); i++) {
		const sl_unit *g = grouped ? &o->units[i] : u;
		sl_merged m = sl_ctx_merged(ctx, g);
		if (spreads(&m) || kueue_topology(g))
			return SL_OK;
	}
	if (u->mode == SL_MODE_KNATIVE && !knative_spread_flag(ctx))
		return SL_OK;   /* the webhook rejects what the author could add */
	sl_placement_pod *pod;
	if (sl_placement_pod_of(sl_ctx_index(ctx), u, sl_ctx_arena(ctx), &pod) != SL_OK || !pod)
		return SL_OK;   /* nodeName: every replica on that node */
	if (!sl_kind_is_serving(u->obj->kind) && (!serves(u) || !accelerated(ctx, u, pod)))
		return SL_OK;   /* a generic workload, or one that serves nothing */
	if (grouped && !group_accelerated(ctx, o))
		return SL_OK;   /* a LeaderWorkerSet of web servers (nginx samples): generic */
	if (whole_node(ctx, u, pod))
		return SL_OK;
	for (size_t i = 1; grouped && i < o->n_units; i++) {   /* a group's pod on a node of its own */
		sl_placement_pod *gp;
		if (sl_placement_pod_of(sl_ctx_index(ctx), &o->units[i], sl_ctx_arena(ctx), &gp) ==
			    SL_OK && gp && whole_node(ctx, &o->units[i], gp))
			return SL_OK;
	}
	const char *field = sl_scalar(sl_node_key(u->replicas));
	bool minimum = scaler || (field && (strstr(field, "min") || strstr(field, "Min")));
	const sl_node *at = sl_node_key(u->replicas);
	sl_report *r;
	const char *fmt = grouped
		? "%s %s %lld groups but nothing spreads them"
		: "%s %s %lld replicas but no podAntiAffinity or topologySpreadConstraints";
	const char *verb = minimum ? "keeps at least" : "runs";
	const char *who = grouped ? sl_object_label(o, sl_ctx_arena(ctx)) : sl_ctx_label(ctx, u);
	if (at)
		r = sl_report_at(ctx, at, fmt, who, verb, replicas);
	else if (u->replicas)
		r = sl_report_at(ctx, u->replicas, fmt, who, verb, replicas);
	else if (u->pod && u->pod->parent)
		r = sl_report_key(ctx, u->pod, fmt, who, verb, replicas);
	else
		r = sl_report_at(ctx, u->obj->root, fmt, who, verb, replicas);
	if (scaler)
		sl_report_note(ctx, r, "The replicas are the minimum of %s%s.",
			       autoscaler_at(ctx, scaler, count_at),
			       count_at ? "" : scaler->kind == SL_KIND_SCALED_OBJECT
				   ? ", minReplicaCount unset" : ", minReplicas unset (1)");
	if (grouped)
		sl_report_note(ctx, r, "Neither its leader nor its worker template has podAntiAffinity "
			       "or topologySpreadConstraints, and it has no exclusive-topology "
			       "annotation.");
	sl_report_note(ctx, r,
		       "Only kube-scheduler's default spreading applies: a soft score (hostname "
		       "maxSkew 3, zone maxSkew 5, ScheduleAnyway; podtopologyspread "
		       "systemDefaultConstraints), so several or all replicas may still share one "
		       "node, and losing that node takes the whole service down.");
	if (grouped)
		sl_report_note(ctx, r, "Annotate the LeaderWorkerSet with "
			       "leaderworkerset.sigs.k8s.io/exclusive-topology: <topology key> (each "
			       "group on a domain of its own), or add a preferred podAntiAffinity term "
			       "selecting leaderworkerset.sigs.k8s.io/name: %s.", o->name ? o->name : "<name>");
	else
		sl_report_note(ctx, r,
			       "Add a preferred podAntiAffinity term on kubernetes.io/hostname selecting "
			       "the pods' own labels: it keeps the default zone spreading, which a "
			       "topologySpreadConstraints entry would replace.");
	add_fix(ctx, r, u);
	return SL_OK;
}

SL_RULE(replicas_without_spread, .id = "replicas-without-spread", .category = "spread",
	.summary = "Serving or accelerator replicas with neither podAntiAffinity nor topologySpreadConstraints",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_UNSAFE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET), .modes = ~SL_MODE_BIT(SL_MODE_MODELMESH));
