/* SPDX-License-Identifier: Apache-2.0
** spelling.c: the closest candidate to a misspelt word (spelling.h). */
#include <stdint.h>
#include <string.h>
#include "util/spelling.h"

#define MAX_LEN 255

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Optimal string alignment distance, three rows of the dynamic programme. */
size_t sl_spelling_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > MAX_LEN || m > MAX_LEN)
		return SIZE_MAX;
	size_t rows[3][MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	for (size_t i = 1; i <= n; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			unsigned char ai = fold((unsigned char)a[i - 1]), bj = fold((unsigned char)b[j - 1]);
			size_t cost = ai != bj;
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && ai == fold((unsigned char)b[j - 2]) &&
			    fold((unsigned char)a[i - 2]) == bj && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[m];
}

void sl_spelling_init(sl_spelling *s, const char *word)
{
	*s = (sl_spelling){ .word = word, .best = NULL, .best_edits = SIZE_MAX };
}

void sl_spelling_consider(sl_spelling *s, const char *candidate)
{
	if (!s->word || !candidate)
		return;
	size_t d = sl_spelling_distance(s->word, candidate);
	if (d < s->best_edits) {
		s->best = candidate;
		s->best_edits = d;
	}
}

const char *sl_spelling_best(const sl_spelling *s)
{
	if (!s->best)
		return NULL;
	size_t len = strlen(s->word), limit = len / 3 > 1 ? len / 3 : 1;
	return s->best_edits <= limit ? s->best : NULL;
}

const char *sl_spelling_closest(const char *word, const char *const *candidates, size_t n)
{
	sl_spelling s;
	sl_spelling_init(&s, word);
	for (size_t i = 0; i < n; i++)
		sl_spelling_consider(&s, candidates[i]);
	return sl_spelling_best(&s);
}
