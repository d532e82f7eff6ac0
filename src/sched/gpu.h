/* SPDX-License-Identifier: Apache-2.0
** gpu.h: GPUs as the rules see them: which resources and DRA device classes are GPUs (the
** config's gpu-resources and gpu-device-classes), what a unit requests or claims, and the taint
** keys GPU nodes carry. */
#ifndef SL_GPU_H
#define SL_GPU_H

#include <stdbool.h>
#include "config/values.h"
#include "sched/index_lookups.h"
#include "model/model.h"

/* The taint key GPU nodes carry for a GPU resource: the resource name, except that the nodes
** of nvidia.com/mig-* resources carry nvidia.com/gpu. */
const char *sl_gpu_taint_key(const char *resource);
/* True when the quantity node is a zero ("0", 0, "0.0"): a request of nothing. */
bool sl_gpu_quantity_is_zero(const sl_node *q);
/* The GPU entries of a container: the entries of its limits, then of its requests, that name a
** GPU resource (sl_config_is_gpu_resource) with a non-zero quantity:
**   sl_gpu_entries it = sl_gpu_container_entries(cfg, c);
**   for (const sl_pair *p; (p = sl_gpu_entries_next(&it));) ... */
typedef struct sl_gpu_entries {
	const sl_config *cfg;
	const sl_container *c;
	int list;                   /* 0: limits, 1: requests, 2: done */
	size_t i;
	bool limit;                 /* set by sl_gpu_entries_next: the entry is a limit, not a request */
} sl_gpu_entries;
sl_gpu_entries sl_gpu_container_entries(const sl_config *cfg, const sl_container *c);
/* The next GPU entry, or NULL at the end. */
const sl_pair *sl_gpu_entries_next(sl_gpu_entries *it);
/* The requests of u's containers (init containers too, in container order) that name a GPU
** resource (sl_config_is_gpu_resource) or another extended resource (sl_k8s_is_extended_resource):
** the resources whose request the API server holds to the limit (they cannot be overcommitted),
** whatever the quantity:
**   sl_gpu_requests it = sl_gpu_extended_requests(cfg, u);
**   for (const sl_pair *p; (p = sl_gpu_requests_next(&it));) ... it.c, it.name, it.gpu */
typedef struct sl_gpu_requests {
	const sl_config *cfg;
	const sl_unit *u;
	size_t ci, i;               /* the next container, the next entry of its requests */
	const sl_container *c;      /* set by sl_gpu_requests_next: the entry's container */
	const char *name;           /* ... the resource */
	bool gpu;                   /* ... a GPU resource, not just extended */
} sl_gpu_requests;
sl_gpu_requests sl_gpu_extended_requests(const sl_config *cfg, const sl_unit *u);
/* The next such request (its key the resource, its value the quantity), or NULL at the end. */
const sl_pair *sl_gpu_requests_next(sl_gpu_requests *it);
/* The first GPU resource container c limits or requests (non-zero), or NULL. */
const char *sl_gpu_container_resource(const sl_config *cfg, const sl_container *c);
/* The first GPU resource any container of u limits or requests (non-zero), or NULL. */
const char *sl_gpu_unit_resource(const sl_config *cfg, const sl_unit *u);
/* The GPUs u's containers ask for: per container its GPU limits, else its requests (init
** containers left out), summed; a quantity that is not a whole number counts as none. */
long long sl_gpu_unit_count(const sl_config *cfg, const sl_unit *u);
/* How u uses GPUs (spec/rules.md "requests a GPU"): the one question every GPU rule asks. */
typedef struct sl_gpu_use {
	sl_tri value;               /* YES: a container requests or limits a GPU resource (non-zero),
				       or claims a DRA device whose ResourceClaim / ResourceClaimTemplate
				       among the linted files asks for a class in gpu-device-classes;
				       UNKNOWN: no such evidence, but a container claims a device
				       through a claim that cannot be resolved (GPU-absence rules stay
				       quiet); NO otherwise */
	const char *resource;       /* the first GPU resource requested or limited, NULL when none */
	const char *device_class;   /* the first GPU device class claimed, NULL when none */
} sl_gpu_use;
sl_gpu_use sl_gpu_unit_use(const sl_index *ix, const sl_unit *u);
/* The GPU device class that a container's claim entry (an item of resources.claims) gets
** through u's pod resourceClaims (any request of the claim: all are allocated to the pod), or
** NULL; *resolved is false when the claim names no pod
** claim or no ResourceClaim / ResourceClaimTemplate among the linted files. */
const char *sl_gpu_claim_class(const sl_index *ix, const sl_unit *u, const sl_node *entry,
			       bool *resolved);
/* The taint key GPU nodes carry for a DRA device class: nvidia.com/gpu for a class named like
** gpu.nvidia.com, amd.com/gpu for gpu.amd.com; NULL when no conventional taint is known. */
const char *sl_gpu_class_taint_key(const char *device_class);
/* The TPU chips one host (node) of a GKE TPU slice has, from its node labels
** cloud.google.com/gke-tpu-topology ("2x4", "2x2x1") and cloud.google.com/gke-tpu-accelerator
** (NULL when not known): a single-host slice has every chip of its topology on its one host (at
** most 8 for v5e and v6e, whose topologies are 2-D, and 4 for v3, v4, v5p and TPU7x), a
** multi-host slice 4 per host. 0 when the topology is not one. */
int sl_gpu_tpu_chips_per_host(const char *topology, const char *accelerator);
/* True when key is the taint key of a GPU u uses: of a GPU resource it requests or limits
** (sl_gpu_taint_key), or of a GPU device class it claims (sl_gpu_class_taint_key). */
bool sl_gpu_unit_taint(const sl_index *ix, const sl_unit *u, const char *key);

#endif
