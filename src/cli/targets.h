/* SPDX-License-Identifier: Apache-2.0
** targets.h (private): the reports one `check` run writes: `--format FORMAT[:FILE]`, repeated,
** and `-o FILE` (the file of the one report that names none). Each report file is written whole
** or not at all: a temp file beside it, opened before the lint (so a file that cannot be written
** is an error before any work), renamed over FILE when the report is complete. */
#ifndef SL_CLI_TARGETS_H
#define SL_CLI_TARGETS_H

#include <stdbool.h>
#include <stdio.h>
#include "schedlint/schedlint.h"

typedef struct sl_target {
	sl_format format;
	const char *path;   /* the report file, NULL: stdout */
	char *dest;         /* what the temp file is renamed to (path, or where its symlink points) */
	char *tmp;          /* the temp file; NULL when written in place (a device, a FIFO) */
	FILE *out;          /* open after sl_targets_open; NULL for stdout */
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
/* Opens every report file's temp file (before the lint); prints what failed, naming the file,
** and returns false (then nothing is left behind). */
bool sl_targets_open(sl_targets *r);
/* Finishes report i. written: the report is complete; the temp file is flushed, synced and
** renamed over the report file (stdout: flushed); on failure it is removed and why is printed,
** naming the file. Not written (the caller said why): the temp file is removed, silently. True
** when the report is in place. */
bool sl_targets_close(sl_targets *r, size_t i, bool written);
/* Removes the temp files still open (an error before the reports were written) and frees r. */
void sl_targets_free(sl_targets *r);

#endif
