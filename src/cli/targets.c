/* SPDX-License-Identifier: Apache-2.0
** targets.c: the reports of one `check` run (targets.h): parsing --format FORMAT[:FILE], giving
** -o its report, and writing each report file whole or not at all (schedlint/atomic.h, the
** library's writer: an interrupted or failed run leaves the previous report, never half of a
** new one, nor a temporary file). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/targets.h"

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

/* Prints why the report file path cannot be written. */
static bool fail(const char *path, const char *why)
{
	fputs("schedlint: error: cannot write the report ", stderr);
	sl_escape_put(stderr, path, SL_SINK_TEXT);
	fprintf(stderr, ": %s\n", why ? why : strerror(ENOMEM));
	return false;
}

bool sl_targets_open(sl_targets *r)
{
	for (size_t i = 0; i < r->n; i++) {
		char *why = NULL;
		if (r->v[i].path && sl_atomic_check(r->v[i].path, &why) != SL_OK) {
			fail(r->v[i].path, why);
			free(why);
			return false;
		}
	}
	return true;
}

FILE *sl_targets_begin(sl_targets *r, size_t i)
{
	sl_target *t = &r->v[i];
	char *why = NULL;
	if (!t->path)
		return stdout;
	if (sl_atomic_begin(t->path, &t->file, &t->out, &why) != SL_OK)
		fail(t->path, why);
	free(why);
	return t->out;
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
	if (!t->file)
		return false;
	sl_atomic *file = t->file;
	t->file = NULL;
	t->out = NULL;
	if (!written) {   /* the caller said why */
		sl_atomic_abort(file);
		return false;
	}
	char *why = NULL;
	bool ok = sl_atomic_commit(file, &why) == SL_OK || fail(t->path, why);
	free(why);
	return ok;
}

void sl_targets_free(sl_targets *r)
{
	for (size_t i = 0; i < r->n; i++)
		sl_atomic_abort(r->v[i].file);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
