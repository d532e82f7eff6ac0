/* SPDX-License-Identifier: Apache-2.0
** text.h: private helpers of src/k8s/ that build messages in the API server's wording into
** caller buffers: bounded appends (never overflowing, always NUL-terminated) and Go's %q
** quoting of a bad value. Not for use outside src/k8s/. */
#ifndef SL_K8S_TEXT_H
#define SL_K8S_TEXT_H

#include <stddef.h>
#include "k8s/k8s.h"

/* A bounded string builder over a caller buffer (buf may be NULL when cap is 0). */
typedef struct sl_k8s__buf {
	char *buf;
	size_t cap;
	size_t len;   /* bytes that would have been written without truncation */
} sl_k8s__buf;

/* Starts a builder over buf[0..cap) and writes the empty string into it. */
void sl_k8s__buf_init(sl_k8s__buf *b, char *buf, size_t cap);
/* Appends n bytes of s (truncating, keeping the NUL). */
void sl_k8s__buf_addn(sl_k8s__buf *b, const char *s, size_t n);
/* Appends the NUL-terminated s. */
void sl_k8s__buf_add(sl_k8s__buf *b, const char *s);
/* Appends s quoted as Go's %q (strconv.Quote) does: "a\"b", \t, \n, \x00, \u00e9 kept. */
void sl_k8s__buf_quote(sl_k8s__buf *b, const char *s, size_t n);
/* Appends a decimal integer. */
void sl_k8s__buf_int(sl_k8s__buf *b, long long v);

/* Starts problem p: fields, index -1, empty message; returns a builder over its message. */
sl_k8s__buf sl_k8s__problem(sl_k8s_problem *p, sl_k8s_field field, sl_k8s_field api_field);

/* Copies the first "; "-separated message of p into one (truncated to cap - 1 bytes) and
** returns where the next begins, or NULL after the last: the API server joins several
** messages of one field that way, and the problems report them one by one. */
const char *sl_k8s__next_message(const char *p, char *one, size_t cap);

#endif
