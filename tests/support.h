/* SPDX-License-Identifier: Apache-2.0
** support.h: file helpers the test harnesses share. */
#ifndef SL_TEST_SUPPORT_H
#define SL_TEST_SUPPORT_H

#include <stddef.h>
#include <sys/types.h>

/* The whole file at path, NUL-terminated (malloc'd; free it), or NULL when it cannot be opened.
** *len (may be NULL) gets its length. */
char *sl_test_slurp(const char *path, size_t *len);
/* Writes data[0..len) to path; the test fails when it cannot. */
void sl_test_spit(const char *path, const char *data, size_t len);
/* Writes text to dir/rel, making rel's directories below dir first; the test fails when it
** cannot. */
void sl_test_put(const char *dir, const char *rel, const char *text);
/* A line "[NOTE] ..." on stderr, which meson's test log keeps: what a test left out and why
** (a skip says it here too). Not cr_log_warn: Criterion exits 1 after a warning, so a warning
** turns a passing suite red. */
void sl_test_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Makes a fresh directory $TMPDIR/schedlint-<what>.XXXXXX (under /tmp without TMPDIR) and puts
** its path in buf; the test fails when it cannot. Under tests/harness.py (every meson test)
** TMPDIR is the test's own scratch directory, removed however the test ends; remove what you
** make anyway (sl_test_rm_rf), so that a test run by hand leaves nothing behind either. */
char *sl_test_scratch(char *buf, size_t size, const char *what);
/* The same for a file, $TMPDIR/schedlint-<what>.XXXXXX<suffix>, made empty and open: returns
** its descriptor (mkstemps). */
int sl_test_scratch_file(char *buf, size_t size, const char *what, const char *suffix);
/* Removes path and everything under it (rm -rf); a failure is said on stderr (sl_test_note). */
void sl_test_rm_rf(const char *path);
/* fork(), with a child that dies (SIGKILL) when the process that forked it ends, whatever way:
** a test's children never outlive it. The test fails when the fork fails. */
pid_t sl_test_fork(void);
/* The CPU time, in seconds, of this process (every thread) and of its children it waited for:
** the work done, which a loaded machine does not stretch as it stretches the wall clock. A test
** bounds work with it ("no exponential blow-up"); speed targets are tests/bench's. */
double sl_test_cpu_seconds(void);

#endif
