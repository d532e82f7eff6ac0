/* SPDX-License-Identifier: Apache-2.0
** load.h (private to config/): what the files of a config's load share: the raw structs
** libcyaml binds (tables.c), where each node stands (positions.c), libcyaml's log
** (errors.c), a loaded config's own storage (priv__), and the helpers they call each other
** by (sl_config__*). */
#ifndef SL_CONFIG_LOAD_H
#define SL_CONFIG_LOAD_H

#include "util/arena.h"
#include "config/config.h"
#include "fs/repo.h"
#include "fs/walk.h"
#include "util/path.h"
#include "k8s/taints.h"    /* node pools' taints, kubectl's syntax */
#include "k8s/labels.h"    /* node pools' labels */
#include "k8s/resources.h" /* node pools' allocatable */
#include "model/model.h"   /* sl_kserve_mode_parse */
#include "config/registry.h"      /* rules: ids */
#include "util/spelling.h"
#include <cyaml/cyaml.h>
#include <libgen.h>
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
#include "yaml/source.h"
#include "util/strbuf.h"

#define CONFIG_NAME ".schedlint.yaml"
#define MAX_DEPTH 64             /* nesting limit of the config file */
#define MAX_EXPANDED 100000      /* nodes after alias expansion (alias bombs) */
#define MAX_BACKTRACE 32         /* libcyaml backtrace lines kept */

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
	char *name;
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
	struct sl_file_ignore *file_ignores;   /* per-file-ignores: (ignores.c), their strings in */
	char **ignore_strings;                 /* ignore_strings, the ids' arrays in ignore_ids */
	size_t n_ignore_strings;
	const char **ignore_ids;
};

struct expectation {
	const char *key, *expected;
	const cyaml_strval_t *values;
	size_t n_values;
};

extern const cyaml_config_t sl_config__cyaml_base;
sl_err sl_config__cyaml_failure(const char *file, cyaml_err_t cerr, const struct cylog *log,
				const struct posmap *map, char **error_out, char **value_path);
/* Hides the setting at value_path (positions.c's spelling) from libcyaml in buf (len bytes),
** the file's text as map was read from it, so that a load with CYAML_CFG_IGNORE_UNKNOWN_KEYS
** reads the rest: the key of it, or of the nearest enclosing optional setting, is renamed to
** no setting. False when there is none to rename (the root, an alias). */
bool sl_config__mask(char *buf, size_t len, const struct posmap *map, const char *value_path);
/* Puts the error lines in *errs (one message a line) in file order: by the line and column of
** file's lines, the others (another file's) last, in the order they came. SL_ENOMEM or SL_OK. */
sl_err sl_config__sort_errors(char **errs, const char *file);
extern const char *const sl_config__deployment_modes[];
extern const size_t sl_config__deployment_modes_count;
const char *sl_config__did_you_mean(const char *best, char *buf, size_t size);
extern const struct expectation sl_config__expectations[];
extern const size_t sl_config__expectations_count;
sl_err sl_config__fail(char **error_out, sl_err err, const char *fmt, ...);
/* Adds the message, one more line, to the malloc'd lines in *acc (NULL: none yet): SL_ECONFIG,
** or SL_ENOMEM (*acc kept). */
sl_err sl_config__more(char **acc, const char *fmt, ...);
/* Every key of the file (map) that is no setting where it stands, each an error line
** "file:line:col: error: unknown key "exlude"; did you mean "exclude"?", all in *error_out
** (malloc'd, one line each): SL_ECONFIG; SL_OK when there is none; SL_ENOMEM. */
sl_err sl_config__unknown_keys(const char *file, const struct posmap *map, char **error_out);
/* Reads per-file-ignores: of the file (text buf, len bytes, path named so) into pv and cfg:
** each GLOB's rules and categories, checked (an unknown one is an error with the closest
** spelling; a namespaced id, a custom rule's, is left to the run), every error a line of
** *error_out (malloc'd): SL_ECONFIG. SL_OK when the key is absent (cfg keeps what it has);
** SL_ENOMEM. */
sl_err sl_config__file_ignores(const char *path, const char *buf, size_t len, struct priv *pv,
			       struct sl_config *cfg, char **error_out);
void sl_config__fill_defaults(struct sl_config *cfg);
unsigned sl_config__key_line(const struct posmap *map, const char *path);
const char *sl_config__knative_flag_closest(const char *name);
bool sl_config__knative_flag_known(const char *name);
extern const char *const sl_config__load_restrictors[];
extern const size_t sl_config__load_restrictors_count;
void sl_config__log_fn(cyaml_log_t level, void *ctx, const char *fmt, va_list args);
char *sl_config__path_index(const char *parent, size_t i);
char *sl_config__path_key(const char *parent, const char *key);
const struct pos *sl_config__posmap_find(const struct posmap *m, const char *path);
extern const char *const sl_config__providers[];
extern const size_t sl_config__providers_count;
sl_err sl_config__resolve(struct sl_config *cfg, struct priv *pv, const struct posmap *map,
			  const char *file, char **error_out);
sl_err sl_config__scan_file(struct scan *s, const char *path, const char *buf, size_t len,
			    char **error_out);
void sl_config__scan_free(struct scan *s);
extern const char *const sl_config__taint_effects[];
extern const size_t sl_config__taint_effects_count;
extern const cyaml_schema_value_t sl_config__top_schema;
void sl_config__value_pos(const struct posmap *map, const char *path, unsigned *line,
			  unsigned *col);

#endif
