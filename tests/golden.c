/* SPDX-License-Identifier: Apache-2.0
** golden.c: runs every rule over its fixtures in testdata/rules/<id>/.
**   ok/<name>.yaml or ok/<name>/        must give no finding of the rule
**   bad/<case>.yaml or bad/<case>/      must give exactly the findings in bad/<case>.diag,
**                                       one per line: "<path>:<line>:<col>: <message>", in the run's order
**                                       (path, line, column), paths relative to bad/ (a directory case is linted as
**                                       one run, so cross-file facts are seen); a notice rule's
**                                       (rule.h, .notice) read "<path>:<line>:<col>: notice: <message>",
**                                       so a notice delivered as a finding, or the reverse, fails
**   bad/<case>.fixed.yaml               the case after the rule's fixes (safe and unsafe), for a
**   bad/<case>.fixed/<file>             file case, or each changed file of a directory case;
**                                       fixing that output again must change nothing. A bad
**                                       case without one must offer no fix (the fix is declined)
**   config.yaml, or <case>.config.yaml  the .schedlint.yaml to use (else the defaults)
**   also                                rules to run beside the one under test (one per line;
**                                       their findings are not compared), for rules about
**                                       other rules' findings (unused-suppression)
** Only the rule under test runs (--select), so fixtures stay small and independent.
** SL_UPDATE_GOLDEN=1 rewrites the .diag files from what the rule reports (review the diff);
** SL_GOLDEN_ONLY=id,id,... restricts the run (and any rewrite) to those rules. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "support.h"

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
		if (ends_with(name, ".fixed"))
			return 0;   /* the fixed golden of a directory case */
		snprintf(stem, cap, "%s", name);
		return 1;
	}
	if (!ends_with(name, ".yaml") || ends_with(name, ".config.yaml") ||
	    ends_with(name, ".fixed.yaml"))
		return 0;
	snprintf(stem, cap, "%.*s", (int)(strlen(name) - 5), name);
	return 1;
}

static int check_fixes(const char *id, const char *rule_dir, const char *dir, const char *stem,
		       const char *input, sl_config *cfg, int update);

/* The rules a case runs: id, and those listed in <rule_dir>/also. Returns the buffer the names
** live in (free it after the run). */
static char *selection(const char *id, const char *rule_dir, const char **sel, sl_run_options *opts)
{
	char also_path[4096];
	snprintf(also_path, sizeof also_path, "%s/also", rule_dir);
	char *also = sl_test_slurp(also_path, NULL);
	*opts = (sl_run_options)SL_RUN_OPTIONS_INIT;
	sel[0] = id;
	opts->select = sel;
	opts->n_select = 1;
	for (char *tok = also ? strtok(also, "\n") : NULL; tok && opts->n_select < 16; tok = strtok(NULL, "\n"))
		if (*tok)
			sel[opts->n_select++] = tok;
	return also;
}

/* Lints one case with only rule `id` and returns its findings as diag text; for bad cases
** (*fix_failures non-NULL) also checks its fixes against the .fixed golden. */
static char *run_case(const char *id, const char *rule_dir, const char *dir, const char *stem,
		      const char *input, int *fix_failures)
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
	const char *sel[16];
	sl_run_options opts;
	char *also = selection(id, rule_dir, sel, &opts);
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &opts, &run, &err), SL_OK, "%s", err ? err : "");
	cr_assert_eq(sl_run_add_path(run, input), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK, "lint failed on %s", input);
	/* the findings, then the notices: a rule reports one or the other */
	size_t nf = sl_run_finding_count(run), n = nf + sl_run_notice_count(run);
	char **lines = calloc(n + 1, sizeof *lines);
	size_t dl = strlen(dir);
	for (size_t i = 0; i < n; i++) {
		const sl_finding *f = i < nf ? sl_run_finding(run, i) : sl_run_notice(run, i - nf);
		const char *rel = strncmp(f->path, dir, dl) == 0 && f->path[dl] == '/' ? f->path + dl + 1 : f->path;
		if (strcmp(f->rule, id) != 0) {
			lines[i] = strdup("");
			continue;
		}
		if (asprintf(&lines[i], "%s:%u:%u: %s%s\n", rel, f->line, f->column,
			     i < nf ? "" : "notice: ", f->message) < 0)
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
	free(also);
	sl_run_free(run);
	if (fix_failures)
		*fix_failures += check_fixes(id, rule_dir, dir, stem, input, cfg,
					     getenv("SL_UPDATE_GOLDEN") != NULL);
	sl_config_free(cfg);
	free(err);
	return out;
}

