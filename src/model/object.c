/* SPDX-License-Identifier: Apache-2.0
** object.c: the kind table (apiVersion/kind, label, binder), the kinds a text names, and an
** object's metadata; each kind's binder (model/<family>.c) types the rest. */
#include <pthread.h>
#include <string.h>
#include "model/model.h"
#include "util/v16.h"

/* One row per kind: how it is spelt, what it is called in messages, and the binder that types
** its fields and makes its units (model/<family>.c). */
struct kind_entry {
	const char *group;
	const char *kind;
	sl_kind id;
	const char *label;
	sl_err (*bind)(sl_model_ctx *mc, sl_object *o);
};

/* group is the apiVersion's part before '/' ("" for the core group "v1"). */
static const struct kind_entry kinds[] = {
	{"serving.kserve.io", "InferenceService", SL_KIND_INFERENCE_SERVICE,
	 "InferenceService", sl_model_bind_kserve},
	{"serving.kserve.io", "ServingRuntime", SL_KIND_SERVING_RUNTIME,
	 "ServingRuntime", sl_model_bind_kserve},
	{"serving.kserve.io", "ClusterServingRuntime", SL_KIND_CLUSTER_SERVING_RUNTIME,
	 "ClusterServingRuntime", sl_model_bind_kserve},
	{"serving.kserve.io", "InferenceGraph", SL_KIND_INFERENCE_GRAPH,
	 "InferenceGraph", sl_model_bind_kserve},
	{"serving.kserve.io", "LLMInferenceService", SL_KIND_LLM_INFERENCE_SERVICE,
	 "LLMInferenceService", sl_model_bind_kserve},
	{"serving.kserve.io", "LLMInferenceServiceConfig", SL_KIND_LLM_INFERENCE_SERVICE_CONFIG,
	 "LLMInferenceServiceConfig", sl_model_bind_kserve},
	{"serving.knative.dev", "Service", SL_KIND_KNATIVE_SERVICE,
	 "Knative Service", sl_model_bind_knative},
	{"serving.knative.dev", "Configuration", SL_KIND_KNATIVE_CONFIGURATION,
	 "Knative Configuration", sl_model_bind_knative},
	{"operator.knative.dev", "KnativeServing", SL_KIND_KNATIVE_SERVING,
	 "KnativeServing", sl_model_bind_knative},
	{"", "ConfigMap", SL_KIND_CONFIGMAP, "ConfigMap", sl_model_bind_core},
	{"", "Pod", SL_KIND_POD, "Pod", sl_model_bind_core},
	{"", "Node", SL_KIND_NODE, "Node", sl_model_bind_core},
	{"apps", "Deployment", SL_KIND_DEPLOYMENT, "Deployment", sl_model_bind_core},
	{"apps", "StatefulSet", SL_KIND_STATEFULSET, "StatefulSet", sl_model_bind_core},
	{"apps", "DaemonSet", SL_KIND_DAEMONSET, "DaemonSet", sl_model_bind_core},
	{"apps", "ReplicaSet", SL_KIND_REPLICASET, "ReplicaSet", sl_model_bind_core},
	{"batch", "Job", SL_KIND_JOB, "Job", sl_model_bind_core},
	{"batch", "CronJob", SL_KIND_CRONJOB, "CronJob", sl_model_bind_core},
	{"scheduling.k8s.io", "PriorityClass", SL_KIND_PRIORITY_CLASS,
	 "PriorityClass", sl_model_bind_core},
	{"mlops.seldon.io", "Server", SL_KIND_SELDON_SERVER, "Seldon Server", sl_model_bind_seldon},
	{"mlops.seldon.io", "ServerConfig", SL_KIND_SELDON_SERVER_CONFIG,
	 "Seldon ServerConfig", sl_model_bind_seldon},
	{"mlops.seldon.io", "Model", SL_KIND_SELDON_MODEL, "Seldon Model", sl_model_bind_seldon},
	{"resource.k8s.io", "ResourceClaim", SL_KIND_RESOURCE_CLAIM,
	 "ResourceClaim", sl_model_bind_core},
	{"resource.k8s.io", "ResourceClaimTemplate", SL_KIND_RESOURCE_CLAIM_TEMPLATE,
	 "ResourceClaimTemplate", sl_model_bind_core},
	/* node pools (pool.c): a node dump, Karpenter NodePools, eksctl node groups */
	{"", "List", SL_KIND_NODE_LIST, "List", sl_model_bind_core},
	{"", "NodeList", SL_KIND_NODE_LIST, "NodeList", sl_model_bind_core},
	{"karpenter.sh", "NodePool", SL_KIND_KARPENTER_NODE_POOL, "NodePool", sl_model_bind_core},
	{"eksctl.io", "ClusterConfig", SL_KIND_EKSCTL_CLUSTER_CONFIG, "ClusterConfig",
	 sl_model_bind_core},
	/* autoscalers: the replicas a workload keeps (sl_index_autoscaler) */
	{"autoscaling", "HorizontalPodAutoscaler", SL_KIND_HORIZONTAL_POD_AUTOSCALER,
	 "HorizontalPodAutoscaler", sl_model_bind_core},
	{"keda.sh", "ScaledObject", SL_KIND_SCALED_OBJECT, "KEDA ScaledObject", sl_model_bind_core},
	{"kueue.x-k8s.io", "ResourceFlavor", SL_KIND_KUEUE_RESOURCE_FLAVOR, "ResourceFlavor",
	 sl_model_bind_core},
	/* the kinds that serve or train models beside KServe (docs/domain.md) */
	{"ray.io", "RayCluster", SL_KIND_RAY_CLUSTER, "RayCluster", sl_model_bind_ray},
	{"ray.io", "RayService", SL_KIND_RAY_SERVICE, "RayService", sl_model_bind_ray},
	{"ray.io", "RayJob", SL_KIND_RAY_JOB, "RayJob", sl_model_bind_ray},
	{"ray.io", "RayCronJob", SL_KIND_RAY_CRON_JOB, "RayCronJob", sl_model_bind_ray},
	{"leaderworkerset.x-k8s.io", "LeaderWorkerSet", SL_KIND_LEADER_WORKER_SET,
	 "LeaderWorkerSet", sl_model_bind_lws},
	{"jobset.x-k8s.io", "JobSet", SL_KIND_JOBSET, "JobSet", sl_model_bind_jobset},
	{"trainer.kubeflow.org", "TrainJob", SL_KIND_TRAIN_JOB, "TrainJob", sl_model_bind_jobset},
	{"trainer.kubeflow.org", "TrainingRuntime", SL_KIND_TRAINING_RUNTIME, "TrainingRuntime",
	 sl_model_bind_jobset},
	{"trainer.kubeflow.org", "ClusterTrainingRuntime", SL_KIND_CLUSTER_TRAINING_RUNTIME,
	 "ClusterTrainingRuntime", sl_model_bind_jobset},
	{"kubeflow.org", "PyTorchJob", SL_KIND_PYTORCH_JOB, "PyTorchJob", sl_model_bind_kubeflow},
	{"kubeflow.org", "TFJob", SL_KIND_TF_JOB, "TFJob", sl_model_bind_kubeflow},
	{"kubeflow.org", "MPIJob", SL_KIND_MPI_JOB, "MPIJob", sl_model_bind_kubeflow},
	{"kubeflow.org", "XGBoostJob", SL_KIND_XGBOOST_JOB, "XGBoostJob", sl_model_bind_kubeflow},
	{"kubeflow.org", "PaddleJob", SL_KIND_PADDLE_JOB, "PaddleJob", sl_model_bind_kubeflow},
	{"kubeflow.org", "JAXJob", SL_KIND_JAX_JOB, "JAXJob", sl_model_bind_kubeflow},
	{"kaito.sh", "Workspace", SL_KIND_KAITO_WORKSPACE, "KAITO Workspace", sl_model_bind_kaito},
	{"sparkoperator.k8s.io", "SparkApplication", SL_KIND_SPARK_APPLICATION, "SparkApplication",
	 sl_model_bind_spark},
	{"sparkoperator.k8s.io", "ScheduledSparkApplication", SL_KIND_SCHEDULED_SPARK_APPLICATION,
	 "ScheduledSparkApplication", sl_model_bind_spark},
	{"batch.volcano.sh", "Job", SL_KIND_VOLCANO_JOB, "Volcano Job", sl_model_bind_volcano},
	/* wrappers: their objects[] are bound as objects (sl_object_wrapped, lint/engine.c) */
	{"template.openshift.io", "Template", SL_KIND_OPENSHIFT_TEMPLATE, "Template",
	 sl_model_bind_core},
	{"", "Template", SL_KIND_OPENSHIFT_TEMPLATE, "Template", sl_model_bind_core},
};
enum { N_KINDS = sizeof kinds / sizeof kinds[0] };

