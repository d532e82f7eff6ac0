/* SPDX-License-Identifier: Apache-2.0
** test_arena.c: the per-file bump allocator (src/util/arena.c): alignment of every allocation,
** blocks larger than a chunk, strndup/printf (short and longer than printf's 256-byte
** buffer), sl_arena_used accounting, size overflow, and allocation-failure injection
** through sl_arena_fail_after (NULL back, never a crash, the arena still usable after). */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

#define ALIGN ((size_t)8)

static int aligned(const void *p)
{
	return ((uintptr_t)p % ALIGN) == 0;
}

/* Every test starts and ends with failure injection off (it is process-wide). */
static void reset(void)
{
	sl_arena_fail_after(0);
}

TestSuite(arena, .init = reset, .fini = reset);

Test(arena, new_arena_is_empty)
{
	sl_arena *a = sl_arena_new();
	cr_assert_not_null(a);
	cr_expect_eq(sl_arena_used(a), 0);
	sl_arena_free(a);
	sl_arena_free(NULL);   /* a no-op */
}

Test(arena, every_allocation_is_aligned_for_what_arenas_hold)
{
	sl_arena *a = sl_arena_new();
	cr_assert_not_null(a);
	/* Odd sizes that would misalign a naive bump pointer, enough to fill several chunks. */
	static const size_t sizes[] = {1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 100, 255, 1000};
	for (int round = 0; round < 400; round++) {
		for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			unsigned char *p = sl_arena_alloc(a, sizes[i]);
			cr_assert_not_null(p);
			cr_assert(aligned(p), "alloc(%zu) in round %d returned %p, not aligned to %zu",
				  sizes[i], round, (void *)p, (size_t)ALIGN);
			memset(p, 0xA5, sizes[i]);   /* writable over its whole size */
		}
	}
	cr_expect_gt(sl_arena_used(a), 64u * 1024u, "the rounds spanned several chunks");
	sl_arena_free(a);
}

Test(arena, strings_do_not_misalign_later_allocations)
{
	sl_arena *a = sl_arena_new();
	for (int i = 0; i < 2000; i++) {
		/* strings are packed (no alignment), what follows them is aligned again */
		char *s = sl_arena_strndup(a, "abcdefghij", (size_t)(i % 11));
		cr_assert_not_null(s);
		cr_assert_eq(strncmp(s, "abcdefghij", (size_t)(i % 11)), 0);
		cr_assert_eq(s[i % 11], '\0');
		char *f = sl_arena_printf(a, "%d", i);
		cr_assert_not_null(f);
		cr_assert_eq(atoi(f), i);
		double *d = sl_arena_alloc(a, sizeof *d);
		cr_assert(aligned(d));
		*d = i;
	}
	sl_arena_free(a);
}

Test(arena, zalloc_returns_zeroed_memory_even_when_reusing_a_chunk)
{
	sl_arena *a = sl_arena_new();
	unsigned char *dirty = sl_arena_alloc(a, 64);
	memset(dirty, 0xFF, 64);
	for (int i = 0; i < 50; i++) {
		unsigned char *z = sl_arena_zalloc(a, 200);
		cr_assert_not_null(z);
		cr_assert(aligned(z));
		for (int j = 0; j < 200; j++)
			cr_assert_eq(z[j], 0, "byte %d of zalloc %d is %u", j, i, z[j]);
		memset(z, 0xFF, 200);
	}
	sl_arena_free(a);
}

Test(arena, allocations_do_not_overlap)
{
	sl_arena *a = sl_arena_new();
	enum { N = 3000 };
	unsigned char *ps[N];
	size_t sz[N];
	for (int i = 0; i < N; i++) {
		sz[i] = (size_t)(i % 97) + 1;
		ps[i] = sl_arena_alloc(a, sz[i]);
		cr_assert_not_null(ps[i]);
		memset(ps[i], i & 0xFF, sz[i]);
	}
	for (int i = 0; i < N; i++)
		for (size_t j = 0; j < sz[i]; j++)
			cr_assert_eq(ps[i][j], (unsigned char)(i & 0xFF),
				     "allocation %d was overwritten at byte %zu", i, j);
	sl_arena_free(a);
}

