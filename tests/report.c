/* SPDX-License-Identifier: Apache-2.0
** report.c: the machine-readable reports.
**   SARIF   validated with Microsoft's SARIF multitool (its SARIF and GitHub rule sets), with ajv
**           against the SARIF 2.1.0 schema the multitool's package ships and, when
**           ../shared/schemas is there, against the OASIS original; checked
**           finding by finding against the JSON report; fingerprints that survive edits above
**           a finding but not a change of its pointer; artifact URIs relative and encoded.
**   JSON    validated with ajv against docs/json-output.schema.json; every field documented in
**           docs/json-output.md present, every field present documented, the doc's example real.
**   github  workflow commands with GitHub's escaping.
**   gitlab  validated with ajv against tests/report/gitlab-codequality.schema.json (the fields
**           GitLab documents); fingerprints unique and stable; [] when clean.
**   junit   validated with xmllint against tests/report/junit.xsd; counts that add up.
**   markdown  every table row as wide as its header, whatever the input; a clean run's line.
**   several --format FORMAT:FILE in one run: each file as its format alone writes it; usage
**           errors before the lint; a report file written whole or not at all.
** Every format gets testdata/report/hostile.yaml and a hostile file name.
** The validators come from tools/setup --test (tools/node_modules); without them the tests fail.
** Run from the project root with $SCHEDLINT set to the binary. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "support.h"

#define NODE_MODULES "tools/node_modules"
#define MULTITOOL NODE_MODULES "/@microsoft/sarif-multitool-linux/Sarif.Multitool"
#define AJV NODE_MODULES "/.bin/ajv"
#define MULTITOOL_POLICY "testdata/report/multitool.xml"
/* The SARIF 2.1.0 schema the multitool's npm package ships (JSON Schema 2020-12); the OASIS
** original (draft-04, stricter in places) is checked too where the team's ../shared has it. */
#define SARIF_SCHEMA_NPM NODE_MODULES "/@microsoft/sarif-multitool-linux/sarif-2.1.0.json"
#define SARIF_SCHEMA "../shared/schemas/sarif-schema-2.1.0.json"
#define JUNIT_XSD "tests/report/junit.xsd"
#define GITLAB_SCHEMA "tests/report/gitlab-codequality.schema.json"
#define JSON_SCHEMA "docs/json-output.schema.json"
#define JSON_DOC "docs/json-output.md"

/* ---- helpers ---- */

/* Runs a shell command built from fmt; returns its exit status (128+signal when killed). */
static int sh(const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	cr_assert(n > 0 && (size_t)n < sizeof cmd, "command too long");
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static const char *exe(void)
{
	const char *e = getenv("SCHEDLINT");
	cr_assert(e, "SCHEDLINT (the built binary) is not set");
	return e;
}

static char *scratch(void)
{
	static char dir[256];
	return sl_test_scratch(dir, sizeof dir, "report");
}

static void rm_rf(const char *dir)
{
	sl_test_rm_rf(dir);
}

/* Fails (does not skip: CI runs tools/setup --test) when the npm validators are missing. */
static void need_validators(void)
{
	if (access(MULTITOOL, X_OK) != 0 || access(AJV, X_OK) != 0)
		cr_assert_fail("the validators are not installed (%s, %s): run tools/setup --test",
			       MULTITOOL, AJV);
}

static json_t *load_json(const char *path)
{
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e);
	cr_assert(j, "%s: not JSON: %s at line %d", path, e.text, e.line);
	return j;
}

/* The report of one in-memory file, through the library; the caller frees it. */
static char *report_buffer(const char *path, const char *data, sl_format format)
{
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, NULL, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, path, data, strlen(data)), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	cr_assert(out);
	sl_output_options ro = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = format};
	cr_assert_eq(sl_run_write_output(run, &ro, out), SL_OK);
	fclose(out);
	sl_run_free(run);
	sl_config_free(cfg);
	return buf;
}

/* The report of a fixture file read from disk but reported under display_path. */
static char *report_file_as(const char *file, const char *display_path, sl_format format)
{
	char *data = sl_test_slurp(file, NULL);
	cr_assert(data, "missing fixture %s", file);
	char *r = report_buffer(display_path, data, format);
	free(data);
	return r;
}

/* ---- SARIF ---- */

/* The inputs whose SARIF is validated: command-line arguments, run from the project root. */
static const char *const SARIF_CASES[] = {
	"testdata/examples",
	"testdata/rules/gpu-request-without-limit/bad",         /* safe fixes (insertions) */
	"testdata/rules/schema-type/bad",                        /* safe fixes (replacements) */
	"testdata/rules/gpu-request-limit-mismatch/bad",         /* unsafe fixes */
	"testdata/rules/duplicate-key/bad testdata/rules/yaml-syntax/bad",   /* no object */
	"-c testdata/rules/deployment-mode-legacy/config.yaml testdata/rules/deployment-mode-legacy/bad",
	"testdata/report",                                      /* code points, escaping */
	"testdata/report/clean.yaml",                           /* results: [] */
	"-c testdata/custom/placement/.schedlint.yaml testdata/custom/placement",   /* declared rules */
	"./testdata/report/clean.yaml testdata/report/does-not-exist.yaml",   /* unreadable input */
	"testdata/rules testdata/examples",                     /* everything */
};
#define N_SARIF_CASES (sizeof SARIF_CASES / sizeof SARIF_CASES[0])

static const char *level_of(const char *severity)
{
	return strcmp(severity, "error") == 0 ? "error"
	       : strcmp(severity, "warning") == 0 ? "warning" : "note";
}

static json_int_t int_at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert(json_is_integer(v), "missing integer %s", key);
	return json_integer_value(v);
}

static const char *str_at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert(json_is_string(v), "missing string %s", key);
	return json_string_value(v);
}

static void check_uri(json_t *loc, const char *what)
{
	const char *uri = str_at(loc, "uri");
	json_t *base = json_object_get(loc, "uriBaseId");
	cr_expect(base && strcmp(json_string_value(base), "%SRCROOT%") == 0,
		  "%s: %s has no uriBaseId %%SRCROOT%%", what, uri);
	cr_expect(uri[0] != '/' && strncmp(uri, "./", 2) != 0 && strncmp(uri, "../", 3) != 0 &&
		  !strchr(uri, ':') && !strchr(uri, ' '), "%s: uri %s is not a clean relative reference",
		  what, uri);
}

