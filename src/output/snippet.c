/* SPDX-License-Identifier: Apache-2.0
** snippet.c: the source lines under a finding in full text output (--output-format full), as
** rustc and ruff show them: a gutter with line numbers, each line of the span, and a row of
** carets under the span's part of it.
**
**    |
** 14 |   value: 1000
**    |   ^^^^^
**
** Columns are code points; a line is laid out in terminal cells: a tab is 4 cells, an East Asian
** wide character or an emoji 2, a combining mark 0, and what escape.c escapes for SL_SINK_TEXT
** (controls, bidi controls, bytes that are not UTF-8) is shown escaped, as wide as its escape,
** so a manifest's bytes never reach the terminal raw. A line wider than SNIPPET_WIDTH cells is
** cut around the span ("..." marks a cut). A span over more than SNIPPET_LINES lines shows its
** first two and last two lines around a "..." row. */
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "output/escape.h"
#include "output/output.h"

enum { SNIPPET_WIDTH = 100, SNIPPET_LINES = 5, TAB_CELLS = 4, SNIPPET_BYTES = 4096 };

/* Terminal cells of code point cp: 0 for combining marks and zero-width characters, 2 for East
** Asian wide and fullwidth characters and emoji, else 1 (Unicode 15, the common ranges). */
static size_t cells_of(unsigned cp)
{
	static const unsigned zero[][2] = {
		{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
		{0x064B, 0x065F}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x200B, 0x200D},
		{0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xE0100, 0xE01EF},
	};
	static const unsigned wide[][2] = {
		{0x1100, 0x115F}, {0x231A, 0x231B}, {0x23E9, 0x23EC}, {0x25FD, 0x25FE},
		{0x2614, 0x2615}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26F5, 0x26F5},
		{0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728},
		{0x274C, 0x274C}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797},
		{0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x2E80, 0x303E},
		{0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
		{0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19},
		{0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x1F004, 0x1F004},
		{0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
		{0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF},
		{0x1FA70, 0x1FAFF}, {0x20000, 0x3FFFD},
	};
	for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (cp >= zero[i][0] && cp <= zero[i][1])
			return 0;
	for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (cp >= wide[i][0] && cp <= wide[i][1])
			return 2;
	return 1;
}

/* One source line laid out: its text as shown (escaped, tabs expanded) and, for each code point
** k (0..n), the cell and the byte of the shown text where it starts (k = n: the line's end). */
typedef struct laid {
	char *text;
	size_t *cell, *byte;
	size_t n;
} laid;

static void laid_free(laid *l)
{
	free(l->text);
	free(l->cell);
	free(l->byte);
}

/* Lays out bytes [from, to) of a line of src (on character boundaries); false when out of
** memory. */
static bool lay_out(const sl_source *src, size_t from, size_t to, laid *out)
{
	const char *s = src->data + from;
	size_t n = to - from;
	memset(out, 0, sizeof *out);
	/* at most SL_ESCAPE_CHAR_MAX shown bytes per source byte, one code point per byte */
	out->text = sl_xmalloc(n * SL_ESCAPE_CHAR_MAX + 1);
	out->cell = sl_xmalloc((n + 1) * sizeof *out->cell);
	out->byte = sl_xmalloc((n + 1) * sizeof *out->byte);
	if (!out->text || !out->cell || !out->byte) {
		laid_free(out);
		return false;
	}
	size_t cell = 0, at = 0;
	for (size_t i = 0; i < n;) {
		out->cell[out->n] = cell;
		out->byte[out->n++] = at;
		unsigned cp;
		size_t len = sl_source_utf8_decode((const unsigned char *)s + i, n - i, &cp);
		if (len && cp == '\t') {
			memset(out->text + at, ' ', TAB_CELLS);
			at += TAB_CELLS;
			cell += TAB_CELLS;
			i++;
			continue;
		}
		char buf[SL_ESCAPE_CHAR_MAX];
		size_t took = sl_escape_char(s, n, i, SL_SINK_TEXT, buf);
		size_t blen = strlen(buf);
		bool kept = len && took == len && blen == len && memcmp(buf, s + i, len) == 0;
		memcpy(out->text + at, buf, blen);
		at += blen;
		cell += kept ? cells_of(cp) : blen;   /* an escape is as wide as its ASCII */
		i += took;
	}
	out->cell[out->n] = cell;
	out->byte[out->n] = at;
	out->text[at] = '\0';
	return true;
}

