/* SPDX-License-Identifier: Apache-2.0
** test_pool.c: node pools (src/sched/pool.c) from each of their sources, as placement reads them:
** a Karpenter NodePool (its template labels and requirements, its own karpenter.sh/nodepool
** label, taints but not startup taints, GPUs from the requirements or the limits, spot from
** karpenter.sh/capacity-type, the well-known keys a pod may select), eksctl node groups
** (unmanaged and managed: labels, list and map taints, instance types and the GPUs of their
** family, spot, sizes), a node dump grouped by pool label (the labels every node shares, the
** allocatable, the node names), Kueue ResourceFlavors, the config's cluster.node-pools; the
** accelerators of instance types (docs/instance-types.md), limits, clusters, placeholders. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "k8s/instance_type.h"
#include "sched/pool.h"

typedef struct built {
	sl_config *cfg;
	sl_test_objects o;
	sl_pool_set *set;
} built;

/* The pools of yaml's objects (named pools.yaml) under the config text cfg (NULL: defaults). */
static built *build(const char *yaml, const char *cfg)
{
	built *b = calloc(1, sizeof *b);
	cr_assert_not_null(b);
	b->cfg = sl_test_config(cfg, "pool-config");
	sl_test_objects_bind(&b->o, b->cfg, "pools.yaml", yaml);
	cr_assert_eq(sl_pool_set_build(b->cfg, (const sl_object *const *)b->o.v, b->o.n, &b->set),
		     SL_OK);
	return b;
}

static void done(built *b)
{
	sl_pool_set_free(b->set);
	sl_test_objects_free(&b->o);
	sl_config_free(b->cfg);
	free(b);
}

static const sl_pool *pool(const built *b, const char *name)
{
	size_t n;
	const sl_pool *p = sl_pool_set_pools(b->set, &n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(p[i].name, name) == 0)
			return &p[i];
	cr_assert_fail("no pool %s", name);
	return NULL;
}

/* The requirement on key as "Op v1,v2", "" when there is none. */
static const char *req(const sl_pool *p, const char *key)
{
	static char buf[256];
	buf[0] = '\0';
	const sl_requirement *r = sl_pool_requirement(p, key);
	if (!r)
		return buf;
	snprintf(buf, sizeof buf, "%.*s ", (int)r->op.n, r->op.s);
	for (size_t i = 0; i < r->n_values; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%.*s", i ? "," : "",
			 (int)r->values[i].n, r->values[i].s);
	return buf;
}

/* Taint i as "key=value:Effect". */
static const char *taint(const sl_pool *p, size_t i)
{
	static char buf[256];
	cr_assert_lt(i, p->n_taints);
	const sl_taint *t = &p->taints[i];
	snprintf(buf, sizeof buf, "%.*s=%.*s:%.*s", (int)t->key.n, t->key.s, (int)t->value.n,
		 t->value.s ? t->value.s : "", (int)t->effect.n, t->effect.s);
	return buf;
}

static long long milli(const sl_pool *p, const char *resource)
{
	const sl_pool_resource *r = sl_pool_allocatable(p, resource);
	return r ? r->milli : -1;
}

static const char NODEPOOLS[] =
	"apiVersion: karpenter.sh/v1\n"
	"kind: NodePool\n"
	"metadata:\n"
	"  name: gpu-a100\n"
	"spec:\n"
	"  template:\n"
	"    metadata:\n"
	"      labels: {team: ml}\n"
	"    spec:\n"
	"      requirements:\n"
	"        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [p4d]}\n"
	"        - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}\n"
	"        - {key: broken, operator: Gt, values: [a, b]}\n"
	"      taints: [{key: nvidia.com/gpu, value: \"true\", effect: NoSchedule}]\n"
	"      startupTaints: [{key: node.example.com/init, effect: NoSchedule}]\n"
	"  limits: {cpu: 1000, nvidia.com/gpu: 16}\n"
	"---\n"
	"apiVersion: karpenter.sh/v1\n"
	"kind: NodePool\n"
	"metadata: {name: cpu}\n"
	"spec:\n"
	"  template:\n"
	"    spec:\n"
	"      requirements:\n"
	"        - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m]}\n"
	"        - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}\n"
	"---\n"
	"apiVersion: karpenter.sh/v1\n"
	"kind: NodePool\n"
	"metadata: {name: anything}\n"
	"spec:\n"
	"  template:\n"
	"    spec:\n"
	"      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]\n";

