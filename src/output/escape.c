/* SPDX-License-Identifier: Apache-2.0
** escape.c: escaping bytes from manifests and file names for each output sink (escape.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output/escape.h"
#include "util/strbuf.h"
#include "util/v16.h"
#include "yaml/source.h"

static void put_fmt(sl_strbuf *b, const char *prefix, unsigned v, int digits)
{
	static const char hex[] = "0123456789abcdef";
	char t[16];
	size_t n = strlen(prefix);
	memcpy(t, prefix, n);
	for (int i = digits - 1; i >= 0; i--)
		t[n++] = hex[(v >> (4 * i)) & 15];
	sl_strbuf_add(b, t, n);
}

/* Controls that reorder or break displayed text: C1, the Arabic letter mark, LRM/RLM, the
** line and paragraph separators, the embeddings and overrides, the isolates. */
static bool invisible_control(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
	       (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The ASCII punctuation that means something in a Markdown table cell (emphasis, code, links,
** strikethrough, the cell separator, mentions, the escape itself): each is backslash-escaped. */
#define MARKDOWN_PUNCT "\\`*_[]|~@!#"

static const char *markdown_punct(unsigned cp)
{
	static const char *const esc[] = {"\\\\", "\\`", "\\*", "\\_", "\\[", "\\]", "\\|",
					   "\\~", "\\@", "\\!", "\\#"};
	_Static_assert(sizeof esc / sizeof esc[0] == sizeof MARKDOWN_PUNCT - 1, "one each");
	return esc[strchr(MARKDOWN_PUNCT, (int)cp) - MARKDOWN_PUNCT];
}

static bool text_like(sl_sink sink)
{
	return sink != SL_SINK_XML;
}

/* Escapes the character at s[i] (of s[0..n)) for sink into b; returns the bytes it took. */
static size_t escape_one(sl_strbuf *b, const char *s, size_t n, size_t i, sl_sink sink)
{
	const unsigned char *p = (const unsigned char *)s;
	bool github = sink == SL_SINK_GITHUB_DATA || sink == SL_SINK_GITHUB_PROP;
	unsigned cp;
	size_t len = sl_source_utf8_decode(p + i, n - i, &cp);
	if (!len) {
		put_fmt(b, "\\x", p[i], 2);
		return 1;
	}
	const char *rep = NULL;
	if (github) {
		rep = cp == '%' ? "%25" : cp == '\r' ? "%0D" : cp == '\n' ? "%0A"
		    : sink == SL_SINK_GITHUB_PROP && cp == ':' ? "%3A"
		    : sink == SL_SINK_GITHUB_PROP && cp == ',' ? "%2C" : NULL;
	} else if (sink == SL_SINK_XML) {
		rep = cp == '&' ? "&amp;" : cp == '<' ? "&lt;" : cp == '>' ? "&gt;"
		    : cp == '"' ? "&quot;" : cp == '\'' ? "&apos;" : cp == '\t' ? "&#9;"
		    : cp == '\n' ? "&#10;" : cp == '\r' ? "&#13;" : NULL;
	} else if (sink == SL_SINK_MARKDOWN) {
		rep = cp == '&' ? "&amp;" : cp == '<' ? "&lt;" : cp == '>' ? "&gt;"
		    : cp == '\n' ? "<br>" : cp == '\t' ? "\\t" : cp == '\r' ? "\\r"
		    : cp < 0x80 && strchr(MARKDOWN_PUNCT, (int)cp) ? markdown_punct(cp) : NULL;
	} else {
		rep = cp == '\t' ? "\\t" : cp == '\n' ? "\\n" : cp == '\r' ? "\\r" : NULL;
	}
	if (rep) {
		sl_strbuf_addstr(b, rep);
	} else if (cp < 0x20 || cp == 0x7F) {
		put_fmt(b, "\\x", cp, 2);
	} else if (sink == SL_SINK_XML && (cp == 0xFFFE || cp == 0xFFFF)) {
		put_fmt(b, "\\u", cp, 4);
	} else if (invisible_control(cp)) {
		if (sink == SL_SINK_XML) {
			put_fmt(b, "&#x", cp, 4);
			sl_strbuf_addstr(b, ";");
		} else {
			put_fmt(b, "\\u", cp, 4);
		}
	} else if (text_like(sink) && cp == '#' && i + 2 < n && p[i + 1] == '#' && p[i + 2] == '[') {
		sl_strbuf_addstr(b, "\\x23");
	} else {
		sl_strbuf_add(b, s + i, len);
	}
	return len;
}

/* How many bytes of s[0..n) are valid UTF-8 from its start. */
static size_t valid_prefix(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	unsigned cp;
	for (size_t len; i < n && (len = sl_source_utf8_decode(p + i, n - i, &cp)); )
		i += len;
	return i;
}

/* s as valid UTF-8: each byte that is not part of a valid sequence as U+FFFD (SL_SINK_JSON). */
static void utf8_into(sl_strbuf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp;
	for (size_t i = 0; i < n; ) {
		size_t len = sl_source_utf8_decode(p + i, n - i, &cp);
		if (len) {
			sl_strbuf_add(b, s + i, len);
			i += len;
		} else {
			sl_strbuf_addstr(b, "\xEF\xBF\xBD");   /* U+FFFD */
			i++;
		}
	}
}

/* The printable ASCII bytes a sink replaces (escape_one), and '#' (which may start "##["). */
static const char *special_bytes(sl_sink sink)
{
	return sink == SL_SINK_GITHUB_DATA ? "#%"
	     : sink == SL_SINK_GITHUB_PROP ? "#%:,"
	     : sink == SL_SINK_XML ? "#&<>\"'"
	     : sink == SL_SINK_MARKDOWN ? "&<>" MARKDOWN_PUNCT : "#";
}

/* How many bytes of s[i..n) from i escape_one would copy as they are for sink (special its
** special_bytes): printable ASCII but the special ones, looked at sixteen at a time. */
static size_t plain_run(const char *s, size_t i, size_t n, const char *special)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t j = i;
	for (; n - j >= 16; j += 16) {
		sl_v16 v = sl_v16_load(p + j);
		sl_v16 bad = ~sl_v16_between(v, 0x20, 0x7E);
		for (const char *c = special; *c; c++)
			bad |= v == (signed char)*c;
		unsigned m = sl_v16_mask(bad);
		if (m)
			return j + (size_t)__builtin_ctz(m) - i;
	}
	while (j < n && p[j] >= 0x20 && p[j] < 0x7F && !strchr(special, p[j]))
		j++;
	return j - i;
}

/* For a sink that starts a line, where s[0..n) would start a workflow command: a line that
** starts with "::" (leading blanks allowed); n when it would not. */
static size_t command_at(const char *s, size_t n, sl_sink sink)
{
	size_t j = 0;
	if (sink != SL_SINK_TEXT_LINE && sink != SL_SINK_DIFF)
		return n;
	while (j < n && s[j] == ' ')
		j++;
	return j + 1 < n && s[j] == ':' && s[j + 1] == ':' ? j : n;
}

static void escape_into(sl_strbuf *b, const char *s, sl_sink sink)
{
	size_t n = strlen(s);
	if (sink == SL_SINK_JSON) {
		utf8_into(b, s, n);
		return;
	}
	size_t i = 0, cmd = command_at(s, n, sink);
	if (cmd < n) {
		sl_strbuf_add(b, s, cmd);
		sl_strbuf_addstr(b, "\\x3a");
		i = cmd + 1;
	}
	const char *special = special_bytes(sink);
	while (i < n) {
		size_t j = i + plain_run(s, i, n, special);
		sl_strbuf_add(b, s + i, j - i);   /* a run escape_one would copy byte by byte */
		if (j < n)
			j += escape_one(b, s, n, j, sink);
		i = j;
	}
}

size_t sl_escape_char(const char *s, size_t n, size_t i, sl_sink sink, char buf[SL_ESCAPE_CHAR_MAX])
{
	char tmp[SL_ESCAPE_CHAR_MAX];
	sl_strbuf b = {.s = tmp, .cap = sizeof tmp};
	size_t len = escape_one(&b, s, n, i, sink);
	memcpy(buf, tmp, b.len);
	buf[b.len] = '\0';
	return len;
}

char *sl_escape_str(const char *s, sl_sink sink)
{
	if (!s)
		return NULL;
	sl_strbuf b = {0};
	escape_into(&b, s, sink);
	return sl_strbuf_take(&b);
}

void sl_escape_put(FILE *out, const char *s, sl_sink sink)
{
	if (!s)
		return;
	size_t n = strlen(s);
	if (sink != SL_SINK_JSON && command_at(s, n, sink) == n &&
	    plain_run(s, 0, n, special_bytes(sink)) == n) {
		fwrite(s, 1, n, out);   /* most messages and paths: as they are, with no copy */
		return;
	}
	char *e = sl_escape_str(s, sink);
	if (e) {
		fputs(e, out);
		free(e);
	} else {
		/* out of memory: write nothing of s rather than its raw bytes */
		fputs("?", out);
	}
}

json_t *sl_escape_json(const char *s)
{
	if (!s)
		return json_null();
	size_t n = strlen(s);
	if (valid_prefix(s, n) == n)
		return json_stringn(s, n);
	char *u = sl_escape_str(s, SL_SINK_JSON);
	json_t *j = u ? json_string(u) : NULL;
	free(u);
	return j;
}
