/* SPDX-License-Identifier: Apache-2.0
** test_placement.c: kube-scheduler's filters on a pod and a node pool (src/sched/placement.c), with
** the upstream test tables transcribed: each table names the upstream file and test it comes
** from, and each row keeps the upstream case's name. Nodes become pools of one node (exact
** labels, no well-known keys allowed undefined), as a node dump makes them. Also Karpenter's
** Compatible (requirements.go, with requirements_test.go's compatibility matrix) and the set
** algebra of requirement.go (src/k8s/reqset.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "sched/index.h"
#include "model/model.h"
#include "sched/placement.h"
#include "k8s/reqset.h"

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start,
			  size_t end, const char *message)
{
	(void)payload; (void)rule; (void)doc; (void)start; (void)end;
	cr_assert_fail("the fixture must be valid YAML: %s", message);
}

static void on_report(void *payload, const char *rule, const sl_node *at, const char *message,
		      int quote_fix)
{
	(void)payload; (void)rule; (void)at; (void)quote_fix;
	cr_assert_fail("schema-type report: %s", message);
}

typedef struct fixture {
	sl_config *cfg;
	sl_source *src;
	sl_arena *a;
	sl_tree t;
	sl_object *obj;
	sl_index ix;
} fixture;

/* A Pod whose spec holds `spec` (YAML indented two spaces) besides containers (a YAML flow
** sequence, NULL for one plain container). */
static fixture *pod(const char *spec, const char *containers)
{
	fixture *f = calloc(1, sizeof *f);
	cr_assert_not_null(f);
	cr_assert_eq(sl_config_new_default(&f->cfg), SL_OK);
	char yaml[4096];
	snprintf(yaml, sizeof yaml, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n%s"
		 "  containers: %s\n", spec, containers ? containers : "[{name: a, image: b}]");
	cr_assert_eq(sl_source_from_buffer("p.yaml", yaml, strlen(yaml), &f->src), SL_OK);
	f->a = sl_arena_new();
	cr_assert_eq(sl_tree_parse(f->src, f->a, &f->t, on_tree_issue, f), SL_OK);
	sl_model_ctx mc = {.arena = f->a, .path = "p.yaml", .issue = on_report, .payload = f,
			   .default_mode = sl_config_kserve_default_mode(f->cfg)};
	cr_assert_eq(sl_object_bind(&mc, f->t.docs[0], &f->obj), SL_OK);
	cr_assert_eq(f->obj->n_units, 1);
	sl_index_init(&f->ix, f->cfg);
	cr_assert_eq(sl_index_finish(&f->ix), SL_OK);
	return f;
}

static void done(fixture *f)
{
	sl_index_free(&f->ix);
	sl_arena_free(f->a);
	sl_source_free(f->src);
	sl_config_free(f->cfg);
	free(f);
}

/* A node as a pool: labels "k=v,k2=v2", taints "k=v:Effect,...", allocatable "cpu=10,...". */
typedef struct node_pool {
	sl_pool p;
	sl_requirement reqs[8];
	sl_k8s_str vals[8];
	sl_taint taints[8];
	sl_pool_resource alloc[8];
	char buf[1024];
} node_pool;

static char *next_item(char **s)
{
	if (!*s || !**s)
		return NULL;
	char *item = *s, *comma = strchr(item, ',');
	*s = comma ? comma + 1 : NULL;
	if (comma)
		*comma = '\0';
	return item;
}

static node_pool *node(const char *labels, const char *taints, const char *alloc)
{
	node_pool *n = calloc(1, sizeof *n);
	cr_assert_not_null(n);
	n->p = (sl_pool){.name = "nodeA", .origin = SL_POOL_NODES, .where = "test",
			 .gpu = SL_TRI_NO, .min_nodes = 1, .max_nodes = 1};
	snprintf(n->buf, sizeof n->buf, "%s|%s|%s", labels ? labels : "", taints ? taints : "",
		 alloc ? alloc : "");
	char *l = n->buf, *t = strchr(l, '|'), *r;
	*t++ = '\0';
	r = strchr(t, '|');
	*r++ = '\0';
	for (char *it; (it = next_item(&l));) {
		char *eq = strchr(it, '=');
		*eq = '\0';
		n->vals[n->p.n_reqs] = sl_k8s_cstr(eq + 1);
		n->reqs[n->p.n_reqs] = (sl_requirement){sl_k8s_cstr(it), sl_k8s_cstr("In"),
						       &n->vals[n->p.n_reqs], 1};
		n->p.n_reqs++;
	}
	n->p.reqs = n->reqs;
	for (char *it; (it = next_item(&t));) {
		char why[256];
		cr_assert(sl_k8s_taint_parse(it, strlen(it), &n->taints[n->p.n_taints++], why, sizeof why),
			  "%s: %s", it, why);
	}
	n->p.taints = n->taints;
	for (char *it; (it = next_item(&r));) {
		char *eq = strchr(it, '=');
		*eq = '\0';
		sl_quantity q;
		int64_t milli;
		cr_assert_eq(sl_quantity_parse(eq + 1, strlen(eq + 1), &q), SL_QUANTITY_OK);
		cr_assert(sl_quantity_scaled_value(&q, -3, &milli));
		n->alloc[n->p.n_alloc++] = (sl_pool_resource){it, milli, false, NULL};
	}
	n->p.alloc = n->alloc;
	n->p.alloc_declared = n->p.n_alloc > 0;
	return n;
}

/* The verdict of the pod of f on pool p: "" when it lands, else the first reason's text. */
static const char *verdict(fixture *f, const sl_pool *p)
{
	sl_placement_pod *pd;
	cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
	cr_assert_not_null(pd);
	sl_placement_verdict v = sl_placement_eval(pd, p, f->a);
	cr_assert_eq(v.lands, v.n_reasons == 0);
	/* the cheap form (no words) says the same, with the same first filter */
	sl_placement_verdict quiet = sl_placement_eval(pd, p, NULL);
	cr_assert_eq(quiet.lands, v.lands);
	if (!v.lands)
		cr_assert_str_eq(quiet.reasons[0].brief, v.reasons[0].brief);
	return v.lands ? "" : v.reasons[0].text;
}