const char *sl_kind_name(sl_kind k)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].id == k)
			return kinds[i].label;
	return "object";
}

bool sl_kind_is_serving(sl_kind k)
{
	return k == SL_KIND_INFERENCE_SERVICE || k == SL_KIND_KNATIVE_SERVICE ||
	       k == SL_KIND_KNATIVE_CONFIGURATION || k == SL_KIND_SELDON_SERVER ||
	       k == SL_KIND_LLM_INFERENCE_SERVICE || k == SL_KIND_INFERENCE_GRAPH ||
	       k == SL_KIND_RAY_SERVICE || k == SL_KIND_LEADER_WORKER_SET ||
	       k == SL_KIND_KAITO_WORKSPACE;
}

/* The labels each controller adds to its pods (docs/domain.md: KubeRay labelPod, the
** LeaderWorkerSet constructors, JobSet labelAndAnnotateObject, the Kubeflow v1 label keys,
** the Spark operator's, Volcano's), with the workload keys Kubernetes adds to a Job's pods. */
const char *const *sl_kind_pod_label_prefixes(sl_kind k)
{
	static const char *const ray[] = {"ray.io/", "app.kubernetes.io/name",
					  "app.kubernetes.io/created-by", NULL};
	static const char *const lws[] = {"leaderworkerset.sigs.k8s.io/",
					  "statefulset.kubernetes.io/pod-name",
					  "apps.kubernetes.io/pod-index", "controller-revision-hash", NULL};
	static const char *const jobset[] = {"jobset.sigs.k8s.io/", "batch.kubernetes.io/",
					     "job-name", "controller-uid", NULL};
	static const char *const trainer[] = {"jobset.sigs.k8s.io/", "trainer.kubeflow.org/",
					      "batch.kubernetes.io/", "job-name", "controller-uid",
					      NULL};
	static const char *const kubeflow[] = {"training.kubeflow.org/", NULL};
	static const char *const spark[] = {"spark-role", "spark-app-selector", "spark-app-name",
					    "spark-exec-id", "sparkoperator.k8s.io/", NULL};
	static const char *const volcano[] = {"volcano.sh/", NULL};
	switch (k) {
	case SL_KIND_RAY_CLUSTER:
	case SL_KIND_RAY_SERVICE:
	case SL_KIND_RAY_JOB:
	case SL_KIND_RAY_CRON_JOB:
		return ray;
	case SL_KIND_LEADER_WORKER_SET:
		return lws;
	case SL_KIND_JOBSET:
		return jobset;
	case SL_KIND_TRAIN_JOB:
		return trainer;
	case SL_KIND_PYTORCH_JOB:
	case SL_KIND_TF_JOB:
	case SL_KIND_MPI_JOB:
	case SL_KIND_XGBOOST_JOB:
	case SL_KIND_PADDLE_JOB:
	case SL_KIND_JAX_JOB:
		return kubeflow;
	case SL_KIND_SPARK_APPLICATION:
	case SL_KIND_SCHEDULED_SPARK_APPLICATION:
		return spark;
	case SL_KIND_VOLCANO_JOB:
		return volcano;
	default:
		return NULL;
	}
}

