/* SPDX-License-Identifier: Apache-2.0
** test_diff.c: the unified diffs of fixed files (src/yaml/diff.c, sl_diff_write): exact hunks (three
** lines of context, changes up to six equal lines apart in one hunk, deletions before
** insertions, "\\ No newline at end of file", CRLF kept, empty sides), minimal and applicable on
** random texts (checked against the textbook LCS), linear memory on 40 000 changes, and a write
** error reported. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "yaml/diff.h"

/* The diff of a and b as sl_diff_write writes it (malloc'd). */
static char *diff(const char *path, const char *a, const char *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	cr_assert_not_null(m);
	cr_assert_eq(sl_diff_write(m, path, a, strlen(a), b, strlen(b)), SL_OK);
	cr_assert_eq(fclose(m), 0);
	return buf;
}

/* The lines "1\n" to "n\n", line k reading with instead, and line k2 with2 (0: none). */
static char *numbered(int n, int k, const char *with, int k2, const char *with2)
{
	char *s = malloc((size_t)n * 16 + 64);
	cr_assert_not_null(s);
	size_t w = 0;
	for (int i = 1; i <= n; i++) {
		if (i == k || i == k2)
			w += (size_t)sprintf(s + w, "%s\n", i == k ? with : with2);
		else
			w += (size_t)sprintf(s + w, "%d\n", i);
	}
	return s;
}

Test(diff, unified_diff)
{
	const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
	const char *b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13";
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	cr_assert_eq(sl_diff_write(m, "f.yaml", a, strlen(a), b, strlen(b)), SL_OK);
	fclose(m);
	cr_expect_str_eq(buf, "--- f.yaml\n+++ f.yaml\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
			      "@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n\\ No newline at end of file\n");
	free(buf);
	buf = NULL;
	m = open_memstream(&buf, &len);
	cr_assert_eq(sl_diff_write(m, "f.yaml", a, strlen(a), a, strlen(a)), SL_OK);
	fclose(m);
	cr_expect_eq(len, 0, "no diff for equal texts");
	free(buf);
}

/* Applies a unified diff (as sl_diff_write writes it) to a; the result is malloc'd. */
static char *patch(const char *a, const char *diff, size_t *changed)
{
	size_t cap = strlen(a) + strlen(diff) + 1, w = 0;
	char *out = malloc(cap);
	const char *ap = a, *p = strchr(strchr(diff, '\n') + 1, '\n') + 1;   /* after the headers */
	long aline = 1;
	*changed = 0;
	while (*p) {
		long a0, ac, b0, bc;
		cr_assert_eq(sscanf(p, "@@ -%ld,%ld +%ld,%ld @@", &a0, &ac, &b0, &bc), 4, "bad hunk: %s", p);
		p = strchr(p, '\n') + 1;
		if (ac == 0)
			a0++;   /* "-3,0": the hunk goes after line 3 */
		while (aline < a0) {   /* copy the lines before the hunk */
			const char *e = strchr(ap, '\n');
			size_t l = e ? (size_t)(e - ap + 1) : strlen(ap);
			memcpy(out + w, ap, l);
			w += l;
			ap += l;
			aline++;
		}
		while (*p && *p != '@') {
			const char *e = strchr(p, '\n');
			size_t l = (size_t)(e - p);
			if (*p == '\\') {   /* "\ No newline at end of file": handled with its line */
				p = e + 1;
				continue;
			}
			if (*p == ' ' || *p == '-') {   /* the a line must be what the diff says */
				cr_assert_eq(strncmp(ap, p + 1, l - 1), 0, "context differs at a line %ld", aline);
				const char *ae = strchr(ap, '\n');
				ap = ae ? ae + 1 : ap + strlen(ap);
				aline++;
			}
			if (*p == ' ' || *p == '+') {
				memcpy(out + w, p + 1, l - 1);
				w += l - 1;
				/* a line without its break is followed by the marker */
				if (strncmp(e + 1, "\\ No newline", 12) != 0)
					out[w++] = '\n';
			}
			*changed += *p != ' ';
			p = e + 1;
		}
	}
	memcpy(out + w, ap, strlen(ap) + 1);
	return out;
}

