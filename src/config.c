/* SPDX-License-Identifier: Apache-2.0
** config.c: load .schedlint.yaml (spec/cli.md, "Configuration") into the resolved sl_config.
** libcyaml binds the file to the raw_* structs below through schema tables; a cheap libyaml
** pass over the same bytes first checks the syntax and records where every node stands, so
** libcyaml's log messages become one "path:line:col: error: ..." line naming the key.
** The raw data stays in priv__ and the resolved fields point into it or at static defaults. */
#include "config.h"
#include "walk.h"
#include "k8s/taints.h"    /* node pools' taints, kubectl's syntax */
#include "k8s/labels.h"    /* node pools' labels */
#include "k8s/resources.h" /* node pools' allocatable */
#include "model/model.h"   /* sl_kserve_mode_parse */
#include "registry.h"      /* rules: ids */
#include "spelling.h"

#include <cyaml/cyaml.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>
#include <unistd.h>
#include "source.h"

#define CONFIG_NAME ".schedlint.yaml"
#define MAX_DEPTH 64             /* nesting limit of the config file */
#define MAX_EXPANDED 100000      /* nodes after alias expansion (alias bombs) */
#define MAX_BACKTRACE 32         /* libcyaml backtrace lines kept */

/* ---- defaults ---- */

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
static const char *const default_batch_kinds[] = { "Job", "CronJob" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define DEFAULT_LIST(a) ((sl_strlist){ (a), COUNT(a) })

/* ---- raw structs bound by libcyaml ---- */

struct raw_rule {
	char *id;
	int severity;                   /* sl_severity */
};

struct raw_pool {
	char *name;
	char **labels;
	unsigned labels_count;
	char **taints;
	unsigned taints_count;
	char **capacity;
	unsigned capacity_count;
	char **allocatable;             /* the spec's name; capacity: is its alias */
	unsigned allocatable_count;
	char *nodes;                    /* integer or "min-max", checked by hand (libcyaml takes "3x") */
	int *spot;
};

struct raw_cluster {
	char **knative_features;
	unsigned knative_features_count;
	char *kserve_default_deployment_mode;
	char *kserve_version;
	int *extended_resource_toleration;
	int *gpu_nodes_tainted;
	char *provider;
	int *toleration_comparison_operators;
	char **gpu_device_classes;
	unsigned gpu_device_classes_count;
	char **gpu_resources;
	unsigned gpu_resources_count;
	char **accelerator_resources;
	unsigned accelerator_resources_count;
	char **gpu_node_labels;
	unsigned gpu_node_labels_count;
	char **spot_labels;
	unsigned spot_labels_count;
	char *critical_priority;        /* integer, checked by hand */
	char **critical_priority_classes;
	unsigned critical_priority_classes_count;
	char **priority_classes;
	unsigned priority_classes_count;
	char **batch_kinds;
	unsigned batch_kinds_count;
	struct raw_pool *node_pools;
	unsigned node_pools_count;
	char *node_inventory;
};

struct raw_project {
	char **include;
	unsigned include_count;
	char **exclude;
	unsigned exclude_count;
};

struct raw_kustomize {
	char *load_restrictor;
};

struct raw_render {
	char *helm_chart;
	struct raw_kustomize *kustomize;
};

struct raw_config {
	char *extend;
	char **exclude;
	unsigned exclude_count;
	int *fail_on;
	struct raw_rule *rules;
	unsigned rules_count;
	struct raw_cluster *cluster;
	struct raw_project *project;
	char **plugins;
	unsigned plugins_count;
	struct raw_render *render;
};

/* ---- schema tables ---- */

/* Absent and null ("", ~, null) both leave a pointer NULL. */
#define OPT (CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR)

static const cyaml_strval_t fail_on_strings[] = {
	{ "error", SL_SEV_ERROR }, { "warning", SL_SEV_WARNING }, { "info", SL_SEV_INFO },
};
static const cyaml_strval_t severity_strings[] = {
	{ "error", SL_SEV_ERROR }, { "warning", SL_SEV_WARNING }, { "info", SL_SEV_INFO },
	{ "off", SL_SEV_OFF },
};
/* libcyaml 1.3.1 reads any word but false/no/off/disable/0 as true: use a strict enum. */
static const cyaml_strval_t bool_strings[] = {
	{ "true", 1 }, { "false", 0 }, { "yes", 1 }, { "no", 0 }, { "on", 1 }, { "off", 0 },
};

static const cyaml_schema_value_t string_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

#define STRINGS(key, st, member) \
	CYAML_FIELD_SEQUENCE(key, OPT, st, member, &string_entry, 0, CYAML_UNLIMITED)
#define STRING(key, st, member) \
	CYAML_FIELD_STRING_PTR(key, OPT, st, member, 0, CYAML_UNLIMITED)
#define BOOL(key, st, member) \
	CYAML_FIELD_ENUM_PTR(key, OPT | CYAML_FLAG_STRICT | CYAML_FLAG_CASE_INSENSITIVE, \
		st, member, bool_strings, COUNT(bool_strings))

static const cyaml_schema_field_t rule_fields[] = {
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_DEFAULT, struct raw_rule, id, 1, CYAML_UNLIMITED),
	CYAML_FIELD_ENUM("severity", CYAML_FLAG_STRICT, struct raw_rule, severity,
		severity_strings, COUNT(severity_strings)),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t rule_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_rule, rule_fields),
};

static const cyaml_schema_field_t pool_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_DEFAULT, struct raw_pool, name, 1, CYAML_UNLIMITED),
	STRINGS("labels", struct raw_pool, labels),
	STRINGS("taints", struct raw_pool, taints),
	STRINGS("capacity", struct raw_pool, capacity),
	STRINGS("allocatable", struct raw_pool, allocatable),
	STRING("nodes", struct raw_pool, nodes),
	BOOL("spot", struct raw_pool, spot),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t pool_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_pool, pool_fields),
};

