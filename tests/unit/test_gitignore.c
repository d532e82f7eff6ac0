/* SPDX-License-Identifier: Apache-2.0
** test_gitignore.c: .gitignore files read without git (src/fs/gitignore.c): gitignore(5)'s
** patterns one by one (anchoring, directories only, "**", classes, negation, escapes), then a
** tree with no repository: nested files, a re-include, an ignored directory's descendants (which
** no "!" brings back), paths that do not exist, a FIFO and a symlink as .gitignore (never read),
** and a pattern that would make a backtracking matcher take exponential time. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fs/gitignore.h"
#include "support.h"

static bool m(const char *pat, const char *rel, bool is_dir)
{
	bool neg;
	return sl_gitignore_pattern_matches(pat, rel, is_dir, &neg);
}

Test(gitignore, patterns)
{
	/* no slash: any level, the last segment */
	cr_assert(m("dep-crds", "dep-crds", true));
	cr_assert(m("dep-crds", "config/dep-crds", true));
	cr_assert(m(".env", "config/manager/.env", false));
	cr_assert_not(m("dep-crds", "dep-crds-x", true));
	/* a trailing slash: directories only */
	cr_assert(m("gen/", "a/gen", true));
	cr_assert_not(m("gen/", "a/gen", false));
	/* a leading or middle slash anchors */
	cr_assert(m("/gen", "gen", false));
	cr_assert_not(m("/gen", "a/gen", false));
	cr_assert(m("a/b", "a/b", false));
	cr_assert_not(m("a/b", "x/a/b", false));
	/* "*" and "?" stay within a segment; classes, ranges, negated classes */
	cr_assert(m("*.out.yaml", "x/y.out.yaml", false));
	cr_assert_not(m("a/*.yaml", "a/b/c.yaml", false));
	cr_assert(m("v?.yaml", "v1.yaml", false));
	cr_assert(m("v[0-9].yaml", "v7.yaml", false));
	cr_assert_not(m("v[!0-9].yaml", "v7.yaml", false));
	cr_assert(m("v[!0-9].yaml", "vx.yaml", false));
	cr_assert(m("v[].yaml", "v[].yaml", false), "an unterminated class is literal");
	/* "**" */
	cr_assert(m("**/foo", "foo", false));
	cr_assert(m("**/foo", "a/b/foo", false));
	cr_assert(m("a/**/b", "a/b", false));
	cr_assert(m("a/**/b", "a/x/y/b", false));
	cr_assert_not(m("a/**/b", "a/x/y/c", false));
	cr_assert(m("a/**", "a/x", false));
	cr_assert(m("a/**", "a/x/y", false));
	cr_assert_not(m("a/**", "a", true), "everything inside, not the directory itself");
	/* comments, blank lines, escapes, trailing spaces */
	cr_assert_not(m("# gen", "# gen", false));
	cr_assert(m("\\#gen", "#gen", false));
	cr_assert_not(m("", "x", false));
	cr_assert(m("gen   ", "gen", false));
	cr_assert(m("gen\r\n", "gen", false));
	bool neg = false;
	cr_assert(sl_gitignore_pattern_matches("!keep.yaml", "keep.yaml", false, &neg));
	cr_assert(neg);
	cr_assert(sl_gitignore_pattern_matches("\\!keep.yaml", "!keep.yaml", false, &neg));
	cr_assert_not(neg);
}

/* A pattern of many stars against a long name that it does not match: a backtracking matcher
** takes exponential time; this one is bounded by pattern × name (CPU time, not the clock). */
Test(gitignore, no_backtracking_blowup)
{
	char name[4096];
	memset(name, 'a', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	double t0 = sl_test_cpu_seconds();
	for (int i = 0; i < 10; i++)
		cr_assert_not(m("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", name, false));
	cr_assert_lt(sl_test_cpu_seconds() - t0, 5.0);
}

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	sl_test_put(root, rel, text);
}

/* A scratch directory (its name in tmpl) whose real path is root. */
static void scratch_root(char *tmpl, size_t size, const char *name)
{
	sl_test_scratch(tmpl, size, name);
	char *real = realpath(tmpl, NULL);
	snprintf(root, sizeof root, "%s", real);
	free(real);
}

static bool ign(const char *rel, bool is_dir)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	return sl_gitignore_ignores(p, is_dir);
}

