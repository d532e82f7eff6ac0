/* SPDX-License-Identifier: Apache-2.0
** walk.h: finding the YAML files under a directory, and the config's exclude globs. */
#ifndef SL_WALK_H
#define SL_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "schedlint/error.h"

typedef struct sl_globs sl_globs;

/* Why glob cannot be an exclude glob, or NULL when it can: a glob is matched against paths
** relative to its config's directory, written with "**" (any directories), "*" and "?" (within
** one segment) and literal bytes. Refused: an empty glob, "[...]" classes, "{a,b}" braces and
** backslash escapes (this dialect does not have them: they would match only themselves), an
** absolute glob, a "./", "." or ".." segment and a trailing "/" (no path it meets has them), and
** one too long or too complex to compile. When dropping what is wrong gives a glob that works,
** it is written to fix (size fixsz; else fix gets ""). The message is static. */
const char *sl_walk_glob_problem(const char *glob, char *fix, size_t fixsz);
/* Compiles the n globs of list (** = any directories, * and ? within one segment), relative to
** dir; what names them in messages ("exclude"). SL_ECONFIG (*error_out, malloc'd, says which)
** when one cannot be compiled; SL_ENOMEM. */
sl_err sl_walk_globs_list(const char *const *list, size_t n, const char *dir, const char *what,
			 sl_globs **out, char **error_out);
/* How many globs g holds (0 for NULL). */
size_t sl_walk_globs_count(const sl_globs *g);
/* True when path, taken relative to the config's directory, matches a glob. A glob that cannot
** be decided (PCRE2 hits its limits, regex.h) also gives true, so the path is neither walked
** nor linted, and the path is kept for sl_walk_globs_drain: never a silent miss. */
bool sl_walk_globs_match(const sl_globs *g, const char *path);
/* Calls fn(path, message, payload) for every path sl_walk_globs_match could not decide since the
** last drain (the message names the glob and the limit), then forgets them. Stops calling fn
** at its first non-OK return, which it returns. */
sl_err sl_walk_globs_drain(const sl_globs *g, sl_err (*fn)(const char *path, const char *msg,
						      void *payload), void *payload);
void sl_walk_globs_free(sl_globs *g);

/* Calls fn(path, payload) for every *.yaml / *.yml file under dir in sorted order, skipping
** hidden directories, excluded paths, directories already visited (symlink loops) and
** symlinks to files or directories that lead outside root (the real path of the directory
** given; NULL: follow them all): a repository's link never makes the walk read elsewhere. Unreadable subdirectories are reported through err_fn. Stops at the first
** non-OK return. */
sl_err sl_walk(const char *dir, const char *root, const sl_globs *g,
	       sl_err (*fn)(const char *path, void *payload),
	       sl_err (*err_fn)(const char *path, int errnum, void *payload), void *payload);

/* What a walk skips besides hidden and excluded paths: skipped(ctx, path, real_dir, is_dir) true
** for a file or directory (then not descended into) git ignores, say (NULL: nothing); real_dir
** is the real path of path's directory when the walk knows it (a recording walk that reached it
** through no symlink), else NULL. Symlinks are not asked. outside(ctx, path, is_dir), when not NULL, is told of each symlink to a *.yaml /
** *.yml file or a directory whose target lies outside root: the walk never reads it; a non-OK
** return stops the walk. */
typedef struct sl_walk_skip {
	bool (*skipped)(void *ctx, const char *path, const char *real_dir, bool is_dir);
	void *ctx;
	sl_err (*outside)(void *ctx, const char *path, bool is_dir);
} sl_walk_skip;
/* sl_walk, skipping what skip says too (NULL: nothing else). */
sl_err sl_walk_skipping(const char *dir, const char *root, const sl_globs *g,
			const sl_walk_skip *skip, sl_err (*fn)(const char *, void *),
			sl_err (*err_fn)(const char *, int, void *), void *payload);

/* What walks saw: every directory a walk listed (as the walk named it, "tree/a"), with all its
** entries, hidden ones too, and the type readdir gave each. Asked instead of the kernel by what
** probes those directories later in the run (config discovery's .schedlint.yaml and .git, the
** kustomization beside a file): the answer is the listing's, taken when the walk read it. */
typedef struct sl_walk_seen sl_walk_seen;
/* What a walk saw at dir/name: */
typedef enum {
	SL_SEEN_UNLISTED,   /* no walk listed dir: ask the kernel */
	SL_SEEN_ABSENT,     /* dir was listed without name */
	SL_SEEN_FILE,       /* a regular file */
	SL_SEEN_DIR,        /* a directory (not a symlink) */
	SL_SEEN_OTHER       /* a symlink, or a type readdir did not give: ask the kernel */
} sl_walk_seen_kind;
sl_walk_seen *sl_walk_seen_new(void);
void sl_walk_seen_free(sl_walk_seen *s);
/* What the walks saw at name in the directory [dir, dir + dlen) (NULL s: SL_SEEN_UNLISTED). */
sl_walk_seen_kind sl_walk_seen_at(const sl_walk_seen *s, const char *dir, size_t dlen,
				  const char *name);
/* True when a walk listed the directory [dir, dir + dlen): *dev is the device stat gave it then
** (what a walk up compares to stop at a file system's boundary). */
bool sl_walk_seen_dev(const sl_walk_seen *s, const char *dir, size_t dlen, dev_t *dev);
/* sl_walk_skipping, recording each directory it lists in seen (NULL: none), under its name and,
** when no symlink leads to it from dir, its real path (root is dir's real path). */
sl_err sl_walk_recording(const char *dir, const char *root, const sl_globs *g,
			 const sl_walk_skip *skip, sl_walk_seen *seen,
			 sl_err (*fn)(const char *, void *),
			 sl_err (*err_fn)(const char *, int, void *), void *payload);

/* The real path real as the working directory names it: relative when it is under it
** ("sub/a.yaml"), in a directory above it ("../.schedlint.yaml") or one of those directories
** (".."), else real itself. How a
** config or the project's root is named, as the linted files are. malloc'd; NULL when out of
** memory. */
char *sl_walk_relative(const char *real);

#endif