Test(arena, block_larger_than_a_chunk)
{
	sl_arena *a = sl_arena_new();
	/* A small allocation first, so a current chunk exists. */
	char *small1 = sl_arena_alloc(a, 32);
	memset(small1, 's', 32);
	size_t sizes[] = {16u * 1024u + 1u, 1u << 20, (3u << 20) + 5u};
	unsigned char *big[3];
	for (int i = 0; i < 3; i++) {
		size_t before = sl_arena_used(a);
		big[i] = sl_arena_alloc(a, sizes[i]);
		cr_assert_not_null(big[i], "alloc(%zu)", sizes[i]);
		cr_assert(aligned(big[i]));
		memset(big[i], 'A' + i, sizes[i]);
		cr_expect_geq(sl_arena_used(a) - before, sizes[i], "used grew by the block's size");
	}
	/* Small allocations after the big ones still work and land outside them. */
	char *small2 = sl_arena_alloc(a, 32);
	cr_assert_not_null(small2);
	cr_assert(aligned(small2));
	memset(small2, 't', 32);
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(big[i][0], 'A' + i);
		cr_expect_eq(big[i][sizes[i] / 2], 'A' + i);
		cr_expect_eq(big[i][sizes[i] - 1], 'A' + i, "last byte of block %d", i);
	}
	for (int j = 0; j < 32; j++) {
		cr_expect_eq(small1[j], 's');
		cr_expect_eq(small2[j], 't');
	}
	sl_arena_free(a);
}

Test(arena, big_block_as_first_allocation)
{
	sl_arena *a = sl_arena_new();
	unsigned char *p = sl_arena_alloc(a, 2u << 20);
	cr_assert_not_null(p);
	cr_assert(aligned(p));
	memset(p, 1, 2u << 20);
	char *s = sl_arena_strndup(a, "after", 5);
	cr_assert_str_eq(s, "after");
	cr_expect_eq(p[(2u << 20) - 1], 1);
	sl_arena_free(a);
}

Test(arena, used_counts_every_allocation)
{
	sl_arena *a = sl_arena_new();
	size_t total = 0;
	static const size_t sizes[] = {1, 16, 17, 100, 5000, 70000};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		size_t before = sl_arena_used(a);
		cr_assert_not_null(sl_arena_alloc(a, sizes[i]));
		size_t grew = sl_arena_used(a) - before;
		cr_expect_geq(grew, sizes[i], "alloc(%zu) grew used by %zu", sizes[i], grew);
		cr_expect_lt(grew, sizes[i] + ALIGN, "alloc(%zu) grew used by %zu (padding only)",
			     sizes[i], grew);
		total += sizes[i];
	}
	cr_expect_geq(sl_arena_used(a), total);
	size_t before = sl_arena_used(a);
	sl_arena_strndup(a, "hello", 5);
	cr_expect_geq(sl_arena_used(a) - before, 6, "strndup counts the NUL");
	sl_arena_free(a);
}

Test(arena, strndup_copies_exactly_n_bytes)
{
	sl_arena *a = sl_arena_new();
	const char src[] = "abc\0def";
	char *s = sl_arena_strndup(a, "hello world", 5);
	cr_assert_str_eq(s, "hello");
	char *e = sl_arena_strndup(a, "xyz", 0);
	cr_assert_not_null(e);
	cr_assert_str_eq(e, "");
	/* Not a C-string copy: embedded NULs are copied, the result is terminated after n. */
	char *z = sl_arena_strndup(a, src, 7);
	cr_assert_eq(memcmp(z, src, 7), 0);
	cr_assert_eq(z[7], '\0');
	/* The source need not be NUL-terminated. */
	char raw[4] = {'w', 'x', 'y', 'z'};
	char *r = sl_arena_strndup(a, raw, 4);
	cr_assert_str_eq(r, "wxyz");
	cr_assert_neq((void *)r, (void *)raw);
	sl_arena_free(a);
}

Test(arena, printf_short_and_boundaries)
{
	sl_arena *a = sl_arena_new();
	cr_assert_str_eq(sl_arena_printf(a, "%s-%d-%zu", "x", -7, (size_t)42), "x--7-42");
	cr_assert_str_eq(sl_arena_printf(a, "%s", ""), "");
	/* 255 characters fits the internal buffer with its NUL; 256 does not. */
	for (int n = 254; n <= 258; n++) {
		char *s = sl_arena_printf(a, "%*s|", n - 1, "x");
		cr_assert_not_null(s);
		cr_assert_eq(strlen(s), (size_t)n, "length %d", n);
		cr_assert_eq(s[n - 2], 'x');
		cr_assert_eq(s[n - 1], '|');
		cr_assert_eq(s[0], ' ');
	}
	sl_arena_free(a);
}

