/* SPDX-License-Identifier: Apache-2.0
** edit.c: applying byte-range edits and rendering inserted YAML in the file's style (write.c
** writes the fixed files). Inserted text follows the file: its indent width, whether its block
** sequences are indented under their key, its preferred quote and its line ending. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/arena.h"
#include "yaml/edit.h"
#include "util/strbuf.h"

/* --- style ----------------------------------------------------------------------------- */

static size_t leading_spaces(const char *p, const char *end)
{
	size_t n = 0, len = (size_t)(end - p);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; len - n >= 8; n += 8) {   /* eight at a time: the first byte that is not a space */
		uint64_t w;
		memcpy(&w, p + n, 8);
		w ^= 0x2020202020202020u;
		if (w)
			return n + (size_t)__builtin_ctzll(w) / 8;
	}
#else
	while (len - n >= 8 && memcmp(p + n, "        ", 8) == 0)
		n += 8;
#endif
	while (n < len && p[n] == ' ')
		n++;
	return n;
}

/* sl_source_line_end, the LF and CRLF breaks looked at here (the scan below visits every line) */
static size_t line_end(const sl_source *src, size_t l)
{
	if (l + 1 < src->n_lines) {
		size_t e = src->line_start[l + 1];
		if (src->data[e - 1] == '\n')
			return e >= 2 && src->data[e - 2] == '\r' ? e - 2 : e - 1;
	}
	return sl_source_line_end(src, l);
}

/* The first byte c at or after from (fend when none), *at holding the answer for an earlier
** from (or NULL before the first search): most lines hold no '#' and no quote, and a search from
** a line runs to the next one in the file, so the whole scan reads each byte once for each c. */
static const char *next_byte(const char **at, const char *from, const char *fend, char c)
{
	if ((!*at || *at < from) && !(*at = memchr(from, c, (size_t)(fend - from))))
		*at = fend;
	return *at;
}

