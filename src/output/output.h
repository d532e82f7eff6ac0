/* SPDX-License-Identifier: Apache-2.0
** output.h (private): what a linted run writes, one writer per format. The writers read the
** run as run.c hands it over (sl_output_run), never the run itself: output/ uses nothing of the
** engine and run.c nothing of a format but sl_output_write. */
#ifndef SL_OUTPUT_H
#define SL_OUTPUT_H

#include <jansson.h>
#include <stdio.h>
#include "schedlint/lint.h"
#include "output/escape.h"
#include "yaml/source.h"

/* A linted run as the public API gives it: its findings in sorted order, its notices (the
** notice rules': sl_run_notice) in the same order, and its files. */
typedef struct sl_output_run {
	const sl_finding *const *findings;
	size_t n_findings;
	const sl_finding *const *notices;
	size_t n_notices;
	const sl_file_info *files;
	size_t n_files;
	/* The text a finding's path points into when the run still holds it (stdin, a buffer, a
	** file it did not stream, a fixed text; the file's own, never the text of a Kustomize build
	** linted under its kustomization's path), else NULL; *stamp gets the file as the run last
	** read it from disk (valid false when it did not), so a writer that reads the file again
	** (full text output) can tell that it changed. NULL: the run holds no text. */
	const sl_source *(*source)(const void *ctx, const char *path, sl_stamp *stamp);
	const void *source_ctx;
	/* When the lint started: a file the run did not read itself (a Helm template) modified
	** later has changed since. Zero: unknown. */
	struct timespec linted_at;
} sl_output_run;

/* Writes run in opts->format (output.c: a table of the writers below). SL_EUSAGE for a format
** no writer has; SL_EIO, SL_ENOMEM. */
sl_err sl_output_write(const sl_output_run *run, const sl_output_options *opts, FILE *out);

sl_err sl_text_write(const sl_output_run *run, const sl_output_options *opts, FILE *out);
sl_err sl_json_write(const sl_output_run *run, const sl_output_options *opts, FILE *out);
sl_err sl_sarif_write(const sl_output_run *run, const sl_output_options *opts, FILE *out);
sl_err sl_github_write(const sl_output_run *run, const sl_output_options *opts, FILE *out);
sl_err sl_gitlab_write(const sl_output_run *run, const sl_output_options *opts, FILE *out);
sl_err sl_junit_write(const sl_output_run *run, const sl_output_options *opts, FILE *out);
sl_err sl_markdown_write(const sl_output_run *run, const sl_output_options *opts, FILE *out);

/* An array of a JSON report written one element at a time: item(payload, i) makes element i
** (a new reference, NULL when out of memory). A NULL key: the skeleton is this array, empty. */
typedef struct sl_json_array {
	const char *key;
	size_t n;
	json_t *(*item)(void *payload, size_t i);
	void *payload;
} sl_json_array;
/* Writes skeleton (taking it) as json_dumpf(JSON_INDENT(2) | JSON_PRESERVE_ORDER) would, then a
** line break, with each array in arrays (in document order; each an empty array under its key
** in the skeleton, the first so keyed after the previous one) filled with its elements. */
sl_err sl_stream_write_json(FILE *out, json_t *skeleton, const sl_json_array *arrays,
			      size_t n_arrays);

/* A finding's fingerprints (fingerprint.c): keyed on rule, object identity and JSON pointer,
** never on a position, so they survive edits elsewhere in the file.
** partial: 64 hex digits, ":" and k, where k counts the findings of the same file with the same
**   hash so far (as GitHub's primaryLocationLineHash does): SARIF's partialFingerprints, which
**   a viewer combines with the file.
** global: 64 hex digits, the hash of the path and partial: unique in the run, stable across
**   runs (GitLab Code Quality's fingerprint). */
typedef struct sl_fingerprint {
	char partial[88];
	char global[65];
} sl_fingerprint;
/* One per finding of run, in its order (malloc'd); NULL when out of memory. */
sl_fingerprint *sl_fingerprint_all(const sl_output_run *run);

/* Findings or files grouped by a string (a path, a rule): sl_group_sort orders e[0..n) by key
** (strcmp), then by i; sl_group_find gives the first position whose key is not below key, and
** sl_group_end the end of the run of entries from `from` whose key is key. */
typedef struct sl_group_entry {
	const char *key;
	size_t i;   /* the finding's (the file's) index in the run */
} sl_group_entry;
void sl_group_sort(sl_group_entry *e, size_t n);
size_t sl_group_find(const sl_group_entry *e, size_t n, const char *key);
size_t sl_group_end(const sl_group_entry *e, size_t n, size_t from, const char *key);

/* The run's notices grouped by rule, for the reports that give one line per group (text,
** github, markdown): rule id order; in each group its notices in the run's order (by path). */
typedef struct sl_notice_group {
	const char *rule;
	const sl_finding *const *notices;   /* the group's, in the run's order */
	size_t n;
	size_t n_paths;      /* the files among them (a kustomization may hold several notices) */
} sl_notice_group;
/* The groups (*n_out of them) and, in *order, the notices they point into (free both); NULL
** when out of memory. */
sl_notice_group *sl_group_notices(const sl_output_run *run, const sl_finding ***order, size_t *n_out);
/* The line that stands for group g, escaped for sink, of at most max characters (code points):
** "2 Helm charts not linted: charts/a/Chart.yaml, charts/b/Chart.yaml", the rule's words
** (sl_rule_notice) after the number of files, then as many of the files as fit (without a
** leading "./"), then "… and K more". Malloc'd; NULL when out of memory. */
char *sl_group_notice_line(const sl_notice_group *g, sl_sink sink, size_t max);
/* The longest first line of a message (and of a notice group's line): spec/cli.md. */
#define SL_LINE_MAX 160

/* Escape sequences of full text output ("" each without colour). */
typedef struct sl_text_colors {
	const char *gutter, *caret, *label, *reset;
} sl_text_colors;
/* Writes the source lines of f's span in src with a caret row under each (snippet.c); returns
** the width of the line numbers in the gutter, or 0, writing nothing, when f's positions do not
** fit src (it changed since it was linted). */
size_t sl_snippet_write(FILE *out, const sl_source *src, const sl_finding *f,
			const sl_text_colors *c);
/* Writes "= label: text" under a snippet whose gutter is width wide (text escaped). */
void sl_snippet_note(FILE *out, size_t width, const char *label, const char *text,
		     const sl_text_colors *c);

/* Counts shared by the reporters' summaries. */
typedef struct sl_summary {
	size_t files, documents, errors, warnings, infos, fixable, unsafe_fixable;
} sl_summary;
void sl_summary_count(const sl_output_run *run, sl_summary *out);
/* The findings per rule and severity (a rule a config sets to another severity for some files
** is a row per severity), with how many --fix and --fix --unsafe-fixes would fix: most findings
** first, then by rule id. */
typedef struct sl_summary_row {
	const char *rule;
	sl_severity severity;
	size_t count, fixable, unsafe_fixable;
} sl_summary_row;
/* The rows (*n_out of them; malloc'd), NULL when out of memory. */
sl_summary_row *sl_summary_rules(const sl_output_run *run, size_t *n_out);

#endif
