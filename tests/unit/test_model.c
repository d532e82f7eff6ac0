/* SPDX-License-Identifier: Apache-2.0
** test_model.c: typed objects and placement units (src/model/): kind dispatch, metadata, the
** units of every modelled kind (KServe components, runtimes, graph routers, LLM templates,
** Knative templates, workloads, Seldon servers), run modes and replica defaults, and the
** schema-type reports for fields of the wrong YAML type (which then come back NULL).
** Runs from the project root; config fixtures are in testdata/unit. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/values.h"
#include "model/model.h"
#include "sched/index.h"
#include "sched/merge.h"
#include <unistd.h>

/* --- harness ------------------------------------------------------------------------------ */

struct report {
	char rule[32];
	const sl_node *at;
	char msg[512];
	int quote_fix;
};

typedef struct bound {
	sl_source *src;
	sl_arena *a;
	sl_tree t;
	sl_model_ctx mc;
	sl_object *obj;
	struct report r[32];
	size_t n_r;
	size_t n_tree_issues;
} bound;

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start,
			  size_t end, const char *message)
{
	(void)rule; (void)doc; (void)start; (void)end;
	bound *b = payload;
	b->n_tree_issues++;
	cr_log_error("unexpected tree issue: %s", message);
}

static void on_report(void *payload, const char *rule, const sl_node *at, const char *message,
		      int quote_fix)
{
	bound *b = payload;
	if (b->n_r == sizeof b->r / sizeof b->r[0])
		return;
	struct report *r = &b->r[b->n_r++];
	snprintf(r->rule, sizeof r->rule, "%s", rule);
	snprintf(r->msg, sizeof r->msg, "%s", message);
	r->at = at;
	r->quote_fix = quote_fix;
}

static sl_config *default_cfg(void)
{
	static sl_config *cfg;
	if (!cfg)
		cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	return cfg;
}

/* Parses one YAML document and binds it with cfg (NULL: no configuration at all). */
static bound *bind_cfg(const char *yaml, const sl_config *cfg)
{
	bound *b = calloc(1, sizeof *b);
	cr_assert_not_null(b);
	cr_assert_eq(sl_source_from_buffer("m.yaml", yaml, strlen(yaml), &b->src), SL_OK);
	b->a = sl_arena_new();
	cr_assert_eq(sl_tree_parse(b->src, b->a, &b->t, on_tree_issue, b), SL_OK);
	cr_assert_eq(b->n_tree_issues, 0, "the fixture must be valid YAML");
	cr_assert_eq(b->t.n_docs, 1);
	b->mc = (sl_model_ctx){.arena = b->a, .default_mode = sl_config_kserve_default_mode(cfg),
			       .path = "m.yaml", .issue = on_report,
			       .payload = b};
	cr_assert_eq(sl_object_bind(&b->mc, b->t.docs[0], &b->obj), SL_OK);
	for (size_t i = 0; i < b->n_r; i++)
		cr_log_info("report %zu: %s%s", i, b->r[i].msg, b->r[i].quote_fix ? " [quote fix]" : "");
	return b;
}

static bound *bind(const char *yaml)
{
	return bind_cfg(yaml, default_cfg());
}

static void done(bound *b)
{
	sl_arena_free(b->a);
	sl_source_free(b->src);
	free(b);
}

static void expect_no_reports(const bound *b)
{
	cr_expect_eq(b->n_r, 0, "%zu unexpected schema-type report(s), first: %s", b->n_r,
		     b->n_r ? b->r[0].msg : "");
}

/* The only report; its node's text is at_text and its message is exactly msg. */
static const struct report *expect_report(const bound *b, const char *at_text, const char *msg,
					  int quote_fix)
{
	cr_assert_eq(b->n_r, 1, "want one report, got %zu (first: %s)", b->n_r,
		     b->n_r ? b->r[0].msg : "");
	const struct report *r = &b->r[0];
	cr_expect_str_eq(r->rule, "schema-type");
	cr_expect_str_eq(r->msg, msg);
	cr_expect_eq(r->quote_fix, quote_fix, "quote_fix is %d for \"%s\"", r->quote_fix, r->msg);
	cr_assert_not_null(r->at);
	size_t len = r->at->end - r->at->start;
	cr_expect(len == strlen(at_text) && memcmp(b->src->data + r->at->start, at_text, len) == 0,
		  "reported at \"%.*s\", want \"%s\"", (int)len, b->src->data + r->at->start, at_text);
	return r;
}

/* The reports' messages are exactly want[0..n), in order. */
static void expect_reports(const bound *b, const char *const *want, size_t n)
{
	cr_assert_eq(b->n_r, n, "%zu reports, want %zu (first: %s)", b->n_r, n,
		     b->n_r ? b->r[0].msg : "");
	for (size_t i = 0; i < n; i++)
		cr_expect_str_eq(b->r[i].msg, want[i], "report %zu", i);
}

static const sl_object *obj(const bound *b)
{
	cr_assert_not_null(b->obj, "the document was not bound to an object");
	return b->obj;
}

static const sl_unit *unit(const bound *b, size_t i)
{
	const sl_object *o = obj(b);
	cr_assert_lt(i, o->n_units, "unit %zu of %zu", i, o->n_units);
	cr_assert_eq(o->units[i].obj, o);
	return &o->units[i];
}

static void expect_unit_names(const bound *b, const char *const *names, size_t n)
{
	const sl_object *o = obj(b);
	cr_assert_eq(o->n_units, n, "%zu units, want %zu", o->n_units, n);
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			cr_expect_null(o->units[i].name, "unit %zu is unnamed", i);
		else if (!o->units[i].name)
			cr_expect_fail("unit %zu is unnamed, want \"%s\"", i, names[i]);
		else
			cr_expect_str_eq(o->units[i].name, names[i], "unit %zu", i);
	}
}

#define UNITS(b, ...) do { \
	static const char *const n_[] = { __VA_ARGS__ }; \
	expect_unit_names((b), n_, sizeof n_ / sizeof n_[0]); \
} while (0)

/* The one main (non-init) container of u. */
static const sl_container *main_container(const sl_unit *u)
{
	const sl_container *m = NULL;
	for (size_t i = 0; i < u->n_containers; i++) {
		if (!u->containers[i].main)
			continue;
		cr_assert_null(m, "two main containers in %s", u->name ? u->name : "unit");
		m = &u->containers[i];
	}
	cr_assert_not_null(m, "no main container");
	cr_expect_not(m->init);
	return m;
}

static const char *text_of(const bound *b, const sl_node *n)
{
	static char buf[256];
	if (!n)
		return "(null)";
	snprintf(buf, sizeof buf, "%.*s", (int)(n->end - n->start), b->src->data + n->start);
	return buf;
}

static const sl_node *item_of(const sl_node *seq, size_t i)
{
	cr_assert_not_null(seq);
	cr_assert_eq(seq->type, SL_NODE_SEQ);
	cr_assert_lt(i, seq->u.seq.n);
	return seq->u.seq.items[i];
}

#define ISVC_HEAD "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"

/* --- kinds and metadata ----------------------------------------------------------------- */

struct kcase { const char *api, *kind; sl_kind want; };

Test(model_kind, dispatch_by_group_and_kind)
{
	static const struct kcase cases[] = {
		{"serving.kserve.io/v1beta1", "InferenceService", SL_KIND_INFERENCE_SERVICE},
		{"serving.kserve.io/v1alpha1", "ServingRuntime", SL_KIND_SERVING_RUNTIME},
		{"serving.kserve.io/v1alpha1", "ClusterServingRuntime", SL_KIND_CLUSTER_SERVING_RUNTIME},
		{"serving.kserve.io/v1alpha1", "InferenceGraph", SL_KIND_INFERENCE_GRAPH},
		{"serving.kserve.io/v1alpha1", "LLMInferenceService", SL_KIND_LLM_INFERENCE_SERVICE},
		{"serving.knative.dev/v1", "Service", SL_KIND_KNATIVE_SERVICE},
		{"serving.knative.dev/v1", "Configuration", SL_KIND_KNATIVE_CONFIGURATION},
		{"v1", "Pod", SL_KIND_POD},
		{"v1", "ConfigMap", SL_KIND_CONFIGMAP},
		{"apps/v1", "Deployment", SL_KIND_DEPLOYMENT},
		{"apps/v1", "StatefulSet", SL_KIND_STATEFULSET},
		{"apps/v1", "DaemonSet", SL_KIND_DAEMONSET},
		{"batch/v1", "Job", SL_KIND_JOB},
		{"batch/v1", "CronJob", SL_KIND_CRONJOB},
		{"scheduling.k8s.io/v1", "PriorityClass", SL_KIND_PRIORITY_CLASS},
		{"mlops.seldon.io/v1alpha1", "Server", SL_KIND_SELDON_SERVER},
		{"mlops.seldon.io/v1alpha1", "ServerConfig", SL_KIND_SELDON_SERVER_CONFIG},
		{"mlops.seldon.io/v1alpha1", "Model", SL_KIND_SELDON_MODEL},
		/* Unknown: another group's kind of the same name, or an unmodelled kind. */
		{"v1", "Service", SL_KIND_UNKNOWN},
		{"apps/v1", "Pod", SL_KIND_UNKNOWN},
		{"extensions/v1beta1", "Deployment", SL_KIND_UNKNOWN},
		{"serving.kserve.io/v1beta1", "Service", SL_KIND_UNKNOWN},
		{"serving.kserve.io.evil/v1", "InferenceService", SL_KIND_UNKNOWN},
		{"apps/v1", "deployment", SL_KIND_UNKNOWN},
		{"machinelearning.seldon.io/v1", "SeldonDeployment", SL_KIND_UNKNOWN},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char yaml[256];
		snprintf(yaml, sizeof yaml, "apiVersion: %s\nkind: %s\nmetadata: {name: x}\n",
			 cases[i].api, cases[i].kind);
		bound *b = bind(yaml);
		if (cases[i].want == SL_KIND_UNKNOWN) {
			cr_expect_null(b->obj, "%s %s should not be modelled", cases[i].api,
				       cases[i].kind);
		} else if (!b->obj) {
			cr_expect_fail("%s %s was not bound", cases[i].api, cases[i].kind);
		} else {
			cr_expect_eq(b->obj->kind, cases[i].want, "%s %s", cases[i].api, cases[i].kind);
			cr_expect_str_eq(b->obj->api_version, cases[i].api);
			cr_expect_str_eq(b->obj->kind_name, cases[i].kind);
			cr_expect_str_eq(b->obj->name, "x");
			cr_expect_str_eq(b->obj->path, "m.yaml");
			cr_expect_eq(b->obj->doc, b->t.docs[0]);
		}
		done(b);
	}
}

