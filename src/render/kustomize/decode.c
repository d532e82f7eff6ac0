/* SPDX-License-Identifier: Apache-2.0
** decode.c: a kustomization read as kustomize reads it (api/types Kustomization.Unmarshal):
** the YAML turned into JSON (sigs.k8s.io/yaml: YAML 1.1 types, a repeated key's last value,
** keys in sorted order) and decoded by encoding/json into Go structs with unknown fields
** disallowed: field names matched exactly, else ignoring case; a value of the wrong type, or a
** key no struct has, refused with Go's words ("invalid Kustomization: json: unknown field
** \"X\""), the first in that order as Go reports it. Then FixKustomization (the legacy fields
** folded into their successors), CheckEmpty and EnforceFields. The result is the kustomization
** as a knode map under the fields' own names, each value with its origin, what the rest of the
** builder reads. */
#include "render/kustomize/internal.h"

/* The Go types of kustomize's kustomization (api/types, kyaml/resid), as encoding/json sees
** them: each struct's fields by their JSON names, embedded (inline) structs' fields among
** their own. */
enum ftype {
	T_STR, T_BOOL, T_INT,      /* a scalar of that Go type */
	T_MAP_STR, T_MAP_BOOL,     /* map[string]string, map[string]bool */
	T_LIST_STR,                /* []string */
	T_STRUCT, T_LIST_STRUCT,   /* a struct (or a pointer to one), a slice of them */
	T_ANY                      /* taken as it is (Helm's values: never built) */
};

struct gostruct;
struct gofield {
	const char *name;            /* the JSON name */
	enum ftype t;
	const struct gostruct *s;    /* T_STRUCT, T_LIST_STRUCT */
	const char *go;              /* the Go type as the messages name it */
};
struct gostruct {
	const char *name;            /* as the messages name it */
	const struct gofield *f;     /* ending with {NULL} */
};

#define END {NULL, 0, NULL, NULL}
#define S(n) {n, T_STR, NULL, "string"}
#define B(n) {n, T_BOOL, NULL, "bool"}
#define LS(n) {n, T_LIST_STR, NULL, "[]string"}
#define MS(n) {n, T_MAP_STR, NULL, "map[string]string"}

static const struct gostruct fieldspec = {"FieldSpec", (const struct gofield[]){
	S("group"), S("version"), S("kind"), S("path"), B("create"), END}};
static const struct gostruct selector = {"Selector", (const struct gofield[]){
	S("group"), S("version"), S("kind"), S("name"), S("namespace"), S("annotationSelector"),
	S("labelSelector"), END}};
static const struct gostruct label = {"Label", (const struct gofield[]){
	MS("pairs"), B("includeSelectors"), B("includeTemplates"),
	{"fields", T_LIST_STRUCT, &fieldspec, "[]types.FieldSpec"}, END}};
static const struct gostruct patch = {"Patch", (const struct gofield[]){
	S("path"), S("patch"), {"target", T_STRUCT, &selector, "types.Selector"},
	{"options", T_MAP_BOOL, NULL, "map[string]bool"}, END}};
static const struct gostruct image = {"Image", (const struct gofield[]){
	S("name"), S("newName"), S("tagSuffix"), S("newTag"), S("digest"), END}};
static const struct gostruct fieldoptions = {"FieldOptions", (const struct gofield[]){
	S("delimiter"), {"index", T_INT, NULL, "int"}, S("encoding"), B("create"), END}};
static const struct gostruct sourcesel = {"SourceSelector", (const struct gofield[]){
	S("group"), S("version"), S("kind"), S("name"), S("namespace"), S("fieldPath"),
	{"options", T_STRUCT, &fieldoptions, "types.FieldOptions"}, END}};
static const struct gostruct targetsel = {"TargetSelector", (const struct gofield[]){
	{"select", T_STRUCT, &selector, "types.Selector"},
	{"reject", T_LIST_STRUCT, &selector, "[]*types.Selector"}, LS("fieldPaths"),
	{"options", T_STRUCT, &fieldoptions, "types.FieldOptions"}, END}};
static const struct gostruct replacementfield = {"ReplacementField", (const struct gofield[]){
	{"source", T_STRUCT, &sourcesel, "types.SourceSelector"},
	{"targets", T_LIST_STRUCT, &targetsel, "[]*types.TargetSelector"}, S("path"), END}};
static const struct gostruct replica = {"Replica", (const struct gofield[]){
	S("name"), {"count", T_INT, NULL, "int64"}, END}};
