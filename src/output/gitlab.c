/* SPDX-License-Identifier: Apache-2.0
** gitlab.c: the GitLab Code Quality report (spec/cli.md, "Outputs"; docs/report-formats.md), for
** `artifacts: reports: codequality`: a JSON array with one issue per finding,
**   {"description", "check_name", "fingerprint", "severity",
**    "location": {"path", "lines": {"begin", "end"}}}
** ([] when clean). GitLab's severities are info|minor|major|critical|blocker: an error (the
** object is rejected or never scheduled as written) is "critical", a warning "major", an info
** "info"; "blocker" and "minor" are left unused. The fingerprint is fingerprint.c's global one
** (path, rule, object identity, pointer), so an issue keeps its identity across edits elsewhere
** in the file and GitLab's merge-request widget shows only what changed. The path is the one
** reported, without a leading "./" and, when absolute under the working directory, made
** relative to it (GitLab wants it relative to the repository root: run from there). Written with jansson (escape.h's sl_escape_json for every string from a manifest or
** a file name), one issue at a time (stream.c). */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "output/escape.h"
#include "output/output.h"

static const char *severity(sl_severity sev)
{
	return sev == SL_SEV_ERROR ? "critical" : sev == SL_SEV_WARNING ? "major" : "info";
}

struct issues {
	const sl_output_run *run;
	sl_fingerprint *fp;
	char cwd[PATH_MAX];   /* "" when unknown */
};

static json_t *issue(void *payload, size_t i)
{
	const struct issues *is = payload;
	const sl_finding *f = is->run->findings[i];
	const char *path = f->path;
	size_t cl = strlen(is->cwd);
	if (cl > 1 && strncmp(path, is->cwd, cl) == 0 && path[cl] == '/')
		path += cl + 1;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	unsigned begin = f->line ? f->line : 1;
	unsigned end = f->end_line >= begin ? f->end_line : begin;
	return json_pack("{s:o, s:s, s:s, s:s, s:{s:o, s:{s:I, s:I}}}",
			 "description", sl_escape_json(f->message), "check_name", f->rule,
			 "fingerprint", is->fp[i].global, "severity", severity(f->severity),
			 "location", "path", sl_escape_json(path), "lines",
			 "begin", (json_int_t)begin, "end", (json_int_t)end);
}

sl_err sl_gitlab_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	(void)opts;
	struct issues is = {run, sl_fingerprint_all(run), ""};
	if (!getcwd(is.cwd, sizeof is.cwd))
		is.cwd[0] = '\0';
	json_t *root = is.fp ? json_array() : NULL;
	if (!root) {
		free(is.fp);
		return SL_ENOMEM;
	}
	const sl_json_array arrays[] = {{NULL, run->n_findings, issue, &is}};
	sl_err err = sl_stream_write_json(out, root, arrays, 1);
	free(is.fp);
	return err;
}