Test(pool, karpenter_nodepools)
{
	built *b = build(NODEPOOLS, NULL);
	size_t n;
	sl_pool_set_pools(b->set, &n);
	cr_assert_eq(n, 3);
	const sl_pool *g = pool(b, "gpu-a100");
	cr_expect_eq(g->origin, SL_POOL_KARPENTER);
	cr_expect_str_eq(g->where, "NodePool gpu-a100 (pools.yaml:4)");
	cr_expect_str_eq(g->path, "pools.yaml");
	cr_expect_eq(g->line, 4);
	cr_expect_eq(g->obj, b->o.v[0]);
	/* the template's labels, Karpenter's own label, the valid requirements */
	cr_expect_str_eq(req(g, "team"), "In ml");
	cr_expect_str_eq(req(g, "karpenter.sh/nodepool"), "In gpu-a100");
	cr_expect_str_eq(req(g, "karpenter.k8s.aws/instance-family"), "In p4d");
	cr_expect_str_eq(req(g, "karpenter.sh/capacity-type"), "In spot");
	cr_expect_str_eq(req(g, "broken"), "", "an invalid requirement is the NodePool's to reject");
	cr_expect_eq(g->n_reqs, 4);
	/* taints, not startup taints (removed before pods schedule) */
	cr_assert_eq(g->n_taints, 1);
	cr_expect_str_eq(taint(g, 0), "nvidia.com/gpu=true:NoSchedule");
	cr_expect_not_null(g->taints_at);
	cr_expect_eq(g->gpu, SL_TRI_YES);
	cr_expect_str_eq(g->gpu_resource, "nvidia.com/gpu");
	cr_expect_eq(g->spot, SL_TRI_YES, "only spot");
	cr_expect_eq(g->min_nodes, -1);
	cr_expect_eq(g->max_nodes, -1);
	/* the labels Karpenter knows a pod may select without the pool naming them */
	cr_expect(g->allow_well_known);
	const char *zone = "topology.kubernetes.io/zone", *size = "karpenter.k8s.aws/instance-size";
	cr_expect(sl_pool_key_allowed_undefined(g, zone, strlen(zone)));
	cr_expect(sl_pool_key_allowed_undefined(g, size, strlen(size)), "a provider's label");
	cr_expect_not(sl_pool_key_allowed_undefined(g, "team-b", 6));

	const sl_pool *c = pool(b, "cpu");
	cr_expect_eq(c->gpu, SL_TRI_NO, "instance categories c and m have no GPU");
	cr_expect_null(c->gpu_resource);
	cr_expect_eq(c->spot, SL_TRI_UNKNOWN, "spot or on-demand");
	const sl_pool *any = pool(b, "anything");
	cr_expect_eq(any->gpu, SL_TRI_UNKNOWN, "an autoscaler that may launch GPU instances");
	cr_expect_eq(any->spot, SL_TRI_NO, "unrestricted, Karpenter launches on-demand");
	const sl_pool *first;
	cr_expect_eq(sl_pool_set_of_object(b->set, b->o.v[1], &first), 1);
	cr_expect_eq(first, c);
	done(b);
}

/* GPUs said by a limit alone; a GPU count of 0 allowed is not a GPU pool. */
Test(pool, karpenter_gpus_from_limits_and_counts)
{
	built *b = build("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: by-limit}\n"
			 "spec:\n  template: {spec: {requirements: []}}\n  limits: {amd.com/gpu: 4}\n"
			 "---\n"
			 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: no-gpus}\n"
			 "spec:\n  template:\n    spec:\n      requirements:\n"
			 "        - {key: karpenter.k8s.aws/instance-gpu-count, operator: Lt, values: ['1']}\n"
			 "---\n"
			 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: amd}\n"
			 "spec:\n  template:\n    spec:\n      requirements:\n"
			 "        - {key: karpenter.k8s.aws/instance-gpu-manufacturer, operator: In, "
			 "values: [amd]}\n", NULL);
	const sl_pool *p = pool(b, "by-limit");
	cr_expect_eq(p->gpu, SL_TRI_YES);
	cr_expect_str_eq(p->gpu_resource, "amd.com/gpu");
	cr_expect_eq(pool(b, "no-gpus")->gpu, SL_TRI_NO);
	p = pool(b, "amd");
	cr_expect_eq(p->gpu, SL_TRI_YES);
	cr_expect_str_eq(p->gpu_resource, "amd.com/gpu");
	done(b);
}