Test(model_kind, not_objects)
{
	static const char *const docs[] = {
		"kind: Pod\nmetadata: {name: x}\n",             /* no apiVersion */
		"apiVersion: v1\nmetadata: {name: x}\n",        /* no kind */
		"apiVersion: v1\nkind: [Pod]\n",                /* kind not a scalar */
		"apiVersion: {v: 1}\nkind: Pod\n",
		"- apiVersion: v1\n  kind: Pod\n",              /* a sequence root */
		"just a string\n",
	};
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		bound *b = bind(docs[i]);
		cr_expect_null(b->obj, "document %zu bound", i);
		done(b);
	}
}

Test(model_kind, metadata)
{
	bound *b = bind("apiVersion: v1\nkind: Pod\n"
			"metadata:\n"
			"  name: web-0\n"
			"  namespace: serving\n"
			"  labels: {app: web}\n"
			"  annotations: {a: b}\n"
			"spec: {}\n");
	expect_no_reports(b);
	const sl_object *o = obj(b);
	cr_expect_str_eq(o->name, "web-0");
	cr_expect_str_eq(o->namespace_, "serving");
	cr_expect_str_eq(sl_scalar(sl_map_get(o->labels, "app")), "web");
	cr_expect_str_eq(sl_scalar(sl_map_get(o->annotations, "a")), "b");
	cr_expect_eq(o->root, b->t.docs[0]->root);
	cr_expect_eq(o->spec, sl_map_get(o->root, "spec"));
	cr_expect_str_eq(sl_object_label(o, b->a), "Pod web-0");
	cr_expect_str_eq(sl_object_unit_label(unit(b, 0), b->a), "Pod web-0");
	done(b);

	b = bind("apiVersion: v1\nkind: Pod\nspec: {}\n");
	cr_expect_null(obj(b)->name);
	cr_expect_null(obj(b)->namespace_);
	cr_expect_null(obj(b)->metadata);
	cr_expect_str_eq(sl_object_label(obj(b), b->a), "Pod (unnamed)");
	done(b);
}

/* sl_model_find answers what sl_map_get answers, key by key: a key of the mapping over a merged
** one ("<<"), merged keys, keys of one length, a key with an inner NUL, absent
** keys, a key the table names twice. */
static void ignore_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
			 const char *message)
{
	(void)payload; (void)doc; (void)start; (void)end;
	cr_log_info("%s: %s", rule, message);
}

/* yaml parsed, not bound (the tree's issues ignored) */
static bound *parse_only(const char *yaml)
{
	bound *b = calloc(1, sizeof *b);
	cr_assert_eq(sl_source_from_buffer("m.yaml", yaml, strlen(yaml), &b->src), SL_OK);
	b->a = sl_arena_new();
	cr_assert_eq(sl_tree_parse(b->src, b->a, &b->t, ignore_issue, NULL), SL_OK);
	cr_assert_eq(b->t.n_docs, 1);
	return b;
}

Test(model_bind, find_is_map_get)
{
	static const char yaml[] = "base: &b {nodeName: n0, tolerations: []}\n"
				   "data:\n"
				   "  <<: *b\n"
				   "  affinity: 1\n"
				   "  \"nodeSelector\\0x\": 3\n"
				   "  4: 4\n"
				   "  nodeName: n1\n"
				   "  resources: {}\n";
	bound *b = parse_only(yaml);
	const sl_node *data = sl_map_get(b->t.docs[0]->root, "data");
	static const sl_model_fspec spec[] = {
		SL_FIELD("affinity", SL_T_ANY), SL_FIELD("nodeSelector", SL_T_ANY),
		SL_FIELD("nodeName", SL_T_ANY), SL_FIELD("tolerations", SL_T_ANY),
		SL_FIELD("resources", SL_T_ANY), SL_FIELD("priority", SL_T_ANY),
		SL_FIELD("nodeName", SL_T_ANY),
	};
	const size_t n = sizeof spec / sizeof spec[0];
	const sl_node *got[sizeof spec / sizeof spec[0]];
	for (size_t k = 1; k <= 4; k++) {   /* a few keys: compared with each entry */
		sl_model_find(data, spec, k, got);
		for (size_t i = 0; i < k; i++)
			cr_expect_eq(got[i], sl_map_get(data, spec[i].key), "%zu: %s", k, spec[i].key);
	}
	sl_model_find(data, spec, n, got);   /* more: by length */
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(got[i], sl_map_get(data, spec[i].key), "%s", spec[i].key);
	cr_expect_str_eq(sl_scalar(got[0]), "1");
	cr_expect_str_eq(sl_scalar(got[2]), "n1", "a key of the mapping over a merged one");
	cr_expect_not_null(got[3], "a merged key");
	cr_expect_null(got[1], "nodeSelector\\0x is not nodeSelector");
	cr_expect_null(got[5]);
	sl_model_find(NULL, spec, n, got);
	for (size_t i = 0; i < n; i++)
		cr_expect_null(got[i]);
	done(b);
}

/* sl_model_null_or_bool is sl_scalar_type's answer, number-like scalars told without parsing
** them: tags, quotes, signs, YAML 1.1 words, numbers, quantities. */
Test(model_bind, null_or_bool_is_the_scalar_type)
{
	static const char yaml[] =
		"- ''\n- ~\n- null\n- NULL\n- true\n- yes\n- 'yes'\n- \"on\"\n- n\n- 1\n- -1\n"
		"- +.inf\n- .nan\n- .5\n- 0x1F\n- 1Gi\n- 500m\n- -\n- +\n- !!bool 1\n- !!null 5\n"
		"- !!str true\n- !custom yes\n- !custom 1\n- !!int 1\n- Off\n- nvidia\n- [1]\n";
	bound *b = parse_only(yaml);
	const sl_node *seq = b->t.docs[0]->root;
	size_t yes = 0;
	for (size_t i = 0; i < sl_seq_n(seq); i++) {
		const sl_node *v = sl_seq_item(seq, i);
		sl_yaml_type t = sl_scalar_type(v);
		bool want = v->type == SL_NODE_SCALAR && (t == SL_Y_NULL || t == SL_Y_BOOL);
		cr_expect_eq(sl_model_null_or_bool(v), want, "item %zu", i);
		yes += want;
	}
	cr_expect_eq(yes, 10, "the nulls and booleans, tagged or not");
	done(b);
}

Test(model_kind, names_and_serving_kinds)
{
	cr_expect_str_eq(sl_kind_name(SL_KIND_INFERENCE_SERVICE), "InferenceService");
	cr_expect_str_eq(sl_kind_name(SL_KIND_KNATIVE_SERVICE), "Knative Service");
	cr_expect_str_eq(sl_kind_name(SL_KIND_UNKNOWN), "object");
	cr_expect(sl_kind_is_serving(SL_KIND_INFERENCE_SERVICE));
	cr_expect(sl_kind_is_serving(SL_KIND_KNATIVE_CONFIGURATION));
	cr_expect(sl_kind_is_serving(SL_KIND_SELDON_SERVER));
	cr_expect_not(sl_kind_is_serving(SL_KIND_DEPLOYMENT));
	cr_expect_not(sl_kind_is_serving(SL_KIND_SERVING_RUNTIME));
}

/* --- KServe ------------------------------------------------------------------------------ */

Test(model_kserve, isvc_every_component)
{
	bound *b = bind(ISVC_HEAD
			"metadata: {name: iris}\n"
			"spec:\n"
			"  predictor:\n"
			"    minReplicas: 2\n"
			"    nodeSelector: {gpu: \"true\"}\n"
			"    tolerations: [{key: k, operator: Exists}]\n"
			"    sklearn:\n"
			"      storageUri: gs://x\n"
			"      resources: {limits: {nvidia.com/gpu: 1}}\n"
			"    workerSpec:\n"
			"      tolerations: [{key: w, operator: Exists}]\n"
			"      containers:\n"
			"      - name: worker\n"
			"  transformer:\n"
			"    containers:\n"
			"    - name: t\n"
			"  explainer:\n"
			"    art: {type: SquareAttack}\n"
			"  canary:\n"
			"  - predictor:\n"
			"      minReplicas: 0\n"
			"      containers:\n"
			"      - name: sidecar\n"
			"      - name: kserve-container\n");
	expect_no_reports(b);
	UNITS(b, "predictor", "predictor.workerSpec", "transformer", "explainer",
	      "canary[0].predictor");
	const sl_object *o = obj(b);
	const sl_node *spec = o->spec;
	const sl_node *pred = sl_map_get(spec, "predictor");

	const sl_unit *p = unit(b, 0);
	cr_expect_eq(p->role, SL_ROLE_PREDICTOR);
	cr_expect_eq(p->pod, pred);
	cr_expect_eq(p->component, pred);
	cr_expect_eq(p->mode, SL_MODE_KNATIVE);
	cr_expect_eq(p->min_replicas, 2);
	cr_expect_str_eq(text_of(b, p->replicas), "2");
	cr_expect_str_eq(sl_scalar(sl_map_get(p->node_selector, "gpu")), "true");
	cr_expect_eq(p->tolerations, sl_map_get(pred, "tolerations"));
	cr_assert_eq(p->n_containers, 1);
	const sl_container *m = main_container(p);
	cr_expect_eq(m->node, sl_map_get(pred, "sklearn"), "the framework key is the container");
	cr_expect_null(m->name);
	cr_expect_not_null(m->limits);
	cr_expect_str_eq(sl_object_unit_label(p, b->a), "InferenceService iris, predictor");

	const sl_unit *w = unit(b, 1);
	cr_expect_eq(w->role, SL_ROLE_WORKER);
	cr_expect_eq(w->pod, sl_map_get(pred, "workerSpec"));
	cr_expect_str_eq(sl_scalar(sl_map_get(item_of(w->tolerations, 0), "key")), "w");
	cr_expect_str_eq(main_container(w)->name, "worker");

	const sl_unit *t = unit(b, 2);
	cr_expect_eq(t->role, SL_ROLE_TRANSFORMER);
	cr_expect_eq(t->min_replicas, 1, "KServe's default minReplicas");
	cr_expect_null(t->replicas);
	cr_expect_str_eq(main_container(t)->name, "t");

	const sl_unit *e = unit(b, 3);
	cr_expect_eq(e->role, SL_ROLE_EXPLAINER);
	cr_expect_eq(main_container(e)->node, sl_map_get(sl_map_get(spec, "explainer"), "art"));

	const sl_unit *c = unit(b, 4);
	cr_expect_eq(c->role, SL_ROLE_CANARY);
	cr_expect_eq(c->min_replicas, 0);
	cr_assert_eq(c->n_containers, 2);
	cr_expect_str_eq(main_container(c)->name, "kserve-container",
			 "kserve-container is main even when it is not first");
	done(b);
}

