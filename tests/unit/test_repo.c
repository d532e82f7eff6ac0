/* SPDX-License-Identifier: Apache-2.0
** test_repo.c: the git repository through libgit2 (src/fs/repo.c): the work tree's root from a
** directory below it, none outside any repository, and git's own ignore rules (nested
** .gitignore, a negation, .git/info/exclude, an ignored directory, a path below one that does
** not exist: a build step's output, which Kustomize inputs name). */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fs/repo.h"
#include "support.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	sl_test_put(root, rel, text);
}

static void scratch_repo(void)
{
	char tmpl[256];
	sl_test_scratch(tmpl, sizeof tmpl, "repo");
	char *real = realpath(tmpl, NULL);
	snprintf(root, sizeof root, "%s", real);
	free(real);
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof cmd, "git init -q '%s' && mkdir -p '%s/a/b' '%s/gen'", root, root, root);
	cr_assert_eq(system(cmd), 0, "git init");
	put(".gitignore", "gen/\n*.out.yaml\n!keep.out.yaml\ndep-crds\n");
	put("a/.gitignore", "local.yaml\n");
	put(".git/info/exclude", "secret.yaml\n");
}

static void remove_repo(void)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}

Test(repo, the_work_tree_root_from_below_and_none_outside)
{
	scratch_repo();
	char start[PATH_MAX];
	snprintf(start, sizeof start, "%s/a/b", root);
	char *found = NULL;
	cr_assert_eq(sl_repo_root(start, &found), SL_OK);
	cr_expect_str_eq(found, root);
	free(found);
	found = NULL;
	char outside[256];
	sl_test_scratch(outside, sizeof outside, "norepo");
	cr_expect_eq(sl_repo_root(outside, &found), SL_ENOTFOUND);
	cr_expect_null(found);
	cr_expect_null(sl_repo_open(outside));
	rmdir(outside);
	remove_repo();
}

Test(repo, ignore_rules_are_gits)
{
	scratch_repo();
	sl_repo *r = sl_repo_open(root);
	cr_assert_not_null(r);
	char p[PATH_MAX];
#define IGN(rel, dir) (snprintf(p, sizeof p, "%s/%s", root, rel), sl_repo_ignored(r, p, dir))
	cr_expect(IGN("gen", true), "an ignored directory");
	cr_expect(IGN("x.out.yaml", false), "a pattern");
	cr_expect(!IGN("keep.out.yaml", false), "a negation");
	cr_expect(IGN("a/local.yaml", false), "a nested .gitignore");
	cr_expect(!IGN("local.yaml", false), "a nested .gitignore applies below it only");
	cr_expect(IGN("secret.yaml", false), ".git/info/exclude");
	cr_expect(!IGN("a/b/app.yaml", false), "a tracked-looking file");
	cr_expect(!sl_repo_ignored(r, "/etc/passwd", false), "outside the work tree");
	cr_expect(IGN("dep-crds/jobset/overlays/standalone", true),
		  "below an ignored directory that does not exist");
	cr_expect(IGN("a/b/not/made/x.out.yaml", false), "a pattern, its directories missing");
	cr_expect(!IGN("a/b/not/made/kustomization.yaml", false), "missing but not ignored");
	snprintf(p, sizeof p, "%s/", root);
	cr_expect_str_eq(sl_repo_workdir(r), p);
#undef IGN
	sl_repo_free(r);
	remove_repo();
}