/* A tree exported without .git: its .gitignore files are what says a path is generated. */
Test(gitignore, tree_without_repository)
{
	char tmpl[256];
	scratch_root(tmpl, sizeof tmpl, "gitignore");
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/config/manager", root);
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s/../../fifo'", p, p);
	cr_assert_eq(system(cmd), 0);
	put(".gitignore", "dep-crds/\n.env\n*.out.yaml\n!keep.out.yaml\nbuild/\n!build/keep.yaml\n");
	put("config/.gitignore", "local.yaml\n!.env\n");

	cr_assert(ign("dep-crds/training-operator/overlays/standalone", false),
		  "below an ignored directory, none of it existing");
	cr_assert(ign("dep-crds", true));
	cr_assert_not(ign("dep-crds", false), "a directory pattern does not ignore a file");
	snprintf(p, sizeof p, "%s/dep-crds", root);
	cr_assert(sl_gitignore_ignores_either(p), "either: as a directory");
	snprintf(p, sizeof p, "%s/x.out.yaml", root);
	cr_assert(sl_gitignore_ignores_either(p), "either: as a file");
	snprintf(p, sizeof p, "%s/keep.out.yaml", root);
	cr_assert_not(sl_gitignore_ignores_either(p), "either: neither");
	cr_assert(ign("manager/.env", false));
	cr_assert_not(ign("config/manager/.env", false), "the deeper file re-includes it");
	cr_assert(ign("config/local.yaml", false));
	cr_assert_not(ign("local.yaml", false), "config/.gitignore says nothing above config/");
	cr_assert(ign("x.out.yaml", false));
	cr_assert_not(ign("keep.out.yaml", false));
	cr_assert(ign("build/keep.yaml", false), "no pattern re-includes below an ignored directory");
	cr_assert_not(ign("config/manager/deployment.yaml", false));
	cr_assert(ign("config/../dep-crds/x", false), "a '..' in what exists is resolved");
	cr_assert_not(ign("nope/../dep-crds/x", false), "a '..' below what exists: not judged");

	/* a .gitignore that is a FIFO or a symlink is never read (and never blocks) */
	snprintf(p, sizeof p, "%s/fifo/.gitignore", root);
	cr_assert_eq(mkfifo(p, 0600), 0);
	cr_assert_not(ign("fifo/anything", false));
	cr_assert_eq(unlink(p), 0);
	put("elsewhere.txt", "only-via-link\n");
	char target[PATH_MAX];
	snprintf(target, sizeof target, "%s/elsewhere.txt", root);
	cr_assert_eq(symlink(target, p), 0);
	cr_assert_not(ign("fifo/only-via-link", false), "a symlinked .gitignore is not followed");
	cr_assert(ign("fifo/x.out.yaml", false), "the root's own file still applies");
	cr_assert_eq(unlink(p), 0);
	put("fifo/.gitignore", "secret\n");
	cr_assert(ign("fifo/secret", false));
	sl_test_rm_rf(tmpl);
}

/* One tree's rules held (what repo.c answers with when libgit2 must not be asked): the tree-wide
** files (core.excludesFile, then info/exclude) below every .gitignore, a later one overriding an
** earlier one, a missing file and a FIFO skipped, each directory decided once. */
Test(gitignore, a_trees_rules_with_its_exclude_files)
{
	char tmpl[256];
	scratch_root(tmpl, sizeof tmpl, "ignores");
	put("global", "*.log\nsecret.yaml\nlocal.yaml\n");
	put("exclude", "!local.yaml\n*.tmp\n");
	put(".gitignore", "!keep.log\ngen/\n");
	put("a/.gitignore", "*.yaml\n!app.yaml\n");
	char g[PATH_MAX], x[PATH_MAX], fifo[PATH_MAX];
	snprintf(g, sizeof g, "%s/global", root);
	snprintf(x, sizeof x, "%s/exclude", root);
	snprintf(fifo, sizeof fifo, "%s/fifo", root);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	const char *files[] = {g, NULL, fifo, x};
	sl_gitignore_tree *r = sl_gitignore_tree_new(root, files, 4);
	cr_assert_not_null(r);
	cr_expect(sl_gitignore_tree_ignored(r, "x.log", false), "core.excludesFile");
	cr_expect(sl_gitignore_tree_ignored(r, "d/x.tmp", false), "info/exclude, at any level");
	cr_expect(!sl_gitignore_tree_ignored(r, "local.yaml", false), "info/exclude overrides the global");
	cr_expect(!sl_gitignore_tree_ignored(r, "keep.log", false), "a .gitignore overrides both");
	cr_expect(sl_gitignore_tree_ignored(r, "secret.yaml", false));
	cr_expect(sl_gitignore_tree_ignored(r, "a/b/c.yaml", false), "a/.gitignore below a/");
	cr_expect(!sl_gitignore_tree_ignored(r, "a/b/app.yaml", false));
	cr_expect(!sl_gitignore_tree_ignored(r, "b/c.yaml", false), "a/.gitignore only below a/");
	cr_expect(sl_gitignore_tree_ignored(r, "gen", true));
	cr_expect(sl_gitignore_tree_ignored(r, "gen/keep.log", false), "below an ignored directory");
	cr_expect(sl_gitignore_tree_ignored(r, "gen/keep.log", false), "the same, decided from the memo");
	cr_expect(!sl_gitignore_tree_ignored(r, "a/../x.log", false), "a '..' is not judged");
	sl_gitignore_tree_free(r);
	sl_test_rm_rf(tmpl);
}
