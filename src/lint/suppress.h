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
/* sl_suppress_apply in two steps, for a file checked in two parts (engine.h, sl_check_part):
** the first, on f's whole tree and the findings of its first part, drops those and reports the
** ids that name no rule, and keeps the directives and what they silenced in *held (freed with
** sl_suppress_held_free, even on an error); the rest, on a tree that holds at least the
** documents of the second part's findings (their annotations), drops those and reports the
** directives that silenced nothing in either part. Together they drop and report what
** sl_suppress_apply over both parts' findings would. A finding of the first part kept on a
** condition (sl_frec.cond) is dropped when silenced, but what it silenced counts only in the
** rest and only when its condition holds (used: sl_engine_uses_settle); one not silenced stays
** for the caller to keep or drop (sl_engine_cond_holds). */
typedef struct sl_suppress_held sl_suppress_held;
sl_err sl_suppress_apply_first(sl_file *f, sl_suppress_held **held);
sl_err sl_suppress_apply_rest(sl_file *f, sl_suppress_held *held, const bool *used);
/* Between the two, on the first part's tree: whether the findings the checks laters[0..n) left
** (engine.h, sl_later) would report are silenced (l->silenced); what they would silence is
** noted on condition first_cond + i (that laters[i] reports: used[first_cond + i - 1] in the
** rest). SL_ENOMEM. */
sl_err sl_suppress_judge_laters(sl_file *f, sl_suppress_held *held, sl_later **laters, size_t n,
				uint32_t first_cond);
void sl_suppress_held_free(sl_suppress_held *held);
/* True when the rest (sl_suppress_apply_rest) reads the file's text: it has directives, whose
** places an unused one is reported at. */
bool sl_suppress_held_reads_text(const sl_suppress_held *held);
/* *hit when a directive of the text src (parsed as tree: a '#' in a scalar is no directive)
** silences rule ri on 1-based line: at the end of that line, alone on the line above, or an
** ignore-file (a build's finding moved into a base or patch file, whose comments are not in the
** built text). SL_ENOMEM, SL_EINTERNAL. */
sl_err sl_suppress_covers(const sl_source *src, const sl_tree *tree, uint32_t line, int ri,
			  bool *hit);

#endif
