/* SPDX-License-Identifier: Apache-2.0
** kpatch.c: strategic merge, JSON merge and JSON 6902 patches on knode trees, with kustomize
** v5's semantics for what schedlint reads. The list strategies are kubernetes/api's
** patchStrategy/patchMergeKey tags (core/v1 types.go): containers, initContainers,
** ephemeralContainers, volumes, env, imagePullSecrets, volumeMounts and ports merge by their
** key, and so do a webhook configuration's webhooks (admissionregistration/v1 types.go: by name); topologySpreadConstraints by topologyKey and whenUnsatisfiable; metadata.finalizers
** merge as scalars; every other list (tolerations, nodeSelectorTerms, args...) is replaced. The
** directive $patch is kyaml merge2's, on every kind. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "render/kpatch.h"

/* The merge keys of a list field that merges (NULL-terminated; NULL: the list is replaced). */
static const char *const *merge_keys(const char *field, const sl_knode *items)
{
	static const char *const name[] = {"name", NULL};
	static const char *const mount[] = {"mountPath", NULL};
	static const char *const cport[] = {"containerPort", "protocol", NULL};
	static const char *const sport[] = {"port", "protocol", NULL};
	static const char *const spread[] = {"topologyKey", "whenUnsatisfiable", NULL};
	static const char *const by_name[] = {"containers", "initContainers", "ephemeralContainers",
					      "volumes", "env", "imagePullSecrets", "webhooks", NULL};
	for (size_t i = 0; by_name[i]; i++)
		if (strcmp(field, by_name[i]) == 0)
			return name;
	if (strcmp(field, "volumeMounts") == 0)
		return mount;
	if (strcmp(field, "topologySpreadConstraints") == 0)
		return spread;
	if (strcmp(field, "ports") == 0) {
		/* a container's ports merge by containerPort, a Service's by port */
		for (size_t i = 0; items && i < items->n; i++)
			if (sl_knode_get(items->v[i], "containerPort", NULL))
				return cport;
		return sport;
	}
	return NULL;
}

/* True when items a and b have the same merge key values (an absent protocol is TCP). */
static bool same_item(const sl_knode *a, const sl_knode *b, const char *const *keys)
{
	if (a->type != SL_NODE_MAP || b->type != SL_NODE_MAP)
		return false;
	for (size_t i = 0; keys[i]; i++) {
		const char *x = sl_knode_str(a, keys[i]), *y = sl_knode_str(b, keys[i]);
		if (strcmp(keys[i], "protocol") == 0) {
			x = x ? x : "TCP";
			y = y ? y : "TCP";
		}
		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0))
			return false;
	}
	return true;
}

/* kyaml's merge2 (what kustomize merges with) reads one directive, $patch (delete, replace,
** merge), on any kind; every other "$..." key ($setElementOrder/..., $retainKeys) is a field to
** it, merged into the object like any other. */
static bool is_directive(const sl_knode *k)
{
	return k->type == SL_NODE_SCALAR && strcmp(k->s, "$patch") == 0;
}

/* The $patch directive of a list item or a map (NULL: none). */
static const char *directive_of(const sl_knode *n)
{
	return n->type == SL_NODE_MAP ? sl_knode_str(n, "$patch") : NULL;
}

/* True when list item n is only a directive ({$patch: replace}): no item of the result. */
static bool directive_only(const sl_knode *n)
{
	return n->type == SL_NODE_MAP && n->n == 1 && is_directive(n->k[0]);
}

/* A copy of a patch value without its directives (a new field's value). */
static sl_knode *clean_copy(sl_arena *a, const sl_knode *v)
{
	sl_knode *c = sl_knode_copy(a, v);
	if (!c)
		return NULL;
	for (size_t i = 0; c->type == SL_NODE_MAP && i < c->n; ) {
		if (is_directive(c->k[i]) || sl_knode_is_null(c->v[i])) {
			sl_knode_remove(c, i);
			continue;
		}
		if (!(c->v[i] = clean_copy(a, c->v[i])))
			return NULL;
		i++;
	}
	for (size_t i = 0; c->type == SL_NODE_SEQ && i < c->n; ) {
		if (directive_only(c->v[i])) {
			memmove(c->v + i, c->v + i + 1, (c->n - i - 1) * sizeof *c->v);
			c->n--;
			continue;
		}
		if (!(c->v[i] = clean_copy(a, c->v[i])))
			return NULL;
		i++;
	}
	return c;
}

