/* SPDX-License-Identifier: Apache-2.0
** index.h: the project index, the cross-file facts gathered in pass 1 over every linted file
** (design.md): objects by kind in path-then-document order, PriorityClasses, Knative feature
** flags from KnativeServing CRs and config-features ConfigMaps, ServingRuntimes, Seldon
** Servers. Linting a directory sees the facts of all its files; one file sees its own. */
#ifndef SL_INDEX_H
#define SL_INDEX_H

#include "config.h"
#include "model/model.h"

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

/* What the index keeps of a serving unit, gathered when its file is parsed, so that its tree
** may be freed before the rules run (a lint run streams files that define no looked-up kind). */
typedef struct sl_serving_fact {
	char *label;             /* "InferenceService sklearn-iris, predictor" */
	char *class_name;        /* its own priorityClassName, NULL when none */
	char *server_config;     /* a Seldon Server's serverConfig, NULL otherwise */
	char *uses;              /* the template its pods are merged from (an InferenceService
				    component's model.runtime, a Seldon Server's serverConfig), or
				    for an LLMInferenceService its baseRefs' names, one per line;
				    NULL when none */
	sl_kind uses_kind;       /* the templates' kind (a runtime: SL_KIND_SERVING_RUNTIME) */
	bool modelmesh;
} sl_serving_fact;

/* A serving unit's priority, as batch-outranks-serving compares them. */
typedef struct sl_serving_priority {
	const char *label;       /* the unit, for messages (the lowest only: see sl_index) */
	long long value;
	const char *class_name;  /* NULL when it has no class and there is no default (or not the lowest) */
	size_t order;            /* position among all serving units (file, document, unit) */
} sl_serving_priority;

/* True for the kinds rules look up across files (PriorityClass, ConfigMap, KnativeServing,
** ServingRuntime, ClusterServingRuntime, Seldon Server and ServerConfig,
** LLMInferenceServiceConfig, ResourceClaim and ResourceClaimTemplate): only these are kept in
** the index. */
bool sl_index_kind_looked_up(sl_kind k);
/* True when the index keeps o: an object of a looked-up kind (of ConfigMaps, only Knative's
** config-features). */
bool sl_index_wants(const sl_object *o);
/* False when a file cannot define an object the index wants, so a streaming run need not parse
** it before every file's facts are in: kinds is sl_kinds_named_in(text, len). Exact, not a
** guess (a ConfigMap must also be named config-features). */
bool sl_index_may_define(uint64_t kinds, const char *text, size_t len);
/* True when a streaming run must keep o's file's tree for the index: KnativeServing CRs and
** config-features ConfigMaps, whose flags are quoted with their lines and fixed in place (one
** file per cluster in practice). The other objects the index wants stand in as digests
** (sl_index_digest). */
bool sl_index_needs_tree(const sl_object *o);
/* A digest of o that outlives its file, in arena a: a copy of the part of its document rules
** read across files (sl_tree_copy), bound again as an object with o's path. For a runtime that
** is its identity and its spec's tolerations, GPU resources, anti-affinity and labels; for a
** Seldon Server its identity; for the other kinds the whole document. *out is NULL when o's
** document uses aliases or merge keys there (its file keeps its tree then). SL_ENOMEM only. */
sl_err sl_index_digest(const sl_object *o, const sl_config *cfg, sl_arena *a,
		       const sl_object **out);
/* The facts of every serving unit of the objects, in order, in one malloc'd block (*facts NULL
** when there are none); labels are written into arena a on the way. SL_ENOMEM only. */
sl_err sl_index_gather_facts(const sl_object *const *objs, size_t n_objs, sl_arena *a,
			     sl_serving_fact **facts, size_t *n);
/* Frees facts gathered by sl_index_gather_facts. */
void sl_index_free_facts(sl_serving_fact *facts);

typedef struct sl_index {
	const sl_object **by_kind[SL_KIND__COUNT];   /* objects of each kind, in order */
	size_t n_by_kind[SL_KIND__COUNT];
	const sl_config *cfg;
	/* Derived once by sl_index_finish, so rules never rescan per unit: */
	struct sl_index_name {
		const char *name;
		const sl_object *obj;      /* the first so named */
		size_t first, n;           /* all so named: same[first .. first + n) */
	} *names;                          /* hash of (kind, name) */
	const sl_object **same;
	size_t names_cap;
	const sl_object **features_cms;   /* config-features ConfigMaps in knative-serving */
	size_t n_features_cms;
	sl_mode default_mode;             /* KServe's default mode from inferenceservice-config */
	char *default_mode_source;        /* "inferenceservice-config (path:line)"; NULL: none */
	char *default_mode_config;        /* "path:line" of the config's key; NULL when unset */
	const sl_object *default_pc;      /* the globalDefault PriorityClass (lowest value) */
	long long default_pc_value;
	const sl_serving_fact **facts;    /* every serving unit's facts, in order (borrowed) */
	size_t n_facts;
	sl_serving_priority *serving;     /* serving units with a known priority, stably sorted */
	size_t n_serving;                 /* by value (file order among equals); only the first
					     keeps its label and class */
	char *lowest_label, *lowest_class;   /* serving[0]'s, copied from its facts */
	struct sl_index_use {
		sl_kind kind;              /* SL_KIND_SERVING_RUNTIME stands for both runtime kinds */
		char *name;
	} *used;                           /* the templates units use, sorted (sl_index_template_used) */
	size_t n_used;
	bool finished;
} sl_index;

void sl_index_init(sl_index *ix, const sl_config *cfg);
/* Adds o (objects must be added in path, then document order); only objects of looked-up kinds
** are kept. SL_ENOMEM only. */
sl_err sl_index_add(sl_index *ix, const sl_object *o);
void sl_index_free(sl_index *ix);
/* Adds the facts of one file (in file order). SL_ENOMEM only. */
sl_err sl_index_add_facts(sl_index *ix, const sl_serving_fact *facts, size_t n);
/* Derives the lookups rules use (name hash, default PriorityClass, the
** config-features ConfigMaps) once every object has been added. SL_ENOMEM only. */
sl_err sl_index_finish(sl_index *ix);
/* Builds the serving table (sl_index_serving_priorities) from the facts added so far; after
** sl_index_finish. It copies what it keeps and lets go of the facts: the caller may free them
** then. SL_ENOMEM only. */
sl_err sl_index_finish_serving(sl_index *ix);
/* The serving units' priorities, sorted by value; *n gets the count. */
const sl_serving_priority *sl_index_serving_priorities(const sl_index *ix, size_t *n);

/* Objects of kind k: *n gets the count. */
const sl_object *const *sl_index_objects(const sl_index *ix, sl_kind k, size_t *n);
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

#endif
