/* SPDX-License-Identifier: Apache-2.0
** junit.c: the JUnit XML report (spec/cli.md, "Outputs"; docs/report-formats.md), the de-facto
** format Jenkins, GitLab (`artifacts: reports: junit`) and most CI test views read
** (tests/report/junit.xsd is the shape we promise):
**   <testsuites name="schedlint" tests failures errors>
**     <testsuite name=PATH tests failures errors skipped="0">   one per linted file
**       <testcase name="RULE at LINE:COL" classname=PATH file=PATH line=LINE>
**         <failure type=SEVERITY message=MESSAGE>PATH:LINE:COL: SEVERITY: MESSAGE [RULE]
**   NOTES</failure>                                              one per finding
**       <testcase name="schedlint" classname=PATH file=PATH/>   a clean file passes
**       <testcase ...><error type="unreadable" message=WHY/>    a file that could not be read
** A finding whose path is not one of the run's files (a Helm template, a Kustomize base) gets
** a testsuite of its own after them. Every byte from a manifest or a file name goes through
** escape.h's SL_SINK_XML (entities, character references, "\xHH" for what XML cannot hold). */
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "schedlint/schedlint.h"
#include "output/escape.h"
#include "output/output.h"

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	sl_escape_put(out, value, SL_SINK_XML);
	fputc('"', out);
}

static void finding_case(FILE *out, const sl_finding *f)
{
	const char *sev = sl_severity_name(f->severity);
	fputs("    <testcase", out);
	char name[512];
	snprintf(name, sizeof name, "%s at %u:%u", f->rule, (unsigned)f->line, (unsigned)f->column);
	attr(out, "name", name);
	attr(out, "classname", f->path);
	attr(out, "file", f->path);
	fprintf(out, " line=\"%u\">\n      <failure", (unsigned)f->line);
	attr(out, "type", sev);
	attr(out, "message", f->message);
	fputc('>', out);
	sl_escape_put(out, f->path, SL_SINK_XML);
	fprintf(out, ":%u:%u: %s: ", (unsigned)f->line, (unsigned)f->column, sev);
	sl_escape_put(out, f->message, SL_SINK_XML);
	fputs(" [", out);
	sl_escape_put(out, f->rule, SL_SINK_XML);
	fputc(']', out);
	if (f->notes && *f->notes) {
		fputc('\n', out);
		sl_escape_put(out, f->notes, SL_SINK_XML);
	}
	fputs("</failure>\n    </testcase>\n", out);
}

/* One testsuite: the file path (error: why it could not be read, else NULL) and its findings,
** positions [from, to) of by. */
static void suite(FILE *out, const sl_output_run *run, const sl_group_entry *by, const char *path,
		  const char *error, size_t from, size_t to)
{
	size_t n = to - from;
	fputs("  <testsuite", out);
	attr(out, "name", path);
	fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%d\" skipped=\"0\">\n",
		n + (n == 0 || error), n, error != NULL);
	for (size_t k = from; k < to; k++)
		finding_case(out, run->findings[by[k].i]);
	if (n == 0 || error) {
		fputs("    <testcase name=\"schedlint\"", out);
		attr(out, "classname", path);
		attr(out, "file", path);
		if (error) {
			fputs(">\n      <error type=\"unreadable\"", out);
			attr(out, "message", error);
			fputs("/>\n    </testcase>\n", out);
		} else {
			fputs("/>\n", out);
		}
	}
	fputs("  </testsuite>\n", out);
}

sl_err sl_junit_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	(void)opts;
	size_t n = run->n_findings, nf = run->n_files;
	sl_group_entry *by = sl_xmalloc((n ? n : 1) * sizeof *by);
	sl_group_entry *files = sl_xmalloc((nf ? nf : 1) * sizeof *files);
	if (!by || !files) {
		free(by);
		free(files);
		return SL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		by[i] = (sl_group_entry){run->findings[i]->path, i};
	sl_group_sort(by, n);
	for (size_t i = 0; i < nf; i++)
		files[i] = (sl_group_entry){run->files[i].path, i};
	sl_group_sort(files, nf);

	/* the counts first: a file's clean testcase and a read error are tests too */
	size_t tests = n, errors = 0;
	for (size_t i = 0; i < nf; i++) {
		const sl_file_info *fi = &run->files[i];
		size_t from = sl_group_find(by, n, fi->path);
		tests += sl_group_end(by, n, from, fi->path) == from || fi->error;
		errors += fi->error != NULL;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"schedlint\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
		tests, n, errors);
	for (size_t i = 0; i < nf; i++) {
		const sl_file_info *fi = &run->files[i];
		size_t from = sl_group_find(by, n, fi->path);
		suite(out, run, by, fi->path, fi->error, from, sl_group_end(by, n, from, fi->path));
	}
	/* findings moved to files that are not the run's own: a testsuite each, after the files */
	for (size_t k = 0, to; k < n; k = to) {
		to = sl_group_end(by, n, k, by[k].key);
		size_t at = sl_group_find(files, nf, by[k].key);
		if (at == nf || strcmp(files[at].key, by[k].key) != 0)
			suite(out, run, by, by[k].key, NULL, k, to);
	}
	fputs("</testsuites>\n", out);
	free(by);
	free(files);
	return ferror(out) ? SL_EIO : SL_OK;
}
