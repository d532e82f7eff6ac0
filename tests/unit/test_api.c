/* SPDX-License-Identifier: Apache-2.0
** test_api.c: the library's contract as a program linking it sees it: version macros that agree
** with sl_version(). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"

Test(api, version_macros_match_the_library)
{
	cr_assert_str_eq(sl_version(), SL_VERSION_STRING);
	char made[32];
	snprintf(made, sizeof made, "%d.%d.%d", SL_VERSION_MAJOR, SL_VERSION_MINOR, SL_VERSION_PATCH);
	cr_assert_str_eq(made, SL_VERSION_STRING);
	cr_assert_eq(SL_VERSION_NUMBER,
		     SL_VERSION_MAJOR * 10000 + SL_VERSION_MINOR * 100 + SL_VERSION_PATCH);
	cr_assert(SL_VERSION_NUMBER >= SL_VERSION_ENCODE(0, 1, 0));
}
