/* SPDX-License-Identifier: Apache-2.0
** test_index.c: the project index (src/sched/index.c) built from YAML as a run builds it: which objects
** it keeps, lookups by kind and name (first and all), PriorityClass values (built-in, files,
** config) and the default PriorityClass, Knative flag precedence (KnativeServing CR, then
** config-features ConfigMaps, then the config) and disagreement, KServe's default mode from an
** inferenceservice-config ConfigMap, runtime lookup and the templates units use. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "config/values.h"
#include "sched/index.h"
#include "model/model.h"
#include "support.h"

/* --- harness: every document of one YAML text bound and indexed, facts included ------------ */

typedef struct built {
	sl_source *src;
	sl_arena *a;
	sl_tree t;
	sl_model_ctx mc;
	sl_object *objs[32];
	size_t n;
	sl_serving_fact *facts;
	size_t n_facts;
	sl_index ix;
	sl_config *cfg;
	size_t reports, want_reports;   /* schema-type reports the binder made, and expected */
} built;

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start,
			  size_t end, const char *message)
{
	(void)payload; (void)rule; (void)doc; (void)start; (void)end;
	cr_log_error("unexpected tree issue: %s", message);
}

static void on_report(void *payload, const char *rule, const sl_node *at, const char *message,
		      int quote_fix)
{
	(void)rule; (void)at; (void)quote_fix;
	built *b = payload;
	b->reports++;
	cr_log_info("schema report: %s", message);
}

/* A config from .schedlint.yaml text; NULL text: the defaults. */
static sl_config *config(const char *text)
{
	sl_config *cfg = NULL;
	if (!text) {
		cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
		return cfg;
	}
	char path[256];
	int fd = sl_test_scratch_file(path, sizeof path, "index-cfg", "");
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	char *err = NULL;
	cr_assert_eq(sl_config_load(path, &cfg, &err), SL_OK, "%s", err ? err : "");
	unlink(path);
	return cfg;
}

static built *build(const char *yaml, const char *cfg_text)
{
	built *b = calloc(1, sizeof *b);
	cr_assert_not_null(b);
	b->cfg = config(cfg_text);
	cr_assert_eq(sl_source_from_buffer("m.yaml", yaml, strlen(yaml), &b->src), SL_OK);
	b->a = sl_arena_new();
	cr_assert_eq(sl_tree_parse(b->src, b->a, &b->t, on_tree_issue, b), SL_OK);
	b->mc = (sl_model_ctx){.arena = b->a, .path = "m.yaml", .issue = on_report, .payload = b,
			       .default_mode = sl_config_kserve_default_mode(b->cfg)};
	sl_index_init(&b->ix, b->cfg);
	for (size_t i = 0; i < b->t.n_docs; i++) {
		sl_object *o = NULL;
		cr_assert_eq(sl_object_bind(&b->mc, b->t.docs[i], &o), SL_OK);
		if (!o)
			continue;
		cr_assert_lt(b->n, sizeof b->objs / sizeof *b->objs);
		b->objs[b->n++] = o;
		cr_assert_eq(sl_index_add(&b->ix, o), SL_OK);
	}
	cr_assert_eq(sl_index_gather_facts((const sl_object *const *)b->objs, b->n, b->a, &b->facts,
					   &b->n_facts), SL_OK);
	cr_assert_eq(sl_index_add_facts(&b->ix, b->facts, b->n_facts), SL_OK);
	cr_assert_eq(sl_index_finish(&b->ix), SL_OK);
	cr_assert_eq(sl_index_finish_serving(&b->ix), SL_OK);
	return b;
}

static void done(built *b)
{
	cr_expect_eq(b->reports, b->want_reports, "%zu schema-type reports, want %zu", b->reports,
		     b->want_reports);
	sl_index_free(&b->ix);
	sl_index_free_facts(b->facts);
	sl_arena_free(b->a);
	sl_source_free(b->src);
	sl_config_free(b->cfg);
	free(b);
}