/* The SARIF of a case agrees with its JSON report: one result per finding, same order. */
static void check_sarif_against_json(const char *name, json_t *sarif, json_t *js)
{
	cr_assert_str_eq(str_at(sarif, "version"), "2.1.0");
	cr_expect_str_eq(str_at(sarif, "$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
	json_t *runs = json_object_get(sarif, "runs");
	cr_assert_eq(json_array_size(runs), 1, "%s: one run", name);
	json_t *run = json_array_get(runs, 0);
	json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
	cr_expect_str_eq(str_at(driver, "name"), "schedlint");
	cr_expect_str_eq(str_at(driver, "version"), sl_version());
	cr_expect_str_eq(str_at(driver, "semanticVersion"), sl_version());
	cr_expect_str_eq(str_at(driver, "informationUri"), "https://github.com/schedlint/schedlint");
	json_t *rules = json_object_get(driver, "rules");
	json_t *notifications = json_object_get(driver, "notifications");
	/* the built-in rules (this process may have declared custom rules of other configs since);
	** the notice rules are the descriptors of notifications[], in the catalogue's order */
	size_t builtin = 0, notice_rules = 0;
	for (size_t i = 0; i < sl_rule_count(); i++) {
		sl_rule_info ri = SL_RULE_INFO_INIT;
		sl_rule_get(i, &ri);
		if (sl_rule_notice(i, 1)) {
			cr_assert_str_eq(str_at(json_array_get(notifications, notice_rules++), "id"), ri.id,
					 "%s: notifications[] holds the notice rules", name);
			continue;
		}
		builtin += !strchr(ri.id, '/');
	}
	cr_expect_eq(json_array_size(notifications), notice_rules, "%s: notifications[]", name);
	/* the CLI's run also lists the custom rules the project's configs declare, each id once */
	cr_assert_geq(json_array_size(rules), builtin, "%s: every rule in rules[]", name);
	for (size_t i = 0; i < json_array_size(rules); i++)
		for (size_t j = 0; j < i; j++)
			cr_assert_str_neq(str_at(json_array_get(rules, i), "id"),
					  str_at(json_array_get(rules, j), "id"), "%s: rules[] repeats", name);
	for (size_t i = 0, at = 0; at < builtin; i++) {
		sl_rule_info ri = SL_RULE_INFO_INIT;
		sl_rule_get(i, &ri);
		if (sl_rule_notice(i, 1))
			continue;
		json_t *r = json_array_get(rules, at++);
		cr_assert_str_eq(str_at(r, "id"), ri.id);
		const char *rname = str_at(r, "name");
		cr_expect(rname[0] >= 'A' && rname[0] <= 'Z' && !strchr(rname, '-'),
			  "%s: name %s is not PascalCase", ri.id, rname);
		const char *sd = str_at(json_object_get(r, "shortDescription"), "text");
		const char *fd = str_at(json_object_get(r, "fullDescription"), "text");
		cr_expect(*sd && strlen(sd) <= 1024 && *fd && strlen(fd) <= 1024, "%s: descriptions", ri.id);
		json_t *help = json_object_get(r, "help");
		cr_expect(*str_at(help, "text") && *str_at(help, "markdown"), "%s: help", ri.id);
		char uri[512];
		snprintf(uri, sizeof uri, "https://github.com/schedlint/schedlint/blob/main/docs/rules.md#%s",
			 ri.id);
		cr_expect_str_eq(str_at(r, "helpUri"), uri);
		json_t *conf = json_object_get(r, "defaultConfiguration");
		cr_expect_str_eq(str_at(conf, "level"), ri.severity == SL_SEV_ERROR ? "error"
				 : ri.severity == SL_SEV_WARNING ? "warning" : "note");
		cr_expect_eq(json_is_false(json_object_get(conf, "enabled")), !ri.enabled_by_default,
			     "%s: enabled", ri.id);
		json_t *tags = json_object_get(json_object_get(r, "properties"), "tags");
		cr_expect_str_eq(json_string_value(json_array_get(tags, 0)), ri.category);
	}
	cr_expect_str_eq(str_at(run, "columnKind"), "unicodeCodePoints");
	json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
	bool unreadable = false;
	json_t *files = json_object_get(js, "files");
	for (size_t i = 0; i < json_array_size(files); i++)
		unreadable |= !json_is_null(json_object_get(json_array_get(files, i), "error"));
	cr_expect(json_is_boolean(json_object_get(inv, "executionSuccessful")) &&
		  json_is_true(json_object_get(inv, "executionSuccessful")) == !unreadable,
		  "%s: executionSuccessful", name);
	/* after the unreadable files, one notification per notice, level note, its rule the
	** descriptor, at the notice's place */
	json_t *tens = json_object_get(inv, "toolExecutionNotifications");
	json_t *notices = json_object_get(js, "notices");
	size_t n_unreadable = json_array_size(tens) - json_array_size(notices);
	if (unreadable)
		cr_expect_gt(n_unreadable, 0);
	cr_assert_geq(json_array_size(tens), json_array_size(notices), "%s: a notification per notice", name);
	for (size_t i = 0; i < json_array_size(notices); i++) {
		json_t *t = json_array_get(tens, n_unreadable + i), *f = json_array_get(notices, i);
		cr_expect_str_eq(str_at(t, "level"), "note");
		json_t *desc = json_object_get(t, "descriptor");
		cr_expect_str_eq(str_at(desc, "id"), str_at(f, "rule"));
		cr_expect_str_eq(str_at(json_array_get(notifications, (size_t)int_at(desc, "index")), "id"),
				 str_at(f, "rule"));
		json_t *phys = json_object_get(json_array_get(json_object_get(t, "locations"), 0),
					       "physicalLocation");
		check_uri(json_object_get(phys, "artifactLocation"), name);
		cr_expect_eq(int_at(json_object_get(phys, "region"), "startLine"), int_at(f, "line"));
	}

	json_t *results = json_object_get(run, "results");
	json_t *findings = json_object_get(js, "findings");
	cr_assert(json_is_array(results), "%s: results[] present even when empty", name);
	cr_assert_eq(json_array_size(results), json_array_size(findings), "%s: one result per finding",
		     name);
	for (size_t i = 0; i < json_array_size(results); i++) {
		json_t *r = json_array_get(results, i), *f = json_array_get(findings, i);
		const char *rule = str_at(f, "rule");
		cr_assert_str_eq(str_at(r, "ruleId"), rule);
		json_int_t idx = int_at(r, "ruleIndex");
		cr_expect_str_eq(str_at(json_array_get(rules, (size_t)idx), "id"), rule);
		cr_expect_str_eq(str_at(r, "level"), level_of(str_at(f, "severity")));
		cr_expect(*str_at(json_object_get(r, "message"), "text"));
		json_t *phys = json_object_get(json_array_get(json_object_get(r, "locations"), 0),
					       "physicalLocation");
		check_uri(json_object_get(phys, "artifactLocation"), name);
		json_t *reg = json_object_get(phys, "region");
		cr_expect_eq(int_at(reg, "startLine"), int_at(f, "line"));
		cr_expect_eq(int_at(reg, "startColumn"), int_at(f, "column"));
		cr_expect_eq(int_at(reg, "endLine"), int_at(f, "end_line"));
		cr_expect_eq(int_at(reg, "endColumn"), int_at(f, "end_column"));
		const char *fp = str_at(json_object_get(r, "partialFingerprints"),
					"schedlintFingerprint/v1");
		cr_expect_eq(strspn(fp, "0123456789abcdef"), 64, "fingerprint %s", fp);
		json_t *fix = json_object_get(f, "fix"), *fixes = json_object_get(r, "fixes");
		if (json_is_null(fix)) {
			cr_expect_null(fixes, "%s: %s has fixes[] but no fix", name, rule);
			continue;
		}
		cr_assert_eq(json_array_size(fixes), 1, "%s: %s: fixes[]", name, rule);
		json_t *sfix = json_array_get(fixes, 0);
		cr_expect(*str_at(json_object_get(sfix, "description"), "text"));
		json_t *change = json_array_get(json_object_get(sfix, "artifactChanges"), 0);
		check_uri(json_object_get(change, "artifactLocation"), name);
		json_t *reps = json_object_get(change, "replacements");
		json_t *edits = json_object_get(fix, "edits");
		cr_assert_eq(json_array_size(reps), json_array_size(edits));
		for (size_t k = 0; k < json_array_size(edits); k++) {
			json_t *e = json_array_get(edits, k), *rep = json_array_get(reps, k);
			json_t *del = json_object_get(rep, "deletedRegion");
			cr_expect_eq(int_at(del, "startLine"), int_at(e, "line"));
			cr_expect_eq(int_at(del, "startColumn"), int_at(e, "column"));
			cr_expect_eq(int_at(del, "endLine"), int_at(e, "end_line"));
			cr_expect_eq(int_at(del, "endColumn"), int_at(e, "end_column"));
			cr_expect_eq(int_at(del, "byteOffset"), int_at(e, "offset"));
			cr_expect_eq(int_at(del, "byteLength"), int_at(e, "length"));
			const char *content = str_at(e, "content");
			json_t *ins = json_object_get(rep, "insertedContent");
			if (*content)
				cr_expect_str_eq(str_at(ins, "text"), content);
			else
				cr_expect_null(ins);
		}
	}
}

/* Runs the multitool over files (with GitHub's rules) and returns the problems it reports at
** level warning or error, one line each, in a malloc'd string ("" when none). */
static char *multitool(const char *tmp, const char *const *files, size_t n)
{
	char list[8192] = "", log[512], console[512];
	for (size_t i = 0; i < n; i++) {
		strncat(list, " '", sizeof list - strlen(list) - 1);
		strncat(list, files[i], sizeof list - strlen(list) - 1);
		strncat(list, "'", sizeof list - strlen(list) - 1);
	}
	snprintf(log, sizeof log, "%s/validation.sarif", tmp);
	snprintf(console, sizeof console, "%s/validation.txt", tmp);
	/* It exits 0 whatever it finds: the verdict is in the -o log. */
	int rc = sh("'%s' validate --rule-kind 'Gh;Sarif' --level 'Error;Warning' -c '%s' %s -o '%s' "
		    "--log ForceOverwrite > '%s' 2>&1", MULTITOOL, MULTITOOL_POLICY, list, log, console);
	char *text = sl_test_slurp(console, NULL);
	cr_assert_eq(rc, 0, "the SARIF multitool failed (exit %d):\n%s", rc, text ? text : "");
	json_t *j = load_json(log);
	size_t cap = 1, len = 0;
	char *problems = calloc(1, cap);
	json_t *run = json_array_get(json_object_get(j, "runs"), 0);
	json_t *results = json_object_get(run, "results");
	for (size_t i = 0; i < json_array_size(results); i++) {
		json_t *r = json_array_get(results, i);
		json_t *loc = json_object_get(json_object_get(json_object_get(
			json_array_get(json_object_get(r, "locations"), 0), "physicalLocation"),
			"artifactLocation"), "uri");
		const char *uri = json_is_string(loc) ? json_string_value(loc) : "?";
		char line[2048];
		int l = snprintf(line, sizeof line, "%s %s %s\n", uri, str_at(r, "ruleId"),
				 json_is_string(json_object_get(r, "level")) ? str_at(r, "level") : "warning");
		problems = realloc(problems, cap += (size_t)l);
		memcpy(problems + len, line, (size_t)l + 1);
		len += (size_t)l;
	}
	/* Anything it could not do is an error too; the one expected configuration notification
	** says that SARIF2006 is disabled (MULTITOOL_POLICY). */
	json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
	json_t *notes = json_object_get(inv, "toolConfigurationNotifications");
	for (size_t i = 0; i < json_array_size(notes); i++) {
		json_t *m = json_object_get(json_object_get(json_array_get(notes, i), "message"), "text");
		cr_expect(json_is_string(m) && strstr(json_string_value(m), "'SARIF2006' was explicitly"),
			  "multitool configuration notification:\n%s", text);
	}
	cr_expect_eq(json_array_size(json_object_get(inv, "toolExecutionNotifications")), 0,
		     "multitool execution notifications:\n%s", text);
	cr_expect(json_is_true(json_object_get(inv, "executionSuccessful")),
		  "the multitool did not run successfully:\n%s", text);
	json_decref(j);
	free(text);
	return problems;
}

/* Validates the .json files of tmp/ajv with ajv (schema_args: "-s FILE" and options) and expects each of
** the n files valid. */
static void ajv_all(const char *tmp, const char *schema_args, size_t n)
{
	int rc = sh("'%s' validate %s -d '%s/ajv/*.json' -c ajv-formats --all-errors --errors=text "
		    "> '%s/ajv.txt' 2>&1", AJV, schema_args, tmp, tmp);
	char ajvout[512];
	snprintf(ajvout, sizeof ajvout, "%s/ajv.txt", tmp);
	char *t = sl_test_slurp(ajvout, NULL);
	cr_expect_eq(rc, 0, "not valid against %s (N.json is case N):\n%s", schema_args, t);
	size_t valid = 0;
	for (const char *p = t; p && (p = strstr(p, ".json valid")); p++)
		valid++;
	cr_expect_eq(valid, n, "ajv validated %zu of %zu files against %s:\n%s", valid, n,
		     schema_args, t);
	free(t);
}

Test(report, sarif_validates)
{
	need_validators();
	exe();
	char *tmp = scratch();
	const char *files[N_SARIF_CASES + 2];
	char paths[N_SARIF_CASES + 2][512];
	for (size_t i = 0; i < N_SARIF_CASES; i++) {
		char js[512];
		snprintf(paths[i], sizeof paths[i], "%s/case%zu.sarif", tmp, i);
		snprintf(js, sizeof js, "%s/case%zu.json", tmp, i);
		files[i] = paths[i];
		int rc = sh("'%s' -f sarif %s > '%s' 2>/dev/null", exe(), SARIF_CASES[i], paths[i]);
		cr_assert(rc == 0 || rc == 1 || (rc == 2 && strstr(SARIF_CASES[i], "does-not-exist")),
			  "schedlint -f sarif %s: exit %d", SARIF_CASES[i], rc);
		sh("'%s' -f json %s > '%s' 2>/dev/null", exe(), SARIF_CASES[i], js);
		json_t *s = load_json(paths[i]), *j = load_json(js);
		check_sarif_against_json(SARIF_CASES[i], s, j);
		json_decref(s);
		json_decref(j);
	}
	size_t n = N_SARIF_CASES;
	/* Percent-encoded URIs, through the library: a path with ":", ",", "%", "#", a space and
	** non-ASCII letters (it need not exist: it is resolved against the working directory). */
	char *odd = report_file_as("testdata/report/unicode.yaml", "./odd dir/a:b,c%d#e/ünï.yaml",
				   SL_FORMAT_SARIF);
	json_t *oj = json_loads(odd, 0, NULL);
	cr_assert(oj);
	json_t *res0 = json_array_get(json_object_get(json_array_get(json_object_get(oj, "runs"), 0),
						      "results"), 0);
	json_t *al = json_object_get(json_object_get(json_array_get(json_object_get(res0, "locations"),
		0), "physicalLocation"), "artifactLocation");
	cr_expect_str_eq(str_at(al, "uri"), "odd%20dir/a%3Ab,c%25d%23e/%C3%BCn%C3%AF.yaml");
	cr_expect_str_eq(str_at(al, "uriBaseId"), "%SRCROOT%");
	json_decref(oj);
	snprintf(paths[n], sizeof paths[n], "%s/odd-path.sarif", tmp);
	sl_test_spit(paths[n], odd, strlen(odd));
	free(odd);
	files[n] = paths[n];
	n++;
	/* A canary, so a validator that checks nothing cannot pass: our own output with a rule's
	** shortDescription removed (GitHub requires it: GH2012). */
	json_t *canary = load_json(paths[0]);
	json_t *rule0 = json_array_get(json_object_get(json_object_get(json_object_get(
		json_array_get(json_object_get(canary, "runs"), 0), "tool"), "driver"), "rules"), 0);
	json_object_del(rule0, "shortDescription");
	snprintf(paths[n], sizeof paths[n], "%s/canary.sarif", tmp);
	cr_assert_eq(json_dump_file(canary, paths[n], JSON_INDENT(2)), 0);
	json_decref(canary);
	files[n] = paths[n];
	n++;

	/* (1) Microsoft's validator, SARIF and GitHub rules: nothing at warning or error level
	** except the canary's GH2012. */
	char *problems = multitool(tmp, files, n);
	cr_expect(strstr(problems, "canary.sarif GH2012 error"),
		  "the multitool did not flag the canary; it reported:\n%s", problems);
	char *bad = strdup("");
	for (char *line = strtok(problems, "\n"); line; line = strtok(NULL, "\n")) {
		if (strstr(line, "canary.sarif GH2012"))
			continue;
		bad = realloc(bad, strlen(bad) + strlen(line) + 2);
		strcat(strcat(bad, line), "\n");
	}
	cr_expect_str_eq(bad, "", "the SARIF multitool reported problems:\n%s", bad);
	free(bad);
	free(problems);

	/* (2) The SARIF schema, with ajv (2020-12): the copy the multitool's package ships, always;
	** the OASIS original (draft-04: ajv 8 reads draft-07, so a migrated copy) when the team's
	** ../shared has it. ajv-cli picks its parser by file extension: the data are copied to
	** *.json. One ajv run per schema: compiling it is what takes the time. */
	sh("mkdir -p '%s/ajv'", tmp);
	for (size_t i = 0; i + 1 < n; i++)
		cr_assert_eq(sh("cp '%s' '%s/ajv/%zu.json'", files[i], tmp, i), 0);
	ajv_all(tmp, "--spec=draft2020 -s '" SARIF_SCHEMA_NPM "'", n - 1);
	if (access(SARIF_SCHEMA, R_OK) == 0) {
		int rc = sh("'%s' migrate -s '%s' -o '%s/sarif7.json' > /dev/null", AJV, SARIF_SCHEMA,
			    tmp);
		cr_assert_eq(rc, 0, "ajv migrate of %s failed", SARIF_SCHEMA);
		char schema[600];
		snprintf(schema, sizeof schema, "-s '%s/sarif7.json'", tmp);
		ajv_all(tmp, schema, n - 1);
	} else {
		sl_test_note("%s is absent (a clone without the team's ../shared): SARIF checked "
			     "against the npm package's copy of the schema only", SARIF_SCHEMA);
	}
	rm_rf(tmp);
}

/* The fingerprint of the one result of rule in the SARIF of file (reported under a fixed name). */
static char *fingerprint_of(const char *file, const char *rule, long *line)
{
	char *sarif = report_file_as(file, "pod.yaml", SL_FORMAT_SARIF);
	json_t *j = json_loads(sarif, 0, NULL);
	cr_assert(j);
	free(sarif);
	json_t *results = json_object_get(json_array_get(json_object_get(j, "runs"), 0), "results");
	char *fp = NULL;
	for (size_t i = 0; i < json_array_size(results); i++) {
		json_t *r = json_array_get(results, i);
		if (strcmp(str_at(r, "ruleId"), rule) != 0)
			continue;
		cr_assert_null(fp, "%s: two %s results", file, rule);
		fp = strdup(str_at(json_object_get(r, "partialFingerprints"), "schedlintFingerprint/v1"));
		json_t *reg = json_object_get(json_object_get(json_array_get(json_object_get(r,
			"locations"), 0), "physicalLocation"), "region");
		*line = (long)int_at(reg, "startLine");
	}
	cr_assert(fp, "%s: no %s result", file, rule);
	json_decref(j);
	return fp;
}

Test(report, fingerprint_survives_edits_above)
{
	const char *rule = "gpu-request-without-limit";
	long l0, l1, l2;
	char *base = fingerprint_of("testdata/report/fingerprint-base.yaml", rule, &l0);
	char *moved = fingerprint_of("testdata/report/fingerprint-moved.yaml", rule, &l1);
	char *pointer = fingerprint_of("testdata/report/fingerprint-pointer.yaml", rule, &l2);
	cr_expect_neq(l0, l1, "the fixture should move the finding");
	cr_expect_str_eq(moved, base, "lines and a document inserted above changed the fingerprint");
	cr_expect_str_neq(pointer, base, "a different JSON pointer kept the same fingerprint");
	free(base);
	free(moved);
	free(pointer);
}

Test(report, fingerprint_depends_on_rule_and_object)
{
	/* The same field reported by two rules; the same rule in two objects of one file. */
	const char *doc = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n"
			  "    - name: c\n      resources:\n        requests:\n          nvidia.com/gpu: 0.5\n";
	char two[1024];
	snprintf(two, sizeof two, "%s---\n%s", doc, doc);
	char *p = strstr(two + strlen(doc), "name: a");
	p[6] = 'b';
	char *sarif = report_buffer("two.yaml", two, SL_FORMAT_SARIF);
	json_t *j = json_loads(sarif, 0, NULL);
	cr_assert(j);
	json_t *results = json_object_get(json_array_get(json_object_get(j, "runs"), 0), "results");
	cr_assert_geq(json_array_size(results), 3);
	for (size_t a = 0; a < json_array_size(results); a++)
		for (size_t b = a + 1; b < json_array_size(results); b++) {
			json_t *x = json_array_get(results, a), *y = json_array_get(results, b);
			cr_expect_str_neq(str_at(json_object_get(x, "partialFingerprints"),
						 "schedlintFingerprint/v1"),
					  str_at(json_object_get(y, "partialFingerprints"),
						 "schedlintFingerprint/v1"),
					  "results %zu (%s) and %zu (%s) share a fingerprint", a,
					  str_at(x, "ruleId"), b, str_at(y, "ruleId"));
		}
	json_decref(j);
	free(sarif);
	/* Identical objects twice: the fingerprints still differ, by their ":k" occurrence. */
	snprintf(two, sizeof two, "%s---\n%s", doc, doc);
	sarif = report_buffer("same.yaml", two, SL_FORMAT_SARIF);
	j = json_loads(sarif, 0, NULL);
	results = json_object_get(json_array_get(json_object_get(j, "runs"), 0), "results");
	const char *first = NULL;
	for (size_t i = 0; i < json_array_size(results); i++) {
		json_t *r = json_array_get(results, i);
		if (strcmp(str_at(r, "ruleId"), "gpu-request-without-limit") != 0)
			continue;
		const char *fp = str_at(json_object_get(r, "partialFingerprints"),
					"schedlintFingerprint/v1");
		if (!first) {
			first = fp;
			cr_expect(strlen(fp) > 2 && strcmp(fp + strlen(fp) - 2, ":1") == 0, "%s", fp);
		} else {
			cr_expect(strncmp(fp, first, 64) == 0 && strcmp(fp + strlen(fp) - 2, ":2") == 0,
				  "%s after %s", fp, first);
		}
	}
	json_decref(j);
	free(sarif);
}

Test(report, sarif_clean_run_has_empty_results)
{
	char *sarif = report_file_as("testdata/report/clean.yaml", "clean.yaml", SL_FORMAT_SARIF);
	json_t *j = json_loads(sarif, 0, NULL);
	cr_assert(j);
	json_t *run = json_array_get(json_object_get(j, "runs"), 0);
	json_t *results = json_object_get(run, "results");
	cr_expect(json_is_array(results) && json_array_size(results) == 0);
	cr_expect(json_is_true(json_object_get(json_array_get(json_object_get(run, "invocations"), 0),
					       "executionSuccessful")));
	json_decref(j);
	free(sarif);
}

/* ---- JSON ---- */

/* The field paths of the table in docs/json-output.md ("findings[].fix.edits[].offset"). */
static size_t documented_fields(char fields[][128], size_t max)
{
	char *doc = sl_test_slurp(JSON_DOC, NULL);
	cr_assert(doc, "%s is missing", JSON_DOC);
	size_t n = 0;
	for (char *line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "| `", 3) != 0)
			continue;
		char *end = strchr(line + 3, '`');
		cr_assert(end && n < max);
		size_t len = (size_t)(end - (line + 3));
		cr_assert_lt(len, 128);
		memcpy(fields[n], line + 3, len);
		fields[n][len] = '\0';
		n++;
	}
	free(doc);
	cr_assert_gt(n, 20, "%s: no field table found", JSON_DOC);
	return n;
}

