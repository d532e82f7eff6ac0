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

/* What `git check-ignore` says of rel (a path relative to root; a directory that exists is
** asked as one), in git's environment (HOME, XDG_CONFIG_HOME as this process has them). */
static bool git_ignores(const char *rel)
{
	char cmd[PATH_MAX + 96];
	snprintf(cmd, sizeof cmd, "git -C '%s' check-ignore -q --no-index '%s'", root, rel);
	int rc = system(cmd);
	cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) <= 1, "git check-ignore %s", rel);
	return WEXITSTATUS(rc) == 0;
}

/* Each of paths (made as directories when is_dir) asked of r and of git: the same answers. */
static void same_as_git(sl_repo *r, const char *const *paths, size_t n, bool is_dir)
{
	char p[PATH_MAX];
	for (size_t i = 0; i < n; i++) {
		snprintf(p, sizeof p, "%s/%s", root, paths[i]);
		if (is_dir) {
			char cmd[PATH_MAX + 16];
			snprintf(cmd, sizeof cmd, "mkdir -p '%s'", p);
			cr_assert_eq(system(cmd), 0);
		}
		bool git = git_ignores(paths[i]);
		cr_expect_eq(sl_repo_ignored(r, p, is_dir), git, "%s%s: git says %s", paths[i],
			     is_dir ? "/" : "", git ? "ignored" : "not ignored");
	}
}

/* A home of its own for git and for the code under test: no user's ~/.gitconfig. */
static char home[PATH_MAX];

static void scratch_home(void)
{
	sl_test_scratch(home, sizeof home, "home");
	setenv("HOME", home, 1);
	unsetenv("XDG_CONFIG_HOME");
}

/* Directories are answered by gitignore.c's matcher as files are (libgit2 is not even loaded
** for a plain repository): every answer agrees with `git check-ignore`, over patterns of each
** kind: directory-only, anchored, "**" at either end and inside, a negation of a directory, a
** directory below an ignored one, libgit2's built-in ".git". */
Test(repo, a_directorys_answer_is_gits)
{
	scratch_home();
	scratch_repo();
	put(".gitignore", "build/\n/rootonly/\n**/cache\nlogs/**\n*.d/\nnested/deep/\ntmp*\n"
	    "!tmpkeep\nvendor/\n!vendor/keep/\nx/**/y\n");
	put("a/.gitignore", "/local/\nsub*/\n!subkeep/\n");
	put(".git/info/exclude", "secretdir/\n");
	static const char *dirs[] = {
		"build", "a/build", "rootonly", "a/rootonly", "cache", "a/b/cache", "logs",
		"logs/today", "conf.d", "a/conf.d", "nested/deep", "a/nested/deep", "nested",
		"tmpx", "tmpkeep", "vendor", "vendor/keep", "x/y", "x/p/q/y", "a/local", "a/b/local",
		"a/subdir", "a/subkeep", "a/b/subdir", "secretdir", "a/secretdir", "plain", "a/b/c",
	};
	static const char *files[] = {
		"build/x.yaml", "logs/a.yaml", "logs/today/a.yaml", "tmpkeep/a.yaml",
		"vendor/keep/a.yaml", "a/subkeep/a.yaml", "plain/a.yaml", "conf.d/a.yaml",
		"a/local/x.yaml", "a/b/local/x.yaml",
	};
	sl_repo *r = sl_repo_open(root);
	cr_assert_not_null(r);
	same_as_git(r, dirs, sizeof dirs / sizeof *dirs, true);
	same_as_git(r, files, sizeof files / sizeof *files, false);
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/a/.git", root);
	cr_expect(sl_repo_ignored(r, p, false), "a .git file (a submodule's): libgit2's rule");
	snprintf(p, sizeof p, "%s/a/.git/x.yaml", root);
	cr_expect(sl_repo_ignored(r, p, false), "below a .git directory");
	cr_expect(!sl_repo_by_libgit2(r), "a plain repository needs no libgit2");
	sl_repo_free(r);
	remove_repo();
	sl_test_rm_rf(home);
}

