/* SPDX-License-Identifier: Apache-2.0
** index.h: the project index, the cross-file facts gathered in pass 1 over every linted file
** (design.md): objects by kind in path-then-document order, PriorityClasses, Knative feature
** flags from KnativeServing CRs and config-features ConfigMaps, ServingRuntimes, Seldon
** Servers. Linting a directory sees the facts of all its files; one file sees its own. Here
** are its layout and its building, for the passes; its lookups are in index_lookups.h. */
#ifndef SL_INDEX_H
#define SL_INDEX_H

#include "config/config.h"
#include "util/arena.h"
#include "util/strmap.h"
#include "sched/index_lookups.h"
#include "model/model.h"

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
	const sl_config *cfg;    /* the config its file is linted under (cluster.priority-classes
				    resolve its class), NULL: the run's */
} sl_serving_fact;

/* True for the kinds rules look up across files (PriorityClass, ConfigMap, KnativeServing,
** ServingRuntime, ClusterServingRuntime, Seldon Server and ServerConfig,
** LLMInferenceServiceConfig, ResourceClaim and ResourceClaimTemplate, the node pools' kinds,
** HorizontalPodAutoscaler and KEDA ScaledObject): only these are kept in the index. */
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
** file per cluster in practice); node pools and autoscalers, whose lines messages name. The other objects the index wants stand in as digests
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

/* The cross-file facts, each named by a key (sl_index_fact_key) as fine as its lookup asks:
** what a file gives the index (sl_index_gives) and what a file's rules read of it (an
** sl_index_reads), so an editor re-lints only the files that read a fact that changed. */
typedef enum sl_fact_kind {
	SL_FACT_OBJECT = 1,    /* the objects of a kind with a name (sl_index_find, _find_all,
				  _runtime, _server_config, _priority_value) */
	SL_FACT_KIND,          /* every object of a kind (sl_index_objects) */
	SL_FACT_COUNT,         /* how many objects of a kind there are (sl_index_count) */
	SL_FACT_DEFAULT_CLASS, /* the globalDefault PriorityClasses */
	SL_FACT_SERVING,       /* the serving units' priorities (sl_index_serving_priorities) */
	SL_FACT_TEMPLATE_USE,  /* whether a unit uses a template of a kind and name */
	SL_FACT_KNATIVE,       /* Knative's feature flags (KnativeServing, config-features) */
	SL_FACT_POOLS,         /* the node pools' objects (sl_index_pool_set) */
	SL_FACT_DEFAULT_MODE,  /* KServe's default deployment mode (inferenceservice-config) */
	SL_FACT_AUTOSCALER,    /* the autoscalers whose scaleTargetRef names a kind and name */
	SL_FACT_PLACE,         /* where the objects of a kind with a name lie in their file, for
				  a fix that edits them from another file (sl_index_note_edit) */
} sl_fact_kind;
/* The key of a fact: what, of kind k (0 when it has none), named name (NULL when it has none).
** Never 0. */
uint64_t sl_index_fact_key(sl_fact_kind what, int k, const char *name);

/* The keys a file's rules read of the index while it is checked: the index views the engine
** hands its rules carry one (sl_index.reads), and every lookup notes its key in it. A set
** (open addressing, 0 is empty), in arena a, or malloc'd when a is NULL (sl_index_reads_free). */
typedef struct sl_index_reads {
	sl_arena *a;
	uint64_t *slot;
	size_t cap, n;
	bool failed;           /* memory ran out: what was read is not known */
} sl_index_reads;
/* Notes that key was read. */
void sl_index_reads_add(sl_index_reads *r, uint64_t key);
/* The keys read, sorted, into out (r->n of them). */
void sl_index_reads_sorted(const sl_index_reads *r, uint64_t *out);
/* Frees r's slots (r itself is the caller's); r may be NULL. */
void sl_index_reads_free(sl_index_reads *r);
/* Notes, in the reads of the file ix is a view for (none: nothing), that its rules read the
** fact (what, k, name): for lookups outside this file (sl_cluster_kserve_default_mode). */
void sl_index_note_read(const sl_index *ix, sl_fact_kind what, int k, const char *name);

/* Notes, in the reads of the file ix is a view for (none: nothing), that a fix of it edits
** [start, end) of another file, whose objects are objs[0..n_objs) and text src: the place
** (SL_FACT_PLACE) of the object the index keeps whose lines hold the edit; when none does, that
** what the file read is not known. */
void sl_index_note_edit(const sl_index *ix, const sl_object *const *objs, size_t n_objs,
			const sl_source *src, size_t start, size_t end);

/* A fact a file gives, with the digest of what it gives of it. */
typedef struct sl_index_given {
	uint64_t key, digest;
} sl_index_given;
/* What the objects objs[0..n_objs) of one file (text src) and their serving units' facts
** facts[0..n_facts) give the index, per key, sorted by key, malloc'd (*out NULL when none):
** each object the index wants by its text and the line it starts on, under the keys its
** lookups read it by, and by where it lies (SL_FACT_PLACE: what another file's fix of it
** follows: the lines before it as an editor counts them, its lines' text, the file's style);
** the units' priorities (with their label when it is lowest, the only
** one others name) and the templates they use. SL_ENOMEM only. */
sl_err sl_index_gives(const sl_object *const *objs, size_t n_objs, const sl_source *src,
		      const sl_serving_fact *facts, size_t n_facts, const char *lowest,
		      sl_index_given **out, size_t *n);

struct sl_index {
	const sl_object **by_kind[SL_KIND__COUNT];   /* objects of each kind, in order */
	size_t n_by_kind[SL_KIND__COUNT];
	const sl_config *cfg;
	/* Derived once by sl_index_finish, so rules never rescan per unit: */
	sl_strmap names[SL_KIND__COUNT];  /* per kind: an object's name -> its sl_index_group */
	struct sl_index_group {
		const sl_object *obj;      /* the first so named */
		size_t first, n;           /* all so named: same[first .. first + n) */
	} *groups;
	const sl_object **same;
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
	struct sl_index_use *own_used;    /* a view's, before the table of uses is built: what
					     its file's serving units use, sorted, a use whatever
					     the other files' (sl_index_view_own_uses) */
	size_t n_own_used;
	struct sl_index_pools *pools;     /* the node pools of each config (pool.c), built on first
					     use; shared by the index's views */
	sl_index_reads serving_reads;     /* what building the serving table read (class values,
					     ServerConfigs): read again by whoever reads the table */
	sl_index_reads *reads;            /* a view's: its file's reads, noted by every lookup
					     (NULL: not recorded) */
	bool finished;
};

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
/* Gives view (a copy of the index: sl_engine_index_view) what its file's serving units
** facts[0..n) use (own_used), which sl_index_template_used counts as used before every file's
** facts are in: the index's facts include them, so the answer stays. SL_ENOMEM only. */
sl_err sl_index_view_own_uses(sl_index *view, const sl_serving_fact *facts, size_t n);
void sl_index_view_free_own_uses(sl_index *view);
/* True when a serving unit of the view's own file uses template t (own_used): then
** sl_index_template_used(t) is true, now and once every file's facts are in. Notes no read. */
bool sl_index_template_used_here(const sl_index *ix, const sl_object *t);
/* sl_index_template_used for a template of kind and name, once the table of uses is built
** (sl_index_finish_serving), without the object (its tree may be gone). Notes no read. */
bool sl_index_template_name_used(const sl_index *ix, sl_kind kind, const char *name);

#endif
