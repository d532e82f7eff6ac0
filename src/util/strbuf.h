/* SPDX-License-Identifier: Apache-2.0
** strbuf.h: the library's one growable byte buffer, allocating through sl_x* (arena.h, so the
** out-of-memory test reaches it). A failed allocation marks the buffer failed: later additions
** do nothing, and the caller checks once at the end.
**     sl_strbuf b = {0};
**     sl_strbuf_add(&b, "key: ", 5);
**     sl_strbuf_addf(&b, "%d", n);
**     if (b.failed) ... else use b.s (NUL-terminated), b.len; sl_strbuf_free(&b); */
#ifndef SL_STRBUF_H
#define SL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct sl_strbuf {
	char *s;          /* NUL-terminated once anything was added; NULL before */
	size_t len, cap;  /* bytes held (without the NUL), bytes allocated */
	bool failed;      /* an allocation failed: nothing is added any more */
} sl_strbuf;

/* Room for n more bytes and the NUL (at least double the capacity, at least 64 bytes); false
** when out of memory or b already failed. */
bool sl_strbuf_grow(sl_strbuf *b, size_t n);
/* Room for n more bytes and the NUL, and no more when it must grow: for a size known in advance
** (a file's), which doubling would round up to nearly twice. False as sl_strbuf_grow. */
bool sl_strbuf_reserve_exact(sl_strbuf *b, size_t n);
/* sl_strbuf_add when b must grow (or failed). */
bool sl_strbuf_add_slow(sl_strbuf *b, const void *s, size_t n);
/* Appends s[0..n); false when out of memory (b->failed then) or b already failed. Inline while
** there is room: outputs append a few bytes at a time. */
static inline bool sl_strbuf_add(sl_strbuf *b, const void *s, size_t n)
{
	if (b->s && n < b->cap - b->len && !b->failed) {
		if (n)   /* an empty view may have a NULL pointer */
			memcpy(b->s + b->len, s, n);
		b->len += n;
		b->s[b->len] = '\0';
		return true;
	}
	return sl_strbuf_add_slow(b, s, n);
}
/* Appends the string s. */
bool sl_strbuf_addstr(sl_strbuf *b, const char *s);
/* Appends n copies of byte c. */
bool sl_strbuf_addch(sl_strbuf *b, char c, size_t n);
/* Appends a printf-formatted string. */
bool sl_strbuf_addf(sl_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The bytes held, the caller's to free (a "" when nothing was added), and b empty again; NULL
** when b failed (its bytes freed) or out of memory. */
char *sl_strbuf_take(sl_strbuf *b);
/* Frees the bytes; b is empty again. */
void sl_strbuf_free(sl_strbuf *b);

#endif
