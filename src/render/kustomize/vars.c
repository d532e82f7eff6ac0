/* SPDX-License-Identifier: Apache-2.0
** vars.c: a kustomization's `vars:`, as kustomize v5.5 keeps and resolves them
** (api/internal/accumulator/resaccumulator.go MergeVars, findVarValueFromResources,
** ResolveVars; api/filters/refvar): each kustomization's vars are merged at its end (a name
** met twice, in it or in a base or component, refused; the one object whose ids match the var's
** objref remembers the var), and once the root is built and its name references fixed, every
** "$(NAME)" in the varReference fields (kustomize's builtin list, fields.c) is replaced by the
** field the var names in that object; a field that is only "$(NAME)" takes the value's type. */
#include "render/kustomize/internal.h"

static bool refuse(struct ctx *c, const sl_knode *at, const char *msg)
{
	return msg && sl_kustomize__issue_n(c, "kustomize-invalid", at,
					    sl_arena_printf(c->a, "kustomize: %s\nkubectl kustomize "
							    "refuses the build", msg), "%s", msg);
}

/* A var's words in kustomize's errors. */
static const char *var_text(struct ctx *c, const struct kvar *v)
{
	const sl_knode *o = sl_knode_get(v->decl, "objref", NULL);
	const char *k = sl_knode_str(o, "kind"), *n = sl_knode_str(o, "name");
	return sl_arena_printf(c->a, "%s (%s %s)", v->name, k ? k : "?", n ? n : "?");
}

bool sl_kustomize__var_add(struct ctx *c, struct acc *acc, const struct kvar *v)
{
	for (size_t i = 0; i < acc->n_vars; i++)
		if (strcmp(acc->vars[i].name, v->name) == 0)
			return refuse(c, sl_knode_get(v->decl, "name", NULL),
				      sl_arena_printf(c->a, "var '%s' already encountered", v->name));
	if (!sl_kustomize__room(&acc->vars, acc->n_vars, &acc->cap_vars, sizeof *acc->vars))
		return false;
	acc->vars[acc->n_vars++] = *v;
	return true;
}

/* True when resource r has an id that var objref o names: its group, version, kind and name,
** and, when o names a namespace or the kind is cluster-scoped, its namespace (MergeVars'
** GvknEquals / Equals over GetMatchingResourcesByAnyId). */
static bool objref_matches(const struct kres *r, const sl_knode *o)
{
	char g[256];
	const char *v;
	sl_kustomize__group_version(r->obj, g, sizeof g, &v);
	const char *av = sl_knode_str(o, "apiVersion");
	const char *og = sl_knode_str(o, "group"), *ov = sl_knode_str(o, "version");
	char ag[256] = "";
	if (av && *av) {
		const char *slash = strchr(av, '/');
		if (slash) {
			snprintf(ag, sizeof ag, "%.*s", (int)(slash - av), av);
			og = ag;
			ov = slash + 1;
		} else {
			ov = av;
		}
	}
	if (strcmp(og ? og : "", g) || strcmp(ov ? ov : "", v))
		return false;
	const char *ok = sl_knode_str(o, "kind"), *on = sl_knode_str(o, "name");
	const char *ons = sl_knode_str(o, "namespace");
	bool with_ns = (ons && *ons) || sl_kustomize__in(ok, sl_kustomize__cluster_scoped);
	const char *want_ens = with_ns ? sl_kustomize__eff_ns(ok, ons) : NULL;
	for (size_t i = 0; i <= r->n_prev; i++) {
		const char *kind = i < r->n_prev ? r->prev[i].kind : sl_knode_str(r->obj, "kind");
		const char *name = i < r->n_prev ? r->prev[i].name : sl_kustomize__name_of(r->obj);
		const char *ens = i < r->n_prev ? r->prev[i].ns :
				  sl_kustomize__eff_ns(kind, sl_kustomize__ns_of(r->obj));
		if (strcmp(ok ? ok : "", kind ? kind : "") == 0 &&
		    strcmp(on ? on : "", name ? name : "") == 0 &&
		    (!want_ens || strcmp(want_ens, ens) == 0))
			return true;
	}
	return false;
}

