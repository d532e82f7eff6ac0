/* SPDX-License-Identifier: Apache-2.0
** strmap.h: the library's one hash table, from byte strings to pointers: open addressing with
** linear probing on 64-bit FNV-1a (hash.h), at most half full, growing by doubling. A key is
** not copied: the caller keeps its bytes alive while the map holds it (a copy the caller owns
** and frees, or text that outlives the map). Nothing reads a map in its slots' order but to
** free what they hold, so the hash never reaches an output.
**     sl_strmap m = {0};
**     bool found;
**     sl_strmap_slot *s = sl_strmap_put(&m, key, len, &found);   -- NULL: out of memory
**     if (s && !found) s->val = ...;
**     for (size_t i = 0; i < m.cap; i++) if (m.v[i].key) free(m.v[i].val);
**     sl_strmap_free(&m); */
#ifndef SL_STRMAP_H
#define SL_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sl_strmap_slot {
	const char *key;             /* NULL: an empty slot */
	size_t len;
	uint64_t hash;
	void *val;
} sl_strmap_slot;

typedef struct sl_strmap {
	sl_strmap_slot *v;           /* cap slots (0 or a power of two) */
	size_t n, cap;
} sl_strmap;

/* The slot holding key [key, key + len), NULL when the map does not hold it. */
sl_strmap_slot *sl_strmap_get(const sl_strmap *m, const char *key, size_t len);
/* The slot of key [key, key + len): the one holding it (*found true), else a new one holding the
** key with val NULL (*found false), valid until the next put; NULL when out of memory (the map
** is unchanged). */
sl_strmap_slot *sl_strmap_put(sl_strmap *m, const char *key, size_t len, bool *found);
/* sl_strmap_put for a map that owns its keys: a new slot holds a copy of the key (the caller
** frees the keys before sl_strmap_free), a found one the key it had; NULL when out of memory
** (the map is unchanged). */
sl_strmap_slot *sl_strmap_put_copy(sl_strmap *m, const char *key, size_t len, bool *found);
/* Frees the table (not the keys or values); m is empty again. */
void sl_strmap_free(sl_strmap *m);

#endif
