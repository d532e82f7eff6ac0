/* SPDX-License-Identifier: Apache-2.0
** spread-selector-mismatch: a topologySpreadConstraints labelSelector that does not select the
** unit's own pods (one finding per selector entry that excludes them), or a podAntiAffinity none
** of whose terms selects them on a unit with several replicas (one finding, at
** podAntiAffinity). */
#include "sdk/rule.h"

/** ## What it does
 * Reports a `topologySpreadConstraints[].labelSelector` that does not select the unit's own
 * pods, and a `podAntiAffinity` (required and preferred terms together) none of whose terms
 * selects them, on a unit that keeps at least 2 replicas. The pods' labels are those they really
 * get:
 * - workloads (Pod, Deployment, StatefulSet, ReplicaSet, DaemonSet, Job, CronJob): the pod
 *   template's labels; labels the controllers add with values unknown here
 *   (`pod-template-hash`, `controller-revision-hash`, `statefulset.kubernetes.io/pod-name`,
 *   `apps.kubernetes.io/pod-index`, `pod-template-generation`, `job-name`, `controller-uid` and
 *   their `batch.kubernetes.io/` forms) are never held against a selector;
 * - Knative Service / Configuration: the template's labels plus
 *   `serving.knative.dev/configuration: <name>` and, for a Service,
 *   `serving.knative.dev/service: <name>`; other `serving.knative.dev/` labels and `app` (the
 *   revision name unless the template sets it) have values unknown here;
 * - InferenceService predictor, transformer, explainer: the InferenceService's metadata labels,
 *   the component's `labels:` (which win), then `serving.kserve.io/inferenceservice: <name>` and
 *   `component: <predictor|transformer|explainer>`; in Standard mode `app: isvc.<service>`, in
 *   Knative mode `serving.knative.dev/service` and `serving.knative.dev/configuration` set to
 *   `<service>`, where `<service>` is `<name>-predictor` (`<name>-<predictor name>-predictor`
 *   when the predictor is named), `<name>-transformer` or `<name>-explainer`. Label keys set by
 *   a ServingRuntime among the linted files may reach a predictor and are never held against it.
 * - Seldon Server: the Server's and its ServerConfig's metadata labels, then
 *   `seldon-server-name: <Server name>` and `app.kubernetes.io/name: seldon-server`, as Seldon's
 *   operator labels the StatefulSet's pods (seldon-core
 *   `operator/controllers/reconcilers/server/statefulset_reconciler.go`); other keys are
 *   unknown when the ServerConfig is not among the files.
 *
 * - the workload kinds whose controllers keep the template's labels and add their own (values
 *   unknown here, never held against a selector): RayCluster, RayService, RayJob (`ray.io/`,
 *   `app.kubernetes.io/name`, `app.kubernetes.io/created-by`: KubeRay `labelPod`),
 *   LeaderWorkerSet (`leaderworkerset.sigs.k8s.io/`, the StatefulSet's keys), JobSet and
 *   TrainJob (`jobset.sigs.k8s.io/`, `trainer.kubeflow.org/`, the Job's keys), the Kubeflow v1
 *   jobs (`training.kubeflow.org/`), SparkApplication (`spark-role`, `spark-app-selector`,
 *   `sparkoperator.k8s.io/`...; the SparkPodSpec's `labels`), Volcano Job (`volcano.sh/`).
 *
 * A selector entry excludes those pods when it is a `matchLabels` pair whose key the pods lack or
 * carry with another value; a `matchExpressions` entry with `In` (the pods lack the key or its
 * value is not listed), `NotIn` (the pods' value is listed), `Exists` (the pods lack the key) or
 * `DoesNotExist` (the pods carry the key). A spread constraint gets one finding per such entry.
 * A `podAntiAffinity` term whose `namespaces` list (with no `namespaceSelector`) leaves out the
 * object's own namespace (when the manifest sets one) never sees the unit's pods either.
 *
 * An anti-affinity term aimed at other workloads (a router kept off database hosts, an
 * inference server kept off a batch job's nodes) is a design choice, not a mistake: the terms
 * are reported only when none of them selects the unit's own pods and the unit keeps several
 * replicas (as `replicas-without-spread` counts them: its replicas, or an autoscaler's minimum),
 * since the manifest then looks as if the replicas were kept apart while nothing keeps them so:
 * one finding at `podAntiAffinity`, each term's reason in the notes, and a warning, not an
 * error: each term may be right about what it repels, only nothing spreads the replicas.
 *
 * Not reported for units whose pod labels are unknown here: ServingRuntimes, Seldon
 * ServerConfigs, InferenceGraph routers, LLMInferenceService templates, worker specs and canary
 * predictors (their labels come from merges this rule does not model), and InferenceServices in
 * ModelMesh mode.
 *
 * ## Why is this bad?
 * A topology spread constraint counts the pods its selector matches in each domain; an
 * anti-affinity term repels pods its selector matches. When the selector does not match the
 * unit's own pods, the constraint counts or repels some other set of pods (often none), and this
 * unit's replicas are not spread at all, while the manifest looks as if they were. A spread
 * constraint exists only to spread the pods it selects, so one that selects none of the unit's
 * own is a mistake whatever the replica count. Controllers
 * add labels of their own, and users often copy a selector from another workload, so the pod
 * labels and the selector drift apart silently.
 *
 * ## Example
 * ```yaml
 * kind: InferenceService
 * metadata:
 *   name: fraud-model
 *   annotations:
 *     serving.kserve.io/deploymentMode: Standard   # pods get app: isvc.fraud-model-predictor
 * spec:
 *   predictor:
 *     minReplicas: 3
 *     topologySpreadConstraints:
 *       - maxSkew: 1
 *         topologyKey: kubernetes.io/hostname
 *         whenUnsatisfiable: ScheduleAnyway
 *         labelSelector:
 *           matchLabels:
 *             app: fraud-model
 * ```
 * Use instead:
 * ```yaml
 *         labelSelector:
 *           matchLabels:
 *             serving.kserve.io/inferenceservice: fraud-model
 *             component: predictor
 * ```
 *
 * ## Fix safety
 * No fix: whether the selector or the pod labels are wrong is the author's decision.
 *
 * ## Options
 * `cluster.kserve-default-deployment-mode` (through the InferenceService's mode: which
 * controller labels its pods get).
 *
 * ## References
 * - KServe pkg/controller/v1beta1/inferenceservice/components/predictor.go `buildObjectMeta`,
 *   transformer.go and explainer.go (labels: runtime, then InferenceService, then component,
 *   then `serving.kserve.io/inferenceservice` and `component`); pkg/constants/constants.go
 *   (`InferenceServicePodLabelKey`, `KServiceComponentLabel` = "component",
 *   `GetRawServiceLabel`, `PredictorServiceName`); reconcilers/deployment/deployment_reconciler.go
 *   `createRawDefaultDeployment` (`app: isvc.<service>`)
 * - Knative pkg/reconciler/configuration/resources/revision.go `updateRevisionLabels`;
 *   pkg/reconciler/revision/resources/meta.go `makeLabels` (`app` defaults to the revision name)
 * - Kubernetes, Pod Topology Spread Constraints:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/
 */