static const struct gostruct target = {"Target", (const struct gofield[]){
	S("apiVersion"), S("group"), S("version"), S("kind"), S("name"), S("namespace"), END}};
static const struct gostruct fieldselector = {"FieldSelector", (const struct gofield[]){
	S("fieldPath"), END}};
static const struct gostruct var = {"Var", (const struct gofield[]){
	S("name"), {"objref", T_STRUCT, &target, "types.Target"},
	{"fieldref", T_STRUCT, &fieldselector, "types.FieldSelector"}, END}};
static const struct gostruct legacysort = {"LegacySortOptions", (const struct gofield[]){
	LS("orderFirst"), LS("orderLast"), END}};
static const struct gostruct sortoptions = {"SortOptions", (const struct gofield[]){
	{"order", T_STR, NULL, "types.SortOrder"},
	{"legacySortOptions", T_STRUCT, &legacysort, "types.LegacySortOptions"}, END}};
static const struct gostruct genoptions = {"GeneratorOptions", (const struct gofield[]){
	MS("labels"), MS("annotations"), B("disableNameSuffixHash"), B("immutable"), END}};
static const struct gostruct cmargs = {"ConfigMapArgs", (const struct gofield[]){
	S("namespace"), S("name"), S("behavior"), LS("literals"), LS("files"), LS("envs"), S("env"),
	{"options", T_STRUCT, &genoptions, "types.GeneratorOptions"}, END}};
static const struct gostruct secretargs = {"SecretArgs", (const struct gofield[]){
	S("namespace"), S("name"), S("behavior"), LS("literals"), LS("files"), LS("envs"), S("env"),
	{"options", T_STRUCT, &genoptions, "types.GeneratorOptions"}, S("type"), END}};
static const struct gostruct objectmeta = {"ObjectMeta", (const struct gofield[]){
	S("name"), S("namespace"), MS("labels"), MS("annotations"), END}};
static const struct gostruct kustomization = {"Kustomization", (const struct gofield[]){
	S("kind"), S("apiVersion"),
	{"metadata", T_STRUCT, &objectmeta, "types.ObjectMeta"},
	{"openapi", T_MAP_STR, NULL, "map[string]string"},
	S("namePrefix"), S("nameSuffix"), S("namespace"), MS("commonLabels"),
	{"labels", T_LIST_STRUCT, &label, "[]types.Label"}, MS("commonAnnotations"),
	LS("patchesStrategicMerge"), {"patchesJson6902", T_LIST_STRUCT, &patch, "[]types.Patch"},
	{"patches", T_LIST_STRUCT, &patch, "[]types.Patch"},
	{"images", T_LIST_STRUCT, &image, "[]types.Image"},
	{"imageTags", T_LIST_STRUCT, &image, "[]types.Image"},
	{"replacements", T_LIST_STRUCT, &replacementfield, "[]types.ReplacementField"},
	{"replicas", T_LIST_STRUCT, &replica, "[]types.Replica"},
	{"vars", T_LIST_STRUCT, &var, "[]types.Var"},
	{"sortOptions", T_STRUCT, &sortoptions, "types.SortOptions"},
	LS("resources"), LS("components"), LS("crds"), LS("bases"),
	{"configMapGenerator", T_LIST_STRUCT, &cmargs, "[]types.ConfigMapArgs"},
	{"secretGenerator", T_LIST_STRUCT, &secretargs, "[]types.SecretArgs"},
	{"helmGlobals", T_ANY, NULL, NULL}, {"helmCharts", T_ANY, NULL, NULL},
	{"helmChartInflationGenerator", T_ANY, NULL, NULL},
	{"generatorOptions", T_STRUCT, &genoptions, "types.GeneratorOptions"},
	LS("configurations"), LS("generators"), LS("transformers"), LS("validators"),
	LS("buildMetadata"), END}};

/* --- values as JSON sees them -------------------------------------------------------------- */

/* What JSON value a node becomes (sigs.k8s.io/yaml: YAML 1.1 types): encoding/json's words for
** it in a type error. */
static const char *json_kind(const sl_knode *n)
{
	if (n->type == SL_NODE_MAP)
		return "object";
	if (n->type == SL_NODE_SEQ)
		return "array";
	if (n->quoted)
		return "string";
	switch (sl_scalar_text_type(n->s, n->len)) {
	case SL_Y_NULL: return "null";
	case SL_Y_BOOL: return "bool";
	case SL_Y_INT: case SL_Y_FLOAT: return "number";
	default: return "string";
	}
}

