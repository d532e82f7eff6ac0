/* SPDX-License-Identifier: Apache-2.0
** text.c: the default report, one line per finding as compilers print them
** (path:line:col: severity: message [rule-id]), then a summary line. The full form
** (opts->full) follows each line with the source lines of the span and a caret row (snippet.c),
** the notes and the fix's message, then a blank line; a finding about a whole file with no span
** of its own shows no source lines, nor does one whose file changed since the lint. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/arena.h"
#include "output/escape.h"
#include "output/output.h"

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The text of the file findings point into, one file at a time (findings come sorted by
** path): the run's, else the file read again, unless it changed since the run read it (its
** stamp), or, for a file the run did not read (a Helm template), was modified after the lint
** started. */
typedef struct text_source {
	const char *path;        /* the path looked up last (a finding's) */
	const sl_source *src;    /* its text, NULL when there is none to show */
	sl_source *owned;        /* read here */
} text_source;

static const sl_source *source_for(const sl_output_run *run, text_source *ts, const char *path)
{
	if (ts->path && strcmp(ts->path, path) == 0)
		return ts->src;
	sl_source_free(ts->owned);
	ts->owned = NULL;
	ts->path = path;
	sl_stamp stamp = {0};
	ts->src = run->source ? run->source(run->source_ctx, path, &stamp) : NULL;
	if (ts->src)
		return ts->src;
	/* a file the run let go of (streamed), a Helm template, a kustomization's patch */
	if (sl_source_read_file(path, path, &ts->owned) != SL_OK) {
		sl_source_free(ts->owned);
		ts->owned = NULL;
		return NULL;
	}
	const sl_stamp *now = &ts->owned->stamp;
	const struct timespec *at = &run->linted_at;
	bool later = now->mtime.tv_sec > at->tv_sec ||
		     (now->mtime.tv_sec == at->tv_sec && now->mtime.tv_nsec > at->tv_nsec);
	if (stamp.valid ? !now->valid || now->dev != stamp.dev || now->ino != stamp.ino ||
			  now->size != stamp.size || now->mtime.tv_sec != stamp.mtime.tv_sec ||
			  now->mtime.tv_nsec != stamp.mtime.tv_nsec
			: at->tv_sec && later) {
		sl_source_free(ts->owned);   /* changed since it was linted */
		ts->owned = NULL;
		return NULL;
	}
	ts->src = ts->owned;
	return ts->src;
}

/* The escape sequence that colours a severity ("" without colour). */
static const char *severity_color(const sl_output_options *opts, sl_severity sev)
{
	return !opts->color ? "" : sev == SL_SEV_ERROR ? "\033[1;31m"
		: sev == SL_SEV_WARNING ? "\033[1;33m" : "\033[1;36m";
}

/* --statistics: a row per rule and severity, most findings first, in aligned columns: the
** count, the rule id, the severity, and what fixes: "[*]" when --fix fixes every one of them,
** else "N fixable" (with --fix) and "N unsafe" (with --fix --unsafe-fixes). */
static void put_statistics(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	size_t n;
	sl_summary_row *rows = sl_summary_rules(run, &n);
	if (!rows) {
		fputs("(no statistics: out of memory)\n", out);
		return;
	}
	int wc = 1, wr = 1, ws = 1;
	for (size_t i = 0; i < n; i++) {
		char num[32];
		int l = snprintf(num, sizeof num, "%zu", rows[i].count);
		wc = l > wc ? l : wc;
		l = (int)strlen(rows[i].rule);
		wr = l > wr ? l : wr;
		l = (int)strlen(sl_severity_name(rows[i].severity));
		ws = l > ws ? l : ws;
	}
	const char *reset = opts->color ? "\033[0m" : "";
	for (size_t i = 0; i < n; i++) {
		const sl_summary_row *r = &rows[i];
		char fix[96] = "";
		if (r->fixable == r->count)
			snprintf(fix, sizeof fix, "[*]");
		else if (r->fixable)
			snprintf(fix, sizeof fix, "%zu fixable", r->fixable);
		if (r->unsafe_fixable)
			snprintf(fix + strlen(fix), sizeof fix - strlen(fix), "%s%zu unsafe",
				 *fix ? ", " : "", r->unsafe_fixable);
		fprintf(out, "%*zu  %-*s  %s%s%s", wc, r->count, wr, r->rule,
			severity_color(opts, r->severity), sl_severity_name(r->severity), reset);
		if (*fix)
			fprintf(out, "%*s  %s", ws - (int)strlen(sl_severity_name(r->severity)), "", fix);
		fputc('\n', out);
	}
	free(rows);
}

/* Writes each paragraph of notes ("\n"-separated) as a "= note:" line. */
static void put_notes(FILE *out, const char *notes, size_t width, bool full,
		      const sl_text_colors *c)
{
	for (const char *p = notes; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *para = sl_xstrndup(p, len);
		if (full) {
			sl_snippet_note(out, width, "note", para ? para : "?", c);
		} else {
			fputs("  = note: ", out);
			sl_escape_put(out, para ? para : "?", SL_SINK_TEXT);
			fputc('\n', out);
		}
		free(para);
		p += len + (nl != NULL);
	}
}