bool sl_kustomize__vars(struct ctx *c, struct acc *acc, const sl_knode *list)
{
	for (size_t i = 0; list && list->type == SL_NODE_SEQ && i < list->n; i++) {
		const sl_knode *d = list->v[i];
		const char *name = sl_knode_str(d, "name");
		struct kvar v = {name ? name : "", d};
		const sl_knode *o = sl_knode_get(d, "objref", NULL);
		struct kres *hit = NULL;
		size_t hits = 0;
		for (size_t j = 0; j < acc->n; j++)
			if (objref_matches(&acc->v[j], o) && hits++ == 0)
				hit = &acc->v[j];
		if (hits > 1)
			return refuse(c, d, sl_arena_printf(c->a, "found %zu resId matches for var %s "
							    "(unable to disambiguate)", hits,
							    var_text(c, &v)));
		if (hit) {   /* AppendRefVarName */
			const char **nv = sl_arena_alloc(c->a, (hit->n_refvars + 1) * sizeof *nv);
			if (!nv)
				return false;
			if (hit->n_refvars)
				memcpy(nv, hit->refvars, hit->n_refvars * sizeof *nv);
			nv[hit->n_refvars++] = v.name;
			hit->refvars = nv;
		}
		if (!sl_kustomize__var_add(c, acc, &v))
			return false;
	}
	return true;
}

/* The value of field path (kyaml's GetFieldValue: "." between fields, "x[0]" an index) in obj,
** or NULL. */
static const sl_knode *field_value(sl_arena *a, const sl_knode *obj, const char *path)
{
	const sl_knode *n = obj;
	char *dup = sl_arena_strndup(a, path, strlen(path));
	for (char *save = NULL, *seg = dup ? strtok_r(dup, ".", &save) : NULL; n && seg;
	     seg = strtok_r(NULL, ".", &save)) {
		char *br = strchr(seg, '[');
		if (br)
			*br = '\0';
		if (*seg)
			n = sl_knode_get(n, seg, NULL);
		for (; n && br; br = strchr(br + 1, '[')) {
			size_t idx = (size_t)strtoul(br + 1, NULL, 10);
			n = n->type == SL_NODE_SEQ && idx < n->n ? n->v[idx] : NULL;
		}
	}
	return dup ? n : NULL;
}

/* The resolved vars: names and value nodes. */
struct resolved {
	const char **name;
	const sl_knode **value;
	size_t n;
};

static const sl_knode *lookup_var(const struct resolved *r, const char *name, size_t len)
{
	for (size_t i = 0; i < r->n; i++)
		if (strlen(r->name[i]) == len && strncmp(r->name[i], name, len) == 0)
			return r->value[i];
	return NULL;
}

static bool is_string(const sl_knode *n)
{
	return n->type == SL_NODE_SCALAR &&
	       (n->quoted || sl_scalar_text_type(n->s, n->len) == SL_Y_STR);
}