/* True when path ("a.b[].c") names a value somewhere in v (any element for "[]"). */
static bool has_path(json_t *v, const char *path)
{
	if (!*path)
		return true;
	if (strncmp(path, "[]", 2) == 0) {
		const char *rest = path[2] == '.' ? path + 3 : path + 2;
		for (size_t i = 0; i < json_array_size(v); i++)
			if (has_path(json_array_get(v, i), rest))
				return true;
		return false;
	}
	size_t len = strcspn(path, ".[");
	char key[128];
	if (len >= sizeof key || !json_is_object(v))
		return false;
	memcpy(key, path, len);
	key[len] = '\0';
	json_t *c = json_object_get(v, key);
	if (!c)
		return false;
	const char *rest = path[len] == '.' ? path + len + 1 : path + len;
	return has_path(c, rest);
}

/* Every key path in v is one of the documented fields. */
static void all_documented(json_t *v, const char *prefix, char fields[][128], size_t n)
{
	if (json_is_array(v)) {
		char p[256];
		snprintf(p, sizeof p, "%s[]", prefix);
		for (size_t i = 0; i < json_array_size(v); i++)
			all_documented(json_array_get(v, i), p, fields, n);
		return;
	}
	if (!json_is_object(v))
		return;
	const char *key;
	json_t *c;
	json_object_foreach(v, key, c) {
		char p[256];
		snprintf(p, sizeof p, "%s%s%s", prefix, *prefix ? "." : "", key);
		bool found = false;
		for (size_t i = 0; i < n && !found; i++)
			found = strcmp(fields[i], p) == 0;
		cr_expect(found, "%s is in the JSON output but not documented in %s", p, JSON_DOC);
		all_documented(c, p, fields, n);
	}
}

