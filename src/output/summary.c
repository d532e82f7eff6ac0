/* SPDX-License-Identifier: Apache-2.0
** summary.c: the counts every output's summary shares (files, documents, findings by severity,
** fixable ones). */
#include <string.h>
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
