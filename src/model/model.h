/* SPDX-License-Identifier: Apache-2.0
** model.h: typed objects and placement units bound from the positioned tree.
** An object is one Kubernetes object of a kind schedlint models; a placement unit is one pod
** template inside it (spec/rules.md: predictor, transformer, explainer, workerSpec, canary
** predictors, Knative templates, runtimes, graph routers, LLM templates, Seldon pod specs,
** workload templates). Every typed field is the node it came from (position, pointer, edits);
** a field of the wrong YAML type is reported as schema-type and left NULL. Everything lives in
** the file's arena. */
#ifndef SL_MODEL_H
#define SL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "yaml/yaml_tree.h"

typedef enum sl_kind {
	SL_KIND_UNKNOWN = 0,
	SL_KIND_INFERENCE_SERVICE,
	SL_KIND_SERVING_RUNTIME,
	SL_KIND_CLUSTER_SERVING_RUNTIME,
	SL_KIND_INFERENCE_GRAPH,
	SL_KIND_LLM_INFERENCE_SERVICE,
	SL_KIND_LLM_INFERENCE_SERVICE_CONFIG,
	SL_KIND_KNATIVE_SERVICE,
	SL_KIND_KNATIVE_CONFIGURATION,
	SL_KIND_KNATIVE_SERVING,
	SL_KIND_CONFIGMAP,
	SL_KIND_POD,
	SL_KIND_DEPLOYMENT,
	SL_KIND_STATEFULSET,
	SL_KIND_DAEMONSET,
	SL_KIND_REPLICASET,
	SL_KIND_JOB,
	SL_KIND_CRONJOB,
	SL_KIND_PRIORITY_CLASS,
	SL_KIND_SELDON_SERVER,
	SL_KIND_SELDON_SERVER_CONFIG,
	SL_KIND_SELDON_MODEL,
	SL_KIND_NODE,
	SL_KIND_RESOURCE_CLAIM,            /* resource.k8s.io: Dynamic Resource Allocation */
	SL_KIND_RESOURCE_CLAIM_TEMPLATE,
	SL_KIND_NODE_LIST,                 /* a List or NodeList: `kubectl get nodes -o yaml` */
	SL_KIND_KARPENTER_NODE_POOL,       /* karpenter.sh NodePool (v1, v1beta1) */
	SL_KIND_EKSCTL_CLUSTER_CONFIG,     /* eksctl.io ClusterConfig: its node groups */
	SL_KIND_HORIZONTAL_POD_AUTOSCALER, /* autoscaling (v1, v2): the replicas it keeps */
	SL_KIND_SCALED_OBJECT,             /* keda.sh ScaledObject: the same, through KEDA */
	SL_KIND_KUEUE_RESOURCE_FLAVOR,     /* kueue.x-k8s.io ResourceFlavor: the nodes of a flavor */
	/* the kinds that serve or train models beside KServe (docs/domain.md) */
	SL_KIND_RAY_CLUSTER,               /* ray.io: a head and worker groups */
	SL_KIND_RAY_SERVICE,               /* ray.io: Ray Serve on a RayCluster spec */
	SL_KIND_RAY_JOB,                   /* ray.io: a RayCluster spec and a submitter */
	SL_KIND_RAY_CRON_JOB,              /* ray.io: a RayJob spec on a schedule */
	SL_KIND_LEADER_WORKER_SET,         /* leaderworkerset.x-k8s.io: groups of leader + workers */
	SL_KIND_JOBSET,                    /* jobset.x-k8s.io: replicated Jobs */
	SL_KIND_TRAIN_JOB,                 /* trainer.kubeflow.org: a runtime's JobSet, patched */
	SL_KIND_TRAINING_RUNTIME,          /* trainer.kubeflow.org: a JobSet template (namespaced) */
	SL_KIND_CLUSTER_TRAINING_RUNTIME,  /* trainer.kubeflow.org: the same, cluster-wide */
	SL_KIND_PYTORCH_JOB,               /* kubeflow.org (v1): replica specs by type */
	SL_KIND_TF_JOB,
	SL_KIND_MPI_JOB,                   /* kubeflow.org v1 and the mpi-operator's v2beta1 */
	SL_KIND_XGBOOST_JOB,
	SL_KIND_PADDLE_JOB,
	SL_KIND_JAX_JOB,
	SL_KIND_KAITO_WORKSPACE,           /* kaito.sh Workspace: a model on its own GPU nodes */
	SL_KIND_SPARK_APPLICATION,         /* sparkoperator.k8s.io: a driver and executors */
	SL_KIND_SCHEDULED_SPARK_APPLICATION,
	SL_KIND_VOLCANO_JOB,               /* batch.volcano.sh Job: tasks */
	SL_KIND_OPENSHIFT_TEMPLATE,        /* template.openshift.io Template: objects[] (wrapper) */
	SL_KIND__COUNT
} sl_kind;

