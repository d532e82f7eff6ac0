/* SPDX-License-Identifier: Apache-2.0
** patches.c: a kustomization's patches (patchesStrategicMerge, patches, patchesJson6902)
** selected onto the built objects and applied (render/kpatch.c: strategic merge, JSON
** merge, JSON 6902). */
#include "render/kustomize/internal.h"

/* Adds name (in r's namespace) to r's previous ids. */
bool sl_kustomize__push_prev(struct ctx *c, struct kres *r, const char *name)
{
	struct kid *v = sl_arena_alloc(c->a, (r->n_prev + 1) * sizeof *v);
	if (!v)
		return false;
	if (r->n_prev)
		memcpy(v, r->prev, r->n_prev * sizeof *v);
	const char *kind = sl_knode_str(r->obj, "kind");
	v[r->n_prev] = (struct kid){kind ? kind : "", sl_kustomize__eff_ns(kind, sl_kustomize__ns_of(r->obj)),
				    name ? name : ""};
	r->prev = v;
	r->n_prev++;
	return true;
}

/* Adds s to r's name prefixes (prefix) or suffixes, as kustomize's AddNamePrefix/AddNameSuffix. */
bool sl_kustomize__push_affix(struct ctx *c, struct kres *r, const char *s, bool prefix)
{
	const char ***v = prefix ? &r->pre : &r->suf;
	size_t *n = prefix ? &r->n_pre : &r->n_suf;
	const char **nv = sl_arena_alloc(c->a, (*n + 1) * sizeof *nv);
	if (!nv)
		return false;
	if (*n)
		memcpy(nv, *v, *n * sizeof *nv);
	nv[(*n)++] = s;
	*v = nv;
	return true;
}

/* Keeps r's id before a transformer changes it (kustomize's StorePreviousId). */
bool sl_kustomize__store_prev(struct ctx *c, struct kres *r)
{
	return sl_kustomize__push_prev(c, r, sl_kustomize__name_of(r->obj));
}

/* An object's current id as kustomize's ResId.Equals compares it (apiVersion's group and
** version, kind, name, effective namespace), its parts pointing into the object: no copy. */
struct id {
	const char *kind, *group, *version, *name, *ns;
	size_t glen;
	size_t at;   /* its place in the accumulated resources */
};

/* obj's id; false when it has no kind (an object without one equals none). */
static bool id_of(const sl_knode *obj, struct id *id)
{
	if (!(id->kind = sl_knode_str(obj, "kind")))
		return false;
	const char *av = sl_knode_str(obj, "apiVersion");
	av = av ? av : "";
	const char *slash = strchr(av, '/');
	id->group = av;
	id->glen = slash ? (size_t)(slash - av) : 0;
	id->version = slash ? slash + 1 : av;
	const sl_knode *md = sl_knode_get(obj, "metadata", NULL);
	id->name = sl_knode_str(md, "name");
	id->name = id->name ? id->name : "";
	id->ns = sl_knode_str(md, "namespace");
	id->ns = id->ns && *id->ns ? id->ns : "default";   /* sl_kustomize__eff_ns's */
	return true;
}

/* Orders ids: 0 when they are the same id. The effective namespace last: a cluster-scoped kind
** has one namespace whatever its metadata says (sl_kustomize__eff_ns). */
static int cmp_id(const struct id *x, const struct id *y)
{
	int d = strcmp(x->name, y->name);
	if (d || (d = strcmp(x->kind, y->kind)))
		return d;
	if (x->glen != y->glen)
		return x->glen < y->glen ? -1 : 1;
	if ((d = memcmp(x->group, y->group, x->glen)) || (d = strcmp(x->version, y->version)))
		return d;
	return sl_kustomize__in(x->kind, sl_kustomize__cluster_scoped) ? 0 : strcmp(x->ns, y->ns);
}

/* True when objects a and b have the same current id (apiVersion, kind, name, effective
** namespace): kustomize's ResId.Equals. */
bool sl_kustomize__same_id(const sl_knode *a, const sl_knode *b)
{
	struct id x, y;
	return id_of(a, &x) && id_of(b, &y) && cmp_id(&x, &y) == 0;
}

static int cmp_id_at(const void *a, const void *b)
{
	const struct id *x = a, *y = b;
	int d = cmp_id(x, y);
	return d ? d : x->at < y->at ? -1 : x->at > y->at;
}

