/* SPDX-License-Identifier: Apache-2.0
** metadata.c: a root's buildMetadata, as kustomize v5 writes it (api/internal/target/kusttarget.go
** and kusttarget_configplugin.go, api/resource/origin.go, api/krusty/kustomizer.go): with any
** option the build tracks origins: each resource's config.kubernetes.io/origin (the path of its
** file from the root's directory, as the resources entries that reached it join, or the
** generator and kustomization that made it) and, per kustomization over it, the builtin
** transformers that kustomization configured, in kustomize's order, whether or not they changed
** it (alpha.config.kubernetes.io/transformations); at the end the options not listed are
** dropped, and managedByLabel adds app.kubernetes.io/managed-by. A base's buildMetadata is its
** root's (accumulateDirectory copies it). */
#include "render/kustomize/internal.h"

/* base joined to rel, cleaned as Go's filepath.Join ("" base: rel cleaned), in c's arena. */
static const char *joined(struct ctx *c, const char *base, const char *rel)
{
	char *j = sl_kustomize__join(*base ? base : ".", rel);
	const char *r = j ? sl_arena_strndup(c->a, j, strlen(j)) : NULL;
	free(j);
	return r;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

bool sl_kustomize__origin_enter(struct ctx *c, const char *rel)
{
	return !c->origin || (c->origin = joined(c, c->origin, rel)) != NULL;
}

bool sl_kustomize__track(struct ctx *c, struct acc *acc, size_t first, const char *kpath,
			 const sl_knode *e, const char *generator)
{
	if (!c->origin || first >= acc->n)
		return true;
	const char *origin = NULL;
	if (generator) {
		const char *in = joined(c, c->origin, base_name(kpath));
		origin = in ? sl_arena_printf(c->a, "configuredIn: %s\nconfiguredBy:\n  apiVersion: "
					      "builtin\n  kind: %s\n", in, generator) : NULL;
	} else {
		const char *path = joined(c, c->origin, e->s);
		origin = path ? sl_arena_printf(c->a, "path: %s\n", path) : NULL;
	}
	if (!origin)
		return false;
	for (size_t i = first; i < acc->n; i++)
		if (!acc->v[i].origin)   /* kustomize's AddOriginAnnotation keeps one set before */
			acc->v[i].origin = origin;
	return true;
}

/* The number of entries of list (a sequence; anything else: 0). */
static size_t entries(const sl_knode *root, const char *key)
{
	const sl_knode *l = sl_knode_get(root, key, NULL);
	return l && l->type == SL_NODE_SEQ ? l->n : 0;
}

/* True when key is a non-empty scalar or a non-empty collection. */
static bool set(const sl_knode *root, const char *key)
{
	const sl_knode *v = sl_knode_get(root, key, NULL);
	return v && (v->type == SL_NODE_SCALAR ? v->len && !sl_knode_is_null(v) : v->n > 0);
}

bool sl_kustomize__track_transformers(struct ctx *c, const sl_knode *root, const char *kpath,
				      struct acc *acc)
{
	if (!c->origin || !acc->n)
		return true;
	/* configureBuiltinTransformers: the transformers in their order, one per entry where a
	** list configures several */
	size_t labels = entries(root, "labels");
	const struct { const char *kind; size_t n; } order[] = {
		{"PatchStrategicMergeTransformer", entries(root, "patchesStrategicMerge") ? 1 : 0},
		{"PatchTransformer", entries(root, "patches")},
		{"NamespaceTransformer", set(root, "namespace")},
		{"PrefixTransformer", set(root, "namePrefix")},
		{"SuffixTransformer", set(root, "nameSuffix")},
		{"LabelTransformer", labels || set(root, "commonLabels") ? labels + 1 : 0},
		{"AnnotationsTransformer", set(root, "commonAnnotations")},
		{"PatchJson6902Transformer", entries(root, "patchesJson6902")},
		{"ReplicaCountTransformer", entries(root, "replicas")},
		{"ImageTagTransformer", entries(root, "images")},
		{"ReplacementTransformer", entries(root, "replacements") ? 1 : 0},
	};
	size_t n = 0;
	for (size_t i = 0; i < sizeof order / sizeof *order; i++)
		n += order[i].n;
	if (!n)
		return true;
	const char *in = joined(c, c->origin, base_name(kpath));
	struct ktrans *mine = in ? sl_arena_alloc(c->a, n * sizeof *mine) : NULL;
	if (!mine)
		return false;
	size_t k = 0;
	for (size_t i = 0; i < sizeof order / sizeof *order; i++)
		for (size_t j = 0; j < order[i].n; j++)
			mine[k++] = (struct ktrans){in, order[i].kind};
	for (size_t i = 0; i < acc->n; i++) {
		struct kres *r = &acc->v[i];
		struct ktrans *v = sl_arena_alloc(c->a, (r->n_trans + n) * sizeof *v);
		if (!v)
			return false;
		if (r->n_trans)
			memcpy(v, r->trans, r->n_trans * sizeof *v);   /* shared: never changed in place */
		memcpy(v + r->n_trans, mine, n * sizeof *v);
		r->trans = v;
		r->n_trans += n;
	}
	return true;
}

/* Sets map m's key to text (a string), from the buildMetadata entry at. */
static bool put(struct ctx *c, sl_knode *m, const char *key, const char *text, const sl_knode *at)
{
	sl_knode *v = sl_knode_scalar(c->a, text, at->src, at->start, at->end);
	if (v)
		v->quoted = true;
	return v && sl_knode_set(c->a, m, key, v);
}

bool sl_kustomize__build_metadata(struct ctx *c, struct acc *acc)
{
	const sl_knode *bm = c->build_metadata;
	const sl_knode *opt[3] = {NULL, NULL, NULL};   /* origins, transformers, the label */
	static const char *const names[3] = {"originAnnotations", "transformerAnnotations",
					     "managedByLabel"};
	for (size_t i = 0; bm && bm->type == SL_NODE_SEQ && i < bm->n; i++)
		for (size_t k = 0; k < 3; k++)
			if (bm->v[i]->type == SL_NODE_SCALAR && strcmp(bm->v[i]->s, names[k]) == 0)
				opt[k] = bm->v[i];
	for (size_t i = 0; i < acc->n; i++) {
		struct kres *r = &acc->v[i];
		sl_knode *md = sl_knode_path(c->a, r->obj, (const char *const[]){"metadata", NULL}, true,
					     r->obj->src, r->obj->start, r->obj->start);
		if (!md)
			continue;   /* not an object: nothing to annotate */
		/* RemoveOriginAnnotations, RemoveTransformerAnnotations: what the options do not ask
		** for goes, a file's own annotations too */
		size_t at;
		sl_knode *old = sl_knode_get(md, "annotations", &at);
		for (size_t k = 0; k < 2 && old && old->type == SL_NODE_MAP; k++) {
			size_t j;
			static const char *const keys[2] = {"config.kubernetes.io/origin",
							    "alpha.config.kubernetes.io/transformations"};
			if (!opt[k] && sl_knode_get(old, keys[k], &j)) {
				sl_knode_remove(old, j);
				if (!old->n)
					sl_knode_remove(md, at);
			}
		}
		const sl_source *src = bm ? bm->src : NULL;
		uint32_t s = bm ? bm->start : 0, e = bm ? bm->end : 0;
		if ((opt[0] && r->origin) || (opt[1] && r->n_trans)) {
			sl_knode *ann = sl_knode_path(c->a, md, (const char *const[]){"annotations", NULL},
						      true, src, s, e);
			if (!ann)
				return false;
			if (opt[0] && r->origin && !put(c, ann, "config.kubernetes.io/origin", r->origin,
							  opt[0]))
				return false;
			sl_strbuf t = {0};
			for (size_t k = 0; opt[1] && k < r->n_trans; k++)
				sl_strbuf_addf(&t, "- configuredIn: %s\n  configuredBy:\n    apiVersion: "
						 "builtin\n    kind: %s\n", r->trans[k].in, r->trans[k].kind);
			bool ok = !t.failed && (!t.len || put(c, ann, "alpha.config.kubernetes.io/"
							     "transformations", t.s, opt[1]));
			sl_strbuf_free(&t);
			if (!ok)
				return false;
		}
		/* kustomizer.go: the version kubectl's kustomize reports, "(devel)" */
		sl_knode *labels = opt[2] ? sl_knode_path(c->a, md, (const char *const[]){"labels", NULL},
							  true, src, s, e) : NULL;
		if (opt[2] && (!labels || !put(c, labels, "app.kubernetes.io/managed-by",
					       "kustomize-(devel)", opt[2])))
			return false;
	}
	return true;
}