static bool merge_map(sl_arena *a, sl_knode *dst, const sl_knode *patch, bool strategic);

/* Merges list patch into dst by keys, as kustomize (kyaml's merge2) orders it: the patch's items
** first, in its order (each merged into its match), then the items of dst it does not name;
** items with "$patch: delete" remove theirs. */
static bool merge_list(sl_arena *a, sl_knode *dst, const sl_knode *patch, const char *const *keys)
{
	size_t n = dst->n;
	sl_knode **old = sl_arena_alloc(a, (n ? n : 1) * sizeof *old);
	bool *used = sl_arena_zalloc(a, (n ? n : 1) * sizeof *used);
	if (!old || !used)
		return false;
	memcpy(old, dst->v, n * sizeof *old);
	dst->n = 0;
	for (size_t i = 0; i < patch->n; i++) {
		const char *d = directive_of(patch->v[i]);
		if (d && strcmp(d, "replace") == 0 && directive_only(patch->v[i])) {
			/* an item {$patch: replace}: the list is the patch's other items */
			sl_knode *c = clean_copy(a, patch);
			if (!c)
				return false;
			dst->v = c->v;
			dst->n = c->n;
			return true;
		}
	}
	for (size_t i = 0; i < patch->n; i++) {
		const sl_knode *p = patch->v[i];
		size_t at = SIZE_MAX;
		for (size_t j = 0; j < n && at == SIZE_MAX; j++)
			if (!used[j] && same_item(old[j], p, keys))
				at = j;
		if (at != SIZE_MAX)
			used[at] = true;
		const char *directive = directive_of(p);
		if (directive && strcmp(directive, "delete") == 0)
			continue;
		if (directive && strcmp(directive, "replace") == 0 && at != SIZE_MAX) {
			/* kustomize (kyaml's merge2) leaves the matched item as it was */
			if (!sl_knode_insert(a, dst, dst->n, old[at]))
				return false;
			continue;
		}
		sl_knode *item = at != SIZE_MAX ? old[at] : clean_copy(a, p);
		if (!item || (at != SIZE_MAX && !merge_map(a, item, p, true)) ||
		    !sl_knode_insert(a, dst, dst->n, item))
			return false;
	}
	for (size_t j = 0; j < n; j++)
		if (!used[j] && !sl_knode_insert(a, dst, dst->n, old[j]))
			return false;
	return true;
}

/* Merges list of scalars patch into dst: the patch's values, then dst's others. */
static bool merge_scalars(sl_arena *a, sl_knode *dst, const sl_knode *patch)
{
	size_t n = dst->n;
	sl_knode **old = sl_arena_alloc(a, (n ? n : 1) * sizeof *old);
	if (!old)
		return false;
	memcpy(old, dst->v, n * sizeof *old);
	dst->n = 0;
	for (size_t pass = 0; pass < 2; pass++) {
		const sl_knode *const *from = pass ? (const sl_knode *const *)old :
					      (const sl_knode *const *)patch->v;
		for (size_t i = 0; i < (pass ? n : patch->n); i++) {
			const sl_knode *v = from[i];
			bool seen = false;
			for (size_t j = 0; j < dst->n && !seen; j++)
				seen = v->type == SL_NODE_SCALAR && dst->v[j]->type == SL_NODE_SCALAR &&
				       strcmp(v->s, dst->v[j]->s) == 0;
			sl_knode *c = seen ? NULL : pass ? (sl_knode *)v : sl_knode_copy(a, v);
			if (!seen && (!c || !sl_knode_insert(a, dst, dst->n, c)))
				return false;
		}
	}
	return true;
}

