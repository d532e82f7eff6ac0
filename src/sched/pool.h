/* SPDX-License-Identifier: Apache-2.0
** pool.h: node pools (spec/cluster.md §2), sets of interchangeable nodes, from four sources:
** the config's cluster.node-pools, Karpenter NodePools (karpenter.sh v1 and v1beta1), eksctl
** ClusterConfig node groups, and a node dump (a List or NodeList of Node) grouped by pool label.
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
	SL_POOL_NODES          /* nodes of a dump sharing a pool label (or one node) */
} sl_pool_origin;

/* What one node of the pool offers of a resource, in milli-units (MilliValue). */
typedef struct sl_pool_resource {
	const char *name;
	int64_t milli;              /* the most a node offers */
	bool uneven;                /* some nodes offer less (several instance types, nodes) */
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
	sl_pool_resource *alloc;    /* per-node allocatable, when known */
	size_t n_alloc;
	bool alloc_declared;        /* alloc lists everything the nodes offer (an extended resource
				       not in it is not offered) */
	sl_tri gpu;                 /* YES: the nodes offer a GPU; UNKNOWN: an autoscaler that may
				       launch GPU instances; NO */
	const char *gpu_resource;   /* the GPU resource offered, when known */
	sl_tri spot;                /* YES: only spot; UNKNOWN: spot or on-demand; NO: no spot */
	long min_nodes, max_nodes;  /* the pool's size; -1 when unknown */
} sl_pool;

typedef struct sl_pool_set sl_pool_set;

/* True for the kinds pools come from: List/NodeList (of Node), NodePool, ClusterConfig. */
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

/* The requirement on key, or NULL. */
const sl_requirement *sl_pool_requirement(const sl_pool *p, const char *key);
/* The allocatable of resource name, or NULL when the pool does not say. */
const sl_pool_resource *sl_pool_allocatable(const sl_pool *p, const char *name);
/* True when every node of p offers exactly *milli of resource name, as far as the pool says:
** its allocatable when all its nodes state the same amount (a config pool, a node group of one
** instance type, a dump's nodes); for a NodePool of GPU nodes (its gpu_resource), a
** karpenter.k8s.aws/instance-gpu-count (or karpenter.azure.com/sku-gpu-count) requirement with
** one value, or instance types of one AWS GPU family whose count the table knows. False when the
** pool does not say, or says several amounts. */
bool sl_pool_per_node(const sl_pool *p, const char *name, int64_t *milli);
/* True when a pod may select key on p without p saying its values (allow_well_known). */
bool sl_pool_key_allowed_undefined(const sl_pool *p, const char *key, size_t n);
/* "config", "NodePool", "eksctl", "nodes". */
const char *sl_pool_origin_name(sl_pool_origin o);
/* The GPU resource and count an AWS instance type offers ("p4d.24xlarge": nvidia.com/gpu, 8);
** false when its family is not a GPU family of the table. *count is 0 when only the family is
** known. */
bool sl_pool_aws_gpu(const char *instance_type, const char **resource, int *count);

#endif