/* How a unit's pods are run. */
typedef enum sl_mode {
	SL_MODE_PLAIN = 0,     /* a plain Kubernetes pod template */
	SL_MODE_KNATIVE,       /* through a Knative Service: the podspec feature flags apply */
	SL_MODE_STANDARD,      /* KServe Standard (RawDeployment): a Deployment */
	SL_MODE_MODELMESH
} sl_mode;

typedef enum sl_role {
	SL_ROLE_POD = 0,       /* a workload's pod template, Pod, Knative template */
	SL_ROLE_PREDICTOR,
	SL_ROLE_TRANSFORMER,
	SL_ROLE_EXPLAINER,
	SL_ROLE_WORKER,        /* predictor.workerSpec, runtime workerSpec, LLM worker */
	SL_ROLE_CANARY,        /* spec.canary[i].predictor */
	SL_ROLE_ROUTER,        /* InferenceGraph router */
	SL_ROLE_RUNTIME,       /* ServingRuntime / ClusterServingRuntime pod spec */
	SL_ROLE_LLM,           /* LLMInferenceService template, prefill.template */
	SL_ROLE_SCHEDULER,     /* LLMInferenceService router.scheduler.template */
	SL_ROLE_SERVER,        /* Seldon Server / ServerConfig podSpec */
	SL_ROLE_HEAD,          /* a coordinator: Ray head, Kubeflow Master/Chief/Launcher, Spark
				  driver */
	SL_ROLE_LEADER         /* LeaderWorkerSet leaderTemplate */
} sl_role;

typedef struct sl_container {
	const sl_node *node;        /* the container mapping (a framework key's mapping for KServe) */
	const char *name;           /* NULL when unnamed */
	const sl_node *resources;   /* mapping or NULL */
	const sl_node *requests;    /* mapping or NULL */
	const sl_node *limits;      /* mapping or NULL */
	bool init;                  /* an init container */
	bool main;                  /* the serving container: kserve-container, the framework key,
				       else the first container */
} sl_container;

struct sl_object;

typedef struct sl_unit {
	const struct sl_object *obj;
	sl_role role;
	const char *name;           /* "predictor", "transformer", "canary[0].predictor", "worker",
				       "router"...; NULL for a workload's only template */
	sl_mode mode;
	const sl_node *pod;         /* the mapping holding the PodSpec fields */
	const sl_node *meta;        /* the pod template's metadata mapping, NULL when none */
	const sl_node *component;   /* KServe component mapping (extension fields), else NULL */
	/* PodSpec fields, NULL when absent (or of the wrong type: schema-type was reported) */
	const sl_node *node_selector;       /* mapping */
	const sl_node *affinity;            /* mapping */
	const sl_node *tolerations;         /* sequence */
	const sl_node *topology_spread;     /* sequence */
	const sl_node *priority_class_name; /* scalar */
	const sl_node *node_name;           /* scalar */
	const sl_node *pod_resources;       /* pod-level resources mapping */
	sl_container *containers;
	size_t n_containers;
	const sl_node *replicas;    /* replicas / minReplicas / min-scale node, NULL when defaulted */
	long long min_replicas;     /* replicas the unit keeps running (defaults applied), -1 unknown
				       or run to completion; for a multi-host kind the replicas of
				       the service (LeaderWorkerSet groups, Ray worker replicas),
				       what spreading is about */
	long long pods;             /* the pods the controller makes from the template (replicas x
				       hosts, parallelism...), -1: min_replicas says it */
	const sl_node *exclusive_topology;   /* the annotation that places each group or Job on a
				       topology domain of its own (LeaderWorkerSet, JobSet): the
				       replicas are kept apart, NULL when none */
	const sl_node *own_pool;    /* the controller provisions the unit's nodes for it (a KAITO
				       Workspace's instanceType): it lands on that pool alone
				       (sl_pool_kaito), no pool of the cluster's; NULL otherwise */
	const struct sl_unit *inline_base;   /* a template in the object itself that the unit's
				       fields are laid over (a SparkApplication's pod template; the
				       pod KAITO writes): merge.h, NULL when none */
} sl_unit;