static bool merge_map(sl_arena *a, sl_knode *dst, const sl_knode *patch, bool strategic)
{
	const char *directive = sl_knode_str(patch, "$patch");
	if (directive && strcmp(directive, "replace") == 0) {
		sl_knode *c = clean_copy(a, patch);
		if (!c)
			return false;
		*dst = *c;
		return true;
	}
	for (size_t i = 0; i < patch->n; i++) {
		const sl_knode *k = patch->k[i], *pv = patch->v[i];
		if (k->type != SL_NODE_SCALAR || is_directive(k))
			continue;
		size_t at;
		sl_knode *dv = sl_knode_get(dst, k->s, &at);
		if (sl_knode_is_null(pv)) {
			if (dv)
				sl_knode_remove(dst, at);
			continue;
		}
		if (dv && dv->type == SL_NODE_MAP && pv->type == SL_NODE_MAP) {
			const char *d = sl_knode_str(pv, "$patch");
			if (d && strcmp(d, "delete") == 0) {
				sl_knode_remove(dst, at);
				continue;
			}
			if (!merge_map(a, dv, pv, strategic))
				return false;
			continue;
		}
		const char *const *keys = strategic && dv && dv->type == SL_NODE_SEQ &&
					  pv->type == SL_NODE_SEQ ? merge_keys(k->s, dv) : NULL;
		if (keys) {
			if (!merge_list(a, dv, pv, keys))
				return false;
			continue;
		}
		if (strategic && dv && dv->type == SL_NODE_SEQ && pv->type == SL_NODE_SEQ &&
		    strcmp(k->s, "finalizers") == 0) {
			/* ObjectMeta's finalizers: a list of scalars with patchStrategy merge, the
			** patch's values first (kustomize merges with MergeOptionsListPrepend) */
			if (!merge_scalars(a, dv, pv))
				return false;
			continue;
		}
		sl_knode *c = clean_copy(a, pv);
		if (!c)
			return false;
		if (dv) {
			dst->v[at] = c;
			if (!(dst->k[at] = sl_knode_copy(a, k)))
				return false;   /* a value replaced: the pair is the patch's */
		} else {
			sl_knode *kc = sl_knode_copy(a, k);
			if (!kc || !sl_knode_set(a, dst, k->s, c))
				return false;
			dst->k[dst->n - 1] = kc;   /* the key's origin is the patch's key */
		}
	}
	return true;
}

bool sl_kpatch_merge(sl_arena *a, sl_knode *obj, const sl_knode *patch, bool strategic,
		     bool *deleted)
{
	*deleted = false;
	const char *d = sl_knode_str(patch, "$patch");
	if (d && strcmp(d, "delete") == 0) {
		*deleted = true;
		return true;
	}
	return merge_map(a, obj, patch, strategic);
}

/* --- JSON 6902 ------------------------------------------------------------------------------ */

/* kustomize applies JSON 6902 operations with evanphx/json-patch v4 (api/filters/patchjson6902):
** these are its semantics (a replace of a key the object lacks adds it; negative indices count
** from the end; test compares JSON values) and its error texts, which kubectl prints as they
** are. */

struct j6902 {
	sl_arena *a;
	const char *why;     /* the error text, in a */
	bool oom;
	bool limit;          /* why is a limit of schedlint's, not the library's refusal */
	size_t nodes;        /* the object's nodes, and those the operations added */
};

/* Records the error text (false, always). */
static bool fail(struct j6902 *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct j6902 *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	j->why = sl_arena_vprintf(j->a, fmt, ap);
	va_end(ap);
	j->oom |= !j->why;
	return false;
}

/* Go's strconv.Atoi: an optional sign, then decimal digits. NULL when tok parses, else why not. */
static const char *go_atoi(const char *tok, long long *out)
{
	const char *p = tok + (*tok == '+' || *tok == '-');
	if (!*p)
		return "invalid syntax";
	unsigned long long v = 0;
	bool range = false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return "invalid syntax";
		range |= v > (ULLONG_MAX - (unsigned)(*p - '0')) / 10;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (range || v > (unsigned long long)LLONG_MAX + (*tok == '-'))
		return "value out of range";
	*out = *tok == '-' ? (long long)(0 - v) : (long long)v;
	return NULL;
}

/* The index tok names in a sequence (a negative one counts back from limit): below limit (its
** length, or one more to insert), else false with the library's error text. */
static bool seq_index(struct j6902 *j, const char *tok, size_t limit, size_t *idx)
{
	long long i;
	const char *why = go_atoi(tok, &i);
	if (why)
		return fail(j, "strconv.Atoi: parsing \"%s\": %s", tok, why);
	if ((i >= 0 && (unsigned long long)i >= limit) || (i < 0 && (unsigned long long)-i > limit))
		return fail(j, "Unable to access invalid index: %lld: invalid index referenced", i);
	*idx = i >= 0 ? (size_t)i : (size_t)(i + (long long)limit);
	return true;
}