/* The bound object named name of kind k, as the test wrote it. */
static const sl_object *obj(const built *b, sl_kind k, const char *name, const char *ns)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->objs[i]->kind == k && b->objs[i]->name && strcmp(b->objs[i]->name, name) == 0 &&
		    (!ns || (b->objs[i]->namespace_ && strcmp(b->objs[i]->namespace_, ns) == 0)))
			return b->objs[i];
	cr_assert_fail("no %s %s in the fixture", sl_kind_name(k), name);
	return NULL;
}

static const char *node_text(const built *b, const sl_node *n)
{
	static char buf[256];
	cr_assert_not_null(n);
	snprintf(buf, sizeof buf, "%.*s", (int)(n->end - n->start), b->src->data + n->start);
	return buf;
}

#define PC(name, value, extra) \
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: " name "}\n" \
	"value: " value "\n" extra "---\n"

/* --- which objects, lookups ---------------------------------------------------------------- */

Test(index, keeps_only_looked_up_kinds)
{
	built *b = build(PC("high", "1000", "")
			 "apiVersion: v1\nkind: Pod\nmetadata: {name: high}\n"
			 "spec: {containers: [{name: a, image: b}]}\n---\n"
			 "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app-settings}\ndata: {a: b}\n---\n"
			 "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: config-features, "
			 "namespace: knative-serving}\ndata: {}\n", NULL);
	size_t n;
	sl_index_objects(&b->ix, SL_KIND_PRIORITY_CLASS, &n);
	cr_expect_eq(n, 1);
	sl_index_objects(&b->ix, SL_KIND_POD, &n);
	cr_expect_eq(n, 0, "a Pod is no cross-file fact");
	const sl_object *const *cms = sl_index_objects(&b->ix, SL_KIND_CONFIGMAP, &n);
	cr_expect_eq(n, 1, "only config-features (and inferenceservice-config) ConfigMaps are kept");
	cr_expect_str_eq(cms[0]->name, "config-features");
	cr_expect_null(sl_index_find(&b->ix, SL_KIND_POD, "high"));
	cr_expect_eq(sl_index_find(&b->ix, SL_KIND_PRIORITY_CLASS, "high"),
		     obj(b, SL_KIND_PRIORITY_CLASS, "high", NULL));
	cr_expect_null(sl_index_find(&b->ix, SL_KIND_PRIORITY_CLASS, "low"));
	cr_expect_null(sl_index_find(&b->ix, SL_KIND_PRIORITY_CLASS, NULL));
	done(b);
}

Test(index, find_and_find_all_by_kind_and_name)
{
	const char *rt = "apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\n"
			 "metadata: {name: triton, namespace: %s}\n"
			 "spec: {containers: [{name: c, image: i}]}\n---\n";
	char yaml[2048];
	snprintf(yaml, sizeof yaml, "%s", "");
	for (const char *ns = "a"; ns; ns = strcmp(ns, "a") == 0 ? "b" : NULL)
		snprintf(yaml + strlen(yaml), sizeof yaml - strlen(yaml), rt, ns);
	strcat(yaml, "apiVersion: serving.kserve.io/v1alpha1\nkind: ClusterServingRuntime\n"
		     "metadata: {name: triton}\nspec: {containers: [{name: c, image: i}]}\n---\n"
		     "apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\n"
		     "metadata: {name: vllm, namespace: a}\nspec: {containers: [{name: c, image: i}]}\n");
	built *b = build(yaml, NULL);
	size_t n;
	const sl_object *const *all = sl_index_find_all(&b->ix, SL_KIND_SERVING_RUNTIME, "triton", &n);
	cr_assert_eq(n, 2, "both namespaced runtimes named triton");
	cr_expect_eq(all[0], obj(b, SL_KIND_SERVING_RUNTIME, "triton", "a"), "in index order");
	cr_expect_eq(all[1], obj(b, SL_KIND_SERVING_RUNTIME, "triton", "b"));
	cr_expect_eq(sl_index_find(&b->ix, SL_KIND_SERVING_RUNTIME, "triton"), all[0], "the first");
	all = sl_index_find_all(&b->ix, SL_KIND_CLUSTER_SERVING_RUNTIME, "triton", &n);
	cr_expect_eq(n, 1, "the kind is part of the key");
	sl_index_find_all(&b->ix, SL_KIND_SERVING_RUNTIME, "nope", &n);
	cr_expect_eq(n, 0);
	cr_expect_eq(sl_index_find(&b->ix, SL_KIND_SERVING_RUNTIME, "vllm"),
		     obj(b, SL_KIND_SERVING_RUNTIME, "vllm", "a"));
	done(b);
}

