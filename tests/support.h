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

#endif
