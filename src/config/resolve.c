/* SPDX-License-Identifier: Apache-2.0
** resolve.c: the resolved config: the raw data libcyaml bound, checked (every closed set,
** glob, taint, label and quantity, at the line of its key) and turned into sl_config's
** fields, defaults filled in. */
#include "config/load.h"

static const char *const default_gpu_resources[] = {
	"nvidia.com/gpu", "amd.com/gpu", "gpu.intel.com/i915", "gpu.intel.com/xe", "intel.com/gpu",
	"habana.ai/gaudi", "nvidia.com/mig-*",
};
/* Accelerators that are not GPUs (a GPU resource is an accelerator too): Cloud TPU (GKE), AWS
** Inferentia and Trainium (the Neuron device plugin), Intel Gaudi, Intel GPUs and their other
** resources, GKE's legacy TPU resources. */
static const char *const default_accelerator_resources[] = {
	"google.com/tpu", "cloud-tpus.google.com/*", "aws.amazon.com/neuron*", "habana.ai/*",
	"gpu.intel.com/*",
};
static const char *const default_gpu_device_classes[] = {
	"gpu.nvidia.com", "gpu.amd.com", "gpu.intel.com",
};
static const char *const default_gpu_node_labels[] = {
	"nvidia.com/gpu.present", "nvidia.com/gpu.product", "nvidia.com/gpu.count",
	"nvidia.com/gpu", "k8s.amazonaws.com/accelerator", "cloud.google.com/gke-accelerator",
	"kubernetes.azure.com/accelerator", "accelerator", "karpenter.k8s.aws/instance-gpu-name",
	"karpenter.k8s.aws/instance-gpu-manufacturer", "karpenter.k8s.aws/instance-gpu-count",
};
static const char *const default_spot_labels[] = {
	"karpenter.sh/capacity-type=spot", "eks.amazonaws.com/capacityType=SPOT",
	"cloud.google.com/gke-spot=true", "cloud.google.com/gke-preemptible=true",
	"kubernetes.azure.com/scalesetpriority=spot", "capacity-type=spot",
};
/* run to completion: Kubernetes', and the training and batch kinds of model/ (docs/domain.md) */
static const char *const default_batch_kinds[] = {
	"Job", "CronJob", "RayJob", "RayCronJob", "JobSet", "TrainJob", "PyTorchJob", "TFJob",
	"MPIJob", "XGBoostJob", "PaddleJob", "JAXJob", "SparkApplication",
	"ScheduledSparkApplication",
};

/* ---- the resolved config ---- */

const cyaml_config_t sl_config__cyaml_base = {
	.log_fn = sl_config__log_fn,
	.mem_fn = cyaml_mem,
	.log_level = CYAML_LOG_ERROR,   /* the error and its backtrace both come at ERROR */
	.flags = CYAML_CFG_DEFAULT,
};

void sl_config__fill_defaults(struct sl_config *cfg)
{
	struct sl_cluster_config *c = &cfg->cluster;

	cfg->path = NULL;
	cfg->base_dir = ".";
	cfg->exclude_dir = NULL;
	memset(cfg->chain, 0, sizeof cfg->chain);
	cfg->exclude = (sl_strlist){ NULL, 0 };
	cfg->project_include = cfg->project_exclude = (sl_strlist){ NULL, 0 };
	cfg->project_dir = NULL;
	cfg->fail_on = -1;
	cfg->kustomize_load_restrictor = sl_config__load_restrictors[0];
	cfg->rules = NULL;
	cfg->n_rules = 0;
	*c = (struct sl_cluster_config){
		.gpu_resources = DEFAULT_LIST(default_gpu_resources),
		.accelerator_resources = DEFAULT_LIST(default_accelerator_resources),
		.gpu_device_classes = DEFAULT_LIST(default_gpu_device_classes),
		.gpu_node_labels = DEFAULT_LIST(default_gpu_node_labels),
		.spot_labels = DEFAULT_LIST(default_spot_labels),
		.critical_priority = 1000000,
		.batch_kinds = DEFAULT_LIST(default_batch_kinds),
	};
}

