/* SPDX-License-Identifier: Apache-2.0
** cli/lsp/text.c: positions as LSP counts them and as the library does. LSP: 0-based lines ended by
** \n, \r\n or \r, characters in UTF-16 code units (a code point above U+FFFF is two). The
** library: 1-based lines and columns in code points, lines ended at NEL, LS and PS too. Both
** meet at byte offsets, which the library's findings and edits carry. Bytes that are
** not UTF-8 count as one unit each, as a client that shows them does. */
#include <stdlib.h>
#include <string.h>
#include "cli/lsp/lsp.h"

bool sl_lsp_text_lines(const char *text, size_t len, sl_lsp_lines *out)
{
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n')))
			n++;
	size_t *s = malloc(n * sizeof *s);
	if (!s)
		return false;
	size_t k = 0;
	s[k++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n')))
			s[k++] = i + 1;
	free(out->start);
	out->start = s;
	out->n = n;
	return true;
}

void sl_lsp_text_lines_free(sl_lsp_lines *l)
{
	free(l->start);
	l->start = NULL;
	l->n = 0;
}

/* The end of line i's text, before its break. */
static size_t line_end(const char *text, size_t len, const sl_lsp_lines *l, size_t i)
{
	size_t e = i + 1 < l->n ? l->start[i + 1] : len;
	if (e > l->start[i] && text[e - 1] == '\n')
		e--;
	if (e > l->start[i] && text[e - 1] == '\r')
		e--;
	return e;
}

/* The bytes of the UTF-8 sequence at p (1 for a byte that starts none) and its UTF-16 units. */
static size_t step(const unsigned char *p, size_t left, unsigned *units)
{
	size_t n = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
		 : (p[0] & 0xF8) == 0xF0 ? 4 : 1;
	if (n > left)
		n = 1;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			n = 1;
	*units = n == 4 ? 2 : 1;
	return n;
}

size_t sl_lsp_text_offset(const char *text, size_t len, const sl_lsp_lines *l, uint32_t line,
			  uint32_t character)
{
	if (line >= l->n)
		return len;
	size_t p = l->start[line], e = line_end(text, len, l, line);
	uint32_t u = 0;
	while (p < e && u < character) {
		unsigned k;
		size_t n = step((const unsigned char *)text + p, e - p, &k);
		if (u + k > character)
			break;   /* inside a surrogate pair: before it */
		u += k;
		p += n;
	}
	return p;
}

void sl_lsp_text_position(const char *text, size_t len, const sl_lsp_lines *l, size_t offset,
			  uint32_t *line, uint32_t *character)
{
	if (offset > len)
		offset = len;
	size_t lo = 0, hi = l->n;   /* the last line that starts at or before offset */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->start[mid] <= offset)
			lo = mid;
		else
			hi = mid;
	}
	size_t p = l->start[lo], e = line_end(text, len, l, lo);
	if (offset < e)
		e = offset;
	uint32_t u = 0;
	while (p < e) {
		unsigned k;
		p += step((const unsigned char *)text + p, len - p, &k);
		u += k;
	}
	*line = (uint32_t)lo;
	*character = u;
}

static json_t *position(const char *text, size_t len, const sl_lsp_lines *l, size_t off)
{
	uint32_t line, ch;
	sl_lsp_text_position(text, len, l, off, &line, &ch);
	return json_pack("{s:I, s:I}", "line", (json_int_t)line, "character", (json_int_t)ch);
}

json_t *sl_lsp_text_range(const char *text, size_t len, const sl_lsp_lines *l, size_t from,
			  size_t to)
{
	return json_pack("{s:o, s:o}", "start", position(text, len, l, from), "end",
			 position(text, len, l, to < from ? from : to));
}

bool sl_lsp_text_read_position(const json_t *pos, uint32_t *line, uint32_t *character)
{
	json_t *a = json_object_get(pos, "line"), *b = json_object_get(pos, "character");
	if (!json_is_integer(a) || !json_is_integer(b) || json_integer_value(a) < 0 ||
	    json_integer_value(b) < 0)
		return false;
	json_int_t x = json_integer_value(a), y = json_integer_value(b);
	*line = x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
	*character = y > UINT32_MAX ? UINT32_MAX : (uint32_t)y;
	return true;
}

bool sl_lsp_text_splice(char **text, size_t *len, size_t from, size_t to, const char *rep,
			size_t rlen)
{
	if (from > *len)
		from = *len;
	if (to < from)
		to = from;
	if (to > *len)
		to = *len;
	size_t nlen = *len - (to - from) + rlen;
	if (rlen > to - from) {
		char *nt = realloc(*text, nlen + 1);
		if (!nt)
			return false;
		*text = nt;
	}
	memmove(*text + from + rlen, *text + to, *len - to);
	memcpy(*text + from, rep, rlen);
	*len = nlen;
	(*text)[nlen] = '\0';
	return true;
}

json_t *sl_lsp_text_diff_edit(const char *old, size_t olen, const sl_lsp_lines *l,
			      const char *new_, size_t nlen)
{
	size_t a = 0;
	while (a < olen && a < nlen && old[a] == new_[a])
		a++;
	if (a == olen && a == nlen)
		return NULL;
	size_t b = 0;
	while (b < olen - a && b < nlen - a && old[olen - 1 - b] == new_[nlen - 1 - b])
		b++;
	/* whole UTF-8 sequences and whole CRLFs only: back up to a boundary */
	while (a > 0 && a < olen && ((unsigned char)old[a] & 0xC0) == 0x80)
		a--;
	while (a > 0 && old[a - 1] == '\r' && a < olen && old[a] == '\n')
		a--;
	while (b > 0 && olen - b < olen && ((unsigned char)old[olen - b] & 0xC0) == 0x80)
		b--;
	while (b > 0 && olen - b > 0 && old[olen - b - 1] == '\r' && old[olen - b] == '\n')
		b--;
	json_t *range = sl_lsp_text_range(old, olen, l, a, olen - b);
	json_t *t = json_stringn(new_ + a, nlen - a - b);
	return json_pack("{s:o, s:o}", "range", range, "newText", t);
}