Test(model_kserve, predictor_containers)
{
	bound *b = bind(ISVC_HEAD
			"metadata: {name: c}\n"
			"spec:\n"
			"  predictor:\n"
			"    initContainers: [{name: init}]\n"
			"    containers:\n"
			"    - name: sidecar\n"
			"    - name: kserve-container\n"
			"      resources: {requests: {cpu: 500m, memory: 1Gi}}\n");
	expect_no_reports(b);
	const sl_unit *p = unit(b, 0);
	cr_assert_eq(p->n_containers, 3);
	cr_expect(p->containers[0].init);
	cr_expect_str_eq(p->containers[0].name, "init");
	cr_expect_not(p->containers[0].main);
	const sl_container *m = main_container(p);
	cr_expect_str_eq(m->name, "kserve-container");
	cr_expect_str_eq(sl_scalar(sl_map_get(m->requests, "cpu")), "500m");
	cr_expect_null(m->limits);
	done(b);

	/* Without a kserve-container the first container is main. */
	b = bind(ISVC_HEAD "spec:\n  predictor:\n    containers: [{name: a}, {name: b}]\n");
	cr_expect_str_eq(main_container(unit(b, 0))->name, "a");
	done(b);

	/* A framework key beats the containers list. */
	b = bind(ISVC_HEAD "spec:\n  predictor:\n"
		 "    containers: [{name: kserve-container}]\n"
		 "    model: {modelFormat: {name: onnx}}\n");
	const sl_unit *u = unit(b, 0);
	cr_assert_eq(u->n_containers, 2);
	cr_expect_eq(main_container(u)->node, sl_map_get(sl_map_get(obj(b)->spec, "predictor"), "model"));
	done(b);
}

Test(model_kserve, canary_workerspec_and_gaps)
{
	bound *b = bind(ISVC_HEAD
			"spec:\n"
			"  predictor: {sklearn: {}}\n"
			"  canary:\n"
			"  - {}\n"
			"  - predictor:\n"
			"      pytorch: {}\n"
			"      workerSpec: {containers: [{name: w}]}\n");
	expect_no_reports(b);
	UNITS(b, "predictor", "canary[1].predictor", "canary[1].predictor.workerSpec");
	cr_expect_eq(unit(b, 2)->role, SL_ROLE_WORKER);
	done(b);
}

static sl_mode mode_of(const char *annotation, const sl_config *cfg)
{
	char yaml[512];
	if (annotation)
		snprintf(yaml, sizeof yaml, ISVC_HEAD "metadata:\n  name: m\n  annotations:\n"
			 "    serving.kserve.io/deploymentMode: %s\nspec:\n  predictor: {sklearn: {}}\n",
			 annotation);
	else
		snprintf(yaml, sizeof yaml, ISVC_HEAD "metadata: {name: m}\n"
			 "spec:\n  predictor: {sklearn: {}}\n");
	bound *b = bind_cfg(yaml, cfg);
	const sl_object *o = obj(b);
	sl_mode m = o->mode;
	cr_expect_eq(unit(b, 0)->mode, m, "the predictor runs in the object's mode");
	if (annotation && annotation[0] != '"')
		cr_expect_str_eq(sl_scalar(o->mode_annotation), annotation);
	else if (annotation)
		cr_expect_str_eq(sl_scalar(o->mode_annotation), "");
	else
		cr_expect_null(o->mode_annotation);
	done(b);
	return m;
}

static sl_config *load_cfg(const char *path)
{
	sl_config *cfg = NULL;
	char *err = NULL;
	sl_err rc = sl_config_load(path, &cfg, &err);
	cr_assert_eq(rc, SL_OK, "%s: %s", path, err ? err : sl_strerror(rc));
	return cfg;
}

Test(model_kserve, deployment_mode)
{
	const sl_config *def = default_cfg();
	cr_expect_eq(mode_of(NULL, def), SL_MODE_KNATIVE, "KServe's default is Knative");
	cr_expect_eq(mode_of(NULL, NULL), SL_MODE_KNATIVE, "without a config too");
	cr_expect_eq(mode_of("Standard", def), SL_MODE_STANDARD);
	cr_expect_eq(mode_of("RawDeployment", def), SL_MODE_STANDARD);
	cr_expect_eq(mode_of("Knative", def), SL_MODE_KNATIVE);
	cr_expect_eq(mode_of("Serverless", def), SL_MODE_KNATIVE);
	cr_expect_eq(mode_of("ModelMesh", def), SL_MODE_MODELMESH);
	cr_expect_eq(mode_of("rawdeployment", def), SL_MODE_KNATIVE, "exact case only");
	cr_expect_eq(mode_of("Bogus", def), SL_MODE_KNATIVE);

	sl_config *std = load_cfg("testdata/unit/config_standard.yaml");
	cr_expect_eq(mode_of(NULL, std), SL_MODE_STANDARD, "the configured default");
	cr_expect_eq(mode_of("Bogus", std), SL_MODE_STANDARD, "an invalid value falls back");
	cr_expect_eq(mode_of("\"\"", std), SL_MODE_STANDARD);
	cr_expect_eq(mode_of("Serverless", std), SL_MODE_KNATIVE, "the annotation wins");
	sl_config_free(std);

	sl_config *sls = load_cfg("testdata/unit/config_serverless.yaml");
	cr_expect_eq(mode_of(NULL, sls), SL_MODE_KNATIVE);
	cr_expect_eq(mode_of("Nope", sls), SL_MODE_KNATIVE);
	cr_expect_eq(mode_of("RawDeployment", sls), SL_MODE_STANDARD);
	sl_config_free(sls);

	sl_mode m = SL_MODE_PLAIN;
	cr_expect_not(sl_kserve_mode_parse(NULL, &m));
	cr_expect_not(sl_kserve_mode_parse("standard", &m));
	cr_expect_eq(m, SL_MODE_PLAIN, "untouched on failure");
}

Test(model_kserve, serving_runtimes)
{
	static const char *const kinds[] = {"ServingRuntime", "ClusterServingRuntime"};
	for (int k = 0; k < 2; k++) {
		char yaml[1024];
		snprintf(yaml, sizeof yaml,
			 "apiVersion: serving.kserve.io/v1alpha1\nkind: %s\n"
			 "metadata: {name: rt}\n"
			 "spec:\n"
			 "  supportedModelFormats: [{name: sklearn}]\n"
			 "  nodeSelector: {pool: cpu}\n"
			 "  containers:\n"
			 "  - name: kserve-container\n"
			 "    image: x\n"
			 "  workerSpec:\n"
			 "    tolerations: [{key: gpu, operator: Exists}]\n"
			 "    containers: [{name: worker}]\n", kinds[k]);
		bound *b = bind(yaml);
		expect_no_reports(b);
		UNITS(b, NULL, "workerSpec");
		const sl_unit *r = unit(b, 0), *w = unit(b, 1);
		cr_expect_eq(r->role, SL_ROLE_RUNTIME);
		cr_expect_eq(r->mode, SL_MODE_PLAIN);
		cr_expect_eq(r->pod, obj(b)->spec);
		cr_expect_str_eq(sl_scalar(sl_map_get(r->node_selector, "pool")), "cpu");
		cr_expect_str_eq(main_container(r)->name, "kserve-container");
		cr_expect_eq(w->role, SL_ROLE_WORKER);
		cr_expect_eq(w->mode, SL_MODE_PLAIN);
		cr_expect_not_null(w->tolerations);
		cr_expect_null(w->node_selector, "the worker has its own pod spec");
		cr_expect_str_eq(main_container(w)->name, "worker");
		done(b);
	}
}

Test(model_kserve, inference_graph_router)
{
	bound *b = bind("apiVersion: serving.kserve.io/v1alpha1\nkind: InferenceGraph\n"
			"metadata: {name: g}\n"
			"spec:\n"
			"  nodes: {root: {routerType: Sequence}}\n"
			"  resources: {requests: {cpu: \"1\"}, limits: {memory: 1Gi}}\n"
			"  nodeSelector: {x: z}\n"
			"  affinity: {}\n"
			"  minReplicas: 3\n");
	expect_no_reports(b);
	UNITS(b, "router");
	const sl_unit *u = unit(b, 0);
	cr_expect_eq(u->role, SL_ROLE_ROUTER);
	cr_expect_null(u->pod_resources, "spec.resources is the router container's");
	cr_assert_eq(u->n_containers, 1);
	const sl_container *c = main_container(u);
	cr_expect_eq(c->resources, sl_map_get(obj(b)->spec, "resources"));
	cr_expect_str_eq(sl_scalar(sl_map_get(c->requests, "cpu")), "1");
	cr_expect_not_null(c->limits);
	cr_expect_not_null(u->node_selector);
	cr_expect_not_null(u->affinity);
	cr_expect_eq(u->min_replicas, 3);
	cr_expect_eq(u->mode, SL_MODE_KNATIVE);
	done(b);
}

Test(model_kserve, llm_inference_service)
{
	bound *b = bind("apiVersion: serving.kserve.io/v1alpha1\nkind: LLMInferenceService\n"
			"metadata: {name: llm}\n"
			"spec:\n"
			"  replicas: 2\n"
			"  template:\n"
			"    containers: [{name: main}]\n"
			"  worker:\n"
			"    containers: [{name: w}]\n"
			"  prefill:\n"
			"    replicas: 4\n"
			"    template: {containers: [{name: p}]}\n"
			"    worker: {containers: [{name: pw}]}\n"
			"  router:\n"
			"    scheduler:\n"
			"      template: {containers: [{name: s}], nodeSelector: {a: b}}\n");
	expect_no_reports(b);
	UNITS(b, "template", "worker", "prefill.template", "prefill.worker",
	      "router.scheduler.template");
	static const sl_role roles[] = {SL_ROLE_LLM, SL_ROLE_WORKER, SL_ROLE_LLM, SL_ROLE_WORKER,
					SL_ROLE_SCHEDULER};
	static const char *const cnames[] = {"main", "w", "p", "pw", "s"};
	for (size_t i = 0; i < 5; i++) {
		const sl_unit *u = unit(b, i);
		cr_expect_eq(u->role, roles[i], "unit %zu role", i);
		cr_expect_eq(u->mode, SL_MODE_PLAIN);
		cr_expect_str_eq(main_container(u)->name, cnames[i]);
	}
	cr_expect_eq(unit(b, 0)->min_replicas, 2);
	cr_expect_eq(unit(b, 2)->min_replicas, 4);
	cr_expect_not_null(unit(b, 4)->node_selector);
	done(b);

	b = bind("apiVersion: serving.kserve.io/v1alpha1\nkind: LLMInferenceService\n"
		 "spec:\n  template: {containers: [{name: main}]}\n");
	UNITS(b, "template");
	cr_expect_eq(unit(b, 0)->min_replicas, 1, "replicas defaults to 1");
	done(b);
}

