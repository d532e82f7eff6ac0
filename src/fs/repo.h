/* SPDX-License-Identifier: Apache-2.0
** repo.h: the git repository a path is in, found as libgit2 finds it: by repo.c itself for the
** common layouts (a .git directory or gitfile; its config read by gitconfig.c), by libgit2 where
** repo.c could not answer exactly (repo.c lists the cases). */
#ifndef SL_REPO_H
#define SL_REPO_H

#include <stdbool.h>
#include "schedlint/error.h"

/* The work tree's root of the repository start_dir is in (git's own search upwards), as a
** real path without a trailing '/'. *out is malloc'd. SL_ENOTFOUND when start_dir is in no
** repository or a bare one; SL_ENOMEM. */
sl_err sl_repo_root(const char *start_dir, char **out);

/* A repository held open for ignore questions. */
typedef struct sl_repo sl_repo;
/* The repository start_dir is in (with a work tree), or NULL: none, libgit2 missing, memory. */
sl_repo *sl_repo_open(const char *start_dir);
/* True when git ignores path (.gitignore at every level, .git/info/exclude, core.excludesFile)
** — a real path, or one relative to the working directory, which need not exist (nor its
** directory: a build step's output); false for a path outside the work tree. gitignore.c's
** matcher answers over the same ignore files, each read once (with libgit2's built-in ".git");
** where libgit2 answers, a directory is asked of it (git_ignore_path_is_ignored, which asks about
** its parents too), once, and a file is ignored when its directory is or when the matcher finds
** a pattern for its name (with core.ignoreCase, libgit2 is asked about the file); when an ignore
** file would make libgit2 block or backtrack, the matcher answers for all. */
bool sl_repo_ignored(sl_repo *r, const char *path, bool is_dir);
/* sl_repo_ignored, with real_dir the real path of path's directory when the caller knows it (a
** walk that reached it through no symlink; NULL: worked out here). */
bool sl_repo_ignored_in(sl_repo *r, const char *path, const char *real_dir, bool is_dir);
/* Lets r ask seen (a walk's listings, kept by the caller while r is used) which directories
** hold no .gitignore, instead of opening one in each. */
struct sl_walk_seen;
void sl_repo_use_seen(sl_repo *r, const struct sl_walk_seen *seen);
/* True when libgit2 answers for r: its repository or config is one repo.c does not read exactly
** itself (repo.c, "the repository found without libgit2", lists the cases). */
bool sl_repo_by_libgit2(const sl_repo *r);
/* The repository's work tree: a real path with its trailing '/'. */
const char *sl_repo_workdir(const sl_repo *r);
void sl_repo_free(sl_repo *r);

#endif
