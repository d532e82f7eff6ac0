/* SPDX-License-Identifier: Apache-2.0
** corpus.c: every rule over ../shared/corpus (real manifests from upstream repositories), when
** that folder exists; a fresh clone has none and the test skips. Requirements: no crash (and,
** in the sanitizer build, no sanitizer report), and a yaml-syntax finding exactly where PyYAML
** could not parse the file (INDEX.tsv's last column), unless the file is a template: then one
** template-not-rendered notice and no finding of it at all (a template PyYAML parses, whose
** values carry the markers, is one too). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "schedlint/schedlint.h"
#include "support.h"

#define CORPUS "../shared/corpus"

Test(corpus, lints_every_file_and_matches_pyyaml_on_syntax)
{
	struct stat st;
	if (stat(CORPUS "/INDEX.tsv", &st) != 0) {
		sl_test_note("skipped: %s is absent (a clone without the team's ../shared)", CORPUS);
		cr_skip_test("%s is absent (a fresh clone has no ../shared)", CORPUS);
	}
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, NULL, &run, NULL), SL_OK);
	FILE *idx = fopen(CORPUS "/INDEX.tsv", "r");
	cr_assert(idx);
	char line[8192];
	size_t files = 0, invalid = 0;
	char **bad_paths = NULL;
	fgets(line, sizeof line, idx);   /* header */
	while (fgets(line, sizeof line, idx)) {
		line[strcspn(line, "\n")] = '\0';
		char *tab = strchr(line, '\t');
		char *last = strrchr(line, '\t');
		cr_assert(tab && last);
		*tab = '\0';
		char path[4096];
		snprintf(path, sizeof path, CORPUS "/%s", line);
		cr_assert_eq(sl_run_add_path(run, path), SL_OK);
		files++;
		if (strcmp(last + 1, "yes") != 0) {
			bad_paths = realloc(bad_paths, (invalid + 1) * sizeof *bad_paths);
			bad_paths[invalid++] = strdup(path);
		}
	}
	fclose(idx);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	size_t matched = 0;
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		if (strcmp(f->rule, "yaml-syntax") != 0)
			continue;
		int expected = 0;
		for (size_t j = 0; j < invalid; j++)
			if (strcmp(bad_paths[j], f->path) == 0)
				expected = 1;
		cr_expect(expected, "%s:%u:%u: yaml-syntax on a file PyYAML parses: %s", f->path, f->line,
			  f->column, f->message);
	}
	size_t templates = 0;
	for (size_t i = 0; i < sl_run_notice_count(run); i++) {
		const sl_finding *t = sl_run_notice(run, i);
		if (strcmp(t->rule, "template-not-rendered") != 0)
			continue;
		templates++;
		for (size_t k = 0; k < sl_run_finding_count(run); k++)
			cr_expect_str_neq(sl_run_finding(run, k)->path, t->path,
					  "%s: a template, yet a finding of it: %s", t->path,
					  sl_run_finding(run, k)->message);
	}
	for (size_t j = 0; j < invalid; j++) {
		int found = 0;
		for (size_t i = 0; i < sl_run_finding_count(run) && !found; i++) {
			const sl_finding *f = sl_run_finding(run, i);
			found = strcmp(f->rule, "yaml-syntax") == 0 && strcmp(f->path, bad_paths[j]) == 0;
		}
		for (size_t i = 0; i < sl_run_notice_count(run) && !found; i++) {
			const sl_finding *t = sl_run_notice(run, i);
			found = strcmp(t->rule, "template-not-rendered") == 0 && strcmp(t->path, bad_paths[j]) == 0;
		}
		cr_expect(found, "%s: PyYAML cannot parse it but schedlint reports no yaml-syntax "
			  "(nor a template)", bad_paths[j]);
		matched += found;
		free(bad_paths[j]);
	}
	free(bad_paths);
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi;
		sl_run_file(run, i, &fi);
		cr_expect(fi.error == NULL, "%s: %s", fi.path, fi.error);
	}
	cr_log_info("%zu corpus files, %zu invalid per PyYAML, %zu matched, %zu templates", files,
		    invalid, matched, templates);
	cr_expect_gt(files, 900);
	sl_run_free(run);
	sl_config_free(cfg);
}