/* The code points of src's 0-based line l (up to its break). */
static size_t line_code_points(const sl_source *src, size_t l)
{
	size_t start = l == 0 ? src->bom : src->line_start[l], end = sl_source_line_end(src, l);
	size_t n = 0;
	for (size_t i = start; i < end; i++)
		if (((unsigned char)src->data[i] & 0xC0) != 0x80)
			n++;
	return n;
}

/* The span of f in src as 0-based lines and code-point columns [c0 on l0, c1 on l1); false
** when f's positions do not fit src (a file that changed since it was linted). A span that
** ends at the start of a line ends at the end of the line before. */
static bool span_of(const sl_source *src, const sl_finding *f, size_t *l0, size_t *c0,
		    size_t *l1, size_t *c1)
{
	if (f->line < 1 || f->line > src->n_lines || f->column < 1)
		return false;
	*l0 = f->line - 1;
	*c0 = f->column - 1;
	if (*c0 > line_code_points(src, *l0))
		return false;
	if (f->end_line < f->line || (f->end_line == f->line && f->end_column < f->column)) {
		*l1 = *l0;   /* no end known: a point */
		*c1 = *c0;
		return true;
	}
	if (f->end_line > src->n_lines || f->end_column < 1)
		return false;
	*l1 = f->end_line - 1;
	*c1 = f->end_column - 1;
	if (*c1 > line_code_points(src, *l1))
		return false;
	if (*l1 > *l0 && *c1 == 0) {
		(*l1)--;
		*c1 = line_code_points(src, *l1);
	}
	return true;
}

