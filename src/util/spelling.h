/* SPDX-License-Identifier: Apache-2.0
** spelling.h: "did you mean ...?": the candidate of a closed set (rule ids, Knative flags, a
** config enumeration) closest to a word that is not in it, by Damerau-Levenshtein distance
** (the optimal string alignment form: insertions, deletions, substitutions and transpositions
** of two adjacent characters, each one edit; ASCII case ignored), when it is close enough to be
** a misspelling of it. Every message that suggests a spelling goes through here. */
#ifndef SL_SPELLING_H
#define SL_SPELLING_H

#include <stddef.h>
#include "schedlint/rules.h"   /* sl_spelling_closest: public */

/* A search for the closest candidate: init with the word, consider each candidate, then best. */
typedef struct sl_spelling {
	const char *word;
	const char *best;     /* the closest candidate so far (the first of equals), or NULL */
	size_t best_edits;
} sl_spelling;

void sl_spelling_init(sl_spelling *s, const char *word);
void sl_spelling_consider(sl_spelling *s, const char *candidate);
/* The closest candidate considered when it is at most max(1, length of the word / 3) edits
** away (so "nodeselectr" finds "nodeselector", "gcp" does not find "gke"); else NULL. */
const char *sl_spelling_best(const sl_spelling *s);

/* The edit distance between a and b as above; SIZE_MAX when either is longer than 255 bytes. */
size_t sl_spelling_distance(const char *a, const char *b);

/* sl_spelling_closest (schedlint/rules.h): sl_spelling_best over candidates[0..n). */

#endif
