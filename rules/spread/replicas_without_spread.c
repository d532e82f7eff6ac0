/* SPDX-License-Identifier: Apache-2.0
** replicas-without-spread: a unit that runs several replicas with nothing spreading them. One
** finding per unit, at the field that sets the replica count. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a placement unit that keeps at least 2 replicas running and has neither
 * `podAntiAffinity` nor `topologySpreadConstraints`, judged on the unit as its pods get it (an
 * InferenceService predictor merged over the runtime its `runtime:` names, a Seldon Server over
 * its ServerConfig: spreading that comes from the template counts). The replica count is the one
 * the workload keeps running: Deployment, StatefulSet and ReplicaSet `replicas` (default 1),
 * InferenceService and InferenceGraph `minReplicas` (default 1), Knative
 * `autoscaling.knative.dev/min-scale` on the revision template (default 0), Seldon Server
 * `replicas` (or `minReplicas` when `replicas` is unset, as Seldon's `GetValidatedScalingSpec`
 * defaults it), LLMInferenceService `replicas`. Skipped: DaemonSets (one pod per node by design),
 * InferenceServices in ModelMesh mode (their pods are the runtime's), templates used by a unit
 * among the files, and workloads without a pod spec (a fragment: no pods to spread). Reported
 * at the field that sets the replica count.
 *
 * ## Why is this bad?
 * Only kube-scheduler's default spreading applies then: the PodTopologySpread plugin's system
 * default constraints, hostname `maxSkew: 3` and zone `maxSkew: 5`, both `ScheduleAnyway` — a
 * soft score, weighed against bin-packing and free GPUs, and applied only to pods a Service,
 * ReplicaSet or StatefulSet selects. Several or all replicas may still share one node: a node
 * drain, a spot reclamation or a GPU fault then takes the whole service down, which is what
 * running several replicas was meant to prevent.
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
 * unit's own pods are known to carry: a Deployment's, StatefulSet's or ReplicaSet's
 * `spec.selector.matchLabels` (else its pod template's labels); `serving.knative.dev/service:
 * <name>` for a Knative Service (`serving.knative.dev/configuration: <name>` for a
 * Configuration), which Knative puts on every revision's pods;
 * `serving.kserve.io/inferenceservice: <name>` and `component: <predictor|transformer|explainer>`
 * for an InferenceService component, which KServe puts on the component's pods in both modes;
 * values are quoted when YAML would read them as something else than a string. Declined (no fix)
 * when those labels are unknown or empty (Seldon Servers, LLMInferenceServices, InferenceGraph
 * routers, canary predictors, workers, a workload without labels); for a unit run through
 * Knative unless the `kubernetes.podspec-affinity` flag is known to be on (the webhook would
 * reject `affinity`, and the fix would add a `knative-feature-flag-required` finding); when a
 * label is not a one-line scalar, or an alias; when the mapping it would go into is a flow
 * mapping, an alias or anchored, or already has the key.
 *
 * ## Options
 * None.
 *
 * ## References
 * - kubernetes/kubernetes pkg/scheduler/framework/plugins/podtopologyspread/plugin.go,
 *   `systemDefaultConstraints` (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway); the
 *   defaults apply only to a pod without constraints of its own:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/#internal-default-constraints
 * - Kubernetes, Assigning Pods to Nodes, inter-pod anti-affinity:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
 * - KServe pkg/constants/constants.go `DefaultMinReplicas` = 1; Knative
 *   pkg/apis/autoscaling/register.go `min-scale` (default 0)
 * - SeldonIO/seldon-core operator/internal/utils.go `GetValidatedScalingSpec`;
 *   operator/controllers/reconcilers/common/patch_utils.go `MergePodSpecs`
 */

