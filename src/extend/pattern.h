/* SPDX-License-Identifier: Apache-2.0
** pattern.h: a pattern a user wrote (a declared rule's selector, a JSON Schema pattern or
** patternProperties key), compiled once with PCRE2 (sl_regex_compile_user) and matched without
** it when it is one of the shapes policies mostly use: an anchored literal (`^inference-`,
** `^prod$`), its negation (`^(?!gateway$)`), a literal anywhere (`gpu`), one ASCII character
** class over the whole value (`^[a-z0-9./-]+$`). Those are matched byte by byte with PCRE2's
** answer exactly: `$` also before a final line break, as PCRE2 reads it by default; a value
** with a byte above 0x7f goes to PCRE2, which checks its UTF-8 first. Everything else is
** PCRE2's. */
#ifndef SL_PATTERN_H
#define SL_PATTERN_H

#include <stdint.h>
#include "util/arena.h"
#include "util/regex.h"

typedef struct sl_pattern {
	pcre2_code *re;        /* always compiled: a shape is only a shortcut */
	uint8_t shape;         /* enum in pattern.c; 0: PCRE2's */
	const char *lit;       /* the literal of a literal shape (escapes undone) */
	size_t len;
	uint8_t in[256];       /* 1 for each byte of the class */
} sl_pattern;

/* Compiles text[0..len) into *out, made in arena a, its code kept in l (freed with it).
** SL_EPARSE when it does not compile (why: PCRE2's message and offset); SL_ENOMEM. */
sl_err sl_pattern_compile(sl_arena *a, sl_regex_list *l, const char *text, size_t len,
			  sl_pattern **out, char *why, size_t why_size);

/* Matches s[0..len) as sl_regex_match_budget(p->re, ...) does (budget NULL: none) and with
** its results: > 0 on a match, PCRE2_ERROR_NOMATCH, another negative value when undecided
** (SL_REGEX_BUDGET_SPENT once the budget is spent: a shortcut is charged as a match is).
** *md is the match data, made on first need (the caller frees it). */
int sl_pattern_match(const sl_pattern *p, const char *s, size_t len, pcre2_match_data **md,
		     sl_regex_budget *budget);

#endif
