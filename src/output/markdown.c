/* SPDX-License-Identifier: Apache-2.0
** markdown.c: the Markdown report (spec/cli.md, "Outputs"; docs/report-formats.md), GitHub-
** flavoured, for a pull-request comment or $GITHUB_STEP_SUMMARY:
**   ## schedlint
**   **E errors, W warnings, I infos** in F files; X fixable with `--fix`.
**   ### Rules      | Rule | Findings | Severity | Fixable |      one row per rule, by id
**   ### Files      | File | Findings | Errors | Warnings | Infos |    one row per file with findings
**   ### Not read   | File | Why |                            files that could not be read
**   ### Findings   | Location | Severity | Rule | Message |   path:line:col, in the run's order
**   ### Notices    - 2 Helm charts not linted: a, b           a line per notice rule (text's)
** A clean run is one line: "No problems found in N files.", then its notices. Every cell holding bytes from a
** manifest, a file name or a plugin goes through escape.h's SL_SINK_MARKDOWN, so no value can
** end a cell or a row, or start code, emphasis, a link, HTML or a mention. */
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "output/escape.h"
#include "output/output.h"

static void cell(FILE *out, const char *s)
{
	fputs(" ", out);
	sl_escape_put(out, s, SL_SINK_MARKDOWN);
	fputs(" |", out);
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The rows of the rules table: findings grouped by rule (e[0..n) sorted by rule). */
static void rules_table(FILE *out, const sl_output_run *run, const sl_group_entry *e, size_t n)
{
	fputs("\n### Rules\n\n| Rule | Findings | Severity | Fixable |\n| --- | ---: | --- | ---: |\n",
	      out);
	for (size_t k = 0, to; k < n; k = to) {
		to = sl_group_end(e, n, k, e[k].key);
		size_t safe = 0, unsafe = 0;
		unsigned seen = 0;   /* a bit per severity: a config may change a rule's in a scope */
		for (size_t j = k; j < to; j++) {
			const sl_finding *f = run->findings[e[j].i];
			seen |= 1u << (f->severity == SL_SEV_ERROR ? 0 : f->severity == SL_SEV_WARNING ? 1 : 2);
			safe += f->fix && f->fix->applicability == SL_FIX_SAFE;
			unsafe += f->fix && f->fix->applicability == SL_FIX_UNSAFE;
		}
		fputs("|", out);
		cell(out, e[k].key);
		fprintf(out, " %zu |", to - k);
		const char *names[] = {"error", "warning", "info"};
		const char *sep = " ";
		for (int b = 0; b < 3; b++)
			if (seen & (1u << b)) {
				fprintf(out, "%s%s", sep, names[b]);
				sep = ", ";
			}
		fprintf(out, " | %zu", safe);
		if (unsafe)
			fprintf(out, " (+%zu unsafe)", unsafe);
		fputs(" |\n", out);
	}
}

/* The rows of the files table: findings grouped by path (e[0..n) sorted by path). */
static void files_table(FILE *out, const sl_output_run *run, const sl_group_entry *e, size_t n)
{
	fputs("\n### Files\n\n| File | Findings | Errors | Warnings | Infos |\n"
	      "| --- | ---: | ---: | ---: | ---: |\n", out);
	for (size_t k = 0, to; k < n; k = to) {
		to = sl_group_end(e, n, k, e[k].key);
		size_t by_sev[3] = {0};
		for (size_t j = k; j < to; j++) {
			sl_severity sev = run->findings[e[j].i]->severity;
			by_sev[sev == SL_SEV_ERROR ? 0 : sev == SL_SEV_WARNING ? 1 : 2]++;
		}
		fputs("|", out);
		cell(out, e[k].key);
		fprintf(out, " %zu | %zu | %zu | %zu |\n", to - k, by_sev[0], by_sev[1], by_sev[2]);
	}
}

static void findings_table(FILE *out, const sl_output_run *run)
{
	fputs("\n### Findings\n\n| Location | Severity | Rule | Message |\n| --- | --- | --- | --- |\n",
	      out);
	for (size_t i = 0; i < run->n_findings; i++) {
		const sl_finding *f = run->findings[i];
		fputs("| ", out);
		sl_escape_put(out, f->path, SL_SINK_MARKDOWN);
		fprintf(out, ":%u:%u |", (unsigned)f->line, (unsigned)f->column);
		cell(out, sl_severity_name(f->severity));
		cell(out, f->rule);
		cell(out, f->message);
		fputc('\n', out);
	}
}

static void unread_table(FILE *out, const sl_output_run *run)
{
	int any = 0;
	for (size_t i = 0; i < run->n_files; i++) {
		const sl_file_info *fi = &run->files[i];
		if (!fi->error)
			continue;
		if (!any++)
			fputs("\n### Not read\n\n| File | Why |\n| --- | --- |\n", out);
		fputs("|", out);
		cell(out, fi->path);
		cell(out, fi->error);
		fputc('\n', out);
	}
}

/* What was not linted: a list item per notice rule, the line text output gives it. */
static sl_err notices_list(FILE *out, const sl_output_run *run)
{
	if (!run->n_notices)
		return SL_OK;
	const sl_finding **order;
	size_t ng;
	sl_notice_group *g = sl_group_notices(run, &order, &ng);
	if (!g)
		return SL_ENOMEM;
	sl_err err = SL_OK;
	fputs("\n### Notices\n\n", out);
	for (size_t k = 0; k < ng && !err; k++) {
		char *line = sl_group_notice_line(&g[k], SL_SINK_MARKDOWN, SL_LINE_MAX);
		if (!line)
			err = SL_ENOMEM;
		else
			fprintf(out, "- %s (`%s`)\n", line, g[k].rule);
		free(line);
	}
	free(g);
	free(order);
	return err;
}

sl_err sl_markdown_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	(void)opts;
	sl_summary s;
	sl_summary_count(run, &s);
	size_t n = run->n_findings, unread = run->n_files - s.files;
	if (n == 0 && unread == 0) {
		fprintf(out, "No problems found in %zu %s.\n", s.files, plural(s.files, "file", "files"));
		sl_err err = notices_list(out, run);
		return err ? err : ferror(out) ? SL_EIO : SL_OK;
	}
	sl_group_entry *by_rule = malloc((n ? n : 1) * sizeof *by_rule);
	sl_group_entry *by_path = malloc((n ? n : 1) * sizeof *by_path);
	if (!by_rule || !by_path) {
		free(by_rule);
		free(by_path);
		return SL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		by_rule[i] = (sl_group_entry){run->findings[i]->rule, i};
		by_path[i] = (sl_group_entry){run->findings[i]->path, i};
	}
	sl_group_sort(by_rule, n);
	sl_group_sort(by_path, n);
	fprintf(out, "## schedlint\n\n**%zu %s, %zu %s, %zu %s** in %zu %s", s.errors,
		plural(s.errors, "error", "errors"), s.warnings, plural(s.warnings, "warning", "warnings"),
		s.infos, plural(s.infos, "info", "infos"), s.files, plural(s.files, "file", "files"));
	if (unread)
		fprintf(out, " (%zu not read)", unread);
	fprintf(out, "; %zu fixable with `--fix`", s.fixable);
	if (s.unsafe_fixable)
		fprintf(out, ", %zu more with `--fix --unsafe-fixes`", s.unsafe_fixable);
	fputs(".\n", out);
	if (n) {
		rules_table(out, run, by_rule, n);
		files_table(out, run, by_path, n);
	}
	unread_table(out, run);
	if (n)
		findings_table(out, run);
	free(by_rule);
	free(by_path);
	sl_err err = notices_list(out, run);
	return err ? err : ferror(out) ? SL_EIO : SL_OK;
}
