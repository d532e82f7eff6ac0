/* SPDX-License-Identifier: Apache-2.0
** test_custom.c: declared rules (src/extend/custom.c) through the public API, as a program linking
** libschedlint sees them. testdata/custom/placement/ is a project with five realistic declared
** rules (unit, container and object targets; kinds, roles, modes, namespace, name and
** requests-gpu selectors; $unit facts, quantityMaximum, not, $ref) whose findings must be
** exactly expected.txt (positions and messages; the manifests that satisfy them are the true
** negatives); testdata/custom/templates/ the same for units merged over their ServingRuntime. testdata/custom/errors/ holds configs whose rule is wrong: each first line
** says the error a run must refuse it with, at file:line:col. Then what makes a declared rule a
** rule: the catalogue, severities from rules:, --select/--ignore, suppressions. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"

#define DIR_ "testdata/custom"

/* A run of path under config (its cfg in *cfg_out, to free after the run; NULL: left to the
** end of the test process). */
static sl_run *lint_with(const char *config, const sl_run_options *opts, const char *path,
			 sl_config **cfg_out)
{
	sl_config *cfg = NULL;
	char *msg = NULL;
	cr_assert_eq(sl_config_load(config, &cfg, &msg), SL_OK, "%s", msg ? msg : "");
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, opts, &run, &msg), SL_OK, "%s", msg ? msg : "");
	cr_assert_eq(sl_run_add_path(run, path), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	if (cfg_out)
		*cfg_out = cfg;
	return run;
}

static sl_run *lint(const char *config, const char *const *select, size_t n_select,
		    const char *const *ignore, size_t n_ignore, const char *path)
{
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	o.select = select;
	o.n_select = n_select;
	o.ignore = ignore;
	o.n_ignore = n_ignore;
	return lint_with(config, &o, path, NULL);
}