Test(index, runtime_lookup_follows_namespace_then_cluster_runtime)
{
	built *b = build("apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\n"
			 "metadata: {name: triton, namespace: team-b}\n"
			 "spec: {containers: [{name: c, image: i}]}\n---\n"
			 "apiVersion: serving.kserve.io/v1alpha1\nkind: ClusterServingRuntime\n"
			 "metadata: {name: triton}\nspec: {containers: [{name: c, image: i}]}\n---\n"
			 "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			 "metadata: {name: a, namespace: team-a}\n"
			 "spec: {predictor: {model: {modelFormat: {name: onnx}, runtime: triton}}}\n---\n"
			 "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			 "metadata: {name: b, namespace: team-b}\n"
			 "spec: {predictor: {model: {modelFormat: {name: onnx}, runtime: triton}}}\n", NULL);
	const sl_object *a = obj(b, SL_KIND_INFERENCE_SERVICE, "a", NULL);
	const sl_object *bb = obj(b, SL_KIND_INFERENCE_SERVICE, "b", NULL);
	cr_expect_eq(sl_index_runtime(&b->ix, bb, "triton"),
		     obj(b, SL_KIND_SERVING_RUNTIME, "triton", "team-b"), "its namespace's runtime");
	cr_expect_eq(sl_index_runtime(&b->ix, a, "triton"),
		     obj(b, SL_KIND_CLUSTER_SERVING_RUNTIME, "triton", NULL),
		     "another namespace's runtime is not used: the cluster runtime is");
	cr_expect_null(sl_index_runtime(&b->ix, a, "other"));
	cr_expect_null(sl_index_runtime(&b->ix, a, NULL));
	done(b);
}

/* --- templates units use ------------------------------------------------------------------- */

Test(index, templates_used_by_units)
{
	built *b = build("apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\n"
			 "metadata: {name: used}\nspec: {containers: [{name: c, image: i}]}\n---\n"
			 "apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\n"
			 "metadata: {name: unused}\nspec: {containers: [{name: c, image: i}]}\n---\n"
			 "apiVersion: serving.kserve.io/v1alpha1\nkind: ClusterServingRuntime\n"
			 "metadata: {name: used}\nspec: {containers: [{name: c, image: i}]}\n---\n"
			 "apiVersion: mlops.seldon.io/v1alpha1\nkind: ServerConfig\n"
			 "metadata: {name: mlserver}\nspec: {podSpec: {containers: [{name: c, image: i}]}}\n---\n"
			 "apiVersion: mlops.seldon.io/v1alpha1\nkind: ServerConfig\n"
			 "metadata: {name: triton}\nspec: {podSpec: {containers: [{name: c, image: i}]}}\n---\n"
			 "apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\n"
			 "metadata: {name: s}\nspec: {serverConfig: mlserver}\n---\n"
			 "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			 "metadata: {name: a}\n"
			 "spec: {predictor: {model: {modelFormat: {name: onnx}, runtime: used}}}\n", NULL);
	cr_expect(sl_index_template_used(&b->ix, obj(b, SL_KIND_SERVING_RUNTIME, "used", NULL)));
	cr_expect(sl_index_template_used(&b->ix, obj(b, SL_KIND_CLUSTER_SERVING_RUNTIME, "used", NULL)),
		  "model.runtime may name either runtime kind");
	cr_expect_not(sl_index_template_used(&b->ix, obj(b, SL_KIND_SERVING_RUNTIME, "unused", NULL)));
	cr_expect(sl_index_template_used(&b->ix, obj(b, SL_KIND_SELDON_SERVER_CONFIG, "mlserver", NULL)));
	cr_expect_not(sl_index_template_used(&b->ix, obj(b, SL_KIND_SELDON_SERVER_CONFIG, "triton", NULL)));
	cr_expect_eq(sl_index_server_config(&b->ix, obj(b, SL_KIND_SELDON_SERVER, "s", NULL)),
		     obj(b, SL_KIND_SELDON_SERVER_CONFIG, "mlserver", NULL));
	cr_expect_null(sl_index_server_config(&b->ix, obj(b, SL_KIND_INFERENCE_SERVICE, "a", NULL)));
	done(b);
}