static const cyaml_schema_field_t cluster_fields[] = {
	STRINGS("knative-features", struct raw_cluster, knative_features),
	STRING("kserve-default-deployment-mode", struct raw_cluster, kserve_default_deployment_mode),
	STRING("kserve-version", struct raw_cluster, kserve_version),
	BOOL("extended-resource-toleration", struct raw_cluster, extended_resource_toleration),
	BOOL("gpu-nodes-tainted", struct raw_cluster, gpu_nodes_tainted),
	STRING("provider", struct raw_cluster, provider),
	STRINGS("gpu-device-classes", struct raw_cluster, gpu_device_classes),
	BOOL("toleration-comparison-operators", struct raw_cluster, toleration_comparison_operators),
	STRINGS("gpu-resources", struct raw_cluster, gpu_resources),
	STRINGS("accelerator-resources", struct raw_cluster, accelerator_resources),
	STRINGS("gpu-node-labels", struct raw_cluster, gpu_node_labels),
	STRINGS("spot-labels", struct raw_cluster, spot_labels),
	STRING("critical-priority", struct raw_cluster, critical_priority),
	STRINGS("critical-priority-classes", struct raw_cluster, critical_priority_classes),
	STRINGS("priority-classes", struct raw_cluster, priority_classes),
	STRINGS("batch-kinds", struct raw_cluster, batch_kinds),
	CYAML_FIELD_SEQUENCE("node-pools", OPT, struct raw_cluster, node_pools, &pool_entry,
		0, CYAML_UNLIMITED),
	STRING("node-inventory", struct raw_cluster, node_inventory),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t project_fields[] = {
	STRINGS("include", struct raw_project, include),
	STRINGS("exclude", struct raw_project, exclude),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t kustomize_fields[] = {
	STRING("load-restrictor", struct raw_kustomize, load_restrictor),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t render_fields[] = {
	STRING("helm-chart", struct raw_render, helm_chart),
	CYAML_FIELD_MAPPING_PTR("kustomize", OPT, struct raw_render, kustomize, kustomize_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t top_fields[] = {
	STRING("extend", struct raw_config, extend),
	STRINGS("exclude", struct raw_config, exclude),
	CYAML_FIELD_ENUM_PTR("fail-on", OPT | CYAML_FLAG_STRICT, struct raw_config, fail_on,
		fail_on_strings, COUNT(fail_on_strings)),
	CYAML_FIELD_SEQUENCE("rules", OPT, struct raw_config, rules, &rule_entry,
		0, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("cluster", OPT, struct raw_config, cluster, cluster_fields),
	CYAML_FIELD_MAPPING_PTR("project", OPT, struct raw_config, project, project_fields),
	CYAML_FIELD_IGNORE("custom-rules", CYAML_FLAG_OPTIONAL),   /* custom.c reads it, as a positioned tree */
	CYAML_FIELD_MAPPING_PTR("render", OPT, struct raw_config, render, render_fields),
	STRINGS("plugins", struct raw_config, plugins),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t top_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER_NULL_STR, struct raw_config, top_fields),
};

/* What a key's value must be, for messages; keys not listed use libcyaml's type. An enumeration
** names its values, for the closest spelling of a wrong one. */
static const struct {
	const char *key, *expected;
	const cyaml_strval_t *values;
	size_t n_values;
} expectations[] = {
	{ "fail-on", "error, warning or info", fail_on_strings, COUNT(fail_on_strings) },
	{ "severity", "error, warning, info or off", severity_strings, COUNT(severity_strings) },
	{ "extended-resource-toleration", "true or false", bool_strings, COUNT(bool_strings) },
	{ "gpu-nodes-tainted", "true or false", bool_strings, COUNT(bool_strings) },
	{ "toleration-comparison-operators", "true or false", bool_strings, COUNT(bool_strings) },
	{ "critical-priority", "an integer", NULL, 0 },
	{ "nodes", "an integer", NULL, 0 },
};

static const char *const providers[] = { "generic", "gke", "eks", "aks" };   /* sl_provider */
static const char *const deployment_modes[] = {
	"Standard", "Knative", "ModelMesh", "RawDeployment", "Serverless",
};
static const char *const taint_effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute" };
/* render.kustomize.load-restrictor: kustomize's LoadRestrictionsRootOnly (its default) and
** LoadRestrictionsNone */
static const char *const load_restrictors[] = { "rootOnly", "none" };

/* The flags of Knative's config-features (domain.md §2.1; knative/serving
** pkg/apis/config/features.go). cluster.knative-features names a flag in full, or a
** kubernetes.podspec-* flag by what follows that prefix ("nodeselector"): index.c reads both. */
#define PODSPEC_PREFIX "kubernetes.podspec-"
static const char *const knative_flags[] = {
	PODSPEC_PREFIX "affinity", PODSPEC_PREFIX "nodeselector", PODSPEC_PREFIX "tolerations",
	PODSPEC_PREFIX "topologyspreadconstraints", PODSPEC_PREFIX "priorityclassname",
	PODSPEC_PREFIX "schedulername", PODSPEC_PREFIX "runtimeclassname", PODSPEC_PREFIX "hostipc",
	PODSPEC_PREFIX "hostpid", PODSPEC_PREFIX "hostnetwork", PODSPEC_PREFIX "hostaliases",
	PODSPEC_PREFIX "dnspolicy", PODSPEC_PREFIX "dnsconfig", PODSPEC_PREFIX "securitycontext",
	PODSPEC_PREFIX "shareprocessnamespace", PODSPEC_PREFIX "init-containers",
	PODSPEC_PREFIX "fieldref", PODSPEC_PREFIX "volumes-emptydir",
	PODSPEC_PREFIX "volumes-hostpath", PODSPEC_PREFIX "volumes-csi",
	PODSPEC_PREFIX "volumes-ephemeral", PODSPEC_PREFIX "volumes-image",
	PODSPEC_PREFIX "volumes-mount-propagation", PODSPEC_PREFIX "persistent-volume-claim",
	PODSPEC_PREFIX "persistent-volume-write",
	"kubernetes.containerspec-addcapabilities", "multi-container", "multi-container-probing",
	"queueproxy.mount-podinfo", "queueproxy.resource-defaults", "secure-pod-defaults",
	"tag-header-based-routing", "autodetect-http2",
};

/* A flag's short name ("nodeselector"), or NULL when it has none. */
static const char *knative_short_name(const char *flag)
{
	size_t n = strlen(PODSPEC_PREFIX);
	return strncmp(flag, PODSPEC_PREFIX, n) == 0 ? flag + n : NULL;
}

/* True when name is a flag of knative_flags, in full or by its short name. */
static bool knative_flag_known(const char *name)
{
	for (size_t i = 0; i < COUNT(knative_flags); i++) {
		const char *short_name = knative_short_name(knative_flags[i]);
		if (strcmp(name, knative_flags[i]) == 0 || (short_name && strcmp(name, short_name) == 0))
			return true;
	}
	return false;
}

static const char *knative_flag_closest(const char *name)
{
	sl_spelling s;
	sl_spelling_init(&s, name);
	for (size_t i = 0; i < COUNT(knative_flags); i++) {
		sl_spelling_consider(&s, knative_short_name(knative_flags[i]));
		sl_spelling_consider(&s, knative_flags[i]);
	}
	return sl_spelling_best(&s);
}

/* "; did you mean "best"?" in buf, or "" when best is NULL. */
static const char *did_you_mean(const char *best, char *buf, size_t size)
{
	if (!best)
		return "";
	snprintf(buf, size, "; did you mean \"%s\"?", best);
	return buf;
}

/* ---- errors ---- */

/* Formats the message into *error_out (when error_out is not NULL) and returns err,
** or SL_ENOMEM when the message cannot be allocated. */
static sl_err fail(char **error_out, sl_err err, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	if (error_out == NULL)
		return err;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return SL_ENOMEM;
	*error_out = msg;
	return err;
}

/* ---- where every node stands: a libyaml pass over the same bytes ---- */

enum node_kind { NODE_SCALAR, NODE_LIST, NODE_MAP, NODE_ALIAS };

struct pos {
	char *path;                 /* "cluster.node-pools[0].name"; "" is the root */
	unsigned key_line, key_col; /* the key (the entry itself in a list, 0 for the root) */
	unsigned line, col;         /* the value, 1-based */
	enum node_kind kind;
};

struct posmap {
	struct pos *v;
	size_t n, cap;
};

struct frame {
	char *path;
	bool is_map;
	bool want_key;              /* a mapping expecting its next key */
	size_t index;               /* next list index */
	char *key;                  /* the pending key of a mapping */
	unsigned key_line, key_col;
	size_t nodes;               /* nodes inside, aliases expanded */
	char *anchor;
};

struct anchor {
	char *name;
	size_t nodes;
};

struct scan {
	struct posmap map;
	struct frame stack[MAX_DEPTH];
	size_t depth;
	struct anchor *anchors;
	size_t n_anchors, cap_anchors;
	size_t total;               /* nodes so far, aliases expanded */
};

static void posmap_free(struct posmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
}

/* The last node recorded at path, or NULL. */
static const struct pos *posmap_find(const struct posmap *m, const char *path)
{
	for (size_t i = m->n; i > 0; i--)
		if (strcmp(m->v[i - 1].path, path) == 0)
			return &m->v[i - 1];
	return NULL;
}

/* parent + "." + key (just key at the root), malloc'd. */
static char *path_key(const char *parent, const char *key)
{
	char *p;

	if (asprintf(&p, "%s%s%s", parent, *parent ? "." : "", key) < 0)
		return NULL;
	return p;
}

static char *path_index(const char *parent, size_t i)
{
	char *p;

	if (asprintf(&p, "%s[%zu]", parent, i) < 0)
		return NULL;
	return p;
}

static void scan_free(struct scan *s)
{
	posmap_free(&s->map);
	for (size_t i = 0; i < s->depth; i++) {
		free(s->stack[i].path);
		free(s->stack[i].key);
		free(s->stack[i].anchor);
	}
	for (size_t i = 0; i < s->n_anchors; i++)
		free(s->anchors[i].name);
	free(s->anchors);
}

static sl_err add_anchor(struct scan *s, const char *name, size_t nodes)
{
	if (s->n_anchors == s->cap_anchors) {
		size_t cap = s->cap_anchors ? 2 * s->cap_anchors : 8;
		struct anchor *v = realloc(s->anchors, cap * sizeof *v);

		if (v == NULL)
			return SL_ENOMEM;
		s->anchors = v;
		s->cap_anchors = cap;
	}
	s->anchors[s->n_anchors].name = strdup(name);
	if (s->anchors[s->n_anchors].name == NULL)
		return SL_ENOMEM;
	s->anchors[s->n_anchors++].nodes = nodes;
	return SL_OK;
}

static size_t anchor_nodes(const struct scan *s, const char *name)
{
	for (size_t i = s->n_anchors; i > 0; i--)
		if (strcmp(s->anchors[i - 1].name, name) == 0)
			return s->anchors[i - 1].nodes;
	return 1;
}

/* Adds n nodes to every open container and to the total. */
static void count_nodes(struct scan *s, size_t n)
{
	for (size_t i = 0; i < s->depth; i++)
		s->stack[i].nodes += n;
	s->total += n;
}

/* Appends a node at path (taking ownership of path, freed on failure). */
static sl_err posmap_add(struct posmap *m, char *path, unsigned key_line, unsigned key_col,
			 const yaml_event_t *ev, enum node_kind kind)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 32;
		struct pos *v = realloc(m->v, cap * sizeof *v);

		if (v == NULL) {
			free(path);
			return SL_ENOMEM;
		}
		m->v = v;
		m->cap = cap;
	}
	m->v[m->n++] = (struct pos){
		.path = path, .key_line = key_line, .key_col = key_col,
		.line = ev->start_mark.line + 1, .col = ev->start_mark.column + 1,
		.kind = kind,
	};
	return SL_OK;
}

/* Records one node event (scalar, alias, sequence or mapping start): its path and position,
** and pushes a frame for a container. A scalar in key position becomes the pending key.
** Returns SL_OK, SL_ENOMEM, or SL_ECONFIG with *why set (too deep, a non-scalar key). */
static sl_err scan_node(struct scan *s, const yaml_event_t *ev, enum node_kind kind,
			const char **why)
{
	struct frame *top = s->depth ? &s->stack[s->depth - 1] : NULL;
	struct frame *f;
	char *path;
	unsigned key_line = 0, key_col = 0;
	const yaml_char_t *anchor;
	sl_err err;

	if (top != NULL && top->is_map && top->want_key) {
		if (kind != NODE_SCALAR) {
			*why = "a mapping key must be a plain string";   /* libcyaml fails on these */
			return SL_ECONFIG;
		}
		top->key = strdup((const char *)ev->data.scalar.value);
		if (top->key == NULL)
			return SL_ENOMEM;
		top->key_line = ev->start_mark.line + 1;
		top->key_col = ev->start_mark.column + 1;
		top->want_key = false;
		return SL_OK;
	}
	if (top != NULL && top->is_map) {
		path = path_key(top->path, top->key);
		key_line = top->key_line;
		key_col = top->key_col;
		free(top->key);
		top->key = NULL;
		top->want_key = true;
	} else if (top != NULL) {
		path = path_index(top->path, top->index++);
		key_line = ev->start_mark.line + 1;
		key_col = ev->start_mark.column + 1;
	} else {
		path = strdup("");
	}
	if (path == NULL)
		return SL_ENOMEM;
	err = posmap_add(&s->map, path, key_line, key_col, ev, kind);
	if (err != SL_OK)
		return err;

	switch (kind) {
	case NODE_ALIAS:
		count_nodes(s, anchor_nodes(s, (const char *)ev->data.alias.anchor));
		return SL_OK;
	case NODE_SCALAR:
		count_nodes(s, 1);
		anchor = ev->data.scalar.anchor;
		return anchor != NULL ? add_anchor(s, (const char *)anchor, 1) : SL_OK;
	case NODE_MAP:
		anchor = ev->data.mapping_start.anchor;
		break;
	case NODE_LIST:
	default:
		anchor = ev->data.sequence_start.anchor;
		break;
	}
	count_nodes(s, 1);
	if (s->depth == MAX_DEPTH) {
		*why = "nesting too deep";
		return SL_ECONFIG;
	}
	f = &s->stack[s->depth];
	*f = (struct frame){ .is_map = kind == NODE_MAP, .want_key = kind == NODE_MAP, .nodes = 1 };
	s->depth++;
	f->path = strdup(path);
	if (f->path == NULL)
		return SL_ENOMEM;
	if (anchor != NULL) {
		f->anchor = strdup((const char *)anchor);
		if (f->anchor == NULL)
			return SL_ENOMEM;
	}
	return SL_OK;
}

/* Pops the container that ends, remembering its size when it is anchored. */
static sl_err scan_end(struct scan *s)
{
	struct frame f = s->stack[--s->depth];
	sl_err err = SL_OK;

	if (f.anchor != NULL)
		err = add_anchor(s, f.anchor, f.nodes);
	free(f.path);
	free(f.key);
	free(f.anchor);
	return err;
}

/* Line and column (1-based) of a libyaml error. */
static void yaml_error_pos(const yaml_parser_t *p, const char *buf, unsigned *line, unsigned *col)
{
	if (p->error == YAML_READER_ERROR) {
		/* reader errors carry a byte offset only */
		*line = 1;
		*col = 1;
		for (size_t i = 0; i < p->problem_offset && buf[i] != '\0'; i++) {
			if (buf[i] == '\n') {
				(*line)++;
				*col = 1;
			} else {
				(*col)++;
			}
		}
		return;
	}
	*line = p->problem_mark.line + 1;
	*col = p->problem_mark.column + 1;
}

/* Checks the YAML and fills s->map. SL_ECONFIG on invalid YAML, more than one document or
** limits exceeded, with the message in *error_out. */
static sl_err scan_file(struct scan *s, const char *path, const char *buf, size_t len,
			char **error_out)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	sl_err err = SL_OK;
	int docs = 0;
	bool done = false;
	const char *why = NULL;

	if (!yaml_parser_initialize(&parser))
		return SL_ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done && err == SL_OK) {
		if (!yaml_parser_parse(&parser, &ev)) {
			unsigned line, col;

			if (parser.error == YAML_MEMORY_ERROR) {
				err = SL_ENOMEM;
				break;
			}
			yaml_error_pos(&parser, buf, &line, &col);
			if (parser.context != NULL)
				err = fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid YAML: %s (%s)",
					path, line, col, parser.problem, parser.context);
			else
				err = fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid YAML: %s",
					path, line, col,
					parser.problem ? parser.problem : "syntax error");
			break;
		}
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				err = fail(error_out, SL_ECONFIG,
					"%s:%zu:%zu: error: more than one YAML document in the configuration",
					path, ev.start_mark.line + 1, ev.start_mark.column + 1);
			break;
		case YAML_SCALAR_EVENT:
			err = scan_node(s, &ev, NODE_SCALAR, &why);
			break;
		case YAML_ALIAS_EVENT:
			err = scan_node(s, &ev, NODE_ALIAS, &why);
			break;
		case YAML_SEQUENCE_START_EVENT:
			err = scan_node(s, &ev, NODE_LIST, &why);
			break;
		case YAML_MAPPING_START_EVENT:
			err = scan_node(s, &ev, NODE_MAP, &why);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			err = scan_end(s);
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		if (err == SL_OK && s->total > MAX_EXPANDED)
			why = "too many nodes (aliases expand to more than 100000)";
		if (why != NULL)
			err = fail(error_out, SL_ECONFIG, "%s:%zu:%zu: error: %s",
				path, ev.start_mark.line + 1, ev.start_mark.column + 1, why);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return err;
}

