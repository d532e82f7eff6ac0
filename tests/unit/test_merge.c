/* SPDX-License-Identifier: Apache-2.0
** test_merge.c: a unit merged over its template (src/sched/merge.c), as the pods really get it:
**   KServe  an InferenceService predictor over its ServingRuntime (a strategic merge patch:
**           nodeSelector maps merge with the InferenceService winning, and a non-empty list of
**           the InferenceService replaces the runtime's, an empty or absent one does not); the
**           runtime found in the InferenceService's namespace, else a ClusterServingRuntime; a
**           workerSpec over the runtime's workerSpec; no template for ModelMesh;
**   Seldon  a Server over its ServerConfig (mergo WithAppendSlice: the ServerConfig's list
**           entries first, then the Server's; maps merge with the Server winning). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "sched/merge.h"

typedef struct built {
	sl_config *cfg;
	sl_test_objects o;
} built;

/* Every document of yaml bound and indexed, as a run indexes its files. */
static built *build(const char *yaml)
{
	built *b = calloc(1, sizeof *b);
	cr_assert_not_null(b);
	b->cfg = sl_test_config(NULL, NULL);
	sl_test_objects_bind(&b->o, b->cfg, "m.yaml", yaml);
	sl_test_objects_index(&b->o, b->cfg);
	return b;
}

static void done(built *b)
{
	sl_test_objects_free(&b->o);
	sl_config_free(b->cfg);
	free(b);
}

/* The unit of role r of the object of kind k named name. */
static const sl_unit *unit(const built *b, sl_kind k, const char *name, sl_role r)
{
	const sl_object *o = sl_test_object(&b->o, k, name);
	for (size_t j = 0; j < o->n_units; j++)
		if (o->units[j].role == r)
			return &o->units[j];
	cr_assert_fail("%s %s has no unit %d", sl_kind_name(k), name, (int)r);
	return NULL;
}

/* The merged items as "key[T]" ("[T]": from the template), joined by spaces; key is the item's
** "key" field (tolerations) or "topologyKey" (spread constraints), else "?". */
static const char *keys(sl_items it)
{
	static char buf[512];
	buf[0] = '\0';
	for (const sl_node *n; (n = sl_merge_items_next(&it));) {
		const char *k = sl_scalar(sl_map_get(n, "key"));
		if (!k)
			k = sl_scalar(sl_map_get(n, "topologyKey"));
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s%s", buf[0] ? " " : "",
			 k ? k : "?", it.from_base ? "[T]" : "");
	}
	return buf;
}

/* The merged nodeSelector as "k=v[T]" pairs joined by spaces. */
static const char *selector(const sl_merged *m)
{
	static char buf[512];
	buf[0] = '\0';
	sl_pairs p = sl_merged_node_selector(m);
	for (const sl_pair *pr; (pr = sl_merge_pairs_next(&p));)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s=%s%s", buf[0] ? " " : "",
			 sl_scalar(pr->key), sl_scalar(pr->value), p.from_base ? "[T]" : "");
	return buf;
}

#define RUNTIME(kind, name, ns, spec) \
	"apiVersion: serving.kserve.io/v1alpha1\nkind: " kind "\nmetadata: {name: " name ns "}\n" \
	"spec:\n  supportedModelFormats: [{name: huggingface}]\n" spec \
	"  containers: [{name: kserve-container, image: vllm}]\n---\n"
#define ISVC(name, annotations, predictor) \
	"apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: " name \
	"\n  namespace: llm\n" annotations "spec:\n  predictor:\n" predictor \
	"    model: {modelFormat: {name: huggingface}, runtime: vllm}\n---\n"

static const char RT_SPEC[] =
	"  nodeSelector: {gpu: \"true\", zone: a}\n"
	"  tolerations:\n"
	"    - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n"
	"    - {key: dedicated, operator: Equal, value: llm, effect: NoSchedule}\n"
	"  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
	"        nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [gpu]}]}]\n"
	"  topologySpreadConstraints:\n"
	"    - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n";

