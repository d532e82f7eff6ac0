/* SPDX-License-Identifier: Apache-2.0
** fuzz_fix.c: libFuzzer target: parse, lint and fix one buffer (safe fixes, then safe and
** unsafe ones), through the public API. Properties, abort() when one fails:
**   - the fix loop converges;
**   - the fixed text has no yaml-syntax finding unless the input had one;
**   - fixing the fixed text again applies nothing and changes nothing (idempotence).
** Built by tests/fuzz/run. */
#include <stdbool.h>
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

static void check(sl_err e, const char *what)
{
	if (e != SL_OK) {
		fprintf(stderr, "%s: %s\n", what, sl_strerror(e));
		abort();
	}
}

static size_t syntax_findings(const sl_run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < sl_run_finding_count(run); i++)
		if (strcmp(sl_run_finding(run, i)->rule, "yaml-syntax") == 0)
			n++;
	return n;
}

static sl_run *lint(const char *data, size_t len)
{
	sl_run *run = NULL;
	sl_run_options opts = {.version = SL_RUN_OPTIONS_VERSION, .jobs = 1};
	check(sl_run_new(cfg, &opts, &run, NULL), "sl_run_new");
	check(sl_run_add_buffer(run, "fuzz.yaml", data, len), "sl_run_add_buffer");
	check(sl_run_lint(run), "sl_run_lint");
	return run;
}

static void dump(const char *label, const char *s, size_t n)
{
	fprintf(stderr, "----- %s (%zu bytes) -----\n%.*s\n----- end -----\n", label, n, (int)n, s);
}

static void one_mode(const char *data, size_t size, bool unsafe)
{
	const char *mode = unsafe ? "unsafe" : "safe";
	sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = unsafe};
	sl_run *run = lint(data, size);
	size_t syntax_in = syntax_findings(run);
	size_t applied = 0;
	bool converged = false;
	check(sl_run_fix(run, &fo, &applied, &converged), "sl_run_fix");
	const char *text;
	size_t len;
	bool changed;
	sl_run_file_text(run, 0, &text, &len, &changed);
	if (!converged) {
		fprintf(stderr, "%s fixes did not converge (%zu applied)\n", mode, applied);
		dump("last text", text, len);
		abort();
	}
	if (!changed) {
		sl_run_free(run);
		return;
	}
	/* The fixed text, linted afresh. */
	char *copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	memcpy(copy, text, len);
	sl_run *again = lint(copy, len);
	if (syntax_findings(again) > syntax_in) {
		const sl_finding *f = NULL;
		for (size_t i = 0; i < sl_run_finding_count(again); i++)
			if (strcmp(sl_run_finding(again, i)->rule, "yaml-syntax") == 0)
				f = sl_run_finding(again, i);
		fprintf(stderr, "%s fixes (%zu) broke the YAML: %u:%u: %s\n", mode, applied,
			f ? f->line : 0, f ? f->column : 0, f ? f->message : "?");
		dump("input", data, size);
		dump("fixed", copy, len);
		abort();
	}
	size_t applied2 = 0;
	bool converged2 = false;
	check(sl_run_fix(again, &fo, &applied2, &converged2), "sl_run_fix (again)");
	const char *text2;
	size_t len2;
	bool changed2;
	sl_run_file_text(again, 0, &text2, &len2, &changed2);
	if (applied2 != 0 || changed2 || len2 != len || memcmp(text2, copy, len) != 0) {
		fprintf(stderr, "%s fixes are not idempotent: fixing the fixed text applied %zu more\n",
			mode, applied2);
		for (size_t i = 0; i < sl_run_finding_count(again); i++) {
			const sl_finding *f = sl_run_finding(again, i);
			fprintf(stderr, "  remaining %u:%u %s: %s\n", f->line, f->column, f->rule,
				f->message);
		}
		dump("input", data, size);
		dump("fixed once", copy, len);
		dump("fixed twice", text2, len2);
		abort();
	}
	sl_run_free(again);
	free(copy);
	sl_run_free(run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one_mode((const char *)data, size, false);
	one_mode((const char *)data, size, true);
	return 0;
}
