/* SPDX-License-Identifier: Apache-2.0
** test_walk.c: finding the YAML files under a directory (src/fs/walk.c) in a scratch tree: *.yaml
** and *.yml only, in sorted order, hidden files and directories skipped, exclude globs relative
** to the config's directory, symlink loops walked once, symlinked directories that leave the
** root not walked (and walked when no root is given), dangling links skipped, errors reported,
** and the walk stopping at the first non-OK return. */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "fs/walk.h"
#include "support.h"

static char tmp[PATH_MAX];

/* Creates tmp/rel (a file with some YAML, or a directory when rel ends in '/'). */
static void mk(const char *rel)
{
	char p[PATH_MAX * 2];
	snprintf(p, sizeof p, "%s/%s", tmp, rel);
	for (char *s = p + strlen(tmp) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		cr_assert(mkdir(p, 0755) == 0 || errno == EEXIST, "mkdir %s: %s", p, strerror(errno));
		*s = '/';
	}
	if (p[strlen(p) - 1] == '/')
		return;
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f, "%s: %s", p, strerror(errno));
	fputs("a: 1\n", f);
	fclose(f);
}

static void ln(const char *target, const char *rel)
{
	char p[PATH_MAX * 2];
	snprintf(p, sizeof p, "%s/%s", tmp, rel);
	cr_assert_eq(symlink(target, p), 0, "symlink %s: %s", p, strerror(errno));
}

static void setup(void)
{
	sl_test_scratch(tmp, sizeof tmp, "walk");
}

static void teardown(void)
{
	sl_test_rm_rf(tmp);
}

TestSuite(walk, .init = setup, .fini = teardown);

/* What a walk saw: the files relative to tmp, one per line, then the errors. */
struct seen {
	char files[8192];
	char errors[1024];
	int stop_after;   /* return SL_EIO from fn after this many files (0: never) */
	int n;
};

static sl_err on_file(const char *path, void *p)
{
	struct seen *s = p;
	size_t l = strlen(tmp);
	const char *rel = strncmp(path, tmp, l) == 0 && path[l] == '/' ? path + l + 1 : path;
	strncat(s->files, rel, sizeof s->files - strlen(s->files) - 2);
	strcat(s->files, "\n");
	return ++s->n == s->stop_after ? SL_EIO : SL_OK;
}

static sl_err on_error(const char *path, int errnum, void *p)
{
	struct seen *s = p;
	size_t used = strlen(s->errors);
	snprintf(s->errors + used, sizeof s->errors - used, "%s: %s\n", path, strerror(errnum));
	return SL_OK;
}

static sl_err on_outside(void *ctx, const char *path, bool is_dir)
{
	char *told = ctx;
	size_t l = strlen(tmp), used = strlen(told);
	snprintf(told + used, 1024 - used, "%s %s\n", path + l + 1, is_dir ? "dir" : "file");
	return SL_OK;
}

/* Walks tmp/rel with globs g, root: the real path of tmp/rel when with_root. */
static sl_err walk(const char *rel, const sl_globs *g, bool with_root, struct seen *s)
{
	char dir[PATH_MAX * 2];
	snprintf(dir, sizeof dir, "%s/%s", tmp, rel);
	char *root = with_root ? realpath(dir, NULL) : NULL;
	cr_assert(!with_root || root);
	sl_err err = sl_walk(dir, root, g, on_file, on_error, s);
	free(root);
	return err;
}

Test(walk, yaml_and_yml_in_sorted_order_hidden_skipped)
{
	mk("d/b.yaml");
	mk("d/a.yml");
	mk("d/sub/c.yaml");
	mk("d/sub2/z.yaml");
	mk("d/Z.yaml");
	mk("d/notes.txt");
	mk("d/x.yaml.bak");
	mk("d/upper.YAML");
	mk("d/yaml");
	mk("d/.hidden.yaml");
	mk("d/.git/config.yaml");
	mk("d/.hidden/deep/e.yaml");
	struct seen s = {0};
	cr_assert_eq(walk("d", NULL, true, &s), SL_OK);
	cr_expect_str_eq(s.files, "d/Z.yaml\nd/a.yml\nd/b.yaml\nd/sub/c.yaml\nd/sub2/z.yaml\n");
	cr_expect_str_eq(s.errors, "");
}