/* The run's findings of declared rules, "file:line:col: severity: message [rule]" a line. */
static char *custom_findings(const sl_run *run, const char *strip)
{
	size_t cap = 1 << 16, len = 0;
	char *out = calloc(1, cap);
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		if (!strchr(f->rule, '/'))
			continue;
		const char *p = strncmp(f->path, strip, strlen(strip)) == 0 ? f->path + strlen(strip) : f->path;
		len += (size_t)snprintf(out + len, cap - len, "%s:%u:%u: %s: %s [%s]\n", p, f->line,
					f->column, sl_severity_name(f->severity), f->message, f->rule);
	}
	return out;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	cr_assert(fp, "%s", path);
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* The project in testdata/custom/<name>/ under its config, linted whole and streamed (low
** memory: the template a unit is merged over is then the index's digest of it). */
static void project_at(const char *dir, const char *name)
{
	static const char *const sel[] = {"acme"};
	char config[300], expected[300], strip[300];
	snprintf(config, sizeof config, "%s/.schedlint.yaml", dir);
	snprintf(expected, sizeof expected, "%s/expected.txt", dir);
	snprintf(strip, sizeof strip, "%s/", dir);
	char *want = slurp(expected);
	for (int streamed = 0; streamed < 2; streamed++) {
		sl_config *cfg = NULL;
		sl_run_options o = SL_RUN_OPTIONS_INIT;
		o.jobs = 1;
		o.select = sel;
		o.n_select = 1;
		o.low_memory = streamed;
		sl_run *run = lint_with(config, &o, dir, &cfg);
		char *got = custom_findings(run, strip);
		cr_assert_str_eq(got, want, "%s, %s", name, streamed ? "streamed" : "whole");
		/* only declared rules ran: --select took the namespace as a category */
		for (size_t i = 0; i < sl_run_finding_count(run); i++)
			cr_assert(strncmp(sl_run_finding(run, i)->rule, "acme/", 5) == 0);
		free(got);
		sl_run_free(run);
		sl_config_free(cfg);
	}
	free(want);
}

static void project(const char *name)
{
	char dir[256];
	snprintf(dir, sizeof dir, DIR_ "/%s", name);
	project_at(dir, name);
}

/* The declared rules' findings of testdata/custom/<name>/ under its config are exactly want. */
static void expect_findings(const char *name, const char *want)
{
	char config[256], dir[256];
	snprintf(dir, sizeof dir, DIR_ "/%s", name);
	snprintf(config, sizeof config, "%s/.schedlint.yaml", dir);
	sl_run *run = lint(config, NULL, 0, NULL, 0, dir);
	strcat(dir, "/");
	char *got = custom_findings(run, dir);
	cr_assert_str_eq(got, want, "%s", name);
	free(got);
	sl_run_free(run);
}

Test(custom, declared_rules_report_exactly_the_expected_findings)
{
	project("placement");
}

Test(custom, a_unit_is_seen_merged_over_its_serving_runtime)
{
	/* chat gets its runtime's GPU toleration and inference-high class: no finding; summarize's
	** runtime has neither: both at the unit, the template's value named */
	project("templates");
}

Test(custom, a_wrong_rule_is_a_config_error_at_its_position)
{
	DIR *d = opendir(DIR_ "/errors");
	cr_assert(d);
	size_t cases = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strstr(e->d_name, ".yaml"))
			continue;
		char path[512];
		snprintf(path, sizeof path, DIR_ "/errors/%s", e->d_name);
		char *text = slurp(path);
		cr_assert(strncmp(text, "# expect: ", 10) == 0, "%s", path);
		char want[1024];
		size_t wl = strcspn(text + 10, "\n");
		snprintf(want, sizeof want, "%s:%.*s", path, (int)wl, text + 10);
		sl_config *cfg = NULL;
		char *msg = NULL;
		cr_assert_eq(sl_config_load(path, &cfg, &msg), SL_OK, "%s", msg ? msg : "");
		sl_run *run = NULL;
		cr_assert_eq(sl_run_new(cfg, NULL, &run, &msg), SL_ECONFIG, "%s", path);
		cr_assert_str_eq(msg, want);
		cr_assert_null(run);
		free(msg);
		free(text);
		sl_config_free(cfg);
		cases++;
	}
	closedir(d);
	cr_assert_geq(cases, 12);
}

Test(custom, a_declared_rule_is_a_first_class_rule)
{
	sl_run *run = lint(DIR_ "/placement/.schedlint.yaml", NULL, 0, NULL, 0,
			   DIR_ "/placement/isvc.yaml");
	/* the catalogue lists it, with its doc and its namespace as category */
	int i = sl_rule_find("acme/gpu-needs-inference-priority");
	cr_assert_geq(i, 0);
	sl_rule_info r = SL_RULE_INFO_INIT;
	cr_assert_eq(sl_rule_get((size_t)i, &r), SL_OK);
	cr_assert_str_eq(r.category, "acme");
	cr_assert_eq(r.severity, SL_SEV_ERROR);
	cr_assert(strstr(r.doc, "batch work never preempts them"));
	cr_assert_str_eq(r.summary, "GPU units in prod-* must use an inference-* priority class");
	/* the same declaration loaded again is the same rule */
	size_t before = sl_rule_count();
	sl_run *again = lint(DIR_ "/placement/.schedlint.yaml", NULL, 0, NULL, 0,
			     DIR_ "/placement/isvc.yaml");
	cr_assert_eq(sl_rule_count(), before);
	sl_run_free(again);
	sl_run_free(run);

	/* --ignore turns one off */
	static const char *const ign[] = {"acme/predictor-gpu-cap"};
	run = lint(DIR_ "/placement/.schedlint.yaml", NULL, 0, ign, 1, DIR_ "/placement/isvc.yaml");
	char *got = custom_findings(run, DIR_ "/placement/");
	cr_assert_null(strstr(got, "predictor-gpu-cap"));
	cr_assert(strstr(got, "acme/gpu-needs-inference-priority"));
	free(got);
	sl_run_free(run);
}

