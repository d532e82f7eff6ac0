/* SPDX-License-Identifier: Apache-2.0
** fuzz_custom.c: libFuzzer target for declared rules (custom-rules: in .schedlint.yaml) and the
** JSON Schema evaluator, through the public API: one input is a config and a manifest
** (fuzz_tree.h: the text before "#--- fuzz.yaml" is .schedlint.yaml, the rest the manifest),
** the config loaded from a scratch directory (a config error is an answer, not a failure),
** the run made under it (a rule that does not compile is SL_ECONFIG, also an answer), the
** manifest linted as a buffer. Properties, abort() when one fails:
**   - loading, compiling and linting succeed or fail with the documented errors only;
**   - every finding lies inside the manifest, and its message is at most 64 KiB (messages cut
**     what they quote: {value} of a 1 MiB scalar is not copied whole);
**   - the JSON and full text reports are written;
** and libFuzzer's bounds: 20 s an input (a schema whose $refs make evaluation exponential, or a
** pattern that backtracks past the run's budget, is a timeout), 4 GiB. Built by tests/fuzz/run. */
#define _GNU_SOURCE   /* before any header: memmem, nftw */
#include <stdint.h>
#include "fuzz_tree.h"
#include "schedlint/schedlint.h"

static char dir[4200], cfg_path[4300];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_scratch_make("custom");
	snprintf(dir, sizeof dir, "%s/t", fuzz_scratch);
	snprintf(cfg_path, sizeof cfg_path, "%s/.schedlint.yaml", dir);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file files[FUZZ_TREE_MAX_FILES];
	size_t n = fuzz_split((const char *)data, size, ".schedlint.yaml", files);
	const char *manifest = "";
	size_t mlen = 0;
	for (size_t i = 1; i < n; i++)
		if (strcmp(files[i].name, "fuzz.yaml") == 0) {
			manifest = files[i].data;
			mlen = files[i].len;
		}
	fuzz_write_tree(dir, files, 1);   /* the config only: an extend: may name nothing else */
	sl_config *cfg = NULL;
	char *error = NULL;
	sl_err e = sl_config_load(cfg_path, &cfg, &error);
	free(error);
	error = NULL;
	if (e != SL_OK) {
		if (e != SL_ECONFIG && e != SL_EIO && e != SL_EUSAGE) {
			fprintf(stderr, "sl_config_load: %s\n", sl_strerror(e));
			abort();
		}
		sl_config_free(cfg);
		fuzz_rm_tree(dir);
		return 0;
	}
	sl_run *run = NULL;
	sl_run_options opts = {.version = SL_RUN_OPTIONS_VERSION, .jobs = 1, .no_gitignore = true};
	e = sl_run_new(cfg, &opts, &run, &error);
	free(error);
	if (e != SL_OK) {
		if (e != SL_ECONFIG && e != SL_EUSAGE && e != SL_EIO) {
			fprintf(stderr, "sl_run_new: %s\n", sl_strerror(e));
			abort();
		}
		sl_config_free(cfg);
		fuzz_rm_tree(dir);
		return 0;
	}
	if (sl_run_add_buffer(run, "fuzz.yaml", manifest, mlen) != SL_OK)
		abort();
	e = sl_run_lint(run);
	if (e != SL_OK) {
		fprintf(stderr, "sl_run_lint: %s\n", sl_strerror(e));
		abort();
	}
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		if (strcmp(f->path, "fuzz.yaml") != 0 || f->line == 0 || f->column == 0 ||
		    f->offset > mlen || f->length > mlen - f->offset) {
			fprintf(stderr, "finding out of range: %s %s %u:%u offset %zu length %zu "
				"(size %zu)\n", f->rule, f->path, f->line, f->column, f->offset,
				f->length, mlen);
			abort();
		}
		if (strlen(f->message) > 65536) {
			fprintf(stderr, "a message of %zu bytes: %.200s...\n", strlen(f->message),
				f->message);
			abort();
		}
	}
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		abort();
	sl_output_options ro = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_JSON};
	sl_output_options full = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_TEXT,
				  .full = true, .show_notes = true};
	if (sl_run_write_output(run, &ro, null) != SL_OK ||
	    sl_run_write_output(run, &full, null) != SL_OK)
		abort();
	fclose(null);
	sl_run_free(run);
	sl_config_free(cfg);
	fuzz_rm_tree(dir);
	return 0;
}
