/* SPDX-License-Identifier: Apache-2.0
** test_pool.c: node pools (src/sched/pool.c) from each of their sources, as placement reads them:
** a Karpenter NodePool (its template labels and requirements, its own karpenter.sh/nodepool
** label, taints but not startup taints, GPUs from the requirements or the limits, spot from
** karpenter.sh/capacity-type, the well-known keys a pod may select), eksctl node groups
** (unmanaged and managed: labels, list and map taints, instance types and the GPUs of their
** family, spot, sizes), a node dump grouped by pool label (the labels every node shares, the
** allocatable) and the config's cluster.node-pools; the AWS GPU families. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
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
	cr_expect_str_eq(g->where, "nodes gpu (pools.yaml:7)");
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

Test(pool, aws_gpu_instance_families)
{
	const char *res = NULL;
	int count = -1;
	cr_expect(sl_pool_aws_gpu("p4d.24xlarge", &res, &count));
	cr_expect_str_eq(res, "nvidia.com/gpu");
	cr_expect_eq(count, 8);
	cr_expect(sl_pool_aws_gpu("p3dn.24xlarge", &res, &count), "p3dn, not p3");
	cr_expect_eq(count, 8);
	cr_expect(sl_pool_aws_gpu("g4ad.xlarge", &res, &count));
	cr_expect_str_eq(res, "amd.com/gpu");
	cr_expect_eq(count, 0, "the sizes differ: the family alone is known");
	cr_expect_not(sl_pool_aws_gpu("m5.large", &res, &count));
	cr_expect_not(sl_pool_aws_gpu("p", &res, &count));
}

Test(pool, kinds_and_origin_names)
{
	cr_expect(sl_pool_kind(SL_KIND_KARPENTER_NODE_POOL));
	cr_expect(sl_pool_kind(SL_KIND_EKSCTL_CLUSTER_CONFIG));
	cr_expect(sl_pool_kind(SL_KIND_NODE_LIST));
	cr_expect_not(sl_pool_kind(SL_KIND_POD));
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_CONFIG), "config");
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_KARPENTER), "NodePool");
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_EKSCTL), "eksctl");
	cr_expect_str_eq(sl_pool_origin_name(SL_POOL_NODES), "nodes");
	size_t n = 7;
	cr_expect_null(sl_pool_set_pools(NULL, &n));
	cr_expect_eq(n, 0);
}
