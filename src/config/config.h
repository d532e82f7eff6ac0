/* SPDX-License-Identifier: Apache-2.0
** config.h (private): the resolved configuration, every default filled in.
** Loaded by config.c from .schedlint.yaml through libcyaml schema tables; the rest of the
** library reads these fields and never the file. Strings are owned by the config. The value
** types are types.h's; the accessors that need no layout are values.h's, which rules read. */
#ifndef SL_CONFIG_PRIVATE_H
#define SL_CONFIG_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include "schedlint/config.h"
#include "schedlint/finding.h"
#include "config/types.h"
#include "fs/walk.h"
#include "util/strmap.h"

struct sl_rule_setting {
	const char *id;          /* rule id or category */
	sl_severity severity;    /* SL_SEV_OFF when "off" */
	unsigned line;           /* where it stands in the file, for messages */
	unsigned id_line, id_col;   /* where its id stands (id_line encoded as line), 0 unknown */
};

struct sl_cluster_config {
	/* The *_line fields say where a key stands (0 when it is not set): a message that relies
	** on the key names it ("GPU nodes are tainted: .schedlint.yaml:7"). A key inherited through
	** extend: stands in another file: sl_config_source decodes the line into "file:line". */
	sl_strlist knative_features;          /* short names: "nodeselector", "tolerations", ... */
	bool knative_features_set;            /* the key was present (even if empty) */
	unsigned knative_features_line;
	const char *kserve_default_deployment_mode;   /* NULL when unset */
	unsigned kserve_default_deployment_mode_line;
	const char *kserve_version;           /* NULL when unset */
	sl_tri extended_resource_toleration;  /* unset: unknown */
	unsigned extended_resource_toleration_line;
	sl_tri gpu_nodes_tainted;             /* unset: unknown */
	unsigned gpu_nodes_tainted_line;
	sl_provider provider;                 /* default generic */
	unsigned provider_line;
	sl_strlist gpu_device_classes;        /* DRA device classes that are GPUs */
	bool toleration_comparison_operators; /* default false */
	sl_strlist gpu_resources;             /* entries ending in '*' are prefixes */
	sl_strlist accelerator_resources;     /* accelerators besides the GPUs; '*' as above */
	sl_strlist gpu_node_labels;
	sl_strlist spot_labels;               /* "key=value" */
	long long critical_priority;          /* default 1000000 */
	sl_strlist critical_priority_classes;
	sl_strlist priority_classes;          /* "name=value" */
	sl_strlist batch_kinds;               /* default Job, CronJob, RayJob...: resolve.c */
	const struct sl_node_pool *node_pools;
	size_t n_node_pools;
	const char *node_inventory;           /* NULL when unset; relative to base_dir */
	const char *name;                     /* the cluster the files are for: an eksctl
						 ClusterConfig's metadata.name; NULL when unset */
};

/* A *_line value: the line in bits 0-23, in bits 24-31 which file of the extend: chain holds it
** (0: the config's own file, k: the k-th config it extends). */
#define SL_CONFIG_LINE(line) ((line) & 0xffffffu)
#define SL_CONFIG_CHAIN_MAX 8   /* extend: goes at most this deep (a cycle is an error) */

struct sl_config {
	const char *path;        /* the file loaded, NULL for the defaults */
	const char *base_dir;    /* directory of that file ("." for the defaults) */
	const char *exclude_dir; /* the directory exclude's globs are relative to: base_dir, or the
				    directory of the config that set them (extend:) */
	sl_strlist exclude;      /* globs relative to exclude_dir */
	sl_strlist project_include, project_exclude;   /* project: globs relative to project_dir
							  (include empty: every file) */
	const char *project_dir; /* the directory of the config that set project: (extend:) */
	sl_strlist plugins;      /* plugins: shared objects, relative to plugins_dir; loaded only
				    when the run allows it (--allow-plugins) */
	unsigned plugins_line;   /* where plugins: stands (sl_config_source), 0 when unset */
	const char *plugins_dir;
	const char *helm_chart;  /* render.helm-chart, joined to its config's directory; NULL unset */
	const char *kustomize_load_restrictor;   /* render.kustomize.load-restrictor: "rootOnly"
						    (kustomize's default) or "none" */
	const char *chain[SL_CONFIG_CHAIN_MAX + 1];   /* this file, then each one it extends */
	int fail_on;             /* sl_severity, or -1 when unset */
	const struct sl_rule_setting *rules;
	size_t n_rules;
	/* per-file-ignores: {GLOB: [rule or category, ...]}: the findings of those rules in the
	** files a glob matches (relative to file_ignores_dir) are dropped, as an ignore-file
	** suppression would drop them. The file's own, else the one it extends. */
	const struct sl_file_ignore {
		const char *glob;
		const char *const *ids;
		size_t n_ids;
	} *file_ignores;
	size_t n_file_ignores;
	const char *file_ignores_dir;
	struct sl_cluster_config cluster;
	void *priv__;            /* config.c's own storage */
};

/* The file of cfg's extend: chain that sets key ("fail-on", "cluster.provider", "rules") and the
** key's line there; NULL (and 0) when none does: the default stands. For config/show.c. */
const char *sl_config__key_source(const sl_config *cfg, const char *key, unsigned *line);
/* Compiles cfg's exclude globs (fs/walk.h), relative to the directory of the config that set
** them; NULL cfg: none. SL_ECONFIG (*error_out, malloc'd, says which) when one cannot be
** compiled; SL_ENOMEM. */
sl_err sl_config_exclude_globs(const sl_config *cfg, sl_globs **out, char **error_out);
/* The project's root (docs/usage.md, "The project") for inputs in the real directory start:
** the git work tree start is in, else the directory of the outermost .schedlint.yaml above it
** (up to a directory holding .git: util/path.h's walk up); *out a real path, malloc'd.
** SL_ENOTFOUND when neither: the inputs are the project (a run over another tree reads nothing
** of the one it is started from, and a run over a directory outside any reads no more of it);
** SL_ENOMEM. */
sl_err sl_config_project_root(const char *start, char **out);
/* sl_config_project_root of real directory dir, memoised by directory in memo (its keys and values
** the caller's to free; values NULL: no project): a directory that holds no .git, HEAD or
** .schedlint.yaml, on its parent's file system, has its parent's answer, so the directories of
** many kustomizations under one parent cost a few stat calls each, not a walk up each; none
** where a walk listed the directory and its parent (seen, NULL: none): then the listing says
** what dir holds, and a .git, HEAD or .schedlint.yaml in it is looked at as without seen. */
sl_err sl_config_project_root_memo(const char *dir, sl_strmap *memo, const sl_walk_seen *seen,
				   char **out);
/* The text of the k-th file of cfg's extend: chain (0: its own file) as it was loaded, *len
** bytes; NULL for the defaults or past the chain's end. */
const char *sl_config_text(const sl_config *cfg, size_t k, size_t *len);

#endif
