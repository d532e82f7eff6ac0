/* SPDX-License-Identifier: Apache-2.0
** pool.h: node pools (spec/cluster.md §2), sets of interchangeable nodes, from five sources:
** the config's cluster.node-pools, Karpenter NodePools (karpenter.sh v1 and v1beta1), eksctl
** ClusterConfig node groups, a node dump (a List or NodeList of Node) grouped by pool label, and
** Kueue ResourceFlavors (the nodes a queued workload is admitted to).
** Every pool is what its nodes may carry, as a set of label requirements in Karpenter's sense
** (pkg/scheduling/requirements.go): a static pool's label `k=v` is `k In [v]`, a NodePool's
** requirements are themselves. Placement (placement.h) reads them. Built once per config from
** the index's objects (index.c keeps the pool kinds' files whole, so positions stay known). */
#ifndef SL_POOL_H
#define SL_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include "config/values.h"
#include "k8s/affinity.h"
#include "k8s/quantity.h"
#include "k8s/taints.h"
#include "model/model.h"

typedef enum sl_pool_origin {
	SL_POOL_CONFIG = 0,    /* cluster.node-pools */
	SL_POOL_KARPENTER,     /* a Karpenter NodePool: an autoscaler */
	SL_POOL_EKSCTL,        /* an eksctl nodeGroups / managedNodeGroups entry */
	SL_POOL_NODES,         /* nodes of a dump sharing a pool label (or one node) */
	SL_POOL_KUEUE,         /* a Kueue ResourceFlavor: only for workloads Kueue admits */
	SL_POOL_KAITO          /* the nodes KAITO provisions for one Workspace (sl_pool_kaito) */
} sl_pool_origin;

/* What one node of the pool offers of a resource, in milli-units (MilliValue); or a NodePool's
** limit of it. */
typedef struct sl_pool_resource {
	const char *name;
	int64_t milli;              /* the most a node offers (a limit: the NodePool's) */
	bool uneven;                /* some nodes offer less (several instance types, nodes) */
	const char *bound;          /* NULL: the nodes' allocatable (a dump's, the config's); else
				       the most a node may offer, and what says so: "instance types"
				       (the instance-type table or instance-gpu-count), a label
				       ("cloud.google.com/gke-accelerator-count=1") */
} sl_pool_resource;

typedef struct sl_pool {
	const char *name;
	sl_pool_origin origin;
	const char *where;          /* "NodePool gpu-a100 (pools.yaml:3)", ".schedlint.yaml:12": how
				       messages name the pool's definition */
	const char *path;           /* the file that defines it (the config's for a config pool) */
	unsigned line;              /* and the line (1-based; 0 when unknown) */
	const sl_object *obj;       /* the manifest that defines it; NULL for a config pool */
	const sl_node *at;          /* its definition in obj (metadata.name, the node group entry) */
	const sl_node *taints_at;   /* obj's taints: node, NULL when none is written */
	/* What its nodes may carry: one requirement per key (already intersected); a static pool's
	** labels are In with one value. */
	sl_requirement *reqs;
	size_t n_reqs;
	/* Keys a pod may select although the pool does not say their values: Karpenter's
	** well-known labels (zone, instance type, arch, os, capacity type, ...) for a NodePool, the
	** labels every Kubernetes node carries (zone, hostname, arch, os, ...) for a config or
	** eksctl pool; none for nodes from a dump, whose labels are known. */
	bool allow_well_known;
	sl_taint *taints;           /* NoSchedule, PreferNoSchedule and NoExecute taints */
	size_t n_taints;
	bool taints_unknown;        /* a taint holds a placeholder ($VAR, ${...}, {{ ... }}): what the
				       pool keeps off is unknown, and it refuses no pod for it */
	sl_pool_resource *alloc;    /* per-node allocatable, when known */
	size_t n_alloc;
	bool alloc_declared;        /* alloc lists everything the nodes offer (an extended resource
				       not in it is not offered) */
	sl_tri gpu;                 /* YES: the nodes offer a GPU; UNKNOWN: an autoscaler that may
				       launch GPU instances; NO */
	const char *gpu_resource;   /* the GPU resource offered, when known */
	sl_tri spot;                /* YES: only spot; UNKNOWN: spot or on-demand; NO: no spot */
	long min_nodes, max_nodes;  /* the pool's size; -1 when unknown */
	const char *cluster;        /* its cluster (an eksctl ClusterConfig's name); NULL: a pool of
				       every cluster (config, NodePool, node dump, ResourceFlavor) */
	sl_pool_resource *limits;   /* a NodePool's spec.limits, for the whole pool */
	size_t n_limits;
	sl_toleration *tolerations; /* a ResourceFlavor's: Kueue adds them to the pods it admits */
	size_t n_tolerations;
	sl_k8s_str *node_names;     /* a dump's nodes' names (matchFields metadata.name) */
	size_t n_node_names;
	sl_k8s_str *unknown_keys;   /* label keys whose value is a placeholder ($VAR, ${...},
				       {{ ... }}): unknown here, they neither match nor refuse */
	size_t n_unknown_keys;
	const char *gpu_model;      /* "A100 40 GB": what the instance-type table says, else NULL */
} sl_pool;