Test(report, json_matches_schema_and_doc)
{
	need_validators();
	exe();
	char *tmp = scratch();
	/* Cases that between them fill every field: fixes (safe and unsafe), objects with and
	** without namespace, findings without an object, units, an unreadable file. */
	static const char *const cases[] = {
		"testdata/rules testdata/examples testdata/report",
		"testdata/report/clean.yaml",
		"testdata/report/clean.yaml testdata/report/does-not-exist.yaml",
		/* declared rules: namespaced ids */
		"-c testdata/custom/placement/.schedlint.yaml testdata/custom/placement",
	};
	char fields[128][128];
	size_t nf = documented_fields(fields, 128);
	json_t *all = json_array();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char js[512], out[512];
		snprintf(js, sizeof js, "%s/case%zu.json", tmp, i);
		snprintf(out, sizeof out, "%s/ajv.txt", tmp);
		sh("'%s' -f json %s > '%s' 2>/dev/null", exe(), cases[i], js);
		int rc = sh("'%s' validate -s '%s' -d '%s' --all-errors --errors=text > '%s' 2>&1", AJV,
			    JSON_SCHEMA, js, out);
		char *t = sl_test_slurp(out, NULL);
		cr_expect_eq(rc, 0, "%s: the JSON report does not match %s:\n%s", cases[i], JSON_SCHEMA, t);
		free(t);
		json_t *j = load_json(js);
		all_documented(j, "", fields, nf);
		json_array_append_new(all, j);
	}
	for (size_t i = 0; i < nf; i++) {
		char path[140];
		snprintf(path, sizeof path, "[].%s", fields[i]);
		cr_expect(has_path(all, path), "%s is documented in %s but never in the output",
			  fields[i], JSON_DOC);
	}
	json_decref(all);

	/* The doc's example is real: its YAML gives exactly its JSON. */
	char *doc = sl_test_slurp(JSON_DOC, NULL);
	char *y = strstr(doc, "```yaml\n"), *jj = strstr(doc, "```json\n");
	cr_assert(y && jj, "%s: no example", JSON_DOC);
	y += 8;
	jj += 8;
	*strstr(y, "```") = '\0';
	*strstr(jj, "```") = '\0';
	json_t *want = json_loads(jj, 0, NULL);
	cr_assert(want, "%s: the example is not JSON", JSON_DOC);
	char pod[512];
	snprintf(pod, sizeof pod, "%s/pod.yaml", tmp);
	sl_test_spit(pod, y, strlen(y));
	char gotp[512];
	snprintf(gotp, sizeof gotp, "%s/got.json", tmp);
	sh("cd '%s' && '%s' -f json --select gpu-request-without-limit pod.yaml > got.json", tmp, exe());
	json_t *got = load_json(gotp);
	json_object_set_new(json_object_get(want, "tool"), "version", json_string(sl_version()));
	char *gs = json_dumps(got, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	cr_expect(json_equal(want, got), "%s: the example differs from the real output:\n%s", JSON_DOC,
		  gs);
	free(gs);
	json_decref(want);
	json_decref(got);
	free(doc);
	rm_rf(tmp);
}