Test(custom, severities_and_suppressions_apply)
{
	/* rules: makes one an error, turns another off; a comment suppresses a third */
	sl_run *run = lint(DIR_ "/suppressed/.schedlint.yaml", NULL, 0, NULL, 0, DIR_ "/suppressed");
	char *got = custom_findings(run, DIR_ "/suppressed/");
	cr_assert_str_eq(got, "isvc.yaml:7:3: error: a predictor never asks for more than 4 GPUs: "
			      "gpus 8 is more than 4 [acme/predictor-gpu-cap]\n");
	free(got);
	for (size_t i = 0; i < sl_run_finding_count(run); i++)
		cr_assert_str_neq(sl_run_finding(run, i)->rule, "unused-suppression");
	sl_run_free(run);
}

Test(custom, a_config_without_the_rule_does_not_run_it)
{
	/* acme rules were declared by another config of this process: off here */
	sl_run *run = lint(DIR_ "/placement/.schedlint.yaml", NULL, 0, NULL, 0,
			   DIR_ "/placement/isvc.yaml");
	sl_run_free(run);
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_path(run, DIR_ "/placement/isvc.yaml"), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	char *got = custom_findings(run, "");
	cr_assert_str_eq(got, "");
	free(got);
	sl_run_free(run);
	sl_config_free(cfg);
}

Test(custom, a_config_that_extends_another_has_its_rules)
{
	sl_run *run = lint(DIR_ "/extended/.schedlint.yaml", NULL, 0, NULL, 0,
			   DIR_ "/placement/isvc.yaml");
	char *got = custom_findings(run, DIR_ "/placement/");
	cr_assert(strstr(got, "isvc.yaml:10:3: warning: a predictor never asks for more than 4 GPUs"), "%s", got);
	cr_assert_null(strstr(got, "acme/team-label"), "%s", got);
	free(got);
	sl_run_free(run);
}

Test(custom, sarif_and_json_carry_a_declared_rule)
{
	static const char *const sel[] = {"acme/gpu-needs-inference-priority"};
	sl_run *run = lint(DIR_ "/placement/.schedlint.yaml", sel, 1, NULL, 0,
			   DIR_ "/placement/isvc.yaml");
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	sl_output_options oo = SL_OUTPUT_OPTIONS_INIT;
	oo.format = SL_FORMAT_SARIF;
	cr_assert_eq(sl_run_write_output(run, &oo, fp), SL_OK);
	fclose(fp);
	json_error_t je;
	json_t *sarif = json_loads(buf, 0, &je);
	cr_assert(sarif, "%s", je.text);
	json_t *driver = json_object_get(json_object_get(json_array_get(json_object_get(sarif, "runs"), 0),
							 "tool"), "driver");
	json_t *rules = json_object_get(driver, "rules"), *mine = NULL;
	for (size_t i = 0; i < json_array_size(rules); i++)
		if (strcmp(json_string_value(json_object_get(json_array_get(rules, i), "id")),
			   "acme/gpu-needs-inference-priority") == 0)
			mine = json_array_get(rules, i);
	cr_assert(mine);
	cr_assert(strstr(json_string_value(json_object_get(json_object_get(mine, "help"), "markdown")),
			 "batch work never preempts them"));
	cr_assert_null(json_object_get(mine, "helpUri"));   /* its doc is in the config */
	json_t *res = json_array_get(json_object_get(json_array_get(json_object_get(sarif, "runs"), 0),
						     "results"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(res, "ruleId")), "acme/gpu-needs-inference-priority");
	size_t ri = (size_t)json_integer_value(json_object_get(res, "ruleIndex"));
	cr_assert_eq(json_array_get(rules, ri), mine);
	json_decref(sarif);
	free(buf);

	fp = open_memstream(&buf, &len);
	oo.format = SL_FORMAT_JSON;
	cr_assert_eq(sl_run_write_output(run, &oo, fp), SL_OK);
	fclose(fp);
	json_t *js = json_loads(buf, 0, &je);
	json_t *f0 = json_array_get(json_object_get(js, "findings"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(f0, "rule")), "acme/gpu-needs-inference-priority");
	cr_assert_eq(json_integer_value(json_object_get(f0, "line")), 11);
	cr_assert_eq(json_integer_value(json_object_get(f0, "column")), 24);
	cr_assert_str_eq(json_string_value(json_object_get(f0, "pointer")), "/spec/predictor/priorityClassName");
	json_decref(js);
	free(buf);
	sl_run_free(run);
}

