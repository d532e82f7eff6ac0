/* SPDX-License-Identifier: Apache-2.0
** knode.c: the tree Kustomize builds in, each node with its origin, and its YAML text. The text
** is block style with every key and every non-plain scalar double-quoted (JSON escapes, which
** YAML's double-quoted style shares), plain scalars as they were written: parsed again it gives
** the same types, and each emitted node's bytes map back to its origin (sl_knode_span). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/knode.h"

sl_knode *sl_knode_new(sl_arena *a, uint8_t type, const sl_source *src, uint32_t start,
		       uint32_t end)
{
	sl_knode *k = sl_arena_zalloc(a, sizeof *k);
	if (k) {
		k->type = type;
		k->src = src;
		k->start = start;
		k->end = end;
		k->s = "";
	}
	return k;
}

sl_knode *sl_knode_scalar(sl_arena *a, const char *s, const sl_source *src, uint32_t start,
			  uint32_t end)
{
	sl_knode *k = sl_knode_new(a, SL_NODE_SCALAR, src, start, end);
	if (k && !(k->s = sl_arena_strndup(a, s, strlen(s))))
		return NULL;
	if (k)
		k->len = strlen(s);
	return k;
}

static bool grow(sl_arena *a, sl_knode *n)
{
	if (n->n < n->cap)
		return true;
	size_t cap = n->cap ? n->cap * 2 : 4;
	sl_knode **v = sl_arena_alloc(a, cap * sizeof *v), **k = NULL;
	if (!v || (n->type == SL_NODE_MAP && !(k = sl_arena_alloc(a, cap * sizeof *k))))
		return false;
	if (n->n) {
		memcpy(v, n->v, n->n * sizeof *v);
		if (k)
			memcpy(k, n->k, n->n * sizeof *k);
	}
	n->v = v;
	n->k = k;
	n->cap = cap;
	return true;
}

/* A load's state: what aliases and merge keys made so far, against the plain parser's limits. */
struct load {
	sl_arena *a;
	const sl_source *src;
	size_t aliases;        /* aliases followed, each time one is met */
	size_t expanded;       /* nodes made inside an alias or a merged entry */
	const char *why;       /* the limit crossed, NULL: none */
};

static sl_knode *load(struct load *l, const sl_node *n, size_t depth, bool through)
{
	if (n && n->type == SL_NODE_ALIAS) {
		through = true;
		if (++l->aliases > SL_MAX_ALIASES) {
			l->why = sl_arena_printf(l->a, "the document's aliases expand to more than %d "
						 "aliases (a YAML alias bomb?), the most schedlint "
						 "follows in one document", SL_MAX_ALIASES);
			return NULL;
		}
	}
	n = sl_node_deref(n);
	if (!n)
		return NULL;
	if (through && ++l->expanded > SL_MAX_MERGED) {
		l->why = sl_arena_printf(l->a, "the document's aliases and merge keys expand to more "
					 "than %u nodes (a YAML alias bomb?), the most schedlint "
					 "builds from one document", SL_MAX_MERGED);
		return NULL;
	}
	if (n->type != SL_NODE_SCALAR && depth >= SL_MAX_DEPTH) {
		l->why = sl_arena_printf(l->a, "the document's aliases nest it deeper than %d levels, "
					 "the most schedlint parses", SL_MAX_DEPTH);
		return NULL;
	}
	sl_knode *k = sl_knode_new(l->a, n->type, l->src, n->start, n->end);
	if (!k)
		return NULL;
	if (n->type == SL_NODE_SCALAR) {
		k->s = n->u.scalar.s ? n->u.scalar.s : "";
		k->len = n->u.scalar.len;
		k->quoted = n->style != SL_STYLE_PLAIN;
	} else if (n->type == SL_NODE_MAP) {
		for (size_t i = 0; i < sl_map_n(n); i++) {
			const sl_pair *p = sl_map_pair(n, i);
			bool merged = through || p->key->parent != n;   /* an entry "<<" brought */
			sl_knode *kk = load(l, p->key, depth + 1, merged);
			sl_knode *vv = kk ? load(l, p->value, depth + 1, merged) : NULL;
			if (!kk || !vv || !grow(l->a, k))
				return NULL;
			k->k[k->n] = kk;
			k->v[k->n++] = vv;
		}
	} else {
		for (size_t i = 0; i < n->u.seq.n; i++) {   /* the items as written: aliases met */
			sl_knode *vv = load(l, n->u.seq.items[i], depth + 1, through);
			if (!vv || !grow(l->a, k))
				return NULL;
			k->v[k->n++] = vv;
		}
	}
	return k;
}

sl_knode *sl_knode_load(sl_arena *a, const sl_node *n, const sl_source *src, const char **why)
{
	struct load l = {a, src, 0, 0, NULL};
	sl_knode *k = load(&l, n, 0, false);
	*why = k ? NULL : l.why;
	return k;
}

