/* SPDX-License-Identifier: Apache-2.0
** diff.h: unified diffs between a file's original and fixed text, for --diff. */
#ifndef SL_DIFF_H
#define SL_DIFF_H

#include <stdio.h>
#include "schedlint/error.h"

/* Writes the unified diff (3 lines of context) turning a into b, with "--- path" and
** "+++ path" headers; nothing when they are equal. SL_ENOMEM or SL_EIO. */
sl_err sl_diff_write(FILE *out, const char *path, const char *a, size_t alen, const char *b,
		     size_t blen);

#endif
