/* SPDX-License-Identifier: Apache-2.0
** repo.h: the git repository a path is in, found with libgit2 (never by parsing .git by hand). */
#ifndef SL_REPO_H
#define SL_REPO_H

#include "schedlint/error.h"

/* The work tree's root of the repository start_dir is in (git's own search upwards), as a
** real path without a trailing '/'. *out is malloc'd. SL_ENOTFOUND when start_dir is in no
** repository or a bare one; SL_ENOMEM. */
sl_err sl_repo_root(const char *start_dir, char **out);

#endif