void sl_edit_style_detect(const sl_source *src, sl_style *out)
{
	unsigned votes[9] = {0};
	unsigned seq_in = 0, seq_out = 0, dq = 0, sq = 0;
	size_t prev_indent = 0;
	int prev_key_open = 0;   /* the previous content line ends with ':' (opens a block) */
	const char *d = src->data, *fend = d + src->len;
	/* the file's next '#', double and single quote, at or after a line's content (next_byte) */
	const char *next_hash = NULL, *next_dq = NULL, *next_sq = NULL;
	for (size_t l = 0; l < src->n_lines; l++) {
		const char *p = d + src->line_start[l], *end = d + line_end(src, l);
		if (l == 0)
			p += src->bom;
		size_t ind = leading_spaces(p, end);
		const char *t = p + ind;
		if (t >= end || *t == '#')
			continue;
		if (prev_key_open) {
			int dash = end - t >= 2 && t[0] == '-' && (t[1] == ' ' || t + 1 == end);
			if (dash && ind == prev_indent)
				seq_out++;
			else if (dash && ind > prev_indent)
				seq_in++;
			if (!dash && ind > prev_indent && ind - prev_indent < 9)
				votes[ind - prev_indent]++;
		}
		/* a line whose content (comments aside) ends with ':' opens a nested block */
		const char *e = end;
		const char *hash = next_byte(&next_hash, t, fend, '#');   /* the line's first '#' */
		if (hash >= end)
			hash = NULL;
		if (hash && hash > t && (hash[-1] == ' ' || hash[-1] == '\t'))
			e = hash;
		while (e > t && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		prev_key_open = e > t && e[-1] == ':';
		/* the key column: after "- " when the line is a sequence item */
		prev_indent = ind;
		if (t[0] == '-' && t + 1 < end && t[1] == ' ')
			prev_indent = ind + 2 + leading_spaces(t + 2, end);
		/* the quote of a value ("key: 'v'") or of a sequence item ("- 'v'"): none in a line
		** without a quote (most) */
		if (next_byte(&next_dq, t, fend, '"') >= e && next_byte(&next_sq, t, fend, '\'') >= e)
			continue;
		const char *qv = NULL;
		if (e - t >= 3 && t[0] == '-' && t[1] == ' ')
			qv = t + 2;
		for (const char *q = t; !qv && q + 2 < e; q++) {
			if (!(q = memchr(q, ':', (size_t)(e - 2 - q))))
				break;
			if (q[1] == ' ')
				qv = q + 2;
		}
		if (qv && qv < e && *qv == '"')
			dq++;
		else if (qv && qv < e && *qv == '\'')
			sq++;
	}
	unsigned best = 2, bestv = 0;
	for (unsigned i = 1; i < 9; i++)
		if (votes[i] > bestv) {
			best = i;
			bestv = votes[i];
		}
	out->indent = best;
	out->indent_sequences = seq_in >= seq_out;
	out->quote = sq > dq ? '\'' : '"';
	out->crlf = src->crlf;
}

/* --- applying edits ---------------------------------------------------------------------- */

bool sl_edit_overlap(const sl_edit *a, const sl_edit *b)
{
	if (a->path != b->path && strcmp(a->path, b->path) != 0)
		return false;
	size_t ae = a->offset + a->length, be = b->offset + b->length;
	if (a->length == 0 && b->length == 0)
		return a->offset == b->offset;
	if (a->length == 0)
		return a->offset > b->offset && a->offset < be;
	if (b->length == 0)
		return b->offset > a->offset && b->offset < ae;
	return a->offset < be && b->offset < ae;
}

static int cmp_edit(const void *x, const void *y)
{
	const sl_edit *a = *(const sl_edit *const *)x, *b = *(const sl_edit *const *)y;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	/* at one offset, an insertion goes before a replacement that starts there */
	return (a->length > 0) - (b->length > 0);
}

/* The first position of s whose edit sorts at or after e. */
static size_t set_lower_bound(const sl_edit_set *s, const sl_edit *e)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_edit(&s->v[mid], &e) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool sl_edit_set_fits(const sl_edit_set *s, const sl_edit *e)
{
	size_t pos = set_lower_bound(s, e);
	/* the edits are disjoint and sorted, so their ends never decrease: to the left only those
	** that end at or after e's start can touch it, to the right those that start by its end */
	for (size_t i = pos; i-- > 0;) {
		if (sl_edit_overlap(s->v[i], e))
			return false;
		if (s->v[i]->offset + s->v[i]->length < e->offset)
			break;
	}
	for (size_t i = pos; i < s->n && s->v[i]->offset <= e->offset + e->length; i++)
		if (sl_edit_overlap(s->v[i], e))
			return false;
	return true;
}

sl_err sl_edit_set_add(sl_edit_set *s, const sl_edit *e)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 8;
		const sl_edit **nv = sl_xrealloc(s->v, ncap * sizeof *nv);
		if (!nv)
			return SL_ENOMEM;
		s->v = nv;
		s->cap = ncap;
	}
	/* fixes come in finding order, so this is an append almost always */
	size_t pos = set_lower_bound(s, e);
	memmove(s->v + pos + 1, s->v + pos, (s->n - pos) * sizeof *s->v);
	s->v[pos] = e;
	s->n++;
	return SL_OK;
}