/* --- Knative ----------------------------------------------------------------------------- */

Test(model_knative, service_and_configuration)
{
	static const char *const kinds[] = {"Service", "Configuration"};
	for (int k = 0; k < 2; k++) {
		char yaml[1024];
		snprintf(yaml, sizeof yaml,
			 "apiVersion: serving.knative.dev/v1\nkind: %s\n"
			 "metadata: {name: ks}\n"
			 "spec:\n"
			 "  template:\n"
			 "    metadata:\n"
			 "      annotations:\n"
			 "        autoscaling.knative.dev/min-scale: \"3\"\n"
			 "    spec:\n"
			 "      nodeSelector: {a: b}\n"
			 "      containers: [{image: x}]\n", kinds[k]);
		bound *b = bind(yaml);
		expect_no_reports(b);
		UNITS(b, NULL);
		const sl_unit *u = unit(b, 0);
		const sl_node *tmpl = sl_map_get(obj(b)->spec, "template");
		cr_expect_eq(obj(b)->mode, SL_MODE_KNATIVE);
		cr_expect_eq(u->mode, SL_MODE_KNATIVE);
		cr_expect_eq(u->role, SL_ROLE_POD);
		cr_expect_eq(u->pod, sl_map_get(tmpl, "spec"));
		cr_expect_eq(u->meta, sl_map_get(tmpl, "metadata"));
		cr_expect_eq(u->min_replicas, 3);
		cr_expect_str_eq(text_of(b, u->replicas), "\"3\"");
		cr_expect_not_null(u->node_selector);
		cr_assert_eq(u->n_containers, 1);
		cr_expect(u->containers[0].main);
		done(b);
	}
}

Test(model_knative, min_scale_defaults_and_legacy)
{
	bound *b = bind("apiVersion: serving.knative.dev/v1\nkind: Service\n"
			"spec:\n  template:\n    spec:\n      containers: [{image: x}]\n");
	cr_expect_eq(unit(b, 0)->min_replicas, 0, "Knative scales to zero by default");
	cr_expect_null(unit(b, 0)->replicas);
	done(b);

	b = bind("apiVersion: serving.knative.dev/v1\nkind: Service\n"
		 "spec:\n  template:\n    metadata:\n      annotations:\n"
		 "        autoscaling.knative.dev/minScale: \"2\"\n"
		 "    spec: {containers: [{image: x}]}\n");
	cr_expect_eq(unit(b, 0)->min_replicas, 2, "the legacy minScale spelling");
	done(b);

	b = bind("apiVersion: serving.knative.dev/v1\nkind: Service\n"
		 "spec:\n  template:\n    metadata:\n      annotations:\n"
		 "        autoscaling.knative.dev/min-scale: \"two\"\n"
		 "    spec: {containers: [{image: x}]}\n");
	cr_expect_eq(unit(b, 0)->min_replicas, 0, "an unparsable value keeps the default");
	cr_expect_null(unit(b, 0)->replicas);
	done(b);
}

/* --- core workloads ---------------------------------------------------------------------- */

Test(model_core, pod)
{
	bound *b = bind("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
			"spec:\n"
			"  priorityClassName: high\n"
			"  nodeName: n1\n"
			"  resources: {limits: {cpu: 2}}\n"
			"  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, "
			"whenUnsatisfiable: DoNotSchedule}]\n"
			"  containers: [{name: c}]\n");
	expect_no_reports(b);
	UNITS(b, NULL);
	const sl_unit *u = unit(b, 0);
	cr_expect_eq(u->role, SL_ROLE_POD);
	cr_expect_eq(u->mode, SL_MODE_PLAIN);
	cr_expect_eq(u->pod, obj(b)->spec);
	cr_expect_eq(u->meta, obj(b)->metadata);
	cr_expect_eq(u->min_replicas, 1);
	cr_expect_str_eq(sl_scalar(u->priority_class_name), "high");
	cr_expect_str_eq(sl_scalar(u->node_name), "n1");
	cr_expect_not_null(u->pod_resources, "a Pod's spec.resources is pod-level");
	cr_expect_not_null(u->topology_spread);
	done(b);
}

/* Containers appended one by one across several doublings of their array (unit.c): every one
** kept, in order, each with its own fields. */
Test(model_core, many_containers)
{
	char *y = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&y, &len);
	cr_assert_not_null(m);
	fputs("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers:\n", m);
	for (int i = 0; i < 3; i++)
		fprintf(m, "  - name: i%d\n", i);
	fputs("  containers:\n", m);
	for (int i = 0; i < 70; i++)
		fprintf(m, "  - name: c%d\n    resources: {limits: {cpu: %d}}\n", i, i + 1);
	fclose(m);
	bound *b = bind(y);
	expect_no_reports(b);
	const sl_unit *u = unit(b, 0);
	cr_assert_eq(u->n_containers, 73);
	for (size_t i = 0; i < 73; i++) {
		char want[16];
		snprintf(want, sizeof want, i < 3 ? "i%zu" : "c%zu", i < 3 ? i : i - 3);
		cr_expect_str_eq(u->containers[i].name, want, "container %zu", i);
		cr_expect_eq(u->containers[i].init, i < 3, "container %zu", i);
		cr_expect_eq(u->containers[i].limits != NULL, i >= 3, "container %zu", i);
	}
	cr_expect(u->containers[3].main, "the first non-init container serves");
	done(b);
	free(y);
}

/* The only unit of a workload (unnamed). */
static const sl_unit *workload_unit(bound *b)
{
	UNITS(b, NULL);
	return unit(b, 0);
}

Test(model_core, deployment_replicas)
{
	bound *b = bind("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"
			"spec:\n  template:\n    metadata: {labels: {app: d}}\n"
			"    spec: {containers: [{name: c}]}\n");
	expect_no_reports(b);
	const sl_unit *u = workload_unit(b);
	const sl_node *tmpl = sl_map_get(obj(b)->spec, "template");
	cr_expect_eq(u->pod, sl_map_get(tmpl, "spec"));
	cr_expect_eq(u->meta, sl_map_get(tmpl, "metadata"));
	cr_expect_eq(u->min_replicas, 1, "Deployment replicas default to 1");
	cr_expect_null(u->replicas);
	cr_expect_str_eq(sl_object_unit_label(u, b->a), "Deployment d");
	done(b);

	b = bind("apiVersion: apps/v1\nkind: Deployment\n"
		 "spec:\n  replicas: 0x10\n  template: {spec: {containers: [{name: c}]}}\n");
	cr_expect_eq(unit(b, 0)->min_replicas, 16);
	cr_expect_str_eq(text_of(b, unit(b, 0)->replicas), "0x10");
	done(b);

	b = bind("apiVersion: apps/v1\nkind: StatefulSet\n"
		 "spec:\n  replicas: 5\n  template: {spec: {containers: [{name: c}]}}\n");
	cr_expect_eq(obj(b)->kind, SL_KIND_STATEFULSET);
	cr_expect_eq(workload_unit(b)->min_replicas, 5);
	done(b);
}

Test(model_core, daemonset_job_cronjob)
{
	bound *b = bind("apiVersion: apps/v1\nkind: DaemonSet\n"
			"spec:\n  template: {spec: {tolerations: [{operator: Exists}], "
			"containers: [{name: agent}]}}\n");
	expect_no_reports(b);
	const sl_unit *u = workload_unit(b);
	cr_expect_eq(u->pod, sl_map_get(sl_map_get(obj(b)->spec, "template"), "spec"));
	cr_expect_not_null(u->tolerations);
	cr_expect_str_eq(main_container(u)->name, "agent");
	done(b);

	b = bind("apiVersion: batch/v1\nkind: Job\n"
		 "spec:\n  template: {spec: {restartPolicy: Never, containers: [{name: j}]}}\n");
	expect_no_reports(b);
	cr_expect_str_eq(main_container(workload_unit(b))->name, "j");
	done(b);

	b = bind("apiVersion: batch/v1\nkind: CronJob\n"
		 "spec:\n"
		 "  schedule: \"* * * * *\"\n"
		 "  jobTemplate:\n"
		 "    spec:\n"
		 "      template:\n"
		 "        spec:\n"
		 "          nodeSelector: {pool: batch}\n"
		 "          containers: [{name: cj}]\n");
	expect_no_reports(b);
	u = workload_unit(b);
	const sl_node *js = sl_map_get(sl_map_get(obj(b)->spec, "jobTemplate"), "spec");
	cr_expect_eq(u->pod, sl_map_get(sl_map_get(js, "template"), "spec"));
	cr_expect_str_eq(sl_scalar(sl_map_get(u->node_selector, "pool")), "batch");
	cr_expect_str_eq(main_container(u)->name, "cj");
	done(b);
}

/* --- Seldon ------------------------------------------------------------------------------ */

Test(model_seldon, server_without_podspec)
{
	bound *b = bind("apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\n"
			"metadata: {name: s}\n"
			"spec:\n  serverConfig: mlserver\n  replicas: 2\n");
	expect_no_reports(b);
	UNITS(b, NULL);
	const sl_unit *u = unit(b, 0);
	cr_expect_eq(u->role, SL_ROLE_SERVER);
	cr_expect_null(u->pod);
	cr_expect_eq(u->n_containers, 0);
	cr_expect_eq(u->min_replicas, 2);
	cr_expect_str_eq(text_of(b, u->replicas), "2");
	done(b);

	b = bind("apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\nspec: {serverConfig: x}\n");
	cr_expect_eq(unit(b, 0)->min_replicas, 1, "replicas default to 1");
	cr_expect_null(unit(b, 0)->replicas);
	done(b);

	b = bind("apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\n"
		 "spec: {serverConfig: x, minReplicas: 3}\n");
	cr_expect_eq(unit(b, 0)->min_replicas, 3, "minReplicas above the default");
	done(b);
}

