/* SPDX-License-Identifier: Apache-2.0
** arena.c: a chunked bump allocator. Chunks grow geometrically (to 1 MiB, or to 8 MiB in a
** file's arena, where huge pages are asked for); an allocation larger than a quarter chunk gets
** a chunk of its own so big scalars waste nothing.
** With SL_ARENA_MALLOC each allocation is a separate malloc block on a list. */
#include <stdarg.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "util/arena.h"

/* Everything kept in arenas is made of pointers, sizes, 32-bit integers and doubles: eight
** bytes is enough, and nodes (56 or 64 bytes) pack without padding. */
#define ALIGN ((size_t)8)
#define FIRST_CHUNK (16u * 1024u)
#define MAX_CHUNK (1u * 1024u * 1024u)
#define MAX_FILE_CHUNK (8u * 1024u * 1024u)   /* a file's arena: a huge file's tree */

struct chunk {
	struct chunk *next;
	size_t size, used;
	alignas(max_align_t) unsigned char data[];
};

struct sl_arena {
	sl_arena_room room;     /* the head chunk's free bytes, and the total (arena.h's inline
				** allocation reads and bumps them) */
	struct chunk *head;     /* the chunk being filled (its used is stale while it is: room
				** says); older ones follow */
	struct chunk *spare;    /* emptied by sl_arena_reset, handed out again before new ones */
	size_t next_size;
	size_t max_chunk;       /* chunks grow to this (regular chunks: reset keeps them) */
};

static atomic_ulong fail_countdown;

void sl_arena_fail_after(unsigned long n)
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

char *sl_xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = sl_xmalloc(len + 1);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

char *sl_xvprintf(const char *fmt, va_list ap)
{
	/* printed once into a buffer on the stack, copied when it fit (most strings: paths and
	** labels), printed again only when it did not: the printing is most of the cost */
	char buf[512];
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	char *p = n >= 0 ? sl_xmalloc((size_t)n + 1) : NULL;
	if (p && (size_t)n < sizeof buf)
		memcpy(p, buf, (size_t)n + 1);
	else if (p)
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}

char *sl_xprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = sl_xvprintf(fmt, ap);
	va_end(ap);
	return p;
}

sl_arena *sl_arena_new(void)
{
	sl_arena *a = sl_xmalloc(sizeof *a);
	if (!a)
		return NULL;
	a->head = NULL;
	a->spare = NULL;
	a->next_size = FIRST_CHUNK;
	a->max_chunk = MAX_CHUNK;
	a->room = (sl_arena_room){NULL, NULL, 0};
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
	a->max_chunk = MAX_FILE_CHUNK;
	return a;
}

static void free_chunks(struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
}

void sl_arena_free(sl_arena *a)
{
	if (!a)
		return;
	free_chunks(a->head);
	free_chunks(a->spare);
	free(a);
}

void sl_arena_reset(sl_arena *a)
{
	/* The regular chunks (at most max_chunk each) become spares, so the next file parsed into
	** the arena finds its memory already mapped: what a reused arena holds is bounded by the
	** largest file it has held. A big block of its own (a huge scalar) is freed. */
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
#ifndef SL_ARENA_MALLOC
		if (c->size <= a->max_chunk) {
			c->used = 0;
			c->next = a->spare;
			a->spare = c;
		} else
#endif
			free(c);
		c = next;
	}
	a->head = NULL;
	a->room = (sl_arena_room){NULL, NULL, 0};
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
	a->room.total += size;
	return c->data;
}
#else
/* A big chunk (a huge file's tree) is filled from start to end at once: where the kernel backs
** memory with transparent huge pages on request, ask for them, so filling it takes a few page
** faults instead of thousands. Only a hint; nothing depends on it. */
static void hint_huge_pages(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	const uintptr_t huge = (uintptr_t)2 << 20;
	if (size < 2 * huge)
		return;
	uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t hi = ((uintptr_t)p + size) & ~(huge - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p, (void)size;
#endif
}

/* bump when the head chunk has no room: a big block, a spare or a new chunk. Apart, so that
** the common case (millions of nodes and strings) saves no registers. */
__attribute__((noinline)) static void *bump_chunk(sl_arena *a, size_t size)
{
	if (size > SIZE_MAX - sizeof(struct chunk) - ALIGN)
		return NULL;
	struct chunk *c = a->head;
	if (size > a->next_size / 4) {
		/* A big block: its own chunk, kept behind the current one. */
		struct chunk *big = sl_xmalloc(sizeof *big + size);
		if (!big)
			return NULL;
		big->size = big->used = size;
		if (c) {
			big->next = c->next;
			c->next = big;
		} else {
			big->next = NULL;
			a->head = big;   /* full: no room */
		}
		a->room.total += size;
		return big->data;
	}
	/* a spare big enough, else a new chunk */
	struct chunk *n = NULL, **pp = &a->spare;
	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->size >= size) {
			n = *pp;
			*pp = n->next;
			break;
		}
	if (!n) {
		if (!(n = sl_xmalloc(sizeof *n + a->next_size)))
			return NULL;
		hint_huge_pages(n->data, a->next_size);
		n->size = a->next_size;
		if (a->next_size < a->max_chunk)
			a->next_size *= 2;
	}
	if (c && a->room.at)   /* the room is the head's (a big block made the head has none) */
		c->used = (size_t)(a->room.at - c->data);
	n->used = size;
	n->next = c;
	a->head = n;
	a->room.at = n->data + size;
	a->room.end = n->data + n->size;
	a->room.total += size;
	return n->data;
}

