/* SPDX-License-Identifier: Apache-2.0
** write.c: the one way a fixed file reaches the disk (write.h). The order matters: resolve the
** path, refuse what must not be rewritten, lock, write a temporary file beside the target with
** the target's owner, group, mode and xattrs, fsync it, check the target is still what was
** read, rename. Signals that end the process are held from the temporary file's creation until
** it is renamed or removed, so an interrupted run leaves neither a half-written file nor a
** temporary one. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "schedlint/fdio.h"
#include "util/hash.h"
#include "util/arena.h"
#include "fs/write.h"
#include "util/atomic.h"

bool sl_write_path_within(const char *real, const char *root)
{
	size_t rl = strlen(root);
	if (rl == 1 && root[0] == '/')
		return real[0] == '/';
	return strncmp(real, root, rl) == 0 && real[rl] == '/';
}

/* Copies every extended attribute of from to to; false with *name set to the one that failed. */
static bool copy_xattrs(int from, int to, char **failed, int *err)
{
	ssize_t n = flistxattr(from, NULL, 0);
	if (n < 0) {
		/* a file system without xattrs has none to keep */
		*err = errno;
		return errno == ENOTSUP;
	}
	if (n == 0)
		return true;
	char *names = sl_xmalloc((size_t)n);
	if (!names) {
		*err = ENOMEM;
		return false;
	}
	n = flistxattr(from, names, (size_t)n);
	bool ok = n >= 0;
	if (!ok)
		*err = errno;
	for (ssize_t p = 0; ok && p < n; p += (ssize_t)strlen(names + p) + 1) {
		const char *name = names + p;
		ssize_t vl = fgetxattr(from, name, NULL, 0);
		char *v = vl >= 0 ? sl_xmalloc(vl ? (size_t)vl : 1) : NULL;
		if (v)
			vl = fgetxattr(from, name, v, (size_t)vl);
		if (!v || vl < 0 || fsetxattr(to, name, v, (size_t)vl, 0) != 0) {
			*err = v ? errno : ENOMEM;
			*failed = sl_xstrdup(name);
			ok = false;
		}
		free(v);
	}
	free(names);
	return ok;
}

/* True when the file open as fd holds exactly the bytes of orig (hash and length). */
static bool same_content(int fd, const sl_source *orig)
{
	uint64_t h = SL_HASH_INIT;
	char buf[64 * 1024];
	size_t total = 0;
	off_t off = 0;
	for (;;) {
		ssize_t r = sl_fdio_pread_all(fd, buf, sizeof buf, off);
		if (r < 0)
			return false;
		h = sl_hash_bytes(h, buf, (size_t)r);
		total += (size_t)r;
		off += r;
		if ((size_t)r < sizeof buf)   /* the end */
			break;
	}
	return total == orig->len && h == sl_hash_bytes(SL_HASH_INIT, orig->data, orig->len);
}

/* True when the file open as fd, still named real, is the one read as orig, unchanged. */
static bool unchanged(int fd, const char *real, const sl_source *orig)
{
	struct stat now, named;
	if (fstat(fd, &now) != 0 || stat(real, &named) != 0)
		return false;
	if (now.st_dev != named.st_dev || now.st_ino != named.st_ino)
		return false;   /* the path names another file now (renamed over) */
	if (!orig)
		return true;
	const sl_stamp *s = &orig->stamp;
	if (s->valid && (now.st_dev != s->dev || now.st_ino != s->ino || now.st_size != s->size ||
			 now.st_mtim.tv_sec != s->mtime.tv_sec || now.st_mtim.tv_nsec != s->mtime.tv_nsec))
		return false;
	return same_content(fd, orig);
}