/* The value at tok in container c: *v (NULL for an absent key: Go's nil); false (with the error
** text) when a sequence has no such index. */
static bool con_get(struct j6902 *j, sl_knode *c, const char *tok, sl_knode **v)
{
	if (c->type == SL_NODE_MAP) {
		*v = sl_knode_get(c, tok, NULL);
		return true;
	}
	size_t i;
	/* a negative index below -n fails before the end is checked, as the library does */
	if (!seq_index(j, tok, c->n, &i))
		return false;
	*v = c->v[i];
	return true;
}

/* The RFC 6901 token [p, p + len) decoded ("~1" is "/", "~0" is "~"), in a. */
static char *token(sl_arena *a, const char *p, size_t len)
{
	char *tok = sl_arena_alloc(a, len + 1);
	size_t w = 0;
	for (size_t i = 0; tok && i < len; i++) {
		if (p[i] == '~' && i + 1 < len && (p[i + 1] == '0' || p[i + 1] == '1'))
			tok[w++] = p[++i] == '0' ? '~' : '/';
		else
			tok[w++] = p[i];
	}
	if (tok)
		tok[w] = '\0';
	return tok;
}

/* The library's findObject: the container holding path's last token (*key, decoded); NULL when
** path has no "/" or a step on the way is missing or not a map or a sequence. */
static sl_knode *find_object(struct j6902 *j, sl_knode *root, const char *path, char **key)
{
	const char *p = strchr(path, '/');   /* what precedes the first "/" is not read */
	if (!p)
		return NULL;
	sl_knode *n = root;
	for (p++;; ) {
		const char *e = strchr(p, '/');
		char *tok = token(j->a, p, e ? (size_t)(e - p) : strlen(p));
		if (!tok) {
			j->oom = true;
			return NULL;
		}
		if (!e) {
			*key = tok;
			return n;
		}
		struct j6902 quiet = {j->a, NULL, false, false, 0};
		sl_knode *next = NULL;
		if (!con_get(&quiet, n, tok, &next) || !next ||
		    (next->type != SL_NODE_MAP && next->type != SL_NODE_SEQ))
			return NULL;
		n = next;
		p = e + 1;
	}
}

/* Adds v at tok of container c (a map's key set, a sequence's item inserted; "-" appends). */
static bool con_add(struct j6902 *j, sl_knode *c, const char *tok, sl_knode *v)
{
	if (c->type == SL_NODE_MAP) {
		if (!sl_knode_set(j->a, c, tok, v))
			j->oom = true;
		return !j->oom;
	}
	size_t i = c->n;
	if (strcmp(tok, "-") != 0) {
		long long x;
		const char *why = go_atoi(tok, &x);
		if (why)
			return fail(j, "value was not a proper array index: '%s': strconv.Atoi: "
				    "parsing \"%s\": %s", tok, tok, why);
		if (!seq_index(j, tok, c->n + 1, &i))
			return false;
	}
	if (!sl_knode_insert(j->a, c, i, v))
		j->oom = true;
	return !j->oom;
}

static bool con_remove(struct j6902 *j, sl_knode *c, const char *tok)
{
	size_t i;
	if (c->type == SL_NODE_MAP) {
		if (!sl_knode_get(c, tok, &i))
			return fail(j, "Unable to remove nonexistent key: %s: missing value", tok);
	} else if (!seq_index(j, tok, c->n, &i)) {
		return false;
	}
	sl_knode_remove(c, i);
	return true;
}

/* JSON's view of a scalar: 'n' null, 'b' boolean, '#' number, 's' string. */
static char json_kind(const sl_knode *s)
{
	if (s->quoted)
		return 's';
	switch (sl_scalar_text_type(s->s, s->len)) {
	case SL_Y_NULL: return 'n';
	case SL_Y_BOOL: return 'b';
	case SL_Y_INT: case SL_Y_FLOAT: return '#';
	default: return 's';
	}
}

static bool truthy(const char *s)
{
	return strchr("tTyY", s[0]) || strcmp(s, "on") == 0 || strcmp(s, "On") == 0 ||
	       strcmp(s, "ON") == 0;
}

