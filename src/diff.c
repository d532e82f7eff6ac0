/* SPDX-License-Identifier: Apache-2.0
** diff.c: Myers' O(ND) line diff, then hunks with three lines of context. Fixes change a few
** lines, so D stays small; the trace keeps one V slice of 2d+1 entries per step. */
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "diff.h"

struct line { const char *s; size_t n; };

/* Splits text into lines, each with its line break (the last may have none). */
static struct line *split(const char *t, size_t len, size_t *count)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (t[i] == '\n')
			n++;
	struct line *v = sl_xmalloc((n + 2) * sizeof *v);
	if (!v)
		return NULL;
	size_t k = 0, s = 0;
	for (size_t i = 0; i < len; i++) {
		if (t[i] == '\n') {
			v[k].s = t + s;
			v[k++].n = i + 1 - s;
			s = i + 1;
		}
	}
	if (s < len) {
		v[k].s = t + s;
		v[k++].n = len - s;
	}
	*count = k;
	return v;
}

static int same(const struct line *a, const struct line *b)
{
	return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

enum { OP_EQ, OP_DEL, OP_INS };

/* Fills ops (capacity n+m) with the edit script; returns its length or -1 on OOM. */
static long myers(const struct line *a, long n, const struct line *b, long m, unsigned char *ops)
{
	long max = n + m;
	long *v = sl_xcalloc((size_t)(2 * max + 3), sizeof *v);
	long **trace = sl_xcalloc((size_t)(max + 2), sizeof *trace);
	if (!v || !trace) {
		free(v);
		free(trace);
		return -1;
	}
	long off = max + 1, d, found = -1;
	for (d = 0; d <= max; d++) {
		trace[d] = sl_xmalloc((size_t)(2 * d + 1) * sizeof **trace);
		if (!trace[d]) {
			found = -2;
			break;
		}
		for (long k = -d; k <= d; k += 2) {
			long x;
			if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
				x = v[off + k + 1];
			else
				x = v[off + k - 1] + 1;
			long y = x - k;
			while (x < n && y < m && same(&a[x], &b[y])) {
				x++;
				y++;
			}
			v[off + k] = x;
			if (x >= n && y >= m) {
				found = d;
				break;
			}
		}
		for (long k = -d; k <= d; k++)
			trace[d][k + d] = v[off + k];
		if (found >= 0)
			break;
	}
	long len = -1;
	if (found >= 0) {
		/* walk back from (n, m) */
		long x = n, y = m, w = n + m;
		for (d = found; d > 0; d--) {
			long k = x - y, pk;
			long *pv = trace[d - 1];
			if (k == -d || (k != d && pv[k - 1 + (d - 1)] < pv[k + 1 + (d - 1)]))
				pk = k + 1;
			else
				pk = k - 1;
			long px = pv[pk + (d - 1)], py = px - pk;
			while (x > px && y > py) {
				ops[--w] = OP_EQ;
				x--;
				y--;
			}
			if (x == px)
				ops[--w] = OP_INS, y--;
			else
				ops[--w] = OP_DEL, x--;
		}
		while (x > 0 && y > 0) {
			ops[--w] = OP_EQ;
			x--;
			y--;
		}
		len = n + m - w;
		memmove(ops, ops + w, (size_t)len);
	}
	for (long i = 0; i <= max && trace[i]; i++)
		free(trace[i]);
	free(trace);
	free(v);
	return len;
}

static void put_line(FILE *out, char mark, const struct line *l)
{
	fputc(mark, out);
	fwrite(l->s, 1, l->n, out);
	if (l->n == 0 || l->s[l->n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

sl_err sl_diff_write(FILE *out, const char *path, const char *a, size_t alen, const char *b,
		     size_t blen)
{
	if (alen == blen && memcmp(a, b, alen) == 0)
		return SL_OK;
	size_t n, m;
	struct line *la = split(a, alen, &n), *lb = split(b, blen, &m);
	unsigned char *ops = sl_xmalloc(n + m + 1);
	if (!la || !lb || !ops) {
		free(la);
		free(lb);
		free(ops);
		return SL_ENOMEM;
	}
	long nops = myers(la, (long)n, lb, (long)m, ops);
	if (nops < 0) {
		free(la);
		free(lb);
		free(ops);
		return SL_ENOMEM;
	}
	fprintf(out, "--- %s\n+++ %s\n", path, path);
	const long ctx = 3;
	long i = 0;
	long ai = 0, bi = 0;   /* line numbers (0-based) at ops[i] */
	while (i < nops) {
		if (ops[i] == OP_EQ) {
			i++;
			ai++;
			bi++;
			continue;
		}
		/* a hunk: from ctx lines before this change to ctx lines after the last change that
		** is within 2*ctx equal lines of the previous one */
		long start = i, back = 0;
		while (back < ctx && start > 0 && ops[start - 1] == OP_EQ) {
			start--;
			back++;
		}
		long end = i, eq_run = 0;
		for (long j = i; j < nops; j++) {
			if (ops[j] == OP_EQ) {
				eq_run++;
				if (eq_run > 2 * ctx)
					break;
			} else {
				eq_run = 0;
				end = j + 1;
			}
		}
		long stop = end, fwd = 0;
		while (fwd < ctx && stop < nops && ops[stop] == OP_EQ) {
			stop++;
			fwd++;
		}
		long a0 = ai - back, b0 = bi - back, ac = 0, bc = 0;
		for (long j = start; j < stop; j++) {
			if (ops[j] != OP_INS)
				ac++;
			if (ops[j] != OP_DEL)
				bc++;
		}
		fprintf(out, "@@ -%ld,%ld +%ld,%ld @@\n", ac ? a0 + 1 : a0, ac, bc ? b0 + 1 : b0, bc);
		long x = a0, y = b0;
		for (long j = start; j < stop; j++) {
			if (ops[j] == OP_EQ) {
				put_line(out, ' ', &la[x++]);
				y++;
			} else if (ops[j] == OP_DEL) {
				put_line(out, '-', &la[x++]);
			} else {
				put_line(out, '+', &lb[y++]);
			}
		}
		ai = x;
		bi = y;
		i = stop;
	}
	free(la);
	free(lb);
	free(ops);
	return ferror(out) ? SL_EIO : SL_OK;
}