Test(arena, printf_longer_than_256_bytes)
{
	sl_arena *a = sl_arena_new();
	char want[1201];
	for (int i = 0; i < 1200; i++)
		want[i] = (char)('a' + i % 26);
	want[1200] = '\0';
	/* Arguments are consumed twice on this path: the result must still be right. */
	char *s = sl_arena_printf(a, "<%s|%d|%s>", want, 12345, "tail");
	cr_assert_not_null(s);
	cr_assert(aligned(s));
	cr_assert_eq(strlen(s), 1 + 1200 + 12);
	cr_assert_eq(strncmp(s + 1, want, 1200), 0);
	cr_assert_str_eq(s + 1201, "|12345|tail>");
	cr_assert_eq(s[0], '<');
	/* A later allocation does not overwrite it. */
	char *t = sl_arena_printf(a, "%0300d", 9);
	cr_assert_eq(strlen(t), 300);
	cr_assert_eq(t[299], '9');
	cr_assert_eq(strncmp(s + 1, want, 1200), 0);
	sl_arena_free(a);
}

Test(arena, size_overflow_returns_null)
{
	sl_arena *a = sl_arena_new();
	cr_expect_null(sl_arena_alloc(a, SIZE_MAX));
	cr_expect_null(sl_arena_alloc(a, SIZE_MAX - 7));
	cr_expect_eq(sl_arena_used(a), 0, "a failed allocation is not counted");
	/* The arena is still usable. */
	cr_assert_str_eq(sl_arena_strndup(a, "ok", 2), "ok");
	sl_arena_free(a);
}

/* The rounded size plus the chunk header must not wrap around to a tiny malloc. */
Test(arena, size_near_max_with_header_overflow_returns_null)
{
	sl_arena *a = sl_arena_new();
	for (size_t d = 16; d <= 80; d += 8)
		cr_expect_null(sl_arena_alloc(a, SIZE_MAX - d), "alloc(SIZE_MAX - %zu)", d);
	sl_arena_free(a);
}

Test(arena, injected_failure_of_arena_new)
{
	sl_arena_fail_after(1);
	cr_assert_null(sl_arena_new());
	/* One failure only: the next call succeeds. */
	sl_arena *a = sl_arena_new();
	cr_assert_not_null(a);
	sl_arena_free(a);
}

Test(arena, injected_failure_of_first_chunk)
{
	sl_arena *a = sl_arena_new();
	sl_arena_fail_after(1);
	cr_expect_null(sl_arena_alloc(a, 10));
	cr_expect_eq(sl_arena_used(a), 0);
	void *p = sl_arena_alloc(a, 10);
	cr_expect_not_null(p, "injection fires once");
	sl_arena_free(a);
}

Test(arena, injected_failure_counts_down)
{
	sl_arena *a = sl_arena_new();
	/* The 3rd allocation from now fails: two sl_xmalloc succeed first. */
	sl_arena_fail_after(3);
	void *x = sl_xmalloc(8);
	void *y = sl_xmalloc(8);
	cr_assert_not_null(x);
	cr_assert_not_null(y);
	cr_expect_null(sl_arena_alloc(a, 8), "third allocation (the first chunk) fails");
	free(x);
	free(y);
	sl_arena_free(a);
}