void sl_edit_set_free(sl_edit_set *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

sl_err sl_edit_apply(const char *data, size_t len, const sl_edit *const *edits, size_t n,
		      char **out, size_t *out_len)
{
	const sl_edit **sorted = sl_xmalloc((n ? n : 1) * sizeof *sorted);
	if (!sorted)
		return SL_ENOMEM;
	memcpy(sorted, edits, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, cmp_edit);
	size_t total = len;
	for (size_t i = 0; i < n; i++) {
		const sl_edit *e = sorted[i];
		if (e->offset > len || e->length > len - e->offset ||
		    (i > 0 && sl_edit_overlap(sorted[i - 1], e))) {
			free(sorted);
			return SL_EUSAGE;
		}
		total += strlen(e->content);
	}
	char *buf = sl_xmalloc(total + 1);
	if (!buf) {
		free(sorted);
		return SL_ENOMEM;
	}
	size_t r = 0, w = 0;
	for (size_t i = 0; i < n; i++) {
		const sl_edit *e = sorted[i];
		memcpy(buf + w, data + r, e->offset - r);
		w += e->offset - r;
		size_t cl = strlen(e->content);
		memcpy(buf + w, e->content, cl);
		w += cl;
		r = e->offset + e->length;
	}
	memcpy(buf + w, data + r, len - r);
	w += len - r;
	buf[w] = '\0';
	free(sorted);
	*out = buf;
	*out_len = w;
	return SL_OK;
}

/* --- rendering ----------------------------------------------------------------------------- */

size_t sl_edit_line_indent(const sl_source *src, size_t offset)
{
	size_t l = sl_source_line_of(src, offset);
	size_t s = l == 0 ? src->bom : src->line_start[l];
	return offset - s;
}

/* b's text copied into a (NULL when out of memory), and b freed. */
static const char *sb_finish(sl_strbuf *b, sl_arena *a)
{
	const char *r = b->failed ? NULL : sl_arena_strndup(a, b->s ? b->s : "", b->len);
	sl_strbuf_free(b);
	return r;
}

/* Appends fragment (two-space indented from column 0) re-indented to start at column base,
** each line preceded by eol. */
static void reindent(sl_strbuf *b, const sl_style *st, const char *frag, size_t base)
{
	struct { size_t frag, file; } stack[64];
	int top = 0;
	stack[0].frag = 0;
	stack[0].file = base;
	size_t prev_frag = 0, prev_file = base;
	int prev_dash = 0;
	const char *p = frag;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t c = 0;
		while (c < len && p[c] == ' ')
			c++;
		int dash = len - c >= 2 && p[c] == '-' && p[c + 1] == ' ';
		while (top > 0 && stack[top].frag > c)
			top--;
		size_t file;
		if (stack[top].frag == c) {
			file = stack[top].file;
		} else if (prev_dash && c == prev_frag + 2) {
			file = prev_file + 2;
		} else if (dash) {
			file = stack[top].file + (st->indent_sequences ? st->indent : 0);
		} else {
			file = stack[top].file + st->indent;
		}
		if (stack[top].frag != c && top < 63) {
			top++;
			stack[top].frag = c;
			stack[top].file = file;
		}
		sl_strbuf_addstr(b, SL_STYLE_EOL(st));
		sl_strbuf_addch(b, ' ', file);
		sl_strbuf_add(b, p + c, len - c);
		prev_frag = c;
		prev_file = file;
		prev_dash = dash;
		p = nl ? nl + 1 : p + len;
	}
}

/* Where n's text begins with its properties ("&a", "!!str") in front: node ranges leave them
** out, but the column an entry stands at is the one its first property starts at. */
static size_t with_properties(const sl_source *src, const sl_node *n)
{
	size_t line = sl_source_line_of(src, n->start);
	size_t ls = line == 0 ? src->bom : src->line_start[line];
	size_t p = n->start;
	for (;;) {
		size_t q = p;
		while (q > ls && (src->data[q - 1] == ' ' || src->data[q - 1] == '\t'))
			q--;
		size_t t = q;
		while (t > ls && src->data[t - 1] != ' ' && src->data[t - 1] != '\t')
			t--;
		if (t < q && (src->data[t] == '&' || src->data[t] == '!'))
			p = t;
		else
			return p;
	}
}

/* True when s can be written as a plain scalar that means the string s in block and in flow
** context alike, and that go-yaml v2 (YAML 1.1, what Kubernetes decodes with) reads as a
** string: it starts with a letter, holds only letters, digits and "-_./", and is none of the
** words YAML 1.1 resolves to a boolean or null. Conservative: anything else is quoted. */
static bool plain_safe(const char *s)
{
	static const char *const words[] = {"y", "n", "yes", "no", "true", "false", "on", "off",
					    "null", NULL};
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '_' || *p == '.' || *p == '/'))
			return false;
	for (size_t i = 0; words[i]; i++)
		if (strcasecmp(s, words[i]) == 0)
			return false;
	return true;
}

const char *sl_edit_render_quoted(sl_arena *a, char quote, const char *s)
{
	/* Single quotes hold printable text only (a line break would fold): anything else, and
	** every non-ASCII character YAML does not print (C1, U+2028, U+2029, U+FEFF), is written
	** double-quoted with escapes. Bytes that are not UTF-8 cannot be YAML at all: NULL. */
	bool single = quote == '\'';
	size_t n = strlen(s);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		unsigned cp;
		size_t len = sl_source_utf8_decode(p, n - (size_t)(p - (const unsigned char *)s), &cp);
		if (!len)
			return NULL;
		if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 ||
		    cp == 0x2029 || cp == 0xFEFF)
			single = false;
		p += len;
	}
	sl_strbuf b = {0};
	sl_strbuf_addstr(&b, single ? "'" : "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		unsigned cp;
		size_t len = sl_source_utf8_decode(p, n - (size_t)(p - (const unsigned char *)s), &cp);
		char esc[16];
		if (single && cp == '\'')
			sl_strbuf_addstr(&b, "''");
		else if (single)
			sl_strbuf_add(&b, (const char *)p, len);
		else if (cp == '"' || cp == '\\') {
			esc[0] = '\\', esc[1] = (char)cp, esc[2] = 0;
			sl_strbuf_addstr(&b, esc);
		} else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) {
			snprintf(esc, sizeof esc, "\\x%02X", (unsigned)cp);
			sl_strbuf_addstr(&b, esc);
		} else if (cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF) {
			snprintf(esc, sizeof esc, "\\u%04X", (unsigned)cp);
			sl_strbuf_addstr(&b, esc);
		} else {
			sl_strbuf_add(&b, (const char *)p, len);
		}
		p += len;
	}
	sl_strbuf_addstr(&b, single ? "'" : "\"");
	return sb_finish(&b, a);
}

