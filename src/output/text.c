/* SPDX-License-Identifier: Apache-2.0
** text.c: the default report, one line per finding as compilers print them
** (path:line:col: severity: message [rule-id]), then a summary line. */
#include <stdlib.h>
#include <string.h>
#include "registry.h"
#include "output/escape.h"
#include "output/output.h"

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

sl_err sl_text_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	const char *bold = opts->color ? "\033[1m" : "", *reset = opts->color ? "\033[0m" : "";
	size_t n = run->n_findings;
	if (!opts->quiet) {
		for (size_t i = 0; i < n; i++) {
			const sl_finding *f = run->findings[i];
			const char *col = !opts->color ? ""
				: f->severity == SL_SEV_ERROR ? "\033[1;31m"
				: f->severity == SL_SEV_WARNING ? "\033[1;33m" : "\033[1;36m";
			const char *mark = !f->fix ? ""
				: f->fix->applicability == SL_FIX_SAFE ? " (fixable)" : " (unsafe fix)";
			fputs(bold, out);
			sl_escape_put(out, f->path, SL_SINK_TEXT_LINE);
			fprintf(out, ":%u:%u:%s %s%s:%s ", f->line, f->column, reset, col,
				sl_severity_name(f->severity), reset);
			sl_escape_put(out, f->message, SL_SINK_TEXT);
			fprintf(out, " [%s]%s\n", f->rule, mark);
			for (const char *p = opts->show_notes ? f->notes : NULL; p && *p;) {
				const char *nl = strchr(p, '\n');
				size_t len = nl ? (size_t)(nl - p) : strlen(p);
				char *para = strndup(p, len);
				fputs("  = note: ", out);
				sl_escape_put(out, para, SL_SINK_TEXT);
				fputc('\n', out);
				free(para);
				p += len + (nl != NULL);
			}
		}
	}
	sl_summary s;
	sl_summary_count(run, &s);
	if (opts->statistics && n) {
		/* Findings are sorted by position; count per rule in registry order. */
		for (size_t r = 0; r < sl_registry_n(); r++) {
			size_t c = 0;
			for (size_t i = 0; i < n; i++)
				if (strcmp(run->findings[i]->rule, sl_registry_at(r)->rule->id) == 0)
					c++;
			if (c)
				fprintf(out, "%6zu  %s\n", c, sl_registry_at(r)->rule->id);
		}
	}
	if (!n) {
		fprintf(out, "No problems found in %zu %s.\n", s.files, plural(s.files, "file", "files"));
	} else {
		fprintf(out, "%zu %s, %zu %s", s.errors, plural(s.errors, "error", "errors"), s.warnings,
			plural(s.warnings, "warning", "warnings"));
		if (s.infos)
			fprintf(out, ", %zu %s", s.infos, plural(s.infos, "info", "infos"));
		fprintf(out, " in %zu %s", s.files, plural(s.files, "file", "files"));
		if (s.fixable)
			fprintf(out, "; %zu fixable with --fix", s.fixable);
		if (s.unsafe_fixable)
			fprintf(out, "; %zu more with --fix --unsafe-fixes", s.unsafe_fixable);
		fprintf(out, ".\n");
	}
	return ferror(out) ? SL_EIO : SL_OK;
}