/* Maintainers: spec/rules.md's row once reported every podAntiAffinity term that excludes the
** pods, as an error; the issue that narrowed the rule wins. */

typedef enum look { LOOK_ABSENT, LOOK_KNOWN, LOOK_UNKNOWN } look;
typedef enum family { FAM_WORKLOAD, FAM_KNATIVE, FAM_KSERVE, FAM_SELDON, FAM_CONTROLLER } family;

#define MAX_FIXED 4

/* The labels a unit's pods get. */
struct podlabels {
	family fam;
	bool knative;               /* Knative adds its labels (Knative Service, Knative-mode ISVC) */
	bool predictor;             /* a runtime's labels may reach the pods */
	const sl_index *ix;
	const char *fk[MAX_FIXED];  /* controller-set labels, winning over the maps */
	const char *fv[MAX_FIXED];  /* their values, NULL when unknown here */
	size_t nf;
	const sl_node *maps[2];     /* user labels, the later wins */
	size_t nm;
	const char *const *added;   /* FAM_CONTROLLER: the keys (a prefix ends in '/') its
				       controller adds, values unknown here */
};

static void add_fixed(struct podlabels *p, const char *k, const char *v)
{
	if (p->nf < MAX_FIXED) {
		p->fk[p->nf] = k;
		p->fv[p->nf] = v;
		p->nf++;
	}
}