static bool is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static uint64_t kinds_by_letter[26];   /* the entries of kinds[] whose name starts with 'A'+i */
static bool word_char[256];             /* letters and digits */
static pthread_once_t by_letter_once = PTHREAD_ONCE_INIT;

static void index_letters(void)
{
	_Static_assert(N_KINDS <= 64, "a kinds[] set is a 64-bit mask");
	for (size_t k = 0; k < N_KINDS; k++)
		kinds_by_letter[kinds[k].kind[0] - 'A'] |= (uint64_t)1 << k;
	for (int c = 0; c < 256; c++)
		word_char[c] = is_alnum((unsigned char)c);
}

uint64_t sl_kinds_named_in(const char *text, size_t len)
{
	return sl_kinds_named_in_until(text, len, NULL, 0);
}

uint64_t sl_kinds_named_in_until(const char *text, size_t len, const uint64_t *enough,
				 size_t n_enough)
{
	_Static_assert(SL_KIND__COUNT <= 64, "a kind set is a 64-bit mask");
	pthread_once(&by_letter_once, index_letters);
	if (memchr(text, '\\', len))
		return ~(uint64_t)0;
	uint64_t seen = 0;
	const unsigned char *t = (const unsigned char *)text;
	for (size_t i = 0; i < len;) {
		/* every kind name is a word that starts with a capital letter: sixteen bytes at a
		** time, where is a capital after a byte that is no letter or digit */
		unsigned m;
		size_t width;
		if (i > 0 && len - i >= 16) {
			sl_v16 v = sl_v16_load(t + i), prev = sl_v16_load(t + i - 1);
			/* a letter of either case is a lower-case one with the bit 0x20 set */
			sl_v16 word = sl_v16_between(prev, '0', '9') | sl_v16_between(prev | 0x20, 'a', 'z');
			m = sl_v16_mask(sl_v16_between(v, 'A', 'Z') & ~word);
			width = 16;
		} else {
			m = t[i] >= 'A' && t[i] <= 'Z' && !(i > 0 && word_char[t[i - 1]]);
			width = 1;
		}
		for (; m; m &= m - 1) {
			size_t start = i + (size_t)__builtin_ctz(m), end = start;
			while (end < len && word_char[t[end]])
				end++;
			for (uint64_t k_set = kinds_by_letter[t[start] - 'A']; k_set; k_set &= k_set - 1) {
				size_t k = (size_t)__builtin_ctzll(k_set);
				if (strncmp(kinds[k].kind, (const char *)t + start, end - start) == 0 &&
				    kinds[k].kind[end - start] == '\0') {
					seen |= (uint64_t)1 << kinds[k].id;
					size_t e = 0;
					while (e < n_enough && (seen & enough[e]))
						e++;
					if (n_enough && e == n_enough)
						return seen;   /* the caller knows all it asked */
				}
			}
		}
		i += width;
	}
	return seen;
}

