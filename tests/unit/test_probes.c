/* SPDX-License-Identifier: Apache-2.0
** test_probes.c: what the file system is asked, counted. The test executable defines stat,
** lstat, open (and their 64-bit names, which the library calls with _FILE_OFFSET_BITS=64) and
** realpath:
** each call is passed on to the next definition (libc's, or a sanitizer's interceptor) and its
** path recorded, so a test can say that a directory a walk listed is not probed again (config
** discovery's .git, HEAD and .schedlint.yaml, the walk's own stat) while the answers stay those of
** the probes (compared here too, over a tree with every layout discovery meets). */
#undef _FILE_OFFSET_BITS   /* stat and stat64 are both defined here: no redirection */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "driver/scopes.h"
#include "fs/walk.h"
#include "support.h"

/* The paths asked while recording is on: "stat PATH" / "lstat PATH" / "open PATH", one a line. */
static char asked[1 << 16];
static size_t asked_len;
static bool recording;

static void note(const char *op, const char *path)
{
	if (!recording || !path)
		return;
	int n = snprintf(asked + asked_len, sizeof asked - asked_len, "%s %s\n", op, path);
	if (n > 0 && (size_t)n < sizeof asked - asked_len)
		asked_len += (size_t)n;
}

/* The next definition of name (resolved once per call site's pointer). */
static void *next_of(void **slot, const char *name)
{
	if (!*slot)
		*slot = dlsym(RTLD_NEXT, name);
	return *slot;
}

