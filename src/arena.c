/* SPDX-License-Identifier: Apache-2.0
** arena.c: a chunked bump allocator. Chunks grow geometrically from 16 KiB; an allocation
** larger than a quarter chunk gets a chunk of its own so big scalars waste nothing.
** With SL_ARENA_MALLOC each allocation is a separate malloc block on a list. */
#include <stdarg.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"

#define ALIGN alignof(max_align_t)
#define FIRST_CHUNK (16u * 1024u)
#define MAX_CHUNK (1u * 1024u * 1024u)

struct chunk {
	struct chunk *next;
	size_t size, used;
	alignas(max_align_t) unsigned char data[];
};

struct sl_arena {
	struct chunk *head;     /* the chunk being filled; older ones follow */
	size_t next_size;
	size_t total;
};

static atomic_ulong fail_countdown;

void sl_alloc_fail_after(unsigned long n)
{
	atomic_store(&fail_countdown, n);
}

/* True when the injected failure is due now. */
static int injected_failure(void)
{
	unsigned long n = atomic_load(&fail_countdown);
	while (n > 0) {
		if (atomic_compare_exchange_weak(&fail_countdown, &n, n - 1))
			return n == 1;
	}
	return 0;
}

void *sl_xmalloc(size_t size)
{
	if (injected_failure())
		return NULL;
	return malloc(size ? size : 1);
}

void *sl_xrealloc(void *p, size_t size)
{
	if (injected_failure())
		return NULL;
	return realloc(p, size ? size : 1);
}

void *sl_xcalloc(size_t n, size_t size)
{
	if (injected_failure())
		return NULL;
	return calloc(n ? n : 1, size ? size : 1);
}

char *sl_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = sl_xmalloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

sl_arena *sl_arena_new(void)
{
	sl_arena *a = sl_xmalloc(sizeof *a);
	if (!a)
		return NULL;
	a->head = NULL;
	a->next_size = FIRST_CHUNK;
	a->total = 0;
	return a;
}

sl_arena *sl_arena_new_sized(size_t hint)
{
	sl_arena *a = sl_arena_new();
	if (!a)
		return NULL;
	size_t first = 1024;
	while (first < hint && first < MAX_CHUNK)
		first *= 2;
	a->next_size = first;
	return a;
}

void sl_arena_free(sl_arena *a)
{
	if (!a)
		return;
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
	free(a);
}

void sl_arena_reset(sl_arena *a)
{
	/* Keep the largest regular chunk (its size is a power of two up to MAX_CHUNK; a big
	** block's is not, unless by chance, and then it is as good a chunk as any). */
	struct chunk *keep = NULL;
#ifndef SL_ARENA_MALLOC
	for (struct chunk *c = a->head; c; c = c->next)
		if (c->size <= MAX_CHUNK && (!keep || c->size > keep->size))
			keep = c;
#endif
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		if (c != keep)
			free(c);
		c = next;
	}
	a->head = keep;
	a->total = 0;
	if (keep) {
		keep->next = NULL;
		keep->used = 0;
		if (a->next_size < keep->size * 2 && keep->size < MAX_CHUNK)
			a->next_size = keep->size * 2;
	}
}

#ifdef SL_ARENA_MALLOC
void *sl_arena_alloc(sl_arena *a, size_t size)
{
	if (size > SIZE_MAX - sizeof(struct chunk))
		return NULL;
	struct chunk *c = sl_xmalloc(sizeof *c + size);
	if (!c)
		return NULL;
	c->size = c->used = size;
	c->next = a->head;
	a->head = c;
	a->total += size;
	return c->data;
}
#else
void *sl_arena_alloc(sl_arena *a, size_t size)
{
	size_t need = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (need < size || need > SIZE_MAX - sizeof(struct chunk))
		return NULL;
	struct chunk *c = a->head;
	if (c && c->size - c->used >= need) {
		void *p = c->data + c->used;
		c->used += need;
		a->total += need;
		return p;
	}
	if (need > a->next_size / 4) {
		/* A big block: its own chunk, kept behind the current one. */
		struct chunk *big = sl_xmalloc(sizeof *big + need);
		if (!big)
			return NULL;
		big->size = big->used = need;
		if (c) {
			big->next = c->next;
			c->next = big;
		} else {
			big->next = NULL;
			a->head = big;
		}
		a->total += need;
		return big->data;
	}
	struct chunk *n = sl_xmalloc(sizeof *n + a->next_size);
	if (!n)
		return NULL;
	n->size = a->next_size;
	n->used = need;
	n->next = c;
	a->head = n;
	if (a->next_size < MAX_CHUNK)
		a->next_size *= 2;
	a->total += need;
	return n->data;
}
#endif

void *sl_arena_zalloc(sl_arena *a, size_t size)
{
	void *p = sl_arena_alloc(a, size);
	if (p)
		memset(p, 0, size);
	return p;
}

char *sl_arena_strndup(sl_arena *a, const char *s, size_t n)
{
	char *p = sl_arena_alloc(a, n + 1);
	if (!p)
		return NULL;
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *sl_arena_printf(sl_arena *a, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = sl_arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	if ((size_t)n < sizeof small) {
		memcpy(p, small, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return p;
}

size_t sl_arena_used(const sl_arena *a)
{
	return a->total;
}
