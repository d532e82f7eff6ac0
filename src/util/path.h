/* SPDX-License-Identifier: Apache-2.0
** path.h: the walk up from a directory, the one place that decides where every walk up stops:
** config discovery (the nearest .schedlint.yaml), a file's scope (the same, one directory at a
** time), the project's root (the outermost .schedlint.yaml, when no repository is found) and
** the repository probe (is there a .git above). A walk up visits a directory and then its
** parent, nearest first, and stops after the repository root (the first directory that holds
** .git, a directory or a file: a work tree, a worktree's or a submodule's checkout; visited,
** never passed: a config above the repository is another project's) or at /. */
#ifndef SL_PATH_H
#define SL_PATH_H

#include <stdbool.h>

/* True when directory dir holds an entry name: of any type when any_type (a dangling symlink
** too), else one that is not a directory (a symlink followed). */
bool sl_path_holds(const char *dir, const char *name, bool any_type);

/* The directory part of path, malloc'd: "." for a bare name, "/" for a file at the root,
** repeated slashes before the name dropped ("a//b": "a"). NULL when out of memory. */
char *sl_path_dir(const char *path);

/* dir and name joined by one '/' (none when dir is empty or ends in one), malloc'd; NULL when
** out of memory. Without printf: a walk joins a path per entry. */
char *sl_path_join(const char *dir, const char *name);

/* How a walk up asks whether a directory holds an entry (sl_path_holds' arguments): a caller
** that listed the directories already answers from its listings. */
typedef bool (*sl_path_holds_fn)(void *ctx, const char *dir, const char *name, bool any_type);

/* Walks up from start (a real path of a directory): calls visit(ctx, dir) on each directory,
** nearest first, and returns (malloc'd) the first one it answers true for; NULL when the walk
** stops first (after the repository root, or at /) or when out of memory (*oom set). With visit
** NULL: the repository root, NULL when the walk reached / without one. holds (NULL:
** sl_path_holds) answers whether a directory holds .git. */
char *sl_path_find_upward(const char *start, bool (*visit)(void *ctx, const char *dir),
			  sl_path_holds_fn holds, void *ctx, bool *oom);

/* path, a relative one a walk from an ancestor of the working directory names ("../../a/b"),
** with the climb that comes back down into the working directory taken out (cwd: its real
** path): from /r/place, "../place/x" is "x", "../place" ".", "../other/x" stays as it is, and
** so does a path that does not climb. malloc'd; NULL when out of memory. */
char *sl_path_reenter(const char *path, const char *cwd);

#endif
