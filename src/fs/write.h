/* SPDX-License-Identifier: Apache-2.0
** write.h: writing a fixed file over the one that was read, or refusing with the reason. The
** write goes to the file a path names (a symlink's target, never over the link), stays inside
** the root the file was found under, keeps owner, group, mode (setuid bits included) and
** extended attributes (ACLs are xattrs), and happens only when the file is still the one read:
** same device and inode, size, mtime and content, checked under an exclusive lock right before
** the rename, so two runs fixing the same files never lose one run's fix. Read-only files and
** files with several hard links are not rewritten. The write itself is util/atomic.h's, the one
** atomic-file writer (reports use it too): a temporary file beside the target, and the signals
** that would end the process held until it has been renamed or removed, in the calling thread
** (the command line writes after the lint passes have joined their threads). */
#ifndef SL_WRITE_H
#define SL_WRITE_H

#include <stddef.h>
#include "yaml/source.h"

/* Writes data[0..len) over the file at path, which was read as orig (its stamp and text; NULL
** skips the change check). root: the real path of the directory the file must stay inside
** (NULL: anywhere). SL_OK, or SL_EIO with *why (malloc'd; may be NULL on ENOMEM) saying why
** nothing was written; SL_ENOMEM. On failure the file is untouched and no temporary file is
** left. */
sl_err sl_write_fixed(const char *path, const char *root, const sl_source *orig, const char *data,
		      size_t len, char **why);

/* True when the real path real lies inside directory root (also a real path). */
bool sl_write_path_within(const char *real, const char *root);

#endif