struct row {
	const char *name, *spec, *containers, *labels, *taints, *alloc, *want;
};

static void run_table(const struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fixture *f = pod(rows[i].spec, rows[i].containers);
		node_pool *np = node(rows[i].labels, rows[i].taints, rows[i].alloc);
		const char *got = verdict(f, &np->p);
		cr_expect_str_eq(got, rows[i].want, "%s", rows[i].name);
		free(np);
		done(f);
	}
}

#define UNTOL "node(s) had untolerated taint {"
#define AFF "node(s) didn't match Pod's node affinity/selector"

/* kubernetes pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go,
** TestTaintTolerationFilter. */
Test(placement, upstream_taint_toleration_filter)
{
	static const struct row rows[] = {
		{"A pod having no tolerations can't be scheduled onto a node with nonempty taints",
		 "", NULL, "", "dedicated=user1:NoSchedule", "", UNTOL "dedicated: user1}"},
		{"A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
		 "  tolerations: [{key: dedicated, value: user1, effect: NoSchedule}]\n", NULL, "",
		 "dedicated=user1:NoSchedule", "", ""},
		{"A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
		 "  tolerations: [{key: dedicated, operator: Equal, value: user2, effect: NoSchedule}]\n",
		 NULL, "", "dedicated=user1:NoSchedule", "", UNTOL "dedicated: user1}"},
		{"A pod can be scheduled onto the node, with a toleration uses operator Exists that "
		 "tolerates the taints on the node",
		 "  tolerations: [{key: foo, operator: Exists, effect: NoSchedule}]\n", NULL, "",
		 "foo=bar:NoSchedule", "", ""},
		{"A pod has multiple tolerations, node has multiple taints, all the taints are tolerated",
		 "  tolerations: [{key: dedicated, operator: Equal, value: user2, effect: NoSchedule},"
		 " {key: foo, operator: Exists, effect: NoSchedule}]\n", NULL, "",
		 "dedicated=user2:NoSchedule,foo=bar:NoSchedule", "", ""},
		{"A pod has a toleration that keys and values match the taint on the node, but (non-empty) "
		 "effect doesn't match",
		 "  tolerations: [{key: foo, operator: Equal, value: bar, effect: PreferNoSchedule}]\n",
		 NULL, "", "foo=bar:NoSchedule", "", UNTOL "foo: bar}"},
		{"The pod has a toleration that keys and values match the taint on the node, the effect "
		 "of toleration is empty, and the effect of taint is NoSchedule",
		 "  tolerations: [{key: foo, operator: Equal, value: bar}]\n", NULL, "",
		 "foo=bar:NoSchedule", "", ""},
		{"The pod has a toleration that key and value don't match the taint on the node, but the "
		 "effect of taint on node is PreferNoSchedule",
		 "  tolerations: [{key: dedicated, operator: Equal, value: user2, effect: NoSchedule}]\n",
		 NULL, "", "dedicated=user1:PreferNoSchedule", "", ""},
		{"The pod has no toleration, but the effect of taint on node is PreferNoSchedule",
		 "", NULL, "", "dedicated=user1:PreferNoSchedule", "", ""},
	};
	run_table(rows, sizeof rows / sizeof *rows);
}