static size_t depth_of(const sl_knode *n, size_t most, size_t *nodes, size_t nodes_most)
{
	if (nodes && ++*nodes > nodes_most)
		return 0;   /* counted far enough: the caller refuses anyway */
	if (n->type == SL_NODE_SCALAR)
		return 0;
	size_t deepest = 0;
	for (size_t i = 0; i < n->n && deepest < most && (!nodes || *nodes <= nodes_most); i++) {
		if (nodes && n->type == SL_NODE_MAP)
			++*nodes;
		size_t d = depth_of(n->v[i], most - 1, nodes, nodes_most);
		if (d > deepest)
			deepest = d;
	}
	return deepest + 1;
}

size_t sl_knode_depth(const sl_knode *n, size_t most, size_t *nodes, size_t nodes_most)
{
	if (nodes)
		*nodes = 0;
	return depth_of(n, most, nodes_most ? nodes : NULL, nodes_most);
}

sl_knode *sl_knode_copy(sl_arena *a, const sl_knode *n)
{
	sl_knode *k = sl_arena_alloc(a, sizeof *k);
	if (!k)
		return NULL;
	*k = *n;
	k->k = k->v = NULL;
	k->n = k->cap = 0;
	for (size_t i = 0; i < n->n; i++) {
		sl_knode *vv = sl_knode_copy(a, n->v[i]);
		sl_knode *kk = n->type == SL_NODE_MAP ? sl_knode_copy(a, n->k[i]) : NULL;
		if (!vv || (n->type == SL_NODE_MAP && !kk) || !grow(a, k))
			return NULL;
		if (kk)
			k->k[k->n] = kk;
		k->v[k->n++] = vv;
	}
	return k;
}

sl_knode *sl_knode_get(const sl_knode *n, const char *key, size_t *at)
{
	if (!n || n->type != SL_NODE_MAP)
		return NULL;
	for (size_t i = 0; i < n->n; i++)
		if (n->k[i]->type == SL_NODE_SCALAR && strcmp(n->k[i]->s, key) == 0) {
			if (at)
				*at = i;
			return n->v[i];
		}
	return NULL;
}

const char *sl_knode_str(const sl_knode *n, const char *key)
{
	const sl_knode *v = sl_knode_get(n, key, NULL);
	return v && v->type == SL_NODE_SCALAR && !sl_knode_is_null(v) ? v->s : NULL;
}

bool sl_knode_set(sl_arena *a, sl_knode *n, const char *key, sl_knode *v)
{
	if (n->type != SL_NODE_MAP)
		return false;   /* a caller's mistake (fuzz_kustomize found one): never a write */
	size_t at;
	bool had = sl_knode_get(n, key, &at) != NULL;
	/* a new key, or a value replaced: the pair is the setter's (a finding at the key points
	** at the patch or kustomization line that set the value) */
	sl_knode *k = sl_knode_scalar(a, key, v->src, v->start, v->end);
	if (had) {
		if (!k)
			return false;
		n->k[at] = k;
		n->v[at] = v;
		return true;
	}
	if (!k || !grow(a, n))
		return false;
	n->k[n->n] = k;
	n->v[n->n++] = v;
	return true;
}

void sl_knode_remove(sl_knode *n, size_t i)
{
	if (i >= n->n)
		return;
	memmove(n->v + i, n->v + i + 1, (n->n - i - 1) * sizeof *n->v);
	if (n->type == SL_NODE_MAP)
		memmove(n->k + i, n->k + i + 1, (n->n - i - 1) * sizeof *n->k);
	n->n--;
}

bool sl_knode_insert(sl_arena *a, sl_knode *n, size_t at, sl_knode *v)
{
	if (!grow(a, n))
		return false;
	if (at > n->n)
		at = n->n;
	memmove(n->v + at + 1, n->v + at, (n->n - at) * sizeof *n->v);
	n->v[at] = v;
	n->n++;
	return true;
}

sl_knode *sl_knode_path(sl_arena *a, sl_knode *n, const char *const *path, bool make,
			const sl_source *src, uint32_t start, uint32_t end)
{
	for (; n && *path; path++) {
		if (n->type != SL_NODE_MAP)
			return NULL;
		sl_knode *next = sl_knode_get(n, *path, NULL);
		if (!next || sl_knode_is_null(next)) {
			if (!make)
				return NULL;
			next = sl_knode_new(a, SL_NODE_MAP, src, start, end);
			if (!next || !sl_knode_set(a, n, *path, next))
				return NULL;
		}
		n = next;
	}
	return n;
}