/* ---- libcyaml's log, turned into one message ---- */

enum seg_kind { SEG_FIELD, SEG_MAP, SEG_ENTRY };

struct seg {
	enum seg_kind kind;
	char name[128];             /* SEG_FIELD */
	unsigned entry;             /* SEG_ENTRY, 1-based as libcyaml prints it */
	unsigned line, col;
};

struct cylog {
	char msg[512];              /* the first error, "Load: " and newline removed */
	struct seg segs[MAX_BACKTRACE];   /* innermost first */
	size_t n_segs;
};

static void log_fn(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct cylog *log = ctx;
	char line[512];
	struct seg sg = { 0 };
	size_t len;

	if (log == NULL || level < CYAML_LOG_ERROR)
		return;
	vsnprintf(line, sizeof line, fmt, args);
	len = strlen(line);
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';

	if (sscanf(line, "  in mapping field '%127[^']' (line: %u, column: %u)",
		   sg.name, &sg.line, &sg.col) == 3) {
		sg.kind = SEG_FIELD;
	} else if (sscanf(line, "  in mapping (line: %u, column: %u)", &sg.line, &sg.col) == 2) {
		sg.kind = SEG_MAP;
	} else if (sscanf(line, "  in sequence entry '%u' (line: %u, column: %u)",
			  &sg.entry, &sg.line, &sg.col) == 3) {
		sg.kind = SEG_ENTRY;
	} else {
		const char *m = line;

		if (log->msg[0] != '\0' || strcmp(line, "Load: Backtrace:") == 0)
			return;
		if (strncmp(m, "Load: ", 6) == 0)
			m += 6;
		snprintf(log->msg, sizeof log->msg, "%s", m);
		return;
	}
	if (log->n_segs < MAX_BACKTRACE)
		log->segs[log->n_segs++] = sg;
}

