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

/* A map of strings as encoding/json writes it (keys sorted; keys: room for them). */
static void json_map(sl_strbuf *b, const sl_knode *data, sl_knode **keys)
{
	size_t n = data->n;
	for (size_t i = 0; i < n; i++)
		keys[i] = data->k[i];
	if (n)
		qsort(keys, n, sizeof *keys, cmp_keys);
	sl_strbuf_addstr(b, "{");
	for (size_t i = 0; i < n; i++) {
		const sl_knode *v = sl_knode_get(data, keys[i]->s, NULL);
		if (i)
			sl_strbuf_addstr(b, ",");
		json_str(b, keys[i]->s);
		sl_strbuf_addstr(b, ":");
		json_str(b, v && v->type == SL_NODE_SCALAR ? v->s : "");
	}
	sl_strbuf_addstr(b, "}");
}

/* kustomize's hash of a generated ConfigMap or Secret: SHA-256 of
** {"data":{...},"kind":"ConfigMap","name":"..."} (keys sorted, as Go's encoding/json), the first
** ten hex digits with 0 1 3 a e written g h k m t. */
static void json_map(sl_strbuf *b, const sl_knode *data, sl_knode **keys);

static bool name_hash(const char *kind, const char *name, const sl_knode *data,
		      const sl_knode *binary, const char *type, char out[11])
{
	sl_strbuf b = {0};
	size_t nb = binary ? binary->n : 0, n = data ? data->n : 0;
	sl_knode **bkeys = nb ? sl_xmalloc(nb * sizeof *bkeys) : NULL;
	sl_knode **keys = n ? sl_xmalloc(n * sizeof *keys) : NULL;
	if ((nb && !bkeys) || (n && !keys)) {
		free(bkeys);
		free(keys);
		return false;
	}
	sl_strbuf_addstr(&b, "{");
	if (binary) {   /* encodeConfigMap: binaryData when it is a map */
		json_str(&b, "binaryData");
		sl_strbuf_addstr(&b, ":");
		json_map(&b, binary, bkeys);
		sl_strbuf_addstr(&b, ",");
	}
	json_str(&b, "data");
	sl_strbuf_addstr(&b, ":");
	if (data)
		json_map(&b, data, keys);
	else
		json_str(&b, "");   /* no data: getNodeValues' "" */
	sl_strbuf_addstr(&b, ",");
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
	free(bkeys);
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

/* s base64-encoded, in a, as kyaml's encodeBase64 writes a Secret's data and a ConfigMap's
** binaryData: 70 characters a line, each line ending in a newline once there are 70 or more. */
static char *base64(sl_arena *a, const char *s, size_t n)
{
	size_t enc = (n + 2) / 3 * 4, lines = enc / 70 + 1;
	char *out = sl_arena_alloc(a, enc + lines + 1), *w = out;
	const unsigned char *p = (const unsigned char *)s;
	size_t col = 0;
	for (size_t i = 0; out && i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		char q[4] = {B64[v >> 18 & 63], B64[v >> 12 & 63], i + 1 < n ? B64[v >> 6 & 63] : '=',
			     i + 2 < n ? B64[v & 63] : '='};
		for (int k = 0; k < 4; k++) {
			*w++ = q[k];
			if (++col == 70 && lines > 1) {
				*w++ = '\n';
				col = 0;
			}
		}
	}
	if (out && lines > 1 && col)
		*w++ = '\n';
	if (out)
		*w = '\0';
	return out;
}

/* Adds key = value (origin at) to a generator's data; a Secret's values base64-encoded. A key
** already there (in data or its binaryData) is refused, as kustomize's makeValidatedDataMap
** refuses it (name: the generator's). */
struct kv_to {
	sl_knode *data;      /* the generator's data (its binaryData a map under "\x01binaryData") */
	sl_knode *to;        /* where this pair goes: data or its binaryData */
	const char *name;    /* the generator's name */
	const sl_knode *where;   /* where a repeated key is reported (NULL: at) */
};

static bool put_kv(struct ctx *c, const struct kv_to *t, const char *key, size_t klen,
		   const char *val, size_t vlen, const sl_knode *at, bool secret)
{
	sl_arena *a = c->a;
	char *k = sl_arena_strndup(a, key, klen);
	sl_knode *data = t->to;
	if (k && (sl_knode_get(t->data, k, NULL) ||
		  sl_knode_get(sl_knode_get(t->data, "\x01binaryData", NULL), k, NULL)))
		return sl_kustomize__issue(c, "kustomize-invalid", t->where ? t->where : at,
					   "configmap %s illegally repeats the key `%s`", t->name, k);
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
	const char *name = sl_knode_str(e, "name");
	name = name ? name : "";
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
				if (q < le && *q != '#' && eq) {
					sl_knode *line = sl_knode_new(c->a, SL_NODE_SCALAR, f->src,
								      (uint32_t)(q - f->src->data),
								      (uint32_t)(le - f->src->data));
					/* the value's origin: its bytes in the env file */
					uint32_t vs = (uint32_t)(eq + 1 - f->src->data);
					sl_knode *val = sl_knode_new(c->a, SL_NODE_SCALAR, f->src, vs,
								     vs + (uint32_t)vl);
					struct kv_to kt = {data, data, name, line};
					if (!line || !val ||
					    !put_kv(c, &kt, q, (size_t)(eq - q), eq + 1, vl, val, secret))
						return false;
				}
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
		struct kv_to kt = {data, to, name, NULL};
		if (!put_kv(c, &kt, key, eq ? (size_t)(eq - it->s) : strlen(key), f->src->data,
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
		struct kv_to kt = {data, data, name, NULL};
		if (!put_kv(c, &kt, l->s, (size_t)(eq - l->s), v, vl, l, secret))
			return false;
	}
	return true;
}

/* configMapGenerator / secretGenerator: envs, files and literals; behavior create, merge
** (into the ConfigMap of that name a base made) or replace. The hash suffix comes last
** (finish_hashes), as kustomize adds it after every transformer. */
static bool is_true(const sl_knode *opts, const char *key)
{
	const char *v = sl_knode_str(opts, key);
	return v && strcmp(v, "true") == 0;
}

/* Sets the pairs of map from in obj's metadata map key (labels, annotations): kustomize's
** mergeStringMaps, the later map winning (an existing object's, then the generator's). */
static bool add_meta(sl_arena *a, sl_knode *obj, const char *key, const sl_knode *from)
{
	if (!from || from->type != SL_NODE_MAP || !from->n)
		return true;
	sl_knode *md = sl_knode_path(a, obj, (const char *const[]){"metadata", NULL}, true,
				     from->src, from->start, from->end);
	sl_knode *m = md ? sl_knode_get(md, key, NULL) : NULL;
	if (md && (!m || m->type != SL_NODE_MAP)) {
		if (!(m = sl_knode_new(a, SL_NODE_MAP, from->src, from->start, from->end)) ||
		    !sl_knode_set(a, md, key, m))
			return false;
	}
	for (size_t i = 0; m && i < from->n; i++) {
		sl_knode *v = sl_knode_copy(a, from->v[i]);
		if (!v)
			return false;
		v->quoted = true;   /* label and annotation values are strings */
		if (!sl_knode_set(a, m, from->k[i]->s, v))
			return false;
	}
	return m != NULL;
}

/* A generator's options over the kustomization's generatorOptions (kustomize's
** MergeGlobalOptionsIntoLocal: its own labels and annotations win, either's
** disableNameSuffixHash or immutable holds), applied to its object (a new one, or the one it
** merges into or replaces: appendReplaceOrMerge): labels, annotations and immutable set;
** *hash unless the suffix is disabled. */
static bool apply_options(sl_arena *a, sl_knode *obj, const sl_knode *e, const sl_knode *global,
			  bool *hash)
{
	const sl_knode *local = sl_knode_get(e, "options", NULL);
	static const char *const maps[] = {"labels", "annotations"};
	for (size_t i = 0; i < 2; i++)   /* the global ones, then the generator's own over them */
		if (!add_meta(a, obj, maps[i], sl_knode_get(global, maps[i], NULL)) ||
		    !add_meta(a, obj, maps[i], sl_knode_get(local, maps[i], NULL)))
			return false;
	*hash = !is_true(local, "disableNameSuffixHash") && !is_true(global, "disableNameSuffixHash");
	if (is_true(local, "immutable") || is_true(global, "immutable")) {
		sl_knode *t = sl_knode_scalar(a, "true", e->src, e->start, e->end);
		if (!t || !sl_knode_set(a, obj, "immutable", t))
			return false;
	}
	return true;
}

bool sl_kustomize__generate(struct ctx *c, struct acc *acc, const sl_knode *list,
			    const sl_knode *opts, const char *kind, const char *dir)
{
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
			/* appendReplaceOrMerge: the new object's labels and annotations over the old
			** one's, its hash option */
			if (!apply_options(a, old->obj, e, opts, &old->hash))
				return false;
			continue;
		}
		/* kustomize's appendReplaceOrMerge: a created object's id is new, among the
		** resources and the generators before it */
		const char *cens = sl_kustomize__eff_ns(kind, sl_knode_str(e, "namespace"));
		for (size_t i = 0; i < acc->n; i++)
			if (sl_kustomize__known_as(&acc->v[i], "", "v1", kind, name->s, cens))
				return sl_kustomize__issue_n(c, "kustomize-invalid", e,
							     sl_arena_printf(c->a, "kustomize: merging "
									     "from generator: id %s %s "
									     "exists; behavior must be "
									     "merge or replace", kind,
									     name->s),
							     "id %s %s exists; behavior must be merge or "
							     "replace", kind, name->s);
		size_t bat;
		sl_knode *bin = sl_knode_get(data, "\x01binaryData", &bat);
		if (bin)
			sl_knode_remove(data, bat);
		sl_knode *obj = sl_knode_new(a, SL_NODE_MAP, name->src, name->start, name->end);
		sl_knode *md = sl_knode_new(a, SL_NODE_MAP, name->src, name->start, name->end);
		if (!obj || !md)
			return false;
		const char *type = secret ? (sl_knode_str(e, "type") ? sl_knode_str(e, "type") : "Opaque") : NULL;
		sl_knode *nm = sl_knode_copy(a, name);
		if (!nm || !sl_knode_set(a, obj, "apiVersion", sl_knode_scalar(a, "v1", name->src, name->start, name->end)) ||
		    !sl_knode_set(a, obj, "kind", sl_knode_scalar(a, kind, name->src, name->start, name->end)) ||
		    !sl_knode_set(a, md, "name", nm) || !sl_knode_set(a, obj, "metadata", md) ||
		    (type && !sl_knode_set(a, obj, "type", sl_knode_scalar(a, type, e->src, e->start, e->end))) ||
		    ((data->n || secret) && !sl_knode_set(a, obj, "data", data)) || (bin && !sl_knode_set(a, obj, "binaryData", bin)))
			return false;
		const sl_knode *ns = sl_knode_get(e, "namespace", NULL);
		if (ns && !sl_knode_set(a, md, "namespace", sl_knode_copy(a, ns)))
			return false;
		bool hash;
		if (!apply_options(a, obj, e, opts, &hash) || !sl_kustomize__add_res(acc, obj))
			return false;
		acc->v[acc->n - 1].hash = hash;
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
		bool secret = strcmp(kind, "Secret") == 0;
		const sl_knode *bin = secret ? NULL : sl_knode_get(o, "binaryData", NULL);
		if (!nm || !name_hash(kind, "", sl_knode_get(o, "data", NULL),
				      bin && bin->type == SL_NODE_MAP ? bin : NULL,
				      secret ? sl_knode_str(o, "type") : NULL, h))
			return false;
		sl_knode *nn = sl_knode_copy(c->a, nm);
		if (!nn || !(nn->s = sl_arena_printf(c->a, "%s-%s", nm->s, h)))
			return false;
		nn->len = strlen(nn->s);
		if (!sl_kustomize__store_prev(c, &acc->v[i]))
			return false;   /* kustomize's HashTransformer: the references follow it */
		md->v[at] = nn;
	}
	return true;
}
