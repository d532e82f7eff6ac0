/* SPDX-License-Identifier: Apache-2.0
** support.h: file helpers the test harnesses share. */
#ifndef SL_TEST_SUPPORT_H
#define SL_TEST_SUPPORT_H

#include <stddef.h>

/* The whole file at path, NUL-terminated (malloc'd; free it), or NULL when it cannot be opened.
** *len (may be NULL) gets its length. */
char *sl_test_slurp(const char *path, size_t *len);
/* Writes data[0..len) to path; the test fails when it cannot. */
void sl_test_spit(const char *path, const char *data, size_t len);
/* A line "[NOTE] ..." on stderr, which meson's test log keeps: what a test left out and why
** (a skip says it here too). Not cr_log_warn: Criterion exits 1 after a warning, so a warning
** turns a passing suite red. */
void sl_test_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
