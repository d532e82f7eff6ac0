/* SPDX-License-Identifier: Apache-2.0
** group.c: findings or files grouped by a string (a path, a rule) for the reports that count or
** nest by it (junit.c, markdown.c), whatever order the run sorts them in; and the run's notices
** grouped by rule, one line each (text.c, github.c, markdown.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "output/output.h"

static int entry_cmp(const void *a, const void *b)
{
	const sl_group_entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

void sl_group_sort(sl_group_entry *e, size_t n)
{
	qsort(e, n, sizeof *e, entry_cmp);
}

size_t sl_group_find(const sl_group_entry *e, size_t n, const char *key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(e[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t sl_group_end(const sl_group_entry *e, size_t n, size_t from, const char *key)
{
	while (from < n && strcmp(e[from].key, key) == 0)
		from++;
	return from;
}

/* --- notices ------------------------------------------------------------------------------ */

/* By rule, then in the run's order (a stable sort by the index kept in entries). */
sl_notice_group *sl_group_notices(const sl_output_run *run, const sl_finding ***order, size_t *n_out)
{
	size_t n = run->n_notices;
	sl_group_entry *e = malloc((n ? n : 1) * sizeof *e);
	const sl_finding **o = malloc((n ? n : 1) * sizeof *o);
	sl_notice_group *g = malloc((n ? n : 1) * sizeof *g);
	if (!e || !o || !g) {
		free(e);
		free(o);
		free(g);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		e[i] = (sl_group_entry){run->notices[i]->rule, i};
	sl_group_sort(e, n);
	for (size_t i = 0; i < n; i++)
		o[i] = run->notices[e[i].i];
	size_t ng = 0;
	for (size_t k = 0, to; k < n; k = to) {
		to = sl_group_end(e, n, k, e[k].key);
		size_t paths = 0;
		for (size_t j = k; j < to; j++)   /* in path order: a new path is a new file */
			paths += j == k || strcmp(o[j]->path, o[j - 1]->path) != 0;
		g[ng++] = (sl_notice_group){e[k].key, o + k, to - k, paths};
	}
	free(e);
	*order = o;
	*n_out = ng;
	return g;
}

/* Code points in s. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

char *sl_group_notice_line(const sl_notice_group *g, sl_sink sink, size_t max)
{
	int ri = sl_rule_find(g->rule);
	const char *words = ri >= 0 ? sl_rule_notice((size_t)ri, g->n_paths) : NULL;
	char *line = NULL, more[64];
	size_t len = 0;
	FILE *b = open_memstream(&line, &len);
	if (!b)
		return NULL;
	int used = fprintf(b, "%zu %s", g->n_paths, words ? words : g->rule);
	size_t listed = 0;
	bool oom = used < 0;
	for (size_t j = 0; j < g->n && !oom; j++) {
		const char *path = g->notices[j]->path;
		if (j && strcmp(path, g->notices[j - 1]->path) == 0)
			continue;
		while (path[0] == '.' && path[1] == '/')
			path += 2;
		char *esc = sl_escape_str(path, sink);
		oom = !esc;
		/* room for this one (after ": " or ", "), and for the tail that counts the rest */
		size_t left = g->n_paths - listed - 1;
		snprintf(more, sizeof more, left ? ", \u2026 and %zu more" : "", left);
		size_t w = esc ? 2 + width(esc) : 0;
		if (oom || (size_t)used + w + width(more) > max) {
			free(esc);
			break;
		}
		fprintf(b, "%s%s", listed ? ", " : ": ", esc);
		used += (int)w;
		listed++;
		free(esc);
	}
	if (!oom && listed < g->n_paths)
		fprintf(b, listed ? ", \u2026 and %zu more" : " (too long to list here)",
			g->n_paths - listed);
	oom |= ferror(b) != 0;
	fclose(b);
	if (oom) {
		free(line);
		return NULL;
	}
	return line;
}
