/* SPDX-License-Identifier: Apache-2.0
** ignores.c: per-file-ignores: {GLOB: [rule or category, ...]} (load.h), read with libyaml:
** its keys are globs, which libcyaml's fixed schema cannot hold (tables.c ignores the key). */
#include "config/load.h"

/* The value of the top-level key in doc's root mapping, or NULL. */
static yaml_node_t *top_value(yaml_document_t *doc, const char *key)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	if (!root || root->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

/* Keeps a copy of s in pv (freed with it); NULL when out of memory. */
static const char *keep(struct priv *pv, const char *s)
{
	char **nv = sl_xrealloc(pv->ignore_strings, (pv->n_ignore_strings + 1) * sizeof *nv);
	if (!nv)
		return NULL;
	pv->ignore_strings = nv;
	char *copy = sl_xstrdup(s);
	if (copy)
		nv[pv->n_ignore_strings++] = copy;
	return copy;
}

/* Appends "path:line:col: error: what" as a line of b. */
static bool error_at(sl_strbuf *b, const char *path, const yaml_node_t *n, const char *what,
		     const char *arg, const char *mean)
{
	return sl_strbuf_addf(b, "%s%s:%zu:%zu: error: %s%s%s", b->len ? "\n" : "", path,
			      n->start_mark.line + 1, n->start_mark.column + 1, what, arg, mean);
}

sl_err sl_config__file_ignores(const char *path, const char *buf, size_t len, struct priv *pv,
			       struct sl_config *cfg, char **error_out)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&parser))
		return SL_ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	bool loaded = yaml_parser_load(&parser, &doc);
	yaml_parser_delete(&parser);
	if (!loaded)
		return SL_OK;   /* the scan reported the syntax already */
	yaml_node_t *v = top_value(&doc, "per-file-ignores");
	if (v && v->type == YAML_SCALAR_NODE && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    (!v->data.scalar.length || strcmp((const char *)v->data.scalar.value, "~") == 0 ||
	     strcmp((const char *)v->data.scalar.value, "null") == 0))
		v = NULL;   /* per-file-ignores: with no value: none */
	sl_strbuf errs = {0};
	bool ok = true;
	size_t n = 0, n_ids = 0;
	if (v && v->type != YAML_MAPPING_NODE) {
		ok = error_at(&errs, path, v, "wrong type for per-file-ignores: expected a mapping of "
			      "globs to lists of rules or categories", "", "");
		v = NULL;
	}
	for (yaml_node_pair_t *p = v ? v->data.mapping.pairs.start : NULL; p && p < v->data.mapping.pairs.top; p++) {
		yaml_node_t *list = yaml_document_get_node(&doc, p->value);
		n++;
		if (list && list->type == YAML_SEQUENCE_NODE)
			n_ids += (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	}
	if (v) {
		pv->file_ignores = sl_xcalloc(n ? n : 1, sizeof *pv->file_ignores);
		pv->ignore_ids = sl_xcalloc(n_ids ? n_ids : 1, sizeof *pv->ignore_ids);
		ok = pv->file_ignores && pv->ignore_ids;
	}
	size_t k = 0, at = 0;
	char mean[300];
	for (yaml_node_pair_t *p = v ? v->data.mapping.pairs.start : NULL; ok && p && p < v->data.mapping.pairs.top; p++) {
		yaml_node_t *g = yaml_document_get_node(&doc, p->key), *list = yaml_document_get_node(&doc, p->value);
		if (!g || g->type != YAML_SCALAR_NODE || !g->data.scalar.length) {
			ok = error_at(&errs, path, g ? g : v, "a per-file-ignores key is a glob", "", "");
			continue;
		}
		if (!list || list->type != YAML_SEQUENCE_NODE) {
			ok = error_at(&errs, path, list ? list : g, "wrong type for per-file-ignores.",
				      (const char *)g->data.scalar.value, ": expected a list of rules or categories");
			continue;
		}
		struct sl_file_ignore *fi = &pv->file_ignores[k];
		ok = (fi->glob = keep(pv, (const char *)g->data.scalar.value)) != NULL;
		fi->ids = &pv->ignore_ids[at];
		for (yaml_node_item_t *it = list->data.sequence.items.start; ok && it < list->data.sequence.items.top; it++) {
			yaml_node_t *id = yaml_document_get_node(&doc, *it);
			const char *s = id && id->type == YAML_SCALAR_NODE ? (const char *)id->data.scalar.value : NULL;
			if (!s || !*s) {
				ok = error_at(&errs, path, id ? id : list, "a rule or category is a string", "", "");
			} else if (!sl_registry_known(s) && !strchr(s, '/')) {
				/* a namespaced id is a custom rule's: the run checks it (scopes.c) */
				ok = sl_strbuf_addf(&errs, "%s%s:%zu:%zu: error: unknown rule or category \"%s\" "
						    "in per-file-ignores%s", errs.len ? "\n" : "", path,
						    id->start_mark.line + 1, id->start_mark.column + 1, s,
						    sl_config__did_you_mean(sl_registry_closest(s), mean,
									    sizeof mean));
			} else if (!(pv->ignore_ids[at++] = keep(pv, s))) {
				ok = false;
			} else {
				fi->n_ids++;
			}
		}
		k++;
	}
	yaml_document_delete(&doc);
	if (!ok) {
		sl_strbuf_free(&errs);
		return SL_ENOMEM;
	}
	if (errs.len) {
		if (error_out)
			*error_out = sl_strbuf_take(&errs);
		sl_strbuf_free(&errs);
		return SL_ECONFIG;
	}
	if (v) {
		cfg->file_ignores = pv->file_ignores;
		cfg->n_file_ignores = k;
		cfg->file_ignores_dir = NULL;   /* the load sets it: this file's directory */
	}
	return SL_OK;
}
