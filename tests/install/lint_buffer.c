/* SPDX-License-Identifier: Apache-2.0
** lint_buffer.c: a program that uses libschedlint as an installed library would be used, built
** by tests/install.sh against the installed headers with `pkg-config --cflags --libs schedlint`.
** It lints a buffer (an editor's, not a file on disk), prints each finding as
** "rule line:column", and checks the library is the one its headers describe. */
#include <stdio.h>
#include <string.h>
#include <schedlint/schedlint.h>

static const char BUFFER[] =
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata:\n"
	"  name: trainer\n"
	"spec:\n"
	"  containers:\n"
	"    - name: main\n"
	"      image: pytorch:2\n"
	"      resources:\n"
	"        requests:\n"
	"          nvidia.com/gpu: 1\n";

int main(void)
{
	if (strcmp(sl_version(), SL_VERSION_STRING) != 0) {
		fprintf(stderr, "library %s, headers %s\n", sl_version(), SL_VERSION_STRING);
		return 1;
	}
	sl_config *cfg = NULL;
	sl_run *run = NULL;
	char *msg = NULL;
	sl_run_options opts = SL_RUN_OPTIONS_INIT;
	opts.jobs = 1;
	if (sl_config_new_default(&cfg) != SL_OK ||
	    sl_run_new(cfg, &opts, &run, &msg) != SL_OK ||
	    sl_run_add_buffer(run, "buffer.yaml", BUFFER, sizeof BUFFER - 1) != SL_OK ||
	    sl_run_lint(run) != SL_OK) {
		fprintf(stderr, "lint failed: %s\n", msg ? msg : "");
		return 1;
	}
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		printf("%s %u:%u\n", f->rule, f->line, f->column);
	}
	if (sl_run_finding(run, sl_run_finding_count(run)) != NULL) {
		fprintf(stderr, "an index out of range gave a finding\n");
		return 1;
	}
	sl_run_free(run);
	sl_config_free(cfg);
	return 0;
}