static bool runtime_sets(const sl_index *ix, const char *key)
{
	static const sl_kind kinds[] = {SL_KIND_SERVING_RUNTIME, SL_KIND_CLUSTER_SERVING_RUNTIME};
	for (size_t k = 0; k < 2; k++) {
		size_t n;
		const sl_object *const *rs = sl_index_objects(ix, kinds[k], &n);
		for (size_t i = 0; i < n; i++)
			if (sl_map_get(sl_map_get(rs[i]->spec, "labels"), key))
				return true;
	}
	return false;
}

static const char *const workload_keys[] = {
	"pod-template-hash", "controller-revision-hash", "statefulset.kubernetes.io/pod-name",
	"apps.kubernetes.io/pod-index", "pod-template-generation", "controller-uid",
	"batch.kubernetes.io/controller-uid", "job-name", "batch.kubernetes.io/job-name",
	"batch.kubernetes.io/job-completion-index", NULL
};

static look lookup(const struct podlabels *p, const char *key, const char **val)
{
	for (size_t i = 0; i < p->nf; i++)
		if (strcmp(p->fk[i], key) == 0) {
			*val = p->fv[i];
			return p->fv[i] ? LOOK_KNOWN : LOOK_UNKNOWN;
		}
	for (size_t m = p->nm; m-- > 0;) {
		const sl_node *n = sl_map_get(p->maps[m], key);
		if (n) {
			*val = sl_scalar(n);
			return *val ? LOOK_KNOWN : LOOK_UNKNOWN;
		}
	}
	for (size_t i = 0; p->added && p->added[i]; i++) {
		size_t l = strlen(p->added[i]);
		if (p->added[i][l - 1] == '/' ? strncmp(key, p->added[i], l) == 0
					      : strcmp(key, p->added[i]) == 0)
			return LOOK_UNKNOWN;
	}
	if (p->fam == FAM_WORKLOAD || p->fam == FAM_CONTROLLER)
		for (size_t i = 0; workload_keys[i]; i++)
			if (strcmp(workload_keys[i], key) == 0)
				return LOOK_UNKNOWN;
	if (p->knative && (strncmp(key, "serving.knative.dev/", 20) == 0 || strcmp(key, "app") == 0))
		return LOOK_UNKNOWN;
	if (p->fam == FAM_KSERVE && strncmp(key, "serving.kserve.io/", 18) == 0)
		return LOOK_UNKNOWN;
	if (p->predictor && runtime_sets(p->ix, key))
		return LOOK_UNKNOWN;
	if (p->fam == FAM_SELDON && p->nm < 2)   /* the ServerConfig's labels: not among the files */
		return LOOK_UNKNOWN;
	return LOOK_ABSENT;
}

