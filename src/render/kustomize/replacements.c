/* SPDX-License-Identifier: Apache-2.0
** replacements.c: a kustomization's `replacements:`, applied as kustomize's ReplacementTransformer
** applies them (api/filters/replacement/replacement.go), the last of its builtin transformers:
** each replacement's source (the one object any of whose ids the selector names, the field at
** its fieldPath, a delimited part of it) copied to the fields of every target object (any of
** whose ids the selector names, minus the rejected), at each field path;
** kyaml's path syntax (kyaml/utils SmarterPathSplitter, yaml.PathMatcher): "." between fields,
** "[a.b/c]" a field with dots, "[name=x]" the list item whose name is x, a number an index, "*"
** every item; `create` makes what is missing. An entry's `path` names a file of replacements. */
#include "render/kustomize/internal.h"

#define MAX_SEGS 64

/* The segments of a field path (SmarterPathSplitter): "." outside brackets separates; *n of them
** (strings in a). False when there are too many. */
static bool split_path(sl_arena *a, const char *p, const char **segs, size_t *n)
{
	*n = 0;
	const char *start = p;
	int depth = 0;
	for (const char *q = p;; q++) {
		if (*q == '[')
			depth++;
		else if (*q == ']' && depth)
			depth--;
		if (*q && (*q != '.' || depth))
			continue;
		if (*n == MAX_SEGS)
			return false;
		/* an empty segment (".metadata.name") is skipped, as kyaml's path lookups skip it */
		if (q > start && !(segs[(*n)++] = sl_arena_strndup(a, start, (size_t)(q - start))))
			return false;
		if (!*q)
			return true;
		start = q + 1;
	}
}

/* A segment "[k=v]": k and v (in a); false when seg is none. */
static bool list_selector(sl_arena *a, const char *seg, const char **k, const char **v)
{
	size_t len = strlen(seg);
	const char *eq = strchr(seg, '=');
	if (len < 3 || seg[0] != '[' || seg[len - 1] != ']' || !eq)
		return false;
	*k = sl_arena_strndup(a, seg + 1, (size_t)(eq - seg - 1));
	*v = sl_arena_strndup(a, eq + 1, (size_t)(seg + len - 1 - eq - 1));
	return *k && *v;
}

/* A field segment's name: "[a.b]" is a.b. */
static const char *field_name(sl_arena *a, const char *seg)
{
	size_t len = strlen(seg);
	if (len >= 2 && seg[0] == '[' && seg[len - 1] == ']')
		return sl_arena_strndup(a, seg + 1, len - 2);
	return seg;
}