/* Writes the temporary file (tfd) as the replacement of the target (fd, st): content, owner,
** group, mode, xattrs, fsync. False with *why (errno-based, or a refusal) when it cannot. */
static bool fill_temp(int tfd, int fd, const struct stat *st, const char *data, size_t len,
		      char **why)
{
#define FAIL(...) do { *why = sl_xprintf(__VA_ARGS__); return false; } while (0)
	struct stat ts;
	if (fstat(tfd, &ts) != 0)
		FAIL("%s", strerror(errno));
	/* owner and group first: chown clears the setuid bits fchmod sets after it */
	if ((ts.st_uid != st->st_uid || ts.st_gid != st->st_gid) &&
	    fchown(tfd, st->st_uid, st->st_gid) != 0) {
		if (ts.st_uid != st->st_uid)
			FAIL("it belongs to another user (uid %u), and schedlint cannot give the rewritten "
			     "file that owner: not written", (unsigned)st->st_uid);
		FAIL("its group (gid %u) cannot be kept by a rewrite: not written", (unsigned)st->st_gid);
	}
	if (!sl_fdio_write_all(tfd, data, len))
		FAIL("%s", strerror(errno));
	if (fchmod(tfd, st->st_mode & 07777) != 0)
		FAIL("cannot keep its mode %o: %s", (unsigned)(st->st_mode & 07777), strerror(errno));
	char *name = NULL;
	int xe = 0;
	if (!copy_xattrs(fd, tfd, &name, &xe)) {
		*why = sl_xprintf("cannot keep its extended attribute%s%s (%s): not written",
				  name ? " " : "s", name ? name : "", strerror(xe));
		free(name);
		return false;
	}
	return true;
#undef FAIL
}

#define CHANGED_WHY "it changed since it was read (another program or run wrote it): not " \
	"written, so that change is kept; run again"

/* The last look before the rename (sl_atomic_finish): the file is still the one read. */
struct last_look {
	int fd;
	const char *real;
	const sl_source *orig;
};

static bool still_unchanged(void *ctx)
{
	const struct last_look *l = ctx;
	return unchanged(l->fd, l->real, l->orig);
}

sl_err sl_write_fixed(const char *path, const char *root, const sl_source *orig, const char *data,
		      size_t len, char **why)
{
	*why = NULL;
	bool bad = true;
	char *real = realpath(path, NULL);
	if (!real) {
		*why = sl_xprintf("%s", strerror(errno));
		return SL_EIO;
	}
	if (root && !sl_write_path_within(real, root)) {
		*why = sl_xprintf("it leads to %s, outside the paths given (a symlink): not written", real);
		free(real);
		return SL_EIO;
	}
	int fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		*why = sl_xprintf("%s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		*why = sl_xprintf("not a regular file: not written");
	else if (st.st_nlink > 1)
		*why = sl_xprintf("it has %lu hard links, and writing the fix as a new file would split "
				  "them: not written (fix it through stdin with `fmt -`, or unlink the "
				  "other names)", (unsigned long)st.st_nlink);
	else if (!(st.st_mode & 0222) || faccessat(AT_FDCWD, real, W_OK, AT_EACCESS) != 0)
		*why = sl_xprintf("it is read-only (no write permission): not written");
	else if (flock(fd, LOCK_EX) != 0)
		*why = sl_xprintf("cannot lock it: %s", strerror(errno));
	else if (!unchanged(fd, real, orig))
		*why = sl_xprintf(CHANGED_WHY);
	else
		bad = false;
	if (bad) {
		if (fd >= 0)
			close(fd);
		free(real);
		return SL_EIO;
	}
	/* From the temporary file's creation until it is renamed or removed, a signal that would
	** end the process waits (util/atomic.h). */
	sl_atomic a = {.dest = real, .fd = -1};
	sl_err err = sl_atomic_start(&a, real);
	if (err == SL_EIO) {
		*why = sl_xprintf("%s", strerror(errno));
	} else if (!err && !fill_temp(a.fd, fd, &st, data, len, why)) {
		sl_atomic_cancel(&a);
		err = SL_EIO;
	} else if (!err) {
		/* the last look, under the lock, right before the rename */
		struct last_look look = {fd, real, orig};
		const char *what;
		err = sl_atomic_finish(&a, still_unchanged, &look, &what);
		if (err && errno)
			*why = sl_xprintf("%s", strerror(errno));
		else if (err)
			*why = sl_xprintf(CHANGED_WHY);
	}
	close(fd);   /* releases the lock */
	free(a.tmp);
	free(real);
	return err;
}