typedef struct sl_object {
	const sl_doc *doc;
	const char *path;           /* the file, as reported */
	const sl_node *root;
	uint32_t item;              /* 0: the document; i + 1: item i of its List, or object i of
				       its OpenShift Template (root is that item) */
	sl_kind kind;
	const char *api_version;    /* NULL when missing */
	const char *kind_name;
	const char *name;           /* metadata.name, NULL when missing */
	const char *namespace_;     /* metadata.namespace, NULL when missing */
	const sl_node *metadata, *labels, *annotations, *spec;
	sl_mode mode;               /* resolved run mode (KServe: annotation, else the default) */
	const sl_node *mode_annotation;   /* serving.kserve.io/deploymentMode value, NULL when unset */
	bool mode_defaulted;        /* KServe: no valid annotation, the cluster's default applies
				       (sl_object_default_mode sets it once the files are indexed) */
	sl_unit *units;
	size_t n_units;
} sl_object;

/* Where the binder reports schema-type problems, and a placeholder where a type other than a
** string is wanted (rule "template-not-rendered", message: "replicas holds it where an integer
** is wanted"; template.h). */
typedef void (*sl_model_issue_fn)(void *payload, const char *rule, const sl_node *at,
				  const char *message, int quote_fix);

typedef struct sl_model_ctx {
	sl_arena *arena;
	const char *default_mode;   /* the cluster's KServe default deployment mode as configured
				       (cluster.kserve-default-deployment-mode), NULL when unset */
	const char *path;
	sl_model_issue_fn issue;
	void *payload;
} sl_model_ctx;

/* Binds the document's root into an object. *out is NULL for a document that is not an object
** of a modelled kind (unknown kinds are skipped). Returns SL_ENOMEM only. */
sl_err sl_object_bind(sl_model_ctx *mc, const sl_doc *doc, sl_object **out);
/* The items a wrapper object holds, each an object of its own when of a modelled kind: a v1
** List's items[], an OpenShift Template's objects[] (typed); NULL for any other object, or an
** item (a wrapper inside a wrapper is not applied as one). The caller binds each item with
** sl_object_bind_at (item i + 1) and leaves a List's Nodes to the node pools. */
const sl_node *sl_object_wrapped(sl_model_ctx *mc, const sl_object *o);
/* Binds the mapping root of doc (the document's root or one of its items) as an object, item
** as in sl_object; *out NULL when it is not one of a modelled kind. SL_ENOMEM only. */
sl_err sl_object_bind_at(sl_model_ctx *mc, const sl_doc *doc, const sl_node *root, uint32_t item,
			 sl_object **out);
/* Binds o's units (and kind-specific fields) from what o already holds: its kind, identity,
** metadata and spec. sl_object_bind's second half, for objects made another way (the index's
** digests). SL_ENOMEM only. */
sl_err sl_object_bind_units(sl_model_ctx *mc, sl_object *o);

