/* SPDX-License-Identifier: Apache-2.0
** config/show.c: a resolved configuration as YAML, each setting followed by where its value
** comes from (`--show-settings PATH`, spec/cli.md): the file and line of the config in the
** extend: chain that sets it, or "default". What it prints is itself a valid .schedlint.yaml. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "config/values.h"
#include "config/registry.h"

enum shape { LIST, STRING, TRI, BOOL, INTEGER, FAIL_ON, PROVIDER, KNATIVE };

static const struct setting {
	const char *key;            /* as the file spells it: "cluster.gpu-resources" */
	enum shape shape;
	size_t offset;              /* of the value in struct sl_config */
} settings[] = {
#define AT(member) offsetof(struct sl_config, member)
	{ "exclude", LIST, AT(exclude) },
	{ "fail-on", FAIL_ON, AT(fail_on) },
	{ "project.include", LIST, AT(project_include) },
	{ "project.exclude", LIST, AT(project_exclude) },
	{ "render.helm-chart", STRING, AT(helm_chart) },
	{ "render.kustomize.load-restrictor", STRING, AT(kustomize_load_restrictor) },
	{ "cluster.knative-features", KNATIVE, AT(cluster.knative_features) },
	{ "cluster.kserve-default-deployment-mode", STRING,
	  AT(cluster.kserve_default_deployment_mode) },
	{ "cluster.kserve-version", STRING, AT(cluster.kserve_version) },
	{ "cluster.provider", PROVIDER, AT(cluster.provider) },
	{ "cluster.extended-resource-toleration", TRI, AT(cluster.extended_resource_toleration) },
	{ "cluster.gpu-nodes-tainted", TRI, AT(cluster.gpu_nodes_tainted) },
	{ "cluster.toleration-comparison-operators", BOOL,
	  AT(cluster.toleration_comparison_operators) },
	{ "cluster.gpu-resources", LIST, AT(cluster.gpu_resources) },
	{ "cluster.accelerator-resources", LIST, AT(cluster.accelerator_resources) },
	{ "cluster.gpu-device-classes", LIST, AT(cluster.gpu_device_classes) },
	{ "cluster.gpu-node-labels", LIST, AT(cluster.gpu_node_labels) },
	{ "cluster.spot-labels", LIST, AT(cluster.spot_labels) },
	{ "cluster.critical-priority", INTEGER, AT(cluster.critical_priority) },
	{ "cluster.critical-priority-classes", LIST, AT(cluster.critical_priority_classes) },
	{ "cluster.priority-classes", LIST, AT(cluster.priority_classes) },
	{ "cluster.batch-kinds", LIST, AT(cluster.batch_kinds) },
	{ "cluster.node-inventory", STRING, AT(cluster.node_inventory) },
	{ "cluster.name", STRING, AT(cluster.name) },
#undef AT
};

/* s as a YAML double-quoted scalar: control characters (C0, DEL, C1) escaped, so nothing from
** a config reaches a terminal raw. libyaml loaded s, so it is valid UTF-8. */
static void put_quoted(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(out, "\\u%04x", *++p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void put_list(FILE *out, const sl_strlist *l)
{
	fputc('[', out);
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			fputs(", ", out);
		put_quoted(out, l->v[i]);
	}
	fputc(']', out);
}

/* The value of st in cfg; what "default" means when the value is no value. */
static const char *put_value(FILE *out, const sl_config *cfg, const struct setting *st)
{
	const void *v = (const char *)cfg + st->offset;

	switch (st->shape) {
	case LIST:
		put_list(out, v);
		return NULL;
	case KNATIVE:
		if (!cfg->cluster.knative_features_set) {
			fputs("~", out);
			return "unknown: Knative's own default is off; a KnativeServing CR or a "
			       "config-features ConfigMap among the files decides first";
		}
		put_list(out, v);
		return NULL;
	case STRING:
		if (*(const char *const *)v == NULL) {
			fputs("~", out);
			return "unset";
		}
		put_quoted(out, *(const char *const *)v);
		return NULL;
	case TRI:
		fputs(*(const sl_tri *)v == SL_TRI_YES ? "true" :
		      *(const sl_tri *)v == SL_TRI_NO ? "false" : "~", out);
		return *(const sl_tri *)v == SL_TRI_UNKNOWN ? "unknown" : NULL;
	case BOOL:
		fputs(*(const bool *)v ? "true" : "false", out);
		return NULL;
	case INTEGER:
		fprintf(out, "%lld", *(const long long *)v);
		return NULL;
	case FAIL_ON: {
		int sev = *(const int *)v;
		fputs(sev > SL_SEV_OFF ? sl_severity_name((sl_severity)sev) : "warning", out);
		return NULL;
	}
	case PROVIDER:
		fputs(sl_config_provider_name(*(const sl_provider *)v), out);
		return NULL;
	}
	return NULL;
}

/* "  # file:line", or "  # default" with what the default means. */
static void put_source(FILE *out, const sl_config *cfg, const char *key, const char *unset)
{
	unsigned line;
	const char *file = sl_config__key_source(cfg, key, &line);

	if (file != NULL)
		fprintf(out, "  # %s:%u\n", file, line);
	else
		fprintf(out, "  # default%s%s\n", unset ? ": " : "", unset ? unset : "");
}

static void put_rules(FILE *out, const sl_config *cfg)
{
	fputs("rules:", out);
	if (cfg->n_rules == 0) {
		fputs(" []", out);
		put_source(out, cfg, "rules", "each rule's own severity (schedlint rules)");
		return;
	}
	fputc('\n', out);
	for (size_t i = 0; i < cfg->n_rules; i++) {
		const struct sl_rule_setting *r = &cfg->rules[i];
		char *at = sl_config_source(cfg, r->line);

		fputs("  - {id: ", out);
		put_quoted(out, r->id);
		fprintf(out, ", severity: %s}  # %s\n", sl_severity_name(r->severity), at ? at : "?");
		free(at);
	}
}

static void put_pools(FILE *out, const sl_config *cfg)
{
	size_t n;
	const struct sl_node_pool *p = sl_config_node_pools(cfg, &n);

	fputs("  node-pools: [", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", {name: " : "{name: ", out);
		put_quoted(out, p[i].name);
		fputc('}', out);
	}
	fputc(']', out);
	put_source(out, cfg, "cluster.node-pools", n ? NULL : "none");
}

