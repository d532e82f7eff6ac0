/* SPDX-License-Identifier: Apache-2.0
** excerpt.c: a text with ranges left out but their line breaks (excerpt.h), and the map from
** its offsets back to the text: one entry per run of bytes kept, and one per range left out
** (its line breaks, which map one by one to the range's), in order. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "util/v16.h"
#include "yaml/excerpt.h"

struct run {
	size_t at;     /* where the run starts in the excerpt */
	size_t from;   /* and in the text */
	bool breaks;   /* the line breaks of a range left out from there: its k-th byte is the
			  range's k-th "\n" or "\r" (a lookup scans for it; nothing but a
			  parse's empty node lands there); else the text's bytes from there */
};

struct sl_excerpt {
	sl_source *text;
	const char *from;   /* the text it is an excerpt of (a range left out is looked up there) */
	struct run *runs;   /* ascending; the last one, empty, is the ends of both */
	size_t n_runs, cap_runs;
	bool first;         /* the text's first document, before any "---", is left out */
};

/* Room in the excerpt's bytes *w (*len of them, room for *cap) for more bytes and a NUL, and
** in its runs for one more. */
static int grow(sl_excerpt *x, char **w, size_t *cap, size_t len, size_t more)
{
	if (more >= *cap - len) {   /* and its NUL */
		size_t ncap = 2 * *cap > len + more + 1 ? 2 * *cap : len + more + 1;
		char *nw = sl_xrealloc(*w, ncap);
		if (!nw)
			return -1;
		*w = nw;
		*cap = ncap;
	}
	if (x->n_runs == x->cap_runs) {
		size_t ncap = x->cap_runs ? 2 * x->cap_runs : 64;
		struct run *nr = sl_xrealloc(x->runs, ncap * sizeof *nr);
		if (!nr)
			return -1;
		x->runs = nr;
		x->cap_runs = ncap;
	}
	return 0;
}

/* Appends t[a..b) to the excerpt's bytes *w (*len of them, room for *cap), a new run unless it
** continues the last. */
static int keep(sl_excerpt *x, char **w, size_t *cap, size_t *len, const char *t, size_t a,
		size_t b)
{
	if (a == b)
		return 0;
	if (grow(x, w, cap, *len, b - a) < 0)
		return -1;
	struct run *last = x->n_runs ? &x->runs[x->n_runs - 1] : NULL;
	if (!last || last->breaks || last->from + (*len - last->at) != a)
		x->runs[x->n_runs++] = (struct run){*len, a, false};
	memcpy(*w + *len, t + a, b - a);
	*len += b - a;
	return 0;
}

/* The "\n" bytes of t[a..b), counted sixteen at a time. */
static size_t count_newlines(const char *t, size_t a, size_t b)
{
	size_t k = 0, i = a;
	for (; b - i >= 16; i += 16)   /* a line's break or two per block: no popcount */
		for (unsigned m = sl_v16_mask(sl_v16_load(t + i) == '\n'); m; m &= m - 1)
			k++;
	for (; i < b; i++)
		k += t[i] == '\n';
	return k;
}

/* Appends the line breaks of t[a..b), a range left out (cr: the text holds a "\r"), as one run. */
static int keep_breaks(sl_excerpt *x, char **w, size_t *cap, size_t *len, const char *t,
		       size_t a, size_t b, bool cr)
{
	size_t k = 0;
	if (!cr)
		k = count_newlines(t, a, b);
	else
		for (size_t j = a; j < b; j++)
			k += t[j] == '\n' || t[j] == '\r';
	if (!k)
		return 0;
	if (grow(x, w, cap, *len, k) < 0)
		return -1;
	x->runs[x->n_runs++] = (struct run){*len, a, true};
	if (!cr)
		memset(*w + *len, '\n', k);
	else
		for (size_t j = a, o = *len; j < b; j++)
			if (t[j] == '\n' || t[j] == '\r')
				(*w)[o++] = t[j];
	*len += k;
	return 0;
}

