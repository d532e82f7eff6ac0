/* SPDX-License-Identifier: Apache-2.0
** load.c: load .schedlint.yaml (spec/cli.md, "Configuration") into the resolved sl_config:
** read the file, check it with the libyaml pass (positions.c), bind it with libcyaml
** (tables.c; errors.c makes its messages), resolve it (resolve.c), then its extend: chain.
** Every error of the file is reported, in file order: a check that fails does not stop the next.
** The raw data stays in priv__ and the resolved fields point into it or at static defaults. */
#include "config/load.h"
#include "schedlint/fdio.h"

/* Reads the whole file into a NUL-terminated buffer: a regular file only (a config symlinked
** to /dev/zero or a FIFO is refused, never read). Returns 0, or an errno value. */
static int read_file(const char *path, char **buf_out, size_t *len_out)
{
	struct stat st;
	int fd = sl_source_open(path, &st);
	sl_strbuf b = {0};
	int e = 0;

	if (fd < 0)
		return errno;
	if (!sl_strbuf_grow(&b, (size_t)st.st_size + 8192))
		e = ENOMEM;
	while (!e) {
		if (b.cap - b.len < 4096 && !sl_strbuf_grow(&b, b.cap)) {
			e = ENOMEM;
			break;
		}
		size_t want = b.cap - b.len - 1;
		ssize_t got = sl_fdio_read_all(fd, b.s + b.len, want);
		if (got < 0) {
			e = errno;
			break;
		}
		b.len += (size_t)got;
		if ((size_t)got < want)   /* the end */
			break;
	}
	sl_source_close(fd);
	if (e) {
		sl_strbuf_free(&b);
		return e;
	}
	b.s[b.len] = '\0';
	*len_out = b.len;
	*buf_out = sl_strbuf_take(&b);
	return 0;
}