Test(merge, kserve_a_non_empty_list_replaces_the_runtimes)
{
	char yaml[4096];
	snprintf(yaml, sizeof yaml,
		 RUNTIME("ServingRuntime", "vllm", ", namespace: llm", "%s")
		 ISVC("chat", "", "    tolerations: [{key: team, operator: Exists}]\n"), RT_SPEC);
	built *b = build(yaml);
	const sl_unit *rt = unit(b, SL_KIND_SERVING_RUNTIME, "vllm", SL_ROLE_RUNTIME);
	sl_merged m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_INFERENCE_SERVICE, "chat", SL_ROLE_PREDICTOR));
	cr_assert_eq(m.base, rt, "the predictor is merged over its runtime");
	cr_expect_not(m.append, "KServe: lists are atomic");
	cr_expect_str_eq(keys(sl_merged_tolerations(&m)), "team");
	cr_expect_eq(sl_merge_items_count(sl_merged_tolerations(&m)), 1);
	/* what the predictor does not set comes from the runtime */
	cr_expect_str_eq(keys(sl_merged_spread(&m)), "zone[T]");
	cr_expect_eq(sl_merge_items_count(sl_merged_affinity_list(
		&m, "nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms")), 1);
	cr_expect(sl_merged_has_node_selection(&m));
	done(b);
}

Test(merge, kserve_an_absent_or_empty_list_keeps_the_runtimes)
{
	char yaml[4096];
	snprintf(yaml, sizeof yaml,
		 RUNTIME("ServingRuntime", "vllm", ", namespace: llm", "%s")
		 ISVC("absent", "", "    minReplicas: 1\n")
		 ISVC("empty", "", "    tolerations: []\n"), RT_SPEC);
	built *b = build(yaml);
	for (int i = 0; i < 2; i++) {
		sl_merged m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_INFERENCE_SERVICE,
							  i ? "empty" : "absent", SL_ROLE_PREDICTOR));
		cr_assert_not_null(m.base);
		cr_expect_str_eq(keys(sl_merged_tolerations(&m)), "nvidia.com/gpu[T] dedicated[T]",
				 "%s", i ? "empty" : "absent");
	}
	done(b);
}

/* nodeSelector maps merge: the predictor's pairs, then the runtime's whose key it does not set. */
Test(merge, kserve_node_selectors_merge_the_predictor_winning)
{
	char yaml[4096];
	snprintf(yaml, sizeof yaml,
		 RUNTIME("ServingRuntime", "vllm", ", namespace: llm", "%s")
		 ISVC("chat", "", "    nodeSelector: {zone: b, team: x}\n"), RT_SPEC);
	built *b = build(yaml);
	sl_merged m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_INFERENCE_SERVICE, "chat", SL_ROLE_PREDICTOR));
	cr_expect_str_eq(selector(&m), "zone=b team=x gpu=true[T]");
	done(b);
}

/* The runtime is looked up in the InferenceService's namespace, else among the
** ClusterServingRuntimes; a runtime of that name in another namespace is not it. */
Test(merge, kserve_the_runtime_of_the_namespace_else_the_cluster_runtime)
{
	built *b = build(RUNTIME("ServingRuntime", "vllm", ", namespace: other",
				 "  tolerations: [{key: other-ns, operator: Exists}]\n")
			 RUNTIME("ClusterServingRuntime", "vllm", "",
				 "  tolerations: [{key: cluster-wide, operator: Exists}]\n")
			 ISVC("chat", "", "    minReplicas: 1\n"));
	sl_merged m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_INFERENCE_SERVICE, "chat", SL_ROLE_PREDICTOR));
	cr_assert_eq(m.base, unit(b, SL_KIND_CLUSTER_SERVING_RUNTIME, "vllm", SL_ROLE_RUNTIME));
	cr_expect_str_eq(keys(sl_merged_tolerations(&m)), "cluster-wide[T]");
	done(b);
	b = build(RUNTIME("ServingRuntime", "vllm", ", namespace: other",
			  "  tolerations: [{key: other-ns, operator: Exists}]\n")
		  ISVC("chat", "", "    tolerations: [{key: own, operator: Exists}]\n"));
	m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_INFERENCE_SERVICE, "chat", SL_ROLE_PREDICTOR));
	cr_expect_null(m.base, "no runtime in the namespace, no cluster runtime: no template");
	cr_expect_str_eq(keys(sl_merged_tolerations(&m)), "own");
	cr_expect_str_eq(selector(&m), "");
	cr_expect_not(sl_merged_has_node_selection(&m));
	done(b);
}

/* A predictor's workerSpec merges over the runtime's workerSpec, not over its main pod. */
Test(merge, kserve_a_worker_over_the_runtimes_worker)
{
	built *b = build(RUNTIME("ServingRuntime", "vllm", ", namespace: llm",
				 "  tolerations: [{key: head, operator: Exists}]\n"
				 "  workerSpec:\n    tolerations: [{key: worker, operator: Exists}]\n"
				 "    containers: [{name: worker-container, image: vllm}]\n")
			 ISVC("chat", "", "    workerSpec: {pipelineParallelSize: 2}\n"));
	const sl_unit *w = unit(b, SL_KIND_INFERENCE_SERVICE, "chat", SL_ROLE_WORKER);
	sl_merged m = sl_merge_unit(&b->o.ix, w);
	cr_assert_eq(m.base, unit(b, SL_KIND_SERVING_RUNTIME, "vllm", SL_ROLE_WORKER));
	cr_expect_str_eq(keys(sl_merged_tolerations(&m)), "worker[T]");
	m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_INFERENCE_SERVICE, "chat", SL_ROLE_PREDICTOR));
	cr_expect_str_eq(keys(sl_merged_tolerations(&m)), "head[T]");
	done(b);
}