/* Fills p for u; false when u's pod labels are unknown here. */
static bool pod_labels(sl_ctx *ctx, const sl_unit *u, struct podlabels *p)
{
	const sl_object *o = u->obj;
	sl_arena *a = sl_ctx_arena(ctx);
	memset(p, 0, sizeof *p);
	p->ix = sl_ctx_index(ctx);
	switch (o->kind) {
	case SL_KIND_POD:
	case SL_KIND_DEPLOYMENT:
	case SL_KIND_STATEFULSET:
	case SL_KIND_REPLICASET:
	case SL_KIND_DAEMONSET:
	case SL_KIND_JOB:
	case SL_KIND_CRONJOB:
		p->fam = FAM_WORKLOAD;
		p->maps[p->nm++] = sl_map_get(u->meta, "labels");
		return true;
	case SL_KIND_KNATIVE_SERVICE:
	case SL_KIND_KNATIVE_CONFIGURATION: {
		if (!o->name)
			return false;
		p->fam = FAM_KNATIVE;
		p->knative = true;
		p->maps[p->nm++] = sl_map_get(u->meta, "labels");
		add_fixed(p, "serving.knative.dev/configuration", o->name);
		if (o->kind == SL_KIND_KNATIVE_SERVICE)
			add_fixed(p, "serving.knative.dev/service", o->name);
		const char *rev = sl_scalar(sl_map_get(u->meta, "name"));
		if (rev)
			add_fixed(p, "serving.knative.dev/revision", rev);
		return true;
	}
	case SL_KIND_INFERENCE_SERVICE: {
		const char *comp;
		if (u->role == SL_ROLE_PREDICTOR)
			comp = "predictor";
		else if (u->role == SL_ROLE_TRANSFORMER)
			comp = "transformer";
		else if (u->role == SL_ROLE_EXPLAINER)
			comp = "explainer";
		else
			return false;
		if (!o->name || o->mode == SL_MODE_MODELMESH)
			return false;
		p->fam = FAM_KSERVE;
		p->predictor = u->role == SL_ROLE_PREDICTOR;
		p->maps[p->nm++] = o->labels;
		p->maps[p->nm++] = sl_map_get(u->component, "labels");
		add_fixed(p, "serving.kserve.io/inferenceservice", o->name);
		add_fixed(p, "component", comp);
		const char *pname = p->predictor ? sl_scalar(sl_map_get(u->component, "name")) : NULL;
		const char *svc = pname && *pname ? sl_arena_printf(a, "%s-%s-%s", o->name, pname, comp)
						  : sl_arena_printf(a, "%s-%s", o->name, comp);
		if (!svc)
			return false;
		if (o->mode == SL_MODE_STANDARD) {
			add_fixed(p, "app", sl_arena_printf(a, "isvc.%s", svc));
		} else {
			p->knative = true;
			add_fixed(p, "serving.knative.dev/service", svc);
			add_fixed(p, "serving.knative.dev/configuration", svc);
		}
		return true;
	}
	case SL_KIND_SELDON_SERVER: {
		/* Seldon's operator: the Server's and its ServerConfig's metadata labels (the latter
		** win), seldon-server-name: <Server> and app.kubernetes.io/name: seldon-server
		** (seldon-core operator/controllers/reconcilers/server/statefulset_reconciler.go) */
		if (!o->name)
			return false;
		p->fam = FAM_SELDON;
		p->maps[p->nm++] = o->labels;
		sl_merged m = sl_ctx_merged(ctx, u);
		if (m.base)
			p->maps[p->nm++] = m.base->obj->labels;
		add_fixed(p, "seldon-server-name", o->name);
		add_fixed(p, "app.kubernetes.io/name", "seldon-server");
		return true;
	}
	default:
		/* a workload kind whose controller keeps the template's labels and adds its own
		** (Ray, LeaderWorkerSet, JobSet, Kubeflow, Spark, Volcano: sl_kind_pod_label_prefixes) */
		if (!(p->added = sl_kind_pod_label_prefixes(o->kind)))
			return false;
		p->fam = FAM_CONTROLLER;
		p->maps[p->nm++] = sl_map_get(u->meta, "labels");
		return true;
	}
}

/* The labels the pods are known to get, "k=v, k=v" (controller labels and the first user ones),
** for the note (arena). */
static const char *pod_labels_text(sl_ctx *ctx, const struct podlabels *p)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const char *s = "";
	size_t n = 0;
	for (size_t i = 0; i < p->nf && s; i++, n++)
		s = p->fv[i] ? sl_arena_printf(a, "%s%s%s=%s", s, n ? ", " : "", p->fk[i], p->fv[i]) : s;
	for (size_t m = 0; m < p->nm && s; m++)
		for (size_t i = 0; i < sl_map_n(p->maps[m]) && n < 8 && s; i++, n++) {
			const sl_pair *pr = sl_map_pair(p->maps[m], i);
			s = sl_arena_printf(a, "%s%s%s=%s", s, n ? ", " : "", sl_scalar(pr->key) ? sl_scalar(pr->key) : "?",
					    sl_scalar(pr->value) ? sl_scalar(pr->value) : "?");
		}
	return s && *s ? s : "the pod template's labels";
}

/* "a, b, c" from a values sequence (arena). */
static const char *join_values(sl_arena *a, const sl_node *values)
{
	const char *s = "";
	for (size_t i = 0; i < sl_seq_n(values); i++) {
		const char *v = sl_scalar(sl_seq_item(values, i));
		s = sl_arena_printf(a, "%s%s%s", s, i ? ", " : "", v ? v : "?");
		if (!s)
			return "";
	}
	return s;
}

/* What a finding names is formatted only when there is one: most selectors select their pods. */
struct where {
	enum { SPREAD, REQUIRED, PREFERRED } what;   /* "topologySpreadConstraints[i]" ... */
	size_t what_i;
	const char *consequence;
	const struct podlabels *p; /* the labels the pods get, for the note */
	/* anti-affinity terms are not reported one by one: their reasons are collected here */
	bool collect;
	size_t n_why;              /* the reasons the term excludes the unit's pods */
	const char *whys;          /* "what: why; ..." of every term (arena), for the note */
};