Test(model_seldon, server_podspec_serverconfig_and_model)
{
	bound *b = bind("apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\n"
			"spec:\n"
			"  serverConfig: triton\n"
			"  podSpec:\n"
			"    nodeSelector: {gpu: present}\n"
			"    containers: [{name: agent}]\n");
	expect_no_reports(b);
	const sl_unit *u = unit(b, 0);
	cr_expect_eq(u->pod, sl_map_get(obj(b)->spec, "podSpec"));
	cr_expect_not_null(u->node_selector);
	done(b);

	b = bind("apiVersion: mlops.seldon.io/v1alpha1\nkind: ServerConfig\n"
		 "spec:\n  podSpec:\n    containers: [{name: rclone}, {name: agent}]\n");
	expect_no_reports(b);
	UNITS(b, NULL);
	cr_expect_eq(unit(b, 0)->role, SL_ROLE_SERVER);
	cr_expect_eq(unit(b, 0)->n_containers, 2);
	done(b);

	b = bind("apiVersion: mlops.seldon.io/v1alpha1\nkind: Model\n"
		 "spec: {storageUri: gs://m, requirements: [sklearn], memory: 1Gi, replicas: 2}\n");
	expect_no_reports(b);
	cr_expect_eq(obj(b)->kind, SL_KIND_SELDON_MODEL);
	cr_expect_eq(obj(b)->n_units, 0, "a Model has no pods of its own");
	done(b);
}

/* --- schema-type ------------------------------------------------------------------------- */

#define POD_HEAD "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
/* A Pod up to its required node-affinity terms (a sequence follows). */
#define NODE_TERMS POD_HEAD "spec:\n  affinity:\n    nodeAffinity:\n" \
	"      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"

Test(model_schema, tolerations_as_a_mapping)
{
	bound *b = bind(POD_HEAD "spec:\n  tolerations: {key: gpu}\n  containers: [{name: c}]\n");
	expect_report(b, "{key: gpu}", "tolerations must be a sequence, not a mapping", 0);
	cr_expect_null(unit(b, 0)->tolerations);
	cr_expect_eq(unit(b, 0)->n_containers, 1, "the rest is still bound");
	done(b);
}

Test(model_schema, node_selector_as_a_list)
{
	bound *b = bind(POD_HEAD "spec:\n  nodeSelector:\n  - gpu\n");
	expect_report(b, "- gpu", "nodeSelector must be a mapping, not a sequence", 0);
	cr_expect_null(unit(b, 0)->node_selector);
	done(b);
}

Test(model_schema, node_selector_bool_value)
{
	bound *b = bind(POD_HEAD "spec:\n  nodeSelector: {gpu: true}\n");
	expect_report(b, "true",
		      "the value of nodeSelector \"gpu\" must be a string, not a boolean (true): quote it",
		      1);
	cr_expect_not_null(unit(b, 0)->node_selector, "the mapping itself is fine");
	done(b);
}

Test(model_schema, node_selector_values_that_cannot_be_quoted)
{
	bound *b = bind(POD_HEAD "spec:\n  nodeSelector: {zone: {a: b}}\n");
	expect_report(b, "{a: b}", "the value of nodeSelector \"zone\" must be a string, not a mapping",
		      0);
	done(b);

	/* Through an alias: quoting the alias would change another node, so no fix. */
	b = bind(POD_HEAD "x: &t 1\nspec:\n  nodeSelector: {count: *t}\n");
	cr_assert_eq(b->n_r, 1);
	cr_expect_eq(b->r[0].quote_fix, 0);
	done(b);

	b = bind(POD_HEAD "spec:\n  nodeSelector: {on: !!bool \"true\"}\n");
	cr_assert_eq(b->n_r, 1);
	cr_expect_eq(b->r[0].quote_fix, 0, "an explicit tag is not a quoting problem");
	done(b);
}

Test(model_schema, label_value_yes)
{
	bound *b = bind("apiVersion: v1\nkind: Pod\n"
			"metadata:\n  name: p\n  labels:\n    canary: yes\n    tier: \"yes\"\n"
			"spec: {}\n");
	expect_report(b, "yes",
		      "the value of labels \"canary\" must be a string, not a boolean (yes): quote it", 1);
	cr_expect_eq(b->r[0].at->start, (uint32_t)(strstr(b->src->data, "canary: yes") - b->src->data) + 8);
	cr_expect_not_null(obj(b)->labels);
	done(b);
}

Test(model_schema, replicas_quoted)
{
	bound *b = bind("apiVersion: apps/v1\nkind: Deployment\n"
			"spec:\n  replicas: \"3\"\n  template: {spec: {containers: [{name: c}]}}\n");
	expect_report(b, "\"3\"", "replicas must be an integer, not a string (\"3\")", 0);
	const sl_unit *u = unit(b, 0);
	cr_expect_null(u->replicas);
	cr_expect_eq(u->min_replicas, 1, "the default applies");
	done(b);
}

Test(model_schema, min_replicas_word)
{
	bound *b = bind(ISVC_HEAD "spec:\n  predictor:\n    minReplicas: two\n    sklearn: {}\n");
	expect_report(b, "two", "minReplicas must be an integer, not a string (two)", 0);
	cr_expect_null(unit(b, 0)->replicas);
	cr_expect_eq(unit(b, 0)->min_replicas, 1);
	done(b);
}

Test(model_schema, toleration_value_number)
{
	bound *b = bind(POD_HEAD "spec:\n  tolerations:\n  - key: gpu\n    operator: Equal\n"
			"    value: 1\n    effect: NoSchedule\n");
	expect_report(b, "1", "value must be a string, not an integer (1)", 0);
	cr_expect_not_null(unit(b, 0)->tolerations, "the list is kept");
	done(b);
}

Test(model_schema, match_expression_values)
{
	bound *b = bind(NODE_TERMS
			"        - matchExpressions:\n"
			"          - key: gpu\n"
			"            operator: In\n"
			"            values: [1]\n");
	expect_report(b, "1", "values[] must be a string, not an integer (1)", 0);
	cr_expect_not_null(unit(b, 0)->affinity);
	done(b);

	b = bind(POD_HEAD
		 "spec:\n"
		 "  affinity:\n"
		 "    podAntiAffinity:\n"
		 "      preferredDuringSchedulingIgnoredDuringExecution:\n"
		 "      - weight: \"100\"\n"
		 "        podAffinityTerm:\n"
		 "          topologyKey: zone\n"
		 "          labelSelector: {matchExpressions: [{key: app, operator: In, values: [on]}]}\n");
	cr_assert_eq(b->n_r, 2, "weight and values[0]: %zu", b->n_r);
	cr_expect_str_eq(b->r[0].msg, "weight must be an integer, not a string (\"100\")");
	cr_expect_str_eq(b->r[1].msg, "values[] must be a string, not a boolean (on)");
	done(b);
}

Test(model_schema, containers_and_quantities)
{
	bound *b = bind(POD_HEAD "spec:\n  containers:\n  - name: a\n  - just-a-string\n"
			"  - name: b\n    resources: {limits: {nvidia.com/gpu: yes, cpu: 1.5}}\n");
	cr_assert_eq(b->n_r, 2);
	cr_expect_str_eq(b->r[0].msg, "containers[1] must be a mapping, not a string (just-a-string)");
	cr_expect_str_eq(b->r[1].msg,
			 "nvidia.com/gpu must be a quantity (string or number), not a boolean (yes)");
	const sl_unit *u = unit(b, 0);
	cr_assert_eq(u->n_containers, 2, "the string item is skipped");
	cr_expect_str_eq(u->containers[1].name, "b");
	cr_expect_not_null(u->containers[1].limits);
	done(b);
}

Test(model_schema, wrong_types_come_back_null)
{
	bound *b = bind(POD_HEAD
			"spec:\n"
			"  affinity: [x]\n"
			"  topologySpreadConstraints: {maxSkew: 1}\n"
			"  priorityClassName: 7\n"
			"  nodeName: [n]\n"
			"  resources: \"2\"\n"
			"  containers:\n"
			"  - name: 5\n"
			"    resources: [cpu]\n");
	cr_expect_eq(b->n_r, 7, "%zu reports", b->n_r);
	const sl_unit *u = unit(b, 0);
	cr_expect_null(u->affinity);
	cr_expect_null(u->topology_spread);
	cr_expect_null(u->priority_class_name);
	cr_expect_null(u->node_name);
	cr_expect_null(u->pod_resources);
	cr_assert_eq(u->n_containers, 1);
	cr_expect_null(u->containers[0].name);
	cr_expect_null(u->containers[0].resources);
	cr_expect_null(u->containers[0].requests);
	done(b);
}

/* The fields typed from tables (sl_model_fields, sl_model_items): each wrong one reported, in
** the table's order, in every mapping item; an item of another type is the sequence's report. */
Test(model_schema, fields_typed_from_tables)
{
	bound *b = bind(POD_HEAD
			"spec:\n"
			"  hostPID: \"yes\"\n"
			"  serviceAccountName: 3\n"
			"  tolerations:\n"
			"  - just-a-string\n"
			"  - {key: a, tolerationSeconds: \"30\"}\n"
			"  - {effect: 1}\n"
			"  topologySpreadConstraints:\n"
			"  - {maxSkew: \"1\", topologyKey: zone, minDomains: x}\n"
			"  containers: [{name: c}]\n");
	const char *want[] = {
		"tolerations[0] must be a mapping, not a string (just-a-string)",
		"hostPID must be a boolean, not a string (\"yes\")",
		"serviceAccountName must be a string, not an integer (3)",
		"tolerationSeconds must be an integer, not a string (\"30\")",
		"effect must be a string, not an integer (1)",
		"maxSkew must be an integer, not a string (\"1\")",
		"minDomains must be an integer, not a string (x)",
	};
	expect_reports(b, want, sizeof want / sizeof want[0]);
	done(b);
	b = bind("apiVersion: v1\nkind: Node\nmetadata: {name: node1}\n"
		 "spec: {taints: [{key: k, value: 2, effect: NoSchedule}]}\n");
	expect_report(b, "2", "value must be a string, not an integer (2)", 0);
	done(b);
	b = bind("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p}\n"
		 "value: 10\nglobalDefault: \"true\"\n");
	expect_report(b, "\"true\"", "globalDefault must be a boolean, not a string (\"true\")", 0);
	done(b);
	b = bind("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: i}\n"
		 "spec:\n  predictor:\n    containerConcurrency: \"4\"\n"
		 "    sklearn: {storageUri: gs://m}\n");
	expect_report(b, "\"4\"", "containerConcurrency must be an integer, not a string (\"4\")", 0);
	done(b);
}