struct dec {
	struct ctx *c;
	const char *path[16];   /* the JSON names from the top, for the messages */
	size_t depth;
	const sl_knode *bad;    /* the first error's node */
	const char *err;        /* and its text ("json: ..."), in the build's arena */
};

/* Records the first error only, as encoding/json reports the first it saved. */
static void fail(struct dec *d, const sl_knode *at, const char *err)
{
	if (!d->err) {
		d->bad = at;
		d->err = err ? err : "json: out of memory";
	}
}

/* "cannot unmarshal KIND into Go struct field S.a.b of type T" for value v. */
static void type_error(struct dec *d, const sl_knode *v, const struct gostruct *s, const char *go)
{
	char path[512];
	size_t w = 0;
	for (size_t i = 0; i < d->depth && w < sizeof path; i++)
		w += (size_t)snprintf(path + w, sizeof path - w, "%s%s", i ? "." : "", d->path[i]);
	const char *kind = json_kind(v);
	bool number_into_int = strcmp(kind, "number") == 0 && (strcmp(go, "int64") == 0 ||
							       strcmp(go, "int") == 0);
	fail(d, v, sl_arena_printf(d->c->a, "json: cannot unmarshal %s%s%s into Go struct field "
				   "%s.%s of type %s", kind, number_into_int ? " " : "",
				   number_into_int ? v->s : "", s->name, path, go));
}

static bool ascii_fold_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a | 0x20) != (*b | 0x20) || ((*a | 0x20) < 'a' && *a != *b) ||
		    ((*a | 0x20) > 'z' && *a != *b))
			return false;
	return !*a && !*b;
}

/* The field of s that JSON key k names: exactly, else ignoring case (encoding/json). */
static const struct gofield *field_of(const struct gostruct *s, const char *k)
{
	for (const struct gofield *f = s->f; f->name; f++)
		if (strcmp(f->name, k) == 0)
			return f;
	for (const struct gofield *f = s->f; f->name; f++)
		if (ascii_fold_eq(f->name, k))
			return f;
	return NULL;
}

static int cmp_entry(const void *x, const void *y)
{
	const sl_knode *const *a = x, *const *b = y;
	int r = strcmp(a[0]->s, b[0]->s);
	return r ? r : (a[2] > b[2]) - (a[2] < b[2]);   /* the order written: the last wins */
}

static sl_knode *decode_value(struct dec *d, const sl_knode *v, const struct gostruct *owner,
			      const struct gofield *f);

/* A map's entries as sigs.k8s.io/yaml hands them to encoding/json: one per key (the last
** written), in sorted order; *n of them, as (key, value) pairs. */
static const sl_knode **entries(struct dec *d, const sl_knode *m, size_t *n)
{
	/* [key, value, position] triples, sorted by key then position */
	const sl_knode **e = sl_arena_alloc(d->c->a, (m->n ? m->n : 1) * 3 * sizeof *e);
	if (!e)
		return NULL;
	for (size_t i = 0; i < m->n; i++) {
		e[3 * i] = m->k[i];
		e[3 * i + 1] = m->v[i];
		e[3 * i + 2] = (const sl_knode *)(uintptr_t)(i + 1);
	}
	qsort(e, m->n, 3 * sizeof *e, cmp_entry);
	size_t w = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (i + 1 < m->n && strcmp(e[3 * i]->s, e[3 * (i + 1)]->s) == 0)
			continue;   /* a later one with the same key wins */
		e[2 * w] = e[3 * i];
		e[2 * w + 1] = e[3 * i + 1];
		w++;
	}
	*n = w;
	return e;
}

/* A struct: its fields by their own names, the unknown ones and the wrong types refused. */
static sl_knode *decode_struct(struct dec *d, const sl_knode *v, const struct gostruct *s)
{
	sl_knode *out = sl_knode_new(d->c->a, SL_NODE_MAP, v->src, v->start, v->end);
	size_t n;
	const sl_knode **e = out ? entries(d, v, &n) : NULL;
	if (!e)
		return NULL;
	for (size_t i = 0; i < n && !d->err; i++) {
		const sl_knode *k = e[2 * i], *val = e[2 * i + 1];
		const struct gofield *f = k->type == SL_NODE_SCALAR ? field_of(s, k->s) : NULL;
		if (!f) {
			fail(d, k, sl_arena_printf(d->c->a, "json: unknown field \"%s\"", k->s));
			break;
		}
		if (d->depth == sizeof d->path / sizeof *d->path)
			return out;
		d->path[d->depth++] = f->name;
		sl_knode *nv = decode_value(d, val, s, f);
		d->depth--;
		if (d->err)
			break;
		if (!nv)
			return NULL;
		size_t at;
		if (sl_knode_is_null(val)) {   /* the zero value: as if absent */
			if (sl_knode_get(out, f->name, &at))
				sl_knode_remove(out, at);
			continue;
		}
		sl_knode *key = sl_knode_scalar(d->c->a, f->name, k->src, k->start, k->end);
		if (!key || !sl_knode_set(d->c->a, out, f->name, nv))
			return NULL;
		sl_knode_get(out, f->name, &at);
		out->k[at] = key;   /* the key as written is where a finding about it points */
	}
	return out;
}