/* The library's equality of two JSON values (a NULL is JSON's null). */
static bool json_equal(const sl_knode *x, const sl_knode *y)
{
	bool xn = !x || (x->type == SL_NODE_SCALAR && json_kind(x) == 'n');
	bool yn = !y || (y->type == SL_NODE_SCALAR && json_kind(y) == 'n');
	if (xn || yn)
		return xn && yn;
	if (x->type != y->type || x->n != y->n)
		return false;
	if (x->type == SL_NODE_SCALAR) {
		char k = json_kind(x);
		if (k != json_kind(y))
			return false;
		return k == 'b' ? truthy(x->s) == truthy(y->s) :
		       k == '#' ? strtod(x->s, NULL) == strtod(y->s, NULL) : strcmp(x->s, y->s) == 0;
	}
	for (size_t i = 0; i < x->n; i++) {
		const sl_knode *other = x->type == SL_NODE_MAP ? sl_knode_get(y, x->k[i]->s, NULL)
							      : y->v[i];
		if (!other || !json_equal(x->v[i], other))
			return false;   /* a key y lacks (its null is a node), or a value unlike */
	}
	return true;
}

/* False (j->why, j->limit) when value v, put at path, would nest the object deeper than the
** parser's SL_MAX_DEPTH levels, or make it more than SL_MAX_MERGED nodes (added: v is a new
** node, not one moved): a patch that nests values in the previous one's, or copies a list into
** itself until it is a billion nodes, is refused, as a document past the limits is. */
static bool within_limits(struct j6902 *j, const char *path, const sl_knode *v, bool added)
{
	size_t levels = 0, nodes;
	for (const char *p = path; *p; p++)
		levels += *p == '/';
	size_t depth = sl_knode_depth(v, SL_MAX_DEPTH, &nodes, SL_MAX_MERGED);
	if (added)
		j->nodes += nodes;
	if (levels + depth > SL_MAX_DEPTH) {
		j->limit = true;
		return fail(j, "the operation would nest the object deeper than %d levels, the most "
			    "schedlint parses", SL_MAX_DEPTH);
	}
	if (j->nodes > SL_MAX_MERGED) {
		j->limit = true;
		return fail(j, "the operations would make the object more than %u nodes, the most "
			    "schedlint builds from one document", SL_MAX_MERGED);
	}
	return true;
}

/* A copy of the operation's value (absent: JSON's null), for the object. */
static sl_knode *op_value(struct j6902 *j, const sl_knode *op)
{
	const sl_knode *v = sl_knode_get(op, "value", NULL);
	sl_knode *c = v ? sl_knode_copy(j->a, v) : sl_knode_scalar(j->a, "null", op->src, op->start,
								     op->end);
	j->oom |= !c;
	return c;
}

