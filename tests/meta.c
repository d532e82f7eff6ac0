/* SPDX-License-Identifier: Apache-2.0
** meta.c: the rules keep their promises. Every rule is documented under the fixed headings (with
** no TODO left from tools/new_rule.py), has ok and bad fixtures, and is in the registry; no
** fixture directory is an orphan; rule files include only rule.h, which cannot reach the config's
** or the index's layout, and call nothing the engine computes once for them (the tree, the pools,
** a unit's placement or merge); docs/rules.md is what `schedlint rules --format markdown` prints
** now. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "schedlint/schedlint.h"

static int count_cases(const char *dir, int want_diag)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		size_t l = strlen(name);
		if (name[0] == '.')
			continue;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, name);
		struct stat st;
		int isdir = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
		int yaml = l > 5 && strcmp(name + l - 5, ".yaml") == 0 && !strstr(name, ".config.yaml") &&
			   !strstr(name, ".fixed.yaml");
		if ((!isdir && !yaml) || (isdir && l > 6 && strcmp(name + l - 6, ".fixed") == 0))
			continue;
		if (want_diag) {
			char diag[4096];
			snprintf(diag, sizeof diag, "%s/%.*s.diag", dir, (int)(isdir ? l : l - 5), name);
			if (stat(diag, &st) != 0)
				continue;
		}
		n++;
	}
	closedir(d);
	return n;
}

Test(meta, every_rule_is_documented)
{
	static const char *const headings[] = {"## What it does", "## Why is this bad?", "## Example",
		"## Fix safety", "## Options", "## References"};
	cr_assert_gt(sl_rule_count(), 0);
	for (size_t i = 0; i < sl_rule_count(); i++) {
		sl_rule_info r = SL_RULE_INFO_INIT;
		sl_rule_get(i, &r);
		for (const char *p = r.id; *p; p++)
			cr_expect(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-',
				  "rule id %s is not kebab-case", r.id);
		if (i > 0) {
			sl_rule_info prev = SL_RULE_INFO_INIT;
			sl_rule_get(i - 1, &prev);
			cr_expect_lt(strcmp(prev.id, r.id), 0, "registry not sorted or duplicate: %s", r.id);
		}
		cr_expect(r.summary && *r.summary, "%s has no summary", r.id);
		cr_expect(r.summary && r.summary[strlen(r.summary) - 1] != '.', "%s summary ends in '.'", r.id);
		for (size_t h = 0; h < sizeof headings / sizeof *headings; h++)
			cr_expect(strstr(r.doc, headings[h]) != NULL, "%s: doc block lacks \"%s\"", r.id,
				  headings[h]);
		/* tools/new_rule.py writes TODO placeholders: a scaffold is not done until they go. */
		cr_expect(strstr(r.doc, "TODO") == NULL, "%s: doc block still has a TODO", r.id);
		cr_expect(r.summary && strstr(r.summary, "TODO") == NULL, "%s: summary is a TODO", r.id);
		cr_expect_eq(sl_rule_find(r.id), (int)i);
	}
}

Test(meta, every_rule_has_ok_and_bad_fixtures)
{
	for (size_t i = 0; i < sl_rule_count(); i++) {
		sl_rule_info r = SL_RULE_INFO_INIT;
		sl_rule_get(i, &r);
		char dir[4096];
		snprintf(dir, sizeof dir, "testdata/rules/%s/ok", r.id);
		cr_expect_gt(count_cases(dir, 0), 0, "%s has no ok fixture in %s", r.id, dir);
		snprintf(dir, sizeof dir, "testdata/rules/%s/bad", r.id);
		cr_expect_gt(count_cases(dir, 1), 0, "%s has no bad fixture with a .diag in %s", r.id, dir);
	}
}

/* A fixable rule shows its fix: at least one bad case has a .fixed golden. */
Test(meta, every_fixable_rule_has_a_fixed_golden)
{
	for (size_t i = 0; i < sl_rule_count(); i++) {
		sl_rule_info r = SL_RULE_INFO_INIT;
		sl_rule_get(i, &r);
		if (r.fix == SL_FIX_NONE)
			continue;
		char dir[4096];
		snprintf(dir, sizeof dir, "testdata/rules/%s/bad", r.id);
		DIR *d = opendir(dir);
		int found = 0;
		struct dirent *de;
		while (d && (de = readdir(d)))
			if (strstr(de->d_name, ".fixed"))
				found = 1;
		if (d)
			closedir(d);
		cr_expect(found, "%s is fixable but no bad case in %s has a .fixed.yaml", r.id, dir);
	}
}

Test(meta, no_orphan_fixture_directories)
{
	DIR *d = opendir("testdata/rules");
	cr_assert(d, "testdata/rules is missing");
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		cr_expect_geq(sl_rule_find(de->d_name), 0, "testdata/rules/%s names no rule", de->d_name);
	}
	closedir(d);
}

/* What the engine computes once for every rule, and a rule reads through the SDK instead: a
** rule that calls these works around the cache (and the streamed run's life of trees). */
static const struct { const char *call, *instead; } engine_only[] = {
	{"sl_tree_parse(", "the file's tree is parsed once: read the object's nodes"},
	{"sl_pool_set_build(", "the pools are built once per config: sl_index_pool_set"},
	{"sl_placement_unit(", "a unit's placement is computed once: sl_ctx_placement"},
	{"sl_merge_unit(", "a unit merged over its template: sl_ctx_merged"},
};

