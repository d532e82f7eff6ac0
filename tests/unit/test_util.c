/* SPDX-License-Identifier: Apache-2.0
** test_util.c: the drawer of small tools every layer uses (src/util/): the one hash (FNV-1a,
** against its published vectors), the one hash table (strmap.h), the one growable buffer
** (strbuf.h), the one walk up (path.h) and where it stops, the one atomic-file writer
** (atomic.h): whole or not at all, a symlink refused, signals held until the rename; the one
** descriptor reader and writer (schedlint/fdio.h): a signal, a short read, the end, a
** non-blocking descriptor. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "schedlint/fdio.h"
#include "util/arena.h"
#include "util/v16.h"
#include "util/atomic.h"
#include "util/hash.h"
#include "util/path.h"
#include "util/strbuf.h"
#include "util/strmap.h"

/* FNV-1a 64's test vectors (Landon Curt Noll's fnv_test_vectors: "", "a", "foobar"). */
/* sl_v16_between and sl_v16_mask agree with a byte-by-byte test for every ASCII range and every
** byte value, in every lane; a letter of either case is a lower-case one with 0x20 set. */
Test(v16, between_and_mask_match_a_byte_test)
{
	unsigned char buf[16];
	for (int lo = 0; lo < 128; lo++)
		for (int hi = lo; hi < 128; hi++)
			for (int b = 0; b < 256; b += 16) {
				for (int i = 0; i < 16; i++)
					buf[i] = (unsigned char)(b + (i * 7) % 16);
				unsigned m = sl_v16_mask(sl_v16_between(sl_v16_load(buf), (signed char)lo,
									(signed char)hi));
				for (int i = 0; i < 16; i++)
					cr_assert_eq((m >> i) & 1, (unsigned)(buf[i] >= lo && buf[i] <= hi),
						     "[%d, %d] byte %d lane %d", lo, hi, buf[i], i);
			}
	for (int b = 0; b < 256; b += 16) {
		for (int i = 0; i < 16; i++)
			buf[i] = (unsigned char)(b + i);
		unsigned m = sl_v16_mask(sl_v16_between(sl_v16_load(buf) | 0x20, 'a', 'z'));
		for (int i = 0; i < 16; i++) {
			int c = buf[i];
			cr_assert_eq((m >> i) & 1, (unsigned)((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')),
				     "byte %d", c);
		}
	}
}

Test(hash, fnv1a_vectors)
{
	cr_expect_eq(sl_hash_bytes(SL_HASH_INIT, "", 0), 0xcbf29ce484222325ull);
	cr_expect_eq(sl_hash_bytes(SL_HASH_INIT, "a", 1), 0xaf63dc4c8601ec8cull);
	cr_expect_eq(sl_hash_bytes(SL_HASH_INIT, "foobar", 6), 0x85944171f73967e8ull);
	/* fed in pieces: the same hash */
	cr_expect_eq(sl_hash_bytes(sl_hash_bytes(SL_HASH_INIT, "foo", 3), "bar", 3),
		     0x85944171f73967e8ull);
}

Test(strmap, put_get_and_grow)
{
	sl_strmap m = {0};
	cr_expect_null(sl_strmap_get(&m, "a", 1), "an empty map holds nothing");
	static char keys[5000][16];
	for (size_t i = 0; i < 5000; i++) {
		int n = snprintf(keys[i], sizeof keys[i], "k%zu", i);
		bool found = true;
		sl_strmap_slot *s = sl_strmap_put(&m, keys[i], (size_t)n, &found);
		cr_assert_not_null(s);
		cr_expect_not(found);
		s->val = (void *)(uintptr_t)(i + 1);
	}
	cr_expect_eq(m.n, 5000);
	cr_expect_leq(2 * m.n, m.cap, "at most half full");
	for (size_t i = 0; i < 5000; i++) {
		const sl_strmap_slot *s = sl_strmap_get(&m, keys[i], strlen(keys[i]));
		cr_assert_not_null(s, "%s lost in a grow", keys[i]);
		cr_expect_eq((uintptr_t)s->val, i + 1);
	}
	bool found = false;
	sl_strmap_slot *again = sl_strmap_put(&m, "k42", 3, &found);
	cr_expect(found, "a key put twice is found");
	cr_expect_eq((uintptr_t)again->val, 43);
	cr_expect_eq(m.n, 5000);
	sl_strmap_free(&m);
	cr_expect_eq(m.cap, 0);
	cr_expect_null(m.v);
}

/* sl_strmap_put_copy: a new key is the map's own copy of all its bytes (an embedded NUL
** included, NUL-terminated), a found one keeps the first copy. */
Test(strmap, put_copy_owns_its_keys)
{
	sl_strmap m = {0};
	char buf[] = "dir\0x/y";
	bool found = true;
	sl_strmap_slot *s = sl_strmap_put_copy(&m, buf, 7, &found);
	cr_assert_not_null(s);
	cr_expect_not(found);
	cr_expect_neq((const void *)s->key, (const void *)buf, "the key is a copy");
	cr_expect_eq(memcmp(s->key, "dir\0x/y", 8), 0, "every byte, and a NUL after them");
	const char *first = s->key;
	memset(buf, '-', sizeof buf - 1);   /* the caller's bytes may go */
	s = sl_strmap_put_copy(&m, "dir\0x/y", 7, &found);
	cr_assert_not_null(s);
	cr_expect(found);
	cr_expect_eq((const void *)s->key, (const void *)first, "found: no second copy");
	cr_expect_eq(m.n, 1);
	cr_expect_not_null(sl_strmap_get(&m, "dir\0x/y", 7));
	cr_expect_null(sl_strmap_get(&m, "dir", 3), "the bytes after the NUL belong to the key");
	for (size_t i = 0; i < m.cap; i++)
		free((void *)m.v[i].key);
	sl_strmap_free(&m);
}

/* Keys are byte ranges: a prefix, an embedded NUL and the empty key are keys of their own. */
Test(strmap, keys_are_byte_ranges)
{
	sl_strmap m = {0};
	bool found;
	const char *text = "abc\0abd";
	sl_strmap_put(&m, text, 3, &found)->val = "abc";
	sl_strmap_put(&m, text, 2, &found)->val = "ab";
	sl_strmap_put(&m, text, 7, &found)->val = "with NUL";
	sl_strmap_put(&m, text, 0, &found)->val = "empty";
	cr_expect_str_eq(sl_strmap_get(&m, "abc", 3)->val, "abc");
	cr_expect_str_eq(sl_strmap_get(&m, "ab", 2)->val, "ab");
	cr_expect_str_eq(sl_strmap_get(&m, "abc\0abd", 7)->val, "with NUL");
	cr_expect_str_eq(sl_strmap_get(&m, "", 0)->val, "empty");
	cr_expect_null(sl_strmap_get(&m, "abd", 3));
	cr_expect_null(sl_strmap_get(&m, "abc\0ab", 6));
	sl_strmap_free(&m);
}

/* Out of memory on a grow: NULL, and the map as it was. */
Test(strmap, out_of_memory_leaves_the_map_whole)
{
	sl_strmap m = {0};
	static char keys[32][8];
	bool found;
	for (size_t i = 0; i < 32; i++) {
		snprintf(keys[i], sizeof keys[i], "%zu", i);
		cr_assert_not_null(sl_strmap_put(&m, keys[i], strlen(keys[i]), &found));
	}
	cr_assert_eq(m.cap, 64, "the next put grows the table");
	sl_arena_fail_after(1);
	cr_expect_null(sl_strmap_put(&m, "new", 3, &found));
	sl_arena_fail_after(0);
	cr_expect_eq(m.n, 32);
	for (size_t i = 0; i < 32; i++)
		cr_expect_not_null(sl_strmap_get(&m, keys[i], strlen(keys[i])));
	cr_expect_null(sl_strmap_get(&m, "new", 3));
	sl_strmap_free(&m);
}

Test(strbuf, appends_and_takes)
{
	sl_strbuf b = {0};
	char *empty = sl_strbuf_take(&b);
	cr_assert_not_null(empty);
	cr_expect_str_eq(empty, "", "nothing added: an empty string, not NULL");
	free(empty);
	cr_expect(sl_strbuf_add(&b, "key", 3));
	cr_expect(sl_strbuf_addstr(&b, ": "));
	cr_expect(sl_strbuf_addch(&b, ' ', 3));
	cr_expect(sl_strbuf_addf(&b, "%d-%s", 42, "x"));
	cr_expect(sl_strbuf_add(&b, NULL, 0), "an empty view may be NULL");
	cr_expect_str_eq(b.s, "key:    42-x");
	cr_expect_eq(b.len, strlen("key:    42-x"));
	for (int i = 0; i < 10000; i++)
		sl_strbuf_addch(&b, 'a' + i % 26, 1);
	cr_expect_eq(b.len, strlen("key:    42-x") + 10000);
	cr_expect_eq(b.s[b.len], '\0');
	cr_expect_lt(b.len, b.cap);
	char *s = sl_strbuf_take(&b);
	cr_expect_null(b.s, "taken: b is empty again");
	cr_expect_eq(b.len, 0);
	cr_expect_eq(strncmp(s, "key:    42-xabc", 15), 0);
	free(s);
}

/* Appends of every size up to past the first capacities, whether they fit exactly (the NUL in
** the last byte), grow the buffer, or are empty: the bytes are those appended, in order. */
Test(strbuf, appends_across_each_capacity)
{
	char want[9000];
	for (size_t k = 0; k <= 70; k++) {
		sl_strbuf b = {0};
		size_t len = 0;
		for (size_t round = 0; len + k < sizeof want && round < 200; round++) {
			char chunk[80];
			for (size_t i = 0; i < k; i++)
				chunk[i] = (char)('a' + (round + i) % 26);
			cr_assert(sl_strbuf_add(&b, chunk, k));
			memcpy(want + len, chunk, k);
			len += k;
			cr_assert_eq(b.len, len, "size %zu, round %zu", k, round);
			cr_assert_lt(b.len, b.cap);
			cr_assert_eq(b.s[b.len], '\0');
		}
		cr_expect(len == 0 || memcmp(b.s, want, len) == 0, "size %zu", k);
		sl_strbuf_free(&b);
	}
}

/* A failed allocation marks the buffer: later additions do nothing, take gives NULL. */
Test(strbuf, a_failure_sticks)
{
	sl_strbuf b = {0};
	cr_assert(sl_strbuf_addstr(&b, "abc"));
	sl_arena_fail_after(1);
	cr_expect_not(sl_strbuf_addch(&b, 'x', 100), "a grow past 64 bytes fails");
	sl_arena_fail_after(0);
	cr_expect(b.failed);
	cr_expect_not(sl_strbuf_addstr(&b, "d"), "nothing is added after a failure");
	cr_expect_str_eq(b.s, "abc", "what was there stays");
	cr_expect_null(sl_strbuf_take(&b));
	cr_expect_null(b.s, "a failed take frees");
}

/* --- the walk up --------------------------------------------------------------------------- */

static char up_root[PATH_MAX];

static void up_mk(const char *rel, bool dir)
{
	char p[PATH_MAX * 2];
	snprintf(p, sizeof p, "%s/%s", up_root, rel);
	if (dir) {
		cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s", p);
	} else {
		FILE *f = fopen(p, "w");
		cr_assert_not_null(f, "create %s", p);
		fclose(f);
	}
}

static void up_setup(void)
{
	char tmpl[] = "/tmp/schedlint-up-XXXXXX";
	cr_assert_not_null(mkdtemp(tmpl));
	cr_assert_not_null(realpath(tmpl, up_root));
	/* outer/.schedlint.yaml, outer/repo/.git/, outer/repo/a/.schedlint.yaml, outer/repo/a/b/c/ */
	up_mk("outer", true);
	up_mk("outer/.schedlint.yaml", false);
	up_mk("outer/repo", true);
	up_mk("outer/repo/.git", true);
	up_mk("outer/repo/a", true);
	up_mk("outer/repo/a/.schedlint.yaml", false);
	up_mk("outer/repo/a/b", true);
	up_mk("outer/repo/a/b/c", true);
	up_mk("outer/repo/x", true);
	up_mk("outer/plain", true);
}

static void up_teardown(void)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", up_root);
	cr_expect_eq(system(cmd), 0);
}

static bool holds_config(void *ctx, const char *dir)
{
	(void)ctx;
	return sl_path_holds(dir, ".schedlint.yaml", false);
}

/* A visit that remembers every directory it is asked about. */
static bool count_visits(void *ctx, const char *dir)
{
	(void)dir;
	++*(int *)ctx;
	return false;
}

static char *up_from(const char *rel, bool (*visit)(void *, const char *), void *ctx)
{
	char p[PATH_MAX * 2];
	snprintf(p, sizeof p, "%s/%s", up_root, rel);
	bool oom = false;
	char *r = sl_path_find_upward(p, visit, NULL, ctx, &oom);
	cr_expect_not(oom);
	return r;
}

static void expect_dir(char *got, const char *rel)
{
	char want[PATH_MAX * 2];
	snprintf(want, sizeof want, "%s/%s", up_root, rel);
	cr_expect_not_null(got, "expected %s, got nothing", rel);
	if (got)
		cr_expect_str_eq(got, want);
	free(got);
}

Test(path, the_nearest_config_up_to_the_repository_root, .init = up_setup, .fini = up_teardown)
{
	expect_dir(up_from("outer/repo/a/b/c", holds_config, NULL), "outer/repo/a");
	expect_dir(up_from("outer/repo/a", holds_config, NULL), "outer/repo/a");
	/* the repository root is visited, never passed: outer's config is another project's */
	cr_expect_null(up_from("outer/repo/x", holds_config, NULL));
	/* outside a repository the walk goes on to / */
	expect_dir(up_from("outer/plain", holds_config, NULL), "outer");
}

Test(path, where_the_walk_stops, .init = up_setup, .fini = up_teardown)
{
	int visits = 0;
	cr_expect_null(up_from("outer/repo/a/b/c", count_visits, &visits));
	cr_expect_eq(visits, 4, "c, b, a and the repository root: %d", visits);
	/* no visit: the repository root itself */
	expect_dir(up_from("outer/repo/a/b", NULL, NULL), "outer/repo");
	expect_dir(up_from("outer/repo", NULL, NULL), "outer/repo");
	cr_expect_null(up_from("outer/plain", NULL, NULL), "no .git up to /");
	/* a .git file (a worktree's checkout) is a repository root too */
	up_mk("outer/plain/.git", false);
	expect_dir(up_from("outer/plain", NULL, NULL), "outer/plain");
}

Test(path, join)
{
	static const char *const cases[][3] = {
		{"a", "b.yaml", "a/b.yaml"}, {"a/", "b", "a/b"}, {"/", "tmp", "/tmp"},
		{"", "b.yaml", "b.yaml"}, {"a/b", "", "a/b/"}, {"/x/y", "z", "/x/y/z"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *j = sl_path_join(cases[i][0], cases[i][1]);
		cr_expect_str_eq(j, cases[i][2], "\"%s\" + \"%s\"", cases[i][0], cases[i][1]);
		free(j);
	}
}

Test(path, reenter)
{
	static const char *const cases[][3] = {
		{"../place/x.yaml", "/r/place", "x.yaml"},
		{"../place", "/r/place", "."},
		{"..", "/r/place", ".."},
		{"../other/x.yaml", "/r/place", "../other/x.yaml"},
		{"../../r/place/sub/x", "/r/place", "sub/x"},
		{"../../r/other/x", "/r/place", "../other/x"},
		{"../../s/place/x", "/r/place", "../../s/place/x"},
		{"../placed/x", "/r/place", "../placed/x"},
		{"../../../x", "/r/place", "../../../x"},   /* above /: kept as it is */
		{"sub/x", "/r/place", "sub/x"}, {"x", "/", "x"}, {"../r/x", "/r", "x"},
		{"../x", "/r", "../x"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *r = sl_path_reenter(cases[i][0], cases[i][1]);
		cr_expect_str_eq(r, cases[i][2], "\"%s\" from %s", cases[i][0], cases[i][1]);
		free(r);
	}
}

Test(path, holds)
{
	cr_expect(sl_path_holds("/", "tmp", true));
	cr_expect_not(sl_path_holds("/", "tmp", false), "a directory, not any type");
	cr_expect_not(sl_path_holds("/", "no such entry here", true));
}

/* --- the atomic-file writer ---------------------------------------------------------------- */

static volatile sig_atomic_t terms;

static void on_term(int sig)
{
	(void)sig;
	terms++;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[256];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int entries(const char *dir)
{
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
	FILE *p = popen(cmd, "r");
	int n = -1;
	cr_assert_not_null(p);
	cr_assert_eq(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

Test(atomic, whole_or_not_at_all, .init = up_setup, .fini = up_teardown)
{
	char path[PATH_MAX * 2], dir[PATH_MAX * 2];
	snprintf(dir, sizeof dir, "%s/outer/plain", up_root);
	snprintf(path, sizeof path, "%s/report.json", dir);
	sl_atomic *a;
	FILE *out;
	char *why = NULL;
	cr_assert_eq(sl_atomic_check(path, &why), SL_OK);
	cr_expect_eq(entries(dir), 0, "a check leaves nothing");
	cr_assert_eq(sl_atomic_begin(path, &a, &out, &why), SL_OK);
	fputs("first\n", out);
	cr_expect_null(slurp(path), "nothing at the path before the commit");
	cr_assert_eq(sl_atomic_commit(a, &why), SL_OK);
	cr_expect_str_eq(slurp(path), "first\n");
	/* an abort leaves the old content and no temporary file */
	cr_assert_eq(sl_atomic_begin(path, &a, &out, &why), SL_OK);
	fputs("second\n", out);
	sl_atomic_abort(a);
	cr_expect_str_eq(slurp(path), "first\n");
	cr_expect_eq(entries(dir), 1, "only the file");
	/* outside the working directory's tree a symbolic link is the caller's own (/dev/stdout
	** redirected to a file): written through, the link kept */
	char link[PATH_MAX * 2];
	snprintf(link, sizeof link, "%s/link.json", dir);
	cr_assert_eq(symlink("report.json", link), 0);
	cr_assert_eq(sl_atomic_begin(link, &a, &out, &why), SL_OK);
	fputs("third\n", out);
	cr_assert_eq(sl_atomic_commit(a, &why), SL_OK);
	struct stat st;
	cr_expect(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	cr_expect_str_eq(slurp(path), "third\n");
	/* in it (a repository linted in CI could commit the link) never followed: the link itself,
	** by a relative or an absolute path, and a linked directory on the way are refused, the
	** link and its target untouched */
	char cwd[PATH_MAX], outer[PATH_MAX * 2];
	cr_assert_not_null(getcwd(cwd, sizeof cwd));
	snprintf(outer, sizeof outer, "%s/outer", up_root);
	cr_assert_eq(chdir(outer), 0);
	cr_assert_eq(symlink("plain", "linked"), 0);
	const char *refused[] = {"plain/link.json", link, "linked/report.json", "./linked//new.json"};
	const char *said[] = {"it is a symbolic link", "it is a symbolic link",
			      "its directory linked is a symbolic link",
			      "its directory ./linked is a symbolic link"};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		cr_expect_eq(sl_atomic_begin(refused[i], &a, &out, &why), SL_EIO, "%s", refused[i]);
		cr_expect(why && strstr(why, said[i]), "%s: %s", refused[i], why ? why : "(null)");
		free(why);
		cr_expect_eq(sl_atomic_check(refused[i], &why), SL_EIO, "%s", refused[i]);
		free(why);
	}
	cr_assert_eq(chdir(cwd), 0);
	cr_expect(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	cr_expect_str_eq(slurp(path), "third\n");
	cr_expect_eq(entries(dir), 2, "the file and the link only");
	/* a directory, and a directory that does not exist, are refused with a reason */
	cr_expect_eq(sl_atomic_check(dir, &why), SL_EIO);
	cr_expect(why && strstr(why, "Is a directory"), "%s", why ? why : "(null)");
	free(why);
	snprintf(path, sizeof path, "%s/none/x.json", dir);
	cr_expect_eq(sl_atomic_begin(path, &a, &out, &why), SL_EIO);
	cr_expect(why && strstr(why, "No such file"), "%s", why ? why : "(null)");
	free(why);
}

/* A signal that would end the process waits for the rename: the file is whole when it runs. */
Test(atomic, signals_wait_for_the_rename, .init = up_setup, .fini = up_teardown)
{
	char path[PATH_MAX * 2];
	snprintf(path, sizeof path, "%s/outer/plain/r.txt", up_root);
	struct sigaction sa = {.sa_handler = on_term}, old;
	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGTERM, &sa, &old), 0);
	terms = 0;
	sl_atomic *a;
	FILE *out;
	char *why = NULL;
	cr_assert_eq(sl_atomic_begin(path, &a, &out, &why), SL_OK);
	raise(SIGTERM);
	cr_expect_eq(terms, 0, "delivered before the rename");
	fputs("whole\n", out);
	cr_assert_eq(sl_atomic_commit(a, &why), SL_OK);
	cr_expect_eq(terms, 1, "held, then delivered once the file is in place");
	cr_expect_str_eq(slurp(path), "whole\n");
	sigaction(SIGTERM, &old, NULL);
}

/* --- fdio: reads and writes a signal does not cut short ---------------------------------- */

static volatile sig_atomic_t usr1s;
static void on_usr1(int sig)
{
	(void)sig;
	usr1s++;
}

/* SIGUSR1 caught without SA_RESTART: a system call it interrupts fails with EINTR. */
static void catch_usr1(void)
{
	struct sigaction sa = {.sa_handler = on_usr1};
	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	usr1s = 0;
}

/* A thread blocked in a system call, as the kernel tells (/proc/self/task/TID/syscall holds
** its number while it waits): what the tests interrupt, or feed. */
struct blocked {
	pthread_t thread;
	pid_t tid;               /* set by the thread before its call */
	int fd;
	char *buf;
	size_t n;
	ssize_t got;             /* its call's result, and errno */
	int err;
	bool ok;
	bool one;                /* the reader's one read (sl_fdio_read), not all n */
	bool done;               /* the call returned (the writer then closed fd) */
};

static pid_t tid_of(struct blocked *b)
{
	return __atomic_load_n(&b->tid, __ATOMIC_ACQUIRE);
}

/* Waits (no clock) until b's thread waits in system call nr: true; false once it has returned
** (its call gave up: the test fails, never hangs). */
static bool wait_in(struct blocked *b, long nr)
{
	for (;;) {
		if (__atomic_load_n(&b->done, __ATOMIC_ACQUIRE))
			return false;
		pid_t tid = tid_of(b);
		char path[64], line[256] = "";
		snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
		FILE *f = tid ? fopen(path, "r") : NULL;
		if (tid && !f)
			cr_assert_fail("%s: %s (the test needs it to see the thread wait)", path,
				       strerror(errno));
		if (f) {
			if (!fgets(line, sizeof line, f))
				line[0] = '\0';
			fclose(f);
		}
		char *end;
		long got = strtol(line, &end, 10);
		if (end != line && got == nr)
			return true;
		sched_yield();
	}
}

/* Interrupts b's thread with SIGUSR1 once it waits in system call nr, and waits for the
** handler; false when the thread returned instead. */
static bool interrupt(struct blocked *b, long nr)
{
	sig_atomic_t was = usr1s;
	if (!wait_in(b, nr))
		return false;
	pthread_kill(b->thread, SIGUSR1);
	while (usr1s == was)
		sched_yield();
	return true;
}

static void *reader(void *arg)
{
	struct blocked *b = arg;
	__atomic_store_n(&b->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	b->got = b->one ? sl_fdio_read(b->fd, b->buf, b->n) : sl_fdio_read_all(b->fd, b->buf, b->n);
	b->err = errno;
	__atomic_store_n(&b->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static void *writer(void *arg)
{
	struct blocked *b = arg;
	__atomic_store_n(&b->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	b->ok = sl_fdio_write_all(b->fd, b->buf, b->n);
	b->err = errno;
	close(b->fd);   /* the reader sees the end, whether all came or not */
	__atomic_store_n(&b->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* A blocking read from a pipe, interrupted by a signal before any byte and again between the
** pieces it is fed in, reads on: every byte, in order; the end of the input ends it short. */
Test(fdio, a_read_reads_on_through_signals_and_short_reads)
{
	catch_usr1();
	int p[2];
	cr_assert_eq(pipe(p), 0);
	char buf[16] = "";
	struct blocked b = {.fd = p[0], .buf = buf, .n = 7};
	cr_assert_eq(pthread_create(&b.thread, NULL, reader, &b), 0);
	cr_assert(interrupt(&b, SYS_read));   /* before any byte: read(2) fails with EINTR */
	cr_assert(sl_fdio_write_all(p[1], "abc", 3));
	interrupt(&b, SYS_read);              /* "abc" read, waiting for the rest */
	cr_assert(sl_fdio_write_all(p[1], "defgh", 5));
	pthread_join(b.thread, NULL);
	cr_expect_eq(b.got, 7, "all seven bytes, not the first piece: %zd (%s)", b.got, strerror(b.err));
	cr_expect(memcmp(buf, "abcdefg", 7) == 0, "in order: %.7s", buf);
	cr_expect_eq(usr1s, 2, "both signals caught by the reading thread");
	/* the end: fewer than asked, then 0 */
	close(p[1]);
	char rest[8];
	cr_expect_eq(sl_fdio_read_all(p[0], rest, sizeof rest), 1);
	cr_expect_eq(rest[0], 'h');
	cr_expect_eq(sl_fdio_read_all(p[0], rest, sizeof rest), 0);
	cr_expect_eq(sl_fdio_read(p[0], rest, sizeof rest), 0);
	close(p[0]);
}

/* One read takes what is there (a piece, not the whole of what is asked for); a signal while
** it waits does not end it. */
Test(fdio, one_read_takes_what_is_there)
{
	catch_usr1();
	int p[2];
	cr_assert_eq(pipe(p), 0);
	char buf[16];
	struct blocked b = {.fd = p[0], .buf = buf, .n = sizeof buf, .one = true};
	cr_assert_eq(pthread_create(&b.thread, NULL, reader, &b), 0);
	cr_assert(interrupt(&b, SYS_read));
	cr_assert(sl_fdio_write_all(p[1], "abc", 3));
	pthread_join(b.thread, NULL);
	cr_expect_eq(b.got, 3, "the piece there: %zd (%s)", b.got, strerror(b.err));
	cr_expect(memcmp(buf, "abc", 3) == 0);
	close(p[0]);
	close(p[1]);
}

/* A non-blocking descriptor with nothing to read fails at once with EAGAIN (a FIFO opened so
** that it cannot hang stays unable to), whichever read asks. */
Test(fdio, nothing_to_read_without_blocking_fails)
{
	int p[2];
	cr_assert_eq(pipe2(p, O_NONBLOCK), 0);
	char buf[8];
	errno = 0;
	cr_expect_eq(sl_fdio_read(p[0], buf, sizeof buf), -1);
	cr_expect_eq(errno, EAGAIN);
	errno = 0;
	cr_expect_eq(sl_fdio_read_all(p[0], buf, sizeof buf), -1);
	cr_expect_eq(errno, EAGAIN);
	/* a piece and then nothing: still a failure, not a wait */
	cr_assert(sl_fdio_write_all(p[1], "ab", 2));
	errno = 0;
	cr_expect_eq(sl_fdio_read_all(p[0], buf, sizeof buf), -1);
	cr_expect_eq(errno, EAGAIN);
	close(p[0]);
	close(p[1]);
}

/* A write into a full pipe, interrupted by a signal while it waits, writes on: every byte
** arrives, in order. */
Test(fdio, a_write_writes_on_through_a_signal)
{
	catch_usr1();
	int p[2];
	cr_assert_eq(pipe2(p, O_NONBLOCK), 0);
	static char fill[1 << 16];
	size_t filled = 0;
	for (ssize_t w; (w = write(p[1], fill, sizeof fill)) > 0;)
		filled += (size_t)w;
	cr_assert_eq(errno, EAGAIN);
	cr_assert_eq(fcntl(p[1], F_SETFL, 0), 0);   /* blocking again, and full */
	cr_assert_eq(fcntl(p[0], F_SETFL, 0), 0);
	static char data[200000];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (char)(i * 7 + i / 251);
	struct blocked b = {.fd = p[1], .buf = data, .n = sizeof data};
	cr_assert_eq(pthread_create(&b.thread, NULL, writer, &b), 0);
	cr_assert(interrupt(&b, SYS_write));   /* nothing written yet: write(2) fails with EINTR */
	static char got[sizeof fill + sizeof data];
	cr_expect_eq(sl_fdio_read_all(p[0], got, filled), (ssize_t)filled);
	ssize_t n = sl_fdio_read_all(p[0], got, sizeof data + 1);   /* to the end: the writer closes */
	pthread_join(b.thread, NULL);
	cr_expect(b.ok, "written whole: %s", strerror(b.err));
	cr_expect_eq(n, (ssize_t)sizeof data, "every byte");
	cr_expect(memcmp(got, data, sizeof data) == 0, "in order");
	close(p[0]);
}

/* At an offset: the file's offset stays; a read past the end is short, and 0 beyond it. */
Test(fdio, at_an_offset)
{
	FILE *f = tmpfile();
	cr_assert(f);
	int fd = fileno(f);
	cr_assert(sl_fdio_pwrite_all(fd, "hello", 5, 10));
	cr_expect_eq(lseek(fd, 0, SEEK_CUR), 0, "the offset stays");
	char buf[32];
	cr_expect_eq(sl_fdio_pread_all(fd, buf, sizeof buf, 11), 4);
	cr_expect(memcmp(buf, "ello", 4) == 0);
	cr_expect_eq(sl_fdio_pread_all(fd, buf, sizeof buf, 0), 15, "the hole reads as zeros");
	cr_expect_eq(buf[0], 0);
	cr_expect_eq(sl_fdio_pread_all(fd, buf, sizeof buf, 15), 0);
	cr_expect_eq(sl_fdio_pread_all(fd, buf, 3, -1), -1);
	cr_expect_eq(errno, EINVAL);
	cr_expect(!sl_fdio_pwrite_all(fd, "x", 1, -1));
	fclose(f);
}
