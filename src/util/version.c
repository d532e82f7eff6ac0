/* SPDX-License-Identifier: Apache-2.0
** version.c: the library's version, as built (include/schedlint/version.h says the headers'). */
#include "schedlint/schedlint.h"
#include "schedlint/version.h"

const char *sl_version(void)
{
	return SL_VERSION_STRING;
}