#define STAT_CALL(name, op, st_type)                                                  \
	int name(const char *path, st_type *st)                                       \
	{                                                                             \
		static void *next;                                                    \
		int (*fn)(const char *, st_type *) =                                  \
			(int (*)(const char *, st_type *))next_of(&next, #name);      \
		int saved = errno;                                                    \
		note(op, path);                                                       \
		errno = saved;                                                        \
		return fn(path, st);                                                  \
	}
STAT_CALL(stat, "stat", struct stat)
STAT_CALL(lstat, "lstat", struct stat)
STAT_CALL(stat64, "stat", struct stat64)
STAT_CALL(lstat64, "lstat", struct stat64)

#define OPEN_CALL(name)                                                               \
	int name(const char *path, int flags, ...)                                    \
	{                                                                             \
		static void *next;                                                    \
		int (*fn)(const char *, int, ...) =                                   \
			(int (*)(const char *, int, ...))next_of(&next, #name);       \
		mode_t mode = 0;                                                      \
		if (flags & (O_CREAT | O_TMPFILE)) {                                  \
			va_list ap;                                                   \
			va_start(ap, flags);                                          \
			mode = (mode_t)va_arg(ap, int);                               \
			va_end(ap);                                                   \
		}                                                                     \
		int saved = errno;                                                    \
		note("open", path);                                                   \
		errno = saved;                                                        \
		return fn(path, flags, mode);                                         \
	}
OPEN_CALL(open)
OPEN_CALL(open64)

char *realpath(const char *path, char *resolved)
{
	static void *next;
	char *(*fn)(const char *, char *) = (char *(*)(const char *, char *))next_of(&next,
										   "realpath");
	int saved = errno;
	note("realpath", path);
	errno = saved;
	return fn(path, resolved);
}

/* How many recorded lines are op (NULL: any) of a path starting with prefix. */
static size_t count(const char *op, const char *prefix)
{
	size_t n = 0, pl = strlen(prefix);
	for (const char *l = asked; l < asked + asked_len;) {
		const char *end = memchr(l, '\n', (size_t)(asked + asked_len - l));
		const char *sp = memchr(l, ' ', (size_t)(end - l));
		if (sp && (!op || ((size_t)(sp - l) == strlen(op) && memcmp(l, op, strlen(op)) == 0)) &&
		    (size_t)(end - sp - 1) >= pl && memcmp(sp + 1, prefix, pl) == 0)
			n++;
		l = end + 1;
	}
	return n;
}

static char root[PATH_MAX];

/* A fresh scratch directory, its real path in root. */
static void scratch_root(void)
{
	char tmpl[PATH_MAX];
	sl_test_scratch(tmpl, sizeof tmpl, "probes");
	char *real = realpath(tmpl, NULL);
	cr_assert_not_null(real);
	snprintf(root, sizeof root, "%s", real);
	free(real);
}

/* root (a real path) with cfg/.schedlint.yaml and cfg/a/b/c, cfg/a/b/d and cfg/a/e below it. */
static void make_tree(void)
{
	scratch_root();
	sl_test_put(root, "cfg/.schedlint.yaml", "{}\n");
	sl_test_put(root, "cfg/a/b/c/x.yaml", "a: 1\n");
	sl_test_put(root, "cfg/a/b/d/y.yaml", "a: 1\n");
	sl_test_put(root, "cfg/a/e/z.yaml", "a: 1\n");
}

static sl_err on_file(const char *path, void *payload)
{
	(void)path;
	(void)payload;
	return SL_OK;
}

static sl_err on_error(const char *path, int errnum, void *payload)
{
	(void)payload;
	cr_expect_fail("walk: %s: %s", path, strerror(errnum));
	return SL_OK;
}

static void free_memo(sl_strmap *memo)
{
	for (size_t i = 0; i < memo->cap; i++) {
		free((char *)memo->v[i].key);
		free(memo->v[i].val);
	}
	sl_strmap_free(memo);
}

/* The files a walk found. */
struct found {
	size_t n;
};

static sl_err on_found(const char *path, void *payload)
{
	(void)path;
	((struct found *)payload)->n++;
	return SL_OK;
}

/* A walk opens each directory once and asks the kernel nothing else by name about it: its
** device and inode (the loop check's) come from the open descriptor, its entries' types from
** the listing, the real path its exclude globs are matched against from the walk's own (no
** realpath of each entry's directory); the files are only reported, not stat'ed. An excluded
** directory is not opened. */
Test(probes, a_walk_opens_each_directory_once_and_stats_none)
{
	make_tree();
	sl_walk_seen *seen = sl_walk_seen_new();
	cr_assert_not_null(seen);
	/* an exclude glob matched against each entry's real path: its directory's is the walk's */
	static const char *const globs[] = {"cfg/a/b/d", "**/z.yaml"};
	sl_globs *g = NULL;
	char *error = NULL;
	cr_assert_eq(sl_walk_globs_list(globs, 2, root, "exclude", &g, &error), SL_OK);
	struct found f = {0};
	asked_len = 0;
	recording = true;
	cr_assert_eq(sl_walk_recording(root, root, g, NULL, seen, on_found, on_error, &f), SL_OK);
	recording = false;
	cr_expect_eq(f.n, 1, "x.yaml alone found: %zu", f.n);
	cr_expect_eq(count("realpath", root), 0, "realpath asked:\n%.*s", (int)asked_len, asked);
	sl_walk_globs_free(g);
	static const char *const dirs[] = {"", "/cfg", "/cfg/a", "/cfg/a/b", "/cfg/a/b/c", "/cfg/a/e"};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		char d[PATH_MAX], line[PATH_MAX + 8];
		snprintf(d, sizeof d, "%s%s", root, dirs[i]);
		snprintf(line, sizeof line, "open %s\n", d);
		cr_expect_not_null(memmem(asked, asked_len, line, strlen(line)), "%s not opened:\n%.*s",
				   d, (int)asked_len, asked);
		cr_expect(sl_walk_seen_at(seen, d, strlen(d), "x") != SL_SEEN_UNLISTED, "%s listed", d);
	}
	cr_expect_eq(count("open", root), sizeof dirs / sizeof *dirs, "one open a directory:\n%.*s",
		     (int)asked_len, asked);
	cr_expect_eq(count("stat", root) + count("lstat", root), 0, "stat'ed:\n%.*s", (int)asked_len,
		     asked);
	sl_walk_seen_free(seen);
	sl_test_rm_rf(root);
}

/* The project roots of the listed directories below cfg/a cost no probe there: the listings say
** what they hold and their devices; cfg itself (holding a config) is looked at as before. Without
** the listings the same questions probe each directory (the counter counts). */
Test(probes, listed_directories_are_not_probed_for_the_project_root)
{
	make_tree();
	sl_walk_seen *seen = sl_walk_seen_new();
	cr_assert_not_null(seen);
	cr_assert_eq(sl_walk_recording(root, root, NULL, NULL, seen, on_file, on_error, NULL), SL_OK);
	static const char *const dirs[] = {"cfg/a/b/c", "cfg/a/b/d", "cfg/a/e", "cfg/a/b", "cfg/a"};
	char below[PATH_MAX], cfg[PATH_MAX];
	snprintf(below, sizeof below, "%s/cfg/a", root);
	snprintf(cfg, sizeof cfg, "%s/cfg", root);
	for (int with = 1; with >= 0; with--) {
		sl_strmap memo = {0};
		asked_len = 0;
		recording = true;
		for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
			char d[PATH_MAX], *got = NULL;
			snprintf(d, sizeof d, "%s/%s", root, dirs[i]);
			cr_expect_eq(sl_config_project_root_memo(d, &memo, with ? seen : NULL, &got),
				     SL_OK, "%s", d);
			cr_expect_str_eq(got ? got : "", cfg, "%s: the outermost config's directory", d);
			free(got);
		}
		recording = false;
		free_memo(&memo);
		if (with)
			cr_expect_eq(count(NULL, below), 0, "probed below cfg/a:\n%.*s", (int)asked_len,
				     asked);
		else
			cr_expect_geq(count("lstat", below), 3 * 5, "without listings:\n%.*s",
				      (int)asked_len, asked);
		cr_expect_gt(count(NULL, cfg), 0, "cfg, holding a config, is looked at");
	}
	sl_walk_seen_free(seen);
	sl_test_rm_rf(root);
}

