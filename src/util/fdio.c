/* SPDX-License-Identifier: Apache-2.0
** fdio.c: reads and writes on a descriptor that a signal does not cut short (schedlint/fdio.h):
** EINTR retried, partial transfers continued where all the bytes are wanted, EAGAIN returned. */
#include <errno.h>
#include <unistd.h>
#include "schedlint/fdio.h"

ssize_t sl_fdio_read(int fd, void *buf, size_t n)
{
	for (;;) {
		ssize_t r = read(fd, buf, n);
		if (r >= 0 || errno != EINTR)
			return r;
	}
}

/* Moves n bytes between fd and buf: read(2) or, out, write(2); pread(2) or pwrite(2) at offset
** at when it is not negative. The bytes moved: fewer than n only when a read met the end; -1
** with errno on an error (EIO for a write that took no byte: never spin). */
static ssize_t move(int fd, char *buf, size_t n, off_t at, bool out)
{
	size_t done = 0;
	while (done < n) {
		char *p = buf + done;
		off_t o = at + (off_t)done;
		ssize_t r = out ? (at < 0 ? write(fd, p, n - done) : pwrite(fd, p, n - done, o))
				: (at < 0 ? read(fd, p, n - done) : pread(fd, p, n - done, o));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0 && out) {
			errno = EIO;
			return -1;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

ssize_t sl_fdio_read_all(int fd, void *buf, size_t n)
{
	return move(fd, buf, n, -1, false);
}

ssize_t sl_fdio_pread_all(int fd, void *buf, size_t n, off_t at)
{
	if (at < 0) {
		errno = EINVAL;
		return -1;
	}
	return move(fd, buf, n, at, false);
}

bool sl_fdio_write_all(int fd, const void *buf, size_t n)
{
	return move(fd, (char *)buf, n, -1, true) >= 0;
}

bool sl_fdio_pwrite_all(int fd, const void *buf, size_t n, off_t at)
{
	if (at < 0) {
		errno = EINVAL;
		return false;
	}
	return move(fd, (char *)buf, n, at, true) >= 0;
}
