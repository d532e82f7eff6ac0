/* SPDX-License-Identifier: Apache-2.0
** generators.c: configMapGenerator and secretGenerator: the generated objects, and the
** names kustomize hashes from their content. */
#include "render/kustomize/internal.h"

/* Appends s as a JSON string the way Go's encoding/json writes it (HTML characters escaped). */
static bool json_str(sl_strbuf *b, const char *s)
{
	sl_strbuf_addch(b, '"', 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sl_strbuf_addf(b, "\\%c", *p);
		else if (*p == '\n')
			sl_strbuf_addstr(b, "\\n");
		else if (*p == '\r')
			sl_strbuf_addstr(b, "\\r");
		else if (*p == '\t')
			sl_strbuf_addstr(b, "\\t");
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
			sl_strbuf_addf(b, "\\u%04x", *p);
		else
			sl_strbuf_add(b, p, 1);
	}
	return sl_strbuf_addch(b, '"', 1);
}

static int cmp_keys(const void *x, const void *y)
{
	return strcmp((*(sl_knode *const *)x)->s, (*(sl_knode *const *)y)->s);
}

/* kustomize's hash of a generated ConfigMap or Secret: SHA-256 of
** {"data":{...},"kind":"ConfigMap","name":"..."} (keys sorted, as Go's encoding/json), the first
** ten hex digits with 0 1 3 a e written g h k m t. */
static bool name_hash(const char *kind, const char *name, const sl_knode *data, const char *type,
		      char out[11])
{
	sl_strbuf b = {0};
	sl_knode **keys = data && data->n ? sl_xmalloc(data->n * sizeof *keys) : NULL;
	if (data && data->n && !keys)
		return false;
	size_t n = data ? data->n : 0;
	for (size_t i = 0; i < n; i++)
		keys[i] = data->k[i];
	if (n)
		qsort(keys, n, sizeof *keys, cmp_keys);
	sl_strbuf_addstr(&b, "{");
	json_str(&b, "data");
	sl_strbuf_addstr(&b, ":{");
	for (size_t i = 0; i < n; i++) {
		const sl_knode *v = sl_knode_get(data, keys[i]->s, NULL);
		if (i)
			sl_strbuf_addstr(&b, ",");
		json_str(&b, keys[i]->s);
		sl_strbuf_addstr(&b, ":");
		json_str(&b, v ? v->s : "");
	}
	sl_strbuf_addstr(&b, "},");
	json_str(&b, "kind");
	sl_strbuf_addstr(&b, ":");
	json_str(&b, kind);
	sl_strbuf_addstr(&b, ",");
	json_str(&b, "name");
	sl_strbuf_addstr(&b, ":");
	json_str(&b, name);
	if (type) {
		sl_strbuf_addstr(&b, ",");
		json_str(&b, "type");
		sl_strbuf_addstr(&b, ":");
		json_str(&b, type);
	}
	sl_strbuf_addstr(&b, "}");
	free(keys);
	if (b.failed) {
		sl_strbuf_free(&b);
		return false;
	}
	sl_sha256 sh;
	char hex[65];
	sl_sha256_init(&sh);
	sl_sha256_update(&sh, b.s, b.len);
	sl_sha256_hex(&sh, hex);
	sl_strbuf_free(&b);
	memcpy(out, hex, 10);
	for (int i = 0; i < 10; i++)
		out[i] = out[i] == '0' ? 'g' : out[i] == '1' ? 'h' : out[i] == '3' ? 'k' :
			 out[i] == 'a' ? 'm' : out[i] == 'e' ? 't' : out[i];
	out[10] = '\0';
	return true;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* s base64-encoded, in a. */
static char *base64(sl_arena *a, const char *s, size_t n)
{
	char *out = sl_arena_alloc(a, (n + 2) / 3 * 4 + 1), *w = out;
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; out && i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		*w++ = B64[v >> 18 & 63];
		*w++ = B64[v >> 12 & 63];
		*w++ = i + 1 < n ? B64[v >> 6 & 63] : '=';
		*w++ = i + 2 < n ? B64[v & 63] : '=';
	}
	if (out)
		*w = '\0';
	return out;
}

/* Adds key = value (origin at) to a generator's data; a Secret's values base64-encoded. */
static bool put_kv(struct ctx *c, sl_knode *data, const char *key, size_t klen, const char *val,
		   size_t vlen, const sl_knode *at, bool secret)
{
	sl_arena *a = c->a;
	char *k = sl_arena_strndup(a, key, klen);
	const char *v = secret ? base64(a, val, vlen) : sl_arena_strndup(a, val, vlen);
	sl_knode *vn = v ? sl_knode_scalar(a, v, at->src, at->start, at->end) : NULL;
	if (!k || !vn)
		return false;
	vn->quoted = true;
	return sl_knode_set(a, data, k, vn);
}