const char *sl_edit_render_scalar(sl_arena *a, char quote, const char *s)
{
	if (!s)
		return NULL;
	if (plain_safe(s))
		return sl_arena_strndup(a, s, strlen(s));
	return sl_edit_render_quoted(a, quote, s);
}

/* True when a fragment is a nested block rather than an inline scalar. */
static bool is_block_fragment(const char *frag)
{
	return strchr(frag, '\n') || strncmp(frag, "- ", 2) == 0 || strstr(frag, ": ") ||
	       (frag[0] && frag[strlen(frag) - 1] == ':');
}

/* True when a fragment is one "key: value" entry that reads the same inside "{...}": one line,
** one ": ", and no character a flow collection gives a meaning to (",[]{}#") nor a property
** or block indicator at the start. */
static bool flow_entry(const char *frag)
{
	const char *sep = strstr(frag, ": ");
	return sep && !strstr(sep + 2, ": ") && !strpbrk(frag, "\r\n,[]{}#") &&
	       !strchr("-?:&*!|>%@`", frag[0]) && sep[2] && sep[strlen(sep) - 1] != ':';
}

/* The end of the line holding the last byte of n: where text after n is inserted. */
static size_t after_node(const sl_source *src, const sl_node *n)
{
	size_t last = n->end > n->start ? n->end - 1 : n->start;
	return sl_source_line_end(src, sl_source_line_of(src, last));
}

const char *sl_edit_render_map_entry(sl_arena *a, const sl_source *src, const sl_style *st,
				const sl_node *map, const char *key, const char *fragment,
				size_t *offset)
{
	map = sl_node_deref(map);
	if (!map || map->type != SL_NODE_MAP)
		return NULL;
	key = sl_edit_render_scalar(a, st->quote, key);   /* a key is a string, never YAML text */
	if (!key)
		return NULL;
	sl_strbuf b = {0};
	if (map->style || map->u.map.n == 0) {
		/* flow mapping ("{a: 1}" or "{}"): inline entries only, a one-entry mapping
		** fragment written as a flow mapping ("limits: {nvidia.com/gpu: 1}") */
		bool inline_map = flow_entry(fragment);
		if (!map->style || (is_block_fragment(fragment) && !inline_map) || map->end < 1 ||
		    src->data[map->end - 1] != '}')
			return NULL;
		*offset = map->end - 1;
		if (map->u.map.n)
			sl_strbuf_addstr(&b, ", ");
		sl_strbuf_addstr(&b, key);
		sl_strbuf_addstr(&b, inline_map ? ": {" : ": ");
		sl_strbuf_addstr(&b, fragment);
		if (inline_map)
			sl_strbuf_addstr(&b, "}");
		return sb_finish(&b, a);
	}
	size_t col = sl_edit_line_indent(src, with_properties(src, map->u.map.pairs[0].key));
	*offset = after_node(src, map);
	sl_strbuf_addstr(&b, SL_STYLE_EOL(st));
	sl_strbuf_addch(&b, ' ', col);
	sl_strbuf_addstr(&b, key);
	sl_strbuf_addstr(&b, ":");
	if (is_block_fragment(fragment)) {
		if (strncmp(fragment, "- ", 2) == 0 && !st->indent_sequences) {
			/* an indentless sequence starts at the key's column */
			sl_strbuf tmp = {0};
			reindent(&tmp, st, fragment, col);
			sl_strbuf_add(&b, tmp.s, tmp.len);
			b.failed |= tmp.failed;
			sl_strbuf_free(&tmp);
		} else {
			reindent(&b, st, fragment, col + st->indent);
		}
	} else {
		sl_strbuf_addstr(&b, " ");
		sl_strbuf_addstr(&b, fragment);
	}
	return sb_finish(&b, a);
}