/* After the summary: the notices, a line per rule ("2 Helm charts not linted: a, b"), each
** notice under it with --show-notes (its message, then its notes). */
static sl_err put_notices(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	const sl_finding **order;
	size_t ng;
	sl_notice_group *g = sl_group_notices(run, &order, &ng);
	if (!g)
		return SL_ENOMEM;
	const char *col = severity_color(opts, SL_SEV_INFO), *reset = opts->color ? "\033[0m" : "";
	sl_err err = SL_OK;
	for (size_t k = 0; k < ng && !err; k++) {
		char *line = sl_group_notice_line(&g[k], SL_SINK_TEXT_LINE, SL_LINE_MAX);
		if (!line) {
			err = SL_ENOMEM;
			break;
		}
		fprintf(out, "%s%s%s\n", col, line, reset);
		free(line);
		for (size_t j = 0; opts->show_notes && j < g[k].n; j++) {
			const sl_finding *f = g[k].notices[j];
			fputs("  ", out);
			sl_escape_put(out, f->path, SL_SINK_TEXT);
			fprintf(out, ":%u:%u: ", f->line, f->column);
			sl_escape_put(out, f->message, SL_SINK_TEXT);
			fprintf(out, " [%s]\n", f->rule);
			put_notes(out, f->notes, 0, false, NULL);
		}
	}
	free(g);
	free(order);
	return err;
}

/* ":LINE:COL:" */
static void put_position(FILE *out, unsigned line, unsigned column)
{
	char buf[2 * 10 + 4], *p = buf + sizeof buf;
	*--p = ':';
	do
		*--p = (char)('0' + column % 10);
	while (column /= 10);
	*--p = ':';
	do
		*--p = (char)('0' + line % 10);
	while (line /= 10);
	*--p = ':';
	fwrite(p, 1, (size_t)(buf + sizeof buf - p), out);
}

sl_err sl_text_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	const char *bold = opts->color ? "\033[1m" : "", *reset = opts->color ? "\033[0m" : "";
	size_t n = run->n_findings;
	bool full = opts->version >= 2 && opts->full;
	text_source ts = {0};
	if (!opts->quiet) {
		for (size_t i = 0; i < n; i++) {
			const sl_finding *f = run->findings[i];
			const char *col = severity_color(opts, f->severity);
			const char *mark = !f->fix ? ""
				: f->fix->applicability == SL_FIX_SAFE ? " (fixable)" : " (unsafe fix)";
			fputs(bold, out);
			sl_escape_put(out, f->path, SL_SINK_TEXT_LINE);
			/* ":LINE:COL: SEVERITY: MESSAGE [RULE]": a line per finding, without printf */
			put_position(out, f->line, f->column);
			fputs(reset, out);
			fputc(' ', out);
			fputs(col, out);
			fputs(sl_severity_name(f->severity), out);
			fputc(':', out);
			fputs(reset, out);
			fputc(' ', out);
			sl_escape_put(out, f->message, SL_SINK_TEXT);
			fputs(" [", out);
			fputs(f->rule, out);
			fputc(']', out);
			fputs(mark, out);
			fputc('\n', out);
			if (!full) {
				if (opts->show_notes)
					put_notes(out, f->notes, 0, false, NULL);
				continue;
			}
			const sl_text_colors c = {opts->color ? "\033[1;34m" : "", col,
						  bold, reset};
			/* a finding about a whole file with no span (a node a Kustomize build made
			** from no file's line, a link not followed) has no lines to show */
			bool lines = f->document >= 0 || f->length;
			const sl_source *src = lines ? source_for(run, &ts, f->path) : NULL;
			size_t width = src ? sl_snippet_write(out, src, f, &c) : 0;
			put_notes(out, f->notes, width, true, &c);
			if (f->fix && f->fix->message)
				sl_snippet_note(out, width, "help", f->fix->message, &c);
			fputc('\n', out);
		}
	}
	sl_source_free(ts.owned);
	sl_summary s;
	sl_summary_count(run, &s);
	if (opts->statistics && n)
		put_statistics(run, opts, out);
	size_t unread = run->n_files - s.files;   /* their errors are above: not a clean run */
	if (!n && !unread) {
		fprintf(out, "No problems found in %zu %s.\n", s.files, plural(s.files, "file", "files"));
	} else {
		fprintf(out, "%zu %s, %zu %s", s.errors, plural(s.errors, "error", "errors"), s.warnings,
			plural(s.warnings, "warning", "warnings"));
		if (s.infos)
			fprintf(out, ", %zu %s", s.infos, plural(s.infos, "info", "infos"));
		fprintf(out, " in %zu %s", s.files, plural(s.files, "file", "files"));
		if (unread)
			fprintf(out, " (%zu not read)", unread);
		if (s.fixable)
			fprintf(out, "; %zu fixable with --fix", s.fixable);
		if (s.unsafe_fixable)
			fprintf(out, "; %zu more with --fix --unsafe-fixes", s.unsafe_fixable);
		fprintf(out, ".\n");
	}
	sl_err err = opts->quiet ? SL_OK : put_notices(run, opts, out);
	return err ? err : ferror(out) ? SL_EIO : SL_OK;
}