static const char CLUSTER_CONFIG[] =
	"apiVersion: eksctl.io/v1alpha5\n"
	"kind: ClusterConfig\n"
	"metadata: {name: prod, region: us-east-1}\n"
	"nodeGroups:\n"
	"  - name: cpu\n"
	"    instanceType: m5.large\n"
	"    labels: {role: cpu}\n"
	"    minSize: 1\n"
	"    maxSize: 3\n"
	"  - name: mixed\n"
	"    taints: {dedicated: \"ml:NoSchedule\"}\n"
	"    instancesDistribution:\n"
	"      instanceTypes: [g5.xlarge, m5.large]\n"
	"      onDemandBaseCapacity: 0\n"
	"      onDemandPercentageAboveBaseCapacity: 0\n"
	"managedNodeGroups:\n"
	"  - name: gpu\n"
	"    instanceTypes: [p4d.24xlarge]\n"
	"    spot: true\n"
	"    desiredCapacity: 2\n"
	"    taints: [{key: nvidia.com/gpu, value: \"true\", effect: NoSchedule}]\n";

Test(pool, eksctl_node_groups)
{
	built *b = build(CLUSTER_CONFIG, NULL);
	const sl_pool *first;
	cr_assert_eq(sl_pool_set_of_object(b->set, b->o.v[0], &first), 3);
	cr_expect_str_eq(first->name, "cpu", "the node groups in order, unmanaged first");

	const sl_pool *c = pool(b, "cpu");
	cr_expect_eq(c->origin, SL_POOL_EKSCTL);
	cr_expect_str_eq(c->where, "node group cpu (pools.yaml:5)");
	cr_expect_str_eq(req(c, "role"), "In cpu");
	cr_expect_str_eq(req(c, "alpha.eksctl.io/nodegroup-name"), "In cpu");
	cr_expect_str_eq(req(c, "node.kubernetes.io/instance-type"), "In m5.large");
	cr_expect_str_eq(req(c, "eks.amazonaws.com/nodegroup"), "", "not a managed group");
	cr_expect_eq(c->gpu, SL_TRI_NO);
	cr_expect_eq(c->spot, SL_TRI_NO);
	cr_expect_eq(c->n_taints, 0);
	cr_expect_eq(c->min_nodes, 1);
	cr_expect_eq(c->max_nodes, 3);
	const char *host = "kubernetes.io/hostname";
	cr_expect(sl_pool_key_allowed_undefined(c, host, strlen(host)), "every node has one");

	const sl_pool *m = pool(b, "mixed");
	cr_assert_eq(m->n_taints, 1);
	cr_expect_str_eq(taint(m, 0), "dedicated=ml:NoSchedule", "a map taint, key: value:Effect");
	cr_expect_str_eq(req(m, "node.kubernetes.io/instance-type"), "In g5.xlarge,m5.large");
	cr_expect_eq(m->gpu, SL_TRI_UNKNOWN, "one of its two instance types has GPUs");
	cr_expect_eq(m->spot, SL_TRI_YES, "no on-demand capacity at all");

	const sl_pool *g = pool(b, "gpu");
	cr_expect_str_eq(g->where, "managed node group gpu (pools.yaml:17)");
	cr_expect_str_eq(req(g, "eks.amazonaws.com/nodegroup"), "In gpu");
	cr_expect_str_eq(req(g, "eks.amazonaws.com/capacityType"), "In SPOT");
	cr_expect_eq(g->gpu, SL_TRI_YES);
	cr_expect_str_eq(g->gpu_resource, "nvidia.com/gpu");
	cr_expect_eq(milli(g, "nvidia.com/gpu"), 8000, "a p4d.24xlarge has 8 GPUs");
	cr_expect_eq(g->spot, SL_TRI_YES);
	cr_expect_eq(g->min_nodes, 2);
	cr_expect_eq(g->max_nodes, 2);
	cr_assert_eq(g->n_taints, 1);
	cr_expect_str_eq(taint(g, 0), "nvidia.com/gpu=true:NoSchedule");
	done(b);
}