typedef struct sl_pool_set sl_pool_set;

/* True for the kinds pools come from: List/NodeList (of Node), NodePool, ClusterConfig,
** ResourceFlavor. */
bool sl_pool_kind(sl_kind k);
/* The pools of cfg's cluster.node-pools and of the objects (pool kinds among the index's, in
** index order; others are skipped). The set borrows cfg and the objects' trees. SL_ENOMEM. */
sl_err sl_pool_set_build(const sl_config *cfg, const sl_object *const *objs, size_t n_objs,
			 sl_pool_set **out);
void sl_pool_set_free(sl_pool_set *s);
/* The pools, *n of them (0 for a NULL set). */
const sl_pool *sl_pool_set_pools(const sl_pool_set *s, size_t *n);
/* The pools obj defines (a NodePool, a ClusterConfig's node groups, a node dump's groups). */
size_t sl_pool_set_of_object(const sl_pool_set *s, const sl_object *obj, const sl_pool **first);

/* The pool KAITO provisions for unit u of a Workspace with resource.instanceType (u->own_pool):
** nodes of that instance type, labelled with the labelSelector's matchLabels, tainted
** sku=gpu:NoSchedule (kaito pkg/nodeprovision/karpenter/nodepool.go,
** pkg/utils/nodeclaim/nodeclaim.go). *out is NULL when u has no own pool or the instance-type
** table does not know its type as one with accelerators (what the nodes offer is unknown: the
** unit is judged on no pool). Everything lives in a. SL_ENOMEM. */
sl_err sl_pool_kaito(const sl_config *cfg, const sl_unit *u, sl_arena *a, const sl_pool **out);
/* The requirement on key, or NULL. */
const sl_requirement *sl_pool_requirement(const sl_pool *p, const char *key);
/* The allocatable of resource name, or NULL when the pool does not say. */
const sl_pool_resource *sl_pool_allocatable(const sl_pool *p, const char *name);
/* True when every node of p offers exactly *milli of resource name, as far as the pool says:
** its allocatable when all its nodes state the same amount (a config pool, a dump's nodes); the
** instance types it allows when they all offer the same count (the instance-type table), a
** karpenter.k8s.aws/instance-gpu-count (or karpenter.azure.com/sku-gpu-count) requirement with
** one value, GKE's cloud.google.com/gke-accelerator-count, eksctl's instanceSelector gpus. False
** when the pool does not say, or says several amounts. */
bool sl_pool_per_node(const sl_pool *p, const char *name, int64_t *milli);
/* The accelerator resource and count of an instance type of the table (k8s/instance_type.h:
** "p4d.24xlarge": nvidia.com/gpu, 8; "a2-highgpu-2g": 2), or of an AWS family's size the table
** lacks; false when the table does not know it as one with accelerators. *count is 0 when not
** one count (a family's sizes differ, a fractional GPU). */
bool sl_pool_aws_gpu(const char *instance_type, const char **resource, int *count);
/* True when a pod may select key on p without p saying its values (allow_well_known). */
bool sl_pool_key_allowed_undefined(const sl_pool *p, const char *key, size_t n);
/* True when key is a label node agents add at run time (Node Feature Discovery's
** feature.node.kubernetes.io/ keys, GPU Feature Discovery's and the GPU operator's nvidia.com/
** ones):
** unknown on a pool that does not state it (a node dump states every label). */
bool sl_pool_key_by_node_agent(const char *key, size_t n);
/* True when key is unknown on p: a placeholder value, or a node agent's label p does not
** state. */
bool sl_pool_key_unknown(const sl_pool *p, const char *key, size_t n);
/* "config", "NodePool", "eksctl", "nodes", "ResourceFlavor", "KAITO". */
const char *sl_pool_origin_name(sl_pool_origin o);
/* The clusters the set's pools belong to (distinct names, in pool order), *n of them. */
const char *const *sl_pool_set_clusters(const sl_pool_set *s, size_t *n);
/* True when p counts in cluster (NULL: every cluster): p belongs to it or to every cluster. */
bool sl_pool_in_cluster(const sl_pool *p, const char *cluster);

#endif
