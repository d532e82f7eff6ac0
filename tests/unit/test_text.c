/* SPDX-License-Identifier: Apache-2.0
** test_text.c: full text output (sl_output_options.full) through the public API: the source
** lines come from the text the run linted (a buffer, a file it kept), else from the file read
** again, and a file that changed or vanished since the lint gets no source lines, only its
** finding, as does a finding about a whole file with no span (a node a Kustomize build made from
** no file's line); a version 1 options struct keeps the concise form. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "output/output.h"
#include "support.h"

static const char GPU_NO_LIMIT[] =
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
	"    - name: c\n      image: x\n      resources:\n        requests:\n"
	"          nvidia.com/gpu: 1\n";
/* the finding's line, and its caret row */
static const char SNIPPET[] = "11 |           nvidia.com/gpu: 1\n   |                           ^\n";

/* The full text report of run in an options struct of version (then run and cfg freed). */
static char *full_report(sl_run *run, sl_config *cfg, unsigned version)
{
	sl_output_options ro = SL_OUTPUT_OPTIONS_INIT;
	ro.version = version;
	ro.full = true;   /* in a version 1 struct: memory the library must not read */
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	cr_assert_not_null(out);
	cr_assert_eq(sl_run_write_output(run, &ro, out), SL_OK);
	fclose(out);
	sl_run_free(run);
	sl_config_free(cfg);
	return text;
}