/* A generator's data from its envs, files and literals (kustomize's order). */
static bool gen_data(struct ctx *c, const sl_knode *e, const char *dir, sl_knode *data, bool secret)
{
	static const char *const envs[] = {"env", "envs"};
	for (size_t k = 0; k < 2; k++) {
		const sl_knode *list = sl_knode_get(e, envs[k], NULL);
		const sl_knode *one = list && list->type == SL_NODE_SCALAR ? list : NULL;
		for (size_t i = 0; list && i < (one ? 1 : list->n); i++) {
			const sl_knode *it = one ? one : list->v[i];
			if (it->type != SL_NODE_SCALAR)
				return sl_kustomize__issue(c, "kustomize-invalid", it, "an env file is a path");
			const char *what = sl_arena_printf(c->a, "loading KV pairs: env source files: "
							   "[%s]", it->s);
			struct kfile *f = what ? sl_kustomize__input_capped(c, it, dir, it->s, what,
								     SL_KUSTOMIZE_GENERATOR_MAX) : NULL;
			if (!f)
				return false;
			const char *t = f->src->data, *end = t + f->src->len;
			while (t < end) {
				const char *nl = memchr(t, '\n', (size_t)(end - t)), *le = nl ? nl : end;
				const char *q = t;
				while (q < le && (*q == ' ' || *q == '\t'))
					q++;
				const char *eq = q < le ? memchr(q, '=', (size_t)(le - q)) : NULL;
				size_t vl = eq ? (size_t)(le - eq - 1) : 0;
				if (eq && vl && eq[vl] == '\r')
					vl--;
				if (q < le && *q != '#' && eq &&
				    !put_kv(c, data, q, (size_t)(eq - q), eq + 1, vl, it, secret))
					return false;
				t = nl ? nl + 1 : end;
			}
		}
	}
	const sl_knode *files = sl_knode_get(e, "files", NULL);
	for (size_t i = 0; files && i < files->n; i++) {
		const sl_knode *it = files->v[i];
		if (it->type != SL_NODE_SCALAR)
			return false;
		const char *eq = strchr(it->s, '='), *path = eq ? eq + 1 : it->s;
		const char *base = strrchr(path, '/');
		const char *what = sl_arena_printf(c->a, "loading KV pairs: file sources: [%s]", it->s);
		struct kfile *f = what ? sl_kustomize__input_capped(c, it, dir, path, what,
							     SL_KUSTOMIZE_GENERATOR_MAX) : NULL;
		if (!f)
			return false;
		const char *key = eq ? it->s : base ? base + 1 : path;
		/* bytes that are not UTF-8 go to binaryData, base64-encoded, as kustomize does */
		bool binary = !secret && f->src->bad_what;
		sl_knode *to = data;
		if (binary) {
			to = sl_knode_get(data, "\x01binaryData", NULL);
			if (!to && (!(to = sl_knode_new(c->a, SL_NODE_MAP, it->src, it->start, it->end)) ||
				    !sl_knode_set(c->a, data, "\x01binaryData", to)))
				return false;
		}
		if (!put_kv(c, to, key, eq ? (size_t)(eq - it->s) : strlen(key), f->src->data,
			    f->src->len, it, secret || binary))
			return false;
	}
	const sl_knode *lits = sl_knode_get(e, "literals", NULL);
	for (size_t i = 0; lits && i < lits->n; i++) {
		const sl_knode *l = lits->v[i];
		const char *eq = l->type == SL_NODE_SCALAR ? strchr(l->s, '=') : NULL;
		if (!eq)
			return sl_kustomize__issue(c, "kustomize-invalid", l, "a literal is KEY=VALUE");
		const char *v = eq + 1;
		size_t vl = strlen(v);
		if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0]) {
			v++;
			vl -= 2;
		}
		if (!put_kv(c, data, l->s, (size_t)(eq - l->s), v, vl, l, secret))
			return false;
	}
	return true;
}