/* ---- GitHub workflow commands ---- */

Test(report, github_escaping)
{
	char *out = report_file_as("testdata/report/escaping.yaml", "dir:a,b/100%\r\nx.yaml",
				   SL_FORMAT_GITHUB);
	cr_expect_str_eq(out,
		"::error file=dir%3Aa%2Cb/100%25%0D%0Ax.yaml,line=7,col=3,endLine=7,endColumn=19,"
		"title=duplicate-key::duplicate key \"100%25%0D%0Ax: y,z\" (first defined at line 6, "
		"column 3); the API server rejects it\n"
		"schedlint: 1 error, 0 warnings, 0 infos in 1 file; 0 fixable\n");
	free(out);
}

Test(report, github_commands)
{
	/* Every line but the last is a workflow command; the last is the plain summary. */
	exe();
	char *tmp = scratch();
	char outp[512];
	snprintf(outp, sizeof outp, "%s/gh.txt", tmp);
	int rc = sh("'%s' -f github ./testdata/examples testdata/report > '%s'", exe(), outp);
	cr_expect_eq(rc, 1);
	char *out = sl_test_slurp(outp, NULL);
	size_t lines = 0, commands = 0;
	char *last = NULL;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		lines++;
		last = line;
		unsigned l, c, el, ec;
		char kind[16], file[1024];
		if (strncmp(line, "::", 2) != 0)
			continue;
		commands++;
		cr_expect_eq(sscanf(line, "::%15[a-z] file=%1023[^,],line=%u,col=%u,endLine=%u,endColumn=%u,",
				    kind, file, &l, &c, &el, &ec), 6, "%s", line);
		cr_expect(strcmp(kind, "error") == 0 || strcmp(kind, "warning") == 0 ||
			  strcmp(kind, "notice") == 0, "%s", line);
		cr_expect(strncmp(file, "./", 2) != 0 && strncmp(file, "testdata/", 9) == 0, "%s", file);
		cr_expect(strstr(line, ",title=") && strstr(line + 2, "::"), "%s", line);
	}
	cr_expect_eq(commands + 1, lines, "one command per finding, then the summary");
	cr_expect(last && strncmp(last, "schedlint: ", 11) == 0, "summary: %s", last ? last : "");
	free(out);
	rm_rf(tmp);
}