/* kustomize's resource id of obj (Kind.version.group/name.namespace, with its words for what is
** missing), in a; NULL when out of memory. */
static const char *res_id(sl_arena *a, const sl_knode *obj)
{
	char g[256];
	const char *v;
	sl_kustomize__group_version(obj, g, sizeof g, &v);
	const char *k = sl_knode_str(obj, "kind"), *nm = sl_kustomize__name_of(obj), *ns = sl_kustomize__ns_of(obj);
	return sl_arena_printf(a, "%s.%s.%s/%s.%s", k && *k ? k : "[noKind]", *v ? v : "[noVer]",
			       g[0] ? g : "[noGrp]", nm && *nm ? nm : "[noName]", ns && *ns ? ns : "[noNs]");
}

/* The resources acc gained from from on (entry e's): none may have the current id of one before
** it, which kustomize refuses ("may not add resource with an already registered id"). */
bool sl_kustomize__unique_ids(struct ctx *c, const struct acc *acc, size_t from, const sl_knode *e)
{
	if (from >= acc->n)
		return true;
	/* sorted by id, then by place: in a run of one id each resource after the first repeats
	** an earlier one; the first such from `from` on, over all ids, is the one refused (as a
	** comparison of each with every one before it finds) */
	struct id *v = sl_xmalloc(acc->n * sizeof *v);
	if (!v)
		return false;
	size_t n = 0;
	for (size_t i = 0; i < acc->n; i++)
		if (id_of(acc->v[i].obj, &v[n]))
			v[n++].at = i;
	qsort(v, n, sizeof *v, cmp_id_at);
	size_t dup = acc->n;
	for (size_t i = 1; i < n; i++)
		if (v[i].at >= from && v[i].at < dup && cmp_id(&v[i - 1], &v[i]) == 0)
			dup = v[i].at;
	free(v);
	if (dup == acc->n)
		return true;
	const sl_knode *o = acc->v[dup].obj;
	const char *id = res_id(c->a, o);
	const char *notes = id ? sl_arena_printf(c->a, "kustomize: accumulating resources: "
						 "accumulation err='merging resources from '%s': may "
						 "not add resource with an already registered id: %s'",
						 e->s, id) : NULL;
	return notes && sl_kustomize__issue_n(c, "kustomize-invalid", e, notes, "may not add resource "
					      "with an already registered id: %s", id);
}

/* True when s matches pattern, a regular expression anchored at both ends (kustomize's
** selectors), or when there is no pattern. */
static bool rx_match(const char *pattern, const char *s)
{
	if (!pattern || !*pattern)
		return true;
	if (!strpbrk(pattern, "\\^$.|?*+()[]{}"))
		return strcmp(pattern, s) == 0;   /* a literal: no regular expression needed */
	char *re = sl_xprintf("^(?:%s)$", pattern);
	int ec;
	PCRE2_SIZE eo;
	pcre2_code *rx = re ? pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL)
			    : NULL;
	pcre2_match_data *md = rx ? pcre2_match_data_create(2, NULL) : NULL;
	bool hit = md && sl_regex_match(rx, s, strlen(s), 0, md) > 0;
	pcre2_match_data_free(md);
	pcre2_code_free(rx);
	free(re);
	return hit;
}

/* True when obj (resource r) matches the target selector (a map: group, version, kind, name and
** namespace, each a regular expression; labelSelector, annotationSelector), as kustomize's
** resmap Select: the name and the namespace are its first id's or its current ones. */
static bool selected(const sl_knode *obj, const struct kres *r, const sl_knode *target)
{
	char g[256];
	const char *v;
	sl_kustomize__group_version(obj, g, sizeof g, &v);
	const char *kind = sl_knode_str(obj, "kind"), *name = sl_kustomize__name_of(obj);
	const char *cur_ns = sl_kustomize__eff_ns(kind, sl_kustomize__ns_of(obj));
	const char *org_name = r->n_prev ? r->prev[0].name : name ? name : "";
	const char *org_ns = r->n_prev ? r->prev[0].ns : cur_ns;
	const char *tns = sl_knode_str(target, "namespace"), *tn = sl_knode_str(target, "name");
	if ((!rx_match(tns, org_ns) && !rx_match(tns, cur_ns)) ||
	    (!rx_match(tn, org_name) && !rx_match(tn, name ? name : "")) ||
	    !rx_match(sl_knode_str(target, "group"), g) ||
	    !rx_match(sl_knode_str(target, "version"), v) ||
	    !rx_match(sl_knode_str(target, "kind"), kind ? kind : ""))
		return false;
	return sl_kustomize__labels_match(obj, target);
}