/* kubernetes pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go, TestNodeAffinity,
** as read at kubernetes/kubernetes commit 17bae91f207a5f2b101e581c90f7a72fc9adef96: its 31 rows
** in upstream order, 20 transcribed here (name, nodeSelector, required node affinity, node labels
** and the Filter verdict; the PreFilter-only expectations are dropped: rows 11 and 12 expect a
** PreFilter Skip and a Filter that passes, rows 30 and 31 run Filter without PreFilter).
** Skipped, 8 rows on matchFields (metadata.name) against the node's name, which a pool has not:
** "Pod with matchFields using In operator that matches the existing node",
** "Pod with matchFields using In operator that does not match the existing node",
** "Pod with two terms: matchFields does not match, but matchExpressions matches",
** "Pod with one term: matchFields does not match, but matchExpressions matches",
** "Pod with one term: both matchFields and matchExpressions match",
** "Pod with two terms: both matchFields and matchExpressions do not match",
** "Pod with two terms of node.Name affinity",
** "Pod with two conflicting mach field requirements";
** and 3 rows on the plugin's args.addedAffinity (scheduler configuration, not the manifest):
** "Matches added affinity and Pod's node affinity",
** "Matches added affinity but not Pod's node affinity", "Doesn't match added affinity".
** The last three rows here are schedlint's, not upstream's (component-helpers
** scheduling/corev1/nodeaffinity semantics: no term, or an empty term, matches no node). */
Test(placement, upstream_node_affinity)
{
#define REQ "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n" \
	    "        nodeSelectorTerms:\n"
/* upstream's two rows with GPU Exists AND NotIn [AMD, INTER] */
#define GPU_NOT_AMD REQ "          - matchExpressions: [{key: GPU, operator: Exists}, " \
		    "{key: GPU, operator: NotIn, values: [AMD, INTER]}]\n"
	static const struct row rows[] = {
		{"missing labels", "  nodeSelector: {foo: bar}\n", NULL, "", "", "", AFF},
		{"same labels", "  nodeSelector: {foo: bar}\n", NULL, "foo=bar", "", "", ""},
		{"node labels are superset", "  nodeSelector: {foo: bar}\n", NULL, "foo=bar,baz=blah",
		 "", "", ""},
		{"node labels are subset", "  nodeSelector: {foo: bar, baz: blah}\n", NULL, "foo=bar",
		 "", "", AFF},
		{"Pod with matchExpressions using In operator that matches the existing node",
		 REQ "          - matchExpressions: [{key: foo, operator: In, values: [bar, value2]}]\n",
		 NULL, "foo=bar", "", "", ""},
		{"Pod with matchExpressions using Gt operator that matches the existing node",
		 REQ "          - matchExpressions: [{key: kernel-version, operator: Gt, values: [\"0204\"]}]\n",
		 NULL, "kernel-version=0206", "", "", ""},
		{"Pod with matchExpressions using NotIn operator that matches the existing node",
		 REQ "          - matchExpressions: [{key: mem-type, operator: NotIn, values: [DDR, DDR2]}]\n",
		 NULL, "mem-type=DDR3", "", "", ""},
		{"Pod with matchExpressions using Exists operator that matches the existing node",
		 REQ "          - matchExpressions: [{key: GPU, operator: Exists}]\n",
		 NULL, "GPU=NVIDIA-GRID-K1", "", "", ""},
		{"Pod with affinity that don't match node's labels won't schedule onto the node",
		 REQ "          - matchExpressions: [{key: foo, operator: In, values: [value1, value2]}]\n",
		 NULL, "foo=bar", "", "", AFF},
		{"Pod with empty MatchExpressions is not a valid value will match no objects and won't "
		 "schedule onto the node", REQ "          - matchExpressions: []\n", NULL, "foo=bar",
		 "", "", AFF},
		{"Pod with no Affinity will schedule onto a node", "", NULL, "foo=bar", "", "", ""},
		{"Pod with Affinity but nil NodeSelector will schedule onto a node",
		 "  affinity:\n    nodeAffinity: {}\n", NULL, "foo=bar", "", "", ""},
		{"Pod with multiple matchExpressions ANDed that matches the existing node",
		 GPU_NOT_AMD,
		 NULL, "GPU=NVIDIA-GRID-K1", "", "", ""},
		{"Pod with multiple matchExpressions ANDed that doesn't match the existing node",
		 REQ "          - matchExpressions: [{key: GPU, operator: Exists}, "
		 "{key: GPU, operator: In, values: [AMD, INTER]}]\n",
		 NULL, "GPU=NVIDIA-GRID-K1", "", "", AFF},
		{"Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and "
		 "will schedule onto the node",
		 REQ "          - matchExpressions: [{key: foo, operator: In, values: [bar, value2]}]\n"
		     "          - matchExpressions: [{key: diffkey, operator: In, values: [wrong, value2]}]\n",
		 NULL, "foo=bar", "", "", ""},
		{"Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) "
		 "both are satisfied, will schedule onto the node",
		 "  nodeSelector: {foo: bar}\n"
		 REQ "          - matchExpressions: [{key: foo, operator: Exists}]\n",
		 NULL, "foo=bar", "", "", ""},
		{"Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing "
		 "that we are deprecating) is not satisfied, won't schedule onto the node",
		 "  nodeSelector: {foo: bar}\n"
		 REQ "          - matchExpressions: [{key: foo, operator: Exists}]\n",
		 NULL, "foo=barrrrrr", "", "", AFF},
		{"Pod with an invalid value in Affinity term won't be scheduled onto the node",
		 REQ "          - matchExpressions: [{key: foo, operator: NotIn, values: [\"invalid value: ___@#$%^\"]}]\n",
		 NULL, "foo=bar", "", "", AFF},
		{"Matches node selector correctly even if PreFilter is not called",
		 "  nodeSelector: {foo: bar}\n", NULL, "foo=bar,baz=blah", "", "", ""},
		{"Matches node affinity correctly even if PreFilter is not called",
		 GPU_NOT_AMD,
		 NULL, "GPU=NVIDIA-GRID-K1", "", "", ""},
		/* schedlint's own rows */
		{"schedlint: no nodeSelectorTerms match no node", REQ "          []\n", NULL, "foo=bar",
		 "", "", AFF},
		{"schedlint: an empty nodeSelectorTerm matches no node", REQ "          - {}\n", NULL,
		 "foo=bar", "", "", AFF},
		{"schedlint: DoesNotExist on a label the node has",
		 REQ "          - matchExpressions: [{key: foo, operator: DoesNotExist}]\n",
		 NULL, "foo=bar", "", "", AFF},
	};
#undef GPU_NOT_AMD
#undef REQ
	run_table(rows, sizeof rows / sizeof *rows);
}