/* Every term of an affinity typed: required and preferred, node and pod (anti-)affinity. */
Test(model_schema, affinity_terms_typed)
{
	bound *b = bind(NODE_TERMS
			"        - matchFields: [{key: metadata.name, operator: In, values: [1]}]\n"
			"      preferredDuringSchedulingIgnoredDuringExecution:\n"
			"      - weight: \"5\"\n"
			"        preference: {matchExpressions: [{key: 2, operator: Exists}]}\n"
			"    podAffinity:\n"
			"      requiredDuringSchedulingIgnoredDuringExecution:\n"
			"      - {topologyKey: 3, labelSelector: {matchLabels: {app: true}}}\n"
			"    podAntiAffinity:\n"
			"      preferredDuringSchedulingIgnoredDuringExecution:\n"
			"      - weight: 1\n"
			"        podAffinityTerm: {topologyKey: zone, labelSelector: {matchExpressions:"
			" [{key: a, operator: 4}]}}\n"
			"  containers: [{name: c}]\n");
	const char *want[] = {
		"values[] must be a string, not an integer (1)",
		"weight must be an integer, not a string (\"5\")",
		"key must be a string, not an integer (2)",
		"topologyKey must be a string, not an integer (3)",
		"the value of matchLabels \"app\" must be a string, not a boolean (true): quote it",
		"operator must be a string, not an integer (4)",
	};
	expect_reports(b, want, sizeof want / sizeof want[0]);
	done(b);
}

Test(model_schema, nulls_are_absent_not_wrong)
{
	bound *b = bind(POD_HEAD
			"spec:\n"
			"  nodeSelector: ~\n"
			"  tolerations:\n"
			"  affinity: null\n"
			"  containers: [{name: c, resources: {limits: ~}}]\n");
	expect_no_reports(b);
	const sl_unit *u = unit(b, 0);
	cr_expect_null(u->node_selector);
	cr_expect_null(u->tolerations);
	cr_expect_null(u->affinity);
	done(b);
}

Test(model_schema, metadata_and_spec_of_the_wrong_type)
{
	bound *b = bind("apiVersion: v1\nkind: Pod\nmetadata: [x]\nspec: {}\n");
	expect_report(b, "[x]", "metadata must be a mapping, not a sequence", 0);
	cr_expect_null(obj(b)->metadata);
	cr_expect_null(obj(b)->name);
	done(b);

	b = bind("apiVersion: v1\nkind: Pod\nmetadata: {name: 42}\nspec: {}\n");
	expect_report(b, "42", "name must be a string, not an integer (42)", 0);
	cr_expect_null(obj(b)->name);
	done(b);

	b = bind(ISVC_HEAD "metadata: {name: x}\nspec: nope\n");
	expect_report(b, "nope", "spec must be a mapping, not a string (nope)", 0);
	cr_expect_null(obj(b)->spec);
	cr_expect_eq(obj(b)->n_units, 0);
	done(b);
}

/* --- what a streaming run need not parse in pass 1 (sl_index_may_define) --- */

Test(index, may_define_finds_the_kinds_by_name)
{
	static const struct { const char *text; bool may; } cases[] = {
		{"kind: PriorityClass\n", true},
		{"kind: \"ClusterServingRuntime\"\n", true},
		{"kind: Server", true},
		{"{kind: Server, apiVersion: mlops.seldon.io/v1alpha1}", true},
		{"kind: ServerConfig # seldon\n", true},
		{"kind: ConfigMap\nmetadata: {name: config-features}\n", true},
		{"kind: ConfigMap\nmetadata: {name: other}\n", false},
		{"metadata: {name: config-features}\n", false},   /* no ConfigMap */
		{"kind: |-\n  Server\n", true},
		{"kind: xServer\n", false},
		{"kind: KnativeServing\n", true},
		{"kind: LLMInferenceServiceConfig\n", true},
		{"kind: \"Se\\x72ver\"\n", true},   /* an escape could spell anything */
		{"serving.kserve.io/deploymentMode: Serverless\n", false},
		{"priorityClassName: high\nkind: InferenceService\n", false},
		{"image: tritonserver:24.01\nkind: Deployment\n", false},
		{"kind: PriorityClasses\n", false},
		{"", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		cr_expect_eq(sl_index_may_define(sl_kinds_named_in(cases[i].text, strlen(cases[i].text)),
						 cases[i].text, strlen(cases[i].text)), cases[i].may,
			     "%s", cases[i].text);
}

static size_t n_checked, n_skippable;

/* Every object of a file binds to a kind whose name sl_kinds_named_in found, and a file that
** sl_index_may_define rules out binds to nothing the index wants. */
static int check_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	size_t n = strlen(path);
	if (type != FTW_F || !((n > 5 && strcmp(path + n - 5, ".yaml") == 0) ||
			       (n > 4 && strcmp(path + n - 4, ".yml") == 0)))
		return 0;
	sl_source *src = NULL;
	if (sl_source_read_file(path, path, &src) != SL_OK)
		return 0;
	n_checked++;
	uint64_t kinds = sl_kinds_named_in(src->data, src->len);
	bool may = sl_index_may_define(kinds, src->data, src->len);
	n_skippable += !may;
	sl_arena *a = sl_arena_new();
	sl_tree t;
	cr_assert_eq(sl_tree_parse(src, a, &t, NULL, NULL), SL_OK);
	sl_model_ctx mc = {.arena = a, .path = path,
			   .default_mode = sl_config_kserve_default_mode(default_cfg())};
	for (size_t i = 0; i < t.n_docs; i++) {
		sl_object *o = NULL;
		cr_assert_eq(sl_object_bind(&mc, t.docs[i], &o), SL_OK);
		if (!o)
			continue;
		cr_expect(kinds & ((uint64_t)1 << o->kind), "%s: document %zu is a %s, not named",
			  path, i, o->kind_name);
		cr_expect(may || !sl_index_wants(o), "%s: document %zu is a %s the index wants",
			  path, i, o->kind_name);
	}
	sl_arena_free(a);
	sl_source_free(src);
	return 0;
}

Test(index, may_define_never_skips_a_file_the_index_wants)
{
	const char *dirs[] = {"testdata", "../shared/corpus"};
	for (size_t i = 0; i < 2; i++)
		if (access(dirs[i], F_OK) == 0)
			cr_assert_eq(nftw(dirs[i], check_file, 16, FTW_PHYS), 0);
		else   /* stderr: meson's log keeps it */
			fprintf(stderr, "[NOTE] %s is absent (a clone without the team's ../shared): "
				"checked on the fixtures only\n", dirs[i]);
	cr_log_info("%zu of %zu files need no parse in pass 1", n_skippable, n_checked);
	cr_expect_gt(n_skippable, n_checked / 4, "the filter should skip most files");
	cr_expect_lt(n_skippable, n_checked, "some files define looked-up kinds");
}

Test(index, find_all_gives_every_object_so_named_in_order)
{
	sl_index ix;
	sl_index_init(&ix, default_cfg());
	static const char *const names[] = {"a", "b", "a", "c", "a"};
	sl_object objs[5];
	memset(objs, 0, sizeof objs);
	for (size_t i = 0; i < 5; i++) {
		objs[i].kind = SL_KIND_SERVING_RUNTIME;
		objs[i].name = names[i];
		cr_assert_eq(sl_index_add(&ix, &objs[i]), SL_OK);
	}
	sl_object other = {.kind = SL_KIND_CLUSTER_SERVING_RUNTIME, .name = "a"};
	cr_assert_eq(sl_index_add(&ix, &other), SL_OK);
	cr_assert_eq(sl_index_finish(&ix), SL_OK);
	size_t n;
	const sl_object *const *as = sl_index_find_all(&ix, SL_KIND_SERVING_RUNTIME, "a", &n);
	cr_assert_eq(n, 3);
	cr_expect(as[0] == &objs[0] && as[1] == &objs[2] && as[2] == &objs[4]);
	cr_expect_eq(sl_index_find(&ix, SL_KIND_SERVING_RUNTIME, "a"), &objs[0]);
	as = sl_index_find_all(&ix, SL_KIND_CLUSTER_SERVING_RUNTIME, "a", &n);
	cr_expect(n == 1 && as[0] == &other, "kinds are kept apart");
	cr_expect_null(sl_index_find_all(&ix, SL_KIND_SERVING_RUNTIME, "z", &n));
	cr_expect_eq(n, 0);
	sl_index_free(&ix);
}

Test(index, kinds_scan_stops_once_it_knows_enough)
{
	const char *t = "kind: ServingRuntime\n---\nkind: InferenceService\n---\nkind: Deployment\n";
	uint64_t all = sl_kinds_named_in(t, strlen(t));
	uint64_t rt = (uint64_t)1 << SL_KIND_SERVING_RUNTIME, isvc = (uint64_t)1 << SL_KIND_INFERENCE_SERVICE,
		 dep = (uint64_t)1 << SL_KIND_DEPLOYMENT;
	cr_expect_eq(all, rt | isvc | dep);
	const uint64_t enough[] = {rt, isvc};
	cr_expect_eq(sl_kinds_named_in_until(t, strlen(t), enough, 2), rt | isvc,
		     "both asked for are found before the Deployment");
	const uint64_t more[] = {rt, dep};
	cr_expect_eq(sl_kinds_named_in_until(t, strlen(t), more, 2), all);
}

/* The scan looks at sixteen bytes at a time for a capital letter after a byte that is no letter
** or digit: a kind's name is found at every alignment and in every context a word-by-word scan
** finds it, and never inside a longer word. */
Test(index, kinds_scan_at_every_alignment)
{
	static const char *const names[] = {"PriorityClass", "InferenceService", "Deployment",
					    "ConfigMap", "Server", "Pod"};
	for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
		uint64_t want = sl_kinds_named_in(names[k], strlen(names[k]));
		cr_assert_neq(want, 0, "%s is a kind", names[k]);
		for (size_t pad = 0; pad < 20; pad++) {
			char t[96];
			const char *seps[][2] = {{" ", "\n"}, {":", ","}, {"x", " "}, {" ", "s"},
						 {"\xC3\xA9", " "}, {"Q", ""}};
			for (size_t s = 0; s < sizeof seps / sizeof *seps; s++) {
				memset(t, 'a', pad);
				t[pad] = '\0';
				if (pad)
					t[pad - 1] = ' ';
				snprintf(t + strlen(t), sizeof t - strlen(t), "%s%s%s kind", seps[s][0],
					 names[k], seps[s][1]);
				bool glued = s == 2 || s == 3 || s == 5;
				cr_expect_eq(sl_kinds_named_in(t, strlen(t)) & want, glued ? 0 : want,
					     "\"%s\"", t);
			}
		}
	}
}