/* The path named by segs[from..n), outermost first: "cluster.node-pools[1].name". */
static char *segs_path(const struct cylog *log, size_t from)
{
	char *path = strdup(""), *next;

	for (size_t i = log->n_segs; path != NULL && i > from; i--) {
		const struct seg *sg = &log->segs[i - 1];

		if (sg->kind == SEG_MAP)
			continue;
		if (sg->kind == SEG_FIELD)
			next = path_key(path, sg->name);
		else
			next = path_index(path, sg->entry > 0 ? sg->entry - 1 : 0);
		free(path);
		path = next;
	}
	return path;
}

static const char *last_key(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? dot + 1 : path;
}

static const char *kind_name(enum node_kind kind)
{
	switch (kind) {
	case NODE_SCALAR: return "a scalar";
	case NODE_LIST: return "a list";
	case NODE_MAP: return "a mapping";
	case NODE_ALIAS: return "an alias";
	}
	return "a node";
}

/* The closest value of the enumeration at path to value, or NULL. */
static const char *closest_value(const char *path, const char *value)
{
	const char *key = last_key(path);
	sl_spelling s;

	sl_spelling_init(&s, value);
	for (size_t i = 0; i < COUNT(expectations); i++)
		for (size_t k = 0; strcmp(key, expectations[i].key) == 0 && k < expectations[i].n_values; k++)
			sl_spelling_consider(&s, expectations[i].values[k].str);
	return sl_spelling_best(&s);
}

/* What the value at path must be, from the table or libcyaml's type name. */
static const char *expected_at(const char *path, const char *cyaml_type)
{
	const char *key = last_key(path);

	for (size_t i = 0; i < COUNT(expectations); i++)
		if (strcmp(key, expectations[i].key) == 0)
			return expectations[i].expected;
	if (strncmp(cyaml_type, "MAPPING", 7) == 0)
		return "a mapping";
	if (strncmp(cyaml_type, "SEQUENCE", 8) == 0)
		return "a list";
	return "a string";
}

static const char *got_event(const char *ev)
{
	if (strncmp(ev, "SCALAR", 6) == 0)
		return "a scalar";
	if (strncmp(ev, "SEQUENCE", 8) == 0)
		return "a list";
	if (strncmp(ev, "MAPPING", 7) == 0)
		return "a mapping";
	return "something else";
}

/* " in PATH", or "" at the root. */
static const char *in_where(const char *path, char *buf, size_t size)
{
	if (*path == '\0')
		return "";
	snprintf(buf, size, " in %s", path);
	return buf;
}

/* Turns libcyaml's logged error into "path:line:col: error: ..." in *error_out. Positions come
** from the libyaml pass where it has the node, else from libcyaml's innermost backtrace line. */
static sl_err cyaml_failure(const char *file, cyaml_err_t cerr, const struct cylog *log,
			    const struct posmap *map, char **error_out)
{
	unsigned line = 1, col = 1;
	const struct pos *at;
	char *path = NULL, *where = NULL, *msg = NULL;
	char arg[256], inbuf[300], mean[1024];
	sl_err err = SL_OK;
	int n = -1;

	if (log->n_segs > 0) {
		line = log->segs[0].line;
		col = log->segs[0].col;
	}

	if (sscanf(log->msg, "Unexpected key: %255[^\n]", arg) == 1) {
		/* innermost is the mapping itself, with no field */
		path = segs_path(log, 0);
		where = path ? path_key(path, arg) : NULL;
		if (where == NULL)
			goto oom;
		if ((at = posmap_find(map, where)) != NULL && at->key_line > 0) {
			line = at->key_line;
			col = at->key_col;
		}
		n = asprintf(&msg, "unknown key \"%s\"%s", arg, in_where(path, inbuf, sizeof inbuf));
	} else if (sscanf(log->msg, "Mapping field already seen: %255[^\n]", arg) == 1) {
		/* innermost names the repeated field */
		path = segs_path(log, log->n_segs > 0 && log->segs[0].kind == SEG_FIELD ? 1 : 0);
		where = path ? path_key(path, arg) : NULL;
		if (where == NULL)
			goto oom;
		if ((at = posmap_find(map, where)) != NULL && at->key_line > 0) {
			line = at->key_line;
			col = at->key_col;
		}
		n = asprintf(&msg, "duplicate key \"%s\"%s", arg, in_where(path, inbuf, sizeof inbuf));
	} else if (sscanf(log->msg, "Missing required mapping field: %255[^\n]", arg) == 1) {
		/* the innermost mapping's field index is stale here: drop it */
		path = segs_path(log, log->n_segs > 0 && log->segs[0].kind == SEG_FIELD ? 1 : 0);
		if (path == NULL)
			goto oom;
		if ((at = posmap_find(map, path)) != NULL) {
			line = at->line;
			col = at->col;
		}
		n = asprintf(&msg, "missing key \"%s\"%s", arg, in_where(path, inbuf, sizeof inbuf));
	} else if (sscanf(log->msg, "Invalid ENUM value: %255[^\n]", arg) == 1) {
		path = segs_path(log, 0);
		if (path == NULL)
			goto oom;
		if ((at = posmap_find(map, path)) != NULL) {
			line = at->line;
			col = at->col;
		}
		n = asprintf(&msg, "invalid value \"%s\" for %s (expected %s)%s", arg, path,
			     expected_at(path, "ENUM"),
			     did_you_mean(closest_value(path, arg), mean, sizeof mean));
	} else if (strncmp(log->msg, "Expecting ", 10) == 0) {
		char type[64] = "", ev[64] = "";
		const char *got;

		sscanf(log->msg, "Expecting %63s got event: %63s", type, ev);
		path = segs_path(log, 0);
		if (path == NULL)
			goto oom;
		at = posmap_find(map, path);
		if (at != NULL) {
			line = at->line;
			col = at->col;
		}
		got = at != NULL ? kind_name(at->kind) : got_event(ev);
		if (*path == '\0')
			n = asprintf(&msg, "wrong type for the configuration: expected a mapping, got %s",
				     got);
		else
			n = asprintf(&msg, "wrong type for %s: expected %s, got %s", path,
				     expected_at(path, type), got);
	} else if (strncmp(log->msg, "STRING length < 1", 17) == 0) {
		path = segs_path(log, 0);
		if (path == NULL)
			goto oom;
		if ((at = posmap_find(map, path)) != NULL) {
			line = at->line;
			col = at->col;
		}
		n = asprintf(&msg, "empty value for %s", path);
	} else if (sscanf(log->msg, "No anchor found for alias: '%255[^']'", arg) == 1) {
		n = asprintf(&msg, "unknown alias \"%s\"", arg);
	} else {
		const char *m = log->msg[0] ? log->msg : cyaml_strerror(cerr);

		n = asprintf(&msg, "%c%s", m[0] >= 'A' && m[0] <= 'Z' ? m[0] - 'A' + 'a' : m[0],
			     m + 1);
	}
	if (n < 0)
		goto oom;
	err = fail(error_out, SL_ECONFIG, "%s:%u:%u: error: %s", file, line, col, msg);
	goto out;
oom:
	err = SL_ENOMEM;
out:
	free(path);
	free(where);
	free(msg);
	return err;
}

