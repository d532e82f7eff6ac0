/* SPDX-License-Identifier: Apache-2.0
** values.c: the config's values for readers without its layout (config/values.h), and where
** a key stands ("path:line") for the messages that rest on it. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "config/config.h"

/* True when list l holds a string equal to s; false when s is NULL. */
bool sl_config_list_has(const sl_strlist *l, const char *s)
{
	for (size_t i = 0; s && i < l->n; i++)
		if (l->v[i][0] == s[0] && strcmp(l->v[i], s) == 0)   /* most differ at once */
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
		if (g[0] != name[0] && g[0] != '*')
			continue;   /* neither equal nor a prefix of it (a rule reads cpu, memory, ...) */
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

/* --- the cluster settings, for readers without the layout (config/values.h) --- */

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

sl_err sl_config_exclude_globs(const sl_config *cfg, sl_globs **out, char **error_out)
{
	const char *base = cfg && cfg->exclude_dir ? cfg->exclude_dir :
			   cfg && cfg->base_dir ? cfg->base_dir : ".";
	return sl_walk_globs_list(cfg ? cfg->exclude.v : NULL, cfg ? cfg->exclude.n : 0, base,
				  "exclude", out, error_out);
}

const char *sl_config_kserve_default_mode(const sl_config *cfg)
{
	return cfg ? cfg->cluster.kserve_default_deployment_mode : NULL;
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