sl_err sl_excerpt_make(const char *path, const char *t, size_t n, const size_t *drop,
		       size_t n_drops, sl_excerpt **out)
{
	*out = NULL;
	size_t dropped = 0;
	for (size_t i = 0; i < n_drops; i++)
		dropped += drop[2 * i + 1] - drop[2 * i];
	if (!dropped)
		return SL_OK;
	sl_excerpt *x = sl_xcalloc(1, sizeof *x);
	/* room for the bytes kept, then more as the line breaks of those left out need it: not
	** the text's size, a big block the allocator would keep for its heap once freed (a 20 MB
	** file read for a few documents) */
	size_t cap = n - dropped + 64;
	char *w = sl_xmalloc(cap);
	if (!x || !w)
		goto oom;
	x->from = t;
	x->first = n_drops && drop[0] == 0 && sl_source_text_holds_content(t, drop[1]);
	size_t len = 0, at = 0;
	bool cr = memchr(t, '\r', n) != NULL;   /* else the breaks are only counted */
	for (size_t i = 0; i < n_drops; i++) {
		size_t a = drop[2 * i], b = drop[2 * i + 1];
		if (keep(x, &w, &cap, &len, t, at, a) < 0 ||
		    keep_breaks(x, &w, &cap, &len, t, a, b, cr) < 0)   /* only its line breaks */
			goto oom;
		at = b;
	}
	if (keep(x, &w, &cap, &len, t, at, n) < 0)
		goto oom;
	/* the ends of both: what is past the last run kept maps to the text's end */
	if (x->n_runs == x->cap_runs) {
		struct run *nr = sl_xrealloc(x->runs, (x->cap_runs + 1) * sizeof *nr);
		if (!nr)
			goto oom;
		x->runs = nr;
		x->cap_runs++;
	}
	x->runs[x->n_runs++] = (struct run){len, n, false};
	if (len == n) {   /* the ranges held line breaks only */
		free(w);
		sl_excerpt_free(x);
		return SL_OK;
	}
	w[len] = '\0';
	sl_err err = sl_source_take_buffer(path, w, len, &x->text);
	w = NULL;   /* taken, or freed on an error */
	if (err) {
		sl_excerpt_free(x);
		return err;
	}
	*out = x;
	return SL_OK;
oom:
	free(w);
	sl_excerpt_free(x);
	return SL_ENOMEM;
}

const sl_source *sl_excerpt_text(const sl_excerpt *x)
{
	return x->text;
}

size_t sl_excerpt_offset(const sl_excerpt *x, size_t at)
{
	size_t lo = 0, hi = x->n_runs;   /* the last run starting at or before at */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->runs[mid].at <= at)
			lo = mid;
		else
			hi = mid;
	}
	const struct run *r = &x->runs[lo];
	if (!r->breaks)
		return r->from + (at - r->at);
	size_t j = r->from;   /* the range's line break at - r->at, counted from 0 */
	for (size_t k = at - r->at;; j++)
		if ((x->from[j] == '\n' || x->from[j] == '\r') && !k--)
			return j;
}

static uint32_t moved(const sl_excerpt *x, uint32_t at)
{
	return (uint32_t)sl_excerpt_offset(x, at);
}

/* A document's run: offsets in [lo, hi) of the excerpt move by the same amount (a document read
** is one run of the text's bytes); any other offset is looked up. */
struct span {
	const sl_excerpt *x;
	size_t lo, hi, from;
};

static uint32_t moved_in(const struct span *s, uint32_t at)
{
	return at >= s->lo && at < s->hi ? (uint32_t)(s->from + (at - s->lo)) : moved(s->x, at);
}

/* n and what it holds (aliases' targets and merged entries are held elsewhere). */
static void shift_node(const struct span *s, sl_node *n)
{
	if (!n)
		return;
	n->start = moved_in(s, n->start);
	n->end = moved_in(s, n->end);
	if (n->type == SL_NODE_MAP) {
		for (size_t i = 0; i < n->u.map.n; i++) {
			shift_node(s, n->u.map.pairs[i].key);
			shift_node(s, n->u.map.pairs[i].value);
		}
	} else if (n->type == SL_NODE_SEQ) {
		for (size_t i = 0; i < n->u.seq.n; i++)
			shift_node(s, n->u.seq.items[i]);
	}
}

void sl_excerpt_shift(const sl_excerpt *x, sl_tree *t, const sl_source *src)
{
	for (size_t i = 0; i < t->n_docs; i++) {
		sl_doc *d = t->docs[i];
		/* the run holding the document's start: a binary search per document, not per node */
		size_t lo = 0, hi = x->n_runs;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (x->runs[mid].at <= d->start)
				lo = mid;
			else
				hi = mid;
		}
		struct span s = {x, x->runs[lo].at, lo + 1 < x->n_runs && !x->runs[lo].breaks
				 ? x->runs[lo + 1].at : 0, x->runs[lo].from};
		d->start = moved(x, d->start);
		d->end = moved(x, d->end);
		d->src = src;
		d->index += x->first;
		shift_node(&s, d->root);
	}
	t->n_indices += x->first;
}

void sl_excerpt_free(sl_excerpt *x)
{
	if (!x)
		return;
	sl_source_free(x->text);
	free(x->runs);
	free(x);
}
