/* SPDX-License-Identifier: Apache-2.0
** targets.h (private): the reports one `check` run writes: `--format FORMAT[:FILE]`, repeated,
** and `-o FILE` (the file of the one report that names none). Each report file is written whole
** or not at all (schedlint/atomic.h): checked before the lint (so a file that cannot be written
** is an error before any work), written to a temp file beside it and renamed over FILE when the
** report is complete. */
#ifndef SL_CLI_TARGETS_H
#define SL_CLI_TARGETS_H

#include <stdbool.h>
#include <stdio.h>
#include "schedlint/schedlint.h"

typedef struct sl_target {
	sl_format format;
	const char *path;   /* the report file, NULL: stdout */
	sl_atomic *file;    /* its write, from sl_targets_begin to sl_targets_close */
	FILE *out;          /* where it goes then; NULL for stdout */
} sl_target;

typedef struct sl_targets {
	sl_target *v;
	size_t n;
} sl_targets;

/* Adds the report of one --format value, FORMAT or FORMAT:FILE ("-" as FILE: stdout). NULL on
** success, else why not (a static string with one %s for spec: unknown format, empty FILE). */
const char *sl_targets_add(sl_targets *r, const char *spec);
/* After the options: text to stdout when no --format was given; -o FILE (output, may be NULL)
** given to the one report without a FILE. NULL on success, else the usage error (malloc'd):
** two reports to stdout, two to one file, -o with no report to give it to. */
char *sl_targets_plan(sl_targets *r, const char *output);
/* Checks every report file can be written (before the lint: sl_atomic_check); prints what
** failed, naming the file, and returns false (nothing is left behind). */
bool sl_targets_open(sl_targets *r);
/* Starts report i: where to write it (stdout, or the temp file of its file: the signals that end
** the process wait from here to sl_targets_close); NULL, with why printed, when it cannot. */
FILE *sl_targets_begin(sl_targets *r, size_t i);
/* Finishes report i. written: the report is complete; its temp file is flushed, synced and
** renamed over the report file (stdout: flushed); on failure it is removed and why is printed,
** naming the file. Not written (the caller said why): the temp file is removed, silently. True
** when the report is in place. */
bool sl_targets_close(sl_targets *r, size_t i, bool written);
/* Removes the temp files still open (an error while the reports were written) and frees r. */
void sl_targets_free(sl_targets *r);

#endif