/* kubernetes pkg/scheduler/framework/plugins/noderesources/fit_test.go, TestEnoughRequests,
** adapted: upstream's rows put pods on the node first (9 of its 10 CPUs in use...); a pool is
** judged on an empty node, so the requests here are the rows' scaled to allocatable cpu 10,
** memory 20, example.com/aaa 5 (fit_test's makeAllocatableResources(10, 20, 32, 5, ...)). The
** last two rows are schedlint's (API defaulting of requests to limits, summed containers). */
Test(placement, upstream_enough_requests)
{
#define ALLOC "cpu=10,memory=20,example.com/aaa=5"
	static const struct row rows[] = {
		{"no resources requested always fits", "", NULL, "", "", ALLOC, ""},
		{"too many resources fails (cpu)", "",
		 "[{name: a, resources: {requests: {cpu: \"11\", memory: \"1\"}}}]", "", "", ALLOC,
		 "Insufficient cpu"},
		{"too many resources fails (memory)", "",
		 "[{name: a, resources: {requests: {cpu: \"1\", memory: \"21\"}}}]", "", "", ALLOC,
		 "Insufficient memory"},
		{"init container fits because it's the max, not sum, of containers and init containers",
		 "  initContainers: [{name: i, resources: {requests: {cpu: \"3\", memory: \"1\"}}}]\n",
		 "[{name: a, resources: {requests: {cpu: \"1\", memory: \"1\"}}}]", "", "", ALLOC, ""},
		{"too many resources fails due to init container cpu", "  initContainers: "
		 "[{name: i, resources: {requests: {cpu: \"11\", memory: \"1\"}}}]\n",
		 "[{name: a, resources: {requests: {cpu: \"1\", memory: \"1\"}}}]", "", "", ALLOC,
		 "Insufficient cpu"},
		{"extended resource fits", "",
		 "[{name: a, resources: {requests: {example.com/aaa: \"1\"}}}]", "", "", ALLOC, ""},
		{"extended resource capacity enforced", "",
		 "[{name: a, resources: {requests: {example.com/aaa: \"10\"}}}]", "", "", ALLOC,
		 "Insufficient example.com/aaa"},
		{"extended resource allocatable enforced for unknown resource", "",
		 "[{name: a, resources: {requests: {example.com/bbb: \"1\"}}}]", "", "", ALLOC,
		 "Insufficient example.com/bbb"},
		{"limits alone count as requests (API defaulting)", "",
		 "[{name: a, resources: {limits: {cpu: \"12\"}}}]", "", "", ALLOC, "Insufficient cpu"},
		{"containers are summed", "",
		 "[{name: a, resources: {requests: {cpu: \"6\"}}}, {name: b, resources: {requests: {cpu: \"6\"}}}]",
		 "", "", ALLOC, "Insufficient cpu"},
	};
#undef ALLOC
	run_table(rows, sizeof rows / sizeof *rows);
}

/* The filters run in the scheduler's order and each failing one is kept. */
Test(placement, every_failing_filter_in_order)
{
	fixture *f = pod("  nodeSelector: {foo: bar}\n",
			 "[{name: a, resources: {limits: {nvidia.com/gpu: 1}}}]");
	node_pool *np = node("foo=baz", "nvidia.com/gpu=present:NoSchedule", "cpu=8");
	sl_placement_pod *pd;
	cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
	sl_placement_verdict v = sl_placement_eval(pd, &np->p, f->a);
	cr_assert_eq(v.n_reasons, 3);
	cr_expect_eq(v.reasons[0].filter, SL_PLACEMENT_TAINT);
	cr_expect_str_eq(v.reasons[0].brief, "taint");
	cr_expect_eq(v.reasons[1].filter, SL_PLACEMENT_AFFINITY);
	cr_expect_str_eq(v.reasons[1].brief, "selector");
	cr_expect_eq(v.reasons[2].filter, SL_PLACEMENT_RESOURCES);
	cr_expect_str_eq(v.reasons[2].text, "Insufficient nvidia.com/gpu");
	cr_expect_str_eq(v.reasons[2].brief, "gpu");
	cr_expect_str_eq(sl_placement_pod_gpu(pd), "nvidia.com/gpu");
	/* every filter without words: the same three, the untolerated taint named */
	sl_placement_verdict q = sl_placement_eval_all(pd, &np->p);
	cr_assert_eq(q.n_reasons, 3);
	cr_expect_null(q.reasons[0].text);
	cr_assert_not_null(q.reasons[0].taint);
	cr_expect(sl_k8s_str_is(q.reasons[0].taint->key, "nvidia.com/gpu"));
	cr_expect_eq(q.reasons[2].filter, SL_PLACEMENT_RESOURCES);
	/* and the cheap verdict stops at the first */
	cr_expect_eq(sl_placement_eval(pd, &np->p, NULL).n_reasons, 1);
	free(np);
	done(f);
}

/* A pod with nodeName is not scheduled: no pod to judge. */
Test(placement, node_name_is_not_placed)
{
	fixture *f = pod("  nodeName: n1\n", NULL);
	sl_placement_pod *pd = (void *)1;
	cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
	cr_expect_null(pd);
	done(f);
}