/* The column of the "-" that introduces sequence item n (n->start is its content). */
static bool dash_column(const sl_source *src, const sl_node *item, size_t *col)
{
	size_t line = sl_source_line_of(src, item->start);
	size_t ls = line == 0 ? src->bom : src->line_start[line];
	for (size_t p = item->start; p > ls; p--) {
		if (src->data[p - 1] == '-') {
			*col = p - 1 - ls;
			return true;
		}
		if (src->data[p - 1] != ' ')
			break;
	}
	return false;
}

const char *sl_edit_render_seq_item(sl_arena *a, const sl_source *src, const sl_style *st,
			       const sl_node *seq, const char *fragment, size_t *offset)
{
	seq = sl_node_deref(seq);
	if (!seq || seq->type != SL_NODE_SEQ)
		return NULL;
	sl_strbuf b = {0};
	if (seq->style || seq->u.seq.n == 0) {
		if (!seq->style || strchr(fragment, '\n') || seq->end < 1 || src->data[seq->end - 1] != ']')
			return NULL;
		*offset = seq->end - 1;
		if (seq->u.seq.n)
			sl_strbuf_addstr(&b, ", ");
		/* an inline mapping item becomes a flow mapping */
		if (strstr(fragment, ": ")) {
			sl_strbuf_addstr(&b, "{");
			sl_strbuf_addstr(&b, fragment);
			sl_strbuf_addstr(&b, "}");
		} else {
			sl_strbuf_addstr(&b, fragment);
		}
		return sb_finish(&b, a);
	}
	size_t col;
	if (!dash_column(src, seq->u.seq.items[0], &col))
		return NULL;
	*offset = after_node(src, seq);
	/* "- first line", then the rest two columns further in */
	sl_strbuf f = {0};
	sl_strbuf_addstr(&f, "- ");
	for (const char *p = fragment; *p; p++) {
		sl_strbuf_add(&f, p, 1);
		if (*p == '\n')
			sl_strbuf_addstr(&f, "  ");
	}
	if (f.failed) {
		sl_strbuf_free(&f);
		return NULL;
	}
	reindent(&b, st, f.s, col);
	sl_strbuf_free(&f);
	return sb_finish(&b, a);
}

/* True when only blanks stand between the line start and offset. */
static bool starts_line(const sl_source *src, size_t offset, size_t *line_start)
{
	size_t l = sl_source_line_of(src, offset);
	size_t s = l == 0 ? src->bom : src->line_start[l];
	for (size_t p = s; p < offset; p++)
		if (src->data[p] != ' ' && src->data[p] != '\t')
			return false;
	*line_start = s;
	return true;
}

bool sl_edit_render_removal(const sl_source *src, const sl_node *n, size_t *start, size_t *end)
{
	const sl_node *parent = n->parent;
	if (!parent)
		return false;
	const sl_node *first, *last;
	if (parent->type == SL_NODE_MAP) {
		first = parent->u.map.pairs[n->pos].key;
		last = parent->u.map.pairs[n->pos].value;
		if (last->end < first->end)
			last = first;
	} else {
		first = last = n;
	}
	if (parent->style) {
		/* flow: the entry and one separator */
		size_t s = first->start, e = last->end;
		const char *d = src->data;
		size_t p = e;
		while (p < parent->end && (d[p] == ' ' || d[p] == '\t'))
			p++;
		if (p < parent->end && d[p] == ',') {
			p++;
			while (p < parent->end && (d[p] == ' ' || d[p] == '\t'))
				p++;
			*start = s;
			*end = p;
			return true;
		}
		size_t q = s;
		while (q > parent->start + 1 && (d[q - 1] == ' ' || d[q - 1] == '\t'))
			q--;
		if (q > parent->start + 1 && d[q - 1] == ',')
			q--;
		*start = q;
		*end = e;
		return true;
	}
	size_t ls;
	size_t from = first->start;
	if (parent->type == SL_NODE_SEQ) {
		size_t col;
		if (!dash_column(src, n, &col))
			return false;
		size_t l = sl_source_line_of(src, n->start);
		from = (l == 0 ? src->bom : src->line_start[l]) + col;
	}
	if (!starts_line(src, from, &ls))
		return false;
	size_t last_byte = last->end > last->start ? last->end - 1 : last->start;
	size_t l = sl_source_line_of(src, last_byte);
	*start = ls;
	*end = l + 1 < src->n_lines ? src->line_start[l + 1] : src->len;
	return true;
}