Test(walk, exclude_globs_relative_to_the_config)
{
	mk("d/.schedlint.yaml");
	char cfgpath[PATH_MAX * 2];
	snprintf(cfgpath, sizeof cfgpath, "%s/d/.schedlint.yaml", tmp);
	FILE *f = fopen(cfgpath, "w");
	cr_assert_not_null(f);
	fputs("exclude: [\"charts/**/templates/**\", \"*.gen.yaml\", \"**/skip?.yml\", \"vendor\"]\n", f);
	fclose(f);
	sl_config *cfg = NULL;
	char *msg = NULL;
	cr_assert_eq(sl_config_load(cfgpath, &cfg, &msg), SL_OK, "%s", msg ? msg : "");
	sl_globs *g = NULL;
	cr_assert_eq(sl_config_exclude_globs(cfg, &g, NULL), SL_OK);
	mk("d/charts/x/templates/t.yaml");
	mk("d/charts/x/templates/deeper/t.yaml");
	mk("d/charts/x/values.yaml");
	mk("d/charts/templates/t.yaml");   /* ** matches no directory at all too */
	mk("d/a.gen.yaml");
	mk("d/sub/a.gen.yaml");           /* * stays within one segment */
	mk("d/sub/skip1.yml");
	mk("d/skip2.yml");
	mk("d/sub/skip10.yml");           /* ? is one character */
	mk("d/vendor/v.yaml");            /* a directory name excludes what is under it */
	mk("d/vendored.yaml");
	struct seen s = {0};
	cr_assert_eq(walk("d", g, true, &s), SL_OK);
	cr_expect_str_eq(s.files, "d/charts/x/values.yaml\nd/sub/a.gen.yaml\nd/sub/skip10.yml\n"
			 "d/vendored.yaml\n");

	/* the same globs from another working directory: paths are taken relative to the config */
	char path[PATH_MAX * 2];
	snprintf(path, sizeof path, "%s/d/charts/x/templates/t.yaml", tmp);
	cr_expect(sl_walk_globs_match(g, path));
	snprintf(path, sizeof path, "%s/d/../d/a.gen.yaml", tmp);
	cr_expect(sl_walk_globs_match(g, path), "the directory is resolved");
	snprintf(path, sizeof path, "%s/d/sub/a.gen.yaml", tmp);
	cr_expect_not(sl_walk_globs_match(g, path));
	sl_walk_globs_free(g);
	sl_config_free(cfg);

	cr_assert_eq(sl_config_exclude_globs(NULL, &g, NULL), SL_OK);
	cr_expect_not(sl_walk_globs_match(g, path), "no config: nothing is excluded");
	sl_walk_globs_free(g);
}

Test(walk, symlink_loops_are_walked_once)
{
	mk("d/a.yaml");
	mk("d/sub/b.yaml");
	ln(".", "d/self");
	ln("..", "d/sub/up");
	ln("sub", "d/zz-again");   /* the same directory by a second path, after the first */
	struct seen s = {0};
	cr_assert_eq(walk("d", NULL, true, &s), SL_OK);
	cr_expect_str_eq(s.files, "d/a.yaml\nd/sub/b.yaml\n", "each directory once");
	cr_expect_str_eq(s.errors, "");
}