/* kubernetes-sigs/karpenter pkg/scheduling/requirements.go, Compatible: a key the NodePool does
** not define is "label ... does not have known values" unless it is well known or the pod's
** operator is NotIn / DoesNotExist; and the wording of both failures (schedlint's own cases, one
** per branch of Compatible and Intersects). */
Test(placement, karpenter_compatible)
{
	static const struct {
		const char *name, *spec, *want_detail;
	} rows[] = {
		{"custom label the NodePool does not define: In", "  nodeSelector: {team: search}\n",
		 "incompatible with nodepool \"np\", label \"team\" does not have known values"},
		{"custom label the NodePool does not define: NotIn",
		 "  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
		 "{nodeSelectorTerms: [{matchExpressions: [{key: team, operator: NotIn, values: [a]}]}]}}}\n",
		 NULL},
		{"custom label the NodePool does not define: DoesNotExist",
		 "  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
		 "{nodeSelectorTerms: [{matchExpressions: [{key: team, operator: DoesNotExist}]}]}}}\n",
		 NULL},
		{"well-known label the NodePool does not restrict", "  nodeSelector: "
		 "{topology.kubernetes.io/zone: us-west-2a, kubernetes.io/arch: arm64}\n", NULL},
		{"provider label the NodePool does not restrict",
		 "  nodeSelector: {karpenter.k8s.aws/instance-family: g5}\n", NULL},
		{"capacity type outside the NodePool's", "  nodeSelector: {karpenter.sh/capacity-type: spot}\n",
		 "incompatible with nodepool \"np\", key karpenter.sh/capacity-type, "
		 "karpenter.sh/capacity-type In [spot] not in karpenter.sh/capacity-type In [on-demand]"},
		{"instance type Gt bound", "  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
		 "{nodeSelectorTerms: [{matchExpressions: [{key: karpenter.k8s.aws/instance-cpu, operator: Gt, values: [\"64\"]}]}]}}}\n",
		 "incompatible with nodepool \"np\", key karpenter.k8s.aws/instance-cpu, "
		 "karpenter.k8s.aws/instance-cpu Exists >64 not in karpenter.k8s.aws/instance-cpu In [16 32]"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		fixture *f = pod(rows[i].spec, NULL);
		static const sl_k8s_str od[] = {{"on-demand", 9}};
		static const sl_k8s_str cpus[] = {{"16", 2}, {"32", 2}};
		sl_requirement reqs[] = {
			{sl_k8s_cstr("karpenter.sh/capacity-type"), sl_k8s_cstr("In"), od, 1},
			{sl_k8s_cstr("karpenter.k8s.aws/instance-cpu"), sl_k8s_cstr("In"), cpus, 2},
		};
		sl_pool p = {.name = "np", .origin = SL_POOL_KARPENTER, .where = "test", .reqs = reqs,
			     .n_reqs = 2, .allow_well_known = true, .gpu = SL_TRI_UNKNOWN,
			     .min_nodes = -1, .max_nodes = -1};
		sl_placement_pod *pd;
		cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
		sl_placement_verdict v = sl_placement_eval(pd, &p, f->a);
		if (!rows[i].want_detail) {
			cr_expect(v.lands, "%s: %s", rows[i].name, v.n_reasons ? v.reasons[0].detail : "");
		} else {
			cr_expect_not(v.lands, "%s", rows[i].name);
			if (v.n_reasons)
				cr_expect_str_eq(v.reasons[0].detail, rows[i].want_detail, "%s", rows[i].name);
		}
		done(f);
	}
}

/* kubernetes-sigs/karpenter pkg/scheduling/requirement_test.go "should normalize labels" and
** requirements_test.go "should normalize aliased labels" (pkg/apis/v1/labels.go
** NormalizedLabels): the beta keys read as their current names, on a NodePool's and a pod's
** side alike; a dump's pool is matched as its labels are. */
Test(placement, karpenter_normalized_labels)
{
	static const char *const aliases[][2] = {
		{"failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"},
		{"failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"},
		{"beta.kubernetes.io/arch", "kubernetes.io/arch"},
		{"beta.kubernetes.io/os", "kubernetes.io/os"},
		{"beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type"},
		/* karpenter-provider-aws pkg/operator/operator.go init() */
		{"topology.ebs.csi.aws.com/zone", "topology.kubernetes.io/zone"},
		{"topology.kubernetes.io/zone", "topology.kubernetes.io/zone"},
		{"team", "team"},
	};
	for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
		cr_expect(sl_k8s_str_is(sl_k8s_reqset_normalized_key(sl_k8s_cstr(aliases[i][0])),
					aliases[i][1]), "%s", aliases[i][0]);
	static const sl_k8s_str zone[] = {{"us-west-2a", 10}};
	sl_requirement req = {sl_k8s_cstr("topology.kubernetes.io/zone"), sl_k8s_cstr("In"), zone, 1};
	sl_pool np = {.name = "np", .origin = SL_POOL_KARPENTER, .where = "test", .reqs = &req,
		      .n_reqs = 1, .allow_well_known = true, .gpu = SL_TRI_UNKNOWN,
		      .min_nodes = -1, .max_nodes = -1};
	fixture *f = pod("  nodeSelector: {failure-domain.beta.kubernetes.io/zone: us-west-2b}\n", NULL);
	sl_placement_pod *pd;
	cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
	sl_placement_verdict v = sl_placement_eval(pd, &np, f->a);
	cr_expect_not(v.lands, "another zone under the beta key");
	done(f);
	f = pod("  nodeSelector: {failure-domain.beta.kubernetes.io/zone: us-west-2a}\n", NULL);
	cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
	cr_expect(sl_placement_eval(pd, &np, f->a).lands, "the same zone under the beta key");
	/* a node of a dump with only the current label: kube-scheduler matches labels as they are */
	node_pool *n = node("topology.kubernetes.io/zone=us-west-2a", NULL, NULL);
	cr_expect_not(sl_placement_eval(pd, &n->p, f->a).lands, "a dump is matched literally");
	free(n);
	done(f);
}

/* Placeholders ($VAR, ${...}, {{ ... }}) are unknown: neither matching nor refusing. */
Test(placement, placeholders_are_unknown)
{
	static const struct { const char *s; bool ph; } rows[] = {
		{"${INSTANCE_TYPE}", true}, {"$TEAM", true}, {"$_x", true}, {"{{ .Values.zone }}", true},
		{"pre-${VAR}-post", true}, {"g5.xlarge", false}, {"$", false}, {"$1", false},
		{"a$b", false}, {"{x}", false}, {"", false},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		cr_expect_eq(sl_k8s_str_is_placeholder(sl_k8s_cstr(rows[i].s)), rows[i].ph, "%s",
			     rows[i].s);
	fixture *f = pod("  nodeSelector: {team: search, topology.kubernetes.io/zone: \"${ZONE}\"}\n", NULL);
	node_pool *n = node("team=search,topology.kubernetes.io/zone=us-east-1a", NULL, NULL);
	cr_expect_str_eq(verdict(f, &n->p), "", "a pod-side placeholder is unknown");
	free(n);
	done(f);
}

/* A placeholder in a pool's taint or a pod's toleration: TaintToleration is undecided, it
** refuses nothing and the verdict says it is unsure; a concrete one still decides. */
Test(placement, placeholder_taints_and_tolerations_are_unsure)
{
	sl_placement_pod *pd;
	fixture *f = pod("  tolerations: [{key: dedicated, operator: Equal, value: \"${TEAM}-ml\","
			 " effect: NoSchedule}]\n", NULL);
	cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
	node_pool *n = node(NULL, "dedicated=ml:NoSchedule", NULL);
	sl_placement_verdict v = sl_placement_eval(pd, &n->p, f->a);
	cr_expect(v.lands && v.unsure, "a placeholder toleration against a concrete taint");
	free(n);
	n = node(NULL, NULL, NULL);
	v = sl_placement_eval(pd, &n->p, f->a);
	cr_expect(v.lands && !v.unsure, "no taint: nothing to decide");
	free(n);
	done(f);
	f = pod("", NULL);
	cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
	n = node(NULL, "dedicated=ml:NoSchedule", NULL);
	cr_expect_not(sl_placement_eval(pd, &n->p, f->a).lands, "a concrete taint, no toleration");
	n->p.n_taints = 0;
	n->p.taints_unknown = true;   /* what taints_of makes of key: "{{ .Values.taintKey }}" */
	v = sl_placement_eval(pd, &n->p, f->a);
	cr_expect(v.lands && v.unsure, "a pool's placeholder taint refuses nothing");
	free(n);
	done(f);
}

/* kubernetes/component-helpers scheduling/corev1/nodeaffinity/nodeaffinity_test.go, the
** matchFields cases (metadata.name is the only field), on a dump's pool of one node "node_1". */
Test(placement, upstream_match_fields)
{
#define REQ "  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
	static const struct row rows[] = {
		{"Pod with matchFields using In operator that matches the existing node",
		 REQ "[{matchFields: [{key: metadata.name, operator: In, values: [node_1]}]}]}}}\n",
		 NULL, NULL, NULL, NULL, ""},
		{"Pod with matchFields using In operator that does not match the existing node",
		 REQ "[{matchFields: [{key: metadata.name, operator: In, values: [node_2]}]}]}}}\n",
		 NULL, NULL, NULL, NULL, AFF},
		{"Pod with two terms: matchFields does not match, but matchExpressions matches",
		 REQ "[{matchFields: [{key: metadata.name, operator: In, values: [node_2]}]}, "
		 "{matchExpressions: [{key: foo, operator: In, values: [bar]}]}]}}}\n",
		 NULL, "foo=bar", NULL, NULL, ""},
		{"Pod with one term: matchFields does not match, but matchExpressions matches",
		 REQ "[{matchFields: [{key: metadata.name, operator: In, values: [node_2]}], "
		 "matchExpressions: [{key: foo, operator: In, values: [bar]}]}]}}}\n",
		 NULL, "foo=bar", NULL, NULL, AFF},
		{"Pod with one term: both matchFields and matchExpressions match",
		 REQ "[{matchFields: [{key: metadata.name, operator: In, values: [node_1]}], "
		 "matchExpressions: [{key: foo, operator: In, values: [bar]}]}]}}}\n",
		 NULL, "foo=bar", NULL, NULL, ""},
		{"NotIn the node's name", REQ "[{matchFields: [{key: metadata.name, operator: NotIn, "
		 "values: [node_1]}]}]}}}\n", NULL, NULL, NULL, NULL, AFF},
	};
#undef REQ
	static const sl_k8s_str names[] = {{"node_1", 6}};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		fixture *f = pod(rows[i].spec, rows[i].containers);
		node_pool *n = node(rows[i].labels, rows[i].taints, rows[i].alloc);
		n->p.node_names = (sl_k8s_str *)names;
		n->p.n_node_names = 1;
		cr_expect_str_eq(verdict(f, &n->p), rows[i].want, "%s", rows[i].name);
		/* a pool that does not know its nodes' names: unknown, never a refusal */
		n->p.n_node_names = 0;
		if (!rows[i].labels)
			cr_expect_str_eq(verdict(f, &n->p), "", "%s, no node names", rows[i].name);
		free(n);
		done(f);
	}
}

/* kubernetes-sigs/karpenter pkg/controllers/provisioning/suite_test.go, Context "Limits":
** "should not schedule if limits would be exceeded" (2.1 of 2), "should schedule if limits
** would be met" (1.75 of 2); a limit of 0 on cpu launches nothing (scheduler.go
** filterByRemainingResources). */
Test(placement, nodepool_limits)
{
	static const struct { const char *name, *cpu; int64_t limit; bool lands; const char *detail; } rows[] = {
		{"should not schedule if limits would be exceeded", "2.1", 2000, false,
		 "exceeds the pool's limits: cpu 2100m > 2"},
		{"should schedule if limits would be met", "1.75", 2000, true, NULL},
		{"equal is within (Cmp > 0)", "2", 2000, true, NULL},
		{"a limit of 0 admits no node", "100m", 0, false, "the pool's limits allow no node: cpu 0"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		char spec[128];
		snprintf(spec, sizeof spec, "[{name: c, resources: {requests: {cpu: \"%s\"}}}]", rows[i].cpu);
		fixture *f = pod("", spec);
		sl_pool_resource lim = {"cpu", rows[i].limit, false, NULL};
		sl_pool np = {.name = "np", .origin = SL_POOL_KARPENTER, .where = "test",
			      .allow_well_known = true, .gpu = SL_TRI_UNKNOWN, .min_nodes = -1,
			      .max_nodes = -1, .limits = &lim, .n_limits = 1};
		sl_placement_pod *pd;
		cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
		sl_placement_verdict v = sl_placement_eval(pd, &np, f->a);
		cr_expect_eq(v.lands, rows[i].lands, "%s", rows[i].name);
		if (!rows[i].lands && v.n_reasons) {
			cr_expect_eq(v.reasons[0].filter, SL_PLACEMENT_LIMITS, "%s", rows[i].name);
			cr_expect_str_eq(v.reasons[0].text,
					 "all available instance types exceed limits for nodepool");
			cr_expect_str_eq(v.reasons[0].detail, rows[i].detail, "%s", rows[i].name);
			cr_expect_str_eq(v.reasons[0].brief, "limits");
		}
		done(f);
	}
}

/* kubernetes-sigs/karpenter pkg/scheduling/requirement.go, Intersection, Len and Operator, as
** that file defines them (schedlint's own operator pairs, bounds included). */
Test(placement, karpenter_requirement_intersection)
{
	static const sl_k8s_str a[] = {{"A", 1}}, ab[] = {{"A", 1}, {"B", 1}}, b[] = {{"B", 1}};
	static const sl_k8s_str one[] = {{"1", 1}}, nine[] = {{"9", 1}}, five[] = {{"5", 1}};
	struct { sl_requirement x, y; bool empty; const char *op; } rows[] = {
		{{sl_k8s_cstr("k"), sl_k8s_cstr("In"), ab, 2}, {sl_k8s_cstr("k"), sl_k8s_cstr("In"), b, 1}, false, "In"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("In"), a, 1}, {sl_k8s_cstr("k"), sl_k8s_cstr("In"), b, 1}, true, "DoesNotExist"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("In"), a, 1}, {sl_k8s_cstr("k"), sl_k8s_cstr("NotIn"), a, 1}, true, "DoesNotExist"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("NotIn"), a, 1}, {sl_k8s_cstr("k"), sl_k8s_cstr("NotIn"), b, 1}, false, "NotIn"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("Exists"), NULL, 0}, {sl_k8s_cstr("k"), sl_k8s_cstr("DoesNotExist"), NULL, 0}, true, "DoesNotExist"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("Exists"), NULL, 0}, {sl_k8s_cstr("k"), sl_k8s_cstr("In"), a, 1}, false, "In"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("Gt"), one, 1}, {sl_k8s_cstr("k"), sl_k8s_cstr("Lt"), nine, 1}, false, "Exists"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("Gt"), nine, 1}, {sl_k8s_cstr("k"), sl_k8s_cstr("Lt"), one, 1}, true, "DoesNotExist"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("Gt"), one, 1}, {sl_k8s_cstr("k"), sl_k8s_cstr("In"), five, 1}, false, "In"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("Lt"), one, 1}, {sl_k8s_cstr("k"), sl_k8s_cstr("In"), five, 1}, true, "DoesNotExist"},
		{{sl_k8s_cstr("k"), sl_k8s_cstr("Gt"), one, 1}, {sl_k8s_cstr("k"), sl_k8s_cstr("In"), a, 1}, true, "DoesNotExist"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		sl_k8s_reqset x, y, both;
		sl_k8s_reqset_from(&rows[i].x, &x);
		sl_k8s_reqset_from(&rows[i].y, &y);
		sl_k8s_reqset_intersect(&x, &y, &both);
		cr_expect_eq(sl_k8s_reqset_empty(&both), rows[i].empty, "row %zu", i);
		cr_expect_str_eq(sl_k8s_reqset_operator(&both), rows[i].op, "row %zu", i);
	}
}