/* ---- the resolved config ---- */

struct priv {
	struct raw_config *raw;     /* libcyaml's data, freed with cyaml_free */
	struct sl_config *base;     /* the config extend: names, whose values this one shares */
	char *path, *base_dir;
	struct sl_rule_setting *rules;
	struct sl_node_pool *pools;
	char **keys;                /* the keys this file sets ("fail-on", "cluster.provider") */
	unsigned *key_lines;
	size_t n_keys;
	char *helm_chart;           /* render.helm-chart joined to the file's directory */
	char *text;                 /* the file as read: custom.c reads custom-rules: from it */
	size_t text_len;
};

static const cyaml_config_t cyaml_base = {
	.log_fn = log_fn,
	.mem_fn = cyaml_mem,
	.log_level = CYAML_LOG_ERROR,   /* the error and its backtrace both come at ERROR */
	.flags = CYAML_CFG_DEFAULT,
};

static void fill_defaults(struct sl_config *cfg)
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
	cfg->kustomize_load_restrictor = load_restrictors[0];
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
	if (posmap_find(map, path) != NULL)
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

/* Position of the value at path, 1:1 when the libyaml pass lacks it (inside an alias). */
static void value_pos(const struct posmap *map, const char *path, unsigned *line, unsigned *col)
{
	const struct pos *at = posmap_find(map, path);

	*line = at ? at->line : 1;
	*col = at ? at->col : 1;
}

/* The line of the key at path (the value's when the key's is unknown), 0 when it is absent. */
static unsigned key_line(const struct posmap *map, const char *path)
{
	const struct pos *at = posmap_find(map, path);
	return !at ? 0 : at->key_line ? at->key_line : at->line;
}

static char *dir_of(const char *path);

/* Checks what libcyaml cannot (integers, "name=value") and resolves the cluster section. */
static sl_err resolve_cluster(struct sl_config *cfg, struct priv *pv, const struct posmap *map,
			      const char *file, char **error_out)
{
	struct sl_cluster_config *c = &cfg->cluster;
	const struct raw_cluster *r = pv->raw->cluster;
	unsigned line, col;
	char path[128], mean[1024];

	if (r == NULL)
		return SL_OK;
	for (unsigned i = 0; i < r->knative_features_count; i++) {
		const char *flag = r->knative_features[i];
		if (knative_flag_known(flag))
			continue;
		snprintf(path, sizeof path, "cluster.knative-features[%u]", i);
		value_pos(map, path, &line, &col);
		const char *best = knative_flag_closest(flag);
		return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: unknown Knative flag \"%s\" for "
			    "%s%s", file, line, col, flag, path,
			    best ? did_you_mean(best, mean, sizeof mean) :
			    " (expected a flag of Knative's config-features, by its full name or, for a "
			    "kubernetes.podspec-* flag, by the rest of it: \"nodeselector\")");
	}
	if (posmap_find(map, "cluster.knative-features") != NULL) {
		c->knative_features = strlist(r->knative_features, r->knative_features_count);
		c->knative_features_set = true;
		c->knative_features_line = key_line(map, "cluster.knative-features");
	}
	if (r->kserve_default_deployment_mode != NULL) {
		sl_mode m;
		if (!sl_kserve_mode_parse(r->kserve_default_deployment_mode, &m)) {
			value_pos(map, "cluster.kserve-default-deployment-mode", &line, &col);
			return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: unknown deployment mode \"%s\" "
				    "for cluster.kserve-default-deployment-mode (expected Standard, Knative, "
				    "ModelMesh, RawDeployment or Serverless)%s", file, line, col,
				    r->kserve_default_deployment_mode,
				    did_you_mean(sl_spelling_closest(r->kserve_default_deployment_mode,
								     deployment_modes,
								     COUNT(deployment_modes)),
						 mean, sizeof mean));
		}
		c->kserve_default_deployment_mode = r->kserve_default_deployment_mode;
		c->kserve_default_deployment_mode_line =
			key_line(map, "cluster.kserve-default-deployment-mode");
	}
	if (r->kserve_version != NULL && !is_version(r->kserve_version)) {
		value_pos(map, "cluster.kserve-version", &line, &col);
		return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid value \"%s\" for "
			    "cluster.kserve-version (expected a KServe release such as \"0.15\" or "
			    "\"v0.16.1\")", file, line, col, r->kserve_version);
	}
	if (r->kserve_version != NULL)
		c->kserve_version = r->kserve_version;
	if (r->extended_resource_toleration != NULL) {
		c->extended_resource_toleration = *r->extended_resource_toleration ? SL_TRI_YES : SL_TRI_NO;
		c->extended_resource_toleration_line =
			key_line(map, "cluster.extended-resource-toleration");
	}
	if (r->gpu_nodes_tainted != NULL) {
		c->gpu_nodes_tainted = *r->gpu_nodes_tainted ? SL_TRI_YES : SL_TRI_NO;
		c->gpu_nodes_tainted_line = key_line(map, "cluster.gpu-nodes-tainted");
	}
	if (r->provider != NULL) {
		size_t k = 0;
		while (k < COUNT(providers) && strcmp(r->provider, providers[k]) != 0)
			k++;
		if (k == COUNT(providers)) {
			value_pos(map, "cluster.provider", &line, &col);
			return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: unknown provider \"%s\" for "
				    "cluster.provider (expected gke, eks, aks or generic)%s", file, line, col,
				    r->provider, did_you_mean(sl_spelling_closest(r->provider, providers,
									   COUNT(providers)),
							       mean, sizeof mean));
		}
		c->provider = (sl_provider)k;
		c->provider_line = key_line(map, "cluster.provider");
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
		char *dir = dir_of(file), *full = NULL;
		struct stat st;
		if (dir && (r->node_inventory[0] == '/' ||
			    asprintf(&full, "%s/%s", dir, r->node_inventory) >= 0) &&
		    stat(full ? full : r->node_inventory, &st) != 0) {
			int e = errno;
			free(dir);
			free(full);
			value_pos(map, "cluster.node-inventory", &line, &col);
			return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: cluster.node-inventory: cannot "
				    "read \"%s\": %s (the path is relative to this config)", file, line,
				    col, r->node_inventory, strerror(e));
		}
		free(dir);
		free(full);
		c->node_inventory = r->node_inventory;
	}

	if (r->critical_priority != NULL &&
	    !parse_integer(r->critical_priority, &c->critical_priority)) {
		value_pos(map, "cluster.critical-priority", &line, &col);
		return fail(error_out, SL_ECONFIG,
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
			value_pos(map, path, &line, &col);
			return fail(error_out, SL_ECONFIG,
				"%s:%u:%u: error: invalid value \"%s\" for %s "
				"(expected name=integer)", file, line, col, pc, path);
		}
	}
	override_list(&c->priority_classes, map, "cluster.priority-classes", r->priority_classes,
		      r->priority_classes_count);

	if (r->node_pools_count > 0) {
		pv->pools = calloc(r->node_pools_count, sizeof *pv->pools);
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
			value_pos(map, path, &line, &col);
			return fail(error_out, SL_ECONFIG,
				"%s:%u:%u: error: invalid value \"%s\" for %s "
				"(expected a non-negative integer, or min-max: \"2-10\")", file, line, col,
				rp->nodes, path);
		}
		if (rp->capacity_count > 0 && rp->allocatable_count > 0) {
			snprintf(path, sizeof path, "cluster.node-pools[%u].capacity", i);
			value_pos(map, path, &line, &col);
			return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: cluster.node-pools[%u] has "
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
			value_pos(map, path, &line, &col);
			return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid value \"%s\" for %s: "
				    "%s (expected resource=quantity: \"nvidia.com/gpu=8\", \"memory=64Gi\")",
				    file, line, col, alloc[j], path, why);
		}
		for (unsigned j = 0; j < rp->labels_count; j++) {
			char why[512];
			if (pool_label_ok(rp->labels[j], why, sizeof why))
				continue;
			snprintf(path, sizeof path, "cluster.node-pools[%u].labels[%u]", i, j);
			value_pos(map, path, &line, &col);
			return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid label \"%s\" for %s: "
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
				? sl_spelling_closest(colon + 1, taint_effects, COUNT(taint_effects)) : NULL;
			if (effect)
				snprintf(fixed, sizeof fixed, "%.*s:%s", (int)(colon - t), t, effect);
			snprintf(path, sizeof path, "cluster.node-pools[%u].taints[%u]", i, j);
			value_pos(map, path, &line, &col);
			return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid taint \"%s\" for %s: "
				    "%s (expected key=value:Effect or key:Effect, the effect NoSchedule, "
				    "PreferNoSchedule or NoExecute)%s", file, line, col, t, path,
				    colon ? why : "no effect", did_you_mean(effect ? fixed : NULL, mean,
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
		p->line = key_line(map, path);
	}
	if (posmap_find(map, "cluster.node-pools") != NULL) {
		c->node_pools = pv->pools;
		c->n_node_pools = r->node_pools_count;
	}
	return SL_OK;
}