static const char *what_of(sl_ctx *ctx, const struct where *w)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const char *s = w->what == SPREAD ? sl_arena_printf(a, "topologySpreadConstraints[%zu]", w->what_i)
		: w->what == REQUIRED ? sl_arena_printf(a, "required podAntiAffinity[%zu]", w->what_i)
		: sl_arena_printf(a, "preferred podAntiAffinity[%zu]", w->what_i);
	return s ? s : "the term";
}

/* One reason selector entry `at` excludes the unit's pods: a finding for a spread constraint,
** a reason of the term for an anti-affinity. */
static void excludes(sl_ctx *ctx, const sl_unit *u, struct where *w, const sl_node *at,
		     const char *why)
{
	if (w->collect) {
		w->n_why++;
		w->whys = sl_arena_printf(sl_ctx_arena(ctx), "%s%s%s: %s", w->whys ? w->whys : "",
					  w->whys ? "; " : "", what_of(ctx, w), why ? why : "");
		return;
	}
	/* "k=v; the pods get k=w": the entry on the first line, what the pods get in a note */
	const char *semi = why ? strstr(why, "; ") : NULL;
	sl_report *r = sl_report_at(ctx, at, "%s: %s selects other pods, not its own (%.*s)",
				    sl_ctx_label(ctx, u), what_of(ctx, w),
				    semi ? (int)(semi - why) : (int)strlen(why ? why : ""), why ? why : "");
	if (semi && strncmp(semi, "; the ", 6) == 0)
		sl_report_note(ctx, r, "The %s.", semi + 6);
	sl_report_note(ctx, r, "%s.", w->consequence);
	sl_report_note(ctx, r, "Select labels the pods really get: %s.", pod_labels_text(ctx, w->p));
}

static void check_selector(sl_ctx *ctx, const sl_unit *u, const struct podlabels *p,
			   const sl_node *sel, struct where *w)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *ml = sl_map_get(sel, "matchLabels");
	for (size_t i = 0; i < sl_map_n(ml); i++) {
		const sl_pair *pr = sl_map_pair(ml, i);
		const char *k = sl_scalar(pr->key);
		const char *want = sl_scalar(pr->value);
		const char *have = NULL;
		if (!k || !want)
			continue;
		look l = lookup(p, k, &have);
		if (l == LOOK_ABSENT)
			excludes(ctx, u, w, pr->key,
				 sl_arena_printf(a, "%s=%s; the pods carry no %s", k, want, k));
		else if (l == LOOK_KNOWN && strcmp(have, want) != 0)
			excludes(ctx, u, w, pr->key,
				 sl_arena_printf(a, "%s=%s; the pods get %s=%s", k, want, k, have));
	}
	const sl_node *me = sl_map_get(sel, "matchExpressions");
	for (size_t i = 0; i < sl_seq_n(me); i++) {
		const sl_node *e = sl_seq_item(me, i);
		const char *k = sl_scalar(sl_map_get(e, "key"));
		const char *op = sl_scalar(sl_map_get(e, "operator"));
		const sl_node *vals = sl_map_get(e, "values");
		const char *have = NULL;
		if (!k || !op)
			continue;
		bool seq = vals && sl_node_deref(vals)->type == SL_NODE_SEQ;
		if ((strcmp(op, "In") == 0 || strcmp(op, "NotIn") == 0) && !seq)
			continue;   /* an invalid selector: the API server rejects it */
		look l = lookup(p, k, &have);
		const char *why = NULL;
		if (strcmp(op, "In") == 0) {
			if (l == LOOK_ABSENT)
				why = sl_arena_printf(a, "%s In (%s); the pods carry no %s", k,
						      join_values(a, vals), k);
			else if (l == LOOK_KNOWN && !sl_seq_has(vals, have))
				why = sl_arena_printf(a, "%s In (%s); the pods get %s=%s", k,
						      join_values(a, vals), k, have);
		} else if (strcmp(op, "NotIn") == 0) {
			if (l == LOOK_KNOWN && sl_seq_has(vals, have))
				why = sl_arena_printf(a, "%s NotIn (%s); the pods get %s=%s", k,
						      join_values(a, vals), k, have);
		} else if (strcmp(op, "Exists") == 0) {
			if (l == LOOK_ABSENT)
				why = sl_arena_printf(a, "%s Exists; the pods carry no %s", k, k);
		} else if (strcmp(op, "DoesNotExist") == 0) {
			if (l == LOOK_KNOWN)
				why = sl_arena_printf(a, "%s DoesNotExist; the pods get %s=%s", k, k,
						      have);
		}
		if (why)
			excludes(ctx, u, w, e, why);
	}
}