static sl_kind lookup_kind(const char *api_version, const char *kind)
{
	const char *slash = strchr(api_version, '/');
	size_t glen = slash ? (size_t)(slash - api_version) : 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (kinds[i].kind[0] != kind[0] || strcmp(kinds[i].kind, kind) != 0)
			continue;   /* most kinds differ at their first byte */
		if (strlen(kinds[i].group) == glen && strncmp(kinds[i].group, api_version, glen) == 0)
			return kinds[i].id;
	}
	return SL_KIND_UNKNOWN;
}

const char *sl_object_label(const sl_object *o, sl_arena *a)
{
	const char *l = sl_arena_printf(a, "%s %s", sl_kind_name(o->kind), o->name ? o->name : "(unnamed)");
	return l ? l : "object";
}

const char *sl_object_unit_label(const sl_unit *u, sl_arena *a)
{
	const sl_object *o = u->obj;
	const char *l = u->name
		? sl_arena_printf(a, "%s %s, %s", sl_kind_name(o->kind), o->name ? o->name : "(unnamed)", u->name)
		: sl_arena_printf(a, "%s %s", sl_kind_name(o->kind), o->name ? o->name : "(unnamed)");
	return l ? l : "unit";
}

void sl_object_default_mode(sl_object *o, sl_mode m)
{
	if (!o->mode_defaulted || o->mode == m)
		return;
	for (size_t i = 0; i < o->n_units; i++)
		if (o->units[i].mode == o->mode)
			o->units[i].mode = m;
	o->mode = m;
}

