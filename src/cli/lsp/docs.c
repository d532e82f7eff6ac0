/* SPDX-License-Identifier: Apache-2.0
** cli/lsp/docs.c: the documents the client has open, by URI: each one's text (what the client
** sent, not the disk), its line index, and what was last published for it. A file: URI names
** the path the library lints the buffer under, relative to the working directory when it is
** under it (as `schedlint check` names files), so config, excludes and the project resolve as
** on the command line. */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/lsp/lsp.h"

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *sl_lsp_docs_path(const char *uri)
{
	if (strncmp(uri, "file://", 7) != 0) {
		const char *colon = strchr(uri, ':');
		return strdup(colon && colon[1] ? colon + 1 : uri);
	}
	const char *p = uri + 7;
	if (*p != '/')   /* file://host/path: the host is ours or nothing we can read */
		p = strchr(p, '/') ? strchr(p, '/') : "/";
	char *out = malloc(strlen(p) + 1), *o = out;
	if (!out)
		return NULL;
	for (; *p && *p != '?' && *p != '#'; p++) {
		if (*p == '%' && hex(p[1]) >= 0 && hex(p[2]) >= 0 && (hex(p[1]) || hex(p[2]))) {
			*o++ = (char)(hex(p[1]) * 16 + hex(p[2]));
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd)) {
		size_t n = strlen(cwd);
		if (n > 1 && strncmp(out, cwd, n) == 0 && out[n] == '/' && out[n + 1])
			memmove(out, out + n + 1, strlen(out + n + 1) + 1);
	}
	return out;
}

sl_lsp_doc *sl_lsp_docs_find(const sl_lsp_docs *d, const char *uri)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i]->uri, uri) == 0)
			return d->v[i];
	return NULL;
}

sl_lsp_doc *sl_lsp_docs_find_path(const sl_lsp_docs *d, const char *path)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i]->path, path) == 0)
			return d->v[i];
	/* the same file by another name: a project above the working directory names its files
	** from there ("../../repo/app/a.yaml" for "a.yaml") */
	char *real = realpath(path, NULL);
	sl_lsp_doc *found = NULL;
	for (size_t i = 0; real && !found && i < d->n; i++) {
		sl_lsp_doc *doc = d->v[i];
		if (!doc->real)   /* (NULL again while it has no file) */
			doc->real = realpath(doc->path, NULL);
		if (doc->real && strcmp(doc->real, real) == 0)
			found = doc;
	}
	free(real);
	return found;
}

static void doc_free(sl_lsp_doc *doc)
{
	if (!doc)
		return;
	free(doc->uri);
	free(doc->path);
	free(doc->real);
	free(doc->text);
	sl_lsp_text_lines_free(&doc->lines);
	json_decref(doc->diagnostics);
	json_decref(doc->entries);
	free(doc->gives);
	free(doc->reads);
	sl_lsp_docs_unwait(doc);
	free(doc);
}

void sl_lsp_docs_wait(sl_lsp_doc *doc, const char *path)
{
	char *real = realpath(path, NULL);
	for (size_t i = 0; real && i < doc->n_waits; i++)
		if (strcmp(doc->waits[i], real) == 0) {
			free(real);
			return;
		}
	char **nv = real ? realloc(doc->waits, (doc->n_waits + 1) * sizeof *nv) : NULL;
	if (!nv) {   /* memory: the fix stays out until it is linted again anyway */
		free(real);
		return;
	}
	doc->waits = nv;
	doc->waits[doc->n_waits++] = real;
}

void sl_lsp_docs_unwait(sl_lsp_doc *doc)
{
	for (size_t i = 0; i < doc->n_waits; i++)
		free(doc->waits[i]);
	free(doc->waits);
	doc->waits = NULL;
	doc->n_waits = 0;
}

void sl_lsp_docs_opened(sl_lsp_docs *d, sl_lsp_doc *opened, int64_t at)
{
	if (!opened->real)
		opened->real = realpath(opened->path, NULL);
	for (size_t i = 0; opened->real && i < d->n; i++)
		for (size_t k = 0; k < d->v[i]->n_waits; k++)
			if (strcmp(d->v[i]->waits[k], opened->real) == 0 &&
			    (!d->v[i]->due_ms || d->v[i]->due_ms > at))
				d->v[i]->due_ms = at;
}

bool sl_lsp_docs_set_text(sl_lsp_doc *doc, char *text, size_t len)
{
	if (!sl_lsp_text_lines(text, len, &doc->lines))
		return false;
	if (doc->text != text)
		free(doc->text);
	doc->text = text;
	doc->len = len;
	return true;
}

bool sl_lsp_docs_on_disk(const sl_lsp_doc *doc)
{
	int fd = open(doc->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);   /* a FIFO never blocks */
	if (fd < 0)
		return false;
	struct stat st;
	bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == doc->len;
	char buf[8192];
	for (size_t at = 0; same;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n <= 0) {
			same = n == 0 && at == doc->len;
			break;
		}
		same = at + (size_t)n <= doc->len && memcmp(buf, doc->text + at, (size_t)n) == 0;
		at += (size_t)n;
	}
	close(fd);
	return same;
}

sl_lsp_doc *sl_lsp_docs_open(sl_lsp_docs *d, const char *uri, const char *text, size_t len,
			     int64_t version)
{
	sl_lsp_docs_close(d, uri);
	sl_lsp_doc *doc = calloc(1, sizeof *doc);
	char *t = malloc(len + 1);
	sl_lsp_doc **nv = realloc(d->v, (d->n + 1) * sizeof *nv);
	if (nv)
		d->v = nv;
	if (!doc || !t || !nv || !(doc->uri = strdup(uri)) || !(doc->path = sl_lsp_docs_path(uri))) {
		free(t);
		doc_free(doc);
		return NULL;
	}
	memcpy(t, text, len);
	t[len] = '\0';
	if (!sl_lsp_docs_set_text(doc, t, len)) {
		free(t);
		doc_free(doc);
		return NULL;
	}
	doc->version = version;
	/* what the others were linted with is the file on disk: the same text (its digest comes
	** with the first lint), another one, or none */
	struct stat st;
	doc->synced = sl_lsp_docs_on_disk(doc);
	doc->disk_facts = doc->synced ? SL_LSP_FACTS_PENDING
			: stat(doc->path, &st) == 0 ? SL_LSP_FACTS_UNKNOWN : 0;
	doc->facts = doc->disk_facts;
	doc->gives_known = true;   /* none: a file's are in facts until its first lint */
	doc->edited = true;
	d->v[d->n++] = doc;
	return doc;
}

void sl_lsp_docs_close(sl_lsp_docs *d, const char *uri)
{
	for (size_t i = 0; i < d->n; i++) {
		if (strcmp(d->v[i]->uri, uri) == 0) {
			doc_free(d->v[i]);
			memmove(d->v + i, d->v + i + 1, (d->n - i - 1) * sizeof *d->v);
			d->n--;
			return;
		}
	}
}

void sl_lsp_docs_free(sl_lsp_docs *d)
{
	for (size_t i = 0; i < d->n; i++)
		doc_free(d->v[i]);
	free(d->v);
	d->v = NULL;
	d->n = 0;
}
