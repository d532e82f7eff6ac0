/* SPDX-License-Identifier: Apache-2.0
** support.c: file helpers the test harnesses share (reading in chunks, so pipes and files of
** any size work alike). */
#include <criterion/criterion.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "support.h"

char *sl_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0, r;
	char *s = malloc(cap);
	cr_assert(s);
	while ((r = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 >= cap) {
			s = realloc(s, cap *= 2);
			cr_assert(s);
		}
	}
	s[n] = '\0';
	fclose(f);
	if (len)
		*len = n;
	return s;
}

void sl_test_spit(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f, "cannot write %s", path);
	cr_assert_eq(fwrite(data, 1, len, f), len, "cannot write %s", path);
	fclose(f);
}

void sl_test_put(const char *dir, const char *rel, const char *text)
{
	char p[PATH_MAX];
	int n = snprintf(p, sizeof p, "%s/%s", dir, rel);
	cr_assert(n > 0 && (size_t)n < sizeof p, "path too long: %s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);   /* exists already: fine */
		*s = '/';
	}
	sl_test_spit(p, text, strlen(text));
}

void sl_test_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("[NOTE] ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void scratch_name(char *buf, size_t size, const char *what, const char *suffix)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = "/tmp";
	int n = snprintf(buf, size, "%s/schedlint-%s.XXXXXX%s", tmp, what, suffix);
	cr_assert(n > 0 && (size_t)n < size, "scratch path too long");
}

char *sl_test_scratch(char *buf, size_t size, const char *what)
{
	scratch_name(buf, size, what, "");
	cr_assert(mkdtemp(buf), "cannot make %s", buf);
	return buf;
}

int sl_test_scratch_file(char *buf, size_t size, const char *what, const char *suffix)
{
	scratch_name(buf, size, what, suffix);
	int fd = mkstemps(buf, (int)strlen(suffix));
	cr_assert_geq(fd, 0, "cannot make %s", buf);
	return fd;
}

void sl_test_rm_rf(const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		execlp("rm", "rm", "-rf", "--", path, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		sl_test_note("could not remove %s", path);
}

pid_t sl_test_fork(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork failed");
	if (pid == 0) {
		/* SIGKILL when the parent ends; it may have ended already, before the prctl */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(126);
	}
	return pid;
}

double sl_test_cpu_seconds(void)
{
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
			kids.ru_stime.tv_sec) +
	       (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
			kids.ru_stime.tv_usec) / 1e6;
}
