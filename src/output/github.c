/* SPDX-License-Identifier: Apache-2.0
** github.c: GitHub Actions workflow commands (spec/cli.md, "Outputs"), one per finding:
**   ::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=RULE-ID::MESSAGE
** (::warning for warnings, ::notice for infos), escaped as @actions/core does: in the message
** "%" -> %25, CR -> %0D, LF -> %0A; in property values also ":" -> %3A and "," -> %2C; other
** controls, invalid UTF-8 and "##[" as escape.h says (SL_SINK_GITHUB_DATA / _PROP).
** Then one ::notice per notice rule that reported (a group: no file, its rule as the title; a
** notice is about a chart or a whole file, not a line to annotate, and GitHub shows only the
** first few annotations of a kind per step):
**   ::notice title=helm-chart-not-rendered::2 Helm charts not linted: charts/a/Chart.yaml, ...
** Then one plain summary line, which the runner prints but does not interpret because it does
** not start with "::":
**   schedlint: E errors, W warnings, I infos in F files; X fixable
** Nothing is coloured. */
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "output/escape.h"
#include "output/output.h"

static const char *command(sl_severity sev)
{
	return sev == SL_SEV_ERROR ? "error" : sev == SL_SEV_WARNING ? "warning" : "notice";
}

sl_err sl_github_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	(void)opts;
	size_t n = run->n_findings;
	for (size_t i = 0; i < n; i++) {
		const sl_finding *f = run->findings[i];
		const char *path = f->path;
		/* GitHub resolves file= against the workspace; "./x" and "x" are the same file. */
		while (path[0] == '.' && path[1] == '/')
			path += 2;
		fprintf(out, "::%s file=", command(f->severity));
		sl_escape_put(out, path, SL_SINK_GITHUB_PROP);
		if (f->line) {
			uint32_t col = f->column ? f->column : 1;
			uint32_t end_line = f->end_line >= f->line ? f->end_line : f->line;
			uint32_t end_col = f->end_column ? f->end_column : col;
			fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u", (unsigned)f->line,
				(unsigned)col, (unsigned)end_line, (unsigned)end_col);
		}
		fputs(",title=", out);
		sl_escape_put(out, f->rule, SL_SINK_GITHUB_PROP);
		fputs("::", out);
		sl_escape_put(out, f->message, SL_SINK_GITHUB_DATA);
		fputc('\n', out);
	}
	const sl_finding **order;
	size_t ng;
	sl_notice_group *g = sl_group_notices(run, &order, &ng);
	if (!g)
		return SL_ENOMEM;
	for (size_t k = 0; k < ng; k++) {
		/* the line a text report gives the group, with the same bound */
		char *line = sl_group_notice_line(&g[k], SL_SINK_GITHUB_DATA, SL_LINE_MAX);
		if (!line)
			break;
		fputs("::notice title=", out);
		sl_escape_put(out, g[k].rule, SL_SINK_GITHUB_PROP);
		fprintf(out, "::%s\n", line);
		free(line);
	}
	free(g);
	free(order);
	sl_summary s;
	sl_summary_count(run, &s);
	fprintf(out, "schedlint: %zu %s, %zu %s, %zu %s in %zu %s; %zu fixable\n",
		s.errors, s.errors == 1 ? "error" : "errors",
		s.warnings, s.warnings == 1 ? "warning" : "warnings",
		s.infos, s.infos == 1 ? "info" : "infos",
		s.files, s.files == 1 ? "file" : "files", s.fixable);
	return ferror(out) ? SL_EIO : SL_OK;
}
