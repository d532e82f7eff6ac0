/* SPDX-License-Identifier: Apache-2.0
** strbuf.c: a growable byte buffer (strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "util/strbuf.h"

/* Room for n more bytes and the NUL: exactly that, or by doubling. */
static bool make_room(sl_strbuf *b, size_t n, bool exact)
{
	if (b->failed)
		return false;
	if (b->cap && n < b->cap - b->len)
		return true;
	if (n > (size_t)-1 / 2 - b->len - 1) {
		b->failed = true;
		return false;
	}
	size_t cap = exact ? b->len + n + 1 : b->cap ? b->cap * 2 : 64;
	while (cap < b->len + n + 1)
		cap *= 2;
	char *s = sl_xrealloc(b->s, cap);
	if (!s) {
		b->failed = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

bool sl_strbuf_grow(sl_strbuf *b, size_t n)
{
	return make_room(b, n, false);
}

bool sl_strbuf_reserve_exact(sl_strbuf *b, size_t n)
{
	return make_room(b, n, true);
}

bool sl_strbuf_add_slow(sl_strbuf *b, const void *s, size_t n)
{
	if (!sl_strbuf_grow(b, n))
		return false;
	if (n)   /* an empty view may have a NULL pointer */
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return true;
}

bool sl_strbuf_addstr(sl_strbuf *b, const char *s)
{
	return sl_strbuf_add(b, s, strlen(s));
}

bool sl_strbuf_addch(sl_strbuf *b, char c, size_t n)
{
	if (!sl_strbuf_grow(b, n))
		return false;
	memset(b->s + b->len, c, n);
	b->len += n;
	b->s[b->len] = '\0';
	return true;
}

bool sl_strbuf_addf(sl_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !sl_strbuf_grow(b, (size_t)n)) {
		b->failed = true;
		return false;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return true;
}

char *sl_strbuf_take(sl_strbuf *b)
{
	if (!b->s && sl_strbuf_grow(b, 0))
		b->s[0] = '\0';
	if (b->failed) {
		sl_strbuf_free(b);
		return NULL;
	}
	char *s = b->s;
	*b = (sl_strbuf){0};
	return s;
}

void sl_strbuf_free(sl_strbuf *b)
{
	free(b->s);
	*b = (sl_strbuf){0};
}
