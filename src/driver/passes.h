/* SPDX-License-Identifier: Apache-2.0
** passes.h (private): the passes of a lint run over its files (the engine's), from reading them
** to the sorted findings. run.c adds the inputs and answers the public API; fixer.c lints again
** after each round of fixes. */
#ifndef SL_PASSES_H
#define SL_PASSES_H

#include "lint/engine.h"
#include "driver/scopes.h"

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
/* The inputs, as run.c adds them (the records are the passes' to write): */
/* A file to read in pass 1, under root (the real directory it was found under, which a fix
** must not leave; borrowed); context: one of the project's other files, read for facts only.
** SL_ENOMEM. */
sl_err sl_passes_add_path(sl_passes *p, const char *path, const char *root, bool context);
/* A path that cannot be linted: its error "cannot read: <errnum's text>", or msg when not NULL.
** SL_ENOMEM. */
sl_err sl_passes_add_error(sl_passes *p, const char *path, int errnum, const char *msg);
/* A symlink a walk found leading out of its tree (a directory when is_dir): never read, its
** record holds an empty text and gets the symlink-outside-tree notice. SL_ENOMEM. */
sl_err sl_passes_add_outside(sl_passes *p, const char *path, bool is_dir);
/* What fd holds, read now, as display_path (a file of that name: the buffer stands for it); a
** read error is the record's. SL_ENOMEM. */
sl_err sl_passes_add_fd(sl_passes *p, int fd, const char *display_path);
/* A copy of data[0..len), as path (standing for the file of that name). SL_ENOMEM. */
sl_err sl_passes_add_buffer(sl_passes *p, const char *path, const char *data, size_t len);
/* The inputs are `helm template` output of the chart in dir (sl_helm_new). SL_EUSAGE when a chart
** was set already, or dir holds no Chart.yaml (*error_out); SL_ENOMEM. */
sl_err sl_passes_set_helm_chart(sl_passes *p, const char *dir, char **error_out);
/* The files' serving facts outlive the serving table: a project read once, for other runs. */
void sl_passes_keep_facts(sl_passes *p);
/* Kustomize over the files (sl_kustomize_arrange): with build, the kustomizations built and each
** build added as a file linted in the place of those it uses; then the files sorted by path.
** project: the run reads a project for other runs. seen: what the walks listed (borrowed).
** SL_ENOMEM. */
sl_err sl_passes_arrange(sl_passes *p, bool build, bool project, const sl_walk_seen *seen);
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