/* A fresh run of rule id (and its "also" rules, so that it sees their findings) over input,
** linted and fixed, safe and unsafe. The "also" rules' fixes apply too: keep their findings out
** of such cases, or suppressed. */
static sl_run *fixed_run(const char *id, const char *rule_dir, const char *input, sl_config *cfg,
			 size_t *applied)
{
	const char *sel[16];
	sl_run_options opts;
	char *also = selection(id, rule_dir, sel, &opts);
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &opts, &run, NULL), SL_OK);
	free(also);   /* sl_run_new has resolved the selection */
	cr_assert_eq(sl_run_add_path(run, input), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = true};
	bool converged = false;
	cr_assert_eq(sl_run_fix(run, &fo, applied, &converged), SL_OK, "%s: fixing failed", input);
	cr_expect(converged, "%s: fixes did not converge", input);
	return run;
}

/* The golden for file i of a run: <stem>.fixed.yaml for a file case, <stem>.fixed/<rel> for a
** directory case. */
static void golden_path(char *out, size_t cap, const char *dir, const char *stem, const char *input,
			const char *path)
{
	size_t il = strlen(input);
	if (strcmp(path, input) == 0)
		snprintf(out, cap, "%s/%s.fixed.yaml", dir, stem);
	else
		snprintf(out, cap, "%s/%s.fixed/%s", dir, stem, path + il + 1);
}

static int check_fixes(const char *id, const char *rule_dir, const char *dir, const char *stem,
		       const char *input, sl_config *cfg, int update)
{
	int failures = 0;
	size_t applied = 0;
	sl_run *run = fixed_run(id, rule_dir, input, cfg, &applied);
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi;
		sl_run_file(run, i, &fi);
		const char *text;
		size_t len;
		bool changed;
		sl_run_file_text(run, i, &text, &len, &changed);
		char gp[4096];
		golden_path(gp, sizeof gp, dir, stem, input, fi.path);
		if (update && changed) {
			if (strchr(gp + strlen(dir) + 1, '/')) {
				char mk[4200];
				snprintf(mk, sizeof mk, "mkdir -p '%s/%s.fixed'", dir, stem);
				cr_assert_eq(system(mk), 0);
			}
			sl_test_spit(gp, text, len);
		}
		char *want = sl_test_slurp(gp, NULL);
		if (changed && !want) {
			failures++;
			cr_log_error("%s: the fix changed %s but %s is missing (SL_UPDATE_GOLDEN=1 writes it)",
				     input, fi.path, gp);
		} else if (!changed && want) {
			failures++;
			cr_log_error("%s: %s expects a fix but none was applied", input, gp);
		} else if (want && (strlen(want) != len || memcmp(want, text, len) != 0)) {
			failures++;
			cr_log_error("%s: fixed %s differs from %s\n--- expected\n%s--- got\n%.*s", input,
				     fi.path, gp, want, (int)len, text);
		}
		free(want);
		if (changed) {
			/* Fixing the fixed text again must change nothing. */
			char tmpl[] = "/tmp/schedlint-golden-XXXXXX.yaml";
			int fd = mkstemps(tmpl, 5);
			cr_assert_geq(fd, 0);
			cr_assert_eq(write(fd, text, len), (ssize_t)len);
			close(fd);
			size_t again = 0;
			sl_run *r2 = fixed_run(id, rule_dir, tmpl, cfg, &again);
			if (again && sl_run_file_count(r2) == 1 && !strchr(fi.path + strlen(dir), '/')) {
				failures++;
				cr_log_error("%s: fixing the fixed output applied %zu more fixes", input, again);
			}
			sl_run_free(r2);
			unlink(tmpl);
		}
	}
	sl_run_free(run);
	return failures;
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
		int fixf = 0;
		char *got = run_case(id, rule_dir, dir, stem, input, strcmp(kind, "bad") == 0 ? &fixf : NULL);
		*failures += fixf;
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
			char *want = sl_test_slurp(diag, NULL);
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
	const char *only = getenv("SL_GOLDEN_ONLY");
	for (size_t i = 0; i < sl_rule_count(); i++) {
		sl_rule_info r;
		sl_rule_get(i, &r);
		if (only) {
			/* A comma-separated list: match whole ids only. */
			size_t n = strlen(r.id);
			const char *p = only;
			int hit = 0;
			while ((p = strstr(p, r.id))) {
				if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
					hit = 1;
				p += n;
			}
			if (!hit)
				continue;
		}
		cases += run_kind(r.id, "ok", &failures);
		cases += run_kind(r.id, "bad", &failures);
	}
	cr_log_info("%d fixture cases", cases);
	cr_expect_gt(cases, 0, "no fixture cases found under " RULES_DIR);
	cr_expect_eq(failures, 0, "%d of %d fixture cases failed (details above)", failures, cases);
}