/* The diff of random texts over a few distinct lines turns a into b, and is minimal: as many
** changed lines as n + m - 2 * LCS (checked against the textbook dynamic programme). */
Test(diff, diff_is_minimal_and_applies)
{
	static const char *const pool[] = {"a\n", "b\n", "c\n", "a", "d\n"};
	unsigned seed = 7;
	for (int round = 0; round < 2000; round++) {
		char a[256] = "", b[256] = "";
		const char *la[24], *lb[24];
		size_t n = (size_t)(round % 13), m = (size_t)((round / 13) % 11);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			la[i] = pool[(seed >> 16) % (i + 1 == n ? 5 : 3)];
			strcat(a, la[i]);
		}
		for (size_t i = 0; i < m; i++) {
			seed = seed * 1103515245u + 12345u;
			lb[i] = pool[(seed >> 16) % (i + 1 == m ? 5 : 3)];
			strcat(b, lb[i]);
		}
		size_t L[25][25] = {{0}};
		for (size_t i = n; i-- > 0;)
			for (size_t j = m; j-- > 0;)
				L[i][j] = strcmp(la[i], lb[j]) == 0 ? L[i + 1][j + 1] + 1
					  : L[i + 1][j] > L[i][j + 1] ? L[i + 1][j] : L[i][j + 1];
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		cr_assert_eq(sl_diff_write(f, "r.yaml", a, strlen(a), b, strlen(b)), SL_OK);
		fclose(f);
		if (strcmp(a, b) == 0) {
			cr_expect_eq(len, 0);
		} else {
			size_t changed;
			char *got = patch(a, buf, &changed);
			cr_expect_str_eq(got, b, "round %d: the diff does not turn a into b:\n%s", round, buf);
			cr_expect_eq(changed, n + m - 2 * L[0][0], "round %d: not minimal:\n%s", round, buf);
			free(got);
		}
		free(buf);
	}
}

/* 40 000 changed lines (every other line of an 80 000-line file): the diff takes memory in
** proportion to the lines (Myers' whole trace would be D^2 = 6.4e9 entries) and little time. */
Test(diff, diff_of_many_changes_is_linear_in_memory)
{
	enum { N = 80000 };
	char *a = malloc(N * 16), *b = malloc(N * 16);
	size_t al = 0, bl = 0;
	for (int i = 0; i < N; i++) {
		al += (size_t)sprintf(a + al, "k%06d: %s\n", i, i % 2 ? "true" : "x");
		bl += (size_t)sprintf(b + bl, "k%06d: %s\n", i, i % 2 ? "\"true\"" : "x");
	}
	struct rusage before, after;
	getrusage(RUSAGE_SELF, &before);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	cr_assert_eq(sl_diff_write(m, "big.yaml", a, al, b, bl), SL_OK);
	fclose(m);
	getrusage(RUSAGE_SELF, &after);
	long grew_kib = after.ru_maxrss - before.ru_maxrss;
	cr_expect_lt(grew_kib, 64 * 1024, "the diff took %ld KiB more", grew_kib);
	size_t plus = 0, minus = 0;
	for (char *p = buf; p && *p; p = strchr(p, '\n') + 1) {
		plus += p[0] == '+' && p[1] != '+';
		minus += p[0] == '-' && p[1] != '-';
	}
	cr_expect_eq(plus, N / 2);
	cr_expect_eq(minus, N / 2);
	size_t changed;
	char *got = patch(a, buf, &changed);
	cr_expect(strcmp(got, b) == 0, "the diff does not turn a into b");
	free(got);
	free(buf);
	free(a);
	free(b);
}

