/* SPDX-License-Identifier: Apache-2.0
** test_globs.c: the config's exclude globs (src/fs/walk.c): their meaning, that a pathological
** glob cannot backtrack for minutes, and that a glob PCRE2 cannot decide is reported, never
** taken as "not excluded". */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "fs/walk.h"
#include "support.h"

static sl_globs *globs(const char *glob)
{
	static const char *v[1];
	v[0] = glob;
	sl_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.exclude.v = v;
	cfg.exclude.n = 1;
	cfg.base_dir = ".";
	sl_globs *g = NULL;
	char *msg = NULL;
	cr_assert_eq(sl_config_exclude_globs(&cfg, &g, &msg), SL_OK, "%s", msg ? msg : "");
	return g;
}

struct failures {
	size_t n;
	char path[4096], msg[4096];
};

static sl_err collect(const char *path, const char *msg, void *payload)
{
	struct failures *f = payload;
	f->n++;
	snprintf(f->path, sizeof f->path, "%s", path);
	snprintf(f->msg, sizeof f->msg, "%s", msg);
	return SL_OK;
}

static bool match(const char *glob, const char *path)
{
	sl_globs *g = globs(glob);
	bool hit = sl_walk_globs_match(g, path);
	struct failures f = {0};
	cr_assert_eq(sl_walk_globs_drain(g, collect, &f), SL_OK);
	cr_expect_eq(f.n, 0, "%s on %s: %s", glob, path, f.msg);
	sl_walk_globs_free(g);
	return hit;
}

Test(globs, meaning)
{
	cr_expect(match("charts/**/templates/**", "charts/a/b/templates/x.yaml"));
	cr_expect(match("charts/**/templates/**", "charts/templates/x.yaml"));
	cr_expect(!match("charts/**/templates/**", "chart/templates/x.yaml"));
	cr_expect(match("*.yaml", "a.yaml"));
	cr_expect(!match("*.yaml", "d/a.yml"));
	cr_expect(match("d", "d/a.yml"));   /* a directory excludes what is under it */
	cr_expect(match("a?c.yaml", "abc.yaml"));
	cr_expect(match("a?c.yaml", "a\xC3\xA9" "c.yaml"));   /* "?" is one character */
	cr_expect(!match("a?c.yaml", "a/c.yaml"));
	cr_expect(match("*a*b*c", "xaybzc"));
	cr_expect(!match("*a*b*c", "xcybza"));
	cr_expect(match("*ab*ab*", "abab"));
	cr_expect(!match("*ab*ab*", "aba"));
	cr_expect(match("**x**y", "p/x/q/y"));
	cr_expect(match("***.yaml", "d/e/f.yaml"));         /* a run of stars is "**" */
	cr_expect(match("**/**/**/f.yaml", "f.yaml"));
	cr_expect(!match("*x*y", "x/y"));                   /* "*" stays within a segment */
	cr_expect(match("a.b", "a.b"));
	cr_expect(!match("a.b", "axb"));
	/* hostile file names: a line break, a byte that is not UTF-8 */
	cr_expect(match("**/*.yaml", "d/a\nb.yaml"));
	cr_expect(match("*.yaml", "c\xFF.yaml"));
	cr_expect(!match("*.yaml", "x.yaml\n"));
}

/* Backtracking in the old translation ([^/]*a[^/]*a... on a name of a's without the final b)
** took minutes; compiled as first-occurrence atomic groups it is linear. */
Test(globs, pathological_star_glob_is_fast)
{
	double t0 = sl_test_cpu_seconds();   /* CPU time: load does not stretch it */
	char path[4100];
	memset(path, 'a', 4000);
	strcpy(path + 4000, ".yaml");
	cr_expect(!match("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", path));
	cr_expect(match("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*.yaml", path));
	cr_expect(!match("**a**a**a**a**a**a**a**a**a**a**a**b", path));
	cr_expect_lt(sl_test_cpu_seconds() - t0, 5.0, "minutes of backtracking are back");
}

/* "**" + "/" many times cannot be made linear this way: the match limit stops it, and the path
** is reported with the glob instead of counting as not excluded. */
Test(globs, limit_hit_is_an_error)
{
	double t0 = sl_test_cpu_seconds();
	char glob[256] = "", path[2100] = "b/";   /* a "b" defeats the required-byte check */
	for (int i = 0; i < 12; i++)
		strcat(glob, "**/*a/");
	strcat(glob, "b");
	for (int i = 0; i < 500; i++)
		strcat(path, "a/");
	strcat(path, "c.yaml");
	sl_globs *g = globs(glob);
	cr_expect(sl_walk_globs_match(g, path), "undecided: not walked or linted");
	struct failures f = {0};
	cr_assert_eq(sl_walk_globs_drain(g, collect, &f), SL_OK);
	cr_expect_eq(f.n, 1);
	cr_expect_str_eq(f.path, path);
	cr_expect(strstr(f.msg, glob) && strstr(f.msg, "limit"), "%s", f.msg);
	f.n = 0;
	cr_assert_eq(sl_walk_globs_drain(g, collect, &f), SL_OK);
	cr_expect_eq(f.n, 0, "drained once");
	sl_walk_globs_free(g);
	cr_expect_lt(sl_test_cpu_seconds() - t0, 10.0, "the match limit did not stop it");
}

/* A glob this dialect cannot use is refused when the config is loaded (config.c asks), with the
** glob that works when dropping the wrong part gives one; the ones it can use compile. */
Test(globs, problems)
{
	char fix[64];
	cr_expect_null(sl_walk_glob_problem("charts/**/templates/**", fix, sizeof fix));
	cr_expect_null(sl_walk_glob_problem("*.gen.yaml", fix, sizeof fix));
	cr_expect_null(sl_walk_glob_problem(".hidden/a..b/x", fix, sizeof fix));
	const struct { const char *glob, *why, *fix; } bad[] = {
		{"", "empty", ""},
		{"charts/[ab]/**", "character classes", ""},
		{"{a,b}/**", "braces", ""},
		{"a\\*b", "backslash", ""},
		{"/charts/**", "never absolute", "charts/**"},
		{"./charts/**", "leading \"./\"", "charts/**"},
		{"././x", "leading \"./\"", "x"},
		{"charts/", "never ends in \"/\"", "charts"},
		{"charts/**/", "never ends in \"/\"", "charts/**"},
		{"./charts/", "leading \"./\"", ""},   /* two things wrong: no single fix offered */
		{"a/../b", "\"..\" segments", ""},
		{"a/./b", "\"..\" segments", ""},
		{"..", "\"..\" segments", ""},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *why = sl_walk_glob_problem(bad[i].glob, fix, sizeof fix);
		cr_expect(why && strstr(why, bad[i].why), "%s: %s", bad[i].glob, why ? why : "(none)");
		cr_expect_str_eq(fix, bad[i].fix, "%s", bad[i].glob);
		char again[64];
		if (*fix)
			cr_expect_null(sl_walk_glob_problem(fix, again, sizeof again), "the fix works");
	}
	char huge[2000];
	memset(huge, 'a', sizeof huge - 1);
	huge[sizeof huge - 1] = '\0';
	const char *why = sl_walk_glob_problem(huge, fix, sizeof fix);
	cr_expect(why && strstr(why, "too long"), "%s", why ? why : "(none)");
}
