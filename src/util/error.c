/* SPDX-License-Identifier: Apache-2.0
** error.c: names of the error codes. */
#include "schedlint/error.h"

static const char *const messages[] = {
	[SL_OK] = "success",
	[SL_ENOMEM] = "out of memory",
	[SL_EIO] = "input/output error",
	[SL_EPARSE] = "parse error",
	[SL_ECONFIG] = "invalid configuration",
	[SL_ENOTFOUND] = "not found",
	[SL_EUSAGE] = "invalid usage",
	[SL_EINTERNAL] = "internal error",
};
_Static_assert(sizeof messages / sizeof messages[0] == SL_ERR__COUNT,
	       "every sl_err has a message");

const char *sl_strerror(sl_err err)
{
	if ((unsigned)err >= SL_ERR__COUNT)
		return "unknown error";
	return messages[err];
}