sl_err sl_object_bind_at(sl_model_ctx *mc, const sl_doc *doc, const sl_node *root, uint32_t item,
			 sl_object **out)
{
	*out = NULL;
	root = sl_node_deref(root);
	if (!root || root->type != SL_NODE_MAP)
		return SL_OK;
	/* kind and apiVersion as they are (the kind's test types them), the rest typed */
	static const sl_model_fspec fields[] = {
		SL_FIELD("kind", SL_T_ANY), SL_FIELD("apiVersion", SL_T_ANY),
		SL_FIELD("metadata", SL_T_MAP), SL_FIELD("spec", SL_T_MAP),
	}, meta[] = {
		SL_FIELD("name", SL_T_STR), SL_FIELD("namespace", SL_T_STR), SL_FIELD("labels", SL_T_STRMAP),
		SL_FIELD("annotations", SL_T_STRMAP),
	};
	const sl_node *f[4], *m[4];
	sl_model_find(root, fields, 4, f);
	const char *kind = sl_scalar(f[0]);
	const char *api = sl_scalar(f[1]);
	if (!kind || !api)
		return SL_OK;
	sl_kind k = lookup_kind(api, kind);
	if (k == SL_KIND_UNKNOWN)
		return SL_OK;
	sl_object *o = sl_arena_zalloc(mc->arena, sizeof *o);
	if (!o)
		return SL_ENOMEM;
	o->doc = doc;
	o->path = mc->path;
	o->root = root;
	o->item = item;
	o->kind = k;
	o->api_version = api;
	o->kind_name = kind;
	o->metadata = sl_model_expect(mc, f[2], SL_T_MAP, "metadata");
	if (o->metadata) {
		sl_model_find(o->metadata, meta, 4, m);
		o->name = sl_scalar(sl_model_expect(mc, m[0], SL_T_STR, "name"));
		o->namespace_ = sl_scalar(sl_model_expect(mc, m[1], SL_T_STR, "namespace"));
		o->labels = sl_model_expect(mc, m[2], SL_T_STRMAP, "labels");
		o->annotations = sl_model_expect(mc, m[3], SL_T_STRMAP, "annotations");
	}
	o->spec = sl_model_expect(mc, f[3], SL_T_MAP, "spec");
	sl_err err = sl_object_bind_units(mc, o);
	if (err)
		return err;
	*out = o;
	return SL_OK;
}

sl_err sl_object_bind(sl_model_ctx *mc, const sl_doc *doc, sl_object **out)
{
	return sl_object_bind_at(mc, doc, doc->root, 0, out);
}

const sl_node *sl_object_wrapped(sl_model_ctx *mc, const sl_object *o)
{
	const sl_node *items = NULL;
	if (o->item)
		return NULL;   /* a List in a List is not applied as one */
	if (o->kind == SL_KIND_OPENSHIFT_TEMPLATE)
		items = sl_model_field(mc, o->root, "objects", SL_T_SEQ_OF_MAP);
	else if (o->kind == SL_KIND_NODE_LIST && o->kind_name && strcmp(o->kind_name, "List") == 0)
		items = sl_map_get(o->root, "items");   /* typed by the pools (node dumps) */
	items = sl_node_deref(items);
	return items && items->type == SL_NODE_SEQ ? items : NULL;
}

sl_err sl_object_bind_units(sl_model_ctx *mc, sl_object *o)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (kinds[i].id == o->kind)
			return kinds[i].bind(mc, o);
	return sl_model_bind_core(mc, o);   /* a kind outside the table: only a pod to bind */
}

bool sl_object_same(const sl_object *a, const sl_object *b)
{
	if (a == b)
		return true;
	if (!a || !b || !a->doc || !b->doc || a->doc->index != b->doc->index || a->item != b->item)
		return false;
	return a->path == b->path || (a->path && b->path && strcmp(a->path, b->path) == 0);
}

const char *sl_object_kind_name(const sl_object *o) { return o->kind_name; }
const char *sl_object_name(const sl_object *o) { return o->name; }
const char *sl_object_namespace(const sl_object *o) { return o->namespace_; }
const sl_node *sl_object_root(const sl_object *o) { return o->root; }
size_t sl_object_unit_count(const sl_object *o) { return o->n_units; }

const sl_unit *sl_object_unit_at(const sl_object *o, size_t i)
{
	return i < o->n_units ? &o->units[i] : NULL;
}