/* An error at the first of the n globs at key that cannot be a glob (sl_walk_glob_problem). */
static sl_err check_globs(const struct posmap *map, const char *file, const char *key,
			  char **globs, unsigned n, char **error_out)
{
	unsigned line, col;
	char path[64], mean[1024], fix[300];

	for (unsigned i = 0; i < n; i++) {
		const char *why = sl_walk_glob_problem(globs[i], fix, sizeof fix);
		if (why == NULL)
			continue;
		snprintf(path, sizeof path, "%s[%u]", key, i);
		value_pos(map, path, &line, &col);
		return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: invalid glob \"%s\" for %s: %s%s",
			    file, line, col, globs[i], path, why,
			    did_you_mean(*fix ? fix : NULL, mean, sizeof mean));
	}
	return SL_OK;
}

/* Fills cfg from pv->raw (may be NULL: an empty file). */
static sl_err resolve(struct sl_config *cfg, struct priv *pv, const struct posmap *map,
		      const char *file, char **error_out)
{
	const struct raw_config *r = pv->raw;
	unsigned line, col;
	char path[64], mean[1024];

	if (r == NULL)
		return SL_OK;
	sl_err err = check_globs(map, file, "exclude", r->exclude, r->exclude_count, error_out);
	if (!err && r->project)
		err = check_globs(map, file, "project.include", r->project->include,
				  r->project->include_count, error_out);
	if (!err && r->project)
		err = check_globs(map, file, "project.exclude", r->project->exclude,
				  r->project->exclude_count, error_out);
	if (err)
		return err;
	for (unsigned i = 0; i < r->rules_count; i++) {
		/* a namespaced id is a declared rule's: scopes.c checks it once they are declared */
		if (sl_registry_known(r->rules[i].id) || strchr(r->rules[i].id, '/'))
			continue;
		snprintf(path, sizeof path, "rules[%u].id", i);
		value_pos(map, path, &line, &col);
		return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: unknown rule or category \"%s\" "
			    "for %s%s", file, line, col, r->rules[i].id, path,
			    did_you_mean(sl_registry_closest(r->rules[i].id), mean, sizeof mean));
	}
	/* every key overrides what the config starts from (the defaults, or the config it extends)
	** only when present */
	if (posmap_find(map, "exclude") != NULL) {
		cfg->exclude = strlist(r->exclude, r->exclude_count);
		cfg->exclude_dir = NULL;   /* this file's directory: set by the caller */
	}
	if (r->fail_on != NULL)
		cfg->fail_on = *r->fail_on;
	if (posmap_find(map, "project") != NULL) {   /* project: is one setting, include and exclude */
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
		while (k < COUNT(load_restrictors) && strcmp(lr, load_restrictors[k]) != 0)
			k++;
		if (k == COUNT(load_restrictors)) {
			value_pos(map, "render.kustomize.load-restrictor", &line, &col);
			return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: unknown load restrictor \"%s\" "
				    "for render.kustomize.load-restrictor (expected rootOnly or none: "
				    "kubectl kustomize's LoadRestrictionsRootOnly and "
				    "LoadRestrictionsNone)%s", file, line, col, lr,
				    did_you_mean(sl_spelling_closest(lr, load_restrictors,
								     COUNT(load_restrictors)),
						 mean, sizeof mean));
		}
		cfg->kustomize_load_restrictor = load_restrictors[k];
	}
	if (posmap_find(map, "plugins") != NULL) {   /* loaded by scopes.c, with --allow-plugins */
		cfg->plugins = strlist(r->plugins, r->plugins_count);
		cfg->plugins_line = key_line(map, "plugins");
		cfg->plugins_dir = NULL;   /* this file's directory: set by the caller */
	}
	/* rules: the extended config's entries, then this file's (later entries win) */
	size_t inherited = cfg->n_rules;
	if (inherited + r->rules_count > 0) {
		pv->rules = calloc(inherited + r->rules_count, sizeof *pv->rules);
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
		value_pos(map, path, &pv->rules[inherited + i].id_line, &pv->rules[inherited + i].id_col);
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
	return resolve_cluster(cfg, pv, map, file, error_out);
}

/* The directory part of path: "." for a bare name, "/" for a file at the root. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len;
	char *d;

	if (slash == NULL)
		return strdup(".");
	while (slash > path && slash[-1] == '/')
		slash--;
	len = slash == path ? 1 : (size_t)(slash - path);
	d = malloc(len + 1);
	if (d == NULL)
		return NULL;
	memcpy(d, path, len);
	d[len] = '\0';
	return d;
}

/* Reads the whole file into a NUL-terminated buffer: a regular file only (a config symlinked
** to /dev/zero or a FIFO is refused, never read). Returns 0, or an errno value. */
static int read_all(const char *path, char **buf_out, size_t *len_out)
{
	struct stat st;
	int fd = sl_source_open(path, &st);
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0;
	ssize_t got;
	int e;

	if (fd < 0)
		return errno;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : (size_t)st.st_size + 8192;
			nb = realloc(buf, cap + 1);
			if (nb == NULL) {
				e = ENOMEM;
				goto fail;
			}
			buf = nb;
		}
		got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			e = errno;
			goto fail;
		}
		if (got == 0)
			break;
		len += (size_t)got;
	}
	sl_source_close(fd);
	buf[len] = '\0';
	*buf_out = buf;
	*len_out = len;
	return 0;
fail:
	sl_source_close(fd);
	free(buf);
	return e;
}

static void priv_free(struct priv *pv)
{
	if (pv == NULL)
		return;
	if (pv->raw != NULL)
		cyaml_free(&cyaml_base, &top_schema, pv->raw, 0);
	sl_config_free(pv->base);
	free(pv->path);
	free(pv->base_dir);
	free(pv->rules);
	free(pv->pools);
	for (size_t i = 0; i < pv->n_keys; i++)
		free(pv->keys[i]);
	free(pv->keys);
	free(pv->key_lines);
	free(pv->text);
	free(pv->helm_chart);
	free(pv);
}

/* A line of the config cfg extends, as cfg names it: one file further down the chain. */
static unsigned shifted(unsigned line)
{
	return line ? line + (1u << 24) : 0;
}

