/* SPDX-License-Identifier: Apache-2.0
** report.h (private): the reporters, one per output format, each writing a linted run. */
#ifndef SL_REPORT_H
#define SL_REPORT_H

#include <stdio.h>
#include "schedlint/lint.h"

sl_err sl_report_text(const sl_run *run, const sl_report_options *opts, FILE *out);
sl_err sl_report_json(const sl_run *run, const sl_report_options *opts, FILE *out);
sl_err sl_report_sarif(const sl_run *run, const sl_report_options *opts, FILE *out);
sl_err sl_report_github(const sl_run *run, const sl_report_options *opts, FILE *out);

/* Counts shared by the reporters' summaries. */
typedef struct sl_summary {
	size_t files, documents, errors, warnings, infos, fixable, unsafe_fixable;
} sl_summary;
void sl_summary_count(const sl_run *run, sl_summary *out);

#endif
