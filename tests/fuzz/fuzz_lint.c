/* SPDX-License-Identifier: Apache-2.0
** fuzz_lint.c: libFuzzer target: parse and lint one buffer with every rule enabled, through the
** public API, and touch every finding (so ASan sees a bad pointer in one); then lint it again as
** the command line does (streaming: digests, compacted findings, later passes) and require the
** same JSON report. Any crash, sanitizer report, leak, error other than a finding, or
** difference between the two reports is a bug. Built by tests/fuzz/run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"

static sl_config *cfg;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (sl_config_new_default(&cfg) != SL_OK)
		abort();
	return 0;
}

static volatile size_t sink;

static void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

/* run's JSON report (malloc'd). */
static char *json_report(const sl_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	sl_output_options ro = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_JSON};
	if (!m || sl_run_write_output(run, &ro, m) != SL_OK || fclose(m) != 0)
		abort();
	return buf;
}

/* The JSON report of a streamed run over the input (malloc'd). */
static char *streamed_report(const uint8_t *data, size_t size)
{
	sl_run *run = NULL;
	sl_run_options opts = {.version = SL_RUN_OPTIONS_VERSION, .jobs = 1, .low_memory = true};
	if (sl_run_new(cfg, &opts, &run, NULL) != SL_OK ||
	    sl_run_add_buffer(run, "fuzz.yaml", (const char *)data, size) != SL_OK ||
	    sl_run_lint(run) != SL_OK)
		abort();
	char *buf = json_report(run);
	sl_run_free(run);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sl_run *run = NULL;
	sl_run_options opts = {.version = SL_RUN_OPTIONS_VERSION, .jobs = 1};
	if (sl_run_new(cfg, &opts, &run, NULL) != SL_OK)
		abort();
	if (sl_run_add_buffer(run, "fuzz.yaml", (const char *)data, size) != SL_OK)
		abort();
	sl_err e = sl_run_lint(run);
	if (e != SL_OK) {
		fprintf(stderr, "sl_run_lint: %s\n", sl_strerror(e));
		abort();
	}
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		touch(f->rule);
		touch(f->message);
		touch(f->path);
		touch(f->pointer);
		touch(f->kind);
		touch(f->name);
		touch(f->unit);
		if (f->line == 0 || f->column == 0 || f->offset > size ||
		    f->length > size - f->offset) {
			fprintf(stderr, "finding out of range: %s %u:%u offset %zu length %zu (size %zu)\n",
				f->rule, f->line, f->column, f->offset, f->length, size);
			abort();
		}
		if (f->fix)
			for (size_t j = 0; j < f->fix->n_edits; j++) {
				const sl_edit *ed = &f->fix->edits[j];
				touch(ed->content);
				if (ed->offset > size || ed->length > size - ed->offset) {
					fprintf(stderr, "edit out of range: %s offset %zu length %zu\n",
						f->rule, ed->offset, ed->length);
					abort();
				}
			}
	}
	/* The reporters walk every finding too; the JSON report must match a streamed run's. */
	char *kept = json_report(run);
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		sl_output_options ro = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_TEXT};
		if (sl_run_write_output(run, &ro, null) != SL_OK)
			abort();
		fclose(null);
	}
	sl_run_free(run);
	char *streamed = streamed_report(data, size);
	if (strcmp(kept, streamed) != 0) {
		fprintf(stderr, "a streamed run reported differently:\n--- whole\n%s\n--- streamed\n%s\n",
			kept, streamed);
		abort();
	}
	free(kept);
	free(streamed);
	return 0;
}