Test(arena, injected_failure_of_each_string_helper)
{
	sl_arena *a = sl_arena_new();
	cr_assert_not_null(sl_arena_alloc(a, 8));   /* a current chunk exists */
	size_t used = sl_arena_used(a);

	/* Big requests need a fresh malloc even with room in the chunk. */
	static char big[30000];
	memset(big, 'q', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	sl_arena_fail_after(1);
	cr_expect_null(sl_arena_alloc(a, 100000));
	sl_arena_fail_after(1);
	cr_expect_null(sl_arena_zalloc(a, 100000));
	sl_arena_fail_after(1);
	cr_expect_null(sl_arena_strndup(a, big, 20000));
	cr_expect_eq(sl_arena_used(a), used, "failed allocations are not counted");

	/* Exhaust the first chunk so a small request needs a new chunk, then fail it. */
	while (sl_arena_used(a) < 16u * 1024u - 64u)
		cr_assert_not_null(sl_arena_alloc(a, 16));
	for (int i = 0; i < 8; i++) {
		sl_arena_fail_after(1);
		if (!sl_arena_printf(a, "%s", big))
			break;
	}
	sl_arena_fail_after(0);
	cr_expect_not_null(sl_arena_printf(a, "%s", big), "usable after failures");
	sl_arena_free(a);
}

Test(arena, injected_failure_of_x_helpers)
{
	sl_arena_fail_after(1);
	cr_expect_null(sl_xmalloc(4));
	sl_arena_fail_after(1);
	cr_expect_null(sl_xcalloc(2, 4));
	sl_arena_fail_after(1);
	cr_expect_null(sl_xstrdup("abc"));
	void *p = sl_xmalloc(4);
	cr_assert_not_null(p);
	sl_arena_fail_after(1);
	cr_expect_null(sl_xrealloc(p, 64), "failed realloc leaves p alive");
	memset(p, 0, 4);
	free(p);
	char *d = sl_xstrdup("abc");
	cr_expect_str_eq(d, "abc");
	free(d);
	/* Zero sizes give a real block, not NULL. */
	void *z = sl_xmalloc(0);
	cr_expect_not_null(z);
	free(z);
	void *c = sl_xcalloc(0, 0);
	cr_expect_not_null(c);
	free(c);
}

Test(arena, injection_at_every_step_never_crashes)
{
	/* Fail the nth allocation for a growing n over a workload of mixed calls; each run
	** must either complete or see NULL, and the arena must free cleanly. */
	for (unsigned long n = 1; n <= 40; n++) {
		sl_arena_fail_after(n);
		sl_arena *a = sl_arena_new();
		int failed = a == NULL;
		for (int i = 0; a && i < 300; i++) {
			void *p = (i % 3 == 0) ? sl_arena_alloc(a, (size_t)(i % 7 == 0 ? 20000 : 40))
			       : (i % 3 == 1) ? (void *)sl_arena_printf(a, "%0*d", 300 + i, i)
			       : (void *)sl_arena_strndup(a, "abcdef", 6);
			if (!p)
				failed = 1;
		}
		sl_arena_fail_after(0);
		sl_arena_free(a);
		if (n <= 8)
			cr_expect(failed, "injection %lu had no effect", n);
	}
}

/* Under AddressSanitizer a huge malloc must return NULL like the real allocator, not abort. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

Test(arena, reset_frees_everything_and_the_arena_is_reused)
{
	sl_arena *a = sl_arena_new();
	cr_assert_not_null(a);
	for (int round = 0; round < 3; round++) {
		/* several chunks and a big block of its own */
		for (int i = 0; i < 2000; i++) {
			char *p = sl_arena_alloc(a, 100);
			cr_assert_not_null(p);
			memset(p, round, 100);
		}
		char *big = sl_arena_alloc(a, 3u * 1024u * 1024u);
		cr_assert_not_null(big);
		memset(big, round, 3u * 1024u * 1024u);
		cr_expect_gt(sl_arena_used(a), 3u * 1024u * 1024u);
		sl_arena_reset(a);
		cr_expect_eq(sl_arena_used(a), 0, "round %d: a reset arena has handed out nothing", round);
		char *s = sl_arena_strndup(a, "after reset", 11);
		cr_assert_not_null(s);
		cr_expect_str_eq(s, "after reset");
		cr_expect(aligned(sl_arena_alloc(a, 24)));
		sl_arena_reset(a);
	}
	sl_arena_reset(a);   /* an empty arena too */
	cr_expect_eq(sl_arena_used(a), 0);
	sl_arena_free(a);
}