bool sl_knode_is_null(const sl_knode *n)
{
	return n && n->type == SL_NODE_SCALAR && !n->quoted &&
	       (n->len == 0 || strcmp(n->s, "null") == 0 || strcmp(n->s, "~") == 0 ||
		strcmp(n->s, "Null") == 0 || strcmp(n->s, "NULL") == 0);
}

/* --- the text ------------------------------------------------------------------------------ */

struct out {
	sl_strbuf *text;
	sl_knode_span **spans;
	size_t *n_spans, *spans_cap;
	bool oom;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (!o->oom && !sl_strbuf_add(o->text, s, n))
		o->oom = true;
}

static void indent(struct out *o, size_t n)
{
	if (!o->oom && !sl_strbuf_addch(o->text, ' ', n))
		o->oom = true;
}

/* Records that [start, now) came from n. */
static void span(struct out *o, size_t start, const sl_knode *n)
{
	if (o->oom)
		return;
	if (*o->n_spans == *o->spans_cap) {
		size_t cap = *o->spans_cap ? *o->spans_cap * 2 : 256;
		sl_knode_span *ns = sl_xrealloc(*o->spans, cap * sizeof *ns);
		if (!ns) {
			o->oom = true;
			return;
		}
		*o->spans = ns;
		*o->spans_cap = cap;
	}
	(*o->spans)[(*o->n_spans)++] = (sl_knode_span){(uint32_t)start, (uint32_t)o->text->len,
								 n->src, n->start, n->end};
}

/* A scalar: plain as written when it was plain and fits on a line, else double-quoted. */
static void scalar(struct out *o, const sl_knode *n, bool key)
{
	size_t at = o->text->len;
	bool plain = !n->quoted && n->len && !memchr(n->s, '\n', n->len) && !key;
	if (plain) {
		put(o, n->s, n->len);
	} else if (!n->quoted && !n->len && !key) {
		put(o, "null", 4);
	} else {
		put(o, "\"", 1);
		for (size_t i = 0; i < n->len; i++) {
			size_t run = i;   /* the bytes that need no escape go in one piece */
			while (run < n->len && n->s[run] != '"' && n->s[run] != '\\' &&
			       (unsigned char)n->s[run] >= 0x20 && n->s[run] != 0x7f)
				run++;
			if (run > i) {
				put(o, n->s + i, run - i);
				if ((i = run) == n->len)
					break;
			}
			unsigned char c = (unsigned char)n->s[i];
			char esc[8];
			if (c == '"' || c == '\\') {
				esc[0] = '\\';
				esc[1] = (char)c;
				put(o, esc, 2);
			} else if (c < 0x20 || c == 0x7f) {
				snprintf(esc, sizeof esc, "\\x%02x", c);
				put(o, esc, 4);
			} else {
				put(o, (const char *)&c, 1);
			}
		}
		put(o, "\"", 1);
	}
	span(o, at, n);
}

static void node(struct out *o, const sl_knode *n, size_t ind);

/* A value after "key:" or "-": inline for scalars and empty collections, else on the next lines. */
static void value(struct out *o, const sl_knode *v, size_t ind)
{
	if (v->type == SL_NODE_SCALAR) {
		put(o, " ", 1);
		scalar(o, v, false);
		put(o, "\n", 1);
	} else if (!v->n) {
		size_t at = o->text->len + 1;
		put(o, v->type == SL_NODE_MAP ? " {}\n" : " []\n", 4);
		if (!o->oom) {
			o->text->len--;
			span(o, at, v);
			o->text->len++;
		}
	} else {
		put(o, "\n", 1);
		node(o, v, ind);
	}
}

static void node(struct out *o, const sl_knode *n, size_t ind)
{
	size_t at = o->text->len + ind;
	for (size_t i = 0; i < n->n; i++) {
		indent(o, ind);
		if (n->type == SL_NODE_MAP) {
			scalar(o, n->k[i], true);
			put(o, ":", 1);
			value(o, n->v[i], ind + 2);
		} else {
			put(o, "-", 1);
			value(o, n->v[i], ind + 2);
		}
	}
	if (!o->oom && o->text->len > at) {
		o->text->len--;   /* the span ends before the last line break */
		span(o, at, n);
		o->text->len++;
	}
}

bool sl_knode_emit(const sl_knode *n, sl_strbuf *text, sl_knode_span **spans, size_t *n_spans,
		   size_t *spans_cap)
{
	struct out o = {text, spans, n_spans, spans_cap, text->failed};
	put(&o, "---\n", 4);
	if (n->type == SL_NODE_SCALAR) {
		scalar(&o, n, false);
		put(&o, "\n", 1);
	} else if (n->n) {
		node(&o, n, 0);
	} else {
		put(&o, n->type == SL_NODE_MAP ? "{}\n" : "[]\n", 3);
	}
	return !o.oom;
}
