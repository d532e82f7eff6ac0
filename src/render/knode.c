/* SPDX-License-Identifier: Apache-2.0
** knode.c: the tree Kustomize builds in, each node with its origin, and its YAML text. The text
** is block style with every key and every non-plain scalar double-quoted (JSON escapes, which
** YAML's double-quoted style shares), plain scalars as they were written: parsed again it gives
** the same types, and each emitted node's bytes map back to its origin (sl_knode_span). The
** text is read back (sl_knode_read) into the tree a parse makes of it, without libyaml: the
** passes lint a build from it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/knode.h"
#include "util/strmap.h"

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
	if (!n || n->type != SL_NODE_SCALAR || n->quoted)
		return false;
	const char *s = n->s;   /* by its length first: most scalars are none of them */
	return n->len == 0 || (n->len == 1 && s[0] == '~') ||
	       (n->len == 4 && (strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
				strcmp(s, "NULL") == 0));
}

/* What the reader stops at in a double-quoted scalar and in a plain one: the bytes that may
** not be themselves there, and the first bytes of the characters plain_char may refuse. */
#define QUOTED_STOP "\"\\\n\r\t\xc2\xe2\xef"
#define PLAIN_STOP ":#\n\r\t\xc2\xe2\xef"

/* True when the character whose first byte is at p (valid UTF-8: the source said so) is one a
** parse reads as the emitter meant it: not a C1 control, a line break libyaml knows beyond
** "\n" (NEL, LS, PS), a byte order mark, a surrogate or a non-character. */
static bool plain_char(const unsigned char *p)
{
	return !((p[0] == 0xC2 && p[1] < 0xA0) ||
		 (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) ||
		 (p[0] == 0xED && p[1] >= 0xA0) ||
		 (p[0] == 0xEF && ((p[1] == 0xBB && p[2] == 0xBF) || (p[1] == 0xBF && p[2] >= 0xBE))));
}

/* True when a parse reads the len bytes at t (valid UTF-8 without a control byte but tab, CR
** and LF), as the rest of a line, as a plain scalar of exactly those bytes: nothing an indicator
** first ("- " only as a sequence entry, "---" and "..." at a document's root), no ": " or ':'
** last (a key), no " #" (a comment), no blank at either end, no tab or line break, no character
** plain_char refuses. */
static bool plain_is_itself(const unsigned char *t, size_t len, bool root)
{
	if (!len || strchr("?:,[]{}#&*!|>'\"%@` ", t[0]) ||
	    (t[0] == '-' && (len == 1 || t[1] == ' ')) || t[len - 1] == ' ' ||
	    (root && len >= 3 && (memcmp(t, "---", 3) == 0 || memcmp(t, "...", 3) == 0)))
		return false;
	for (size_t i = 0; (i += strcspn((const char *)t + i, PLAIN_STOP)) < len; i++) {
		unsigned char c = t[i];
		if (c == ':' ? i + 1 == len || t[i + 1] == ' '
			     : c == '#' ? t[i - 1] == ' ' : c < 0x80 || !plain_char(t + i))
			return false;   /* a key, a comment, a tab or CR, a character plain_char refuses */
	}
	return true;
}

/* --- the text ------------------------------------------------------------------------------ */

struct out {
	sl_strbuf *text;
	sl_knode_span **spans;
	size_t *n_spans, *spans_cap;
	bool oom;
};

/* Appends s (n bytes): in place while the text has room (the common case, a few bytes at a
** time), else through sl_strbuf_add, which grows it. */
static inline void put(struct out *o, const char *s, size_t n)
{
	sl_strbuf *b = o->text;
	if (!o->oom && b->s && b->cap - b->len > n) {
		memcpy(b->s + b->len, s, n);
		b->len += n;
		b->s[b->len] = '\0';
	} else if (!o->oom && !sl_strbuf_add(b, s, n)) {
		o->oom = true;
	}
}

