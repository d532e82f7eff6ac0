/* SPDX-License-Identifier: Apache-2.0
** openlog.c: an LD_PRELOAD shim that records every file a process opens, stats or writes, for
** tests/hostile/run.py to check that nothing outside a case's allowed roots is touched.
**
** Set SL_OPENLOG=FILE; each call appends one line "OP\tPATH\tREAL\tFLAGS\tRESULT\n" to FILE
** (one write(2) per line, O_APPEND: threads and child processes interleave whole lines):
**   OP      open, opendir, fopen, stat, lstat, access, readlink, realpath, rename, unlink,
**           mkstemp
**   PATH    what was asked, made absolute (a relative path joined to the working directory, or
**           to the directory an openat descriptor names) and cut at NUL, tab and newline
**   REAL    for a descriptor that was opened, what it really is (/proc/self/fd/N), so a
**           symbolic link followed to another file shows where it went; "-" otherwise
**   FLAGS   open's flags in hex (O_NONBLOCK, O_NOFOLLOW... are checked by some cases); 0
**   RESULT  the descriptor or 0 on success, -errno on failure
** The shim calls the next definition of each function (libc's, or a sanitizer's interceptor) and
** changes nothing of what the process sees, errno included. It is not built with sanitizers. */
#undef _FILE_OFFSET_BITS   /* open and open64 are both defined here: no redirection */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int log_fd = -1;
static __thread int busy;   /* the shim's own calls are not recorded */

__attribute__((constructor)) static void openlog_init(void)
{
	const char *p = getenv("SL_OPENLOG");
	if (p && *p)
		log_fd = (int)syscall(SYS_openat, AT_FDCWD, p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
				      0600);
}

/* Appends s to buf at *w, tabs and newlines and control bytes replaced by '?'. */
static void put(char *buf, size_t cap, size_t *w, const char *s)
{
	for (; s && *s && *w + 1 < cap; s++)
		buf[(*w)++] = (unsigned char)*s < 0x20 ? '?' : *s;
}

/* The absolute form of path as seen from dirfd. */
static void absolute(char *out, size_t cap, int dirfd, const char *path)
{
	out[0] = '\0';
	if (!path)
		return;
	if (path[0] == '/') {
		snprintf(out, cap, "%s", path);
		return;
	}
	char dir[PATH_MAX] = "";
	if (dirfd == AT_FDCWD) {
		if (!getcwd(dir, sizeof dir))
			snprintf(dir, sizeof dir, "?cwd");
	} else {
		char link[64];
		snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
		ssize_t n = readlink(link, dir, sizeof dir - 1);
		dir[n > 0 ? n : 0] = '\0';
	}
	snprintf(out, cap, "%s/%s", dir, path);
}

static void record(const char *op, int dirfd, const char *path, int fd, long flags, long result)
{
	if (log_fd < 0 || busy)
		return;
	busy = 1;
	int saved = errno;
	static const size_t cap = 3 * PATH_MAX + 128;
	char *line = malloc(cap), abs_path[PATH_MAX + 8], real[PATH_MAX] = "-";
	if (line) {
		absolute(abs_path, sizeof abs_path, dirfd, path);
		if (fd >= 0) {
			char link[64];
			snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
			ssize_t n = readlink(link, real, sizeof real - 1);
			real[n > 0 ? n : 0] = '\0';
		}
		size_t w = 0;
		put(line, cap, &w, op);
		line[w++] = '\t';
		put(line, cap, &w, abs_path);
		line[w++] = '\t';
		put(line, cap, &w, real);
		char tail[64];
		snprintf(tail, sizeof tail, "\t%lx\t%ld\n", flags, result);
		size_t tl = strlen(tail);
		if (w + tl < cap) {
			memcpy(line + w, tail, tl);
			w += tl;
		}
		ssize_t unused = write(log_fd, line, w);
		(void)unused;
		free(line);
	}
	errno = saved;
	busy = 0;
}

