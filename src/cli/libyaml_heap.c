/* SPDX-License-Identifier: Apache-2.0
** libyaml_heap.c: libyaml's allocation, for the program. libyaml gives every token's text, every
** event's strings and its buffers their own malloc'd block, freed soon after: millions of
** blocks a run, and a fifth of libyaml's own instructions spent in malloc and free. libyaml
** calls its allocation functions (yaml_malloc, yaml_realloc, yaml_strdup, yaml_free) through
** its procedure linkage table, so these definitions, which the program exports, take their
** place (where libyaml binds them itself, its own run, and every block is still theirs).
**
** Per thread, blocks of 16 B to 64 KiB (a 16-byte header included) in power-of-two classes,
** carved from 256 KiB slabs and kept on a free list per class once freed; larger ones from
** malloc. A thread's heap goes back to a pool when the thread ends, for the next thread, and
** the slabs live until the process ends (a block may be freed on another thread than made it:
** it joins that thread's list). Memory never goes back to malloc, so what a thread holds is
** what its largest parse needed at once; a leak checker sees the slabs still reachable.
**
** The library (libschedlint.so) does not do this to its host: only the program does. A build
** with AddressSanitizer keeps libyaml's own functions, so every block stays one it checks. */
#if !defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define HDR 16u                        /* the class, before each block (keeps 16-byte alignment) */
#define N_CLASSES 13u                  /* 16 B << 0 .. 16 B << 12 = 64 KiB */
#define BIG UINT64_MAX                 /* a block of malloc's own */
#define SLAB ((size_t)256 * 1024)

struct heap {
	void *free[N_CLASSES];         /* blocks given back, linked through their header's second word */
	unsigned char *bump, *end;     /* the slab being carved */
	struct heap *next;             /* in the pool */
};

static __thread struct heap *mine;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct heap *pool;              /* the heaps of threads that ended */
static void *slabs;                    /* every slab, linked through its first word */
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void give_back(void *p)
{
	struct heap *h = p;
	pthread_mutex_lock(&lock);
	h->next = pool;
	pool = h;
	pthread_mutex_unlock(&lock);
}

static void make_key(void)
{
	if (pthread_key_create(&key, give_back) != 0)
		key = (pthread_key_t)-1;
}

/* The calling thread's heap, NULL when out of memory. */
static struct heap *heap(void)
{
	if (mine)
		return mine;
	pthread_once(&key_once, make_key);
	pthread_mutex_lock(&lock);
	struct heap *h = pool;
	if (h)
		pool = h->next;
	pthread_mutex_unlock(&lock);
	if (!h && !(h = calloc(1, sizeof *h)))
		return NULL;
	if (key != (pthread_key_t)-1)
		pthread_setspecific(key, h);   /* given back when the thread ends */
	return mine = h;
}

/* A block of malloc's own, for what the classes do not hold. */
static void *big(size_t size)
{
	if (size > SIZE_MAX - HDR)
		return NULL;
	unsigned char *p = malloc(size + HDR);
	if (!p)
		return NULL;
	*(uint64_t *)p = BIG;
	return p + HDR;
}

/* A block of class c from h's current slab, or a new one. */
static void *carve(struct heap *h, unsigned c)
{
	size_t sz = (size_t)HDR << c;
	if ((size_t)(h->end - h->bump) < sz) {
		unsigned char *s = malloc(SLAB);
		if (!s)
			return NULL;
		pthread_mutex_lock(&lock);
		*(void **)s = slabs;
		slabs = s;
		pthread_mutex_unlock(&lock);
		h->bump = s + HDR;             /* the link, then whole blocks */
		h->end = s + SLAB;
	}
	unsigned char *p = h->bump;
	h->bump += sz;
	*(uint64_t *)p = c;
	return p + HDR;
}

/* The class of a block of size bytes (its header included): 0 for 16 B, 12 for 64 KiB. */
static unsigned class_of(size_t size)
{
	return 60u - (unsigned)__builtin_clzll((unsigned long long)((size + HDR - 1) | (HDR - 1)));
}

/* yaml_malloc without a free block at hand: the thread's first, a new block from the slab, or
** one of malloc's own. Apart, so that the common case saves no registers. */
__attribute__((noinline, cold)) static void *malloc_slow(size_t size)
{
	struct heap *h;
	if (size > ((size_t)HDR << (N_CLASSES - 1)) - HDR || !(h = heap()))
		return big(size);
	unsigned c = class_of(size);
	void *b = h->free[c];
	if (b) {
		h->free[c] = *(void **)((unsigned char *)b - HDR / 2);
		return b;
	}
	return carve(h, c);
}

void *yaml_malloc(size_t size)
{
	struct heap *h = mine;
	if (h && size <= ((size_t)HDR << (N_CLASSES - 1)) - HDR) {
		unsigned c = class_of(size);
		void *b = h->free[c];
		if (b) {
			h->free[c] = *(void **)((unsigned char *)b - HDR / 2);
			return b;
		}
	}
	return malloc_slow(size);
}

/* yaml_free of a block of malloc's own, or on a thread without a heap yet. */
__attribute__((noinline, cold)) static void free_slow(void *p)
{
	unsigned char *b = (unsigned char *)p - HDR;
	uint64_t c = *(uint64_t *)b;
	struct heap *h;
	if (c == BIG || !(h = heap())) {
		if (c == BIG)
			free(b);
		return;   /* no heap to take it: the block stays in its slab */
	}
	*(void **)(b + HDR / 2) = h->free[c];
	h->free[c] = p;
}

void yaml_free(void *p)
{
	if (!p)
		return;
	unsigned char *b = (unsigned char *)p - HDR;
	uint64_t c = *(uint64_t *)b;
	struct heap *h = mine;
	if (c == BIG || !h) {
		free_slow(p);
		return;
	}
	*(void **)(b + HDR / 2) = h->free[c];
	h->free[c] = p;
}

void *yaml_realloc(void *p, size_t size)
{
	if (!p)
		return yaml_malloc(size);
	unsigned char *b = (unsigned char *)p - HDR;
	uint64_t c = *(uint64_t *)b;
	if (c == BIG) {
		if (size > SIZE_MAX - HDR)
			return NULL;
		unsigned char *nb = realloc(b, size + HDR);
		return nb ? nb + HDR : NULL;
	}
	size_t have = ((size_t)HDR << c) - HDR;
	if (size <= have)
		return p;
	void *q = yaml_malloc(size);
	if (!q)
		return NULL;
	memcpy(q, p, have);
	yaml_free(p);
	return q;
}

yaml_char_t *yaml_strdup(const yaml_char_t *s)
{
	if (!s)
		return NULL;
	size_t n = strlen((const char *)s) + 1;
	yaml_char_t *d = yaml_malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

#endif
