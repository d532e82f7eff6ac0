/* SPDX-License-Identifier: Apache-2.0
** strmap.c: a string-keyed hash table (strmap.h). */
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "util/hash.h"
#include "util/strmap.h"

/* The slot of key (hash h) in v (cap slots): the one holding it, or the empty one where it
** goes. */
static sl_strmap_slot *slot(sl_strmap_slot *v, size_t cap, const char *key, size_t len, uint64_t h)
{
	for (size_t i = h & (cap - 1); ; i = (i + 1) & (cap - 1)) {
		sl_strmap_slot *s = &v[i];
		if (!s->key || (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0))
			return s;
	}
}

sl_strmap_slot *sl_strmap_get(const sl_strmap *m, const char *key, size_t len)
{
	if (!m->cap)
		return NULL;
	sl_strmap_slot *s = slot(m->v, m->cap, key, len, sl_hash_bytes(SL_HASH_INIT, key, len));
	return s->key ? s : NULL;
}

sl_strmap_slot *sl_strmap_put_copy(sl_strmap *m, const char *key, size_t len, bool *found)
{
	sl_strmap_slot *s = sl_strmap_get(m, key, len);
	*found = s != NULL;
	if (s)
		return s;
	char *k = sl_xmalloc(len + 1);   /* all len bytes, NUL-terminated for the caller */
	if (k) {
		memcpy(k, key, len);
		k[len] = '\0';
	}
	s = k ? sl_strmap_put(m, k, len, found) : NULL;
	if (!s)
		free(k);
	return s;
}

sl_strmap_slot *sl_strmap_put(sl_strmap *m, const char *key, size_t len, bool *found)
{
	uint64_t h = sl_hash_bytes(SL_HASH_INIT, key, len);
	sl_strmap_slot *s = m->cap ? slot(m->v, m->cap, key, len, h) : NULL;
	*found = s && s->key;
	if (*found)
		return s;
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		sl_strmap_slot *v = sl_xcalloc(cap, sizeof *v);
		if (!v)
			return NULL;
		for (size_t i = 0; i < m->cap; i++)
			if (m->v[i].key)
				*slot(v, cap, m->v[i].key, m->v[i].len, m->v[i].hash) = m->v[i];
		free(m->v);
		m->v = v;
		m->cap = cap;
		s = slot(m->v, m->cap, key, len, h);
	}
	*s = (sl_strmap_slot){key, len, h, NULL};
	m->n++;
	return s;
}

void sl_strmap_free(sl_strmap *m)
{
	free(m->v);
	*m = (sl_strmap){0};
}