#define NEXT(name) static __typeof__(name) *next; if (!next) next = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static long res(long r)
{
	return r < 0 ? -errno : r;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	NEXT(open);
	int fd = next(path, flags, mode);
	record("open", AT_FDCWD, path, fd, flags, res(fd));
	return fd;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	NEXT(open64);
	int fd = next(path, flags, mode);
	record("open", AT_FDCWD, path, fd, flags, res(fd));
	return fd;
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	NEXT(openat);
	int fd = next(dirfd, path, flags, mode);
	record("open", dirfd, path, fd, flags, res(fd));
	return fd;
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	NEXT(openat64);
	int fd = next(dirfd, path, flags, mode);
	record("open", dirfd, path, fd, flags, res(fd));
	return fd;
}

/* _FORTIFY_SOURCE's checked variants */
int __open_2(const char *path, int flags)
{
	NEXT(__open_2);
	int fd = next(path, flags);
	record("open", AT_FDCWD, path, fd, flags, res(fd));
	return fd;
}

int __open64_2(const char *path, int flags)
{
	NEXT(__open64_2);
	int fd = next(path, flags);
	record("open", AT_FDCWD, path, fd, flags, res(fd));
	return fd;
}

int __openat_2(int dirfd, const char *path, int flags)
{
	NEXT(__openat_2);
	int fd = next(dirfd, path, flags);
	record("open", dirfd, path, fd, flags, res(fd));
	return fd;
}

FILE *fopen(const char *path, const char *mode)
{
	NEXT(fopen);
	FILE *f = next(path, mode);
	record("fopen", AT_FDCWD, path, f ? fileno(f) : -1, mode && strchr(mode, 'w') ? O_WRONLY : 0,
	       f ? 0 : -errno);
	return f;
}

FILE *fopen64(const char *path, const char *mode)
{
	NEXT(fopen64);
	FILE *f = next(path, mode);
	record("fopen", AT_FDCWD, path, f ? fileno(f) : -1, mode && strchr(mode, 'w') ? O_WRONLY : 0,
	       f ? 0 : -errno);
	return f;
}

DIR *opendir(const char *path)
{
	NEXT(opendir);
	DIR *d = next(path);
	record("opendir", AT_FDCWD, path, d ? dirfd(d) : -1, 0, d ? 0 : -errno);
	return d;
}

/* The calls that take a path and a second argument and return an int: recorded as op. */
#define PATH_CALL(name, op, T) \
	int name(const char *path, T arg) \
	{ \
		NEXT(name); \
		int r = next(path, arg); \
		record(op, AT_FDCWD, path, -1, 0, res(r)); \
		return r; \
	}
PATH_CALL(stat, "stat", struct stat *)
PATH_CALL(lstat, "lstat", struct stat *)
PATH_CALL(stat64, "stat", struct stat64 *)
PATH_CALL(lstat64, "lstat", struct stat64 *)
PATH_CALL(access, "access", int)

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	NEXT(fstatat);
	int r = next(dirfd, path, st, flags);
	if (path[0])   /* fstat through AT_EMPTY_PATH names no path */
		record(flags & AT_SYMLINK_NOFOLLOW ? "lstat" : "stat", dirfd, path, -1, flags, res(r));
	return r;
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	NEXT(fstatat64);
	int r = next(dirfd, path, st, flags);
	if (path[0])
		record(flags & AT_SYMLINK_NOFOLLOW ? "lstat" : "stat", dirfd, path, -1, flags, res(r));
	return r;
}

ssize_t readlink(const char *path, char *buf, size_t size)
{
	NEXT(readlink);
	ssize_t r = next(path, buf, size);
	record("readlink", AT_FDCWD, path, -1, 0, res(r));
	return r;
}

char *realpath(const char *path, char *resolved)
{
	NEXT(realpath);
	char *r = next(path, resolved);
	record("realpath", AT_FDCWD, path, -1, 0, r ? 0 : -errno);
	return r;
}

int rename(const char *from, const char *to)
{
	NEXT(rename);
	int r = next(from, to);
	record("rename", AT_FDCWD, to, -1, 0, res(r));
	return r;
}

int unlink(const char *path)
{
	NEXT(unlink);
	int r = next(path);
	record("unlink", AT_FDCWD, path, -1, 0, res(r));
	return r;
}

int mkstemp(char *tmpl)
{
	NEXT(mkstemp);
	int fd = next(tmpl);
	record("mkstemp", AT_FDCWD, tmpl, fd, O_CREAT, res(fd));
	return fd;
}