/* A tree whose directories' project roots are asked: below config holders (one nested), a work
** tree with a valid .git directory, one whose .git is a file (a linked worktree's link), one whose
** .git is a symlink, a bare repository (HEAD, objects, refs: its directory looks like a git
** directory), a directory holding only HEAD, an empty .git directory (not a valid git directory:
** libgit2 is asked) and a symlinked directory. */
static const char *const listed_dirs[] = {
	"cfg", "cfg/a", "cfg/a/b", "cfg/a/b/c", "cfg/in", "cfg/in/d", "cfg/gitfile",
	"cfg/gitfile/e", "cfg/gitlink", "cfg/gitlink/e", "cfg/head", "cfg/head/f", "cfg/bare.git",
	"cfg/bare.git/refs", "cfg/bare.git/refs/heads", "cfg/link", "cfg/link/c", "work", "work/x",
	"work/x/y", "work/sub", "work/sub/z", "odd", "odd/a", "plain", "plain/g",
};

static void make_dir(const char *rel)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s: %s", p, strerror(errno));
}

static void make_link(const char *target, const char *rel)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	cr_assert_eq(symlink(target, p), 0, "symlink %s: %s", p, strerror(errno));
}

static void make_listed_tree(void)
{
	scratch_root();
	for (size_t i = 0; i < sizeof listed_dirs / sizeof *listed_dirs; i++)
		if (strncmp(listed_dirs[i], "cfg/link", 8) != 0)
			make_dir(listed_dirs[i]);
	sl_test_put(root, "cfg/.schedlint.yaml", "{}\n");
	sl_test_put(root, "cfg/in/.schedlint.yaml", "{}\n");
	sl_test_put(root, "cfg/gitfile/.git", "gitdir: ../../work/.git\n");
	sl_test_put(root, "cfg/head/HEAD", "ref: refs/heads/main\n");
	sl_test_put(root, "cfg/bare.git/HEAD", "ref: refs/heads/main\n");
	make_dir("cfg/bare.git/objects");
	sl_test_put(root, "work/.git/HEAD", "ref: refs/heads/main\n");
	sl_test_put(root, "work/.git/config", "[core]\n\trepositoryformatversion = 0\n");
	make_dir("work/.git/objects");
	make_dir("work/.git/refs");
	sl_test_put(root, "work/sub/.schedlint.yaml", "{}\n");
	make_dir("odd/.git");
	make_link("a/b", "cfg/link");
	char q[PATH_MAX];
	snprintf(q, sizeof q, "%s/work/.git", root);
	make_link(q, "cfg/gitlink/.git");
}

/* What a run's walk listed answers the memoised project root as the probes do: the same root
** (or none) from every directory of the tree, in either order, for the listed directories and
** for their names through a symlinked directory (listed under its name only). */
Test(probes, listings_answer_the_project_root_as_the_probes)
{
	make_listed_tree();
	sl_walk_seen *seen = sl_walk_seen_new();
	cr_assert_not_null(seen);
	cr_assert_eq(sl_walk_recording(root, root, NULL, NULL, seen, on_file, on_error, NULL), SL_OK);
	dev_t dev;
	cr_assert(sl_walk_seen_dev(seen, root, strlen(root), &dev), "the root was listed");
	size_t n = sizeof listed_dirs / sizeof *listed_dirs;
	for (int order = 0; order < 2; order++) {
		sl_strmap memo = {0}, probed = {0};
		for (size_t k = 0; k < n; k++) {
			char d[PATH_MAX];
			snprintf(d, sizeof d, "%s/%s", root, listed_dirs[order ? n - 1 - k : k]);
			char *want = NULL, *got = NULL, *memo_want = NULL;
			sl_err rw = sl_config_project_root(d, &want);
			sl_err rm = sl_config_project_root_memo(d, &probed, NULL, &memo_want);
			sl_err rg = sl_config_project_root_memo(d, &memo, seen, &got);
			cr_expect_eq(rg, rw, "%s: %d, the walk up %d", d, rg, rw);
			cr_expect_eq(rm, rw, "%s: %d without listings, the walk up %d", d, rm, rw);
			cr_expect((!want && !got) || (want && got && strcmp(want, got) == 0),
				  "%s: %s, the walk up %s", d, got ? got : "(none)", want ? want : "(none)");
			free(want);
			free(got);
			free(memo_want);
		}
		free_memo(&memo);
		free_memo(&probed);
	}
	/* the answers differ across the tree: a wrong one shows */
	char d[PATH_MAX], *a = NULL, *b = NULL;
	snprintf(d, sizeof d, "%s/work/x/y", root);
	cr_assert_eq(sl_config_project_root(d, &a), SL_OK);
	cr_expect_str_eq(a + strlen(root), "/work");
	snprintf(d, sizeof d, "%s/cfg/a/b", root);
	cr_assert_eq(sl_config_project_root(d, &b), SL_OK);
	cr_expect_str_eq(b + strlen(root), "/cfg");
	free(a);
	free(b);
	sl_walk_seen_free(seen);
	sl_test_rm_rf(root);
}

