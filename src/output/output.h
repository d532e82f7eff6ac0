/* SPDX-License-Identifier: Apache-2.0
** output.h (private): the reporters, one per output format, each writing a linted run. */
#ifndef SL_OUTPUT_H
#define SL_OUTPUT_H

#include <jansson.h>
#include <stdio.h>
#include "schedlint/lint.h"

sl_err sl_report_text(const sl_run *run, const sl_report_options *opts, FILE *out);
sl_err sl_report_json(const sl_run *run, const sl_report_options *opts, FILE *out);
sl_err sl_report_sarif(const sl_run *run, const sl_report_options *opts, FILE *out);
sl_err sl_report_github(const sl_run *run, const sl_report_options *opts, FILE *out);

/* An array of a JSON report written one element at a time: item(payload, i) makes element i
** (a new reference, NULL when out of memory). */
typedef struct sl_json_array {
	const char *key;
	size_t n;
	json_t *(*item)(void *payload, size_t i);
	void *payload;
} sl_json_array;
/* Writes skeleton (taking it) as json_dumpf(JSON_INDENT(2) | JSON_PRESERVE_ORDER) would, then a
** line break, with each array in arrays (in document order; each an empty array under its key
** in the skeleton, the first so keyed after the previous one) filled with its elements. */
sl_err sl_json_write_streamed(FILE *out, json_t *skeleton, const sl_json_array *arrays,
			      size_t n_arrays);

/* Counts shared by the reporters' summaries. */
typedef struct sl_summary {
	size_t files, documents, errors, warnings, infos, fixable, unsafe_fixable;
} sl_summary;
void sl_summary_count(const sl_run *run, sl_summary *out);

#endif
