/* SPDX-License-Identifier: Apache-2.0
** fdio.h: reads and writes on a descriptor that a signal does not cut short, as schedlint reads
** files, standard input and the language server's pipe, and writes fixed files and its
** messages: a call a signal interrupted (EINTR) is made again; one that moved part of the
** bytes is continued where the caller wants them all. Nothing is waited for: a non-blocking
** descriptor with nothing to read (a FIFO opened so that it cannot hang) fails with EAGAIN.
** n is at most SSIZE_MAX. */
#ifndef SCHEDLINT_FDIO_H
#define SCHEDLINT_FDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "schedlint/export.h"

/* One read(2) of at most n bytes into buf: the bytes read (0: the end of the input), or -1 with
** errno. For a reader that takes what comes (a pipe's message, a chunk to copy on). */
SL_API ssize_t sl_fdio_read(int fd, void *buf, size_t n);
/* Reads until n bytes came or the input ended: the bytes read, fewer than n only at its end;
** -1 with errno on an error (the bytes before it are in buf, their count not told). */
SL_API ssize_t sl_fdio_read_all(int fd, void *buf, size_t n);
/* sl_fdio_read_all from offset at of fd (pread(2): the file offset is not moved). */
SL_API ssize_t sl_fdio_pread_all(int fd, void *buf, size_t n, off_t at);
/* Writes all n bytes of buf: true, or false with errno (EIO for a write that took no byte). */
SL_API bool sl_fdio_write_all(int fd, const void *buf, size_t n);
/* sl_fdio_write_all at offset at of fd (pwrite(2): the file offset is not moved). */
SL_API bool sl_fdio_pwrite_all(int fd, const void *buf, size_t n, off_t at);

#endif