/* One operation on obj; false when it fails (j->why) or out of memory (j->oom). */
static bool apply_op(struct j6902 *j, sl_knode *obj, const sl_knode *op)
{
	const sl_knode *kn = sl_knode_get(op, "op", NULL), *pn = sl_knode_get(op, "path", NULL);
	const sl_knode *fn = sl_knode_get(op, "from", NULL);
	const char *kind = kn && kn->type == SL_NODE_SCALAR && !sl_knode_is_null(kn) ? kn->s : "unknown";
	const char *path = pn && pn->type == SL_NODE_SCALAR && !sl_knode_is_null(pn) ? pn->s : NULL;
	const char *from = fn && fn->type == SL_NODE_SCALAR && !sl_knode_is_null(fn) ? fn->s : NULL;
	static const char no_path[] = "operation missing path field: missing value";
	static const char no_from[] = "operation, missing from field: missing value";
	char *key = NULL;
	sl_knode *c, *v = NULL;
	if (strcmp(kind, "add") == 0) {
		if (!path)
			return fail(j, "add operation failed to decode path: missing value");
		if (!(c = find_object(j, obj, path, &key)))
			return j->oom ? false : fail(j, "add operation does not apply: doc is missing "
						     "path: \"%s\": missing value", path);
		if (!(v = op_value(j, op)) || !within_limits(j, path, v, true))
			return false;
		return con_add(j, c, key, v) ||
		       (!j->oom && fail(j, "error in add for path: '%s': %s", path, j->why));
	}
	if (strcmp(kind, "remove") == 0) {
		if (!path)
			return fail(j, "remove operation failed to decode path: missing value");
		if (!(c = find_object(j, obj, path, &key)))
			return j->oom ? false : fail(j, "remove operation does not apply: doc is "
						     "missing path: \"%s\": missing value", path);
		return con_remove(j, c, key) ||
		       (!j->oom && fail(j, "error in remove for path: '%s': %s", path, j->why));
	}
	if (strcmp(kind, "replace") == 0) {
		if (!path)
			return fail(j, "replace operation failed to decode path: %s", no_path);
		if (!*path) {   /* the whole object */
			if (!(v = op_value(j, op)) || !within_limits(j, path, v, true))
				return false;
			if (v->type != SL_NODE_MAP)
				return fail(j, "replace operation value must be object or array");
			*obj = *v;
			return true;
		}
		if (!(c = find_object(j, obj, path, &key)))
			return j->oom ? false : fail(j, "replace operation does not apply: doc is "
						     "missing path: %s: missing value", path);
		sl_knode *old;
		if (!con_get(j, c, key, &old))
			return fail(j, "replace operation does not apply: doc is missing key: %s: "
				    "missing value", path);
		if (!(v = op_value(j, op)) || !within_limits(j, path, v, true))
			return false;
		if (c->type == SL_NODE_MAP) {   /* set, whether or not the key was there */
			if (!sl_knode_set(j->a, c, key, v))
				j->oom = true;
			return !j->oom;
		}
		size_t i;
		seq_index(j, key, c->n, &i);
		c->v[i] = v;
		return true;
	}
	if (strcmp(kind, "test") == 0) {
		if (!path)
			return fail(j, "test operation failed to decode path: %s", no_path);
		const sl_knode *want = sl_knode_get(op, "value", NULL);
		if (!*path)
			return json_equal(obj, want) ||
			       fail(j, "testing value %s failed: test failed", path);
		if (!(c = find_object(j, obj, path, &key)))
			return j->oom ? false : fail(j, "test operation does not apply: is missing "
						     "path: %s: missing value", path);
		sl_knode *have;
		if (!con_get(j, c, key, &have))
			return fail(j, "error in test for path: '%s': %s", path, j->why);
		/* an absent value only equals an absent or null one (the library's nil) */
		bool ok = want ? json_equal(have, want) : !have || json_equal(have, NULL);
		return ok || fail(j, "testing value %s failed: test failed", path);
	}
	bool move = strcmp(kind, "move") == 0;
	if (move || strcmp(kind, "copy") == 0) {
		if (!from)
			return fail(j, "%s operation failed to decode from: %s", kind, no_from);
		if (!(c = find_object(j, obj, from, &key)))
			return j->oom ? false : fail(j, "%s operation does not apply: doc is missing "
						     "from path: %s: missing value", kind, from);
		if (!con_get(j, c, key, &v))
			return move ? fail(j, "error in move for path: '%s': %s", key, j->why)
				    : fail(j, "error in copy for from: '%s': %s", from, j->why);
		if (move && !con_remove(j, c, key))
			return fail(j, "error in move for path: '%s': %s", key, j->why);
		if (!path)
			return move ? fail(j, "move operation failed to decode path: %s", no_path)
				    : fail(j, "copy operation failed to decode path: missing value");
		if (!(c = find_object(j, obj, path, &key)))
			return j->oom ? false : fail(j, "%s operation does not apply: doc is missing "
						     "destination path: %s: missing value", kind, path);
		/* an absent key copies as null; a copy is a new node, a move the same one */
		v = v ? (move ? v : sl_knode_copy(j->a, v))
		      : sl_knode_scalar(j->a, "null", op->src, op->start, op->end);
		if (!v) {
			j->oom = true;
			return false;
		}
		if (!within_limits(j, path, v, !move))
			return false;
		if (con_add(j, c, key, v))
			return true;
		return !j->oom && (move ? fail(j, "error in move for path: '%s': %s", path, j->why)
					: fail(j, "error while adding value during copy: %s", j->why));
	}
	return fail(j, "Unexpected kind: %s", kind);
}

int sl_kpatch_json6902(sl_arena *a, sl_knode *obj, const sl_knode *ops, const char **why,
		       const sl_knode **at)
{
	*at = ops;
	*why = "json: cannot unmarshal object into Go value of type jsonpatch.Patch";
	if (!ops || ops->type != SL_NODE_SEQ)
		return 1;
	struct j6902 j = {a, NULL, false, false, 0};
	sl_knode_depth(obj, SL_MAX_DEPTH, &j.nodes, SL_MAX_MERGED);
	for (size_t i = 0; i < ops->n; i++) {
		*at = ops->v[i];
		if (ops->v[i]->type != SL_NODE_MAP) {
			*why = "json: cannot unmarshal array into Go value of type jsonpatch.Operation";
			return 1;
		}
		if (!apply_op(&j, obj, ops->v[i])) {
			*why = j.why;
			return j.oom ? -1 : j.limit ? 2 : 1;
		}
	}
	*at = NULL;
	*why = NULL;
	return 0;
}
