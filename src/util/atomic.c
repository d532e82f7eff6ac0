/* SPDX-License-Identifier: Apache-2.0
** atomic.c: a file written whole or not at all (schedlint/atomic.h, util/atomic.h): a temporary
** file beside it, synced and renamed over it, with the signals that end the process held
** from the temporary file's creation until it is renamed or removed. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/arena.h"
#include "util/atomic.h"

#define TEMP_SUFFIX ".schedlint-XXXXXX"

char *sl_atomic_temp_name(const char *dir, const char *base)
{
	/* "." + base + suffix must fit NAME_MAX: a long name keeps its first bytes (never a
	** broken UTF-8 sequence at the cut) */
	size_t room = NAME_MAX - 1 - strlen(TEMP_SUFFIX), bl = strlen(base);
	if (bl > room) {
		bl = room;
		while (bl > 0 && ((unsigned char)base[bl] & 0xC0) == 0x80)
			bl--;
	}
	return sl_xprintf("%s/.%.*s%s", dir, (int)bl, base, TEMP_SUFFIX);
}

static void hold(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void release(const sigset_t *old)
{
	int e = errno;
	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = e;
}

sl_err sl_atomic_start(sl_atomic *a, const char *dest)
{
	char *d = sl_xstrdup(dest), *b = sl_xstrdup(dest);
	a->tmp = d && b ? sl_atomic_temp_name(dirname(d), basename(b)) : NULL;
	free(d);
	free(b);
	if (!a->tmp)
		return SL_ENOMEM;
	hold(&a->old);
	if ((a->fd = mkostemp(a->tmp, O_CLOEXEC)) < 0) {
		release(&a->old);
		int e = errno;
		free(a->tmp);
		a->tmp = NULL;
		errno = e;
		return SL_EIO;
	}
	return SL_OK;
}

/* Closes a's descriptor (its stdio stream, when it has one); errno when that fails. */
static int close_it(sl_atomic *a)
{
	int rc = a->out ? fclose(a->out) : close(a->fd);
	a->out = NULL;
	a->fd = -1;
	return rc;
}

sl_err sl_atomic_finish(sl_atomic *a, bool (*last_look)(void *ctx), void *ctx, const char **what)
{
	int e = 0;
	*what = NULL;
	if (fsync(a->fd) != 0) {
		e = errno;
		*what = "fsync";
	}
	if (close_it(a) != 0 && !e)
		e = errno;
	bool ok = !e && (!last_look || last_look(ctx));
	if (ok && rename(a->tmp, a->dest) != 0) {
		e = errno;
		*what = "rename";
		ok = false;
	}
	if (!ok)
		unlink(a->tmp);
	release(&a->old);
	errno = e;
	return ok ? SL_OK : SL_EIO;
}

void sl_atomic_cancel(sl_atomic *a)
{
	if (a->fd >= 0)
		close_it(a);
	unlink(a->tmp);
	release(&a->old);
}

/* --- the public writer (schedlint/atomic.h) ------------------------------------------------- */

/* Where a write to path goes: path, or for a symbolic link the file it leads to (which need not
** exist yet), so the link stays a link: only for a path through_link lets pass (outside the
** working directory's tree: /dev/stdout redirected to a file). NULL when out of memory. */
static char *link_target(const char *path)
{
	char real[PATH_MAX], link[PATH_MAX];
	struct stat lst;
	if (lstat(path, &lst) != 0 || !S_ISLNK(lst.st_mode))
		return sl_xstrdup(path);
	if (realpath(path, real))
		return sl_xstrdup(real);
	ssize_t n = readlink(path, link, sizeof link - 1);   /* dangling: one level */
	if (n <= 0)
		return sl_xstrdup(path);
	link[n] = '\0';
	if (link[0] == '/')
		return sl_xstrdup(link);
	char *copy = sl_xstrdup(path);
	char *joined = copy ? sl_xprintf("%s/%s", dirname(copy), link) : NULL;
	free(copy);
	return joined;
}

/* Why a report may not be written at path, or NULL (malloc'd; "" when out of memory): a report
** file is the caller's to name but never the repository's to redirect, so a symbolic link in the
** working directory's tree is never followed. Its last component may not be one, nor any
** directory on the way below the working directory (schedlint.sarif, reports/x.json): a pull
** request could commit either, and the CI job would write wherever it leads (~/.bashrc). A path
** outside the working directory (/dev/stdout, /tmp/x.json) is the caller's own: a link there is
** written through (link_target), never replaced. (A device or a FIFO, /dev/stdout to a pipe, is
** written in place before this is asked.) */
static char *through_link(const char *path)
{
	size_t from = 0;   /* where the components the repository could have made start */
	if (path[0] == '/') {
		char cwd[PATH_MAX];
		size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
		if (!n || strncmp(path, cwd, n) != 0 || (path[n] != '/' && n > 1))
			return NULL;
		from = n > 1 ? n + 1 : 1;
	}
	char *copy = sl_xstrdup(path);
	if (!copy)
		return sl_xstrdup("");
	char *why = NULL;
	struct stat st;
	for (char *p = copy + from; !why; p++) {
		bool last = !(p = strchr(p, '/'));
		if (!last && p == copy + from)
			continue;   /* an empty component ("a//b") */
		if (!last)
			*p = '\0';
		if (lstat(copy, &st) == 0 && S_ISLNK(st.st_mode))
			why = last ? sl_xprintf("it is a symbolic link (a report is never written through "
						"one: remove the link, or name the file it leads to)")
				   : sl_xprintf("its directory %s is a symbolic link (a report is never "
						"written through one)", copy + from);
		if (last)
			break;
		*p = '/';
	}
	free(copy);
	return why;
}

/* SL_EIO with *why: "[what: ]strerror(e)". */
static sl_err failed(char **why, const char *what, int e)
{
	*why = sl_xprintf("%s%s%s", what ? what : "", what ? ": " : "", strerror(e));
	return SL_EIO;
}

/* What path is: *exists, and its stat; EISDIR for a directory, else 0. */
static int look(const char *path, struct stat *st, bool *exists)
{
	*exists = stat(path, st) == 0;
	return *exists && S_ISDIR(st->st_mode) ? EISDIR : 0;
}

sl_err sl_atomic_check(const char *path, char **why)
{
	*why = NULL;
	struct stat st;
	bool exists;
	int e = look(path, &st, &exists);
	if (e)
		return failed(why, NULL, e);
	if (exists && !S_ISREG(st.st_mode))
		return access(path, W_OK) == 0 ? SL_OK : failed(why, NULL, errno);
	if ((*why = through_link(path)))
		return **why ? SL_EIO : SL_ENOMEM;
	sl_atomic a = {.fd = -1};
	if (!(a.dest = link_target(path)))
		return SL_ENOMEM;
	sl_err err = sl_atomic_start(&a, a.dest);
	if (err == SL_EIO)
		failed(why, NULL, errno);
	else if (!err)
		sl_atomic_cancel(&a);
	free(a.tmp);
	free(a.dest);
	return err;
}

sl_err sl_atomic_begin(const char *path, sl_atomic **out_a, FILE **out, char **why)
{
	*why = NULL;
	*out_a = NULL;
	*out = NULL;
	struct stat st;
	bool exists;
	int e = look(path, &st, &exists);
	if (e)
		return failed(why, NULL, e);
	sl_atomic *a = sl_xcalloc(1, sizeof *a);
	if (!a)
		return SL_ENOMEM;
	a->fd = -1;
	if (exists && !S_ISREG(st.st_mode)) {   /* /dev/stdout, a FIFO: no rename over it */
		if (!(a->out = fopen(path, "w"))) {
			free(a);
			return failed(why, NULL, errno);
		}
		a->fd = fileno(a->out);
		*out_a = a;
		*out = a->out;
		return SL_OK;
	}
	if ((*why = through_link(path))) {
		free(a);
		return **why ? SL_EIO : SL_ENOMEM;
	}
	sl_err err = (a->dest = link_target(path)) ? sl_atomic_start(a, a->dest) : SL_ENOMEM;
	if (err) {
		if (err == SL_EIO)
			failed(why, NULL, errno);
		free(a->dest);
		free(a);
		return err;
	}
	/* the mode a new file would get (0666 less the umask), or the old file's */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(a->fd, exists ? st.st_mode & 07777 : 0666 & ~mask) != 0 ||
	    !(a->out = fdopen(a->fd, "w"))) {
		failed(why, NULL, errno);
		sl_atomic_abort(a);
		return SL_EIO;
	}
	*out_a = a;
	*out = a->out;
	return SL_OK;
}

sl_err sl_atomic_commit(sl_atomic *a, char **why)
{
	*why = NULL;
	const char *what = NULL;
	sl_err err = SL_OK;
	if (fflush(a->out) != 0 || ferror(a->out)) {
		int e = errno ? errno : EIO;
		if (a->tmp)
			sl_atomic_cancel(a);
		else
			fclose(a->out);
		err = failed(why, NULL, e);
	} else if (!a->tmp) {   /* in place */
		if (fclose(a->out) != 0)
			err = failed(why, NULL, errno);
	} else if (sl_atomic_finish(a, NULL, NULL, &what) != SL_OK) {
		err = failed(why, what, errno);
	}
	free(a->tmp);
	free(a->dest);
	free(a);
	return err;
}

void sl_atomic_abort(sl_atomic *a)
{
	if (!a)
		return;
	if (a->tmp)
		sl_atomic_cancel(a);
	else if (a->out)
		fclose(a->out);
	free(a->tmp);
	free(a->dest);
	free(a);
}