/* ---- GitLab Code Quality, JUnit, Markdown ---- */

/* A file name with everything a report must survive: the separators of each format, markup,
** a CDATA end, a newline, a control character, non-ASCII letters. */
#define HOSTILE_PATH "dir|a`b/<x>&\"'\x01]]>\n ü:1,2%.yaml"
#define HOSTILE_FILE "testdata/report/hostile.yaml"

/* The inputs every new format is run over (command-line arguments, from the project root). */
static const char *const FORMAT_CASES[] = {
	"testdata/examples",
	"testdata/report",                                       /* hostile text, code points */
	"testdata/rules/gpu-request-limit-mismatch/bad",         /* unsafe fixes */
	"./testdata/report/clean.yaml testdata/report/does-not-exist.yaml",   /* unreadable input */
	"-c testdata/custom/placement/.schedlint.yaml testdata/custom/placement",   /* declared rules */
	/* findings moved from stdin to template files that are not inputs */
	"--no-project --helm-chart testdata/e2e/helm-chart/chart - < testdata/e2e/helm-chart/rendered.yaml",
};
#define N_FORMAT_CASES (sizeof FORMAT_CASES / sizeof FORMAT_CASES[0])

/* Runs schedlint with args (from the project root) into tmp/name; returns the file's path. */
static char *run_into(const char *tmp, const char *name, const char *args)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", tmp, name);
	int rc = sh("'%s' %s > '%s' 2>/dev/null", exe(), args, path);
	cr_assert(rc == 0 || rc == 1 || (rc == 2 && strstr(args, "does-not-exist")),
		  "schedlint %s: exit %d", args, rc);
	return path;
}

/* The findings of the JSON report of args. */
static json_t *json_findings(const char *tmp, const char *args)
{
	char a[1024];
	snprintf(a, sizeof a, "-f json %s", args);
	json_t *j = load_json(run_into(tmp, "findings.json", a));
	json_t *f = json_incref(json_object_get(j, "findings"));
	json_decref(j);
	return f;
}

Test(report, gitlab_validates)
{
	need_validators();
	char *tmp = scratch();
	sh("mkdir -p '%s/ajv'", tmp);
	size_t n = 0;
	for (size_t i = 0; i < N_FORMAT_CASES; i++, n++) {
		char args[1024], name[64];
		snprintf(args, sizeof args, "-f gitlab %s", FORMAT_CASES[i]);
		snprintf(name, sizeof name, "ajv/%zu.json", i);
		json_t *g = load_json(run_into(tmp, name, args));
		json_t *want = json_findings(tmp, FORMAT_CASES[i]);
		cr_assert(json_is_array(g), "%s: not an array", FORMAT_CASES[i]);
		cr_expect_eq(json_array_size(g), json_array_size(want), "%s: one issue per finding",
			     FORMAT_CASES[i]);
		for (size_t k = 0; k < json_array_size(g) && k < json_array_size(want); k++) {
			json_t *x = json_array_get(g, k), *f = json_array_get(want, k);
			const char *sev = str_at(f, "severity");
			cr_expect_str_eq(str_at(x, "check_name"), str_at(f, "rule"));
			cr_expect_str_eq(str_at(x, "description"), str_at(f, "message"));
			cr_expect_str_eq(str_at(x, "severity"), strcmp(sev, "error") == 0 ? "critical"
					 : strcmp(sev, "warning") == 0 ? "major" : "info");
			json_t *loc = json_object_get(x, "location");
			const char *fp = str_at(f, "path");
			cr_expect_str_eq(str_at(loc, "path"), strncmp(fp, "./", 2) == 0 ? fp + 2 : fp);
			json_t *lines = json_object_get(loc, "lines");
			cr_expect_eq(int_at(lines, "begin"), int_at(f, "line") ? int_at(f, "line") : 1);
			for (size_t m = 0; m < k; m++)
				cr_expect_str_neq(str_at(json_array_get(g, m), "fingerprint"),
						  str_at(x, "fingerprint"), "%s: issues %zu and %zu",
						  FORMAT_CASES[i], m, k);
		}
		json_decref(g);
		json_decref(want);
	}
	/* a hostile file name, through the library */
	char *odd = report_file_as(HOSTILE_FILE, HOSTILE_PATH, SL_FORMAT_GITLAB);
	json_t *oj = json_loads(odd, 0, NULL);
	cr_assert(oj, "not JSON:\n%s", odd);
	cr_expect_str_eq(str_at(json_object_get(json_array_get(oj, 0), "location"), "path"),
			 HOSTILE_PATH);
	cr_expect(strstr(str_at(json_array_get(oj, 0), "description"), "<script>x</script> ]]>"));
	json_decref(oj);
	char p[512];
	snprintf(p, sizeof p, "%s/ajv/%zu.json", tmp, n++);
	sl_test_spit(p, odd, strlen(odd));
	free(odd);
	ajv_all(tmp, "-s '" GITLAB_SCHEMA "'", n);
	/* the canary: an issue without its severity is rejected */
	snprintf(p, sizeof p, "%s/ajv/0.json", tmp);
	json_t *c = load_json(p);
	cr_assert_gt(json_array_size(c), 0);
	json_object_del(json_array_get(c, 0), "severity");
	sh("rm -f '%s'/ajv/*.json", tmp);
	cr_assert_eq(json_dump_file(c, p, 0), 0);
	json_decref(c);
	cr_expect_neq(sh("'%s' validate -s '%s' -d '%s' > /dev/null 2>&1", AJV, GITLAB_SCHEMA, p), 0,
		      "the Code Quality schema accepted an issue without a severity");
	rm_rf(tmp);
}

Test(report, gitlab_clean_and_fingerprints)
{
	char *clean = report_file_as("testdata/report/clean.yaml", "clean.yaml", SL_FORMAT_GITLAB);
	cr_expect_str_eq(clean, "[]\n");
	free(clean);
	/* stable across lines inserted above; different for another pointer or another file */
	const char *files[] = {"testdata/report/fingerprint-base.yaml",
			       "testdata/report/fingerprint-moved.yaml",
			       "testdata/report/fingerprint-pointer.yaml",
			       "testdata/report/fingerprint-base.yaml"};
	const char *names[] = {"pod.yaml", "pod.yaml", "pod.yaml", "other.yaml"};
	char fp[4][65] = {{0}};
	long line[4] = {0};
	for (int i = 0; i < 4; i++) {
		char *g = report_file_as(files[i], names[i], SL_FORMAT_GITLAB);
		json_t *j = json_loads(g, 0, NULL);
		cr_assert(j);
		for (size_t k = 0; k < json_array_size(j); k++) {
			json_t *x = json_array_get(j, k);
			if (strcmp(str_at(x, "check_name"), "gpu-request-without-limit") != 0)
				continue;
			snprintf(fp[i], sizeof fp[i], "%s", str_at(x, "fingerprint"));
			line[i] = (long)int_at(json_object_get(json_object_get(x, "location"), "lines"),
					       "begin");
		}
		cr_assert(fp[i][0], "%s: no gpu-request-without-limit issue", files[i]);
		json_decref(j);
		free(g);
	}
	cr_expect_neq(line[0], line[1], "the fixture should move the finding");
	cr_expect_str_eq(fp[1], fp[0], "lines inserted above changed the fingerprint");
	cr_expect_str_neq(fp[2], fp[0], "a different JSON pointer kept the fingerprint");
	cr_expect_str_neq(fp[3], fp[0], "another file kept the fingerprint");
}