/* The report of a run over path (a buffer holding text when buffer, else the file), linted
** streamed (low_memory) or not, after change() ran between the lint and the report. */
static char *report(const char *path, bool buffer, bool low_memory, unsigned version,
		    void (*change)(const char *path))
{
	sl_config *cfg;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	o.low_memory = low_memory;
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	if (buffer)
		cr_assert_eq(sl_run_add_buffer(run, path, GPU_NO_LIMIT, strlen(GPU_NO_LIMIT)), SL_OK);
	else
		cr_assert_eq(sl_run_add_path(run, path), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	cr_assert_eq(sl_run_finding_count(run), 1);
	if (change)
		change(path);
	return full_report(run, cfg, version);
}

static char dir[256];
static char path[sizeof dir + 16];

static void setup(void)
{
	sl_test_scratch(dir, sizeof dir, "text");
	snprintf(path, sizeof path, "%s/p.yaml", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(GPU_NO_LIMIT, f);
	fclose(f);
}

static void teardown(void)
{
	unlink(path);
	rmdir(dir);
}

static void rewrite(const char *p)
{
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f);
	fputs("# replaced\nkind: ConfigMap\n", f);
	fclose(f);
}

static void remove_it(const char *p)
{
	cr_assert_eq(unlink(p), 0);
}

Test(text, a_buffer_shows_its_own_text, .init = setup, .fini = teardown)
{
	rewrite(path);   /* the disk differs: the buffer is what was linted */
	char *t = report(path, true, true, SL_OUTPUT_OPTIONS_VERSION, NULL);
	cr_expect(strstr(t, SNIPPET), "%s", t);
	cr_expect(strstr(t, "   = note: "), "%s", t);
	cr_expect(strstr(t, "   = help: add limits.nvidia.com/gpu: 1\n"), "%s", t);
	free(t);
}

Test(text, a_streamed_file_is_read_again, .init = setup, .fini = teardown)
{
	char *t = report(path, false, true, SL_OUTPUT_OPTIONS_VERSION, NULL);
	cr_expect(strstr(t, SNIPPET), "%s", t);
	free(t);
}

Test(text, a_kept_file_shows_what_was_linted, .init = setup, .fini = teardown)
{
	char *t = report(path, false, false, SL_OUTPUT_OPTIONS_VERSION, rewrite);
	cr_expect(strstr(t, SNIPPET), "%s", t);
	free(t);
}

Test(text, a_file_changed_since_gets_no_source_lines, .init = setup, .fini = teardown)
{
	void (*changes[])(const char *) = {rewrite, remove_it};
	for (size_t i = 0; i < 2; i++) {
		char *t = report(path, false, true, SL_OUTPUT_OPTIONS_VERSION, changes[i]);
		cr_expect(strstr(t, ":11:27: error: "), "%s", t);
		cr_expect_null(strstr(t, " | "), "%s", t);
		cr_expect_null(strstr(t, "replaced"), "%s", t);
		cr_expect(strstr(t, "\n  = help: add limits.nvidia.com/gpu: 1\n"), "%s", t);
		free(t);
		if (changes[i] == remove_it)
			break;
		teardown();
		setup();
	}
}

Test(text, a_version_1_struct_is_concise, .init = setup, .fini = teardown)
{
	char *t = report(path, true, true, 1, NULL);
	cr_expect_null(strstr(t, " | "), "%s", t);
	cr_expect_null(strstr(t, "= note"), "%s", t);
	cr_expect(strstr(t, ":11:27: error: "), "%s", t);
	free(t);
}

/* A Helm template the findings were moved to is not read by the run: it is read for the
** report, unless it was modified after the lint started. */
static char *helm_report(const char *chart, bool touch)
{
	static const char rendered[] = "---\n# Source: c/templates/pod.yaml\n" "apiVersion: v1\n"
		"kind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n"
		"      image: x\n      resources:\n        requests:\n          nvidia.com/gpu: 1\n";
	sl_config *cfg;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	const char *sel[] = {"gpu-request-without-limit"};
	o.select = sel;
	o.n_select = 1;
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_set_helm_chart(run, chart, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, "-", rendered, strlen(rendered)), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	cr_assert_eq(sl_run_finding_count(run), 1);
	if (touch) {   /* an editor saves the template after the lint started */
		char t[512];
		snprintf(t, sizeof t, "%s/templates/pod.yaml", chart);
		struct timespec later[2] = {{.tv_nsec = UTIME_OMIT}, {0}};
		clock_gettime(CLOCK_REALTIME, &later[1]);
		later[1].tv_sec += 5;
		cr_assert_eq(utimensat(AT_FDCWD, t, later, 0), 0);
	}
	return full_report(run, cfg, SL_OUTPUT_OPTIONS_VERSION);
}

Test(text, a_helm_template_modified_after_the_lint_gets_no_source_lines)
{
	char chart[256], p[512];
	sl_test_scratch(chart, sizeof chart, "chart");
	snprintf(p, sizeof p, "%s/templates", chart);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/Chart.yaml", chart);
	FILE *f = fopen(p, "w");
	fputs("apiVersion: v2\nname: c\nversion: 0.1.0\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/templates/pod.yaml", chart);
	f = fopen(p, "w");
	fputs(GPU_NO_LIMIT, f);
	fclose(f);
	char *t = helm_report(chart, false);
	cr_expect(strstr(t, "/templates/pod.yaml:11:"), "%s", t);
	cr_expect(strstr(t, "11 |           nvidia.com/gpu: 1\n"), "%s", t);
	free(t);
	t = helm_report(chart, true);
	cr_expect(strstr(t, "/templates/pod.yaml:11:"), "%s", t);
	cr_expect_null(strstr(t, " | "), "%s", t);
	free(t);
	unlink(p);
	snprintf(p, sizeof p, "%s/Chart.yaml", chart);
	unlink(p);
	snprintf(p, sizeof p, "%s/templates", chart);
	rmdir(p);
	rmdir(chart);
}

/* A finding about a whole file with no span of its own (document -1, no length: what remap.c
** makes of a node a Kustomize build made from no file's line) shows no source lines, only its
** line and notes; the same finding at a node of a document shows its line. */
Test(text, a_finding_about_a_whole_file_with_no_span_gets_no_source_lines, .init = setup,
     .fini = teardown)
{
	for (int doc = -1; doc <= 0; doc++) {
		sl_finding f = {.rule = "invalid-node-selector", .severity = SL_SEV_ERROR,
				.message = "m", .notes = "the build made its node from no line",
				.path = path, .line = 1, .column = 1, .end_line = 1, .end_column = 1,
				.pointer = "", .document = doc};
		const sl_finding *v[] = {&f};
		sl_file_info fi = {SL_FILE_INFO_VERSION, path, 1, NULL, 0, false};
		sl_output_run run = {v, 1, NULL, 0, &fi, 1, NULL, NULL, {0}};
		sl_output_options ro = SL_OUTPUT_OPTIONS_INIT;
		ro.full = true;
		char *t = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&t, &len);
		cr_assert_not_null(out);
		cr_assert_eq(sl_output_write(&run, &ro, out), SL_OK);
		fclose(out);
		cr_expect(strstr(t, ":1:1: error: m [invalid-node-selector]\n"), "%s", t);
		cr_expect(strstr(t, "= note: the build made its node from no line\n"), "%s", t);
		if (doc < 0)
			cr_expect_null(strstr(t, " | "), "%s", t);
		else
			cr_expect(strstr(t, "1 | apiVersion: v1\n"), "%s", t);
		free(t);
	}
}