/* ModelMesh serves from shared runtime pods: a predictor there is merged over nothing. */
Test(merge, kserve_modelmesh_has_no_template)
{
	char yaml[4096];
	snprintf(yaml, sizeof yaml,
		 RUNTIME("ServingRuntime", "vllm", ", namespace: llm", "%s")
		 ISVC("mm", "  annotations: {serving.kserve.io/deploymentMode: ModelMesh}\n",
		      "    minReplicas: 1\n"), RT_SPEC);
	built *b = build(yaml);
	sl_merged m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_INFERENCE_SERVICE, "mm", SL_ROLE_PREDICTOR));
	cr_expect_null(m.base);
	cr_expect_eq(sl_merge_items_count(sl_merged_tolerations(&m)), 0);
	done(b);
}

#define SERVER_CONFIG(pod) \
	"apiVersion: mlops.seldon.io/v1alpha1\nkind: ServerConfig\nmetadata: {name: mlserver}\n" \
	"spec:\n  podSpec:\n" pod "    containers: [{name: mlserver, image: seldonio/mlserver}]\n---\n"
#define SERVER(name, config, pod) \
	"apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\nmetadata: {name: " name "}\n" \
	"spec:\n  serverConfig: " config "\n  podSpec:\n" pod "---\n"

/* Seldon appends: the ServerConfig's tolerations, then the Server's; maps merge, the Server
** winning. */
Test(merge, seldon_a_server_appends_to_its_server_config)
{
	built *b = build(SERVER_CONFIG("    nodeSelector: {pool: cpu, zone: a}\n"
				       "    tolerations:\n"
				       "      - {key: dedicated, operator: Equal, value: inference}\n"
				       "      - {key: spot, operator: Exists}\n")
			 SERVER("mlserver-a", "mlserver",
				"    nodeSelector: {pool: gpu}\n"
				"    tolerations: [{key: nvidia.com/gpu, operator: Exists}]\n")
			 SERVER("lost", "no-such-config",
				"    tolerations: [{key: own, operator: Exists}]\n"));
	const sl_unit *sc = unit(b, SL_KIND_SELDON_SERVER_CONFIG, "mlserver", SL_ROLE_SERVER);
	sl_merged m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_SELDON_SERVER, "mlserver-a", SL_ROLE_SERVER));
	cr_assert_eq(m.base, sc);
	cr_expect(m.append, "Seldon: lists are appended");
	cr_expect_str_eq(keys(sl_merged_tolerations(&m)), "dedicated[T] spot[T] nvidia.com/gpu");
	cr_expect_eq(sl_merge_items_count(sl_merged_tolerations(&m)), 3);
	cr_expect_str_eq(selector(&m), "pool=gpu zone=a[T]");
	/* a Server whose ServerConfig is not among the files: its own fields only */
	m = sl_merge_unit(&b->o.ix, unit(b, SL_KIND_SELDON_SERVER, "lost", SL_ROLE_SERVER));
	cr_expect_null(m.base);
	cr_expect_str_eq(keys(sl_merged_tolerations(&m)), "own");
	/* a template is merged over nothing itself */
	m = sl_merge_unit(&b->o.ix, sc);
	cr_expect_null(m.base);
	done(b);
}

Test(merge, which_kinds_are_templates)
{
	cr_expect(sl_merge_kind_is_template(SL_KIND_SERVING_RUNTIME));
	cr_expect(sl_merge_kind_is_template(SL_KIND_CLUSTER_SERVING_RUNTIME));
	cr_expect(sl_merge_kind_is_template(SL_KIND_SELDON_SERVER_CONFIG));
	cr_expect(sl_merge_kind_is_template(SL_KIND_LLM_INFERENCE_SERVICE_CONFIG));
	cr_expect_not(sl_merge_kind_is_template(SL_KIND_INFERENCE_SERVICE));
	cr_expect_not(sl_merge_kind_is_template(SL_KIND_SELDON_SERVER));
	cr_expect_not(sl_merge_kind_is_template(SL_KIND_POD));
}
