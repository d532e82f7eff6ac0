/* SPDX-License-Identifier: Apache-2.0
** regex.h: what every PCRE2 user in the library shares. */
#ifndef SL_REGEX_H
#define SL_REGEX_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* JIT-compiles code for speed, except under valgrind: JIT-generated code reads memory valgrind
** cannot follow and floods memcheck with false reports, so the interpreter runs there. */
void sl_regex_jit(pcre2_code *code);

#endif