Test(diff, a_whole_file_inserted_or_deleted)
{
	char *d = diff("new.yaml", "", "a: 1\nb: 2\n");
	cr_expect_str_eq(d, "--- new.yaml\n+++ new.yaml\n@@ -0,0 +1,2 @@\n+a: 1\n+b: 2\n");
	free(d);
	d = diff("gone.yaml", "a: 1\nb: 2\n", "");
	cr_expect_str_eq(d, "--- gone.yaml\n+++ gone.yaml\n@@ -1,2 +0,0 @@\n-a: 1\n-b: 2\n");
	free(d);
}

/* Two changes with six equal lines between them share a hunk; with seven, each has its own
** (three lines of context each side, fewer at the start of the file). */
Test(diff, changes_six_lines_apart_share_a_hunk_seven_do_not)
{
	char *a = numbered(20, 0, NULL, 0, NULL);
	char *b = numbered(20, 3, "three", 10, "ten");
	char *d = diff("n.txt", a, b);
	cr_expect_str_eq(d, "--- n.txt\n+++ n.txt\n@@ -1,13 +1,13 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n"
			    " 7\n 8\n 9\n-10\n+ten\n 11\n 12\n 13\n");
	free(d);
	free(b);
	b = numbered(20, 3, "three", 11, "eleven");
	d = diff("n.txt", a, b);
	cr_expect_str_eq(d, "--- n.txt\n+++ n.txt\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n"
			    "@@ -8,7 +8,7 @@\n 8\n 9\n 10\n-11\n+eleven\n 12\n 13\n 14\n");
	free(d);
	free(b);
	/* the last line: context before it only */
	b = numbered(20, 20, "twenty", 0, NULL);
	d = diff("n.txt", a, b);
	cr_expect_str_eq(d, "--- n.txt\n+++ n.txt\n@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n+twenty\n");
	free(d);
	free(b);
	free(a);
}

Test(diff, a_run_of_changes_lists_its_deletions_first)
{
	char *d = diff("f.yaml", "x\na\nb\ny\n", "x\nA\nB\nC\ny\n");
	cr_expect_str_eq(d, "--- f.yaml\n+++ f.yaml\n@@ -1,4 +1,5 @@\n x\n-a\n-b\n+A\n+B\n+C\n y\n");
	free(d);
}

/* A last line without its line break is a different line from the same text with one, and the
** marker follows it on whichever side it is. */
Test(diff, the_missing_final_newline_is_marked)
{
	char *d = diff("f.yaml", "a: 1\nb: 2", "a: 1\nb: 2\n");
	cr_expect_str_eq(d, "--- f.yaml\n+++ f.yaml\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n"
			    "\\ No newline at end of file\n+b: 2\n");
	free(d);
	d = diff("f.yaml", "a: 1\nb: 2\n", "a: 1\nb: 3");
	cr_expect_str_eq(d, "--- f.yaml\n+++ f.yaml\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"
			    "\\ No newline at end of file\n");
	free(d);
}

/* CRLF files: the lines are written with their own line breaks; the path as given. */
Test(diff, crlf_lines_and_the_path_are_kept)
{
	char *d = diff("my dir/f.yaml", "a: 1\r\nb: 2\r\n", "a: 1\r\nb: \"2\"\r\n");
	cr_expect_str_eq(d, "--- my dir/f.yaml\n+++ my dir/f.yaml\n@@ -1,2 +1,2 @@\n a: 1\r\n-b: 2\r\n"
			    "+b: \"2\"\r\n");
	free(d);
}

/* A stream that cannot be written (a full device) gives SL_EIO, not a silent short diff. */
Test(diff, a_write_error_is_reported)
{
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		cr_skip_test("no /dev/full");
	setvbuf(full, NULL, _IONBF, 0);
	cr_expect_eq(sl_diff_write(full, "f.yaml", "a\n", 2, "b\n", 2), SL_EIO);
	fclose(full);
}
