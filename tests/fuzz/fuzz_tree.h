/* SPDX-License-Identifier: Apache-2.0
** fuzz_tree.h: what the fuzz targets that need files share: one input split into files, written
** into a scratch directory of the process (made once, emptied after every input, removed at
** exit) and removed again. An input is a little archive:
**
**     text of FIRST (no header before it)
**     #--- NAME
**     text of NAME
**     #--- NAME2
**     ...
**
** Each "#--- NAME" line starts a file; NAME is kept to [A-Za-z0-9._-] and "/" with "." and ".."
** and empty components dropped, at most 4 components and 64 bytes, so every file lies inside
** the scratch directory whatever the input says (what the input's YAML names is another matter:
** "../x" in a kustomization is what is being fuzzed). A header-only library for the targets
** built by tests/fuzz/run (public API only; nothing here is in libschedlint). */
#ifndef SL_FUZZ_TREE_H
#define SL_FUZZ_TREE_H

/* the includer defines _GNU_SOURCE before any header (nftw, memmem) */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_TREE_MAX_FILES 16

struct fuzz_file {
	char name[72];
	const char *data;
	size_t len;
};

static char fuzz_scratch[4096];   /* the process's scratch directory */

static int fuzz_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void fuzz_rm_tree(const char *dir)
{
	nftw(dir, fuzz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void fuzz_scratch_remove(void)
{
	if (fuzz_scratch[0])
		fuzz_rm_tree(fuzz_scratch);
}

/* Makes the scratch directory ($TMPDIR or /tmp, sl-fuzz-WHAT-XXXXXX); aborts when it cannot. */
static void fuzz_scratch_make(const char *what)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(fuzz_scratch, sizeof fuzz_scratch, "%s/sl-fuzz-%s-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp", what);
	if (!mkdtemp(fuzz_scratch)) {
		perror("mkdtemp");
		abort();
	}
	atexit(fuzz_scratch_remove);
}

/* name[0..n) made safe into out ("" when nothing is left). */
static void fuzz_clean_name(const char *name, size_t n, char *out, size_t cap)
{
	size_t w = 0, comps = 0;
	size_t i = 0;
	while (i < n && comps < 4) {
		size_t s = i;
		while (i < n && name[i] != '/')
			i++;
		size_t cl = i - s;
		i++;   /* the slash */
		char comp[72];
		size_t cw = 0;
		for (size_t k = s; k < s + cl && cw < sizeof comp - 1; k++) {
			char ch = name[k];
			if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			    ch == '.' || ch == '_' || ch == '-')
				comp[cw++] = ch;
		}
		comp[cw] = '\0';
		if (!cw || strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
			continue;
		if (w + cw + 2 > cap)
			break;
		if (w)
			out[w++] = '/';
		memcpy(out + w, comp, cw);
		w += cw;
		comps++;
	}
	out[w] = '\0';
}

/* Splits data into files; the text before the first header is named first. Returns the count. */
static size_t fuzz_split(const char *data, size_t size, const char *first, struct fuzz_file *v)
{
	static const char hdr[] = "#--- ";
	size_t n = 0, hl = sizeof hdr - 1;
	snprintf(v[0].name, sizeof v[0].name, "%s", first);
	v[0].data = data;
	v[0].len = size;
	n = 1;
	for (size_t ls = 0; ls < size; ) {
		const char *nl = memchr(data + ls, '\n', size - ls);
		size_t le = nl ? (size_t)(nl - data) : size;
		if (le - ls >= hl && memcmp(data + ls, hdr, hl) == 0 && n < FUZZ_TREE_MAX_FILES) {
			v[n - 1].len = (size_t)(data + ls - v[n - 1].data);
			fuzz_clean_name(data + ls + hl, le - ls - hl, v[n].name, sizeof v[n].name);
			v[n].data = nl ? nl + 1 : data + size;
			v[n].len = (size_t)(data + size - v[n].data);
			if (v[n].name[0])
				n++;
		}
		ls = nl ? le + 1 : size;
	}
	return n;
}

/* Writes the files under dir (made, with the directories the names need); a name that is a
** directory already, or whose directory is a file, is skipped, and so is an empty first file
** when headers follow. Aborts on other errors. */
static void fuzz_write_tree(const char *dir, const struct fuzz_file *v, size_t n)
{
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		perror(dir);
		abort();
	}
	for (size_t i = 0; i < n; i++) {
		if (i == 0 && n > 1 && v[0].len == 0)
			continue;   /* the input starts with a header */
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, v[i].name);
		for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
			*p = '\0';
			mkdir(path, 0700);
			*p = '/';
		}
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0)
			continue;   /* a directory of that name, or below a file */
		for (size_t off = 0; off < v[i].len; ) {
			ssize_t w = write(fd, v[i].data + off, v[i].len - off);
			if (w <= 0) {
				perror(path);
				abort();
			}
			off += (size_t)w;
		}
		close(fd);
	}
}

#endif