/* --- priorities ---------------------------------------------------------------------------- */

Test(index, priority_values_builtin_files_then_config)
{
	built *b = build(PC("serving", "100000", "") PC("both", "7", ""),
			 "cluster:\n  priority-classes: [\"batch=10\", \"both=99\"]\n");
	long long v = -1;
	cr_expect(sl_index_priority_value(&b->ix, "system-node-critical", &v));
	cr_expect_eq(v, 2000001000);
	cr_expect(sl_index_priority_value(&b->ix, "system-cluster-critical", &v));
	cr_expect_eq(v, 2000000000);
	cr_expect(sl_index_priority_value(&b->ix, "serving", &v));
	cr_expect_eq(v, 100000, "from the linted PriorityClass");
	cr_expect(sl_index_priority_value(&b->ix, "batch", &v));
	cr_expect_eq(v, 10, "from the config's priority-classes");
	cr_expect(sl_index_priority_value(&b->ix, "both", &v));
	cr_expect_eq(v, 7, "a linted class wins over the config's");
	v = 42;
	cr_expect_not(sl_index_priority_value(&b->ix, "bat", &v), "a prefix of a config name");
	cr_expect_not(sl_index_priority_value(&b->ix, "unknown", &v));
	cr_expect_not(sl_index_priority_value(&b->ix, NULL, &v));
	cr_expect_eq(v, 42, "untouched when unknown");
	done(b);
}

Test(index, default_priority_class_is_the_lowest_global_default)
{
	built *b = build(PC("mid", "500", "globalDefault: true\n") PC("low", "100", "globalDefault: true\n")
			 PC("lower-but-not-default", "1", "globalDefault: false\n")
			 PC("quoted", "2", "globalDefault: \"true\"\n")
			 "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
			 "spec: {containers: [{name: a, image: b}]}\n---\n"
			 "apiVersion: v1\nkind: Pod\nmetadata: {name: q}\n"
			 "spec: {priorityClassName: mid, containers: [{name: a, image: b}]}\n", NULL);
	b->want_reports = 1;   /* the quoted globalDefault */
	long long v = -1;
	const sl_object *d = sl_index_default_priority_class(&b->ix, &v);
	cr_assert_not_null(d);
	cr_expect_str_eq(d->name, "low", "the lowest of the YAML-true globalDefault classes");
	cr_expect_eq(v, 100);
	const char *name = NULL;
	v = -1;
	cr_expect(sl_index_unit_priority(&b->ix, &obj(b, SL_KIND_POD, "p", NULL)->units[0], &v, &name));
	cr_expect_str_eq(name, "low", "a pod without a class gets the default");
	cr_expect_eq(v, 100);
	cr_expect(sl_index_unit_priority(&b->ix, &obj(b, SL_KIND_POD, "q", NULL)->units[0], &v, &name));
	cr_expect_str_eq(name, "mid");
	cr_expect_eq(v, 500);
	size_t n;
	const sl_serving_priority *sp = sl_index_serving_priorities(&b->ix, &n);
	cr_expect_eq(n, 0, "Pods are not serving units");
	(void)sp;
	done(b);
}