/* A dump: nodes sharing a pool label are one pool, with the labels all of them carry (every
** value seen) and the largest allocatable; a node without a pool label is a pool of its own. */
Test(pool, a_node_dump_grouped_by_pool_label)
{
	built *b = build(
		"apiVersion: v1\nkind: List\nitems:\n"
		"  - apiVersion: v1\n    kind: Node\n    metadata:\n      name: ip-1\n"
		"      labels: {karpenter.sh/nodepool: gpu, topology.kubernetes.io/zone: a, only-here: x}\n"
		"    spec:\n      taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]\n"
		"    status: {allocatable: {cpu: 7910m, nvidia.com/gpu: '8', memory: 60Gi}}\n"
		"  - apiVersion: v1\n    kind: Node\n    metadata:\n      name: ip-2\n"
		"      labels: {karpenter.sh/nodepool: gpu, topology.kubernetes.io/zone: b}\n"
		"    status: {allocatable: {cpu: '8', nvidia.com/gpu: '8'}}\n"
		"  - apiVersion: v1\n    kind: Node\n    metadata:\n      name: lonely\n"
		"      labels: {kubernetes.io/os: linux}\n"
		"    status: {allocatable: {cpu: '2'}}\n", NULL);
	size_t n;
	sl_pool_set_pools(b->set, &n);
	cr_assert_eq(n, 2);
	const sl_pool *g = pool(b, "gpu");
	cr_expect_eq(g->origin, SL_POOL_NODES);
	cr_expect_str_eq(g->where, "node pool gpu (pools.yaml:7)");
	cr_assert_eq(g->n_node_names, 2, "the names matchFields is decided on");
	cr_expect(sl_k8s_str_is(g->node_names[1], "ip-2"));
	cr_expect_eq(g->min_nodes, 2);
	cr_expect_eq(g->max_nodes, 2);
	cr_expect_str_eq(req(g, "topology.kubernetes.io/zone"), "In a,b");
	cr_expect_str_eq(req(g, "only-here"), "", "a label one node lacks is no label of the pool");
	cr_expect_not(g->allow_well_known, "a dump's labels are known");
	cr_expect(g->alloc_declared);
	cr_expect_eq(milli(g, "cpu"), 8000, "the largest");
	cr_expect_eq(milli(g, "memory"), 60LL * 1024 * 1024 * 1024 * 1000);
	cr_expect_eq(g->gpu, SL_TRI_YES);
	cr_expect_str_eq(g->gpu_resource, "nvidia.com/gpu");
	cr_assert_eq(g->n_taints, 1, "the first node's taints");
	const sl_pool *l = pool(b, "lonely");
	cr_expect_eq(l->min_nodes, 1);
	cr_expect_eq(l->gpu, SL_TRI_NO);
	cr_expect_str_eq(req(l, "kubernetes.io/os"), "In linux");
	done(b);
}

