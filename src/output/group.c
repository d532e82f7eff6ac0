/* SPDX-License-Identifier: Apache-2.0
** group.c: findings or files grouped by a string (a path, a rule) for the reports that count or
** nest by it (junit.c, markdown.c), whatever order the run sorts them in. */
#include <stdlib.h>
#include <string.h>
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