/* core.excludesFile from each config file git reads, and git's default when none sets it:
** the same answers as git's, and the work tree found, without libgit2. */
Test(repo, core_excludes_file_from_each_config)
{
	scratch_home();
	scratch_repo();
	char dir[PATH_MAX + 16];
	snprintf(dir, sizeof dir, "%s/.config/git", home);
	sl_test_put(home, ".config/git/ignore", "default-ignored.yaml\n");
	static const char *files[] = {
		"default-ignored.yaml", "xdg-ignored.yaml", "global-ignored.yaml",
		"local-ignored.yaml", "quoted ignored.yaml", "plain.yaml",
	};
	static const struct {
		const char *what, *xdg, *xdg_ignore, *gitconfig, *local;
	} cases[] = {
		{"git's default: ~/.config/git/ignore", NULL, NULL, NULL, NULL},
		{"$XDG_CONFIG_HOME/git/ignore", "xdg", "xdg-ignored.yaml\n", NULL, NULL},
		{"~/.gitconfig's, a ~/ path", NULL, NULL,
		 "[user]\n\tname = x\n[core]\n\texcludesFile = ~/global.ignore\n", NULL},
		{"$XDG_CONFIG_HOME/git/config's", "xdg", NULL, NULL, NULL},
		{"the repository's overrides the global one", NULL, NULL,
		 "[core]\n\texcludesFile = ~/global.ignore\n",
		 "[CORE]\n  ExcludesFile = \"%s/local.ignore\" ; a comment\n"},
		{"the last line of a file wins; quotes, escapes, continuation", NULL, NULL,
		 "[core]\n\texcludesfile = ~/none\n\texcludesfile = ~/qu\\\n\"oted\".ignore # c\n",
		 NULL},
	};
	sl_test_put(home, "global.ignore", "global-ignored.yaml\n");
	sl_test_put(home, "quoted.ignore", "quoted ignored.yaml\n");
	char local[PATH_MAX + 32];
	snprintf(local, sizeof local, "%s/local.ignore", home);
	sl_test_put(home, "local.ignore", "local-ignored.yaml\n");
	char *base_config = sl_test_slurp(strcat(strcpy((char[PATH_MAX + 16]){0}, root),
						  "/.git/config"), NULL);
	cr_assert_not_null(base_config);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char xdg[PATH_MAX + 8];
		snprintf(xdg, sizeof xdg, "%s/xdg", home);
		if (cases[i].xdg) {
			setenv("XDG_CONFIG_HOME", xdg, 1);
			mkdir(xdg, 0700);
			sl_test_put(xdg, "git/ignore", cases[i].xdg_ignore ? cases[i].xdg_ignore : "");
			sl_test_put(xdg, "git/config", cases[i].xdg_ignore ? ""
				    : "[core]\nexcludesFile=~/global.ignore\n");
		} else {
			unsetenv("XDG_CONFIG_HOME");
		}
		snprintf(dir, sizeof dir, "%s/.gitconfig", home);
		unlink(dir);
		if (cases[i].gitconfig)
			sl_test_put(home, ".gitconfig", cases[i].gitconfig);
		char text[2 * PATH_MAX];
		snprintf(text, sizeof text, "%s", base_config);
		if (cases[i].local)
			snprintf(text + strlen(text), sizeof text - strlen(text), cases[i].local, home);
		put(".git/config", text);
		sl_repo *r = sl_repo_open(root);
		cr_assert_not_null(r, "%s", cases[i].what);
		cr_expect(!sl_repo_by_libgit2(r), "%s: no libgit2", cases[i].what);
		char p[PATH_MAX];
		for (size_t j = 0; j < sizeof files / sizeof *files; j++) {
			snprintf(p, sizeof p, "%s/%s", root, files[j]);
			bool git = git_ignores(files[j]);
			cr_expect_eq(sl_repo_ignored(r, p, false), git, "%s: %s: git says %s",
				     cases[i].what, files[j], git ? "ignored" : "not ignored");
		}
		sl_repo_free(r);
	}
	free(base_config);
	remove_repo();
	sl_test_rm_rf(home);
}