Test(pool, the_configs_node_pools)
{
	built *b = build("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: not-a-pool}\n",
			 "cluster:\n"
			 "  node-pools:\n"
			 "    - name: gpu-a100\n"
			 "      labels: [\"nvidia.com/gpu.product=A100-SXM4-80GB\", \"workload-type=inference\"]\n"
			 "      taints: [\"nvidia.com/gpu=present:NoSchedule\"]\n"
			 "      allocatable: [\"nvidia.com/gpu=8\", \"cpu=96\", \"memory=1100Gi\"]\n"
			 "      nodes: 4\n"
			 "    - name: spot-cpu\n"
			 "      labels: [\"capacity-type=spot\"]\n"
			 "      nodes: 2-10\n");
	size_t n;
	sl_pool_set_pools(b->set, &n);
	cr_assert_eq(n, 2, "a ConfigMap defines no pool");
	const sl_pool *g = pool(b, "gpu-a100");
	cr_expect_eq(g->origin, SL_POOL_CONFIG);
	cr_expect_null(g->obj);
	cr_expect_eq(g->line, 3);
	cr_expect(strstr(g->where, ":3") && strstr(g->where, "pool-config."), "%s", g->where);
	cr_expect_str_eq(req(g, "workload-type"), "In inference");
	cr_expect_str_eq(req(g, "nvidia.com/gpu.product"), "In A100-SXM4-80GB");
	cr_assert_eq(g->n_taints, 1);
	cr_expect_str_eq(taint(g, 0), "nvidia.com/gpu=present:NoSchedule");
	cr_expect(g->alloc_declared);
	cr_expect_eq(milli(g, "nvidia.com/gpu"), 8000);
	cr_expect_eq(milli(g, "cpu"), 96000);
	cr_expect_eq(g->gpu, SL_TRI_YES);
	cr_expect_str_eq(g->gpu_resource, "nvidia.com/gpu");
	cr_expect_eq(g->min_nodes, 4);
	cr_expect_eq(g->max_nodes, 4);
	cr_expect_eq(g->spot, SL_TRI_NO);
	const sl_pool *s = pool(b, "spot-cpu");
	cr_expect_eq(s->spot, SL_TRI_YES, "a spot label of cluster.spot-labels");
	cr_expect_eq(s->gpu, SL_TRI_NO);
	cr_expect_not(s->alloc_declared);
	cr_expect_eq(s->min_nodes, 2);
	cr_expect_eq(s->max_nodes, 10);
	done(b);
}

/* The instance-type table (docs/instance-types.md): a few rows of each provider, an AWS family
** without accelerators, a type no table knows, a fractional GPU. */
Test(pool, instance_types)
{
	static const struct { const char *name; sl_k8s_accel t; int count; const char *res; } rows[] = {
		{"p4d.24xlarge", SL_K8S_ACCEL_SOME, 8, "nvidia.com/gpu"},
		{"p3dn.24xlarge", SL_K8S_ACCEL_SOME, 8, "nvidia.com/gpu"},
		{"g5.xlarge", SL_K8S_ACCEL_SOME, 1, "nvidia.com/gpu"},
		{"g6e.12xlarge", SL_K8S_ACCEL_SOME, 4, "nvidia.com/gpu"},
		{"g4ad.16xlarge", SL_K8S_ACCEL_SOME, 4, "amd.com/gpu"},
		{"inf2.48xlarge", SL_K8S_ACCEL_SOME, 12, "aws.amazon.com/neuron"},
		{"trn1.32xlarge", SL_K8S_ACCEL_SOME, 16, "aws.amazon.com/neuron"},
		{"a2-highgpu-1g", SL_K8S_ACCEL_SOME, 1, "nvidia.com/gpu"},
		{"g2-standard-96", SL_K8S_ACCEL_SOME, 8, "nvidia.com/gpu"},
		{"ct5lp-hightpu-4t", SL_K8S_ACCEL_SOME, 4, "google.com/tpu"},
		{"Standard_NC24ads_A100_v4", SL_K8S_ACCEL_SOME, 1, "nvidia.com/gpu"},
		{"Standard_ND96isr_H100_v5", SL_K8S_ACCEL_SOME, 8, "nvidia.com/gpu"},
		{"Standard_NV6ads_A10_v5", SL_K8S_ACCEL_SOME, -1, "nvidia.com/gpu"},
		{"m6i.large", SL_K8S_ACCEL_NONE, 0, NULL},
		{"c7g.2xlarge", SL_K8S_ACCEL_NONE, 0, NULL},
		{"x9gpu.96xlarge", SL_K8S_ACCEL_UNKNOWN, 0, NULL},
		{"n1-standard-8", SL_K8S_ACCEL_UNKNOWN, 0, NULL},
		{"Standard_D4s_v3", SL_K8S_ACCEL_UNKNOWN, 0, NULL},
		{"p", SL_K8S_ACCEL_UNKNOWN, 0, NULL},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const sl_k8s_instance_type *t;
		sl_k8s_accel got = sl_k8s_instance_type_lookup(rows[i].name, strlen(rows[i].name), &t);
		cr_expect_eq(got, rows[i].t, "%s", rows[i].name);
		if (got == SL_K8S_ACCEL_SOME && t) {
			cr_expect_eq(t->count, rows[i].count, "%s", rows[i].name);
			cr_expect_str_eq(t->resource, rows[i].res, "%s", rows[i].name);
		}
	}
	int min, max;
	const char *res;
	cr_expect_eq(sl_k8s_instance_type_family("g5", 2, &min, &max, &res), SL_K8S_ACCEL_SOME);
	cr_expect_eq(min, 1);
	cr_expect_eq(max, 8);
	cr_expect_eq(sl_k8s_instance_type_family("p4d", 3, &min, &max, &res), SL_K8S_ACCEL_SOME);
	cr_expect(min == 8 && max == 8, "one size, one count");
	cr_expect_eq(sl_k8s_instance_type_family("g6f", 3, &min, &max, &res), SL_K8S_ACCEL_SOME);
	cr_expect_eq(max, -1, "a fractional GPU: the count is unknown");
	cr_expect_eq(sl_k8s_instance_type_family("m5", 2, &min, &max, &res), SL_K8S_ACCEL_NONE);
	cr_expect_eq(sl_k8s_instance_type_family("g7", 2, &min, &max, &res), SL_K8S_ACCEL_UNKNOWN);
	/* what replicas-without-spread reads of a pinned instance type */
	int count;
	cr_expect(sl_pool_aws_gpu("p4d.24xlarge", &res, &count) && count == 8);
	cr_expect(sl_pool_aws_gpu("a2-highgpu-2g", &res, &count) && count == 2);
	cr_expect(sl_pool_aws_gpu("g5.99xlarge", &res, &count) && count == 0,
		  "a size the table lacks: the family's, counts differ");
	cr_expect(!sl_pool_aws_gpu("m5.large", &res, &count));
	cr_expect(!sl_pool_aws_gpu("x9.large", &res, &count));
}