/* configMapGenerator / secretGenerator: envs, files and literals; behavior create, merge
** (into the ConfigMap of that name a base made) or replace. The hash suffix comes last
** (finish_hashes), as kustomize adds it after every transformer. */
bool sl_kustomize__generate(struct ctx *c, struct acc *acc, const sl_knode *list,
			    const sl_knode *opts, const char *kind, const char *dir)
{
	const sl_knode *d = sl_knode_get(opts, "disableNameSuffixHash", NULL);
	bool global_off = d && d->type == SL_NODE_SCALAR && strcmp(d->s, "true") == 0;
	bool secret = strcmp(kind, "Secret") == 0;
	sl_arena *a = c->a;
	for (size_t g = 0; list && g < list->n; g++) {
		const sl_knode *e = list->v[g];
		const sl_knode *name = sl_knode_get(e, "name", NULL);
		if (!name || name->type != SL_NODE_SCALAR)
			return sl_kustomize__issue(c, "kustomize-invalid", e, "a generator needs a name");
		const char *behavior = sl_knode_str(e, "behavior");
		sl_knode *data = sl_knode_new(a, SL_NODE_MAP, e->src, e->start, e->end);
		if (!data || !gen_data(c, e, dir, data, secret))
			return false;
		/* kustomize: merge and replace change an existing object; anything else creates */
		if (behavior && (strcmp(behavior, "merge") == 0 || strcmp(behavior, "replace") == 0)) {
			struct kres *old = NULL;
			const char *ens = sl_kustomize__eff_ns(kind, sl_knode_str(e, "namespace"));
			for (size_t i = 0; i < acc->n && !old; i++)
				if (sl_kustomize__known_as(&acc->v[i], "", "v1", kind, name->s, ens))
					old = &acc->v[i];
			if (!old)
				return sl_kustomize__issue(c, "kustomize-invalid", sl_knode_get(e, "behavior", NULL),
					     "id %s %s does not exist; cannot merge or replace", kind, name->s);
			sl_knode *od = sl_knode_get(old->obj, "data", NULL);
			if (strcmp(behavior, "merge") == 0 && od && od->type == SL_NODE_MAP) {
				for (size_t i = 0; i < data->n; i++)
					if (!sl_knode_set(a, od, data->k[i]->s, data->v[i]))
						return false;
			} else if (!sl_knode_set(a, old->obj, "data", data)) {
				return false;
			}
			continue;
		}
		size_t bat;
		sl_knode *bin = sl_knode_get(data, "\x01binaryData", &bat);
		if (bin)
			sl_knode_remove(data, bat);
		sl_knode *obj = sl_knode_new(a, SL_NODE_MAP, name->src, name->start, name->end);
		sl_knode *md = sl_knode_new(a, SL_NODE_MAP, name->src, name->start, name->end);
		if (!obj || !md)
			return false;
		const sl_knode *eo = sl_knode_get(sl_knode_get(e, "options", NULL), "disableNameSuffixHash", NULL);
		bool off = eo ? eo->type == SL_NODE_SCALAR && strcmp(eo->s, "true") == 0 : global_off;
		const char *type = secret ? (sl_knode_str(e, "type") ? sl_knode_str(e, "type") : "Opaque") : NULL;
		sl_knode *nm = sl_knode_copy(a, name);
		if (!nm || !sl_knode_set(a, obj, "apiVersion", sl_knode_scalar(a, "v1", name->src, name->start, name->end)) ||
		    !sl_knode_set(a, obj, "kind", sl_knode_scalar(a, kind, name->src, name->start, name->end)) ||
		    !sl_knode_set(a, md, "name", nm) || !sl_knode_set(a, obj, "metadata", md) ||
		    (type && !sl_knode_set(a, obj, "type", sl_knode_scalar(a, type, e->src, e->start, e->end))) ||
		    (data->n && !sl_knode_set(a, obj, "data", data)) || (bin && !sl_knode_set(a, obj, "binaryData", bin)))
			return false;
		const sl_knode *ns = sl_knode_get(e, "namespace", NULL);
		if (ns && !sl_knode_set(a, md, "namespace", sl_knode_copy(a, ns)))
			return false;
		if (!sl_kustomize__add_res(acc, obj))
			return false;
		acc->v[acc->n - 1].hash = !off;
	}
	return true;
}

/* The hash suffix of every generated object, from what it holds once built, and the references
** to it renamed along. */
bool sl_kustomize__finish_hashes(struct ctx *c, struct acc *acc)
{
	for (size_t i = 0; i < acc->n; i++) {
		if (!acc->v[i].hash)
			continue;
		sl_knode *o = acc->v[i].obj, *md = sl_knode_get(o, "metadata", NULL);
		const char *kind = sl_knode_str(o, "kind");
		size_t at;
		sl_knode *nm = sl_knode_get(md, "name", &at);
		char h[11];
		/* kustomize v5 hashes the object with an empty name */
		if (!nm || !name_hash(kind, "", sl_knode_get(o, "data", NULL),
				      strcmp(kind, "Secret") == 0 ? sl_knode_str(o, "type") : NULL, h))
			return false;
		sl_knode *nn = sl_knode_copy(c->a, nm);
		if (!nn || !(nn->s = sl_arena_printf(c->a, "%s-%s", nm->s, h)))
			return false;
		nn->len = strlen(nn->s);
		md->v[at] = nn;
		sl_kustomize__rename_refs(acc, kind, nm->s, nn);
	}
	return true;
}