/* kubernetes-sigs/karpenter pkg/scheduling/requirements_test.go, Describe("Requirements") /
** Context("Compatibility") / It("should be compatible with well-known v1 labels undefined"): the
** NodePool's requirement on topology.kubernetes.io/zone (rows, "existing") against the pod's
** (columns, "incoming"), Succeed = 1. The rows for notIn12 and the bounds are cut off in the
** upstream file as indexed; these ten are transcribed whole. */
Test(placement, upstream_karpenter_compatibility_matrix)
{
	static const char *const sets[][3] = {   /* operator, values (comma-separated) */
		{NULL, NULL}, {"Exists", ""}, {"DoesNotExist", ""}, {"In", "A"}, {"In", "B"},
		{"In", "A,B"}, {"NotIn", "A"}, {"In", "\"1\""}, {"In", "\"9\""}, {"In", "\"1\",\"9\""},
		{"NotIn", "\"1\",\"2\""}, {"Gt", "\"1\""}, {"Gt", "\"9\""}, {"Lt", "\"1\""}, {"Lt", "\"9\""},
	};
	static const char *const names[] = {"unconstrained", "exists", "doesNotExist", "inA", "inB",
		"inAB", "notInA", "in1", "in9", "in19", "notIn12", "greaterThan1", "greaterThan9",
		"lessThan1", "lessThan9"};
	static const char *const want[] = {   /* rows: existing; columns: incoming, in sets' order */
		"111111111111111",   /* unconstrained */
		"110111111111111",   /* exists */
		"101000100010000",   /* doesNotExist */
		"110101000010000",   /* inA */
		"110011100010000",   /* inB */
		"110111100010000",   /* inAB */
		"111011111111111",   /* notInA */
		"110000110100001",   /* in1 */
		"110000101111000",   /* in9 */
		"110000111111001",   /* in19 */
	};
	for (size_t r = 0; r < sizeof want / sizeof *want; r++) {
		for (size_t c = 0; c < sizeof sets / sizeof *sets; c++) {
			char spec[512] = "";
			if (sets[c][0]) {
				char vals[64] = "";
				if (*sets[c][1])
					snprintf(vals, sizeof vals, ", values: [%s]", sets[c][1]);
				snprintf(spec, sizeof spec, "  affinity: {nodeAffinity: "
					 "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
					 "[{matchExpressions: [{key: topology.kubernetes.io/zone, operator: %s%s}]}]}}}\n",
					 sets[c][0], vals);
			}
			fixture *f = pod(spec, NULL);
			sl_k8s_str vals[2];
			size_t nv = 0;
			char buf[16];
			if (sets[r][0] && *sets[r][1]) {   /* the same values, unquoted */
				size_t w = 0;
				for (const char *q = sets[r][1]; *q && w + 1 < sizeof buf; q++)
					if (*q != '"')
						buf[w++] = *q;
				buf[w] = '\0';
				char *comma = strchr(buf, ',');
				if (comma)
					*comma = '\0';
				vals[nv++] = sl_k8s_cstr(buf);
				if (comma)
					vals[nv++] = sl_k8s_cstr(comma + 1);
			}
			sl_requirement req = {sl_k8s_cstr("topology.kubernetes.io/zone"),
					      sl_k8s_cstr(sets[r][0] ? sets[r][0] : ""), vals, nv};
			sl_pool p = {.name = "np", .origin = SL_POOL_KARPENTER, .where = "test",
				     .reqs = &req, .n_reqs = sets[r][0] ? 1 : 0, .allow_well_known = true,
				     .gpu = SL_TRI_UNKNOWN, .min_nodes = -1, .max_nodes = -1};
			sl_placement_pod *pd;
			cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
			bool lands = sl_placement_eval(pd, &p, f->a).lands;
			cr_expect_eq(lands, want[r][c] == '1', "%s.Compatible(%s): got %s", names[r],
				     names[c], lands ? "Succeed" : "not");
			cr_expect_eq(sl_placement_eval(pd, &p, NULL).lands, lands, "%s/%s without words",
				     names[r], names[c]);
			done(f);
		}
	}
}