/* True when the merged unit spreads its replicas: a topologySpreadConstraints entry or a
** podAntiAffinity term, its own or its template's. */
static bool spreads(const sl_merged *m)
{
	return sl_merge_items_count(sl_merged_spread(m)) > 0 ||
	       sl_merge_items_count(sl_merged_affinity_list(
		       m, "podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution")) > 0 ||
	       sl_merge_items_count(sl_merged_affinity_list(
		       m, "podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution")) > 0;
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
	case SL_KIND_REPLICASET: {
		const sl_node *sel = sl_map_get(o->spec, "selector");
		const sl_node *ml = sl_map_get(sel, "matchLabels");
		if (sl_map_n(ml) > 0 && !sl_map_get(sel, "matchExpressions"))
			return add_map(ctx, l, ml);
		memset(l, 0, sizeof *l);
		return add_map(ctx, l, sl_map_get(u->meta, "labels"));
	}
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

/* text with every line indented by n spaces (arena), NULL when out of memory. */
static const char *indent(sl_arena *a, const char *text, int n)
{
	const char *out = "";
	while (out && text && *text) {
		size_t l = strcspn(text, "\n");
		out = sl_arena_printf(a, "%s%s%*s%.*s", out, *out ? "\n" : "", n, "", (int)l, text);
		text += l + (text[l] == '\n');
	}
	return text ? out : NULL;
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
	const char *labels = "", *flow = "";
	for (size_t i = 0; i < l.n; i++) {
		labels = sl_arena_printf(a, "%s\n        %s: %s", labels, l.k[i], l.v[i]);
		flow = sl_arena_printf(a, "%s%s%s: %s", flow, i ? ", " : "", l.k[i], l.v[i]);
		if (!labels || !flow)
			return;
	}
	/* the term, as the item of preferredDuringSchedulingIgnoredDuringExecution */
	const char *term = sl_arena_printf(a, "- weight: 100\n  podAffinityTerm:\n    topologyKey: "
					   "kubernetes.io/hostname\n    labelSelector:\n"
					   "      matchLabels:%s", labels);
	if (!term)
		return;
	const sl_node *aff = u->affinity, *paa = sl_map_get(aff, "podAntiAffinity");
	bool ok;
	if (!sl_map_get_key(pod, "affinity")) {
		ok = sl_fix_add_entry(ctx, r, pod, "affinity",
				      sl_arena_printf(a, "podAntiAffinity:\n  preferredDuringScheduling"
						      "IgnoredDuringExecution:\n%s",
						      indent(a, term, 4)));
	} else if (!editable_map(pod, aff)) {
		return;
	} else if (!sl_map_get_key(aff, "podAntiAffinity")) {
		ok = sl_fix_add_entry(ctx, r, aff, "podAntiAffinity",
				      sl_arena_printf(a, "preferredDuringSchedulingIgnoredDuring"
						      "Execution:\n%s", indent(a, term, 2)));
	} else if (editable_map(aff, paa) &&
		   !sl_map_get_key(paa, "preferredDuringSchedulingIgnoredDuringExecution")) {
		ok = sl_fix_add_entry(ctx, r, paa, "preferredDuringSchedulingIgnoredDuringExecution",
				      term);
	} else {
		return;
	}
	if (ok)
		sl_fix_describe(ctx, r, SL_FIX_UNSAFE,
				"add a preferred podAntiAffinity term on kubernetes.io/hostname selecting "
				"{%s}", flow);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (u->min_replicas < 2 || sl_ctx_unit_is_used_template(ctx, u))
		return SL_OK;
	/* a workload without a pod spec makes no pods (the API server rejects it); a Seldon
	** Server without podSpec still runs its ServerConfig's */
	if (!u->pod && u->obj->kind != SL_KIND_SELDON_SERVER)
		return SL_OK;
	sl_merged m = sl_ctx_merged(ctx, u);
	if (spreads(&m))
		return SL_OK;
	const char *field = sl_scalar(sl_node_key(u->replicas));
	bool minimum = field && (strstr(field, "min") || strstr(field, "Min"));
	const sl_node *at = sl_node_key(u->replicas);
	if (!at)
		at = u->replicas ? u->replicas : u->pod;
	sl_report *r = sl_report_at(ctx, at,
				    "%s %s %lld replicas with only the scheduler's soft default "
				    "spreading (no podAntiAffinity or topologySpreadConstraints)",
				    sl_ctx_label(ctx, u), minimum ? "keeps at least" : "runs",
				    u->min_replicas);
	sl_report_note(ctx, r,
		       "Only kube-scheduler's default spreading applies: a soft score (hostname "
		       "maxSkew 3, zone maxSkew 5, ScheduleAnyway; podtopologyspread "
		       "systemDefaultConstraints), so several or all replicas may still share one "
		       "node, and losing that node takes the whole service down.");
	sl_report_note(ctx, r,
		       "Add a preferred podAntiAffinity term on kubernetes.io/hostname selecting the "
		       "pods' own labels: it keeps the default zone spreading, which a "
		       "topologySpreadConstraints entry would replace.");
	add_fix(ctx, r, u);
	return SL_OK;
}

SL_RULE(replicas_without_spread, .id = "replicas-without-spread", .category = "spread",
	.summary = "Several replicas with neither podAntiAffinity nor topologySpreadConstraints",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_UNSAFE, .check_unit = check,
	.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET), .modes = ~SL_MODE_BIT(SL_MODE_MODELMESH));
