/* SPDX-License-Identifier: Apache-2.0
** atomic.h: a file written whole or not at all, as schedlint writes fixed files and reports:
** the bytes go to a temporary file beside it (".<name>.schedlint-XXXXXX"), which is synced and
** renamed over it; until then the file keeps what it held (or does not exist). The signals
** that would end the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ) wait from the
** temporary file's creation until it is renamed or removed, so an interrupted process leaves
** neither half a file nor a temporary one: they are held in the calling thread, so write when
** no other thread of the program could take them, and keep the write short. */
#ifndef SCHEDLINT_ATOMIC_H
#define SCHEDLINT_ATOMIC_H

#include <stdio.h>
#include "schedlint/error.h"
#include "schedlint/export.h"

typedef struct sl_atomic sl_atomic;

/* Whether path can be written, without writing it: the temporary file is created and removed
** beside it; a device or a FIFO must be writable as it is; a directory is refused, and so is a
** symbolic link (sl_atomic_begin). SL_EIO with *why (malloc'd, may be NULL: out of memory)
** saying why not, else SL_OK. */
SL_API sl_err sl_atomic_check(const char *path, char **why);
/* Starts writing path: *out is where the bytes go. A device or a FIFO is written in place (no
** rename over it: /dev/stdout); a new file gets the mode of the file it replaces, else 0666 less
** the umask. In the working directory's tree a symbolic link is never followed: path may not be
** one, nor any directory of it below the working directory (a repository could commit either
** and make a CI job write wherever it leads): SL_EIO, "it is a symbolic link ...". A link
** outside that tree (/dev/stdout redirected to a file) is written through, the link kept.
** Signals are held from here. SL_EIO with *why (malloc'd) when the temporary file cannot be
** made; SL_ENOMEM. */
SL_API sl_err sl_atomic_begin(const char *path, sl_atomic **a, FILE **out, char **why);
/* Flushes, syncs and renames: path holds what was written. On failure (a write, the sync or the
** rename) the temporary file is removed, path keeps what it held, and *why (malloc'd) says why:
** SL_EIO. The signals are released and a is freed either way. */
SL_API sl_err sl_atomic_commit(sl_atomic *a, char **why);
/* Removes the temporary file (path is untouched), releases the signals and frees a. NULL is a
** no-op. */
SL_API void sl_atomic_abort(sl_atomic *a);

#endif