/* cfg starts from base (extend:): base's values, each line shifted one file down the chain, the
** chain below cfg's own file base's. cfg shares base's storage, which pv->base keeps. */
static void inherit(struct sl_config *cfg, const struct sl_config *base)
{
	struct sl_cluster_config *c = &cfg->cluster;
	*cfg = *base;
	c->knative_features_line = shifted(c->knative_features_line);
	c->kserve_default_deployment_mode_line = shifted(c->kserve_default_deployment_mode_line);
	c->extended_resource_toleration_line = shifted(c->extended_resource_toleration_line);
	c->gpu_nodes_tainted_line = shifted(c->gpu_nodes_tainted_line);
	c->provider_line = shifted(c->provider_line);
	cfg->plugins_line = shifted(cfg->plugins_line);
	for (size_t k = SL_CONFIG_CHAIN_MAX; k > 0; k--)
		cfg->chain[k] = base->chain[k - 1];
	cfg->exclude_dir = base->exclude_dir;
	cfg->project_dir = base->project_dir;
}

/* Keeps where each key of the file stands (not list entries): where a setting comes from. */
static sl_err keep_keys(struct priv *pv, const struct posmap *map)
{
	pv->keys = calloc(map->n + 1, sizeof *pv->keys);
	pv->key_lines = calloc(map->n + 1, sizeof *pv->key_lines);
	if (pv->keys == NULL || pv->key_lines == NULL)
		return SL_ENOMEM;
	for (size_t i = 0; i < map->n; i++) {
		const struct pos *at = &map->v[i];
		if (*at->path == '\0' || strchr(at->path, '[') != NULL)
			continue;
		if ((pv->keys[pv->n_keys] = strdup(at->path)) == NULL)
			return SL_ENOMEM;
		pv->key_lines[pv->n_keys++] = at->key_line ? at->key_line : at->line;
	}
	return SL_OK;
}

static sl_err load(const char *path, unsigned depth, sl_config **out, char **error_out);

/* Loads the config cfg's extend: names (relative to cfg's file) into pv->base. */
static sl_err load_base(const char *path, unsigned depth, struct priv *pv,
			const struct posmap *map, char **error_out)
{
	const char *ext = pv->raw->extend;
	unsigned line, col;
	value_pos(map, "extend", &line, &col);
	if (depth >= SL_CONFIG_CHAIN_MAX)
		return fail(error_out, SL_ECONFIG, "%s:%u:%u: error: extend: goes more than %d configs "
			    "deep (is there a cycle?)", path, line, col, SL_CONFIG_CHAIN_MAX);
	char *dir = dir_of(path), *base_path = NULL;
	if (dir == NULL || asprintf(&base_path, "%s%s%s", ext[0] == '/' ? "" : dir,
				    ext[0] == '/' ? "" : "/", ext) < 0) {
		free(dir);
		return SL_ENOMEM;
	}
	free(dir);
	char *real = realpath(base_path, NULL), *shown = real ? sl_walk_relative(real) : NULL;
	if (shown) {   /* "sub/../.schedlint.yaml" is named ".schedlint.yaml" */
		free(base_path);
		base_path = shown;
	}
	free(real);
	char *why = NULL;
	sl_err err = load(base_path, depth + 1, &pv->base, &why);
	if (err == SL_EIO)   /* name the key that points at the missing file */
		err = fail(error_out, SL_ECONFIG, "%s:%u:%u: error: extend: %s", path, line, col,
			   why ? why : base_path);
	else if (err && error_out)
		*error_out = why, why = NULL;
	free(why);
	free(base_path);
	return err;
}

/* Loads the configuration file at path: a libyaml pass for syntax and positions, libcyaml
** for the schema, then resolution onto the defaults, or onto the config it extends. *out and
** *error_out are set only as documented in include/schedlint/config.h. */
sl_err sl_config_load(const char *path, sl_config **out, char **error_out)
{
	return load(path, 0, out, error_out);
}

static sl_err load(const char *path, unsigned depth, sl_config **out, char **error_out)
{
	struct scan scan = { 0 };
	struct cylog log = { 0 };
	cyaml_config_t cy = cyaml_base;
	struct sl_config *cfg = NULL;
	struct priv *pv = NULL;
	char *buf = NULL;
	size_t len = 0;
	cyaml_err_t cerr;
	sl_err err;
	int e;

	if (path == NULL || out == NULL)
		return SL_EUSAGE;
	e = read_all(path, &buf, &len);
	if (e == ENOMEM)
		return SL_ENOMEM;
	if (e != 0)
		return fail(error_out, SL_EIO, "%s: error: cannot read: %s", path, sl_source_strerror(e));

	err = scan_file(&scan, path, buf, len, error_out);
	if (err != SL_OK)
		goto out;

	cfg = calloc(1, sizeof *cfg);
	pv = calloc(1, sizeof *pv);
	if (cfg == NULL || pv == NULL) {
		err = SL_ENOMEM;
		goto out;
	}
	cy.log_ctx = &log;
	cerr = cyaml_load_data((const uint8_t *)buf, len, &cy, &top_schema,
			       (cyaml_data_t **)&pv->raw, NULL);
	if (cerr == CYAML_ERR_OOM) {
		err = SL_ENOMEM;
		goto out;
	}
	if (cerr != CYAML_OK) {
		err = cyaml_failure(path, cerr, &log, &scan.map, error_out);
		goto out;
	}

	if (pv->raw != NULL && pv->raw->extend != NULL) {
		err = load_base(path, depth, pv, &scan.map, error_out);
		if (err != SL_OK)
			goto out;
		inherit(cfg, pv->base);
	} else {
		fill_defaults(cfg);
	}
	err = resolve(cfg, pv, &scan.map, path, error_out);
	if (err == SL_OK)
		err = keep_keys(pv, &scan.map);
	if (err != SL_OK)
		goto out;
	pv->path = strdup(path);
	pv->base_dir = dir_of(path);
	if (pv->path == NULL || pv->base_dir == NULL) {
		err = SL_ENOMEM;
		goto out;
	}
	cfg->path = pv->path;
	cfg->base_dir = pv->base_dir;
	if (cfg->exclude_dir == NULL)
		cfg->exclude_dir = pv->base_dir;   /* its own exclude:, or none inherited */
	if (cfg->project_dir == NULL)
		cfg->project_dir = pv->base_dir;
	if (cfg->plugins_dir == NULL)
		cfg->plugins_dir = pv->base_dir;
	if (pv->raw && pv->raw->render && pv->raw->render->helm_chart) {
		/* relative to this file's directory, as exclude: is; kept through extend: */
		const char *hc = pv->raw->render->helm_chart;
		bool as_is = hc[0] == '/' || strcmp(pv->base_dir, ".") == 0;
		if (asprintf(&pv->helm_chart, "%s%s%s", as_is ? "" : pv->base_dir, as_is ? "" : "/",
			     hc) < 0) {
			pv->helm_chart = NULL;
			err = SL_ENOMEM;
			goto out;
		}
		char *chart_yaml = sl_xprintf("%s/Chart.yaml", pv->helm_chart);
		bool found = chart_yaml && access(chart_yaml, R_OK) == 0;
		free(chart_yaml);
		if (!found) {
			unsigned line, col;
			value_pos(&scan.map, "render.helm-chart", &line, &col);
			err = fail(error_out, SL_ECONFIG, "%s:%u:%u: error: render.helm-chart \"%s\" is "
				   "not a chart: %s/Chart.yaml cannot be read", path, line, col, hc,
				   pv->helm_chart);
			goto out;
		}
		cfg->helm_chart = pv->helm_chart;
	}
	cfg->chain[0] = pv->path;
	cfg->priv__ = pv;
	pv->text = buf;   /* kept: the positioned reading of custom-rules: (custom.c) */
	pv->text_len = len;
	buf = NULL;
	*out = cfg;
	pv = NULL;
	cfg = NULL;
out:
	priv_free(pv);
	free(cfg);
	scan_free(&scan);
	free(buf);
	return err;
}

/* A configuration with every default; its priv__ is NULL. */
sl_err sl_config_new_default(sl_config **out)
{
	struct sl_config *cfg;

	if (out == NULL)
		return SL_EUSAGE;
	cfg = calloc(1, sizeof *cfg);
	if (cfg == NULL)
		return SL_ENOMEM;
	fill_defaults(cfg);
	*out = cfg;
	return SL_OK;
}

