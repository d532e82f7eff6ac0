/* SPDX-License-Identifier: Apache-2.0
** table.c: the loader shared by the tests/k8s/ suites (#included, one copy per test program).
** A table is UTF-8 text: '#' lines and blank lines are skipped, fields are separated by TAB.
** Escapes inside a field: \t \n \\ \s (space) \xHH (a byte) \e (nothing: marks an empty
** field or list element) and \{S*N} (S repeated N times, e.g. \{a*253}). */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROW_FIELDS 16

typedef struct row {
	int line;
	int nf;
	char *f[ROW_FIELDS];     /* decoded, NUL-terminated (may hold NULs: use len) */
	size_t len[ROW_FIELDS];
	bool null[ROW_FIELDS];   /* the field was \N */
} row;

typedef struct table {
	row *rows;
	size_t n;
} table;

/* Decodes the escapes of raw[0..n) into a fresh malloc'ed buffer. */
static inline char *tbl_unescape(const char *raw, size_t n, size_t *out_len)
{
	size_t cap = n + 1, len = 0;
	char *o = malloc(cap);
	cr_assert(o);
	for (size_t i = 0; i < n; i++) {
		char c = raw[i];
		const char *piece = &raw[i];
		size_t plen = 1, reps = 1;
		char tmp[2];
		if (c == '\\' && i + 1 < n) {
			char e = raw[++i];
			if (e == 't' || e == 'n' || e == 's' || e == '\\') {
				tmp[0] = e == 't' ? '\t' : e == 'n' ? '\n' : e == 's' ? ' ' : '\\';
				piece = tmp;
			} else if (e == 'e') {
				plen = 0;
			} else if (e == 'x' && i + 2 < n) {
				char h[3] = { raw[i + 1], raw[i + 2], 0 };
				tmp[0] = (char)strtol(h, NULL, 16);
				piece = tmp;
				i += 2;
			} else if (e == '{') {
				const char *end = memchr(raw + i, '}', n - i);
				const char *star;
				cr_assert(end, "unterminated \\{ in table field");
				star = memchr(raw + i, '*', (size_t)(end - raw - i));
				cr_assert(star, "\\{S*N} needs a '*'");
				piece = raw + i + 1;
				plen = (size_t)(star - piece);
				reps = strtoul(star + 1, NULL, 10);
				i = (size_t)(end - raw);
			} else {
				cr_assert_fail("unknown escape \\%c", e);
			}
		}
		while (len + plen * reps + 1 > cap) {
			cap *= 2;
			o = realloc(o, cap);
			cr_assert(o);
		}
		for (size_t r = 0; r < reps; r++) {
			memcpy(o + len, piece, plen);
			len += plen;
		}
	}
	o[len] = '\0';
	*out_len = len;
	return o;
}

/* Loads testdata/k8s/<name> (relative to the project root, the test's workdir). */
static inline table tbl_load(const char *name)
{
	char path[256], line[1 << 16];
	table t = { NULL, 0 };
	size_t cap = 0;
	int lineno = 0;
	FILE *fp;
	snprintf(path, sizeof path, "testdata/k8s/%s", name);
	fp = fopen(path, "r");
	cr_assert(fp, "cannot open %s (run from the project root)", path);
	while (fgets(line, sizeof line, fp)) {
		size_t n = strlen(line);
		row r;
		char *p;
		lineno++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0 || line[0] == '#')
			continue;
		memset(&r, 0, sizeof r);
		r.line = lineno;
		p = line;
		for (;;) {
			char *tab = strchr(p, '\t');
			size_t k = tab ? (size_t)(tab - p) : strlen(p);
			cr_assert(r.nf < ROW_FIELDS, "%s:%d: too many fields", name, lineno);
			if (k == 2 && p[0] == '\\' && p[1] == 'N') {
				r.null[r.nf] = true;
				r.f[r.nf] = tbl_unescape("", 0, &r.len[r.nf]);
			} else {
				r.f[r.nf] = tbl_unescape(p, k, &r.len[r.nf]);
			}
			r.nf++;
			if (!tab)
				break;
			p = tab + 1;
		}
		if (t.n == cap) {
			cap = cap ? cap * 2 : 64;
			t.rows = realloc(t.rows, cap * sizeof *t.rows);
			cr_assert(t.rows);
		}
		t.rows[t.n++] = r;
	}
	fclose(fp);
	cr_assert(t.n > 0, "%s has no rows", name);
	return t;
}

static inline void tbl_free(table *t)
{
	for (size_t i = 0; i < t->n; i++)
		for (int j = 0; j < t->rows[i].nf; j++)
			free(t->rows[i].f[j]);
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

/* Field i of r as text, "" when the row is shorter. */
static inline const char *tbl_f(const row *r, int i)
{
	return i < r->nf ? r->f[i] : "";
}

static inline size_t tbl_len(const row *r, int i)
{
	return i < r->nf ? r->len[i] : 0;
}

/* Checks a message against an expectation: "~text" means "contains text", else exact. */
static inline int tbl_msg_ok(const char *expect, const char *got)
{
	if (expect[0] == '~')
		return strstr(got, expect + 1) != NULL;
	return strcmp(expect, got) == 0;
}

/* Counts rows of kind (field 0). */
static inline size_t tbl_count(const table *t, const char *kind)
{
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++)
		k += strcmp(tbl_f(&t->rows[i], 0), kind) == 0;
	return k;
}
