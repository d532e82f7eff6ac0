/* SPDX-License-Identifier: Apache-2.0
** test_write.c: writing fixed files (src/fs/write.c): a file changed since it was read is never
** overwritten (even with the same size and mtime), temporary names fit NAME_MAX, a signal
** during a write leaves no temporary file and no half-written file, and the root check. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "yaml/source.h"
#include "support.h"
#include "fs/write.h"
#include "util/atomic.h"

static char dir[4096];

static void spit(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void setup(void)
{
	sl_test_scratch(dir, sizeof dir, "write");
}

static void teardown(void)
{
	sl_test_rm_rf(dir);
}

/* Files in dir whose name holds "schedlint-" (temporary files). */
static int temp_files(void)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		n += strstr(de->d_name, "schedlint-") != NULL;
	closedir(d);
	return n;
}

static char *path_of(const char *name)
{
	char *p = NULL;
	cr_assert(asprintf(&p, "%s/%s", dir, name) > 0);
	return p;
}

TestSuite(write, .init = setup, .fini = teardown);

Test(write, writes_an_unchanged_file)
{
	char *p = path_of("a.yaml");
	spit(p, "a: 1\n", 5);
	sl_source *s = NULL;
	cr_assert_eq(sl_source_read_file(p, "a.yaml", &s), SL_OK);
	char *why = NULL;
	cr_expect_eq(sl_write_fixed(p, dir, s, "a: 2\n", 5, &why), SL_OK, "%s", why ? why : "");
	cr_expect_str_eq(slurp(p), "a: 2\n");
	cr_expect_eq(temp_files(), 0);
	free(why);
	sl_source_free(s);
	free(p);
}

Test(write, refuses_a_file_changed_since_it_was_read)
{
	char *p = path_of("a.yaml");
	spit(p, "a: 1\n", 5);
	sl_source *s = NULL;
	cr_assert_eq(sl_source_read_file(p, "a.yaml", &s), SL_OK);
	/* another writer: same size, and the mtime put back, so only the content tells */
	struct stat st;
	cr_assert_eq(stat(p, &st), 0);
	spit(p, "a: 9\n", 5);
	struct timespec times[2] = {st.st_atim, st.st_mtim};
	cr_assert_eq(utimensat(AT_FDCWD, p, times, 0), 0);
	char *why = NULL;
	cr_expect_eq(sl_write_fixed(p, dir, s, "a: 2\n", 5, &why), SL_EIO);
	cr_expect(why && strstr(why, "changed since it was read"), "why: %s", why ? why : "(none)");
	cr_expect_str_eq(slurp(p), "a: 9\n", "the other writer's change was lost");
	cr_expect_eq(temp_files(), 0);
	free(why);
	/* a file replaced by a rename (another run's fix) since it was read */
	sl_source_free(s);
	cr_assert_eq(sl_source_read_file(p, "a.yaml", &s), SL_OK);
	char *q = path_of("b.yaml");
	spit(q, "a: 9\n", 5);
	cr_assert_eq(rename(q, p), 0);
	why = NULL;
	cr_expect_eq(sl_write_fixed(p, dir, s, "a: 2\n", 5, &why), SL_EIO);
	cr_expect(why && strstr(why, "changed since it was read"), "why: %s", why ? why : "(none)");
	free(why);
	free(q);
	sl_source_free(s);
	free(p);
}

Test(write, temp_names_fit_name_max)
{
	char base[NAME_MAX + 1];
	memset(base, 'k', NAME_MAX);
	base[NAME_MAX] = '\0';
	char *t = sl_atomic_temp_name("/d", base);
	cr_assert_not_null(t);
	cr_expect_eq(strlen(strrchr(t, '/') + 1), NAME_MAX);
	cr_expect(strstr(t, "/.kkk") && strstr(t, ".schedlint-XXXXXX"));
	free(t);
	/* a multi-byte character is never cut in half */
	char utf[NAME_MAX + 1];
	for (size_t i = 0; i + 1 < NAME_MAX; i += 2)
		memcpy(utf + i, "\xC3\xA9", 2);
	utf[NAME_MAX - 1] = '\0';
	t = sl_atomic_temp_name("/d", utf);
	const char *name = strrchr(t, '/') + 2;
	size_t kept = (size_t)(strstr(name, ".schedlint-") - name);
	cr_expect_eq(kept % 2, 0, "a UTF-8 sequence was cut");
	free(t);
	t = sl_atomic_temp_name("/d", "short.yaml");
	cr_expect_str_eq(t, "/d/.short.yaml.schedlint-XXXXXX");
	free(t);
}

Test(write, within_a_root)
{
	cr_expect(sl_write_path_within("/a/b/c.yaml", "/a/b"));
	cr_expect(sl_write_path_within("/a/b/c/d.yaml", "/a"));
	cr_expect_not(sl_write_path_within("/a/bc/d.yaml", "/a/b"));
	cr_expect_not(sl_write_path_within("/etc/passwd", "/a"));
	cr_expect(sl_write_path_within("/etc/passwd", "/"));
}

/* A signal that ends the process while a big file is being written: the file is either the
** old or the new text, whole, and no temporary file is left behind. The child rewrites the file
** until the signal comes, and dies with the test if the test ends first. */
Test(write, a_signal_during_the_write_leaves_no_temporary_file)
{
	char *p = path_of("big.yaml");
	spit(p, "a: 1\n", 5);
	size_t len = (size_t)64 << 20;
	int sigs[] = {SIGTERM, SIGINT, SIGHUP};
	for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
		pid_t pid = sl_test_fork();
		if (pid == 0) {
			sl_source *s = NULL;
			char *data = malloc(len);
			if (!data || sl_source_read_file(p, "big.yaml", &s) != SL_OK)
				_exit(3);
			memset(data, 'x', len);
			char *why = NULL;
			for (;;) {   /* until the signal comes: each round writes the file again */
				if (sl_write_fixed(p, NULL, s, data, len, &why) != SL_OK)
					_exit(4);
				sl_source_free(s);
				s = NULL;
				if (sl_source_read_file(p, "big.yaml", &s) != SL_OK)
					_exit(5);
			}
		}
		/* wait until a temporary file exists (however long a loaded machine takes to make
		** one), then signal; a child that ended meanwhile fails the test */
		int status = 0, ended = 0;
		while (temp_files() == 0) {
			pid_t w = waitpid(pid, &status, WNOHANG);
			cr_assert_geq(w, 0);
			if ((ended = w == pid))
				break;
			usleep(100);
		}
		cr_assert_not(ended, "the writer ended (status %d) before it made a temporary file",
			      status);
		kill(pid, sigs[k]);
		cr_assert_eq(waitpid(pid, &status, 0), pid);
		cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == sigs[k], "child status %d", status);
		cr_expect_eq(temp_files(), 0, "a temporary file was left behind after signal %d", sigs[k]);
		struct stat st;
		cr_assert_eq(stat(p, &st), 0);
		cr_expect((size_t)st.st_size == len || st.st_size == 5, "half-written: %lld bytes",
			  (long long)st.st_size);
	}
	free(p);
}