void *sl_arena_alloc_slow(sl_arena *a, size_t size)
{
	return bump_chunk(a, size);
}

/* size bytes at an offset that is a multiple of align (1 for strings; chunks' data are
** aligned to more than ALIGN). */
static inline void *bump(sl_arena *a, size_t size, size_t align)
{
	size_t pad = (size_t)-(uintptr_t)a->room.at & (align - 1);
	if (size + pad <= (size_t)(a->room.end - a->room.at) && size + pad >= size && a->room.at) {
		unsigned char *p = a->room.at + pad;
		a->room.at = p + size;
		a->room.total += size;
		return p;
	}
	return bump_chunk(a, size);
}

void *sl_arena_alloc(sl_arena *a, size_t size)
{
	return bump(a, size, ALIGN);
}
#endif

void *sl_arena_zalloc(sl_arena *a, size_t size)
{
	void *p = sl_arena_alloc(a, size);
	if (p)
		memset(p, 0, size);
	return p;
}

/* n bytes for text, which needs no alignment. */
static char *text_alloc(sl_arena *a, size_t n)
{
#ifdef SL_ARENA_MALLOC
	return sl_arena_alloc(a, n);
#else
	return bump(a, n, 1);
#endif
}

char *sl_arena_strndup(sl_arena *a, const char *s, size_t n)
{
	char *p = n < SIZE_MAX ? text_alloc(a, n + 1) : NULL;
	if (!p)
		return NULL;
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *sl_arena_vprintf(sl_arena *a, const char *fmt, va_list ap)
{
	char small[256];
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(small, sizeof small, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return NULL;
	char *p = text_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	if ((size_t)n < sizeof small)
		memcpy(p, small, (size_t)n + 1);
	else
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

/* The length of s[0..n) cut to at most cap - 3 bytes at a character boundary. */
static size_t cut_at(const char *s, size_t cap)
{
	size_t at = cap - 3;
	while (at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80)
		at--;   /* back to the first byte of the character cut */
	return at;
}

const char *sl_arena_cut(sl_arena *a, const char *s, size_t cap)
{
	if (!s || strnlen(s, cap + 1) <= cap)
		return s;
	size_t at = cut_at(s, cap);
	char *p = text_alloc(a, at + 4);
	if (!p)
		return NULL;
	memcpy(p, s, at);
	memcpy(p + at, "\u2026", 4);
	return p;
}

char *sl_arena_vprintf_cut(sl_arena *a, size_t cap, const char *fmt, va_list ap)
{
	char small[256];
	char *buf = cap < sizeof small ? small : sl_xmalloc(cap + 1);
	if (!buf)
		return NULL;
	int n = vsnprintf(buf, cap + 1, fmt, ap);
	size_t len = n < 0 ? 0 : (size_t)n <= cap ? (size_t)n : cut_at(buf, cap) + 3;
	if ((size_t)n > cap && n >= 0)
		memcpy(buf + len - 3, "\u2026", 3);
	char *p = n < 0 ? NULL : sl_arena_strndup(a, buf, len);
	if (buf != small)
		free(buf);
	return p;
}

char *sl_arena_printf(sl_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = sl_arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

void *sl_arena_grow(sl_arena *a, void *v, size_t n, size_t size)
{
	if (!sl_doubling_full(n))
		return v;   /* room left: n rounded up to a power of two is what was allocated */
	size_t cap = sl_doubling_cap(n);
	if (cap > SIZE_MAX / size)
		return NULL;
	void *nv = sl_arena_alloc(a, cap * size);
	if (nv && n)
		memcpy(nv, v, n * size);
	return nv;
}

size_t sl_arena_used(const sl_arena *a)
{
	return a->room.total;
}

const char *sl_arena_list_add(sl_arena *a, const char *list, const char *item)
{
	return list ? sl_arena_printf(a, "%s, %s", list, item) : item;
}
