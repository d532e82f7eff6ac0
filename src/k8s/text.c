/* SPDX-License-Identifier: Apache-2.0
** text.c: bounded message building for src/k8s/ (see text.h) and the small string-view helpers
** of k8s.h. Quoting follows Go's strconv.Quote closely enough for ASCII and valid UTF-8; other
** bytes become \xNN, as Go prints them. */
#include "k8s/text.h"

#include <stdio.h>
#include <string.h>

sl_k8s_str sl_k8s_cstr(const char *s)
{
	sl_k8s_str v = { s, s ? strlen(s) : 0 };
	return v;
}

bool sl_k8s_str_eq(sl_k8s_str a, sl_k8s_str b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.s, b.s, a.n) == 0);
}

bool sl_k8s_str_is(sl_k8s_str a, const char *lit)
{
	return sl_k8s_str_eq(a, sl_k8s_cstr(lit));
}

bool sl_k8s_str_is_placeholder(sl_k8s_str a)
{
	for (size_t i = 0; i + 1 < a.n; i++)
		if ((a.s[i] == '$' && a.s[i + 1] == '{') || (a.s[i] == '{' && a.s[i + 1] == '{'))
			return true;
	if (a.n < 2 || a.s[0] != '$')
		return false;
	char c = a.s[1];
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

const char *sl_k8s_field_name(sl_k8s_field f)
{
	switch (f) {
	case SL_K8S_F_KEY: return "key";
	case SL_K8S_F_OPERATOR: return "operator";
	case SL_K8S_F_VALUE: return "value";
	case SL_K8S_F_VALUES: return "values";
	case SL_K8S_F_EFFECT: return "effect";
	case SL_K8S_F_SECONDS: return "tolerationSeconds";
	case SL_K8S_F_NONE: break;
	}
	return "";
}

void sl_k8s__buf_init(sl_k8s__buf *b, char *buf, size_t cap)
{
	b->buf = buf;
	b->cap = buf ? cap : 0;
	b->len = 0;
	if (b->cap > 0)
		b->buf[0] = '\0';
}

void sl_k8s__buf_addn(sl_k8s__buf *b, const char *s, size_t n)
{
	if (b->cap > 0 && b->len < b->cap - 1) {
		size_t room = b->cap - 1 - b->len;
		size_t k = n < room ? n : room;
		if (k)   /* an empty view may have a NULL pointer; memcpy must not see it */
			memcpy(b->buf + b->len, s, k);
		b->buf[b->len + k] = '\0';
	}
	b->len += n;
}

void sl_k8s__buf_add(sl_k8s__buf *b, const char *s)
{
	sl_k8s__buf_addn(b, s, strlen(s));
}

void sl_k8s__buf_int(sl_k8s__buf *b, long long v)
{
	char tmp[32];
	int k = snprintf(tmp, sizeof tmp, "%lld", v);
	sl_k8s__buf_addn(b, tmp, (size_t)k);
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xE0) == 0xC0) { len = 2; cp = s[0] & 0x1F; }
	else if ((s[0] & 0xF0) == 0xE0) { len = 3; cp = s[0] & 0x0F; }
	else if ((s[0] & 0xF8) == 0xF0) { len = 4; cp = s[0] & 0x07; }
	else return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

void sl_k8s__buf_quote(sl_k8s__buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	sl_k8s__buf_addn(b, "\"", 1);
	while (i < n) {
		unsigned char c = u[i];
		char esc[4];
		size_t k;
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			sl_k8s__buf_addn(b, esc, 2);
			i++;
		} else if (c >= 0x20 && c < 0x7F) {
			sl_k8s__buf_addn(b, (const char *)u + i, 1);
			i++;
		} else if (c == '\n' || c == '\t' || c == '\r' || c == '\a' || c == '\b' ||
			   c == '\f' || c == '\v') {
			const char *m = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" :
					c == '\a' ? "\\a" : c == '\b' ? "\\b" : c == '\f' ? "\\f" : "\\v";
			sl_k8s__buf_add(b, m);
			i++;
		} else if (c >= 0x80 && (k = utf8_len(u + i, n - i)) > 0) {
			sl_k8s__buf_addn(b, (const char *)u + i, k);
			i += k;
		} else {
			char x[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };
			sl_k8s__buf_addn(b, x, 4);
			i++;
		}
	}
	sl_k8s__buf_addn(b, "\"", 1);
}

sl_k8s__buf sl_k8s__problem(sl_k8s_problem *p, sl_k8s_field field, sl_k8s_field api_field)
{
	sl_k8s__buf b;
	p->field = field;
	p->api_field = api_field;
	p->index = -1;
	sl_k8s__buf_init(&b, p->message, sizeof p->message);
	return b;
}

const char *sl_k8s__next_message(const char *p, char *one, size_t cap)
{
	const char *e = strstr(p, "; ");
	size_t k = e ? (size_t)(e - p) : strlen(p);
	if (k >= cap)
		k = cap - 1;
	memcpy(one, p, k);
	one[k] = '\0';
	return e ? e + 2 : NULL;
}