static sl_strlist strlist(char **v, unsigned n)
{
	return (sl_strlist){ (const char *const *)v, n };
}

static const sl_strlist no_globs;

/* A list key overrides its default when present, even empty or null. */
static void override_list(sl_strlist *dst, const struct posmap *map, const char *path,
			  char **v, unsigned n)
{
	if (sl_config__posmap_find(map, path) != NULL)
		*dst = strlist(v, n);
}

/* True for a release version as KServe tags them: "0.15", "v0.16.1", "1", "0.17.0-rc1" (a
** number, up to three dot-separated, then a "-" or "+" suffix). */
static bool is_version(const char *s)
{
	int parts = 0;

	if (*s == 'v' || *s == 'V')
		s++;
	do {
		if (*s < '0' || *s > '9' || ++parts > 3)
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	} while (*s == '.' && *s++);
	return *s == '\0' || ((*s == '-' || *s == '+') && s[1] != '\0');
}

/* Parses a whole decimal integer ("+12", "-3"); false on anything else. */
static bool parse_integer(const char *s, long long *out)
{
	char *end;
	long long v;

	if (*s == '\0' || !(*s == '-' || *s == '+' || (*s >= '0' && *s <= '9')))
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || end == s)
		return false;
	*out = v;
	return true;
}

/* A pool's size: "4" (*min = *max = -1: *min 4) or "2-10" (*min 2, *max 10). */
static bool parse_pool_size(const char *s, long long *min, long long *max)
{
	const char *dash = strchr(s, '-');
	if (!dash)
		return parse_integer(s, min) && *min >= 0 && *min <= LONG_MAX;
	char lo[32];
	if (dash == s || (size_t)(dash - s) >= sizeof lo)
		return false;
	memcpy(lo, s, (size_t)(dash - s));
	lo[dash - s] = '\0';
	return parse_integer(lo, min) && parse_integer(dash + 1, max) && *min >= 0 &&
	       *max >= *min && *max <= LONG_MAX;
}

/* A pool's "resource=quantity": the name as a container resource name, the quantity as the
** API server parses it, not negative. */
static bool pool_resource_ok(const char *s, char *why, size_t whysz)
{
	const char *eq = strchr(s, '=');
	sl_quantity q;
	if (!eq || eq == s) {
		snprintf(why, whysz, "no '='");
		return false;
	}
	if (sl_k8s_check_container_resource_name(s, (size_t)(eq - s), why, whysz) > 0)
		return false;
	sl_quantity_status st = sl_quantity_parse(eq + 1, strlen(eq + 1), &q);
	if (st != SL_QUANTITY_OK) {
		snprintf(why, whysz, "%s", sl_quantity_strerror(st));
		return false;
	}
	if (sl_quantity_is_negative(&q)) {
		snprintf(why, whysz, "must be greater than or equal to 0");
		return false;
	}
	return true;
}

/* A pool's "key=value" label: a qualified name and a label value. */
static bool pool_label_ok(const char *s, char *why, size_t whysz)
{
	const char *eq = strchr(s, '=');
	if (!eq) {
		snprintf(why, whysz, "no '='");
		return false;
	}
	return sl_k8s_check_qualified_name(s, (size_t)(eq - s), why, whysz) == 0 &&
	       sl_k8s_check_label_value(eq + 1, strlen(eq + 1), why, whysz) == 0;
}

/* Adds one more error line to *acc (every value error of a file is reported in one run); a
** function using it returns SL_ENOMEM when the line cannot be made. */
#define MORE(...) do { if (sl_config__more(acc, __VA_ARGS__) != SL_ECONFIG) return SL_ENOMEM; } while (0)