/* A linked worktree (a .git file naming .git/worktrees/X, whose commondir is the main .git) and
** a repository made with --separate-git-dir: found without libgit2, with the main repository's
** info/exclude. */
Test(repo, a_gitfile_is_followed)
{
	scratch_home();
	scratch_repo();
	char cmd[3 * PATH_MAX], wt[PATH_MAX + 8], sep[PATH_MAX + 8];
	snprintf(wt, sizeof wt, "%s/wt", root);
	snprintf(cmd, sizeof cmd, "git -C '%s' -c user.name=t -c user.email=t@t commit -q "
		 "--allow-empty -m x && git -C '%s' worktree add -q '%s' 2>/dev/null", root, root, wt);
	cr_assert_eq(system(cmd), 0, "git worktree add");
	put("wt/.gitignore", "wt-ignored.yaml\n");
	put("wt/sub/x.yaml", "");
	char start[PATH_MAX + 16];
	snprintf(start, sizeof start, "%s/sub", wt);
	char *found = NULL;
	cr_assert_eq(sl_repo_root(start, &found), SL_OK);
	cr_expect_str_eq(found, wt);
	free(found);
	sl_repo *r = sl_repo_open(start);
	cr_assert_not_null(r);
	cr_expect(!sl_repo_by_libgit2(r), "a linked worktree needs no libgit2");
	char p[PATH_MAX + 32];
	snprintf(p, sizeof p, "%s/secret.yaml", wt);
	cr_expect(sl_repo_ignored(r, p, false), "the main repository's info/exclude");
	snprintf(p, sizeof p, "%s/sub/wt-ignored.yaml", wt);
	cr_expect(sl_repo_ignored(r, p, false), "the worktree's .gitignore");
	snprintf(p, sizeof p, "%s/sub/x.yaml", wt);
	cr_expect(!sl_repo_ignored(r, p, false));
	sl_repo_free(r);
	snprintf(sep, sizeof sep, "%s/sep", home);
	snprintf(cmd, sizeof cmd, "git init -q --separate-git-dir '%s/gitdir' '%s'", home, sep);
	cr_assert_eq(system(cmd), 0, "git init --separate-git-dir");
	sl_test_put(sep, "a/.gitignore", "b/\n");
	snprintf(start, sizeof start, "%s/a", sep);
	r = sl_repo_open(start);
	cr_assert_not_null(r);
	snprintf(p, sizeof p, "%s/", sep);
	cr_expect_str_eq(sl_repo_workdir(r), p);
	snprintf(p, sizeof p, "%s/a/b", sep);
	cr_expect(sl_repo_ignored(r, p, true));
	cr_expect(!sl_repo_by_libgit2(r), "a .git file needs no libgit2");
	sl_repo_free(r);
	remove_repo();
	sl_test_rm_rf(home);
}

/* What the reader does not follow exactly goes to libgit2: a config [include] (here of the file
** that sets core.excludesFile) and core.ignoreCase; the answers are still git's. (libgit2 is
** linked into this test, and may have read $HOME before the test set it: the include is the
** repository's own config's.) */
Test(repo, what_the_reader_does_not_follow_is_libgit2s)
{
	scratch_home();
	scratch_repo();
	sl_test_put(home, "inc.gitconfig", "[core]\n\texcludesFile = inc.ignore\n");
	put("inc.ignore", "included-ignored.yaml\nupper/\n");
	char cmd[3 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "git -C '%s' config include.path '%s/inc.gitconfig'", root, home);
	cr_assert_eq(system(cmd), 0);
	static const char *files[] = {
		"included-ignored.yaml", "x.out.yaml", "X.OUT.YAML", "a/LOCAL.yaml", "plain.yaml",
		"Upper/a.yaml",
	};
	char cwd[PATH_MAX];
	cr_assert_not_null(getcwd(cwd, sizeof cwd));
	cr_assert_eq(chdir(root), 0);   /* a relative core.excludesFile: git's and libgit2's cwd */
	sl_repo *r = sl_repo_open(root);
	cr_assert_not_null(r);
	cr_expect(sl_repo_by_libgit2(r), "an include: libgit2 reads the config");
	same_as_git(r, files, sizeof files / sizeof *files, false);
	sl_repo_free(r);
	snprintf(cmd, sizeof cmd, "git -C '%s' config core.ignoreCase true", root);
	cr_assert_eq(system(cmd), 0);
	r = sl_repo_open(root);
	cr_assert_not_null(r);
	same_as_git(r, files, sizeof files / sizeof *files, false);
	static const char *dirs[] = {"GEN", "Upper"};
	same_as_git(r, dirs, 2, true);
	sl_repo_free(r);
	cr_assert_eq(chdir(cwd), 0);
	remove_repo();
	sl_test_rm_rf(home);
}