/* --- merged units (merge.h) --- */

/* The values of key `key` of the merged list's items, "a,b,c", each suffixed with * when it
** came from the template. */
static const char *merged_keys(sl_items it, const char *key)
{
	static char buf[256];
	buf[0] = '\0';
	for (const sl_node *n; (n = sl_merge_items_next(&it));) {
		const char *k = sl_scalar(sl_map_get(n, key));
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s%s", *buf ? "," : "",
			 k ? k : "?", it.from_base ? "*" : "");
	}
	return buf;
}

static const char *merged_selector(sl_pairs p)
{
	static char buf[256];
	buf[0] = '\0';
	for (const sl_pair *q; (q = sl_merge_pairs_next(&p));)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s=%s%s", *buf ? "," : "",
			 sl_scalar(q->key), sl_scalar(q->value), p.from_base ? "*" : "");
	return buf;
}

Test(merge, seldon_appends_lists_and_merges_maps)
{
	bound *cfg = bind("apiVersion: mlops.seldon.io/v1alpha1\nkind: ServerConfig\n"
			  "metadata: {name: mlserver}\nspec:\n  podSpec:\n"
			  "    nodeSelector: {pool: cpu, zone: a}\n"
			  "    tolerations: [{key: c1}, {key: c2}]\n"
			  "    topologySpreadConstraints: [{topologyKey: zone}]\n");
	bound *srv = bind("apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\n"
			  "metadata: {name: s}\nspec:\n  serverConfig: mlserver\n  podSpec:\n"
			  "    nodeSelector: {pool: gpu}\n    tolerations: [{key: s1}]\n");
	sl_index ix;
	sl_index_init(&ix, default_cfg());
	cr_assert_eq(sl_index_add(&ix, obj(cfg)), SL_OK);
	cr_assert_eq(sl_index_finish(&ix), SL_OK);
	sl_merged m = sl_merge_unit(&ix, unit(srv, 0));
	cr_assert_eq(m.base, unit(cfg, 0));
	cr_expect_str_eq(merged_keys(sl_merged_tolerations(&m), "key"), "c1*,c2*,s1");
	cr_expect_eq(sl_merge_items_count(sl_merged_tolerations(&m)), 3);
	cr_expect_str_eq(merged_keys(sl_merged_spread(&m), "topologyKey"), "zone*");
	cr_expect_str_eq(merged_selector(sl_merged_node_selector(&m)), "pool=gpu,zone=a*");
	cr_expect(sl_merged_has_node_selection(&m));
	/* the ServerConfig's own unit is not merged over anything */
	sl_merged c = sl_merge_unit(&ix, unit(cfg, 0));
	cr_expect_null(c.base);
	sl_index_free(&ix);
	done(cfg);
	done(srv);
}

Test(merge, kserve_replaces_lists_and_merges_maps)
{
	bound *rt = bind("apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\n"
			 "metadata: {name: rt, namespace: ns}\nspec:\n"
			 "  containers: [{name: kserve-container, image: x}]\n"
			 "  nodeSelector: {pool: cpu}\n  tolerations: [{key: r1}]\n"
			 "  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
			 "{nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists}]}]}}}\n");
	bound *own = bind("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			  "metadata: {name: i, namespace: ns}\nspec:\n  predictor:\n"
			  "    model: {runtime: rt, modelFormat: {name: x}}\n"
			  "    tolerations: [{key: i1}]\n");
	bound *none = bind("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			   "metadata: {name: j, namespace: ns}\nspec:\n  predictor:\n"
			   "    model: {runtime: rt, modelFormat: {name: x}}\n"
			   "    nodeSelector: {zone: b}\n");
	bound *other = bind("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			    "metadata: {name: k, namespace: elsewhere}\nspec:\n  predictor:\n"
			    "    model: {runtime: rt, modelFormat: {name: x}}\n");
	sl_index ix;
	sl_index_init(&ix, default_cfg());
	cr_assert_eq(sl_index_add(&ix, obj(rt)), SL_OK);
	cr_assert_eq(sl_index_finish(&ix), SL_OK);
	sl_merged m = sl_merge_unit(&ix, unit(own, 0));
	cr_assert_eq(m.base, unit(rt, 0));
	cr_expect_str_eq(merged_keys(sl_merged_tolerations(&m), "key"), "i1", "atomic: replaced");
	cr_expect_str_eq(merged_selector(sl_merged_node_selector(&m)), "pool=cpu*");
	sl_merged n = sl_merge_unit(&ix, unit(none, 0));
	cr_expect_str_eq(merged_keys(sl_merged_tolerations(&n), "key"), "r1*");
	cr_expect_str_eq(merged_selector(sl_merged_node_selector(&n)), "zone=b,pool=cpu*");
	cr_expect_eq(sl_merge_items_count(sl_merged_affinity_list(
		&n, "nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms")), 1);
	sl_merged o = sl_merge_unit(&ix, unit(other, 0));
	cr_expect_null(o.base, "a ServingRuntime of another namespace is not used");
	sl_index_free(&ix);
	done(rt);
	done(own);
	done(none);
	done(other);
}

Test(merge, templates_used_by_units_among_the_files)
{
	bound *rt = bind("apiVersion: serving.kserve.io/v1alpha1\nkind: ClusterServingRuntime\n"
			 "metadata: {name: rt}\nspec:\n  containers: [{name: c, image: x}]\n");
	bound *lone = bind("apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\n"
			   "metadata: {name: lone}\nspec:\n  containers: [{name: c, image: x}]\n");
	bound *cfg = bind("apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceServiceConfig\n"
			  "metadata: {name: base2}\nspec:\n  template: {containers: [{name: c}]}\n");
	bound *isvc = bind("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			   "metadata: {name: i}\nspec:\n  predictor:\n"
			   "    model: {runtime: rt, modelFormat: {name: x}}\n");
	bound *llm = bind("apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\n"
			  "metadata: {name: l}\nspec:\n  baseRefs: [{name: base1}, {name: base2}]\n"
			  "  template: {containers: [{name: c}]}\n");
	sl_index ix;
	sl_index_init(&ix, default_cfg());
	cr_assert_eq(sl_index_add(&ix, obj(rt)), SL_OK);
	cr_assert_eq(sl_index_add(&ix, obj(lone)), SL_OK);
	cr_assert_eq(sl_index_add(&ix, obj(cfg)), SL_OK);
	cr_assert_eq(sl_index_finish(&ix), SL_OK);
	sl_arena *a = sl_arena_new();
	const sl_object *objs[] = {obj(isvc), obj(llm)};
	sl_serving_fact *facts;
	size_t n;
	cr_assert_eq(sl_index_gather_facts(objs, 2, a, &facts, &n), SL_OK);
	cr_assert_eq(sl_index_add_facts(&ix, facts, n), SL_OK);
	cr_assert_eq(sl_index_finish_serving(&ix), SL_OK);
	sl_index_free_facts(facts);
	cr_expect(sl_index_template_used(&ix, obj(rt)), "a ClusterServingRuntime by model.runtime");
	cr_expect_not(sl_index_template_used(&ix, obj(lone)));
	cr_expect(sl_index_template_used(&ix, obj(cfg)), "the second of baseRefs");
	sl_index_free(&ix);
	sl_arena_free(a);
	done(rt);
	done(lone);
	done(cfg);
	done(isvc);
	done(llm);
}

/* --- the workload kinds of issue 28 (docs/domain.md) ---------------------------------------- */

Test(model_ray, raycluster_groups)
{
	bound *b = bind("apiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {name: llama}\n"
			"spec:\n"
			"  headGroupSpec:\n"
			"    template: {spec: {containers: [{name: ray-head}]}}\n"
			"  workerGroupSpecs:\n"
			"    - groupName: gpu\n"
			"      replicas: 3\n"
			"      numOfHosts: 4\n"
			"      template: {spec: {containers: [{name: w}]}}\n"
			"    - groupName: capped\n"
			"      replicas: 9\n"
			"      maxReplicas: 5\n"
			"      template: {spec: {containers: [{name: w}]}}\n"
			"    - groupName: floor\n"
			"      minReplicas: 2\n"
			"      template: {spec: {containers: [{name: w}]}}\n"
			"    - groupName: idle\n"
			"      replicas: 2\n"
			"      suspend: true\n"
			"      template: {spec: {containers: [{name: w}]}}\n");
	expect_no_reports(b);
	UNITS(b, "head", "worker group gpu", "worker group capped", "worker group floor",
	      "worker group idle");
	cr_expect_eq(unit(b, 0)->role, SL_ROLE_HEAD);
	cr_expect_eq(unit(b, 0)->min_replicas, 1);
	cr_expect_eq(unit(b, 1)->role, SL_ROLE_WORKER);
	cr_expect_eq(unit(b, 1)->min_replicas, 3, "replicas: the groups' replicas");
	cr_expect_eq(sl_unit_pods(unit(b, 1)), 12, "3 replicas of 4 hosts");
	cr_expect_eq(unit(b, 2)->min_replicas, 5, "replicas above maxReplicas: max");
	cr_expect_eq(unit(b, 3)->min_replicas, 2, "no replicas: minReplicas");
	cr_expect_eq(unit(b, 4)->min_replicas, 0, "a suspended group runs nothing");
	cr_expect_str_eq(sl_object_unit_label(unit(b, 1), b->a), "RayCluster llama, worker group gpu");
	done(b);
}

