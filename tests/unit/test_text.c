/* SPDX-License-Identifier: Apache-2.0
** test_text.c: full text output (sl_output_options.full) through the public API: the source
** lines come from the text the run linted (a buffer, a file it kept), else from the file read
** again, and a file that changed or vanished since the lint gets no source lines, only its
** finding; a version 1 options struct keeps the concise form. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedlint/schedlint.h"

static const char GPU_NO_LIMIT[] =
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
	"    - name: c\n      image: x\n      resources:\n        requests:\n"
	"          nvidia.com/gpu: 1\n";
/* the finding's line, and its caret row */
static const char SNIPPET[] = "11 |           nvidia.com/gpu: 1\n   |                           ^\n";

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

static char dir[] = "/tmp/schedlint-text-XXXXXX";
static char path[sizeof dir + 16];

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
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
		memcpy(dir, "/tmp/schedlint-text-XXXXXX", sizeof dir);
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