Test(index, no_default_priority_class_means_zero)
{
	built *b = build(PC("quoted", "2", "globalDefault: \"true\"\n")
			 "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
			 "spec: {containers: [{name: a, image: b}]}\n", NULL);
	b->want_reports = 1;
	long long v = 77;
	cr_expect_null(sl_index_default_priority_class(&b->ix, &v), "a quoted \"true\" is a string");
	cr_expect_eq(v, 77, "untouched when there is none");
	const char *name = "x";
	cr_expect(sl_index_unit_priority(&b->ix, &obj(b, SL_KIND_POD, "p", NULL)->units[0], &v, &name));
	cr_expect_null(name);
	cr_expect_eq(v, 0);
	done(b);
}

Test(index, serving_priorities_sorted_lowest_named)
{
	built *b = build(PC("high", "1000", "") PC("low", "10", "")
			 "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			 "metadata: {name: h}\nspec: {predictor: {priorityClassName: high, "
			 "model: {modelFormat: {name: onnx}}}}\n---\n"
			 "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			 "metadata: {name: l}\nspec: {predictor: {priorityClassName: low, "
			 "model: {modelFormat: {name: onnx}}}}\n---\n"
			 "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
			 "metadata: {name: u}\nspec: {predictor: {priorityClassName: nowhere, "
			 "model: {modelFormat: {name: onnx}}}}\n", NULL);
	size_t n;
	const sl_serving_priority *sp = sl_index_serving_priorities(&b->ix, &n);
	cr_assert_eq(n, 2, "a unit whose class is unknown is left out");
	cr_expect_eq(sp[0].value, 10);
	cr_expect_str_eq(sp[0].label, "InferenceService l, predictor");
	cr_expect_str_eq(sp[0].class_name, "low");
	cr_expect_eq(sp[1].value, 1000);
	cr_expect_null(sp[1].label, "only the lowest keeps its label");
	done(b);
}

/* --- Knative flags ------------------------------------------------------------------------- */

#define KS(features) \
	"apiVersion: operator.knative.dev/v1beta1\nkind: KnativeServing\n" \
	"metadata: {name: knative-serving, namespace: knative-serving}\n" \
	"spec: {config: {features: {" features "}}}\n---\n"
#define FEATURES(ns, data) \
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: config-features, namespace: " ns "}\n" \
	"data: {" data "}\n---\n"
#define NODESELECTOR "kubernetes.podspec-nodeselector"
#define AFFINITY "kubernetes.podspec-affinity"

Test(index, knative_flag_from_the_cr_wins)
{
	built *b = build(KS("kubernetes.podspec-nodeselector: enabled")
			 FEATURES("knative-serving", "kubernetes.podspec-nodeselector: disabled, "
				  "kubernetes.podspec-affinity: enabled"),
			 "cluster:\n  knative-features: [affinity]\n");
	sl_flag_origin o;
	cr_expect_eq(sl_index_knative_flag(&b->ix, NODESELECTOR, &o), SL_FLAG_ENABLED);
	cr_expect_eq(o.obj, b->objs[0], "the KnativeServing CR");
	cr_expect_str_eq(node_text(b, o.node), "enabled");
	cr_expect_not(o.from_config);
	/* the CR owns config-features: a flag it leaves unset is Knative's default (unknown),
	** whatever the ConfigMap or the config say */
	cr_expect_eq(sl_index_knative_flag(&b->ix, AFFINITY, &o), SL_FLAG_UNKNOWN);
	cr_expect_eq(o.obj, b->objs[0]);
	cr_expect_null(o.node);
	cr_expect_not_null(o.map, "the features mapping it would go in");
	done(b);
}

Test(index, knative_flag_from_config_features)
{
	built *b = build(FEATURES("knative-serving", "kubernetes.podspec-nodeselector: Allowed, "
				  "kubernetes.podspec-affinity: \"disabled\"")
			 FEATURES("default", "kubernetes.podspec-tolerations: enabled"), NULL);
	sl_flag_origin o;
	cr_expect_eq(sl_index_knative_flag(&b->ix, NODESELECTOR, &o), SL_FLAG_ENABLED,
		     "allowed counts as enabled, case-insensitively");
	cr_expect_eq(o.obj, b->objs[0]);
	cr_expect_eq(sl_index_knative_flag(&b->ix, AFFINITY, &o), SL_FLAG_DISABLED);
	cr_expect_str_eq(node_text(b, o.node), "\"disabled\"");
	cr_expect_eq(sl_index_knative_flag(&b->ix, "kubernetes.podspec-tolerations", &o),
		     SL_FLAG_UNKNOWN, "config-features outside knative-serving is not Knative's");
	cr_expect_null(o.node);
	cr_expect_eq(sl_index_knative_flag(&b->ix, NODESELECTOR, NULL), SL_FLAG_ENABLED,
		     "origin may be NULL");
	done(b);
}

Test(index, knative_flag_sources_that_disagree_are_unknown_unless_the_config_says)
{
	const char *yaml = FEATURES("knative-serving", "kubernetes.podspec-nodeselector: enabled")
			   FEATURES("knative-serving", "kubernetes.podspec-nodeselector: disabled");
	built *b = build(yaml, NULL);
	sl_flag_origin o;
	cr_expect_eq(sl_index_knative_flag(&b->ix, NODESELECTOR, &o), SL_FLAG_UNKNOWN);
	cr_expect_eq(o.obj, b->objs[0]);
	cr_expect_eq(o.other, b->objs[1], "the later ConfigMap that says otherwise");
	cr_expect_str_eq(node_text(b, o.other_node), "disabled");
	done(b);

	b = build(yaml, "cluster:\n  knative-features: [nodeselector]\n");
	cr_expect_eq(sl_index_knative_flag(&b->ix, NODESELECTOR, &o), SL_FLAG_ENABLED);
	cr_expect(o.from_config, "the config settles the disagreement");
	cr_expect_null(o.obj);
	cr_expect_eq(sl_index_knative_flag(&b->ix, AFFINITY, &o), SL_FLAG_DISABLED,
		     "a set knative-features leaves out what it does not list");
	cr_expect(o.from_config);
	done(b);

	b = build(KS("kubernetes.podspec-affinity: enabled")
		  KS("kubernetes.podspec-affinity: disabled"), NULL);
	cr_expect_eq(sl_index_knative_flag(&b->ix, AFFINITY, &o), SL_FLAG_UNKNOWN);
	cr_expect_eq(o.other, b->objs[1], "two CRs disagree as well");
	done(b);
}

Test(index, knative_flag_from_the_config_alone)
{
	built *b = build(PC("x", "1", ""), "cluster:\n  knative-features: [affinity, "
			 "kubernetes.podspec-tolerations]\n");
	sl_flag_origin o;
	cr_expect_eq(sl_index_knative_flag(&b->ix, AFFINITY, &o), SL_FLAG_ENABLED, "a short name");
	cr_expect(o.from_config);
	cr_expect_eq(sl_index_knative_flag(&b->ix, "kubernetes.podspec-tolerations", &o),
		     SL_FLAG_ENABLED, "a full name");
	cr_expect_eq(sl_index_knative_flag(&b->ix, NODESELECTOR, &o), SL_FLAG_DISABLED);
	done(b);
	b = build(PC("x", "1", ""), NULL);
	cr_expect_eq(sl_index_knative_flag(&b->ix, AFFINITY, &o), SL_FLAG_UNKNOWN, "nothing says");
	cr_expect_null(o.obj);
	cr_expect_not(o.from_config);
	done(b);
}

/* --- KServe's default deployment mode ------------------------------------------------------ */

#define ISVC_CONFIG(deploy) \
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: inferenceservice-config, namespace: kserve}\n" \
	"data:\n  deploy: |-\n    " deploy "\n---\n"

Test(index, default_mode_from_inferenceservice_config)
{
	built *b = build(ISVC_CONFIG("{\"defaultDeploymentMode\": \"NotAMode\"}")
			 ISVC_CONFIG("{\"defaultDeploymentMode\": \"RawDeployment\"}")
			 ISVC_CONFIG("{\"defaultDeploymentMode\": \"Serverless\"}"), NULL);
	cr_expect_eq(b->ix.default_mode, SL_MODE_STANDARD, "the first ConfigMap with a valid mode");
	cr_assert_not_null(b->ix.default_mode_source);
	cr_expect_str_eq(b->ix.default_mode_source, "inferenceservice-config (m.yaml:12)");
	cr_expect_null(b->ix.default_mode_config, "the config does not set one");
	done(b);

	b = build(ISVC_CONFIG("not json") ISVC_CONFIG("{\"other\": 1}"),
		  "cluster:\n  kserve-default-deployment-mode: Standard\n");
	cr_expect_null(b->ix.default_mode_source, "no ConfigMap names a valid mode");
	cr_assert_not_null(b->ix.default_mode_config);
	cr_expect(strstr(b->ix.default_mode_config, ":2") != NULL, "%s: the config's line",
		  b->ix.default_mode_config);
	done(b);
}

/* --- autoscalers --------------------------------------------------------------------------- */

#define DEPLOY(name, ns) \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " name ns "}\n" \
	"spec: {replicas: 4, template: {spec: {containers: [{name: c, image: i}]}}}\n---\n"

Test(index, autoscaler_by_target_kind_name_group_and_namespace)
{
	built *b = build(DEPLOY("web", ", namespace: ml") DEPLOY("api", "") DEPLOY("batch", "")
			 DEPLOY("bare", "")
			 "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
			 "metadata: {name: other-ns, namespace: staging}\n"
			 "spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web},"
			 " minReplicas: 9, maxReplicas: 10}\n---\n"
			 "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
			 "metadata: {name: web, namespace: ml}\n"
			 "spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web},"
			 " minReplicas: 3, maxReplicas: 10}\n---\n"
			 "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\n"
			 "metadata: {name: api}\n"
			 "spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api},"
			 " maxReplicas: 10}\n---\n"
			 "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
			 "metadata: {name: wrong-group}\n"
			 "spec: {scaleTargetRef: {apiVersion: example.com/v1, kind: Deployment,"
			 " name: batch}, minReplicas: 7, maxReplicas: 10}\n---\n"
			 "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: batch}\n"
			 "spec: {scaleTargetRef: {name: batch}}\n", NULL);
	long long min = -5;
	const sl_node *at = NULL;
	const sl_object *web = obj(b, SL_KIND_DEPLOYMENT, "web", NULL);
	cr_expect_eq(sl_index_autoscaler(&b->ix, web, &min, &at),
		     obj(b, SL_KIND_HORIZONTAL_POD_AUTOSCALER, "web", NULL),
		     "the HPA of its namespace, not staging's");
	cr_expect_eq(min, 3);
	cr_expect_str_eq(node_text(b, at), "3");
	cr_expect_not_null(sl_index_autoscaler(&b->ix, obj(b, SL_KIND_DEPLOYMENT, "api", NULL),
					       &min, &at));
	cr_expect_eq(min, 1, "minReplicas defaults to 1");
	cr_expect_null(at);
	cr_expect_eq(sl_index_autoscaler(&b->ix, obj(b, SL_KIND_DEPLOYMENT, "batch", NULL), &min, &at),
		     obj(b, SL_KIND_SCALED_OBJECT, "batch", NULL),
		     "an HPA of another API group names another kind; KEDA's kind defaults to Deployment");
	cr_expect_eq(min, 0, "minReplicaCount defaults to 0");
	cr_expect_null(sl_index_autoscaler(&b->ix, obj(b, SL_KIND_DEPLOYMENT, "bare", NULL), &min, &at));
	const sl_object *scaler = NULL;
	const sl_unit *u = &web->units[0];
	cr_expect_eq(sl_index_unit_replicas(&b->ix, u, &scaler, &at), 3);
	cr_expect_not_null(scaler);
	const sl_unit *bare = &obj(b, SL_KIND_DEPLOYMENT, "bare", NULL)->units[0];
	cr_expect_eq(sl_index_unit_replicas(&b->ix, bare, &scaler, &at), 4, "its own replicas");
	cr_expect_null(scaler);
	cr_expect_str_eq(node_text(b, at), "4");
	done(b);
}
