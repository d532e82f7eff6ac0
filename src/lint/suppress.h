/* SPDX-License-Identifier: Apache-2.0
** suppress.h: suppressions (spec/cli.md): `# schedlint: ignore[ids] reason` at the end of the
** line a finding points at or alone on the line above it, `# schedlint: ignore-file[ids]`
** anywhere in the file, bare `ignore` / `ignore-file` for every rule, and the object annotation
** `schedlint.io/ignore: "id,id"`. Ids may name rules or categories. A `#` inside a quoted or
** block scalar is never a directive. Directives that suppressed nothing become
** unused-suppression findings with a safe fix. */
#ifndef SL_SUPPRESS_H
#define SL_SUPPRESS_H

#include "lint/engine.h"

/* Drops f's suppressed findings and reports the unused directives. Runs after pass 2. */
sl_err sl_suppress_apply(sl_file *f);
/* *hit when a directive of the text src (parsed as tree: a '#' in a scalar is no directive)
** silences rule ri on 1-based line: at the end of that line, alone on the line above, or an
** ignore-file (a build's finding moved into a base or patch file, whose comments are not in the
** built text). SL_ENOMEM, SL_EINTERNAL. */
sl_err sl_suppress_covers(const sl_source *src, const sl_tree *tree, uint32_t line, int ri,
			  bool *hit);

#endif
