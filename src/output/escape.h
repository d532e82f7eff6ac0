/* SPDX-License-Identifier: Apache-2.0
** escape.h (private): the escaper (schedlint/escape.h: every sink, what it does) and the parts
** of it only the library's writers use: one character at a time, and JSON strings as jansson
** values. */
#ifndef SL_ESCAPE_H
#define SL_ESCAPE_H

#include <jansson.h>
#include <stdio.h>
#include "schedlint/escape.h"

/* The one character at s[i] (of s[0..n), which need not be NUL-terminated) escaped for sink
** into buf, NUL-terminated: what sl_escape_str makes of it in s (a character starting "##["
** included); returns the bytes of s it took (1 for a byte that is not valid UTF-8). For a
** writer that lays out a line character by character (the source lines of full text output). */
#define SL_ESCAPE_CHAR_MAX 16
size_t sl_escape_char(const char *s, size_t n, size_t i, sl_sink sink, char buf[SL_ESCAPE_CHAR_MAX]);
/* A JSON string holding s as SL_SINK_JSON makes it (json null for NULL), a new reference; NULL
** only when out of memory. */
json_t *sl_escape_json(const char *s);

#endif