/* The most one node offers, from what a pool says of its instances; a NodePool's limits. */
Test(pool, gpus_per_node_and_limits)
{
	built *b = build(
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: one}\n"
		"spec:\n  template:\n    spec:\n      requirements:\n"
		"        - {key: karpenter.k8s.aws/instance-gpu-count, operator: In, values: ['1']}\n"
		"  limits: {cpu: '0', nvidia.com/gpu: 4}\n"
		"---\n"
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: mid}\n"
		"spec:\n  template:\n    spec:\n      requirements:\n"
		"        - {key: karpenter.k8s.aws/instance-gpu-count, operator: Gt, values: ['1']}\n"
		"        - {key: karpenter.k8s.aws/instance-gpu-count, operator: Lt, values: ['5']}\n"
		"---\n"
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: types}\n"
		"spec:\n  template:\n    spec:\n      requirements:\n"
		"        - {key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge, g5.12xlarge]}\n"
		"---\n"
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: unknown-type}\n"
		"spec:\n  template:\n    spec:\n      requirements:\n"
		"        - {key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge, x9.huge]}\n"
		"---\n"
		"apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: ml}\n"
		"managedNodeGroups:\n"
		"  - {name: inf, instanceType: inf2.24xlarge}\n"
		"  - {name: templated, instanceType: '${TYPE}'}\n"
		"  - {name: selected, instanceSelector: {vCPUs: 8, gpus: 2}}\n",
		"cluster:\n  node-pools:\n"
		"    - {name: gke, labels: [\"cloud.google.com/gke-accelerator=nvidia-l4\", "
		"\"cloud.google.com/gke-accelerator-count=2\"]}\n"
		"    - {name: aks, labels: [\"node.kubernetes.io/instance-type=Standard_NC48ads_A100_v4\"]}\n"
		"    - {name: unknown-vm, labels: [\"node.kubernetes.io/instance-type=Standard_X9\"]}\n");
	const sl_pool *one = pool(b, "one");
	cr_expect_eq(milli(one, "nvidia.com/gpu"), 1000);
	cr_expect_str_eq(sl_pool_allocatable(one, "nvidia.com/gpu")->bound, "instance types");
	cr_assert_eq(one->n_limits, 2);
	cr_expect_str_eq(one->limits[0].name, "cpu");
	cr_expect_eq(one->limits[0].milli, 0);
	cr_expect_eq(one->limits[1].milli, 4000);
	cr_expect_eq(milli(pool(b, "mid"), "nvidia.com/gpu"), 4000, "Lt 5: at most 4");
	const sl_pool *t = pool(b, "types");
	cr_expect_eq(t->gpu, SL_TRI_YES);
	cr_expect_eq(milli(t, "nvidia.com/gpu"), 4000);
	cr_expect_str_eq(t->gpu_model, "A10G 24 GB");
	cr_expect_eq(milli(pool(b, "unknown-type"), "nvidia.com/gpu"), -1, "a type no table knows");
	const sl_pool *inf = pool(b, "inf");
	cr_expect_eq(inf->gpu, SL_TRI_NO, "a Neuron device is no GPU");
	cr_expect_eq(milli(inf, "aws.amazon.com/neuron"), 6000);
	const sl_pool *tm = pool(b, "templated");
	cr_expect_eq(tm->gpu, SL_TRI_UNKNOWN, "a placeholder instance type is unknown");
	cr_expect_str_eq(req(tm, "node.kubernetes.io/instance-type"), "");
	cr_assert_eq(tm->n_unknown_keys, 1);
	const char *it = "node.kubernetes.io/instance-type";
	cr_expect(sl_pool_key_unknown(tm, it, strlen(it)));
	const sl_pool *sel = pool(b, "selected");
	cr_expect_eq(sel->gpu, SL_TRI_YES);
	cr_expect_eq(milli(sel, "nvidia.com/gpu"), 2000, "instanceSelector gpus");
	cr_expect_eq(milli(pool(b, "gke"), "nvidia.com/gpu"), 2000);
	cr_expect_eq(pool(b, "gke")->gpu, SL_TRI_YES);
	cr_expect_eq(milli(pool(b, "aks"), "nvidia.com/gpu"), 2000);
	cr_expect_eq(pool(b, "unknown-vm")->gpu, SL_TRI_UNKNOWN);
	/* exactly so many on every node (replicas-without-spread's whole node), or not said */
	int64_t per;
	cr_expect(sl_pool_per_node(one, "nvidia.com/gpu", &per) && per == 1000, "In [1]");
	cr_expect(!sl_pool_per_node(pool(b, "mid"), "nvidia.com/gpu", &per), "Gt 1, Lt 5: 2 to 4");
	cr_expect(!sl_pool_per_node(t, "nvidia.com/gpu", &per), "g5.xlarge 1, g5.12xlarge 4");
	cr_expect(!sl_pool_per_node(pool(b, "unknown-type"), "nvidia.com/gpu", &per));
	cr_expect(sl_pool_per_node(sel, "nvidia.com/gpu", &per) && per == 2000);
	cr_expect(sl_pool_per_node(pool(b, "gke"), "nvidia.com/gpu", &per) && per == 2000);
	cr_expect(sl_pool_per_node(pool(b, "aks"), "nvidia.com/gpu", &per) && per == 2000);
	done(b);
}