/* Gives an object whose mode is defaulted (mode_defaulted) the cluster's default mode m, and
** its units that run in the object's mode with it; others are untouched. */
void sl_object_default_mode(sl_object *o, sl_mode m);
/* True when nothing builds a pod from u: the predictor of a ModelMesh InferenceService (its
** canaries and workerSpec too), served from the ServingRuntime's pods (kserve controller.go
** skips it; a transformer is still reconciled). */
bool sl_unit_builds_no_pod(const sl_unit *u);
/* True when a and b stand for the same document (and item of it) of the same file (an object
** and the index's digest of it are the same). */
bool sl_object_same(const sl_object *a, const sl_object *b);
/* "InferenceService sklearn-iris, predictor" / "Deployment web": for messages (arena). */
const char *sl_object_unit_label(const sl_unit *u, sl_arena *a);
/* "InferenceService sklearn-iris": for messages (arena). */
const char *sl_object_label(const sl_object *o, sl_arena *a);
/* The kind's usual name ("InferenceService", "Knative Service"). */
const char *sl_kind_name(sl_kind k);
/* The accessors schedlint/rule.h gives plugins, which see no struct layout. */
SL_API const char *sl_object_kind_name(const sl_object *o);
SL_API const char *sl_object_name(const sl_object *o);
SL_API const char *sl_object_namespace(const sl_object *o);
SL_API const sl_node *sl_object_root(const sl_object *o);
SL_API size_t sl_object_unit_count(const sl_object *o);
SL_API const sl_unit *sl_object_unit_at(const sl_object *o, size_t i);
SL_API const sl_object *sl_unit_object(const sl_unit *u);
SL_API const sl_node *sl_unit_pod(const sl_unit *u);
SL_API long long sl_unit_replicas(const sl_unit *u, const sl_node **at);
/* The pods the controller makes from u: u->pods when known, else u->min_replicas (-1 unknown). */
long long sl_unit_pods(const sl_unit *u);
/* The role's name: "pod", "predictor", "transformer", "explainer", "worker", "canary",
** "router", "runtime", "llm", "scheduler", "server", "head", "leader". */
SL_API const char *sl_unit_role_name(const sl_unit *u);
const char *const *sl_unit_role_names(size_t *n);   /* the names, in sl_role's order: n of them */
/* True for kinds that serve inference (InferenceService, Knative Service/Configuration,
** Seldon Server, LLMInferenceService, InferenceGraph, RayService, LeaderWorkerSet, KAITO
** Workspace). */
bool sl_kind_is_serving(sl_kind k);
/* The label keys (a prefix ends in '/') a kind's controller puts on its pods besides the
** template's own labels, with values not known here; NULL-terminated. NULL for a kind whose
** pods do not carry their template's labels as written (or that has no pods). */
const char *const *sl_kind_pod_label_prefixes(sl_kind k);
/* The kinds whose names occur in text as whole words (bit 1 << kind), so a file whose text has
** none of a kind's name holds no object of that kind: a kind must equal its name, and a scalar
** is never part of a longer run of letters and digits. Only a double-quoted escape could
** spell one otherwise, so a text with a backslash names every kind. */
uint64_t sl_kinds_named_in(const char *text, size_t len);
/* The same, but it may stop as soon as the kinds found meet every mask of enough (each has a bit
** in common with them): a huge file that names a looked-up kind and a serving kind early is
** not scanned to its end. */
uint64_t sl_kinds_named_in_until(const char *text, size_t len, const uint64_t *enough,
				 size_t n_enough);

/* --- helpers for the binders in src/model/ --- */

enum sl_ftype {
	SL_T_ANY = 0,
	SL_T_MAP,          /* a mapping */
	SL_T_SEQ,          /* a sequence */
	SL_T_STR,          /* a string (a YAML bool or number is wrong) */
	SL_T_INT,          /* an integer (a quoted number is wrong) */
	SL_T_BOOL,         /* a boolean */
	SL_T_STRMAP,       /* a mapping whose values are strings (labels, annotations, nodeSelector) */
	SL_T_SEQ_OF_MAP,   /* a sequence of mappings */
	SL_T_QUANTITY      /* a string or a number */
};
/* Checks that node n (a field value; NULL or a YAML null is fine) has type t; reports
** schema-type through mc and returns NULL when it does not, else returns sl_node_deref(n). field
** names it in the message ("tolerations"). Most fields a binder asks for are absent: those
** return here, without a call. */
const sl_node *sl_model_expect_node(sl_model_ctx *mc, const sl_node *n, enum sl_ftype t,
				    const char *field);
static inline const sl_node *sl_model_expect(sl_model_ctx *mc, const sl_node *n, enum sl_ftype t,
					     const char *field)
{
	return n ? sl_model_expect_node(mc, n, t, field) : NULL;
}
/* True when scalar v is a YAML null or a boolean (sl_scalar_type): what a quantity may not be. A
** plain untagged scalar that starts like a number is neither, told without parsing it. */
bool sl_model_null_or_bool(const sl_node *v);
/* sl_model_expect on map[key]. */
const sl_node *sl_model_field(sl_model_ctx *mc, const sl_node *map, const char *key,
			      enum sl_ftype t);