/* A scalar of Go type t (T_STR, T_BOOL, T_INT), its error for a value of another type. */
static bool scalar_ok(struct dec *d, const sl_knode *v, enum ftype t, const struct gostruct *owner,
		      const char *go)
{
	const char *kind = json_kind(v);
	bool ok = strcmp(kind, "null") == 0 ||
		  (t == T_STR && strcmp(kind, "string") == 0) ||
		  (t == T_BOOL && strcmp(kind, "bool") == 0) ||
		  (t == T_INT && strcmp(kind, "number") == 0 &&
		   sl_scalar_text_type(v->s, v->len) == SL_Y_INT);
	if (!ok)
		type_error(d, v, owner, go);
	return ok;
}

static sl_knode *decode_value(struct dec *d, const sl_knode *v, const struct gostruct *owner,
			      const struct gofield *f)
{
	sl_arena *a = d->c->a;
	if (f->t == T_ANY || sl_knode_is_null(v))
		return (sl_knode *)v;
	switch (f->t) {
	case T_STR: case T_BOOL: case T_INT:
		return scalar_ok(d, v, f->t, owner, f->go) ? (sl_knode *)v : NULL;
	case T_MAP_STR: case T_MAP_BOOL: {
		if (v->type != SL_NODE_MAP) {
			type_error(d, v, owner, f->go);
			return NULL;
		}
		size_t n;
		const sl_knode **e = entries(d, v, &n);
		sl_knode *out = e ? sl_knode_new(a, SL_NODE_MAP, v->src, v->start, v->end) : NULL;
		for (size_t i = 0; out && i < n && !d->err; i++) {
			const sl_knode *val = e[2 * i + 1];
			if (!scalar_ok(d, val, f->t == T_MAP_STR ? T_STR : T_BOOL, owner,
				       f->t == T_MAP_STR ? "string" : "bool"))
				return NULL;
			/* a null value is the zero value: "" (kustomize writes annotation: "") */
			sl_knode *nv = sl_knode_is_null(val) ?
				       sl_knode_scalar(a, f->t == T_MAP_STR ? "" : "false", val->src,
						       val->start, val->end) : (sl_knode *)val;
			if (nv && sl_knode_is_null(val))
				nv->quoted = true;
			if (!nv || !sl_knode_set(a, out, e[2 * i]->s, nv))
				return NULL;
			out->k[out->n - 1] = (sl_knode *)e[2 * i];
		}
		return out;
	}
	case T_LIST_STR: case T_LIST_STRUCT: {
		if (v->type != SL_NODE_SEQ) {
			type_error(d, v, owner, f->go);
			return NULL;
		}
		sl_knode *out = sl_knode_new(a, SL_NODE_SEQ, v->src, v->start, v->end);
		for (size_t i = 0; out && i < v->n && !d->err; i++) {
			const sl_knode *it = v->v[i];
			sl_knode *nv;
			if (f->t == T_LIST_STR) {
				if (!scalar_ok(d, it, T_STR, owner, "string"))
					return NULL;
				nv = (sl_knode *)it;
			} else if (sl_knode_is_null(it)) {
				nv = sl_knode_new(a, SL_NODE_MAP, it->src, it->start, it->end);
			} else if (it->type != SL_NODE_MAP) {
				type_error(d, it, owner, f->go + 2 + (f->go[2] == '*'));
				return NULL;
			} else {
				nv = decode_struct(d, it, f->s);
			}
			if (d->err)
				return NULL;
			if (!nv || !sl_knode_insert(a, out, out->n, nv))
				return NULL;
		}
		return out;
	}
	case T_STRUCT:
		if (v->type != SL_NODE_MAP) {
			type_error(d, v, owner, f->go);
			return NULL;
		}
		return decode_struct(d, v, f->s);
	default:
		return (sl_knode *)v;
	}
}

/* --- FixKustomization, CheckEmpty, EnforceFields ------------------------------------------ */

