/* SPDX-License-Identifier: Apache-2.0
** golden.c: runs every rule over its fixtures in testdata/rules/<id>/.
**   ok/<name>.yaml or ok/<name>/        must give no finding of the rule
**   bad/<case>.yaml or bad/<case>/      must give exactly the findings in bad/<case>.diag,
**                                       one per line: "<path>:<line>:<col>: <message>", in the run's order
**                                       (path, line, column), paths relative to bad/ (a directory case is linted as
**                                       one run, so cross-file facts are seen)
**   config.yaml, or <case>.config.yaml  the .schedlint.yaml to use (else the defaults)
** Only the rule under test runs (--select), so fixtures stay small and independent.
** SL_UPDATE_GOLDEN=1 rewrites the .diag files from what the rule reports (review the diff). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "schedlint/schedlint.h"

#define RULES_DIR "testdata/rules"

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* A case name: a .yaml file that is not a config or fix golden, or a directory. */
static int is_case(const char *dir, const char *name, char *stem, size_t cap)
{
	char p[4096];
	if (name[0] == '.')
		return 0;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if (is_dir(p)) {
		snprintf(stem, cap, "%s", name);
		return 1;
	}
	if (!ends_with(name, ".yaml") || ends_with(name, ".config.yaml") ||
	    ends_with(name, ".fixed.yaml"))
		return 0;
	snprintf(stem, cap, "%.*s", (int)(strlen(name) - 5), name);
	return 1;
}

/* Lints one case with only rule `id` and returns its findings as sorted diag text. */
static char *run_case(const char *id, const char *rule_dir, const char *dir, const char *stem,
		      const char *input)
{
	char cfg_path[4096];
	sl_config *cfg = NULL;
	char *err = NULL;
	snprintf(cfg_path, sizeof cfg_path, "%s/%s.config.yaml", dir, stem);
	if (!exists(cfg_path))
		snprintf(cfg_path, sizeof cfg_path, "%s/config.yaml", rule_dir);
	if (exists(cfg_path))
		cr_assert_eq(sl_config_load(cfg_path, &cfg, &err), SL_OK, "%s: %s", cfg_path, err ? err : "");
	else
		cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	const char *sel[1] = {id};
	sl_run_options opts = {.select = sel, .n_select = 1};
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &opts, &run, &err), SL_OK, "%s", err ? err : "");
	cr_assert_eq(sl_run_add_path(run, input), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK, "lint failed on %s", input);
	size_t n = sl_run_finding_count(run);
	char **lines = calloc(n + 1, sizeof *lines);
	size_t dl = strlen(dir);
	for (size_t i = 0; i < n; i++) {
		const sl_finding *f = sl_run_finding(run, i);
		const char *rel = strncmp(f->path, dir, dl) == 0 && f->path[dl] == '/' ? f->path + dl + 1 : f->path;
		cr_assert_eq(strcmp(f->rule, id), 0, "%s: finding of another rule %s", input, f->rule);
		if (asprintf(&lines[i], "%s:%u:%u: %s\n", rel, f->line, f->column, f->message) < 0)
			cr_assert_fail("out of memory");
	}
	size_t total = 1;
	for (size_t i = 0; i < n; i++)
		total += strlen(lines[i]);
	char *out = malloc(total);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strcat(out, lines[i]);
		free(lines[i]);
	}
	free(lines);
	sl_run_free(run);
	sl_config_free(cfg);
	free(err);
	return out;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	size_t r = fread(s, 1, (size_t)n, f);
	s[r] = '\0';
	fclose(f);
	return s;
}

/* Runs every case of one kind (ok or bad) of rule id; returns the number of cases. */
static int run_kind(const char *id, const char *kind, int *failures)
{
	char rule_dir[4096], dir[4096];
	snprintf(rule_dir, sizeof rule_dir, RULES_DIR "/%s", id);
	snprintf(dir, sizeof dir, "%s/%s", rule_dir, kind);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int cases = 0;
	int update = getenv("SL_UPDATE_GOLDEN") != NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		char stem[1024], input[4096], diag[4096];
		if (!is_case(dir, de->d_name, stem, sizeof stem))
			continue;
		cases++;
		snprintf(input, sizeof input, "%s/%s", dir, de->d_name);
		char *got = run_case(id, rule_dir, dir, stem, input);
		if (strcmp(kind, "ok") == 0) {
			if (*got) {
				(*failures)++;
				cr_log_error("%s: expected no finding of %s, got:\n%s", input, id, got);
			}
		} else {
			snprintf(diag, sizeof diag, "%s/%s.diag", dir, stem);
			if (update) {
				FILE *f = fopen(diag, "w");
				cr_assert(f, "cannot write %s", diag);
				fputs(got, f);
				fclose(f);
			}
			char *want = slurp(diag);
			if (!want) {
				(*failures)++;
				cr_log_error("%s: missing %s (SL_UPDATE_GOLDEN=1 writes it)", input, diag);
			} else if (strcmp(want, got) != 0) {
				(*failures)++;
				cr_log_error("%s: findings differ from %s\n--- expected\n%s--- got\n%s", input,
					     diag, want, got);
			} else if (!*want) {
				(*failures)++;
				cr_log_error("%s: a bad case must give at least one finding", input);
			}
			free(want);
		}
		free(got);
	}
	closedir(d);
	return cases;
}

Test(golden, every_rule_over_its_fixtures)
{
	int failures = 0, cases = 0;
	for (size_t i = 0; i < sl_rule_count(); i++) {
		sl_rule_info r;
		sl_rule_get(i, &r);
		cases += run_kind(r.id, "ok", &failures);
		cases += run_kind(r.id, "bad", &failures);
	}
	cr_log_info("%d fixture cases", cases);
	cr_expect_gt(cases, 0, "no fixture cases found under " RULES_DIR);
	cr_expect_eq(failures, 0, "%d of %d fixture cases failed (details above)", failures, cases);
}