/* What one node of a pool offers (sl_pool_per_node), and what a pod pins and requests
** (sl_placement_pod_label, sl_placement_pod_request): replicas-without-spread's whole-node
** evidence. */
Test(placement, per_node_amounts_and_pinned_labels)
{
	sl_pool_resource eight[] = {{"nvidia.com/gpu", 8000, false, NULL}};
	sl_pool_resource mixed[] = {{"nvidia.com/gpu", 8000, true, NULL}};
	sl_pool cfgp = {.name = "a100", .origin = SL_POOL_CONFIG, .alloc = eight, .n_alloc = 1,
			.gpu = SL_TRI_YES, .gpu_resource = "nvidia.com/gpu"};
	int64_t per = 0;
	cr_expect(sl_pool_per_node(&cfgp, "nvidia.com/gpu", &per));
	cr_expect_eq(per, 8000);
	cr_expect_not(sl_pool_per_node(&cfgp, "amd.com/gpu", &per));
	sl_pool uneven = cfgp;
	uneven.alloc = mixed;
	uneven.origin = SL_POOL_EKSCTL;
	cr_expect_not(sl_pool_per_node(&uneven, "nvidia.com/gpu", &per),
		      "instance types of several GPU counts");
	static const sl_k8s_str four[] = {{"4", 1}}, two_four[] = {{"2", 1}, {"4", 1}};
	static const sl_k8s_str p4d[] = {{"p4d.24xlarge", 12}, {"p4de.24xlarge", 13}};
	static const sl_k8s_str g5[] = {{"g5.xlarge", 9}, {"g5.48xlarge", 11}};
	sl_requirement count4 = {sl_k8s_cstr("karpenter.k8s.aws/instance-gpu-count"),
				 sl_k8s_cstr("In"), four, 1};
	sl_requirement count24 = {sl_k8s_cstr("karpenter.k8s.aws/instance-gpu-count"),
				  sl_k8s_cstr("In"), two_four, 2};
	sl_requirement types8 = {sl_k8s_cstr("node.kubernetes.io/instance-type"), sl_k8s_cstr("In"),
				 p4d, 2};
	sl_requirement typesg5 = {sl_k8s_cstr("node.kubernetes.io/instance-type"), sl_k8s_cstr("In"),
				  g5, 2};
	sl_pool np = {.name = "np", .origin = SL_POOL_KARPENTER, .reqs = &count4, .n_reqs = 1,
		      .gpu = SL_TRI_YES, .gpu_resource = "nvidia.com/gpu"};
	cr_expect(sl_pool_per_node(&np, "nvidia.com/gpu", &per));
	cr_expect_eq(per, 4000);
	np.reqs = &count24;
	cr_expect_not(sl_pool_per_node(&np, "nvidia.com/gpu", &per), "2 or 4 GPUs a node");
	np.reqs = &types8;
	cr_expect(sl_pool_per_node(&np, "nvidia.com/gpu", &per));
	cr_expect_eq(per, 8000);
	np.reqs = &typesg5;
	cr_expect_not(sl_pool_per_node(&np, "nvidia.com/gpu", &per), "g5 sizes differ in GPUs");

	fixture *f = pod("  nodeSelector: {cloud.google.com/gke-tpu-topology: 2x4}\n"
			 "  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
			 "{nodeSelectorTerms: [{matchExpressions: [{key: cloud.google.com/gke-tpu-accelerator,"
			 " operator: In, values: [tpu-v5-lite-podslice]}, {key: zone, operator: In,"
			 " values: [a, b]}]}, {matchExpressions: [{key: cloud.google.com/gke-tpu-accelerator,"
			 " operator: In, values: [tpu-v5-lite-podslice]}]}]}}}\n",
			 "[{name: a, image: b, resources: {limits: {google.com/tpu: 8, cpu: 2}}}]");
	sl_placement_pod *pd;
	cr_assert_eq(sl_placement_pod_of(&f->ix, &f->obj->units[0], f->a, &pd), SL_OK);
	cr_expect_str_eq(sl_placement_pod_label(pd, "cloud.google.com/gke-tpu-topology", f->a), "2x4");
	cr_expect_str_eq(sl_placement_pod_label(pd, "cloud.google.com/gke-tpu-accelerator", f->a),
			 "tpu-v5-lite-podslice", "the one value every term pins");
	cr_expect_null(sl_placement_pod_label(pd, "zone", f->a), "two values, and one term only");
	int64_t milli;
	bool tpu = false;
	const char *name;
	for (size_t i = 0; (name = sl_placement_pod_request(pd, i, &milli)); i++)
		if (strcmp(name, "google.com/tpu") == 0)
			tpu = milli == 8000;
	cr_expect(tpu, "google.com/tpu: 8 requested (defaulted from its limit)");
	done(f);
}