/* Appends the items of root's legacy list from to its list to (made when missing). */
static bool fold_list(sl_arena *a, sl_knode *root, const char *to, const char *from)
{
	size_t at;
	sl_knode *old = sl_knode_get(root, from, &at);
	if (!old)
		return true;
	sl_knode_remove(root, at);
	sl_knode *dst = sl_knode_get(root, to, NULL);
	if (!dst) {
		sl_knode *k = sl_knode_new(a, SL_NODE_SEQ, old->src, old->start, old->end);
		if (!k || !sl_knode_set(a, root, to, k))
			return false;
		dst = k;
	}
	for (size_t i = 0; i < old->n; i++)
		if (!sl_knode_insert(a, dst, dst->n, old->v[i]))
			return false;
	return true;
}

/* A generator's legacy env: one more of its envs. */
static bool fold_env(sl_arena *a, sl_knode *gens)
{
	for (size_t i = 0; gens && i < gens->n; i++) {
		size_t at;
		sl_knode *g = gens->v[i], *env = sl_knode_get(g, "env", &at);
		if (!env)
			continue;
		sl_knode_remove(g, at);
		sl_knode *envs = sl_knode_get(g, "envs", NULL);
		if (!envs) {
			if (!(envs = sl_knode_new(a, SL_NODE_SEQ, env->src, env->start, env->end)) ||
			    !sl_knode_set(a, g, "envs", envs))
				return false;
		}
		if (!sl_knode_insert(a, envs, envs->n, env))
			return false;
	}
	return true;
}

sl_knode *sl_kustomize__decode(struct ctx *c, const sl_knode *raw, const char *dir,
			       const sl_knode *ref)
{
	struct dec d = {c, {0}, 0, NULL, NULL};
	sl_knode *root = raw->type == SL_NODE_MAP ? decode_struct(&d, raw, &kustomization) : NULL;
	if (d.err) {
		const char *notes = sl_arena_printf(c->a, "kustomize: invalid Kustomization: %s\n"
						    "kustomize reads a kustomization as Go's JSON "
						    "decoder does: the fields of its types, names "
						    "matched without regard to case, the last of a key "
						    "written twice; kubectl kustomize refuses the build",
						    d.err);
		sl_kustomize__issue_n(c, "kustomize-invalid", d.bad, notes, "invalid Kustomization: %s",
				      d.err);
		return NULL;
	}
	if (!root) {
		if (raw->type != SL_NODE_MAP)
			sl_kustomize__issue(c, "kustomize-invalid", ref ? ref : raw, "invalid "
					    "Kustomization: json: cannot unmarshal %s into Go value "
					    "of type types.Kustomization", json_kind(raw));
		return NULL;
	}
	sl_arena *a = c->a;
	if (!fold_list(a, root, "resources", "bases") || !fold_list(a, root, "images", "imageTags") ||
	    !fold_env(a, sl_knode_get(root, "configMapGenerator", NULL)) ||
	    !fold_env(a, sl_knode_get(root, "secretGenerator", NULL)))
		return NULL;
	const char *kind = sl_knode_str(root, "kind"), *av = sl_knode_str(root, "apiVersion");
	bool empty = true;
	for (size_t i = 0; i < root->n && empty; i++)
		empty = strcmp(root->k[i]->s, "kind") == 0 || strcmp(root->k[i]->s, "apiVersion") == 0;
	if (empty) {
		sl_kustomize__issue(c, "kustomize-invalid", ref ? ref : raw, "kustomization.yaml is "
				    "empty");
		return NULL;
	}
	const char *why = NULL;
	if (kind && *kind && strcmp(kind, "Kustomization") && strcmp(kind, "Component"))
		why = "kind should be Kustomization or Component";
	else if (av && *av && strcmp(av, kind && strcmp(kind, "Component") == 0 ?
					      "kustomize.config.k8s.io/v1alpha1" :
					      "kustomize.config.k8s.io/v1beta1"))
		why = kind && strcmp(kind, "Component") == 0 ?
		      "apiVersion for Component should be kustomize.config.k8s.io/v1alpha1" :
		      "apiVersion for Kustomization should be kustomize.config.k8s.io/v1beta1";
	if (why) {
		const sl_knode *at = sl_knode_get(raw, strstr(why, "kind should") == why ? "kind" :
					      "apiVersion", NULL);
		sl_kustomize__issue_n(c, "kustomize-invalid", at ? at : raw,
				      sl_arena_printf(a, "kustomize: Failed to read kustomization file "
						      "under %s:\n%s", dir, why), "%s", why);
		return NULL;
	}
	return root;
}