/* The inline allocation (a tree's nodes) hands out what sl_arena_alloc would: aligned, the
** same sl_arena_used, after strings leave the chunk's end unaligned, across new chunks, a big
** block made the head of an empty arena, and resets; and the bytes do not overlap. */
Test(arena, the_inline_allocation_is_sl_arena_alloc)
{
	sl_arena *x = sl_arena_new_sized(1024), *y = sl_arena_new_sized(1024);
	cr_assert(x && y);
	for (int round = 0; round < 3; round++) {
		if (round == 2) {   /* a big block first: the head, with no room */
			cr_assert_not_null(sl_arena_alloc_inline(x, 300000));
			cr_assert_not_null(sl_arena_alloc(y, 300000));
		}
		unsigned char *prev = NULL;
		size_t prev_size = 0;
		for (size_t i = 0; i < 3000; i++) {
			size_t odd = 1 + i % 13, size = 8 + (i * 7) % 200;
			cr_assert_not_null(sl_arena_strndup(x, "0123456789abcdef", odd));
			cr_assert_not_null(sl_arena_strndup(y, "0123456789abcdef", odd));
			unsigned char *p = sl_arena_alloc_inline(x, size), *q = sl_arena_alloc(y, size);
			cr_assert(p && q);
			cr_expect(aligned(p), "round %d, allocation %zu", round, i);
			cr_expect_eq(sl_arena_used(x), sl_arena_used(y), "round %d, allocation %zu", round,
				     i);
			memset(p, (int)(i & 0xFF), size);
			if (prev && prev < p && p < prev + prev_size + 64)
				cr_expect_geq(p, prev + prev_size, "round %d: allocation %zu overlaps", round,
					      i);
			prev = p;
			prev_size = size;
		}
		sl_arena_reset(x);
		sl_arena_reset(y);
		cr_expect_eq(sl_arena_used(x), 0);
	}
	sl_arena_free(x);
	sl_arena_free(y);
}

#ifndef SL_ARENA_MALLOC
Test(arena, a_reset_arena_reuses_its_chunks)
{
	sl_arena *a = sl_arena_new_sized(1024);
	cr_assert_not_null(a);
	char *first = sl_arena_alloc(a, 64);
	for (int i = 0; i < 100; i++)
		cr_assert_not_null(sl_arena_alloc(a, 512));   /* several chunks */
	sl_arena_reset(a);
	/* the next file starts in the memory the last one used: no fresh pages to fault in */
	cr_expect_eq(sl_arena_alloc(a, 64), first);
	for (int i = 0; i < 100; i++)
		cr_assert_not_null(sl_arena_alloc(a, 512));
	sl_arena_free(a);
}
#endif

static char *cut_printf(sl_arena *a, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = sl_arena_vprintf_cut(a, cap, fmt, ap);
	va_end(ap);
	return p;
}

/* What a message quotes is cut: never past cap, never inside a UTF-8 sequence, "…" at the cut;
** a short string is itself (no copy). */
Test(arena, cuts_keep_characters_whole)
{
	sl_arena *a = sl_arena_new();
	const char *s = "short";
	cr_expect_eq(sl_arena_cut(a, s, 8), s);
	cr_expect_str_eq(sl_arena_cut(a, "abcdefghij", 8), "abcde\u2026");
	/* "é" is two bytes: a cut that would split it goes before it */
	cr_expect_str_eq(sl_arena_cut(a, "abcd\u00e9fghij", 8), "abcd\u2026");
	cr_expect_null(sl_arena_cut(a, NULL, 8));
	size_t big = 1 << 20;
	char *huge = malloc(big + 1);
	cr_assert_not_null(huge);
	memset(huge, 'n', big);
	huge[big] = '\0';
	size_t before = sl_arena_used(a);
	char *m = cut_printf(a, 4000, "Pod %s: bad", huge);
	cr_expect_eq(strlen(m), 4000);
	cr_expect_eq(strcmp(m + 3997, "\u2026"), 0);
	cr_expect_leq(sl_arena_used(a) - before, 4001, "no more than the cut message is kept");
	cr_expect_str_eq(cut_printf(a, 4000, "%s-%d", "x", 7), "x-7");
	free(huge);
	sl_arena_free(a);
}

/* An array grown one element at a time doubles its room: 100 000 appends keep every element
** and use O(n) arena (a copy per append would use n^2 / 2 elements' worth). */
Test(arena, arrays_grow_geometrically)
{
	sl_arena *a = sl_arena_new();
	size_t before = sl_arena_used(a);
	int *v = NULL;
	size_t n = 0;
	for (; n < 100000; n++) {
		v = sl_arena_grow(a, v, n, sizeof *v);
		cr_assert_not_null(v);
		v[n] = (int)n;
	}
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(v[i], (int)i);
	cr_expect_lt(sl_arena_used(a) - before, 4 * n * sizeof *v, "%zu bytes",
		     sl_arena_used(a) - before);
	sl_arena_free(a);
}
