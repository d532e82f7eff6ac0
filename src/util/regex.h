/* SPDX-License-Identifier: Apache-2.0
** regex.h: what every PCRE2 user in the library shares. */
#ifndef SL_REGEX_H
#define SL_REGEX_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>
#include "schedlint/error.h"

/* JIT-compiles code for speed, except under valgrind: JIT-generated code reads memory valgrind
** cannot follow and floods memcheck with false reports, so the interpreter runs there. */
void sl_regex_jit(pcre2_code *code);

/* The limits every match runs under (pcre2_set_match_limit / pcre2_set_depth_limit): far more
** than a sane pattern needs on a path or a value, far less than PCRE2's defaults (10 million),
** so a pattern that backtracks catastrophically stops in milliseconds instead of minutes. */
#define SL_REGEX_MATCH_LIMIT 1000000u
#define SL_REGEX_DEPTH_LIMIT 100000u

/* pcre2_match(code, s, len, start, 0, md) under the limits above. Like pcre2_match it returns
** a count > 0 on a match and PCRE2_ERROR_NOMATCH when there is none; any other negative value
** (PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_NOMEMORY, ...) means the match
** could not be decided, which a caller must report, never take as "no match". */
int sl_regex_match(const pcre2_code *code, const char *s, size_t len, size_t start,
		   pcre2_match_data *md);
/* A run's budget for user-written patterns (a declared rule's schema and selectors): the match
** limit bounds one match, not a run, and a catastrophic pattern over thousands of values would
** spend it on each. Every match is charged (a match stopped by the limit SL_REGEX_MATCH_LIMIT,
** another the length of its subject); once the budget is spent the run's matches are not run
** and give SL_REGEX_BUDGET_SPENT, undecided like a limit. The budget is SL_REGEX_RUN_BUDGET plus
** SL_REGEX_PER_BYTE for each byte of the files checked (sl_regex_budget_grant): ordinary
** patterns, linear in their subjects, never spend it however large the repository, while
** catastrophic ones stop after 16 limits' worth beyond that. Zeroed: a fresh budget. Shared by
** the run's threads. */
#define SL_REGEX_RUN_BUDGET (16ull * SL_REGEX_MATCH_LIMIT)
#define SL_REGEX_PER_BYTE 64u
#define SL_REGEX_BUDGET_SPENT (-10000)
typedef struct sl_regex_budget {
	_Atomic unsigned long long spent;
	_Atomic unsigned long long granted;   /* beyond SL_REGEX_RUN_BUDGET */
} sl_regex_budget;
/* Adds SL_REGEX_PER_BYTE per byte of a file about to be checked to budget. */
void sl_regex_budget_grant(sl_regex_budget *budget, size_t bytes);
/* True when budget is spent: matches charged to it are not run. */
bool sl_regex_budget_spent(sl_regex_budget *budget);
/* sl_regex_match charged to budget (NULL: none). */
int sl_regex_match_budget(const pcre2_code *code, const char *s, size_t len, size_t start,
			  pcre2_match_data *md, sl_regex_budget *budget);
/* A phrase for a negative sl_regex_match result, for messages ("hit the match limit"). */
const char *sl_regex_error(int rc);

/* A pattern a user wrote (a declared rule's selector, a JSON Schema pattern): pattern[0..len)
** compiled in UTF mode with Unicode properties, JIT-compiled. NULL when it does not compile:
** why gets PCRE2's message and the offset ("missing closing parenthesis at offset 3"). */
pcre2_code *sl_regex_compile_user(const char *pattern, size_t len, char *why, size_t why_size);

/* Compiled patterns to free together. */
typedef struct sl_regex_list {
	pcre2_code **v;
	size_t n;
} sl_regex_list;
/* Adds code to l; SL_ENOMEM (code freed) when l cannot grow. */
sl_err sl_regex_keep(sl_regex_list *l, pcre2_code *code);
void sl_regex_list_free(sl_regex_list *l);

#endif
