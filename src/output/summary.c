/* SPDX-License-Identifier: Apache-2.0
** summary.c: the counts every output's summary shares (files, documents, findings by severity,
** fixable ones), and per rule for --statistics. */
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "output/output.h"

void sl_summary_count(const sl_output_run *run, sl_summary *out)
{
	memset(out, 0, sizeof *out);
	/* Files that could not be read are errors of the run, not linted files. */
	for (size_t i = 0; i < run->n_files; i++) {
		sl_file_info fi = run->files[i];
		if (fi.error)
			continue;
		out->files++;
		out->documents += fi.documents;
	}
	for (size_t i = 0; i < run->n_findings; i++) {
		const sl_finding *f = run->findings[i];
		switch (f->severity) {
		case SL_SEV_ERROR: out->errors++; break;
		case SL_SEV_WARNING: out->warnings++; break;
		default: out->infos++; break;
		}
		if (f->fix && f->fix->applicability == SL_FIX_SAFE)
			out->fixable++;
		else if (f->fix && f->fix->applicability == SL_FIX_UNSAFE)
			out->unsafe_fixable++;
	}
}

/* Most findings first, then by rule id and severity (most severe first). */
static int by_count(const void *a, const void *b)
{
	const sl_summary_row *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	int c = strcmp(x->rule, y->rule);
	return c ? c : (int)y->severity - (int)x->severity;
}

sl_summary_row *sl_summary_rules(const sl_output_run *run, size_t *n_out)
{
	sl_summary_row *rows = sl_xmalloc((run->n_findings ? run->n_findings : 1) * sizeof *rows);
	size_t n = 0;
	if (!rows)
		return NULL;
	for (size_t i = 0; i < run->n_findings; i++) {
		const sl_finding *f = run->findings[i];
		size_t r = 0;
		while (r < n && !(rows[r].severity == f->severity && strcmp(rows[r].rule, f->rule) == 0))
			r++;
		if (r == n)
			rows[n++] = (sl_summary_row){.rule = f->rule, .severity = f->severity};
		rows[r].count++;
		if (f->fix && f->fix->applicability == SL_FIX_SAFE)
			rows[r].fixable++;
		else if (f->fix && f->fix->applicability == SL_FIX_UNSAFE)
			rows[r].unsafe_fixable++;
	}
	qsort(rows, n, sizeof *rows, by_count);
	*n_out = n;
	return rows;
}