/* refvar's DoReplacements on scalar *slot (a string): "$(NAME)" replaced, "$$" a "$"; NULL
** unchanged. */
static bool expand(sl_arena *a, const struct resolved *r, sl_knode **slot)
{
	sl_knode *n = *slot;
	if (!is_string(n) || !memchr(n->s, '$', n->len))
		return true;
	const char *in = n->s;
	size_t len = n->len;
	if (len > 3 && in[0] == '$' && in[1] == '(' && in[len - 1] == ')' &&
	    !memchr(in + 2, ')', len - 3)) {
		const sl_knode *v = lookup_var(r, in + 2, len - 3);
		if (v) {   /* the whole value: it takes the var's, with its type */
			sl_knode *nv = sl_knode_scalar(a, v->s, n->src, n->start, n->end);
			if (!nv)
				return false;
			nv->quoted = is_string(v);
			*slot = nv;
			return true;
		}
	}
	sl_strbuf b = {0};
	for (size_t i = 0; i < len; i++) {
		if (in[i] != '$' || i + 1 >= len) {
			sl_strbuf_add(&b, in + i, 1);
			continue;
		}
		if (in[i + 1] == '$') {
			sl_strbuf_add(&b, "$", 1);
			i++;
			continue;
		}
		const char *close = in[i + 1] == '(' ? memchr(in + i + 2, ')', len - i - 2) : NULL;
		if (!close) {
			sl_strbuf_add(&b, in + i, 2);
			i++;
			continue;
		}
		size_t nl = (size_t)(close - (in + i + 2));
		const sl_knode *v = lookup_var(r, in + i + 2, nl);
		if (v)
			sl_strbuf_add(&b, v->s, v->len);
		else
			sl_strbuf_add(&b, in + i, nl + 3);
		i += nl + 2;
	}
	bool ok = !b.failed;
	if (ok && (b.len != len || memcmp(b.s ? b.s : "", in, len))) {
		sl_knode *nv = sl_knode_scalar(a, b.s ? b.s : "", n->src, n->start, n->end);
		if ((ok = nv != NULL)) {
			nv->quoted = true;
			*slot = nv;
		}
	}
	sl_strbuf_free(&b);
	return ok;
}

static bool set(struct sl_kustomize__fswalk *w, sl_knode *parent, size_t at)
{
	const struct resolved *r = w->arg;
	sl_knode *v = parent->v[at];
	if (sl_knode_is_null(v))
		return true;
	if (v->type == SL_NODE_SCALAR)
		return expand(w->a, r, &parent->v[at]);
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i]->type == SL_NODE_SCALAR && !expand(w->a, r, &v->v[i]))
			return false;
	return true;
}

bool sl_kustomize__resolve_vars(struct ctx *c, struct acc *acc)
{
	if (!acc->n_vars)
		return true;
	struct resolved r = {sl_arena_alloc(c->a, acc->n_vars * sizeof *r.name),
			     sl_arena_alloc(c->a, acc->n_vars * sizeof *r.value), 0};
	if (!r.name || !r.value)
		return false;
	for (size_t i = 0; i < acc->n_vars; i++) {
		const struct kvar *v = &acc->vars[i];
		const struct kres *owner = NULL;
		for (size_t j = 0; j < acc->n && !owner; j++)
			for (size_t k = 0; k < acc->v[j].n_refvars && !owner; k++)
				if (strcmp(acc->v[j].refvars[k], v->name) == 0)
					owner = &acc->v[j];
		if (!owner)
			return refuse(c, v->decl, sl_arena_printf(c->a, "var '%s' cannot be mapped to "
								  "a field in the set of known "
								  "resources", var_text(c, v)));
		const char *fp = sl_knode_str(sl_knode_get(v->decl, "fieldref", NULL), "fieldPath");
		const sl_knode *val = field_value(c->a, owner->obj, fp && *fp ? fp : "metadata.name");
		if (!val)
			return refuse(c, v->decl, sl_arena_printf(c->a, "field specified in var '%s' not "
								  "found in corresponding resource",
								  var_text(c, v)));
		if (val->type != SL_NODE_SCALAR)
			continue;   /* a map or a list: kustomize cannot write it into a string either */
		r.name[r.n] = v->name;
		r.value[r.n++] = val;
	}
	const struct sl_kustomize__cfg *cfg = sl_kustomize__builtin_cfg();
	if (!cfg)
		return false;
	/* the builtin varReference fields, then its configurations' */
	const struct sl_kustomize__fslist *lists[] = {&cfg->cat[CAT_VARREF], &acc->cfg.cat[CAT_VARREF]};
	for (size_t i = 0; i < acc->n; i++)
		for (size_t k = 0; k < 2; k++)
			for (size_t s = 0; s < lists[k]->n; s++) {
				struct sl_kustomize__fswalk w = {c->a, &lists[k]->v[s], -1, acc->v[i].obj,
								 set, &r, NULL};
				if (!sl_kustomize__fs_walk(&w, acc->v[i].obj) && !w.error)
					return false;
			}
	return true;
}
