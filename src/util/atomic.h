/* SPDX-License-Identifier: Apache-2.0
** atomic.h (private): the one atomic-file writer (schedlint/atomic.h) and its descriptor-level
** part, for fs/write.c: a fixed file's temporary file gets the old file's owner, mode and
** extended attributes, and a last look at the old file under its lock, before the rename. */
#ifndef SL_ATOMIC_H
#define SL_ATOMIC_H

#include <signal.h>
#include <stdbool.h>
#include "schedlint/atomic.h"

struct sl_atomic {
	char *dest;          /* what the temporary file is renamed to */
	char *tmp;           /* the temporary file; NULL: dest written in place (not a regular file) */
	int fd;              /* open on tmp (or dest) */
	FILE *out;           /* stdio over fd (sl_atomic_begin's), NULL at the descriptor level */
	sigset_t old;        /* the signal mask to restore */
};

/* The temporary file name for the file called base in dir: ".<base>.schedlint-XXXXXX", base
** shortened so that the name fits NAME_MAX (never inside a UTF-8 sequence). malloc'd; NULL on
** ENOMEM. */
char *sl_atomic_temp_name(const char *dir, const char *base);
/* Holds the signals, then creates the temporary file beside dest (mode 0600; a->fd open on it).
** SL_EIO (errno says why: then nothing is held or left), SL_ENOMEM. */
sl_err sl_atomic_start(sl_atomic *a, const char *dest);
/* Syncs a->fd, closes it and, when last_look(ctx) (NULL: none) still agrees, renames the
** temporary file over dest; else, or on a failure, removes it. Releases the signals. SL_OK;
** SL_EIO with errno (0 when last_look said no) and *what the step that failed ("fsync",
** "rename"; NULL for the close, or the last look). */
sl_err sl_atomic_finish(sl_atomic *a, bool (*last_look)(void *ctx), void *ctx, const char **what);
/* Closes and removes the temporary file; releases the signals. */
void sl_atomic_cancel(sl_atomic *a);

#endif
