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
 * Unsafe (it changes where the scheduler puts the pods): the fix adds a
 * `topologySpreadConstraints` entry `{maxSkew: 1, topologyKey: kubernetes.io/hostname,
 * whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: ...}}` as the pod spec's last
 * field (or the item of an empty flow list `[]`). `ScheduleAnyway` only scores nodes: it never
 * leaves a pod Pending. The `matchLabels` are labels the unit's own pods are known to carry:
 * a Deployment's, StatefulSet's or ReplicaSet's `spec.selector.matchLabels` (else its pod
 * template's labels); `serving.knative.dev/service: <name>` for a Knative Service
 * (`serving.knative.dev/configuration: <name>` for a Configuration), which Knative puts on every
 * revision's pods; `serving.kserve.io/inferenceservice: <name>` and
 * `component: <predictor|transformer|explainer>` for an InferenceService component, which KServe
 * puts on the component's pods in both modes. Declined (no fix) when those labels are unknown
 * or empty (Seldon Servers, LLMInferenceServices, InferenceGraph routers, canary predictors,
 * workers, a workload without labels); for a unit run through Knative unless the
 * `kubernetes.podspec-topologyspreadconstraints` flag is known to be on (the webhook would
 * reject the field); when a label is not a one-line scalar, or an alias; and when
 * `topologySpreadConstraints` is written but is not an empty list, or the pod spec is a flow
 * mapping.
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

/* --- the fix --- */

#define MAX_LABELS 16

struct labels {
	const char *k[MAX_LABELS], *v[MAX_LABELS];   /* as YAML scalars (sl_fix_scalar) */
	size_t n;
};

/* A one-line scalar as written, or NULL. */
static const char *one_line(sl_ctx *ctx, const sl_node *n)
{
	if (!n || n->type != SL_NODE_SCALAR || sl_node_anchor(n) || sl_node_tag(n) ||
	    n->style == SL_STYLE_LITERAL || n->style == SL_STYLE_FOLDED)
		return NULL;
	const char *t = sl_node_text(ctx, n);
	return *t && !strchr(t, '\n') && !strchr(t, '\r') ? t : NULL;
}

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
		if (!one_line(ctx, p->key) || !one_line(ctx, p->value) || p->key->parent != m ||
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

/* Attaches the fix: a hostname spread constraint selecting the unit's own pods. */
static void add_fix(sl_ctx *ctx, sl_report *r, const sl_unit *u)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *pod = sl_deref(u->pod);
	struct labels l;
	if (!r || !pod || pod->type != SL_NODE_MAP || sl_node_anchor(pod) || !pod_labels(ctx, u, &l))
		return;
	if (u->mode == SL_MODE_KNATIVE &&
	    sl_index_knative_flag(sl_ctx_index(ctx), "kubernetes.podspec-topologyspreadconstraints",
				  NULL) != SL_FLAG_ENABLED)
		return;
	const char *block = "", *flow = "";
	for (size_t i = 0; i < l.n; i++) {
		block = sl_arena_printf(a, "%s\n      %s: %s", block, l.k[i], l.v[i]);
		flow = sl_arena_printf(a, "%s%s%s: %s", flow, i ? ", " : "", l.k[i], l.v[i]);
		if (!block || !flow)
			return;
	}
	bool ok;
	const sl_node *tsc = u->topology_spread;
	if (tsc) {
		/* Written but empty (`[]`): an inline item of the flow list. */
		if (tsc->parent != pod || sl_node_anchor(tsc) || !tsc->style)
			return;
		ok = sl_fix_add_item(ctx, r, tsc,
				     sl_arena_printf(a, "maxSkew: 1, topologyKey: kubernetes.io/hostname, "
						     "whenUnsatisfiable: ScheduleAnyway, labelSelector: "
						     "{matchLabels: {%s}}", flow));
	} else if (sl_map_get_key(pod, "topologySpreadConstraints")) {
		return;
	} else {
		ok = sl_fix_add_entry(ctx, r, pod, "topologySpreadConstraints",
				      sl_arena_printf(a, "- maxSkew: 1\n  topologyKey: kubernetes.io/hostname"
						      "\n  whenUnsatisfiable: ScheduleAnyway\n  "
						      "labelSelector:\n    matchLabels:%s", block));
	}
	if (ok)
		sl_fix_describe(ctx, r, SL_FIX_UNSAFE,
				"add a topologySpreadConstraints entry on kubernetes.io/hostname "
				"(ScheduleAnyway) selecting {%s}", flow);
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
	sl_report *r = sl_report_at(ctx, at,
		     "%s %s %lld replicas but has neither podAntiAffinity nor "
		     "topologySpreadConstraints: the scheduler may put every replica on one node, so "
		     "losing that node takes the whole service down",
		     sl_ctx_label(ctx, u), minimum ? "keeps at least" : "runs", u->min_replicas);
	add_fix(ctx, r, u);
	return SL_OK;
}

SL_RULE(replicas_without_spread, .id = "replicas-without-spread", .category = "spread",
	.summary = "Several replicas with neither podAntiAffinity nor topologySpreadConstraints",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_UNSAFE, .check_unit = check);