Test(model_ray, rayservice_and_rayjob)
{
	bound *b = bind("apiVersion: ray.io/v1\nkind: RayService\nmetadata: {name: chat}\n"
			"spec:\n"
			"  rayClusterConfig:\n"
			"    headGroupSpec: {template: {spec: {containers: [{name: h}]}}}\n"
			"    workerGroupSpecs:\n"
			"      - {groupName: gpu, replicas: 2, template: {spec: {containers: [{name: w}]}}}\n");
	expect_no_reports(b);
	UNITS(b, "head", "worker group gpu");
	cr_expect(sl_kind_is_serving(obj(b)->kind));
	cr_expect_eq(unit(b, 1)->min_replicas, 2);
	done(b);
	b = bind("apiVersion: ray.io/v1\nkind: RayJob\nmetadata: {name: ft}\n"
		 "spec:\n"
		 "  submitterPodTemplate: {spec: {containers: [{name: s}]}}\n"
		 "  rayClusterSpec:\n"
		 "    headGroupSpec: {template: {spec: {containers: [{name: h}]}}}\n"
		 "    workerGroupSpecs:\n"
		 "      - {groupName: t, replicas: 4, template: {spec: {containers: [{name: w}]}}}\n");
	expect_no_reports(b);
	UNITS(b, "head", "worker group t", "submitter");
	cr_expect_eq(unit(b, 1)->min_replicas, -1, "a RayJob's cluster runs to completion");
	cr_expect_eq(sl_unit_pods(unit(b, 1)), 4);
	cr_expect_not(sl_kind_is_serving(obj(b)->kind));
	done(b);
	/* HTTPMode submits from the operator: no submitter pod */
	b = bind("apiVersion: ray.io/v1\nkind: RayJob\nmetadata: {name: ft}\n"
		 "spec:\n"
		 "  submissionMode: HTTPMode\n"
		 "  submitterPodTemplate: {spec: {containers: [{name: s}]}}\n"
		 "  rayClusterSpec: {headGroupSpec: {template: {spec: {containers: [{name: h}]}}}}\n");
	UNITS(b, "head");
	done(b);
}

Test(model_lws, leader_and_workers)
{
	bound *b = bind("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\n"
			"metadata:\n  name: vllm\n  annotations:\n"
			"    leaderworkerset.sigs.k8s.io/exclusive-topology: cloud.google.com/gke-nodepool\n"
			"spec:\n"
			"  replicas: 2\n"
			"  leaderWorkerTemplate:\n"
			"    size: 4\n"
			"    leaderTemplate: {spec: {containers: [{name: l}]}}\n"
			"    workerTemplate: {spec: {containers: [{name: w}]}}\n");
	expect_no_reports(b);
	UNITS(b, "leader", "worker");
	cr_expect_eq(unit(b, 0)->role, SL_ROLE_LEADER);
	cr_expect_eq(unit(b, 0)->min_replicas, 2, "the groups");
	cr_expect_eq(sl_unit_pods(unit(b, 0)), 2, "a leader per group");
	cr_expect_eq(sl_unit_pods(unit(b, 1)), 6, "size - 1 workers per group");
	cr_expect_not_null(unit(b, 1)->exclusive_topology);
	done(b);
	b = bind("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\n"
		 "metadata: {name: one}\n"
		 "spec:\n"
		 "  leaderWorkerTemplate:\n"
		 "    size: 2\n"
		 "    workerTemplate: {spec: {containers: [{name: w}]}}\n");
	UNITS(b, "leader and workers");
	cr_expect_eq(unit(b, 0)->min_replicas, 1, "replicas defaults to 1");
	cr_expect_eq(sl_unit_pods(unit(b, 0)), 2);
	cr_expect_null(unit(b, 0)->exclusive_topology);
	done(b);
}

Test(model_jobset, replicated_jobs)
{
	bound *b = bind("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n"
			"metadata:\n  name: pt\n  annotations:\n"
			"    alpha.jobset.sigs.k8s.io/exclusive-topology: cloud.google.com/gke-nodepool\n"
			"spec:\n"
			"  replicatedJobs:\n"
			"    - name: workers\n"
			"      replicas: 4\n"
			"      template:\n"
			"        spec:\n"
			"          parallelism: 2\n"
			"          completions: 2\n"
			"          template: {spec: {containers: [{name: w}]}}\n"
			"    - name: driver\n"
			"      template: {spec: {template: {spec: {containers: [{name: d}]}}}}\n");
	expect_no_reports(b);
	UNITS(b, "replicated job workers", "replicated job driver");
	cr_expect_eq(unit(b, 0)->min_replicas, -1, "Jobs run to completion");
	cr_expect_eq(sl_unit_pods(unit(b, 0)), 8, "4 Jobs x parallelism 2");
	cr_expect_eq(sl_unit_pods(unit(b, 1)), 1);
	cr_expect_not_null(unit(b, 0)->exclusive_topology, "the JobSet's annotation");
	done(b);
}

Test(model_kubeflow, replica_specs_and_volcano_tasks)
{
	bound *b = bind("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: r}\n"
			"spec:\n"
			"  pytorchReplicaSpecs:\n"
			"    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch}]}}}\n"
			"    Worker: {replicas: 3, template: {spec: {containers: [{name: pytorch}]}}}\n");
	expect_no_reports(b);
	UNITS(b, "Master", "Worker");
	cr_expect_eq(unit(b, 0)->role, SL_ROLE_HEAD);
	cr_expect_eq(sl_unit_pods(unit(b, 1)), 3);
	done(b);
	b = bind("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: v}\n"
		 "spec:\n"
		 "  priorityClassName: high\n"
		 "  tasks:\n"
		 "    - {name: ps, replicas: 2, template: {spec: {containers: [{name: c}]}}}\n"
		 "    - replicas: 1\n"
		 "      template: {spec: {priorityClassName: own, containers: [{name: c}]}}\n");
	expect_no_reports(b);
	UNITS(b, "task ps", "task default1");
	cr_expect_str_eq(sl_scalar(unit(b, 0)->priority_class_name), "high", "the Job's class");
	cr_expect_str_eq(sl_scalar(unit(b, 1)->priority_class_name), "own");
	cr_expect_eq(sl_unit_pods(unit(b, 0)), 2);
	done(b);
}

Test(model_spark, driver_executor_gpu)
{
	bound *b = bind("apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\n"
			"metadata: {name: etl}\n"
			"spec:\n"
			"  driver: {cores: 1}\n"
			"  executor:\n"
			"    instances: 4\n"
			"    gpu: {name: nvidia.com/gpu, quantity: 2}\n"
			"    tolerations: [{key: dedicated, operator: Exists}]\n"
			"    template: {spec: {tolerations: [{key: nvidia.com/gpu, operator: Exists}]}}\n");
	expect_no_reports(b);
	UNITS(b, "driver", "executor");
	cr_expect_eq(unit(b, 0)->role, SL_ROLE_HEAD);
	cr_expect_eq(sl_unit_pods(unit(b, 1)), 4);
	const sl_container *c = main_container(unit(b, 1));
	cr_assert_not_null(c->limits, "gpu: is a limit the operator sets");
	cr_expect_str_eq(sl_scalar(sl_map_get(c->limits, "nvidia.com/gpu")), "2");
	cr_assert_not_null(unit(b, 1)->inline_base, "the pod template is the base");
	cr_expect_eq(sl_seq_n(unit(b, 1)->inline_base->tolerations), 1);
	done(b);
}

Test(model_kaito, preset_and_own_pool)
{
	bound *b = bind("apiVersion: kaito.sh/v1beta1\nkind: Workspace\nmetadata: {name: falcon}\n"
			"resource:\n"
			"  instanceType: Standard_NC12s_v3\n"
			"  count: 2\n"
			"  labelSelector: {matchLabels: {apps: falcon}}\n"
			"inference:\n"
			"  preset: {name: falcon-7b}\n");
	expect_no_reports(b);
	UNITS(b, "inference");
	const sl_unit *u = unit(b, 0);
	cr_expect_not_null(u->own_pool, "KAITO provisions the instance type's nodes");
	cr_expect_eq(u->min_replicas, 2);
	cr_assert_not_null(u->inline_base);
	cr_expect_eq(sl_seq_n(u->inline_base->tolerations), 2, "nvidia.com/gpu and sku=gpu");
	cr_expect_str_eq(sl_scalar(sl_map_get(u->inline_base->node_selector, "apps")), "falcon");
	cr_expect_not_null(main_container(u)->limits, "a preset's container limits a GPU");
	done(b);
}

Test(model_ray, raycronjob_and_unnamed_group)
{
	bound *b = bind("apiVersion: ray.io/v1\nkind: RayCronJob\nmetadata: {name: nightly}\n"
			"spec:\n"
			"  schedule: '0 3 * * *'\n"
			"  jobTemplate:\n"
			"    rayClusterSpec:\n"
			"      headGroupSpec: {template: {spec: {containers: [{name: h}]}}}\n"
			"      workerGroupSpecs:\n"
			"        - {replicas: 2, template: {spec: {containers: [{name: w}]}}}\n");
	expect_no_reports(b);
	UNITS(b, "head", "worker group #0");
	cr_expect_eq(unit(b, 1)->min_replicas, -1, "a RayJob spec runs to completion");
	cr_expect_eq(sl_unit_pods(unit(b, 1)), 2);
	done(b);
}

Test(model_lws, pods_never_overflow)
{
	/* any integer may be written: the product saturates (UBSan would catch an overflow) */
	bound *b = bind("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\n"
			"metadata: {name: big}\n"
			"spec:\n"
			"  replicas: 9000000000000000000\n"
			"  leaderWorkerTemplate:\n"
			"    size: 9000000000000000000\n"
			"    workerTemplate: {spec: {containers: [{name: w}]}}\n");
	cr_expect_eq(sl_unit_pods(unit(b, 0)), LLONG_MAX);
	done(b);
	cr_expect_eq(sl_model_pods(-1, 4), -1);
	cr_expect_eq(sl_model_pods(3, 4), 12);
}

/* The keys that hold a component's main container, by role: what the binder and
** kserve-pod-level-gpu both read. */
Test(model, kserve_impl_keys_by_role)
{
	cr_expect_eq(sl_kserve_impl_keys(SL_ROLE_PREDICTOR), sl_kserve_implementations);
	cr_expect_eq(sl_kserve_impl_keys(SL_ROLE_CANARY), sl_kserve_implementations);
	const char *const *e = sl_kserve_impl_keys(SL_ROLE_EXPLAINER);
	cr_assert_not_null(e);
	cr_expect_str_eq(e[0], "art");
	cr_expect_str_eq(e[1], "alibi");
	cr_expect_null(e[2]);
	cr_expect_null(sl_kserve_impl_keys(SL_ROLE_TRANSFORMER));
	cr_expect_null(sl_kserve_impl_keys(SL_ROLE_WORKER));
}

/* The runtime a component names: the first framework key, in the table's order, whose runtime
** is set (an empty one does not count). */
Test(model, kserve_runtime_name_first_framework)
{
	bound *b = parse_only("sklearn: {runtime: ''}\nmodel: {runtime: m}\npytorch: {runtime: p}\n"
			      "name: x\n");
	cr_expect_str_eq(sl_kserve_runtime_name(b->t.docs[0]->root), "p");
	done(b);
	b = parse_only("model: {modelFormat: {name: sklearn}}\nsklearn: {}\n");
	cr_expect_null(sl_kserve_runtime_name(b->t.docs[0]->root));
	done(b);
}