/* True when obj's labels and annotations match selector sel's labelSelector and
** annotationSelector (each "k=v", "k==v", "k!=v" or "k", comma-separated; none: true). */
bool sl_kustomize__labels_match(const sl_knode *obj, const sl_knode *target)
{
	static const char *const sels[][2] = {{"labelSelector", "labels"},
					      {"annotationSelector", "annotations"}};
	for (size_t s = 0; s < 2; s++) {
		const char *sel = sl_knode_str(target, sels[s][0]);
		if (!sel)
			continue;
		const sl_knode *have = sl_knode_get(sl_knode_get(obj, "metadata", NULL), sels[s][1], NULL);
		char *dup = sl_xstrdup(sel);
		bool ok = dup != NULL;
		for (char *save = NULL, *t = dup ? strtok_r(dup, ",", &save) : NULL; t && ok;
		     t = strtok_r(NULL, ",", &save)) {
			while (*t == ' ')
				t++;
			char *neq = strstr(t, "!="), *eq = strchr(t, '=');
			if (neq) {
				*neq = '\0';
				const char *hv = sl_knode_str(have, t);
				ok = !hv || strcmp(hv, neq + 2) != 0;
			} else if (eq) {
				*eq = '\0';
				const char *val = eq[1] == '=' ? eq + 2 : eq + 1;
				const char *hv = sl_knode_str(have, t);
				ok = hv && strcmp(hv, val) == 0;
			} else {
				ok = sl_knode_get(have, t, NULL) != NULL;
			}
		}
		free(dup);
		if (!ok)
			return false;
	}
	return true;
}

/* The leading spaces of src's 0-based line l; *blank: the line holds nothing else. */
static size_t spaces_of(const sl_source *src, size_t l, bool *blank)
{
	size_t ls = l == 0 ? src->bom : src->line_start[l], le = sl_source_line_end(src, l), i = ls;
	while (i < le && src->data[i] == ' ')
		i++;
	*blank = i == le;
	return i - ls;
}

/* The patch documents of an inline patch: parsed from the scalar's text, each node's origin
** moved to where that text stands in the kustomization (a block scalar's lines, less the
** block's indentation: ind bytes, the same on every line). */
static void relocate(sl_knode *n, const sl_source *tmp, const sl_knode *scalar, size_t ind)
{
	const sl_source *ks = scalar->src;
	uint32_t line, col;
	sl_source_position(tmp, n->start, &line, &col);
	uint32_t sl, sc;
	sl_source_position(ks, scalar->start, &sl, &sc);
	/* a block scalar ("|", "|-") starts on the next line, indented */
	bool block = ks->data[scalar->start] == '|' || ks->data[scalar->start] == '>';
	size_t first = block ? sl : sl - 1;   /* 0-based line of the text's first line */
	size_t target = first + line - 1;
	uint32_t start = scalar->start, end = scalar->end;
	if (block && target < ks->n_lines) {
		/* the node's byte on its line of the text (a column counts code points) */
		size_t at = n->start - (line == 1 ? tmp->bom : tmp->line_start[line - 1]);
		size_t off = ks->line_start[target] + ind + at;
		size_t le = sl_source_line_end(ks, target);
		if (off <= le) {
			start = (uint32_t)off;
			end = (uint32_t)(off + (n->end - n->start) < le ? off + (n->end - n->start) : le);
		}
	}
	n->src = ks;
	n->start = start;
	n->end = end;
	for (size_t i = 0; i < n->n; i++) {
		if (n->type == SL_NODE_MAP)
			relocate(n->k[i], tmp, scalar, ind);
		relocate(n->v[i], tmp, scalar, ind);
	}
}

/* The indentation a block scalar's text lost (relocate's ind): its first line with text, as
** the kustomization has it and as the text has it ("|2" keeps spaces of its own). */
static size_t block_indent(const sl_source *tmp, const sl_knode *scalar)
{
	const sl_source *ks = scalar->src;
	uint32_t sl, sc;
	sl_source_position(ks, scalar->start, &sl, &sc);
	for (size_t l = 0; l < tmp->n_lines && sl + l < ks->n_lines; l++) {
		bool blank, kblank;
		size_t in_text = spaces_of(tmp, l, &blank), in_file = spaces_of(ks, sl + l, &kblank);
		if (!blank)
			return in_file > in_text ? in_file - in_text : 0;
	}
	return 0;
}