/* A field and the type its value must have, SL_FIELD("key", SL_T_...); a table of them ends with
** {NULL}. */
typedef struct sl_model_fspec {
	const char *key;
	enum sl_ftype t;
	size_t len;   /* strlen(key) */
} sl_model_fspec;
#define SL_FIELD(key, t) {key, t, sizeof key - 1}
/* The values of the n fields of spec (n <= 64) in mapping map, found in one pass over its
** entries: out[i] is what sl_map_get(map, spec[i].key) returns (the key's first entry; NULL when
** absent or map is not a mapping), not yet typed. A binder that reads several fields of one
** mapping finds them together and types each with sl_model_expect when it binds it, rather than
** scanning the entries once per field. */
void sl_model_find(const sl_node *map, const sl_model_fspec *spec, size_t n, const sl_node **out);
/* sl_model_field for each field of table spec, in its order: the fields a binder types but
** does not keep (map NULL: none). */
void sl_model_fields(sl_model_ctx *mc, const sl_node *map, const sl_model_fspec *spec);
/* sl_model_fields on each mapping item of sequence seq (NULL: none; an item of another type is
** left alone). */
void sl_model_items(sl_model_ctx *mc, const sl_node *seq, const sl_model_fspec *spec);
/* Binds the PodSpec fields of mapping pod into u (containers from "containers" and
** "initContainers"); the caller sets everything else. */
sl_err sl_unit_bind_podspec(sl_model_ctx *mc, sl_unit *u, const sl_node *pod);
/* Appends a container bound from mapping c to u. */
sl_err sl_unit_add_container(sl_model_ctx *mc, sl_unit *u, const sl_node *c, bool init, bool main);
/* A new unit appended to o (arena), zeroed but for obj, role, name, mode, min_replicas = -1,
** pods = -1. */
sl_unit *sl_model_add_unit(sl_model_ctx *mc, sl_object *o, sl_role role, const char *name);
/* A new unit of o bound from pod template tmpl ({metadata, spec}; NULL: a unit without a pod
** spec): its metadata's labels and annotations typed. *out the unit. SL_ENOMEM only. */
sl_err sl_model_bind_template(sl_model_ctx *mc, sl_object *o, const sl_node *tmpl, sl_role role,
			      const char *name, sl_unit **out);
/* The integer at map[key] (typed), else dflt; *at the node, NULL when absent. */
long long sl_model_int(sl_model_ctx *mc, const sl_node *map, const char *key, long long dflt,
		       const sl_node **at);
/* A node made by the binder for what a controller adds and the manifest does not hold (a KAITO
** toleration, a SparkApplication's GPU limit): its text is at's (position, document), it is no
** child of at (parent at, index pos, so its pointer and document are at's), and it is never
** edited. A scalar holds text; a mapping or a sequence has room for cap entries (n = 0). NULL
** when out of memory. */
sl_node *sl_model_synth(sl_model_ctx *mc, sl_node_type type, const sl_node *at, const char *text,
			size_t cap);
/* Appends key: value to synthetic mapping m (room permitting). */
void sl_model_synth_put(sl_node *m, const sl_node *key, const sl_node *value);
/* The name of unit item i of a list ("worker group gpu"): what, then item[key] (typed a string),
** else unnamed and i ("worker group #2"; Volcano: "task default2"). NULL when out of memory. */
const char *sl_model_item_name(sl_model_ctx *mc, const sl_node *item, const char *key,
			       const char *what, const char *unnamed, size_t i);
/* a × b pods (replicas × hosts, groups × size), LLONG_MAX when it overflows (a manifest may write
** any integer), -1 when either is negative (unknown). */
long long sl_model_pods(long long a, long long b);
/* "fmt" formatted in the binder's arena (NULL when out of memory). */
const char *sl_model_printf(sl_model_ctx *mc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Parses a KServe deployment-mode value (Standard, Knative, ModelMesh and the legacy
** RawDeployment, Serverless; exact case, as KServe compares). False when it is none of them. */
bool sl_kserve_mode_parse(const char *s, sl_mode *out);
/* The predictor implementation keys (framework keys and "model"), NULL-terminated. */
extern const char *const sl_kserve_implementations[];
/* The keys whose mapping is the main container of a component of this role, NULL-terminated:
** the implementations for a predictor (or a canary's), the explainer's "art" and "alibi"; NULL
** for another role (a transformer's containers are its own). */
const char *const *sl_kserve_impl_keys(sl_role role);
/* The runtime a predictor component names: `runtime:` of its implementation (model.runtime, or
** a framework key's), NULL when none. */
const char *sl_kserve_runtime_name(const sl_node *component);

/* Binders per API group: fill o's kind-specific fields and units. */
sl_err sl_model_bind_core(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_kserve(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_knative(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_seldon(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_ray(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_lws(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_jobset(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_kubeflow(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_kaito(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_spark(sl_model_ctx *mc, sl_object *o);
sl_err sl_model_bind_volcano(sl_model_ctx *mc, sl_object *o);

/* A JobSet spec's replicatedJobs[] as units of o (JobSet, a training runtime's template): one
** per replicated job, named "replicated job <name>", pods replicas x parallelism. For the
** TrainJob patches (model/jobset.c). */
sl_err sl_model_bind_replicated_jobs(sl_model_ctx *mc, sl_object *o, const sl_node *jobset_spec);
#endif