Test(custom, the_workload_kinds_units_have_the_same_facts)
{
	/* testdata/kinds/custom-unit (issue 28): $unit.priority.value is 0 with no class, a name
	** selector with a capture group matches, $unit.replicas counts a group's pods */
	project_at("testdata/kinds/custom-unit", "kinds/custom-unit");
}

Test(custom, a_train_job_is_completed_from_its_runtime_streamed_too)
{
	/* testdata/kinds/trainer: TrainJob sft's units come from its runtime, which the index holds
	** as a digest when the run streams (low memory); the finding is the same either way */
	for (int streamed = 0; streamed < 2; streamed++) {
		sl_config *cfg = NULL;
		sl_run_options o = SL_RUN_OPTIONS_INIT;
		o.jobs = 1;
		o.low_memory = streamed;
		sl_run *run = lint_with("testdata/kinds/trainer/.schedlint.yaml", &o,
					"testdata/kinds/trainer", &cfg);
		size_t n = 0;
		for (size_t i = 0; i < sl_run_finding_count(run); i++) {
			const sl_finding *f = sl_run_finding(run, i);
			if (strcmp(f->rule, "gpu-without-toleration") != 0)
				continue;
			n++;
			cr_expect(strstr(f->path, "runtime-alone.yaml") ||
				  (strstr(f->path, "trainjobs.yaml") && f->line == 45),
				  "%s:%u: %s", f->path, f->line, f->message);
		}
		cr_expect_eq(n, 2, "%s: %zu findings", streamed ? "streamed" : "whole", n);
		sl_run_free(run);
		sl_config_free(cfg);
	}
}

Test(custom, a_fact_is_made_when_a_rule_first_reads_it)
{
	/* $unit's costly facts are made only for a rule whose schema may read them: the first
	** rule reads gpus alone, the next ones must still see requestsGpu, the priority and the
	** replicas as they are, and a pattern over the names reads every fact */
	expect_findings("lazy-facts",
			"isvc.yaml:12:3: warning: a pattern over the facts' names reads every fact: "
			"requestsGpu true is not false [lazy/any-fact]\n"
			"isvc.yaml:12:3: warning: reads requestsGpu after a rule that did not: "
			"requestsGpu true is not false [lazy/no-gpu]\n"
			"isvc.yaml:12:3: warning: reads the priority and the replicas: class \"batch\" "
			"is not \"serving\" [lazy/priority]\n");
}

Test(custom, kinds_select_by_name_where_two_names_are_one_kind)
{
	/* the engine calls a rule with kinds: only for those kinds (by id: "List" and "NodeList"
	** are one), the rule then compares the name: each List rule fires on its own object, the
	** Deployment rule on the Deployment's unit and not on the StatefulSet's */
	expect_findings("kinds",
			"lists.yaml:1:1: warning: a List names its owner: the value lacks owner "
			"[kinds/list]\n"
			"lists.yaml:5:1: warning: a NodeList names its owner: the value lacks owner "
			"[kinds/node-list]\n"
			"lists.yaml:18:5: warning: a Deployment's unit has a priority class: spec lacks "
			"priorityClassName [kinds/unit-of-a-deployment]\n");
}