/* Position of the value at path, 1:1 when the libyaml pass lacks it (inside an alias). */
void sl_config__value_pos(const struct posmap *map, const char *path, unsigned *line, unsigned *col)
{
	const struct pos *at = sl_config__posmap_find(map, path);

	*line = at ? at->line : 1;
	*col = at ? at->col : 1;
}

/* The line of the key at path (the value's when the key's is unknown), 0 when it is absent. */
unsigned sl_config__key_line(const struct posmap *map, const char *path)
{
	const struct pos *at = sl_config__posmap_find(map, path);
	return !at ? 0 : at->key_line ? at->key_line : at->line;
}

/* Checks what libcyaml cannot (integers, "name=value") and resolves the cluster section. */
static sl_err resolve_cluster(struct sl_config *cfg, struct priv *pv, const struct posmap *map,
			      const char *file, char **acc)
{
	struct sl_cluster_config *c = &cfg->cluster;
	const struct raw_cluster *r = pv->raw->cluster;
	unsigned line, col;
	char path[128], mean[1024];

	if (r == NULL)
		return SL_OK;
	for (unsigned i = 0; i < r->knative_features_count; i++) {
		const char *flag = r->knative_features[i];
		if (sl_config__knative_flag_known(flag))
			continue;
		snprintf(path, sizeof path, "cluster.knative-features[%u]", i);
		sl_config__value_pos(map, path, &line, &col);
		const char *best = sl_config__knative_flag_closest(flag);
		MORE("%s:%u:%u: error: unknown Knative flag \"%s\" for "
			    "%s%s", file, line, col, flag, path,
			    best ? sl_config__did_you_mean(best, mean, sizeof mean) :
			    " (expected a flag of Knative's config-features, by its full name or, for a "
			    "kubernetes.podspec-* flag, by the rest of it: \"nodeselector\")");
	}
	if (sl_config__posmap_find(map, "cluster.knative-features") != NULL) {
		c->knative_features = strlist(r->knative_features, r->knative_features_count);
		c->knative_features_set = true;
		c->knative_features_line = sl_config__key_line(map, "cluster.knative-features");
	}
	if (r->kserve_default_deployment_mode != NULL) {
		sl_mode m;
		if (!sl_kserve_mode_parse(r->kserve_default_deployment_mode, &m)) {
			sl_config__value_pos(map, "cluster.kserve-default-deployment-mode", &line, &col);
			MORE("%s:%u:%u: error: unknown deployment mode \"%s\" "
				    "for cluster.kserve-default-deployment-mode (expected Standard, Knative, "
				    "ModelMesh, RawDeployment or Serverless)%s", file, line, col,
				    r->kserve_default_deployment_mode,
				    sl_config__did_you_mean(sl_spelling_closest(r->kserve_default_deployment_mode,
								     sl_config__deployment_modes,
								     sl_config__deployment_modes_count),
						 mean, sizeof mean));
		}
		c->kserve_default_deployment_mode = r->kserve_default_deployment_mode;
		c->kserve_default_deployment_mode_line =
			sl_config__key_line(map, "cluster.kserve-default-deployment-mode");
	}
	if (r->kserve_version != NULL && !is_version(r->kserve_version)) {
		sl_config__value_pos(map, "cluster.kserve-version", &line, &col);
		MORE("%s:%u:%u: error: invalid value \"%s\" for "
			    "cluster.kserve-version (expected a KServe release such as \"0.15\" or "
			    "\"v0.16.1\")", file, line, col, r->kserve_version);
	}
	if (r->kserve_version != NULL)
		c->kserve_version = r->kserve_version;
	if (r->extended_resource_toleration != NULL) {
		c->extended_resource_toleration = *r->extended_resource_toleration ? SL_TRI_YES : SL_TRI_NO;
		c->extended_resource_toleration_line =
			sl_config__key_line(map, "cluster.extended-resource-toleration");
	}
	if (r->gpu_nodes_tainted != NULL) {
		c->gpu_nodes_tainted = *r->gpu_nodes_tainted ? SL_TRI_YES : SL_TRI_NO;
		c->gpu_nodes_tainted_line = sl_config__key_line(map, "cluster.gpu-nodes-tainted");
	}
	if (r->provider != NULL) {
		size_t k = 0;
		while (k < sl_config__providers_count && strcmp(r->provider, sl_config__providers[k]) != 0)
			k++;
		if (k == sl_config__providers_count) {
			sl_config__value_pos(map, "cluster.provider", &line, &col);
			MORE("%s:%u:%u: error: unknown provider \"%s\" for "
				    "cluster.provider (expected gke, eks, aks or generic)%s", file, line, col,
				    r->provider, sl_config__did_you_mean(sl_spelling_closest(r->provider, sl_config__providers,
									   sl_config__providers_count),
							       mean, sizeof mean));
		} else {
			c->provider = (sl_provider)k;
		}
		c->provider_line = sl_config__key_line(map, "cluster.provider");
	}
	override_list(&c->gpu_device_classes, map, "cluster.gpu-device-classes",
		      r->gpu_device_classes, r->gpu_device_classes_count);
	if (r->toleration_comparison_operators != NULL)
		c->toleration_comparison_operators = *r->toleration_comparison_operators != 0;
	override_list(&c->gpu_resources, map, "cluster.gpu-resources",
		      r->gpu_resources, r->gpu_resources_count);
	override_list(&c->accelerator_resources, map, "cluster.accelerator-resources",
		      r->accelerator_resources, r->accelerator_resources_count);
	override_list(&c->gpu_node_labels, map, "cluster.gpu-node-labels",
		      r->gpu_node_labels, r->gpu_node_labels_count);
	override_list(&c->spot_labels, map, "cluster.spot-labels",
		      r->spot_labels, r->spot_labels_count);
	override_list(&c->batch_kinds, map, "cluster.batch-kinds",
		      r->batch_kinds, r->batch_kinds_count);
	override_list(&c->critical_priority_classes, map, "cluster.critical-priority-classes",
		      r->critical_priority_classes, r->critical_priority_classes_count);
	if (r->node_inventory != NULL) {
		/* the dump is read with the files (pool.c): a path that leads nowhere is said now */
		char *dir = sl_path_dir(file), *full = NULL;
		struct stat st;
		int e = 0;
		if (dir && (r->node_inventory[0] == '/' ||
			    (full = sl_xprintf("%s/%s", dir, r->node_inventory))) &&
		    stat(full ? full : r->node_inventory, &st) != 0)
			e = errno;
		free(dir);
		free(full);
		if (e) {
			sl_config__value_pos(map, "cluster.node-inventory", &line, &col);
			MORE("%s:%u:%u: error: cluster.node-inventory: cannot "
				    "read \"%s\": %s (the path is relative to this config)", file, line,
				    col, r->node_inventory, strerror(e));
		}
		c->node_inventory = r->node_inventory;
	}
	if (r->name != NULL)
		c->name = r->name;   /* an eksctl ClusterConfig's metadata.name (sched/pool.c) */

	if (r->critical_priority != NULL &&
	    !parse_integer(r->critical_priority, &c->critical_priority)) {
		sl_config__value_pos(map, "cluster.critical-priority", &line, &col);
		MORE(
			"%s:%u:%u: error: invalid value \"%s\" for cluster.critical-priority "
			"(expected an integer)", file, line, col, r->critical_priority);
	}

	for (unsigned i = 0; i < r->priority_classes_count; i++) {
		const char *pc = r->priority_classes[i];
		const char *eq = strchr(pc, '=');
		long long v;

		if (eq == NULL || eq == pc || !parse_integer(eq + 1, &v) ||
		    v < INT32_MIN || v > INT32_MAX) {
			snprintf(path, sizeof path, "cluster.priority-classes[%u]", i);
			sl_config__value_pos(map, path, &line, &col);
			MORE(
				"%s:%u:%u: error: invalid value \"%s\" for %s "
				"(expected name=integer)", file, line, col, pc, path);
		}
	}
	override_list(&c->priority_classes, map, "cluster.priority-classes", r->priority_classes,
		      r->priority_classes_count);

	if (r->node_pools_count > 0) {
		pv->pools = sl_xcalloc(r->node_pools_count, sizeof *pv->pools);
		if (pv->pools == NULL)
			return SL_ENOMEM;
	}
	for (unsigned i = 0; i < r->node_pools_count; i++) {
		const struct raw_pool *rp = &r->node_pools[i];
		struct sl_node_pool *p = &pv->pools[i];
		long long nodes = -1;

		long long max_nodes = -1;
		if (rp->nodes != NULL && !parse_pool_size(rp->nodes, &nodes, &max_nodes)) {
			snprintf(path, sizeof path, "cluster.node-pools[%u].nodes", i);
			sl_config__value_pos(map, path, &line, &col);
			MORE(
				"%s:%u:%u: error: invalid value \"%s\" for %s "
				"(expected a non-negative integer, or min-max: \"2-10\")", file, line, col,
				rp->nodes, path);
		}
		if (rp->capacity_count > 0 && rp->allocatable_count > 0) {
			snprintf(path, sizeof path, "cluster.node-pools[%u].capacity", i);
			sl_config__value_pos(map, path, &line, &col);
			MORE("%s:%u:%u: error: cluster.node-pools[%u] has "
				    "both allocatable and capacity (its alias): keep allocatable",
				    file, line, col, i);
		}
		char **alloc = rp->allocatable_count ? rp->allocatable : rp->capacity;
		unsigned n_alloc = rp->allocatable_count ? rp->allocatable_count : rp->capacity_count;
		const char *alloc_key = rp->allocatable_count ? "allocatable" : "capacity";
		for (unsigned j = 0; j < n_alloc; j++) {
			char why[512];
			if (pool_resource_ok(alloc[j], why, sizeof why))
				continue;
			snprintf(path, sizeof path, "cluster.node-pools[%u].%s[%u]", i, alloc_key, j);
			sl_config__value_pos(map, path, &line, &col);
			MORE("%s:%u:%u: error: invalid value \"%s\" for %s: "
				    "%s (expected resource=quantity: \"nvidia.com/gpu=8\", \"memory=64Gi\")",
				    file, line, col, alloc[j], path, why);
		}
		for (unsigned j = 0; j < rp->labels_count; j++) {
			char why[512];
			if (pool_label_ok(rp->labels[j], why, sizeof why))
				continue;
			snprintf(path, sizeof path, "cluster.node-pools[%u].labels[%u]", i, j);
			sl_config__value_pos(map, path, &line, &col);
			MORE("%s:%u:%u: error: invalid label \"%s\" for %s: "
				    "%s (expected key=value)", file, line, col, rp->labels[j], path, why);
		}
		for (unsigned j = 0; j < rp->taints_count; j++) {
			const char *t = rp->taints[j];
			char why[512], fixed[600];
			sl_taint taint;
			if (sl_k8s_taint_parse(t, strlen(t), &taint, why, sizeof why))
				continue;
			/* a misspelt effect: the taint with the closest one */
			const char *colon = strrchr(t, ':');
			const char *effect = colon && !sl_k8s_taint_effect_is_valid(colon + 1,
										   strlen(colon + 1))
				? sl_spelling_closest(colon + 1, sl_config__taint_effects, sl_config__taint_effects_count) : NULL;
			if (effect)
				snprintf(fixed, sizeof fixed, "%.*s:%s", (int)(colon - t), t, effect);
			snprintf(path, sizeof path, "cluster.node-pools[%u].taints[%u]", i, j);
			sl_config__value_pos(map, path, &line, &col);
			MORE("%s:%u:%u: error: invalid taint \"%s\" for %s: "
				    "%s (expected key=value:Effect or key:Effect, the effect NoSchedule, "
				    "PreferNoSchedule or NoExecute)%s", file, line, col, t, path,
				    colon ? why : "no effect", sl_config__did_you_mean(effect ? fixed : NULL, mean,
									   sizeof mean));
		}
		*p = (struct sl_node_pool){
			.name = rp->name,
			.labels = strlist(rp->labels, rp->labels_count),
			.taints = strlist(rp->taints, rp->taints_count),
			.capacity = strlist(alloc, n_alloc),
			.nodes = (long)nodes,
			.max_nodes = (long)(max_nodes >= 0 ? max_nodes : nodes),
			.spot = !rp->spot ? SL_TRI_UNKNOWN : *rp->spot ? SL_TRI_YES : SL_TRI_NO,
		};
		snprintf(path, sizeof path, "cluster.node-pools[%u]", i);
		p->line = sl_config__key_line(map, path);
	}
	if (sl_config__posmap_find(map, "cluster.node-pools") != NULL) {
		c->node_pools = pv->pools;
		c->n_node_pools = r->node_pools_count;
	}
	return *acc ? SL_ECONFIG : SL_OK;
}