static bool is_index(const char *seg)
{
	if (!*seg)
		return false;
	for (const char *p = seg; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* The fields a path reaches: (parent, index) pairs. */
struct hits {
	sl_knode **parent;
	size_t *at;
	size_t n, cap;
};

static bool hit(struct hits *h, sl_knode *parent, size_t at)
{
	if (!sl_kustomize__room(&h->parent, h->n, &h->cap, sizeof *h->parent))
		return false;
	size_t cap = h->cap;
	size_t *nat = sl_xrealloc(h->at, cap * sizeof *nat);
	if (!nat)
		return false;
	h->at = nat;
	h->parent[h->n] = parent;
	h->at[h->n++] = at;
	return true;
}

struct walk {
	struct ctx *c;
	const char **segs;
	size_t n;
	int create;               /* the last field's type when made (SL_NODE_*); -1: never */
	const sl_knode *origin;   /* made fields' origin */
	struct hits *h;
};

/* Walks segs[i..] below n (the value at parent->v[at]), kyaml's PathMatcher. */
static bool match(struct walk *w, sl_knode *parent, size_t at, size_t i)
{
	sl_knode *n = parent->v[at];
	if (i == w->n)
		return hit(w->h, parent, at);
	sl_arena *a = w->c->a;
	const char *seg = w->segs[i], *k, *v;
	bool last = i + 1 == w->n;
	if (n->type == SL_NODE_SEQ) {
		if (strcmp(seg, "*") == 0) {
			for (size_t j = 0; j < n->n; j++)
				if (!match(w, n, j, i + 1))
					return false;
			return true;
		}
		if (is_index(seg)) {
			size_t j = (size_t)strtoul(seg, NULL, 10);
			return j >= n->n || match(w, n, j, i + 1);
		}
		if (!list_selector(a, seg, &k, &v))
			return true;
		bool found = false;
		for (size_t j = 0; j < n->n; j++) {
			const char *have = sl_knode_str(n->v[j], k);
			if (have && strcmp(have, v) == 0) {
				found = true;
				if (!match(w, n, j, i + 1))
					return false;
			}
		}
		if (found || w->create < 0)
			return true;
		sl_knode *item = sl_knode_new(a, SL_NODE_MAP, w->origin->src, w->origin->start,
					      w->origin->end);
		sl_knode *kv = sl_knode_scalar(a, v, w->origin->src, w->origin->start, w->origin->end);
		if (!item || !kv || !sl_knode_set(a, item, k, kv) || !sl_knode_insert(a, n, n->n, item))
			return false;
		return match(w, n, n->n - 1, i + 1);
	}
	if (n->type != SL_NODE_MAP)
		return true;
	const char *name = field_name(a, seg);
	if (!name)
		return false;
	size_t j;
	sl_knode *next = sl_knode_get(n, name, &j);
	if (!next && w->create >= 0) {
		const char *after = last ? NULL : w->segs[i + 1];
		const char *ak, *av;
		uint8_t t = last ? (uint8_t)w->create :
			    (list_selector(a, after, &ak, &av) || is_index(after)) ? SL_NODE_SEQ :
			    SL_NODE_MAP;
		next = sl_knode_new(a, t, w->origin->src, w->origin->start, w->origin->end);
		if (next && t == SL_NODE_SCALAR) {
			next->s = "";
			next->quoted = true;   /* a made scalar is a string (kubectl writes "3306") */
		}
		if (!next || !sl_knode_set(a, n, name, next))
			return false;
		sl_knode_get(n, name, &j);
	}
	if (!next)
		return true;
	return match(w, n, j, i + 1);
}

/* The fields of obj at path (made when create >= 0), into h; false when out of memory. */
static bool lookup(struct ctx *c, sl_knode *obj, const char *path, int create,
		   const sl_knode *origin, struct hits *h)
{
	const char *segs[MAX_SEGS];
	size_t n;
	if (!split_path(c->a, path, segs, &n))
		return true;   /* a path that long reaches nothing */
	/* a holder, so that the object itself has a parent */
	sl_knode holder = {0};
	sl_knode *v[1] = {obj};
	holder.type = SL_NODE_SEQ;
	holder.v = v;
	holder.n = 1;
	struct walk w = {c, segs, n, create, origin, h};
	return match(&w, &holder, 0, 0);
}

/* True when a selector's field want (NULL or "": any) is s. */
static bool field_is(const char *want, const char *s)
{
	return !want || !*want || strcmp(want, s) == 0;
}

/* True when an id of resource r (its current one, or a previous one) is selected by sel
** (group, version, kind, name, namespace): resid's IsSelectedBy, exact (kustomize v5.5 selects
** a replacement's source and targets so; later versions read a target's as regular
** expressions). */
static bool any_id_selected(const struct kres *r, const sl_knode *sel)
{
	char g[256];
	const char *v;
	sl_kustomize__group_version(r->obj, g, sizeof g, &v);
	if (!field_is(sl_knode_str(sel, "group"), g) || !field_is(sl_knode_str(sel, "version"), v))
		return false;
	const char *want_ns = sl_knode_str(sel, "namespace");
	for (size_t i = 0; i <= r->n_prev; i++) {
		const char *kind = i < r->n_prev ? r->prev[i].kind : sl_knode_str(r->obj, "kind");
		const char *name = i < r->n_prev ? r->prev[i].name : sl_kustomize__name_of(r->obj);
		const char *ens = i < r->n_prev ? r->prev[i].ns :
				  sl_kustomize__eff_ns(kind, sl_kustomize__ns_of(r->obj));
		if (field_is(sl_knode_str(sel, "kind"), kind ? kind : "") &&
		    field_is(sl_knode_str(sel, "name"), name ? name : "") &&
		    (!want_ns || !*want_ns || strcmp(sl_kustomize__eff_ns(kind, want_ns), ens) == 0))
			return true;
	}
	return false;
}

static bool has_id_fields(const sl_knode *sel)
{
	static const char *const f[] = {"group", "version", "kind", "name", "namespace"};
	for (size_t i = 0; i < 5; i++) {
		const char *s = sl_knode_str(sel, f[i]);
		if (s && *s)
			return true;
	}
	return false;
}

/* kustomize's error, at node at: the build fails. */
static bool refuse(struct ctx *c, const sl_knode *at, const char *msg)
{
	return sl_kustomize__issue_n(c, "kustomize-invalid", at,
				     sl_arena_printf(c->a, "kustomize: %s\nkubectl kustomize refuses "
						     "the build", msg), "%s", msg);
}

static const char *sel_text(struct ctx *c, const sl_knode *sel)
{
	const char *k = sl_knode_str(sel, "kind"), *n = sl_knode_str(sel, "name");
	return sl_arena_printf(c->a, "%s/%s", k ? k : "~K", n ? n : "~N");
}

/* Splits s at delim: part index (NULL when out of range), in a. */
static const char *part_of(sl_arena *a, const char *s, const char *delim, long index)
{
	size_t dl = strlen(delim);
	long i = 0;
	for (const char *p = s;; i++) {
		const char *q = strstr(p, delim);
		if (i == index)
			return sl_arena_strndup(a, p, q ? (size_t)(q - p) : strlen(p));
		if (!q)
			return NULL;
		p = q + dl;
	}
}

/* The target value with part index of its delim-separated parts set to v (setFieldValue). */
static const char *set_part(sl_arena *a, const char *target, const char *delim, long index,
			    const char *v)
{
	size_t dl = strlen(delim), n = 1;
	for (const char *p = strstr(target, delim); p; p = strstr(p + dl, delim))
		n++;
	if (index < 0)
		return sl_arena_printf(a, "%s%s%s", v, delim, target);
	if ((size_t)index >= n)
		return sl_arena_printf(a, "%s%s%s", target, delim, v);
	sl_strbuf b = {0};
	const char *p = target;
	for (size_t i = 0; i < n; i++) {
		const char *q = strstr(p, delim);
		size_t len = q ? (size_t)(q - p) : strlen(p);
		if (i)
			sl_strbuf_addstr(&b, delim);
		if ((long)i == index)
			sl_strbuf_addstr(&b, v);
		else
			sl_strbuf_add(&b, p, len);
		p = q ? q + dl : p + len;
	}
	const char *r = !b.failed && b.s ? sl_arena_strndup(a, b.s, b.len) : b.failed ? NULL : "";
	sl_strbuf_free(&b);
	return r;
}

static long index_of(const sl_knode *options)
{
	const char *s = sl_knode_str(options, "index");
	return s ? strtol(s, NULL, 10) : 0;
}

/* Copies value to the fields of target object obj that selector t names. */
static bool copy_to(struct ctx *c, sl_knode *obj, const sl_knode *value, const sl_knode *t)
{
	const sl_knode *options = sl_knode_get(t, "options", NULL);
	const char *create = sl_knode_str(options, "create");
	const char *delim = sl_knode_str(options, "delimiter");
	int kind = create && strcmp(create, "true") == 0 ? value->type : -1;
	const sl_knode *fps = sl_knode_get(t, "fieldPaths", NULL);
	size_t nfp = fps && fps->type == SL_NODE_SEQ && fps->n ? fps->n : 1;
	size_t value_nodes, made = 0;   /* what the copies add, bounded as a document's nodes */
	sl_knode_depth(value, SL_MAX_DEPTH, &value_nodes, SL_MAX_MERGED);
	for (size_t f = 0; f < nfp; f++) {
		const sl_knode *fpn = fps && fps->type == SL_NODE_SEQ && fps->n ? fps->v[f] : NULL;
		const char *fp = fpn ? fpn->s : "metadata.name";
		const sl_knode *origin = fpn ? fpn : t;
		struct hits h = {0};
		bool ok = lookup(c, obj, fp, kind, origin, &h);
		if (ok && !h.n) {
			ok = refuse(c, origin, sl_arena_printf(c->a, kind >= 0 ? "unable to find or "
							       "create field \"%s\" in replacement target" :
							       "unable to find field \"%s\" in replacement "
							       "target", fp));
		}
		for (size_t i = 0; ok && i < h.n; i++) {
			sl_knode *cur = h.parent[i]->v[h.at[i]];
			sl_knode *nv;
			if (cur->type == SL_NODE_SCALAR && value->type == SL_NODE_SCALAR) {
				const char *s = value->s;
				if (delim && *delim && !(s = set_part(c->a, cur->s, delim,
								     index_of(options), value->s)))
					return false;
				/* a scalar keeps its own type: only the value is copied (a string stays a
				** string: "3306" into a placeholder or a made field); a whole value comes
				** from the source's line (where a person changes it), a part set by a
				** delimiter stays at the target's */
				const sl_knode *from = delim && *delim ? cur : value;
				nv = sl_knode_scalar(c->a, s, from->src, from->start, from->end);
				if (nv)
					nv->quoted = cur->quoted ||
						     sl_scalar_text_type(cur->s, cur->len) == SL_Y_STR;
			} else if (delim && *delim) {
				ok = refuse(c, origin, "delimiter option can only be used with scalar "
					    "nodes");
				break;
			} else if ((made += value_nodes) > SL_MAX_MERGED) {
				ok = false;
				break;
			} else {
				nv = sl_knode_copy(c->a, value);
			}
			if (!nv)
				ok = false;
			else
				h.parent[i]->v[h.at[i]] = nv;
		}
		free(h.parent);
		free(h.at);
		if (made > SL_MAX_MERGED)
			return sl_kustomize__limit(c, origin, sl_arena_printf(c->a, "the replacement "
						   "would make the object more than %u nodes, the "
						   "most schedlint builds from one document",
						   SL_MAX_MERGED));
		if (!ok)
			return false;
	}
	/* a value copied into a path it creates nests the object deeper: never past the limit the
	** object's later steps (copies, merges, the text) rely on */
	size_t nodes;
	if (sl_knode_depth(obj, SL_MAX_DEPTH, &nodes, SL_MAX_MERGED) > SL_MAX_DEPTH ||
	    nodes > SL_MAX_MERGED)
		return sl_kustomize__limit(c, t, sl_arena_printf(c->a, "the replacement would nest "
					   "the object deeper than %d levels or make it more than %u "
					   "nodes, the most schedlint builds from one document",
					   SL_MAX_DEPTH, SL_MAX_MERGED));
	return true;
}

/* One replacement r (at: where it is written). */
static bool replace(struct ctx *c, struct acc *acc, const sl_knode *r, const sl_knode *at)
{
	const sl_knode *src = sl_knode_get(r, "source", NULL), *targets = sl_knode_get(r, "targets", NULL);
	if (!src || !targets || targets->type != SL_NODE_SEQ)
		return refuse(c, at, "replacements must specify a source and at least one target");
	struct kres *from = NULL;
	for (size_t i = 0; i < acc->n; i++) {
		if (!any_id_selected(&acc->v[i], src))
			continue;
		if (from)
			return refuse(c, src, sl_arena_printf(c->a, "multiple matches for selector %s",
							      sel_text(c, src)));
		from = &acc->v[i];
	}
	if (!from)
		return refuse(c, src, sl_arena_printf(c->a, "nothing selected by %s", sel_text(c, src)));
	const char *fp = sl_knode_str(src, "fieldPath");
	fp = fp && *fp ? fp : "metadata.name";
	struct hits h = {0};
	if (!lookup(c, from->obj, fp, -1, src, &h)) {
		free(h.parent);
		free(h.at);
		return false;
	}
	const sl_knode *value = h.n ? h.parent[0]->v[h.at[0]] : NULL;
	free(h.parent);
	free(h.at);
	/* kyaml's IsNilOrEmpty: null, an empty map or list (an empty string is a value) */
	if (!value || sl_knode_is_null(value) || (value->type != SL_NODE_SCALAR && !value->n))
		return refuse(c, src, sl_arena_printf(c->a, "fieldPath `%s` is missing for "
						      "replacement source %s", fp, sel_text(c, src)));
	const sl_knode *options = sl_knode_get(src, "options", NULL);
	const char *delim = sl_knode_str(options, "delimiter");
	if (delim && *delim) {
		if (value->type != SL_NODE_SCALAR)
			return refuse(c, src, "delimiter option can only be used with scalar nodes");
		const char *part = part_of(c->a, value->s, delim, index_of(options));
		if (!part || index_of(options) < 0)
			return refuse(c, src, sl_arena_printf(c->a, "options.index %ld is out of "
							      "bounds for value %s",
							      index_of(options), value->s));
		sl_knode *pv = sl_knode_scalar(c->a, part, value->src, value->start, value->end);
		if (!pv)
			return false;
		pv->quoted = value->quoted;
		value = pv;
	}
	for (size_t t = 0; t < targets->n; t++) {
		const sl_knode *ts = targets->v[t], *sel = sl_knode_get(ts, "select", NULL);
		const sl_knode *rejects = sl_knode_get(ts, "reject", NULL);
		if (!sel)
			return refuse(c, ts, "target must specify resources to select");
		for (size_t i = 0; i < acc->n; i++) {
			struct kres *res = &acc->v[i];
			if (!sl_kustomize__labels_match(res->obj, sel))
				continue;
			bool rejected = false;
			for (size_t j = 0; rejects && rejects->type == SL_NODE_SEQ && j < rejects->n &&
					   !rejected; j++) {
				const sl_knode *rj = rejects->v[j];
				rejected = (has_id_fields(rj) && any_id_selected(res, rj)) ||
					   ((sl_knode_str(rj, "labelSelector") ||
					     sl_knode_str(rj, "annotationSelector")) &&
					    sl_kustomize__labels_match(res->obj, rj));
			}
			if (rejected || !any_id_selected(res, sel))
				continue;
			if (!copy_to(c, res->obj, value, ts))
				return false;
		}
	}
	return true;
}

bool sl_kustomize__replacements(struct ctx *c, struct acc *acc, const sl_knode *list,
				const char *dir)
{
	for (size_t i = 0; list && list->type == SL_NODE_SEQ && i < list->n; i++) {
		const sl_knode *e = list->v[i], *path = sl_knode_get(e, "path", NULL);
		if (!path) {
			if (!replace(c, acc, e, e))
				return false;
			continue;
		}
		const char *what = sl_arena_printf(c->a, "loading replacements from '%s'", path->s);
		struct kfile *f = what ? sl_kustomize__input(c, path, dir, path->s, what) : NULL;
		if (!f || !f->src ||
		    !sl_kustomize__push_str(&c->b->used, &c->b->n_used, &c->b->cap_used,
					    sl_xstrdup(f->real)))
			return false;   /* a replacements file is the build's */
		for (size_t d = 0; d < f->tree.n_docs; d++) {
			if (!f->tree.docs[d]->root)
				continue;
			const sl_knode *doc = sl_kustomize__load_doc(c, f->tree.docs[d]->root, f->src, NULL);
			if (!doc)
				return false;
			size_t n = doc->type == SL_NODE_SEQ ? doc->n : 1;
			for (size_t j = 0; j < n; j++)
				if (!replace(c, acc, doc->type == SL_NODE_SEQ ? doc->v[j] : doc, path))
					return false;
		}
	}
	return true;
}
