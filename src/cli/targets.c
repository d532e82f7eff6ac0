/* SPDX-License-Identifier: Apache-2.0
** targets.c: the reports of one `check` run (targets.h): parsing --format FORMAT[:FILE], giving
** -o its report, and writing each report file whole or not at all (temp file beside it, fsync,
** rename: an interrupted or failed run leaves the previous report, never half of a new one). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/targets.h"
#include "output/escape.h"

const char *sl_targets_add(sl_targets *r, const char *spec)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	const char *name;
	sl_format format = SL_FORMAT_TEXT;
	size_t i = 0;
	while ((name = sl_output_format_name(i, &format)) && (strlen(name) != len ||
							      strncmp(name, spec, len) != 0))
		i++;
	if (!name)
		return "unknown format \"%s\" (expected text, json, sarif, github, gitlab, junit or "
		       "markdown, optionally followed by :FILE)";
	if (colon && !colon[1])
		return "--format \"%s\" names no file after the colon";
	sl_target *nv = realloc(r->v, (r->n + 1) * sizeof *nv);
	if (!nv)
		return "out of memory for --format \"%s\"";
	r->v = nv;
	const char *path = colon && strcmp(colon + 1, "-") != 0 ? colon + 1 : NULL;
	r->v[r->n++] = (sl_target){.format = format, .path = path};
	return NULL;
}

static char *message(const char *fmt, const char *arg)
{
	char *safe = sl_escape_str(arg, SL_SINK_TEXT);
	size_t len = strlen(fmt) + (safe ? strlen(safe) : 1) + 1;
	char *m = malloc(len);
	if (m)
		snprintf(m, len, fmt, safe ? safe : "?");
	free(safe);
	return m;
}

char *sl_targets_plan(sl_targets *r, const char *output)
{
	if (r->n == 0 && sl_targets_add(r, "text") != NULL)
		return NULL;   /* out of memory: the caller sees r->n == 0 */
	sl_target *unnamed = NULL;
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].path)
			continue;
		if (unnamed)
			return message(output ? "-o %s names the file of the one --format without :FILE, "
					       "and two have none"
					      : "two reports go to stdout%s: give all but one a file "
						"(--format FORMAT:FILE)", output ? output : "");
		unnamed = &r->v[i];
	}
	if (output && !unnamed)
		return message("-o %s: every --format names its own file", output);
	if (output && strcmp(output, "-") != 0)
		unnamed->path = output;
	for (size_t i = 0; i < r->n; i++)
		for (size_t j = i + 1; r->v[i].path && j < r->n; j++)
			if (r->v[j].path && strcmp(r->v[i].path, r->v[j].path) == 0)
				return message("two reports go to %s", r->v[i].path);
	return NULL;
}

static bool fail(const char *path, const char *what, int e)
{
	fputs("schedlint: error: cannot write the report ", stderr);
	sl_escape_put(stderr, path, SL_SINK_TEXT);
	fprintf(stderr, ": %s%s%s\n", what ? what : "", what ? ": " : "", strerror(e));
	return false;
}

/* Where a report written to path goes: path, or for a symbolic link the file it points to
** (which need not exist yet), so the link stays a link. NULL when out of memory. */
static char *link_target(const char *path)
{
	char real[PATH_MAX], link[PATH_MAX];
	struct stat lst;
	if (lstat(path, &lst) != 0 || !S_ISLNK(lst.st_mode))
		return strdup(path);
	if (realpath(path, real))
		return strdup(real);
	ssize_t n = readlink(path, link, sizeof link - 1);   /* dangling: one level */
	if (n <= 0)
		return strdup(path);
	link[n] = '\0';
	if (link[0] == '/')
		return strdup(link);
	char *copy = strdup(path), *joined = NULL;
	if (copy && asprintf(&joined, "%s/%s", dirname(copy), link) < 0)
		joined = NULL;
	free(copy);
	return joined;
}

/* Opens target t's temp file (or, for a device or a FIFO, the file itself). */
static bool open_one(sl_target *t)
{
	struct stat st;
	bool exists = stat(t->path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return fail(t->path, NULL, EISDIR);
	if (exists && !S_ISREG(st.st_mode)) {   /* /dev/stdout, a FIFO: no rename over it */
		t->out = fopen(t->path, "w");
		return t->out ? true : fail(t->path, NULL, errno);
	}
	t->dest = link_target(t->path);
	char *copy = t->dest ? strdup(t->dest) : NULL;
	if (copy) {
		const char *dir = dirname(copy);
		size_t len = strlen(dir) + 32;
		t->tmp = malloc(len);
		if (t->tmp)
			snprintf(t->tmp, len, "%s/.schedlint-report.XXXXXX", dir);
	}
	free(copy);
	if (!t->tmp)
		return fail(t->path, NULL, ENOMEM);
	int fd = mkstemp(t->tmp);
	if (fd < 0) {
		int e = errno;
		free(t->tmp);
		t->tmp = NULL;
		return fail(t->path, NULL, e);
	}
	/* the mode a new file would get (0666 less the umask), or the old file's */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask) != 0 ||
	    !(t->out = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(t->tmp);
		free(t->tmp);
		t->tmp = NULL;
		return fail(t->path, NULL, e);
	}
	return true;
}

bool sl_targets_open(sl_targets *r)
{
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].path && !open_one(&r->v[i])) {
			for (size_t j = 0; j < i; j++)
				sl_targets_close(r, j, false);
			return false;
		}
	}
	return true;
}

bool sl_targets_close(sl_targets *r, size_t i, bool written)
{
	sl_target *t = &r->v[i];
	if (!t->path) {
		if (fflush(stdout) != 0 && written) {
			fprintf(stderr, "schedlint: error: cannot write the report: %s\n", strerror(errno));
			return false;
		}
		return written;
	}
	if (!t->out)
		return false;
	if (!written) {   /* the caller said why */
		fclose(t->out);
		t->out = NULL;
		if (t->tmp)
			unlink(t->tmp);
		free(t->tmp);
		t->tmp = NULL;
		return false;
	}
	int e = 0;
	const char *what = NULL;
	if (fflush(t->out) != 0 || ferror(t->out))
		e = errno ? errno : EIO;
	else if (t->tmp && fsync(fileno(t->out)) != 0)
		e = errno, what = "fsync";
	if (fclose(t->out) != 0 && !e)
		e = errno;
	t->out = NULL;
	if (!e && t->tmp && rename(t->tmp, t->dest) != 0)
		e = errno, what = "rename";
	if (t->tmp && e)
		unlink(t->tmp);
	free(t->tmp);
	t->tmp = NULL;
	return e ? fail(t->path, what, e) : true;
}

void sl_targets_free(sl_targets *r)
{
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].out)
			sl_targets_close(r, i, false);
		free(r->v[i].dest);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