Test(walk, symlinked_directories_leaving_the_root)
{
	mk("d/in.yaml");
	mk("d/real/r.yaml");
	mk("outside/o.yaml");
	ln("../outside", "d/out");
	ln("real", "d/a-link");         /* inside the root: followed (before real/ in order) */
	ln("../outside/o.yaml", "d/file-link.yaml");   /* a file outside: never read */
	ln("real/r.yaml", "d/in-link.yaml");           /* a file inside: its path is given */
	ln("missing", "d/dangling.yaml");
	struct seen s = {0};
	cr_assert_eq(walk("d", NULL, true, &s), SL_OK);
	cr_expect_str_eq(s.files, "d/a-link/r.yaml\nd/in-link.yaml\nd/in.yaml\n",
			 "out/ and file-link.yaml lead outside the root; real/ was already walked as "
			 "a-link/");
	cr_expect_str_eq(s.errors, "", "a dangling link is skipped silently");
	/* the caller is told of each link out of the tree (the symlink-outside-tree notice) */
	char dir[PATH_MAX * 2], told[1024] = "";
	snprintf(dir, sizeof dir, "%s/d", tmp);
	char *root = realpath(dir, NULL);
	cr_assert_not_null(root);
	sl_walk_skip skip = {NULL, told, on_outside};
	struct seen t = {0};
	cr_assert_eq(sl_walk_skipping(dir, root, NULL, &skip, on_file, on_error, &t), SL_OK);
	free(root);
	cr_expect_str_eq(t.files, s.files);
	cr_expect_str_eq(told, "d/file-link.yaml file\nd/out dir\n");

	struct seen all = {0};
	cr_assert_eq(walk("d", NULL, false, &all), SL_OK);
	cr_expect_str_eq(all.files, "d/a-link/r.yaml\nd/file-link.yaml\nd/in-link.yaml\nd/in.yaml\n"
			 "d/out/o.yaml\n",
			 "without a root every symlinked directory is followed");
}

Test(walk, errors_and_stopping)
{
	struct seen s = {0};
	cr_expect_eq(walk("nope", NULL, false, &s), SL_OK, "err_fn decides");
	char want[PATH_MAX * 2];
	snprintf(want, sizeof want, "%s/nope: %s\n", tmp, strerror(ENOENT));
	cr_expect_str_eq(s.errors, want);
	cr_expect_str_eq(s.files, "");

	mk("d/a.yaml");
	mk("d/b.yaml");
	mk("d/c.yaml");
	struct seen stop = {.stop_after = 2};
	cr_expect_eq(walk("d", NULL, true, &stop), SL_EIO, "the first non-OK return ends the walk");
	cr_expect_str_eq(stop.files, "d/a.yaml\nd/b.yaml\n");
}

/* A recording walk keeps every directory it lists, hidden entries too, under the name it gave
** and (no symlink on the way) under its real path; it still gives fn only the visible YAML. */
Test(walk, recording_what_it_listed)
{
	mk("d/a.yaml");
	mk("d/.schedlint.yaml");
	mk("d/.git/");
	mk("d/sub/kustomization.yaml");
	mk("elsewhere/k.yaml");
	ln("../elsewhere", "d/link");
	char dir[PATH_MAX * 2], sub[PATH_MAX * 2], link[PATH_MAX * 2];
	snprintf(dir, sizeof dir, "%s/d", tmp);
	snprintf(sub, sizeof sub, "%s/d/sub", tmp);
	snprintf(link, sizeof link, "%s/d/link", tmp);
	char *root = realpath(dir, NULL), *real_sub = realpath(sub, NULL);
	cr_assert(root && real_sub);
	sl_walk_seen *seen = sl_walk_seen_new();
	cr_assert_not_null(seen);
	struct seen s = {0};
	cr_assert_eq(sl_walk_recording(dir, NULL, NULL, NULL, seen, on_file, on_error, &s), SL_OK,
		     "root: NULL (links followed everywhere)");
	cr_expect_str_eq(s.files, "d/a.yaml\nd/link/k.yaml\nd/sub/kustomization.yaml\n");
	cr_expect_eq(sl_walk_seen_at(seen, dir, strlen(dir), ".schedlint.yaml"), SL_SEEN_FILE);
	cr_expect_eq(sl_walk_seen_at(seen, dir, strlen(dir), ".git"), SL_SEEN_DIR);
	cr_expect_eq(sl_walk_seen_at(seen, dir, strlen(dir), "link"), SL_SEEN_OTHER);
	cr_expect_eq(sl_walk_seen_at(seen, dir, strlen(dir), "kustomization.yaml"), SL_SEEN_ABSENT);
	cr_expect_eq(sl_walk_seen_at(seen, dir, strlen(dir), ".."), SL_SEEN_UNLISTED);
	/* a prefix of a longer path names the directory */
	cr_expect_eq(sl_walk_seen_at(seen, sub, strlen(sub), "kustomization.yaml"), SL_SEEN_FILE);
	char with_file[PATH_MAX * 3];
	snprintf(with_file, sizeof with_file, "%s/kustomization.yaml", sub);
	cr_expect_eq(sl_walk_seen_at(seen, with_file, strlen(sub), "kustomization.yml"),
		     SL_SEEN_ABSENT);
	cr_expect_eq(sl_walk_seen_at(seen, link, strlen(link), "k.yaml"), SL_SEEN_FILE);
	/* no root given: no real paths recorded (the walk does not know them) */
	cr_expect_eq(sl_walk_seen_at(seen, real_sub, strlen(real_sub), "kustomization.yaml"),
		     strcmp(real_sub, sub) == 0 ? SL_SEEN_FILE : SL_SEEN_UNLISTED);
	cr_expect_eq(sl_walk_seen_at(seen, tmp, strlen(tmp), "d"), SL_SEEN_UNLISTED);
	sl_walk_seen_free(seen);

	/* with the root: the real paths too, not below the symlink */
	seen = sl_walk_seen_new();
	cr_assert_not_null(seen);
	char named[PATH_MAX * 2];
	snprintf(named, sizeof named, "%s/./d", tmp);   /* named unlike its real path */
	memset(&s, 0, sizeof s);
	cr_assert_eq(sl_walk_recording(named, root, NULL, NULL, seen, on_file, on_error, &s), SL_OK);
	cr_expect_str_eq(s.files, "./d/a.yaml\n./d/sub/kustomization.yaml\n",
			 "the link leaves the root");
	cr_expect_eq(sl_walk_seen_at(seen, root, strlen(root), ".git"), SL_SEEN_DIR);
	cr_expect_eq(sl_walk_seen_at(seen, named, strlen(named), ".git"), SL_SEEN_DIR);
	cr_expect_eq(sl_walk_seen_at(seen, real_sub, strlen(real_sub), "kustomization.yaml"),
		     SL_SEEN_FILE);
	char real_link[PATH_MAX * 3];
	snprintf(real_link, sizeof real_link, "%s/link", root);
	cr_expect_eq(sl_walk_seen_at(seen, real_link, strlen(real_link), "k.yaml"),
		     SL_SEEN_UNLISTED);
	cr_expect_eq(sl_walk_seen_at(NULL, root, strlen(root), "a.yaml"), SL_SEEN_UNLISTED);
	sl_walk_seen_free(seen);
	free(root);
	free(real_sub);
}