/* An error line in *acc for each of the n globs at key that cannot be a glob
** (sl_walk_glob_problem); SL_ENOMEM or SL_OK. */
static sl_err check_globs(const struct posmap *map, const char *file, const char *key,
			  char **globs, unsigned n, char **acc)
{
	unsigned line, col;
	char path[64], mean[1024], fix[300];

	for (unsigned i = 0; i < n; i++) {
		const char *why = sl_walk_glob_problem(globs[i], fix, sizeof fix);
		if (why == NULL)
			continue;
		snprintf(path, sizeof path, "%s[%u]", key, i);
		sl_config__value_pos(map, path, &line, &col);
		MORE("%s:%u:%u: error: invalid glob \"%s\" for %s: %s%s",
			    file, line, col, globs[i], path, why,
			    sl_config__did_you_mean(*fix ? fix : NULL, mean, sizeof mean));
	}
	return SL_OK;
}

static sl_err resolve(struct sl_config *cfg, struct priv *pv, const struct posmap *map,
		      const char *file, char **acc);

/* Fills cfg from pv->raw (may be NULL: an empty file): every value error of the file, a line
** each in *error_out (in the order checked; load.c puts them in file order): SL_ECONFIG. */
sl_err sl_config__resolve(struct sl_config *cfg, struct priv *pv, const struct posmap *map,
			  const char *file, char **error_out)
{
	char *errs = NULL;
	sl_err err = pv->raw ? resolve(cfg, pv, map, file, &errs) : SL_OK;
	if (err == SL_ENOMEM || !errs) {
		free(errs);
		return err;
	}
	if (error_out)
		*error_out = errs;
	else
		free(errs);
	return SL_ECONFIG;
}

