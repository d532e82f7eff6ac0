/* SPDX-License-Identifier: Apache-2.0
** support.c: file helpers the test harnesses share (reading in chunks, so pipes and files of
** any size work alike). */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "support.h"

char *sl_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0, r;
	char *s = malloc(cap);
	cr_assert(s);
	while ((r = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 >= cap) {
			s = realloc(s, cap *= 2);
			cr_assert(s);
		}
	}
	s[n] = '\0';
	fclose(f);
	if (len)
		*len = n;
	return s;
}

void sl_test_spit(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f, "cannot write %s", path);
	cr_assert_eq(fwrite(data, 1, len, f), len, "cannot write %s", path);
	fclose(f);
}

void sl_test_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("[NOTE] ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
