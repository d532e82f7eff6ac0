/* SPDX-License-Identifier: Apache-2.0
** arena.h: the per-file bump allocator. One arena owns a file's tree, typed objects and
** findings; nothing in it is freed one by one, the whole arena goes at once.
** Built with -DSL_ARENA_MALLOC (sanitizer builds), every allocation is its own malloc block
** so AddressSanitizer sees overflows between objects. Allocation failure returns NULL. */
#ifndef SL_ARENA_H
#define SL_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct sl_arena sl_arena;

/* A new empty arena, or NULL when out of memory. */
sl_arena *sl_arena_new(void);
/* A new arena whose first chunk suits about `hint` bytes of allocations (a small file gets a
** small first chunk; later chunks double as usual). */
sl_arena *sl_arena_new_sized(size_t hint);
/* Frees every allocation of a, then a itself; NULL is a no-op. */
void sl_arena_free(sl_arena *a);
/* Frees every allocation of a but keeps a itself and its chunks (not a big block's), so the
** next file parsed into it (a thread's scratch arena) reuses memory already mapped instead of
** faulting in and fragmenting more. */
void sl_arena_reset(sl_arena *a);
/* size bytes aligned to 8 (pointers, sizes, doubles: all an arena holds), uninitialised; NULL
** when out of memory. Strings (strndup, printf) are packed with no alignment. */
void *sl_arena_alloc(sl_arena *a, size_t size);
/* The head of an arena (arena.c's struct sl_arena begins with it): the free bytes of the chunk
** being filled, and the bytes handed out so far. Read by sl_arena_alloc_inline alone. */
typedef struct sl_arena_room {
	unsigned char *at, *end;
	size_t total;
} sl_arena_room;
/* sl_arena_alloc when the chunk being filled has no room: a new chunk, a spare or a big
** block. */
void *sl_arena_alloc_slow(sl_arena *a, size_t size);
/* sl_arena_alloc in the caller, for the hottest allocations (a tree's nodes): size (> 0)
** bytes aligned to 8 from the chunk being filled, else sl_arena_alloc_slow. The same bytes
** and the same sl_arena_used as sl_arena_alloc. */
static inline void *sl_arena_alloc_inline(sl_arena *a, size_t size)
{
#ifdef SL_ARENA_MALLOC
	return sl_arena_alloc(a, size);
#else
	sl_arena_room *r = (sl_arena_room *)a;
	size_t pad = (size_t)(-(__UINTPTR_TYPE__)r->at & 7u);
	if (size + pad <= (size_t)(r->end - r->at) && size + pad >= size) {
		unsigned char *p = r->at + pad;
		r->at = p + size;
		r->total += size;
		return p;
	}
	return sl_arena_alloc_slow(a, size);
#endif
}
/* size zeroed bytes; NULL when out of memory. */
void *sl_arena_zalloc(sl_arena *a, size_t size);
/* A NUL-terminated copy of s[0..n); NULL when out of memory. */
char *sl_arena_strndup(sl_arena *a, const char *s, size_t n);
/* A printf-formatted string in a; NULL when out of memory. */
char *sl_arena_printf(sl_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* list with item appended, ", " between: item itself when list is NULL (an arena string, or
** item); NULL when out of memory. How a message names several things. */
const char *sl_arena_list_add(sl_arena *a, const char *list, const char *item);
/* sl_arena_printf with a va_list (ap is consumed). */
char *sl_arena_vprintf(sl_arena *a, const char *fmt, va_list ap);
/* The most of one name or value a message, a note or a finding's fields quote: a manifest's
** name can be a megabyte, and is quoted in every finding of its object (names are at most 253
** characters in Kubernetes). */
#define SL_QUOTED_MAX 256
/* s when it is at most cap bytes, else its first bytes (never inside a UTF-8 sequence) and
** "\u2026" in at most cap bytes, copied into a (cap >= 4); NULL when out of memory (s NULL:
** NULL). */
const char *sl_arena_cut(sl_arena *a, const char *s, size_t cap);
/* sl_arena_vprintf cut as sl_arena_cut cuts (ap is consumed): whatever the arguments, at most
** cap + 1 bytes of a are used. */
char *sl_arena_vprintf_cut(sl_arena *a, size_t cap, const char *fmt, va_list ap);
/* An array of n elements of size bytes, v, with room for one more: v itself while its room
** lasts, else a copy in a with twice the room. The room is implied by n (sl_doubling_full's
** rule, below), so an array must only ever grow through this (never be made another way and then
** grown), one element at a time: then appending n elements costs O(n) time and arena, not
** O(n^2) as a copy per element does. NULL when out of memory. */
void *sl_arena_grow(sl_arena *a, void *v, size_t n, size_t size);
/* Bytes handed out so far (for limits and the benchmark). */
size_t sl_arena_used(const sl_arena *a);

/* Allocation failure injection for the OOM tests: the nth allocation from now (counting
** every arena and every sl_xmalloc call in this process) fails; 0 turns injection off. */
void sl_arena_fail_after(unsigned long n);
/* malloc/realloc that honour the failure injection; the library uses them for everything
** outside arenas. */
void *sl_xmalloc(size_t size);
void *sl_xrealloc(void *p, size_t size);
void *sl_xcalloc(size_t n, size_t size);
char *sl_xstrdup(const char *s);
/* A NUL-terminated copy of at most n bytes of s. */
char *sl_xstrndup(const char *s, size_t n);
/* An array of n elements that grows by doubling holds n rounded up to a power of two: it is
** full, and must be made 2n long (1 when empty), when n is 0 or a power of two. Growing only
** then, n appends cost n copies, not n^2/2, and no capacity need be stored beside n. */
static inline int sl_doubling_full(size_t n) { return (n & (n - 1)) == 0; }
static inline size_t sl_doubling_cap(size_t n) { return n ? 2 * n : 1; }
/* A printf-formatted malloc'd string; NULL when out of memory. */
char *sl_xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* sl_xprintf with a va_list (ap is consumed). */
char *sl_xvprintf(const char *fmt, va_list ap);

#endif