/* The config each file of the tree is linted under, found from its directory's real path
** (scopes.c): the same with the walk's listings as without, named from the root and through
** the symlinked directory; with them, realpath is asked only for the first directory of the
** walk's names, the others being their parents' real paths and their names. */
Test(probes, scopes_find_real_directories_from_the_listings)
{
	make_listed_tree();
	sl_test_put(root, "cfg/a/b/c/x.yaml", "a: 1\n");
	sl_test_put(root, "cfg/in/d/y.yaml", "a: 1\n");
	sl_test_put(root, "work/sub/z/z.yaml", "a: 1\n");
	sl_test_put(root, "work/x/y/w.yaml", "a: 1\n");
	sl_walk_seen *seen = sl_walk_seen_new();
	cr_assert_not_null(seen);
	cr_assert_eq(sl_walk_recording(root, root, NULL, NULL, seen, on_file, on_error, NULL), SL_OK);
	/* each file, and whether its directory's real path is joined (no realpath asked): not for
	** the first (the root's is asked), one through the symlinked directory, one that does not
	** exist, nor where a config is loaded (its own path is resolved) */
	static const struct {
		const char *path;
		bool joined;
	} files[] = {
		{"cfg/a/b/c/x.yaml", false}, {"cfg/a/b/c/new.yaml", true}, {"cfg/in/d/y.yaml", false},
		{"cfg/link/c/x.yaml", false}, {"cfg/head/f/n.yaml", true},
		{"cfg/bare.git/refs/heads/n.yaml", true}, {"work/sub/z/z.yaml", false},
		{"work/x/y/w.yaml", true}, {"plain/g/n.yaml", true}, {"cfg/a/missing/n.yaml", false},
		{"cfg/in/d/y.yaml", true}, {"cfg/a/b/x.yaml", true},
	};
	size_t n = sizeof files / sizeof *files;
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options opts = SL_RUN_OPTIONS_INIT;
	sl_scopes *with = NULL, *without = NULL;
	char *error = NULL;
	cr_assert_eq(sl_scopes_new(cfg, &opts, true, &with, &error), SL_OK);
	cr_assert_eq(sl_scopes_new(cfg, &opts, true, &without, &error), SL_OK);
	sl_scopes_use_seen(with, seen);
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", root, files[i].path);
		const sl_scope *b = sl_scopes_of(without, path);
		asked_len = 0;
		recording = true;
		const sl_scope *a = sl_scopes_of(with, path);
		recording = false;
		cr_assert(a && b && a->cfg && b->cfg, "%s: a scope", files[i].path);
		const char *pa = a->cfg->path, *pb = b->cfg->path;
		cr_expect((!pa && !pb) || (pa && pb && strcmp(pa, pb) == 0), "%s: %s, probed %s",
			  files[i].path, pa ? pa : "(the run's)", pb ? pb : "(the run's)");
		if (files[i].joined)
			cr_expect_eq(count("realpath", root), 0, "%s:\n%.*s", files[i].path,
				     (int)asked_len, asked);
	}
	/* the configs differ across the tree: a wrong scope shows */
	char p1[PATH_MAX], p2[PATH_MAX];
	snprintf(p1, sizeof p1, "%s/cfg/in/d/y.yaml", root);
	snprintf(p2, sizeof p2, "%s/cfg/a/b/c/x.yaml", root);
	cr_expect_neq(sl_scopes_of(with, p1), sl_scopes_of(with, p2));
	sl_scopes_free(with);
	sl_scopes_free(without);
	sl_config_free(cfg);
	sl_walk_seen_free(seen);
	sl_test_rm_rf(root);
}