/* A podAntiAffinity term whose `namespaces` list (without a namespaceSelector) leaves out the
** unit's own namespace never selects the unit's pods. */
static void check_namespaces(sl_ctx *ctx, const sl_unit *u, const sl_node *term, struct where *w)
{
	const sl_node *ns = sl_map_get(term, "namespaces");
	const char *own = u->obj->namespace_;
	if (!own || sl_seq_n(ns) == 0 || sl_map_get(term, "namespaceSelector") || sl_seq_has(ns, own))
		return;
	excludes(ctx, u, w, ns, sl_arena_printf(sl_ctx_arena(ctx), "it counts only namespaces %s, "
						"not the unit's own (%s)",
						join_values(sl_ctx_arena(ctx), ns), own));
}

/* The podAntiAffinity terms: reported, once, when none selects the unit's own pods. */
static void check_anti_affinity(sl_ctx *ctx, const sl_unit *u, const struct podlabels *p)
{
	const sl_node *paa = sl_map_get(u->affinity, "podAntiAffinity");
	const sl_node *req = sl_map_get(paa, "requiredDuringSchedulingIgnoredDuringExecution");
	const sl_node *pref = sl_map_get(paa, "preferredDuringSchedulingIgnoredDuringExecution");
	size_t n_req = sl_seq_n(req), n = n_req + sl_seq_n(pref);
	const sl_object *scaler;
	const sl_node *count_at;
	long long replicas = n ? sl_index_unit_replicas(sl_ctx_index(ctx), u, &scaler, &count_at) : 0;
	if (n == 0 || replicas < 2)
		return;
	struct where w = {.p = p, .collect = true};
	for (size_t i = 0; i < n; i++) {
		size_t before = w.n_why;
		const sl_node *term = i < n_req ? sl_seq_item(req, i)
						: sl_map_get(sl_seq_item(pref, i - n_req), "podAffinityTerm");
		w.what = i < n_req ? REQUIRED : PREFERRED;
		w.what_i = i < n_req ? i : i - n_req;
		check_selector(ctx, u, p, sl_map_get(term, "labelSelector"), &w);
		check_namespaces(ctx, u, term, &w);
		if (w.n_why == before)
			return;   /* this term keeps the replicas apart: the others are design */
	}
	sl_report *r = sl_report_key(ctx, paa, "%s: no podAntiAffinity term selects its own pods, so "
				     "its %lld replicas are not kept apart", sl_ctx_label(ctx, u),
				     replicas);
	sl_report_cap(r, SL_SEV_WARNING);   /* nothing is wrong with the terms themselves */
	sl_report_note(ctx, r, "%s.", w.whys);
	sl_report_note(ctx, r, "The anti-affinity repels other pods only. Terms aimed at other "
		       "workloads are fine; to keep these replicas apart, add a term that selects "
		       "labels the pods really get: %s.", pod_labels_text(ctx, p));
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	struct podlabels p;
	const sl_node *paa = sl_map_get(u->affinity, "podAntiAffinity");
	if (sl_seq_n(u->topology_spread) == 0 && !paa)
		return SL_OK;
	if (!pod_labels(ctx, u, &p))
		return SL_OK;
	for (size_t i = 0; i < sl_seq_n(u->topology_spread); i++) {
		struct where w = {SPREAD, i,
				  "The constraint counts other pods and does not spread this unit's "
				  "replicas", &p, false, 0, NULL};
		check_selector(ctx, u, &p, sl_map_get(sl_seq_item(u->topology_spread, i),
						      "labelSelector"), &w);
	}
	check_anti_affinity(ctx, u, &p);
	return SL_OK;
}

SL_RULE(spread_selector_mismatch, .id = "spread-selector-mismatch", .category = "spread",
	.summary = "A spread constraint, or every anti-affinity term, selects none of the unit's own pods",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_unit = check);
