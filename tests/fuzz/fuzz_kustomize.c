/* SPDX-License-Identifier: Apache-2.0
** fuzz_kustomize.c: libFuzzer target for the Kustomize builder, through the public API: one
** input is a small tree (fuzz_tree.h: "#--- NAME" lines start files; the text before the first
** is kustomization.yaml), written into a scratch directory beside a file outside it
** (../outside.yaml, a ConfigMap whose value must never be printed), and linted as a directory
** (every kustomization planned and built, its findings moved back to the files). Properties,
** abort() when one fails:
**   - sl_run_lint succeeds (findings are not errors; no crash, leak or sanitizer report);
**   - every finding lies in a file of the tree, inside that file's text;
**   - no finding, note or report quotes the value of the file outside;
** and libFuzzer's own bounds: 20 s an input (a build that is exponential in its input, a
** diamond of kustomizations, is a timeout), 4 GiB of memory. Built by tests/fuzz/run. */
#define _GNU_SOURCE   /* before any header: memmem, nftw */
#include <stdint.h>
#include "fuzz_tree.h"
#include "schedlint/schedlint.h"

#define OUTSIDE_VALUE "outside-value-never-printed"

static sl_config *cfg;
static char tree[4200];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (sl_config_new_default(&cfg) != SL_OK)
		abort();
	fuzz_scratch_make("kustomize");
	char outside[4200];
	snprintf(outside, sizeof outside, "%s/outside.yaml", fuzz_scratch);
	FILE *f = fopen(outside, "w");
	if (!f || fputs("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: outside\ndata:\n"
			"  key: " OUTSIDE_VALUE "\n", f) < 0 || fclose(f) != 0)
		abort();
	snprintf(tree, sizeof tree, "%s/t", fuzz_scratch);
	return 0;
}

static bool input_has_it;   /* the input itself holds the value: nothing to check */

static void quoted(const char *what, const char *s)
{
	if (!input_has_it && s && strstr(s, OUTSIDE_VALUE)) {
		fprintf(stderr, "%s quotes the file outside the tree: %s\n", what, s);
		abort();
	}
}

/* The size of file path, or -1 when it is not a regular file of the tree. */
static long long size_in_tree(const char *path)
{
	size_t tl = strlen(tree);
	char buf[4400];
	if (path[0] != '/') {   /* reported relative to the working directory */
		char cwd[4096];
		if (!getcwd(cwd, sizeof cwd))
			abort();
		snprintf(buf, sizeof buf, "%s/%s", cwd, path);
		path = buf;
	}
	char *real = realpath(path, NULL);
	if (!real)
		return -1;
	struct stat st;
	long long size = strncmp(real, tree, tl) == 0 && real[tl] == '/' && stat(real, &st) == 0 &&
			 S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
	free(real);
	return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file files[FUZZ_TREE_MAX_FILES];
	input_has_it = memmem(data, size, OUTSIDE_VALUE, sizeof OUTSIDE_VALUE - 1) != NULL;
	size_t n = fuzz_split((const char *)data, size, "kustomization.yaml", files);
	fuzz_write_tree(tree, files, n);
	sl_run *run = NULL;
	sl_run_options opts = {.version = SL_RUN_OPTIONS_VERSION, .jobs = 1, .no_gitignore = true};
	if (sl_run_new(cfg, &opts, &run, NULL) != SL_OK || sl_run_add_path(run, tree) != SL_OK)
		abort();
	sl_err e = sl_run_lint(run);
	if (e != SL_OK) {
		fprintf(stderr, "sl_run_lint: %s\n", sl_strerror(e));
		abort();
	}
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		quoted("a message", f->message);
		quoted("a note", f->notes);
		long long fs = size_in_tree(f->path);
		if (fs < 0 || f->line == 0 || f->column == 0 || (long long)f->offset > fs ||
		    (long long)f->length > fs - (long long)f->offset) {
			fprintf(stderr, "finding outside the tree's files: %s %s %u:%u offset %zu length "
				"%zu (file size %lld): %s\n", f->rule, f->path, f->line, f->column,
				f->offset, f->length, fs, f->message);
			abort();
		}
	}
	/* the reports quote what the findings do, and the files' snippets */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	sl_output_options ro = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_JSON};
	if (!m || sl_run_write_output(run, &ro, m) != SL_OK)
		abort();
	sl_output_options full = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_TEXT,
				  .full = true, .show_notes = true};
	if (sl_run_write_output(run, &full, m) != SL_OK || fclose(m) != 0)
		abort();
	quoted("a report", buf);
	free(buf);
	sl_run_free(run);
	fuzz_rm_tree(tree);
	return 0;
}
