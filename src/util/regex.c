/* SPDX-License-Identifier: Apache-2.0
** regex.c: PCRE2 JIT compilation, skipped under valgrind (RUNNING_ON_VALGRIND when the build
** found valgrind's header), matching under limits, and the patterns users write (declared
** rules, JSON Schema): compiled with PCRE2's message on failure, kept in lists to free. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "util/arena.h"
#include "util/regex.h"
#ifdef SL_HAVE_VALGRIND_H
#include <valgrind/valgrind.h>
#endif

void sl_regex_jit(pcre2_code *code)
{
#ifdef SL_HAVE_VALGRIND_H
	if (RUNNING_ON_VALGRIND)
		return;
#endif
	if (code)
		(void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
}

/* One match context for the process, made once, then only read (PCRE2 allows sharing). */
static pcre2_match_context *limits;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

static void make_limits(void)
{
	limits = pcre2_match_context_create(NULL);
	if (limits) {
		pcre2_set_match_limit(limits, SL_REGEX_MATCH_LIMIT);
		pcre2_set_depth_limit(limits, SL_REGEX_DEPTH_LIMIT);
	}
}

int sl_regex_match(const pcre2_code *code, const char *s, size_t len, size_t start,
		   pcre2_match_data *md)
{
	pthread_once(&limits_once, make_limits);
	if (!limits)
		return PCRE2_ERROR_NOMEMORY;   /* never unlimited */
	return pcre2_match(code, (PCRE2_SPTR)(s ? s : ""), len, start, 0, md, limits);
}

void sl_regex_budget_grant(sl_regex_budget *budget, size_t bytes)
{
	atomic_fetch_add(&budget->granted, (unsigned long long)bytes * SL_REGEX_PER_BYTE);
}

bool sl_regex_budget_spent(sl_regex_budget *budget)
{
	return atomic_load(&budget->spent) >= SL_REGEX_RUN_BUDGET + atomic_load(&budget->granted);
}

int sl_regex_match_budget(const pcre2_code *code, const char *s, size_t len, size_t start,
			  pcre2_match_data *md, sl_regex_budget *budget)
{
	if (budget && sl_regex_budget_spent(budget))
		return SL_REGEX_BUDGET_SPENT;
	int rc = sl_regex_match(code, s, len, start, md);
	if (budget)
		atomic_fetch_add(&budget->spent, rc == PCRE2_ERROR_MATCHLIMIT ||
				 rc == PCRE2_ERROR_DEPTHLIMIT ? SL_REGEX_MATCH_LIMIT : len + 1);
	return rc;
}

const char *sl_regex_error(int rc)
{
	switch (rc) {
	case SL_REGEX_BUDGET_SPENT:
		return "was not run: the run's budget for patterns is spent (16 matches' worth of "
		       "the match limit beyond 64 steps per byte checked; a pattern that backtracks "
		       "catastrophically spends it)";
	case PCRE2_ERROR_MATCHLIMIT: return "hit the match limit";
	case PCRE2_ERROR_DEPTHLIMIT: return "hit the depth limit";
	case PCRE2_ERROR_HEAPLIMIT: return "hit the heap limit";
	case PCRE2_ERROR_NOMEMORY: return "ran out of memory";
	default: return "could not be matched";
	}
}

pcre2_code *sl_regex_compile_user(const char *pattern, size_t len, char *why, size_t why_size)
{
	int errcode = 0;
	PCRE2_SIZE off = 0;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, len, PCRE2_UTF | PCRE2_UCP, &errcode,
					 &off, NULL);
	if (!code) {
		PCRE2_UCHAR msg[160];
		pcre2_get_error_message(errcode, msg, sizeof msg);
		snprintf(why, why_size, "%s at offset %zu", (const char *)msg, (size_t)off);
		return NULL;
	}
	sl_regex_jit(code);
	return code;
}

sl_err sl_regex_keep(sl_regex_list *l, pcre2_code *code)
{
	pcre2_code **nv = sl_xrealloc(l->v, (l->n + 1) * sizeof *nv);
	if (!nv) {
		pcre2_code_free(code);
		return SL_ENOMEM;
	}
	l->v = nv;
	l->v[l->n++] = code;
	return SL_OK;
}

void sl_regex_list_free(sl_regex_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		pcre2_code_free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
