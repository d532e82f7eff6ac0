/* SPDX-License-Identifier: Apache-2.0
** repo.c: the git repository a path is in (repo.h), through libgit2. libgit2 is initialised
** only for the call, so a run that needs no repository pays nothing for it. */
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "repo.h"

sl_err sl_repo_root(const char *start_dir, char **out)
{
	if (git_libgit2_init() < 0)
		return SL_ENOTFOUND;
	git_repository *repo = NULL;
	sl_err err = SL_ENOTFOUND;
	if (git_repository_open_ext(&repo, start_dir, 0, NULL) == 0) {
		const char *wd = git_repository_workdir(repo);   /* NULL when bare */
		if (wd) {
			size_t n = strlen(wd);
			while (n > 1 && wd[n - 1] == '/')
				n--;
			*out = sl_xmalloc(n + 1);
			if (*out) {
				memcpy(*out, wd, n);
				(*out)[n] = '\0';
				err = SL_OK;
			} else {
				err = SL_ENOMEM;
			}
		}
		git_repository_free(repo);
	}
	git_libgit2_shutdown();
	return err;
}
