/* SPDX-License-Identifier: Apache-2.0
** regex.c: PCRE2 JIT compilation, skipped under valgrind (RUNNING_ON_VALGRIND when the build
** found valgrind's header). */
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
