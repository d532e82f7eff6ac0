/* SPDX-License-Identifier: Apache-2.0
** placement.h: can a unit's pods land on a node pool? (spec/cluster.md §3) The filters
** kube-scheduler runs, in its order, on the pod that is really created (the unit merged over its
** runtime or ServerConfig, the GKE accelerator annotation turned into its nodeSelector, the
** tolerations admission adds):
**   TaintToleration   every NoSchedule / NoExecute taint of the pool tolerated
**                     (pkg/scheduler/framework/plugins/tainttoleration, core/v1 ToleratesTaint);
**   NodeAffinity      the nodeSelector and one required term against the pool's labels
**                     (plugins/nodeaffinity, component-helpers scheduling/corev1/nodeaffinity);
**                     against a pool's requirements with Karpenter's Compatible
**                     (pkg/scheduling/requirements.go), which is the same on exact labels;
**   NodeResourcesFit  the pod's requests (max of the init containers' and the sum of the
**                     containers', pod-level resources when set) within one node's allocatable
**                     (or the most its instance types offer); an extended resource the pool does
**                     not offer never fits;
**   limits            a Karpenter NodePool's spec.limits: a request above them, or a limit of 0
**                     on what every node has, launches nothing (karpenter scheduler.go
**                     filterByRemainingResources).
** A Kueue ResourceFlavor is judged as Kueue's flavor assigner does (flavorassigner.go
** checkFlavorForPodSets: its taints with the flavor's tolerations, then the selection on its own
** label keys), and only for a workload Kueue admits. Unknown is not absent: a placeholder value,
** a node agent's label the pool does not state, matchFields where node names are not known
** neither match nor refuse. Reasons are worded like the scheduler's (Karpenter's, Kueue's) own. */
#ifndef SL_PLACEMENT_H
#define SL_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include "util/arena.h"
#include "sched/index_lookups.h"
#include "model/model.h"
#include "sched/pool.h"

typedef enum sl_placement_filter {
	SL_PLACEMENT_NODE_NAME = 0,   /* spec.nodeName: the scheduler is bypassed, no verdict */
	SL_PLACEMENT_TAINT,           /* TaintToleration */
	SL_PLACEMENT_AFFINITY,        /* NodeAffinity */
	SL_PLACEMENT_RESOURCES,       /* NodeResourcesFit */
	SL_PLACEMENT_LIMITS,          /* a NodePool's spec.limits */
	SL_PLACEMENT_QUEUE            /* a ResourceFlavor, for a workload Kueue does not admit */
} sl_placement_filter;

/* One filter that fails. */
typedef struct sl_placement_reason {
	sl_placement_filter filter;
	const char *text;        /* the scheduler's words: "node(s) had untolerated taint
				    {nvidia.com/gpu: present}", "node(s) didn't match Pod's node
				    affinity/selector", "Insufficient nvidia.com/gpu" */
	const char *detail;      /* what exactly (NULL when the text says it): "label \"x\" does not
				    have known values", "cpu: requests 8, nodes offer 4" */
	const char *brief;       /* a word for a grid: "taint", "selector", "gpu", "cpu", "memory" */
	const sl_node *at;       /* the unit's field that decides (a nodeSelector entry, an
				    expression, tolerations, a request); NULL when none is written */
	const sl_taint *taint;   /* TaintToleration: the pool's first untolerated taint */
} sl_placement_reason;

#define SL_PLACEMENT_MAX_REASONS 4   /* one per filter */
#define SL_PLACEMENT_MAX_REFUSED 8   /* the unit's fields a pool refuses, kept for a finding */

