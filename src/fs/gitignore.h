/* SPDX-License-Identifier: Apache-2.0
** gitignore.h: what a tree's .gitignore files say when git cannot be asked — a checkout exported
** without .git (a release archive, a CI cache, a vendored copy), or no libgit2 at run time. Where
** there is a repository, repo.h asks git itself. */
#ifndef SL_GITIGNORE_H
#define SL_GITIGNORE_H

#include <stdbool.h>

/* True when the .gitignore files of the directories above path (from / down to path's own
** directory; path need not exist, nor its directory: a build step's output) ignore it, as
** gitignore(5) reads them: blank lines and "#" comments skipped, "!" re-includes, a trailing "/"
** matches directories only (is_dir: path names one), a "/" at the start or in the middle
** anchors a pattern to its file's directory, "*", "?", "[...]" and "**" as git matches them,
** deeper files override shallower ones, and a path below an ignored directory is ignored. Each
** .gitignore is read only when it is a regular file (never a FIFO or a symlink, as git reads
** it) of at most 1 MiB; a pattern is matched in time polynomial in its length and the path's,
** never by backtracking search. False for a path with a ".." below its deepest existing
** directory, and when out of memory. */
bool sl_gitignore_ignores(const char *path, bool is_dir);
/* sl_gitignore_ignores(path, false) || sl_gitignore_ignores(path, true), each .gitignore read
** once: for a path that does not exist, which a build step may make as a file or a directory. */
bool sl_gitignore_ignores_either(const char *path);

/* True when the gitignore(5) pattern pat (one line, as written) decides rel, a path relative to
** the pattern's .gitignore directory ("a/b/c", no leading "/"; is_dir: rel names a directory),
** with *negated set to whether the pattern re-includes ("!"). False for a blank line or a
** comment. Exposed for the unit tests. */
bool sl_gitignore_pattern_matches(const char *pat, const char *rel, bool is_dir, bool *negated);

/* One tree's ignore rules, as sl_gitignore_ignores reads them but from the tree's root down, each
** .gitignore read once and each directory decided once: what repo.c answers with where libgit2
** must not be asked (an ignore file it would block on or backtrack over). */
typedef struct sl_gitignore_tree sl_gitignore_tree;
/* The rules of the tree at root (a real path) with the tree-wide ignore files (core.excludesFile,
** then info/exclude: lowest precedence first; NULL entries and missing files skipped, each read
** as a .gitignore is but through a symlink too). NULL when out of memory. */
sl_gitignore_tree *sl_gitignore_tree_new(const char *root, const char *const *files,
					 size_t n_files);
/* Tells the rules which directories are known to hold no .gitignore: absent(ctx, dir, dlen,
** ".gitignore") true for the real directory [dir, dir + dlen) (a walk's listing says so), and
** its .gitignore is not opened. */
void sl_gitignore_tree_probe(sl_gitignore_tree *g,
			     bool (*absent)(void *ctx, const char *dir, size_t dlen, const char *name),
			     void *ctx);
/* True when the rules ignore rel, a path relative to the root ("a/b/c.yaml"; is_dir: rel names a
** directory; it need not exist), or a directory above it. False for a path with a "." or ".."
** segment, and when out of memory. */
bool sl_gitignore_tree_ignored(sl_gitignore_tree *g, const char *rel, bool is_dir);
/* True when the rules' patterns ignore rel itself, its directories not asked about (the caller
** knows they are not ignored: repo.c asks git about a file's directory, then matches the file's
** name here). */
bool sl_gitignore_tree_matches(sl_gitignore_tree *g, const char *rel, bool is_dir);
void sl_gitignore_tree_free(sl_gitignore_tree *g);

#endif