static void priv_free(struct priv *pv)
{
	if (pv == NULL)
		return;
	if (pv->raw != NULL)
		cyaml_free(&sl_config__cyaml_base, &sl_config__top_schema, pv->raw, 0);
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
	for (size_t i = 0; i < pv->n_ignore_strings; i++)
		free(pv->ignore_strings[i]);
	free(pv->ignore_strings);
	free(pv->ignore_ids);
	free(pv->file_ignores);
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
	pv->keys = sl_xcalloc(map->n + 1, sizeof *pv->keys);
	pv->key_lines = sl_xcalloc(map->n + 1, sizeof *pv->key_lines);
	if (pv->keys == NULL || pv->key_lines == NULL)
		return SL_ENOMEM;
	for (size_t i = 0; i < map->n; i++) {
		const struct pos *at = &map->v[i];
		if (*at->path == '\0' || strchr(at->path, '[') != NULL)
			continue;
		if ((pv->keys[pv->n_keys] = sl_xstrdup(at->path)) == NULL)
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
	sl_config__value_pos(map, "extend", &line, &col);
	if (depth >= SL_CONFIG_CHAIN_MAX)
		return sl_config__fail(error_out, SL_ECONFIG, "%s:%u:%u: error: extend: goes more than %d configs "
			    "deep (is there a cycle?)", path, line, col, SL_CONFIG_CHAIN_MAX);
	char *dir = sl_path_dir(path), *base_path = NULL;
	if (dir)
		base_path = sl_xprintf("%s%s%s", ext[0] == '/' ? "" : dir, ext[0] == '/' ? "" : "/",
				       ext);
	if (!base_path) {
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
		err = sl_config__fail(error_out, SL_ECONFIG, "%s:%u:%u: error: extend: %s", path, line, col,
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

/* Adds the error lines of a check that failed with e (SL_ECONFIG) to *errs, so that the
** checks after it run too: SL_OK; any other failure is returned as it is. */
static sl_err gather(sl_err e, char **errs, char **one)
{
	if (e == SL_ECONFIG && *one) {
		e = sl_config__more(errs, "%s", *one) == SL_ECONFIG ? SL_OK : SL_ENOMEM;
		free(*one);
		*one = NULL;
	}
	return e;
}

static sl_err load(const char *path, unsigned depth, sl_config **out, char **error_out)
{
	struct scan scan = { 0 };
	struct cylog log = { 0 };
	cyaml_config_t cy = sl_config__cyaml_base;
	struct sl_config *cfg = NULL;
	struct priv *pv = NULL;
	char *buf = NULL, *errs = NULL, *one = NULL, *masked = NULL;
	size_t len = 0;
	cyaml_err_t cerr;
	sl_err err;
	int e;

	if (path == NULL || out == NULL)
		return SL_EUSAGE;
	e = read_file(path, &buf, &len);
	if (e == ENOMEM)
		return SL_ENOMEM;
	if (e != 0)
		return sl_config__fail(error_out, SL_EIO, "%s: error: cannot read: %s", path, sl_source_strerror(e));

	err = sl_config__scan_file(&scan, path, buf, len, error_out);
	if (err != SL_OK)
		goto out;
	/* every error at once: every misspelt key, before libcyaml stops at the first ... */
	err = sl_config__unknown_keys(path, &scan.map, &errs);
	if (err == SL_ENOMEM)
		goto out;
	if (err == SL_ECONFIG)
		cy.flags |= CYAML_CFG_IGNORE_UNKNOWN_KEYS;

	cfg = sl_xcalloc(1, sizeof *cfg);
	pv = sl_xcalloc(1, sizeof *pv);
	if (cfg == NULL || pv == NULL) {
		err = SL_ENOMEM;
		goto out;
	}
	/* ... every value of a wrong type or outside its set: each hidden from libcyaml in turn
	** (sl_config__mask) until it reads the rest ... */
	for (size_t tries = 0;; tries++) {
		char *value_path = NULL;
		memset(&log, 0, sizeof log);
		cy.log_ctx = &log;
		cerr = cyaml_load_data((const uint8_t *)(masked ? masked : buf), len, &cy,
				       &sl_config__top_schema, (cyaml_data_t **)&pv->raw, NULL);
		if (cerr == CYAML_ERR_OOM) {
			err = SL_ENOMEM;
			goto out;
		}
		if (cerr == CYAML_OK)
			break;
		err = gather(sl_config__cyaml_failure(path, cerr, &log, &scan.map, &one, &value_path),
			     &errs, &one);
		if (err == SL_OK && value_path && !masked) {
			if ((masked = sl_xmalloc(len + 1)) != NULL)
				memcpy(masked, buf, len + 1);
			else
				err = SL_ENOMEM;
		}
		bool again = err == SL_OK && value_path && tries < scan.map.n &&
			     sl_config__mask(masked, len, &scan.map, value_path);
		free(value_path);
		if (err != SL_OK)
			goto out;
		if (!again) {
			err = SL_ECONFIG;
			goto out;
		}
		cy.flags |= CYAML_CFG_IGNORE_UNKNOWN_KEYS;
	}

	/* ... and every value the checks after libcyaml find */
	if (pv->raw != NULL && pv->raw->extend != NULL) {
		err = gather(load_base(path, depth, pv, &scan.map, &one), &errs, &one);
		if (err != SL_OK)
			goto out;
		if (pv->base)
			inherit(cfg, pv->base);
		else
			sl_config__fill_defaults(cfg);
	} else {
		sl_config__fill_defaults(cfg);
	}
	err = gather(sl_config__file_ignores(path, buf, len, pv, cfg, &one), &errs, &one);
	if (err == SL_OK)
		err = gather(sl_config__resolve(cfg, pv, &scan.map, path, &one), &errs, &one);
	if (err == SL_OK)
		err = keep_keys(pv, &scan.map);
	if (err != SL_OK)
		goto out;
	pv->path = sl_xstrdup(path);
	pv->base_dir = sl_path_dir(path);
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
	if (cfg->file_ignores && cfg->file_ignores == pv->file_ignores)
		cfg->file_ignores_dir = pv->base_dir;   /* its own per-file-ignores: */
	if (pv->raw && pv->raw->render && pv->raw->render->helm_chart) {
		/* relative to this file's directory, as exclude: is; kept through extend: */
		const char *hc = pv->raw->render->helm_chart;
		bool as_is = hc[0] == '/' || strcmp(pv->base_dir, ".") == 0;
		pv->helm_chart = sl_xprintf("%s%s%s", as_is ? "" : pv->base_dir, as_is ? "" : "/", hc);
		if (!pv->helm_chart) {
			err = SL_ENOMEM;
			goto out;
		}
		char *chart_yaml = sl_xprintf("%s/Chart.yaml", pv->helm_chart);
		bool found = chart_yaml && access(chart_yaml, R_OK) == 0;
		free(chart_yaml);
		if (!found) {
			unsigned line, col;
			sl_config__value_pos(&scan.map, "render.helm-chart", &line, &col);
			err = sl_config__more(&errs, "%s:%u:%u: error: render.helm-chart \"%s\" is "
				   "not a chart: %s/Chart.yaml cannot be read", path, line, col, hc,
				   pv->helm_chart);
			if (err == SL_ENOMEM)
				goto out;
		}
		cfg->helm_chart = pv->helm_chart;
	}
	if (errs) {
		err = SL_ECONFIG;
		goto out;
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
	/* the errors gathered, in file order, then the one that stopped the checks, if any */
	if (errs && err != SL_ENOMEM) {
		err = one ? gather(SL_ECONFIG, &errs, &one) : SL_OK;
		if (err == SL_OK)
			err = sl_config__sort_errors(&errs, path);
		if (err == SL_OK) {
			err = SL_ECONFIG;
			if (error_out)
				*error_out = errs, errs = NULL;
		}
	} else if (one && error_out) {
		*error_out = one;
		one = NULL;
	}
	free(errs);
	free(one);
	free(masked);
	priv_free(pv);
	free(cfg);
	sl_config__scan_free(&scan);
	free(buf);
	return err;
}

/* A configuration with every default; its priv__ is NULL. */
sl_err sl_config_new_default(sl_config **out)
{
	struct sl_config *cfg;

	if (out == NULL)
		return SL_EUSAGE;
	cfg = sl_xcalloc(1, sizeof *cfg);
	if (cfg == NULL)
		return SL_ENOMEM;
	sl_config__fill_defaults(cfg);
	*out = cfg;
	return SL_OK;
}

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
