/* SPDX-License-Identifier: Apache-2.0
** diff.c: Myers' O(ND) line diff in linear space (the middle snake bisects the problem; no trace
** of V vectors is kept, so a file with tens of thousands of fixes needs memory in proportion to
** its lines, not to their square), then hunks with three lines of context. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/hash.h"
#include "util/arena.h"
#include "yaml/diff.h"
#include "yaml/source.h"

struct line { const char *s; size_t n; uint64_t h; };

/* Splits text into lines, each with its line break (the last may have none), and hashes them. */
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
	for (size_t i = 0; i < k; i++)
		v[i].h = sl_hash_bytes(SL_HASH_INIT, v[i].s, v[i].n);
	*count = k;
	return v;
}

static int same(const struct line *a, const struct line *b)
{
	return a->h == b->h && a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

enum { OP_EQ, OP_DEL, OP_INS };

/* Past this many steps a middle-snake search settles for the forward path that got furthest:
** the diff stays valid, minimal whenever fewer than about 2 * COST_CAP lines differ, and the
** time stays O((N + M) * COST_CAP) when a file has tens of thousands of fixes. */
#define COST_CAP 1024

struct myers {
	const struct line *a, *b;
	long *vf, *vb;           /* furthest x per diagonal, forward and backward, offset to 0 */
	unsigned char *ops;
	long w;                  /* ops written */
};

static void emit(struct myers *c, unsigned char op, long count)
{
	memset(c->ops + c->w, op, (size_t)count);
	c->w += count;
}

/* Where a path of d steps reaches on diagonal k (x - y = k) before its snake: one step right
** from diagonal k - 1 or down from k + 1, whichever gets further; -1 when neither stays inside
** the n x m grid. The same for the backward search, counted from the far corner. */
static long reach(const long *v, long k, long d, long n, long m)
{
	long x = d == 0 ? 0 : -1;
	if (k != -d && v[k - 1] >= 0 && v[k - 1] + 1 <= n && v[k - 1] + 1 - k <= m)
		x = v[k - 1] + 1;
	if (k != d && v[k + 1] >= 0 && v[k + 1] - k <= m && v[k + 1] >= x)
		x = v[k + 1];
	return x >= 0 && x - k < 0 ? -1 : x;
}

/* Myers' middle snake of a[a0..a1) against b[b0..b1) (both non-empty, first and last lines
** different): a point (*xm, *ym) on a shortest edit path with the work split on each side of
** it. Linear space: two vectors of furthest-reaching x per diagonal, one per direction. */
static void middle(struct myers *c, long a0, long a1, long b0, long b1, long *xm, long *ym)
{
	const struct line *a = c->a + a0, *b = c->b + b0;
	long n = a1 - a0, m = b1 - b0, delta = n - m;
	bool odd = delta & 1;
	long *vf = c->vf, *vb = c->vb;
	for (long d = 0;; d++) {
		for (long k = -d; k <= d; k += 2) {
			long x = reach(vf, k, d, n, m);
			if (x >= 0)
				while (x < n && x - k < m && same(&a[x], &b[x - k]))
					x++;
			vf[k] = x;
			long kb = delta - k;
			if (x >= 0 && odd && kb >= -(d - 1) && kb <= d - 1 && vb[kb] >= 0 && x + vb[kb] >= n) {
				*xm = a0 + x;
				*ym = b0 + x - k;
				return;
			}
		}
		for (long k = -d; k <= d; k += 2) {
			long x = reach(vb, k, d, n, m);
			if (x >= 0)
				while (x < n && x - k < m && same(&a[n - 1 - x], &b[m - 1 - (x - k)]))
					x++;
			vb[k] = x;
			long kf = delta - k;
			if (x >= 0 && !odd && kf >= -d && kf <= d && vf[kf] >= 0 && x + vf[kf] >= n) {
				*xm = a0 + n - x;
				*ym = b0 + m - (x - k);
				return;
			}
		}
		if (d >= COST_CAP) {
			/* too costly to be exact: split where the forward search got furthest */
			long best = -1, bk = 0;
			for (long k = -d; k <= d; k += 2)
				if (vf[k] >= 0 && 2 * vf[k] - k > best) {
					best = 2 * vf[k] - k;
					bk = k;
				}
			*xm = a0 + vf[bk];
			*ym = b0 + vf[bk] - bk;
			return;
		}
	}
}

/* The edit script of a[a0..a1) against b[b0..b1), appended to c->ops in order: common ends
** first, then the middle snake splits the rest (the left part recursively, the right part in
** this loop, so the depth stays that of the bisection). */
static void compare(struct myers *c, long a0, long a1, long b0, long b1)
{
	for (;;) {
		long pre = 0, suf = 0;
		while (a0 < a1 && b0 < b1 && same(&c->a[a0], &c->b[b0])) {
			a0++;
			b0++;
			pre++;
		}
		emit(c, OP_EQ, pre);
		while (a1 > a0 && b1 > b0 && same(&c->a[a1 - 1], &c->b[b1 - 1])) {
			a1--;
			b1--;
			suf++;
		}
		if (a0 == a1 || b0 == b1) {
			emit(c, OP_DEL, a1 - a0);
			emit(c, OP_INS, b1 - b0);
			emit(c, OP_EQ, suf);
			return;
		}
		long xm, ym;
		middle(c, a0, a1, b0, b1, &xm, &ym);
		compare(c, a0, xm, b0, ym);
		/* the right part, then its common suffix (emitted last: it ends the script) */
		if (suf) {
			compare(c, xm, a1, ym, b1);
			emit(c, OP_EQ, suf);
			return;
		}
		a0 = xm;
		b0 = ym;
	}
}

/* Fills ops (capacity n+m) with the edit script, deletions before insertions in each change;
** returns its length or -1 on OOM. Memory is linear in n + m. */
static long myers(const struct line *a, long n, const struct line *b, long m, unsigned char *ops)
{
	long max = n + m + 2;
	long *vf = sl_xmalloc((size_t)(2 * max + 1) * sizeof *vf);
	long *vb = sl_xmalloc((size_t)(2 * max + 1) * sizeof *vb);
	if (!vf || !vb) {
		free(vf);
		free(vb);
		return -1;
	}
	struct myers c = {a, b, vf + max, vb + max, ops, 0};
	compare(&c, 0, n, 0, m);
	free(vf);
	free(vb);
	/* each run of changes as its deletions, then its insertions */
	for (long i = 0; i < c.w;) {
		if (ops[i] == OP_EQ) {
			i++;
			continue;
		}
		long j = i, dels = 0;
		while (j < c.w && ops[j] != OP_EQ)
			dels += ops[j++] == OP_DEL;
		memset(ops + i, OP_DEL, (size_t)dels);
		memset(ops + i + dels, OP_INS, (size_t)(j - i - dels));
		i = j;
	}
	return c.w;
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