/* The verdict for one unit on one pool, with its reasons. */
typedef struct sl_placement_verdict {
	bool lands;              /* every filter passes */
	bool applies;            /* false: a ResourceFlavor and a unit Kueue does not admit (the
				    only reason is SL_PLACEMENT_QUEUE) */
	bool unsure;             /* a taint or a toleration holds a placeholder: TaintToleration
				    cannot be decided, and refuses nothing */
	size_t n_reasons;        /* the filters that fail, in the scheduler's order */
	sl_placement_reason reasons[SL_PLACEMENT_MAX_REASONS];
	/* every field of the unit the pool refuses (each failing selector entry, expression or
	** matchFields requirement, the tolerations of an untolerated taint, each request that does
	** not fit or exceeds the limits), in filter order, when every filter was run */
	const sl_node *refused[SL_PLACEMENT_MAX_REFUSED];
	size_t n_refused;
} sl_placement_verdict;

/* The short verdict kept for every unit x pool (sl_placement_unit): words only on demand. */
typedef struct sl_placement_fit {
	bool lands;
	bool applies;            /* see sl_placement_verdict */
	bool unsure;             /* see sl_placement_verdict: when it lands, it may not */
	const char *brief;       /* the first failing filter's word; NULL when it lands */
} sl_placement_fit;

/* The pod a unit creates, as the filters read it; built once per unit. */
typedef struct sl_placement_pod sl_placement_pod;

/* The pod of u (arena a). *out is NULL when u's pods are not scheduled (nodeName set).
** SL_ENOMEM. */
sl_err sl_placement_pod_of(const sl_index *ix, const sl_unit *u, sl_arena *a,
			   sl_placement_pod **out);
/* The verdict of pod on pool p, its reasons in words (strings in a); with a NULL a, the same
** verdict without the words (text and detail NULL): the cheap form for every pool. */
sl_placement_verdict sl_placement_eval(const sl_placement_pod *pod, const sl_pool *p, sl_arena *a);
/* Every failing filter of pod on p, without words (sl_placement_eval with a NULL arena stops at
** the first). */
sl_placement_verdict sl_placement_eval_all(const sl_placement_pod *pod, const sl_pool *p);
/* A unit on every pool of the index: fit[i] is the unit on pools[i], for i below n; pod is the
** unit's pod, for sl_placement_eval's words. */
typedef struct sl_placement {
	const sl_placement_fit *fit;
	const sl_pool *pools;
	const sl_placement_pod *pod;
	size_t n;                /* 0: no pool is known, or the unit is not judged */
} sl_placement;
/* u on every pool of the index (in arena a). out->n is 0 when no pool is known, u is not
** scheduled (nodeName), or u is a template (a ServingRuntime, ServerConfig...: its pods are the
** units' that use it). SL_ENOMEM. */
sl_err sl_placement_unit(const sl_index *ix, const sl_unit *u, sl_arena *a, sl_placement *out);
/* The pools of a placement, one after the other (all, or only those the unit lands on):
**     for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);)
**         ... it.pool->name, it.fit->lands, it.i ... */
typedef struct sl_placement_iter {
	const sl_placement *p;
	bool landing;            /* only the pools the unit lands on */
	size_t i;                /* after sl_placement_next: the pool's index in p */
	const sl_pool *pool;     /* ... the pool */
	const sl_placement_fit *fit;   /* ... the unit on it */
	bool started;
} sl_placement_iter;
sl_placement_iter sl_placement_pools(const sl_placement *p, bool landing);
/* Moves it to the next pool; false past the last. */
bool sl_placement_next(sl_placement_iter *it);
/* The GPU resource the pod requests (non-zero), or NULL. */
const char *sl_placement_pod_gpu(const sl_placement_pod *pod);
/* The i-th resource the pod requests (the pod's requests as NodeResourcesFit counts them,
** non-zero), *milli its amount in milli-units; NULL past the last. */
const char *sl_placement_pod_request(const sl_placement_pod *pod, size_t i, int64_t *milli);
/* The one value the pod's node selection pins node label key to: its nodeSelector's, else the
** value of an In expression with one value on key that every required term has (the same in
** all); NULL when neither says one value. An arena string (a). */
const char *sl_placement_pod_label(const sl_placement_pod *pod, const char *key, sl_arena *a);
/* "8", "500m", "64Gi": a milli-value in a short form for messages (arena). */
const char *sl_placement_quantity(int64_t milli, bool bytes, sl_arena *a);

#endif