/* The documents of a patch (a file path, or inline text), as knodes in *docs (n of them). */
bool sl_kustomize__patch_docs(struct ctx *c, const char *dir, const sl_knode *path,
			      const sl_knode *inline_, sl_knode ***docs, size_t *n)
{
	*n = 0;
	*docs = NULL;
	const sl_tree *t = NULL;
	const sl_source *src = NULL;
	sl_source *tmp = NULL;
	sl_tree tt = {0};
	if (path) {
		const char *what = path->type == SL_NODE_SCALAR ?
				   sl_arena_printf(c->a, "failed to get the patch file from path(%s)",
						   path->s) : NULL;
		struct kfile *f = what ? sl_kustomize__input(c, path, dir, path->s, what) : NULL;
		if (!f)
			return false;
		if (!sl_kustomize__push_str(&c->b->used, &c->b->n_used, &c->b->cap_used, sl_xstrdup(f->real)))
			return false;   /* a patch file is the build's too */
		t = &f->tree;
		src = f->src;
	} else {
		if (sl_source_from_buffer("(inline patch)", inline_->s, inline_->len, &tmp) != SL_OK ||
		    sl_tree_parse(tmp, c->a, &tt, sl_kustomize__no_issue, NULL) != SL_OK) {
			sl_source_free(tmp);
			return false;
		}
		t = &tt;
		src = tmp;
	}
	*docs = sl_arena_alloc(c->a, (t->n_docs + 1) * sizeof **docs);
	for (size_t i = 0; *docs && i < t->n_docs; i++) {
		if (!t->docs[i]->root)
			continue;
		sl_knode *d = sl_kustomize__load_doc(c, t->docs[i]->root, src, tmp ? inline_ : NULL);
		if (!d) {
			*docs = NULL;
			break;
		}
		if (tmp)
			relocate(d, tmp, inline_, block_indent(tmp, inline_));
		(*docs)[(*n)++] = d;
	}
	sl_source_free(tmp);
	return *docs != NULL;
}

/* Strategic merge patch p onto resource r, as kustomize's ApplySmPatch: the resource keeps its
** kind, name and namespace unless the patch entry's options allow a change; a patch selected by a
** target takes the resource's apiVersion (resmap's ApplySmPatch: patchCopy.SetGvk). */
static bool merge_into(struct ctx *c, struct acc *acc, size_t *i, const sl_knode *p,
		       const sl_knode *options, bool targeted)
{
	struct kres *r = &acc->v[*i];
	sl_knode *o = r->obj;
	const char *an = sl_knode_str(options, "allowNameChange");
	const char *ak = sl_knode_str(options, "allowKindChange");
	bool name_ok = an && strcmp(an, "true") == 0, kind_ok = ak && strcmp(ak, "true") == 0;
	if ((name_ok || kind_ok) && !sl_kustomize__store_prev(c, r))
		return false;
	sl_knode *md = sl_knode_get(o, "metadata", NULL);
	sl_knode *kind = sl_knode_get(o, "kind", NULL), *name = sl_knode_get(md, "name", NULL);
	sl_knode *ns = sl_knode_get(md, "namespace", NULL);
	sl_knode *av = sl_knode_get(o, "apiVersion", NULL);
	bool deleted = false;
	if (!sl_kpatch_merge(c->a, o, p, sl_kustomize__builtin(o), &deleted))
		return false;
	sl_kustomize__tidy(o, false);   /* kyaml's merge drops what is null in the object it walks */
	if (deleted) {
		memmove(acc->v + *i, acc->v + *i + 1, (acc->n - *i - 1) * sizeof *acc->v);
		acc->n--;
		(*i)--;
		return true;
	}
	/* put back what the patch changed (most patches repeat the resource's own id) */
	size_t at;
	if ((!kind_ok && kind && sl_knode_get(o, "kind", NULL) != kind &&
	     !sl_knode_set(c->a, o, "kind", kind)) ||
	    (targeted && av && sl_knode_get(o, "apiVersion", NULL) != av &&
	     !sl_knode_set(c->a, o, "apiVersion", av)))
		return false;
	md = sl_knode_get(o, "metadata", NULL);
	if (!md)
		return true;
	if ((!name_ok && name && sl_knode_get(md, "name", NULL) != name &&
	     !sl_knode_set(c->a, md, "name", name)) ||
	    (ns && sl_knode_get(md, "namespace", NULL) != ns && !sl_knode_set(c->a, md, "namespace", ns)))
		return false;
	if (!ns && sl_knode_get(md, "namespace", &at))
		sl_knode_remove(md, at);
	return true;
}