static sl_err resolve(struct sl_config *cfg, struct priv *pv, const struct posmap *map,
		      const char *file, char **acc)
{
	const struct raw_config *r = pv->raw;
	unsigned line, col;
	char path[64], mean[1024];

	if (check_globs(map, file, "exclude", r->exclude, r->exclude_count, acc) ||
	    (r->project && check_globs(map, file, "project.include", r->project->include,
				       r->project->include_count, acc)) ||
	    (r->project && check_globs(map, file, "project.exclude", r->project->exclude,
				       r->project->exclude_count, acc)))
		return SL_ENOMEM;
	for (unsigned i = 0; i < r->rules_count; i++) {
		/* a namespaced id is a declared rule's: scopes.c checks it once they are declared */
		if (sl_registry_known(r->rules[i].id) || strchr(r->rules[i].id, '/'))
			continue;
		snprintf(path, sizeof path, "rules[%u].id", i);
		sl_config__value_pos(map, path, &line, &col);
		MORE("%s:%u:%u: error: unknown rule or category \"%s\" "
			    "for %s%s", file, line, col, r->rules[i].id, path,
			    sl_config__did_you_mean(sl_registry_closest(r->rules[i].id), mean, sizeof mean));
	}
	/* every key overrides what the config starts from (the defaults, or the config it extends)
	** only when present */
	if (sl_config__posmap_find(map, "exclude") != NULL) {
		cfg->exclude = strlist(r->exclude, r->exclude_count);
		cfg->exclude_dir = NULL;   /* this file's directory: set by the caller */
	}
	if (r->fail_on != NULL)
		cfg->fail_on = *r->fail_on;
	if (sl_config__posmap_find(map, "project") != NULL) {   /* project: is one setting, include and exclude */
		cfg->project_include = r->project ? strlist(r->project->include,
							    r->project->include_count) : no_globs;
		cfg->project_exclude = r->project ? strlist(r->project->exclude,
							    r->project->exclude_count) : no_globs;
		cfg->project_dir = NULL;   /* this file's directory: set by the caller */
	}
	const char *lr = r->render && r->render->kustomize ? r->render->kustomize->load_restrictor
							     : NULL;
	if (lr != NULL) {
		size_t k = 0;
		while (k < sl_config__load_restrictors_count && strcmp(lr, sl_config__load_restrictors[k]) != 0)
			k++;
		if (k == sl_config__load_restrictors_count) {
			sl_config__value_pos(map, "render.kustomize.load-restrictor", &line, &col);
			MORE("%s:%u:%u: error: unknown load restrictor \"%s\" "
				    "for render.kustomize.load-restrictor (expected rootOnly or none: "
				    "kubectl kustomize's LoadRestrictionsRootOnly and "
				    "LoadRestrictionsNone)%s", file, line, col, lr,
				    sl_config__did_you_mean(sl_spelling_closest(lr, sl_config__load_restrictors,
								     sl_config__load_restrictors_count),
						 mean, sizeof mean));
		}
		else
			cfg->kustomize_load_restrictor = sl_config__load_restrictors[k];
	}
	if (sl_config__posmap_find(map, "plugins") != NULL) {   /* loaded by scopes.c, with --allow-plugins */
		cfg->plugins = strlist(r->plugins, r->plugins_count);
		cfg->plugins_line = sl_config__key_line(map, "plugins");
		cfg->plugins_dir = NULL;   /* this file's directory: set by the caller */
	}
	/* rules: the extended config's entries, then this file's (later entries win) */
	size_t inherited = cfg->n_rules;
	if (inherited + r->rules_count > 0) {
		pv->rules = sl_xcalloc(inherited + r->rules_count, sizeof *pv->rules);
		if (pv->rules == NULL)
			return SL_ENOMEM;
	}
	for (size_t i = 0; i < inherited; i++) {
		pv->rules[i] = cfg->rules[i];
		if (pv->rules[i].line)   /* one file further down the chain */
			pv->rules[i].line += 1u << 24;
		if (pv->rules[i].id_line)
			pv->rules[i].id_line += 1u << 24;
	}
	for (unsigned i = 0; i < r->rules_count; i++) {
		pv->rules[inherited + i] = (struct sl_rule_setting){
			.id = r->rules[i].id,
			.severity = (sl_severity)r->rules[i].severity,
		};
		snprintf(path, sizeof path, "rules[%u].id", i);
		sl_config__value_pos(map, path, &pv->rules[inherited + i].id_line, &pv->rules[inherited + i].id_col);
	}
	/* one pass over the positions: "rules[i]" is where entry i starts */
	for (size_t k = 0; k < map->n; k++) {
		unsigned i;
		int end = 0;

		if (sscanf(map->v[k].path, "rules[%u]%n", &i, &end) == 1 &&
		    map->v[k].path[end] == '\0' && i < r->rules_count)
			pv->rules[inherited + i].line = map->v[k].line;
	}
	cfg->rules = pv->rules;
	cfg->n_rules = inherited + r->rules_count;
	return resolve_cluster(cfg, pv, map, file, acc);
}