/* xmllint --xpath's number for expr over file. */
static long xpath_count(const char *tmp, const char *file, const char *expr)
{
	char out[512];
	snprintf(out, sizeof out, "%s/xpath.txt", tmp);
	cr_assert_eq(sh("xmllint --xpath '%s' '%s' > '%s' 2>&1", expr, file, out), 0, "xpath %s", expr);
	char *t = sl_test_slurp(out, NULL);
	long v = strtol(t, NULL, 10);
	free(t);
	return v;
}

/* Validates file against the JUnit XSD and checks that its counts add up. */
static void check_junit(const char *tmp, const char *file, const char *what)
{
	char log[512];
	snprintf(log, sizeof log, "%s/xmllint.txt", tmp);
	int rc = sh("xmllint --noout --schema '%s' '%s' > '%s' 2>&1", JUNIT_XSD, file, log);
	char *t = sl_test_slurp(log, NULL);
	cr_expect_eq(rc, 0, "%s: not valid JUnit XML:\n%s", what, t);
	free(t);
	cr_expect_eq(xpath_count(tmp, file, "string(/testsuites/@tests)"),
		     xpath_count(tmp, file, "count(//testcase)"), "%s: tests", what);
	cr_expect_eq(xpath_count(tmp, file, "string(/testsuites/@failures)"),
		     xpath_count(tmp, file, "count(//failure)"), "%s: failures", what);
	cr_expect_eq(xpath_count(tmp, file, "string(/testsuites/@errors)"),
		     xpath_count(tmp, file, "count(//error)"), "%s: errors", what);
	cr_expect_eq(xpath_count(tmp, file, "sum(//testsuite/@tests)"),
		     xpath_count(tmp, file, "count(//testcase)"), "%s: the suites' tests", what);
	cr_expect_eq(xpath_count(tmp, file, "count(//testsuite[not(testcase)])"), 0, "%s", what);
}

Test(report, junit_validates)
{
	if (access("/usr/bin/xmllint", X_OK) != 0)
		cr_assert_fail("xmllint is not installed (libxml2-utils): run tools/setup --test");
	char *tmp = scratch();
	for (size_t i = 0; i < N_FORMAT_CASES; i++) {
		char args[1024], name[64];
		snprintf(args, sizeof args, "-f junit %s", FORMAT_CASES[i]);
		snprintf(name, sizeof name, "%zu.xml", i);
		char *path = strdup(run_into(tmp, name, args));
		json_t *want = json_findings(tmp, FORMAT_CASES[i]);
		check_junit(tmp, path, FORMAT_CASES[i]);
		cr_expect_eq(xpath_count(tmp, path, "count(//failure)"), (long)json_array_size(want),
			     "%s: one failure per finding", FORMAT_CASES[i]);
		json_decref(want);
		free(path);
	}
	/* a clean file is one passing testcase; an unreadable one an error */
	char *one = run_into(tmp, "clean.xml", "-f junit ./testdata/report/clean.yaml "
				   "testdata/report/does-not-exist.yaml");
	cr_expect_eq(xpath_count(tmp, one, "count(//testsuite[@name=\"testdata/report/clean.yaml\"]"
					   "/testcase[not(*)])"), 1);
	cr_expect_eq(xpath_count(tmp, one, "count(//testsuite[@name=\"testdata/report/does-not-exist"
					   ".yaml\"]/testcase/error)"), 1);
	/* findings of a rendered Helm stream moved to its templates: a testsuite each, after "-" */
	char *helm = run_into(tmp, "helm.xml", "-f junit " "--no-project --helm-chart "
			      "testdata/e2e/helm-chart/chart - < testdata/e2e/helm-chart/rendered.yaml");
	cr_expect_gt(xpath_count(tmp, helm, "count(//testsuite[@name=\"testdata/e2e/helm-chart/chart/"
					    "templates/deployment.yaml\"]/testcase/failure)"), 0);
	cr_expect_eq(xpath_count(tmp, helm, "count(//testsuite[1][@name=\"-\"])"), 1);
	/* hostile text and a hostile file name: still valid, and the text comes back */
	char *odd = report_file_as(HOSTILE_FILE, HOSTILE_PATH, SL_FORMAT_JUNIT);
	char p[512];
	snprintf(p, sizeof p, "%s/hostile.xml", tmp);
	sl_test_spit(p, odd, strlen(odd));
	free(odd);
	check_junit(tmp, p, "hostile");
	char out[512];
	snprintf(out, sizeof out, "%s/name.txt", tmp);
	cr_assert_eq(sh("xmllint --xpath 'string(//testsuite/@name)' '%s' > '%s'", p, out), 0);
	char *name = sl_test_slurp(out, NULL);
	size_t nl = strlen(name);
	if (nl > 1 && name[nl - 1] == '\n' && name[nl - 2] != '\n')   /* xmllint's own line end */
		name[nl - 1] = '\0';
	cr_expect_str_eq(name, "dir|a`b/<x>&\"'\\x01]]>\n ü:1,2%.yaml",
			 "the file name as XML gives it back (a control as \\xHH): %s", name);
	free(name);
	cr_assert_eq(sh("xmllint --xpath 'string(//failure/@message)' '%s' > '%s'", p, out), 0);
	char *msg = sl_test_slurp(out, NULL);
	cr_expect(strstr(msg, "<script>x</script> ]]> &amp; *em*"), "%s", msg);
	free(msg);
	/* the canary: a failure without its type is rejected */
	cr_assert_eq(sh("sed 's/<failure type=\"error\"/<failure/' '%s' > '%s/canary.xml'", p, tmp), 0);
	cr_expect_neq(sh("xmllint --noout --schema '%s' '%s/canary.xml' > /dev/null 2>&1", JUNIT_XSD,
			 tmp), 0, "the XSD accepted a failure without a type");
	rm_rf(tmp);
}

/* The cells of a Markdown table row: the "|" not escaped by a backslash, less one. */
static size_t md_cells(const char *row)
{
	size_t pipes = 0;
	for (const char *p = row; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		pipes += *p == '|';
	}
	return pipes ? pipes - 1 : 0;
}

/* Every row of every table of md as wide as its header; no raw HTML but <br>; no unescaped
** backtick outside the summary line. */
static void check_markdown(const char *md, const char *what)
{
	char *copy = strdup(md);
	size_t header = 0, rows = 0;
	for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] != '|') {
			header = 0;
			continue;
		}
		size_t n = md_cells(line);
		cr_expect(strlen(line) >= 2 && strcmp(line + strlen(line) - 2, " |") == 0,
			  "%s: a row that does not end its last cell: %s", what, line);
		if (!header) {
			header = n;
			continue;
		}
		rows++;
		cr_expect_eq(n, header, "%s: %zu cells under a header of %zu: %s", what, n, header,
			     line);
		for (const char *p = line; *p; p++) {
			if (*p == '\\' && p[1]) {
				p++;
				continue;
			}
			cr_expect(*p != '`', "%s: an unescaped backtick: %s", what, line);
			cr_expect(*p != '<' || strncmp(p, "<br>", 4) == 0, "%s: raw HTML: %s", what, line);
		}
	}
	cr_expect_gt(rows, 0, "%s: no table rows", what);
	free(copy);
}