/* Beta label keys are stored under their current names (Karpenter's NormalizedLabels) but in a
** dump; node agents' labels are unknown where a pool does not state them. */
Test(pool, normalized_keys_and_node_agent_labels)
{
	built *b = build(
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np}\n"
		"spec:\n  template:\n    metadata: {labels: {nvidia.com/gpu.product: NVIDIA-L4}}\n"
		"    spec:\n      requirements:\n"
		"        - {key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a]}\n"
		"---\n"
		"apiVersion: v1\nkind: List\nitems:\n"
		"  - apiVersion: v1\n    kind: Node\n    metadata:\n      name: n1\n"
		"      labels: {eks.amazonaws.com/nodegroup: ng, failure-domain.beta.kubernetes.io/zone: a}\n",
		NULL);
	const sl_pool *np = pool(b, "np");
	cr_expect_str_eq(req(np, "topology.kubernetes.io/zone"), "In a");
	cr_expect_str_eq(req(np, "failure-domain.beta.kubernetes.io/zone"), "");
	const char *nfd = "feature.node.kubernetes.io/pci-10de.present", *gfd = "nvidia.com/gpu.present",
		   *vendor = "intel.feature.node.kubernetes.io/x", *stated = "nvidia.com/gpu.product";
	cr_expect(sl_pool_key_unknown(np, nfd, strlen(nfd)));
	cr_expect(sl_pool_key_unknown(np, gfd, strlen(gfd)));
	cr_expect(sl_pool_key_unknown(np, vendor, strlen(vendor)));
	cr_expect_not(sl_pool_key_unknown(np, stated, strlen(stated)), "the NodePool states it");
	cr_expect_not(sl_pool_key_unknown(np, "team", 4));
	const sl_pool *ng = pool(b, "ng");
	cr_expect_str_eq(req(ng, "failure-domain.beta.kubernetes.io/zone"), "In a", "a dump as it is");
	cr_expect_not(sl_pool_key_unknown(ng, gfd, strlen(gfd)), "a dump states every label");
	done(b);
}