/* Every rules/<category>/<x>.c is a registered rule (meson lists it), includes only rule.h and
** calls none of engine_only. */
Test(meta, every_rule_file_is_registered_and_includes_only_rule_h)
{
	DIR *top = opendir("rules");
	cr_assert(top);
	struct dirent *cat;
	size_t files = 0;
	while ((cat = readdir(top))) {
		if (cat->d_name[0] == '.')
			continue;
		char cdir[4096];
		snprintf(cdir, sizeof cdir, "rules/%s", cat->d_name);
		DIR *d = opendir(cdir);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d))) {
			size_t l = strlen(de->d_name);
			if (l < 3 || strcmp(de->d_name + l - 2, ".c") != 0)
				continue;
			files++;
			char id[256];
			snprintf(id, sizeof id, "%.*s", (int)(l - 2), de->d_name);
			for (char *p = id; *p; p++)
				if (*p == '_')
					*p = '-';
			cr_expect_geq(sl_rule_find(id), 0, "rules/%s/%s is not in the registry: add it to "
				      "rules/%s/meson.build", cat->d_name, de->d_name, cat->d_name);
			char path[4096], line[1024];
			snprintf(path, sizeof path, "%s/%s", cdir, de->d_name);
			FILE *f = fopen(path, "r");
			cr_assert(f);
			while (fgets(line, sizeof line, f)) {
				if (strncmp(line, "#include", 8) == 0)
					cr_expect(strstr(line, "\"sdk/rule.h\"") != NULL, "%s: rules include only "
						  "sdk/rule.h, found %s", path, line);
				size_t n = sizeof engine_only / sizeof *engine_only;
				for (size_t k = 0; k < n; k++) {
					const char *call = engine_only[k].call;
					cr_expect(!strstr(line, call), "%s calls %.*s: %s", path,
						  (int)strlen(call) - 1, call, engine_only[k].instead);
				}
			}
			fclose(f);
		}
		closedir(d);
	}
	closedir(top);
	cr_expect_eq(files, sl_rule_count(), "%zu rule files but %zu registered rules", files,
		     sl_rule_count());
}

/* Adds to seen[] (paths under src/ or include/) every header path includes, directly or not:
** the quoted #include lines, resolved as the build does (src/ first, then include/). */
static void include_closure(const char *path, char seen[][256], size_t *n, size_t cap)
{
	FILE *f = fopen(path, "r");
	cr_assert(f, "cannot read %s", path);
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		const char *q = strncmp(line, "#include \"", 10) == 0 ? line + 10 : NULL;
		const char *end = q ? strchr(q, '"') : NULL;
		if (!end)
			continue;
		char hdr[256];
		for (int dir = 0; dir < 2; dir++) {
			snprintf(hdr, sizeof hdr, "%s/%.*s", dir ? "include" : "src", (int)(end - q), q);
			struct stat st;
			if (stat(hdr, &st) == 0)
				break;
		}
		size_t i = 0;
		while (i < *n && strcmp(seen[i], hdr) != 0)
			i++;
		if (i < *n)
			continue;
		cr_assert_lt(*n, cap, "more than %zu headers", cap);
		snprintf(seen[(*n)++], 256, "%s", hdr);
		include_closure(hdr, seen, n, cap);
	}
	fclose(f);
}

/* rule.h is a contract: the config and the index are opaque to rules (their accessors and
** lookups, never their fields), and the engine's state is out of reach. */
Test(meta, rule_h_cannot_reach_the_engine_config_or_index_layouts)
{
	static char seen[128][256];
	size_t n = 0;
	include_closure("src/sdk/rule.h", seen, &n, 128);
	cr_expect_gt(n, 5, "rule.h includes too few headers: %zu", n);
	int lookups = 0;
	for (size_t i = 0; i < n; i++) {
		cr_expect(strcmp(seen[i], "src/config/config.h") != 0 && strcmp(seen[i], "src/sched/index.h") != 0,
			  "rule.h reaches %s, whose layout rules must not read: include "
			  "config/values.h or index_lookups.h instead", seen[i]);
		cr_expect(strcmp(seen[i], "src/lint/engine.h") != 0 && strcmp(seen[i], "src/config/registry.h") != 0,
			  "rule.h reaches the engine's %s", seen[i]);
		lookups += strcmp(seen[i], "src/sched/index_lookups.h") == 0;
	}
	cr_expect_eq(lookups, 1, "rule.h does not reach index_lookups.h: is the scan blind?");
}

Test(meta, docs_rules_md_is_current)
{
	const char *exe = getenv("SCHEDLINT");
	cr_assert(exe, "SCHEDLINT (the built binary) is not set");
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' rules --format markdown", exe);
	FILE *p = popen(cmd, "r");
	cr_assert(p);
	size_t cap = 1 << 20, n = 0;
	char *got = malloc(cap);
	size_t r;
	while ((r = fread(got + n, 1, cap - n - 1, p)) > 0) {
		n += r;
		if (n + 1 >= cap)
			got = realloc(got, cap *= 2);
	}
	got[n] = '\0';
	cr_assert_eq(pclose(p), 0);
	FILE *f = fopen("docs/rules.md", "rb");
	cr_assert(f, "docs/rules.md is missing: build/schedlint rules --format markdown > docs/rules.md");
	char *want = malloc(n + 2);
	size_t m = fread(want, 1, n + 1, f);
	want[m] = '\0';
	fclose(f);
	cr_expect(m == n && memcmp(want, got, n) == 0,
		  "docs/rules.md is stale: regenerate it with `build/schedlint rules --format markdown "
		  "> docs/rules.md`");
	free(got);
	free(want);
}
