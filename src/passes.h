/* SPDX-License-Identifier: Apache-2.0
** passes.h (private): the passes of a lint run over its files (the engine's), from reading them
** to the sorted findings. run.c adds the inputs and answers the public API; fixer.c lints again
** after each round of fixes. */
#ifndef SL_PASSES_H
#define SL_PASSES_H

#include "engine.h"

/* What the passes work on and what they give: the engine (files, index, rule severities), the
** threads to use, and every file's findings sorted (path, line, column, rule, message): those of
** notice rules (rule.h, .notice) apart from the others. */
typedef struct sl_passes {
	sl_engine eng;
	unsigned jobs;               /* threads for the passes */
	sl_frec **sorted;            /* the findings */
	size_t n_sorted;
	sl_frec **notices;           /* what the notice rules reported, in the same order */
	size_t n_notices;
	void (*progress)(void *ctx, size_t done, size_t total);   /* sl_run_options' */
	void *progress_ctx;
	pthread_mutex_t progress_lock;   /* one call at a time, done counted under it */
	size_t done, total;              /* files through, of the inputs, in this lint */
	struct timespec started;         /* when the first lint started (CLOCK_REALTIME) */
} sl_passes;

/* Sets p up for a run under cfg with opts (threads, streaming, select/ignore). On an error the
** caller still frees p (sl_passes_free). SL_EUSAGE, SL_ECONFIG (with *error_out), SL_ENOMEM. */
sl_err sl_passes_init(sl_passes *p, const sl_config *cfg, const sl_run_options *opts,
		      char **error_out);
/* A new file record for path (the record and its path in one block), appended to the files;
** NULL when out of memory (or past UINT32_MAX files). */
sl_file *sl_passes_new_file(sl_passes *p, const char *path);
/* A context record in p standing for from, a context file of another engine that read the
** project once and outlives p: its identity, and the objects (or digests) and serving facts
** the index takes from it, borrowed. NULL when out of memory. */
sl_file *sl_passes_borrow(sl_passes *p, const sl_file *from);
/* Every pass over every file (in their order, which the caller sorts), then p->sorted and
** p->notices.
** SL_ENOMEM or SL_EINTERNAL; findings are not errors. */
sl_err sl_passes_lint(sl_passes *p);
/* Forgets everything derived from the files' text (trees, findings, index, p->sorted and
** p->notices), so that
** sl_passes_lint can lint them again. */
sl_err sl_passes_forget(sl_passes *p);
/* Frees the files, the index and the findings (not p itself). */
void sl_passes_free(sl_passes *p);

#endif
