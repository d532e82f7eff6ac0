/* SPDX-License-Identifier: Apache-2.0
** index_lookups.h: what the project index (index.h) answers, without its layout: objects by
** kind and name, Knative feature flags, runtimes and templates, PriorityClasses and the serving
** units' priorities. Rules query the index through these (rule.h); index.h has the layout and
** the building, for the passes. */
#ifndef SL_INDEX_LOOKUPS_H
#define SL_INDEX_LOOKUPS_H

#include <stdbool.h>
#include <stddef.h>
#include "model/model.h"

typedef struct sl_index sl_index;

typedef enum sl_flag_state {
	SL_FLAG_UNKNOWN = 0,   /* nothing among the files or the config says */
	SL_FLAG_DISABLED,
	SL_FLAG_ENABLED,       /* "enabled" or "allowed": Knative copies the field either way */
} sl_flag_state;

/* Where a Knative flag's state was read from. */
typedef struct sl_flag_origin {
	const sl_object *obj;     /* the KnativeServing CR or config-features ConfigMap; NULL when
				     the state came from the config or is unknown */
	const sl_node *node;      /* the flag's value node, NULL when the flag is not set there */
	const sl_node *map;       /* the mapping that holds (or would hold) the flag */
	bool from_config;         /* the state came from .schedlint.yaml knative-features */
	const sl_object *other;   /* a later CR or ConfigMap that sets the flag otherwise than obj
				     (the state is then UNKNOWN: the sources disagree); else NULL */
	const sl_node *other_node;   /* other's value node */
} sl_flag_origin;

/* A serving unit's priority, as batch-outranks-serving compares them. */
typedef struct sl_serving_priority {
	const char *label;       /* the unit, for messages (the lowest only: see sl_index) */
	long long value;
	const char *class_name;  /* NULL when it has no class and there is no default (or not the lowest) */
	size_t order;            /* position among all serving units (file, document, unit) */
} sl_serving_priority;

/* The serving units' priorities, sorted by value; *n gets the count. */
const sl_serving_priority *sl_index_serving_priorities(const sl_index *ix, size_t *n);

/* Objects of kind k: *n gets the count. */
const sl_object *const *sl_index_objects(const sl_index *ix, sl_kind k, size_t *n);
/* How many objects of kind k there are (as sl_index_objects counts them, without reading
** them). */
size_t sl_index_count(const sl_index *ix, sl_kind k);
/* The first object of kind k named name (any namespace), or NULL. */
const sl_object *sl_index_find(const sl_index *ix, sl_kind k, const char *name);
/* Every object of kind k named name, in index order (*n is 0 when none); after sl_index_finish. */
const sl_object *const *sl_index_find_all(const sl_index *ix, sl_kind k, const char *name,
					  size_t *n);
/* The state of Knative flag `flag` ("kubernetes.podspec-nodeselector"): a KnativeServing CR's
** spec.config.features wins (one that leaves the flag unset: UNKNOWN with origin->obj set and
** no node, Knative's default, as the operator owns config-features), then a config-features
** ConfigMap in knative-serving that sets it, then the config's knative-features (short names),
** which also settles sources that disagree and ConfigMaps that leave the flag unset (when the
** config is not set these stay UNKNOWN, origin naming them); origin (may be NULL) says where
** it came from. */
sl_flag_state sl_index_knative_flag(const sl_index *ix, const char *flag, sl_flag_origin *origin);
/* The runtime an InferenceService isvc's model.runtime `name` names, as KServe finds it: a
** ServingRuntime in its namespace (or either without one), else a ClusterServingRuntime; NULL
** when name is NULL or none is among the linted files. */
const sl_object *sl_index_runtime(const sl_index *ix, const sl_object *isvc, const char *name);
/* True when template t (a ServingRuntime, ClusterServingRuntime, Seldon ServerConfig or
** LLMInferenceServiceConfig) is used by a unit among the linted files: named by an
** InferenceService's model.runtime, a Server's serverConfig, an LLMInferenceService's baseRefs.
** Known once sl_index_finish_serving has run (a streaming run checks templates' files after it). */
bool sl_index_template_used(const sl_index *ix, const sl_object *t);
/* A PriorityClass value by name: built-in system classes, classes among the linted files, then
** the config's priority-classes. True when known; *value set. */
bool sl_index_priority_value(const sl_index *ix, const char *name, long long *value);
/* The Seldon ServerConfig that Seldon Server `server` names in spec.serverConfig, the first
** so named among the linted files; NULL when server is not a Seldon Server, names none, or the
** ServerConfig is not among the files. */
const sl_object *sl_index_server_config(const sl_index *ix, const sl_object *server);
/* The autoscaler among the linted files that scales o: the first HorizontalPodAutoscaler
** (autoscaling/v1, v2), else the first KEDA ScaledObject, whose spec.scaleTargetRef names o (its
** kind, which a ScaledObject defaults to Deployment, its name, and its API group when the
** reference gives an apiVersion) in o's namespace (or either without one); NULL when none. *min
** gets the replicas it keeps at least: minReplicas (default 1), a ScaledObject's minReplicaCount
** (default 0); *at the node that sets it, NULL when defaulted. */
const sl_object *sl_index_autoscaler(const sl_index *ix, const sl_object *o, long long *min,
				     const sl_node **at);
/* The replicas u keeps running: an autoscaler's minimum when one among the files scales u's
** object (sl_index_autoscaler; for the pod template of a workload or a Seldon Server), else a
** Seldon Server's minReplicas (Seldon's server autoscaling keeps it between minReplicas and
** maxReplicas, starting at replicas), else u->min_replicas (-1 when unknown). *scaler gets that autoscaler or NULL; *at the node that
** sets the count (the autoscaler's minimum, or u->replicas), NULL when defaulted. */
long long sl_index_unit_replicas(const sl_index *ix, const sl_unit *u, const sl_object **scaler,
				 const sl_node **at);
/* The globalDefault PriorityClass among the linted files (a named one whose globalDefault is
** YAML true and whose value is an integer; the lowest value when several are), or NULL. *value
** gets its value when one is found and is untouched otherwise. */
const sl_object *sl_index_default_priority_class(const sl_index *ix, long long *value);
/* The priorityClassName that applies to u: its own when non-empty, else for a Seldon Server the
** first unit of its ServerConfig among the linted files (the Server's podSpec is merged over
** it). NULL when none. The string belongs to the tree. */
const char *sl_index_unit_priority_class(const sl_index *ix, const sl_unit *u);
/* u's pod priority as the scheduler would see it. With a class (sl_index_unit_priority_class)
** *name gets it and the result is sl_index_priority_value's: false when the class's value is
** unknown (*value then untouched). Without one, the globalDefault class applies: *name gets
** its name and *value its value, or NULL and 0 when there is none; returns true. */
bool sl_index_unit_priority(const sl_index *ix, const sl_unit *u, long long *value,
			    const char **name);

/* The node pools known under the index's config (pool.h): the config's cluster.node-pools and
** the pools of the NodePools, eksctl ClusterConfigs and node dumps among the files; NULL when
** there are none (or before sl_index_finish). Built once per config, thread-safe. */
struct sl_pool_set;
const struct sl_pool_set *sl_index_pool_set(const sl_index *ix);

#endif