/* What a skip callback was told: each path's real directory checked against realpath, and how
** many times it was given and withheld. */
struct told_dirs {
	int given, withheld, wrong;
};

static bool check_real_dir(void *ctx, const char *path, const char *real_dir, bool is_dir)
{
	(void)is_dir;
	struct told_dirs *t = ctx;
	if (!real_dir) {
		t->withheld++;
		return false;
	}
	t->given++;
	char *copy = strdup(path), *slash = strrchr(copy, '/');
	*slash = '\0';
	char *real = realpath(copy, NULL);
	t->wrong += !real || strcmp(real, real_dir) != 0;
	free(real);
	free(copy);
	return false;
}

/* A recording walk tells the skip callback the real path of each path's directory, so that the
** ignore question needs no realpath; below a followed symlink it says nothing (NULL). */
Test(walk, a_skip_is_told_the_real_directory)
{
	mk("d/a.yaml");
	mk("d/sub/deeper/b.yaml");
	mk("d/.hidden/c.yaml");
	ln(".hidden", "d/zlink");   /* a link inside the root: followed, its real path not known */
	char named[PATH_MAX * 2], dir[PATH_MAX * 2];
	snprintf(dir, sizeof dir, "%s/d", tmp);
	snprintf(named, sizeof named, "%s/./d", tmp);   /* named unlike its real path */
	char *root = realpath(dir, NULL);
	cr_assert_not_null(root);
	sl_walk_seen *seen = sl_walk_seen_new();
	struct told_dirs t = {0};
	sl_walk_skip skip = {check_real_dir, &t, NULL};
	struct seen s = {0};
	cr_assert_eq(sl_walk_recording(named, root, NULL, &skip, seen, on_file, on_error, &s), SL_OK);
	cr_expect_eq(t.wrong, 0, "every real directory given is realpath's");
	cr_expect_eq(t.given, 4, "a.yaml, sub, sub/deeper, sub/deeper/b.yaml");
	cr_expect_eq(t.withheld, 1, "zlink/c.yaml");
	sl_walk_seen_free(seen);
	free(root);
}