Test(report, markdown_structure)
{
	char *tmp = scratch();
	for (size_t i = 0; i < N_FORMAT_CASES; i++) {
		char args[1024];
		snprintf(args, sizeof args, "-f markdown %s", FORMAT_CASES[i]);
		char *md = sl_test_slurp(run_into(tmp, "report.md", args), NULL);
		check_markdown(md, FORMAT_CASES[i]);
		json_t *want = json_findings(tmp, FORMAT_CASES[i]);
		size_t found = 0;
		const char *f = strstr(md, "\n### Findings\n");
		for (const char *p = f; p && (p = strstr(p + 1, "\n| ")); )
			found++;
		size_t nf = json_array_size(want);   /* the header and its rule too */
		cr_expect_eq(found, nf ? nf + 2 : 0, "%s: a row per finding in the findings table",
			     FORMAT_CASES[i]);
		json_decref(want);
		free(md);
	}
	char *odd = report_file_as(HOSTILE_FILE, HOSTILE_PATH, SL_FORMAT_MARKDOWN);
	check_markdown(odd, "hostile");
	cr_expect(strstr(odd, "| dir\\|a\\`b/&lt;x&gt;&amp;\"'\\x01\\]\\]&gt;<br> ü:1,2%.yaml | 2 | 2 | 0 | 0 |"),
		  "the hostile file's row:\n%s", odd);
	free(odd);
	char *clean = report_file_as("testdata/report/clean.yaml", "clean.yaml", SL_FORMAT_MARKDOWN);
	cr_expect_str_eq(clean, "No problems found in 1 file.\n");
	free(clean);
	rm_rf(tmp);
}

/* ---- several reports in one run ---- */

Test(report, formats_in_one_run)
{
	exe();
	char *tmp = scratch();
	const char *in = "testdata/examples testdata/report";
	static const char *const fmts[] = {"sarif", "gitlab", "junit", "markdown", "json", "text"};
	char args[2048];
	int len = snprintf(args, sizeof args, "cd '%s' && '%s' --format github", tmp, exe());
	for (size_t i = 0; i < 6; i++)
		len += snprintf(args + len, sizeof args - (size_t)len, " --format %s:one.%s", fmts[i],
				fmts[i]);
	char cwd[1024];
	cr_assert(getcwd(cwd, sizeof cwd));
	/* from tmp, with the inputs as relative paths there: a symlink to the project */
	cr_assert_eq(sh("ln -s '%s/testdata' '%s/testdata'", cwd, tmp), 0);
	cr_expect_eq(sh("%s %s > '%s/all.github' 2>/dev/null", args, in, tmp), 1);
	for (size_t i = 0; i < 7; i++) {
		const char *f = i < 6 ? fmts[i] : "github";
		cr_expect_eq(sh("cd '%s' && '%s' -f %s %s > alone.%s 2>/dev/null", tmp, exe(), f, in, f), 1);
		char a[600], b[600];
		snprintf(a, sizeof a, "%s/%s.%s", tmp, i < 6 ? "one" : "all", f);
		snprintf(b, sizeof b, "%s/alone.%s", tmp, f);
		char *x = sl_test_slurp(a, NULL), *y = sl_test_slurp(b, NULL);
		cr_assert(x && y, "%s: missing", f);
		cr_expect_str_eq(x, y, "--format %s in one run with the others differs from alone", f);
		free(x);
		free(y);
	}
	/* -o names the file of the one report without one */
	cr_expect_eq(sh("cd '%s' && '%s' -f json:o.json -f gitlab -o o.gitlab %s > o.stdout 2>&1", tmp,
			exe(), in), 1);
	cr_expect_eq(sh("cmp -s '%s/o.gitlab' '%s/one.gitlab' && cmp -s '%s/o.json' '%s/one.json' && "
			"test ! -s '%s/o.stdout'", tmp, tmp, tmp, tmp, tmp), 0);
	rm_rf(tmp);
}

/* Runs schedlint from tmp with args; returns its exit status and its stderr in *err. */
static int run_err(const char *tmp, const char *args, char **err)
{
	int rc = sh("cd '%s' && '%s' %s > out.txt 2> err.txt", tmp, exe(), args);
	char p[512];
	snprintf(p, sizeof p, "%s/err.txt", tmp);
	*err = sl_test_slurp(p, NULL);
	return rc;
}

Test(report, formats_usage_and_atomic_writes)
{
	exe();
	char *tmp = scratch();
	char cwd[1024], *err;
	cr_assert(getcwd(cwd, sizeof cwd));
	char pod[1200];
	snprintf(pod, sizeof pod, "'%s/testdata/report/fingerprint-base.yaml'", cwd);
	struct { const char *args, *says; } usage[] = {
		{"-f json -f sarif", "two reports go to stdout"},
		{"-f json:a -f sarif:a", "two reports go to a"},
		{"-f yaml:a", "unknown format \"yaml:a\""},
		{"-f json:", "names no file"},
		{"-f json:a -o b", "-o b: every --format names its own file"},
		{"-f json -f sarif -o b", "two have none"},
	};
	for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
		char args[2048];
		snprintf(args, sizeof args, "%s %s", usage[i].args, pod);
		cr_expect_eq(run_err(tmp, args, &err), 2, "%s", usage[i].args);
		cr_expect(strstr(err, usage[i].says), "%s: %s", usage[i].args, err);
		free(err);
	}
	/* a report file that cannot be written: exit 2 naming it, before the lint, nothing left */
	char args[2048];
	snprintf(args, sizeof args, "-f json:ok.json -f sarif:no/such/dir/x.sarif %s", pod);
	cr_expect_eq(run_err(tmp, args, &err), 2);
	cr_expect(strstr(err, "cannot write the report no/such/dir/x.sarif: No such file or directory"),
		  "%s", err);
	free(err);
	cr_expect_eq(sh("cd '%s' && test ! -e ok.json && test ! -s out.txt", tmp), 0,
		     "a report was written although another could not be");
	/* /dev/full: written in place (a device), the failure is exit 2 naming it */
	snprintf(args, sizeof args, "-f json:/dev/full %s", pod);
	cr_expect_eq(run_err(tmp, args, &err), 2);
	cr_expect(strstr(err, "cannot write the report /dev/full: No space left on device"), "%s", err);
	free(err);
	/* a write that fails half-way (a file size limit): the old report stays, no temp file */
	char old[512];
	snprintf(old, sizeof old, "%s/big.json", tmp);
	sl_test_spit(old, "OLD\n", 4);
	snprintf(args, sizeof args, "cd '%s' && trap '' XFSZ && ulimit -f 1 && '%s' -f json:big.json "
		 "'%s/testdata/rules' > /dev/null 2> err.txt", tmp, exe(), cwd);
	cr_expect_eq(sh("bash -c \"%s\"", args), 2);
	char *now = sl_test_slurp(old, NULL);
	cr_expect_str_eq(now, "OLD\n", "a failed report replaced the old one");
	free(now);
	snprintf(old, sizeof old, "%s/err.txt", tmp);
	err = sl_test_slurp(old, NULL);
	cr_expect(strstr(err, "cannot write the report big.json: File too large"), "%s", err);
	free(err);
	cr_expect_eq(sh("cd '%s' && ls -A | grep -q '[.]schedlint-'", tmp), 1, "a temp file is left");
	/* a symbolic link is never written through (a repository could commit one): refused
	** before the lint, the link and where it leads untouched (tests/hostile has the attacks) */
	cr_assert_eq(sh("cd '%s' && echo kept > target.json && ln -s target.json link.json", tmp), 0);
	snprintf(args, sizeof args, "-f json:link.json %s", pod);
	cr_expect_eq(run_err(tmp, args, &err), 2);
	cr_expect(strstr(err, "cannot write the report link.json: it is a symbolic link"), "%s", err);
	free(err);
	cr_expect_eq(sh("cd '%s' && test -L link.json && test \"$(cat target.json)\" = kept", tmp), 0);
	rm_rf(tmp);
}