/* Applies one patch (documents docs, target selector target or NULL, options) to acc, as
** kustomize's PatchTransformer (or its PatchStrategicMerge and PatchJson6902 transformers, from):
** a strategic merge patch without a target changes the one resource with its id, a target
** selects any number; JSON 6902 needs a target. at: where it is named, for findings. */
bool sl_kustomize__apply_patch(struct ctx *c, struct acc *acc, sl_knode **docs, size_t n,
			       const sl_knode *target, const sl_knode *options, const sl_knode *at,
			       enum patch_from from)
{
	if (target && n > 1 && from != FROM_JSON6902 && docs[0]->type != SL_NODE_SEQ)
		return sl_kustomize__issue(c, "kustomize-invalid", at, "Multiple Strategic-Merge Patches in one "
			     "`patches` entry is not allowed to set `patches.target` field");
	for (size_t d = 0; d < n; d++) {
		const sl_knode *p = docs[d];
		bool ops = from == FROM_JSON6902 || p->type == SL_NODE_SEQ;
		if (ops && !target)
			return sl_kustomize__issue(c, "kustomize-invalid", at, "must specify a target for JSON patch");
		if (!target) {
			/* the one resource with the patch's id (any id it had in the build) */
			char g[256];
			const char *v, *k = sl_knode_str(p, "kind");
			sl_kustomize__group_version(p, g, sizeof g, &v);
			size_t hit = SIZE_MAX, hits = 0;
			for (size_t i = 0; i < acc->n; i++)
				if (sl_kustomize__known_as(&acc->v[i], g, v, k ? k : "", sl_kustomize__name_of(p) ? sl_kustomize__name_of(p) : "",
					     sl_kustomize__eff_ns(k, sl_kustomize__ns_of(p))) && hits++ == 0)
					hit = i;
			if (hits == 1) {
				if (!merge_into(c, acc, &hit, p, options, false))
					return false;
				continue;
			}
			const char *id = res_id(c->a, p);
			if (!id)
				return false;
			const char *why = sl_arena_printf(c->a, "%s for Id %s; failed to find unique "
							  "target for patch %s", hits ? "multiple "
							  "matches" : "no matches", id, id);
			const char *kust = why && from == FROM_PATCHES ?
					   sl_arena_printf(c->a, "no resource matches strategic merge "
							   "patch \"%s\": %s", id, why) : why;
			const char *notes = kust ? sl_arena_printf(c->a, "kustomize: %s\nA patch "
								   "without a target names its resource "
								   "by apiVersion, kind, name and namespace, "
								   "as a base wrote them or as a transformer "
								   "renamed them; kubectl kustomize refuses "
								   "the build", kust) : NULL;
			if (!notes)
				return false;
			if (hits)
				return sl_kustomize__issue_n(c, "kustomize-invalid", at, notes, "multiple matches for Id "
					       "%s (%zu resources): a patch without a target must match "
					       "one", id, hits);
			return from == FROM_PSM ? sl_kustomize__issue_n(c, "kustomize-invalid", at, notes, "no "
							  "matches for Id %s", id)
						: sl_kustomize__issue_n(c, "kustomize-invalid", at, notes, "no resource "
							  "matches strategic merge patch \"%s\"", id);
		}
		for (size_t i = 0; i < acc->n; i++) {
			if (!selected(acc->v[i].obj, &acc->v[i], target))
				continue;
			if (!ops) {
				if (!merge_into(c, acc, &i, p, options, true))
					return false;
				continue;
			}
			sl_knode *o = acc->v[i].obj;
			if (from == FROM_PATCHES && !sl_kustomize__store_prev(c, &acc->v[i]))
				return false;
			const sl_knode *bad = NULL;
			const char *why = NULL;
			int r = sl_kpatch_json6902(c->a, o, p, &why, &bad);
			if (r < 0)
				return false;
			if (r == 2)
				return sl_kustomize__limit(c, bad ? bad : at, why);
			if (r > 0) {
				const char *kind = sl_knode_str(o, "kind"), *name = sl_kustomize__name_of(o);
				const char *notes = sl_arena_printf(c->a, "kustomize applies the JSON 6902 "
								    "operations to %s %s as the build has it "
								    "here and stops with this error "
								    "(evanphx/json-patch's words); kubectl "
								    "kustomize refuses the build",
								    kind ? kind : "?", name ? name : "?");
				return notes && sl_kustomize__issue_n(c, "kustomize-invalid", bad ? bad : at, notes,
							"%s (%s %s)", why, kind ? kind : "?", name ? name : "?");
			}
		}
	}
	return true;
}