static void indent(struct out *o, size_t n)
{
	sl_strbuf *b = o->text;
	if (!o->oom && b->s && b->cap - b->len > n) {
		memset(b->s + b->len, ' ', n);
		b->len += n;
		b->s[b->len] = '\0';
	} else if (!o->oom && !sl_strbuf_addch(b, ' ', n)) {
		o->oom = true;
	}
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

/* True when none of the len bytes at s is a control byte. */
static bool no_control(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/* A scalar: plain as written when it was plain and a parse reads it back as itself (a value a
** transformer made, a prefix with ": " or " #", is not), else double-quoted; root: the whole
** document. */
static void scalar(struct out *o, const sl_knode *n, bool key, bool root)
{
	size_t at = o->text->len;
	bool plain = !n->quoted && !key && n->len &&
		     plain_is_itself((const unsigned char *)n->s, n->len, root) &&
		     no_control(n->s, n->len);
	if (plain) {
		put(o, n->s, n->len);
	} else if (!n->quoted && !n->len && !key) {
		put(o, "null", 4);
	} else {
		put(o, "\"", 1);
		for (size_t i = 0; i < n->len; i++) {
			size_t run = i;   /* the bytes that need no escape go in one piece */
			while (run < n->len && ((unsigned char)n->s[run] - 0x20u < 0x5fu ||
						(unsigned char)n->s[run] >= 0x80) &&
			       n->s[run] != '"' && n->s[run] != '\\')
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
				esc[0] = '\\';
				esc[1] = 'x';
				esc[2] = "0123456789abcdef"[c >> 4];
				esc[3] = "0123456789abcdef"[c & 15];
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
		scalar(o, v, false, false);
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
			scalar(o, n->k[i], true, false);
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
		scalar(&o, n, false, true);
		put(&o, "\n", 1);
	} else if (n->n) {
		node(&o, n, 0);
	} else {
		put(&o, n->type == SL_NODE_MAP ? "{}\n" : "[]\n", 3);
	}
	return !o.oom;
}

/* --- the text read back -------------------------------------------------------------------- */

/* The most nested collections the reader makes: below the parser's limit (SL_MAX_DEPTH), and
** libyaml's own, with room to spare (deeper text is parsed). */
#define READ_DEPTH 900

/* Reading text sl_knode_emit wrote (struct out's): the tree sl_tree_parse makes of it, made
** here without libyaml. */
struct reader {
	const char *t;
	size_t n, at;          /* the text, its length, where reading is */
	sl_arena *a;
	sl_node **kids;        /* the children of the collections being read (the parser's stack) */
	size_t n_kids, cap_kids;
	size_t line, line_ind;   /* the line whose indentation was counted last, and that */
	bool oom;
};

static bool read_push(struct reader *r, sl_node *n)
{
	if (r->n_kids == r->cap_kids) {
		size_t cap = r->cap_kids ? r->cap_kids * 2 : 256;
		sl_node **v = sl_xrealloc(r->kids, cap * sizeof *v);
		if (!v) {
			r->oom = true;
			return false;
		}
		r->kids = v;
		r->cap_kids = cap;
	}
	r->kids[r->n_kids++] = n;
	return true;
}

/* A node over [start, end) with room for text bytes after it (a scalar's value), as the parser
** allocates one. */
static sl_node *read_node(struct reader *r, uint8_t type, size_t start, size_t end, size_t text)
{
	sl_node *n = sl_arena_alloc(r->a, sizeof *n + text);
	if (!n)
		r->oom = true;
	else
		*n = (sl_node){.type = type, .start = (uint32_t)start, .end = (uint32_t)end};
	return n;
}

/* The double-quoted scalar at r->at (the emitter's escapes: \" \\ \xHH below 0x80), read up to
** its closing quote. NULL when it holds anything else, or when it is a key (key) a parse cannot
** take as a simple key (libyaml: at most 1024 characters). */
static sl_node *read_quoted(struct reader *r, bool key)
{
	const unsigned char *t = (const unsigned char *)r->t;
	size_t s = r->at, i = s + 1, saved = 0;   /* saved: the bytes escapes take beyond one */
	for (;;) {
		/* up to what is not itself: the text is valid UTF-8 without a control byte but tab,
		** CR and LF (the caller checked), and the text ends in NUL */
		i += strcspn((const char *)t + i, QUOTED_STOP);
		unsigned char c = t[i];
		if (c == '"' && i < r->n)
			break;
		if (c == '\\' && (t[i + 1] == '"' || t[i + 1] == '\\')) {
			i += 2;
			saved += 1;
		} else if (c == '\\' && t[i + 1] == 'x' && t[i + 2] >= '0' && t[i + 2] <= '7' &&
			   t[i + 3] && strchr("0123456789abcdefABCDEF", t[i + 3])) {
			i += 4;
			saved += 3;
		} else if (c >= 0x80 && plain_char(t + i)) {
			i++;
		} else {
			return NULL;   /* an escape it never writes, a line break, a tab, the end */
		}
	}
	size_t e = i + 1, len = i - s - 1 - saved;
	if (len > SL_MAX_SCALAR || (key && e - s > 1000))
		return NULL;
	sl_node *n = read_node(r, SL_NODE_SCALAR, s, e, len + 1);
	if (!n)
		return NULL;
	n->style = SL_STYLE_DOUBLE;
	char *v = (char *)(n + 1);
	for (size_t j = s + 1, k = 0; k < len;) {
		const unsigned char *esc = saved ? memchr(t + j, '\\', i - j) : NULL;
		size_t run = esc ? (size_t)(esc - t) - j : i - j;
		memcpy(v + k, t + j, run);
		k += run;
		j += run;
		if (!esc)
			break;
		if (t[j + 1] != 'x') {
			v[k++] = (char)t[j + 1];
			j += 2;
		} else {
			unsigned char h = t[j + 3];
			v[k++] = (char)((t[j + 2] - '0') * 16 + (h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10));
			j += 4;
		}
	}
	v[len] = '\0';
	n->u.scalar.s = v;
	n->u.scalar.len = len;
	r->at = e;
	return n;
}

/* The plain scalar that is the rest of the line at r->at, when a parse reads it as exactly
** those bytes (plain_is_itself). NULL otherwise. */
static sl_node *read_plain(struct reader *r, bool root)
{
	const unsigned char *t = (const unsigned char *)r->t;
	size_t s = r->at;
	const unsigned char *nl = memchr(t + s, '\n', r->n - s);
	size_t e = nl ? (size_t)(nl - t) : r->n, len = e - s;
	if (len > SL_MAX_SCALAR || !plain_is_itself(t + s, len, root))
		return NULL;
	sl_node *n = read_node(r, SL_NODE_SCALAR, s, e, len + 1);
	if (!n)
		return NULL;
	char *v = (char *)(n + 1);
	memcpy(v, t + s, len);
	v[len] = '\0';
	n->u.scalar.s = v;
	n->u.scalar.len = len;
	r->at = e;
	return n;
}

/* "{}" or "[]" at r->at: an empty flow collection. NULL when not. */
static sl_node *read_empty(struct reader *r)
{
	const char *t = r->t + r->at;
	if (r->n - r->at < 2 || !((t[0] == '{' && t[1] == '}') || (t[0] == '[' && t[1] == ']')))
		return NULL;
	sl_node *n = read_node(r, t[0] == '{' ? SL_NODE_MAP : SL_NODE_SEQ, r->at, r->at + 2, 0);
	if (n) {
		n->style = 1;
		r->at += 2;
	}
	return n;
}

/* True when the keys of map n (all scalars, none a merge key: the emitter quotes every key)
** hold one twice: a parse reports it. */
static bool repeats_key(struct reader *r, const sl_node *n)
{
	const sl_pair *p = n->u.map.pairs;
	size_t np = n->u.map.n;
	if (np <= 16) {
		for (size_t i = 1; i < np; i++)
			for (size_t j = 0; j < i; j++)
				if (p[i].key->u.scalar.len == p[j].key->u.scalar.len &&
				    memcmp(p[i].key->u.scalar.s, p[j].key->u.scalar.s,
					   p[i].key->u.scalar.len) == 0)
					return true;
		return false;
	}
	sl_strmap h = {0};
	bool found = false;
	for (size_t i = 0; i < np && !found; i++) {
		if (!sl_strmap_put(&h, p[i].key->u.scalar.s, p[i].key->u.scalar.len, &found)) {
			r->oom = true;
			break;
		}
	}
	sl_strmap_free(&h);
	return found || r->oom;
}

static sl_node *read_value(struct reader *r, size_t ind, size_t depth);

/* The block mapping or sequence whose entries are the lines from r->at indented ind: its
** children, read, move from the stack into the arena as the parser's close_collection moves
** them. */
static sl_node *read_block(struct reader *r, size_t ind, size_t depth)
{
	const char *t = r->t;
	size_t first = r->at + ind;
	if (depth >= READ_DEPTH || first >= r->n)
		return NULL;
	char c = t[first];
	bool map = c == '"';
	if (!map && !(c == '-' && (t[first + 1] == ' ' || t[first + 1] == '\n')))
		return NULL;
	sl_node *n = read_node(r, map ? SL_NODE_MAP : SL_NODE_SEQ, first, first, 0);
	size_t base = r->n_kids;
	for (;;) {
		size_t i = r->at;
		if (r->line == r->at) {
			i += r->line_ind;   /* counted by the collection the line ended */
		} else {
			while (r->n - i >= 8 && memcmp(t + i, "        ", 8) == 0)
				i += 8;
			while (i < r->n && t[i] == ' ')
				i++;
			r->line = r->at;
			r->line_ind = i - r->at;
		}
		if (i - r->at != ind || i >= r->n || t[i] != c ||
		    (!map && t[i + 1] != ' ' && t[i + 1] != '\n'))
			break;   /* the collection ends: whatever comes next is the caller's */
		r->at = i;
		if (map) {
			sl_node *k = read_quoted(r, true);
			if (!k || t[r->at] != ':' || !read_push(r, k))
				return NULL;
			k->is_key = 1;
		}
		r->at++;   /* the ':' or the '-' */
		sl_node *v = read_value(r, ind + 2, depth + 1);
		if (!v || !read_push(r, v))
			return NULL;
	}
	size_t count = r->n_kids - base;
	sl_node **kids = r->kids + base;
	if (!n || !count)
		return NULL;
	if (!sl_tree_adopt(r->a, n, kids, count)) {   /* the children as the parse links them */
		r->oom = true;
		return NULL;
	}
	if (map && repeats_key(r, n))
		return NULL;
	n->end = kids[count - 1]->end;   /* a block collection ends where its last child ends */
	r->n_kids = base;
	return n;
}

/* The value after a key's ':' or an entry's '-' (at r->at), its line break read: " " and a
** scalar or an empty collection, or a line break and the block collection indented ind. */
static sl_node *read_value(struct reader *r, size_t ind, size_t depth)
{
	const char *t = r->t;
	if (t[r->at] == '\n') {
		r->at++;
		return read_block(r, ind, depth);
	}
	if (t[r->at] != ' ')
		return NULL;
	r->at++;
	sl_node *v = t[r->at] == '"' ? read_quoted(r, false) : read_empty(r);
	if (!v && !r->oom && t[r->at] != '"')
		v = read_plain(r, false);
	if (!v || r->at >= r->n || t[r->at] != '\n' || (v->type != SL_NODE_SCALAR && depth >= READ_DEPTH))
		return NULL;
	r->at++;
	return v;
}

/* A document's root, from r->at (after its "---" line). */
static sl_node *read_root(struct reader *r)
{
	const char *t = r->t;
	size_t at = r->at;
	if (at >= r->n)
		return NULL;
	if (t[at] == '-' && (t[at + 1] == ' ' || t[at + 1] == '\n'))
		return read_block(r, 0, 0);
	sl_node *v;
	if (t[at] == '"') {
		if (!(v = read_quoted(r, false)))
			return NULL;
		if (t[r->at] == ':') {   /* the first key of a mapping (the scalar is left unused) */
			r->at = at;
			return read_block(r, 0, 0);
		}
	} else if (!(v = read_empty(r)) && !r->oom) {
		v = read_plain(r, true);
	}
	if (!v || r->at >= r->n || t[r->at] != '\n')
		return NULL;
	r->at++;
	return v;
}

sl_err sl_knode_read(const sl_source *src, sl_arena *a, sl_tree *out, bool *read)
{
	struct reader r = {src->data, src->len, 0, a, NULL, 0, 0, (size_t)-1, 0, false};
	size_t cap = 0;
	*out = (sl_tree){0};
	*read = false;
	if (src->utf16 || src->bom || src->bad_what || src->len > UINT32_MAX)
		return SL_OK;
	bool whole = true;   /* false: text the reader does not take */
	while (whole && r.at < r.n) {
		whole = false;
		if (r.n - r.at < 4 || memcmp(r.t + r.at, "---\n", 4) != 0)
			break;
		sl_doc *d = sl_arena_zalloc(a, sizeof *d);
		sl_node_props *pr = sl_arena_zalloc(a, sizeof *pr);
		if (!d || !pr) {
			r.oom = true;
			break;
		}
		d->index = (unsigned)out->n_docs;
		d->start = (uint32_t)r.at;
		d->src = src;
		r.at += 4;
		sl_node *n = read_root(&r);
		if (!n || (r.at < r.n && (r.n - r.at < 4 || memcmp(r.t + r.at, "---\n", 4) != 0)))
			break;
		d->end = (uint32_t)r.at;   /* where the next document's "---" starts */
		if (d->end - d->start > SL_MAX_DOCUMENT)
			break;
		pr->doc = d;
		n->props = pr;
		d->root = n;
		if (out->n_docs == cap) {
			cap = cap ? cap * 2 : 8;
			sl_doc **v = sl_arena_alloc(a, cap * sizeof *v);
			if (!v) {
				r.oom = true;
				break;
			}
			if (out->n_docs)
				memcpy(v, out->docs, out->n_docs * sizeof *v);
			out->docs = v;
		}
		out->docs[out->n_docs++] = d;
		whole = true;
	}
	free(r.kids);
	*read = whole && !r.oom;
	if (*read)
		out->n_indices = (unsigned)out->n_docs;
	else
		*out = (sl_tree){0};
	return r.oom ? SL_ENOMEM : SL_OK;
}

sl_err sl_knode_parse(const sl_source *src, sl_arena *a, sl_tree *out, sl_tree_issue_fn issue,
		      sl_tree_fix_fn fix, void *payload)
{
	bool read;
	sl_err err = sl_knode_read(src, a, out, &read);
	return err || read ? err : sl_tree_parse_fixing(src, a, out, issue, fix, payload);
}