/* Each eksctl ClusterConfig is a cluster; cluster.name keeps one; a ResourceFlavor is a pool. */
Test(pool, clusters_and_flavors)
{
	static const char yaml[] =
		"apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: a}\n"
		"managedNodeGroups: [{name: a1, instanceType: m5.large}]\n"
		"---\n"
		"apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: b}\n"
		"managedNodeGroups: [{name: b1, instanceType: m5.large}]\n"
		"---\n"
		"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: spot}\n"
		"spec:\n  nodeLabels: {instance-type: spot}\n"
		"  nodeTaints: [{key: spot, value: 'true', effect: NoSchedule}]\n"
		"  tolerations: [{key: spot, operator: Exists, effect: NoSchedule}]\n";
	built *b = build(yaml, NULL);
	size_t nc;
	const char *const *cl = sl_pool_set_clusters(b->set, &nc);
	cr_assert_eq(nc, 2);
	cr_expect_str_eq(cl[0], "a");
	cr_expect_str_eq(cl[1], "b");
	cr_expect_str_eq(pool(b, "a1")->cluster, "a");
	const sl_pool *f = pool(b, "spot");
	cr_expect_eq(f->origin, SL_POOL_KUEUE);
	cr_expect_null(f->cluster, "a flavor counts in every cluster");
	cr_expect(sl_pool_in_cluster(f, "a"));
	cr_expect_not(sl_pool_in_cluster(pool(b, "b1"), "a"));
	cr_expect_str_eq(f->where, "ResourceFlavor spot (pools.yaml:13)");
	cr_expect_str_eq(req(f, "instance-type"), "In spot");
	cr_expect_eq(f->n_taints, 1);
	cr_expect_eq(f->n_tolerations, 1);
	cr_expect_eq(f->gpu, SL_TRI_UNKNOWN);
	done(b);
	b = build(yaml, "cluster:\n  name: b\n");
	size_t n;
	const sl_pool *all = sl_pool_set_pools(b->set, &n);
	cr_assert_eq(n, 2, "cluster.name: b's node group and the flavor");
	cr_expect_str_eq(all[0].name, "b1");
	done(b);
}

Test(pool, kinds_and_origin_names)
{
	cr_expect(sl_pool_kind(SL_KIND_KARPENTER_NODE_POOL));
	cr_expect(sl_pool_kind(SL_KIND_EKSCTL_CLUSTER_CONFIG));
	cr_expect(sl_pool_kind(SL_KIND_NODE_LIST));
	cr_expect(sl_pool_kind(SL_KIND_KUEUE_RESOURCE_FLAVOR));
	cr_expect_not(sl_pool_kind(SL_KIND_POD));
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_CONFIG), "config");
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_KARPENTER), "NodePool");
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_EKSCTL), "eksctl");
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_NODES), "nodes");
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_KUEUE), "ResourceFlavor");
	size_t n = 7;
	cr_expect_null(sl_pool_set_pools(NULL, &n));
	cr_expect_eq(n, 0);
}