/* An ignore file libgit2 would hang on (a FIFO: it opens them blocking) or backtrack on (a
** pattern of many stars) is vetted first, opened non-blocking: libgit2 is then asked nothing
** more, and gitignore.c's matcher (no backtracking search) answers as git would. */
Test(repo, an_unsafe_ignore_file_is_never_given_to_libgit2)
{
	scratch_repo();
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/a/b/.gitignore", root);
	cr_assert_eq(mkfifo(p, 0600), 0);
	sl_repo *r = sl_repo_open(root);
	cr_assert_not_null(r);
#define IGN(rel, dir) (snprintf(p, sizeof p, "%s/%s", root, rel), sl_repo_ignored(r, p, dir))
	cr_expect(IGN("x.out.yaml", false), "the root's .gitignore is safe: asked");
	cr_expect(IGN("a/b/x.out.yaml", false), "a/b/.gitignore is a FIFO: not read (no hang), "
		  "the root's pattern still applies");
	cr_expect(IGN("a/local.yaml", false), "a/.gitignore");
	cr_expect(IGN("secret.yaml", false), "info/exclude");
	cr_expect(!IGN("keep.out.yaml", false), "a negation");
	cr_expect(IGN("gen/x/y.yaml", false), "below an ignored directory");
	cr_expect(!IGN("a/b/app.yaml", false));
	cr_expect(!sl_repo_ignored(r, "/etc/passwd", false), "outside the work tree");
	sl_repo_free(r);
	/* a pattern libgit2's wildmatch backtracks on; and the same in info/exclude */
	snprintf(p, sizeof p, "%s/a/b/.gitignore", root);
	cr_assert_eq(unlink(p), 0);
	put("a/b/.gitignore", "*a*a*a*a*a*a*a*a*a*a*b\n");
	r = sl_repo_open(root);
	cr_assert_not_null(r);
	char name[256];
	memset(name, 'a', 200);
	snprintf(name + 200, sizeof name - 200, ".yaml");
	char rel[300];
	snprintf(rel, sizeof rel, "a/b/%s", name);
	cr_expect(IGN("a/local.yaml", false), "a/.gitignore");
	cr_expect(!IGN(rel, false), "200 a's then .yaml: no final b (in linear time)");
	name[199] = 'b';
	name[200] = '\0';
	snprintf(rel, sizeof rel, "a/b/%s/pod.yaml", name);
	cr_expect(IGN(rel, false), "below a directory of 199 a's and a b: the pattern matches it");
	cr_expect(!IGN("a/b/app.yaml", false));
	cr_expect(IGN("a/b/x.out.yaml", false), "the root's pattern");
	sl_repo_free(r);
	put("a/b/.gitignore", "**/x/**/*.yaml\n");
	put(".git/info/exclude", "*a*a*a*a*a*a*a*b\n");
	r = sl_repo_open(root);
	cr_assert_not_null(r);
	cr_expect(IGN("x.out.yaml", false), "info/exclude is unsafe: our matcher answers");
	cr_expect(IGN("aaaaaaaab", false), "info/exclude's pattern");
	cr_expect(IGN("a/b/c/x/d/e.yaml", false), "a/b/.gitignore's pattern");
	cr_expect(!IGN("a/b/c/d/e.yaml", false));
#undef IGN
	sl_repo_free(r);
	remove_repo();
}

/* libgit2 is asked about directories only; a file is matched by gitignore.c against the same
** files: every answer agrees with git's own (`git check-ignore`), over patterns of each kind. */
Test(repo, a_files_answer_is_gits)
{
	scratch_repo();
	put(".gitignore", "*.out.yaml\n!keep.out.yaml\n/top.yaml\ngen/\ndocs/**/draft-*.yaml\n"
	    "v[0-9].yaml\n\\#hash.yaml\ntrailing.yaml   \nsub/x.yaml\n");
	put("a/.gitignore", "*.yaml\n!app.yaml\n/anchored.yaml\n");
	put("a/b/.gitignore", "!x.out.yaml\n");
	put(".git/info/exclude", "secret.yaml\n");
	static const char *files[] = {
		"x.out.yaml", "keep.out.yaml", "top.yaml", "a/top.yaml", "gen/x.yaml",
		"docs/a/b/draft-1.yaml", "docs/draft-2.yaml", "docs/a/final.yaml", "v1.yaml", "vx.yaml",
		"#hash.yaml", "trailing.yaml", "sub/x.yaml", "a/sub/x.yaml", "a/app.yaml",
		"a/other.yaml", "a/anchored.yaml", "a/c/anchored.yaml", "a/b/x.out.yaml",
		"a/b/app.yaml", "secret.yaml", "a/b/secret.yaml", "plain.yaml", "a/b/c/d.txt",
	};
	sl_repo *r = sl_repo_open(root);
	cr_assert_not_null(r);
	char p[PATH_MAX], cmd[PATH_MAX + 64];
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(cmd, sizeof cmd, "git -C '%s' check-ignore -q --no-index '%s'", root, files[i]);
		int rc = system(cmd);
		cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) <= 1, "git check-ignore %s", files[i]);
		bool git_ignores = WEXITSTATUS(rc) == 0;
		snprintf(p, sizeof p, "%s/%s", root, files[i]);
		cr_expect_eq(sl_repo_ignored(r, p, false), git_ignores, "%s: git says %s", files[i],
			     git_ignores ? "ignored" : "not ignored");
	}
	sl_repo_free(r);
	remove_repo();
}
