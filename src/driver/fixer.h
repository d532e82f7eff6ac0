/* SPDX-License-Identifier: Apache-2.0
** fixer.h (private): the fix rounds of a linted run (sl_run_fix). */
#ifndef SL_FIXER_H
#define SL_FIXER_H

#include "driver/passes.h"

/* Applies the fixes of p's findings to its files' text in rounds, linting again after each,
** until a round has nothing to apply (*converged) or opts->max_passes rounds (0: 10) ran;
** *applied gets the number of fixes applied (both may be NULL). p must be a whole run, linted.
** SL_ENOMEM; SL_EINTERNAL for an invalid fix. */
sl_err sl_fixer_fix(sl_passes *p, const sl_fix_options *opts, size_t *applied, bool *converged);
/* Makes text (taken) f's text, the text as read kept as its original: what a fix round, or
** --add-suppressions (run_suppress.c), does to a file. */
void sl_fixer_replace(sl_file *f, sl_source *text);
/* True when fixes changed f's text (f->src differs from f->orig). */
bool sl_fixer_changed(const sl_file *f);
/* Writes f's fixed text over its file (fs/write.h: atomically, its identity kept, a change since
** the read refused), when fixes changed it; why it was not written in f->write_error. SL_EIO,
** SL_ENOMEM. */
sl_err sl_fixer_write(sl_file *f);
/* Writes the unified diff of f's fixes to out (nothing when unchanged), its name escaped in the
** headers. SL_EIO, SL_ENOMEM. */
sl_err sl_fixer_diff(const sl_file *f, FILE *out);

#endif
