/* SPDX-License-Identifier: Apache-2.0
** kpatch.c: strategic merge, JSON merge and JSON 6902 patches on knode trees, with kustomize
** v5's semantics for what schedlint reads. The list strategies are kubernetes/api's
** patchStrategy/patchMergeKey tags (core/v1 types.go): containers, initContainers,
** ephemeralContainers, volumes, env, imagePullSecrets, volumeMounts and ports merge by their
** key; topologySpreadConstraints by topologyKey and whenUnsatisfiable; every other list
** (tolerations, nodeSelectorTerms, args...) is replaced. */
#include <stdlib.h>
#include <string.h>
#include "kpatch.h"

/* The merge keys of a list field that merges (NULL-terminated; NULL: the list is replaced). */
static const char *const *merge_keys(const char *field, const sl_knode *items)
{
	static const char *const name[] = {"name", NULL};
	static const char *const mount[] = {"mountPath", NULL};
	static const char *const cport[] = {"containerPort", "protocol", NULL};
	static const char *const sport[] = {"port", "protocol", NULL};
	static const char *const spread[] = {"topologyKey", "whenUnsatisfiable", NULL};
	static const char *const by_name[] = {"containers", "initContainers", "ephemeralContainers",
					      "volumes", "env", "imagePullSecrets", NULL};
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

static bool is_directive(const sl_knode *k)
{
	return k->type == SL_NODE_SCALAR && k->s[0] == '$';
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
	for (size_t i = 0; c->type == SL_NODE_SEQ && i < c->n; i++)
		if (!(c->v[i] = clean_copy(a, c->v[i])))
			return NULL;
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
		const sl_knode *p = patch->v[i];
		size_t at = SIZE_MAX;
		for (size_t j = 0; j < n && at == SIZE_MAX; j++)
			if (!used[j] && same_item(old[j], p, keys))
				at = j;
		if (at != SIZE_MAX)
			used[at] = true;
		const char *directive = p->type == SL_NODE_MAP ? sl_knode_str(p, "$patch") : NULL;
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

static bool merge_map(sl_arena *a, sl_knode *dst, const sl_knode *patch, bool strategic)
{
	const char *directive = strategic ? sl_knode_str(patch, "$patch") : NULL;
	if (directive && strcmp(directive, "replace") == 0) {
		sl_knode *c = clean_copy(a, patch);
		if (!c)
			return false;
		*dst = *c;
		return true;
	}
	for (size_t i = 0; i < patch->n; i++) {
		const sl_knode *k = patch->k[i], *pv = patch->v[i];
		if (k->type != SL_NODE_SCALAR || (strategic && is_directive(k)))
			continue;
		size_t at;
		sl_knode *dv = sl_knode_get(dst, k->s, &at);
		if (sl_knode_is_null(pv)) {
			if (dv)
				sl_knode_remove(dst, at);
			continue;
		}
		if (dv && dv->type == SL_NODE_MAP && pv->type == SL_NODE_MAP) {
			const char *d = strategic ? sl_knode_str(pv, "$patch") : NULL;
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
	const char *d = strategic ? sl_knode_str(patch, "$patch") : NULL;
	if (d && strcmp(d, "delete") == 0) {
		*deleted = true;
		return true;
	}
	return merge_map(a, obj, patch, strategic);
}

/* --- JSON 6902 ------------------------------------------------------------------------------ */

/* The parent of the node a JSON pointer names and its last token (decoded, in a). */
static sl_knode *resolve(sl_arena *a, sl_knode *root, const char *ptr, char **last)
{
	if (ptr[0] != '/')
		return NULL;
	sl_knode *n = root;
	const char *p = ptr + 1;
	for (;;) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *tok = sl_arena_alloc(a, len + 1);
		if (!tok)
			return NULL;
		size_t w = 0;
		for (size_t i = 0; i < len; i++) {
			if (p[i] == '~' && i + 1 < len && (p[i + 1] == '0' || p[i + 1] == '1')) {
				tok[w++] = p[i + 1] == '0' ? '~' : '/';
				i++;
			} else {
				tok[w++] = p[i];
			}
		}
		tok[w] = '\0';
		if (!e) {
			*last = tok;
			return n;
		}
		if (n->type == SL_NODE_MAP) {
			n = sl_knode_get(n, tok, NULL);
		} else if (n->type == SL_NODE_SEQ) {
			char *end;
			unsigned long i = strtoul(tok, &end, 10);
			n = *tok && !*end && i < n->n ? n->v[i] : NULL;
		} else {
			n = NULL;
		}
		if (!n)
			return NULL;
		p = e + 1;
	}
}

/* The index a token names in sequence s (the end for "-" when end_ok); SIZE_MAX when none. */
static size_t seq_index(const sl_knode *s, const char *tok, bool end_ok)
{
	if (end_ok && strcmp(tok, "-") == 0)
		return s->n;
	char *end;
	unsigned long i = strtoul(tok, &end, 10);
	if (!*tok || *end || i > s->n || (!end_ok && i == s->n))
		return SIZE_MAX;
	return i;
}

const char *sl_kpatch_json6902(sl_arena *a, sl_knode *obj, const sl_knode *ops,
			       const sl_knode **at)
{
	if (!ops || ops->type != SL_NODE_SEQ)
		return "a JSON 6902 patch is a list of operations";
	for (size_t i = 0; i < ops->n; i++) {
		const sl_knode *op = ops->v[i];
		*at = op;
		const char *name = sl_knode_str(op, "op"), *path = sl_knode_str(op, "path");
		const sl_knode *value = sl_knode_get(op, "value", NULL);
		if (!name || !path)
			return "an operation needs op and path";
		if (strcmp(name, "test") == 0)
			continue;   /* kustomize's tests compare values; nothing changes */
		if (strcmp(name, "move") == 0 || strcmp(name, "copy") == 0)
			return "move and copy operations are not supported";
		char *last = NULL;
		sl_knode *parent = resolve(a, obj, path, &last);
		if (!parent)
			return "its path names nothing in the object";
		bool add = strcmp(name, "add") == 0, replace = strcmp(name, "replace") == 0;
		bool remove = strcmp(name, "remove") == 0;
		if (!add && !replace && !remove)
			return "unknown operation";
		sl_knode *c = NULL;
		if (!remove && !value)
			return "add and replace need a value";
		if (!remove && !(c = sl_knode_copy(a, value)))
			return "out of memory";
		if (parent->type == SL_NODE_MAP) {
			size_t idx;
			bool has = sl_knode_get(parent, last, &idx) != NULL;
			if (!has && !add)
				return "its path names nothing in the object";
			if (remove) {
				sl_knode_remove(parent, idx);
			} else if (has) {
				if (!sl_knode_set(a, parent, last, c))
					return "out of memory";
			} else {
				sl_knode *kc = sl_knode_scalar(a, last, c->src, c->start, c->end);
				if (!kc || !sl_knode_set(a, parent, last, c))
					return "out of memory";
				parent->k[parent->n - 1] = kc;
			}
		} else if (parent->type == SL_NODE_SEQ) {
			size_t idx = seq_index(parent, last, add);
			if (idx == SIZE_MAX)
				return "its index is out of range";
			if (remove)
				sl_knode_remove(parent, idx);
			else if (replace)
				parent->v[idx] = c;
			else if (!sl_knode_insert(a, parent, idx, c))
				return "out of memory";
		} else {
			return "its path names nothing in the object";
		}
	}
	*at = NULL;
	return NULL;
}