static void put_file_ignores(FILE *out, const sl_config *cfg)
{
	fputs("per-file-ignores:", out);
	if (!cfg->n_file_ignores)
		fputs(" {}", out);
	put_source(out, cfg, "per-file-ignores", cfg->n_file_ignores ? NULL : "none");
	for (size_t i = 0; i < cfg->n_file_ignores; i++) {
		fputs("  ", out);
		put_quoted(out, cfg->file_ignores[i].glob);
		fputs(": [", out);
		for (size_t k = 0; k < cfg->file_ignores[i].n_ids; k++) {
			fputs(k ? ", " : "", out);
			put_quoted(out, cfg->file_ignores[i].ids[k]);
		}
		fputs("]\n", out);
	}
}

/* The custom-rules: cfg declares (extend/custom.c added them to the registry when a run under
** cfg started: the caller starts one), as comments: their id, severity and declaration. Those of
** the first file of the extend: chain that declares any, as custom.c reads them. */
static void put_custom(FILE *out, const sl_config *cfg)
{
	size_t shown = 0;
	for (size_t k = 0; k <= SL_CONFIG_CHAIN_MAX && cfg->chain[k] && !shown; k++) {
		size_t len = strlen(cfg->chain[k]);
		for (size_t i = sl_registry_count; i < sl_registry_n(); i++) {
			const struct sl_rule_entry *e = sl_registry_at(i);
			if (!e->file || strncmp(e->file, cfg->chain[k], len) != 0 || e->file[len] != ':')
				continue;
			if (!shown++)
				fputs("# custom-rules: (`schedlint explain ID` shows each)\n", out);
			fputs("#   - ", out);
			put_quoted(out, e->rule->id);
			fprintf(out, ": %s  # %s\n", sl_severity_name(e->rule->severity), e->file);
		}
	}
	if (!shown)
		fputs("# custom-rules: none\n", out);
}

/* The sections key ("a.b.c": a, then b) shares with prev, counted from the top. */
static size_t shared_sections(const char *key, const char *prev)
{
	size_t n = 0;
	for (const char *k = key, *p = prev; p; n++) {
		const char *kd = strchr(k, '.'), *pd = strchr(p, '.');
		if (!kd || !pd || kd - k != pd - p || strncmp(k, p, (size_t)(kd - k)) != 0)
			break;
		k = kd + 1;
		p = pd + 1;
	}
	return n;
}

sl_err sl_config_show(const sl_config *cfg, FILE *out)
{
	const char *prev = NULL;   /* the key before: the sections open */

	if (cfg == NULL || out == NULL)
		return SL_EUSAGE;
	fputs("# ", out);
	if (cfg->path == NULL)
		fputs("no .schedlint.yaml: every setting is the default\n", out);
	else {
		fputs("config: ", out);
		for (size_t k = 0; k <= SL_CONFIG_CHAIN_MAX && cfg->chain[k]; k++)
			fprintf(out, "%s%s", k ? ", extending " : "", cfg->chain[k]);
		fputc('\n', out);
	}
	for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) {
		const struct setting *st = &settings[i];
		size_t open = shared_sections(st->key, prev), depth = 0;
		const char *name = st->key;

		if (open == 0 && strncmp(st->key, "cluster.", 8) == 0)
			put_rules(out, cfg);   /* rules: stand before cluster: */
		for (const char *dot; (dot = strchr(name, '.')); name = dot + 1, depth++)
			if (depth >= open)   /* a section not open yet */
				fprintf(out, "%*s%.*s:\n", (int)(2 * depth), "", (int)(dot - name), name);
		fprintf(out, "%*s%s: ", (int)(2 * depth), "", name);
		const char *unset = put_value(out, cfg, st);
		put_source(out, cfg, st->key, unset);
		prev = st->key;
	}
	put_pools(out, cfg);
	put_file_ignores(out, cfg);
	put_custom(out, cfg);
	return ferror(out) ? SL_EIO : SL_OK;
}