static size_t digits(size_t v)
{
	size_t d = 1;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* The gutter: the line number (or blanks) right-aligned in width, then " | " or " = ". */
static void gutter(FILE *out, size_t width, size_t line, const char *bar, const sl_text_colors *c)
{
	fputs(c->gutter, out);
	if (line)
		fprintf(out, "%*zu %s", (int)width, line, bar);
	else
		fprintf(out, "%*s %s", (int)width, "", bar);
	fputs(c->reset, out);
}

/* Writes line l of src and the carets under code points [a, b) of it (none when mark is
** false; one when a == b). */
static bool show_line(FILE *out, const sl_source *src, size_t l, size_t a, size_t b, bool mark,
		      size_t width, const sl_text_colors *c)
{
	/* A line of more than SNIPPET_BYTES (a minified manifest) is laid out only around the
	** span: at most SNIPPET_BYTES from a little before its start. */
	size_t start = l == 0 ? src->bom : src->line_start[l], end = sl_source_line_end(src, l);
	size_t from = start, to = end, skipped = 0;
	const unsigned char *d = (const unsigned char *)src->data;
	if (end - start > SNIPPET_BYTES) {
		size_t at = start;   /* the span's first byte on the line */
		for (size_t k = 0; at < end && k < a; k++)
			do
				at++;
			while (at < end && (d[at] & 0xC0) == 0x80);
		from = at > start + SNIPPET_BYTES / 4 ? at - SNIPPET_BYTES / 4 : start;
		while (from < at && (d[from] & 0xC0) == 0x80)
			from++;
		to = from + SNIPPET_BYTES < end ? from + SNIPPET_BYTES : end;
		while (to > from && to < end && (d[to] & 0xC0) == 0x80)
			to--;
		for (size_t i = start; i < from; i++)
			skipped += (d[i] & 0xC0) != 0x80;
	}
	a = a - skipped;   /* from is at or before the span's start: a >= skipped */
	b = b > skipped ? b - skipped : 0;
	laid ln;
	if (!lay_out(src, from, to, &ln))
		return false;
	if (a > ln.n)
		a = ln.n;
	if (b > ln.n)
		b = ln.n;
	/* the window of cells shown: all of the line, or SNIPPET_WIDTH cells around the span */
	size_t total = ln.cell[ln.n], w0 = 0, w1 = total;
	if (total > SNIPPET_WIDTH) {
		size_t from = ln.cell[a];
		w0 = from > SNIPPET_WIDTH / 3 ? from - SNIPPET_WIDTH / 3 : 0;
		if (w0 + SNIPPET_WIDTH > total)
			w0 = total - SNIPPET_WIDTH;
		w1 = w0 + SNIPPET_WIDTH;
	}
	size_t k0 = 0, k1 = ln.n;   /* the code points wholly inside the window */
	while (k0 < ln.n && ln.cell[k0] < w0)
		k0++;
	while (k1 > k0 && ln.cell[k1] > w1)
		k1--;
	gutter(out, width, l + 1, "|", c);
	if (ln.n)
		fputc(' ', out);
	const char *cut = "...";
	bool cut_left = k0 > 0 || from > start;
	if (cut_left)
		fputs(cut, out);
	fwrite(ln.text + ln.byte[k0], 1, ln.byte[k1] - ln.byte[k0], out);
	if (k1 < ln.n || to < end)
		fputs(cut, out);
	fputc('\n', out);
	if (mark) {
		size_t lead = cut_left ? strlen(cut) : 0;
		size_t ca = a < k0 ? k0 : a > k1 ? k1 : a, cb = b < ca ? ca : b > k1 ? k1 : b;
		size_t pad = lead + ln.cell[ca] - ln.cell[k0], n = ln.cell[cb] - ln.cell[ca];
		gutter(out, width, 0, "|", c);
		fprintf(out, " %*s%s", (int)pad, "", c->caret);
		for (size_t i = 0; i < (n ? n : 1); i++)
			fputc('^', out);
		fprintf(out, "%s\n", c->reset);
	}
	laid_free(&ln);
	return true;
}

/* The first code point of line l that is not a blank (its length when all are). */
static size_t indent_of(const sl_source *src, size_t l)
{
	size_t start = l == 0 ? src->bom : src->line_start[l], end = sl_source_line_end(src, l);
	size_t i = start;
	while (i < end && (src->data[i] == ' ' || src->data[i] == '\t'))
		i++;
	return i == end ? line_code_points(src, l) : i - start;
}

size_t sl_snippet_write(FILE *out, const sl_source *src, const sl_finding *f,
			const sl_text_colors *c)
{
	size_t l0, c0, l1, c1;
	if (!src->n_lines || !span_of(src, f, &l0, &c0, &l1, &c1))
		return 0;
	size_t width = digits(l1 + 1);
	gutter(out, width, 0, "|", c);
	fputc('\n', out);
	for (size_t l = l0; l <= l1; l++) {
		if (l1 - l0 + 1 > SNIPPET_LINES && l == l0 + 2) {
			fprintf(out, "%s...%s\n", c->gutter, c->reset);
			l = l1 - 1;
		}
		size_t a = l == l0 ? c0 : indent_of(src, l);
		size_t b = l == l1 ? c1 : line_code_points(src, l);
		/* a multi-line span marks the text of each line, not an empty rest of one */
		bool mark = l0 == l1 || a < b;
		if (!show_line(out, src, l, a, b, mark, width, c))
			break;   /* out of memory: the rest of the snippet is left out */
	}
	gutter(out, width, 0, "|", c);
	fputc('\n', out);
	return width;
}

void sl_snippet_note(FILE *out, size_t width, const char *label, const char *text,
		     const sl_text_colors *c)
{
	gutter(out, width ? width : 1, 0, "=", c);
	fprintf(out, " %s%s:%s ", c->label, label, c->reset);
	sl_escape_put(out, text, SL_SINK_TEXT);
	fputc('\n', out);
}