/* true when dir/name exists (any type when any_type, else not a directory). */
static int has_entry(const char *dir, const char *name, bool any_type, bool *found)
{
	struct stat st;
	char *p;
	int rc;

	if (asprintf(&p, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", name) < 0)
		return ENOMEM;
	rc = lstat(p, &st);
	if (rc == 0 && !any_type && S_ISLNK(st.st_mode))
		rc = stat(p, &st);
	*found = rc == 0 && (any_type || !S_ISDIR(st.st_mode));
	free(p);
	return 0;
}

/* Walks from the real path of start_dir upwards: the first directory holding .schedlint.yaml
** wins; the walk stops after a directory holding .git (file or directory) or at /.
** *path_out is malloc'd (relative to the working directory when under it). SL_ENOTFOUND when
** none or start_dir does not exist. */
sl_err sl_config_discover(const char *start_dir, char **path_out)
{
	char *dir, *slash, *p;
	bool found;
	sl_err err = SL_ENOTFOUND;

	if (start_dir == NULL || path_out == NULL)
		return SL_EUSAGE;
	dir = realpath(start_dir, NULL);
	if (dir == NULL)
		return errno == ENOMEM ? SL_ENOMEM :
		       errno == ENOENT || errno == ENOTDIR ? SL_ENOTFOUND : SL_EIO;
	for (;;) {
		if (has_entry(dir, CONFIG_NAME, false, &found) != 0) {
			err = SL_ENOMEM;
			break;
		}
		if (found) {
			if (asprintf(&p, "%s%s" CONFIG_NAME, dir,
				     strcmp(dir, "/") == 0 ? "" : "/") < 0) {
				err = SL_ENOMEM;
				break;
			}
			*path_out = sl_walk_relative(p);
			free(p);
			if (*path_out == NULL) {
				err = SL_ENOMEM;
				break;
			}
			err = SL_OK;
			break;
		}
		if (has_entry(dir, ".git", true, &found) != 0) {
			err = SL_ENOMEM;
			break;
		}
		if (found || strcmp(dir, "/") == 0)
			break;
		slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(dir);
	return err;
}

/* The fail-on severity, or -1 when the config does not set one (or cfg is NULL). */
const char *sl_config_text(const sl_config *cfg, size_t k, size_t *len)
{
	const struct priv *pv = cfg ? cfg->priv__ : NULL;
	for (; pv && k > 0; k--)
		pv = pv->base ? pv->base->priv__ : NULL;
	*len = pv ? pv->text_len : 0;
	return pv ? pv->text : NULL;
}

int sl_config_fail_on(const sl_config *cfg)
{
	return cfg != NULL ? cfg->fail_on : -1;
}

/* Frees cfg, the libcyaml data and every string it owns; NULL is a no-op. */
void sl_config_free(sl_config *cfg)
{
	if (cfg == NULL)
		return;
	priv_free(cfg->priv__);
	free(cfg);
}

/* True when list l holds a string equal to s; false when s is NULL. */
bool sl_config_list_has(const sl_strlist *l, const char *s)
{
	for (size_t i = 0; s && i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

/* The value of spot label i when its key is key ("" for a bare key), else NULL. */
const char *sl_config_spot_value(const sl_config *cfg, size_t i, const char *key)
{
	const char *l = cfg->cluster.spot_labels.v[i];
	const char *eq = strchr(l, '=');
	size_t n = eq ? (size_t)(eq - l) : strlen(l);
	if (!key || strlen(key) != n || strncmp(l, key, n) != 0)
		return NULL;
	return eq ? eq + 1 : "";
}

/* True when name is an entry of l (an entry ending in * is a prefix). */
static bool resource_listed(const sl_strlist *l, const char *name)
{
	for (size_t i = 0; name && i < l->n; i++) {
		const char *g = l->v[i];
		size_t n = strlen(g);
		if (n && g[n - 1] == '*') {
			if (strncmp(name, g, n - 1) == 0)
				return true;
		} else if (strcmp(name, g) == 0) {
			return true;
		}
	}
	return false;
}

bool sl_config_is_gpu_resource(const sl_config *cfg, const char *name)
{
	return cfg && resource_listed(&cfg->cluster.gpu_resources, name);
}

bool sl_config_is_accelerator_resource(const sl_config *cfg, const char *name)
{
	return cfg && (resource_listed(&cfg->cluster.gpu_resources, name) ||
		       resource_listed(&cfg->cluster.accelerator_resources, name));
}

/* True when some spot label is key or starts with "key=". */
bool sl_config_is_spot_key(const sl_config *cfg, const char *key)
{
	size_t n = key ? strlen(key) : 0;
	for (size_t i = 0; cfg && key && i < cfg->cluster.spot_labels.n; i++) {
		const char *l = cfg->cluster.spot_labels.v[i];
		if (strncmp(l, key, n) == 0 && (l[n] == '=' || l[n] == '\0'))
			return true;
	}
	return false;
}

/* --- the cluster settings, for readers without the layout (config_values.h) --- */

static const sl_strlist no_list;

const sl_strlist *sl_config_spot_labels(const sl_config *cfg)
{
	return cfg ? &cfg->cluster.spot_labels : &no_list;
}

const sl_strlist *sl_config_priority_classes(const sl_config *cfg)
{
	return cfg ? &cfg->cluster.priority_classes : &no_list;
}

const sl_strlist *sl_config_critical_priority_classes(const sl_config *cfg)
{
	return cfg ? &cfg->cluster.critical_priority_classes : &no_list;
}

long long sl_config_critical_priority(const sl_config *cfg)
{
	return cfg ? cfg->cluster.critical_priority : LLONG_MAX;
}

const sl_strlist *sl_config_batch_kinds(const sl_config *cfg)
{
	return cfg ? &cfg->cluster.batch_kinds : &no_list;
}

bool sl_config_toleration_comparison_operators(const sl_config *cfg)
{
	return cfg && cfg->cluster.toleration_comparison_operators;
}

const char *sl_config_kserve_version(const sl_config *cfg)
{
	return cfg ? cfg->cluster.kserve_version : NULL;
}

const struct sl_node_pool *sl_config_node_pools(const sl_config *cfg, size_t *n)
{
	*n = cfg ? cfg->cluster.n_node_pools : 0;
	return cfg ? cfg->cluster.node_pools : NULL;
}

/* The file of the extend: chain a line stands in. */
static const char *line_file(const sl_config *cfg, unsigned line)
{
	unsigned k = line >> 24;
	const char *f = cfg && k <= SL_CONFIG_CHAIN_MAX ? cfg->chain[k] : NULL;
	return f ? f : cfg && cfg->path ? cfg->path : ".schedlint.yaml";
}

const char *sl_config_at(const sl_config *cfg, unsigned line, sl_arena *a)
{
	return sl_arena_printf(a, "%s:%u", line_file(cfg, line), SL_CONFIG_LINE(line));
}

char *sl_config_source(const sl_config *cfg, unsigned line)
{
	return sl_xprintf("%s:%u", line_file(cfg, line), SL_CONFIG_LINE(line));
}

const char *sl_config_knative_features_at(const sl_config *cfg, sl_arena *a)
{
	return sl_config_at(cfg, cfg ? cfg->cluster.knative_features_line : 0, a);
}

const char *sl_config__key_source(const sl_config *cfg, const char *key, unsigned *line)
{
	for (const sl_config *c = cfg; c != NULL && c->priv__ != NULL;) {
		const struct priv *pv = c->priv__;
		for (size_t i = pv->n_keys; i > 0; i--)
			if (strcmp(pv->keys[i - 1], key) == 0) {
				*line = pv->key_lines[i - 1];
				return c->path;
			}
		c = pv->base;
	}
	*line = 0;
	return NULL;
}

const char *sl_config_helm_chart(const sl_config *cfg)
{
	return cfg ? cfg->helm_chart : NULL;
}
