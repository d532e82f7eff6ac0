/* SPDX-License-Identifier: Apache-2.0
** regex.c: PCRE2 JIT compilation, skipped under valgrind (RUNNING_ON_VALGRIND when the build
** found valgrind's header), and matching under limits. */
#include <pthread.h>
#include "regex.h"
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

const char *sl_regex_error(int rc)
{
	switch (rc) {
	case PCRE2_ERROR_MATCHLIMIT: return "hit the match limit";
	case PCRE2_ERROR_DEPTHLIMIT: return "hit the depth limit";
	case PCRE2_ERROR_HEAPLIMIT: return "hit the heap limit";
	case PCRE2_ERROR_NOMEMORY: return "ran out of memory";
	default: return "could not be matched";
	}
}
